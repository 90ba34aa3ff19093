#!/usr/bin/env python3
"""Check fabricc's EOS files against Arista AVD's own model and renderer (offline).

For each `switches/<name>/qos.cfg` under the given build folders (with its `ports.cfg`, and
without the removal lines that make a change converge): read the lines fabricc wrote back into AVD structured config (`qos_profiles`, `ethernet_interfaces`, `qos.map`,
`priority_flow_control`, `platform.trident.mmu`), validate it against AVD's
`eos_cli_config_gen` schema, render it with AVD, and compare the two configurations line by
line, each line keyed by its parent lines. Exit 0 when every file validates and every
configuration line of fabricc's file is one AVD renders (same text, same parent), else 1.
Comments (`!`) are not compared: AVD writes none but `!!` ones.

Needs pyavd (Arista AVD, Apache-2.0), installed into a virtual environment under /tmp:

    python3 -m venv /tmp/avd-venv && /tmp/avd-venv/bin/pip install pyavd==6.4.0
    /tmp/avd-venv/bin/python scripts/eos_avd_oracle.py fixtures/build/eos-7060x6 ...

Nothing of AVD is committed; `scripts/oracles.sh` does the above and skips when pip cannot
reach the package index.
"""

import re
import sys
from pathlib import Path

try:
    import pyavd
except ImportError:
    print("pyavd is not installed (see the module docstring)", file=sys.stderr)
    sys.exit(2)


# Top-level lines AVD 6.4's eos_cli_config_gen has no key for: reported, never compared.
# `ip load-sharing trident fields ip …` (issue 20 item 4) is in Arista's EOS manual, not AVD.
UNMODELLED = ("ip load-sharing trident fields ip ",)


