//! Lowering: the resolved `Fabric` → one plain render context per device.
//!
//! In: a checked `Fabric` (no errors) and the set of targets to build. Out: `SwitchContext`s
//! and `HostContext`s (see `context.rs`), sorted by device name, plus FAB9xx findings for
//! devices that cannot be lowered. Every decision the configs share is made here, once:
//!
//! * PG = PFC priority of the class (SONiC's traditional buffermgrd takes the `pfc_enable`
//!   priorities as PG indices, sonic-net/sonic-swss@e6b0c5b5d2ab: cfgmgr/buffermgr.cpp
//!   `doSpeedUpdateTask`); TC = the class's `traffic-class`, else its priority; egress queue =
//!   its `queue`, else its TC; DSCP → TC from `model::qos::dscp_table`, 64 entries, unclaimed
//!   DSCPs → TC 0. Scheduling, ECN and rate caps are per queue; PFC, headroom and the pause
//!   trigger per priority.
//! * Classes as the switch (`switch_class`) or host (`host_class`) sees them, overrides applied;
//!   ECN on a queue when the class runs DCQCN and marking is on for that device.
//! * Headroom per (port, lossless priority): `configured` of `analysis::headroom::headroom_plan`
//!   (the canonical formula, docs/physics.md §1: receiver MTU = this port's MTU, sender MTU =
//!   the peer's, rounded up to the model's cell; a `headroom` override wins), the same numbers
//!   the checks verified. `xon` = two port MTUs rounded to the cell (the hysteresis keeps one
//!   frame in flight each way), `size = xoff + xon`, no shared headroom pool.
//! * Buffer pools from the model's `buffer`: 10 % is kept for lossy traffic and the headroom is
//!   carved out (Junos: as its own `lossless-headroom` partition); egress 90 % lossless / 10 %
//!   lossy; one lossless queue may fill `α/(1+α)` of the egress lossless pool (Junos fill
//!   levels are percent of that).
//! * SONiC switches (`sonic`): the catalogue platform's SKU names the ports and gives their
//!   lanes, and SONiC's own layout and formulas replace the generic headroom and pools (its
//!   module documentation has every rule and its source); a SONiC model without a platform is
//!   FAB950.
//! * Ports: every linked port; cable rounded up to whole metres (at least 1: buffermgrd skips
//!   0 m); FEC `rs` from 100G up.
//! * A switch port facing a host with `pfc off` runs no PFC.
//! * Hosts: netdev MTU = RoCE MTU + 104 (4200 gives RoCE `active_mtu` 4096); PFC on the lossless
//!   priorities unless `pfc off`; prio→TC identity; TSA/TC bandwidth from class scheduling;
//!   the full 64-entry DSCP → priority map of the fabric (unclaimed DSCPs → 0, as on the
//!   switches); RoCE ToS = first DSCP of the first lossless class << 2 | ECT(0), the other
//!   lossless/DCQCN classes listed for applications that set their own; CNP DSCP/priority of
//!   the `cnp` class (48/6 when none); ECN enabled on every priority (the firmware default);
//!   no cable length and no manual receive buffers (the firmware owns the NIC buffers, see
//!   `render::host`); NIC identity as declared, else the driver's default name (`mlx5_<i>`).

pub mod context;
mod fill_levels;
mod mlag;
mod port_names;
mod sku_layouts;
mod sonic;
mod sonic_sku;
pub(crate) use fill_levels::resolve_fill_levels;
pub use port_names::PortNames;
#[cfg(feature = "internals")]
pub use port_names::vendor_port_name;
use port_names::{Skus, port_name_in, skus};
pub use sonic::skus_on_lanes;
pub mod sonic_hash;
pub mod vocab;

use std::collections::BTreeSet;

use rayon::prelude::*;

use crate::analysis::headroom::PortHeadroom;
#[cfg(feature = "internals")]
use crate::analysis::headroom::headroom_plan;
use crate::analysis::physics;
use crate::diagnostic::{Code, Diagnostic};
use crate::model::qos::{ClassView, dscp_table, roce_classes};
use crate::model::{
    self, DeviceId, Dscp, Fabric, HostId, LbMode, LbSeed, Scheduling as MScheduling, SwitchId,
    Watchdog as MWatchdog,
};
use context::{
    BufferPlan, ClassContext, Ecn, Fec, Headroom, HeadroomFormula, HostContext, HostQos, LbContext,
    NicContext, NicDriver, PauseThreshold, PlatformContext, PortContext, QosPlan, QueueEcn,
    Scheduling, SwitchContext, SwitchOs, TosClass, Tsa, Watchdog, WatchdogAction, WatchdogDefaults,
};

/// Which outputs a build produces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Targets {
    pub sonic: bool,
    pub cumulus: bool,
    pub eos: bool,
    pub nxos: bool,
    pub junos: bool,
    pub vrp: bool,
    pub comware: bool,
    pub host: bool,
}

impl Targets {
    pub const ALL: Targets = Targets {
        sonic: true,
        cumulus: true,
        eos: true,
        nxos: true,
        junos: true,
        vrp: true,
        comware: true,
        host: true,
    };
    const NONE: Targets = Targets {
        sonic: false,
        cumulus: false,
        eos: false,
        nxos: false,
        junos: false,
        vrp: false,
        comware: false,
        host: false,
    };
    pub const NAMES: [&'static str; 8] = [
        "sonic", "cumulus", "eos", "nxos", "junos", "vrp", "comware", "host",
    ];

