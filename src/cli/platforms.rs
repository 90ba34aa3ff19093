//! `fabricc platforms [NAME] [--format json]`: the platform catalogue, or one entry with
//! every number and the key of its source (the keys resolve in the entry's `sources`).

use std::fmt::Write as _;

use serde::Serialize;

use crate::catalogue::{self, NicPlatform, Num, Platform};
use crate::diagnostic::did_you_mean;
use crate::model::format::thousands as grouped;

use super::{ExitStatus, ExplainFormat, PlatformsArgs, err, out};

/// What `platforms --format json` prints for the whole catalogue (docs/platforms.md, "JSON"):
/// per entry the summary row, the entry as its data file has it, and every number with the
/// source it cites.
#[derive(Serialize)]
struct Full<'a, R: Serialize, E: Serialize> {
    #[serde(flatten)]
    row: R,
    entry: &'a E,
    numbers: Vec<catalogue::SourcedNumber>,
}

#[derive(Serialize)]
struct FullListing<'a> {
    /// `fabricc-platforms/1`: changes when a field is renamed or removed.
    schema: &'static str,
    switches: Vec<Full<'a, SwitchRow<'a>, Platform>>,
    nics: Vec<Full<'a, NicRow<'a>, NicPlatform>>,
}

/// The sourced numbers of an entry; the catalogue's own test (`tests/it/catalogue_pins.rs`)
/// holds every entry to having a source for each, so none is dropped here.
fn numbers<T: Serialize>(
    entry: &T,
    sources: &std::collections::BTreeMap<String, catalogue::Source>,
) -> Vec<catalogue::SourcedNumber> {
    catalogue::sourced_numbers(entry, sources).unwrap_or_default()
}

fn full_listing(c: &catalogue::Catalogue) -> FullListing<'_> {
    FullListing {
        schema: "fabricc-platforms/1",
        switches: c
            .switches
            .iter()
            .map(|p| Full {
                row: switch_row(p),
                entry: p,
                numbers: numbers(p, &p.sources),
            })
            .collect(),
        nics: c
            .nics
            .iter()
            .map(|n| Full {
                row: nic_row(n),
                entry: n,
                numbers: numbers(n, &n.sources),
            })
            .collect(),
    }
}

#[derive(Serialize)]
struct SwitchRow<'a> {
    name: &'a str,
    vendor: &'a str,
    model: &'a str,
    asic: Option<&'a str>,
    asic_family: Option<&'static str>,
    ports: String,
    buffer_bytes: Option<u64>,
    os: Vec<&'static str>,
}

#[derive(Serialize)]
struct NicRow<'a> {
    name: &'a str,
    vendor: &'a str,
    model: &'a str,
    driver: &'a str,
    max_ports: Option<u32>,
    max_port_speed_gbps: Option<u32>,
    pci_device_id: Option<&'a str>,
}

fn ports(p: &Platform) -> String {
    if let Some(ch) = &p.chassis {
        return format!("{} card slots", ch.slots.last + 1 - ch.slots.first);
    }
    let groups = p.port_groups();
    if groups.is_empty() {
        return "—".into();
    }
    groups
        .iter()
        .map(|g| format!("{} x {}G", g.count, g.speed / 1000))
        .collect::<Vec<_>>()
        .join(", ")
}

fn switch_row(p: &Platform) -> SwitchRow<'_> {
    SwitchRow {
        name: &p.name,
        vendor: &p.vendor,
        model: &p.model,
        asic: p.asic.as_ref().map(|a| a.name.as_str()),
        asic_family: p.asic_family().map(|f| f.as_str()),
        ports: ports(p),
        buffer_bytes: p.buffer_bytes(),
        os: p.oses().iter().map(|o| o.as_str()).collect(),
    }
}

fn nic_row(n: &NicPlatform) -> NicRow<'_> {
    NicRow {
        name: &n.name,
        vendor: &n.vendor,
        model: &n.model,
        driver: n.driver(),
        max_ports: n.max_ports.as_ref().map(|p| p.value),
        max_port_speed_gbps: n.max_port_speed_gbps.as_ref().map(|s| s.value),
        pci_device_id: n.pci_device_id.as_ref().map(|p| p.value.as_str()),
    }
}

fn dash(v: Option<String>) -> String {
    v.unwrap_or_else(|| "—".into())
}

