#!/usr/bin/env python3
"""How well `spots search` answers what people type: judged queries of eight families.

    python3 Benchmarks/relevance/relevance.py [--spots PATH] [--data DIR] [--extract FILE ...]
        [--language CODE ...] [--sample N] [--seed S] [--work DIR] [--write-json FILE]

Each extract is read here (gzip + ElementTree) and every query is judged from its OSM tags
alone, never from Spots' answers:

  words      a category word in the city's languages and English (lexicon.json), near the
             centre, limit 100: recall in the first 100 and the share of results relevant
  dishes     a dish or cuisine word (lexicon.json), relevant = a place with one of its tags (its
             values of `cuisine`; a word for coffee, in every language, also `amenity=cafe`), or
             a food place whose name has a word starting with it (or ending with it, for a dish
             word of 5 letters or more): the same
  near_kind  a category word (lexicon.json's words, as the words family asks them) from a point
             up to 200 m from a spot of its kind (a spot with one of the word's tags), from each
             of up to 3 such spots drawn per word (ORIGINS_PER_WORD, seeded), limit 10: the share
             of the 10 spots of the kind nearest that point (all of them where the extract has
             fewer) in the results, nearness counted on the positions `spots export` gives the
             spots, each spot once however many OSM objects deduplication merged into it; a word
             with no spot of its kind is skipped
  typos      a name with one seeded edit on a word of 5 letters or more: hit in the top 10
  exact      a whole name, asked with no place (no `near` in the request): the first result has
             that name; it measures exact names first wherever the user is
  addresses  "street housenumber" of a place with both: a place at that address in the top 5
  prefixes   3 to 5 letters starting a name, near the place (moved up to 200 m): that
             place in the top 10; letters that are a category word of the lexicon in the
             extract's languages are skipped: they ask for a kind of place (near_kind judges that)
  word_prefixes  the same for a later word of a name

Goals (GOALS, printed beside the scores): near_kind 0.95, dishes 0.9, prefixes and
word_prefixes 0.99, exact 1.0, on every extract. Each family is reported per language and per
extract. Words, dishes and near_kind have the word's language; the queries of the name
families (typos, exact, addresses, prefixes, word_prefixes) have none of their own and are
reported under the extract's languages but English, joined by "+" ("fi+sv", "de"; "en" for an
extract of English alone): rows of the table by language and keys of the JSON's `languages`.

Each extract is built with `spots build X -o X.spots -O --quiet` and all its queries run in
one `spots search X.spots --batch FILE`. `spots export` tells which OSM objects deduplication
merged into which spot, so that a merged object counts as found when its spot is, and where
each spot stands (near_kind's positions). The judged queries, the requests, the answers and
each query's score are left in the work folder.
"""

import argparse
import gzip
import json
import math
import os
import random
import re
import statistics
import subprocess
import sys
import unicodedata
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
FAMILIES = ("words", "dishes", "near_kind", "typos", "exact", "addresses", "prefixes", "word_prefixes")
SET_FAMILIES = ("words", "dishes")
TOP = {"typos": 10, "exact": 1, "addresses": 5, "prefixes": 10, "word_prefixes": 10}  # a hit must rank this high
NEAREST = 10  # near_kind: the nearest spots of the kind that count, and the results asked for
ORIGINS_PER_WORD = 3  # near_kind: the spots of its kind a word is asked near
SET_LIMIT = 100  # results asked for a word or dish
HIT_LIMIT = 10  # results asked for the other families (more than TOP, to show near misses)
GOALS = {"near_kind": 0.95, "dishes": 0.9, "exact": 1.0, "prefixes": 0.99, "word_prefixes": 0.99}  # every extract
MEASURES = {
    "words": "recall in the first 100, near the centre",
    "dishes": "recall in the first 100, near the centre",
    "near_kind": "kind word near one: its 10 nearest, top 10",
    "typos": "one edit: the place in the top 10",
    "exact": "whole name, no place: first result has it",
    "addresses": "street number: in the top 5",
    "prefixes": "3-5 letters of the name near it: top 10",
    "word_prefixes": "3-5 letters of a later word: top 10",
}
PREFIX_SHIFT_M = 200
EARTH_RADIUS_M = 6371008.8
METRES_PER_DEGREE = EARTH_RADIUS_M * math.pi / 180
KEYBOARD_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
ENGLISH = "en"