    /// `sonic,host` → those two; an unknown name is an error naming the valid ones.
    pub fn parse(list: &str) -> Result<Targets, String> {
        let mut t = Targets::NONE;
        for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            match name {
                "sonic" => t.sonic = true,
                "cumulus" => t.cumulus = true,
                "eos" => t.eos = true,
                "nxos" => t.nxos = true,
                "junos" => t.junos = true,
                "vrp" => t.vrp = true,
                "comware" => t.comware = true,
                "host" => t.host = true,
                other => {
                    return Err(format!(
                        "unknown target `{other}` (expected {})",
                        Targets::NAMES.join(", ")
                    ));
                }
            }
        }
        if t == Targets::NONE {
            return Err(format!(
                "no target named (expected one or more of {})",
                Targets::NAMES.join(", ")
            ));
        }
        Ok(t)
    }

    /// Whether this build renders switches of `os`.
    pub fn switch_os(&self, os: SwitchOs) -> bool {
        match os {
            SwitchOs::Sonic => self.sonic,
            SwitchOs::Cumulus => self.cumulus,
            SwitchOs::Eos => self.eos,
            SwitchOs::Nxos => self.nxos,
            SwitchOs::Junos => self.junos,
            SwitchOs::Vrp => self.vrp,
            SwitchOs::Comware => self.comware,
        }
    }
}

/// Everything lowering produced.
#[derive(Debug, Default)]
pub struct Lowered {
    pub switches: Vec<SwitchContext>,
    pub hosts: Vec<HostContext>,
    /// FAB9xx findings; a device with a finding has no context.
    pub diagnostics: Vec<Diagnostic>,
}

/// Lowers every device of the selected targets, in parallel; output sorted by device name.
/// Bench support (benches/build.rs), not the product's: the pipeline passes the plan it checked.
#[cfg(feature = "internals")]
pub fn lower(fabric: &Fabric, targets: Targets) -> Lowered {
    lower_with_plan(fabric, targets, &headroom_plan(fabric))
}

/// Lowers every device of the selected targets (in parallel; output sorted by device name)
/// with the headroom plan the analysis already computed and checked for this fabric
/// (`analysis::Findings::plan`): the configs carry the numbers that were verified,
/// and a 100,000-GPU `check` does not compute the plan twice.
pub fn lower_with_plan(
    fabric: &Fabric,
    targets: Targets,
    plan: &crate::analysis::headroom::HeadroomPlan,
) -> Lowered {
    let switch_ids: Vec<SwitchId> = fabric
        .switch_ids()
        .filter(|&s| targets.switch_os(fabric.switch_model(s).os.value))
        .collect();
    let skus = skus(fabric);
    let switch_results: Vec<Result<SwitchContext, Diagnostic>> = switch_ids
        .par_iter()
        .map(|&s| lower_switch(fabric, &skus, s, plan.switch(s)))
        .collect();
    let host_results: Vec<Result<Option<HostContext>, Diagnostic>> = if targets.host {
        let ids: Vec<HostId> = fabric.host_ids().collect();
        ids.par_iter().map(|&h| lower_host(fabric, h)).collect()
    } else {
        Vec::new()
    };
    let mut out = Lowered::default();
    out.diagnostics
        .extend(written_ecn(fabric, &switch_ids, &switch_results, plan));
    out.diagnostics
        .extend(sku_layouts::layouts_assumed(fabric, &skus, &switch_ids));
    for r in host_results {
        match r {
            Ok(Some(c)) => out.hosts.push(c),
            Ok(None) => {}
            Err(d) => out.diagnostics.push(d),
        }
    }
    for r in switch_results {
        match r {
            Ok(c) => out.switches.push(c),
            Err(d) => out.diagnostics.push(d),
        }
    }
    out
}

/// FAB315: ECN thresholds as the target writes them (Junos fill levels, NX-OS kbytes) judged
/// against the PFC pause point the checks used (the static `pfc-threshold`, else the
/// worst-case dynamic pause point), where the model's own bytes passed.
fn written_ecn(
    fabric: &Fabric,
    ids: &[SwitchId],
    results: &[Result<SwitchContext, Diagnostic>],
    plan: &crate::analysis::headroom::HeadroomPlan,
) -> Vec<Diagnostic> {
    use std::collections::BTreeMap;
    let queues = crate::analysis::ecn::ecn_plan(fabric, plan);
    // (span, which, os, model bytes, written bytes, pause, how) → switches
    type Key = (
        crate::span::Span,
        &'static str,
        SwitchOs,
        u64,
        u64,
        u64,
        String,
    );
    let mut found: BTreeMap<Key, Vec<String>> = BTreeMap::new();
    for (&s, r) in ids.iter().zip(results) {
        let Ok(ctx) = r else { continue };
        if !matches!(ctx.os, SwitchOs::Junos | SwitchOs::Nxos) {
            continue;
        }
        let views = fabric.switch_classes(s);
        // NX-OS states its pause threshold in bytes on pause-buffer ports: judge ECN against
        // what is written there (N8), elsewhere against the model's pause point.
        let written_pause = if ctx.os == SwitchOs::Nxos {
            vocab::nxos_written_pause_thresholds(ctx)
        } else {
            BTreeMap::new()
        };
        for q in queues.iter().filter(|q| q.switch == s) {
            let Some(pause) = q.pause_point else { continue };
            let v = &views[q.class.index()];
            for p in &ctx.ports {
                let pause = written_pause.get(&p.name).copied().unwrap_or(pause);
                let Some(e) = p
                    .ecn
                    .iter()
                    .find(|x| x.queue == v.queue.value)
                    .and_then(|x| x.ecn)
                else {
                    continue;
                };
                let w = vocab::ecn_as_written(ctx, v.lossless.value, e);
                let Some(link) = fabric
                    .switch(s)
                    .ports
                    .get(p.index as usize)
                    .copied()
                    .flatten()
                else {
                    continue;
                };
                let at = v.ecn_on(fabric.link(link));
                for (which, model_b, written, span) in [
                    ("min", e.min_bytes, w.min_bytes, at.min.span),
                    ("max", e.max_bytes, w.max_bytes, at.max.span),
                ] {
                    if model_b < pause && written >= pause {
                        let list = found
                            .entry((span, which, ctx.os, model_b, written, pause, w.how.clone()))
                            .or_default();
                        if !list.contains(&ctx.device) {
                            list.push(ctx.device.clone());
                        }
                    }
                }
            }
        }
    }
    found
        .into_iter()
        .map(|((span, which, os, model_b, written, pause, how), switches)| {
            let who = match switches.as_slice() {
                [one] => format!("`{one}`"),
                [first, rest @ ..] => format!("`{first}` and {} more switches", rest.len()),
                [] => String::new(),
            };
            Diagnostic::new(
                Code::EcnWrittenAtPause,
                span,
                format!(
                    "`ecn {which}` {model_b} B becomes {written} B as {} writes it on {who}: at or above the PFC pause point {pause} B, so PFC pauses before ECN marks {}",
                    os.as_str(),
                    if which == "min" { "at all" } else { "at full probability" }
                ),
            )
            .label(format!("`ecn {which}` set here"))
            .note(format!("written as {how}"))
            .help(format!(
                "choose `ecn {which}` so that the value the switch holds stays below {pause} B (for Junos, a whole percent of the queue's share)"
            ))
        })
        .collect()
}

