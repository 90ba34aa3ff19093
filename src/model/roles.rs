//! NIC roles (issue 18 item 4): which of a host's NICs are on the lossless fabric, and the
//! report's sentence about the ones that are not.

use super::{Fabric, NicRole};

/// One sentence for the report about NIC ports that are not rails: the storage and
/// frontend NICs the host scripts leave alone, and the storage NICs a `link` puts on the
/// fabric. Empty when every NIC is a backend NIC.
pub fn off_fabric_note(fabric: &Fabric) -> String {
    let (mut frontend, mut storage_off, mut storage_on) = (0usize, 0usize, 0usize);
    for n in fabric.hosts.iter().flat_map(|h| &h.nics) {
        match (n.role, n.on_fabric()) {
            (NicRole::Backend, _) => {}
            (NicRole::Frontend, _) => frontend += 1,
            (NicRole::Storage, false) => storage_off += 1,
            (NicRole::Storage, true) => storage_on += 1,
        }
    }
    let mut parts = Vec::new();
    if frontend > 0 {
        parts.push(format!("{frontend} `frontend`"));
    }
    if storage_off > 0 {
        parts.push(format!("{storage_off} unlinked `storage`"));
    }
    let mut out = String::new();
    if !parts.is_empty() {
        out.push_str(&format!(
            "{} NIC ports are not on the lossless fabric: they are no rail, are not counted \
             above, and the host scripts leave them alone.",
            parts.join(" and ")
        ));
    }
    if storage_on > 0 {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&format!(
            "{storage_on} `storage` NIC ports are linked into the fabric (lossless RoCE \
             storage): counted above and configured like the rails, but no rail."
        ));
    }
    out
}