@dataclass(frozen=True)
class Place:
    """An OSM object Spots would make a spot of: its reference ("n123", "w45", "r6"), its tags,
    and its position ((lat, lon); None for relations)."""

    ref: str
    tags: dict
    position: tuple | None

    @property
    def name(self):
        """The name as a person types it: `name` with white space collapsed ("" if none)."""
        return " ".join(self.tags.get("name", "").split())


@dataclass
class Query:
    """One judged query: what is typed, where the user stands (None: nowhere), and what counts
    as an answer (a result standing for one of the OSM references in `refs`, or for the hit
    families also one whose folded name is in `names`). `skip` says why it is not asked; `note`
    how it was made. `language` is the word's, or for a name the extract's languages."""

    family: str
    language: str | None
    text: str
    near: tuple | None
    refs: frozenset
    names: frozenset = frozenset()
    note: dict = field(default_factory=dict)
    skip: str | None = None

    @property
    def limit(self):
        """How many results the request asks for."""
        return SET_LIMIT if self.family in SET_FAMILIES else NEAREST if self.family == "near_kind" else HIT_LIMIT

    def request(self):
        """The batch request line's object: without a place for a whole name."""
        placed = {} if self.near is None else {"near": list(self.near)}
        return {"query": self.text} | placed | {"limit": self.limit}

    def judged(self):
        """The query as written to the work folder."""
        return {
            "family": self.family,
            "language": self.language,
            "query": self.text,
            "near": None if self.near is None else list(self.near),
            "limit": self.limit,
            "relevant": sorted(self.refs),
            "names": sorted(self.names),
            "note": self.note,
            "skip": self.skip,
        }


def fold(text):
    """Text as names and addresses are compared, folded as Spots folds names: width (NFKC),
    case, punctuation, white space and the diacritics of Latin letters ("Fazer Café" =
    "fazer cafe", "Madriu-Perafita" = "Madriu Perafita")."""
    kept, latin = [], False
    for c in unicodedata.normalize("NFD", unicodedata.normalize("NFKC", text).casefold()):
        if unicodedata.category(c).startswith("P"):
            c = " "
        elif not unicodedata.combining(c):
            latin = "LATIN" in unicodedata.name(c, "")
        elif latin:
            continue
        kept.append(c)
    return " ".join(unicodedata.normalize("NFC", "".join(kept)).split())


# --- the extract --------------------------------------------------------------------------


def open_extract(path):
    """The extract's bytes, inflated when it starts with gzip's magic bytes."""
    with open(path, "rb") as f:
        gzipped = f.read(2) == b"\x1f\x8b"
    return gzip.open(path, "rb") if gzipped else open(path, "rb")


def read_extract(path):
    """The places Spots would make of an extract: nodes, ways whose nodes are all in it and
    multipolygon relations, tagged amenity or tourism and not deleted. Every node's position is
    kept while reading, so that a way stands at the average of its nodes."""
    coords, places = {}, []
    with open_extract(path) as f:
        events = ET.iterparse(f, events=("start", "end"))
        _, root = next(events)
        for event, element in events:
            if event == "end" and element.tag in ("node", "way", "relation"):
                place = place_of(element, coords)
                if place:
                    places.append(place)
                root.clear()
    return places


def place_of(element, coords):
    """The place an OSM element makes, or None; records a node's position in `coords`."""
    kind, ident = element.tag, element.get("id")
    if kind == "node" and element.get("lat") and element.get("lon"):
        coords[ident] = (float(element.get("lat")), float(element.get("lon")))
    tags = {tag.get("k"): tag.get("v") for tag in element.iter("tag")}
    deleted = element.get("visible") == "false" or element.get("action") == "delete"
    if deleted or not ("amenity" in tags or "tourism" in tags):
        return None
    if kind == "node":
        return Place("n" + ident, tags, coords[ident]) if ident in coords else None
    if kind == "relation":
        return Place("r" + ident, tags, None) if tags.get("type") == "multipolygon" else None
    nodes = [nd.get("ref") for nd in element.iter("nd")]
    if len(nodes) > 1 and nodes[0] == nodes[-1]:
        nodes = nodes[:-1]
    if not nodes or any(node not in coords for node in nodes):
        return None
    points = [coords[node] for node in nodes]
    return Place("w" + ident, tags, (statistics.fmean(p[0] for p in points), statistics.fmean(p[1] for p in points)))


