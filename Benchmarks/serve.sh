#!/usr/bin/env bash
# `spots serve` under load: wrk over a seeded mix of requests on pois300, beside the same
# requests answered in process by `spots search --batch` and `spots cluster --batch`.
#
#   bash Benchmarks/serve.sh [--copies N] [--requests N] [--runs N]
#
#   --copies N    N tiled copies of pois-union (default 300: about 940,000 POIs), built with clusters
#   --requests N  requests in the mix (default 20000): 60% nearby within 1 km (limit 20), 30% text
#                 with a place (a spot's name from 200 to 500 m away, a third of them with one
#                 typo), 10% clusters for a viewport at zoom 14 to 16 around a spot
#   --runs N      rounds of the in-process batch; the table shows the median (default 3)
#
# Rows: the batch (requests per second in process on one thread, `--threads 1`: both batches'
# requests over their wall time), then wrk at 16 and at 64 connections for 30 s each, 2 threads, on the machine the
# server shares, and the same two again while a new index is published under the server's path
# every 5 s (the two builds renamed over it in turn). Each wrk row gives requests per second
# (and its ratio to the batch), p50/p99/max latency and errors (connect, read, write, timeout,
# non-2xx). Last, the server's peak RSS beside the index's size. Goals: at 16 connections
# ≥ 0.5x the batch and p99 ≤ 20 ms; at 64, no errors; both while publishing; RSS ≤ the index
# plus 64 MiB. The server listens on 127.0.0.1 on a free port and is stopped at the end.
#
# Environment:
#   SPOTS_BENCH_DIR  cache for inputs, indexes, requests and outputs (default ${TMPDIR:-/tmp}/spots-bench)
#   SPOTS_BIN        a spots binary to time instead of building one with `swift build -c release`
#
# Needs ../shared (data/ and bench/) beside the repository and skips, saying so, without it;
# needs python3, wrk (Debian's package, installed with apt-get when missing and running as
# root) and GNU time at /usr/bin/time.
set -euo pipefail
export LC_ALL=C

usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; }
copies=300 requests=20000 runs=3
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
bench_parse_counts serve.sh "$@"
bench_setup serve.sh
if ! command -v wrk >/dev/null && [ "$(id -u)" = 0 ]; then
  echo "installing wrk ..."
  { apt-get install -y wrk || { apt-get update && apt-get install -y wrk; }; } >"$dir/apt.log" 2>&1 || true
fi
command -v wrk >/dev/null || { echo "serve.sh: wrk is missing (apt install wrk)" >&2; exit 1; }

# --- the index, a second build to publish, the requests ---------------------------------
input=$dir/pois$copies.osm.gz
if [ ! -f "$input" ]; then
  echo "making $input (once) ..."
  python3 "$shared/bench/make-metro.py" "$shared/data/pois-union.osm.gz" "$input.partial" --copies "$copies"
  mv "$input.partial" "$input"
fi
index=$dir/serve-pois$copies.spots
other=$dir/serve-pois$copies.other.spots
if [ ! -f "$index" ] || [ "$spots" -nt "$index" ] || [ "$input" -nt "$index" ]; then
  echo "building $index ..."
  "$spots" build "$input" -o "$index" --keep-all --no-dedupe --quiet -O
  "$spots" export "$index" --format csv -o "$dir/serve-pois$copies.csv" -O
fi
[ -f "$other" ] && [ "$other" -nt "$index" ] || "$spots" build "$input" -o "$other" --keep-all --quiet -O

python3 - "$root" "$dir/serve-pois$copies.csv" "$requests" "$dir/serve" <<'PY'
import csv, json, math, random, sys, urllib.parse
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1] + '/Benchmarks/relevance')
from relevance import misspell
rows = [r for r in csv.DictReader(open(sys.argv[2], encoding='utf-8'))]
named = [r for r in rows if r['name']]
count, out = int(sys.argv[3]), sys.argv[4]
rng = random.Random(43)
R = 6371008.8
def moved(r):
    d, b = rng.uniform(200, 500), rng.uniform(0, 2 * math.pi)
    lat = float(r['lat']) + math.degrees(d * math.cos(b) / R)
    lon = float(r['lon']) + math.degrees(d * math.sin(b) / R / math.cos(math.radians(float(r['lat']))))
    return round(lat, 7), round(lon, 7)
paths, searches, clusters = [], [], []
for i in range(count):
    kind = rng.random()
    if kind < 0.6:
        lat, lon = moved(rng.choice(rows))
        searches.append({'near': [lat, lon], 'radius': 1000, 'limit': 20})
        paths.append('/v1/search?near=%s,%s&radius=1000&limit=20' % (lat, lon))
    elif kind < 0.9:
        r = rng.choice(named)
        lat, lon = moved(r)
        text = r['name']
        words = sorted((w for w in text.split() if len(w) >= 5 and w.isalpha()), key=len)
        if words and rng.random() < 1 / 3:  # one edit in the longest word, as typos.sh makes them
            text = text.replace(words[-1], misspell(words[-1], rng)[0], 1)
        searches.append({'query': text, 'near': [lat, lon], 'limit': 10})
        paths.append('/v1/search?' + urllib.parse.urlencode({'q': text, 'near': '%s,%s' % (lat, lon), 'limit': 10}))
    else:
        r = rng.choice(rows)
        zoom = rng.choice([14, 15, 16])
        half = 360 / 2 ** zoom * 2  # about two tiles of 512 px each way
        lat, lon = float(r['lat']), float(r['lon'])
        box = [round(lon - half, 6), round(lat - half / 2, 6), round(lon + half, 6), round(lat + half / 2, 6)]
        clusters.append({'bbox': box, 'zoom': zoom})
        paths.append('/v1/clusters?bbox=%s&zoom=%d' % (','.join(map(str, box)), zoom))
