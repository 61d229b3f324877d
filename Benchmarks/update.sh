#!/usr/bin/env bash
# Updates from change files: `spots update` of an index built with --keep-state beside the full
# build it replaces (`spots build` of the extract, with and without --keep-state), and, as the
# peer, `osmium apply-changes` (what a rebuild from diffs would run first), on a large input tiled
# from a real extract and a change that renames a share of its places and moves a share of its
# nodes (Benchmarks/make_change.py).
#
#   bash Benchmarks/update.sh [--copies N] [--runs N]
#
#   --copies N   input size: N tiled copies of Andorra (default 64: metro64, 15.7 million nodes)
#   --runs N     interleaved rounds; the table shows medians (default 3)
#
# Prints wall time and peak memory per tool, the update's time as a ratio to the build's, and
# the state's size per node of the extract. Environment: SPOTS_BENCH_DIR (cache, default
# ${TMPDIR:-/tmp}/spots-bench), SPOTS_BIN (a spots binary instead of a release build here).
# Needs ../shared beside the repository (skips, saying so, without it), python3, GNU time at
# /usr/bin/time; the osmium row is left out without osmium-tool.
set -euo pipefail
export LC_ALL=C

usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; }
copies=64 runs=3 requests=1
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
bench_parse_counts update.sh "$@"
bench_setup update.sh

input=$dir/metro$copies.osm.gz
if [ ! -f "$input" ]; then
  echo "making $input ..."
  python3 "$shared/bench/make-metro.py" "$shared/data/andorra-2021-04.osm.gz" "$input.partial" --copies "$copies"
  mv "$input.partial" "$input"
fi
change=$dir/metro$copies.change.osc.gz
if [ ! -f "$change" ] || [ "$root/Benchmarks/make_change.py" -nt "$change" ]; then
  echo "making $change ..."
  python3 "$root/Benchmarks/make_change.py" "$input" "$change.partial" --places 0.01 --nodes 0.001 --seed 1
  mv "$change.partial" "$change"
fi
work=$dir/update
rm -rf "$work"
mkdir -p "$work"
have_osmium=1
command -v osmium >/dev/null || { have_osmium=0; echo "osmium-tool is missing: no osmium row"; }

# measure NAME COMMAND...: appends "NAME seconds kilobytes" to $work/times.
measure() {
  local name=$1
  shift
  /usr/bin/time -f "%e %M" -o "$work/time.txt" "$@" >"$work/stdout.txt" 2>"$work/stderr.txt" \
    || { echo "update.sh: $name failed:" >&2; cat "$work/stderr.txt" >&2; exit 1; }
  echo "$name $(cat "$work/time.txt")" >>"$work/times"
}

: >"$work/times"
"$spots" build "$input" -o "$work/base.spots" --keep-state -q
for round in $(seq "$runs"); do
  echo "round $round of $runs ..."
  measure build "$spots" build "$input" -o "$work/plain.spots" -O -q
  measure build-keep-state "$spots" build "$input" -o "$work/kept.spots" -O --keep-state -q
  measure update "$spots" update "$work/base.spots" "$change" -o "$work/updated.spots" -O -q
  if [ "$have_osmium" = 1 ]; then
    measure osmium-apply-changes osmium apply-changes "$input" "$change" -o "$work/applied.osm.pbf" -O
  fi
done

nodes=$(zcat "$input" | grep -c '<node ' || true)
state_bytes=$(( $(stat -c %s "$work"/base.base-*.state) + $(stat -c %s "$work/base.state") ))
echo
echo "metro$copies: $(basename "$change") ($(zcat "$change" | grep -c "<node ") nodes changed), $runs rounds, medians"
awk -v nodes="$nodes" -v state="$state_bytes" '
  { t[$1] = t[$1] " " $2; m[$1] = m[$1] " " $3; if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } }
  function median(list,   a, k, i, j, v) {
    k = split(substr(list, 2), a, " ")
    for (i = 2; i <= k; i++) { v = a[i] + 0; for (j = i - 1; j >= 1 && a[j] + 0 > v; j--) a[j + 1] = a[j]; a[j + 1] = v }
    return a[int((k + 1) / 2)]
  }
  END {
    build = median(t["build"])
    printf "%-22s %9s %10s %14s\n", "tool", "wall s", "peak MiB", "÷ build time"
    for (i = 1; i <= n; i++) {
      name = order[i]; s = median(t[name]); k = median(m[name])
      printf "%-22s %9.2f %10.1f %14.3f\n", name, s, k / 1024, s / build
    }
    printf "state: %.1f MB, %.1f bytes per node (%d nodes)\n", state / 1e6, state / nodes, nodes
  }' "$work/times"
