{% raw %}
# ---- The settings every DCBNL driver reads, and the form of each (bash regular expressions;
# `dcb … show` forms) ------------------------------------------------------------------------
FORM[E_MTU]='^[0-9]{2,4}$'
FORM[E_DSCP2PRIO]='^([0-7],){63}[0-7]$'
FORM[E_PFC]='^([0-7]:(on|off) ){7}7:(on|off)$'
FORM[E_PRIO_TC]='^([0-7]:[0-7] ){7}7:[0-7]$'
FORM[E_TC_TSA]='^([0-7]:(ets|strict) ){7}7:(ets|strict)$'
FORM[E_TC_BW]='^([0-7]:[0-9]{1,3} ){7}7:[0-9]{1,3}$'
FORM[E_ROCE_MODE]='^RoCE v2$'
FORM[E_TOS]='^[0-9]{1,3}$'
FORM[E_CNP_DSCP]='^[0-9]{1,2}$'
FORM[E_CNP_PRIO]='^[0-7]$'

# ---- The commands that set each group of settings (absolute values) ----------------------
set_mtu() {
  run ip link set dev "$1" mtu "$E_MTU"
}
# The whole map in one call: `replace` adds the missing entries and removes every other
# priority of the DSCPs it names, and it names all 64, so no entry of an earlier map survives.
set_dscp2prio() {
  local -a map args=()
  local d
  IFS=, read -r -a map <<< "$E_DSCP2PRIO"
  for ((d = 0; d < 64; d++)); do args+=("$d:${map[$d]}"); done
  run dcb app replace dev "$1" dscp-prio "${args[@]}"
}
set_pfc() {
  local -a pfc
  read -r -a pfc <<< "$E_PFC"
  run dcb pfc set dev "$1" prio-pfc "${pfc[@]}"
}
# prio-tc, tc-tsa and tc-bw in one call: `dcb ets set` checks that the bandwidths sum to 100.
set_ets() {
  local -a tc tsa bw
  read -r -a tc <<< "$E_PRIO_TC"
  read -r -a tsa <<< "$E_TC_TSA"
  read -r -a bw <<< "$E_TC_BW"
  run dcb ets set dev "$1" prio-tc "${tc[@]}" tc-tsa "${tsa[@]}" tc-bw "${bw[@]}"
}

# ---- The host's settings: data, never code ------------------------------------------------
# load_settings: read the settings file (fabricc's hosts/<host>/fabricc-roce.conf) as
# `KEY=value` lines and `#` comments, without sourcing it. A key this program does not know, a
# value with a character outside [A-Za-z0-9_.:,= -], a value of the wrong form, a missing
# key, or settings for another driver stop the run (exit 3) before any NIC is read.
HOST=fabricc-roce
NICS=()
declare -A D_NETDEV D_RDMA D_PCI D_PORT D_PEER
settings_error() {
  echo "$HOST: settings $SETTINGS: $*" >&2
  exit 3
}
settings_nic() {
  local n=$1 i kv k v
  local -a w
  read -r -a w <<< "$2"
  i=${w[0]:-}
  [[ "$i" =~ ^[1-9][0-9]{0,3}$ ]] || settings_error "line $n: NIC=$2 does not start with the NIC's number"
  [ -z "${D_PORT[$i]:-}" ] || settings_error "line $n: nic$i is listed twice"
  NICS+=("$i")
  D_NETDEV[$i]=""; D_RDMA[$i]=""; D_PCI[$i]=""; D_PORT[$i]=1; D_PEER[$i]=""
  for kv in "${w[@]:1}"; do
    k=${kv%%=*}
    v=${kv#*=}
    case "$k" in
      netdev) [[ "$v" =~ ^[A-Za-z0-9_.-]{1,15}$ ]] && D_NETDEV[$i]=$v ;;
      rdma-device) [[ "$v" =~ ^[A-Za-z0-9_.-]{1,64}$ ]] && D_RDMA[$i]=$v ;;
      pci) [[ "$v" =~ ^[0-9a-fA-F:.]{1,16}$ ]] && D_PCI[$i]=$v ;;
      port) [[ "$v" =~ ^[12]$ ]] && D_PORT[$i]=$v ;;
      # Checked, not kept: a DCBNL NIC is found by its netdev, so a guessed name changes nothing.
      guessed) [[ "$v" =~ ^[01]$ ]] ;;
      peer) [[ "$v" =~ ^[A-Za-z0-9_.:-]{1,128}$ ]] && D_PEER[$i]=$v ;;
      *) false ;;
    esac || settings_error "line $n: nic$i: bad field $kv"
  done
  [ -n "${D_NETDEV[$i]}${D_RDMA[$i]}${D_PCI[$i]}" ] || settings_error "line $n: nic$i has no netdev, rdma-device or pci"
}
load_settings() {
  local line key val n=0 v
  [ -r "$SETTINGS" ] || settings_error "not found or not readable (--settings FILE; default /etc/fabricc/fabricc-roce.conf)"
  while IFS= read -r line || [ -n "$line" ]; do
    n=$((n + 1))
    case "$line" in '' | '#'*) continue ;; esac
    key=${line%%=*}
    val=${line#*=}
    [ "$key" != "$line" ] || settings_error "line $n: not KEY=value"
    [[ "$val" =~ ^[A-Za-z0-9_.:,=\ -]*$ ]] || settings_error "line $n: $key: a character outside [A-Za-z0-9_.:,= -]"
    case "$key" in
      FORMAT) [ "$val" = fabricc-roce-1 ] || settings_error "line $n: format $val; this program reads fabricc-roce-1" ;;
      HOST) [[ "$val" =~ ^[A-Za-z_][A-Za-z0-9_.-]{0,127}$ ]] || settings_error "line $n: bad host name"; HOST=$val ;;
      FABRIC) ;;
      DRIVER) [ "$val" = "$DRIVER" ] || settings_error "line $n: these are settings for driver $val; this program ($0) is for $DRIVER" ;;
      NIC) settings_nic "$n" "$val" ;;
      LAG)
        # Checked, not kept: RoCE LAG pairing is mlx5's; a DCBNL port is set on its own.
        [[ "$val" =~ ^([1-9][0-9]{0,3}):([1-9][0-9]{0,3})$ ]] || settings_error "line $n: LAG=$val is not PORT:FIRST" ;;
      *)
        [ -n "${FORM[$key]:-}" ] || settings_error "line $n: unknown key $key"
        printf -v "$key" '%s' "$val" ;;
    esac
  done < "$SETTINGS"
  for key in "${!FORM[@]}"; do
    v=${!key:-}
    [[ "$v" =~ ${FORM[$key]} ]] || settings_error "$key=${v:-(missing)} is not of the form ${FORM[$key]}"
  done
  [ "${#NICS[@]}" -gt 0 ] || settings_error "no NIC= line"
}
# ---- Runtime, the same for every DCBNL driver -----------------------------------------------
R="${FABRICC_SYSROOT:-}"
SYS="$R/sys"
LOCK="$R/run/lock/fabricc-roce.lock"
CM="$SYS/kernel/config/rdma_cm"