/// The cages the linked ports of a non-SONiC switch break out, `(cage 1-based, ports)`.
fn breakouts(
    p: &crate::catalogue::Platform,
    model: &model::SwitchModel,
    os: SwitchOs,
    ports: &[PortContext],
) -> Vec<context::Breakout> {
    // A chassis has no broken-out ports: FAB141 refuses them (no card gives their names).
    if os == SwitchOs::Sonic || model.chassis.is_some() {
        return Vec::new();
    }
    let mut out: Vec<context::Breakout> = Vec::new();
    let placed = p.place_all(&model.ports.value);
    for port in ports {
        let Some(&(cage, split, _)) = placed.get(port.index as usize) else {
            continue;
        };
        if split < 2 {
            continue;
        }
        match out.iter_mut().find(|b| b.cage == cage + 1) {
            Some(b) => b.ports.push(port.index),
            None => out.push(context::Breakout {
                cage: cage + 1,
                ways: split,
                speed_gbps: port.speed_mbps.div_ceil(1000),
                lanes: p.cage_lanes(cage).map(|l| l / split),
                ports: vec![port.index],
            }),
        }
    }
    for b in &mut out {
        b.ports.sort_unstable();
    }
    out.sort_unstable();
    out
}

/// Which watchdog timers are the language's defaults (what `pfc-watchdog` takes when an
/// argument is not written): a target reports only the timers the fabric asks for.
fn watchdog_defaults(
    detect_ns: model::Nanoseconds,
    restore_ns: model::Nanoseconds,
    poll_ns: model::Nanoseconds,
) -> WatchdogDefaults {
    match model::DEFAULT_WATCHDOG {
        MWatchdog::On {
            detect_ns: d,
            restore_ns: r,
            poll_ns: p,
            ..
        } => WatchdogDefaults {
            detect: detect_ns == d,
            restore: restore_ns == r,
            poll: poll_ns == p,
        },
        MWatchdog::Off => WatchdogDefaults::default(),
    }
}

fn ms(ns: u64) -> u32 {
    u32::try_from(ns.div_ceil(1_000_000)).unwrap_or(u32::MAX)
}

fn percent(thousandths: u64) -> u8 {
    u8::try_from(thousandths.div_ceil(1000).clamp(1, 100)).unwrap_or(100)
}

fn ecn_on(v: &ClassView, link: &model::Link) -> Option<Ecn> {
    let e = v.ecn_on(link);
    v.marks_ecn().then(|| ecn_context(e))
}

fn ecn_of(v: &ClassView) -> Option<Ecn> {
    v.marks_ecn().then(|| ecn_context(v.ecn))
}

/// The thresholds as the views take them: bytes on this switch, and the fill levels the
/// fabric stated them as.
fn ecn_context(e: model::Ecn) -> Ecn {
    Ecn {
        min_bytes: e.min.value.get(),
        max_bytes: e.max.value.get(),
        probability_percent: percent(e.probability.value),
        min_fill: e.min_fill,
        max_fill: e.max_fill,
    }
}

/// Whole-percent ETS weights of `views` (0 for strict classes), by largest remainder: each
/// share is rounded down, and the percents still missing from the rounded total go to the
/// largest remainders (ties to the earlier class). Shares of 50.5 % and 49.5 % become 51 and
/// 49, so weights that the checks saw sum to 100 % also sum to 100 on the device.
///
/// No class with a share gets 0: SONiC refuses a DWRR weight of 0, VRP and Comware take 1 at
/// least, and 0 would leave the class no guaranteed share. A share above 0 and under 0.5 % is
/// written as 1 %, taken from the largest weight (ties to the earlier class);
/// `analysis::classes` says so at the share (FAB906). An explicit `bandwidth 0%` stays 0, for
/// the targets to take or refuse; `analysis::classes::zero_shares` judges it per target at the
/// share (FAB901 on SONiC, FAB906 where a target writes 1).
fn ets_weights(views: &[ClassView]) -> Vec<u8> {
    let shares: Vec<Option<u64>> = views
        .iter()
        .map(|v| match v.scheduling.value {
            MScheduling::Strict => None,
            MScheduling::Ets(share) => Some(share.unwrap_or(0)),
        })
        .collect();
    let total: u64 = shares.iter().flatten().sum();
    let mut weights: Vec<u64> = shares.iter().map(|s| s.unwrap_or(0) / 1000).collect();
    let missing = (total + 500) / 1000 - weights.iter().sum::<u64>();
    let mut by_remainder: Vec<usize> = (0..shares.len())
        .filter(|&i| shares[i].is_some_and(|s| s % 1000 > 0))
        .collect();
    by_remainder.sort_by_key(|&i| std::cmp::Reverse(shares[i].unwrap_or(0) % 1000));
    for &i in by_remainder
        .iter()
        .take(usize::try_from(missing).unwrap_or(0))
    {
        weights[i] += 1;
    }
    for i in 0..shares.len() {
        if shares[i].is_some_and(|s| s > 0) && weights[i] == 0 {
            let largest = (0..weights.len())
                .filter(|&j| shares[j].is_some())
                .max_by_key(|&j| (weights[j], std::cmp::Reverse(j)));
            if let Some(j) = largest.filter(|&j| weights[j] > 1) {
                weights[j] -= 1;
                weights[i] = 1;
            }
        }
    }
    weights
        .into_iter()
        .map(|w| u8::try_from(w).unwrap_or(u8::MAX))
        .collect()
}

