#!/usr/bin/env bash
# Times whole `fabricc` commands on the scale fixtures and compares the build with the
# physical floor of writing its output: `cp -r` of the tree the build produced, onto the
# same file system. Prints one row per fixture with the median of RUNS runs:
#
#   check s     `fabricc check FILE`
#   build s     `fabricc build FILE -o DIR` into a folder that does not exist
#   same s      the same build again over its own output (nothing changes: nothing is touched)
#   change s    a build over that output after `roce`'s ECN `min` grew by 10 KB (one class line;
#               every switch config changes, the host scripts do not)
#   peak MiB    the first build's peak resident memory (/usr/bin/time)
#   files, MB   what the build wrote (manifest included)
#   cp -r s     copying that tree to a new folder on the same file system
#   build/cp    build s ÷ cp -r s
#
# Every run builds and copies into folders of its own that nothing has used before, and `sync`
# runs before each timed build or copy, so no command pays for another's writeback. Trees are
# removed only at the end. (On ext4 without a journal, creating files shortly after deleting
# many is slow for everyone: the allocator skips inodes deleted in the last minutes.) The
# machine should be otherwise idle.
#
# Usage: scripts/bench-build.sh [-n RUNS] [FIXTURE.fab ...]
#   default fixtures: the four scale fixtures in fixtures/fabrics (256 to 100,000 GPUs)
#   BENCH_DIR=/path picks the scratch folder (default: a new one under $TMPDIR or /tmp);
#   BENCH_DIR=/dev/shm/x measures without the disk
set -euo pipefail

runs=5
if [ "${1:-}" = "-n" ]; then
  runs=$2
  shift 2
fi
cd "$(dirname "$0")/.."
fixtures=("$@")
if [ ${#fixtures[@]} -eq 0 ]; then
  fixtures=(fixtures/fabrics/pod-256.fab fixtures/fabrics/cluster-2048.fab
    fixtures/fabrics/cluster-16k.fab fixtures/fabrics/cluster-100k.fab)
fi
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (Debian: time)" >&2; exit 2; }

cargo build --release --quiet
bin=$PWD/target/release/fabricc
work=${BENCH_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/fabricc-bench.XXXXXX")}
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT

# median of the numbers on stdin
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# timed CMD...: runs CMD, prints "wall_seconds peak_kib" (wall to the microsecond)
timed() {
  local start=$EPOCHREALTIME
  /usr/bin/time -o "$work/time" -f '%M' "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; exit 1; }
  local end=$EPOCHREALTIME
  echo "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.4f", b - a }') $(cat "$work/time")"
}

printf '%-20s %8s %8s %8s %8s %8s %6s %7s %8s %8s\n' \
  fixture 'check s' 'build s' 'same s' 'change s' 'peak MiB' files MB 'cp -r s' build/cp
for f in "${fixtures[@]}"; do
  name=$(basename "$f" .fab)
  changed="$work/$name-changed.fab"
  perl -pe 's/(class roce .*ecn min )(\d+)KB/$1.($2 + 10)."KB"/e' "$f" >"$changed"
  cmp -s "$f" "$changed" && { echo "$f: no 'class roce … ecn min NKB' line to change" >&2; exit 1; }
  checks=() builds=() sames=() changes=() rss=() copies=()
  for ((i = 0; i < runs; i++)); do
    out="$work/$name.out.$i"
    read -r t _ < <(timed "$bin" check "$f")
    checks+=("$t")
    sync
    read -r t m < <(timed "$bin" build "$f" -o "$out" --allow-warnings)
    builds+=("$t")
    rss+=("$m")
    read -r t _ < <(timed "$bin" build "$f" -o "$out" --allow-warnings)
    sames+=("$t")
    sync
    read -r t _ < <(timed cp -r "$out" "$work/$name.copy.$i")
    copies+=("$t")
    sync
    read -r t _ < <(timed "$bin" build "$changed" -o "$out" --allow-warnings)
    changes+=("$t")
  done
  files=$(find "$work/$name.copy.0" -type f | wc -l)
  bytes=$(find "$work/$name.copy.0" -type f -printf '%s\n' | awk '{ s += $1 } END { print s }')
  c=$(printf '%s\n' "${checks[@]}" | median)
  b=$(printf '%s\n' "${builds[@]}" | median)
  r=$(printf '%s\n' "${sames[@]}" | median)
  x=$(printf '%s\n' "${changes[@]}" | median)
  m=$(printf '%s\n' "${rss[@]}" | median)
  p=$(printf '%s\n' "${copies[@]}" | median)
  awk -v f="$name" -v c="$c" -v b="$b" -v r="$r" -v x="$x" -v m="$m" -v n="$files" \
    -v s="$bytes" -v p="$p" 'BEGIN {
      printf "%-20s %8.3f %8.3f %8.3f %8.3f %8.0f %6d %7.1f %8.3f %8s\n", f, c, b, r, x, m / 1024,
        n, s / 1e6, p, (p > 0 ? sprintf("%.2f", b / p) : "-")
    }'
  rm -rf "$work/$name".*
done
echo "(median of $runs runs)"
