//! What each target writes of the switch side of `load-balance` (issue 20 item 4), decided in
//! one place: the renderers print the lines built here, and the preflight reports every
//! property a switch does not get (FAB930, FAB931), with what the switch does instead.
//!
//! Evidence, per target (the lines each builder writes):
//! * SONiC: `render::sonic_hash` (SWITCH_HASH `ecmp_hash`/`lag_hash`; no mode, gap or seed in
//!   sonic-net/sonic-buildimage@086b03bd70f9:src/sonic-yang-models/yang-models/sonic-hash.yang).
//! * Cumulus Linux (NVUE): `nv set system forwarding ecmp-hash …` (`render::cumulus`);
//!   `nv set system forwarding hash-seed 0-4294967295`, introduced in 5.2.0 (NVIDIA, NVUE
//!   Command Reference, System Forwarding,
//!   https://docs.nvidia.com/networking-ethernet-software/nvue-reference/Set-and-Unset-Commands/System-Forwarding/);
//!   adaptive routing `nv set router adaptive-routing enable on` and per interface
//!   `nv set interface swpN router adaptive-routing enable on` (`state enabled` from 5.15),
//!   introduced in 5.1.0, supported on Spectrum-4 from 5.6 (a beta on Spectrum-2/3 up to
//!   5.5) (NVUE Command Reference, Adaptive Routing, set and show commands,
//!   https://docs.nvidia.com/networking-ethernet-software/nvue-reference/Set-and-Unset-Commands/Adaptive-Routing/).
//!   NVUE has no flowlet or per-packet mode and no flowlet timer.
//! * EOS, Strata (Trident/Tomahawk) platforms: `ip load-sharing trident fields ip …` with the
//!   keywords `source-ip destination-ip source-port destination-port ingress-interface` (the
//!   hidden default `ip load-sharing trident fields ip source-ip source-port destination-ip
//!   destination-port ingress-interface`, annetutil/annet `annet/rulebook/arista/` defaults,
//!   and Arista's TOI "Selectable hashing fields", EOS 4.20.1F,
//!   https://arista.com/en/support/toi/tag/hashing). There is no protocol keyword. Sand
//!   (Jericho) platforms hash in `load-balance policies` / `load-balance sand profile`
//!   (aristanetworks/avd `eos/load-balance.j2`), whose IPv4 field words fabricc has no
//!   public source for. No EOS seed or DLB command is written (none sourced).
//! * NX-OS: `ip load-sharing address source-destination [port source-destination]
//!   [universal-id SEED]` (Cisco Nexus
//!   3000/9000 NX-API REST SDK User Guide 9.3(x), "Configuring ECMP Load Balancing": CLI
//!   `ip load-sharing address source-destination gre-outer rotate 43 universal-id 1`, DME
//!   `ipv4IPLoadSharing` `loadShareMode srcDest`, `universalID`,
//!   https://developer.cisco.com/docs/cisco-nexus-3000-and-9000-series-nx-api-rest-sdk-user-guide-and-api-reference-release-9-3x/configuring-ecmp-load-balancing).
//!   The fields and the seed are one command, so a seed is written only with a `hash`.
//! * Junos (QFX5000): `forwarding-options enhanced-hash-key inet|inet6 { no-…; }` removes a
//!   field from the default hash, which is exactly the five fields of `hash` (Junos CLI
//!   Reference, "inet (enhanced-hash-key)": default IP source, destination, L4 ports and
//!   protocol; https://juniper.net/documentation/us/en/software/junos/cli-reference/topics/ref/statement/inet-edit-forwarding-options-enhanced-hash-key-ex-series.html).
//!   The statements sit right under `enhanced-hash-key`, not under its `family` (the MX form,
//!   whose `inet` has no `no-protocol`): Juniper/yang@2a696d624fe5, 24.2/24.2R1.17 QFX
//!   `junos-qfx-conf-forwarding-options`, `enhanced-hash-key inet` and `inet6`.
//!   RoCEv2 destination-QP hashing is on by default "on devices and releases that support
//!   this feature" (Junos OS Evolved AI-ML Data Center Feature Guide, "Queue-Pair Hashing for
//!   RDMA Flows", https://juniper.net/documentation/us/en/software/junos/ai-ml-evo/topics/topic-map/load-balancing-queue-pair-hash.html):
//!   the QFX5240. Dynamic load balancing `enhanced-hash-key ecmp-dlb { flowlet
//!   inactivity-interval µs; | per-packet; }` ("Dynamic Load Balancing (DLB)",
//!   https://juniper.net/documentation/us/en/software/junos/interfaces-ethernet-switches/topics/topic-map/dynamic-load-balancing.html;
//!   the interval in microseconds, Apstra's default 256 µs) on the QFX5230 and QFX5240 of
//!   Juniper's AI data-center JVDs. No QFX5000 hash seed is documented.
//! * Huawei VRP (CloudEngine): `load-balance ecmp` and in its view `ip { src-ip | dst-ip |
//!   vlan | l4-src-port | l4-dst-port | protocol | flow-label | src-interface }` (CloudEngine
//!   8800/6800/5800 V300R023C00 Command Reference, "load-balance ecmp", "ip (ECMP load
//!   balance view)": "By default, IP packets are balanced based on src-ip, dst-ip,
//!   l4-src-port, and l4-dst-port"; example `ip src-ip protocol`). No RoCE QP field; fabricc
//!   writes no `ecmp seed` and no adaptive routing for VRP (not read yet).