def has_tag(place, spec):
    """Whether a place has the tag `key=value`, the value being one of a list as mappers write
    them: separated by ";" or ",", or a member of an "&" or "and" list ("Pizza & Kebab")."""
    key, value = spec.split("=", 1)
    listed = set()
    for item in re.split(r"[;,]", place.tags.get(key, "")):
        listed.add(item.strip().casefold())
        listed.update(member.strip() for member in re.split(r"&| and ", item.casefold()))
    return value.casefold() in listed


def median_centre(places):
    """The median latitude and longitude of the places that have a position."""
    points = [p.position for p in places if p.position]
    if not points:
        raise SystemExit("relevance.py: an extract has no places with a position")
    return (statistics.median(p[0] for p in points), statistics.median(p[1] for p in points))


# --- the queries --------------------------------------------------------------------------


def lexicon_queries(family, lexicon, languages, places, centre):
    """Every word of the extract's languages in a lexicon section, near the centre. A word in
    several of them is asked once, for the first language, meaning what any of them means;
    relevant are the places with any of its tags. Words with no such place are skipped."""
    words = {}
    for language in languages:
        for word, specs in lexicon[language].items():
            entry = words.setdefault(word.casefold(), {"word": word, "language": language, "specs": set()})
            entry["specs"].update(specs)
    queries = []
    for entry in words.values():
        refs = frozenset(
            p.ref for p in places
            if any(has_tag(p, s) for s in entry["specs"]) or (family == "dishes" and serves_by_name(p, entry["word"])))
        query = Query(family, entry["language"], entry["word"], centre, refs, note={"tags": sorted(entry["specs"])})
        query.skip = None if refs else "no such place in the extract"
        queries.append(query)
    return queries


FOOD = {"restaurant", "fast_food", "cafe", "bar", "pub", "food_court", "ice_cream", "biergarten"}


def serves_by_name(place, dish):
    """Whether a food place's name holds a dish word: a word of its `name` or a `name:xx` starts
    with it, or ends with it when it has 5 letters or more, folded ("Pizzeria Rax", "Kotipizza"
    for "pizza"; not "Sareis" for "eis")."""
    if place.tags.get("amenity") not in FOOD:
        return False
    dish = fold(dish)
    names = [v for k, v in place.tags.items() if k == "name" or k.startswith("name:")]
    return any(
        w.startswith(dish) or (len(dish) >= 5 and w.endswith(dish)) for n in names for w in fold(n).split())


def places_by_name(places):
    """Named places grouped by folded name, in the order first met: {folded: (name, refs)}."""
    groups = {}
    for place in places:
        if place.name:
            groups.setdefault(fold(place.name), (place.name, set()))[1].add(place.ref)
    return groups


def typo_queries(places, centre, rng):
    """Each name with a word of five letters or more, that word misspelt once, near the
    centre; a hit is the place or any place with the original name. A misspelling that is
    another place's name is skipped."""
    groups, queries = places_by_name(places), []
    for key, (name, refs) in groups.items():
        words = [m for m in re.finditer(r"[^\W\d_]+", name) if len(m.group()) >= 5]
        if not words:
            continue
        word = rng.choice(words)
        misspelt, edit = misspell(word.group(), rng)
        text = name[: word.start()] + misspelt + name[word.end() :]
        query = Query("typos", None, text, centre, frozenset(refs), frozenset([key]), {"original": name, "edit": edit})
        query.skip = "another place has that name" if fold(text) in groups else None
        queries.append(query)
    return queries


