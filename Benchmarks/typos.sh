#!/usr/bin/env bash
# Typo search speed on a large vocabulary: one-typo name queries in one `spots search --batch`.
#
#   bash Benchmarks/typos.sh [--copies N] [--requests N] [--runs N]
#
#   --copies N    N tiled copies of pois-union (default 300), each copy but the first with its
#                 own spellings of its names (Benchmarks/typos/vocabulary.py): a large vocabulary
#   --requests N  requests in each row (default 2000): half near the place, half without one
#   --runs N      interleaved rounds; the table shows medians (default 3)
#
# Rows: "typo", a place's name with one edit in its longest word (a word of 5 letters or
# more: relevance.py's misspell), limit 10; "exact", the same names spelt right. Each is one
# whole process, `spots search INDEX --batch FILE --output OUT -O`: ms per request is its
# wall time over the requests (start, open, parse, search, JSON). The hit rate is the share
# of requests whose place (by OSM id) is among the 10 results. Exits 1 when the index holds
# fewer than 200,000 distinct name tokens (the vocabulary the goal is stated for).
#
# Environment:
#   SPOTS_BENCH_DIR  cache for inputs, the index, requests and answers (default ${TMPDIR:-/tmp}/spots-bench)
#   SPOTS_BIN        a spots binary to time instead of building one with `swift build -c release`
#
# Needs ../shared (data/ and bench/) beside the repository and skips, saying so, without it;
# needs python3 and GNU time at /usr/bin/time.
set -euo pipefail
export LC_ALL=C # for printf's and awk's decimal point, and EPOCHREALTIME's

usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; }
copies=300 requests=2000 runs=3
min_tokens=200000
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
bench_parse_counts typos.sh "$@"

bench_setup typos.sh
"$spots" search --help >/dev/null 2>&1 || { echo "typos.sh: $spots has no 'search' command" >&2; exit 1; }

# The requests (seeded) and the hits, in Python; misspell is relevance.py's.
py=$(cat <<'PY'
import csv, json, math, random, re, sys
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1] + '/Benchmarks/relevance')
from relevance import misspell
cmd, a = sys.argv[2], sys.argv[3:]
if cmd == 'requests':  # PLACES CSV N TYPOS EXACT EXPECTED: a place's name misspelt, the same spelt right
    spots = {int(r['osm_id']) for r in csv.DictReader(open(a[1], newline='', encoding='utf-8')) if r['osm_type'] == 'node'}
    places = []
    for p in json.load(open(a[0], encoding='utf-8')):  # places that are spots, with a word to misspell
        words = [m for m in re.finditer(r'[^\W\d_]+', p['name']) if len(m.group()) >= 5]
        if p['id'] in spots and words:
            places.append((p, max(words, key=lambda m: len(m.group()))))  # the first longest
    rng, R = random.Random(2026), 6371008.8
    with open(a[3], 'w', encoding='utf-8') as typos, open(a[4], 'w', encoding='utf-8') as exact, open(a[5], 'w') as ids:
        for k in range(int(a[2])):
            p, word = rng.choice(places)
            name = p['name']
            text = name[:word.start()] + misspell(word.group(), rng)[0] + name[word.end():]
            request = {'query': text, 'limit': 10}
            if k % 2 == 0:  # near the place, moved 200 to 500 m
                d, b = rng.uniform(200, 500), rng.uniform(0, 2 * math.pi)
                lat = p['lat'] + math.degrees(d * math.cos(b) / R)
                lon = p['lon'] + math.degrees(d * math.sin(b) / R / math.cos(math.radians(p['lat'])))
                request['near'] = [round(lat, 7), round(lon, 7)]
            typos.write(json.dumps(request, ensure_ascii=False) + '\n')
            exact.write(json.dumps(dict(request, query=name), ensure_ascii=False) + '\n')
            ids.write(f"{p['id']}\n")
    print(len(places))
elif cmd == 'hits':  # ANSWERS EXPECTED: hits near a place, requests near one, hits without, requests without
    n = [0, 0, 0, 0]
    for k, (line, id) in enumerate(zip(open(a[0], encoding='utf-8'), open(a[1]))):
        answer = json.loads(line)
        if 'error' in answer: sys.exit(f"typos.sh: line {k + 1} of the requests: {answer['error']}")
        found = any(r['osm_type'] == 'node' and r['osm_id'] == int(id) for r in answer['results'])
        n[2 * (k % 2)] += found; n[2 * (k % 2) + 1] += 1
    print(*n)
PY
)

# --- the input: tiled, respelt, built -------------------------------------------------
tiled=$dir/pois$copies.osm.gz # shared with search.sh
if [ ! -f "$tiled" ]; then
  echo "making $tiled (once) ..."
  python3 "$shared/bench/make-metro.py" "$shared/data/pois-union.osm.gz" "$tiled.partial" --copies "$copies"
  mv "$tiled.partial" "$tiled"
fi
name=typos$copies vocabulary=$root/Benchmarks/typos/vocabulary.py
input=$dir/$name.osm.gz index=$dir/$name.spots
if [ ! -f "$input" ] || [ "$tiled" -nt "$input" ] || [ "$vocabulary" -nt "$input" ]; then
  echo "respelling the copies' names: $input ..."
  python3 "$vocabulary" "$tiled" "$input.partial" --copies "$copies" --places "$dir/$name.places.json" >"$dir/$name.words"
  mv "$input.partial" "$input"
