//! The printer: `ast::File` → canonical `.fab` text. In: a syntax tree. Out: text that parses
//! back to the same tree (spans aside), with quantities in canonical units (`1500000B`,
//! `400G`, `0.5m`, `50us`, `12.5%`, `1.067:1`), one property per line, two-space indents.
//! `lossy` prints as `lossless off` and a `[7..7]` range as `[7]`: the same tree.
//! Test code: the parser's round-trip properties print a tree and parse it back; the
//! compiler itself only needs the quantity spellings (`fabricc::syntax::printer`).

use std::fmt::Write as _;

use fabricc::syntax::ast::*;
use fabricc::syntax::printer::{pattern, speed, thousandths, time};

/// The canonical text of `file`, ending with a newline (empty for an empty file).
pub fn print(file: &File) -> String {
    let mut p = Printer::default();
    for import in &file.imports {
        p.line(format!("import {}", string(&import.path.node)));
    }
    for (k, item) in file.items.iter().enumerate() {
        let blank = match item {
            Item::Fabric(_) => true,
            Item::Stmt(_) => matches!(file.items.get(k.wrapping_sub(1)), Some(Item::Fabric(_))),
        };
        if (blank && !p.out.is_empty()) || (k == 0 && !file.imports.is_empty()) {
            p.out.push('\n');
        }
        match item {
            Item::Fabric(f) => {
                let name = if f.quoted {
                    string(&f.name.node)
                } else {
                    f.name.node.clone()
                };
                p.block(format!("fabric {name}"), |p| {
                    for s in &f.body {
                        p.stmt(s);
                    }
                });
            }
            Item::Stmt(s) => p.stmt(s),
        }
    }
    p.out
}

#[derive(Default)]
struct Printer {
    out: String,
    indent: usize,
}

impl Printer {
    fn line(&mut self, text: impl AsRef<str>) {
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
        self.out.push_str(text.as_ref());
        self.out.push('\n');
    }

    /// `head {`, the body one level in, `}`; `head {}` when the body is empty.
    fn block(&mut self, head: String, body: impl FnOnce(&mut Printer)) {
        let mark = self.out.len();
        self.line(format!("{head} {{"));
        let before = self.out.len();
        self.indent += 1;
        body(self);
        self.indent -= 1;
        if self.out.len() == before {
            self.out.truncate(mark);
            self.line(format!("{head} {{}}"));
        } else {
            self.line("}");
        }
    }

