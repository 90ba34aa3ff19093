"""A SONiC switch's databases and CLI, as far as `apply.sh` and the apply tests need them.

State lives in `$FAKE_SONIC/db.json`: `{"CONFIG_DB": {TABLE: {KEY: {FIELD: VALUE}}},
"APPL_DB": {"TABLE:KEY": {FIELD: VALUE}}}`; `$FAKE_SONIC/etc/sonic/config_db.json` is the saved
file; `$FAKE_SONIC/pg_profile_lookup.ini` the SKU's lookup table; every call is appended to
`$FAKE_SONIC/calls.log`. The semantics modelled, each from the SONiC source it imitates:

* `config load -y FILE`: `sonic-cfggen -j FILE --write-to-db` → `mod_config` → one
  `mod_entry` (HMSET, a field merge) per key; nothing is deleted
  (sonic-net/sonic-utilities@691b1bbc4fd2:config/main.py:1945;
  sonic-net/sonic-buildimage@086b03bd70f9:src/sonic-config-engine/sonic-cfggen).
* A list value (`SWITCH_HASH|GLOBAL.ecmp_hash`) is stored as the field `f@` = `a,b` and
  printed back as a list under `f` (sonic-net/sonic-swss-common@85a39d8004ad:common/configdb.h:
  158-177, `raw_to_typed`/`typed_to_raw`). STATE_DB is `{"TABLE|KEY": {FIELD: VALUE}}`, read by
  `sonic-db-cli STATE_DB HGET`.
* `config qos clear`: deletes the tables of `_clear_qos` (config/main.py:921-942).
* `config save -y`: the CONFIG_DB as `sonic-cfggen -d --print-data` prints it, to the file.
* `config reload -y [FILE]`: flush CONFIG_DB, load the saved file (or FILE), then the daemons
  start: buffermgrd in the model DEVICE_METADATA now says (traditional: a lossless PG and,
  if absent, its `pg_lossless_<speed>_<cable>_profile` per port with `pfc_enable`, from the
  lookup table; no row: nothing, sonic-net/sonic-swss@e6b0c5b5d2ab:cfgmgr/buffermgr.cpp:
  145-305; dynamic: CONFIG_DB untouched, APPL_DB gets a computed profile for `"NULL"`), the
  buffer tables are copied to APPL_DB (`"NULL"` verbatim in the traditional model), and a
  port whose PGs all name an existing profile is initialised (`PORT_TABLE:<port>
  oper_status up`); one with an unresolved profile never is (bufferorch `isPortReady`,
  portsorch "buffer configuration hasn't been applied yet").

Test code written for this repository; no code of the tools it imitates is copied.
"""

import copy
import fnmatch
import json
import os
import re
import sys

ROOT = os.environ["FAKE_SONIC"]
DB = os.path.join(ROOT, "db.json")
SAVED = os.path.join(ROOT, "etc", "sonic", "config_db.json")

QOS_CLEAR = [
    "PORT_QOS_MAP", "QUEUE", "TC_TO_PRIORITY_GROUP_MAP", "MAP_PFC_PRIORITY_TO_QUEUE",
    "TC_TO_QUEUE_MAP", "DSCP_TO_TC_MAP", "MPLS_TC_TO_TC_MAP", "SCHEDULER",
    "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP", "WRED_PROFILE", "CABLE_LENGTH", "BUFFER_PG",
    "BUFFER_QUEUE", "BUFFER_PORT_INGRESS_PROFILE_LIST", "BUFFER_PORT_EGRESS_PROFILE_LIST",
    "BUFFER_PROFILE", "BUFFER_POOL", "DEFAULT_LOSSLESS_BUFFER_PARAMETER",
    "LOSSLESS_TRAFFIC_PATTERN",
]


def log(tool, args):
    with open(os.path.join(ROOT, "calls.log"), "a") as f:
        f.write(tool + "\t" + " ".join(args) + "\n")


def load():
    with open(DB) as f:
        return json.load(f)


def store(db):
    tmp = DB + ".tmp"
    with open(tmp, "w") as f:
        json.dump(db, f, sort_keys=True, separators=(",", ":"))
    os.replace(tmp, DB)