def parse(text):
    """fabricc's qos.cfg → AVD structured config."""
    sc = {"hostname": "fabricc-oracle"}
    profiles, interfaces, maps = [], [], []
    # An MLAG pair's blocks (issue 18): AVD's vlans, port_channel_interfaces, vlan_interfaces
    # and mlag_configuration.
    vlans, channels, svis, mlag = [], [], [], {}
    pfc = {}
    mmu = {}
    block = None  # ('profile', dict) | ('queue', dict) | ('interface', dict) | ('mmu', dict)
    for raw in text.splitlines():
        line = raw.rstrip()
        s = line.strip()
        if not s or (s.startswith("!") and not s.startswith("!!")):
            continue
        indent = len(line) - len(line.lstrip())
        if indent == 0:
            block = None
            if m := re.fullmatch(r"qos profile (\S+)", s):
                p = {"name": m[1]}
                profiles.append(p)
                block = ("profile", p)
            elif m := re.fullmatch(r"interface (Port-Channel\d+)", s):
                i = {"name": m[1]}
                channels.append(i)
                block = ("channel", i)
            elif m := re.fullmatch(r"interface (Vlan\d+)", s):
                i = {"name": m[1]}
                svis.append(i)
                block = ("svi", i)
            elif m := re.fullmatch(r"interface (\S+)", s):
                i = {"name": m[1]}
                interfaces.append(i)
                block = ("interface", i)
            elif m := re.fullmatch(r"no spanning-tree vlan-id (\S+)", s):
                sc["spanning_tree"] = {"no_spanning_tree_vlan": m[1]}
            elif m := re.fullmatch(r"vlan (\d+)", s):
                v = {"id": int(m[1])}
                vlans.append(v)
                block = ("vlan", v)
            elif s == "mlag configuration":
                block = ("mlag", mlag)
            elif s.startswith(UNMODELLED):
                pass
            elif m := re.fullmatch(r"platform trident mmu queue profile (\S+) apply", s):
                mmu["active_profile"] = m[1]
            elif m := re.fullmatch(r"platform trident mmu queue profile (\S+)", s):
                q = {"name": m[1], "ingress": {}}
                mmu.setdefault("queue_profiles", []).append(q)
                block = ("mmu", q)
            elif s.startswith("qos map "):
                maps.append(s[len("qos map "):])
            elif m := re.fullmatch(r"priority-flow-control pause watchdog default (timeout|recovery-time|polling-interval) (\S+)", s):
                key = {"timeout": "timeout", "recovery-time": "recovery_time", "polling-interval": "polling_interval"}[m[1]]
                pfc.setdefault("watchdog", {})[key] = m[2]
            elif m := re.fullmatch(r"priority-flow-control pause watchdog action (\S+)", s):
                pfc.setdefault("watchdog", {})["action"] = m[1]
            else:
                raise ValueError(f"unknown top-level line: {s}")
            continue
        kind, obj = block if block else (None, None)
        if kind == "mmu":
            if m := re.fullmatch(r"ingress headroom (bytes|cells) (\d+)", s):
                obj["ingress"]["headroom"] = {"unit": m[1], "memory": int(m[2])}
            elif m := re.fullmatch(r"ingress priority-group (\d) threshold (\S+)", s):
                obj["ingress"].setdefault("priority_groups", []).append({"id": int(m[1]), "threshold": m[2]})
            else:
                raise ValueError(f"unknown mmu line: {s}")
        elif kind in ("profile", "queue"):
            prof = obj if kind == "profile" else block_profile
            if m := re.fullmatch(r"(uc-tx-queue|tx-queue) (\d)", s):
                q = {"id": int(m[2])}
                key = "uc_tx_queues" if m[1] == "uc-tx-queue" else "tx_queues"
                prof.setdefault(key, []).append(q)
                block_profile = prof
                block = ("queue", q)
            elif kind == "profile" or indent <= 3:
                if s == "qos trust dscp":
                    prof["trust"] = "dscp"
                elif s == "priority-flow-control on":
                    prof.setdefault("priority_flow_control", {})["enabled"] = True
                elif m := re.fullmatch(r"priority-flow-control priority (\d) no-drop", s):
                    prof.setdefault("priority_flow_control", {}).setdefault("priorities", []).append({"priority": int(m[1]), "no_drop": True})
                elif s == "priority-flow-control pause watchdog":
                    prof.setdefault("priority_flow_control", {}).setdefault("watchdog", {})["enabled"] = True
                else:
                    raise ValueError(f"unknown profile line: {s}")
                block_profile = prof
            else:
                q = obj
                if m := re.fullmatch(r"!! (.*)", s):
                    q["comment"] = m[1]
                elif s == "no priority":
                    q["priority"] = "no priority"
                elif s == "priority strict":
                    q["priority"] = "priority strict"
                elif m := re.fullmatch(r"bandwidth percent (\d+)", s):
                    q["bandwidth_percent"] = int(m[1])
                elif m := re.fullmatch(r"random-detect ecn minimum-threshold (\d+) (\S+) maximum-threshold (\d+) (\S+) max-mark-probability (\d+) weight (\d+)", s):
                    if m[2] != m[4]:
                        raise ValueError(f"two units in one ECN line: {s}")
                    q.setdefault("random_detect", {}).setdefault("ecn", {})["threshold"] = {
                        "units": m[2], "min": int(m[1]), "max": int(m[3]),
                        "max_probability": int(m[5]), "weight": int(m[6])}
                elif m := re.fullmatch(r"shape rate (\d+ percent)", s):
                    q["shape"] = {"rate": m[1]}
                elif s == "random-detect ecn count":
                    q.setdefault("random_detect", {}).setdefault("ecn", {})["count"] = True
                else:
                    raise ValueError(f"unknown queue line: {s}")
        elif kind == "interface":
            if m := re.fullmatch(r"description (.*)", s):
                obj["description"] = m[1]
            elif m := re.fullmatch(r"mtu (\d+)", s):
                obj["mtu"] = int(m[1])
            elif m := re.fullmatch(r"speed (\S+)", s):
                # A broken-out cage's sub-port (issue 18): AVD's `speed` key.
                obj["speed"] = m[1]
            elif s == "no switchport":
                obj["switchport"] = {"enabled": False}
            elif m := re.fullmatch(r"service-profile (\S+)", s):
                obj["service_profile"] = m[1]
            elif m := re.fullmatch(r"channel-group (\d+) mode (active|on)", s):
                obj["channel_group"] = {"id": int(m[1]), "mode": m[2]}
            else:
                raise ValueError(f"unknown interface line: {s}")
        elif kind == "vlan":
            if m := re.fullmatch(r"name (\S+)", s):
                obj["name"] = m[1]
            elif m := re.fullmatch(r"trunk group (\S+)", s):
                obj.setdefault("trunk_groups", []).append(m[1])
            else:
                raise ValueError(f"unknown vlan line: {s}")
        elif kind == "channel":
            if m := re.fullmatch(r"description (.*)", s):
                obj["description"] = m[1]
            elif m := re.fullmatch(r"mlag (\d+)", s):
                obj["mlag"] = int(m[1])
            elif s == "switchport mode trunk":
                obj.setdefault("switchport", {})["mode"] = "trunk"
            elif m := re.fullmatch(r"switchport trunk group (\S+)", s):
                obj.setdefault("switchport", {}).setdefault("trunk", {}).setdefault("groups", []).append(m[1])
            else:
                raise ValueError(f"unknown port-channel line: {s}")
        elif kind == "svi":
            if m := re.fullmatch(r"description (.*)", s):
                obj["description"] = m[1]
            elif s == "no autostate":
                obj["no_autostate"] = True
            elif m := re.fullmatch(r"ip address (\S+)", s):
                obj["ip_address"] = m[1]
            else:
                raise ValueError(f"unknown vlan interface line: {s}")
        elif kind == "mlag":
            if m := re.fullmatch(r"(domain-id|local-interface|peer-address|peer-link) (\S+)", s):
                obj[m[1].replace("-", "_")] = m[2]
            else:
                raise ValueError(f"unknown mlag line: {s}")
        else:
            raise ValueError(f"line outside a block: {s}")
    if profiles:
        sc["qos_profiles"] = profiles
    if interfaces:
        sc["ethernet_interfaces"] = interfaces
    if vlans:
        sc["vlans"] = vlans
    if channels:
        sc["port_channel_interfaces"] = channels
    if svis:
        sc["vlan_interfaces"] = svis
    if mlag:
        sc["mlag_configuration"] = mlag
    if maps:
        sc["qos"] = {"map": {}}
        for m in maps:
            kind, rest = m.split(" ", 1)
            key = {"dscp": "dscp", "cos": "cos", "traffic-class": "traffic_class"}[kind]
            sc["qos"]["map"].setdefault(key, []).append(rest)
    if pfc:
        sc["priority_flow_control"] = pfc
    if mmu:
        sc["platform"] = {"trident": {"mmu": mmu}}
    return sc


