//! A SONiC switch as deployed, from its CONFIG_DB dump (`config_db.json`, read with the
//! JSON reader of `fabricc verify`, which keeps every value's place).
//!
//! What each table gives (the tables and fields are SONiC's; docs/import.md lists them):
//! * `DEVICE_METADATA|localhost`: `platform`, `hwsku`, `buffer_model`;
//! * `PORT`: speed (Mb/s), MTU, lanes (how many lanes a port takes, hence the port count);
//! * `CABLE_LENGTH|<name>`: each port's cable (`30m`);
//! * `PORT_QOS_MAP`: the port's `dscp_to_tc_map` (or the `global` record's), `pfc_enable`;
//!   `DSCP_TO_TC_MAP`: DSCP → traffic class;
//! * `QUEUE|<port>|<q>`: `scheduler` (`SCHEDULER`: `STRICT`, or `DWRR`/`WRR` with a weight)
//!   and `wred_profile` (`WRED_PROFILE`: green min, max, drop probability, `ecn`);
//! * `BUFFER_PG|<port>|<pgs>` → `BUFFER_PROFILE`: the lossless headroom (`xoff`, `size`) and
//!   the pause threshold (`static_th` bytes, or `dynamic_th` α = 2^n); `BUFFER_POOL`: the
//!   egress pools, whose sizes add up to the buffer fabricc divides;
//! * `PFC_WD|<port>`: the watchdog's detection and restoration times and action;
//! * `DEVICE_NEIGHBOR|<port>`: the neighbour's `name` and `port`;
//! * `STATIC_ROUTE|<prefix>`: `nexthop` and/or `ifname`; `INTERFACE|<port>|<address>`: the
//!   port addresses that place a next hop and a prefix on a link.
//! * `SWITCH_HASH|GLOBAL` `ecmp_hash`: the ECMP hash fields, as `load-balance { hash … }`
//!   (`SRC_IP` `src-ip`, `DST_IP` `dst-ip`, `L4_SRC_PORT` `src-port`, `L4_DST_PORT`
//!   `dst-port`, `IP_PROTOCOL` `protocol`: the names `render::sonic_hash` writes; a list with
//!   another field, `IN_PORT` say, cannot be carried and is reported).
//!
//! * `PORT_QOS_MAP`'s `tc_to_queue_map`, `tc_to_pg_map`, `pfc_to_queue_map` → `TC_TO_QUEUE_MAP`,
//!   `TC_TO_PRIORITY_GROUP_MAP`, `MAP_PFC_PRIORITY_TO_QUEUE`: the queue plan (`classes.rs`
//!   turns it into `queue`/`traffic-class`); `SCHEDULER` `cir`/`pir`: a queue's rate cap.
//!
//! A `PFC_PRIORITY_TO_PRIORITY_GROUP_MAP` that is not one to one cannot be carried by the
//! `.fab` and is reported (FAB965).

use std::collections::{BTreeMap, BTreeSet};

use super::deployed::{Ev, Note, NoteKind};
// The parsed switch lives in `deployed.rs` (the writer reads it too); its public path stays.
pub use super::deployed::{
    PgProfile, Port, Sched, Shaper, StaticRoute, Switch, Threshold, Watchdog, Wred,
};
use crate::verify::canon::Loc;
use crate::verify::json::{Node, Value};

/// A DSCP → TC map, where it is, and where each DSCP's entry is.
type DscpMap = (BTreeMap<u8, u8>, Ev, BTreeMap<u8, Ev>);

fn text(n: &Node) -> Option<String> {
    match &n.value {
        Value::Array(items) => Some(
            items
                .iter()
                .filter_map(Node::scalar)
                .collect::<Vec<_>>()
                .join(","),
        ),
        _ => n.scalar(),
    }
}

fn field<'a, 't>(rec: &'a Node<'t>, name: &str) -> Option<&'a Node<'t>> {
    rec.get(name).or_else(|| rec.get(&format!("{name}@")))
}

fn num(rec: &Node, name: &str) -> Option<u64> {
    field(rec, name)
        .and_then(text)
        .and_then(|t| t.trim().parse().ok())
}

/// `Ethernet0,Ethernet4|3-4` → ([Ethernet0, Ethernet4], Some("3-4")).
fn split_key(key: &str) -> (Vec<String>, Option<&str>) {
    let (ports, rest) = match key.split_once('|') {
        Some((p, r)) => (p, Some(r)),
        None => (key, None),
    };
    (
        ports
            .split(',')
            .filter(|p| !p.is_empty())
            .map(str::to_string)
            .collect(),
        rest,
    )
}

/// `3`, `3-4`, `0,3-4` → the numbers (0..7 only).
pub fn items(spec: &str) -> BTreeSet<u8> {
    let mut out = BTreeSet::new();
    for part in spec.split(',') {
        let part = part.trim();
        let (lo, hi) = match part.split_once('-') {
            Some((a, b)) => (a.trim().parse::<u8>(), b.trim().parse::<u8>()),
            None => (part.parse::<u8>(), part.parse::<u8>()),
        };
        if let (Ok(lo), Ok(hi)) = (lo, hi) {
            for v in lo..=hi.min(7) {
                out.insert(v);
            }
        }
    }
    out
}

