//! ECN as a fill level (issue 34, G4, J2): `ecn min 55% max 90%` is a percentage of what one
//! queue of the class may hold on each switch, resolved into bytes per switch (model) before
//! the checks; Junos writes the level as stated, the other targets the bytes; the read-back
//! of a build finds no ECN difference.

use std::path::{Path, PathBuf};

use fabricc::model::{ClassId, Limits, SwitchId, fill_bytes};
use fabricc::pipeline;
use fabricc::source::Sources;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn checked(rel: &str) -> pipeline::Checked {
    let mut sources = Sources::new();
    pipeline::check(&mut sources, &root().join(rel), &Limits::default()).expect("readable")
}

fn switch(f: &fabricc::model::Fabric, name: &str) -> SwitchId {
    f.switch_ids()
        .find(|&s| f.switch(s).name == name)
        .unwrap_or_else(|| panic!("no switch {name}"))
}

/// Each switch's percent becomes bytes of its own base, the base is the lossless queue
/// buffer of the buffer plan its configuration is lowered with, and two models differ.
#[test]
fn percent_becomes_bytes_per_switch_model() {
    let c = checked("fixtures/build/inputs/ecn-fill-levels.fab");
    let f = c.fabric.as_ref().expect("resolves");
    let lowered = c.lowered.as_ref().expect("lowers");
    let roce = ClassId(0);
    let mut bases = Vec::new();
    for name in ["leaf1", "leaf2", "spine1"] {
        let s = switch(f, name);
        let base = f
            .switch(s)
            .fill_base
            .expect("a base where a level is in force");
        let ctx = lowered
            .switches
            .iter()
            .find(|x| x.device == name)
            .expect("lowered");
        assert_eq!(
            base.lossless, ctx.buffer.lossless_queue_buffer_bytes,
            "{name}"
        );
        let v = f.switch_class(s, roce);
        assert_eq!(v.ecn.min_fill, Some(55_000));
        assert_eq!(v.ecn.max_fill, Some(90_000));
        assert_eq!(
            v.ecn.min.value.get(),
            fill_bytes(55_000, base.lossless),
            "{name}"
        );
        assert_eq!(v.ecn.max.value.get(), base.lossless * 90 / 100, "{name}");
        bases.push(base.lossless);
    }
    // The QFX5240 leaf and spine share a model and cabling class; the EOS 7060X6 leaf has
    // its own buffer plan.
    assert_ne!(bases[0], bases[1]);
    // The link `leaf2 -- spine1` states 45 %: each end takes 45 % of its own base.
    for name in ["leaf2", "spine1"] {
        let s = switch(f, name);
        let base = f.switch(s).fill_base.expect("base").lossless;
        let v = f.switch_class(s, roce);
        let link = f
            .links
            .iter()
            .find(|l| !l.ecn.is_empty())
            .expect("the link with its own ECN");
        let e = v.ecn_on(link);
        assert_eq!(e.min.value.get(), fill_bytes(45_000, base), "{name}");
        assert_eq!(e.max.value.get(), fill_bytes(90_000, base), "{name}");
    }
    // The facts (what the checks judged) carry the same bytes.
    let facts = c.facts.as_ref().expect("facts");
    let leaf1 = facts
        .ecn
        .iter()
        .find(|r| r.switch == "leaf1" && r.class == "roce")
        .expect("leaf1 roce");
    assert_eq!(leaf1.min_bytes, fill_bytes(55_000, bases[0]));
}

/// Without a buffer there is no base: FAB115 at the level, nothing else.
#[test]
fn no_buffer_is_fab115_at_the_percent() {
    let c = checked("fixtures/check/FAB115_fill_level_no_buffer.fab");
    let codes: Vec<&str> = c.diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, ["FAB115"]);
}

