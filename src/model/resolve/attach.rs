//! Plugging a link into a device's port or NIC: both the named links (`links.rs`) and the
//! generated ones (`devices.rs`) end here, so it lives below both.

use crate::model::{DeviceId, Endpoint, Fabric, LinkId};

/// Records `link` on the port (switch) or NIC (host) that `e` names.
pub(super) fn attach(fabric: &mut Fabric, e: Endpoint, link: LinkId) {
    match e.device {
        DeviceId::Switch(s) => fabric.switches[s.index()].ports[e.port as usize] = Some(link),
        DeviceId::Host(h) => fabric.hosts[h.index()].nics[e.port as usize].link = Some(link),
    }
}