fn scheduling_of(v: &ClassView, weight: u8) -> Scheduling {
    match v.scheduling.value {
        MScheduling::Strict => Scheduling::Strict,
        MScheduling::Ets(_) => Scheduling::Ets {
            weight_percent: weight,
        },
    }
}

/// The QoS plan of a device from its class views.
fn qos_plan(fabric: &Fabric, views: &[ClassView]) -> QosPlan {
    let table = dscp_table(views);
    let weights = ets_weights(views);
    let mut classes: Vec<ClassContext> = views
        .iter()
        .zip(&weights)
        .map(|(v, &weight)| {
            let priority = v.priority.value;
            ClassContext {
                name: fabric.class(v.id).name.clone(),
                dscps: (0u8..64)
                    .filter(|&d| table[usize::from(d)] == Some(v.id))
                    .collect(),
                default: matches!(
                    v.dscp,
                    Some(model::Sourced {
                        value: Dscp::Other,
                        ..
                    })
                ),
                priority,
                tc: v.tc.value,
                queue: v.queue.value,
                rate_percent: v.rate.map(|r| u8::try_from(r.value / 1000).unwrap_or(100)),
                lossless: v.lossless.value,
                ecn: ecn_of(v),
                scheduling: scheduling_of(v, weight),
                cnp: fabric.class(v.id).cnp.is_some(),
            }
        })
        .collect();
    classes.sort_by(|a, b| (a.priority, &a.name).cmp(&(b.priority, &b.name)));
    let lossless_priorities: BTreeSet<u8> = views
        .iter()
        .filter(|v| v.lossless.value)
        .map(|v| v.priority.value)
        .collect();
    let dscp_to_tc = table
        .iter()
        .map(|c| {
            c.map_or(0, |id| {
                views.iter().find(|v| v.id == id).map_or(0, |v| v.tc.value)
            })
        })
        .collect();
    QosPlan {
        classes,
        lossless_priorities: lossless_priorities.into_iter().collect(),
        dscp_to_tc,
    }
}

fn lower_switch(
    fabric: &Fabric,
    skus: &Skus,
    s: SwitchId,
    plan: &[PortHeadroom],
) -> Result<SwitchContext, Diagnostic> {
    let sw = fabric.switch(s);
    let model = fabric.switch_model(s);
    let os = model.os.value;
    let sku = match skus.get(sw.model.index()) {
        Some(Some(Ok(sku))) => Some(sku),
        Some(Some(Err(d))) => return Err(d.clone()),
        _ => None,
    };
    let views = fabric.switch_classes(s);
    let qos = qos_plan(fabric, &views);
    let mtu = fabric.port_mtu(s).value.get();
    let cell = model.cell.map_or(1, |c| c.value.get());
    let threshold = pause_threshold(plan, model);

    let watchdog_source = sw.watchdog.unwrap_or(fabric.watchdog);
    let watchdog = watchdog_context(watchdog_source.value);

    let ports_in = PortsIn {
        fabric,
        skus,
        switch: s,
        plan,
        views: &views,
        lossless: &qos.lossless_priorities,
        mtu,
        threshold,
        watchdog: watchdog.is_some(),
    };
    let mut ports = port_contexts(&ports_in);

    let platform = model.platform.map(|p| PlatformContext {
        name: p.name.clone(),
        asic: p.asic_family(),
        breakouts: breakouts(p, model, os, &ports),
    });
    // SONiC's buffer, watchdog and lanes come from its SKU's plan; every other OS partitions
    // the platform's buffer itself.
    let (buffer, watchdog, sonic) = match sku {
        Some(sku) => {
            let (plan, buffer, watchdog) = sonic::plan(
                &sonic::Input {
                    fabric,
                    switch: s,
                    model,
                    sku,
                    mtu,
                    watchdog,
                    watchdog_default: watchdog_source.default,
                },
                &mut ports,
            )?;
            (buffer, watchdog, Some(plan))
        }
        None => {
            // Headroom per packet buffer: the switch's, or on a chassis each line-card
            // ASIC's (the pools are one ASIC's, as `model.buffer` is); the busiest sizes
            // them. The analysis' figure, the one FAB451 judged.
            let headroom_total = crate::analysis::buffer::headroom_by_buffer(fabric, s, plan)
                .into_values()
                .max()
                .unwrap_or(0);
            let buffer = buffer_plan(sw, model, os, cell, headroom_total)?;
            (buffer, watchdog, None)
        }
    };
    let mut buffer = buffer;
    buffer.pause_point_bytes = crate::analysis::ecn::pause_point(fabric, s, plan);
    Ok(SwitchContext {
        device: sw.name.clone(),
        os,
        release: model.release.map(|r| r.value),
        platform,
        description: sw.description.as_ref().map(|d| d.value.clone()),
        fabric: fabric.name.clone(),
        hash_fields: hash_fields(fabric),
        lb: lb_context(fabric, s, &ports),
        mlag: mlag::context(fabric, s, |t, i| port_name_in(fabric, skus, t, i)),
        mtu: u32::try_from(mtu).unwrap_or(u32::MAX),
        qos,
        watchdog,
        buffer,
        ports,
        sonic,
    })
}

