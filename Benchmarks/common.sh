# Shared by the benchmark scripts (sourced, not run): where things are, the skip when ../shared
# is absent, the cache folder, and the spots binary to time.
#
#   source "$(dirname "${BASH_SOURCE[0]}")/common.sh"; bench_setup NAME
#
# Sets root (the repository), shared (../shared), dir (SPOTS_BENCH_DIR, default
# ${TMPDIR:-/tmp}/spots-bench) and spots (SPOTS_BIN, or a release build made here).

# Exits 64 naming NAME unless every argument is a positive integer.
# bench_parse_counts NAME ARG...: reads --copies, --requests and --runs into $copies, $requests
# and $runs (whose defaults the caller sets), --help into the caller's `usage`; then checks them.
bench_parse_counts() {
  local name=$1
  shift
  while [ $# -gt 0 ]; do
    case "$1" in
      --copies|--requests|--runs)
        [ $# -ge 2 ] || { echo "$name: $1 needs a value" >&2; exit 64; }
        case "$1" in --copies) copies=$2 ;; --requests) requests=$2 ;; *) runs=$2 ;; esac
        shift 2 ;;
      -h|--help) usage; exit 0 ;;
      *) echo "$name: unknown argument '$1'" >&2; usage >&2; exit 64 ;;
    esac
  done
  bench_require_counts "$name" "$copies" "$requests" "$runs"
}

bench_require_counts() {
  local name=$1 n
  shift
  for n in "$@"; do
    [[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "$name: '$n' is not a positive integer" >&2; exit 64; }
  done
}

bench_setup() {
  local name=$1
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  shared=$(cd "$root/.." && pwd)/shared
  if [ ! -d "$shared/data" ] || [ ! -d "$shared/bench" ]; then
    echo "$name: skipped: $shared (with data/ and bench/) is absent"
    exit 0
  fi
  [ -x /usr/bin/time ] || { echo "$name: /usr/bin/time (GNU time, package 'time') is missing" >&2; exit 1; }
  dir=${SPOTS_BENCH_DIR:-${TMPDIR:-/tmp}/spots-bench}
  mkdir -p "$dir"
  if [ -n "${SPOTS_BIN:-}" ]; then
    spots=$SPOTS_BIN
    echo "spots: $spots (SPOTS_BIN)"
  else
    echo "building spots (release) ..."
    (cd "$root" && swift build -c release --product spots)
    spots="$(cd "$root" && swift build -c release --show-bin-path)/spots"
  fi
}

# bench_one_thread BIN: the option that makes BIN answer a --batch on one thread ("--threads 1"),
# nothing for a binary from before batches used every core (it answers on one anyway). Rows that
# give a request's own cost (ms a request, a ceiling per thread) use it; rows that time the tool
# as a user runs it do not.
bench_one_thread() {
  local help
  help=$("$1" search --help 2>&1 || true) # not piped to grep -q, whose early exit fails the pipe
  if grep -q -- '--threads' <<<"$help"; then echo "--threads 1"; fi
}
