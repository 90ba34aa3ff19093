#!/usr/bin/env bash
# Times whole `fabricc` commands on the scale fixtures and compares the build with the
# physical floor of writing its output: `cp -r` of the tree the build produced, onto the
# same file system. Prints one row per fixture with the median of RUNS runs:
#
#   check s     `fabricc check FILE`
#   build s     `fabricc build FILE -o DIR` into a folder that does not exist
#   rebuild s   the same build again over its own output (nothing changes, nothing written)
#   peak MiB    the build's peak resident memory (/usr/bin/time)
#   files, MB   what the build wrote (manifest included)
#   cp -r s     copying that tree to a new folder
#   build/cp    build s ÷ cp -r s
#
# Before every timed build or copy the previous tree is removed and `sync` runs, so neither
# pays for the other's writeback. The machine should be otherwise idle.
#
# Usage: scripts/bench-build.sh [-n RUNS] [FIXTURE.fab ...]
#   default fixtures: the four scale fixtures in fixtures/fabrics (256 to 100,000 GPUs)
#   BENCH_DIR=/path picks the scratch folder (default: a new one under $TMPDIR or /tmp)
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
trap 'rm -rf "$work/out" "$work/copy" "$work/time"' EXIT

# median of the numbers on stdin
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# timed CMD...: runs CMD, prints "wall_seconds peak_kib" (wall to the microsecond)
timed() {
  local start=$EPOCHREALTIME
  /usr/bin/time -o "$work/time" -f '%M' "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; exit 1; }
  local end=$EPOCHREALTIME
  echo "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.4f", b - a }') $(cat "$work/time")"
}

printf '%-22s %8s %8s %9s %9s %7s %9s %8s %9s\n' \
  fixture 'check s' 'build s' 'rebuild s' 'peak MiB' files MB 'cp -r s' build/cp
for f in "${fixtures[@]}"; do
  checks=() builds=() rebuilds=() rss=() copies=()
  for ((i = 0; i < runs; i++)); do
    read -r t _ < <(timed "$bin" check "$f")
    checks+=("$t")
    rm -rf "$work/out"
    sync
    read -r t m < <(timed "$bin" build "$f" -o "$work/out")
    builds+=("$t")
    rss+=("$m")
    read -r t _ < <(timed "$bin" build "$f" -o "$work/out")
    rebuilds+=("$t")
    rm -rf "$work/copy"
    sync
    read -r t _ < <(timed cp -r "$work/out" "$work/copy")
    copies+=("$t")
  done
  files=$(find "$work/out" -type f | wc -l)
  bytes=$(find "$work/out" -type f -printf '%s\n' | awk '{ s += $1 } END { print s }')
  c=$(printf '%s\n' "${checks[@]}" | median)
  b=$(printf '%s\n' "${builds[@]}" | median)
  r=$(printf '%s\n' "${rebuilds[@]}" | median)
  m=$(printf '%s\n' "${rss[@]}" | median)
  p=$(printf '%s\n' "${copies[@]}" | median)
  awk -v f="$(basename "$f")" -v c="$c" -v b="$b" -v r="$r" -v m="$m" -v n="$files" \
    -v s="$bytes" -v p="$p" 'BEGIN {
      printf "%-22s %8.3f %8.3f %9.3f %9.0f %7d %9.1f %8.3f %9s\n", f, c, b, r, m / 1024, n,
        s / 1e6, p, (p > 0 ? sprintf("%.2f", b / p) : "-")
    }'
done
echo "(median of $runs runs; scratch folder $work)"
