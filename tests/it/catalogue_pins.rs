//! The table test of issue 38: every number of every catalogue entry is pinned to a source,
//! and every source is a citation (a repository file at a commit or a titled public
//! document). `catalogue::sourced_numbers` walks an entry as `fabricc platforms --format json`
//! prints it: a number takes the `source` of the nearest object around it (a table row its
//! table's), so a number added without one fails here with its path.

use std::collections::BTreeMap;
use std::path::Path;

use fabricc::catalogue::{AsicFamily, catalogue, sourced_numbers};

#[test]
fn every_number_of_every_entry_names_a_citable_source() {
    let c = catalogue();
    assert!(
        c.switches.len() >= 30,
        "{} switch platforms",
        c.switches.len()
    );
    assert!(c.nics.len() >= 10, "{} NIC platforms", c.nics.len());
    let mut failures = Vec::new();
    let mut table: BTreeMap<String, usize> = BTreeMap::new();
    for (name, result) in c
        .switches
        .iter()
        .map(|p| (&p.name, sourced_numbers(p, &p.sources)))
        .chain(
            c.nics
                .iter()
                .map(|n| (&n.name, sourced_numbers(n, &n.sources))),
        )
    {
        match result {
            Ok(numbers) => {
                for n in &numbers {
                    assert!(
                        n.cites.contains('@') || n.cites.contains("https://"),
                        "{name} {}: {}",
                        n.path,
                        n.cites
                    );
                }
                table.insert(name.clone(), numbers.len());
            }
            Err(e) => failures.push(format!("{name}:\n  {}", e.join("\n  "))),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // An entry without a single number says why, entry by entry (`not_sourced`).
    for p in &c.switches {
        if table.get(&p.name) == Some(&0) {
            assert!(
                !p.not_sourced.is_empty(),
                "{}: no number and no reason",
                p.name
            );
        }
    }
    // Spot checks that the walk reaches nested tables with the right source.
    let sn5600 = c.switch("nvidia-sn5600").expect("sn5600");
    let numbers = sourced_numbers(sn5600, &sn5600.sources).expect("sourced");
    let usable = numbers
        .iter()
        .find(|n| n.path == "buffer/usable/bytes")
        .expect("usable buffer");
    assert_eq!(usable.value, 158_229_504);
    assert_eq!(usable.source, "acs_buffers_t1");
    assert!(numbers.iter().any(
        |n| n.path.starts_with("sonic/hwskus/0/pg_profile_lookup/rows/")
            && n.source == "acs_pg_lookup"
    ));
}

/// The generated SONiC entries take their ASIC from the SAI init file the default SKU's
/// `sai.profile` loads: its name carries the Tomahawk generation (`th5-…`, `th4-…`, `th3-…`).
#[test]
fn sai_profile_names_the_tomahawk_generation() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/catalogue");
    let mut checked = 0;
    for p in &catalogue().switches {
        let Some(asic) = &p.asic else { continue };
        if asic.source != "sai_profile" {
            continue;
        }
        let text = std::fs::read_to_string(dir.join(&p.name).join("sai.profile"))
            .unwrap_or_else(|e| panic!("{}: sai.profile excerpt: {e}", p.name));
        let mut lines = text.lines();
        let source = lines
            .next()
            .and_then(|l| l.strip_prefix("# source: "))
            .expect("source line");
        assert_eq!(p.sources["sai_profile"].as_str(), source, "{}", p.name);
        let file = lines
            .nth(1)
            .and_then(|l| l.rsplit('/').next())
            .expect("SAI_INIT_CONFIG_FILE line");
        let prefix = match asic.family {
            AsicFamily::Tomahawk5 => "th5",
            AsicFamily::Tomahawk4 => "th4",
            AsicFamily::Tomahawk3 => "th3",
            other => panic!("{}: {} from a sai.profile", p.name, other.as_str()),
        };
        // Nokia names its files after the platform (`h5_64o.yml`); the file's header names
        // the chip, BCM78900, Broadcom's Tomahawk 5 part, which the entry records as `part`.
        if file.starts_with("h5_") {
            let header = std::fs::read_to_string(dir.join(&p.name).join("bcm_config.txt"))
                .unwrap_or_else(|e| panic!("{}: bcm_config excerpt: {e}", p.name));
            let part_source = asic.part_source.as_deref().expect("part_source");
            assert!(
                header.starts_with(&format!("# source: {}\n", p.sources[part_source].as_str()))
            );
            assert_eq!(asic.part.as_deref(), Some("BCM78900"), "{}", p.name);
            assert!(
                header
                    .lines()
                    .nth(2)
                    .is_some_and(|l| l.contains("BCM78900"))
            );
            assert_eq!(prefix, "th5", "{}", p.name);
        } else {
            assert!(
                file.starts_with(prefix),
                "{}: {file} is not a {prefix} file",
                p.name
            );
        }
        checked += 1;
    }
    assert!(checked >= 15, "{checked} entries checked");
}
