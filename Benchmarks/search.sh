#!/usr/bin/env bash
# Index size and search speed: a spots index beside a GeoPackage of the same POIs, and
# `spots search --batch` beside one sqlite3 process querying an R*Tree of the same spots. The
# batch answers on every core, as it runs by default, and again on one thread (`--threads 1`),
# whose ratio to sqlite3 (itself on one) is printed too.
#
#   bash Benchmarks/search.sh [--copies N] [--requests N] [--runs N]
#
#   --copies N    speed input: N tiled copies of pois-union (default 300: about 940,000 POIs)
#   --requests N  "within 1 km, nearest 20" requests (default 10000; text prefixes: 1000)
#   --runs N      interleaved rounds; the table shows medians (default 3)
#
# Environment:
#   SPOTS_BENCH_DIR  cache for inputs, indexes, databases and outputs (default ${TMPDIR:-/tmp}/spots-bench)
#   SPOTS_BIN        a spots binary to time instead of building one with `swift build -c release`
#
# Needs ../shared (data/ and bench/) beside the repository and skips, saying so, without it;
# needs python3, sqlite3 (with math functions), GNU time at /usr/bin/time; osmium-tool and
# gdal-bin are installed with apt-get when missing and running as root, else no GeoPackage row.
set -euo pipefail
export LC_ALL=C # for printf's and awk's decimal point, and EPOCHREALTIME's

usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; }
copies=300 requests=10000 runs=3 texts=1000
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
bench_parse_counts search.sh "$@"

bench_setup search.sh
[ "$(sqlite3 :memory: 'select sin(0)' 2>/dev/null)" = 0.0 ] ||
  { echo "search.sh: sqlite3 with math functions (sin, asin, radians) is missing" >&2; exit 1; }

# --- the tools -------------------------------------------------------------------------
"$spots" search --help >/dev/null 2>&1 || { echo "search.sh: $spots has no 'search' command" >&2; exit 1; }

for tool in osmium:osmium-tool ogr2ogr:gdal-bin; do
  if ! command -v "${tool%%:*}" >/dev/null && [ "$(id -u)" = 0 ]; then
    echo "installing ${tool#*:} ..."
    { apt-get install -y "${tool#*:}" || { apt-get update && apt-get install -y "${tool#*:}"; }; } \
      >"$dir/apt.log" 2>&1 || true
  fi
done
have_gpkg=1
command -v osmium >/dev/null && command -v ogr2ogr >/dev/null ||
  { have_gpkg=0; echo "osmium-tool or gdal-bin is missing (and could not be installed): no GeoPackage row"; }