/// `30m`, `2.5m`, `300` (metres) → millimetres.
pub fn cable_mm(s: &str) -> Option<u64> {
    let s = s.trim();
    let s = s.strip_suffix('m').unwrap_or(s);
    let (whole, frac) = s.split_once('.').unwrap_or((s, ""));
    if whole.is_empty() || frac.len() > 3 || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let w: u64 = whole.parse().ok()?;
    let f: u64 = if frac.is_empty() {
        0
    } else {
        format!("{frac:0<3}").parse().ok()?
    };
    w.checked_mul(1000)?.checked_add(f)
}

fn ev(file: usize, n: &Node) -> Ev {
    Ev {
        file,
        at: Loc::new(n.start, n.end),
    }
}

/// A record's key (a finding about the record points at its name).
fn key_ev(file: usize, k: &crate::verify::json::Key, _record: &Node) -> Ev {
    Ev {
        file,
        at: Loc::new(k.start, k.end),
    }
}

/// Reads a CONFIG_DB document; what cannot be carried becomes a note.
pub fn read(root: &Node, file: usize, notes: &mut Vec<Note>) -> Switch {
    let mut sw = Switch::default();
    read_ports_and_pools(root, file, &mut sw, notes);
    read_port_qos(root, file, &mut sw, notes);
    read_queues(root, file, &mut sw, notes);
    read_buffer_pgs(root, file, &mut sw, notes);
    stray_pgs(root, file, &sw, notes);
    read_watchdogs(root, file, &mut sw);
    read_neighbours_and_routes(root, file, &mut sw);
    let table = |name: &str| root.get(name).map(Node::members).unwrap_or_default();
    sw.hash = switch_hash(root, file, notes);
    for (k, _) in table("INTERFACE") {
        if let Some((port, addr)) = k.name.split_once('|') {
            sw.interfaces.push((port.to_string(), addr.to_string()));
        }
    }
    sw
}

/// The platform, the ports with their speeds, MTUs, lanes and cables, and the egress buffer.
fn read_ports_and_pools(root: &Node, file: usize, sw: &mut Switch, notes: &mut Vec<Note>) {
    let table = |name: &str| root.get(name).map(Node::members).unwrap_or_default();
    if let Some(meta) = root.get("DEVICE_METADATA").and_then(|m| m.get("localhost")) {
        sw.platform = meta.get("platform").and_then(text);
        sw.hwsku = meta.get("hwsku").and_then(text);
        sw.buffer_model = meta.get("buffer_model").and_then(text);
    }
    for (k, rec) in table("PORT") {
        let port = sw.ports.entry(k.name.to_string()).or_default();
        port.at = key_ev(file, k, rec);
        port.speed_mbps = num(rec, "speed");
        port.mtu = field(rec, "mtu").and_then(|n| text(n)?.parse().ok().map(|m| (m, ev(file, n))));
        port.lanes = field(rec, "lanes").and_then(text).map(|l| {
            u32::try_from(l.split(',').filter(|x| !x.trim().is_empty()).count()).unwrap_or(1)
        });
    }
    for (_, rec) in table("CABLE_LENGTH") {
        for (p, v) in rec.members() {
            if let Some(port) = sw.ports.get_mut(p.name.as_ref()) {
                match text(v).as_deref().and_then(cable_mm) {
                    Some(mm) => port.cable_mm = Some((mm, ev(file, v))),
                    None => notes.push(Note::new(
                        NoteKind::CannotCarry,
                        ev(file, v),
                        format!(
                            "cable length `{}` of `{}` is not a length in metres",
                            text(v).unwrap_or_default(),
                            p.name
                        ),
                    )),
                }
            }
        }
    }
    // Egress pools: their sizes add up to the buffer fabricc divides.
    let mut total = 0u64;
    let mut first = None;
    for (k, rec) in table("BUFFER_POOL") {
        if field(rec, "type").and_then(text).as_deref() == Some("egress")
            && let Some(size) = num(rec, "size")
        {
            total = total.saturating_add(size);
            first.get_or_insert(key_ev(file, k, rec));
        }
    }
    if let Some(at) = first {
        sw.buffer = Some((total, at));
    }
    sw.lossless_pool = root
        .get("BUFFER_POOL")
        .and_then(|t| t.get("egress_lossless_pool"))
        .and_then(|r| num(r, "size"));
    // Ingress pools where the file sizes them (the traditional model; the dynamic one leaves
    // them to buffermgrd): what the lossless PGs' headroom is reserved beside (read back,
    // issue 34 item 2).
    let mut ingress: Option<(u64, Ev)> = None;
    for (k, rec) in table("BUFFER_POOL") {
        if field(rec, "type").and_then(text).as_deref() == Some("ingress")
            && let Some(size) = num(rec, "size")
        {
            let e = ingress.get_or_insert((0, key_ev(file, k, rec)));
            e.0 = e.0.saturating_add(size);
        }
    }
    sw.ingress_pools = ingress;
    sw.ingress_lossless_pool = root
        .get("BUFFER_POOL")
        .and_then(|t| t.get("ingress_lossless_pool"))
        .and_then(|r| Some((num(r, "size")?, num(r, "xoff"))));
}

