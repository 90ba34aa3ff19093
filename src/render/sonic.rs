//! SONiC view: a switch context as the CONFIG_DB entries fabricc owns, and what the apply
//! program (`programs/sonic/apply.sh`, `sonic_program`) needs to put them on the switch.
//!
//! In: a `SwitchContext` with `os: sonic` and its `SonicPlan` (platform, SKU, buffer model,
//! pools, profiles, per-port cable and PG profile: all decided in `lower::sonic`). Out:
//! `SonicView` (the sorted `table → key → field → string` tree that
//! `config_db.fragment.json` prints with `tojson`, and `fabricc-device.json`)
//! and the notes of what SONiC is left to decide. The tree is built from data rather than text
//! because every value must be a JSON string and every key/reference must resolve.
//!
//! Tables, with their evidence (sonic-net/sonic-buildimage@086b03bd70f9, YANG models under
//! `src/sonic-yang-models/yang-models/`, templates under `files/build_templates/`):
//! * Lossless PG profiles named `pg_lossless_<speed>_<cable>_profile` and PG keys as
//!   buffermgrd's contiguous ranges, so buffermgrd reuses them instead of writing its own
//!   (sonic-net/sonic-swss@e6b0c5b5d2ab:cfgmgr/buffermgr.cpp:278); PG index = PFC priority.
//!   Dynamic model: `"NULL"` (the switch computes the profile), or a `fabricc_` override.
//! * `PFC_PRIORITY_TO_PRIORITY_GROUP_MAP` and `pfc_to_pg_map` on Spectrum only (`qos_config.j2`
//!   writes them for `mellanox`/`barefoot` only, :167; S7).
//! * WRED `ecn_all` with `wred_*_enable true` on lossless queues (as SONiC's `AZURE_LOSSLESS`),
//!   thresholds in whole cells of the model (S14d).
//! * `DEVICE_METADATA` carries `buffer_model` only: `hostname` in a merge fragment renames
//!   the switch (S14c), so `apply.sh` checks the hostname instead of setting it.
//! * Plain-name references, every value a string (the YANG models' leafrefs and patterns);
//!   `PFC_WD` within `sonic-pfcwd.yang`'s ranges. One port per key in the tree; the file
//!   lists the ports whose entries are the same in one key ([`list_ports`]), and the apply
//!   program splits them before YANG, GCU or CONFIG_DB see them.
//! * `SWITCH_HASH|GLOBAL` `ecmp_hash`/`lag_hash` from `load-balance { hash … }`: YANG
//!   leaf-lists, so JSON lists (`ListTables`, beside the all-string tree); `sonic_hash` has
//!   the evidence.
//!
//! * No `PORT.admin_status` (S20) and no `DEVICE_NEIGHBOR` (S21): the operator's.
//! * Stable names (issue 36 item 3, U6): `SCHEDULER|FABRICC_Q<queue>` and
//!   `WRED_PROFILE|FABRICC_ECN_Q<queue>` carry the class's numbers without naming them, so a
//!   threshold or weight change is one changed entry and no reference moves.
//!
//! What of CONFIG_DB fabricc owns, per key, and how the program replaces it: `sonic_program`.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use minijinja::Value;
use minijinja::value::{Enumerator, Object, ObjectExt, ObjectRepr, Serde};
use serde::Serialize;

use super::context::{
    Ecn, Fec, PauseThreshold, PortContext, QosPlan, Scheduling, SonicAsic, SonicBufferModel,
    SonicPlan, SonicPort, SwitchContext, SwitchOs, Watchdog, WatchdogAction,
};
use super::escape;
use super::fidelity::Note;
use super::{RenderError, unsupported};

/// A key, field or value of CONFIG_DB: mostly fixed words, borrowed rather than allocated
/// (a leaf's tree has thousands of them).
pub type Text = Cow<'static, str>;

/// `field → value` of one entry; every value a string.
pub type Row = BTreeMap<Text, Text>;

/// `TABLE → key → field → value`.
pub type ConfigDb = BTreeMap<&'static str, BTreeMap<Text, Row>>;

/// `TABLE → key → field → items`: the CONFIG_DB fields that are YANG leaf-lists, a JSON list
/// in `config_db.json` (`SWITCH_HASH|GLOBAL.ecmp_hash`). No table is in both trees.
pub type ListTables =
    BTreeMap<&'static str, BTreeMap<&'static str, BTreeMap<&'static str, Vec<&'static str>>>>;

/// The tables `config qos clear` deletes (sonic-net/sonic-utilities@691b1bbc4fd2:
/// config/main.py:923-942, `QOS_TABLE_NAMES`), in its order.
pub const QOS_CLEAR_TABLES: [&str; 19] = [
    "PORT_QOS_MAP",
    "QUEUE",
    "TC_TO_PRIORITY_GROUP_MAP",
    "MAP_PFC_PRIORITY_TO_QUEUE",
    "TC_TO_QUEUE_MAP",
    "DSCP_TO_TC_MAP",
    "MPLS_TC_TO_TC_MAP",
    "SCHEDULER",
    "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP",
    "WRED_PROFILE",
    "CABLE_LENGTH",
    "BUFFER_PG",
    "BUFFER_QUEUE",
    "BUFFER_PORT_INGRESS_PROFILE_LIST",
    "BUFFER_PORT_EGRESS_PROFILE_LIST",
    "BUFFER_PROFILE",
    "BUFFER_POOL",
    "DEFAULT_LOSSLESS_BUFFER_PARAMETER",
    "LOSSLESS_TRAFFIC_PATTERN",
];