# The Python side: the SQLite copy, the requests (seeded), and the comparison of answers.
py=$(cat <<'PY'
import csv, json, math, random, sqlite3, sys
# TOL: distances are compared to the 0.1 m that `distance_m` is given to (docs/search.md).
R, TOL = 6371008.8, 0.05 + 1e-6
def spots(path):  # (osm_type, osm_id, lat, lon, name, category) of a `spots export --format csv`
    with open(path, newline='', encoding='utf-8') as f:
        for r in csv.DictReader(f):
            yield (r['osm_type'], int(r['osm_id']), float(r['lat']), float(r['lon']),
                   r['name'] or None, r['category'] or None)
cmd, a = sys.argv[1], sys.argv[2:]
if cmd == 'db':  # CSV DB
    db = sqlite3.connect(a[1])
    db.executescript('''CREATE TABLE spots(rowid INTEGER PRIMARY KEY, osm_type TEXT, osm_id INTEGER,
        lat REAL, lon REAL, name TEXT, category TEXT);
        CREATE VIRTUAL TABLE spots_rtree USING rtree(id, minlon, maxlon, minlat, maxlat);''')
    db.executemany('INSERT INTO spots(osm_type, osm_id, lat, lon, name, category) VALUES (?,?,?,?,?,?)', spots(a[0]))
    db.execute('INSERT INTO spots_rtree SELECT rowid, lon, lon, lat, lat FROM spots')
    db.commit()
elif cmd == 'requests':  # CSV N NDJSON SQL TEXTS TEXT_NDJSON: seeded, the same every run
    order = {'node': 0, 'way': 1, 'relation': 2}  # OSM order, whatever the index order is
    pts = [p[2:5] for p in sorted(spots(a[0]), key=lambda p: (order[p[0]], p[1]))]
    rng = random.Random(2026)
    dlat = math.degrees(1000 / R) * 1.01  # the 1 km box, 1% wider; R*Tree boxes round outward
    with open(a[2], 'w') as js, open(a[3], 'w') as sql:
        # memory-mapped, as spots maps its index (about 1.5x faster than reads here)
        sql.write('.mode list\n.separator |\n.output /dev/null\nPRAGMA mmap_size = 1073741824;\n.output stdout\n')
        for _ in range(int(a[1])):
            lat, lon, _ = rng.choice(pts)
            d, b = 500 * rng.random(), rng.uniform(0, 2 * math.pi)  # move by up to 500 m
            lat, lon = lat + math.degrees(d * math.cos(b) / R), lon + math.degrees(d * math.sin(b) / R / math.cos(math.radians(lat)))
            la, lo = f'{lat:.7f}', f'{lon:.7f}'
            dlon = dlat / math.cos(math.radians(min(89.0, abs(lat) + dlat)))
            js.write(f'{{"near":[{la},{lo}],"radius":1000,"limit":20}}\n')
            sql.write(f'SELECT osm_type, osm_id, dist FROM (SELECT s.osm_type, s.osm_id, 2 * {R} * asin(min(1, sqrt('
                      f'pow(sin(radians(s.lat - {la}) / 2), 2) + cos(radians({la})) * cos(radians(s.lat))'
                      f' * pow(sin(radians(s.lon - {lo}) / 2), 2)))) AS dist FROM spots_rtree r JOIN spots s ON s.rowid = r.id'
                      f' WHERE r.minlon <= {lon + dlon!r} AND r.maxlon >= {lon - dlon!r} AND r.minlat <= {lat + dlat!r}'
                      f' AND r.maxlat >= {lat - dlat!r}) WHERE dist <= 1000'
                      f" ORDER BY dist, CASE osm_type WHEN 'node' THEN 0 WHEN 'way' THEN 1 ELSE 2 END, osm_id LIMIT 20;\n.print --\n")
    names = [n for _, _, n in pts if n and n[:3].isalpha()]
    with open(a[5], 'w', encoding='utf-8') as js:
        for _ in range(int(a[4])):
            n = rng.choice(names); k = min(rng.randint(3, 5), len(n))
            while not n[:k].isalpha(): k -= 1
            js.write(json.dumps({'query': n[:k], 'limit': 20}, ensure_ascii=False) + '\n')
elif cmd == 'compare':  # SPOTS_OUT SQLITE_OUT N: identical, ties, mismatching, max |Δd|, results, answers, first bad
    A = [[(r['osm_type'], r['osm_id'], r['distance_m']) for r in json.loads(l)['results']]
         for l in open(a[0], encoding='utf-8')]
    B, cur = [], []
    for l in open(a[1], encoding='utf-8'):
        if l.rstrip('\n') == '--': B.append(cur); cur = []
        else: t, i, d = l.rstrip('\n').split('|'); cur.append((t, int(i), float(d)))
    def tie(x, y):  # the same distances, refs differing only among equal ones, at 1 km or at the limit
        dx, dy, m = {p[:2]: p[2] for p in x}, {p[:2]: p[2] for p in y}, min(len(x), len(y))
        if any(abs(dx[k] - dy[k]) > TOL for k in dx.keys() & dy.keys()): return False
        if any(abs(x[i][2] - y[i][2]) > TOL for i in range(m)): return False
        return all(p[:2] in dq or p[2] >= 1000 - TOL or (len(q) == 20 and abs(p[2] - q[-1][2]) <= TOL)
                   for ps, q, dq in ((x, y, dy), (y, x, dx)) for p in ps)
    n, same, ties, worst, first = int(a[2]), 0, 0, 0.0, 0
    for k, (x, y) in enumerate(zip(A, B), 1):
        if [p[:2] for p in x] == [p[:2] for p in y] and all(abs(p[2] - q[2]) <= TOL for p, q in zip(x, y)):
            same += 1; worst = max([worst] + [abs(p[2] - q[2]) for p, q in zip(x, y)])
        elif tie(x, y): ties += 1
        else: first = first or k
    print(same, ties, n - same - ties, f'{worst:.1e}', sum(map(len, A)), len(A), len(B), first or '-')
PY
)

# --- the inputs: indexes, their CSV exports, the SQLite copies ------------------------
input=$dir/pois$copies.osm.gz
if [ ! -f "$input" ]; then
  echo "making $input (once) ..."
  python3 "$shared/bench/make-metro.py" "$shared/data/pois-union.osm.gz" "$input.partial" --copies "$copies"
  mv "$input.partial" "$input"
