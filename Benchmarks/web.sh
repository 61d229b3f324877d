#!/usr/bin/env bash
# The map page of `spots serve` in a real browser (Debian's chromium through Selenium), on
# pois300, on loopback.
#
#   bash Benchmarks/web.sh [--copies N] [--requests N] [--runs N]
#
#   --copies N    N tiled copies of pois-union (default 300: about 940,000 POIs), built with clusters
#   --requests N  typed searches (default 50): names of spots within 2 km of a seeded spot
#   --runs N      page loads, each in a new browser (default 5)
#
# Rows: the page's own files (HTML, modules, style, Leaflet and its cluster plugin; goal ≤ 300
# KB), the page usable (from navigation to the map and its first pins drawn; goal ≤ 1 s), and
# typed searches from the request leaving the page to its results drawn (debounce not counted;
# goal p95 ≤ 100 ms), beside the same requests fetched alone. The server listens on 127.0.0.1
# on a free port and is stopped at the end.
#
# Environment:
#   SPOTS_BENCH_DIR  cache for inputs, indexes and outputs (default ${TMPDIR:-/tmp}/spots-bench)
#   SPOTS_BIN        a spots binary to time instead of building one with `swift build -c release`
#
# Needs ../shared (data/ and bench/) beside the repository and skips, saying so, without it;
# needs chromium, chromium-driver and python3-selenium (Debian's; installed with apt-get when
# missing and running as root).
set -euo pipefail
export LC_ALL=C
usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; }
copies=300 requests=50 runs=5
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
bench_parse_counts web.sh "$@"
bench_setup web.sh
python=/usr/bin/python3
if ! { command -v chromium && command -v chromedriver && "$python" -c "import selenium"; } >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    echo "installing chromium, chromium-driver, python3-selenium ..."
    apt-get install -y chromium chromium-driver python3-selenium >"$dir/apt.log" 2>&1 || true
  fi
  "$python" -c "import selenium" 2>/dev/null && command -v chromedriver >/dev/null \
    || { echo "web.sh: chromium, chromium-driver or python3-selenium is missing" >&2; exit 1; }
fi
# --- the index (the one serve.sh builds) -----------------------------------------------
input=$dir/pois$copies.osm.gz
if [ ! -f "$input" ]; then
  echo "making $input (once) ..."
  python3 "$shared/bench/make-metro.py" "$shared/data/pois-union.osm.gz" "$input.partial" --copies "$copies"
  mv "$input.partial" "$input"
fi
index=$dir/serve-pois$copies.spots
if [ ! -f "$index" ] || [ "$spots" -nt "$index" ] || [ "$input" -nt "$index" ]; then
  echo "building $index ..."
  "$spots" build "$input" -o "$index" --keep-all --no-dedupe --quiet -O
  "$spots" export "$index" --format csv -o "$dir/serve-pois$copies.csv" -O
fi
# --- the server and the browser ----------------------------------------------------------
"$spots" serve "$index" --listen 127.0.0.1:0 >"$dir/web.out" 2>"$dir/web.log" &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
for _ in $(seq 100); do [ -s "$dir/web.out" ] && break; sleep 0.1; done
address=$(grep -o '127\.0\.0\.1:[0-9]*' "$dir/web.out")
[ -n "$address" ] || { echo "web.sh: the server did not start: $(cat "$dir/web.log")" >&2; exit 1; }
echo "index: $index ($(du -h "$index" | cut -f1)), $("$spots" --version 2>/dev/null || echo spots)"
"$python" "$root/Benchmarks/web_page.py" "http://$address" "$dir/serve-pois$copies.csv" \
  --loads "$runs" --queries "$requests"