/// Tables fabricc owns wholly on a SONiC switch: after `apply.sh` they hold exactly the
/// fragment's keys (absent from the fragment: empty). `config qos clear`'s, plus `PFC_WD`.
pub fn owned_tables() -> Vec<&'static str> {
    let mut t: Vec<&'static str> = QOS_CLEAR_TABLES.to_vec();
    t.push("PFC_WD");
    t.sort_unstable();
    t
}

pub use super::sonic_device::DeviceSettings;
use super::sonic_device::device_settings;
use super::sonic_notes::{cells, notes};

/// The view of a SONiC switch's folder: `config_db.fragment.json` and `fabricc-device.json`.
#[derive(Debug, Serialize)]
pub struct SonicView {
    /// A `Tables` object: the template sees a map, `tojson` prints the tree directly.
    pub config_db: Value,
    /// `fabricc-device.json`.
    pub settings: DeviceSettings,
}

/// The CONFIG_DB tree as a template value that is not copied into the template's own maps: a
/// leaf's tree has thousands of entries, and `tojson` (the only thing the template does with
/// it) serializes it straight from here. Indexing and loops still work, converting on access.
#[derive(Debug)]
pub struct Tables(pub ConfigDb, pub ListTables);

impl Tables {
    /// Every table name of both trees, sorted (`tojson` prints them in this order).
    fn names(&self) -> Vec<&'static str> {
        let names: BTreeSet<&'static str> = self.0.keys().chain(self.1.keys()).copied().collect();
        names.into_iter().collect()
    }
}

/// Both trees as one JSON object, tables sorted by name (what `tojson` prints).
impl Serialize for Tables {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let names = self.names();
        let mut map = serializer.serialize_map(Some(names.len()))?;
        for name in names {
            if let Some(table) = self.0.get(name) {
                map.serialize_entry(name, table)?;
            } else if let Some(table) = self.1.get(name) {
                map.serialize_entry(name, table)?;
            }
        }
        map.end()
    }
}

impl Object for Tables {
    fn repr(self: &Arc<Self>) -> ObjectRepr {
        ObjectRepr::Map
    }

    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        let name = key.as_str()?;
        if let Some(table) = self.0.get(name) {
            return Some(Value::from(Serde(table)));
        }
        self.1.get(name).map(|table| Value::from(Serde(table)))
    }

    fn enumerate(self: &Arc<Self>) -> Enumerator {
        self.mapped_enumerator(|this| Box::new(this.names().into_iter().map(Value::from)))
    }

    fn enumerator_len(self: &Arc<Self>) -> Option<usize> {
        Some(self.names().len())
    }
}

/// The leaf-list fields of the fragment: `SWITCH_HASH|GLOBAL` `ecmp_hash` and `lag_hash`, one
/// policy for ECMP and LAG (`sonic_hash` has the evidence).
pub fn list_tables(plan: &super::context::SonicPlan) -> ListTables {
    let mut out = ListTables::new();
    if let Some(fields) = &plan.switch_hash {
        let global = super::sonic_hash::LIST_FIELDS
            .into_iter()
            .map(|f| (f, fields.clone()))
            .collect();
        out.entry("SWITCH_HASH")
            .or_default()
            .insert("GLOBAL", global);
    }
    out
}

/// Name of every QoS map this generator writes.
pub const MAP_NAME: &str = "FABRICC";
const INGRESS_POOL: &str = "ingress_lossless_pool";

// Test support (unit tests; tests/it/render_targets.rs names ports per target), not the product's.
#[cfg(any(test, feature = "internals"))]
pub use crate::lower::vocab::sonic_port_name as port_name;

/// The name buffermgrd gives a traditional lossless PG profile (the tests compare with it).
#[cfg(test)]
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
    // Inserted one by one: `collect` would buffer and sort the pairs in a Vec first, and a
    // leaf writes a handful of rows for each of its ports.
    let mut out = Row::new();
    for (k, v) in fields {
        out.insert(Cow::Borrowed(k), v);
    }
    out
}

pub fn view(ctx: &SwitchContext) -> Result<(SonicView, Vec<Note>), RenderError> {
    let dev = ctx.device.as_str();
    let Some(plan) = &ctx.sonic else {
        return Err(unsupported(
            dev,
            SwitchOs::Sonic,
            "no SONiC platform was resolved for this switch",
        ));
    };
    let db = config_db(ctx)?;
    let db = list_ports(db, ctx.ports.iter().map(|p| p.name.as_str()));
    let notes = notes(ctx);
    let view = SonicView {
        config_db: Value::from_object(Tables(db, list_tables(plan))),
        settings: device_settings(ctx, plan),
    };
    Ok((view, notes))
}

/// The per-port tables whose key may name several ports (`Ethernet0,Ethernet4|3`): orchagent
/// splits the port part on `,` (`list_item_delimiter`) for `BUFFER_QUEUE`, `BUFFER_PG` and both
/// profile lists (sonic-net/sonic-swss@e6b0c5b5d2ab:orchagent/bufferorch.cpp:949, 1327, 1672,
/// 1862), `QUEUE` (qosorch.cpp:1806) and `PORT_QOS_MAP` (qosorch.cpp:2058), and SONiC's own
/// `buffers_config.j2`/`qos_config.j2` once wrote them so. Not `PORT`, `PFC_WD` or
/// `CABLE_LENGTH` (pfcwdorch takes one port per key).
pub const PORT_LIST_TABLES: [&str; 6] = [
    "BUFFER_PG",
    "BUFFER_PORT_EGRESS_PROFILE_LIST",
    "BUFFER_PORT_INGRESS_PROFILE_LIST",
    "BUFFER_QUEUE",
    "PORT_QOS_MAP",
    "QUEUE",
];

