#!/bin/sh
# Builds fuzz/corpus/<target>/ from every .fab under fixtures/ (copies; names from the path,
# since several fixtures share a file name). Run from anywhere.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
for target in check generate; do
    dir="$here/corpus/$target"
    mkdir -p "$dir"
    find "$root/fixtures" -name '*.fab' -type f | sort | while read -r f; do
        rel=${f#"$root/fixtures/"}
        cp "$f" "$dir/$(printf '%s' "$rel" | tr '/' '_')"
    done
    echo "$dir: $(ls "$dir" | wc -l) files"
done