    /// `head { … }` when there are properties, `head` alone otherwise.
    fn opt_block<T>(&mut self, head: String, props: &[T], mut each: impl FnMut(&mut Printer, &T)) {
        if props.is_empty() {
            self.line(head);
        } else {
            self.block(head, |p| {
                for prop in props {
                    each(p, prop);
                }
            });
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Mtu(v) => self.line(format!("mtu {}", v.node)),
            StmtKind::RoceMtu(v) => self.line(format!("roce-mtu {}", v.node)),
            StmtKind::Rtt(t) => self.line(format!("rtt {}", time(t.node))),
            StmtKind::Description(d) => self.line(format!("description {}", string(&d.node))),
            StmtKind::Watchdog(w) => self.line(watchdog(w)),
            StmtKind::Class(c) => self.class(c),
            StmtKind::SwitchModel(m) => {
                self.block(format!("switch-model {}", m.name.node), |p| {
                    for prop in &m.props {
                        p.line(switch_model_prop(&prop.node));
                    }
                });
            }
            StmtKind::NicModel(m) => {
                self.block(format!("nic-model {}", m.name.node), |p| {
                    for prop in &m.props {
                        p.line(match &prop.node {
                            NicModelProp::Platform(n) => format!("platform {}", n.node),
                            NicModelProp::Driver(d) => format!("driver {}", d.node),
                            NicModelProp::Speed(s) => format!("speed {}", speed(*s)),
                            NicModelProp::Buffer(b) => format!("buffer {}", size(*b)),
                            NicModelProp::Ports(g) => format!("ports {}", port_group(g)),
                        });
                    }
                });
            }
            StmtKind::Switch(sw) => {
                self.opt_block(
                    format!("switch {}", name_list(&sw.names)),
                    &sw.props,
                    |p, prop| {
                        p.switch_prop(&prop.node);
                    },
                );
            }
            StmtKind::Host(h) => {
                self.opt_block(
                    format!("host {}", name_list(&h.names)),
                    &h.props,
                    |p, prop| {
                        p.host_prop(&prop.node);
                    },
                );
            }
            StmtKind::Link(l) => {
                let head = format!("link {} -- {}", pattern(&l.a), pattern(&l.b));
                self.opt_block(head, &l.props, |p, prop| {
                    p.line(match &prop.node {
                        LinkProp::Speed(s) => format!("speed {}", speed(*s)),
                        LinkProp::Cable(c) => format!("cable {}", length(*c)),
                        LinkProp::Count(n) => format!("count {n}"),
                        LinkProp::Zip => "zip".to_string(),
                        LinkProp::Ecn { class, args } => {
                            format!("ecn {} {}", class.node, ecn(&EcnSpec::Params(args.clone())))
                        }
                    });
                });
            }
            StmtKind::Tier(t) => {
                self.block(format!("tier {}", t.name.node), |p| {
                    for prop in &t.props {
                        p.line(tier_prop(&prop.node));
                    }
                });
            }
            StmtKind::Routing(r) => self.line(format!(
                "routing {}",
                match r.node {
                    RoutingModel::Updown => "updown",
                    RoutingModel::Shortest => "shortest",
                    RoutingModel::None => "none",
                }
            )),
            StmtKind::Route(r) => {
                self.line(format!(
                    "route at {} to {} via {}",
                    r.at.node, r.to.node, r.via.node
                ));
            }
            StmtKind::Fail(f) => self.line(format!("fail {} -- {}", pattern(&f.a), pattern(&f.b))),
            StmtKind::CheckFailures(n) => self.line(format!("check failures {}", n.node)),
            StmtKind::Path(p) => {
                let mut text = String::from("path");
                if let Some(c) = &p.class {
                    let _ = write!(text, " class {}", c.node);
                }
                let hops: Vec<&str> = p.hops.iter().map(|h| h.node.as_str()).collect();
                let _ = write!(text, " {}", hops.join(" -> "));
                self.line(text);
            }
            StmtKind::Rewrite(r) => self.line(format!(
                "rewrite at {} from {} to {} priority {} -> {}",
                r.at.node, r.from.node, r.to.node, r.old.node, r.new.node
            )),
            StmtKind::BounceTagging(ps) => {
                let ps: Vec<String> = ps.iter().map(|p| p.node.to_string()).collect();
                self.line(format!("bounce-tagging {}", ps.join(" -> ")));
            }
            StmtKind::BufferModel(m) => self.line(format!("buffer-model {}", m.node.as_str())),
            StmtKind::Allow(codes) => {
                let codes: Vec<&str> = codes.iter().map(|c| c.node.as_str()).collect();
                self.line(format!("allow {}", codes.join(", ")));
            }
            StmtKind::LoadBalance(lb) => {
                self.block("load-balance".to_string(), |p| {
                    for prop in &lb.props {
                        p.line(lb_prop(&prop.node));
                    }
                });
            }
        }
    }

    fn class(&mut self, c: &ClassDecl) {
        self.block(format!("class {}", c.name.node), |p| {
            for prop in &c.props {
                p.line(class_prop(&prop.node));
            }
        });
    }

    fn switch_prop(&mut self, prop: &SwitchProp) {
        match prop {
            SwitchProp::Model(m) => self.line(format!("model {}", m.node)),
            SwitchProp::Tier(t) => self.line(format!("tier {}", t.node)),
            SwitchProp::Mtu(m) => self.line(format!("mtu {}", m.node)),
            SwitchProp::Description(d) => self.line(format!("description {}", string(&d.node))),
            SwitchProp::Class(c) => self.class(c),
            SwitchProp::Ecn { class, spec } => {
                self.line(format!("ecn {} {}", class.node, ecn(spec)))
            }
            SwitchProp::Headroom { class, size: s } => {
                self.line(format!("headroom {} {}", class.node, size(s.node)));
            }
            SwitchProp::PfcThreshold { class, size: s } => {
                self.line(format!("pfc-threshold {} {}", class.node, size(s.node)));
            }
            SwitchProp::Watchdog(w) => self.line(watchdog(w)),
        }
    }

