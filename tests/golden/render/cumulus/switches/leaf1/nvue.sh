#!/bin/bash
# fabricc: NVIDIA Cumulus Linux 5.17 (NVUE) RoCEv2 QoS for leaf1 (fabric pod-a).
# rail 1 leaf, pod-a
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
# Disruption on Cumulus Linux 5.17:
#   * QoS (maps, pools, PFC, ECN, scheduler, watchdog): switchd reloads its QoS configuration without a restart; a changed pool split or PFC profile reprograms the buffers, and traffic of the changed priorities can drop briefly (Cumulus Linux User Guide, Quality of Service).
#   * link mtu: the port's MTU changes in place; no link flap is documented.
#   * Drain the switch first when a line above says RESTARTS or a breakout changes (BGP graceful shutdown or maintenance mode), and change one switch of a tier at a time.
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
# fabricc: NVIDIA Cumulus Linux 5.17 NVUE RoCEv2 QoS for leaf1 (fabric pod-a).
# rail 1 leaf, pod-a
# Do not edit: change the .fab source and rebuild. nvue.sh applies this same file.
# A PATCH for `nv config patch`, not a startup configuration: never `nv config replace` it
# and never copy it over /etc/nvue.d/startup.yaml (both drop everything it lacks).
# What it owns (fabricc replaces it on every apply):
#   * qos mapping, egress-queue-mapping, pfc, congestion-control and egress-scheduler `default-global`: the settings fabricc states
#   * qos traffic-pool default-lossless and default-lossy
#   * qos pfc and qos congestion-control profiles named fabricc-*
#   * qos pfc-watchdog
#   * on each fabric port below: description, link mtu, qos pfc, qos pfc-watchdog, qos congestion-control
# `- unset:` removes what it owns and this build does not set (a removed lossless priority,
# an unbound profile, the thresholds of a queue without ECN); `- set:` states the rest. The
# two never touch the same setting, so NVUE's unordered patch gives the same revision on
# every release 5.3-5.17.
# Left alone: other ports, other profiles and every setting outside the paths above.
# NOT removed by this file: ports, fabricc-* profiles and breakouts an earlier build had and
# this one has not (nvue.sh unsets them from the `# fabricc-owned` lines of the file it applied
# last; `fabricc verify` reports the profiles and the ports bound to them), and load-balance
# settings (ecmp-hash, hash-seed, adaptive routing) a later build drops.
# Apply (one pending revision):
#   nv config patch /absolute/path/to/nvue-qos.yaml
#   nv config diff
#   nv config apply -y
# Disruption on Cumulus Linux 5.17:
#   * QoS (maps, pools, PFC, ECN, scheduler, watchdog): switchd reloads its QoS configuration without a restart; a changed pool split or PFC profile reprograms the buffers, and traffic of the changed priorities can drop briefly (Cumulus Linux User Guide, Quality of Service).
#   * link mtu: the port's MTU changes in place; no link flap is documented.
#   * Drain the switch first when a line above says RESTARTS or a breakout changes (BGP graceful shutdown or maintenance mode), and change one switch of a tier at a time.
# fabricc-owned interfaces: swp1 swp2 swp3 swp4
# fabricc-owned qos pfc: fabricc-pfc-cable1
# fabricc-owned qos congestion-control: fabricc-ecn-2
# fabricc-owned breakouts:
- unset:
    qos:
      traffic-pool:
        default-lossless:
          switch-priority:
            '0':
            '1':
            '2':
            '5':
            '6':
            '7':
      pfc:
        default-global:
          switch-priority:
            '0':
            '1':
            '2':
            '5':
            '6':
            '7':
        fabricc-pfc-cable1:
          switch-priority:
            '0':
            '1':
            '2':
            '5':
            '6':
            '7':
      congestion-control:
        default-global:
          traffic-class:
            '0':
              min-threshold:
              max-threshold:
              probability:
            '1':
              min-threshold:
              max-threshold:
              probability:
            '2':
              min-threshold:
              max-threshold:
              probability:
            '5':
              min-threshold:
              max-threshold:
              probability:
            '6':
              min-threshold:
              max-threshold:
              probability:
            '7':
              min-threshold:
              max-threshold:
              probability:
        fabricc-ecn-2:
          traffic-class:
            '0':
              min-threshold:
              max-threshold:
              probability:
            '1':
              min-threshold:
              max-threshold:
              probability:
            '2':
              min-threshold:
              max-threshold:
              probability:
            '5':
              min-threshold:
              max-threshold:
              probability:
            '6':
              min-threshold:
              max-threshold:
              probability:
            '7':
              min-threshold:
              max-threshold:
              probability:
      egress-scheduler:
        default-global:
          traffic-class:
            '6':
              bw-percent:
    interface:
      swp1:
        qos:
          congestion-control:
      swp2:
        qos:
          congestion-control:
      swp3:
        qos:
          pfc:
          congestion-control:
      swp4:
        qos:
          pfc:
