#!/usr/bin/env python3
"""Independent counter of the spots a pipeline preset makes of an OSM file, by category.

    python3 preset_counts.py PIPELINE.json OSM_FILE [--nodes-only]

Prints one JSON object (keys sorted):

    {"by_category": {"cafe": 24, ...}, "by_result_type": {"pointOfInterest": 471}, "total": 471}

The pipeline: PIPELINE.json's fields, and for each one it leaves out the field of default.json
in the same folder (else Pipelines/default.json of this repository): `select` (absent from both:
["amenity", "tourism"]), `exclude` (a pipeline's list replaces default's), `keep_all` (false),
`addresses` (false) and `categories`, the category table file, resolved against the folder of
the pipeline file that names it.

Rules (what `spots build --no-dedupe` must keep; the tests compare its index with these):
- Objects: every top-level <node> with a tag, and, without --nodes-only, every <way> with a
  tag and every <relation> tagged type=multipolygon. Skipped: elements marked deleted
  (visible="false" or action="delete"), ids that are not integers or beyond +-2^45, nodes whose
  lat/lon is missing, not a number or out of range (|lat| <= 90, |lon| <= 180 after rounding to
  7 decimals). If a key appears twice on one element, its first value counts.
- Selecting tag: the first key of `select` that the object has and whose `key=value` is not
  in `exclude` (with keep_all nothing is excluded). An object with keys of `select` that are all
  excluded is no spot. With `addresses`, an object with addr:housenumber and no key of `select`
  at all is an address point: result type "address", category "(none)".
- Category: the table's rule for key/value, else none (unmapped). A rule's `when` conditions
  are tried in order on the object's tags; a condition "k=v" holds when the object's k is
  exactly v; the first that holds gives its category (which may be null), else the rule's
  default. A spot without a category is dropped, unless keep_all: then it counts as "(none)".
- Result type: "address" for address points; else the table's top-level "result_types" entry
  for the selecting key ({"natural": "physicalFeature", ...}) when it has one, else
  "pointOfInterest".
- The same object met twice (same type and id, both with a key of `select` or both address
  points): the occurrence with the higher version attribute decides, the first on a tie (as
  the build's select stage does); it decides even when it makes no spot.

Ways and relations are counted whatever their geometry, so a build (which drops an area whose
nodes or members are missing) can have fewer: compare with --nodes-only, or with --no-areas
builds, for exact agreement. Input: OSM XML, plain, gzip (every member) or bzip2, told by its
first bytes, read with xml.etree.ElementTree.iterparse, each element cleared once counted.
Exit 0 on success; 1 with one line on stderr for an unreadable or invalid file; 2 for bad usage.
Python 3 standard library only.
"""
import bz2
import decimal
import gzip
import json
import os
import re
import sys
import xml.etree.ElementTree as ET
import zlib

DEFAULT_SELECT = ["amenity", "tourism"]
NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)\Z")
INTEGER = re.compile(r"[+-]?[0-9]+\Z")
MAX_ID = 1 << 45
STEP = decimal.Decimal("1e-7")
CONTEXT = decimal.Context(prec=80, rounding=decimal.ROUND_HALF_UP)
NONE = "(none)"


class Failure(Exception):
    pass


def load_json(path, what):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError as error:
        raise Failure(f"{path}: cannot read the {what}: {error.strerror}")
    except ValueError as error:
        raise Failure(f"{path}: the {what} is not JSON: {error}")


def load_pipeline(path):
    """The settings: select, exclude, keep_all, addresses and the category table."""
    pipeline = load_json(path, "pipeline file")
    folder = os.path.dirname(os.path.abspath(path))
    default_path = os.path.join(folder, "default.json")
    if not os.path.exists(default_path):
        here = os.path.dirname(os.path.abspath(__file__))
        default_path = os.path.join(here, "..", "..", "Pipelines", "default.json")
    if os.path.abspath(default_path) == os.path.abspath(path):
        default, default_folder = pipeline, folder
    else:
        default = load_json(default_path, "default pipeline")
        default_folder = os.path.dirname(os.path.abspath(default_path))

    def field(name, fallback):
        if name in pipeline:
            return pipeline[name], folder
        if name in default:
            return default[name], default_folder
        return fallback, folder

    select = field("select", DEFAULT_SELECT)[0]
    exclude = set(field("exclude", [])[0])
    keep_all = bool(field("keep_all", False)[0])
    addresses = bool(field("addresses", False)[0])
    name, name_folder = field("categories", None)
    if name is None:
        raise Failure(f"{path}: no category table (\"categories\") here or in {default_path}")
    table = load_json(os.path.join(name_folder, name), "category table")
    rules = table.get("tags", {})
    result_types = table.get("result_types", {})
    return select, (set() if keep_all else exclude), keep_all, addresses, rules, result_types


def holds(condition, tags):
    key, _, value = condition["tag"].partition("=")
    return tags.get(key) == value