# `no …` lines a running-config keeps as settings; every other `no …` line of a fabricc file
# removes what an earlier build wrote before it is written again (issue 33), which AVD, a
# renderer of whole configurations, has no form for: the oracle reads what a fresh apply
# leaves.
STORED_NEGATIONS = {"no switchport", "no priority", "no autostate", "no shutdown"}


def effective(qos, ports=""):
    """qos.cfg (and ports.cfg, its port mode and speed, merged into the same interfaces)
    without the removal lines: the configuration a fresh apply of both leaves."""
    extra, current = {}, None
    for raw in ports.splitlines():
        s = raw.strip()
        if not s or s.startswith("!"):
            continue
        if raw == raw.lstrip():
            current = s
            extra.setdefault(current, [])
        elif current:
            extra[current].append(raw.rstrip())
    out = []
    for raw in qos.splitlines():
        s = raw.strip()
        if s.startswith("no ") and s not in STORED_NEGATIONS:
            continue
        out.append(raw)
        if raw == raw.lstrip() and s in extra:
            out.extend(extra.pop(s))
    for header, lines in extra.items():
        out.append(header)
        out.extend(lines)
    return "\n".join(out) + "\n"


def read(path):
    """A switch's qos.cfg with its ports.cfg, as `effective` reads them."""
    ports = path.with_name("ports.cfg")
    return effective(path.read_text(), ports.read_text() if ports.exists() else "")


def keyed(text):
    """Configuration lines keyed by their parents: {(parent..., line)}."""
    out, stack = set(), []
    for raw in text.splitlines():
        line = raw.rstrip()
        s = line.strip()
        if not s or s == "!" or (s.startswith("!") and not s.startswith("!!")) or s == "end":
            continue
        indent = len(line) - len(line.lstrip())
        while stack and stack[-1][0] >= indent:
            stack.pop()
        out.add(tuple(x[1] for x in stack) + (s,))
        stack.append((indent, s))
    return out