fi
prepare() { # NAME INPUT: $dir/NAME.spots (--keep-all --no-dedupe --no-clusters: the peers hold no clusters either), .csv and .db, remade when stale
  local idx=$dir/$1.spots csv=$dir/$1.csv db=$dir/$1.db
  if [ ! -f "$idx" ] || [ "$spots" -nt "$idx" ] || [ "$2" -nt "$idx" ]; then
    echo "building $idx ..."
    "$spots" build "$2" -o "$idx" --keep-all --no-dedupe --no-clusters --quiet -O
  fi
  [ -f "$csv" ] && [ "$csv" -nt "$idx" ] || "$spots" export "$idx" --format csv -o "$csv" -O
  if [ ! -f "$db" ] || [ "$csv" -nt "$db" ]; then
    echo "building $db ..."
    rm -f "$db" && python3 -c "$py" db "$csv" "$db"
  fi
}
prepare union "$shared/data/pois-union.osm.gz"
prepare "pois$copies" "$input"
big=$dir/pois$copies
python3 -c "$py" requests "$big.csv" "$requests" "$dir/near.ndjson" "$dir/near.sql" "$texts" "$dir/text.ndjson"
head -n 1 "$dir/near.ndjson" >"$dir/one.ndjson" # the first request alone: the open time
sed '/^\.print --$/q' "$dir/near.sql" >"$dir/one.sql"

if [ "$have_gpkg" = 1 ]; then
  osmium cat "$shared/data/pois-union.osm.gz" -o "$dir/union.osm.pbf" --overwrite
  rm -f "$dir/union.gpkg"
  ogr2ogr -f GPKG "$dir/union.gpkg" "$dir/union.osm.pbf" points >"$dir/ogr2ogr.log" 2>&1
fi

# --- the runs --------------------------------------------------------------------------
names=(spots spots_one sqlite text open_small open_big sqlite_one)
declare -A label=([spots]="spots search, near" [spots_one]="spots search, near, 1 thread" [sqlite]="sqlite3 R*Tree, near"
  [text]="spots search, text prefix" [open_small]="spots search, 1 request (union)"
  [open_big]="spots search, 1 request (pois$copies)" [sqlite_one]="sqlite3, 1 request (pois$copies)")
declare -A count=([spots]=$requests [spots_one]=$requests [sqlite]=$requests [text]=$texts [open_small]=1 [open_big]=1 [sqlite_one]=1)
declare -A walls rsss

timed() { # NAME: run it once, append its wall ms (EPOCHREALTIME around GNU time) and peak RSS (KiB)
  local cmd stdin=/dev/null out=$dir/$1.out
  case "$1" in
    spots) cmd=("$spots" search "$big.spots" --batch "$dir/near.ndjson") ;;
    spots_one) cmd=("$spots" search "$big.spots" --batch "$dir/near.ndjson" "${one_thread[@]}") ;;
    sqlite) cmd=(sqlite3 -readonly -batch "$big.db"); stdin=$dir/near.sql ;;
    text) cmd=("$spots" search "$big.spots" --batch "$dir/text.ndjson") ;;
    open_small) cmd=("$spots" search "$dir/union.spots" --batch "$dir/one.ndjson") ;;
    open_big) cmd=("$spots" search "$big.spots" --batch "$dir/one.ndjson") ;;
    sqlite_one) cmd=(sqlite3 -readonly -batch "$big.db"); stdin=$dir/one.sql ;;
  esac
  local t0=${EPOCHREALTIME/./}
  if ! /usr/bin/time -f '%M' -o "$dir/time.txt" "${cmd[@]}" <"$stdin" >"$out" 2>"$dir/stderr.txt"; then
    echo "search.sh: ${label[$1]} failed: ${cmd[*]}" >&2
    tail -n 5 "$dir/stderr.txt" >&2
    exit 1
  fi
  local t1=${EPOCHREALTIME/./} answers
  answers=$(if [[ $1 == sqlite* ]]; then grep -c '^--$' "$out"; else wc -l <"$out"; fi || true)
  [ "$answers" -eq "${count[$1]}" ] ||
    { echo "search.sh: ${label[$1]}: $answers answers to ${count[$1]} requests" >&2; exit 1; }
  walls[$1]+=" $(((t1 - t0) / 1000)).$(printf %03d $(((t1 - t0) % 1000)))"
  rsss[$1]+=" $(tail -n 1 "$dir/time.txt")"
}

