#!/usr/bin/env python3
"""Seeded edits of an OSM XML extract: the second version of an extract, for tests of updates.

    python3 edit_extract.py IN.osm[.gz|.bz2] OUT.osm --seed N [--edits K]

Writes OUT.osm, the input with K edits of each kind (default 5) made by a random generator
seeded with N, so that `osmium derive-changes IN OUT -o CHANGE.osc.gz` gives an osmChange file
whose application to IN is OUT. The kinds, each on objects chosen at random:

- add: new nodes (ids above the extract's highest) tagged as places, named;
- remove: place nodes that no way uses, deleted;
- retag: a place node's value changed (amenity=cafe to amenity=bar), another's selecting tag
  removed (it stops being a place), a plain tagged node given one (it starts);
- rename: a place's name changed;
- move: place nodes moved by up to about 200 m;
- ring: one node of a multipolygon place's outer way moved (its area's point moves);
- member: one member way of a multipolygon place removed from it and deleted;
- way nodes: a place way's node list changed (a node dropped, or one of another way added).

Every element changed gets its version raised by one and the timestamp 2030-01-01T00:00:00Z;
a deleted one is left out. Objects are written nodes, then ways, then relations, each by id.
Prints one JSON line to stdout counting the edits made of each kind. Exit 0; 1 with one line
on stderr for an unreadable input; 2 for bad usage. Python 3 standard library only.
"""
import argparse
import bz2
import gzip
import json
import random
import sys
import xml.etree.ElementTree as ET

SELECTING = ("amenity", "tourism")
VALUES = [("amenity", "cafe"), ("amenity", "restaurant"), ("amenity", "bar"), ("tourism", "hotel"),
          ("amenity", "pharmacy"), ("tourism", "museum")]
STAMP = "2030-01-01T00:00:00Z"


def open_input(path):
    with open(path, "rb") as raw:
        magic = raw.read(3)
    if magic[:2] == b"\x1f\x8b":
        return gzip.open(path, "rb")
    if magic == b"BZh":
        return bz2.open(path, "rb")
    return open(path, "rb")


def tags(element):
    return {tag.get("k"): tag.get("v") for tag in element.findall("tag")}


def set_tag(element, key, value):
    for tag in element.findall("tag"):
        if tag.get("k") == key:
            if value is None:
                element.remove(tag)
            else:
                tag.set("v", value)
            return
    if value is not None:
        ET.SubElement(element, "tag", k=key, v=value)


def is_place(element):
    return any(key in tags(element) for key in SELECTING)


def touch(element):
    element.set("version", str(int(element.get("version", "0")) + 1))
    element.set("timestamp", STAMP)


class Extract:
    """The extract's elements by type and id, and which nodes ways use."""

    def __init__(self, root):
        self.root = root
        self.elements = {kind: {} for kind in ("node", "way", "relation")}
        for element in root:
            if element.tag in self.elements:
                self.elements[element.tag][int(element.get("id"))] = element
        self.used_nodes = {int(nd.get("ref")) for way in self.elements["way"].values() for nd in way.findall("nd")}

    def write(self, path):
        out = ET.Element("osm", version="0.6", generator="edit_extract.py")
        for child in self.root:
            if child.tag == "bounds":
                out.append(child)
        for kind in ("node", "way", "relation"):
            for key in sorted(self.elements[kind]):
                out.append(self.elements[kind][key])
        ET.ElementTree(out).write(path, encoding="utf-8", xml_declaration=True)

    def place_nodes(self, free=False):
        return sorted(key for key, node in self.elements["node"].items()
                      if is_place(node) and (not free or key not in self.used_nodes))

    def multipolygon_places(self):
        return sorted(key for key, relation in self.elements["relation"].items()
                      if is_place(relation) and tags(relation).get("type") == "multipolygon"
                      and any(member.get("type") == "way" and int(member.get("ref")) in self.elements["way"]
                              for member in relation.findall("member")))