def misspell(word, rng):
    """The word with one edit, never of its first letter: a letter replaced by a neighbour on a
    QWERTY keyboard, deleted, a neighbour of the letter before inserted, or two different
    neighbouring letters swapped. Returns the word and the edit's name. Where the edit cannot
    be made (a letter with no keyboard neighbour, no two different letters) a letter is
    deleted instead."""
    edit = rng.choice(("substitution", "deletion", "insertion", "transposition"))
    if edit == "transposition":
        swaps = [i for i in range(1, len(word) - 1) if word[i] != word[i + 1]]
        if swaps:
            i = rng.choice(swaps)
            return word[:i] + word[i + 1] + word[i] + word[i + 2 :], edit
    if edit == "insertion":
        i = rng.randrange(1, len(word) + 1)
        letter = keyboard_neighbour(word[i - 1], rng)
        if letter:
            return word[:i] + (letter.upper() if word.isupper() else letter) + word[i:], edit
    i = rng.randrange(1, len(word))
    if edit == "substitution":
        letter = keyboard_neighbour(word[i], rng)
        if letter:
            return word[:i] + (letter.upper() if word[i].isupper() else letter) + word[i + 1 :], edit
    return word[:i] + word[i + 1 :], "deletion"


def keyboard_neighbour(letter, rng):
    """A key next to the letter's on a QWERTY keyboard (of its base letter: ä is a), in lower
    case; None for a letter not on it."""
    base = unicodedata.normalize("NFD", letter)[0].lower()
    for row, keys in enumerate(KEYBOARD_ROWS):
        i = keys.find(base)
        if i < 0:
            continue
        near = keys[max(i - 1, 0) : i] + keys[i + 1 : i + 2]
        if row > 0:
            near += KEYBOARD_ROWS[row - 1][i : i + 2]
        if row < len(KEYBOARD_ROWS) - 1:
            near += KEYBOARD_ROWS[row + 1][max(i - 1, 0) : i + 1]
        return rng.choice(near)
    return None


def exact_queries(places):
    """Each name as written, with no place; a hit is a first result with that name."""
    return [
        Query("exact", None, name, None, frozenset(refs), frozenset([key]))
        for key, (name, refs) in places_by_name(places).items()
    ]


def address_queries(places, centre):
    """Each "street housenumber" of places with both tags, near the centre; a hit is any place
    at that address."""
    groups = {}
    for place in places:
        street, number = place.tags.get("addr:street"), place.tags.get("addr:housenumber")
        if street and number:
            text = " ".join(street.split()) + " " + " ".join(number.split())
            groups.setdefault(fold(text), (text, set()))[1].add(place.ref)
    return [Query("addresses", None, text, centre, frozenset(refs)) for text, refs in groups.values()]


def prefix_queries(places, rng, family):
    """For each named place with a position, the first 3 to 5 letters (lower case) of its name's
    first word ("prefixes") or of one of its later words ("word_prefixes"), from a point up to
    200 m away from it; a hit is that place."""
    queries = []
    for place in places:
        words = re.findall(r"[^\W\d_]+", place.name)
        words = words[:1] if family == "prefixes" else words[1:]
        words = [w for w in words if len(w) >= 3]
        if not words or not place.position:
            continue
        word = rng.choice(words)
        text = word[: rng.randint(3, min(5, len(word)))].lower()
        note = {"name": place.name, "position": list(place.position)}
        queries.append(Query(family, None, text, moved(place.position, rng), frozenset([place.ref]), note=note))
    return queries


def moved(position, rng):
    """A point up to PREFIX_SHIFT_M metres from a position, in a random direction."""
    distance, bearing = rng.uniform(0, PREFIX_SHIFT_M), rng.uniform(0, 2 * math.pi)
    lat = position[0] + distance * math.cos(bearing) / METRES_PER_DEGREE
    lon = position[1] + distance * math.sin(bearing) / METRES_PER_DEGREE / math.cos(math.radians(position[0]))
    return (round(lat, 7), round(lon, 7))