fi
if [ ! -f "$index" ] || [ "$spots" -nt "$index" ] || [ "$input" -nt "$index" ]; then
  echo "building $index ..."
  "$spots" build "$input" -o "$index" -O --quiet
fi
[ -f "$dir/$name.csv" ] && [ "$dir/$name.csv" -nt "$index" ] || "$spots" export "$index" --format csv -o "$dir/$name.csv" -O

# The index's distinct tokens: the string count, the first 4 bytes (little-endian) of TOKN.
offset=$("$spots" inspect "$index" | sed -n 's/^section TOKN *offset \([0-9]*\),.*/\1/p')
[ -n "$offset" ] || { echo "typos.sh: 'spots inspect' names no TOKN section" >&2; exit 1; }
tokens=$(od -An -t u4 --endian=little -j "$offset" -N 4 "$index" | tr -d ' ')

places=$(python3 -c "$py" "$root" requests "$dir/$name.places.json" "$dir/$name.csv" "$requests" \
  "$dir/typos-typo.ndjson" "$dir/typos-exact.ndjson" "$dir/typos-expected.txt")

# --- the runs --------------------------------------------------------------------------
rows=(typo exact)
declare -A walls rsss hits
timed() { # ROW: one process, its wall ms (EPOCHREALTIME around GNU time) and peak RSS (KiB) appended
  local t0=${EPOCHREALTIME/./}
  if ! /usr/bin/time -f '%M' -o "$dir/time.txt" "$spots" search "$index" --batch "$dir/typos-$1.ndjson" \
    --output "$dir/typos-$1.out" -O </dev/null >/dev/null 2>"$dir/stderr.txt"; then
    echo "typos.sh: the $1 row failed" >&2
    tail -n 5 "$dir/stderr.txt" >&2
    exit 1
  fi
  local t1=${EPOCHREALTIME/./}
  [ "$(wc -l <"$dir/typos-$1.out")" -eq "$requests" ] || { echo "typos.sh: $1: not $requests answers" >&2; exit 1; }
  walls[$1]+=" $(((t1 - t0) / 1000)).$(printf %03d $(((t1 - t0) % 1000)))"
  rsss[$1]+=" $(tail -n 1 "$dir/time.txt")"
}
echo "timing $runs interleaved rounds on $(basename "$index") ..."
for ((r = 1; r <= runs; r++)); do
  for row in "${rows[@]}"; do timed "$row"; done
  echo "  round $r/$runs done"
done

median() { tr ' ' '\n' | grep . | sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
commas() { sed ':a; s/\B[0-9]\{3\}\>/,&/; ta' <<<"$1"; }

# --- the report ------------------------------------------------------------------------
cpu=$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
echo
echo "Spots typo search benchmark, $(date -u +%Y-%m-%d)"
echo "machine: $(nproc) cores, ${cpu:-unknown CPU}, $(uname -sm)"
echo "index: $(basename "$index"), $(commas "$(($(wc -l <"$dir/$name.csv") - 1))") spots, $(wc -c <"$index" |
  awk '{printf "%.1f", $1/1048576}') MiB; $(commas "$tokens") distinct name tokens (goal >= $(commas $min_tokens));"
echo "  $(commas "$(head -n 1 "$dir/$name.words")") distinct folded words in the input's names (vocabulary.py)"
echo "requests: $(commas "$requests") a row, names of $(commas "$places") places; half near the place (moved 200-500 m), limit 10"
echo "medians of $runs interleaved runs; wall includes process start and open (and ~1 ms of GNU time)"
echo
echo "| row | requests | wall ms | ms per request | peak RSS MiB | hit rate |"
echo "|---|---:|---:|---:|---:|---:|"
for row in "${rows[@]}"; do
  read -r hn nn hw nw < <(python3 -c "$py" "$root" hits "$dir/typos-$row.out" "$dir/typos-expected.txt")
  hits[$row]="$hn $nn $hw $nw"
  awk -v l="$row" -v n="$requests" -v w="$(median <<<"${walls[$row]}")" -v k="$(median <<<"${rsss[$row]}")" \
    -v h=$((hn + hw)) 'BEGIN {printf "| %s | %d | %.1f | %.3f | %.1f | %.1f%% |\n", l, n, w, w/n, k/1024, 100*h/n}'
done
read -r hn nn hw nw <<<"${hits[typo]}"
awk -v a="$hn" -v b="$nn" -v c="$hw" -v d="$nw" \
  'BEGIN {printf "\ntypo hit rate: %.1f%% near the place, %.1f%% without a place\n", 100*a/b, 100*c/d}'
awk -v w="$(median <<<"${walls[typo]}")" -v n="$requests" 'BEGIN {printf "typo ms per request: %.3f (goal <= 3)\n", w/n}'
[ "$tokens" -ge "$min_tokens" ] ||
  { echo "typos.sh: the index holds $tokens distinct name tokens, fewer than $min_tokens: use more --copies" >&2; exit 1; }