usage() {
  echo "usage: $0 [--settings FILE] [--check | --dry-run | --collect] [--force | --when-idle[=SECONDS]]" >&2
}

MODE=apply
SETTINGS=/etc/fabricc/fabricc-roce.conf
FORCE=0
# --when-idle: seconds to wait for a busy NIC's queue pairs to reach zero (0: do not wait).
WHEN_IDLE=0
# How often --when-idle counts the queue pairs again (seconds; the tests set 0).
IDLE_POLL=${FABRICC_IDLE_POLL:-5}
PENDING="$R/run/fabricc/roce.pending"
modes=0
while [ $# -gt 0 ]; do
  case "$1" in
    --check) MODE=check; modes=$((modes + 1)) ;;
    -n|--dry-run) MODE=dry-run; modes=$((modes + 1)) ;;
    --collect) MODE=collect; modes=$((modes + 1)) ;;
    --force) FORCE=1 ;;
    --settings)
      [ $# -ge 2 ] || { usage; exit 2; }
      SETTINGS=$2
      shift ;;
    --settings=*) SETTINGS=${1#*=} ;;
    --when-idle) WHEN_IDLE=900 ;;
    --when-idle=*)
      WHEN_IDLE=${1#*=}
      if ! [[ "$WHEN_IDLE" =~ ^[0-9]{1,6}$ ]]; then usage; exit 2; fi ;;
    -h|--help) usage; exit 0 ;;
    *) usage; exit 2 ;;
  esac
  shift
done
if [ "$modes" -gt 1 ]; then usage; exit 2; fi
if [ "$FORCE" = 1 ] && [ "$WHEN_IDLE" != 0 ]; then usage; exit 2; fi
load_settings

declare -A NET RDEV PCI BRANCH ST
PROBLEMS=0

note() { echo "$HOST: $*" >&2; }
problem() {
  PROBLEMS=$((PROBLEMS + 1))
  echo "$HOST: preflight: $*" >&2
}
log() { logger -t fabricc-roce -- "$HOST: $*" >/dev/null 2>&1 || true; }

# A path as it is on the host (without the test prefix).
shown() { echo "${1#"$R"}"; }

# A command line, quoted only where the shell needs it.
quoted() {
  local out="" a
  for a in "$@"; do
    if [[ "$a" =~ ^[A-Za-z0-9_./:,=@%+-]+$ ]]; then out+="$a "; else out+="$(printf '%q' "$a") "; fi
  done
  echo "${out% }"
}