/// Each port's DSCP map, PFC priorities and queue plan from PORT_QOS_MAP.
fn read_port_qos(root: &Node, file: usize, sw: &mut Switch, notes: &mut Vec<Note>) {
    let table = |name: &str| root.get(name).map(Node::members).unwrap_or_default();
    let maps: BTreeMap<&str, (&Node, Ev)> = table("DSCP_TO_TC_MAP")
        .iter()
        .map(|(k, v)| (k.name.as_ref(), (v, key_ev(file, k, v))))
        .collect();
    let dscp_map = |name: &str| -> Option<DscpMap> {
        let (node, at) = maps.get(name)?;
        let mut m = BTreeMap::new();
        let mut where_ = BTreeMap::new();
        for (d, tc) in node.members() {
            if let Ok(n) = d.name.trim().parse::<u8>() {
                where_.insert(n, key_ev(file, d, tc));
            }
            if let (Ok(d), Some(Ok(tc))) = (
                d.name.trim().parse::<u8>(),
                text(tc).map(|t| t.trim().parse::<u8>()),
            ) && d < 64
                && tc < 8
            {
                m.insert(d, tc);
            }
        }
        Some((m, *at, where_))
    };
    let global = root
        .get("PORT_QOS_MAP")
        .and_then(|t| t.get("global"))
        .and_then(|g| field(g, "dscp_to_tc_map"))
        .and_then(text);
    for (k, rec) in table("PORT_QOS_MAP") {
        let (ports, _) = split_key(&k.name);
        for p in ports {
            let Some(port) = sw.ports.get_mut(&p) else {
                continue;
            };
            let name = field(rec, "dscp_to_tc_map")
                .and_then(text)
                .or(global.clone());
            if let Some(name) = name {
                let found = dscp_map(&name);
                port.dscp = found.as_ref().map(|(m, at, _)| (m.clone(), *at));
                port.dscp_at = found.map(|x| x.2).unwrap_or_default();
                if port.dscp.is_none() {
                    notes.push(
                        Note::new(
                            NoteKind::CannotCarry,
                            key_ev(file, k, rec),
                            format!(
                                "`{p}` refers to DSCP_TO_TC_MAP `{name}`, which does not exist"
                            ),
                        )
                        .port(p.clone()),
                    );
                }
            }
            if let Some(v) = field(rec, "pfc_enable") {
                port.pfc = Some((items(&text(v).unwrap_or_default()), ev(file, v)));
            }
            let plan = |f: &str| -> Option<(String, Ev)> {
                let v = field(rec, f)?;
                Some((text(v)?, ev(file, v)))
            };
            // The queue plan (issue 20 item 2): orchagent binds each map by name
            // (`qosorch.cpp`, `TcToQueueMapHandler`, `TcToPgHandler`, `PfcToQueueHandler`).
            if let Some((name, at)) = plan("tc_to_queue_map") {
                match small_map(root, "TC_TO_QUEUE_MAP", &name) {
                    Some(m) => {
                        let mut q: [u8; 8] = [0, 1, 2, 3, 4, 5, 6, 7];
                        for (t, to) in m {
                            q[usize::from(t)] = to;
                        }
                        port.tc_queue = Some((q, at));
                    }
                    None => notes.push(missing_map(&p, "TC_TO_QUEUE_MAP", &name, at)),
                }
            }
            if let Some((name, at)) = plan("tc_to_pg_map") {
                match small_map(root, "TC_TO_PRIORITY_GROUP_MAP", &name) {
                    Some(m) => {
                        let mut g = [0u8; 8];
                        for (t, to) in m {
                            g[usize::from(t)] = to;
                        }
                        port.tc_pg = Some((g, at));
                    }
                    None => notes.push(missing_map(&p, "TC_TO_PRIORITY_GROUP_MAP", &name, at)),
                }
            }
            if let Some((name, at)) = plan("pfc_to_queue_map") {
                match small_map(root, "MAP_PFC_PRIORITY_TO_QUEUE", &name) {
                    Some(m) => port.pfc_queue = Some((m, at)),
                    None => notes.push(missing_map(&p, "MAP_PFC_PRIORITY_TO_QUEUE", &name, at)),
                }
            }
            if let Some((name, at)) = plan("pfc_to_pg_map")
                && !pfc_to_pg_identity(root, &name)
            {
                notes.push(Note::new(
                    NoteKind::CannotCarry,
                    at,
                    format!(
                        "`{p}` uses pfc_to_pg_map `{name}`, which is not one to one; the `.fab` gives each lossless priority its own PG, so the import takes it as one to one"
                    ),
                ).port(p.clone()));
            }
        }
    }
}