def main(folders):
    # NX-OS files share the name: only EOS's header is read.
    files = sorted(
        p
        for f in folders
        for p in Path(f).glob("switches/*/qos.cfg")
        if p.read_text().startswith("! fabricc: Arista EOS")
    )
    if not files:
        print("no switches/*/qos.cfg under " + " ".join(folders), file=sys.stderr)
        return 2
    bad = 0
    for path in files:
        ours = read(path)
        try:
            sc = parse(ours)
        except ValueError as e:
            print(f"{path}: REJECTED by the reader: {e}")
            bad += 1
            continue
        result = pyavd.validate_structured_config(sc)
        errors = [f"{'.'.join(map(str, v.path))}: {v.message}" for v in result.validation_result.violations]
        if errors or result.validated_data is None:
            print(f"{path}: REJECTED by AVD's schema:")
            for e in errors:
                print(f"  {e}")
            bad += 1
            continue
        theirs = pyavd.get_device_config(result.validated_data)
        mine, avd = keyed(ours), keyed(theirs)
        unchecked = sorted(l for l in mine if len(l) == 1 and l[0].startswith(UNMODELLED))
        for l in unchecked:
            print(f"{path}: not in AVD's model, not checked: {l[0]}")
        mine -= set(unchecked)
        avd.discard(("hostname fabricc-oracle",))
        only_ours = sorted(mine - avd)
        only_avd = sorted(avd - mine)
        if only_ours or only_avd:
            bad += 1
            print(f"{path}: {len(mine & avd)} lines in common, {len(only_ours)} only in fabricc, {len(only_avd)} only in AVD")
            for l in only_ours:
                print("  fabricc only: " + " / ".join(l))
            for l in only_avd:
                print("  AVD only:     " + " / ".join(l))
        else:
            print(f"{path}: ACCEPTED, {len(mine)} lines equal to AVD's rendering")
    print(f"{len(files) - bad} of {len(files)} files accepted")
    return 1 if bad else 0


# Faults the oracle must catch (the review findings E1, E3, E4 and a bad MMU threshold):
# (description, line of a good file, its faulty replacement), in the EOS leaf's file; and
# faults of an MLAG pair (issue 18) in a dual-ToR ToR's file.
GOOD = "fixtures/build/eos-7060x6/switches/leaf1/qos.cfg"
MLAG_GOOD = "fixtures/build/eos-dual-tor-mlag/switches/tor1/qos.cfg"
MLAG_MUTANTS = [
    ("MLAG peer link keyword", "   peer-link Port-Channel2000\n", "   peer-link Port-Channel 2000\n"),
    ("LACP mode typo", "channel-group 1 mode active", "channel-group 1 mode activ"),
    ("trunk group without switchport", "   switchport trunk group MLAGPEER", "   trunk group MLAGPEER"),
    ("MLAG id 0", "   mlag 1\n", "   mlag 0\n"),
]
MUTANTS = [
    ("E3 three-decimal timeout", "timeout 0.2\n", "timeout 0.205\n"),
    ("E1 action no-drop", "action drop\n", "action no-drop\n"),
    ("E4 two units", "maximum-threshold 1500000 bytes", "maximum-threshold 1500 kbytes"),
    ("MMU threshold 3", "threshold 1\n", "threshold 3\n"),
]


def self_test():
    """Each mutant of a good file must be rejected; the good file must pass."""
    import tempfile
    files = {GOOD: read(Path(GOOD)), MLAG_GOOD: read(Path(MLAG_GOOD))}
    cases = (
        [(GOOD, "unchanged", "", "")]
        + [(GOOD, *m) for m in MUTANTS]
        + [(MLAG_GOOD, "MLAG unchanged", "", "")]
        + [(MLAG_GOOD, *m) for m in MLAG_MUTANTS]
    )
    failures = 0
    with tempfile.TemporaryDirectory() as d:
        for i, (source, what, old, new) in enumerate(cases):
            good = files[source]
            folder = Path(d) / str(i) / "switches" / "x"
            folder.mkdir(parents=True)
            text = good.replace(old, new, 1) if old else good
            if old and text == good:
                print(f"self-test: {what}: the good file has no `{old.strip()}`")
                failures += 1
                continue
            (folder / "qos.cfg").write_text(text)
            import contextlib, io
            with contextlib.redirect_stdout(io.StringIO()):
                code = main([str(Path(d) / str(i))])
            want = 0 if not old else 1
            print(f"self-test: {what}: {'ok' if code == want else 'MISSED'}")
            failures += code != want
    return 1 if failures else 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    sys.exit(main(sys.argv[1:] or ["fixtures/build"]))