fn listing_text() -> String {
    let c = catalogue::catalogue();
    let mut s = String::from("Switch platforms\n");
    let _ = writeln!(
        s,
        "  {:<24} {:<10} {:<24} {:<19} {:>16}  OS",
        "NAME", "VENDOR", "ASIC", "PORTS", "BUFFER (B)"
    );
    for p in &c.switches {
        let r = switch_row(p);
        let asic = match (r.asic, r.asic_family) {
            (Some(a), Some(f)) => format!("{a} ({f})"),
            _ => "—".into(),
        };
        let _ = writeln!(
            s,
            "  {:<24} {:<10} {:<24} {:<19} {:>16}  {}",
            r.name,
            r.vendor,
            asic,
            r.ports,
            dash(r.buffer_bytes.map(grouped)),
            r.os.join(", ")
        );
    }
    s.push_str("\nNIC platforms\n");
    let _ = writeln!(
        s,
        "  {:<24} {:<10} {:<24} {:<7} {:<11} PCI",
        "NAME", "VENDOR", "MODEL", "DRIVER", "PORTS"
    );
    for n in &c.nics {
        let r = nic_row(n);
        let ports = match (r.max_ports, r.max_port_speed_gbps) {
            (Some(n), Some(g)) => format!("{n} x {g}G"),
            (None, Some(g)) => format!("{g}G"),
            _ => "—".into(),
        };
        let _ = writeln!(
            s,
            "  {:<24} {:<10} {:<24} {:<7} {:<11} {}",
            r.name,
            r.vendor,
            r.model,
            r.driver,
            ports,
            // NVIDIA's PCI vendor is 0x15b3; another vendor's device ID is printed alone.
            dash(r.pci_device_id.map(|p| match r.vendor {
                "NVIDIA" => format!("15b3:{}", p.trim_start_matches("0x")),
                _ => p.to_string(),
            }))
        );
    }
    s.push_str(
        "\nBUFFER is what the OS gives the pools where known, else the vendor's figure.\n\
         `fabricc platforms NAME` prints an entry with every number and its source.\n",
    );
    s
}

/// `value [source]`, with the note after a dash.
fn sourced<T: std::fmt::Display>(n: &Num<T>) -> String {
    match &n.note {
        Some(note) => format!("{} [{}] — {note}", n.value, n.source),
        None => format!("{} [{}]", n.value, n.source),
    }
}

/// A chassis's slots and line cards: what `linecard SLOTS CARD` may name.
fn chassis_text(s: &mut String, ch: &catalogue::Chassis) {
    let line = |s: &mut String, label: &str, text: String| {
        let _ = writeln!(s, "{label:<16} {text}");
    };
    line(
        s,
        "slots",
        format!(
            "line cards in {}..{} [{}]",
            ch.slots.first, ch.slots.last, ch.slots.source
        ),
    );
    for c in &ch.linecards {
        let cages: Vec<String> = c
            .cages
            .iter()
            .map(|g| format!("{} x {}G [{}]", g.count, g.speed_gbps, g.source))
            .collect();
        let buffer = c.buffer_bytes().map_or("— (not sourced)".into(), grouped);
        // Without a sourced count the card is one buffer unit: say so rather than "1 x".
        let asics = c.asics.as_ref().map_or_else(
            || {
                format!(
                    "{} [{}], ASICs per card not sourced",
                    c.asic.name, c.asic.source
                )
            },
            |n| format!("{} x {} [{}]", c.asic_count(), c.asic.name, n.source),
        );
        line(
            s,
            &format!("linecard {}", c.name),
            format!(
                "{}: {asics}; cages {}; buffer per ASIC {buffer} B",
                c.model,
                cages.join(", ")
            ),
        );
    }
}

