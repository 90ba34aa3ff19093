//! What the host scripts can and cannot do for a host, said before the build (advice).
//!
//! In: the resolved fabric. Out: FAB920 for hosts whose NICs have no declared identity (the
//! script then assumes the driver's default RDMA device names), FAB921 for lossless or DCQCN
//! classes a host's RDMA traffic cannot reach by default (a host has one default ToS).
//!
//! Why advice and not warnings: `build` refuses to write anything while the check has
//! warnings, and the check cannot know whether host scripts will be built at all (`--targets`).
//! The scripts themselves fail closed where they can: a guessed `mlx5_<i>` that does not exist,
//! is not an Ethernet port, or is not the same PCI function as its netdev stops the run before
//! anything changes. What they cannot see is a guess that exists but is the wrong port — on a
//! DGX H100 `mlx5_1` and `mlx5_2` are storage NICs (NVIDIA DGX H100 User Guide, "Network
//! Modules") — which this advice, the script header and `nccl.env` all name.

use crate::diagnostic::{Code, Diagnostic};
use crate::model::qos::roce_classes;
use crate::model::{Fabric, HostId};

use super::group::Grouped;

pub fn check(fabric: &Fabric, diags: &mut Vec<Diagnostic>) {
    identity(fabric, diags);
    default_tos(fabric, diags);
}

/// Hosts with a linked NIC.
fn linked_hosts(fabric: &Fabric) -> impl Iterator<Item = HostId> + '_ {
    fabric
        .host_ids()
        .filter(|&h| fabric.host(h).nics.iter().any(|n| n.link.is_some()))
}

/// `mlx5_0` … `mlx5_7` for `nic1` … `nic8`: the devices the script assumes for the NICs
/// at these 0-based indices (contiguous from 0 unless some NIC is off the fabric).
fn guessed_names(on: &[usize]) -> String {
    let n = on.len();
    if on.iter().enumerate().all(|(k, &i)| k == i) {
        return match n {
            1 => "`mlx5_0` for `nic1`".to_string(),
            2 => "`mlx5_0`, `mlx5_1` for `nic1`, `nic2`".to_string(),
            n => format!("`mlx5_0` … `mlx5_{}` for `nic1` … `nic{n}`", n - 1),
        };
    }
    let devs: Vec<String> = on.iter().map(|i| format!("`mlx5_{i}`")).collect();
    let nics: Vec<String> = on.iter().map(|i| format!("`nic{}`", i + 1)).collect();
    format!("{} for {}", devs.join(", "), nics.join(", "))
}

/// FAB920, one per host statement.
fn identity(fabric: &Fabric, diags: &mut Vec<Diagnostic>) {
    let mut guessed: Grouped<String> = Grouped::default();
    for h in linked_hosts(fabric) {
        let host = fabric.host(h);
        // The script configures (and guesses devices for) the NICs on the fabric only; NICs
        // of other roles keep their index, so the guess for NIC i is still mlx5_<i-1>.
        let on: Vec<usize> = (0..host.nics.len())
            .filter(|&i| host.nics[i].on_fabric())
            .collect();
        let mlx5 = on
            .iter()
            .all(|&i| fabric.nic_models[host.nics[i].model.index()].driver.value == "mlx5");
        let declared = host
            .nics
            .iter()
            .any(|n| n.netdev.is_some() || n.rdma_device.is_some() || n.pci.is_some());
        if mlx5 && !declared && !on.is_empty() {
            let names = guessed_names(&on);
            guessed.add(host.span, names.clone(), || host.name.clone(), || names);
        }
    }
    guessed.finish(diags, |span, names, places| {
        let mut d = Diagnostic::new(
            Code::NicIdentityGuessed,
            span,
            format!(
                "{} declare{} no NIC identity, so the host script assumes RDMA devices {names}",
                places.subject(),
                if places.count == 1 { "s" } else { "" }
            ),
        )
        .label("no `pci`, `netdev` or `rdma-device` here")
        .note(
            "the kernel numbers mlx5_<i> in PCI probe order, and GPU servers interleave storage and compute NICs: on a DGX H100 the compute NICs are mlx5_0,3,4,5,6,9,10,11; the script stops only if a guessed device is missing or mispaired",
        )
        .help(
            "declare the NICs in NIC (rail) order in the host's block: `pci 0000:18:00.0, …` as `lspci -D` shows them, or `netdev …` / `rdma-device …`",
        );
        if let Some(n) = places.note("hosts") {
            d = d.note(n);
        }
        d
    });
}

/// FAB921, one per class (counting the hosts).
fn default_tos(fabric: &Fabric, diags: &mut Vec<Diagnostic>) {
    // (class name, DSCP, priority, default class name, default ToS)
    let mut unreached: Grouped<(String, u8, u8, String, u8)> = Grouped::default();
    for h in linked_hosts(fabric) {
        let views = fabric.host_classes(h);
        let classes = roce_classes(&views);
        let Some(((first, first_dscp), rest)) = classes.split_first() else {
            continue;
        };
        let default = fabric.class(first.id).name.clone();
        let default_tos = (first_dscp << 2) | 0b10;
        for (v, dscp) in rest {
            let class = fabric.class(v.id);
            let key = format!("{}:{dscp}:{}:{default}", class.name, v.priority.value);
            unreached.add(
                class.span,
                key,
                || fabric.host(h).name.clone(),
                || {
                    (
                        class.name.clone(),
                        *dscp,
                        v.priority.value,
                        default.clone(),
                        default_tos,
                    )
                },
            );
        }
    }
    unreached.finish(diags, |span, (class, dscp, prio, default, tos), places| {
        let own = (dscp << 2) | 0b10;
        let mut d = Diagnostic::new(
            Code::RoceClassNoDefault,
            span,
            format!(
                "class `{class}` (DSCP {dscp}, priority {prio}) is set up on the switches, but hosts give RDMA traffic one default ToS, class `{default}`'s {tos}: on {} only applications that set ToS {own} themselves reach `{class}`",
                places.subject()
            ),
        )
        .label("this class")
        .note("the host script sets one RDMA-CM ToS and one verbs traffic class per NIC; nccl.env sets NCCL_IB_TC to the default class")
        .help(format!(
            "run the jobs that belong to `{class}` with NCCL_IB_TC={own} (or rdma_set_option ToS {own}); nccl.env names it"
        ));
        if let Some(n) = places.note("hosts") {
            d = d.note(n);
        }
        d
    });
}
