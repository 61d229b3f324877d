#!/usr/bin/env bash
# Text search speed on a large vocabulary and on repeated names: classes of requests, each row
# timed alone in one `spots search --batch`, on two indexes.
#
#   bash Benchmarks/typos.sh [--copies N] [--requests N] [--runs N]
#
#   --copies N    N tiled copies of pois-union (default 300). typos300: each copy but the first
#                 with its own spellings of its names (Benchmarks/typos/vocabulary.py), a large
#                 vocabulary; pois300: the copies as they are (names repeated, as chains repeat
#                 them), built as search.sh builds it (--keep-all --no-dedupe --no-clusters)
#   --requests N  requests in each row (default 2000)
#   --runs N      interleaved rounds; the table shows medians (default 3)
#
# Rows (limit 10; "near": from a point 200 to 500 m from the spot; a "common" word is one that
# 1,000 or more spots' names hold, folded):
#   typo           a place's name with one edit (relevance.py's misspell) in its longest word of
#                  5+ letters, half near the place, half without one (the first row of all)
#   exact          the same requests spelt right
#   typo-common    no place: one edit in a common word of 4+ letters, the name's other words exact
#   typo-any       no place: one edit in any word of 4+ letters of the name
#   category-name  no place: a word naming the spot's category and the rarest word of its name
#   category       no place: a word naming the spot's category alone
#   prefix-common  near: the first 3 to 5 letters of a common word of the name
#   typing         near: every prefix of names of 2 or 3 words typed letter by letter (so a
#                  last word of one letter is among them), names drawn until N requests
#   category-near  near: a word naming the spot's category
# A category word is the first (English) word Pipelines/category-words.json gives the spot's
# category. Each row is one whole process, `spots search INDEX --batch FILE --threads 1 --output
# OUT -O` (one thread, so that a row gives a request's own cost): ms
# per request is its wall time over the requests (start, open, parse, search, JSON). p50/p99/max
# are SpotSearch.search alone over the same requests in one `search-latency INDEX --requests
# FILE...` process. The hit rate is the share of requests whose spot (by OSM type and id) is
# among the 10 results. Exits 1 when typos300 holds fewer than 200,000 distinct name tokens (the
# vocabulary the goal is stated for).
#
# Environment:
#   SPOTS_BENCH_DIR  cache for inputs, the index, requests and answers (default ${TMPDIR:-/tmp}/spots-bench)
#   SPOTS_BIN        a spots binary to time instead of building one with `swift build -c release`
#                    (search-latency beside it gives the in-process columns, else they show -)
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
# The in-process timer: beside SPOTS_BIN, or built here; without it the p50/p99/max columns show -.
[ -n "${SPOTS_BIN:-}" ] || (cd "$root" && swift build -c release --product search-latency)
latency=$(dirname "$spots")/search-latency

# The requests (seeded, one function a class) and the hits, in Python; misspell is relevance.py's.
py=$(cat <<'PY'
import csv, json, math, random, re, sys, unicodedata
from collections import Counter
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1] + '/Benchmarks/relevance')
from relevance import misspell
cmd, a = sys.argv[2], sys.argv[3:]
R, COMMON = 6371008.8, 1000
WORD = re.compile(r'[^\W\d_]+')

def fold(word):  # lower case without Latin diacritics, about as the index folds
    return ''.join(c for c in unicodedata.normalize('NFKD', word.lower()) if not unicodedata.combining(c))

def moved(spot, rng):  # the spot's point moved 200 to 500 m: where the request is made from
    d, b = rng.uniform(200, 500), rng.uniform(0, 2 * math.pi)
    lat = spot['lat'] + math.degrees(d * math.cos(b) / R)
    lon = spot['lon'] + math.degrees(d * math.sin(b) / R / math.cos(math.radians(spot['lat'])))
    return [round(lat, 7), round(lon, 7)]

# Each class yields (request, spot) pairs without end; spot is the one the request is made from.
def typo_and_exact(rng, places, spots, counts, categories, exact=False):
    # "typo": a place's name with one edit in its (first) longest word of 5+ letters, half near
    # the place; "exact": the same requests spelt right.
    chosen = []
    for p in places:
        words = [m for m in WORD.finditer(p['name']) if len(m.group()) >= 5]
        if words: chosen.append((p, max(words, key=lambda m: len(m.group()))))
    for k in range(1 << 62):
        p, word = rng.choice(chosen)
        name = p['name']
        text = name[:word.start()] + misspell(word.group(), rng)[0] + name[word.end():]  # drawn for both rows
        if exact: text = name
        request = {'query': text, 'limit': 10}
        if k % 2 == 0: request['near'] = moved(p, rng)
        yield request, p