fn switch_text(p: &Platform) -> String {
    let mut s = format!("{}: {} {}\n{}\n\n", p.name, p.vendor, p.model, p.summary);
    let line = |s: &mut String, label: &str, text: String| {
        let _ = writeln!(s, "{label:<16} {text}");
    };
    match &p.asic {
        Some(a) => {
            let part = a.part.as_ref().map_or(String::new(), |x| {
                format!(
                    ", part {x} [{}]",
                    a.part_source.as_deref().unwrap_or(&a.source)
                )
            });
            line(
                &mut s,
                "asic",
                format!("{} ({}) [{}]{part}", a.name, a.family.as_str(), a.source),
            );
        }
        None => line(&mut s, "asic", "— (not sourced)".into()),
    }
    for (i, o) in p.os.iter().enumerate() {
        let mtu = o
            .max_mtu
            .as_ref()
            .map_or(String::new(), |m| format!(", max MTU {}", sourced(m)));
        let note = o.note.as_ref().map_or(String::new(), |n| format!(" — {n}"));
        line(
            &mut s,
            if i == 0 { "os" } else { "" },
            format!("{} [{}]{mtu}{note}", o.os, o.source),
        );
    }
    if let Some(ch) = &p.chassis {
        chassis_text(&mut s, ch);
    } else if p.cages.is_empty() {
        line(&mut s, "cages", "— (not sourced)".into());
    }
    for (i, c) in p.cages.iter().enumerate() {
        line(
            &mut s,
            if i == 0 { "cages" } else { "" },
            format!(
                "{} x {}G, {} lanes{}: {} [{}]",
                c.count,
                c.speed_gbps,
                c.lanes,
                if c.aux { ", auxiliary" } else { "" },
                c.breakouts.join(" "),
                c.source
            ),
        );
    }
    for (label, b) in [
        ("buffer total", &p.buffer.total),
        ("buffer usable", &p.buffer.usable),
    ] {
        if let Some(b) = b {
            let published = b
                .published
                .as_ref()
                .map_or(String::new(), |x| format!(" (published as {x})"));
            let note = b.note.as_ref().map_or(String::new(), |n| format!(" — {n}"));
            line(
                &mut s,
                label,
                format!("{} B{published} [{}]{note}", grouped(b.bytes), b.source),
            );
        }
    }
    line(
        &mut s,
        "cell",
        p.buffer
            .cell
            .as_ref()
            .map_or("— (not sourced)".into(), |c| {
                format!("{} B [{}]", c.value, c.source)
            }),
    );
    line(
        &mut s,
        "lossless limit",
        p.lossless_limit
            .as_ref()
            .map_or("— (not sourced)".into(), sourced),
    );
    for (os, rule) in [
        ("sonic", &p.naming.sonic),
        ("cumulus", &p.naming.cumulus),
        ("eos", &p.naming.eos),
        ("nxos", &p.naming.nxos),
        ("junos", &p.naming.junos),
        ("vrp", &p.naming.vrp),
        ("comware", &p.naming.comware),
    ] {
        if let Some(r) = rule {
            let example = r
                .example_source
                .as_ref()
                .map_or(String::new(), |e| format!(", example [{e}]"));
            line(
                &mut s,
                &format!("names {os}"),
                format!("{} [{}]{example}", r.pattern, r.source),
            );
        }
    }
    if let Some(sonic) = &p.sonic {
        sonic_text(&mut s, sonic);
    }
    if !p.not_sourced.is_empty() {
        s.push_str("\nnot sourced\n");
        for n in &p.not_sourced {
            let _ = writeln!(s, "  - {n}");
        }
    }
    s.push_str("\nsources\n");
    for (k, v) in &p.sources {
        let _ = writeln!(s, "  {k:<28} {}", v.as_str());
    }
    s
}

fn sonic_text(s: &mut String, sonic: &catalogue::Sonic) {
    let _ = writeln!(s, "\nSONiC");
    let line = |s: &mut String, label: &str, text: String| {
        let _ = writeln!(s, "  {label:<18} {text}");
    };
    line(
        s,
        "platform",
        format!(
            "{}, asic_type {} [{}]",
            sonic.platform, sonic.asic_type, sonic.source
        ),
    );
    line(s, "default SKU", sourced(&sonic.default_sku));
    line(s, "buffer model", sourced(&sonic.buffer_model));
    if let Some(t) = &sonic.lossless_traffic_pattern {
        line(
            s,
            "traffic pattern",
            format!(
                "mtu {}, small_packet_percentage {} [{}]",
                t.mtu, t.small_packet_percentage, t.source
            ),
        );
    }
    if let Some(d) = &sonic.default_dynamic_th {
        line(s, "default_dynamic_th", sourced(d));
    }
    if let Some(m) = &sonic.max_mtu {
        line(s, "max MTU", sourced(m));
    }
    if let Some(m) = &sonic.mellanox {
        line(
            s,
            "ASIC_TABLE",
            format!(
                "{}: cell_size {}, pipeline_latency {}, mac_phy_delay {}, peer_response_time {} (KiB), port_reserved_shp {}, port_max_shp {} [{}]",
                m.asic_table_key,
                m.cell_size,
                m.pipeline_latency,
                m.mac_phy_delay,
                m.peer_response_time,
                m.port_reserved_shp,
                m.port_max_shp,
                m.source
            ),
        );
        let r = &m.pool_reserves;
        line(
            s,
            "pool reserves",
            format!(
                "private_headroom {}, mgmt_pool {}, egress_mirror_headroom {} B [{}]",
                r.private_headroom, r.mgmt_pool, r.egress_mirror_headroom, r.source
            ),
        );
    }
    for sku in &sonic.hwskus {
        let _ = writeln!(
            s,
            "\n  HWSKU {} ({}): {} ports [{}]",
            sku.name,
            sku.breakout,
            sku.port_config.rows.len(),
            sku.port_config.source
        );
        if let Some(n) = &sku.note {
            let _ = writeln!(s, "    {n}");
        }
        if let Some(l) = &sku.pg_profile_lookup {
            let _ = writeln!(s, "    pg_profile_lookup.ini [{}]", l.source);
            let _ = writeln!(
                s,
                "      {:>7} {:>7} {:>9} {:>7} {:>9} {:>9} {:>10}",
                "speed", "cable", "size", "xon", "xoff", "threshold", "xon_offset"
            );
            if l.rows.is_empty() {
                let _ = writeln!(s, "      (no rows)");
            }
            for r in &l.rows {
                let _ = writeln!(
                    s,
                    "      {:>7} {:>7} {:>9} {:>7} {:>9} {:>9} {:>10}",
                    r.speed,
                    r.cable,
                    r.size,
                    r.xon,
                    r.xoff,
                    r.threshold,
                    r.xon_offset.map_or("—".into(), |x| x.to_string())
                );
            }
        }
        for b in &sku.buffer_defaults {
            let _ = writeln!(
                s,
                "    buffers {} [{}], default cable {}",
                b.topology, b.source, b.default_cable
            );
            for pool in &b.pools {
                let _ = writeln!(
                    s,
                    "      pool {:<24} {:<7} {:<7} size {}{}",
                    pool.name,
                    pool.kind,
                    pool.mode,
                    dash(pool.size.map(|x| x.to_string())),
                    pool.xoff.map_or(String::new(), |x| format!(", xoff {x}"))
                );
            }
            let psrc = b.profiles_source.as_deref().unwrap_or(&b.source);
            for pr in &b.profiles {
                let th = match (pr.dynamic_th, pr.static_th) {
                    (Some(d), _) => format!("dynamic_th {d}"),
                    (None, Some(st)) => format!("static_th {st}"),
                    (None, None) => String::new(),
                };
                let _ = writeln!(
                    s,
                    "      profile {:<24} pool {:<22} size {} {th}{} [{psrc}]",
                    pr.name,
                    pr.pool,
                    pr.size,
                    pr.xon_offset
                        .map_or(String::new(), |x| format!(", xon_offset {x}"))
                );
            }
        }
    }
}