use super::context::{Release, SwitchContext, SwitchOs};
use crate::catalogue::AsicFamily;

/// A switch property of `load-balance`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Prop {
    Hash,
    Mode,
    FlowletGap,
    Seed,
}

/// What a switch gets of one property it is asked for.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    Written,
    /// Written, but not all of it: the reason says what is left out and what the switch does.
    Partly(String),
    /// Not written: the reason says why and what each switch keeps.
    Not(String),
    /// SONiC has no name for a field (`roce-qp`): FAB931, no SWITCH_HASH at all.
    SonicField,
}

/// The Cumulus release from which adaptive routing is supported on Spectrum-4.
const CUMULUS_AR_FROM: Release = Release::new(5, 6);
/// The release from which NVUE spells adaptive routing `state enabled` (before: `enable on`).
const CUMULUS_AR_STATE_FROM: Release = Release::new(5, 15);

/// The verdict for `prop` on switch `ctx`; `None` when the fabric does not ask for it.
pub fn verdict(ctx: &SwitchContext, prop: Prop) -> Option<Verdict> {
    let asked = match prop {
        Prop::Hash => ctx.hash_fields.is_some(),
        Prop::Mode => ctx.lb.mode.is_some(),
        Prop::FlowletGap => ctx.lb.flowlet_gap_ns.is_some(),
        Prop::Seed => ctx.lb.seed.is_some() || ctx.lb.seed_untiered,
    };
    if !asked {
        return None;
    }
    if prop == Prop::Seed && ctx.lb.seed_untiered {
        return Some(Verdict::Not(
            "the switch has no tier, so `seed per-tier` gives it no seed; it keeps its default seed".into(),
        ));
    }
    Some(match ctx.os {
        SwitchOs::Sonic => sonic(ctx, prop),
        SwitchOs::Cumulus => cumulus(ctx, prop),
        SwitchOs::Eos => eos(ctx, prop),
        SwitchOs::Nxos => nxos(ctx, prop),
        SwitchOs::Junos => junos(ctx, prop),
        SwitchOs::Vrp => vrp(ctx, prop),
        SwitchOs::Comware => comware(ctx, prop),
    })
}

fn fields(ctx: &SwitchContext) -> &[&'static str] {
    ctx.hash_fields.as_deref().unwrap_or(&[])
}

fn asic(ctx: &SwitchContext) -> Option<AsicFamily> {
    ctx.platform.as_ref().and_then(|p| p.asic)
}

fn platform(ctx: &SwitchContext) -> Option<&str> {
    ctx.platform.as_ref().map(|p| p.name.as_str())
}