def typo_common(rng, places, spots, counts, categories):
    # no place: one edit in a word of 4+ letters that 1,000 or more spots' names hold; the
    # name's other words (one or more) spelt right
    chosen = []
    for s in spots:
        words = list(WORD.finditer(s['name']))
        common = [m for m in words if len(m.group()) >= 4 and counts[fold(m.group())] >= COMMON]
        if len(words) >= 2 and common: chosen.append((s, common))
    while True:
        s, common = rng.choice(chosen)
        m, name = rng.choice(common), s['name']
        yield {'query': name[:m.start()] + misspell(m.group(), rng)[0] + name[m.end():], 'limit': 10}, s

def typo_any(rng, places, spots, counts, categories):
    # no place: one edit in any word of 4+ letters of the name, not only the longest
    chosen = [(s, w) for s in spots if (w := [m for m in WORD.finditer(s['name']) if len(m.group()) >= 4])]
    while True:
        s, words = rng.choice(chosen)
        m, name = rng.choice(words), s['name']
        yield {'query': name[:m.start()] + misspell(m.group(), rng)[0] + name[m.end():], 'limit': 10}, s

def category_name(rng, places, spots, counts, categories):
    # no place: a word naming the spot's category and the rarest word (3+ letters) of its name
    chosen = []
    for s in spots:
        words = [m.group() for m in WORD.finditer(s['name']) if len(m.group()) >= 3]
        if s['category'] in categories and words:
            chosen.append((s, min(words, key=lambda w: counts[fold(w)])))
    while True:
        s, word = rng.choice(chosen)
        yield {'query': f"{categories[s['category']]} {word}", 'limit': 10}, s

def category(rng, places, spots, counts, categories, near=False):
    # a word naming the spot's category alone: without a place, or near the spot
    chosen = [s for s in spots if s['category'] in categories]
    while True:
        s = rng.choice(chosen)
        request = {'query': categories[s['category']], 'limit': 10}
        if near: request['near'] = moved(s, rng)
        yield request, s

def prefix_common(rng, places, spots, counts, categories):
    # near the spot: the first 3 to 5 letters of a word of its name that 1,000 or more spots' names hold
    chosen = [(s, w) for s in spots
              if (w := [m.group() for m in WORD.finditer(s['name']) if len(m.group()) >= 3 and counts[fold(m.group())] >= COMMON])]
    while True:
        s, words = rng.choice(chosen)
        word = rng.choice(words)
        yield {'query': word[:rng.randint(3, min(5, len(word)))], 'near': moved(s, rng), 'limit': 10}, s

def typing(rng, places, spots, counts, categories):
    # near the spot: its name of 2 or 3 words typed letter by letter, every prefix from the first
    # letter (none ending in a space), so that a last word of one letter is among them
    chosen = [s for s in spots if 2 <= len(s['name'].split()) <= 3]
    while True:
        s = rng.choice(chosen)
        near, name = moved(s, rng), ' '.join(s['name'].split())
        for n in range(1, len(name) + 1):
            if not name[n - 1].isspace(): yield {'query': name[:n], 'near': near, 'limit': 10}, s

classes = {
    'typo': typo_and_exact, 'exact': lambda *x: typo_and_exact(*x, exact=True),
    'typo-common': typo_common, 'typo-any': typo_any, 'category-name': category_name, 'category': category,
    'prefix-common': prefix_common, 'typing': typing, 'category-near': lambda *x: category(*x, near=True),
}
if cmd == 'requests':  # CSV PLACES|- WORDS N PREFIX CLASS...: PREFIX-CLASS.ndjson and PREFIX-CLASS.expected
    spots = []
    for r in csv.DictReader(open(a[0], newline='', encoding='utf-8')):
        if r['name']:
            spots.append({'type': r['osm_type'], 'id': int(r['osm_id']), 'lat': float(r['lat']), 'lon': float(r['lon']),
                          'name': r['name'], 'category': r['category']})
    spots.sort(key=lambda s: ({'node': 0, 'way': 1, 'relation': 2}[s['type']], s['id']))  # OSM order, not the index's
    if a[1] == '-':  # no respelt places: named nodes
        places = [s for s in spots if s['type'] == 'node']
    else:  # vocabulary.py's places that are spots
        nodes = {s['id'] for s in spots if s['type'] == 'node'}
        places = [dict(p, type='node') for p in json.load(open(a[1], encoding='utf-8')) if p['id'] in nodes]
    counts = Counter(w for s in spots for w in {fold(m.group()) for m in WORD.finditer(s['name'])})
    categories = {key: words[0] for key, words in json.load(open(a[2], encoding='utf-8'))['words'].items()}
    for name in a[5:]:
        rng = random.Random(2026 if name in ('typo', 'exact') else f'2026 {name}')  # exact: typo's names
        with open(f'{a[4]}-{name}.ndjson', 'w', encoding='utf-8') as out, open(f'{a[4]}-{name}.expected', 'w') as ids:
            for k, (request, spot) in zip(range(int(a[3])), classes[name](rng, places, spots, counts, categories)):
                out.write(json.dumps(request, ensure_ascii=False) + '\n')
                ids.write(f"{spot['type']} {spot['id']}\n")
    print(len(places), sum(c >= COMMON for c in counts.values()))
