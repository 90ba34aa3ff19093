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
        // The host ports are 400G sub-ports of their model: no `speed` on their links.
        assert!(
            text.contains("link stor-leaf.port1 -- gpu1.nic4 { cable 3m }"),
            "header {header}: {text}"
        );
    }
}

/// The `nic` lines the import writes for `host`.
fn host_line<'t>(text: &'t str, host: &str) -> &'t str {
    let start = format!("host {host} {{");
    text.lines()
        .find(|l| l.trim_start().starts_with(&start))
        .unwrap_or_else(|| panic!("no `{start}` in\n{text}"))
}

/// Issue 18 item 4: build → state → import → check. A frontend NIC is left alone by the host
/// script, so it is missing from the host's `state.json` and no switch reaches it: the import
/// writes it `role frontend` (not a rail) and says what it cannot infer (storage NICs look like
/// rails in the state). The imported fabric checks without errors and without the incomplete
/// rail the frontend NIC would otherwise make.
#[test]
fn frontend_nics_come_back_as_frontend_and_the_import_checks() {
    // nic-roles-2x2: nic1, nic2 rails, nic3 frontend (unlinked), nic4 storage (linked).
    let dir = state_of(NIC_ROLES, "roles-2x2");
    cumulus_header("SN5600", "5.14")(&dir);
    let (i, _) = import_named(&dir, "nic-roles");
    for h in ["gpu1", "gpu2"] {
        let line = host_line(&i.text, h);
        assert!(
            line.contains("nic mlx5-400g x 2  nic mlx5-400g role frontend  nic mlx5-400g }"),
            "{line}"
        );
        let note = i
            .diagnostics
            .iter()
            .find(|d| {
                d.message
                    .starts_with(&format!("`{h}` nic3 is not in the host's state"))
            })
            .unwrap_or_else(|| panic!("{h}: no finding for nic3"));
        assert_eq!(note.code.as_str(), "FAB966");
        assert!(
            note.message
                .contains("does not tell RoCE storage NICs from rails")
        );
        assert!(
            note.help
                .as_deref()
                .is_some_and(|x| x.contains("role storage"))
        );
    }
    let c = check_text(dir.parent().unwrap_or(Path::new(".")), &i.text);
    assert_eq!(c.errors(), 0, "{:?}", c.diagnostics);
    assert!(
        !c.diagnostics.iter().any(|d| d.code.as_str() == "FAB603"),
        "an incomplete rail: {:?}",
        c.diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>()
    );
    let (orig, _) = build(&super::import::root().join(NIC_ROLES));
    let (a, b) = (orig.facts.as_ref().unwrap(), c.facts.as_ref().unwrap());
    assert_eq!(
        (a.switches, a.hosts, a.links),
        (b.switches, b.hosts, b.links)
    );

    // nic-roles-8-plus-1: the frontend NIC is the last (nic9): nothing in the state names it,
    // so it is not written at all, and the eight rails come back as eight backend NICs.
    let dir = state_of("nic-roles-8-plus-1.fab", "roles-8-plus-1");
    cumulus_header("SN5600", "5.14")(&dir);
    let (i, _) = import_named(&dir, "roles");
    let line = host_line(&i.text, "dgx01");
    assert!(line.contains("x 8 "), "{line}");
    assert!(!line.contains("role"), "{line}");
    assert!(
        !i.diagnostics
            .iter()
            .any(|d| d.message.contains("role frontend")),
        "{:?}",
        i.diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>()
    );
    let c = check_text(dir.parent().unwrap_or(Path::new(".")), &i.text);
    assert_eq!(c.errors(), 0, "{:?}", c.diagnostics);
}
