#!/usr/bin/env bash
# A change's cost: two spots binaries side by side in one run, in interleaved rounds, on the
# rows of ingest.sh, search.sh and cluster.sh that time spots itself (batches on one thread,
# where a binary can be told so: a request's own cost). For a change that must not
# move the figures (a refactor), every ratio new / old should lie within 0.95 to 1.05.
#
#   bash Benchmarks/compare.sh OLD_DIR NEW_DIR [--runs N] [--instructions] [--outputs-differ]
#
# With --instructions, each row counts the instructions each binary executes, under valgrind's
# callgrind (one run each): a figure that a busy or noisy machine does not move, for changes
# whose wall-time ratios drown in the machine's noise. The in-process latency tools then report
# their instruction counts too.
#
# OLD_DIR and NEW_DIR each hold a release `spots`, and may hold `search-latency` and
# `cluster-latency` (then their in-process p50 and p99 are compared too). Inputs are made once
# in SPOTS_BENCH_DIR, as by the other scripts: metro16 (16 tiled copies of Andorra) and pois300
# (300 copies of pois-union, 940,500 POIs). The requests are seeded, the same every run. Each
# row prints the median wall time of each binary and the ratio new / old; the outputs of the
# two binaries are compared byte for byte, and a difference stops the script (exit 1), unless
# --outputs-differ says the change means to change them (a dedupe rule that merges more).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

usage() { echo "usage: bash Benchmarks/compare.sh OLD_DIR NEW_DIR [--runs N] [--instructions] [--outputs-differ]"; }
[ $# -ge 2 ] || { usage >&2; exit 64; }
old=$(cd "$1" && pwd)
new=$(cd "$2" && pwd)
shift 2
copies=1 requests=1 runs=3 instructions=0 outputs_differ=0
counts=()
for argument in "$@"; do
  case $argument in
    --instructions) instructions=1 ;;
    --outputs-differ) outputs_differ=1 ;;
    *) counts+=("$argument") ;;
  esac
done
bench_parse_counts compare.sh "${counts[@]}"
if [ "$instructions" = 1 ]; then
  command -v valgrind >/dev/null || { echo "compare.sh: --instructions needs valgrind (apt-get install valgrind)" >&2; exit 69; }
  runs=1
fi
# measure FILE COMMAND...: runs COMMAND (stdout to its output file, given by the caller) and
# writes to FILE its wall time in seconds, or with --instructions its instruction count.
measure() {
  local file=$1
  shift
  if [ "$instructions" = 1 ]; then
    valgrind --tool=callgrind --callgrind-out-file=/dev/null --log-file="$file.log" "$@" 2>/dev/null
    grep -o 'refs: *[0-9,]*' "$file.log" | tr -dc '0-9' >"$file"
  else
    /usr/bin/time -f "%e" -o "$file" "$@" 2>/dev/null
  fi
}
SPOTS_BIN=$old/spots bench_setup compare.sh >/dev/null
for bin in "$old/spots" "$new/spots"; do [ -x "$bin" ] || { echo "compare.sh: $bin is missing" >&2; exit 66; }; done

make_input() { # NAME SOURCE COPIES
  [ -f "$dir/$1.osm.gz" ] && return
  echo "making $dir/$1.osm.gz (once) ..."
  python3 "$shared/bench/make-metro.py" "$shared/data/$2" "$dir/$1.osm.gz.partial" --copies "$3"
  mv "$dir/$1.osm.gz.partial" "$dir/$1.osm.gz"
}
make_input metro16 andorra-2021-04.osm.gz 16
make_input pois300 pois-union.osm.gz 300

work=$dir/compare
mkdir -p "$work"
# Each binary searches an index it built itself, so that binaries of two format versions compare.
for side in old new; do
  rm -f "$work/pois300.$side.spots"
  "${!side}/spots" build "$dir/pois300.osm.gz" -o "$work/pois300.$side.spots" --keep-all --no-dedupe --quiet
done
"$old/spots" export "$work/pois300.old.spots" --format csv >"$work/pois300.csv"

# Seeded requests: near (a POI moved up to 500 m), text prefixes of names, and 1024-px cluster
# viewports at zooms 0 to 17, unfiltered and filtered to restaurants.
python3 - "$work" <<'PY'
import csv, json, math, random, sys
work = sys.argv[1]
rows = list(csv.DictReader(open(f'{work}/pois300.csv', encoding='utf-8')))
rng = random.Random(7)
with open(f'{work}/near.ndjson', 'w') as out:
    for _ in range(10000):
        r = rng.choice(rows)
        lat, lon = float(r['lat']), float(r['lon'])
        d, a = rng.uniform(0, 500), rng.uniform(0, 2 * math.pi)
        lat2 = lat + d * math.cos(a) / 111195
        lon2 = lon + d * math.sin(a) / (111195 * max(0.01, math.cos(math.radians(lat))))
        out.write(json.dumps({'near': [round(lat2, 7), round(lon2, 7)], 'radius': 1000, 'limit': 20}) + '\n')