/// One statement in bytes beside a class in percent: the checks judge each switch's bytes.
#[test]
fn a_byte_override_beside_a_percent_class_keeps_its_bytes() {
    let text = std::fs::read_to_string(root().join("fixtures/build/inputs/ecn-fill-levels.fab"))
        .expect("readable")
        .replace(
            "switch leaf2 { model th5  tier 1 }",
            "switch leaf2 { model th5  tier 1  ecn roce min 150KB max 1500KB }",
        );
    let mut sources = Sources::new();
    let loaded = fabricc::model::load::load_text(&mut sources, "x.fab", text, &Limits::default());
    let c = pipeline::check_loaded(&sources, loaded, &Limits::default());
    let f = c.fabric.as_ref().expect("resolves");
    let v = f.switch_class(switch(f, "leaf2"), ClassId(0));
    assert_eq!((v.ecn.min.value.get(), v.ecn.min_fill), (150_000, None));
    assert_eq!((v.ecn.max.value.get(), v.ecn.max_fill), (1_500_000, None));
    let v = f.switch_class(switch(f, "leaf1"), ClassId(0));
    assert_eq!(v.ecn.min_fill, Some(55_000));
}

fn build_json(fab: &Path, out: &Path) -> serde_json::Value {
    let o = crate::support::Fabricc::new()
        .args([
            "build",
            fab.to_str().expect("utf-8"),
            "-o",
            out.to_str().expect("utf-8"),
            "--format",
            "json",
        ])
        .run();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).expect("json")
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("ecn-fill")
        .join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Junos writes the stated levels; the read-back of every switch file finds no ECN
/// difference (a stated level is exact on Junos, bytes are bytes elsewhere).
#[test]
fn junos_writes_the_levels_and_readback_finds_no_ecn_difference() {
    let out = scratch("fixture");
    let json = build_json(
        &root().join("fixtures/build/inputs/ecn-fill-levels.fab"),
        &out,
    );
    let rb = &json["readback"];
    // leaf1, spine1 (Junos `qos.conf`), leaf2 (EOS `qos.cfg`, `ports.cfg`), and the four
    // hosts' `fabricc-roce.conf` and `nccl.env`.
    assert_eq!(rb["files"], 12);
    let ecn: Vec<&serde_json::Value> = rb["differences"]
        .as_array()
        .expect("differences")
        .iter()
        .filter(|d| d["property"] != "mtu")
        .collect();
    assert!(ecn.is_empty(), "{ecn:?}");
    let leaf1 = std::fs::read_to_string(out.join("switches/leaf1/qos.conf")).expect("leaf1");
    assert!(leaf1.contains("fill-level [ 55 90 ];"), "{leaf1}");
    let spine1 = std::fs::read_to_string(out.join("switches/spine1/qos.conf")).expect("spine1");
    assert!(spine1.contains("fill-level [ 45 90 ];"), "{spine1}");
    let report = std::fs::read_to_string(out.join("report.md")).expect("report");
    assert!(report.contains("min 55 % of "), "{report}");
    let _ = std::fs::remove_dir_all(&out);
}

/// J2, J14: the JVD design states Juniper's published fill levels, and every switch of its
/// build writes them; it checks with no warning.
#[test]
fn the_jvd_design_writes_junipers_fill_levels() {
    let rel = "fixtures/fabrics/designs/amd-mi300x-jvd-qfx5240.fab";
    let c = checked(rel);
    let warnings: Vec<String> = c
        .diagnostics
        .iter()
        .filter(|d| d.severity <= fabricc::diagnostic::Severity::Warning)
        .map(|d| format!("{} {}", d.code, d.message))
        .collect();
    assert!(warnings.is_empty(), "{warnings:?}");
    let out = scratch("jvd");
    let json = build_json(&root().join(rel), &out);
    let mut switches = 0;
    for e in std::fs::read_dir(out.join("switches")).expect("switches") {
        let conf =
            std::fs::read_to_string(e.expect("entry").path().join("qos.conf")).expect("qos.conf");
        assert!(conf.contains("fill-level [ 55 90 ];"), "{conf}");
        assert!(conf.contains("drop-probability [ 0 100 ];"));
        switches += 1;
    }
    assert_eq!(switches, 12);
    assert!(
        json["readback"]["differences"]
            .as_array()
            .expect("differences")
            .iter()
            .all(|d| d["property"] != "ecn"),
        "{}",
        json["readback"]
    );
    let _ = std::fs::remove_dir_all(&out);
}

