#!/usr/bin/env bash
# Collect the state `fabricc verify` compares, from every device of a build, over ssh.
#
# Usage: scripts/collect-state.sh BUILD_DIR STATE_DIR [SSH_USER]
#   BUILD_DIR  the output of `fabricc build` (its manifest.json names every device and target)
#   STATE_DIR  created; STATE_DIR/<device>/ gets the device's configuration and lldp.json
#   SSH_USER   the login on every device (default: admin); hosts are reached as root via sudo
#
# Devices are reached by their fabric name (put them in ~/.ssh/config or DNS). Each command
# is the one docs/verify.md gives for the device's OS; a device that cannot be reached keeps
# an empty folder, which `fabricc verify` reports (FAB973) without stopping on the others.
# Up to $PARALLEL (default 16) devices are collected at a time. Needs bash, ssh and jq.
set -uo pipefail

build=${1:?usage: collect-state.sh BUILD_DIR STATE_DIR [SSH_USER]}
state=${2:?usage: collect-state.sh BUILD_DIR STATE_DIR [SSH_USER]}
user=${3:-admin}
parallel=${PARALLEL:-16}
SSH=${SSH:-ssh}
ssh_opts=(-o BatchMode=yes -o ConnectTimeout=10)

# run DEVICE COMMAND > FILE: the remote command's output into FILE, removed on failure.
run() {
  local dev=$1 cmd=$2 out=$3
  if ! "$SSH" "${ssh_opts[@]}" "$user@$dev" "$cmd" > "$out.tmp" 2> "$out.err"; then
    echo "$dev: \`$cmd\` failed: $(head -c 200 "$out.err")" >&2
    rm -f "$out.tmp" "$out.err"
    return 1
  fi
  rm -f "$out.err"
  mv "$out.tmp" "$out"
}

collect() {
  local dev=$1 target=$2 d="$state/$1"
  mkdir -p "$d"
  case "$target" in
    sonic)
      run "$dev" 'sudo sonic-cfggen -d --print-data' "$d/config_db.json"
      run "$dev" 'sudo docker exec lldp lldpctl -f json' "$d/lldp.json" ;;
    cumulus)
      run "$dev" 'nv config show -o yaml' "$d/startup.yaml"
      run "$dev" 'sudo lldpctl -f json' "$d/lldp.json" ;;
    eos)
      run "$dev" 'show running-config' "$d/running-config"
      run "$dev" 'show lldp neighbors | json' "$d/lldp.json" ;;
    nxos)
      run "$dev" 'show running-config' "$d/running-config"
      run "$dev" 'show lldp neighbors | json' "$d/lldp.json" ;;
    junos)
      run "$dev" 'show configuration | no-more' "$d/config" ;;
    host)
      run "$dev" 'sudo /usr/local/sbin/fabricc-roce --collect' "$d/state.json"
      run "$dev" 'sudo lldpctl -f json' "$d/lldp.json" ;;
    *)
      echo "$dev: unknown target $target" >&2 ;;
  esac
  return 0
}

mkdir -p "$state"
# (The loop reads from a process substitution, not a pipe, so that it runs in this shell and
# the final `wait` sees every collection.)
while read -r dev target; do
  # At most $parallel collections at once.
  while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do wait -n; done
  collect "$dev" "$target" &
done < <(jq -r '.files[] | select(.kind == "switch" or .kind == "host") | "\(.device) \(.target)"' \
  "$build/manifest.json" | sort -u)
wait
