#!/usr/bin/env bash
# Ingest speed: `spots build` beside `osmium tags-filter`, pyosmium (Benchmarks/pyosmium_filter.py)
# and the zlib + expat floor (../shared/bench/expat_floor.c), on one large input tiled from a real
# extract, as gzipped XML and (written by osmium) as PBF.
#
#   bash Benchmarks/ingest.sh [--copies N] [--runs N]
#
#   --copies N   input size: N tiled copies of Andorra (default 16: about 42 MB gzip, 604 MB XML)
#   --runs N     interleaved rounds; the table shows medians (default 3)
#
# Environment:
#   SPOTS_BENCH_DIR  cache for inputs, expat_floor and outputs (default ${TMPDIR:-/tmp}/spots-bench)
#   SPOTS_BIN        a spots binary to time instead of building one with `swift build -c release`
#   SPOTS_BASE_BIN   an earlier spots binary, timed beside it with the default selection (areas
#                    on), so that the default and places.json rows read as ratios to "before"
#
# Needs ../shared (data/ and bench/) beside the repository and skips, saying so, without it;
# needs python3, cc with libexpat and zlib headers, GNU time at /usr/bin/time; osmium-tool is
# installed with apt-get when missing and running as root, else its row is left out; the pyosmium
# row needs `pip install osmium` and is left out without it.
set -euo pipefail
export LC_ALL=C # for printf's and awk's decimal point

usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; }
copies=16 runs=3
while [ $# -gt 0 ]; do
  case "$1" in
    --copies|--runs)
      [ $# -ge 2 ] || { echo "ingest.sh: $1 needs a value" >&2; exit 64; }
      if [ "$1" = --copies ]; then copies=$2; else runs=$2; fi
      shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "ingest.sh: unknown argument '$1'" >&2; usage >&2; exit 64 ;;
  esac
done
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
bench_require_counts ingest.sh "$copies" "$runs"

bench_setup ingest.sh

# --- the tools -------------------------------------------------------------------------

floor=$dir/expat_floor
if [ ! -x "$floor" ] || [ "$shared/bench/expat_floor.c" -nt "$floor" ]; then
  cc -O2 -o "$floor" "$shared/bench/expat_floor.c" -lexpat -lz -lpthread
fi

if ! command -v osmium >/dev/null && [ "$(id -u)" = 0 ]; then
  echo "installing osmium-tool ..."
  { apt-get install -y osmium-tool || { apt-get update && apt-get install -y osmium-tool; }; } \
    >"$dir/apt.log" 2>&1 || true
fi
have_osmium=1
command -v osmium >/dev/null || { have_osmium=0; echo "osmium-tool is missing (and could not be installed): no osmium row"; }
have_pyosmium=1
python3 -c 'import osmium' 2>/dev/null || { have_pyosmium=0; echo "pyosmium is not installed (pip install osmium): no pyosmium row"; }

# --- the input -------------------------------------------------------------------------
input=$dir/metro$copies.osm.gz
if [ ! -f "$input" ]; then
  echo "making $input (once) ..."
  python3 "$shared/bench/make-metro.py" "$shared/data/andorra-2021-04.osm.gz" "$input.partial" \
    --copies "$copies"
  mv "$input.partial" "$input"
fi
if [ ! -f "$input.size" ] || [ "$input" -nt "$input.size" ]; then
  gzip -dc "$input" | wc -c | tr -d ' ' >"$input.size"
fi
pbf=$dir/metro$copies.osm.pbf
if [ "$have_osmium" = 1 ] && { [ ! -f "$pbf" ] || [ "$input" -nt "$pbf" ]; }; then
  echo "making $pbf with osmium (once) ..."
  osmium cat "$input" -o "$pbf.partial.osm.pbf" --overwrite
  mv "$pbf.partial.osm.pbf" "$pbf"
fi

bz2=$dir/metro$copies.osm.bz2
have_lbzip2=1
command -v lbzip2 >/dev/null || { have_lbzip2=0; echo "lbzip2 is missing (apt-get install lbzip2): no bzip2 rows"; }
if [ "$have_lbzip2" = 1 ] && { [ ! -f "$bz2" ] || [ "$input" -nt "$bz2" ]; }; then
  echo "making $bz2 with lbzip2 (once) ..."
  gzip -dc "$input" | lbzip2 >"$bz2.partial"
  mv "$bz2.partial" "$bz2"
fi

# --- the runs --------------------------------------------------------------------------
base=${SPOTS_BASE_BIN:-}
[ -z "$base" ] || [ -x "$base" ] || { echo "ingest.sh: SPOTS_BASE_BIN $base is not an executable" >&2; exit 66; }
names=(spots areas places base_areas osmium pyosmium floor1 floor2 pbf pbf_areas osmium_pbf osmium_pbf_nwr bz2 osmium_bz2)
declare -A label=([spots]="spots build --no-areas" [areas]="spots build (areas)" [osmium]="osmium tags-filter" [pyosmium]="pyosmium KeyFilter"
  [places]="spots build, places.json" [base_areas]="SPOTS_BASE_BIN (areas)"
  [floor1]="expat_floor (1 thread)" [floor2]="expat_floor (2 threads)"
  [bz2]="bzip2: spots --no-areas" [osmium_bz2]="bzip2: osmium n/"
  [pbf]="PBF: spots --no-areas" [pbf_areas]="PBF: spots (areas)" [osmium_pbf]="PBF: osmium n/" [osmium_pbf_nwr]="PBF: osmium nwr/")
declare -A walls cpus rsss
runs_row() { # NAME: whether this machine can run that row
  case "$1" in base_areas) [ -n "$base" ] ;; osmium_bz2) [ "$have_osmium" = 1 ] && [ "$have_lbzip2" = 1 ] ;; osmium | pbf* | osmium_*) [ "$have_osmium" = 1 ] ;; bz2) [ "$have_lbzip2" = 1 ] ;; pyosmium) [ "$have_pyosmium" = 1 ] ;; *) true ;; esac
}