def near_kind_queries(lexicon, languages, places, spots, rng):
    """Each category word of the extract's languages (asked once, as `lexicon_queries` does),
    from a point up to 200 m from each of up to ORIGINS_PER_WORD spots of its kind drawn by
    `rng`; relevant are the NEAREST spots of the kind to that point. `spots` maps a place's
    OSM reference to its spot's (reference, position), for the places the index holds. A word
    with no spot of its kind is skipped, once."""
    words = {}
    for language in languages:
        for word, specs in lexicon[language].items():
            words.setdefault(word.casefold(), (word, language, set()))[2].update(specs)
    queries = []
    for word, language, specs in words.values():
        kind = sorted({spots[p.ref] for p in places if p.ref in spots and any(has_tag(p, s) for s in specs)})
        if not kind:
            queries.append(Query("near_kind", language, word, None, frozenset(), skip="no such spot in the index"))
            continue
        for ref, position in rng.sample(kind, min(ORIGINS_PER_WORD, len(kind))):
            origin = moved(position, rng)
            nearest = sorted(kind, key=lambda spot: metres(origin, spot[1]))[:NEAREST]
            note = {"tags": sorted(specs), "spot": ref, "nearest_m": [round(metres(origin, p)) for _, p in nearest]}
            queries.append(Query("near_kind", language, word, origin, frozenset(r for r, _ in nearest), note=note))
    return queries


def metres(a, b):
    """The great-circle distance between two (lat, lon) points, in metres (haversine)."""
    lat1, lon1, lat2, lon2 = map(math.radians, (*a, *b))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * EARTH_RADIUS_M * math.asin(math.sqrt(h))


def category_words(lexicon, languages):
    """The lexicon's category words of `languages`, folded."""
    return {fold(word) for language in languages for word in lexicon["words"][language]}


def judged_queries(places, centre, languages, lexicon, sample, seed, stem, spots):
    """All the extract's queries: every lexicon word, the near_kind queries, and up to `sample`
    of each other family, drawn by a generator seeded with the seed, the extract and the family.
    A prefix query whose letters are a category word is skipped: it asks for a kind of place.
    The name families' language is the extract's languages but English ("fi+sv"), or English
    for an extract of English alone."""
    queries = []
    for family in SET_FAMILIES:
        queries += lexicon_queries(family, lexicon[family], languages, places, centre)
    queries += near_kind_queries(lexicon["words"], languages, places, spots, random.Random(f"{seed}:{stem}:near_kind"))
    kinds = category_words(lexicon, languages)
    names = "+".join(code for code in languages if code != ENGLISH) or ENGLISH
    for family in TOP:
        rng = random.Random(f"{seed}:{stem}:{family}")
        if family == "typos":
            made = typo_queries(places, centre, rng)
        elif family == "exact":
            made = exact_queries(places)
        elif family == "addresses":
            made = address_queries(places, centre)
        else:
            made = prefix_queries(places, rng, family)
        for query in rng.sample(made, min(sample, len(made))):
            query.language = names
            if family in ("prefixes", "word_prefixes") and fold(query.text) in kinds:
                query.skip = "the letters are a category word"
            queries.append(query)
    return queries


# --- spots --------------------------------------------------------------------------------


def run(command):
    """Runs a command and returns its output; exits with its error output when it fails."""
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        shown = " ".join(map(str, command))
        raise SystemExit(f"relevance.py: {shown} exited {done.returncode}:\n{done.stderr}")
    return done.stdout


def build_index(spots, extract, index):
    """Builds the extract's index with the default pipeline and returns, from its export, the
    spot each indexed OSM reference (a spot's own and those merged into it) is found as, and
    that spot's position: {ref: (spot ref, (lat, lon))}."""
    run([spots, "build", extract, "-o", index, "-O", "--quiet"])
    found_as = {}
    for line in run([spots, "export", index]).splitlines():
        spot = json.loads(line)
        for ref in [result_ref(spot)] + spot["merged"]:
            found_as[ref] = (result_ref(spot), (spot["lat"], spot["lon"]))
    return found_as


def write_ndjson(path, objects):
    """Writes JSON objects to a file, one a line."""
    path.write_text("".join(json.dumps(o, ensure_ascii=False) + "\n" for o in objects))


def result_ref(result):
    """A result's OSM reference: "n123", "w45", "r6"."""
    return result["osm_type"][0] + str(result["osm_id"])


def search(spots, index, queries, work, stem):
    """Asks the queries in one batch and returns each one's results ([] for an error line)."""
    requests = work / f"{stem}.requests.ndjson"
    write_ndjson(requests, [q.request() for q in queries])
    answers = run([spots, "search", index, "--batch", requests])
    (work / f"{stem}.answers.ndjson").write_text(answers)
    lines = answers.splitlines()
    if len(lines) != len(queries):
        raise SystemExit(f"relevance.py: {len(queries)} requests gave {len(lines)} answer lines ({requests})")
    results = []
    for query, line in zip(queries, lines):
        answer = json.loads(line)
        if "error" in answer:
            print(f"relevance.py: {stem}: {query.text!r}: {answer['error']}", file=sys.stderr)
        results.append(answer.get("results", []))
    return results


