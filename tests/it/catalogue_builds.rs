//! The generated test over the catalogue (issue 38): every switch platform builds a minimal
//! fabric on every OS it lists. The fabric is a leaf and a spine of the platform, one host on
//! the leaf, the leaf-spine link at the platform's fastest cage speed; the model says no more
//! than the catalogue leaves open (`ports` where it records no cages, `buffer` where it records
//! none, one `linecard` per chassis slot), so a number the catalogue lacks or gets wrong shows
//! as the finding that stops `build` (`check` runs every target's view, so it fails whenever
//! `build` would), reported with the platform's name. Where the catalogue records that an OS
//! stops on a finding for lack of a public number (`os[].build_finding`), the build must stop
//! on exactly that code, so a marker that no longer holds fails too.

use fabricc::catalogue::{Platform, catalogue};
use fabricc::model::{Limits, Os};
use fabricc::pipeline;
use fabricc::source::Sources;

/// What the model says on `p` besides `platform` and `os`: one `linecard` per chassis slot,
/// and `ports` where the catalogue records no cages (a model without ports has nothing to
/// build). A missing buffer is not filled in: it is FAB111, which the entry must record.
fn model_extras(p: &Platform) -> String {
    let mut extra = String::new();
    if let Some(ch) = &p.chassis {
        let card = &ch.linecards[0];
        extra.push_str(&format!(
            "  linecard {}..{} {}",
            ch.slots.first, ch.slots.last, card.name
        ));
        return extra;
    }
    if p.cages.is_empty() {
        extra.push_str("  ports 32 x 400G");
    }
    extra
}

/// The speed of the leaf-spine link, Gb/s: the fastest front-panel cage.
fn uplink_gbps(p: &Platform) -> u32 {
    let cages = match &p.chassis {
        Some(ch) => ch.linecards[0].cages.iter().map(|c| c.speed_gbps).max(),
        None => p.fabric_cages().map(|c| c.speed_gbps).max(),
    };
    cages.unwrap_or(400)
}

/// The minimal fabric of `p` on `os`.
fn fabric_text(p: &Platform, os: Os) -> String {
    let up = uplink_gbps(p);
    // The host runs at most 400G (a NIC port's fastest Ethernet speed in the catalogue).
    let host = up.min(400);
    format!(
        "fabric catalogue {{
  class roce {{ dscp 26  priority 3  lossless  bandwidth 50% }}
  class cnp  {{ dscp 48  priority 6  strict  cnp }}
  class bulk {{ dscp other  priority 0  bandwidth 50% }}
  switch-model sw {{ platform {name}  os {os}{extras} }}
  nic-model nic {{ driver mlx5  speed {host}G }}
  switch L1 {{ model sw  tier 1 }}
  switch S1 {{ model sw  tier 2 }}
  host h1 {{ nic nic }}
  link h1 -- L1 {{ cable 2m  speed {host}G }}
  link L1 -- S1 {{ cable 3m  speed {up}G }}
}}
",
        name = p.name,
        os = os.as_str(),
        extras = model_extras(p),
    )
}

/// The errors `check` (and so `build`) reports for `p` on `os`, as `CODE message` lines.
pub(crate) fn errors(p: &Platform, os: Os) -> Vec<String> {
    let text = fabric_text(p, os);
    let mut sources = Sources::new();
    let loaded = fabricc::model::load::load_text(&mut sources, "t.fab", text, &Limits::default());
    let checked = pipeline::check_loaded(&sources, loaded, &Limits::default());
    let mut errors: Vec<String> = checked
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| format!("{} {}", d.code, d.message))
        .collect();
    if errors.is_empty() && checked.lowered.is_none() {
        errors.push("nothing lowered".into());
    }
    errors
}

#[test]
fn every_catalogue_switch_builds_a_minimal_fabric_on_each_of_its_oses() {
    let mut failures = Vec::new();
    let mut built = 0;
    for p in &catalogue().switches {
        assert!(!p.oses().is_empty(), "{}: no OS", p.name);
        for support in &p.os {
            let os = support
                .os()
                .unwrap_or_else(|| panic!("{}: OS {}", p.name, support.os));
            let e = errors(p, os);
            match &support.build_finding {
                None if e.is_empty() => built += 1,
                None => failures.push(format!("{} on {}: {}", p.name, os.as_str(), e.join("; "))),
                Some(f) if e.iter().any(|x| x.starts_with(&format!("{} ", f.code))) => {
                    let others: Vec<&String> =
                        e.iter().filter(|x| !x.starts_with(&f.code)).collect();
                    if !others.is_empty() {
                        failures.push(format!(
                            "{} on {}: besides the recorded {}: {:?}",
                            p.name,
                            os.as_str(),
                            f.code,
                            others
                        ));
                    }
                }
                Some(f) => failures.push(format!(
                    "{} on {}: the catalogue records {} ({}), the build reports {}",
                    p.name,
                    os.as_str(),
                    f.code,
                    f.why,
                    if e.is_empty() {
                        "none".to_string()
                    } else {
                        e.join("; ")
                    }
                )),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} platform/OS pairs do not build:\n{}",
        failures.len(),
        failures.join("\n")
    );
    let marked = catalogue()
        .switches
        .iter()
        .flat_map(|p| &p.os)
        .filter(|o| o.build_finding.is_some())
        .count();
    assert!(
        built + marked >= catalogue().switches.len(),
        "{built} builds"
    );
}
