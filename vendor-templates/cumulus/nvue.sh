#!/bin/bash
# fabricc: NVIDIA Cumulus Linux {{ device.release }} (NVUE) RoCEv2 QoS for {{ device.hostname }} (fabric {{ device.fabric }}).
{%- if device.description %}
# {{ device.description }}
{%- endif %}
# Do not edit: change the .fab source and rebuild. Applies nvue-qos.yaml (embedded below, the
# same bytes) as ONE pending revision, then applies that revision once:
#   1. if a fabricc file was applied before (the ledger, $FABRICC_NVUE_LEDGER, default
#      /etc/fabricc/nvue-qos.applied.yaml), one `nv config patch` of `- unset:` items for what
#      that file owned and this one does not: the ports that left the fabric (description,
#      link mtu, qos), the fabricc-* profiles no longer used and the breakouts of cages no
#      longer used (its `# fabricc-owned` lines);
#   2. `nv config patch` of nvue-qos.yaml (its `- unset:` and `- set:` items);
#   3. `nv config diff` (printed), `nv config apply -y`, then the file becomes the ledger.
# `nvue.sh --dry-run` stops after the diff and detaches the pending revision: nothing applied.
# If any step fails, the pending revision is detached, so nothing half-staged is applied later
# (`nv config detach`, NVUE Command Reference, Config Commands).
# Disruption on Cumulus Linux {{ device.release }}:
{%- for line in device.disruption %}
#   * {{ line }}
{%- endfor %}
set -euo pipefail
dry_run=0
case "${1:-}" in
  --dry-run) dry_run=1 ;;
  "") ;;
  *) echo "usage: $0 [--dry-run]" >&2; exit 2 ;;
esac
ledger="${FABRICC_NVUE_LEDGER:-/etc/fabricc/nvue-qos.applied.yaml}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
trap 'nv config detach' ERR
patch="$work/nvue-qos.yaml"
cat > "$patch" <<'FABRICC_NVUE_PATCH'
{% include "cumulus/nvue-qos.yaml" -%}
FABRICC_NVUE_PATCH
# The words of a `# fabricc-owned KIND:` line of file $2.
owned() { sed -n "s/^# fabricc-owned $1://p" "$2"; }
# What the ledger owned of KIND and this file does not.
gone() {
  local w
  for w in $(owned "$1" "$ledger"); do
    case " $(owned "$1" "$patch") " in
      *" $w "*) ;;
      *) echo "$w" ;;
    esac
  done
}
if [ -f "$ledger" ]; then
  ports="$(gone interfaces)"
  pfc="$(gone 'qos pfc')"
  ecn="$(gone 'qos congestion-control')"
  cages="$(gone breakouts)"
  if [ -n "$ports$pfc$ecn$cages" ]; then
    {
      echo "- unset:"
      if [ -n "$ports$cages" ]; then
        echo "    interface:"
        for p in $ports; do
          printf '      %s:\n        description:\n        link:\n          mtu:\n        qos:\n' "$p"
        done
        for p in $cages; do
          printf '      %s:\n        link:\n          breakout:\n' "$p"
        done
      fi
      if [ -n "$pfc$ecn" ]; then
        echo "    qos:"
        if [ -n "$pfc" ]; then
          echo "      pfc:"
          for p in $pfc; do printf '        %s:\n' "$p"; done
        fi
        if [ -n "$ecn" ]; then
          echo "      congestion-control:"
          for p in $ecn; do printf '        %s:\n' "$p"; done
        fi
      fi
    } > "$work/left-the-fabric.yaml"
    nv config patch "$work/left-the-fabric.yaml"
  fi
fi
nv config patch "$patch"
nv config diff
if [ "$dry_run" = 1 ]; then
  nv config detach
  echo "dry run: staged, shown and detached; nothing applied" >&2
  exit 0
fi
nv config apply -y
mkdir -p "$(dirname "$ledger")"
cp "$patch" "$ledger"