/// The pause trigger of the first lossless priority (one per port in every target).
fn pause_threshold(plan: &[PortHeadroom], model: &model::SwitchModel) -> PauseThreshold {
    match plan.first().map(|p| p.pause) {
        Some(physics::PauseThreshold::Static(bytes)) => PauseThreshold::Static { bytes },
        Some(physics::PauseThreshold::Dynamic(alpha)) => PauseThreshold::Dynamic {
            log2_alpha: alpha.dynamic_th(),
        },
        None => PauseThreshold::Dynamic {
            log2_alpha: model.dynamic_threshold.value,
        },
    }
}

/// ECN per egress queue on a port: the link's `ecn CLASS …`, else `ecn SPEED …` for its
/// speed, else the class's.
fn ecn_queues(views: &[ClassView], link: &model::Link) -> Vec<QueueEcn> {
    let mut q: Vec<QueueEcn> = views
        .iter()
        .filter(|v| v.congestion.value == model::Congestion::Dcqcn)
        .map(|v| QueueEcn {
            queue: v.queue.value,
            ecn: ecn_on(v, link),
        })
        .collect();
    q.sort_by_key(|q| q.queue);
    q.dedup_by_key(|q| q.queue);
    q
}

/// The PFC watchdog a switch is given (`None`: off).
fn watchdog_context(w: MWatchdog) -> Option<Watchdog> {
    match w {
        MWatchdog::Off => None,
        MWatchdog::On {
            detect_ns,
            restore_ns,
            poll_ns,
            action,
        } => Some(Watchdog {
            detect_ms: ms(detect_ns.get()),
            restore_ms: ms(restore_ns.get()),
            poll_ms: ms(poll_ns.get()),
            defaults: watchdog_defaults(detect_ns, restore_ns, poll_ns),
            action: match action {
                model::WatchdogAction::Drop => WatchdogAction::Drop,
                model::WatchdogAction::Forward => WatchdogAction::Forward,
                model::WatchdogAction::Alert => WatchdogAction::Alert,
            },
        }),
    }
}

/// What `port_contexts` reads for one switch.
struct PortsIn<'a> {
    fabric: &'a Fabric,
    skus: &'a Skus,
    switch: SwitchId,
    /// The analysis' headroom plan of the switch, sorted by port, then priority.
    plan: &'a [PortHeadroom],
    views: &'a [ClassView],
    /// The fabric's lossless priorities (on ports whose peer pauses).
    lossless: &'a [u8],
    mtu: u64,
    threshold: PauseThreshold,
    /// Whether the switch runs a PFC watchdog.
    watchdog: bool,
}

/// Every linked port of a switch, in port order: its peer, speed, PFC, headroom and ECN.
fn port_contexts(input: &PortsIn<'_>) -> Vec<PortContext> {
    let PortsIn {
        fabric,
        skus,
        switch: s,
        plan,
        views,
        lossless,
        mtu,
        threshold,
        watchdog,
    } = *input;
    let sw = fabric.switch(s);
    let mut ports = Vec::with_capacity(sw.ports.len());
    let me = DeviceId::Switch(s);
    for (i, link) in sw.ports.iter().enumerate() {
        let Some(link) = *link else { continue };
        let index = i as u32;
        let l = fabric.link(link);
        let peer = fabric.peer(link, me);
        let (peer_name, peer_port, pfc_on) = match peer.device {
            DeviceId::Switch(p) => (
                fabric.switch(p).name.clone(),
                port_name_in(fabric, skus, p, peer.port),
                true,
            ),
            DeviceId::Host(h) => (
                fabric.host(h).name.clone(),
                fabric.nic_name(h, peer.port),
                fabric.host_pfc(h),
            ),
        };
        // The plan is sorted by port, then priority.
        let from = plan.partition_point(|e| e.port < index);
        let to = plan.partition_point(|e| e.port <= index);
        let entries = &plan[from..to];
        let lossless_priorities: Vec<u8> = if pfc_on {
            lossless.to_vec()
        } else {
            Vec::new()
        };
        let headroom = port_headroom(entries, &lossless_priorities);
        let name = port_name_in(fabric, skus, s, index);
        ports.push(PortContext {
            // SONiC's come from its SKU (`sonic::plan`).
            lanes: Vec::new(),
            name,
            index,
            speed_mbps: u32::try_from(l.speed.get()).unwrap_or(u32::MAX),
            mtu: u32::try_from(mtu).unwrap_or(u32::MAX),
            cable_m: u32::try_from(l.cable_mm.value.get().div_ceil(1000).max(1))
                .unwrap_or(u32::MAX),
            description: Some(format!("{peer_name} {peer_port}")),
            peer: peer_name,
            peer_port,
            fec: if l.speed.get() >= 100_000 {
                Fec::Rs
            } else {
                Fec::None
            },
            pause_threshold: threshold,
            ecn: ecn_queues(views, l),
            pfc_watchdog: watchdog && !lossless_priorities.is_empty(),
            lossless_priorities,
            headroom,
        });
    }
    ports
}