    fn host_prop(&mut self, prop: &HostProp) {
        match prop {
            HostProp::Nic { model, count, role } => {
                let count = count.map_or(String::new(), |n| format!(" x {}", n.node));
                // `backend` is the default: written only when the source wrote it.
                let role = role.map_or(String::new(), |r| format!(" role {}", r.node.word()));
                self.line(format!("nic {}{count}{role}", model.node))
            }
            HostProp::Netdev(names) => self.line(format!("netdev {}", name_list(names))),
            HostProp::RdmaDevice(names) => self.line(format!("rdma-device {}", name_list(names))),
            HostProp::Pci(addrs) => self.line(format!(
                "pci {}",
                addrs
                    .iter()
                    .map(|a| a.node.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            HostProp::Planes(planes) => self.line(format!(
                "plane {}",
                planes
                    .iter()
                    .map(|p| p.node.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            HostProp::Class(c) => self.class(c),
            HostProp::Pfc(on) => self.line(if *on { "pfc on" } else { "pfc off" }),
            HostProp::Bond(mode) => self.line(format!("bond {}", mode.word())),
            HostProp::Spare => self.line("spare"),
            HostProp::EcnOff { class: Some(c) } => self.line(format!("ecn {} off", c.node)),
            HostProp::EcnOff { class: None } => self.line("ecn off"),
        }
    }
}

fn class_prop(prop: &ClassProp) -> String {
    match prop {
        ClassProp::Dscp(DscpSpec::Other) => "dscp other".into(),
        ClassProp::Dscp(DscpSpec::Values(vs)) if vs.is_empty() => "dscp none".into(),
        ClassProp::Dscp(DscpSpec::Values(vs)) => {
            let items: Vec<String> = vs
                .iter()
                .map(|v| {
                    let (lo, hi) = v.node;
                    if lo == hi {
                        lo.to_string()
                    } else {
                        format!("{lo}-{hi}")
                    }
                })
                .collect();
            format!("dscp {}", items.join(","))
        }
        ClassProp::Priority(p) => format!("priority {}", p.node),
        ClassProp::Lossless(true) => "lossless".into(),
        ClassProp::Lossless(false) => "lossless off".into(),
        ClassProp::Congestion(Congestion::Dcqcn) => "congestion dcqcn".into(),
        ClassProp::Congestion(Congestion::None) => "congestion none".into(),
        ClassProp::Ecn(spec) => format!("ecn {}", ecn(spec)),
        ClassProp::Bandwidth(b) => format!("bandwidth {}", percent(b.node)),
        ClassProp::Strict => "strict".into(),
        ClassProp::PfcThreshold(s) => format!("pfc-threshold {}", size(s.node)),
        ClassProp::Cnp => "cnp".into(),
        ClassProp::Queue(q) => format!("queue {}", q.node),
        ClassProp::TrafficClass(t) => format!("traffic-class {}", t.node),
        ClassProp::Rate(r) => format!("rate {}", percent(r.node)),
        ClassProp::EcnAt { speed: sp, args } => format!(
            "ecn {} {}",
            speed(sp.node),
            ecn(&EcnSpec::Params(args.clone()))
        ),
    }
}

fn ecn(spec: &EcnSpec) -> String {
    match spec {
        EcnSpec::Off => "off".into(),
        EcnSpec::Params(args) => {
            let parts: Vec<String> = args
                .iter()
                .map(|a| match a.node {
                    EcnArg::Min(l) => format!("min {}", level(l)),
                    EcnArg::Max(l) => format!("max {}", level(l)),
                    EcnArg::Probability(p) => format!("probability {}", percent(p)),
                })
                .collect();
            parts.join(" ")
        }
    }
}

fn watchdog(w: &Watchdog) -> String {
    match &w.setting {
        WatchdogSetting::Off => "pfc-watchdog off".into(),
        WatchdogSetting::On(args) => {
            let mut text = String::from("pfc-watchdog");
            for a in args {
                let _ = match a.node {
                    WatchdogArg::Detect(t) => write!(text, " detect {}", time(t)),
                    WatchdogArg::Restore(t) => write!(text, " restore {}", time(t)),
                    WatchdogArg::Poll(t) => write!(text, " poll {}", time(t)),
                    WatchdogArg::Action(WatchdogAction::Drop) => write!(text, " action drop"),
                    WatchdogArg::Action(WatchdogAction::Forward) => write!(text, " action forward"),
                    WatchdogArg::Action(WatchdogAction::Alert) => write!(text, " action alert"),
                };
            }
            text
        }
    }
}

fn switch_model_prop(prop: &SwitchModelProp) -> String {
    match prop {
        SwitchModelProp::Platform(n) => format!("platform {}", n.node),
        SwitchModelProp::BufferModel(m) => format!("buffer-model {}", m.as_str()),
        SwitchModelProp::Os(os, None) => format!("os {}", os.as_str()),
        SwitchModelProp::Os(os, Some(r)) => format!("os {} {}.{}", os.as_str(), r.major, r.minor),
        SwitchModelProp::Ports(groups) => {
            let gs: Vec<String> = groups.iter().map(|g| port_group(&g.node)).collect();
            format!("ports {}", gs.join(", "))
        }
        SwitchModelProp::Buffer(s) => format!("buffer {}", size(*s)),
        SwitchModelProp::LosslessLimit(n) => format!("lossless-limit {n}"),
        SwitchModelProp::Cell(s) => format!("cell {}", size(*s)),
        SwitchModelProp::DynamicThreshold(n) => format!("dynamic-threshold {n}"),
        SwitchModelProp::Description(d) => format!("description {}", string(d)),
        SwitchModelProp::Linecard(l) if l.first == l.last => {
            format!("linecard {} {}", l.first, l.card.node)
        }
        SwitchModelProp::Linecard(l) => {
            format!("linecard {}..{} {}", l.first, l.last, l.card.node)
        }
        SwitchModelProp::Sku(p) => format!("sku {}", string(&p.node)),
    }
}

fn tier_prop(prop: &TierProp) -> String {
    match prop {
        TierProp::Model(m) => format!("model {}", m.node),
        TierProp::Oversubscription(r) => {
            format!(
                "oversubscription {}:{}",
                thousandths(r.down),
                thousandths(r.up)
            )
        }
        TierProp::Cable(c) => format!("cable {}", length(*c)),
        TierProp::Name(t) => {
            let mut text = String::from("name ");
            for part in &t.parts {
                match part {
                    TemplatePart::Text(s) => text.push_str(s),
                    TemplatePart::Placeholder(p) => {
                        let _ = write!(text, "{{{}}}", p.node);
                    }
                }
            }
            text
        }
        TierProp::Downlinks(n) => format!("downlinks {n}"),
        TierProp::Uplinks(n) => format!("uplinks {n}"),
        TierProp::Switches(n) => format!("switches {n}"),
        TierProp::Planes(n) => format!("planes {n}"),
        TierProp::Wiring(w) => format!("wiring {}", w.as_str()),
        TierProp::DualTor => "dual-tor".into(),
        TierProp::PeerLink(n) => format!("peer-link {n}"),
    }
}

// ---------------------------------------------------------------- names and values

/// `"…"` with `\"` and `\\` escaped.
pub fn string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if matches!(c, '"' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

pub fn name_list(names: &[NamePattern]) -> String {
    let names: Vec<String> = names.iter().map(pattern).collect();
    names.join(", ")
}

/// An ECN threshold: a size, or a fill level (`55%`).
pub fn level(l: EcnLevel) -> String {
    match l {
        EcnLevel::Size(s) => size(s),
        EcnLevel::Fill(p) => percent(p),
    }
}

pub fn size(s: Size) -> String {
    match s {
        Size::Bytes(n) => format!("{n}B"),
        Size::Cells(n) => format!("{n}cells"),
    }
}

/// `64 x 800G` or `64 x 800G breakout 2 x 400G`; a NIC's ports print the same way so that
/// `fmt` keeps a breakout the resolver then refuses (FAB106) rather than dropping it.
fn port_group(g: &PortGroup) -> String {
    match g.breakout {
        None => format!("{} x {}", g.count, speed(g.speed)),
        Some(b) => format!(
            "{} x {} breakout {} x {}",
            g.count,
            speed(g.speed),
            b.ways,
            speed(b.speed)
        ),
    }
}

pub fn length(l: Length) -> String {
    format!("{}m", thousandths(l.0))
}

/// The largest unit that gives a whole number: `50us`, `200ms`, `1s`, `1500ns`.
/// One `load-balance` property as written.
pub fn lb_prop(prop: &LbProp) -> String {
    match prop {
        LbProp::Hash(fields) => {
            let words: Vec<&str> = fields.iter().map(|f| f.node.keyword()).collect();
            format!("hash {}", words.join(" "))
        }
        LbProp::Mode(m) => format!("mode {}", m.keyword()),
        LbProp::FlowletGap(t) => format!("flowlet-gap {}", time(*t)),
        LbProp::Seed(LbSeed::PerTier) => "seed per-tier".to_string(),
        LbProp::Seed(LbSeed::Fixed(n)) => format!("seed {n}"),
        LbProp::QpsPerConnection(n) => format!("qps-per-connection {n}"),
        LbProp::SplitDataOnQps(on) => {
            format!("split-data-on-qps {}", if *on { "on" } else { "off" })
        }
    }
}

pub fn percent(p: Percent) -> String {
    format!("{}%", thousandths(p.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantities() {
        assert_eq!(size(Size::Bytes(1_500_000)), "1500000B");
        assert_eq!(size(Size::Cells(12)), "12cells");
        assert_eq!(length(Length(3_000)), "3m");
        assert_eq!(length(Length(500)), "0.5m");
        assert_eq!(percent(Percent(12_500)), "12.5%");
        assert_eq!(percent(Percent(100_000)), "100%");
        assert_eq!(string("a\"b\\c"), "\"a\\\"b\\\\c\"");
    }
}