# run CMD...: run a command quietly, or print it in dry-run mode; on failure show its output.
run() {
  if [ "$MODE" = dry-run ]; then
    quoted "$@"
    return 0
  fi
  local out
  if ! out=$("$@" 2>&1); then
    note "failed: $(quoted "$@")"
    if [ -n "$out" ]; then printf '%s\n' "$out" | sed 's/^/    /' >&2; fi
    return 1
  fi
}

# put VALUE FILE: write a value to a sysfs/configfs file (dry-run: print it).
put() {
  if [ "$MODE" = dry-run ]; then
    echo "echo $(quoted "$1") > $(shown "$2")"
    return 0
  fi
  if ! { echo "$1" > "$2"; } 2>/dev/null; then
    note "failed: echo $1 > $(shown "$2")"
    return 1
  fi
}

# The first line of a file, or "-". `read`, not `head`: a re-apply reads some hundred sysfs
# values, and `head` was 117 of the 259 programs one started (mlx5, on the test fakes).
value_of() {
  local v=""
  if [ -r "$1" ]; then IFS= read -r v 2> /dev/null < "$1" || true; fi
  echo "${v:--}"
}

# A configfs number as decimal ("0x30" -> 48), or "-".
number_of() {
  local v
  v=$(value_of "$1")
  if [[ "$v" =~ ^(0x[0-9a-fA-F]+|[0-9]+)$ ]]; then echo $((v)); else echo -; fi
}

# The only netdev in DIR that is not a switchdev representor, or fail.
uplink_netdev() {
  local d n found=()
  for d in "$1"/*; do
    [ -e "$d" ] || continue
    n=${d##*/}
    case "$(value_of "$SYS/class/net/$n/phys_port_name")" in
      *pf*vf*|*pf*sf*) continue ;;
    esac
    found+=("$n")
  done
  if [ "${#found[@]}" -ne 1 ]; then
    echo "${found[*]:-}"
    return 1
  fi
  echo "${found[0]}"
}

# resolve NIC: find the netdev, RDMA device and PCI function of a NIC from what the fabric
# declares, and check that they are one PCI function and not a VF or a representor. The
# RDMA device of bnxt_re and irdma hangs below the PCI function its Ethernet driver binds
# (auxiliary bus), so the `device` links of both meet there.
resolve() {
  local i=$1 dn=${D_NETDEV[$1]} dr=${D_RDMA[$1]} dp=${D_PCI[$1]} p=${D_PORT[$1]}
  local net="" rdev="" a b ppn
  if [ -n "$dp" ]; then
    if [ ! -d "$SYS/bus/pci/devices/$dp" ]; then
      problem "nic$i: PCI device $dp not found"
      return 1
    fi
    if ! net=$(uplink_netdev "$SYS/bus/pci/devices/$dp/net"); then
      problem "nic$i: PCI device $dp has no single network interface (found: ${net:-none})"
      return 1
    fi
  fi
  if [ -n "$dn" ]; then
    if [ ! -e "$SYS/class/net/$dn" ]; then
      problem "nic$i: network interface $dn not found"
      return 1
    fi
    if [ -n "$net" ] && [ "$net" != "$dn" ]; then
      problem "nic$i: the fabric says netdev $dn, but $dp is $net"
      return 1
    fi
    net=$dn
  fi
  if [ -n "$dr" ]; then
    if [ ! -e "$SYS/class/infiniband/$dr" ]; then
      problem "nic$i: RDMA device $dr not found (is $RDMA_MODULE loaded?)"
      return 1
    fi
    rdev=$dr
    if [ -z "$net" ] && ! net=$(uplink_netdev "$SYS/class/infiniband/$dr/device/net"); then
      problem "nic$i: RDMA device $dr has no single network interface (found: ${net:-none})"
      return 1
    fi
  fi
  if [ -z "$rdev" ] && ! rdev=$(rdma_of "$net"); then
    problem "nic$i: network interface $net has no single RDMA device (is $RDMA_MODULE loaded?)"
    return 1
  fi
  a=$(readlink -f "$SYS/class/net/$net/device" 2>/dev/null || true)
  b=$(readlink -f "$SYS/class/infiniband/$rdev/device" 2>/dev/null || true)
  if [ -z "$a" ] || [ "$a" != "$b" ]; then
    problem "nic$i: $net and $rdev are not the same PCI function (${a##*/} and ${b##*/})"
    return 1
  fi
  if [ -e "$SYS/class/net/$net/device/physfn" ]; then
    problem "nic$i: $net is a virtual function (${a##*/}); configure the physical function"
    return 1
  fi
  ppn=$(value_of "$SYS/class/net/$net/phys_port_name")
  case "$ppn" in
    *pf*vf*|*pf*sf*)
      problem "nic$i: $net is a switchdev representor ($ppn)"
      return 1 ;;
  esac
  if [ "$(value_of "$SYS/class/infiniband/$rdev/ports/$p/link_layer")" != Ethernet ]; then
    problem "nic$i: $rdev port $p is not an Ethernet (RoCE) port"
    return 1
  fi
  NET[$i]=$net
  RDEV[$i]=$rdev
  PCI[$i]=${a##*/}
}