/// One port's headroom per lossless priority, from the analysis' plan entries of the port
/// (issue 21: one computation per number).
fn port_headroom(entries: &[PortHeadroom], lossless_priorities: &[u8]) -> Vec<Headroom> {
    lossless_priorities
        .iter()
        .map(|&p| {
            // Every linked port has a plan entry per lossless priority.
            let entry = entries.iter().find(|e| e.priority == p);
            let fixed = entry.is_some_and(|e| e.headroom_override.is_some());
            Headroom {
                priority: p,
                xoff_bytes: entry.map_or(0, |e| e.configured),
                xon_bytes: entry.map_or(0, |e| e.xon),
                size_bytes: entry.map_or(0, PortHeadroom::size),
                fixed,
                formula: if fixed {
                    HeadroomFormula::Override
                } else {
                    HeadroomFormula::Canonical
                },
            }
        })
        .collect()
}

/// The buffer partition of a switch of a non-SONiC target (SONiC takes its SKU's layout):
/// 10 % lossy, the PG headroom (Junos: its own partition, whole percent), the rest lossless;
/// or the finding that stops the switch (no `buffer`, or headroom beyond it).
fn buffer_plan(
    sw: &model::Switch,
    model: &model::SwitchModel,
    os: SwitchOs,
    cell: u64,
    headroom_total: u64,
) -> Result<BufferPlan, Diagnostic> {
    let Some(total) = model.buffer.map(|b| b.value.get()) else {
        return Err(Diagnostic::new(
            Code::MissingBuildInput,
            model.span,
            format!(
                "switch model `{}` has no `buffer`; the buffer pools of `{}` cannot be sized",
                model.name, sw.name
            ),
        )
        .label("this model")
        .help("add the ASIC's packet buffer to the model, e.g. `buffer 64MB`"));
    };
    if headroom_total > total {
        return Err(Diagnostic::new(
            Code::MissingBuildInput,
            sw.span,
            format!(
                "the PFC headroom of `{}` ({headroom_total} B) exceeds its buffer ({total} B)",
                sw.name
            ),
        )
        .help(
            "shorten the cables, lower the lossless priorities or use a model with more buffer",
        ));
    }
    // Ingress (SONiC returned above, with SONiC's own layout): the buffer is partitioned, 10 %
    // lossy (the Juniper reference keeps 10 %), the PG headroom (Junos: its own
    // `lossless-headroom` partition, rounded up to a whole percent), the rest lossless.
    let lossy_reserve = round_down(total / 10, cell);
    let (shared, headroom_pool) = match os {
        SwitchOs::Junos => {
            let pct = (u128::from(headroom_total) * 100).div_ceil(u128::from(total.max(1)));
            let alloc = u64::try_from(u128::from(total) * pct / 100).unwrap_or(total);
            (
                round_down(
                    total.saturating_sub(lossy_reserve).saturating_sub(alloc),
                    cell,
                ),
                Some(alloc),
            )
        }
        _ => (
            round_down(
                total
                    .saturating_sub(lossy_reserve)
                    .saturating_sub(headroom_total),
                cell,
            ),
            None,
        ),
    };
    // Junos: QFX5220/5230 require the ingress and egress lossless partitions to match (J1:
    // Juniper's AI-cluster DCQCN configlet, github.com/Juniper/terraform-apstra-examples
    // `ai-cluster-jvd/configlet_dcqcn.tf`, "the lossless shared buffer percentage for ingress
    // and egress must match"), so egress lossless is the ingress lossless partition there.
    let (egress_lossless, egress_lossy) = match os {
        SwitchOs::Junos => (shared, total - shared),
        _ => (total - lossy_reserve, lossy_reserve),
    };
    // One congested queue under a dynamic threshold α holds α/(1+α) of the pool.
    let alpha = physics::Alpha::new(model.dynamic_threshold.value)
        .unwrap_or(physics::Alpha::new(0).expect("α=1"));
    let (num, den) = alpha.fraction();
    let queue = u64::try_from(u128::from(egress_lossless) * num / (den + num)).unwrap_or(u64::MAX);
    Ok(BufferPlan {
        total_bytes: total,
        ingress_lossless_pool_bytes: shared,
        shared_headroom_pool_bytes: headroom_pool,
        egress_lossless_pool_bytes: egress_lossless,
        egress_lossy_pool_bytes: egress_lossy,
        lossless_queue_buffer_bytes: queue,
        queue_log2_alpha: alpha.dynamic_th(),
        pause_point_bytes: None,
        cell_bytes: model.cell.map(|c| c.value.get()),
    })
}

fn round_down(bytes: u64, cell: u64) -> u64 {
    if cell <= 1 {
        bytes
    } else {
        bytes / cell * cell
    }
}