# --- scores -------------------------------------------------------------------------------


def score(query, results, found_as):
    """A query's score: for words and dishes the recall in the results (relevant places found
    over the relevant places, at most the limit) and the precision (None without results); for
    near_kind the share of the nearest spots of the kind in the first NEAREST results; for the
    other families 1 if a hit ranks high enough, else 0, with the rank of the first hit."""
    wanted = {found_as.get(ref, ref) for ref in query.refs}
    if query.family == "near_kind":
        found = sum(result_ref(r) in wanted for r in results[:NEAREST])
        return {"score": found / len(wanted), "found": found, "relevant": len(wanted)}
    if query.family in SET_FAMILIES:
        found = sum(result_ref(r) in wanted for r in results)
        return {
            "score": found / min(query.limit, len(wanted)),
            "precision": found / len(results) if results else None,
            "found": found,
            "relevant": len(wanted),
        }
    hits = (i for i, r in enumerate(results, 1) if result_ref(r) in wanted or fold(r.get("name") or "") in query.names)
    rank = next(hits, None)
    return {"score": int(rank is not None and rank <= TOP[query.family]), "rank": rank}


def judge_extract(path, known, options, spots, work, lexicon):
    """Builds, asks and scores one extract; returns its facts and a row for each judged query
    (scored, or with the reason it was skipped). Writes the judged queries, requests, answers
    and scored rows to the work folder."""
    stem = path.name.removesuffix(".gz").removesuffix(".osm")
    places = read_extract(path)
    centre = tuple(known["centre"]) if known else median_centre(places)
    languages = list(dict.fromkeys((known["languages"] if known else options.languages) + [ENGLISH]))
    spots_of = build_index(spots, path, work / f"{stem}.spots")
    found_as = {ref: spot for ref, (spot, _) in spots_of.items()}
    queries = judged_queries(places, centre, languages, lexicon, options.sample, options.seed, stem, spots_of)
    for q in queries:
        if q.skip is None and q.family not in SET_FAMILIES and not any(r in found_as for r in q.refs):
            q.skip = "not in the index"
    write_ndjson(work / f"{stem}.queries.ndjson", [q.judged() for q in queries])
    asked = [q for q in queries if q.skip is None]
    answers = iter(search(spots, work / f"{stem}.spots", asked, work, stem))
    rows = []
    for q in queries:
        row = {"extract": stem, "family": q.family, "language": q.language, "query": q.text, "skipped": q.skip}
        if q.skip is None:
            results = next(answers)
            row |= score(q, results, found_as)
            row["first"] = [f"{result_ref(r)} {r.get('name')}" for r in results[:5]]
        rows.append(row)
    write_ndjson(work / f"{stem}.scores.ndjson", rows)
    print(f"{stem}: {len(places)} places, centre {centre[0]:.4f},{centre[1]:.4f}, languages {' '.join(languages)}, "
          f"{len(asked)} queries ({len(queries) - len(asked)} skipped)")
    facts = {"file": str(path), "places": len(places), "centre": list(centre), "languages": languages}
    return stem, facts, rows


def summary(rows):
    """Of judged rows: how many were asked and skipped, the mean score, and for words and
    dishes the mean precision of the queries that had results."""
    asked = [r for r in rows if r["skipped"] is None]
    precisions = [r["precision"] for r in asked if r.get("precision") is not None]
    return {
        "queries": len(asked),
        "skipped": len(rows) - len(asked),
        "score": statistics.fmean(r["score"] for r in asked) if asked else None,
        "precision": statistics.fmean(precisions) if precisions else None,
    }


def in_language(rows, family, code):
    """The rows of a family in a language (a name family's: the extract's languages, "fi+sv");
    code "local" is every language but English, the control."""
    chosen = (lambda language: language != ENGLISH) if code == "local" else (lambda language: language == code)
    return [r for r in rows if r["family"] == family and chosen(r["language"])]