timed() { # NAME: run it once, append its wall seconds, CPU seconds (user + system) and peak RSS (KiB)
  local cmd out=""
  case "$1" in
    spots) out=$dir/out.spots; cmd=("$spots" build "$input" -o "$out" --no-areas --quiet) ;;
    areas) out=$dir/out.areas.spots; cmd=("$spots" build "$input" -o "$out" --quiet) ;;
    places) out=$dir/out.places.spots; cmd=("$spots" build "$input" -o "$out" --quiet --pipeline "$root/Pipelines/places.json") ;;
    base_areas) out=$dir/out.base.spots; cmd=("$base" build "$input" -o "$out" --quiet) ;;
    osmium) out=$dir/out.osm.pbf; cmd=(osmium tags-filter "$input" n/amenity n/tourism -o "$out" --overwrite) ;;
    pyosmium) out=$dir/out.py.osm.pbf; cmd=(python3 "$root/Benchmarks/pyosmium_filter.py" "$input" "$out") ;;
    pbf) out=$dir/out.pbf.spots; cmd=("$spots" build "$pbf" -o "$out" --no-areas --quiet) ;;
    pbf_areas) out=$dir/out.pbf-areas.spots; cmd=("$spots" build "$pbf" -o "$out" --quiet) ;;
    osmium_pbf) out=$dir/out.n.osm.pbf; cmd=(osmium tags-filter "$pbf" n/amenity n/tourism -o "$out" --overwrite) ;;
    osmium_pbf_nwr) out=$dir/out.nwr.osm.pbf; cmd=(osmium tags-filter "$pbf" nwr/amenity nwr/tourism -o "$out" --overwrite) ;;
    bz2) out=$dir/out.bz2.spots; cmd=("$spots" build "$bz2" -o "$out" --no-areas --quiet) ;;
    osmium_bz2) out=$dir/out.bz2.osm.pbf; cmd=(osmium tags-filter "$bz2" n/amenity n/tourism -o "$out" --overwrite) ;;
    floor1) cmd=("$floor" "$input") ;;
    floor2) cmd=("$floor" "$input" 2) ;;
  esac
  [ -z "$out" ] || rm -f "$out"
  if ! /usr/bin/time -f '%e %U %S %M' -o "$dir/time.txt" "${cmd[@]}" >"$dir/stdout.txt" 2>"$dir/stderr.txt"; then
    echo "ingest.sh: ${label[$1]} failed: ${cmd[*]}" >&2
    tail -n 5 "$dir/stderr.txt" >&2
    exit 1
  fi
  if [ -n "$out" ] && [ ! -s "$out" ]; then # a stub that exits 0 at once would time nothing
    echo "ingest.sh: ${label[$1]} exited 0 but wrote no $out: ${cmd[*]}" >&2
    exit 1
  fi
  local wall user system rss
  read -r wall user system rss < <(tail -n 1 "$dir/time.txt")
  walls[$1]+=" $wall"
  cpus[$1]+=" $(awk -v u="$user" -v s="$system" 'BEGIN {print u + s}')"
  rsss[$1]+=" $rss"
}