elif cmd == 'hits':  # ANSWERS REQUESTS EXPECTED: hits near a place, requests near one, hits without, requests without
    n = [0, 0, 0, 0]
    for k, (line, request, expected) in enumerate(zip(open(a[0], encoding='utf-8'), open(a[1], encoding='utf-8'), open(a[2]))):
        answer, (kind, id) = json.loads(line), expected.split()
        if 'error' in answer: sys.exit(f"typos.sh: line {k + 1} of {a[1]}: {answer['error']}")
        found = any(r['osm_type'] == kind and r['osm_id'] == int(id) for r in answer['results'][:10])
        without = 'near' not in json.loads(request)
        n[2 * without] += found; n[2 * without + 1] += 1
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

# pois300 itself, as search.sh builds it (names repeated as chains repeat them): shared with it.
plain=$dir/pois$copies.spots
if [ ! -f "$plain" ] || [ "$spots" -nt "$plain" ] || [ "$tiled" -nt "$plain" ]; then
  echo "building $plain ..."
  "$spots" build "$tiled" -o "$plain" --keep-all --no-dedupe --no-clusters --quiet -O
fi
[ -f "$dir/pois$copies.csv" ] && [ "$dir/pois$copies.csv" -nt "$plain" ] ||
  "$spots" export "$plain" --format csv -o "$dir/pois$copies.csv" -O

# The index's distinct tokens: the string count, the first 4 bytes (little-endian) of TOKN.
offset=$("$spots" inspect "$index" --verbose | sed -n 's/^section TOKN *offset \([0-9]*\),.*/\1/p')
[ -n "$offset" ] || { echo "typos.sh: 'spots inspect' names no TOKN section" >&2; exit 1; }
tokens=$(od -An -t u4 --endian=little -j "$offset" -N 4 "$index" | tr -d ' ')

# --- the requests: $dir/typos-INDEX-ROW.ndjson and .expected -------------------------------
rows=(typo exact typo-common typo-any category-name category prefix-common typing category-near)
indexes=("$name" "pois$copies")
declare -A places commons
for idx in "${indexes[@]}"; do
  p=-; [ "$idx" = "$name" ] && p=$dir/$name.places.json
  read -r places[$idx] commons[$idx] < <(python3 -c "$py" "$root" requests "$dir/$idx.csv" "$p" \
    "$root/Pipelines/category-words.json" "$requests" "$dir/typos-$idx" "${rows[@]}")
done

# --- the runs --------------------------------------------------------------------------
declare -A walls rsss counts
read -ra one_thread <<<"$(bench_one_thread "$spots")" # a request's own cost
timed() { # INDEX ROW: one process, its wall ms (EPOCHREALTIME around GNU time) and peak RSS (KiB) appended
  local t0=${EPOCHREALTIME/./} file=$dir/typos-$1-$2
  if ! /usr/bin/time -f '%M' -o "$dir/time.txt" "$spots" search "$dir/$1.spots" --batch "$file.ndjson" \
    "${one_thread[@]}" --output "$file.out" -O </dev/null >/dev/null 2>"$dir/stderr.txt"; then
    echo "typos.sh: the $1 $2 row failed" >&2
    tail -n 5 "$dir/stderr.txt" >&2
    exit 1
  fi
  local t1=${EPOCHREALTIME/./}
  counts[$1 $2]=$(wc -l <"$file.ndjson")
  [ "$(wc -l <"$file.out")" -eq "${counts[$1 $2]}" ] || { echo "typos.sh: $1 $2: not one answer a request" >&2; exit 1; }
  walls[$1 $2]+=" $(((t1 - t0) / 1000)).$(printf %03d $(((t1 - t0) % 1000)))"
  rsss[$1 $2]+=" $(tail -n 1 "$dir/time.txt")"
}
echo "timing $runs interleaved rounds of ${#rows[@]} rows on ${indexes[*]} ..."
for ((r = 1; r <= runs; r++)); do
  for idx in "${indexes[@]}"; do for row in "${rows[@]}"; do timed "$idx" "$row"; done; done
  echo "  round $r/$runs done"
