#!/usr/bin/env bash
# Pin clustering: `spots cluster --batch` (on one thread) on viewports of 1024 × 1024 pixels at every zoom, with
# and without a category filter, and what the cluster levels cost the build (time and size).
#
#   bash Benchmarks/cluster.sh [--copies N] [--requests N] [--runs N]
#
#   --copies N    input: N tiled copies of pois-union (default 300: about 940,000 POIs)
#   --requests N  viewports per zoom, zooms 0 to 18, each unfiltered and filtered (default 500)
#   --runs N      interleaved rounds; the table shows medians (default 3)
#
# Environment:
#   SPOTS_BENCH_DIR  cache for inputs, indexes and outputs (default ${TMPDIR:-/tmp}/spots-bench)
#   SPOTS_BIN        a spots binary to time instead of building one with `swift build -c release`
#
# Besides the whole-process batches, `cluster-latency` (Benchmarks/ClusterLatency, built beside
# spots; left out when SPOTS_BIN has none beside it) times the same requests inside one
# process, for percentiles. Needs ../shared (data/ and bench/) beside the repository and skips,
# saying so, without it; needs python3 and GNU time at /usr/bin/time.
set -euo pipefail
export LC_ALL=C # for printf's and awk's decimal point, and EPOCHREALTIME's

usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; }
copies=300 requests=500 runs=3 maxzoom=18
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
bench_parse_counts cluster.sh "$@"

bench_setup cluster.sh
"$spots" cluster --help >/dev/null 2>&1 || { echo "cluster.sh: $spots has no 'cluster' command" >&2; exit 1; }
latency=$(dirname "$spots")/cluster-latency
[ -n "${SPOTS_BIN:-}" ] || (cd "$root" && swift build -c release --product cluster-latency)
[ -x "$latency" ] || { latency=; echo "no cluster-latency beside $spots: no in-process percentiles"; }

# The requests: viewports 1024 px wide (2^(1-z) of the world's width at zoom z, 512-px tiles)
# centred on random spots, seeded; the filtered ones name 1 to 3 categories of the index.
py=$(cat <<'PY'
import csv, json, math, random, sys
cmd, a = sys.argv[1], sys.argv[2:]
if cmd == 'requests':  # CSV N MAXZOOM DIR
    pts, cats = [], set()
    with open(a[0], newline='', encoding='utf-8') as f:
        for r in csv.DictReader(f):
            pts.append((float(r['lat']), float(r['lon'])))
            if r['category']: cats.add(r['category'])
    cats, rng = sorted(cats), random.Random(2026)
    x = lambda lon: lon / 360 + 0.5
    def y(lat):
        s = math.sin(math.radians(lat))
        return min(1, max(0, 0.5 - 0.25 * math.log((1 + s) / (1 - s)) / math.pi))
    lon = lambda x: (x - 0.5) * 360
    lat = lambda y: 360 * math.atan(math.exp((180 - y * 360) * math.pi / 180)) / math.pi - 90
    for z in range(int(a[2]) + 1):
        with open(f'{a[3]}/u{z}.ndjson', 'w') as u, open(f'{a[3]}/f{z}.ndjson', 'w') as fl:
            for _ in range(int(a[1])):
                la, lo = rng.choice(pts)
                h, cx, cy = 2.0 ** -z, x(lo), y(la)
                box = [round(v, 7) for v in (lon(max(0, cx - h)), lat(min(1, cy + h)), lon(min(1, cx + h)), lat(max(0, cy - h)))]
                u.write(json.dumps({'bbox': box, 'zoom': z}) + '\n')
                fl.write(json.dumps({'bbox': box, 'zoom': z, 'categories': rng.sample(cats, rng.randint(1, 3))}) + '\n')
elif cmd == 'items':  # OUT: mean clusters and spots per answer; exits 1 on an error answer
    n = c = s = 0
    for l in open(a[0], encoding='utf-8'):
        o = json.loads(l)
        if 'results' not in o: sys.exit(f'error answer: {l.strip()}')
        n += 1; c += sum(r['cluster'] for r in o['results']); s += sum(not r['cluster'] for r in o['results'])
    print(f'{c / n:.1f} {s / n:.1f}')
PY
)