const NO_MODE: &str = "each switch keeps static per-flow ECMP hashing, so a RoCE flow stays on one path however congested it is";

fn sonic(ctx: &SwitchContext, prop: Prop) -> Verdict {
    match prop {
        Prop::Hash if fields(ctx).contains(&"roce-qp") => Verdict::SonicField,
        Prop::Hash => Verdict::Written,
        Prop::Mode => Verdict::Not(format!(
            "SONiC's CONFIG_DB (sonic-hash.yang) has no load-balancing mode; {NO_MODE}"
        )),
        Prop::FlowletGap => Verdict::Not(
            "SONiC's CONFIG_DB has no flowlet timer; each switch does no flowlet switching".into(),
        ),
        Prop::Seed => Verdict::Not(
            "SONiC's YANG models have no hash seed (orchagent's `ecmp_hash_seed` in SWITCH|switch is in none, so `config reload` would refuse it); each switch keeps the seed its image sets".into(),
        ),
    }
}

fn cumulus(ctx: &SwitchContext, prop: Prop) -> Verdict {
    match prop {
        // Every `hash` keyword but `roce-qp` has an `ecmp-hash` field (`cumulus::ecmp_hash`).
        Prop::Hash if !fields(ctx).contains(&"roce-qp") => Verdict::Written,
        Prop::Hash => Verdict::Not(
            "NVUE's `ecmp-hash` has no field for the RoCEv2 BTH destination QP; each switch keeps its ECMP hash fields (by default the 5-tuple and the IPv6 flow label)".into(),
        ),
        Prop::Mode if ctx.lb.mode == Some("adaptive") => cumulus_ar(ctx),
        Prop::Mode => Verdict::Not(format!(
            "NVUE has no flowlet or per-packet mode (its dynamic mode is adaptive routing, `mode adaptive`, on Spectrum-4); {NO_MODE}"
        )),
        Prop::FlowletGap => Verdict::Not(
            "NVUE has no flowlet timer (adaptive routing decides per packet from port load and queue occupancy)".into(),
        ),
        Prop::Seed if ctx.lb.seed.is_some_and(|s| s > u64::from(u32::MAX)) => Verdict::Not(
            "`hash-seed` takes 0-4294967295; each switch keeps the seed switchd chose".into(),
        ),
        Prop::Seed => Verdict::Written,
    }
}

/// Whether the switch runs `release` or later (no release stated: the newest, which does).
fn from(ctx: &SwitchContext, release: Release) -> bool {
    ctx.release.is_none_or(|r| r >= release)
}

fn cumulus_ar(ctx: &SwitchContext) -> Verdict {
    match asic(ctx) {
        None => Verdict::Not(format!(
            "adaptive routing is supported on Spectrum-4 only and the model names no `platform` (e.g. `platform nvidia-sn5600`); {NO_MODE}"
        )),
        Some(AsicFamily::Spectrum4) if from(ctx, CUMULUS_AR_FROM) => Verdict::Written,
        Some(AsicFamily::Spectrum4) => Verdict::Not(format!(
            "Cumulus Linux supports adaptive routing on Spectrum-4 from 5.6 (earlier releases have it as a beta on Spectrum-2/3 only); {NO_MODE}"
        )),
        Some(other) => Verdict::Not(format!(
            "Cumulus Linux supports adaptive routing on Spectrum-4 only, not on {} ({}); {NO_MODE}",
            other.as_str(),
            platform(ctx).unwrap_or("")
        )),
    }
}

/// The EOS keywords of `ip load-sharing trident fields ip`, per `hash` keyword.
const EOS_FIELDS: [(&str, &str); 4] = [
    ("src-ip", "source-ip"),
    ("dst-ip", "destination-ip"),
    ("src-port", "source-port"),
    ("dst-port", "destination-port"),
];