# The only RDMA device of a netdev's PCI function.
rdma_of() {
  local d found=() t
  t=$(readlink -f "$SYS/class/net/$1/device" 2>/dev/null) || return 1
  for d in "$SYS/class/infiniband"/*; do
    [ -e "$d" ] || continue
    [ "$(readlink -f "$d/device" 2>/dev/null)" = "$t" ] && found+=("${d##*/}")
  done
  [ "${#found[@]}" -eq 1 ] || return 1
  echo "${found[0]}"
}

# The map of `dcb -N app show dev IF dscp-prio` as 64 comma-separated priorities (index =
# DSCP, "-" where unset, "x" where a DSCP has two priorities).
parse_app() {
  awk '
    $1 == "dscp-prio" {
      for (k = 2; k <= NF; k++) {
        split($k, m, ":")
        if (m[1] !~ /^[0-9]+$/ || m[1] > 63) continue
        if (m[1] in map && map[m[1]] != m[2]) map[m[1]] = "x"; else map[m[1]] = m[2]
      }
    }
    END {
      out = ""
      for (d = 0; d < 64; d++) out = out (d ? "," : "") ((d in map) ? map[d] : "-")
      print out
    }'
}

# The mappings after KEY on a `dcb … show` line, or "-".
line_of() {
  local v
  v=$(printf '%s\n' "$2" | awk -v k="$1" '$1 == k { $1 = ""; sub(/^ +/, ""); sub(/ +$/, ""); print; exit }')
  echo "${v:--}"
}

# rdma_cm's configfs group of an RDMA device; made on first use as cma_configfs.c expects
# (`mkdir` creates it and its ports/<n> entries).
cm_dir() {
  local d="$CM/$1"
  if [ ! -d "$d" ] && ! mkdir "$d" 2>/dev/null; then
    return 1
  fi
  echo "$d"
}

# read_state NIC: every setting of the NIC into ST[NIC.setting] ("-" where unreadable).
read_state() {
  local i=$1 net=${NET[$1]} rdev=${RDEV[$1]} p=${D_PORT[$1]} out v d
  out=$(ip -d -o link show dev "$net" 2>/dev/null)
  v=$(printf '%s\n' "$out" | sed -n 's/.* mtu \([0-9][0-9]*\).*/\1/p')
  ST[$i.mtu]=${v:--}
  v=$(printf '%s\n' "$out" | sed -n 's/.* maxmtu \([0-9][0-9]*\).*/\1/p')
  ST[$i.maxmtu]=${v:--}
  if out=$(dcb -N app show dev "$net" dscp-prio 2>&1); then
    ST[$i.dscp2prio]=$(printf '%s\n' "$out" | parse_app)
  else
    ST[$i.dscp2prio]=-
    ST[$i.dcb_error]=$(printf '%s\n' "$out" | head -n 1)
  fi
  out=$(dcb pfc show dev "$net" prio-pfc 2>/dev/null)
  ST[$i.pfc]=$(line_of prio-pfc "$out")
  out=$(dcb ets show dev "$net" prio-tc tc-tsa tc-bw 2>/dev/null)
  ST[$i.prio_tc]=$(line_of prio-tc "$out")
  ST[$i.tc_tsa]=$(line_of tc-tsa "$out")
  ST[$i.tc_bw]=$(line_of tc-bw "$out")
  ST[$i.roce_mode]=-
  ST[$i.roce_tos]=-
  if d=$(cm_dir "$rdev"); then
    ST[$i.roce_mode]=$(value_of "$d/ports/$p/default_roce_mode")
    ST[$i.roce_tos]=$(value_of "$d/ports/$p/default_roce_tos")
  fi
  driver_read "$i"
  count_qps "$i"
}

# count_qps NIC: the NIC's user queue pairs (every QP but the kernel's GSI/SMI ones) into
# ST[NIC.qps]. When `rdma res` is missing or fails, the count is "-" and ST[NIC.qps_error]
# says why: the busy guard then counts the NIC as busy (it fails closed).
count_qps() {
  local i=$1 out
  ST[$i.qps_error]=""
  if ! command -v rdma >/dev/null 2>&1; then
    ST[$i.qps]=-
    ST[$i.qps_error]="rdma (iproute2) not found in PATH"
    return 0
  fi
  if ! out=$(rdma res show qp link "${RDEV[$i]}/${D_PORT[$i]}" 2>&1); then
    ST[$i.qps]=-
    ST[$i.qps_error]="\`rdma res show qp link ${RDEV[$i]}/${D_PORT[$i]}\` failed: $(printf '%s\n' "$out" | head -n 1)"
    return 0
  fi
  ST[$i.qps]=$(printf '%s\n' "$out" | awk '/ lqpn / && !/ type (GSI|SMI) / { n++ } END { print n + 0 }')
}