read -ra one_thread <<<"$(bench_one_thread "$spots")"
echo "timing $runs interleaved rounds on $(basename "$big").spots ..."
for ((r = 1; r <= runs; r++)); do
  for name in "${names[@]}"; do timed "$name"; done
  echo "  round $r/$runs done"
done
cmp -s "$dir/spots.out" "$dir/spots_one.out" ||
  { echo "search.sh: spots answered differently on one thread than on $(nproc)" >&2; exit 1; }
read -r same ties bad worst results na nb first < <(python3 -c "$py" compare "$dir/spots.out" "$dir/sqlite.out" "$requests")
textfound=$(grep -vc '"results":\[\]' "$dir/text.out" || true)

median() { tr ' ' '\n' | grep . | sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
bytes() { wc -c <"$1" | tr -d ' '; }
commas() { sed ':a; s/\B[0-9]\{3\}\>/,&/; ta' <<<"$1"; }
spotsof() { commas "$(sqlite3 "$1.db" 'SELECT count(*) FROM spots')"; } # as exported by spots

# --- the report ------------------------------------------------------------------------
cpu=$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
echo
echo "Spots search benchmark, $(date -u +%Y-%m-%d)"
echo "machine: $(nproc) cores, ${cpu:-unknown CPU}, $(uname -sm)"
echo "sqlite3: $(sqlite3 --version | cut -d' ' -f1)"
echo
echo "size: pois-union.osm.gz, $(spotsof "$dir/union") POIs (spots build --keep-all --no-dedupe)"
printf '%-34s %12s\n' file bytes
printf "%-34s %12s\n" "spots index" "$(commas "$(bytes "$dir/union.spots")")"
if [ "$have_gpkg" = 1 ]; then
  features=$(ogrinfo -so "$dir/union.gpkg" points | sed -n 's/^Feature Count: //p')
  printf "%-34s %12s\n" "GeoPackage (ogr2ogr points, $(commas "$features"))" "$(commas "$(bytes "$dir/union.gpkg")")" \
    "OSM PBF (osmium cat, no index)" "$(commas "$(bytes "$dir/union.osm.pbf")")"
  awk -v s="$(bytes "$dir/union.spots")" -v g="$(bytes "$dir/union.gpkg")" \
    'BEGIN {printf "spots / GeoPackage: %.1f%% (goal <= 25%%)\n", 100*s/g}'
fi
echo
echo "speed: $(basename "$big"), $(spotsof "$big") spots; spots index $(bytes "$big.spots" |
  awk '{printf "%.1f", $1/1048576}') MiB, SQLite $(bytes "$big.db" | awk '{printf "%.1f", $1/1048576}') MiB"
echo "near: $(commas "$requests") x {near: a POI moved up to 500 m, radius 1000, limit 20}; text: $(commas "$texts") x {query: 3-5 letter name prefix, limit 20}"
echo "medians of $runs interleaved runs; wall includes process start (and ~1 ms of GNU time)"
echo
printf '%-38s %9s %9s %14s %13s\n' row requests "wall ms" "per request" "peak RSS MiB"
declare -A med
for name in "${names[@]}"; do
  med[$name]=$(median <<<"${walls[$name]}")
  awk -v l="${label[$name]}" -v n="${count[$name]}" -v w="${med[$name]}" -v k="$(median <<<"${rsss[$name]}")" \
    'BEGIN {printf "%-38s %9d %9.1f %14s %13.1f\n", l, n, w, (n > 1 ? sprintf("%.1f us", 1000*w/n) : "-"), k/1024}'
done
echo
echo "answers: $na from spots, $nb from sqlite3, $results results; identical $same, differing only on"
echo "  ties at 1 km or at the limit $ties, mismatching $bad (max |distance difference| $worst m)"
echo "text prefixes answered with at least one spot: $textfound of $texts"
awk -v q="${med[sqlite]}" -v s="${med[spots]}" -v o="${med[spots_one]}" -v c="$(nproc)" 'BEGIN {
  printf "sqlite3 / spots search wall, near: %.1f (goal >= 20; spots on %d cores, sqlite3 on one)\n", q/s, c
  printf "sqlite3 / spots search wall, near, spots on one thread: %.1f\n", q/o }'
[ "$bad" = 0 ] || { echo "search.sh: $bad requests answered differently, first: line $first of $dir/near.ndjson" >&2; exit 1; }
