#!/usr/bin/env python3
"""Check fabricc's Junos files against Juniper's published YANG models (offline).

Every statement of each `switches/<name>/qos.conf` is placed in the schema tree of Juniper's
Junos-for-QFX configuration models (`junos-qfx-conf-root`, `-interfaces`, `-class-of-service`
and the common modules they import), and every value is checked against its leaf's YANG type
(integer ranges, enumerations, patterns, unions, empty leaves, leaf-lists). Exit 0 when every
statement and value is in the models, else 1. Junos commit rules that the models do not hold
(partitions summing to 100, fill levels rising) are not checked here.

The models come from github.com/Juniper/yang (Apache-2.0), e.g. release 24.2R1.17:
`24.2/24.2R1.17/native/conf-and-rpcs/junos-qfx/conf/models/` and `.../common/models/`. Copy
those files into one folder and pass it with --yang; pyang comes from PyPI into /tmp:

    python3 -m venv /tmp/yang-venv && /tmp/yang-venv/bin/pip install pyang==2.7.1
    /tmp/yang-venv/bin/python scripts/junos_yang_check.py --yang /tmp/junos-yang fixtures/build/junos-2x2

`--root junos-conf-root` checks the files against the Junos OS Evolved models instead (the OS
of the PTX10000 chassis), `24.2/24.2R1-EVO/native/conf-and-rpcs/conf/models/` (`junos-conf-root`,
`-interfaces`, `-class-of-service`) with that release's `common/models/`:

    /tmp/yang-venv/bin/python scripts/junos_yang_check.py --yang /tmp/junos-yang-evo \
        --root junos-conf-root fixtures/build/junos-2x2

Those models have `class-of-service shared-buffer percent` only, no `ingress`/`egress`
`buffer-partition` (23.4R1-EVO to 24.4R1-EVO alike), so today's files are rejected there.

fabricc's file is the configuration group `fabricc` (`groups { replace: fabricc { … } }` and
`apply-groups fabricc`): the models hold the same statements under `groups` as at the top level
(each module augments both `/configuration` and `/configuration/groups`), so the group's
statements are checked in place; the `replace:` tag is skipped.

Nothing of Juniper's is committed.
"""

import argparse
import re
import sys
from pathlib import Path

try:
    from pyang import context, repository
except ImportError:
    print("pyang is not installed (see the module docstring)", file=sys.stderr)
    sys.exit(2)


def tokens(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"(?m)^\s*#.*$", " ", text)
    return re.findall(r'"(?:[^"\\]|\\.)*"|[{};\[\]]|[^\s{};\[\]]+', text)


# Junos CLI User Guide, "Loading Configuration Files"; Junos XML protocol, "Delete Elements".
LOAD_TAGS = ("replace:", "delete:", "inactive:", "protect:")


def parse(toks):
    """Junos curly syntax → [(words, children|None)], `[ a b ]` kept as one list word."""
    out, i = [], 0

    def block(i):
        stmts = []
        while i < len(toks) and toks[i] != "}":
            words = []
            while toks[i] not in ("{", ";"):
                if not words and toks[i] in LOAD_TAGS:
                    # A tag acts while loading (`replace:` under `load replace`), it is not
                    # configuration: the statement it marks is checked as it stands.
                    i += 1
                    continue
                if toks[i] == "[":
                    j = toks.index("]", i)
                    words.append(toks[i + 1:j])
                    i = j + 1
                else:
                    words.append(toks[i].strip('"'))
                    i += 1
            if toks[i] == "{":
                kids, i = block(i + 1)
                stmts.append((words, kids))
                i += 1
            else:
                stmts.append((words, None))
                i += 1
        return stmts, i

    out, _ = block(0)
    return out


def data_children(node):
    for c in getattr(node, "i_children", []):
        if c.keyword in ("choice", "case"):
            yield from data_children(c)
        else:
            yield c


def child(node, name):
    for c in data_children(node):
        if c.arg == name:
            return c
    return None


def check_type(t, value):
    """Whether `value` fits YANG type statement `t` (resolved through typedefs)."""
    name = t.arg.split(":")[-1]
    if name == "union":
        return any(check_type(m, value) for m in t.search("type"))
    if name == "empty":
        return value is None
    if value is None:
        return False
    td = getattr(t, "i_typedef", None)
    if td is not None:
        base = td.search_one("type")
        if not check_type(base, value):
            return False
    if name in ("uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64"):
        if not re.fullmatch(r"-?\d+", value):
            return False
        r = t.search_one("range")
        if r is not None:
            ok = False
            for part in r.arg.split("|"):
                lo, _, hi = part.strip().partition("..")
                lo, hi = lo.strip(), (hi.strip() or lo.strip())
                lo = -(2**63) if lo == "min" else int(lo)
                hi = 2**64 if hi == "max" else int(hi)
                ok |= lo <= int(value) <= hi
            return ok
        return True
    if name == "enumeration":
        return value in [e.arg for e in t.search("enum")]
    if name == "string":
        for p in t.search("pattern"):
            if not re.fullmatch(p.arg, value):
                return False
        ln = t.search_one("length")
        if ln is not None:
            lo, _, hi = ln.arg.split("|")[0].partition("..")
            if hi.strip() not in ("", "max") and len(value) > int(hi):
                return False
        return True
    return True