fn eos(ctx: &SwitchContext, prop: Prop) -> Verdict {
    let unsourced = |what: &str| {
        Verdict::Not(format!(
            "fabricc has no public source for EOS's {what} command; {}",
            match prop {
                Prop::Seed =>
                    "each switch keeps its default hash seed, so switches of different tiers may hash alike (polarisation)",
                _ => NO_MODE,
            }
        ))
    };
    match prop {
        Prop::Hash => eos_hash(ctx),
        Prop::Mode => unsourced("dynamic load balancing"),
        Prop::FlowletGap => unsourced("flowlet timer"),
        Prop::Seed => unsourced("hash seed"),
    }
}

fn eos_hash(ctx: &SwitchContext) -> Verdict {
    let keeps = "each switch keeps its default fields (Strata: `ip load-sharing trident fields ip source-ip source-port destination-ip destination-port ingress-interface`)";
    match asic(ctx) {
        None => Verdict::Not(format!(
            "the model names no `platform`, and EOS hashes per ASIC family (Strata: `ip load-sharing trident fields`, Sand: `load-balance sand profile`); {keeps}"
        )),
        Some(f) if !f.is_broadcom_xgs() => Verdict::Not(format!(
            "{} is a Sand (Jericho) platform, hashed in `load-balance sand profile`, whose IPv4 field keywords fabricc has no public source for; each switch keeps `load-balance sand profile default`",
            platform(ctx).unwrap_or("")
        )),
        Some(_) if fields(ctx).contains(&"roce-qp") => Verdict::Not(format!(
            "`ip load-sharing trident fields ip` has no field for the RoCEv2 BTH destination QP; {keeps}"
        )),
        Some(_) if fields(ctx).contains(&"protocol") => Verdict::Partly(
            "`ip load-sharing trident fields ip` has no protocol keyword: written without `protocol`, so the IP protocol is hashed only if the platform does so of itself".into(),
        ),
        Some(_) => Verdict::Written,
    }
}

/// `ip load-sharing trident fields ip …` for an EOS Strata switch, when written.
pub fn eos_lines(ctx: &SwitchContext) -> Vec<String> {
    if !matches!(
        verdict(ctx, Prop::Hash),
        Some(Verdict::Written | Verdict::Partly(_))
    ) {
        return Vec::new();
    }
    let words: Vec<&str> = EOS_FIELDS
        .iter()
        .filter(|(kw, _)| fields(ctx).contains(kw))
        .map(|(_, w)| *w)
        .collect();
    if words.is_empty() {
        return Vec::new();
    }
    vec![format!(
        "ip load-sharing trident fields ip {}",
        words.join(" ")
    )]
}

/// NX-OS's `ip load-sharing address …` words for the address/port fields of `hash` (protocol
/// aside); `None` for a set NX-OS has no form for.
fn nxos_address(fields: &[&str]) -> Option<&'static str> {
    let has = |k: &str| fields.contains(&k);
    let set = (
        has("src-ip"),
        has("dst-ip"),
        has("src-port"),
        has("dst-port"),
    );
    match set {
        (true, true, true, true) => Some("source-destination port source-destination"),
        (true, true, false, false) => Some("source-destination"),
        _ => None,
    }
}

fn nxos(ctx: &SwitchContext, prop: Prop) -> Verdict {
    let f = fields(ctx);
    match prop {
        Prop::Hash if f.contains(&"roce-qp") => Verdict::Not(
            "fabricc has no public source for an NX-OS UDF hash on the RoCEv2 BTH destination QP; each switch keeps its `ip load-sharing` fields (by default source-destination addresses and ports)".into(),
        ),
        Prop::Hash if nxos_address(f).is_none() => Verdict::Not(
            "fabricc writes `ip load-sharing address` only with source and destination together, with or without both ports (the forms Cisco's NX-API guide shows; it has no public source for the source-only or destination-only forms); each switch keeps its `ip load-sharing` fields (by default source-destination addresses and ports)".into(),
        ),
        Prop::Hash if f.contains(&"protocol") => Verdict::Partly(
            "`ip load-sharing address` has no protocol word: written without `protocol`, so the IP protocol is hashed only if the platform does so of itself".into(),
        ),
        Prop::Hash => Verdict::Written,
        Prop::Mode | Prop::FlowletGap => Verdict::Not(format!(
            "fabricc has no public source for NX-OS dynamic load balancing; {NO_MODE}"
        )),
        Prop::Seed if !nxos_hash_written(ctx) => Verdict::Not(
            "NX-OS sets the seed (`universal-id`) on the `ip load-sharing address` line, which also sets the fields, and fabricc writes none without a `hash` it can write; each switch keeps its default universal-id".into(),
        ),
        Prop::Seed if ctx.lb.seed.is_some_and(|s| s == 0 || s > u64::from(u32::MAX)) => {
            Verdict::Not(
                "`universal-id` takes 1-4294967295; each switch keeps its default universal-id"
                    .into(),
            )
        }
        Prop::Seed => Verdict::Written,
    }
}