named = [r['name'] for r in rows if r['name']]
with open(f'{work}/text.ndjson', 'w') as out:
    for _ in range(1000):
        name = rng.choice(named)
        out.write(json.dumps({'query': name[:rng.randint(3, 5)], 'limit': 20}, ensure_ascii=False) + '\n')
with open(f'{work}/clusters.ndjson', 'w') as out:
    for zoom in range(18):
        for _ in range(20):
            r = rng.choice(rows)
            lat, lon = float(r['lat']), float(r['lon'])
            half = 512 / (256 * 2 ** zoom) * 180  # half of 1024 px in degrees of longitude
            box = [max(-180, lon - half), max(-85, lat - half / 2), min(180, lon + half), min(85, lat + half / 2)]
            out.write(json.dumps({'bbox': box, 'zoom': zoom}) + '\n')
            out.write(json.dumps({'bbox': box, 'zoom': zoom, 'categories': ['restaurant']}) + '\n')
PY

declare -A label=(
  [build]="build metro16 --no-areas" [areas]="build metro16 with areas" [near]="search --batch, 10,000 near"
  [text]="search --batch, 1,000 text prefixes" [cluster]="cluster --batch, 720 viewports"
)
rows=(build areas near text cluster)
command_for() { # ROW SIDE OUT
  local bin=${!2}/spots index=$work/pois300.$2.spots
  case $1 in
    build) echo "$bin build $dir/metro16.osm.gz -o $3.spots --no-areas --quiet" ;;
    areas) echo "$bin build $dir/metro16.osm.gz -o $3.spots --quiet" ;;
    near) echo "$bin search $index --batch $work/near.ndjson $(bench_one_thread "$bin")" ;;
    text) echo "$bin search $index --batch $work/text.ndjson $(bench_one_thread "$bin")" ;;
    cluster) echo "$bin cluster $index --batch $work/clusters.ndjson $(bench_one_thread "$bin")" ;;
  esac
}
declare -A times
unit="s"
[ "$instructions" = 1 ] && unit="instr"
echo "measuring $runs interleaved rounds of ${#rows[@]} rows, old then new (then new then old) ..."
for round in $(seq "$runs"); do
  order=(old new)
  [ $((round % 2)) = 0 ] && order=(new old)
  for row in "${rows[@]}"; do
    for side in "${order[@]}"; do
      out=$work/$row.$side
      rm -f "$out.spots"
      # shellcheck disable=SC2046
      measure "$work/time" $(command_for "$row" "$side" "$out") >"$out.out"
      times[$row.$side]+="$(cat "$work/time") "
    done
    for ext in out spots; do
      [ -f "$work/$row.old.$ext" ] && [ "$outputs_differ" = 0 ] || continue
      cmp -s "$work/$row.old.$ext" "$work/$row.new.$ext" ||
        { echo "compare.sh: $row: the two binaries' outputs differ ($ext)" >&2; exit 1; }
    done
  done
done

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
printf '%-40s %14s %14s %8s\n' row "old $unit" "new $unit" "new/old"
for row in "${rows[@]}"; do
  o=$(echo "${times[$row.old]}" | median)
  n=$(echo "${times[$row.new]}" | median)
  printf '%-40s %14s %14s %8.3f\n' "${label[$row]}" "$o" "$n" "$(awk -v n="$n" -v o="$o" 'BEGIN {print n / o}')"
done

# In process: the latency tools of each side, when both have them.
if [ -x "$old/search-latency" ] && [ -x "$new/search-latency" ]; then
  for side in old new; do
    echo "search-latency ($side):"
    if [ "$instructions" = 1 ]; then
      measure "$work/time" "${!side}/search-latency" "$work/pois300.$side.spots" 2000 >/dev/null
      echo "  opening 200 times and 2,000 requests of each kind: $(cat "$work/time") instructions"
    else
      "${!side}/search-latency" "$work/pois300.$side.spots" 2000
    fi
  done
fi
if [ -x "$old/cluster-latency" ] && [ -x "$new/cluster-latency" ]; then
  for side in old new; do
    echo "cluster-latency ($side):"
    if [ "$instructions" = 1 ]; then
      measure "$work/time" "${!side}/cluster-latency" "$work/pois300.$side.spots" "$work/clusters.ndjson" >/dev/null
      echo "  720 viewports: $(cat "$work/time") instructions"
    else
      "${!side}/cluster-latency" "$work/pois300.$side.spots" "$work/clusters.ndjson"
    fi
  done
fi