/// Each port's queues: scheduler, shaper and WRED profile.
fn read_queues(root: &Node, file: usize, sw: &mut Switch, notes: &mut Vec<Note>) {
    let table = |name: &str| root.get(name).map(Node::members).unwrap_or_default();
    let schedulers: BTreeMap<&str, Option<Sched>> = table("SCHEDULER")
        .iter()
        .map(|(k, rec)| {
            let t = field(rec, "type").and_then(text).unwrap_or_default();
            let s = match t.to_ascii_uppercase().as_str() {
                "STRICT" => Some(Sched::Strict),
                "DWRR" | "WRR" => num(rec, "weight").map(Sched::Weight),
                _ => None,
            };
            (k.name.as_ref(), s)
        })
        .collect();
    let wreds: BTreeMap<&str, Option<Wred>> = table("WRED_PROFILE")
        .iter()
        .map(|(k, rec)| {
            let w = (|| {
                Some(Wred {
                    min: num(rec, "green_min_threshold")?,
                    max: num(rec, "green_max_threshold")?,
                    probability: num(rec, "green_drop_probability").unwrap_or(100),
                    ecn: field(rec, "ecn")
                        .and_then(text)
                        .is_some_and(|e| e != "ecn_none"),
                    fill: None,
                })
            })();
            (k.name.as_ref(), w)
        })
        .collect();
    let shapers: BTreeMap<&str, Shaper> = table("SCHEDULER")
        .iter()
        .filter_map(|(k, rec)| {
            let shaper = Shaper {
                pir: num(rec, "pir")?,
                cir: num(rec, "cir"),
                bytes: field(rec, "meter_type")
                    .and_then(text)
                    .is_none_or(|m| m == "bytes"),
            };
            Some((k.name.as_ref(), shaper))
        })
        .collect();
    for (k, rec) in table("QUEUE") {
        let (ports, qs) = split_key(&k.name);
        let qs = items(qs.unwrap_or(""));
        for p in &ports {
            let Some(port) = sw.ports.get_mut(p) else {
                continue;
            };
            for &q in &qs {
                if let Some(v) = field(rec, "scheduler")
                    && let Some(name) = text(v)
                {
                    match schedulers.get(name.as_str()) {
                        Some(Some(s)) => {
                            port.sched.insert(q, (*s, ev(file, v)));
                            if let Some(sh) = shapers.get(name.as_str()) {
                                port.shaper.insert(q, (*sh, ev(file, v)));
                            }
                        }
                        _ => notes.push(Note::new(
                            NoteKind::CannotCarry,
                            ev(file, v),
                            format!("queue {q} of `{p}` uses scheduler `{name}`, which is missing or neither STRICT nor DWRR/WRR with a weight"),
                        ).port(p.clone())),
                    }
                }
                if let Some(v) = field(rec, "wred_profile")
                    && let Some(name) = text(v)
                {
                    match wreds.get(name.as_str()) {
                        Some(Some(w)) => {
                            port.wred.insert(q, (*w, ev(file, v)));
                        }
                        _ => notes.push(Note::new(
                            NoteKind::CannotCarry,
                            ev(file, v),
                            format!("queue {q} of `{p}` uses WRED profile `{name}`, which is missing or has no green thresholds"),
                        ).port(p.clone())),
                    }
                }
            }
        }
    }
}

/// Each port's lossless PG profiles, including those buffermgrd would compute at run time.
fn read_buffer_pgs(root: &Node, file: usize, sw: &mut Switch, notes: &mut Vec<Note>) {
    let table = |name: &str| root.get(name).map(Node::members).unwrap_or_default();
    let profiles = root.get("BUFFER_PROFILE");
    let profile = |name: &str| -> Option<PgProfile> {
        let name = name.trim_start_matches('[').trim_end_matches(']');
        let name = name.strip_prefix("BUFFER_PROFILE|").unwrap_or(name);
        let p = profiles?.members().iter().find(|(k, _)| k.name == name)?;
        let (k, rec) = (&p.0, &p.1);
        let threshold = num(rec, "static_th").map(Threshold::Static).or_else(|| {
            field(rec, "dynamic_th")
                .and_then(text)
                .and_then(|t| t.trim().parse().ok())
                .map(Threshold::Dynamic)
        });
        let at = key_ev(file, k, rec);
        Some(PgProfile {
            name: name.to_string(),
            xoff: num(rec, "xoff"),
            size: num(rec, "size"),
            threshold,
            at,
            xoff_at: field(rec, "xoff").map_or(at, |n| ev(file, n)),
        })
    };
    let mut missing_profile: Option<(String, Ev)> = None;
    let dynamic = Dynamic::of(root, sw);
    for (k, rec) in table("BUFFER_PG") {
        let (ports, pgs) = split_key(&k.name);
        let Some(pnode) = field(rec, "profile") else {
            continue;
        };
        let Some(name) = text(pnode) else {
            continue;
        };
        let Some(mut prof) = profile(&name) else {
            if name == "NULL" {
                continue;
            }
            // A profile buffermgrd computes at run time: computed here as SONiC would.
            if let (Some(dynamic), Some(parsed)) = (&dynamic, runtime_profile(&name)) {
                for p in &ports {
                    let Some(port) = sw.ports.get_mut(p) else {
                        continue;
                    };
                    let at = ev(file, pnode);
                    let cable = port.cable_mm.map(|c| c.0);
                    if parsed.cable_mm == 0 || cable.is_none_or(|c| c == 0) {
                        notes.push(
                            Note::new(
                                NoteKind::NoCable,
                                at,
                                format!("`{p}` takes runtime profile `{name}`, sized for a {} cable{}; its headroom is not judged", length_m(parsed.cable_mm), if cable.is_none() { " while the port has no CABLE_LENGTH" } else { "" }),
                            )
                            .help("set the port's CABLE_LENGTH to the real cable; buffermgrd recomputes the profile from it"),
                        );
                        continue;
                    }
                    match dynamic.xoff(&parsed, port) {
                        Some(xoff) => {
                            let prof = PgProfile {
                                name: name.clone(),
                                xoff: Some(xoff),
                                size: None,
                                threshold: None,
                                at,
                                xoff_at: at,
                            };
                            for pg in items(pgs.unwrap_or("")) {
                                port.pg.insert(pg, prof.clone());
                            }
                        }
                        None => {
                            missing_profile.get_or_insert((name.clone(), at));
                        }
                    }
                }
                continue;
            }
            if missing_profile.is_none() {
                missing_profile = Some((name.clone(), ev(file, pnode)));
            }
            continue;
        };
        // Where this port's PG takes the profile: a finding about the port points here.
        prof.at = ev(file, pnode);
        if prof.xoff.is_none() {
            continue; // a lossy PG
        }
        for p in &ports {
            if let Some(port) = sw.ports.get_mut(p) {
                for pg in items(pgs.unwrap_or("")) {
                    port.pg.insert(pg, prof.clone());
                }
            }
        }
    }
    if let Some((name, at)) = missing_profile {
        // SONiC's dynamic buffer model computes lossless profiles at run time (APPL_DB); without
        // a known Mellanox platform (or with a gearbox) import cannot compute them.
        notes.push(
            Note::new(
                NoteKind::CannotCarry,
                at,
                format!("BUFFER_PG refers to profile `{name}`, which CONFIG_DB does not hold (the dynamic buffer model computes lossless profiles at run time) and import cannot compute (no catalogue Mellanox platform named in DEVICE_METADATA, or a gearbox); those PGs' headroom and pause threshold are not imported"),
            )
            .help("check the headroom on the switch itself (`mmuconfig -l` lists the profiles in use)"),
        );
    }
}