/// The entries that share one key: the key's suffix after the port (`3-4`) and the fields.
type PortGroup = (Option<String>, Row);

/// The fragment as `config_db.fragment.json` writes it: in [`PORT_LIST_TABLES`], the entries
/// that are the same but for the port are one key listing the ports, in the switch's port
/// order (issue 36: a leaf's 128 ports wrote 128 identical rows per table, 83 % of a 98k-GPU
/// build's output). The apply program splits them again (one key per port, as YANG, GCU and
/// the dynamic buffer manager take them), and every reader of fabricc (`verify`, `import`,
/// the read-back) splits them as orchagent does. A key whose port part is not one of
/// `ports` (`PORT_QOS_MAP|global`) stays as it is.
pub fn list_ports<'p>(mut db: ConfigDb, ports: impl Iterator<Item = &'p str>) -> ConfigDb {
    let rank: std::collections::HashMap<&str, usize> =
        ports.enumerate().map(|(i, p)| (p, i)).collect();
    for table in PORT_LIST_TABLES {
        let Some(rows) = db.remove(table) else {
            continue;
        };
        let mut kept = BTreeMap::new();
        let mut groups: BTreeMap<PortGroup, Vec<(usize, String)>> = BTreeMap::new();
        for (key, fields) in rows {
            let (port, rest) = match key.split_once('|') {
                Some((p, r)) => (p, Some(r)),
                None => (key.as_ref(), None),
            };
            match rank.get(port) {
                Some(&i) => groups
                    .entry((rest.map(str::to_string), fields))
                    .or_default()
                    .push((i, port.to_string())),
                None => {
                    kept.insert(key, fields);
                }
            }
        }
        for ((rest, fields), mut members) in groups {
            members.sort_unstable();
            let mut key = String::with_capacity(members.len() * 12);
            for (n, (_, p)) in members.iter().enumerate() {
                if n > 0 {
                    key.push(',');
                }
                key.push_str(p);
            }
            if let Some(rest) = rest {
                key.push('|');
                key.push_str(&rest);
            }
            kept.insert(Cow::Owned(key), fields);
        }
        db.insert(table, kept);
    }
    db
}

/// Build the whole CONFIG_DB fragment of one switch.
pub fn config_db(ctx: &SwitchContext) -> Result<ConfigDb, RenderError> {
    let mut out = Fragment {
        db: ConfigDb::new(),
        staged: BTreeMap::new(),
        device: ctx.device.as_str(),
    };
    let Some(plan) = &ctx.sonic else {
        return Err(out.err("no SONiC platform was resolved for this switch".into()));
    };
    if plan.ports.len() != ctx.ports.len() {
        return Err(out.err("the SONiC plan does not cover every port".into()));
    }
    // The steps run in CONFIG_DB order, so that the first error is the same one as always.
    buffer_model_tables(&mut out, plan)?;
    buffer_pools_and_profiles(&mut out, plan);
    qos_maps(&mut out, &ctx.qos, plan)?;
    let schedulers = class_schedulers(&mut out, &ctx.qos)?;
    let watchdog = pfc_watchdog_global(&mut out, ctx.watchdog)?;
    breakouts(&mut out, plan);
    let switch = SwitchWide {
        plan,
        qos: &ctx.qos,
        watchdog,
        schedulers,
        ecn_by_speed: ecn_by_speed(ctx, plan.cell_bytes),
        cnp_queues: ctx
            .qos
            .classes
            .iter()
            .filter(|c| c.cnp)
            .map(|c| c.queue)
            .collect(),
    };
    let mut pg_profiles: BTreeMap<String, Row> = BTreeMap::new();
    for (port, sp) in ctx.ports.iter().zip(&plan.ports) {
        port_tables(&mut out, &switch, port, sp, &mut pg_profiles)?;
    }
    for (name, profile) in pg_profiles {
        out.put("BUFFER_PROFILE", name.into(), profile);
    }
    if plan.asic == SonicAsic::Broadcom && out.db.contains_key("PFC_PRIORITY_TO_PRIORITY_GROUP_MAP")
    {
        return Err(out.err("a priority→PG map on Broadcom".into()));
    }
    Ok(out.finish())
}

/// The fragment being built, and the switch its errors name.
struct Fragment<'a> {
    db: ConfigDb,
    /// The entries of the tables with a key per port ([`Fragment::STAGED`]), in the order
    /// they were put: sorted into `db` at once by [`Fragment::finish`] rather than inserted
    /// one by one into trees of hundreds of keys.
    staged: BTreeMap<&'static str, Vec<(Text, Row)>>,
    device: &'a str,
}