echo "timing $runs interleaved rounds on $(basename "$input") ..."
for ((r = 1; r <= runs; r++)); do
  for name in "${names[@]}"; do
    runs_row "$name" && timed "$name"
  done
  echo "  round $r/$runs done"
done
rm -f "$dir/out.spots" "$dir/out.areas.spots" "$dir/out.places.spots" "$dir/out.base.spots" "$dir/out.osm.pbf" "$dir/out.py.osm.pbf" "$dir/out.pbf.spots" \
  "$dir/out.pbf-areas.spots" "$dir/out.n.osm.pbf" "$dir/out.nwr.osm.pbf" "$dir/out.bz2.spots" "$dir/out.bz2.osm.pbf"

median() { tr ' ' '\n' | grep . | sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a/b}'; }

# --- the report ------------------------------------------------------------------------
cpu=$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
gz_bytes=$(wc -c <"$input" | tr -d ' ')
echo
echo "Spots ingest benchmark, $(date -u +%Y-%m-%d)"
echo "machine: $(nproc) cores, ${cpu:-unknown CPU}, $(uname -sm)"
awk -v f="$(basename "$input")" -v g="$gz_bytes" -v x="$(cat "$input.size")" \
  'BEGIN {printf "input:   %s, %.1f MB gzip, %.1f MB XML\n", f, g/1e6, x/1e6}'
echo "POIs:    $(tr -d '\n' <"$dir/stdout.txt") (expat_floor)"
[ "$have_osmium" = 1 ] && echo "osmium:  $(osmium --version | head -n 1)"
echo "medians of $runs interleaved runs"
echo
printf '%-26s %8s %8s %14s %13s\n' tool "wall s" "CPU s" "peak RSS MiB" "spots / tool"
declare -A med
for name in "${names[@]}"; do
  [ -n "${walls[$name]:-}" ] || continue
  med[$name]=$(median <<<"${walls[$name]}")
done
for name in "${names[@]}"; do
  [ -n "${walls[$name]:-}" ] || continue
  rss=$(median <<<"${rsss[$name]}")
  printf '%-26s %8.2f %8.2f %14.1f %13s\n' "${label[$name]}" "${med[$name]}" "$(median <<<"${cpus[$name]}")" \
    "$(awk -v k="$rss" 'BEGIN {print k/1024}')" "$(ratio "${med[spots]}" "${med[$name]}")"
done
echo
echo "spots / osmium tags-filter wall:     $([ "$have_osmium" = 1 ] && ratio "${med[spots]}" "${med[osmium]}" || echo n/a)"
echo "spots / expat_floor (1 thread) wall: $(ratio "${med[spots]}" "${med[floor1]}")"
echo "spots with areas / --no-areas wall:  $(ratio "${med[areas]}" "${med[spots]}") (goal <= 1.5; peak RSS goal <= 300 MiB)"
if [ -n "$base" ]; then
  echo "default selection / SPOTS_BASE_BIN wall: $(ratio "${med[areas]}" "${med[base_areas]}") (goal <= 1.05)"
  echo "places.json / SPOTS_BASE_BIN wall:       $(ratio "${med[places]}" "${med[base_areas]}") (goal <= 1.3)"
else
  echo "places.json / default selection wall: $(ratio "${med[places]}" "${med[areas]}") (SPOTS_BASE_BIN gives the ratios to an earlier build)"
fi
if [ "$have_osmium" = 1 ] && [ "$have_lbzip2" = 1 ]; then
  echo "bzip2 (lbzip2) spots --no-areas / osmium n/ wall: $(ratio "${med[bz2]}" "${med[osmium_bz2]}") (goal <= 0.7)"
fi
if [ "$have_osmium" = 1 ]; then
  echo "PBF $(basename "$pbf"), $(awk -v b="$(wc -c <"$pbf")" 'BEGIN {printf "%.1f MB", b/1e6}'):"
  echo "  spots --no-areas / osmium n/ wall:  $(ratio "${med[pbf]}" "${med[osmium_pbf]}") (goal <= 0.5; peak RSS goal <= 100 MiB)"
  echo "  spots (areas) / osmium nwr/ wall:   $(ratio "${med[pbf_areas]}" "${med[osmium_pbf_nwr]}") (goal <= 0.5)"
  echo "  spots --no-areas, PBF / gzip XML:   $(ratio "${med[pbf]}" "${med[spots]}")"
fi