fn nxos_hash_written(ctx: &SwitchContext) -> bool {
    matches!(nxos(ctx, Prop::Hash), Verdict::Written | Verdict::Partly(_))
        && ctx.hash_fields.is_some()
}

/// `ip load-sharing address … [universal-id N]` for an NX-OS switch, when written.
pub fn nxos_lines(ctx: &SwitchContext) -> Vec<String> {
    if !nxos_hash_written(ctx) {
        return Vec::new();
    }
    let Some(address) = nxos_address(fields(ctx)) else {
        return Vec::new();
    };
    let seed = match (verdict(ctx, Prop::Seed), ctx.lb.seed) {
        (Some(Verdict::Written), Some(n)) => format!(" universal-id {n}"),
        _ => String::new(),
    };
    vec![format!("ip load-sharing address {address}{seed}")]
}

/// The platforms whose Junos runs `ecmp-dlb` (Juniper's AI data-center JVDs: QFX5230, QFX5240).
const JUNOS_DLB: [&str; 2] = ["juniper-qfx5230-64cd", "juniper-qfx5240-64od"];
/// The platform whose Junos OS Evolved hashes RoCEv2 on the destination QP by default.
const JUNOS_QP_HASH: [&str; 1] = ["juniper-qfx5240-64od"];

fn junos(ctx: &SwitchContext, prop: Prop) -> Verdict {
    let p = platform(ctx);
    let dlb = p.is_some_and(|p| JUNOS_DLB.contains(&p));
    let no_dlb = || {
        Verdict::Not(match p {
            None => format!(
                "the model names no `platform`, and `ecmp-dlb` exists on QFX5000 platforms only (e.g. `platform juniper-qfx5240-64od`); {NO_MODE}"
            ),
            Some(p) => format!(
                "fabricc knows `ecmp-dlb` on the QFX5230 and QFX5240 only, not on {p}; {NO_MODE}"
            ),
        })
    };
    match prop {
        Prop::Hash if fields(ctx).contains(&"roce-qp") && !p.is_some_and(|p| JUNOS_QP_HASH.contains(&p)) => Verdict::Not(
            "Junos hashes RoCEv2 on the destination QP by default only on the QFX5240 (Junos OS Evolved), and has no statement for it elsewhere; each switch keeps its default fields (IP addresses, L4 ports, protocol)".into(),
        ),
        Prop::Hash => Verdict::Written,
        Prop::Mode | Prop::FlowletGap if !dlb => no_dlb(),
        Prop::Mode if ctx.lb.mode == Some("adaptive") => Verdict::Not(format!(
            "Junos's dynamic load balancing (`ecmp-dlb`) has flowlet, per-packet and assigned-flow modes and no adaptive routing (write `mode flowlet`); {NO_MODE}"
        )),
        Prop::Mode => Verdict::Written,
        Prop::FlowletGap if ctx.lb.mode != Some("flowlet") => Verdict::Not(
            "`inactivity-interval` belongs to `ecmp-dlb flowlet`, and the mode is not `flowlet`".into(),
        ),
        Prop::FlowletGap if ctx.lb.flowlet_gap_ns.is_some_and(|g| g % 1_000 != 0) => Verdict::Partly(
            "`inactivity-interval` is in whole microseconds: written rounded up".into(),
        ),
        Prop::FlowletGap => Verdict::Written,
        Prop::Seed => Verdict::Not(
            "no QFX5000 hash seed is documented for `enhanced-hash-key`; each switch keeps its default seed, so switches of different tiers may hash alike (polarisation)".into(),
        ),
    }
}