/// `BUFFER_PG` entries fabricc would not write (issue 34, U17: an extra
/// `BUFFER_PG|Ethernet0|3-4` was read without a word): one whose PG range shares a PG with
/// another entry of the port (SONiC keeps both keys, so the PG's profile depends on which
/// buffermgrd applies last, and the range's profile reserves buffer on each of its PGs), and
/// a lossless one (a profile with `xoff`, a `pg_lossless_…` name, or `NULL` in the dynamic
/// model, where buffermgrd sizes it as lossless) on a priority the port's `pfc_enable`
/// leaves out: headroom reserved for a priority that is never paused, or a lossless PG left
/// behind when the priority became lossy. Only ports with a PORT_QOS_MAP `pfc_enable` are
/// judged (a port fabricc configured).
fn stray_pgs(root: &Node, file: usize, sw: &Switch, notes: &mut Vec<Note>) {
    let table = |name: &str| root.get(name).map(Node::members).unwrap_or_default();
    let profiles = root.get("BUFFER_PROFILE");
    let dynamic = sw.buffer_model.as_deref() == Some("dynamic");
    let lossless = |name: &str| -> bool {
        let name = name.trim_start_matches('[').trim_end_matches(']');
        let name = name.strip_prefix("BUFFER_PROFILE|").unwrap_or(name);
        if name == "NULL" {
            return dynamic;
        }
        runtime_profile(name).is_some()
            || profiles
                .and_then(|t| t.get(name))
                .is_some_and(|r| field(r, "xoff").is_some())
    };
    // Port → [(its PGs, the key's PG text, profile, where)].
    type Entry = (BTreeSet<u8>, String, String, Ev);
    let mut by_port: BTreeMap<String, Vec<Entry>> = BTreeMap::new();
    for (k, rec) in table("BUFFER_PG") {
        let (ports, pgs) = split_key(&k.name);
        let profile = field(rec, "profile").and_then(text).unwrap_or_default();
        for p in ports {
            by_port.entry(p).or_default().push((
                items(pgs.unwrap_or("")),
                pgs.unwrap_or("").to_string(),
                profile.clone(),
                key_ev(file, k, rec),
            ));
        }
    }
    for (p, entries) in &by_port {
        let Some((pfc, _)) = sw.ports.get(p).and_then(|x| x.pfc.as_ref()) else {
            continue;
        };
        for (i, (pgs, key, profile, at)) in entries.iter().enumerate() {
            let mut why: Vec<String> = Vec::new();
            let overlaps: Vec<&str> = entries
                .iter()
                .enumerate()
                .filter(|(j, (o, _, _, _))| *j != i && !o.is_disjoint(pgs))
                .map(|(_, (_, k, _, _))| k.as_str())
                .collect();
            // Of two overlapping entries, the one covering more PGs (a range over a single
            // PG) is the odd one; equal ones are both reported.
            let wider = entries
                .iter()
                .enumerate()
                .filter(|(j, (o, _, _, _))| *j != i && !o.is_disjoint(pgs))
                .all(|(_, (o, _, _, _))| o.len() <= pgs.len());
            if !overlaps.is_empty() && wider {
                why.push(format!(
                    "it overlaps the port's entry for PG {}, so those PGs take whichever profile buffermgrd applies last and the range reserves buffer on each of its PGs",
                    overlaps.join(", ")
                ));
            }
            if lossless(profile) {
                let lossy: Vec<String> = pgs
                    .iter()
                    .filter(|g| !pfc.contains(g))
                    .map(u8::to_string)
                    .collect();
                if !lossy.is_empty() {
                    why.push(format!(
                        "its lossless profile `{profile}` reserves headroom on PG {}, a priority the port does not pause (`pfc_enable` {}): a stale lossless PG, or headroom reserved for nothing",
                        lossy.join(", "),
                        if pfc.is_empty() {
                            "empty".to_string()
                        } else {
                            pfc.iter().map(u8::to_string).collect::<Vec<_>>().join(",")
                        }
                    ));
                }
            }
            if !why.is_empty() {
                notes.push(
                    Note::new(
                        NoteKind::StrayBufferPg,
                        *at,
                        format!(
                            "the BUFFER_PG entry of `{p}` for PG {key} is not one fabricc writes: {}",
                            why.join("; ")
                        ),
                    )
                    .help("remove the entry (fabricc writes one PG per lossless priority and PG 0 for lossy traffic), or make the port's `pfc_enable` say what the PG is for")
                    .port(p.clone()),
                );
            }
        }
    }
}