impl Fragment<'_> {
    /// Tables written only through `put`, and read only once the fragment is finished.
    const STAGED: [&'static str; 8] = [
        "BUFFER_PG",
        "BUFFER_PORT_EGRESS_PROFILE_LIST",
        "BUFFER_PORT_INGRESS_PROFILE_LIST",
        "BUFFER_QUEUE",
        "PFC_WD",
        "PORT",
        "PORT_QOS_MAP",
        "QUEUE",
    ];

    fn put(&mut self, table: &'static str, key: Text, fields: Row) {
        if Self::STAGED.contains(&table) {
            self.staged.entry(table).or_default().push((key, fields));
        } else {
            self.db.entry(table).or_default().insert(key, fields);
        }
    }

    /// The whole tree. A staged table is built from its entries in the order they were put
    /// (`BTreeMap`'s `FromIterator` sorts stably and keeps the last of equal keys, as
    /// inserting them one by one does).
    fn finish(mut self) -> ConfigDb {
        for (table, rows) in std::mem::take(&mut self.staged) {
            let t = self.db.entry(table).or_default();
            if t.is_empty() {
                *t = rows.into_iter().collect();
            } else {
                t.extend(rows);
            }
        }
        self.db
    }

    fn err(&self, message: String) -> RenderError {
        unsupported(self.device, SwitchOs::Sonic, message)
    }
}

/// What every port's entries refer to, decided once per switch.
struct SwitchWide<'a> {
    plan: &'a SonicPlan,
    qos: &'a QosPlan,
    /// `None` = watchdog off on this switch; `Some` = within SONiC's ranges.
    watchdog: Option<Watchdog>,
    /// Each class queue's SCHEDULER fields, also for the rate-capped classes that get a
    /// scheduler per port speed instead.
    schedulers: BTreeMap<u8, Row>,
    cnp_queues: BTreeSet<u8>,
    /// `ecn_by_speed`.
    ecn_by_speed: BTreeMap<(u8, u32), Ecn>,
}

/// `DEVICE_METADATA` and, in the dynamic model, the parameters buffermgrd computes the
/// lossless profiles from.
fn buffer_model_tables(out: &mut Fragment, plan: &SonicPlan) -> Result<(), RenderError> {
    out.put(
        "DEVICE_METADATA",
        "localhost".into(),
        row([("buffer_model", plan.buffer_model.as_str().into())]),
    );
    if plan.buffer_model == SonicBufferModel::Dynamic {
        out.put(
            "DEFAULT_LOSSLESS_BUFFER_PARAMETER",
            "AZURE".into(),
            row([(
                "default_dynamic_th",
                plan.default_dynamic_th.to_string().into(),
            )]),
        );
        let Some((mtu, spp)) = plan.traffic_pattern else {
            return Err(out.err(
                "the dynamic buffer model needs the platform's LOSSLESS_TRAFFIC_PATTERN".into(),
            ));
        };
        out.put(
            "LOSSLESS_TRAFFIC_PATTERN",
            "AZURE".into(),
            row([
                ("mtu", mtu.to_string().into()),
                ("small_packet_percentage", spp.to_string().into()),
            ]),
        );
    }
    Ok(())
}

/// The platform's pools and its fixed profiles; the lossless PG profiles come per port.
fn buffer_pools_and_profiles(out: &mut Fragment, plan: &SonicPlan) {
    for pool in &plan.pools {
        let mut f = row([("type", pool.kind.into()), ("mode", pool.mode.into())]);
        if let Some(size) = pool.size {
            f.insert("size".into(), size.to_string().into());
        }
        if let Some(xoff) = pool.xoff {
            f.insert("xoff".into(), xoff.to_string().into());
        }
        out.put("BUFFER_POOL", pool.name.clone().into(), f);
    }
    for pr in &plan.profiles {
        let mut f = row([
            ("pool", pr.pool.clone().into()),
            ("size", pr.size.to_string().into()),
        ]);
        if let Some(d) = pr.dynamic_th {
            f.insert("dynamic_th".into(), d.to_string().into());
        }
        if let Some(st) = pr.static_th {
            f.insert("static_th".into(), st.to_string().into());
        }
        out.put("BUFFER_PROFILE", pr.name.clone().into(), f);
    }
}