def text(v):
    return ",".join(v) if isinstance(v, list) else str(v)


def merge(config, data):
    for table, rows in data.items():
        for key, fields in rows.items():
            if fields is None:
                config.get(table, {}).pop(key, None)
                continue
            entry = config.setdefault(table, {}).setdefault(key, {})
            for f, v in fields.items():
                # A list is stored as `f@` = "a,b" (ConfigDBConnector.typed_to_raw).
                entry[f + "@" if isinstance(v, list) else f] = text(v)


def ranges(prios):
    out, run = [], []
    for p in sorted(set(prios)):
        if run and p == run[-1] + 1:
            run.append(p)
        else:
            if run:
                out.append(run)
            run = [p]
    if run:
        out.append(run)
    return [str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in out]


def lookup_rows():
    rows = {}
    path = os.path.join(ROOT, "pg_profile_lookup.ini")
    if os.path.exists(path):
        for line in open(path):
            f = line.split()
            if not f or f[0].startswith("#"):
                continue
            rows[(f[0], f[1])] = {"size": f[2], "xon": f[3], "xoff": f[4], "threshold": f[5]}
    return rows


def buffermgrd(config):
    """The traditional buffer manager's CONFIG_DB writes at start."""
    rows = lookup_rows()
    pool_mode = config.get("BUFFER_POOL", {}).get("ingress_lossless_pool", {}).get("mode")
    cables = config.get("CABLE_LENGTH", {}).get("AZURE", {})
    errors = []
    for port, qos in config.get("PORT_QOS_MAP", {}).items():
        pfc = qos.get("pfc_enable")
        p = config.get("PORT", {}).get(port)
        if not pfc or p is None or port not in cables or p.get("admin_status") != "up":
            continue
        speed, cable = p.get("speed"), cables[port]
        name = f"pg_lossless_{speed}_{cable}_profile"
        if (speed, cable) not in rows:
            errors.append(f"No PG profile configured for speed {speed} and cable length {cable}")
            continue
        profiles = config.setdefault("BUFFER_PROFILE", {})
        if name not in profiles and pool_mode:
            r = rows[(speed, cable)]
            profiles[name] = {"pool": "ingress_lossless_pool", "xon": r["xon"], "xoff": r["xoff"],
                              "size": r["size"], f"{pool_mode}_th": r["threshold"]}
        for rng in ranges(int(x) for x in pfc.split(",")):
            config.setdefault("BUFFER_PG", {})[f"{port}|{rng}"] = {"profile": name}
    return errors


def start_daemons(db, live=False):
    config = db["CONFIG_DB"]
    if live:
        # A live change (GCU): the daemons keep the buffer model they started in.
        model = db.get("RUNNING_MODEL", "traditional")
    else:
        model = config.get("DEVICE_METADATA", {}).get("localhost", {}).get("buffer_model", "traditional")
        db["RUNNING_MODEL"] = model
    errors = buffermgrd(config) if model == "traditional" else []
    appl = {}
    profiles = set()
    for table in ("BUFFER_POOL", "BUFFER_PROFILE"):
        for key, fields in config.get(table, {}).items():
            appl[f"{table}_TABLE:{key}"] = dict(fields)
            if table == "BUFFER_PROFILE":
                profiles.add(key)
    cables = config.get("CABLE_LENGTH", {}).get("AZURE", {})
    unresolved = set()
    for table in ("BUFFER_PG", "BUFFER_QUEUE"):
        for key, fields in config.get(table, {}).items():
            port, rng = key.split("|", 1)
            profile = fields.get("profile")
            if profile == "NULL" and model == "dynamic":
                p = config.get("PORT", {}).get(port, {})
                mtu = p.get("mtu", "9100")
                suffix = "" if mtu == "9100" else f"_mtu{mtu}"
                profile = f"pg_lossless_{p.get('speed')}_{cables.get(port)}{suffix}_profile"
                appl[f"BUFFER_PROFILE_TABLE:{profile}"] = {"pool": "ingress_lossless_pool"}
                profiles.add(profile)
            if profile not in profiles:
                unresolved.add(port)
            appl[f"{table}_TABLE:{port}:{rng}"] = {"profile": profile}
    down = set(os.environ.get("FAKE_DOWN", "").split(","))
    for port, fields in config.get("PORT", {}).items():
        if port in unresolved:
            continue  # never initialised: no oper_status
        up = fields.get("admin_status") == "up" and port not in down
        appl[f"PORT_TABLE:{port}"] = {"oper_status": "up" if up else "down"}
    db["APPL_DB"] = appl
    db["LOG"] = errors
    # BGP: the sessions of BGP_NEIGHBOR (bgpmon's STATE_DB NEIGH_STATE_TABLE); a reload
    # restarts bgp, a live change does not touch it.
    if not live:
        state = db.setdefault("STATE_DB", {})
        for n in config.get("BGP_NEIGHBOR", {}):
            up = not os.environ.get("FAKE_BGP_DOWN")
            state[f"NEIGH_STATE_TABLE|{n}"] = {"state": "Established" if up else "Active"}