/// The host's context; `Ok(None)` for a host without a linked NIC, `Err` for a host whose
/// NICs no host script can configure.
fn lower_host(fabric: &Fabric, h: HostId) -> Result<Option<HostContext>, Diagnostic> {
    let host = fabric.host(h);
    let mut driver = None;
    // NICs off the lossless fabric (issue 18 item 4) are left alone, whatever their driver.
    for nic in host.nics.iter().filter(|n| n.on_fabric()) {
        let model = &fabric.nic_models[nic.model.index()];
        match NicDriver::from_model(&model.driver.value) {
            Some(d) if driver.is_none_or(|x| x == d) => driver = Some(d),
            Some(_) => {
                return Err(Diagnostic::new(
                    Code::TargetCannotExpress,
                    host.span,
                    format!(
                        "host `{}` mixes NIC drivers; one host script configures one driver",
                        host.name
                    ),
                )
                .label("this host")
                .help("give every NIC of a host the same NIC model driver"));
            }
            // FAB922 already stops check on an unknown driver; this keeps build honest
            // when it is called on a fabric check did not pass.
            None => {
                return Err(Diagnostic::new(
                    Code::UnknownNicDriver,
                    model.driver.span,
                    format!(
                        "host `{}`: no host script for NIC driver `{}`",
                        host.name, model.driver.value
                    ),
                )
                .label("driver set here")
                .help("use `driver mlx5`, `bnxt`, `ice`, `dcb`, `hns` or `hccn`"));
            }
        }
    }
    let Some(driver) = driver else {
        return Ok(None);
    };
    // mlx5 guesses `mlx5_<i>`; an Ascend NPU port (hccn) is its NPU device number, in NIC order.
    if !matches!(driver, NicDriver::Mlx5 | NicDriver::Hccn)
        && host.nics.iter().any(|n| {
            n.link.is_some() && n.netdev.is_none() && n.rdma_device.is_none() && n.pci.is_none()
        })
    {
        return Err(Diagnostic::new(
            Code::TargetCannotExpress,
            host.span,
            format!(
                "host `{}` declares no NIC identity, and the `{}` host script cannot guess one",
                host.name,
                driver.as_str()
            ),
        )
        .label("no `pci`, `netdev` or `rdma-device` here")
        .help("declare the NICs in NIC (rail) order: `pci 0000:18:00.0, …` as `lspci -D` shows them, or `netdev …`"));
    }
    let nics: Vec<NicContext> = host
        .nics
        .iter()
        .enumerate()
        .filter(|(_, nic)| nic.on_fabric())
        .filter_map(|(i, nic)| {
            let link = fabric.link(nic.link?);
            let me = model::Endpoint {
                device: DeviceId::Host(h),
                port: i as u32,
            };
            let peer = if link.a == me { link.b } else { link.a };
            // An Ascend NPU port is its NPU device number (host_hccn), nothing is guessed.
            let guessed = driver != NicDriver::Hccn
                && nic.netdev.is_none()
                && nic.rdma_device.is_none()
                && nic.pci.is_none();
            Some(NicContext {
                index: i as u32 + 1,
                name: fabric.nic_name(h, i as u32),
                netdev: nic.netdev.clone(),
                rdma_device: if guessed {
                    default_rdma_device(driver, i)
                } else {
                    nic.rdma_device.clone()
                },
                pci: nic.pci.clone(),
                guessed,
                rdma_port: 1,
                peer: fabric.endpoint_name(peer),
                speed_mbps: link.speed.get(),
                rail: nic.role == model::NicRole::Backend,
            })
        })
        .collect();
    if nics.is_empty() {
        return Ok(None);
    }
    Ok(Some(HostContext {
        host: host.name.clone(),
        description: None,
        fabric: fabric.name.clone(),
        driver,
        qos: host_qos(fabric, h),
        nics,
        qps_per_connection: fabric
            .load_balance
            .as_ref()
            .and_then(|lb| lb.qps_per_connection.map(|q| q.value)),
        split_data_on_qps: fabric
            .load_balance
            .as_ref()
            .and_then(|lb| lb.split_data_on_qps.map(|q| q.value)),
        left_alone: host
            .nics
            .iter()
            .enumerate()
            .filter(|(_, n)| !n.on_fabric())
            .map(|(i, n)| format!("{} ({})", fabric.nic_name(h, i as u32), n.role.word()))
            .collect(),
        bonds: host_bonds(host),
        deviations: host_deviations(fabric, host),
    }))
}

/// The statements of a host's block that make its files differ from the fabric's, in source
/// terms: `pfc off`, `ecn off`, and per overridden class the properties its NICs run with
/// (`host_qos`): ECN thresholds are a switch's (a NIC marks nothing), and `pfc-threshold` is
/// refused in a host block, so neither is named.
fn host_deviations(fabric: &Fabric, host: &model::Host) -> Vec<String> {
    let mut out = Vec::new();
    if host.pfc.is_some_and(|p| !p.value) {
        out.push("pfc off".to_string());
    }
    if host.ecn_off.is_some() {
        out.push("ecn off".to_string());
    }
    for (c, o) in fabric.class_ids().zip(&host.class_overrides) {
        let set: Vec<&str> = [
            ("dscp", o.dscp.is_some()),
            ("priority", o.priority.is_some()),
            ("lossless", o.lossless.is_some()),
            ("congestion", o.congestion.is_some()),
            // `ecn min … max …` turns ECN on as it sets thresholds: only a change of on/off
            // reaches the NICs.
            (
                "ecn",
                o.ecn_enabled
                    .as_ref()
                    .is_some_and(|e| e.value != fabric.class(c).ecn.enabled.value),
            ),
            ("scheduling", o.scheduling.is_some()),
        ]
        .into_iter()
        .filter(|(_, on)| *on)
        .map(|(w, _)| w)
        .collect();
        if !set.is_empty() {
            out.push(format!(
                "class {} ({})",
                fabric.class(c).name,
                set.join(", ")
            ));
        }
    }
    out
}

// ---- load-balance (issue 20 item 4): what the fabric asks of one switch; `render::lb`
// decides what each target writes of it.

/// The `load-balance` request for switch `s`, whose fabric ports are `ports`.
fn lb_context(fabric: &Fabric, s: SwitchId, ports: &[PortContext]) -> LbContext {
    let Some(lb) = &fabric.load_balance else {
        return LbContext::default();
    };
    let mode = lb
        .mode
        .as_ref()
        .map(|m| m.value)
        .filter(|m| *m != LbMode::Ecmp)
        .map(LbMode::keyword);
    let tier = tier_of(fabric, s);
    let (seed, seed_untiered) = match lb.seed.as_ref().map(|s| s.value) {
        None => (None, false),
        Some(LbSeed::Fixed(n)) => (Some(n), false),
        // One seed per tier: the tier's number, so a leaf and a spine never hash alike.
        Some(LbSeed::PerTier) => (tier.map(u64::from), tier.is_none()),
    };
    let switches: BTreeSet<&str> = fabric.switches.iter().map(|s| s.name.as_str()).collect();
    LbContext {
        mode,
        flowlet_gap_ns: lb.flowlet_gap.as_ref().map(|g| g.value.get()),
        seed,
        seed_untiered,
        switch_ports: ports
            .iter()
            .filter(|p| switches.contains(p.peer.as_str()))
            .map(|p| p.name.clone())
            .collect(),
    }
}

