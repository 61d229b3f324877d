#!/bin/sh
# Refresh one index from replication change files instead of a whole new extract: download the
# change files newer than those in the pipeline's "changes" folder, then let `spots refresh`
# apply the ones newer than the published index's state, gate and publish the result.
# Scripts/install installs this file as PREFIX/bin/spots-refresh-changes.
#
#   refresh-changes.sh BASE_URL PIPELINE
#
# BASE_URL  the replication folder: its state.txt and NNN/NNN/NNN.osc.gz files (a download site's
#           extract updates, such as https://download.geofabrik.de/europe/monaco-updates; curl:
#           https://, or file:// for a local copy)
# PIPELINE  the pipeline file whose "changes" names the local folder (see helsinki-changes.json)
#
# spots is $SPOTS, else `spots` on PATH, else the `spots` beside this file (cron's PATH is short).
#
# The local folder keeps the server's layout: each change file and its NNN.state.txt are
# downloaded to a temporary name and renamed, and the folder's own state.txt is replaced last,
# once every change it names is there, so the folder never names a change it lacks. On the
# first run (no local state.txt) nothing is downloaded: state.txt is taken from the server and
# `spots refresh` builds from the pipeline's input, which must be an extract as new as it
# (download the extract and start this job the same day). A failed download ends as `failed`
# (`spots refresh --record-failure`, exit 69); the exit codes are otherwise those of
# `spots refresh` (0 published or unchanged, 3 a gate refused, 66 a gap in the sequence,
# 75 another refresh runs). Its own messages are JSON lines like those of
# `spots refresh --log-format json`.
set -eu
base=${1%/}
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
fail() {
    log error download "$1"
    exec "$spots" refresh --pipeline "$pipeline" --log-format json --record-failure "$1"
}
command -v python3 >/dev/null || fail "python3 not found: it reads the changes folder from $pipeline"
# The folder the pipeline names in "changes", relative to the pipeline's folder.
folder=$(python3 -c 'import json,os,sys; p=sys.argv[1]; print(os.path.join(os.path.dirname(os.path.abspath(p)), json.load(open(p))["changes"]))' "$pipeline" 2>/dev/null) \
    || exec "$spots" refresh --pipeline "$pipeline" --log-format json
mkdir -p "$folder"
sequence() { sed -n 's/^sequenceNumber=\([0-9][0-9]*\).*/\1/p' "$1" 2>/dev/null | head -n 1; }
# fetch URL FILE: downloads URL to FILE through a temporary name beside it.
fetch() {
    mkdir -p "$(dirname "$2")"
    curl --fail --silent --location --retry 3 --max-time 600 -o "$2.part.$$" "$1" || { rm -f "$2.part.$$"; return 1; }
    mv "$2.part.$$" "$2"
}
trap 'rm -f "$folder"/state.txt.server.$$ "$folder"/*/*/*.part.$$' EXIT INT TERM
fetch "$base/state.txt" "$folder/state.txt.server.$$" || fail "download of $base/state.txt failed"
newest=$(sequence "$folder/state.txt.server.$$")
[ -n "$newest" ] || fail "$base/state.txt names no sequenceNumber"
have=$(sequence "$folder/state.txt")
if [ -z "$have" ]; then
    log info download "first run: the folder starts at sequence $newest; spots builds from the extract"
elif [ "$have" -lt "$newest" ]; then
    log info download "downloading changes $((have + 1)) to $newest from $base"
    number=$((have + 1))
    while [ "$number" -le "$newest" ]; do
        path=$(printf '%09d' "$number" | sed 's|^\(...\)\(...\)\(...\)$|\1/\2/\3|')
        [ -f "$folder/$path.osc.gz" ] \
            || fetch "$base/$path.osc.gz" "$folder/$path.osc.gz" || fail "download of $base/$path.osc.gz failed"
        fetch "$base/$path.state.txt" "$folder/$path.state.txt" || fail "download of $base/$path.state.txt failed"
        number=$((number + 1))
    done
fi
mv "$folder/state.txt.server.$$" "$folder/state.txt"
exec "$spots" refresh --pipeline "$pipeline" --log-format json