def category(rules, key, value, tags):
    """The category name of an object selected by key=value, or None."""
    values = rules.get(key, {})
    rule = values.get(value)
    if rule is None or isinstance(rule, str):
        return rule
    for condition in rule.get("when", []):
        if holds(condition, tags):
            return condition["category"]
    return rule.get("category")


def coordinate_ok(text, limit):
    """Whether lat/lon text is a number within +-limit once rounded to 7 decimals."""
    if text is None:
        return False
    if NUMBER.match(text):
        d = decimal.Decimal(text)
        if abs(d) > 2 * limit:
            return False
        return abs(d.quantize(STEP, context=CONTEXT)) <= limit
    try:
        degrees = float(text)
    except ValueError:
        return False
    if degrees != degrees or degrees in (float("inf"), float("-inf")):
        return False
    return abs(round(degrees * 1e7)) <= limit * 10_000_000


def open_input(path):
    try:
        raw = open(path, "rb")
        magic = raw.read(3)
        raw.seek(0)
    except OSError as error:
        raise Failure(f"{path}: cannot read: {error.strerror}")
    if magic[:2] == b"\x1f\x8b":
        return gzip.GzipFile(fileobj=raw, mode="rb")
    if magic == b"BZh":
        return bz2.BZ2File(raw, mode="rb")
    return raw


def count(pipeline_path, osm_path, nodes_only):
    select, exclude, keep_all, addresses, rules, result_types = load_pipeline(pipeline_path)
    select_set = set(select)
    types = ("node",) if nodes_only else ("node", "way", "relation")
    decided = {}  # (type, id) -> (version, (category, result type) or None)
    stream = open_input(osm_path)
    depth = 0
    root = None
    try:
        for event, element in ET.iterparse(stream, events=("start", "end")):
            if event == "start":
                depth += 1
                if root is None:
                    root = element
                continue
            depth -= 1
            if depth != 1:
                continue
            kind = element.tag
            if kind in types:
                outcome = judge(element, kind, select, select_set, exclude, keep_all, addresses, rules, result_types)
                if outcome is not None:
                    ref, version, result = outcome
                    earlier = decided.get(ref)
                    if earlier is None or version > earlier[0]:
                        decided[ref] = (version, result)
            element.clear()
            root.clear()
    except ET.ParseError as error:
        line, column = error.position
        what = str(error).split(":")[0]
        raise Failure(f"{osm_path}: line {line}, column {column + 1}: {what}")
    except (OSError, EOFError, zlib.error) as error:
        raise Failure(f"{osm_path}: cannot read: {error}")
    finally:
        stream.close()
    by_category, by_type = {}, {}
    for _, result in decided.values():
        if result is None:
            continue
        name, result_type = result
        by_category[name] = by_category.get(name, 0) + 1
        by_type[result_type] = by_type.get(result_type, 0) + 1
    return {"by_category": by_category, "by_result_type": by_type, "total": sum(by_category.values())}


def judge(element, kind, select, select_set, exclude, keep_all, addresses, rules, result_types):
    """(ref, version, result) for a candidate (an object with a key of select, or an address
    point): result is (category, result type), or None when it makes no spot. None for an
    object that is no candidate or is skipped."""
    if element.get("visible") == "false" or element.get("action") == "delete":
        return None
    tags = {}
    for child in element:
        if child.tag == "tag":
            key = child.get("k")
            if key is not None and key not in tags:
                tags[key] = child.get("v", "")
    if not tags:
        return None
    if kind == "relation" and tags.get("type") != "multipolygon":
        return None
    present = [key for key in select if key in tags]
    is_address = not present and addresses and "addr:housenumber" in tags
    if not present and not is_address:
        return None
    text = element.get("id")
    if text is None or not INTEGER.match(text) or not -MAX_ID <= int(text) < MAX_ID:
        return None
    if kind == "node" and not (coordinate_ok(element.get("lat"), 90) and coordinate_ok(element.get("lon"), 180)):
        return None
    version_text = element.get("version")
    version = int(version_text) if version_text is not None and INTEGER.match(version_text) else 0
    ref = (kind, int(text))
    if is_address:
        return ref, version, (NONE, "address")
    chosen = next((key for key in present if f"{key}={tags[key]}" not in exclude), None)
    if chosen is None:
        return ref, version, None
    name = category(rules, chosen, tags[chosen], tags)
    if name is None:
        if not keep_all:
            return ref, version, None
        name = NONE
    return ref, version, (name, result_types.get(chosen, "pointOfInterest"))


def main(argv):
    args = [a for a in argv if a != "--nodes-only"]
    if len(args) != 2 or any(a.startswith("-") for a in args):
        print("usage: preset_counts.py PIPELINE.json OSM_FILE [--nodes-only]", file=sys.stderr)
        return 2
    try:
        counts = count(args[0], args[1], "--nodes-only" in argv)
    except Failure as failure:
        print(f"preset_counts: {failure}", file=sys.stderr)
        return 1
    print(json.dumps(counts, sort_keys=True, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