/// Comware: no H3C document fabricc could read names the S9825/S9855 ECMP hash-field or
/// adaptive-routing commands, so nothing of `load-balance` is written (FAB916 via the note).
fn comware(_ctx: &SwitchContext, prop: Prop) -> Verdict {
    Verdict::Not(match prop {
        Prop::Hash => "no H3C command reference fabricc could read gives the ECMP hash-field commands of the S9825/S9855; each switch keeps its default fields".into(),
        Prop::Mode | Prop::FlowletGap => "no H3C command reference fabricc could read gives a flowlet or adaptive-routing mode for the S9825/S9855; each switch keeps per-flow ECMP".into(),
        Prop::Seed => "no H3C command reference fabricc could read gives the ECMP hash seed; each switch keeps its default seed, so switches of different tiers may hash alike (polarisation)".into(),
    })
}

/// `(family, statement)` pairs: the `no-…` statements that leave exactly the fields of `hash`.
const JUNOS_EXCLUDES: [(&str, &str, &str); 10] = [
    ("src-ip", "inet", "no-ipv4-source-address"),
    ("dst-ip", "inet", "no-ipv4-destination-address"),
    ("src-port", "inet", "no-l4-source-port"),
    ("dst-port", "inet", "no-l4-destination-port"),
    ("protocol", "inet", "no-protocol"),
    ("src-ip", "inet6", "no-ipv6-source-address"),
    ("dst-ip", "inet6", "no-ipv6-destination-address"),
    ("src-port", "inet6", "no-l4-source-port"),
    ("dst-port", "inet6", "no-l4-destination-port"),
    ("protocol", "inet6", "no-next-header"),
];

/// What a Junos switch gets under `forwarding-options enhanced-hash-key`.
#[derive(Debug, Default, Clone, PartialEq, Eq, serde::Serialize)]
pub struct JunosLb {
    /// `(family, [no-… statements])`, inet then inet6; empty when nothing is excluded.
    pub families: Vec<(&'static str, Vec<&'static str>)>,
    /// The `ecmp-dlb` mode: `flowlet` or `per-packet`; `None` = static hashing.
    pub dlb: Option<&'static str>,
    /// `ecmp-dlb flowlet inactivity-interval`, microseconds (rounded up).
    pub inactivity_interval_us: Option<u64>,
    /// Whether anything is written (the template's one condition).
    pub any: bool,
}

pub fn junos_lb(ctx: &SwitchContext) -> JunosLb {
    let mut out = JunosLb::default();
    if matches!(verdict(ctx, Prop::Hash), Some(Verdict::Written)) {
        for family in ["inet", "inet6"] {
            let excluded: Vec<&str> = JUNOS_EXCLUDES
                .iter()
                .filter(|(kw, fam, _)| *fam == family && !fields(ctx).contains(kw))
                .map(|(_, _, st)| *st)
                .collect();
            if !excluded.is_empty() {
                out.families.push((family, excluded));
            }
        }
    }
    if matches!(verdict(ctx, Prop::Mode), Some(Verdict::Written)) {
        out.dlb = match ctx.lb.mode {
            Some("per-packet") => Some("per-packet"),
            Some("flowlet") => Some("flowlet"),
            _ => None,
        };
    }
    if matches!(
        verdict(ctx, Prop::FlowletGap),
        Some(Verdict::Written | Verdict::Partly(_))
    ) {
        out.inactivity_interval_us = ctx.lb.flowlet_gap_ns.map(|ns| ns.div_ceil(1_000));
    }
    out.any = !out.families.is_empty() || out.dlb.is_some();
    out
}