/// Issue 34 item 1: `import` keeps ECN in the device's unit. The Junos switches of the
/// fixture state `fill-level [ 55 90 ]`: the imported `.fab` states those percentages (the EOS
/// leaf, which writes bytes, keeps its bytes), checks, and its build writes the same Junos
/// files byte for byte. With the link that states its own levels, import writes that link's
/// `ecn roce …` back, as the second half shows.
#[test]
fn import_keeps_junos_fill_levels_as_percent() {
    use crate::import::{build, check_text, import_named, state_of};
    use crate::import_vendor::with_cables;
    use fabricc::lower::Targets;
    use fabricc::output::generate::{BuildInput, generate};
    use fabricc::render::{ArtifactKind, Templates};
    let dir = scratch("import");
    std::fs::create_dir_all(&dir).expect("scratch");
    let fixture = root().join("fixtures/build/inputs/ecn-fill-levels.fab");
    let text = std::fs::read_to_string(&fixture).expect("fixture");
    let one_level = dir.join("ecn-fill-one-level.fab");
    let edited = text.replace("  ecn roce min 45% max 90% }", " }");
    assert_ne!(text, edited);
    std::fs::write(&one_level, edited).expect("write");
    let junos = |fs: &[fabricc::render::Artifact]| -> Vec<(String, String)> {
        let mut v: Vec<(String, String)> = fs
            .iter()
            .filter(|a| a.kind == ArtifactKind::Switch && a.path.ends_with("qos.conf"))
            .map(|a| (a.path.clone(), a.contents.clone()))
            .collect();
        v.sort();
        v
    };
    let (orig, ofiles) = build(&one_level);
    let state = state_of(one_level.to_str().expect("utf-8"), "ecn-fill-import");
    let (i, _) = import_named(&state, orig.fabric_name().expect("name"));
    assert!(
        i.text.contains(
            "class roce { dscp 26  priority 3  lossless  ecn min 55%  max 90%  probability 10%"
        ),
        "{}",
        i.text
    );
    // The EOS leaf writes the bytes of 55 % and 90 % of its own buffer plan.
    assert!(i.text.contains("    ecn roce min "), "{}", i.text);
    let codes: Vec<&str> = i.diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert!(
        codes.iter().all(|c| ["FAB963", "FAB966"].contains(c)),
        "{codes:?}"
    );
    let c = check_text(
        state.parent().expect("parent"),
        &with_cables("3m", "30m")(i.text.clone()),
    );
    assert_eq!(c.errors(), 0, "{:?}", c.diagnostics);
    let templates = Templates::embedded().expect("templates");
    let ifiles =
        generate(BuildInput::of(&c).expect("input"), Targets::ALL, &templates).expect("builds");
    let (x, y) = (junos(&ofiles), junos(&ifiles));
    assert_eq!(x.len(), 2);
    assert_eq!(x.len(), y.len());
    for ((p, t), (q, u)) in x.iter().zip(&y) {
        assert_eq!(p, q);
        assert!(t.contains("fill-level [ 55 90 ];"), "{t}");
        assert!(t == u, "{p} differs after the round trip:\n{u}");
    }
    // The whole fixture: spine1's port to leaf2 states 45 %, a per-port value the `.fab`
    // states as that link's `ecn roce …` (issue 34, U17), so every Junos file comes back byte
    // for byte.
    let (orig, ofiles) = build(&fixture);
    let state = state_of("ecn-fill-levels.fab", "ecn-fill-import-link");
    let (i, _) = import_named(&state, orig.fabric_name().expect("name"));
    assert!(i.text.contains("ecn min 55%  max 90%"), "{}", i.text);
    assert!(
        i.diagnostics.iter().all(|d| d.code.as_str() != "FAB964"),
        "{:?}",
        i.diagnostics
    );
    assert!(
        i.text
            .contains("    ecn roce min 45%  max 90%  probability 10%\n"),
        "{}",
        i.text
    );
    let c = check_text(
        state.parent().expect("parent"),
        &with_cables("3m", "30m")(i.text.clone()),
    );
    assert_eq!(c.errors(), 0, "{:?}", c.diagnostics);
    let ifiles =
        generate(BuildInput::of(&c).expect("input"), Targets::ALL, &templates).expect("builds");
    let (x, y) = (junos(&ofiles), junos(&ifiles));
    assert_eq!(x, y);
    let _ = std::fs::remove_dir_all(&dir);
}