# busy NIC: whether a change of the NIC must wait (active user queue pairs, or a count that
# cannot be made); the reason goes to BUSY[NIC].
busy() {
  local i=$1
  BUSY[$i]=""
  if [ "${ST[$i.qps]}" = - ]; then
    BUSY[$i]="its RDMA queue pairs cannot be counted (${ST[$i.qps_error]}), so it counts as busy"
  elif [ "${ST[$i.qps]}" -gt 0 ]; then
    BUSY[$i]="has ${ST[$i.qps]} active RDMA queue pair(s)"
  fi
  [ -n "${BUSY[$i]}" ]
}

# wait_idle: count the busy NICs' queue pairs again every IDLE_POLL seconds until none is
# busy or WHEN_IDLE seconds have passed; leaves the number still busy in NBUSY.
wait_idle() {
  local i deadline=$((SECONDS + WHEN_IDLE))
  note "waiting up to ${WHEN_IDLE}s for $NBUSY busy NIC(s) to have no RDMA queue pairs"
  while :; do
    NBUSY=0
    for i in "${NICS[@]}"; do
      [ -n "${BUSY[$i]:-}" ] || continue
      count_qps "$i"
      busy "$i" && NBUSY=$((NBUSY + 1))
    done
    [ "$NBUSY" -gt 0 ] && [ "$SECONDS" -lt "$deadline" ] || return 0
    sleep "$IDLE_POLL"
  done
}

# record_pending: write the pending record (/run/fabricc/roce.pending; /run is emptied at
# boot, when no job runs and the unit applies everything): which NICs wait and why.
record_pending() {
  local i d
  d=$(dirname "$PENDING")
  mkdir -p "$d" 2>/dev/null || true
  {
    echo "# $HOST: changed intent not applied, NIC busy; recorded $(date -u +%Y-%m-%dT%H:%M:%SZ 2>/dev/null)"
    echo "# apply: $0 --when-idle[=SECONDS] (after draining the node) or --force; the next run that"
    echo "# leaves every NIC in the intended state removes this file."
    for i in "${NICS[@]}"; do
      [ -n "${BUSY[$i]:-}" ] || continue
      echo "nic$i ${NET[$i]} ${RDEV[$i]}: ${BUSY[$i]}; differs in:$(printf '%s\n' "${DRIFT[$i]}" | awk '{printf " %s", $1}')"
    done
  } > "$PENDING" 2>/dev/null || note "cannot write the pending record $(shown "$PENDING")"
}

# The settings of a NIC that differ from the intent: "setting expected actual" lines, the
# maps with their spaces as commas. The DSCP map is one line with its differing entries as
# DSCP:priority, the first eight and a count.
drift() {
  local i=$1 k d exp act
  same() { [ "${ST[$i.$1]:--}" = "$2" ] || echo "$1 ${2// /,} $(echo "${ST[$i.$1]:--}" | tr ' ' ',')"; }
  same mtu "$E_MTU"
  same pfc "$E_PFC"
  same prio_tc "$E_PRIO_TC"
  same tc_tsa "$E_TC_TSA"
  same tc_bw "$E_TC_BW"
  same roce_mode "$E_ROCE_MODE"
  same roce_tos "$E_TOS"
  driver_drift "$i"
  local -a want have
  IFS=, read -r -a want <<< "$E_DSCP2PRIO"
  IFS=, read -r -a have <<< "${ST[$i.dscp2prio]}"
  exp=""
  act=""
  k=0
  for ((d = 0; d < 64; d++)); do
    if [ "${have[$d]:--}" != "${want[$d]}" ]; then
      k=$((k + 1))
      if [ "$k" -le 8 ]; then
        exp+="${exp:+,}$d:${want[$d]}"
        act+="${act:+,}$d:${have[$d]:--}"
      fi
    fi
  done
  if [ "$k" -gt 8 ]; then
    exp+=",+$((k - 8))"
    act+=",+$((k - 8))"
  fi
  [ -z "$exp" ] || echo "dscp2prio $exp $act"
}