def misses(family, score):
    """Whether a family's score falls short of its goal (False without a goal or a score)."""
    return family in GOALS and score is not None and score < GOALS[family]


def shortfalls(rows):
    """The families of the rows whose score falls short of their goal: {family: score}."""
    scores = {family: summary([r for r in rows if r["family"] == family])["score"] for family in GOALS}
    return {family: value for family, value in scores.items() if misses(family, value)}


def figure(value, width):
    """A score with three decimals, or a dash, right-aligned."""
    return f"{value:{width}.3f}" if value is not None else f"{'-':>{width}}"


def goal_cell(family, s):
    """A family's goal and whether the summary's score meets it ("0.95 met", "0.95 short"), or
    a dash for a family without a goal."""
    if family not in GOALS:
        return "-"
    return f"{GOALS[family]:.2f} " + ("short" if misses(family, s["score"]) else "met")


def table_row(label, family, s):
    """A printed row: a label, then the counts, the score, the precision and the goal of a
    family's summary."""
    counts = f"{s['queries']:>7} {s['skipped']:>7} {figure(s['score'], 6)} {figure(s['precision'], 9)}"
    return f"{label} {counts}  {goal_cell(family, s)}"


def print_tables(rows, extracts):
    """The overall table by family; every family by language; each extract by family; the
    goals an extract falls short of; and why queries were skipped."""
    wide = max(map(len, FAMILIES))
    measure = max(map(len, MEASURES.values()))
    print(f"\n{'family':<{wide}} {'measure':<{measure}} {'queries':>7} {'skipped':>7} {'score':>6} {'precision':>9}"
          "  goal (here overall; each extract below)")
    for family in FAMILIES:
        s = summary([r for r in rows if r["family"] == family])
        print(table_row(f"{family:<{wide}} {MEASURES[family]:<{measure}}", family, s))
    print_languages(rows)
    print(f"\n{'extract':<24} {'family':<{wide}} {'queries':>7} {'skipped':>7} {'score':>6} {'precision':>9}  goal")
    for stem in extracts:
        for family in FAMILIES:
            s = summary([r for r in rows if r["extract"] == stem and r["family"] == family])
            print(table_row(f"{stem:<24} {family:<{wide}}", family, s))
    short = [f"{stem} {family} {value:.3f} < {GOALS[family]}"
             for stem in extracts for family, value in shortfalls([r for r in rows if r["extract"] == stem]).items()]
    print("\nshort of the goals: " + ("; ".join(short) if short else "none"))
    reasons = Counter((r["family"], r["skipped"]) for r in rows if r["skipped"])
    if reasons:
        print("\nskipped: " + "; ".join(f"{f} {n} ({reason})" for (f, reason), n in sorted(reasons.items())))


def print_languages(rows):
    """The table by language: each family's score (and for words and dishes precision) in each
    language, the name families under the extract's languages ("fi+sv")."""
    names = sorted({r["language"] for r in rows if r["family"] in TOP})
    print("\nby language: score (queries), words and dishes score/precision; local: all but English, the control."
          "\nwords, dishes and near_kind under the word's language; typos, exact, addresses, prefixes and"
          f"\nword_prefixes (names, with no language) under the extract's languages: {', '.join(names)}")
    languages = sorted({r["language"] for r in rows}, key=lambda code: (code == ENGLISH, code))
    wide = max(map(len, ["local"] + languages))
    print(f"  {'':<{wide}}" + "".join(f"{family:>19}" for family in FAMILIES))
    for language in ["local"] + languages:
        cells = []
        for family in FAMILIES:
            s = summary(in_language(rows, family, language))
            shown = figure(s["score"], 5) + (f"/{figure(s['precision'], 5)}" if family in SET_FAMILIES else "")
            cells.append(f"{shown} ({s['queries']:>3})" if s["queries"] else "-")
        print(f"  {language:<{wide}}" + "".join(f"{cell:>19}" for cell in cells))


