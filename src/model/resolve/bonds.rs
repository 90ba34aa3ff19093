//! `bond MODE` on a host (issue 18): the ports of each multi-port NIC become one Linux bond.
//!
//! mlx5 RoCE LAG joins the two ports of one ConnectX card only: it is active when both of
//! the card's PF netdevs, and only they, are enslaved to one bond (torvalds/linux@7907f23adc18,
//! "net/mlx5: Implement RoCE LAG feature", drivers/net/ethernet/mellanox/mlx5/core/lag.c),
//! so a bond is per card, never across cards. Its ports stay two links, two switch ports and
//! two edges of the deadlock proof; the bond only makes them one destination (`Host::bonds`).
//! The ports may be in two planes: Alibaba HPN 7.0 bonds each NIC's port to a plane-1 ToR
//! with its port to a plane-2 ToR ("non-stacked dual-ToR", Qian et al., SIGCOMM 2024), and
//! the bond is then one destination in both planes, each plane reaching it through its port.

use std::collections::BTreeMap;

use crate::diagnostic::{Code, Diagnostic};
use crate::model::Fabric;
use crate::span::Span;

pub(super) fn build(fabric: &mut Fabric, diags: &mut Vec<Diagnostic>) {
    // One finding per `bond` line, naming its first host (a pattern declares many).
    let mut unfit: BTreeMap<Span, (Diagnostic, usize)> = BTreeMap::new();
    let mut push = |span: Span, d: Diagnostic| {
        unfit.entry(span).or_insert((d, 0)).1 += 1;
    };
    for host in &mut fabric.hosts {
        let Some(mode) = host.bond else { continue };
        let mut bonds: Vec<Vec<u32>> = Vec::new();
        let mut last_card = None;
        for (i, n) in host.nics.iter().enumerate() {
            if n.port == 0 || !n.on_fabric() {
                continue;
            }
            if last_card == Some(n.card) {
                if let Some(b) = bonds.last_mut() {
                    b.push(i as u32);
                }
            } else {
                bonds.push(vec![i as u32]);
                last_card = Some(n.card);
            }
        }
        bonds.retain(|b| b.len() > 1);
        if bonds.is_empty() {
            push(
                mode.span,
                Diagnostic::new(
                    Code::BondUnfit,
                    mode.span,
                    format!(
                        "host `{}` has `bond {}` but no NIC on the fabric with two ports to bond",
                        host.name,
                        mode.value.word()
                    ),
                )
                .label("bond declared here")
                .help("a bond joins the ports of one NIC (mlx5 RoCE LAG): give the NIC model `ports 2 x SPEED`, or remove `bond`"),
            );
            continue;
        }
        host.bonds = bonds;
    }
    for (mut d, n) in unfit.into_values() {
        if n > 1 {
            d.message = format!("{} (and {} more hosts of this line)", d.message, n - 1);
        }
        diags.push(d);
    }
}