open(out + '-paths.txt', 'w').write('\n'.join(paths) + '\n')
open(out + '-search.ndjson', 'w').write(''.join(json.dumps(s) + '\n' for s in searches))
open(out + '-cluster.ndjson', 'w').write(''.join(json.dumps(c) + '\n' for c in clusters))
PY
[ "$(wc -l <"$dir/serve-paths.txt")" -eq "$requests" ] || { echo "serve.sh: the requests were not all made" >&2; exit 1; }

# --- the in-process ceiling ------------------------------------------------------------
elapsed() { local start=$EPOCHREALTIME; "$@" >/dev/null; awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN {print b - a}'; }
batch_rates=()
read -ra one_thread <<<"$(bench_one_thread "$spots")" # the batch on one thread
for _ in $(seq "$runs"); do
  s=$(elapsed "$spots" search "$index" --batch "$dir/serve-search.ndjson" "${one_thread[@]}" -o "$dir/serve-search.out" -O)
  c=$(elapsed "$spots" cluster "$index" --batch "$dir/serve-cluster.ndjson" "${one_thread[@]}" -o "$dir/serve-cluster.out" -O)
  batch_rates+=("$(awk -v n="$requests" -v s="$s" -v c="$c" 'BEGIN {print n / (s + c)}')")
done
batch=$(printf '%s\n' "${batch_rates[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')

# --- the server and wrk ------------------------------------------------------------------
cat >"$dir/serve.lua" <<'LUA'
-- Each connection walks the request list from its own offset; done() prints one JSON line.
local paths = {}
for line in io.lines(os.getenv("SERVE_PATHS")) do paths[#paths + 1] = line end
local counter = 0
setup = function(thread) counter = counter + 1; thread:set("offset", counter * 7919) end
init = function() position = offset or 0 end
request = function()
  position = position % #paths + 1
  return wrk.format("GET", paths[position])
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('{"requests":%d,"seconds":%.3f,"p50_ms":%.3f,"p99_ms":%.3f,"max_ms":%.3f,"errors":%d}\n',
    summary.requests, summary.duration / 1e6, latency:percentile(50) / 1e3, latency:percentile(99) / 1e3,
    latency.max / 1e3, e.connect + e.read + e.write + e.timeout + e.status))
end
LUA
served=$dir/serve-served.spots
cp "$index" "$served"
"$spots" serve "$served" --listen 127.0.0.1:0 >"$dir/serve.out" 2>"$dir/serve.log" &
server=$!
trap 'kill "$server" 2>/dev/null; kill "${publisher:-}" 2>/dev/null || true' EXIT
for _ in $(seq 100); do [ -s "$dir/serve.out" ] && break; sleep 0.1; done
address=$(grep -o '127\.0\.0\.1:[0-9]*' "$dir/serve.out")
[ -n "$address" ] || { echo "serve.sh: the server did not start: $(cat "$dir/serve.log")" >&2; exit 1; }

publish_loop() { # renames the two builds over the served path in turn, every 5 s
  local turn=0
  while true; do
    sleep 5
    if [ $((turn % 2)) = 0 ]; then cp "$other" "$served.next"; else cp "$index" "$served.next"; fi
    mv "$served.next" "$served"
    turn=$((turn + 1))
  done
}

rows=()
run_wrk() { # LABEL CONNECTIONS
  local json
  json=$(SERVE_PATHS="$dir/serve-paths.txt" wrk -t2 -c"$2" -d30s --timeout 5s -s "$dir/serve.lua" "http://$address" | tail -n 1)
  rows+=("$1|$json")
}
run_wrk "16 connections" 16
run_wrk "64 connections" 64
publish_loop &
publisher=$!
run_wrk "16 connections, publishing every 5 s" 16
run_wrk "64 connections, publishing every 5 s" 64
kill "$publisher" 2>/dev/null || true
publisher=
rss_kib=$(awk '/^VmHWM:/ {print $2}' "/proc/$server/status")
reloads=$(grep -c '"\?reloaded' "$dir/serve.log" || true)
kill "$server"
wait "$server" 2>/dev/null || true

# --- the table -----------------------------------------------------------------------------
index_bytes=$(stat -c %s "$index")
printf '\n%-40s %10s %8s %9s %9s %9s %7s\n' "row" "req/s" "x batch" "p50 ms" "p99 ms" "max ms" "errors"
printf '%-40s %10.0f %8s %9s %9s %9s %7s\n' "spots search/cluster --batch (1 thread)" "$batch" "1.00" "-" "-" "-" "-"
for row in "${rows[@]}"; do
  label=${row%%|*}
  python3 - "$label" "${row#*|}" "$batch" <<'PY'
import json, sys
label, r, batch = sys.argv[1], json.loads(sys.argv[2]), float(sys.argv[3])
rate = r['requests'] / r['seconds']
print('%-40s %10.0f %8.2f %9.2f %9.2f %9.1f %7d' % (label, rate, rate / batch, r['p50_ms'], r['p99_ms'], r['max_ms'], r['errors']))
PY
done
awk -v rss="$rss_kib" -v bytes="$index_bytes" -v reloads="$reloads" 'BEGIN {
  printf "\nserver peak RSS %.1f MiB; index %.1f MiB (goal: at most %.1f MiB); reloads during the runs: %d\n",
    rss / 1024, bytes / 1048576, bytes / 1048576 + 64, reloads }'