# apply_nic NIC DRIFT: issue the commands that fix the drifted groups of one NIC, in order;
# stop at the first failure. The groups it set are left in DONE.
DONE=""
# (grep -q reads a here-string: behind a pipe it may exit before printf has written, and
# pipefail would then turn a match into a failure.)
has() { grep -q -E "^($1) " <<< "$DRIFT_LINES"; }
apply_nic() {
  local i=$1 net=${NET[$1]} rdev=${RDEV[$1]} p=${D_PORT[$1]} d
  DRIFT_LINES=$2
  DONE=""
  driver_apply_first "$i" || return 1
  if has mtu; then set_mtu "$net" || return 1; DONE+=" mtu"; fi
  if has dscp2prio; then set_dscp2prio "$net" || return 1; DONE+=" dscp2prio"; fi
  local pfc_done=0
  if has 'prio_tc|tc_tsa|tc_bw'; then
    if [ "$PFC_OFF_FOR_ETS" = 1 ]; then
      # The driver needs PFC off while priorities move between TCs; set again below.
      run dcb pfc set dev "$net" prio-pfc all:off || return 1
    fi
    set_ets "$net" || return 1
    DONE+=" ets"
    if [ "$PFC_OFF_FOR_ETS" = 1 ]; then
      set_pfc "$net" || return 1
      DONE+=" pfc"
      pfc_done=1
    fi
  fi
  if [ "$pfc_done" = 0 ] && has pfc; then set_pfc "$net" || return 1; DONE+=" pfc"; fi
  if has 'roce_mode|roce_tos'; then
    if [ "$MODE" = dry-run ] && [ ! -d "$CM/$rdev" ]; then
      echo "mkdir $(shown "$CM/$rdev")"
      d="$CM/$rdev"
    elif ! d=$(cm_dir "$rdev"); then
      note "failed: mkdir $(shown "$CM/$rdev")"
      return 1
    fi
    if has roce_mode; then put "$E_ROCE_MODE" "$d/ports/$p/default_roce_mode" || return 1; DONE+=" roce_mode"; fi
    if has roce_tos; then put "$E_TOS" "$d/ports/$p/default_roce_tos" || return 1; DONE+=" roce_tos"; fi
  fi
  driver_apply "$i" || return 1
}

