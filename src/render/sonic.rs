//! SONiC view: a switch context as `config_db.json` tables.
//!
//! In: a `SwitchContext` with `os: sonic`. Out: `SonicView { config_db }`, a sorted
//! `table → key → field → string` tree that the template prints with `tojson`. SONiC is
//! generated from data rather than text because every value must be a JSON string and
//! every key/reference must resolve (sonic.md §6); pasting JSON in a template invites
//! quoting bugs. The template stays the place that decides the file's shape.
//!
//! Reference facts followed (sonic.md): traditional buffer model (§5.1, §5.4) with lossless
//! profiles named `pg_lossless_<speed>_<cable>_profile` and PG keys as contiguous ranges so
//! buffermgrd leaves them alone (§3); PG index == PFC priority (§0.6); plain-name references,
//! one port per key (§6.2 Y-2, Y-3); WRED `ecn_all` with `wred_*_enable true` on lossless
//! queues (§2 WRED_PROFILE, §8.11); PFC_WD ranges (Y-17).

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

use minijinja::Value;
use minijinja::value::{Enumerator, Object, ObjectExt, ObjectRepr, Serde};
use serde::Serialize;

use super::context::{Fec, PauseThreshold, Scheduling, SwitchContext, SwitchOs, WatchdogAction};
use super::escape;
use super::{RenderError, unsupported};

/// A key, field or value of CONFIG_DB: mostly fixed words, borrowed rather than allocated
/// (a leaf's tree has thousands of them).
pub type Text = Cow<'static, str>;

/// `field → value` of one entry; every value a string (Y-1).
pub type Row = BTreeMap<Text, Text>;

/// `TABLE → key → field → value`.
pub type ConfigDb = BTreeMap<&'static str, BTreeMap<Text, Row>>;

#[derive(Debug, Serialize)]
pub struct SonicView {
    /// A `Tables` object: the template sees a map, `tojson` prints the tree directly.
    pub config_db: Value,
}

/// The CONFIG_DB tree as a template value that is not copied into the template's own maps: a
/// leaf's tree has thousands of entries, and `tojson` (the only thing the template does with
/// it) serializes it straight from here. Indexing and loops still work, converting on access.
#[derive(Debug)]
pub struct Tables(pub ConfigDb);

impl Object for Tables {
    fn repr(self: &Arc<Self>) -> ObjectRepr {
        ObjectRepr::Map
    }

    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        let table = self.0.get(key.as_str()?)?;
        Some(Value::from(Serde(table)))
    }

    fn enumerate(self: &Arc<Self>) -> Enumerator {
        self.mapped_enumerator(|this| Box::new(this.0.keys().map(|k| Value::from(*k))))
    }

    fn enumerator_len(self: &Arc<Self>) -> Option<usize> {
        Some(self.0.len())
    }
}

/// Name of every QoS map this generator writes.
pub const MAP_NAME: &str = "FABRICC";
const INGRESS_POOL: &str = "ingress_lossless_pool";
const EGRESS_LOSSLESS_POOL: &str = "egress_lossless_pool";
const EGRESS_LOSSY_POOL: &str = "egress_lossy_pool";

/// SONiC front-panel name: `Ethernet<first lane index>` style, `index · lanes_per_port`.
pub fn port_name(index: u32, lanes_per_port: u32) -> String {
    format!("Ethernet{}", index.saturating_mul(lanes_per_port))
}

/// The name buffermgrd gives a traditional lossless PG profile (sonic.md §5.1).
pub fn lossless_profile_name(speed_mbps: u32, cable_m: u32) -> String {
    format!("pg_lossless_{speed_mbps}_{cable_m}m_profile")
}

/// Sorted items as contiguous ranges, the way buffermgrd writes PG keys: `3,4,6` → `3-4`, `6`.
pub fn ranges(items: &[u8]) -> Vec<String> {
    let mut sorted = items.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut out = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let start = sorted[i];
        let mut end = start;
        while i + 1 < sorted.len() && sorted[i + 1] == end + 1 {
            i += 1;
            end = sorted[i];
        }
        out.push(if start == end {
            start.to_string()
        } else {
            format!("{start}-{end}")
        });
        i += 1;
    }
    out
}