def edit(extract, rng, count):
    made = {}
    nodes = extract.elements["node"]
    ways = extract.elements["way"]

    def note(kind):
        made[kind] = made.get(kind, 0) + 1

    # add
    next_id = max(nodes) + 1
    lats = [float(node.get("lat")) for node in nodes.values() if node.get("lat")]
    lons = [float(node.get("lon")) for node in nodes.values() if node.get("lon")]
    for number in range(count):
        node = ET.Element("node", id=str(next_id + number), version="1", timestamp=STAMP,
                          lat=f"{rng.uniform(min(lats), max(lats)):.7f}", lon=f"{rng.uniform(min(lons), max(lons)):.7f}")
        key, value = rng.choice(VALUES)
        set_tag(node, key, value)
        set_tag(node, "name", f"Edited Place {number}")
        nodes[next_id + number] = node
        note("add")
    # remove
    for key in rng.sample(extract.place_nodes(free=True), min(count, len(extract.place_nodes(free=True)))):
        del nodes[key]
        note("remove")
    places = extract.place_nodes()
    # retag: change a value, drop the selecting tag, give a plain tagged node one
    for key in rng.sample(places, min(count, len(places))):
        node = nodes[key]
        selecting = next(k for k in SELECTING if k in tags(node))
        if rng.random() < 0.5:
            other = rng.choice([value for value in VALUES if value != (selecting, tags(node)[selecting])])
            set_tag(node, selecting, None)
            set_tag(node, other[0], other[1])
        else:
            set_tag(node, selecting, None)
        touch(node)
        note("retag")
    plain = sorted(key for key, node in nodes.items() if node.find("tag") is not None and not is_place(node))
    for key in rng.sample(plain, min(count, len(plain))):
        key_value = rng.choice(VALUES)
        set_tag(nodes[key], key_value[0], key_value[1])
        touch(nodes[key])
        note("retag")
    # rename and move
    places = extract.place_nodes()
    for key in rng.sample(places, min(count, len(places))):
        set_tag(nodes[key], "name", f"Renamed {key}")
        touch(nodes[key])
        note("rename")
    for key in rng.sample(places, min(count, len(places))):
        node = nodes[key]
        node.set("lat", f"{float(node.get('lat')) + rng.uniform(-0.0018, 0.0018):.7f}")
        node.set("lon", f"{float(node.get('lon')) + rng.uniform(-0.0018, 0.0018):.7f}")
        touch(node)
        note("move")
    # ring and member of multipolygon places
    relations = extract.multipolygon_places()
    for key in rng.sample(relations, min(count, len(relations))):
        relation = extract.elements["relation"][key]
        members = [member for member in relation.findall("member")
                   if member.get("type") == "way" and int(member.get("ref")) in ways]
        way = ways[int(members[0].get("ref"))]
        refs = [int(nd.get("ref")) for nd in way.findall("nd")]
        ring_node = nodes.get(refs[len(refs) // 2])
        if ring_node is not None:
            ring_node.set("lat", f"{float(ring_node.get('lat')) + 0.0005:.7f}")
            touch(ring_node)
            note("ring")
        if len(members) > 1:
            gone = members[-1]
            relation.remove(gone)
            touch(relation)
            ways.pop(int(gone.get("ref")), None)
            note("member")
    # a place way's node list
    place_ways = sorted(key for key, way in ways.items() if is_place(way) and len(way.findall("nd")) > 4)
    for key in rng.sample(place_ways, min(count, len(place_ways))):
        way = ways[key]
        nds = way.findall("nd")
        closed = nds[0].get("ref") == nds[-1].get("ref")
        way.remove(nds[1 if closed else -1])
        touch(way)
        note("way nodes")
    return made


def main(argv):
    parser = argparse.ArgumentParser(description="Seeded edits of an OSM XML extract.")
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--edits", type=int, default=5)
    args = parser.parse_args(argv)
    try:
        with open_input(args.input) as stream:
            root = ET.parse(stream).getroot()
    except (OSError, ET.ParseError, EOFError) as error:
        print(f"edit_extract: {args.input}: {error}", file=sys.stderr)
        return 1
    extract = Extract(root)
    made = edit(extract, random.Random(args.seed), args.edits)
    extract.write(args.output)
    print(json.dumps(made, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