# --- the inputs and the builds -----------------------------------------------------------
input=$dir/pois$copies.osm.gz
if [ ! -f "$input" ]; then
  echo "making $input (once) ..."
  python3 "$shared/bench/make-metro.py" "$shared/data/pois-union.osm.gz" "$input.partial" --copies "$copies"
  mv "$input.partial" "$input"
fi
big=$dir/clusters$copies
plain=$dir/plain$copies
declare -A walls rsss

timed() { # NAME OUT CMD...: run it once, append its wall ms (EPOCHREALTIME around GNU time) and peak RSS (KiB)
  local name=$1 out=$2
  shift 2
  local t0=${EPOCHREALTIME/./}
  if ! /usr/bin/time -f '%M' -o "$dir/time.txt" "$@" >"$out" 2>"$dir/stderr.txt"; then
    echo "cluster.sh: $name failed: $*" >&2
    tail -n 5 "$dir/stderr.txt" >&2
    exit 1
  fi
  local t1=${EPOCHREALTIME/./}
  walls[$name]+=" $(((t1 - t0) / 1000)).$(printf %03d $(((t1 - t0) % 1000)))"
  rsss[$name]+=" $(tail -n 1 "$dir/time.txt")"
}

echo "timing $runs interleaved rounds of 'spots build' with and without cluster levels ..."
for ((r = 1; r <= runs; r++)); do
  timed build_clusters /dev/null "$spots" build "$input" -o "$big.spots" --keep-all --no-dedupe --quiet -O
  timed build_plain /dev/null "$spots" build "$input" -o "$plain.spots" --keep-all --no-dedupe --no-clusters --quiet -O
  echo "  round $r/$runs done"
done
[ -f "$big.csv" ] && [ "$big.csv" -nt "$big.spots" ] || "$spots" export "$big.spots" --format csv -o "$big.csv"
mkdir -p "$dir/cluster-requests"
python3 -c "$py" requests "$big.csv" "$requests" "$maxzoom" "$dir/cluster-requests"
head -n 1 "$dir/cluster-requests/u$maxzoom.ndjson" >"$dir/cluster-requests/one.ndjson" # process start and open

read -ra one_thread <<<"$(bench_one_thread "$spots")" # a batch on one thread: a row gives a request's own cost
echo "timing $runs interleaved rounds of 'spots cluster --batch ${one_thread[*]}', zooms 0 to $maxzoom ..."
for ((r = 1; r <= runs; r++)); do
  timed one "$dir/one.out" "$spots" cluster "$big.spots" --batch "$dir/cluster-requests/one.ndjson" "${one_thread[@]}"
  for ((z = 0; z <= maxzoom; z++)); do
    for kind in u f; do
      timed "$kind$z" "$dir/$kind$z.out" "$spots" cluster "$big.spots" --batch "$dir/cluster-requests/$kind$z.ndjson" \
        "${one_thread[@]}"
    done
  done
  echo "  round $r/$runs done"
done
declare -A p50s p99s
if [ -n "$latency" ]; then
  echo "timing the same requests in process ..."
  while read -r file p50 p99 _ _; do
    p50s[${file%.ndjson}]=$p50 p99s[${file%.ndjson}]=$p99
  done < <("$latency" "$big.spots" "$dir"/cluster-requests/[uf]*.ndjson)
fi

