#!/usr/bin/env python3
"""Rebuilds the damaged-index fixtures of Tests/Fixtures/damaged from the Himeji sample, for a
new index format version, and updates their messages in manifest.json:

    swift build -c release && python3 Scripts/damaged-indexes.py [--spots .build/release/spots]

- truncated.spots: the index cut in half;
- flipped-byte.spots: one bit flipped in the cluster tree section (CTRE);
- future-version.spots: format version 99 in the header (header checksum left as it was).
"""

import argparse
import json
import struct
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DAMAGED = ROOT / "Tests" / "Fixtures" / "damaged"
HEADER_SIZE, ENTRY_SIZE = 32, 32


def built_index(spots):
    """The Himeji sample's index, built with the default pipeline."""
    with tempfile.TemporaryDirectory() as folder:
        index = Path(folder) / "himeji.spots"
        sample = ROOT / "Samples" / "himeji-castle.osm"
        subprocess.run([spots, "build", sample, "-o", index, "-O", "--quiet"], check=True)
        return index.read_bytes()


def section_offset(index, name):
    """Where section `name` starts, from the section table."""
    count = struct.unpack_from("<I", index, 12)[0]
    for entry in range(count):
        base = HEADER_SIZE + entry * ENTRY_SIZE
        if index[base : base + 4] == name.encode():
            return struct.unpack_from("<Q", index, base + 8)[0]
    raise SystemExit(f"damaged-indexes.py: the index has no {name} section")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spots", default=str(ROOT / ".build" / "release" / "spots"))
    args = parser.parse_args()
    index = built_index(args.spots)
    version = struct.unpack_from("<I", index, 8)[0]
    half = len(index) // 2
    (DAMAGED / "truncated.spots").write_bytes(index[:half])
    flipped = bytearray(index)
    flipped[section_offset(index, "CTRE") + 8] ^= 0x10
    (DAMAGED / "flipped-byte.spots").write_bytes(bytes(flipped))
    future = bytearray(index)
    struct.pack_into("<I", future, 8, 99)
    (DAMAGED / "future-version.spots").write_bytes(bytes(future))
    messages = {
        "truncated.spots": f"header: file is {half} bytes, header says {len(index)}: truncated or padded",
        "future-version.spots": f"header: format version 99; this reader knows version {version}",
    }
    manifest_path = DAMAGED / "manifest.json"
    entries = json.loads(manifest_path.read_text())
    for entry in entries:
        if entry["file"] in messages:
            entry["message"] = messages[entry["file"]]
    lines = ",\n".join("  " + json.dumps(entry, ensure_ascii=False) for entry in entries)
    manifest_path.write_text("[\n" + lines + "\n]\n")
    print(f"damaged-indexes.py: rebuilt 3 fixtures from a {len(index)}-byte index of format version {version}")


if __name__ == "__main__":
    main()
