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
set -eu
url=$1
pipeline=$2
spots=${SPOTS:-spots}
# The input the pipeline reads: its first entry of "inputs", relative to the pipeline's folder.
input=$(python3 -c 'import json,os,sys; p=sys.argv[1]; print(os.path.join(os.path.dirname(os.path.abspath(p)), json.load(open(p))["inputs"][0]))' "$pipeline")
partial="$input.download.$$"
trap 'rm -f "$partial"' EXIT INT TERM
if ! curl --fail --silent --show-error --location --retry 3 --max-time 3600 -o "$partial" "$url"; then
    echo "refresh-city.sh: download of $url failed" >&2
    exit 69
fi
# A cut download is a truncated gzip stream: refuse it before it replaces yesterday's input.
if ! gzip -t "$partial" 2>/dev/null; then
    echo "refresh-city.sh: $url is not a complete gzip file" >&2
    exit 65
fi
mv "$partial" "$input"
exec "$spots" refresh --pipeline "$pipeline" --log-format json