/// Each port's PFC watchdog.
fn read_watchdogs(root: &Node, file: usize, sw: &mut Switch) {
    let table = |name: &str| root.get(name).map(Node::members).unwrap_or_default();
    let poll_ms = root
        .get("PFC_WD")
        .and_then(|t| t.get("GLOBAL"))
        .and_then(|g| num(g, "POLL_INTERVAL"));
    for (k, rec) in table("PFC_WD") {
        let (ports, _) = split_key(&k.name);
        for p in &ports {
            if let Some(port) = sw.ports.get_mut(p) {
                let action = match field(rec, "action").and_then(text).as_deref() {
                    Some("forward") => "forward",
                    Some("alert") => "alert",
                    _ => "drop",
                };
                if let (Some(d), Some(r)) =
                    (num(rec, "detection_time"), num(rec, "restoration_time"))
                {
                    port.watchdog = Some((
                        Watchdog {
                            detect_ms: d,
                            restore_ms: r,
                            action,
                            poll_ms,
                        },
                        key_ev(file, k, rec),
                    ));
                }
            }
        }
    }
}

/// The cabling as DEVICE_NEIGHBOR states it, and the static routes.
fn read_neighbours_and_routes(root: &Node, file: usize, sw: &mut Switch) {
    let table = |name: &str| root.get(name).map(Node::members).unwrap_or_default();
    // Keyed by the local port (as minigraph writes it), or by a peer name with `local_port`
    // (sonic-net/sonic-buildimage@086b03bd70f9:src/sonic-yang-models/yang-models/sonic-device_neighbor.yang).
    for (k, rec) in table("DEVICE_NEIGHBOR") {
        if let Some(name) = field(rec, "name").and_then(text) {
            let port = field(rec, "port").and_then(text).unwrap_or_default();
            let local = field(rec, "local_port")
                .and_then(text)
                .unwrap_or_else(|| k.name.to_string());
            sw.neighbours
                .insert(local, (name, port, key_ev(file, k, rec)));
        }
    }
    for (k, rec) in table("STATIC_ROUTE") {
        let prefix = k.name.rsplit('|').next().unwrap_or(&k.name).to_string();
        let list = |f: &str| -> Vec<String> {
            field(rec, f)
                .and_then(text)
                .map(|t| {
                    t.split(',')
                        .map(|x| x.trim().to_string())
                        .filter(|x| !x.is_empty())
                        .collect()
                })
                .unwrap_or_default()
        };
        sw.routes.push(StaticRoute {
            prefix,
            nexthops: list("nexthop"),
            ifnames: list("ifname"),
            at: key_ev(file, k, rec),
        });
    }
}
/// `SWITCH_HASH|GLOBAL` `ecmp_hash` as `hash` keywords in the `.fab`'s order (the order of
/// the list is not significant to orchagent, which keeps it in a set), or a note when a field
/// has no keyword. A `lag_hash` other than `ecmp_hash` is reported: `hash` states one list
/// for both, and the `.fab` carries `ecmp_hash`.
fn switch_hash(root: &Node, file: usize, notes: &mut Vec<Note>) -> Option<(Vec<&'static str>, Ev)> {
    let global = root.get("SWITCH_HASH")?.get("GLOBAL")?;
    let list = field(global, "ecmp_hash")?;
    let names: Vec<String> = match &list.value {
        Value::Array(items) => items.iter().filter_map(Node::scalar).collect(),
        _ => text(list)?
            .split(',')
            .map(|x| x.trim().to_string())
            .collect(),
    };
    let at = ev(file, list);
    let mut fields = Vec::new();
    for n in &names {
        let Some(f) = crate::model::HashField::ALL
            .into_iter()
            .find(|f| crate::render::sonic_hash::sonic_field(*f) == Some(n.as_str()))
        else {
            notes.push(Note::new(
                NoteKind::CannotCarry,
                at,
                format!("SWITCH_HASH|GLOBAL ecmp_hash hashes on `{n}`, which `load-balance {{ hash … }}` has no keyword for; the `.fab` states no hash"),
            ));
            return None;
        };
        fields.push(f);
    }
    if let Some(lag) = field(global, "lag_hash")
        && let Value::Array(items) = &lag.value
    {
        let lag: BTreeSet<String> = items.iter().filter_map(Node::scalar).collect();
        if lag != names.iter().cloned().collect() {
            notes.push(Note::new(
                NoteKind::CannotCarry,
                ev(file, lag_node(global)),
                "SWITCH_HASH|GLOBAL lag_hash differs from ecmp_hash; `load-balance { hash … }` states one list for both, and the `.fab` carries ecmp_hash",
            ));
        }
    }
    let keywords = crate::model::HashField::ALL
        .into_iter()
        .filter(|f| fields.contains(f))
        .map(|f| f.keyword())
        .collect();
    Some((keywords, at))
}

fn lag_node<'a, 't>(global: &'a Node<'t>) -> &'a Node<'t> {
    field(global, "lag_hash").unwrap_or(global)
}

/// `5000` mm → `5m`.
fn length_m(mm: u64) -> String {
    if mm.is_multiple_of(1000) {
        format!("{}m", mm / 1000)
    } else {
        format!("{}.{:03}m", mm / 1000, mm % 1000)
    }
}