# --- the report ------------------------------------------------------------------------------
median() { tr ' ' '\n' | grep . | sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
bytes() { wc -c <"$1" | tr -d ' '; }
commas() { sed ':a; s/\B[0-9]\{3\}\>/,&/; ta' <<<"$1"; }
cpu=$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
spotcount=$(($(wc -l <"$big.csv") - 1))
echo
echo "Spots cluster benchmark, $(date -u +%Y-%m-%d)"
echo "machine: $(nproc) cores, ${cpu:-unknown CPU}, $(uname -sm)"
echo "input: $(basename "$input"), $(commas "$spotcount") spots (spots build --keep-all --no-dedupe); medians of $runs interleaved runs"
echo
bc=$(median <<<"${walls[build_clusters]}") bp=$(median <<<"${walls[build_plain]}")
sc=$(bytes "$big.spots") sp=$(bytes "$plain.spots")
printf '%-30s %12s %14s\n' "" "build s" "index bytes"
printf '%-30s %12.2f %14s\n' "with cluster levels" "$(awk -v w="$bc" 'BEGIN {print w/1000}')" "$(commas "$sc")" \
  "without (--no-clusters)" "$(awk -v w="$bp" 'BEGIN {print w/1000}')" "$(commas "$sp")"
awk -v a="$bc" -v b="$bp" -v c="$sc" -v d="$sp" \
  'BEGIN {printf "cluster levels add: build %+.1f%% (goal <= +30%%), size %+.1f%% (goal <= +35%%)\n", 100*(a/b-1), 100*(c/d-1)}'
echo
one=$(median <<<"${walls[one]}")
echo "batch ms: (wall of $requests viewports - wall of one request, ${one} ms: process start and open) / $requests;"
echo "p50, p99: in process (cluster-latency), without the JSON output; items: mean clusters+spots an answer"
printf '%5s | %9s %7s %7s %12s | %9s %7s %7s %12s\n' "" unfiltered "" "" "" filtered "" "" ""
printf '%5s | %9s %7s %7s %12s | %9s %7s %7s %12s\n' zoom "batch ms" p50 p99 items "batch ms" p50 p99 items
worst_u=0 worst_f=0
for ((z = 0; z <= maxzoom; z++)); do
  read -r uc us < <(python3 -c "$py" items "$dir/u$z.out")
  read -r fc fs < <(python3 -c "$py" items "$dir/f$z.out")
  mu=$(awk -v w="$(median <<<"${walls[u$z]}")" -v o="$one" -v n="$requests" 'BEGIN {printf "%.3f", (w-o)/n}')
  mf=$(awk -v w="$(median <<<"${walls[f$z]}")" -v o="$one" -v n="$requests" 'BEGIN {printf "%.3f", (w-o)/n}')
  worst_u=$(awk -v a="$worst_u" -v b="$mu" 'BEGIN {print (b > a ? b : a)}')
  worst_f=$(awk -v a="$worst_f" -v b="$mf" 'BEGIN {print (b > a ? b : a)}')
  printf '%5d | %9s %7s %7s %12s | %9s %7s %7s %12s\n' "$z" "$mu" "${p50s[u$z]:--}" "${p99s[u$z]:--}" "$uc+$us" \
    "$mf" "${p50s[f$z]:--}" "${p99s[f$z]:--}" "$fc+$fs"
done
echo
echo "slowest zoom, batch: unfiltered $worst_u ms a request (goal < 2 ms), filtered $worst_f ms (goal < 20 ms)"
if [ -n "$latency" ]; then
  echo "highest p99 in process: unfiltered $(for z in $(seq 0 $maxzoom); do echo "${p99s[u$z]}"; done | sort -g | tail -n 1) ms, filtered $(for z in $(seq 0 $maxzoom); do echo "${p99s[f$z]}"; done | sort -g | tail -n 1) ms"
fi
echo "peak RSS: unfiltered zoom 6 $(median <<<"${rsss[u6]}" | awk '{printf "%.1f", $1/1024}') MiB, filtered zoom 0 $(median <<<"${rsss[f0]}" | awk '{printf "%.1f", $1/1024}') MiB"