done
# In process, each row's requests once more: p50 / p99 / max of SpotSearch.search alone.
declare -A inproc
if [ -x "$latency" ]; then
  for idx in "${indexes[@]}"; do
    files=()
    for row in "${rows[@]}"; do files+=("$dir/typos-$idx-$row.ndjson"); done
    "$latency" "$dir/$idx.spots" --requests "${files[@]}" >"$dir/typos-$idx.latency" ||
      { echo "typos.sh: search-latency failed on $idx" >&2; exit 1; }
    while read -r file p50 p99 max _; do
      file=${file%.ndjson}
      inproc[$idx ${file#typos-$idx-}]="$p50 $p99 $max"
    done <"$dir/typos-$idx.latency"
  done
fi

median() { tr ' ' '\n' | grep . | sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
commas() { sed ':a; s/\B[0-9]\{3\}\>/,&/; ta' <<<"$1"; }

# --- the report ------------------------------------------------------------------------
cpu=$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
echo
echo "Spots typo search benchmark, $(date -u +%Y-%m-%d)"
echo "machine: $(nproc) cores, ${cpu:-unknown CPU}, $(uname -sm)"
for idx in "${indexes[@]}"; do
  echo "index $idx: $(commas "$(($(wc -l <"$dir/$idx.csv") - 1))") spots, $(wc -c <"$dir/$idx.spots" |
    awk '{printf "%.1f", $1/1048576}') MiB; $(commas "${commons[$idx]}") folded name words in 1,000 or more spots' names"
done
echo "  $name: $(commas "$tokens") distinct name tokens (goal >= $(commas $min_tokens)), $(commas "$(head -n 1 "$dir/$name.words")") distinct folded words in the input's names (vocabulary.py)"
echo "requests: up to $(commas "$requests") a row (typing: whole names, cut at $requests), limit 10; near: moved 200-500 m from the spot"
echo "medians of $runs interleaved runs; wall includes process start and open (and ~1 ms of GNU time);"
echo "p50/p99/max: SpotSearch.search alone, in one search-latency process; hit: the spot asked from in the top 10"
declare -A hits
for idx in "${indexes[@]}"; do
  echo
  echo "| $idx row | requests | ms per request | p50 ms | p99 ms | max ms | peak RSS MiB | hit rate |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|"
  for row in "${rows[@]}"; do
    file=$dir/typos-$idx-$row
    read -r hn nn hw nw < <(python3 -c "$py" "$root" hits "$file.out" "$file.ndjson" "$file.expected")
    hits[$idx $row]="$hn $nn $hw $nw"
    read -r p50 p99 max <<<"${inproc[$idx $row]:-- - -}"
    awk -v l="$row" -v n="${counts[$idx $row]}" -v w="$(median <<<"${walls[$idx $row]}")" \
      -v k="$(median <<<"${rsss[$idx $row]}")" -v h=$((hn + hw)) -v a="$p50" -v b="$p99" -v c="$max" \
      'BEGIN {printf "| %s | %d | %.3f | %s | %s | %s | %.1f | %.1f%% |\n", l, n, w/n, a, b, c, k/1024, 100*h/n}'
  done
done
echo
read -r hn nn hw nw <<<"${hits[$name typo]}"
awk -v a="$hn" -v b="$nn" -v c="$hw" -v d="$nw" \
  'BEGIN {printf "%s typo hit rate: %.1f%% near the place, %.1f%% without a place\n", "'"$name"'", 100*a/b, 100*c/d}'
awk -v w="$(median <<<"${walls[$name typo]}")" -v n="${counts[$name typo]}" \
  'BEGIN {printf "%s typo ms per request: %.3f (goal <= 3)\n", "'"$name"'", w/n}'
[ "$tokens" -ge "$min_tokens" ] ||
  { echo "typos.sh: the index holds $tokens distinct name tokens, fewer than $min_tokens: use more --copies" >&2; exit 1; }