fn join(items: &[u8]) -> String {
    items
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

fn row<const N: usize>(fields: [(&'static str, Text); N]) -> Row {
    fields
        .into_iter()
        .map(|(k, v)| (Cow::Borrowed(k), v))
        .collect()
}

pub fn view(ctx: &SwitchContext) -> Result<SonicView, RenderError> {
    Ok(SonicView {
        config_db: Value::from_object(Tables(config_db(ctx)?)),
    })
}

/// Build the whole CONFIG_DB tree of one switch.
pub fn config_db(ctx: &SwitchContext) -> Result<ConfigDb, RenderError> {
    let dev = ctx.device.as_str();
    let err = |m: String| unsupported(dev, SwitchOs::Sonic, m);
    let mut db = ConfigDb::new();
    let put = |db: &mut ConfigDb, t: &'static str, key: Text, fields: Row| {
        db.entry(t).or_default().insert(key, fields);
    };

    put(
        &mut db,
        "DEVICE_METADATA",
        "localhost".into(),
        row([
            ("hostname", dev.to_string().into()),
            ("buffer_model", "traditional".into()),
        ]),
    );

    // Pool threshold mode decides `dynamic_th` vs `static_th` for every ingress profile
    // (buffermgrd picks the field from the pool mode), so all ports must agree.
    let lossless_ports: Vec<_> = ctx
        .ports
        .iter()
        .filter(|p| !p.lossless_priorities.is_empty())
        .collect();
    let static_count = lossless_ports
        .iter()
        .filter(|p| matches!(p.pause_threshold, PauseThreshold::Static { .. }))
        .count();
    let static_mode = static_count > 0;
    if static_mode && static_count != lossless_ports.len() {
        return Err(err(
            "static and dynamic PFC pause thresholds mixed on one switch; the ingress pool has one mode"
                .into(),
        ));
    }
    let b = &ctx.buffer;
    let mut ingress_pool = row([
        ("type", "ingress".into()),
        (
            "mode",
            if static_mode { "static" } else { "dynamic" }.into(),
        ),
        ("size", b.ingress_lossless_pool_bytes.to_string().into()),
    ]);
    if let Some(xoff) = b.shared_headroom_pool_bytes {
        ingress_pool.insert("xoff".into(), xoff.to_string().into());
    }
    put(&mut db, "BUFFER_POOL", INGRESS_POOL.into(), ingress_pool);
    put(
        &mut db,
        "BUFFER_POOL",
        EGRESS_LOSSLESS_POOL.into(),
        row([
            ("type", "egress".into()),
            ("mode", "static".into()),
            ("size", b.egress_lossless_pool_bytes.to_string().into()),
        ]),
    );
    put(
        &mut db,
        "BUFFER_POOL",
        EGRESS_LOSSY_POOL.into(),
        row([
            ("type", "egress".into()),
            ("mode", "dynamic".into()),
            ("size", b.egress_lossy_pool_bytes.to_string().into()),
        ]),
    );

    let ingress_th = |alpha: &'static str| -> (&'static str, Text) {
        if static_mode {
            (
                "static_th",
                b.ingress_lossless_pool_bytes.to_string().into(),
            )
        } else {
            ("dynamic_th", alpha.into())
        }
    };
    put(
        &mut db,
        "BUFFER_PROFILE",
        "ingress_lossless_profile".into(),
        row([
            ("pool", INGRESS_POOL.into()),
            ("size", "0".into()),
            ingress_th("7"),
        ]),
    );
    put(
        &mut db,
        "BUFFER_PROFILE",
        "ingress_lossy_profile".into(),
        row([
            ("pool", INGRESS_POOL.into()),
            ("size", "0".into()),
            ingress_th("3"),
        ]),
    );
    put(
        &mut db,
        "BUFFER_PROFILE",
        "egress_lossless_profile".into(),
        row([
            ("pool", EGRESS_LOSSLESS_POOL.into()),
            ("size", "0".into()),
            ("static_th", b.egress_lossless_pool_bytes.to_string().into()),
        ]),
    );
    put(
        &mut db,
        "BUFFER_PROFILE",
        "egress_lossy_profile".into(),
        row([
            ("pool", EGRESS_LOSSY_POOL.into()),
            ("size", "0".into()),
            ("dynamic_th", "3".into()),
        ]),
    );

    // QoS maps: complete over DSCP 0..63 and TC/priority 0..7.
    let qos = &ctx.qos;
    let mut tc_to_queue: BTreeMap<u8, u8> = (0..8).map(|t| (t, t)).collect();
    let mut tc_to_pg: BTreeMap<u8, u8> = (0..8).map(|t| (t, 0)).collect();
    let mut pfc_to_queue: BTreeMap<u8, u8> = (0..8).map(|p| (p, p)).collect();
    let mut seen_tc: BTreeMap<u8, u8> = BTreeMap::new();
    for c in &qos.classes {
        if let Some(q) = seen_tc.insert(c.tc, c.queue)
            && q != c.queue
        {
            return Err(err(format!("TC {} maps to two queues", c.tc)));
        }
        tc_to_queue.insert(c.tc, c.queue);
        if qos.lossless_priorities.contains(&c.priority) && c.lossless {
            if c.priority == 0 {
                return Err(err(
                    "lossless priority 0 collides with the lossy PG 0".into()
                ));
            }
            tc_to_pg.insert(c.tc, c.priority);
            pfc_to_queue.insert(c.priority, c.queue);
        }
    }
    let map = |m: &BTreeMap<u8, u8>| -> Row {
        m.iter()
            .map(|(k, v)| (number(usize::from(*k)), number(usize::from(*v))))
            .collect()
    };
    put(
        &mut db,
        "DSCP_TO_TC_MAP",
        MAP_NAME.into(),
        qos.dscp_to_tc
            .iter()
            .enumerate()
            .map(|(d, t)| (number(d), number(usize::from(*t))))
            .collect(),
    );
    put(
        &mut db,
        "TC_TO_QUEUE_MAP",
        MAP_NAME.into(),
        map(&tc_to_queue),
    );
    put(
        &mut db,
        "TC_TO_PRIORITY_GROUP_MAP",
        MAP_NAME.into(),
        map(&tc_to_pg),
    );
    put(
        &mut db,
        "MAP_PFC_PRIORITY_TO_QUEUE",
        MAP_NAME.into(),
        map(&pfc_to_queue),
    );
    let pfc_to_pg: BTreeMap<u8, u8> = qos.lossless_priorities.iter().map(|&p| (p, p)).collect();
    if !pfc_to_pg.is_empty() {
        put(
            &mut db,
            "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP",
            MAP_NAME.into(),
            map(&pfc_to_pg),
        );
    }
    put(
        &mut db,
        "PORT_QOS_MAP",
        "global".into(),
        row([("dscp_to_tc_map", MAP_NAME.into())]),
    );

    // Schedulers: one per distinct scheduling.
    let scheduler_name = |s: Scheduling| -> Text {
        match s {
            Scheduling::Strict => "STRICT".into(),
            Scheduling::Ets { weight_percent } => format!("DWRR_{weight_percent}").into(),
        }
    };
    let mut scheduler_fields: BTreeMap<Text, Row> = BTreeMap::new();
    for c in &qos.classes {
        let fields = match c.scheduling {
            Scheduling::Strict => row([("type", "STRICT".into())]),
            Scheduling::Ets { weight_percent } => {
                if !(1..=100).contains(&weight_percent) {
                    return Err(err(format!(
                        "class `{}`: DWRR weight {weight_percent} outside 1..100",
                        c.name
                    )));
                }
                row([
                    ("type", "DWRR".into()),
                    ("weight", number(usize::from(weight_percent))),
                ])
            }
        };
        // A rate-capped class gets a scheduler per port speed instead (below).
        if c.rate_percent.is_none() {
            put(
                &mut db,
                "SCHEDULER",
                scheduler_name(c.scheduling),
                fields.clone(),
            );
        }
        scheduler_fields.insert(scheduler_name(c.scheduling), fields);
    }

    // Watchdog ranges (Y-17).
    let wd = match ctx.watchdog {
        Some(w) => {
            if !(100..=1000).contains(&w.poll_ms)
                || !(100..=5000).contains(&w.detect_ms)
                || !(100..=60000).contains(&w.restore_ms)
                || w.detect_ms < w.poll_ms
                || w.restore_ms < w.poll_ms
            {
                return Err(err(format!(
                    "PFC watchdog poll {} ms / detect {} ms / restore {} ms outside SONiC's ranges \
                     (poll 100..1000, detect 100..5000, restore 100..60000, both ≥ poll)",
                    w.poll_ms, w.detect_ms, w.restore_ms
                )));
            }
            put(
                &mut db,
                "PFC_WD",
                "GLOBAL".into(),
                row([("POLL_INTERVAL", w.poll_ms.to_string().into())]),
            );
            Some(w)
        }
        None => None,
    };

    let mut profiles: BTreeMap<String, Row> = BTreeMap::new();
    for port in &ctx.ports {
        let p = port.name.as_str();
        if !(68..=9216).contains(&port.mtu) || port.speed_mbps > 1_600_000 {
            return Err(err(format!(
                "port `{p}`: MTU 68..9216 and speed ≤ 1600000 Mb/s required"
            )));
        }
        if port.lanes.is_empty() {
            return Err(err(format!("port `{p}`: SONiC needs the port's lanes")));
        }
        let mut fields = row([
            ("admin_status", "up".into()),
            ("fec", fec_name(port.fec).into()),
            (
                "lanes",
                port.lanes
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(",")
                    .into(),
            ),
            ("mtu", port.mtu.to_string().into()),
            ("speed", port.speed_mbps.to_string().into()),
        ]);
        if let Some(d) = &port.description {
            fields.insert("description".into(), escape::sanitize_text(d).into());
        }
        put(&mut db, "PORT", p.to_string().into(), fields);
        db.entry("CABLE_LENGTH")
            .or_default()
            .entry("AZURE".into())
            .or_default()
            .insert(p.to_string().into(), format!("{}m", port.cable_m).into());

        put(
            &mut db,
            "BUFFER_PORT_INGRESS_PROFILE_LIST",
            p.to_string().into(),
            row([("profile_list", "ingress_lossless_profile".into())]),
        );
        put(
            &mut db,
            "BUFFER_PORT_EGRESS_PROFILE_LIST",
            p.to_string().into(),
            row([(
                "profile_list",
                "egress_lossless_profile,egress_lossy_profile".into(),
            )]),
        );
        put(
            &mut db,
            "BUFFER_PG",
            format!("{p}|0").into(),
            row([("profile", "ingress_lossy_profile".into())]),
        );

        let mut qos_map = row([
            ("dscp_to_tc_map", MAP_NAME.into()),
            ("tc_to_queue_map", MAP_NAME.into()),
            ("tc_to_pg_map", MAP_NAME.into()),
            ("pfc_to_queue_map", MAP_NAME.into()),
        ]);
        let mut lossless_queues: Vec<u8> = Vec::new();
        if !port.lossless_priorities.is_empty() {
            if port.cable_m == 0 {
                return Err(err(format!(
                    "port `{p}`: buffermgrd skips a 0m cable; no lossless PG"
                )));
            }
            let first = port.headroom.first().copied();
            let Some(h) = first else {
                return Err(err(format!("port `{p}`: lossless without headroom")));
            };
            // buffermgrd gives every lossless PG of a port the same profile.
            if port.headroom.iter().any(|x| {
                (x.xoff_bytes, x.xon_bytes, x.size_bytes)
                    != (h.xoff_bytes, h.xon_bytes, h.size_bytes)
            }) {
                return Err(err(format!(
                    "port `{p}`: lossless priorities need equal headroom (one profile per port)"
                )));
            }
            let name = lossless_profile_name(port.speed_mbps, port.cable_m);
            let (th_field, th_value) = match port.pause_threshold {
                PauseThreshold::Static { bytes } => ("static_th", bytes.to_string().into()),
                PauseThreshold::Dynamic { log2_alpha } => {
                    if !(-8..=7).contains(&log2_alpha) {
                        return Err(err(format!(
                            "port `{p}`: dynamic_th {log2_alpha} outside -8..7"
                        )));
                    }
                    ("dynamic_th", log2_alpha.to_string().into())
                }
            };
            let profile = row([
                ("pool", INGRESS_POOL.into()),
                ("size", h.size_bytes.to_string().into()),
                ("xon", h.xon_bytes.to_string().into()),
                ("xoff", h.xoff_bytes.to_string().into()),
                (th_field, th_value),
            ]);
            if let Some(existing) = profiles.get(&name)
                && existing != &profile
            {
                return Err(err(format!(
                    "two ports share buffermgrd's profile name `{name}` with different headroom"
                )));
            }
            profiles.insert(name.clone(), profile);
            for r in ranges(&port.lossless_priorities) {
                put(
                    &mut db,
                    "BUFFER_PG",
                    format!("{p}|{r}").into(),
                    row([("profile", name.clone().into())]),
                );
            }
            qos_map.insert("pfc_to_pg_map".into(), MAP_NAME.into());
            qos_map.insert("pfc_enable".into(), join(&port.lossless_priorities).into());
            if wd.is_some() && port.pfc_watchdog {
                qos_map.insert(
                    "pfcwd_sw_enable".into(),
                    join(&port.lossless_priorities).into(),
                );
                if let Some(w) = wd {
                    put(
                        &mut db,
                        "PFC_WD",
                        p.to_string().into(),
                        row([
                            ("action", watchdog_action_name(w.action).into()),
                            ("detection_time", w.detect_ms.to_string().into()),
                            ("restoration_time", w.restore_ms.to_string().into()),
                        ]),
                    );
                }
            }
            for c in &qos.classes {
                if c.lossless && port.lossless_priorities.contains(&c.priority) {
                    lossless_queues.push(c.queue);
                }
            }
        }
        put(&mut db, "PORT_QOS_MAP", p.to_string().into(), qos_map);

        // Egress buffers: lossless queues on the lossless pool, the rest lossy.
        let lossy: Vec<u8> = (0..8).filter(|q| !lossless_queues.contains(q)).collect();
        for r in ranges(&lossless_queues) {
            put(
                &mut db,
                "BUFFER_QUEUE",
                format!("{p}|{r}").into(),
                row([("profile", "egress_lossless_profile".into())]),
            );
        }
        for r in ranges(&lossy) {
            put(
                &mut db,
                "BUFFER_QUEUE",
                format!("{p}|{r}").into(),
                row([("profile", "egress_lossy_profile".into())]),
            );
        }

        // Queues: scheduler per class queue; WRED (ECN mark) where this port marks.
        let mut queues: BTreeMap<u8, Row> = BTreeMap::new();
        for c in &qos.classes {
            let name = match c.rate_percent {
                None => scheduler_name(c.scheduling),
                // A rate cap: SCHEDULER `pir` is bytes/s (SAI_SCHEDULER_ATTR_MAX_BANDWIDTH_RATE
                // with meter_type bytes), so each port speed gets its own scheduler.
                Some(pct) => {
                    let name = format!(
                        "{}_MAX{pct}_{}",
                        scheduler_name(c.scheduling),
                        port.speed_mbps
                    );
                    let sched = db.entry("SCHEDULER").or_default();
                    if !sched.contains_key(name.as_str()) {
                        let mut f = scheduler_fields
                            .get(&scheduler_name(c.scheduling))
                            .cloned()
                            .unwrap_or_default();
                        f.insert("meter_type".into(), "bytes".into());
                        f.insert("cir".into(), "0".into());
                        f.insert(
                            "pir".into(),
                            rate_bytes_per_second(port.speed_mbps, pct)
                                .to_string()
                                .into(),
                        );
                        sched.insert(name.clone().into(), f);
                    }
                    name.into()
                }
            };
            queues
                .entry(c.queue)
                .or_default()
                .insert("scheduler".into(), name);
        }
        for q in &port.ecn {
            if let Some(e) = q.ecn {
                let name = format!(
                    "ECN_{}_{}_{}",
                    e.min_bytes, e.max_bytes, e.probability_percent
                );
                if name.len() > 32 {
                    return Err(err(format!(
                        "WRED profile name `{name}` longer than 32 characters"
                    )));
                }
                // Every port marking with the same numbers shares one profile: build it once.
                let wred = db.entry("WRED_PROFILE").or_default();
                if !wred.contains_key(name.as_str()) {
                    let mut f = Row::new();
                    for [enable, min, max, probability] in WRED_COLOUR_FIELDS {
                        f.insert(enable.into(), "true".into());
                        f.insert(min.into(), e.min_bytes.to_string().into());
                        f.insert(max.into(), e.max_bytes.to_string().into());
                        f.insert(probability.into(), e.probability_percent.to_string().into());
                    }
                    f.insert("ecn".into(), "ecn_all".into());
                    wred.insert(name.clone().into(), f);
                }
                queues
                    .entry(q.queue)
                    .or_default()
                    .insert("wred_profile".into(), name.into());
            }
        }
        for (q, fields) in queues {
            put(&mut db, "QUEUE", format!("{p}|{q}").into(), fields);
        }
    }
    for (name, profile) in profiles {
        put(&mut db, "BUFFER_PROFILE", name.into(), profile);
    }
    Ok(db)
}

/// `pct` percent of a port of `speed_mbps` in bytes per second (SCHEDULER `pir`).
pub fn rate_bytes_per_second(speed_mbps: u32, pct: u8) -> u64 {
    u64::from(speed_mbps) * 1_000_000 / 8 * u64::from(pct) / 100
}

/// A small number as CONFIG_DB text; the map tables hold only 0..63.
fn number(n: usize) -> Text {
    const SMALL: [&str; 64] = [
        "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16",
        "17", "18", "19", "20", "21", "22", "23", "24", "25", "26", "27", "28", "29", "30", "31",
        "32", "33", "34", "35", "36", "37", "38", "39", "40", "41", "42", "43", "44", "45", "46",
        "47", "48", "49", "50", "51", "52", "53", "54", "55", "56", "57", "58", "59", "60", "61",
        "62", "63",
    ];
    match SMALL.get(n) {
        Some(s) => Cow::Borrowed(s),
        None => Cow::Owned(n.to_string()),
    }
}

/// WRED_PROFILE fields per colour: enable, min, max, drop probability.
const WRED_COLOUR_FIELDS: [[&str; 4]; 3] = [
    [
        "wred_green_enable",
        "green_min_threshold",
        "green_max_threshold",
        "green_drop_probability",
    ],
    [
        "wred_yellow_enable",
        "yellow_min_threshold",
        "yellow_max_threshold",
        "yellow_drop_probability",
    ],
    [
        "wred_red_enable",
        "red_min_threshold",
        "red_max_threshold",
        "red_drop_probability",
    ],
];

/// SONiC's `fec` values.
fn fec_name(fec: Fec) -> &'static str {
    match fec {
        Fec::Rs => "rs",
        Fec::Fc => "fc",
        Fec::None => "none",
        Fec::Auto => "auto",
    }
}