def dump(config):
    # `f@` is printed as a list under `f` (ConfigDBConnector.raw_to_typed).
    typed = {
        t: {k: {f[:-1] if f.endswith("@") else f: v.split(",") if f.endswith("@") else v
                for f, v in fields.items()}
            for k, fields in rows.items()}
        for t, rows in config.items()
    }
    return json.dumps(typed, indent=4, sort_keys=True)


# ---- GCU (generic config updater) ---------------------------------------------------------
# `config apply-patch` as sonic-net/sonic-utilities@691b1bbc4fd2 runs it
# (generic_config_updater/generic_updater.py:106-160): the target = the patch applied to the
# running config; every operation of `jsonpatch.JsonPatch.from_diff(old, target)` must pass the
# field-operation validation (gu_common.py:184-240: removing PFC_WD|GLOBAL is illegal;
# field_operation_validators.py + gcu_field_operation_validators.conf.json: BUFFER_POOL never,
# BUFFER_PROFILE whole objects or dynamic_th/xoff replaced, PFC_WD its timer/action fields by
# add/remove/replace on a known ASIC family); no table may end empty; then the changes are
# written and the daemons react live (no restart, the buffer model stays).

GCU_FAMILY = {"mellanox-sn5600-o128": "spc4", "acs-sn5600": "spc4", "acs-sn5400": "spc4",
              "arista-7060x6-64pe-o128s2": "th5", "arista-7060x6-64pe": "th5"}
PFCWD_FIELDS = {"restoration_time", "detection_time", "action", "global/poll_interval",
                "pfc_stat_history", ""}


def typed(config):
    return json.loads(dump(config))


def untyped(data):
    out = {}
    merge(out, data)
    return out


def unescape(part):
    return part.replace("~1", "/").replace("~0", "~")


def apply_ops(target, patch):
    for op in patch:
        parts = [unescape(p) for p in op["path"].strip("/").split("/")]
        node = target
        for p in parts[:-1]:
            node = node.setdefault(p, {})
        if op["op"] == "remove":
            if parts[-1] not in node:
                raise ValueError(f"cannot remove {op['path']}: not there")
            del node[parts[-1]]
        elif op["op"] in ("add", "replace"):
            node[parts[-1]] = op["value"]
        else:
            raise ValueError(f"unsupported op {op['op']}")


def from_diff(old, new):
    out = []
    for t in sorted(set(old) | set(new)):
        if t not in new:
            out.append(("remove", f"/{t}", None))
        elif t not in old:
            out.append(("add", f"/{t}", new[t]))
        else:
            gone = [k for k in sorted(old[t]) if k not in new[t]]
            for k in sorted(new[t]):
                if k in old[t]:
                    for f in sorted(set(old[t][k]) | set(new[t][k])):
                        if f not in new[t][k]:
                            out.append(("remove", f"/{t}/{k}/{f}", None))
                        elif f not in old[t][k]:
                            out.append(("add", f"/{t}/{k}/{f}", new[t][k][f]))
                        elif old[t][k][f] != new[t][k][f]:
                            out.append(("replace", f"/{t}/{k}/{f}", new[t][k][f]))
                    continue
                twin = next((g for g in gone if old[t][g] == new[t][k]), None)
                if twin is not None:  # jsonpatch turns an equal remove + add into a move
                    gone.remove(twin)
                    out.append(("move", f"/{t}/{k}", None))
                else:
                    out.append(("add", f"/{t}/{k}", new[t][k]))
            out.extend(("remove", f"/{t}/{k}", None) for k in gone)
    return out


