"""The pyosmium row of ingest.sh: keep the nodes tagged amenity or tourism, as
`osmium tags-filter INPUT n/amenity n/tourism -o OUTPUT` does, and print how many.

    python3 pyosmium_filter.py INPUT.osm.gz OUTPUT.osm.pbf
"""
import sys

import osmium

source, target = sys.argv[1], sys.argv[2]
nodes = osmium.FileProcessor(source, osmium.osm.NODE).with_filter(
    osmium.filter.KeyFilter("amenity", "tourism"))
count = 0
with osmium.SimpleWriter(target, overwrite=True) as writer:
    for node in nodes:
        writer.add_node(node)
        count += 1
print(f"pois={count}")
