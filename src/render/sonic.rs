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

use std::collections::BTreeMap;

use serde::Serialize;

use super::context::{PauseThreshold, Scheduling, SwitchContext, SwitchOs};
use super::escape;
use super::{RenderError, unsupported};

/// `TABLE → key → field → value`; every value a string (Y-1).
pub type ConfigDb = BTreeMap<String, BTreeMap<String, BTreeMap<String, String>>>;

#[derive(Debug, Serialize)]
pub struct SonicView {
    pub config_db: ConfigDb,
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

fn row<const N: usize>(fields: [(&str, String); N]) -> BTreeMap<String, String> {
    fields
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect()
}

pub fn view(ctx: &SwitchContext) -> Result<SonicView, RenderError> {
    Ok(SonicView {
        config_db: config_db(ctx)?,
    })
}

/// Build the whole CONFIG_DB tree of one switch.
pub fn config_db(ctx: &SwitchContext) -> Result<ConfigDb, RenderError> {
    let dev = ctx.device.as_str();
    let err = |m: String| unsupported(dev, SwitchOs::Sonic, m);
    let mut db = ConfigDb::new();
    let put = |db: &mut ConfigDb, t: &str, key: String, fields: BTreeMap<String, String>| {
        db.entry(t.to_string()).or_default().insert(key, fields);
    };

    put(
        &mut db,
        "DEVICE_METADATA",
        "localhost".into(),
        row([
            ("hostname", dev.to_string()),
            ("buffer_model", "traditional".to_string()),
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
        ("type", "ingress".to_string()),
        (
            "mode",
            if static_mode { "static" } else { "dynamic" }.to_string(),
        ),
        ("size", b.ingress_lossless_pool_bytes.to_string()),
    ]);
    if let Some(xoff) = b.shared_headroom_pool_bytes {
        ingress_pool.insert("xoff".into(), xoff.to_string());
    }
    put(&mut db, "BUFFER_POOL", INGRESS_POOL.into(), ingress_pool);
    put(
        &mut db,
        "BUFFER_POOL",
        EGRESS_LOSSLESS_POOL.into(),
        row([
            ("type", "egress".into()),
            ("mode", "static".into()),
            ("size", b.egress_lossless_pool_bytes.to_string()),
        ]),
    );
    put(
        &mut db,
        "BUFFER_POOL",
        EGRESS_LOSSY_POOL.into(),
        row([
            ("type", "egress".into()),
            ("mode", "dynamic".into()),
            ("size", b.egress_lossy_pool_bytes.to_string()),
        ]),
    );

    let ingress_th = |alpha: &str| {
        if static_mode {
            ("static_th", b.ingress_lossless_pool_bytes.to_string())
        } else {
            ("dynamic_th", alpha.to_string())
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
            ("static_th", b.egress_lossless_pool_bytes.to_string()),
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
    let map = |m: &BTreeMap<u8, u8>| {
        m.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    };
    put(
        &mut db,
        "DSCP_TO_TC_MAP",
        MAP_NAME.into(),
        qos.dscp_to_tc
            .iter()
            .enumerate()
            .map(|(d, t)| (d.to_string(), t.to_string()))
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
    let scheduler_name = |s: Scheduling| match s {
        Scheduling::Strict => "STRICT".to_string(),
        Scheduling::Ets { weight_percent } => format!("DWRR_{weight_percent}"),
    };
    for c in &qos.classes {
        let fields = match c.scheduling {
            Scheduling::Strict => row([("type", "STRICT".to_string())]),
            Scheduling::Ets { weight_percent } => {
                if !(1..=100).contains(&weight_percent) {
                    return Err(err(format!(
                        "class `{}`: DWRR weight {weight_percent} outside 1..100",
                        c.name
                    )));
                }
                row([
                    ("type", "DWRR".to_string()),
                    ("weight", weight_percent.to_string()),
                ])
            }
        };
        put(&mut db, "SCHEDULER", scheduler_name(c.scheduling), fields);
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
                row([("POLL_INTERVAL", w.poll_ms.to_string())]),
            );
            Some(w)
        }
        None => None,
    };

    let mut profiles: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
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
            ("admin_status", "up".to_string()),
            ("fec", serde_plain(port.fec)),
            (
                "lanes",
                port.lanes
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(","),
            ),
            ("mtu", port.mtu.to_string()),
            ("speed", port.speed_mbps.to_string()),
        ]);
        if let Some(d) = &port.description {
            fields.insert("description".into(), escape::sanitize_text(d));
        }
        put(&mut db, "PORT", p.to_string(), fields);
        db.entry("CABLE_LENGTH".into())
            .or_default()
            .entry("AZURE".into())
            .or_default()
            .insert(p.to_string(), format!("{}m", port.cable_m));

        put(
            &mut db,
            "BUFFER_PORT_INGRESS_PROFILE_LIST",
            p.into(),
            row([("profile_list", "ingress_lossless_profile".into())]),
        );
        put(
            &mut db,
            "BUFFER_PORT_EGRESS_PROFILE_LIST",
            p.into(),
            row([(
                "profile_list",
                "egress_lossless_profile,egress_lossy_profile".into(),
            )]),
        );
        put(
            &mut db,
            "BUFFER_PG",
            format!("{p}|0"),
            row([("profile", "ingress_lossy_profile".into())]),
        );

        let mut qos_map = row([
            ("dscp_to_tc_map", MAP_NAME.to_string()),
            ("tc_to_queue_map", MAP_NAME.to_string()),
            ("tc_to_pg_map", MAP_NAME.to_string()),
            ("pfc_to_queue_map", MAP_NAME.to_string()),
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
                PauseThreshold::Static { bytes } => ("static_th", bytes.to_string()),
                PauseThreshold::Dynamic { log2_alpha } => {
                    if !(-8..=7).contains(&log2_alpha) {
                        return Err(err(format!(
                            "port `{p}`: dynamic_th {log2_alpha} outside -8..7"
                        )));
                    }
                    ("dynamic_th", log2_alpha.to_string())
                }
            };
            let profile = row([
                ("pool", INGRESS_POOL.to_string()),
                ("size", h.size_bytes.to_string()),
                ("xon", h.xon_bytes.to_string()),
                ("xoff", h.xoff_bytes.to_string()),
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
                    format!("{p}|{r}"),
                    row([("profile", name.clone())]),
                );
            }
            qos_map.insert("pfc_to_pg_map".into(), MAP_NAME.into());
            qos_map.insert("pfc_enable".into(), join(&port.lossless_priorities));
            if wd.is_some() && port.pfc_watchdog {
                qos_map.insert("pfcwd_sw_enable".into(), join(&port.lossless_priorities));
                if let Some(w) = wd {
                    put(
                        &mut db,
                        "PFC_WD",
                        p.into(),
                        row([
                            ("action", serde_plain(w.action)),
                            ("detection_time", w.detect_ms.to_string()),
                            ("restoration_time", w.restore_ms.to_string()),
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
        put(&mut db, "PORT_QOS_MAP", p.into(), qos_map);

        // Egress buffers: lossless queues on the lossless pool, the rest lossy.
        let lossy: Vec<u8> = (0..8).filter(|q| !lossless_queues.contains(q)).collect();
        for r in ranges(&lossless_queues) {
            put(
                &mut db,
                "BUFFER_QUEUE",
                format!("{p}|{r}"),
                row([("profile", "egress_lossless_profile".into())]),
            );
        }
        for r in ranges(&lossy) {
            put(
                &mut db,
                "BUFFER_QUEUE",
                format!("{p}|{r}"),
                row([("profile", "egress_lossy_profile".into())]),
            );
        }

        // Queues: scheduler per class queue; WRED (ECN mark) where this port marks.
        let mut queues: BTreeMap<u8, BTreeMap<String, String>> = BTreeMap::new();
        for c in &qos.classes {
            queues
                .entry(c.queue)
                .or_default()
                .insert("scheduler".into(), scheduler_name(c.scheduling));
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
                let mut f = BTreeMap::new();
                for colour in ["green", "yellow", "red"] {
                    f.insert(format!("wred_{colour}_enable"), "true".to_string());
                    f.insert(format!("{colour}_min_threshold"), e.min_bytes.to_string());
                    f.insert(format!("{colour}_max_threshold"), e.max_bytes.to_string());
                    f.insert(
                        format!("{colour}_drop_probability"),
                        e.probability_percent.to_string(),
                    );
                }
                f.insert("ecn".into(), "ecn_all".into());
                put(&mut db, "WRED_PROFILE", name.clone(), f);
                queues
                    .entry(q.queue)
                    .or_default()
                    .insert("wred_profile".into(), name);
            }
        }
        for (q, fields) in queues {
            put(&mut db, "QUEUE", format!("{p}|{q}"), fields);
        }
    }
    for (name, profile) in profiles {
        put(&mut db, "BUFFER_PROFILE", name, profile);
    }
    Ok(db)
}

/// A unit enum's serde name (`Fec::Rs` → `rs`).
fn serde_plain<T: Serialize>(v: T) -> String {
    match serde_json::to_value(v) {
        Ok(serde_json::Value::String(s)) => s,
        _ => String::new(),
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
    fn profile_name() {
        assert_eq!(
            lossless_profile_name(400000, 5),
            "pg_lossless_400000_5m_profile"
        );
        assert_eq!(port_name(2, 8), "Ethernet16");
    }
}
