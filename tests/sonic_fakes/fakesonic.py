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


def start_daemons(db):
    config = db["CONFIG_DB"]
    model = config.get("DEVICE_METADATA", {}).get("localhost", {}).get("buffer_model", "traditional")
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
    for port, fields in config.get("PORT", {}).items():
        if port in unresolved:
            continue  # never initialised: no oper_status
        appl[f"PORT_TABLE:{port}"] = {"oper_status": "up" if fields.get("admin_status") == "up" else "down"}
    db["APPL_DB"] = appl
    db["LOG"] = errors


def dump(config):
    # `f@` is printed as a list under `f` (ConfigDBConnector.raw_to_typed).
    typed = {
        t: {k: {f[:-1] if f.endswith("@") else f: v.split(",") if f.endswith("@") else v
                for f, v in fields.items()}
            for k, fields in rows.items()}
        for t, rows in config.items()
    }
    return json.dumps(typed, indent=4, sort_keys=True)


# ---- tools ---------------------------------------------------------------------------------

def config_cli(args):
    log("config", args)
    db = load()
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