class Checker:
    def __init__(self, root):
        self.root = root
        self.errors = []

    def err(self, path, msg):
        self.errors.append(f"{' '.join(path)}: {msg}")

    def leaf(self, node, value, path):
        t = node.search_one("type")
        if node.keyword == "leaf-list":
            values = value if isinstance(value, list) else [value]
            if len(set(values)) != len(values):
                self.err(path, f"duplicate value in leaf-list {values}")
            for v in values:
                if not check_type(t, v):
                    self.err(path, f"`{v}` is not a valid {node.arg} ({t.arg})")
        elif isinstance(value, list) or not check_type(t, value):
            self.err(path, f"`{value}` is not a valid {node.arg} ({t.arg})")

    def flat(self, node, words, path):
        """`a 1 b c 2;` inside node: leaf/value pairs, empty leaves, keyed lists."""
        while words:
            w = words[0]
            c = child(node, w) if isinstance(w, str) else None
            if c is None:
                self.err(path, f"`{w}` is not a statement here")
                return
            p = path + [w]
            words = words[1:]
            if c.keyword in ("leaf", "leaf-list"):
                if c.search_one("type").arg == "empty":
                    self.leaf(c, None, p)
                else:
                    if not words:
                        self.err(p, "value missing")
                        return
                    self.leaf(c, words[0], p)
                    words = words[1:]
            elif c.keyword == "list":
                words = self.list_entry(c, words, None, p)
            elif c.keyword == "container":
                self.flat(c, words, p)
                return

    def list_entry(self, lst, words, kids, path):
        keys = (lst.search_one("key").arg.split() if lst.search_one("key") else [])
        for k in keys:
            # Junos writes the key names of a list with several keys.
            if len(keys) > 1 and words and words[0] == k:
                words = words[1:]
            if not words:
                self.err(path, f"key `{k}` missing")
                return []
            kn = child(lst, k)
            if kn is not None:
                self.leaf(kn, words[0], path + [str(words[0])])
            words = words[1:]
        if kids is not None:
            if words:
                self.flat(lst, words, path)
            self.block(lst, kids, path)
            return []
        return words

    def block(self, node, stmts, path):
        for words, kids in stmts:
            first = words[0]
            c = child(node, first)
            p = path + [first]
            if c is None:
                # Junos lists written without their keyword (`interfaces { et-0/0/0 { … } }`).
                implied = child(node, "interface")
                if implied is not None and implied.keyword == "list":
                    self.list_entry(implied, words, kids, path + ["interface"])
                    continue
                self.err(p, "not a statement here")
                continue
            rest = words[1:]
            if c.keyword in ("leaf", "leaf-list"):
                if kids is not None:
                    self.err(p, "a leaf takes no block")
                elif c.search_one("type").arg == "empty" and not rest:
                    self.leaf(c, None, p)
                elif len(rest) == 1:
                    self.leaf(c, rest[0], p)
                else:
                    self.flat(node, words, path)
            elif c.keyword == "list" and not rest and kids is not None:
                # `drop-profiles { NAME { … } }`: each statement of the block is an entry.
                for w, k in kids:
                    left = self.list_entry(c, w, k, p)
                    if left:
                        self.flat(c, left, p)
            elif c.keyword == "list":
                left = self.list_entry(c, rest, kids, p)
                if left:
                    self.flat(c, left, p)
            elif c.keyword == "container":
                if kids is not None:
                    # `family inet { … }` is Junos's form of `family { inet { … } }`: the
                    # block belongs to the innermost container the words name.
                    while rest and isinstance(rest[0], str):
                        inner = child(c, rest[0])
                        if inner is None or inner.keyword != "container":
                            break
                        c, p, rest = inner, p + [rest[0]], rest[1:]
                    if rest:
                        self.flat(c, rest, p)
                    self.block(c, kids, p)
                elif rest:
                    self.flat(c, rest, p)
            else:
                self.err(p, f"unexpected {c.keyword}")


def load(yang_dir, root_name="junos-qfx-conf-root"):
    repo = repository.FileRepository(str(yang_dir), use_env=False)
    ctx = context.Context(repo)
    mods = []
    for f in sorted(Path(yang_dir).glob("*.yang")):
        m = ctx.add_module(str(f), f.read_text())
        if m is not None:
            mods.append(m)
    ctx.validate()
    root = ctx.get_module(root_name)
    if root is None:
        sys.exit(root_name + " is not in " + str(yang_dir))
    conf = child(root, "configuration")
    return conf


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--yang", required=True, help="folder with the Junos QFX YANG modules")
    ap.add_argument(
        "--root",
        default="junos-qfx-conf-root",
        help="the configuration root module: junos-qfx-conf-root (Junos for QFX, the default) "
        "or junos-conf-root (Junos OS Evolved, the PTX chassis)",
    )
    ap.add_argument("folders", nargs="+")
    a = ap.parse_args()
    conf = load(a.yang, a.root)
    files = sorted(p for f in a.folders for p in Path(f).glob("switches/*/qos.conf"))
    if not files:
        print("no switches/*/qos.conf found", file=sys.stderr)
        return 2
    bad = 0
    for path in files:
        stmts = parse(tokens(path.read_text()))
        c = Checker(conf)
        c.block(conf, stmts, [])
        n = sum(1 for _ in re.finditer(r"[;{]", path.read_text()))
        if c.errors:
            bad += 1
            print(f"{path}: REJECTED ({len(c.errors)} errors)")
            for e in c.errors:
                print("  " + e)
        else:
            print(f"{path}: ACCEPTED, {n} statements in the models")
    print(f"{len(files) - bad} of {len(files)} files accepted")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
