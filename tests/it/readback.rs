//! Issue 34 item 2: every build reads back its own switch files with the import readers and
//! compares the device model they give with the model the checks proved
//! (`fabricc::import::readback`). On the build goldens of all five targets the read-back equals
//! the proven model, up to the rounding of the device's unit (cells, kbytes, fill levels); a
//! file that says something else is a difference, grouped per device and property.

use std::path::Path;

use crate::import::{build, root};
use fabricc::import::readback::{self, Readback};
use fabricc::render::Artifact;

fn read_back(fixture: &Path) -> (Readback, Vec<Artifact>, fabricc::pipeline::Checked) {
    let (checked, files) = build(fixture);
    let switches = &checked.lowered.as_ref().unwrap().switches;
    (readback::readback(switches, &files), files, checked)
}

fn beyond_rounding(r: &Readback) -> Vec<String> {
    r.differences
        .iter()
        .filter(|d| !d.within_unit)
        .map(|d| format!("{d:?}"))
        .collect()
}

#[test]
fn goldens_of_all_five_targets_read_back_as_proven() {
    for f in [
        "sonic-sn5600-2x2.fab",
        "cumulus-2x2.fab",
        "cumulus-lossless2.fab",
        "eos-7060x6.fab",
        "eos-7280r4.fab",
        "nxos-2x2.fab",
        "nxos-300m.fab",
        "junos-2x2.fab",
        "junos-qfx5230.fab",
        "amd-mi300x-jvd-junos.fab",
        "amd-mi300x-jvd-sonic.fab",
    ] {
        let (r, _, _) = read_back(&root().join("fixtures/build/inputs").join(f));
        assert!(r.files > 0, "{f}");
        assert_eq!(beyond_rounding(&r), Vec::<String>::new(), "{f}");
        // Every switch equals its proven model up to rounding.
        let switches = std::fs::read_dir(
            root()
                .join("fixtures/build")
                .join(f.trim_end_matches(".fab"))
                .join("switches"),
        )
        .map_or(0, |d| d.count());
        if switches > 0 {
            assert_eq!(r.equal, switches, "{f}");
        }
    }
}

/// Each switch file of `device` edited by `f`, then read back.
fn tampered(fixture: &str, device: &str, f: impl Fn(&str) -> String) -> Readback {
    let (checked, mut files) = build(&root().join("fixtures/build/inputs").join(fixture));
    let mut changed = false;
    for a in files.iter_mut().filter(|a| a.device == device) {
        let t = f(&a.contents);
        changed |= t != a.contents;
        a.contents = t;
    }
    assert!(changed, "{fixture}: the edit changed nothing");
    let switches = &checked.lowered.as_ref().unwrap().switches;
    readback::readback(switches, &files)
}

#[test]
fn a_file_that_says_something_else_is_a_difference_grouped_per_device() {
    // Junos: ECN max at 40 % of the queue, far beyond one fill level of the proven 1.5 MB.
    let r = tampered("junos-2x2.fab", "leaf1", |t| {
        t.replace("fill-level [ 1 2 ];", "fill-level [ 1 40 ];")
    });
    let d: Vec<_> = r.differences.iter().filter(|d| !d.within_unit).collect();
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(
        (
            d[0].device.as_str(),
            d[0].property,
            d[0].what.as_str(),
            d[0].count
        ),
        ("leaf1", "ecn", "queue 3 max", 8)
    );
    assert_eq!(
        (d[0].proven.as_str(), d[0].written.as_str()),
        ("1500000 B", "29405600 B")
    );
    assert_eq!(r.equal, 3);
    // NX-OS: PFC off on one port: one difference with a count of 1.
    let r = tampered("nxos-2x2.fab", "leaf2", |t| {
        crate::import::replace_after(
            t,
            "interface Ethernet1/3\n",
            "priority-flow-control mode on",
            "priority-flow-control mode off",
        )
    });
    let d: Vec<_> = r.differences.iter().filter(|d| !d.within_unit).collect();
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(
        (
            d[0].property,
            d[0].proven.as_str(),
            d[0].written.as_str(),
            d[0].count
        ),
        ("pfc", "3", "none", 1)
    );
    assert_eq!(d[0].ports, vec!["Ethernet1/3".to_string()]);
    // EOS: DSCP 26 to another traffic class on every port of the switch.
    let r = tampered("eos-7060x6.fab", "leaf1", |t| {
        t.replace(
            "qos map dscp 26 to traffic-class 3",
            "qos map dscp 26 to traffic-class 0",
        )
    });
    let d: Vec<_> = r.differences.iter().filter(|d| !d.within_unit).collect();
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!((d[0].property, d[0].what.as_str()), ("dscp", "DSCP 26"));
    assert!(d[0].count > 1, "{d:?}");
}