- set:
    qos:
      mapping:
        default-global:
          trust: both
          dscp:
            '0':
              switch-priority: 0
            '1':
              switch-priority: 0
            '2':
              switch-priority: 0
            '3':
              switch-priority: 0
            '4':
              switch-priority: 0
            '5':
              switch-priority: 0
            '6':
              switch-priority: 0
            '7':
              switch-priority: 0
            '8':
              switch-priority: 0
            '9':
              switch-priority: 0
            '10':
              switch-priority: 0
            '11':
              switch-priority: 0
            '12':
              switch-priority: 0
            '13':
              switch-priority: 0
            '14':
              switch-priority: 0
            '15':
              switch-priority: 0
            '16':
              switch-priority: 0
            '17':
              switch-priority: 0
            '18':
              switch-priority: 0
            '19':
              switch-priority: 0
            '20':
              switch-priority: 0
            '21':
              switch-priority: 0
            '22':
              switch-priority: 0
            '23':
              switch-priority: 0
            '24':
              switch-priority: 0
            '25':
              switch-priority: 0
            '26':
              switch-priority: 3
            '27':
              switch-priority: 0
            '28':
              switch-priority: 0
            '29':
              switch-priority: 0
            '30':
              switch-priority: 0
            '31':
              switch-priority: 0
            '32':
              switch-priority: 0
            '33':
              switch-priority: 0
            '34':
              switch-priority: 0
            '35':
              switch-priority: 0
            '36':
              switch-priority: 0
            '37':
              switch-priority: 0
            '38':
              switch-priority: 0
            '39':
              switch-priority: 0
            '40':
              switch-priority: 0
            '41':
              switch-priority: 0
            '42':
              switch-priority: 0
            '43':
              switch-priority: 0
            '44':
              switch-priority: 0
            '45':
              switch-priority: 0
            '46':
              switch-priority: 0
            '47':
              switch-priority: 0
            '48':
              switch-priority: 6
            '49':
              switch-priority: 0
            '50':
              switch-priority: 0
            '51':
              switch-priority: 0
            '52':
              switch-priority: 0
            '53':
              switch-priority: 0
            '54':
              switch-priority: 0
            '55':
              switch-priority: 0
            '56':
              switch-priority: 0
            '57':
              switch-priority: 0
            '58':
              switch-priority: 0
            '59':
              switch-priority: 0
            '60':
              switch-priority: 0
            '61':
              switch-priority: 0
            '62':
              switch-priority: 0
            '63':
              switch-priority: 0
      egress-queue-mapping:
        default-global:
          switch-priority:
            '0':
              traffic-class: 0
            '1':
              traffic-class: 0
            '2':
              traffic-class: 0
            '3':
              traffic-class: 3
            '4':
              traffic-class: 4
            '5':
              traffic-class: 0
            '6':
              traffic-class: 6
            '7':
              traffic-class: 0
      traffic-pool:
        default-lossy:
          memory-percent: 30
        default-lossless:
          memory-percent: 70
          switch-priority:
            '3': {}
            '4': {}
      pfc:
        default-global:
          switch-priority:
            '3': {}
            '4': {}
          tx: enable
          rx: enable
          cable-length: 30
        fabricc-pfc-cable1:
          switch-priority:
            '3': {}
            '4': {}
          tx: enable
          rx: enable
          cable-length: 3
      congestion-control:
        default-global:
          traffic-class:
            '0':
              ecn: disable
            '1':
              ecn: disable
            '2':
              ecn: disable
            '3':
              ecn: enable
              min-threshold: 150000
              max-threshold: 1500000
              probability: 100
            '4':
              ecn: enable
              min-threshold: 150000
              max-threshold: 1500000
              probability: 100
            '5':
              ecn: disable
            '6':
              ecn: disable
            '7':
              ecn: disable
        fabricc-ecn-2:
          traffic-class:
            '0':
              ecn: disable
            '1':
              ecn: disable
            '2':
              ecn: disable
            '3':
              ecn: enable
              min-threshold: 300000
              max-threshold: 3000000
              probability: 20
            '4':
              ecn: enable
              min-threshold: 150000
              max-threshold: 1500000
              probability: 100
            '5':
              ecn: disable
            '6':
              ecn: disable
            '7':
              ecn: disable
      egress-scheduler:
        default-global:
          traffic-class:
            '0':
              mode: dwrr
              bw-percent: 40
            '1':
              mode: dwrr
              bw-percent: 0
            '2':
              mode: dwrr
              bw-percent: 0
            '3':
              mode: dwrr
              bw-percent: 50
            '4':
              mode: dwrr
              bw-percent: 10
            '5':
              mode: dwrr
              bw-percent: 0
            '6':
              mode: strict
            '7':
              mode: dwrr
              bw-percent: 0
      pfc-watchdog:
        polling-interval: 100
        robustness: 2
    interface:
      swp1:
        description: "gpu001 nic1"
        link:
          mtu: 9216
        qos:
          pfc:
            profile: fabricc-pfc-cable1
          pfc-watchdog:
            state: enable
      swp2:
        description: "gpu002 nic1"
        link:
          mtu: 9216
        qos:
          pfc:
            profile: fabricc-pfc-cable1
          pfc-watchdog:
            state: enable
      swp3:
        description: "uplink to spine1"
        link:
          mtu: 9216
        qos:
          pfc-watchdog:
            state: enable
      swp4:
        description: "uplink to spine2"
        link:
          mtu: 9216
        qos:
          pfc-watchdog:
            state: enable
          congestion-control:
            profile: fabricc-ecn-2
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