def scores_json(rows, extracts, spots, options):
    """The scores as a JSON object: the goals; by family; by family and language (every
    family, the name families under the extract's languages); and by extract, with the goals
    it falls short of."""

    def by_family(selected):
        return {f: summary([r for r in selected if r["family"] == f]) for f in FAMILIES}

    def by_language(family):
        languages = ["local"] + sorted({r["language"] for r in rows if r["family"] == family})
        return {code: summary(in_language(rows, family, code)) for code in languages}

    def of_extract(stem):
        selected = [r for r in rows if r["extract"] == stem]
        return {"families": by_family(selected), "short_of_goals": shortfalls(selected)}

    return {
        "spots": str(spots),
        "seed": options.seed,
        "sample": options.sample,
        "goals": GOALS,
        "families": by_family(rows),
        "languages": {family: by_language(family) for family in FAMILIES},
        "extracts": {stem: facts | of_extract(stem) for stem, facts in extracts.items()},
    }


# --- the run ------------------------------------------------------------------------------


def arguments(lexicon):
    """The command line; `languages` holds the --language codes, each checked."""
    bench = os.environ.get("SPOTS_BENCH_DIR")
    work = Path(bench) / "relevance" if bench else Path(os.environ.get("TMPDIR", "/tmp")) / "spots-relevance"
    parser = argparse.ArgumentParser(description="Relevance benchmark of spots search: judged queries from OSM tags.")
    parser.add_argument("--spots", default=os.environ.get("SPOTS_BIN") or ROOT / ".build/release/spots",
                        help="the spots binary (default: $SPOTS_BIN, else .build/release/spots)")
    parser.add_argument("--data", default=ROOT.parent / "shared/data",
                        help="the folder of the extracts cities.json knows (default ../shared/data)")
    parser.add_argument("--extract", nargs="+", default=[], metavar="FILE",
                        help="the extracts to judge (default: those of cities.json found in --data)")
    parser.add_argument("--language", action="append", default=[], metavar="CODE",
                        help="a language of extracts cities.json does not know (repeatable or comma-separated; "
                        "English is always added)")
    parser.add_argument("--sample", type=int, default=100,
                        help="queries drawn of each family but words and dishes, per extract (default 100)")
    parser.add_argument("--seed", default="18", help="the seed of the samples (default 18)")
    parser.add_argument("--work", default=work,
                        help="where indexes, queries and answers are written (default $SPOTS_BENCH_DIR/relevance, "
                        "else /tmp/spots-relevance)")
    parser.add_argument("--write-json", metavar="FILE", help="also write the scores to FILE as JSON")
    options = parser.parse_args()
    options.languages = [code for value in options.language for code in value.split(",") if code]
    for code in options.languages:
        if code not in lexicon["words"]:
            parser.error(f"no words for language '{code}' in lexicon.json (it has {', '.join(lexicon['words'])})")
    if options.sample < 0:
        parser.error("--sample must be 0 or more")
    return options


def chosen_extracts(options, cities):
    """The extracts to judge: those given (exit 66 if one is missing), or the known ones found
    in the data folder (None when there are none)."""
    if options.extract:
        for extract in options.extract:
            if not Path(extract).is_file():
                print(f"relevance.py: {extract}: no such file", file=sys.stderr)
                sys.exit(66)
        return [Path(e) for e in options.extract]
    found = [Path(options.data) / name for name in cities if (Path(options.data) / name).is_file()]
    return found or None


def main():
    lexicon = json.loads((HERE / "lexicon.json").read_text())
    cities = json.loads((HERE / "cities.json").read_text())["extracts"]
    options = arguments(lexicon)
    paths = chosen_extracts(options, cities)
    if paths is None:
        print(f"relevance.py: skipped: no known extract in {options.data} (../shared/data is absent?); "
              "give --extract FILE to judge others")
        return
    spots = Path(options.spots)
    if not os.access(spots, os.X_OK):
        sys.exit(f"relevance.py: {spots}: no spots binary (swift build -c release, or give --spots)")
    work = Path(options.work)
    work.mkdir(parents=True, exist_ok=True)
    print(f"spots: {spots}\nwork folder: {work} (judged queries, requests, answers and scores of each extract)")
    rows, extracts = [], {}
    for path in paths:
        stem, facts, judged = judge_extract(path, cities.get(path.name), options, spots, work, lexicon)
        extracts[stem] = facts
        rows += judged
    print_tables(rows, extracts)
    if options.write_json:
        scores = scores_json(rows, extracts, spots, options)
        Path(options.write_json).write_text(json.dumps(scores, indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