def refusal(op, path, value, family):
    parts = path.strip("/").split("/")
    table = parts[0]
    if op == "remove" and path in ("/PFC_WD/GLOBAL", "/PFC_WD/GLOBAL/POLL_INTERVAL"):
        return f"Given patch operation is invalid. Operation: remove is illegal on field: {path}"
    if table == "BUFFER_POOL":
        return f"Modification of BUFFER_POOL table is illegal ({op} {path})"
    if table == "PFC_WD":
        cleaned = "/".join(p for p in parts[1:] if not any(c.isdigit() for c in p)).lower()
        fields = [(cleaned + "/" + k) if cleaned else k for k in value] if isinstance(value, dict) else [cleaned]
        if family is None or op not in ("add", "remove", "replace") or any(f not in PFCWD_FIELDS for f in fields):
            return f"Modification of PFC_WD table is illegal ({op} {path})"
    if table == "BUFFER_PROFILE":
        if len(parts) == 2:
            return None if op in ("add", "remove", "replace") else f"Modification of BUFFER_PROFILE table is illegal ({op} {path})"
        if len(parts) == 1 or family is None or op != "replace" or parts[-1] not in ("dynamic_th", "xoff"):
            return f"Modification of BUFFER_PROFILE table is illegal ({op} {path})"
    return None


