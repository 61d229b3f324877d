#!/bin/sh
# Nightly refresh of one city index: download the extract to a temporary file beside the input,
# let `spots refresh` build from it, gate it and publish it, and only then let the download
# replace the input. Scripts/install installs this file as PREFIX/bin/spots-refresh-city.
#
#   refresh-city.sh URL PIPELINE
#
# URL       the extract to download (.osm.gz; curl: https://, or file:// for a local copy)
# PIPELINE  the pipeline file whose first input is the file the download replaces
#
# spots is $SPOTS, else `spots` on PATH, else the `spots` beside this file (cron's PATH is short).
#
# The download is checked by spots itself: it reads it whole (a cut download is a truncated gzip
# stream, exit 65) before anything is published. The input the pipeline names is replaced only
# after spots published the build made from the download (or found it unchanged), so the last
# good input is never lost (an unchanged download is dropped); a download a gate refused is kept as INPUT.rejected for review
# (`spots refresh --pipeline PIPELINE --input INPUT.rejected --accept-drop`).
#
# Every failure, the download's too (`spots refresh --record-failure`), ends as `failed` in
# NAME.status.json, the metrics and the log's result line. Exit codes are those of
# `spots refresh` (0 published or unchanged, 3 a gate refused, 65 a bad download, 75 another
# refresh runs), or 69 when the download failed or spots cannot be found, 74 when the published
# download cannot replace the input.
#
# Its own messages are JSON lines like those of `spots refresh --log-format json` (time, level,
# event, message), so that the crontab's log is JSON lines throughout.
set -eu
url=$1
pipeline=$2
now() { date -u +%Y-%m-%dT%H:%M:%SZ; }
# log LEVEL EVENT MESSAGE: one JSON line on standard error (MESSAGE has no quote or backslash).
log() { printf '{"time":"%s","level":"%s","event":"%s","message":"%s"}\n' "$(now)" "$1" "$2" "$3" >&2; }
spots=$(command -v "${SPOTS:-spots}" || true)
if [ -z "$spots" ] && [ -z "${SPOTS:-}" ] && [ -x "$(dirname "$0")/spots" ]; then spots=$(dirname "$0")/spots; fi
if [ -z "$spots" ] || [ ! -x "$spots" ]; then
    printf '{"time":"%s","level":"error","event":"result","outcome":"failed","exit_code":69,"message":"spots not found on PATH nor beside %s: set SPOTS to its path"}\n' "$(now)" "$0" >&2
    exit 69
fi
# The input the pipeline reads: its first entry of "inputs", relative to the pipeline's folder.
# A pipeline file that cannot be read so is left to spots, which says what is wrong with it.
if ! command -v python3 >/dev/null; then
    log error input "python3 not found: it reads the input's path from $pipeline"
    exec "$spots" refresh --pipeline "$pipeline" --log-format json --record-failure "python3 not found"
fi
input=$(python3 -c 'import json,os,sys; p=sys.argv[1]; print(os.path.join(os.path.dirname(os.path.abspath(p)), json.load(open(p))["inputs"][0]))' "$pipeline" 2>/dev/null) \
    || exec "$spots" refresh --pipeline "$pipeline" --log-format json
download="$input.download.$$"
trap 'rm -f "$download"' EXIT INT TERM
log info download "downloading $url"
fetched=0
curl --fail --silent --location --retry 3 --max-time 3600 -o "$download" "$url" || fetched=$?
if [ "$fetched" -ne 0 ]; then
    log error download "download of $url failed (curl exit $fetched)"
    rm -f "$download"
    exec "$spots" refresh --pipeline "$pipeline" --log-format json --record-failure "$url: download failed (curl exit $fetched)"
fi
status=0
summary=$("$spots" refresh --pipeline "$pipeline" --input "$download" --log-format json) || status=$?
case $status:$summary in
0:*'"outcome":"published"'* | 0:*'"outcome":"resumed"'*)
    if mv "$download" "$input" 2>/dev/null; then
        log info input "$input replaced by the download"
    else
        log error input "cannot replace $input with the download the index was published from"
        status=74
    fi ;;
3:*)
    mv "$download" "$input.rejected" 2>/dev/null || true
    log warning input "the download a gate refused is kept as $input.rejected; $input is unchanged" ;;
esac
printf '%s\n' "$summary"
exit "$status"