/// The tier number of a switch: its own `tier`, else its generator tier's level.
fn tier_of(fabric: &Fabric, s: SwitchId) -> Option<u8> {
    let sw = fabric.switch(s);
    sw.tier.as_ref().map(|t| t.value).or_else(|| {
        sw.generated
            .and_then(|t| fabric.tiers.get(t.0 as usize))
            .map(|t| t.level)
    })
}

/// The host's bonds (issue 18): `bond<card>` over the ports of each multi-port NIC.
fn host_bonds(host: &model::Host) -> Vec<crate::render::BondContext> {
    let Some(mode) = host.bond else {
        return Vec::new();
    };
    host.bonds
        .iter()
        .filter_map(|b| {
            let card = host.nics.get(*b.first()? as usize)?.card;
            Some(crate::render::BondContext {
                name: format!("bond{card}"),
                mode: mode.value.kernel(),
                members: b.iter().map(|i| i + 1).collect(),
            })
        })
        .collect()
}

/// The keywords of the fabric's `load-balance { hash … }`, in the order written.
fn hash_fields(fabric: &Fabric) -> Option<Vec<&'static str>> {
    let hash = fabric.load_balance.as_ref()?.hash.as_ref()?;
    Some(hash.value.iter().map(|f| f.keyword()).collect())
}

/// The name a driver gives its `i`-th RDMA device (0-based) when nothing else is known:
/// `mlx5_<i>`, which is wrong on servers whose storage and compute NICs interleave (FAB920).
fn default_rdma_device(driver: NicDriver, i: usize) -> Option<String> {
    match driver {
        NicDriver::Mlx5 => Some(format!("mlx5_{i}")),
        // Only mlx5's naming is modelled (FAB920); irdma names devices after the netdev
        // (rdmap…), bnxt_re numbers them in probe order too, and a generic DCB NIC has no
        // known name: those hosts must declare an identity.
        NicDriver::Bnxt | NicDriver::Ice | NicDriver::Dcb | NicDriver::Hns | NicDriver::Hccn => {
            None
        }
    }
}

/// The QoS every NIC of host `h` runs.
fn host_qos(fabric: &Fabric, h: HostId) -> HostQos {
    let views = fabric.host_classes(h);
    let pfc_on = fabric.host_pfc(h);
    let mut pfc = [0u8; 8];
    let mut tsa = [Tsa::Ets; 8];
    let mut tcbw = [0u8; 8];
    let weights = ets_weights(&views);
    for (v, &w) in views.iter().zip(&weights) {
        let p = usize::from(v.priority.value.min(7));
        if v.lossless.value && pfc_on {
            pfc[p] = 1;
        }
        match v.scheduling.value {
            MScheduling::Strict => {
                tsa[p] = Tsa::Strict;
                tcbw[p] = 0;
            }
            MScheduling::Ets(_) => {
                if tsa[p] == Tsa::Ets {
                    tcbw[p] = tcbw[p].saturating_add(w);
                }
            }
        }
    }
    let first_dscp = |v: &ClassView| match &v.dscp {
        Some(model::Sourced {
            value: Dscp::Values(values),
            ..
        }) => values.first().copied(),
        _ => None,
    };
    let mut roce: Vec<TosClass> = roce_classes(&views)
        .into_iter()
        .map(|(v, dscp)| TosClass {
            class: fabric.class(v.id).name.clone(),
            dscp,
            priority: v.priority.value,
            tos: (dscp << 2) | 0b10,
        })
        .collect();
    let first = if roce.is_empty() {
        None
    } else {
        Some(roce.remove(0))
    };
    let cnp = views.iter().find(|v| fabric.class(v.id).cnp.is_some());
    let table = dscp_table(&views);
    let dscp2prio = table
        .iter()
        .map(|c| c.map_or(0, |c| views[c.index()].priority.value))
        .collect();
    let dcqcn_priorities: Vec<u8> = views
        .iter()
        .filter(|v| v.marks_ecn())
        .map(|v| v.priority.value)
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    HostQos {
        mtu: u32::try_from(fabric.host_netdev_mtu()).unwrap_or(u32::MAX),
        pfc,
        prio_tc: [0, 1, 2, 3, 4, 5, 6, 7],
        tsa,
        tcbw,
        dscp2prio,
        roce: first,
        other_roce: roce,
        cnp_dscp: cnp.and_then(first_dscp).unwrap_or(48),
        cnp_priority: cnp.map_or(6, |v| v.priority.value),
        // DCQCN on every priority, as the firmware default `ROCE_CC_PRIO_MASK` = 255 has it:
        // turning it off elsewhere buys nothing (no switch queue there marks ECN) and would
        // take congestion control from RoCE the fabric does not model (storage, H11).
        ecn_enable: [1; 8],
        dcqcn_priorities,
    }
}

#[cfg(test)]
mod tests {
    use super::port_names::sonic_lanes_per_port;
    use super::*;

    #[test]
    fn lanes_fit_a_512_lane_asic() {
        assert_eq!(sonic_lanes_per_port(32), 8);
        assert_eq!(sonic_lanes_per_port(64), 8);
        assert_eq!(sonic_lanes_per_port(128), 4);
        assert_eq!(sonic_lanes_per_port(1024), 1);
    }

    #[test]
    fn targets_parse() {
        let t = Targets::parse("sonic, host").unwrap();
        assert!(t.sonic && t.host && !t.eos);
        assert!(
            Targets::parse("sonic,ios")
                .unwrap_err()
                .contains("unknown target `ios`")
        );
    }
}