fn nic_text(n: &NicPlatform) -> String {
    let mut s = format!("{}: {} {}\n{}\n\n", n.name, n.vendor, n.model, n.summary);
    let line = |s: &mut String, label: &str, text: String| {
        let _ = writeln!(s, "{label:<16} {text}");
    };
    line(&mut s, "driver", sourced(&n.driver));
    line(
        &mut s,
        "PCI device",
        n.pci_device_id
            .as_ref()
            .map_or("— (not sourced)".into(), sourced),
    );
    line(
        &mut s,
        "ports",
        n.max_ports
            .as_ref()
            .map_or("— (not sourced)".into(), sourced),
    );
    line(
        &mut s,
        "max port speed",
        n.max_port_speed_gbps
            .as_ref()
            .map_or("— (not sourced)".into(), |v| {
                sourced(&Num {
                    value: format!("{}G", v.value),
                    source: v.source.clone(),
                    note: v.note.clone(),
                })
            }),
    );
    if let Some(sp) = &n.ethernet_speeds_gbps {
        let list: Vec<String> = sp.value.iter().map(|g| format!("{g}G")).collect();
        line(
            &mut s,
            "Ethernet speeds",
            format!("{} [{}]", list.join(", "), sp.source),
        );
    }
    line(
        &mut s,
        "buffer",
        n.buffer.as_ref().map_or("— (not sourced)".into(), |b| {
            format!("{} B [{}]", grouped(b.bytes), b.source)
        }),
    );
    if !n.not_sourced.is_empty() {
        s.push_str("\nnot sourced\n");
        for x in &n.not_sourced {
            let _ = writeln!(s, "  - {x}");
        }
    }
    s.push_str("\nsources\n");
    for (k, v) in &n.sources {
        let _ = writeln!(s, "  {k:<28} {}", v.as_str());
    }
    s
}

fn json<T: Serialize>(value: &T) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default() + "\n"
}

pub fn run(args: &PlatformsArgs) -> ExitStatus {
    let c = catalogue::catalogue();
    let Some(name) = args.name.as_deref() else {
        match args.format {
            ExplainFormat::Text => out(&listing_text()),
            ExplainFormat::Json => out(&json(&full_listing(c))),
        }
        return ExitStatus::Success;
    };
    if let Some(p) = c.switch(name) {
        out(&match args.format {
            ExplainFormat::Text => switch_text(p),
            ExplainFormat::Json => json(p),
        });
        return ExitStatus::Success;
    }
    if let Some(n) = c.nic(name) {
        out(&match args.format {
            ExplainFormat::Text => nic_text(n),
            ExplainFormat::Json => json(n),
        });
        return ExitStatus::Success;
    }
    let hint = did_you_mean(name, c.names()).map_or(String::new(), |h| format!(" ({h})"));
    err(&format!(
        "error: `{name}` is not a platform of the catalogue{hint}; `fabricc platforms` lists them\n"
    ));
    ExitStatus::Error
}