json_str() {
  local s=$1
  s=${s//\\/\\\\}
  s=${s//\"/\\\"}
  s=$(printf '%s' "$s" | tr -d '\000-\037')
  printf '"%s"' "$s"
}
json_num() {
  if [[ "$1" =~ ^-?[0-9]+$ ]]; then printf '%s' "$1"; else printf 'null'; fi
}
opt_str() { if [ -n "$1" ] && [ "$1" != - ]; then json_str "$1"; else printf 'null'; fi; }
# A comma list as a JSON array: numbers stay numbers, "-" becomes null, words become strings.
json_list() {
  local out="" x
  local -a xs
  if [ "$1" = - ] || [ -z "$1" ]; then printf 'null'; return; fi
  IFS=, read -r -a xs <<< "$1"
  for x in "${xs[@]}"; do
    if [[ "$x" =~ ^-?[0-9]+$ ]]; then out+="${out:+,}$x"
    elif [ "$x" = - ] || [ "$x" = x ]; then out+="${out:+,}null"
    else out+="${out:+,}$(json_str "$x")"; fi
  done
  printf '[%s]' "$out"
}
# A `dcb` map ("0:0 1:3 …") as a JSON array of its values in key order.
json_map() {
  local v
  if [ "$1" = - ] || [ -z "$1" ]; then printf 'null'; return; fi
  v=$(printf '%s\n' "$1" | tr ' ' '\n' | awk -F: 'NF == 2 { v[$1] = $2 } END { for (k = 0; k < 8; k++) printf "%s%s", (k ? "," : ""), ((k in v) ? v[k] : "-") }')
  json_list "$v"
}
# PFC as 0/1 per priority, the form of docs/host-state.md.
json_pfc() {
  local v="$1"
  v=${v//:on/:1}
  v=${v//:off/:0}
  json_map "$v"
}

collect() {
  local i first=1 k
  printf '{"schema":"fabricc-host-state/1","host":%s,"driver":%s,"nics":[' "$(json_str "$HOST")" "$(json_str "$DRIVER")"
  for i in "${NICS[@]}"; do
    [ "$first" = 1 ] || printf ','
    first=0
    printf '{"nic":"nic%s","peer":%s,' "$i" "$(json_str "${D_PEER[$i]}")"
    printf '"declared":{"netdev":%s,"rdma_device":%s,"pci":%s,"guessed":false},' \
      "$(opt_str "${D_NETDEV[$i]}")" "$(opt_str "${D_RDMA[$i]}")" "$(opt_str "${D_PCI[$i]}")"
    printf '"netdev":%s,"rdma_device":%s,"pci":%s,"port":%s,' \
      "$(opt_str "${NET[$i]:-}")" "$(opt_str "${RDEV[$i]:-}")" "$(opt_str "${PCI[$i]:-}")" "${D_PORT[$i]}"
    if [ -z "${NET[$i]:-}" ]; then
      printf '"branch":null,"state":null}'
      continue
    fi
    printf '"branch":%s,"state":{' "$(json_str "${BRANCH[$i]:-unknown}")"
    printf '"mtu":%s,"dscp2prio":%s,"pfc":%s,"prio_tc":%s,"tsa":%s,"tcbw":%s,' \
      "$(json_num "${ST[$i.mtu]}")" "$(json_list "${ST[$i.dscp2prio]}")" "$(json_pfc "${ST[$i.pfc]}")" \
      "$(json_map "${ST[$i.prio_tc]}")" "$(json_map "${ST[$i.tc_tsa]}")" "$(json_map "${ST[$i.tc_bw]}")"
    printf '"roce_mode":%s,"roce_tos":%s,' \
      "$(case "${ST[$i.roce_mode]}" in "RoCE v2") echo 2 ;; "IB/RoCE v1") echo 1 ;; *) echo null ;; esac)" \
      "$(json_num "${ST[$i.roce_tos]}")"
    for k in cnp_dscp cnp_prio qps; do
      printf '"%s":%s,' "$k" "$(json_num "${ST[$i.$k]:--}")"
    done
    printf '"cnp_source":%s,' "$(opt_str "${ST[$i.cnp_source]:-}")"
    driver_json "$i"
    printf '}}'
  done
  printf '],"problems":%s,"pending":%s}\n' "$PROBLEMS" "$(pending_json)"
}

# pending_json: the pending record (record_pending) as JSON, null when there is none: the file,
# when it was recorded and its NIC lines, as --check shows them (H15).
pending_json() {
  local line recorded=null first=1
  if [ ! -f "$PENDING" ]; then
    printf 'null'
    return
  fi
  IFS= read -r line 2>/dev/null < "$PENDING" || line=""
  case "$line" in
    *"; recorded "?*) recorded=$(json_str "${line##*; recorded }") ;;
  esac
  printf '{"file":%s,"recorded":%s,"nics":[' "$(json_str "$(shown "$PENDING")")" "$recorded"
  while IFS= read -r line; do
    case "$line" in '#'* | '') continue ;; esac
    [ "$first" = 1 ] || printf ','
    first=0
    json_str "$line"
  done 2>/dev/null < "$PENDING"
  printf ']}'
}

# ---- Preflight: nothing below changes anything until every NIC has passed -----------------
if [ "$(id -u 2>/dev/null)" != 0 ]; then
  problem "run as root (dcb, the NIC's configfs and sysfs files need it)"
  [ "$MODE" = collect ] && collect
  exit 3
fi
for t in dcb:iproute2 ip:iproute2 flock:util-linux logger:util-linux \
  readlink:coreutils awk:awk $DRIVER_TOOLS; do
  command -v "${t%%:*}" >/dev/null 2>&1 || problem "${t%%:*} not found in PATH (package ${t#*:})"
done
if [ "$PROBLEMS" -gt 0 ]; then
  [ "$MODE" = collect ] && collect
  exit 3
fi
if ! exec 9>>"$LOCK"; then
  note "preflight: cannot open the lock file $(shown "$LOCK")"
  exit 3
fi
if ! flock -w 60 9; then
  note "preflight: another run holds $(shown "$LOCK")"
  exit 3
fi
if command -v pgrep >/dev/null 2>&1 && pgrep -x lldpad >/dev/null 2>&1; then
  note "warning: lldpad is running and may overwrite these settings"
fi
if [ ! -d "$CM" ]; then
  problem "/sys/kernel/config/rdma_cm not found: mount configfs (systemd: sys-kernel-config.mount) and load rdma_cm (modprobe rdma_cm)"
fi

declare -A SEEN
for i in "${NICS[@]}"; do
  resolve "$i" || continue
  if [ -n "${SEEN[${NET[$i]}]:-}" ]; then
    problem "nic$i and nic${SEEN[${NET[$i]}]} are the same port (${NET[$i]})"
    continue
  fi
  SEEN[${NET[$i]}]=$i
  driver_interfaces "$i"
  read_state "$i"
  if [ -n "${ST[$i.dcb_error]:-}" ]; then
    problem "nic$i: dcb cannot read ${NET[$i]} (does its driver implement DCBNL?): ${ST[$i.dcb_error]}"
  fi
  if [[ "${ST[$i.maxmtu]}" =~ ^[0-9]+$ ]] && [ "${ST[$i.maxmtu]}" -lt "$E_MTU" ]; then
    problem "nic$i: ${NET[$i]} allows MTU up to ${ST[$i.maxmtu]}, the fabric needs $E_MTU"
  fi
  driver_preflight "$i"
done

if [ "$MODE" = collect ]; then
  collect
  [ "$PROBLEMS" -eq 0 ] || exit 3
  exit 0
fi
if [ "$PROBLEMS" -gt 0 ]; then
  note "$PROBLEMS preflight problem(s); nothing was changed"
  exit 3
fi

declare -A DRIFT BUSY
changes=0
NBUSY=0
for i in "${NICS[@]}"; do
  DRIFT[$i]=$(drift "$i")
  if [ -n "${DRIFT[$i]}" ]; then
    changes=$((changes + 1))
    if [ "$MODE" != check ] && [ "$FORCE" != 1 ] && busy "$i"; then
      NBUSY=$((NBUSY + 1))
    fi
  fi
done

# The drift rows: NIC NETDEV RDMA SETTING EXPECTED ACTUAL.
print_drift() {
  local i=$1 s e a
  while read -r s e a; do
    [ -n "$s" ] && echo "nic$i ${NET[$i]} ${RDEV[$i]} $s $e $a"
  done <<< "${DRIFT[$i]}"
}

if [ "$MODE" = check ]; then
  if [ -f "$PENDING" ]; then
    echo "# pending: changed intent not applied, NIC busy ($(shown "$PENDING")):"
    sed 's/^/#   /' "$PENDING" 2>/dev/null | grep -v '^#   #' || true
    note "pending: changed intent not applied, NIC busy"
  fi
  echo "# $HOST: NIC NETDEV RDMA SETTING EXPECTED ACTUAL"
  for i in "${NICS[@]}"; do
    echo "# nic$i ${NET[$i]} ${RDEV[$i]} ${PCI[$i]} driver $DRIVER (${BRANCH[$i]})"
    print_drift "$i"
    if [ -n "${DRIFT[$i]}" ]; then log "nic$i ${NET[$i]}/${RDEV[$i]}: drift in$(printf '%s\n' "${DRIFT[$i]}" | awk '{printf " %s", $1}')"; fi
    driver_check_notes "$i"
  done
  if [ "$changes" -gt 0 ]; then
    note "drift on $changes NIC(s)"
    exit 1
  fi
  exit 0
fi

# ---- The busy guard: a NIC that needs a change (which may flap its link) waits while it has
# user RDMA queue pairs, or while they cannot be counted; exit 4, which the unit does not retry.
if [ "$NBUSY" -gt 0 ] && [ "$MODE" = apply ] && [ "$WHEN_IDLE" -gt 0 ]; then
  wait_idle
fi
for i in "${NICS[@]}"; do
  if [ -n "${BUSY[$i]:-}" ]; then
    note "busy: nic$i ${NET[$i]} needs changes (may flap the link) and ${BUSY[$i]}"
  fi
done

if [ "$MODE" = dry-run ]; then
  for i in "${NICS[@]}"; do
    echo "# nic$i ${NET[$i]} ${RDEV[$i]} ${PCI[$i]} driver $DRIVER (${BRANCH[$i]})"
    apply_nic "$i" "${DRIFT[$i]}"
  done
  if [ "$NBUSY" -gt 0 ]; then
    echo "# dry run for $HOST: $changes NIC(s) would change, $NBUSY busy: a real run would refuse (exit 4) without --when-idle or --force; nothing was changed"
    exit 4
  fi
  echo "# dry run for $HOST: $changes NIC(s) would change; nothing was changed"
  exit 0
fi

if [ "$NBUSY" -gt 0 ]; then
  record_pending
  note "$NBUSY NIC(s) busy: the changed intent is not applied and nothing was changed; recorded in $(shown "$PENDING") (--check shows it). Drain the node, then run with --when-idle[=SECONDS], or --force"
  log "pending: $NBUSY NIC(s) busy, changed intent not applied"
  exit 4
fi
rm -f "$PENDING" 2>/dev/null || true

# ---- Apply: only the groups that differ, NIC by NIC; then read everything back -----------
failed=0
for i in "${NICS[@]}"; do
  if [ -z "${DRIFT[$i]}" ]; then
    log "nic$i ${NET[$i]}/${RDEV[$i]}: in the intended state, nothing changed"
    continue
  fi
  if apply_nic "$i" "${DRIFT[$i]}"; then
    log "nic$i ${NET[$i]}/${RDEV[$i]} ($DRIVER, ${BRANCH[$i]}): set${DONE}"
  else
    failed=$((failed + 1))
    log "nic$i ${NET[$i]}/${RDEV[$i]} ($DRIVER, ${BRANCH[$i]}): FAILED after:${DONE:- nothing}"
  fi
done
left=0
for i in "${NICS[@]}"; do
  read_state "$i"
  DRIFT[$i]=$(drift "$i")
  if [ -n "${DRIFT[$i]}" ]; then
    left=$((left + 1))
    print_drift "$i"
  fi
done
if [ "$failed" -gt 0 ] || [ "$left" -gt 0 ]; then
  note "$failed NIC(s) failed, $left NIC(s) still differ from the fabric"
  exit 1
fi
echo "$HOST: ${#NICS[@]} NIC(s) in the intended state ($changes changed)"
exit 0
{% endraw %}
