#!/usr/bin/env python3
"""Make an osmChange file that touches a share of an extract's places and nodes, for
Benchmarks/update.sh.

    make_change.py IN.osm.gz OUT.osc.gz [--places 0.01] [--nodes 0.001] [--seed 1]

Reads an OSM XML extract written one element a line or block (as the download sites and
../shared/bench/make-metro.py write them), streaming, and writes a gzipped osmChange whose
<modify> block renames the given share of its places (nodes tagged amenity=* or tourism=*)
and moves the given share of all its nodes by about 10 m; each changed node gets its version
raised by one. Python 3 standard library only. Prints one line: the counts of each edit.
"""
import argparse
import gzip
import random
import re

VERSION = re.compile(r'(\sversion=")(\d+)(")')
LAT = re.compile(r'(\slat=")(-?[\d.]+)(")')
NAME = re.compile(r'(<tag k="name" v=")([^"]*)(")')
PLACE = re.compile(r'<tag k="(amenity|tourism)" v=')


def node_blocks(lines):
    """Yield the lines of each <node> element, one list per node."""
    block = []
    for line in lines:
        stripped = line.lstrip()
        if block:
            block.append(line)
            if stripped.startswith('</node'):
                yield block
                block = []
        elif stripped.startswith('<node'):
            if stripped.rstrip().endswith('/>'):
                yield [line]
            else:
                block = [line]
        elif stripped.startswith(('<way', '<relation')):
            return


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('input')
    parser.add_argument('output')
    parser.add_argument('--places', type=float, default=0.01)
    parser.add_argument('--nodes', type=float, default=0.001)
    parser.add_argument('--seed', type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    renamed = moved = 0
    with gzip.open(args.input, 'rt', encoding='utf-8') as source, \
            gzip.open(args.output, 'wt', encoding='utf-8', compresslevel=6) as out:
        out.write("<?xml version='1.0' encoding='UTF-8'?>\n<osmChange version=\"0.6\">\n<modify>\n")
        for block in node_blocks(source):
            text = ''.join(block)
            rename = PLACE.search(text) is not None and rng.random() < args.places
            move = rng.random() < args.nodes
            if not (rename or move):
                continue
            text = VERSION.sub(lambda m: f'{m.group(1)}{int(m.group(2)) + 1}{m.group(3)}', text, count=1)
            if move:
                text = LAT.sub(lambda m: f'{m.group(1)}{float(m.group(2)) + 0.0001:.7f}{m.group(3)}', text, count=1)
                moved += 1
            if rename:
                if NAME.search(text):
                    text = NAME.sub(lambda m: f'{m.group(1)}{m.group(2)} (renamed){m.group(3)}', text, count=1)
                else:
                    text = text.replace('</node>', '  <tag k="name" v="Renamed"/>\n  </node>', 1)
                renamed += 1
            out.write(text)
        out.write("</modify>\n</osmChange>\n")
    print(f'renamed {renamed} places, moved {moved} nodes')


if __name__ == '__main__':
    main()
