//! `fabricc import` of fabrics that mix switch OSes and NIC roles (issue 18): a Cumulus
//! switch whose cages are broken out differently (`swp1s0`, `swp1s1` beside `swp2`), named
//! from a SONiC switch's DEVICE_NEIGHBOR, and hosts whose storage and frontend NICs must not
//! come back as rails.

use std::path::Path;

use super::import::{build, check_text, cumulus_header, import_named, state_of};

const NIC_ROLES: &str = "fixtures/build/inputs/nic-roles-2x2.fab";

/// Issue 18 regression: `stor-leaf` runs `swp1` as `2x` (two 400G host ports) and `swp2`,
/// `swp3` whole (800G to the SONiC spine, which names them in DEVICE_NEIGHBOR). The import
/// numbered every cage of a Cumulus switch by one breakout, so `swp2`/`swp3` had no port
/// number (FAB965) and the uplinks were left out.
#[test]
fn cumulus_cages_broken_out_differently_keep_their_links() {
    for header in [true, false] {
        let dir = state_of(NIC_ROLES, "mixed-breakout");
        if header {
            cumulus_header("SN5600", "5.14")(&dir);
        }
        let (i, _) = import_named(&dir, "nic-roles");
        let lost: Vec<&String> = i
            .diagnostics
            .iter()
            .filter(|d| d.message.contains("has no port number") || d.message.contains("left out"))
            .map(|d| &d.message)
            .collect();
        assert!(lost.is_empty(), "header {header}: {lost:?}");
        let (orig, _) = build(&super::import::root().join(NIC_ROLES));
        let mut text = i.text.clone();
        if !header {
            // Without `nv config show`'s header NVUE names no platform: add the buffer by hand.
            text = text.replace(
                "os cumulus  ports",
                "os cumulus  buffer 160MB  cell 128B  ports",
            );
        }
        let c = check_text(dir.parent().unwrap_or(Path::new(".")), &text);
        assert_eq!(
            c.errors(),
            0,
            "header {header}: {:?}\n{text}",
            c.diagnostics
        );
        let (a, b) = (orig.facts.as_ref().unwrap(), c.facts.as_ref().unwrap());
        assert_eq!(
            (a.switches, a.hosts, a.links),
            (b.switches, b.hosts, b.links),
            "header {header}: counts\n{text}"
        );
        assert!(
            text.contains("link spine1.port") && text.contains("stor-leaf.port4"),
            "header {header}: {text}"
        );
    }
}
