#!/bin/sh
# Builds fuzz/corpus/<target>/ from the fixtures: every .fab under fixtures/ for `check` and
# `generate` (copies; names from the path, since several fixtures share a file name), and
# for `yaml` the YAML export of every .fab that resolves plus every .yaml fixture. Run from
# anywhere; the YAML seeds need the release binary (built here if missing).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
for target in check generate; do
    dir="$here/corpus/$target"
    mkdir -p "$dir"
    find "$root/fixtures" -name '*.fab' -type f | sort | while read -r f; do
        rel=${f#"$root/fixtures/"}
        cp "$f" "$dir/$(printf '%s' "$rel" | tr '/' '_')"
    done
    echo "$dir: $(find "$dir" -type f | wc -l) files"
done
dir="$here/corpus/yaml"
mkdir -p "$dir"
cargo build --release -q --manifest-path "$root/Cargo.toml"
bin="$root/target/release/fabricc"
find "$root/fixtures" -name '*.fab' -type f -size -64k | sort | while read -r f; do
    rel=${f#"$root/fixtures/"}
    out="$dir/$(printf '%s' "${rel%.fab}" | tr '/' '_').yaml"
    "$bin" export "$f" >"$out" 2>/dev/null || rm -f "$out"
done
find "$root/fixtures" -name '*.yaml' -type f | sort | while read -r f; do
    rel=${f#"$root/fixtures/"}
    cp "$f" "$dir/$(printf '%s' "$rel" | tr '/' '_')"
done
echo "$dir: $(find "$dir" -type f | wc -l) files"
# `state`: the realistic device configurations of the verify tests, as the devices print them.
dir="$here/corpus/state"
mkdir -p "$dir"
find "$root/tests/data/verify" -type f ! -name README.md | sort | while read -r f; do
    rel=${f#"$root/tests/data/verify/"}
    cp "$f" "$dir/$(printf '%s' "$rel" | tr '/' '_')"
done
echo "$dir: $(find "$dir" -type f | wc -l) files"
# `import_eos`, `import_nxos`: the EOS and NX-OS running-configs of the verify tests and the
# build goldens' switch files (a fresh apply's running-config is those files).
for os in eos nxos; do
    dir="$here/corpus/import_$os"
    mkdir -p "$dir"
    find "$root/tests/data/verify" -type f -path "*$os*" | sort | while read -r f; do
        rel=${f#"$root/tests/data/verify/"}
        cp "$f" "$dir/$(printf '%s' "$rel" | tr '/' '_')"
    done
    find "$root/fixtures/build" -type f -path "*/$os-*/switches/*" -name '*.cfg' | sort | while read -r f; do
        rel=${f#"$root/fixtures/build/"}
        cp "$f" "$dir/$(printf '%s' "$rel" | tr '/' '_')"
    done
    echo "$dir: $(find "$dir" -type f | wc -l) files"
done
# `import_junos`: the Junos configurations of the verify tests and the build goldens'
# `qos.conf` (curly; `| display set` forms are in the verify tests).
dir="$here/corpus/import_junos"
mkdir -p "$dir"
find "$root/tests/data/verify" -type f -path "*junos*" | sort | while read -r f; do
    rel=${f#"$root/tests/data/verify/"}
    cp "$f" "$dir/$(printf '%s' "$rel" | tr '/' '_')"
done
find "$root/fixtures/build" -type f -path "*junos*/switches/*" -name '*.conf' | sort | while read -r f; do
    rel=${f#"$root/fixtures/build/"}
    cp "$f" "$dir/$(printf '%s' "$rel" | tr '/' '_')"
done
echo "$dir: $(find "$dir" -type f | wc -l) files"
# `import_vrp`, `import_comware`: the build goldens' `qos.cfg` (a fresh apply's
# `display current-configuration` holds those lines) and the verify tests' files, if any.
for os in vrp comware; do
    dir="$here/corpus/import_$os"
    mkdir -p "$dir"
    find "$root/tests/data/verify" -type f -path "*$os*" | sort | while read -r f; do
        rel=${f#"$root/tests/data/verify/"}
        cp "$f" "$dir/$(printf '%s' "$rel" | tr '/' '_')"
    done
    find "$root/fixtures/build" -type f -path "*/$os-*/switches/*" -name '*.cfg' | sort | while read -r f; do
        rel=${f#"$root/fixtures/build/"}
        cp "$f" "$dir/$(printf '%s' "$rel" | tr '/' '_')"
    done
    echo "$dir: $(find "$dir" -type f | wc -l) files"
done