/// What a Cumulus switch gets besides `ecmp-hash`.
#[derive(Debug, Default, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CumulusLb {
    pub hash_seed: Option<u64>,
    /// Adaptive routing: the NVUE key and value (`enable`/`on` before 5.15, `state`/`enabled`
    /// from it), globally and on every switch-facing port.
    pub adaptive_routing: Option<(&'static str, &'static str)>,
    pub ar_ports: Vec<String>,
}

pub fn cumulus_lb(ctx: &SwitchContext) -> CumulusLb {
    let mut out = CumulusLb::default();
    if matches!(verdict(ctx, Prop::Seed), Some(Verdict::Written)) {
        out.hash_seed = ctx.lb.seed;
    }
    if matches!(verdict(ctx, Prop::Mode), Some(Verdict::Written)) {
        out.adaptive_routing = Some(if from(ctx, CUMULUS_AR_STATE_FROM) {
            ("state", "enabled")
        } else {
            ("enable", "on")
        });
        out.ar_ports = ctx.lb.switch_ports.clone();
    }
    out
}

/// LB-1…LB-4: the load-balancing lines of a generated switch file (`file` is its name:
/// `qos.cfg` of EOS or NX-OS, `nvue.sh`, `qos.conf`) against the grammar the sources above
/// give, so a template or builder change cannot write a word the switch would refuse.
/// Returns the violations, empty when the file passes. Test support (the unit tests below,
/// tests/it/build.rs and tests/it/render_targets.rs), not the product's.
#[cfg(any(test, feature = "internals"))]
pub fn validate_lines(file: &str, text: &str) -> Vec<String> {
    let mut errs = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let l = line.trim();
        let mut bad =
            |rule: &str, why: &str| errs.push(format!("{rule} {file}:{}: `{l}`: {why}", n + 1));
        if let Some(rest) = l.strip_prefix("ip load-sharing trident fields ip ") {
            // LB-1: EOS Strata field keywords, each once.
            let words: Vec<&str> = rest.split_whitespace().collect();
            let known = [
                "source-ip",
                "destination-ip",
                "source-port",
                "destination-port",
                "ingress-interface",
            ];
            if words.iter().any(|w| !known.contains(w)) {
                bad("LB-1", "not an `ip load-sharing trident fields ip` keyword");
            }
            if words
                .iter()
                .collect::<std::collections::BTreeSet<_>>()
                .len()
                != words.len()
            {
                bad("LB-1", "a field twice");
            }
        } else if let Some(rest) = l.strip_prefix("ip load-sharing address ") {
            // LB-2: NX-OS address/port form, then an optional universal-id 1-4294967295.
            let (form, seed) = match rest.split_once(" universal-id ") {
                Some((f, s)) => (f, Some(s)),
                None => (rest, None),
            };
            let forms = [
                "source-destination port source-destination",
                "source-destination",
            ];
            if !forms.contains(&form) {
                bad("LB-2", "not an `ip load-sharing address` form");
            }
            if seed.is_some_and(|s| !s.parse::<u32>().is_ok_and(|v| v >= 1)) {
                bad("LB-2", "universal-id is 1-4294967295");
            }
        } else if let Some(rest) = l.strip_prefix("nv set system forwarding hash-seed ") {
            // LB-3: NVUE hash-seed 0-4294967295; adaptive routing's two spellings.
            if rest.parse::<u32>().is_err() {
                bad("LB-3", "hash-seed is 0-4294967295");
            }
        } else if l.contains("router adaptive-routing ") && l.starts_with("nv set ") {
            if !(l.ends_with("adaptive-routing state enabled")
                || l.ends_with("adaptive-routing enable on"))
            {
                bad(
                    "LB-3",
                    "adaptive routing is `state enabled` (5.15+) or `enable on`",
                );
            }
        } else if let Some(rest) = l.strip_prefix("inactivity-interval ") {
            // LB-4: Junos ecmp-dlb flowlet interval, whole microseconds.
            if rest
                .strip_suffix(';')
                .is_none_or(|v| v.parse::<u32>().is_err())
            {
                bad("LB-4", "inactivity-interval is whole microseconds");
            }
        } else if l.starts_with("no-") && file.ends_with("qos.conf") {
            let known = [
                "no-ipv4-source-address;",
                "no-ipv4-destination-address;",
                "no-ipv6-source-address;",
                "no-ipv6-destination-address;",
                "no-l4-source-port;",
                "no-l4-destination-port;",
                "no-protocol;",
                "no-next-header;",
            ];
            if !known.contains(&l) {
                bad(
                    "LB-4",
                    "not an `enhanced-hash-key inet|inet6` statement fabricc writes",
                );
            }
        }
    }
    errs
}