def gcu_apply(db, patch_file, dry_run):
    config = db["CONFIG_DB"]
    old = typed(config)
    new = copy.deepcopy(old)
    with open(patch_file) as f:
        patch = json.load(f)
    try:
        apply_ops(new, patch)
    except (ValueError, KeyError, TypeError) as e:
        print(f"Failed to apply patch due to: {e}", file=sys.stderr)
        return 1
    hwsku = old.get("DEVICE_METADATA", {}).get("localhost", {}).get("hwsku", "").lower()
    family = GCU_FAMILY.get(hwsku)
    for op, path, value in from_diff(old, new):
        why = refusal(op, path, value, family)
        if why:
            print(f"Failed to apply patch due to: {why}", file=sys.stderr)
            return 1
    empty = sorted(t for t, rows in new.items() if not rows)
    if empty:
        print(f"Failed to apply patch due to: given patch is not valid because it will result in empty tables: {', '.join(empty)}", file=sys.stderr)
        return 1
    if dry_run:
        return 0
    if os.environ.get("FAKE_FAIL") == "apply-patch":
        # Fails half-way: the first half of the changes is written (GCU applies its sorted
        # changes one by one, generic_updater.py:145-150).
        half = patch[: len(patch) // 2]
        partial = copy.deepcopy(old)
        apply_ops(partial, half)
        db["CONFIG_DB"] = untyped(partial)
        start_daemons(db, live=True)
        store(db)
        print("Failed to apply patch due to: injected failure", file=sys.stderr)
        return 1
    db["CONFIG_DB"] = untyped(new)
    start_daemons(db, live=True)
    store(db)
    return 0


# ---- tools ---------------------------------------------------------------------------------

def config_cli(args):
    log("config", args)
    db = load()
    checkpoints = os.path.join(ROOT, "checkpoints")
    if args[:1] == ["apply-patch"]:
        files = [a for a in args[1:] if not a.startswith("-")]
        return gcu_apply(db, files[0], "--dry-run" in args)
    if args[:1] == ["checkpoint"]:
        os.makedirs(checkpoints, exist_ok=True)
        with open(os.path.join(checkpoints, args[1] + ".json"), "w") as f:
            json.dump(typed(db["CONFIG_DB"]), f)
        return 0
    if args[:1] == ["rollback"]:
        # GCU replaces the running config with the checkpoint (config/main.py rollback).
        with open(os.path.join(checkpoints, args[1] + ".json")) as f:
            db["CONFIG_DB"] = untyped(json.load(f))
        start_daemons(db, live=True)
        store(db)
        return 0
    if args[:1] == ["delete-checkpoint"]:
        os.remove(os.path.join(checkpoints, args[1] + ".json"))
        return 0
    if args[:1] == ["save"] and os.environ.get("FAKE_FAIL") == "save":
        print("fake config save: injected failure", file=sys.stderr)
        return 1
    if args[:2] == ["qos", "clear"]:
        for t in QOS_CLEAR:
            db["CONFIG_DB"].pop(t, None)
    elif args[:1] == ["load"]:
        files = [a for a in args[1:] if a != "-y"]
        with open(files[0]) as f:
            merge(db["CONFIG_DB"], json.load(f))
    elif args[:1] == ["save"]:
        os.makedirs(os.path.dirname(SAVED), exist_ok=True)
        with open(SAVED, "w") as f:
            f.write(dump(db["CONFIG_DB"]))
    elif args[:1] == ["reload"]:
        if os.environ.get("FAKE_RELOAD_FAILS"):
            print("Invalid config file", file=sys.stderr)
            return 1
        files = [a for a in args[1:] if not a.startswith("-")]
        with open(files[0] if files else SAVED) as f:
            db["CONFIG_DB"] = {}
            merge(db["CONFIG_DB"], json.load(f))
        start_daemons(db)
    else:
        print("fake config: unsupported " + " ".join(args), file=sys.stderr)
        return 2
    store(db)
    return 0


def cfggen(args):
    log("sonic-cfggen", args)
    db = load()
    if args == ["-d", "--print-data"]:
        print(dump(db["CONFIG_DB"]))
        return 0
    if len(args) == 3 and args[:2] == ["-d", "-v"]:
        table, key, field = args[2].split(".", 2)
        print(db["CONFIG_DB"].get(table, {}).get(key, {}).get(field, ""))
        return 0
    print("fake sonic-cfggen: unsupported " + " ".join(args), file=sys.stderr)
    return 2


def db_cli(args):
    log("sonic-db-cli", args)
    db = load()
    name, cmd, rest = args[0], args[1].upper(), args[2:]
    if cmd == "PING":
        print("PONG")
        return 0
    if name == "CONFIG_DB":
        flat = {f"{t}|{k}": v for t, rows in db["CONFIG_DB"].items() for k, v in rows.items()}
    else:
        flat = db.get(name, {})
    if cmd == "KEYS":
        for k in sorted(flat):
            if fnmatch.fnmatchcase(k, rest[0]):
                print(k)
        return 0
    if cmd == "HGET":
        v = flat.get(rest[0], {}).get(rest[1])
        if v is not None:
            print(v)
        return 0
    if cmd == "DEL" and name == "CONFIG_DB":
        table, key = rest[0].split("|", 1)
        removed = db["CONFIG_DB"].get(table, {}).pop(key, None)
        store(db)
        print(1 if removed is not None else 0)
        return 0
    print("fake sonic-db-cli: unsupported " + " ".join(args), file=sys.stderr)
    return 2


def systemctl(args):
    log("systemctl", args)
    if args[:1] == ["is-system-running"]:
        print(os.environ.get("FAKE_SYSTEM_STATE", "running"))
        return 0
    if args[:2] == ["show", "swss.service"]:
        prop = args[args.index("--property") + 1]
        print({"ActiveState": os.environ.get("FAKE_SWSS", "active"),
               "ActiveEnterTimestampMonotonic": "1"}.get(prop, ""))
        return 0
    return 0


TOOLS = {"config": config_cli, "sonic-cfggen": cfggen, "sonic-db-cli": db_cli,
         "systemctl": systemctl}


def main():
    tool = os.path.basename(sys.argv[0])
    sys.exit(TOOLS[tool](sys.argv[1:]))
