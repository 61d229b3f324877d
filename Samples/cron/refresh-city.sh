#!/bin/sh
# Nightly refresh of one city index: download the extract to a temporary file, check it,
# move it into place, then let `spots refresh` build, gate and publish.
#
#   refresh-city.sh URL PIPELINE
#
# URL       the extract to download (.osm.gz), e.g. from a regional extract service
# PIPELINE  the pipeline file whose first input is the file the download replaces
#
# Exit codes are those of `spots refresh` (0 published or unchanged, 3 a gate refused,
# 75 another refresh runs, 65 bad input), or 69 when the download failed.
#
# Its own messages are JSON lines like those of `spots refresh --log-format json` (time, level,
# event, message, and a last result line), so that the crontab's log is JSON lines throughout.
set -eu
url=$1
pipeline=$2
spots=${SPOTS:-spots}
# log LEVEL EVENT MESSAGE: one JSON line on standard error (MESSAGE has no quote or backslash).
log() { printf '{"time":"%s","level":"%s","event":"%s","message":"%s"}\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$1" "$2" "$3" >&2; }
# fail CODE EVENT MESSAGE: the error line, the result line, and the exit.
fail() {
    log error "$2" "$3"
    printf '{"time":"%s","level":"error","event":"result","outcome":"failed","exit_code":%d}\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$1" >&2
    exit "$1"
}
# The input the pipeline reads: its first entry of "inputs", relative to the pipeline's folder.
input=$(python3 -c 'import json,os,sys; p=sys.argv[1]; print(os.path.join(os.path.dirname(os.path.abspath(p)), json.load(open(p))["inputs"][0]))' "$pipeline")
partial="$input.download.$$"
trap 'rm -f "$partial"' EXIT INT TERM
log info download "downloading $url"
if ! curl --fail --silent --location --retry 3 --max-time 3600 -o "$partial" "$url"; then
    fail 69 download "download of $url failed"
fi
# A cut download is a truncated gzip stream: refuse it before it replaces yesterday's input.
if ! gzip -t "$partial" 2>/dev/null; then
    fail 65 gzip_test "$url is not a complete gzip file"
fi
mv "$partial" "$input"
log info download "$input replaced"
exec "$spots" refresh --pipeline "$pipeline" --log-format json