/// VRP's `ip` words in the ECMP view for the fields of `hash`.
const VRP_FIELDS: [(&str, &str); 5] = [
    ("src-ip", "src-ip"),
    ("dst-ip", "dst-ip"),
    ("src-port", "l4-src-port"),
    ("dst-port", "l4-dst-port"),
    ("protocol", "protocol"),
];

fn vrp(ctx: &SwitchContext, prop: Prop) -> Verdict {
    match prop {
        Prop::Hash if fields(ctx).contains(&"roce-qp") => Verdict::Partly(
            "VRP's ECMP hash has no RoCE queue-pair field: the other fields are written".into(),
        ),
        Prop::Hash => Verdict::Written,
        Prop::Mode | Prop::FlowletGap => Verdict::Not(
            "fabricc writes no VRP adaptive routing or flowlet mode (not read from Huawei's documentation yet); each switch hashes per flow".into(),
        ),
        Prop::Seed => Verdict::Not(
            "fabricc writes no VRP `ecmp seed` yet; each switch keeps its default seed, so switches of different tiers may hash alike (polarisation)".into(),
        ),
    }
}

/// The lines inside VRP's `load-balance ecmp` view for `hash`; empty when not asked.
pub fn vrp_lines(ctx: &SwitchContext) -> Vec<String> {
    if !matches!(
        verdict(ctx, Prop::Hash),
        Some(Verdict::Written | Verdict::Partly(_))
    ) {
        return Vec::new();
    }
    let words: Vec<&str> = VRP_FIELDS
        .iter()
        .filter(|(kw, _)| fields(ctx).contains(kw))
        .map(|(_, w)| *w)
        .collect();
    if words.is_empty() {
        return Vec::new();
    }
    vec![format!("ip {}", words.join(" "))]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validator_catches_bad_lines() {
        let bad = "ip load-sharing trident fields ip source-ip protocol source-ip\n\
                   ip load-sharing address source-destination port destination universal-id 0\n\
                   nv set system forwarding hash-seed -1\n\
                   nv set router adaptive-routing state on\n\
                   inactivity-interval 1.5;\n\
                   no-source-port;\n";
        let errs = validate_lines("qos.conf", bad).join("\n");
        for want in [
            "LB-1 qos.conf:1",
            "a field twice",
            "LB-2 qos.conf:2",
            "universal-id is",
            "LB-3 qos.conf:3",
            "LB-3 qos.conf:4",
            "LB-4 qos.conf:5",
            "LB-4 qos.conf:6",
        ] {
            assert!(errs.contains(want), "{want} missing from\n{errs}");
        }
        let good = "ip load-sharing trident fields ip source-ip destination-ip\n\
                    ip load-sharing address source-destination universal-id 7\n\
                    nv set system forwarding hash-seed 0\n\
                    nv set interface swp1 router adaptive-routing enable on\n\
                    inactivity-interval 16;\n\
                    no-next-header;\n";
        assert!(validate_lines("qos.conf", good).is_empty());
    }

    #[test]
    fn nxos_address_forms() {
        assert_eq!(
            nxos_address(&["src-ip", "dst-ip", "src-port", "dst-port", "protocol"]),
            Some("source-destination port source-destination")
        );
        assert_eq!(
            nxos_address(&["dst-ip", "src-ip"]),
            Some("source-destination")
        );
        // Source-only and destination-only forms are not written: no public source for them.
        assert_eq!(nxos_address(&["dst-ip", "dst-port"]), None);
        assert_eq!(nxos_address(&["src-ip"]), None);
    }
}
