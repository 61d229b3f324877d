#!/usr/bin/env python3
"""Independent reader of OSM XML: the POI nodes that `spots build` must extract.

    python3 osm_oracle.py FILE.osm[.gz]

Prints one JSON line per spot, sorted by osm_id:

    {"osm_id": 123, "lat": "43.7384176", "lon": "7.4246158", "tag": "amenity=cafe", "name": "..."}

Rules (the tests compare the spots binary against exactly these):
- A spot is a top-level <node> (a child of the root element) with a direct <tag> child
  whose k is "amenity" or "tourism". tag is "key=value"; amenity wins over tourism. If a key
  appears twice on one node, its first value counts (likewise for name). name is the value
  of the name tag, or null.
- lat/lon: a plain decimal number ([+-]digits[.digits], no exponent, no spaces, no "_"),
  rounded to 7 decimals half away from zero, printed with exactly 7 decimals ("-0.0000000"
  prints as "0.0000000"). The range check applies to the rounded value: |lat| <= 90,
  |lon| <= 180.
- Skipped: nodes with visible="false" or action="delete", and nodes whose id is missing or
  not an integer, whose lat/lon is missing, not a number or out of range.
- Duplicate ids: the occurrence with the higher version attribute decides (missing or
  non-integer version counts as 0; on a tie the first one stays). It decides even when it
  is skipped or is no POI: a newer deleted or untagged version removes the node.

The input is gzip (detected by the magic bytes 1f 8b, every member read) or plain XML, read
and parsed in 1 MiB chunks. Exit 0 on success; on an unreadable file, bad gzip or malformed
XML, one line on stderr ("osm_oracle: FILE: line L, column C: what", both from 1) and exit 1.
Python 3 standard library only.
"""
import decimal
import gzip
import json
import re
import sys
import zlib
from xml.parsers import expat

CHUNK = 1 << 20
NUMBER = re.compile(r'[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)\Z')
STEP = decimal.Decimal('1e-7')
CONTEXT = decimal.Context(prec=60, rounding=decimal.ROUND_HALF_UP)


def coordinate(text, limit):
    """The value as a 7-decimal string, or None if missing, malformed or beyond ±limit."""
    if text is None or not NUMBER.match(text):
        return None
    d = decimal.Decimal(text)
    if abs(d) > 2 * limit:  # keeps quantize within the context's precision for any input
        return None
    q = d.quantize(STEP, context=CONTEXT)
    if abs(q) > limit:
        return None
    if q.is_zero():
        q = q.copy_abs()
    return f'{q:.7f}'


def integer(text):
    if text is None or not re.fullmatch(r'[+-]?[0-9]+', text):
        return None
    return int(text)


class Reader:
    def __init__(self):
        self.depth = 0
        self.node = None       # attributes of the open top-level node
        self.tags = None       # its tags: key -> first value
        self.versions = {}     # id -> version of the occurrence that decides
        self.spots = {}        # id -> record, for ids whose deciding occurrence is a spot

    def start(self, name, attrs):
        self.depth += 1
        if self.depth == 2 and name == 'node':
            self.node, self.tags = attrs, {}
        elif self.depth == 3 and self.node is not None and name == 'tag':
            k = attrs.get('k')
            if k is not None and k not in self.tags:
                self.tags[k] = attrs.get('v', '')

    def end(self, name):
        if self.depth == 2 and self.node is not None:
            self.finish(self.node, self.tags)
            self.node = self.tags = None
        self.depth -= 1

    def finish(self, attrs, tags):
        osm_id = integer(attrs.get('id'))
        if osm_id is None:
            return
        version = integer(attrs.get('version')) or 0
        seen = self.versions.get(osm_id)
        if seen is not None and version <= seen:
            return
        self.versions[osm_id] = version
        record = self.spot(osm_id, attrs, tags)
        if record is None:
            self.spots.pop(osm_id, None)
        else:
            self.spots[osm_id] = record

    @staticmethod
    def spot(osm_id, attrs, tags):
        if attrs.get('visible') == 'false' or attrs.get('action') == 'delete':
            return None
        key = 'amenity' if 'amenity' in tags else 'tourism' if 'tourism' in tags else None
        if key is None:
            return None
        lat = coordinate(attrs.get('lat'), 90)
        lon = coordinate(attrs.get('lon'), 180)
        if lat is None or lon is None:
            return None
        return {'osm_id': osm_id, 'lat': lat, 'lon': lon,
                'tag': f'{key}={tags[key]}', 'name': tags.get('name')}


def read(path):
    reader = Reader()
    parser = expat.ParserCreate('UTF-8')
    parser.StartElementHandler = reader.start
    parser.EndElementHandler = reader.end
    with open(path, 'rb') as raw:
        magic = raw.read(2)
        raw.seek(0)
        stream = gzip.GzipFile(fileobj=raw, mode='rb') if magic == b'\x1f\x8b' else raw
        while True:
            chunk = stream.read(CHUNK)
            parser.Parse(chunk, not chunk)
            if not chunk:
                break
    return reader.spots


def main(argv):
    if len(argv) != 2 or argv[1] in ('-h', '--help'):
        print('usage: osm_oracle.py FILE.osm[.gz]', file=sys.stderr)
        return 2
    path = argv[1]
    try:
        spots = read(path)
    except expat.ExpatError as e:
        where = f'line {e.lineno}, column {e.offset + 1}'
        print(f'osm_oracle: {path}: {where}: {expat.ErrorString(e.code)}', file=sys.stderr)
        return 1
    except (OSError, EOFError, zlib.error) as e:  # gzip.BadGzipFile is an OSError
        print(f'osm_oracle: {path}: {e}', file=sys.stderr)
        return 1
    out = sys.stdout.buffer
    for osm_id in sorted(spots):
        out.write(json.dumps(spots[osm_id], ensure_ascii=False).encode('utf-8') + b'\n')
    out.flush()
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