/// What the name of a profile buffermgrd creates says: `pg_lossless_<speed>_<cable>`, then
/// `_mtu<mtu>`, `_th<threshold>`, a gearbox model, `_8lane`, then `_profile`
/// (`BufferMgrDynamic::getDynamicProfileName`,
/// sonic-net/sonic-swss@e6b0c5b5d2ab:cfgmgr/buffermgrdyn.cpp:485).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuntimeProfile {
    pub speed_mbps: u64,
    pub cable_mm: u64,
    pub mtu: Option<u64>,
    pub eight_lanes: bool,
}

pub fn runtime_profile(name: &str) -> Option<RuntimeProfile> {
    let rest = name
        .strip_prefix("pg_lossless_")?
        .strip_suffix("_profile")?;
    let mut parts = rest.split('_');
    let speed_mbps = parts.next()?.parse().ok()?;
    let cable_mm = cable_mm(parts.next()?)?;
    let mut out = RuntimeProfile {
        speed_mbps,
        cable_mm,
        mtu: None,
        eight_lanes: false,
    };
    for part in parts {
        if let Some(m) = part.strip_prefix("mtu") {
            out.mtu = Some(m.parse().ok()?);
        } else if part == "8lane" {
            out.eight_lanes = true;
        } else if part.starts_with("th") {
            // The pause threshold (α) does not change the headroom.
        } else {
            // A gearbox model: its delay is not in CONFIG_DB's dump.
            return None;
        }
    }
    Some(out)
}

/// What SONiC's dynamic buffer model needs to compute a lossless profile: the platform's
/// `ASIC_TABLE` constants and the switch's `LOSSLESS_TRAFFIC_PATTERN`.
struct Dynamic {
    asic: crate::analysis::physics::sonic_headroom::AsicConstants,
    lossless_mtu: u64,
    small_packet_percentage: u64,
    shared_headroom_pool: bool,
}

impl Dynamic {
    /// Only on a Mellanox platform the catalogue knows by its `DEVICE_METADATA` platform or
    /// HWSKU: the formula is `buffer_headroom_mellanox.lua`'s.
    fn of(root: &Node, sw: &Switch) -> Option<Self> {
        let cat = crate::catalogue::catalogue();
        let platform = [&sw.platform, &sw.hwsku]
            .into_iter()
            .flatten()
            .find_map(|named| {
                cat.switches.iter().find(|p| {
                    p.sonic
                        .as_ref()
                        .is_some_and(|s| s.platform.eq_ignore_ascii_case(named))
                })
            })?;
        let asic = platform.sonic_headroom_constants()?;
        // `LOSSLESS_TRAFFIC_PATTERN|AZURE`, else the buffer template's defaults (1024, 50).
        let pattern = root
            .get("LOSSLESS_TRAFFIC_PATTERN")
            .and_then(|t| t.members().first().map(|(_, r)| r));
        let (lossless_mtu, small_packet_percentage) = (
            pattern.and_then(|r| num(r, "mtu")).unwrap_or(1024),
            pattern
                .and_then(|r| num(r, "small_packet_percentage"))
                .unwrap_or(50),
        );
        // A shared headroom pool: `ingress_lossless_pool.xoff` above 0, or an over-subscribe
        // ratio (`DEFAULT_LOSSLESS_BUFFER_PARAMETER|AZURE`).
        let pool_xoff = root
            .get("BUFFER_POOL")
            .and_then(|t| t.get("ingress_lossless_pool"))
            .and_then(|r| num(r, "xoff"))
            .unwrap_or(0);
        let ratio = root
            .get("DEFAULT_LOSSLESS_BUFFER_PARAMETER")
            .and_then(|t| t.members().first().map(|(_, r)| r))
            .and_then(|r| num(r, "over_subscribe_ratio"))
            .unwrap_or(0);
        Some(Dynamic {
            asic,
            lossless_mtu,
            small_packet_percentage,
            shared_headroom_pool: pool_xoff > 0 || ratio > 0,
        })
    }

    /// The `xoff` buffermgrd gives the profile, from its name and the port (its lanes).
    fn xoff(&self, p: &RuntimeProfile, port: &Port) -> Option<u64> {
        use crate::analysis::physics::sonic_headroom::{
            SonicHeadroomInput, sonic_mellanox_headroom,
        };
        let h = sonic_mellanox_headroom(
            &self.asic,
            &SonicHeadroomInput {
                speed_mbps: p.speed_mbps,
                cable_mm: p.cable_mm,
                port_mtu: p.mtu.or(port.mtu.map(|m| m.0)).unwrap_or(9100),
                lossless_mtu: self.lossless_mtu,
                small_packet_percentage: self.small_packet_percentage,
                gearbox_delay_ns: 0,
                eight_lanes: p.eight_lanes || port.lanes == Some(8),
                shared_headroom_pool: self.shared_headroom_pool,
            },
        )
        .ok()?;
        Some(h.xoff)
    }
}

/// Whether PFC_PRIORITY_TO_PRIORITY_GROUP_MAP `name` is one to one (or absent: SONiC's
/// default is one to one).
fn pfc_to_pg_identity(root: &Node, name: &str) -> bool {
    let Some(map) = root
        .get("PFC_PRIORITY_TO_PRIORITY_GROUP_MAP")
        .and_then(|t| t.get(name))
    else {
        return true;
    };
    map.members()
        .iter()
        .all(|(k, v)| k.name.trim() == text(v).unwrap_or_default().trim())
}

