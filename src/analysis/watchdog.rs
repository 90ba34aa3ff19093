//! PFC watchdog on every lossless priority of every switch (PFC storms, Guo et al., "RDMA over Commodity Ethernet at Scale", SIGCOMM 2016 §4.3; FAB801): a
//! warning where it is off, one finding per `pfc-watchdog off` statement.

use crate::diagnostic::{Code, Diagnostic};
use crate::model::{Fabric, Watchdog};

use super::headroom::HeadroomPlan;

pub fn check(fabric: &Fabric, plan: &HeadroomPlan, diags: &mut Vec<Diagnostic>) {
    let mut grouped: super::group::Grouped<Vec<u8>> = super::group::Grouped::default();
    for s in fabric.switch_ids() {
        let entries = plan.switch(s);
        if entries.is_empty() {
            continue;
        }
        let sw = fabric.switch(s);
        let wd = sw.watchdog.unwrap_or(fabric.watchdog);
        if wd.value != Watchdog::Off {
            continue;
        }
        let mut priorities: Vec<u8> = entries.iter().map(|p| p.priority).collect();
        priorities.sort_unstable();
        priorities.dedup();
        grouped.add(
            wd.span,
            format!("{priorities:?}"),
            || sw.name.clone(),
            || priorities,
        );
    }
    grouped.finish(diags, |span, priorities, places| {
        let list = priorities.iter().map(u8::to_string).collect::<Vec<_>>().join(", ");
        let s = if priorities.len() == 1 { "y" } else { "ies" };
        let mut d = Diagnostic::new(
            Code::WatchdogOff,
            span,
            format!("PFC watchdog is off on {}, with lossless priorit{s} {list}", places.subject()),
        )
        .label("watchdog turned off here")
        .help("remove `pfc-watchdog off` (fabric default: `pfc-watchdog detect 200ms restore 200ms`), so one stuck NIC cannot freeze the fabric with endless PAUSE");
        if let Some(n) = places.note("switches") {
            d = d.note(n);
        }
        d
    });
}