/// The switch's QoS maps, complete over DSCP 0..63 and TC/priority 0..7 (a partial map
/// leaves the rest to the SAI's defaults).
fn qos_maps(out: &mut Fragment, qos: &QosPlan, plan: &SonicPlan) -> Result<(), RenderError> {
    let mut tc_to_queue: BTreeMap<u8, u8> = (0..8).map(|t| (t, t)).collect();
    let mut tc_to_pg: BTreeMap<u8, u8> = (0..8).map(|t| (t, 0)).collect();
    let mut pfc_to_queue: BTreeMap<u8, u8> = (0..8).map(|p| (p, p)).collect();
    let mut seen_tc: BTreeMap<u8, u8> = BTreeMap::new();
    for c in &qos.classes {
        if let Some(q) = seen_tc.insert(c.tc, c.queue)
            && q != c.queue
        {
            return Err(out.err(format!("TC {} maps to two queues", c.tc)));
        }
        tc_to_queue.insert(c.tc, c.queue);
        if qos.lossless_priorities.contains(&c.priority) && c.lossless {
            if c.priority == 0 {
                return Err(out.err("lossless priority 0 collides with the lossy PG 0".into()));
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
    out.put(
        "DSCP_TO_TC_MAP",
        MAP_NAME.into(),
        qos.dscp_to_tc
            .iter()
            .enumerate()
            .map(|(d, t)| (number(d), number(usize::from(*t))))
            .collect(),
    );
    out.put("TC_TO_QUEUE_MAP", MAP_NAME.into(), map(&tc_to_queue));
    out.put("TC_TO_PRIORITY_GROUP_MAP", MAP_NAME.into(), map(&tc_to_pg));
    out.put(
        "MAP_PFC_PRIORITY_TO_QUEUE",
        MAP_NAME.into(),
        map(&pfc_to_queue),
    );
    let pfc_to_pg: BTreeMap<u8, u8> = qos.lossless_priorities.iter().map(|&p| (p, p)).collect();
    if plan.pfc_to_pg_map && !pfc_to_pg.is_empty() {
        out.put(
            "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP",
            MAP_NAME.into(),
            map(&pfc_to_pg),
        );
    }
    out.put(
        "PORT_QOS_MAP",
        "global".into(),
        row([("dscp_to_tc_map", MAP_NAME.into())]),
    );
    Ok(())
}

/// The SCHEDULER name of a class's queue (issue 36 item 3, U6): named by what it is, the
/// queue, never by the weight it carries, so a weight change is one changed field and no
/// reference moves. `FABRICC_` marks it as fabricc's: `apply.sh` removes a `FABRICC_` object no
/// fabric port uses any more.
fn scheduler_name(queue: u8) -> Text {
    // Every port's QUEUE rows name these: borrowed for the eight queues there are.
    const NAMES: [&str; 8] = [
        "FABRICC_Q0",
        "FABRICC_Q1",
        "FABRICC_Q2",
        "FABRICC_Q3",
        "FABRICC_Q4",
        "FABRICC_Q5",
        "FABRICC_Q6",
        "FABRICC_Q7",
    ];
    match NAMES.get(usize::from(queue)) {
        Some(name) => Cow::Borrowed(*name),
        None => format!("{MAP_NAME}_Q{queue}").into(),
    }
}

/// One SCHEDULER per class queue; returns every queue's fields (also for the rate-capped
/// classes, which get a scheduler per port speed instead).
fn class_schedulers(out: &mut Fragment, qos: &QosPlan) -> Result<BTreeMap<u8, Row>, RenderError> {
    let mut scheduler_fields: BTreeMap<u8, Row> = BTreeMap::new();
    for c in &qos.classes {
        let fields = match c.scheduling {
            Scheduling::Strict => row([("type", "STRICT".into())]),
            Scheduling::Ets { weight_percent } => {
                if !(1..=100).contains(&weight_percent) {
                    return Err(out.err(format!(
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
        // A rate-capped class gets a scheduler per port speed instead (`queue_scheduler`).
        if c.rate_percent.is_none() {
            out.put("SCHEDULER", scheduler_name(c.queue), fields.clone());
        }
        scheduler_fields.insert(c.queue, fields);
    }
    Ok(scheduler_fields)
}

/// `PFC_WD|GLOBAL`, with the timers held to `sonic-pfcwd.yang`'s ranges.
fn pfc_watchdog_global(
    out: &mut Fragment,
    watchdog: Option<Watchdog>,
) -> Result<Option<Watchdog>, RenderError> {
    let Some(w) = watchdog else {
        return Ok(None);
    };
    if !(100..=1000).contains(&w.poll_ms)
        || !(100..=5000).contains(&w.detect_ms)
        || !(100..=60000).contains(&w.restore_ms)
        || w.detect_ms < w.poll_ms
        || w.restore_ms < w.poll_ms
    {
        return Err(out.err(format!(
            "PFC watchdog poll {} ms / detect {} ms / restore {} ms outside SONiC's ranges \
             (poll 100..1000, detect 100..5000, restore 100..60000, both ≥ poll)",
            w.poll_ms, w.detect_ms, w.restore_ms
        )));
    }
    out.put(
        "PFC_WD",
        "GLOBAL".into(),
        row([("POLL_INTERVAL", w.poll_ms.to_string().into())]),
    );
    Ok(Some(w))
}

/// The breakout of the cages the fabric's ports use (issue 18 item 2): the SKU's mode, as
/// `sonic-cfggen` writes it at first boot (`SonicPlan::breakouts`); BREAKOUT_CFG's key is
/// the parent port, present in PORT or not (sonic-net/sonic-buildimage@086b03bd70f9:src/sonic-yang-models/yang-models/sonic-breakout_cfg.yang).
fn breakouts(out: &mut Fragment, plan: &SonicPlan) {
    for (parent, mode) in &plan.breakouts {
        out.put(
            "BREAKOUT_CFG",
            parent.clone().into(),
            row([("brkout_mode", mode.clone().into())]),
        );
    }
}

/// Every table entry of one port. `pg_profiles` collects buffermgrd's lossless profiles
/// across the ports, since ports of one speed and cable share one.
fn port_tables(
    out: &mut Fragment,
    switch: &SwitchWide,
    port: &PortContext,
    sp: &SonicPort,
    pg_profiles: &mut BTreeMap<String, Row>,
) -> Result<(), RenderError> {
    let p = port.name.as_str();
    port_entry(out, port, sp)?;
    port_buffer_lists(out, switch.plan, p);
    let mut qos_map = row([
        ("dscp_to_tc_map", MAP_NAME.into()),
        ("tc_to_queue_map", MAP_NAME.into()),
        ("tc_to_pg_map", MAP_NAME.into()),
        ("pfc_to_queue_map", MAP_NAME.into()),
    ]);
    let lossless_queues = if port.lossless_priorities.is_empty() {
        Vec::new()
    } else {
        lossless_pfc(out, switch, port, sp, pg_profiles, &mut qos_map)?
    };
    out.put("PORT_QOS_MAP", p.to_string().into(), qos_map);
    buffer_queues(out, switch, p, &lossless_queues);
    port_queues(out, switch, port)
}

/// `PORT` and the port's cable length.
fn port_entry(out: &mut Fragment, port: &PortContext, sp: &SonicPort) -> Result<(), RenderError> {
    let p = port.name.as_str();
    if !(68..=9216).contains(&port.mtu) || port.speed_mbps > 1_600_000 {
        return Err(out.err(format!(
            "port `{p}`: MTU 68..9216 and speed ≤ 1600000 Mb/s required"
        )));
    }
    if port.lanes.is_empty() {
        return Err(out.err(format!("port `{p}`: SONiC needs the port's lanes")));
    }
    // No `admin_status` (S20): a port the operator shut stays shut; SONiC creates ports
    // admin-down unless the operator says otherwise, and fabricc does not decide that.
    let mut fields = row([
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
    if let Some((alias, index)) = &sp.sku_row {
        fields.insert("alias".into(), escape::sanitize_text(alias).into());
        fields.insert("index".into(), index.to_string().into());
    }
    out.put("PORT", p.to_string().into(), fields);
    // No DEVICE_NEIGHBOR (S21): LLDP and the operator's minigraph name the real peer;
    // fabricc's cabling plan (cabling.csv) is not a substitute for it.
    out.db
        .entry("CABLE_LENGTH")
        .or_default()
        .entry("AZURE".into())
        .or_default()
        .insert(p.to_string().into(), sp.cable.clone().into());
    Ok(())
}

/// The port's buffer profile lists and its lossy PG 0.
fn port_buffer_lists(out: &mut Fragment, plan: &SonicPlan, p: &str) {
    if !plan.ingress_profile_list.is_empty() {
        out.put(
            "BUFFER_PORT_INGRESS_PROFILE_LIST",
            p.to_string().into(),
            row([("profile_list", plan.ingress_profile_list.clone().into())]),
        );
    }
    if !plan.egress_profile_list.is_empty() {
        out.put(
            "BUFFER_PORT_EGRESS_PROFILE_LIST",
            p.to_string().into(),
            row([("profile_list", plan.egress_profile_list.clone().into())]),
        );
    }
    out.put(
        "BUFFER_PG",
        format!("{p}|0").into(),
        row([("profile", plan.lossy_pg_profile.clone().into())]),
    );
}

/// The port's lossless priorities: their PGs, PFC and watchdog fields of `PORT_QOS_MAP`, and
/// `PFC_WD`. Returns the queues the lossless classes use on this port.
fn lossless_pfc(
    out: &mut Fragment,
    switch: &SwitchWide,
    port: &PortContext,
    sp: &SonicPort,
    pg_profiles: &mut BTreeMap<String, Row>,
    qos_map: &mut Row,
) -> Result<Vec<u8>, RenderError> {
    let p = port.name.as_str();
    let plan = switch.plan;
    if sp.cable == "0m" {
        return Err(out.err(format!(
            "port `{p}`: buffermgrd skips a 0m cable; no lossless PG"
        )));
    }
    if port.headroom.is_empty() {
        return Err(out.err(format!("port `{p}`: lossless without headroom")));
    }
    let threshold = pause_threshold(out, plan, port)?;
    let pg_profile = lossless_pg_profile(out, plan, p, sp, threshold, pg_profiles)?;
    for r in ranges(&port.lossless_priorities) {
        out.put(
            "BUFFER_PG",
            format!("{p}|{r}").into(),
            row([("profile", pg_profile.clone())]),
        );
    }
    if plan.pfc_to_pg_map {
        qos_map.insert("pfc_to_pg_map".into(), MAP_NAME.into());
    }
    qos_map.insert("pfc_enable".into(), join(&port.lossless_priorities).into());
    if let Some(w) = switch.watchdog
        && port.pfc_watchdog
    {
        qos_map.insert(
            "pfcwd_sw_enable".into(),
            join(&port.lossless_priorities).into(),
        );
        out.put(
            "PFC_WD",
            p.to_string().into(),
            row([
                ("action", watchdog_action_name(w.action).into()),
                ("detection_time", w.detect_ms.to_string().into()),
                ("restoration_time", w.restore_ms.to_string().into()),
            ]),
        );
    }
    Ok(switch
        .qos
        .classes
        .iter()
        .filter(|c| c.lossless && port.lossless_priorities.contains(&c.priority))
        .map(|c| c.queue)
        .collect())
}

/// The lossless profile's threshold field: `static_th` only where the lossless pool is
/// static (Broadcom).
fn pause_threshold(
    out: &Fragment,
    plan: &SonicPlan,
    port: &PortContext,
) -> Result<(&'static str, Text), RenderError> {
    let p = port.name.as_str();
    match port.pause_threshold {
        PauseThreshold::Dynamic { log2_alpha } if (-8..=7).contains(&log2_alpha) => {
            Ok(("dynamic_th", log2_alpha.to_string().into()))
        }
        PauseThreshold::Dynamic { log2_alpha } => {
            Err(out.err(format!("port `{p}`: dynamic_th {log2_alpha} outside -8..7")))
        }
        PauseThreshold::Static { bytes } if plan.asic == SonicAsic::Broadcom => {
            Ok(("static_th", bytes.to_string().into()))
        }
        PauseThreshold::Static { .. } => Err(out.err(format!(
            "port `{p}`: a static pause threshold; SONiC's Mellanox lossless pool is dynamic"
        ))),
    }
}

/// The profile the port's lossless PGs name: buffermgrd's own name with our headroom, or
/// `"NULL"` for the dynamic model to compute.
fn lossless_pg_profile(
    out: &Fragment,
    plan: &SonicPlan,
    p: &str,
    sp: &SonicPort,
    (th_field, th): (&'static str, Text),
    pg_profiles: &mut BTreeMap<String, Row>,
) -> Result<Text, RenderError> {
    let Some(pr) = &sp.lossless_profile else {
        if plan.buffer_model == SonicBufferModel::Dynamic {
            return Ok("NULL".into());
        }
        return Err(out.err(format!(
            "port `{p}`: no lossless profile in the traditional buffer model"
        )));
    };
    let mut f = row([
        ("pool", INGRESS_POOL.into()),
        ("size", pr.size.to_string().into()),
        ("xon", pr.xon.to_string().into()),
        ("xoff", pr.xoff.to_string().into()),
        (th_field, th),
    ]);
    if let Some(o) = pr.xon_offset {
        f.insert("xon_offset".into(), o.to_string().into());
    }
    if let Some(existing) = pg_profiles.get(&pr.name)
        && existing != &f
    {
        return Err(out.err(format!(
            "two ports share buffermgrd's profile name `{}` with different headroom",
            pr.name
        )));
    }
    pg_profiles.insert(pr.name.clone(), f);
    Ok(pr.name.clone().into())
}

/// Egress buffers: lossless queues, the CNP queue's reserve, the rest lossy.
fn buffer_queues(out: &mut Fragment, switch: &SwitchWide, p: &str, lossless_queues: &[u8]) {
    let plan = switch.plan;
    let cnp_profile = plan.cnp_queue_profile.as_ref();
    let cnp: Vec<u8> = switch
        .cnp_queues
        .iter()
        .copied()
        .filter(|q| cnp_profile.is_some() && !lossless_queues.contains(q))
        .collect();
    let lossy: Vec<u8> = (0..8)
        .filter(|q| !lossless_queues.contains(q) && !cnp.contains(q))
        .collect();
    for (queues, profile) in [
        (lossless_queues, Some(&plan.lossless_queue_profile)),
        (&cnp, cnp_profile),
        (&lossy, Some(&plan.lossy_queue_profile)),
    ] {
        let Some(profile) = profile else { continue };
        for r in ranges(queues) {
            out.put(
                "BUFFER_QUEUE",
                format!("{p}|{r}").into(),
                row([("profile", profile.clone().into())]),
            );
        }
    }
}

/// `QUEUE`: the scheduler of each class's queue; the WRED profile where this port marks.
fn port_queues(
    out: &mut Fragment,
    switch: &SwitchWide,
    port: &PortContext,
) -> Result<(), RenderError> {
    let mut queues: BTreeMap<u8, Row> = BTreeMap::new();
    for c in &switch.qos.classes {
        let name = match c.rate_percent {
            None => scheduler_name(c.queue),
            Some(pct) => rate_capped_scheduler(out, switch, c.queue, pct, port.speed_mbps),
        };
        queues
            .entry(c.queue)
            .or_default()
            .insert("scheduler".into(), name);
    }
    for q in &port.ecn {
        if let Some(e) = q.ecn {
            let class = switch
                .qos
                .classes
                .iter()
                .find(|c| c.queue == q.queue)
                .and_then(|c| c.ecn);
            let speed = switch
                .ecn_by_speed
                .get(&(q.queue, port.speed_mbps))
                .copied();
            let name = wred_profile(
                out,
                switch.plan.cell_bytes,
                q.queue,
                (class, speed),
                e,
                (&port.name, port.speed_mbps),
            )?;
            queues
                .entry(q.queue)
                .or_default()
                .insert("wred_profile".into(), name);
        }
    }
    let p = port.name.as_str();
    for (q, fields) in queues {
        out.put("QUEUE", format!("{p}|{q}").into(), fields);
    }
    Ok(())
}

/// A rate cap: SCHEDULER `pir` is bytes/s (SAI_SCHEDULER_ATTR_MAX_BANDWIDTH_RATE with
/// meter_type bytes), so each port speed gets its own scheduler. SONiC's YANG refuses `pir`
/// without a `cir` above 0 and a `pir` below `cir` (sonic-net/sonic-buildimage@086b03bd70f9:
/// src/sonic-yang-models/yang-models/sonic-scheduler.yang), so `cir` = `pir`: the queue is
/// guaranteed what it may use, as Junos's `transmit-rate`. Named by queue and port speed, not
/// by the cap (U6).
fn rate_capped_scheduler(
    out: &mut Fragment,
    switch: &SwitchWide,
    queue: u8,
    pct: u8,
    speed_mbps: u32,
) -> Text {
    let name = format!("{}_{speed_mbps}", scheduler_name(queue));
    let sched = out.db.entry("SCHEDULER").or_default();
    if !sched.contains_key(name.as_str()) {
        let mut f = switch.schedulers.get(&queue).cloned().unwrap_or_default();
        f.insert("meter_type".into(), "bytes".into());
        let rate = rate_bytes_per_second(speed_mbps, pct).to_string();
        f.insert("cir".into(), rate.clone().into());
        f.insert("pir".into(), rate.into());
        sched.insert(name.clone().into(), f);
    }
    name.into()
}

/// The `WRED_PROFILE` of ECN marking on a class's queue (U6: named by what it is, never by the
/// thresholds it carries, so a threshold change is one changed profile and no reference
/// moves): `FABRICC_ECN_Q<queue>` for the class's own marking; `FABRICC_ECN_Q<queue>_<speed>G`
/// for what most ports of a speed mark with when that differs (`ecn 800G …`);
/// `FABRICC_ECN_Q<queue>_<port>` for a port that marks otherwise still (a link's `ecn`).
/// Thresholds in whole cells of the buffer model.
fn wred_profile(
    out: &mut Fragment,
    cell_bytes: Option<u64>,
    queue: u8,
    (class, speed_common): (Option<Ecn>, Option<Ecn>),
    e: Ecn,
    (port, speed_mbps): (&str, u32),
) -> Result<Text, RenderError> {
    let e = round_ecn(e, cell_bytes);
    let name = if class.map(|c| round_ecn(c, cell_bytes)) == Some(e) {
        format!("{MAP_NAME}_ECN_Q{queue}")
    } else if speed_common == Some(e) {
        format!("{MAP_NAME}_ECN_Q{queue}_{}G", speed_mbps / 1000)
    } else {
        format!("{MAP_NAME}_ECN_Q{queue}_{port}")
    };
    if name.len() > 32 {
        return Err(out.err(format!(
            "WRED profile name `{name}` longer than 32 characters"
        )));
    }
    let wred = out.db.entry("WRED_PROFILE").or_default();
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
    Ok(name.into())
}

/// ECN thresholds in whole cells of the buffer model.
fn round_ecn(e: Ecn, cell_bytes: Option<u64>) -> Ecn {
    Ecn {
        min_bytes: cells(e.min_bytes, cell_bytes),
        max_bytes: cells(e.max_bytes, cell_bytes),
        ..e
    }
}

/// Per (queue, port speed), the marking most ports of that speed use (ties: the smallest), in
/// whole cells: the one `FABRICC_ECN_Q<queue>_<speed>G` carries.
fn ecn_by_speed(ctx: &SwitchContext, cell_bytes: Option<u64>) -> BTreeMap<(u8, u32), Ecn> {
    let mut counts: BTreeMap<(u8, u32), BTreeMap<Ecn, usize>> = BTreeMap::new();
    for p in &ctx.ports {
        for q in &p.ecn {
            if let Some(e) = q.ecn {
                *counts
                    .entry((q.queue, p.speed_mbps))
                    .or_default()
                    .entry(round_ecn(e, cell_bytes))
                    .or_default() += 1;
            }
        }
    }
    counts
        .into_iter()
        .filter_map(|(k, by)| {
            let best = by.values().copied().max()?;
            by.into_iter()
                .find(|(_, n)| *n == best)
                .map(|(e, _)| (k, e))
        })
        .collect()
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
        let mut lists = ListTables::new();
        lists.entry("SWITCH_HASH").or_default().insert(
            "GLOBAL",
            BTreeMap::from([("ecmp_hash", vec!["SRC_IP", "DST_IP"])]),
        );
        let env = minijinja::Environment::new();
        let text = env
            .render_str(
                "{% for t in db %}{{ t }},{% endfor %}{{ db|length }} {{ db.PORT_QOS_MAP.global.dscp_to_tc_map }} {{ db.SWITCH_HASH.GLOBAL.ecmp_hash }}",
                minijinja::context! { db => Value::from_object(Tables(db.clone(), lists.clone())) },
            )
            .expect("renders");
        assert_eq!(
            text,
            "DEVICE_METADATA,PORT_QOS_MAP,SWITCH_HASH,3 FABRICC ['SRC_IP', 'DST_IP']"
        );
        assert_eq!(
            serde_json::to_string(&Tables(db, lists)).expect("serializes"),
            r#"{"DEVICE_METADATA":{"localhost":{"hostname":"leaf1"}},"PORT_QOS_MAP":{"global":{"dscp_to_tc_map":"FABRICC"}},"SWITCH_HASH":{"GLOBAL":{"ecmp_hash":["SRC_IP","DST_IP"]}}}"#
        );
    }

    #[test]
    fn staged_tables_hold_what_inserting_one_by_one_holds() {
        let mut staged = Fragment {
            db: ConfigDb::new(),
            staged: BTreeMap::new(),
            device: "leaf1",
        };
        let mut inserted = ConfigDb::new();
        let keys = [
            "Ethernet8|3",
            "Ethernet0|3",
            "Ethernet100|0",
            "Ethernet0|3",
            "Ethernet8|3",
        ];
        for (i, key) in keys.into_iter().enumerate() {
            for table in ["BUFFER_PG", "SCHEDULER"] {
                let fields = row([("profile", i.to_string().into())]);
                staged.put(table, key.into(), fields.clone());
                inserted
                    .entry(table)
                    .or_default()
                    .insert(key.into(), fields);
            }
        }
        assert_eq!(staged.finish(), inserted);
    }

    #[test]
    fn scheduler_names_are_the_map_name_and_queue() {
        for q in 0..=9u8 {
            assert_eq!(scheduler_name(q), format!("{MAP_NAME}_Q{q}"));
        }
    }

    #[test]
    fn owned_tables_are_qos_clear_and_pfc_wd() {
        let t = owned_tables();
        assert_eq!(t.len(), 20);
        assert!(t.contains(&"PFC_WD") && t.contains(&"BUFFER_PG"));
        assert!(t.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn thresholds_round_down_to_whole_cells() {
        assert_eq!(cells(150_000, Some(192)), 149_952);
        assert_eq!(cells(1_500_000, Some(192)), 1_499_904);
        assert_eq!(cells(100, Some(192)), 192);
        assert_eq!(cells(150_000, None), 150_000);
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