/// A 0..7 → 0..7 map of `table` named `name` (entries out of range are left out), or None
/// where the table has no such map.
fn small_map(root: &Node, table: &str, name: &str) -> Option<BTreeMap<u8, u8>> {
    let map = root.get(table)?.get(name)?;
    Some(
        map.members()
            .iter()
            .filter_map(|(k, v)| {
                let from: u8 = k.name.trim().parse().ok()?;
                let to: u8 = text(v)?.trim().parse().ok()?;
                (from < 8 && to < 8).then_some((from, to))
            })
            .collect(),
    )
}

fn missing_map(port: &str, table: &str, name: &str, at: Ev) -> Note {
    Note::new(
        NoteKind::CannotCarry,
        at,
        format!(
            "`{port}` refers to {table} `{name}`, which does not exist; the import takes the map as one to one"
        ),
    )
    .port(port)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::json;

    #[test]
    fn a_profile_only_the_dynamic_model_knows_is_one_note() {
        let doc = json::parse(
            r#"{"PORT": {"Ethernet0": {"speed": "400000"}, "Ethernet4": {"speed": "400000"}},
                "BUFFER_PG": {"Ethernet0|3": {"profile": "pg_lossless_400000_5m_profile"},
                              "Ethernet4|3": {"profile": "pg_lossless_400000_5m_profile"},
                              "Ethernet4|0": {"profile": "NULL"}}}"#,
        )
        .unwrap();
        let mut notes = Vec::new();
        let sw = read(&doc, 0, &mut notes);
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0].message.contains("pg_lossless_400000_5m_profile"));
        assert!(sw.ports["Ethernet0"].pg.is_empty());
    }

    #[test]
    fn runtime_profile_names() {
        let p = runtime_profile("pg_lossless_400000_5m_profile").unwrap();
        assert_eq!(
            (p.speed_mbps, p.cable_mm, p.mtu, p.eight_lanes),
            (400_000, 5_000, None, false)
        );
        let p = runtime_profile("pg_lossless_100000_40m_mtu4096_th2_8lane_profile").unwrap();
        assert_eq!(
            (p.speed_mbps, p.cable_mm, p.mtu, p.eight_lanes),
            (100_000, 40_000, Some(4096), true)
        );
        assert_eq!(runtime_profile("pg_lossless_400000_5m_gb1_profile"), None);
        assert_eq!(runtime_profile("ingress_lossy_profile"), None);
    }

    #[test]
    fn small_helpers() {
        assert_eq!(
            items("3-4,6").into_iter().collect::<Vec<_>>(),
            vec![3, 4, 6]
        );
        assert_eq!(items("x,9"), BTreeSet::new());
        assert_eq!(cable_mm("30m"), Some(30_000));
        assert_eq!(cable_mm("2.5m"), Some(2_500));
        assert_eq!(cable_mm("m"), None);
        assert_eq!(cable_mm("1.2345m"), None);
    }

    #[test]
    fn reads_the_tables() {
        let doc = json::parse(r#"{
          "PORT": {"Ethernet0": {"speed": "400000", "mtu": "9216", "lanes": "0,1,2,3"}},
          "CABLE_LENGTH": {"AZURE": {"Ethernet0": "30m"}},
          "DSCP_TO_TC_MAP": {"M": {"26": "3", "48": "6"}},
          "PORT_QOS_MAP": {"Ethernet0": {"dscp_to_tc_map": "M", "pfc_enable": "3,4"}},
          "SCHEDULER": {"S": {"type": "DWRR", "weight": "50"}},
          "WRED_PROFILE": {"W": {"green_min_threshold": "1", "green_max_threshold": "2", "ecn": "ecn_all"}},
          "QUEUE": {"Ethernet0|3-4": {"scheduler": "S", "wred_profile": "W"}},
          "BUFFER_PROFILE": {"P": {"xoff": "100", "size": "200", "dynamic_th": "0"}},
          "BUFFER_PG": {"Ethernet0|3-4": {"profile": "P"}},
          "DEVICE_NEIGHBOR": {"Ethernet0": {"name": "spine1", "port": "Ethernet8"}},
          "STATIC_ROUTE": {"default|10.0.0.0/24": {"nexthop": "10.1.0.1", "ifname": "Ethernet0"}}
        }"#).unwrap();
        let mut notes = Vec::new();
        let sw = read(&doc, 0, &mut notes);
        assert!(notes.is_empty(), "{notes:?}");
        let p = &sw.ports["Ethernet0"];
        assert_eq!(p.lanes, Some(4));
        assert_eq!(p.cable_mm.map(|c| c.0), Some(30_000));
        assert_eq!(p.dscp.as_ref().unwrap().0[&26], 3);
        assert_eq!(p.pfc.as_ref().unwrap().0.len(), 2);
        assert_eq!(p.sched[&4].0, Sched::Weight(50));
        assert_eq!(p.wred[&3].0.max, 2);
        assert_eq!(p.pg[&4].threshold, Some(Threshold::Dynamic(0)));
        assert_eq!(sw.neighbours["Ethernet0"].0, "spine1");
        assert_eq!(sw.routes[0].prefix, "10.0.0.0/24");
        assert_eq!(sw.routes[0].ifnames, vec!["Ethernet0"]);
    }
}
