//! Build findings of host bonds (issue 18): what no output says about a `bond`.
//!
//! FAB126: the host script creates the bond for mlx5 only (`bond.sh`, RoCE LAG); another
//! driver's host keeps its ports as separate RoCE devices. FAB127: a switch whose side of the
//! bond is not written: EOS writes it for a pair that `lower::mlag` found (a peer link, one
//! peer per switch); the other targets write no LAG or multi-chassis side (SONiC
//! PORTCHANNEL and MCLAG, NVUE bond and mlag, NX-OS vPC, Junos ESI-LAG/MC-LAG). The finding
//! names the switches, what they would need, and what the pair does instead with the host's
//! mode.

use std::collections::BTreeMap;

use crate::diagnostic::{Code, Diagnostic, listed_names};
use crate::lower::Lowered;
use crate::model::{BondMode, DeviceId, Fabric};

use super::SwitchOs;

pub(super) fn findings(fabric: &Fabric, lowered: &Lowered) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let os_of: BTreeMap<&str, SwitchOs> = lowered
        .switches
        .iter()
        .map(|s| (s.device.as_str(), s.os))
        .collect();
    // Switches whose target wrote the pair's port-channels and MLAG.
    let written: std::collections::BTreeSet<&str> = lowered
        .switches
        .iter()
        .filter(|s| s.os == SwitchOs::Eos && s.mlag.is_some())
        .map(|s| s.device.as_str())
        .collect();
    // (driver) → hosts; (os, mode, across planes) → switches, each with the first bond's span.
    let mut drivers: BTreeMap<String, (crate::span::Span, Vec<String>)> = BTreeMap::new();
    let mut sides: BTreeMap<(SwitchOs, BondMode, bool), (crate::span::Span, Vec<String>)> =
        BTreeMap::new();
    for (hi, host) in fabric.hosts.iter().enumerate() {
        let Some(mode) = host.bond else { continue };
        if host.bonds.is_empty() {
            continue;
        }
        let driver = host.nics[host.bonds[0][0] as usize].model;
        let driver = &fabric.nic_models[driver.index()].driver.value;
        if driver != "mlx5" {
            let e = drivers
                .entry(driver.clone())
                .or_insert((mode.span, Vec::new()));
            e.1.push(host.name.clone());
        }
        // active-backup needs no switch side: one port at a time, no LAG.
        let switch_side = mode.value != BondMode::ActiveBackup;
        for (&i, across) in host
            .bonds
            .iter()
            .flat_map(|b| b.iter().map(move |i| (i, host.bond_across_planes(b))))
            .filter(|_| switch_side)
        {
            let Some(l) = host.nics[i as usize].link else {
                continue;
            };
            let me = DeviceId::Host(crate::model::HostId(hi as u32));
            if let DeviceId::Switch(s) = fabric.peer(l, me).device {
                let name = &fabric.switch(s).name;
                if written.contains(name.as_str()) {
                    continue;
                }
                if let Some(&os) = os_of.get(name.as_str()) {
                    let e = sides
                        .entry((os, mode.value, across))
                        .or_insert((mode.span, Vec::new()));
                    if !e.1.contains(name) {
                        e.1.push(name.clone());
                    }
                }
            }
        }
    }
    for (driver, (span, hosts)) in drivers {
        out.push(
            Diagnostic::new(
                Code::BondNotCreated,
                span,
                format!(
                    "the `{driver}` host script does not create the bond of {}: the NIC ports stay two RoCE devices with an address each",
                    listed_names(&hosts)
                ),
            )
            .label("bond declared here")
            .help("create the bond in the host's network configuration (netplan, NetworkManager) with the same mode; fabricc writes `bond.sh` for mlx5 (RoCE LAG) only"),
        );
    }
    for ((os, mode, across), (span, mut switches)) in sides {
        switches.sort();
        let (needs, help) = if across {
            non_stacked(mode)
        } else {
            (
                needs(os),
                "configure the ToR pair's LAG by hand (the ports keep fabricc's QoS as members), or use `bond active-backup`, which needs no LAG",
            )
        };
        out.push(
            Diagnostic::new(
                Code::BondSwitchSideMissing,
                span,
                format!(
                    "`bond {}` is not written on the {} side for {}: {}; {}",
                    mode.word(),
                    os.as_str(),
                    listed_names(&switches),
                    needs,
                    instead(mode)
                ),
            )
            .label("bond declared here")
            .help(help),
        );
    }
    out
}

/// What FAB127 says a bond whose ports are in two planes needs, and its help (Alibaba HPN
/// 7.0's non-stacked dual-ToR, Qian et al., SIGCOMM 2024,
/// https://doi.org/10.1145/3651890.3672265): the ToRs share no link, so no MLAG pair can
/// form; each ToR must answer the host's LACP by itself with a system ID common to both, and
/// route the host's address, which no target writes.
fn non_stacked(mode: BondMode) -> (&'static str, &'static str) {
    match mode {
        BondMode::Lacp => (
            "the bond's two ports are in different planes, whose ToRs share no link, so no MLAG pair can form: each ToR must run LACP on its port by itself with one system ID common to both (Alibaba HPN's non-stacked dual-ToR), which the output does not configure",
            "give each ToR's port a LACP port-channel with the pair's common system ID by hand (the port keeps fabricc's QoS as a member), or use `bond balance-xor`, which needs no LACP partner",
        ),
        _ => (
            "the bond's two ports are in different planes, whose ToRs share no link: each ToR serves the host on its own port and must route the host's address (a host route from ARP), which the output does not configure",
            "announce the host's address from each ToR (ARP host routes into BGP) by hand; the ports keep fabricc's QoS",
        ),
    }
}

/// What the target would need for a bond over two ToRs.
fn needs(os: SwitchOs) -> &'static str {
    match os {
        SwitchOs::Sonic => "the output has no PORTCHANNEL, PORTCHANNEL_MEMBER or MCLAG_DOMAIN",
        SwitchOs::Cumulus => "the output has no NVUE `interface <bond> bond member` nor `mlag`",
        SwitchOs::Eos => {
            "the output has no `interface Port-Channel` with `mlag`, which EOS gets only for a pair joined by a peer link (`peer-link N` on the `dual-tor` tier) where neither switch has another peer and both run EOS"
        }
        SwitchOs::Nxos => "the output has no vPC `port-channel`",
        SwitchOs::Junos => "the output has no `ae` interface with ESI-LAG or MC-LAG",
        SwitchOs::Vrp => "the output has no `Eth-Trunk` with M-LAG",
        SwitchOs::Comware => "the output has no `Bridge-Aggregation` interface with M-LAG",
    }
}

/// What the ToR pair does with the host's bond without that side.
fn instead(mode: BondMode) -> &'static str {
    match mode {
        BondMode::Lacp => {
            "the ports send no LACPDU, so the host's 802.3ad bond finds no partner and puts each port in an aggregator of its own, using one port only"
        }
        BondMode::BalanceXor => {
            "both ports send, but the two ToRs do not know they serve one host, so traffic back to the bond reaches it through whichever ToR routes the address"
        }
        BondMode::ActiveBackup => "active-backup needs no LAG",
    }
}