/// SONiC's PFC_WD `action` values.
fn watchdog_action_name(action: WatchdogAction) -> &'static str {
    match action {
        WatchdogAction::Drop => "drop",
        WatchdogAction::Forward => "forward",
        WatchdogAction::Alert => "alert",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contiguous_ranges() {
        assert_eq!(ranges(&[3, 4]), ["3-4"]);
        assert_eq!(ranges(&[2, 3, 4, 6]), ["2-4", "6"]);
        assert_eq!(ranges(&[6, 3]), ["3", "6"]);
        assert!(ranges(&[]).is_empty());
    }

    #[test]
    fn templates_can_still_index_and_loop_over_the_tables() {
        let mut db = ConfigDb::new();
        db.entry("PORT_QOS_MAP")
            .or_default()
            .insert("global".into(), row([("dscp_to_tc_map", MAP_NAME.into())]));
        db.entry("DEVICE_METADATA")
            .or_default()
            .insert("localhost".into(), row([("hostname", "leaf1".into())]));
        let env = minijinja::Environment::new();
        let text = env
            .render_str(
                "{% for t in db %}{{ t }},{% endfor %}{{ db|length }} {{ db.PORT_QOS_MAP.global.dscp_to_tc_map }}",
                minijinja::context! { db => Value::from_object(Tables(db)) },
            )
            .expect("renders");
        assert_eq!(text, "DEVICE_METADATA,PORT_QOS_MAP,2 FABRICC");
    }

    #[test]
    fn profile_name() {
        assert_eq!(
            lossless_profile_name(400000, 5),
            "pg_lossless_400000_5m_profile"
        );
        assert_eq!(port_name(2, 8), "Ethernet16");
    }
}
