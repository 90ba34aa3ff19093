//! The grammar's value rules in one place: the range of every number, the physical bounds of
//! every quantity, the shape of every name and string. The parser enforces them while it
//! reads a `.fab` file; [`check_tree`] enforces them on a tree that did not come from the
//! parser (the YAML form), so both inputs reach the resolver with the same guarantees.
//!
//! Why physical bounds: every quantity is a u64 in canonical units, and the analysis multiplies
//! them (cable × speed, headroom × ports). Bounds far above any real fabric — 10 Tb/s, 1000 km,
//! 1 TiB, one hour — keep every product and sum inside 64 bits, and catch a typo such as
//! `cable 30km` for `30m` early instead of as an absurd headroom.

use crate::diagnostic::{Code, Diagnostic};
use crate::span::{Span, Spanned};

use super::ast::{
    self, ClassDecl, ClassProp, DscpSpec, EcnArg, EcnLevel, EcnSpec, HostProp, Item, LbProp,
    LbSeed, LinkProp, NamePattern, NicModelProp, Segment, Size, Stmt, StmtKind, SwitchModelProp,
    SwitchProp, TemplatePart, TierProp, Watchdog, WatchdogArg, WatchdogSetting,
};

/// The most names one range item may give (`[1..4294967296]`), FAB007 beyond, whatever
/// `--max-range` says: the parser never expands a range, so this only keeps counts far from
/// overflow. The limit users meet is the resolver's `--max-range` (default 1,000,000), which
/// bounds every pattern's expansion with its span.
pub const RANGE_NAMES: u64 = 1 << 32;

/// An inclusive range a number must lie in, with how its bounds read to a user.
#[derive(Debug, Clone, Copy)]
pub struct Bound {
    pub what: &'static str,
    pub lo: u64,
    pub hi: u64,
    /// The help line when a value is outside.
    pub help: &'static str,
    /// The canonical unit, as a value from a tree is shown (`" Mb/s"`, `"%"`).
    pub unit: &'static str,
}

impl Bound {
    pub const fn contains(&self, v: u64) -> bool {
        v >= self.lo && v <= self.hi
    }

    /// A canonical value with its unit; percentages are stored in thousandths.
    pub fn show(&self, v: u64) -> String {
        if self.unit == "%" {
            let frac = format!("{:03}", v % 1000);
            let frac = frac.trim_end_matches('0');
            let dot = if frac.is_empty() { "" } else { "." };
            format!("{}{dot}{frac}%", v / 1000)
        } else {
            format!("{v}{}", self.unit)
        }
    }
}

pub const PRIORITY: Bound = Bound {
    what: "priority",
    lo: 0,
    hi: 7,
    help: "a priority is between 0 and 7",
    unit: "",
};
/// `qps-per-connection` in `load-balance` (NCCL_IB_QPS_PER_CONNECTION; NCCL caps it at 128).
pub const QPS_PER_CONNECTION: Bound = Bound {
    what: "qps-per-connection",
    lo: 1,
    hi: 128,
    help: "qps-per-connection is between 1 and 128",
    unit: "",
};
/// A fixed `seed` in `load-balance` (the switches hold a 32-bit hash seed).
pub const HASH_SEED: Bound = Bound {
    what: "seed",
    lo: 0,
    hi: 4_294_967_295,
    help: "a hash seed is between 0 and 4294967295",
    unit: "",
};
/// A switch egress queue or traffic class (`queue`, `traffic-class`).
pub const QUEUE: Bound = Bound {
    what: "queue",
    lo: 0,
    hi: 7,
    help: "a queue or traffic class is between 0 and 7",
    unit: "",
};
pub const DSCP: Bound = Bound {
    what: "dscp",
    lo: 0,
    hi: 63,
    help: "a DSCP is between 0 and 63",
    unit: "",
};
pub const MTU: Bound = Bound {
    what: "mtu",
    lo: 68,
    hi: 9216,
    help: "`mtu` must be between 68 and 9216",
    unit: " B",
};
pub const ROCE_MTUS: [u64; 5] = [256, 512, 1024, 2048, 4096];
pub const LOSSLESS_LIMIT: Bound = Bound {
    what: "lossless-limit",
    lo: 1,
    hi: 8,
    help: "`lossless-limit` must be between 1 and 8",
    unit: "",
};
pub const DYNAMIC_THRESHOLD: (i64, i64) = (-8, 7);
pub const CHECK_FAILURES: Bound = Bound {
    what: "check failures",
    lo: 0,
    hi: 2,
    help: "`check failures` must be between 0 and 2",
    unit: "",
};
pub const TIER: Bound = Bound {
    what: "tier",
    lo: 1,
    hi: 255,
    help: "`tier` must be between 1 and 255",
    unit: "",
};
/// Ports of one NIC (`nic-model … { ports 2 x 200G }`): the largest NICs have 4.
pub const NIC_PORTS: Bound = Bound {
    what: "NIC port count",
    lo: 1,
    hi: 8,
    help: "a NIC has between 1 and 8 ports",
    unit: "",
};

/// Port, NIC and link counts: at least one (the resolver bounds them from above, with the
/// context to say why).
pub const COUNT: Bound = Bound {
    what: "count",
    lo: 1,
    hi: u64::MAX,
    help: "a count is at least 1",
    unit: "",
};

/// Sub-ports of a broken-out cage (`breakout 2 x 400G`): 2 to 8, as cages split.
pub const BREAKOUT_WAYS: Bound = Bound {
    what: "sub-ports per cage",
    lo: 2,
    hi: 8,
    help: "`sub-ports per cage` must be between 2 and 8",
    unit: "",
};

/// Mb/s: a link or port runs at least 1 Mb/s and at most 10 Tb/s.
pub const SPEED: Bound = Bound {
    what: "speed",
    lo: 1,
    hi: 10_000_000,
    help: "a speed is between `0.001G` and `10000G`",
    unit: " Mb/s",
};
/// Bytes: at most 1 TiB (switch buffers are a few hundred MB).
pub const SIZE_BYTES: Bound = Bound {
    what: "size",
    lo: 0,
    hi: 1 << 40,
    help: "a size is at most `1024GiB` (1 TiB)",
    unit: " B",
};
/// Buffer cells: at most 2^32.
pub const SIZE_CELLS: Bound = Bound {
    what: "size",
    lo: 0,
    hi: 1 << 32,
    help: "a size in cells is at most 4294967296cells",
    unit: " cells",
};
/// Millimetres: a cable is at most 1000 km.
pub const LENGTH: Bound = Bound {
    what: "cable length",
    lo: 0,
    hi: 1_000_000_000,
    help: "a cable is at most `1000km`",
    unit: " mm",
};
/// Nanoseconds: at most one hour.
pub const TIME: Bound = Bound {
    what: "time",
    lo: 0,
    hi: 3_600_000_000_000,
    help: "a time is at most `3600s`",
    unit: " ns",
};
/// An ECN fill level, thousandths of a percent of what one queue may hold: above 0, at most
/// the whole queue.
pub const FILL_LEVEL: Bound = Bound {
    what: "ECN fill level",
    lo: 1,
    hi: 100_000,
    help: "a fill level is a percentage of the queue's buffer above `0%`, at most `100%`",
    unit: "%",
};
/// Thousandths of a percent.
pub const PERCENT: Bound = Bound {
    what: "percentage",
    lo: 0,
    hi: 100_000,
    help: "a percentage is between `0%` and `100%`",
    unit: "%",
};

/// The help line of a malformed PCI address.
pub const PCI_HELP: &str = "write the address as `lspci -D` shows it, `0000:0c:00.0` (domain:bus:device.function, hex), or without the domain, `0c:00.0`";

/// A fabric identifier: `[A-Za-z_][A-Za-z0-9_.-]*` (NAME in grammar/fabric.ebnf).
pub fn is_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(is_name_start) && chars.all(is_name_char)
}

/// `NAME_START = "A".."Z" | "a".."z" | "_" ;`
pub fn is_name_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

/// `NAME_CHAR = NAME_START | "0".."9" | "." | "-" ;`
pub fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')
}

/// `PCI = [ DOMAIN ":" ] HEX HEX ":" HEX HEX "." OCTAL ;`
/// `DOMAIN = HEX { HEX } ;`
/// `HEX = "0".."9" | "a".."f" | "A".."F" ;`
/// `OCTAL = "0".."7" ;`
///
/// A PCI address (`0000:0c:00.0`, `0c:00.0`):
/// the address in its canonical sysfs spelling, `dddd:bb:dd.f` in lower case, or `None`.
/// DOMAIN is 1–8 hex digits (VMD domains such as `10000` are five), BUS two, DEVICE two
/// (at most `1f`), FUNCTION one (0–7), as Linux prints them (`pci_name`).
pub fn pci_address(s: &str) -> Option<String> {
    let hex = |t: &str, n: std::ops::RangeInclusive<usize>| {
        n.contains(&t.len()) && t.chars().all(|c| c.is_ascii_hexdigit())
    };
    let mut parts: Vec<&str> = s.split(':').collect();
    let last = parts.pop()?;
    let (dev, func) = last.split_once('.')?;
    let (domain, bus) = match parts.as_slice() {
        [bus] => ("0000", *bus),
        [domain, bus] if hex(domain, 1..=8) => (*domain, *bus),
        _ => return None,
    };
    let ok = hex(bus, 2..=2)
        && hex(dev, 2..=2)
        && u8::from_str_radix(dev, 16).is_ok_and(|d| d <= 0x1f)
        && func.len() == 1
        && matches!(func.as_bytes()[0], b'0'..=b'7');
    ok.then(|| format!("{domain:0>4}:{bus}:{dev}.{func}").to_ascii_lowercase())
}

/// What a STRING may hold: no newline, no control character (a tab is a space).
pub fn is_string_text(s: &str) -> bool {
    !s.chars().any(|c| c.is_control() && c != '\t')
}

/// Every grammar rule the parser enforces while reading, checked on a finished tree: names,
/// strings, number ranges and quantity bounds. One diagnostic per offending value.
pub fn check_tree(file: &ast::File) -> Vec<Diagnostic> {
    let mut c = Checker { diags: Vec::new() };
    for item in &file.items {
        match item {
            // The fabric name may be a STRING in either form; the resolver checks it.
            Item::Fabric(f) => {
                for s in &f.body {
                    c.stmt(s);
                }
            }
            Item::Stmt(s) => c.stmt(s),
        }
    }
    c.diags
}

struct Checker {
    diags: Vec<Diagnostic>,
}

impl Checker {
    fn name(&mut self, s: &str, span: Span, what: &str) {
        if is_name(s) {
            return;
        }
        let msg = if s.is_empty() {
            format!("the {what} is empty")
        } else {
            format!("{what} `{}` is not a valid name", s.escape_debug())
        };
        self.diags.push(
            Diagnostic::new(Code::BadPattern, span, msg)
                .label(what.to_string())
                .help("a name is letters, digits, `_`, `.` and `-`, starting with a letter or `_`"),
        );
    }

    /// `linecard FIRST..LAST CARD` from YAML: slots 1 to 64 in order, a card model of letters,
    /// digits and `-` (the parser enforces the same on text).
    fn linecard(&mut self, l: &ast::LinecardSlots, span: Span) {
        if !(1..=64).contains(&l.first) || !(l.first..=64).contains(&l.last) {
            self.diags.push(
                Diagnostic::new(
                    Code::OutOfRange,
                    span,
                    format!("line-card slots {}..{} are out of range", l.first, l.last),
                )
                .label("slots")
                .help("slots are 1 to 64, the lower first"),
            );
        }
        let card = &l.card.node;
        let card_char = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit();
        let ok = card.starts_with(card_char) && card.chars().all(|c| card_char(c) || c == '-');
        if !ok {
            self.diags.push(
            Diagnostic::new(
                Code::BadPattern,
                l.card.span,
                format!("line card `{}` is not a card model", card.escape_debug()),
            )
            .label("line card")
            .help("a line-card model is lower-case letters, digits and `-`, such as `7800r3a-36d`"),
        );
        }
    }

    fn ident(&mut self, i: &ast::Ident, what: &str) {
        self.name(&i.node, i.span, what);
    }

    fn pattern(&mut self, p: &NamePattern, what: &str) {
        // The YAML form has no ranges: a pattern is one text segment. A range segment is the
        // parser's own and already checked.
        let text: String = p
            .segments
            .iter()
            .map(|s| match s {
                Segment::Text(t) => t.as_str(),
                Segment::Range(_) => "0",
            })
            .collect();
        self.name(&text, p.span, what);
    }

    fn pci(&mut self, s: &str, span: Span) {
        if pci_address(s).is_none() {
            self.diags.push(
                Diagnostic::new(
                    Code::BadPattern,
                    span,
                    format!("`{}` is not a PCI address", s.escape_debug()),
                )
                .label("PCI address")
                .help(PCI_HELP),
            );
        }
    }

    fn string(&mut self, s: &str, span: Span, what: &str) {
        if !is_string_text(s) {
            self.diags.push(
                Diagnostic::new(
                    Code::BadInput,
                    span,
                    format!("the {what} contains a newline or control character"),
                )
                .label(what.to_string())
                .help("a string is one line of text"),
            );
        }
    }

    fn number(&mut self, v: u64, bound: Bound, span: Span) {
        if !bound.contains(v) {
            self.diags.push(
                Diagnostic::new(
                    Code::OutOfRange,
                    span,
                    format!("{} `{}` is out of range", bound.what, bound.show(v)),
                )
                .label("out of range")
                .help(bound.help),
            );
        }
    }

    fn size(&mut self, s: Size, span: Span) {
        match s {
            Size::Bytes(b) => self.number(b, SIZE_BYTES, span),
            Size::Cells(c) => self.number(c, SIZE_CELLS, span),
        }
    }

    fn watchdog(&mut self, w: &Watchdog) {
        if let WatchdogSetting::On(args) = &w.setting {
            for a in args {
                match a.node {
                    WatchdogArg::Detect(t) | WatchdogArg::Restore(t) | WatchdogArg::Poll(t) => {
                        self.number(t.0, TIME, a.span)
                    }
                    WatchdogArg::Action(_) => {}
                }
            }
        }
    }

    fn ecn(&mut self, e: &EcnSpec) {
        let EcnSpec::Params(args) = e else { return };
        let (mut min_fill, mut max_fill, mut sized) = (None, None, None);
        for a in args {
            match a.node {
                EcnArg::Min(EcnLevel::Size(s)) | EcnArg::Max(EcnLevel::Size(s)) => {
                    self.size(s, a.span);
                    sized = Some(a.span);
                }
                EcnArg::Min(EcnLevel::Fill(p)) => {
                    self.number(p.0, FILL_LEVEL, a.span);
                    min_fill = Some((p.0, a.span));
                }
                EcnArg::Max(EcnLevel::Fill(p)) => {
                    self.number(p.0, FILL_LEVEL, a.span);
                    max_fill = Some((p.0, a.span));
                }
                EcnArg::Probability(p) => self.number(p.0, PERCENT, a.span),
            }
        }
        // The parser's rules for one statement (`parser::classes::mixed_levels`).
        if let (Some(size_at), Some((_, fill_at))) = (sized, min_fill.or(max_fill)) {
            self.diags.push(
            Diagnostic::new(
                Code::OutOfRange,
                fill_at,
                "one `ecn` statement mixes a fill level (`%`) with a size",
            )
            .label("fill level here")
            .with_secondary(size_at, "size here")
            .help("write both thresholds as fill levels (`ecn min 55% max 90%`) or both as sizes (`ecn min 150KB max 1500KB`)"),
        );
        }
        if let (Some((lo, lo_at)), Some((hi, hi_at))) = (min_fill, max_fill)
            && lo >= hi
        {
            self.diags.push(
                Diagnostic::new(
                    Code::OutOfRange,
                    hi_at,
                    format!(
                        "the ECN fill level `max {}` is not above `min {}`",
                        FILL_LEVEL.show(hi),
                        FILL_LEVEL.show(lo)
                    ),
                )
                .label("max here")
                .with_secondary(lo_at, "min here")
                .help("marking starts at `min` and reaches its probability at `max`: write `min` below `max`, e.g. `ecn min 55% max 90%`"),
            );
        }
    }

    fn class(&mut self, c: &ClassDecl) {
        self.ident(&c.name, "class name");
        for p in &c.props {
            match &p.node {
                ClassProp::Dscp(DscpSpec::Values(v)) => {
                    for r in v {
                        self.number(u64::from(r.node.0), DSCP, r.span);
                        self.number(u64::from(r.node.1), DSCP, r.span);
                    }
                }
                ClassProp::Priority(v) => self.number(u64::from(v.node), PRIORITY, v.span),
                ClassProp::Ecn(e) => self.ecn(e),
                ClassProp::Bandwidth(b) => self.number(b.node.0, PERCENT, b.span),
                ClassProp::PfcThreshold(s) => self.size(s.node, s.span),
                ClassProp::Queue(v) | ClassProp::TrafficClass(v) => {
                    self.number(u64::from(v.node), QUEUE, v.span)
                }
                ClassProp::Rate(b) => self.number(b.node.0, PERCENT, b.span),
                ClassProp::EcnAt { speed, args } => {
                    self.number(speed.node.0, SPEED, speed.span);
                    self.ecn(&EcnSpec::Params(args.clone()));
                }
                ClassProp::Dscp(DscpSpec::Other)
                | ClassProp::Lossless(_)
                | ClassProp::Congestion(_)
                | ClassProp::Strict
                | ClassProp::Cnp => {}
            }
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Mtu(m) => self.number(m.node, MTU, m.span),
            StmtKind::RoceMtu(m) => self.roce_mtu(m),
            StmtKind::Rtt(t) => self.number(t.node.0, TIME, t.span),
            StmtKind::Description(d) => self.string(&d.node, d.span, "description"),
            StmtKind::Watchdog(w) => self.watchdog(w),
            StmtKind::Class(c) => self.class(c),
            StmtKind::SwitchModel(m) => self.switch_model(m),
            StmtKind::NicModel(m) => self.nic_model(m),
            StmtKind::Switch(d) => self.switch(d),
            StmtKind::Host(d) => self.host(d),
            StmtKind::Link(l) => self.link(l),
            StmtKind::Tier(t) => self.tier(t),
            StmtKind::Routing(_) => {}
            StmtKind::Route(r) => {
                self.ident(&r.at, "switch name");
                self.ident(&r.to, "destination name");
                self.ident(&r.via, "next hop name");
            }
            StmtKind::Fail(f) => {
                self.pattern(&f.a, "link end");
                self.pattern(&f.b, "link end");
            }
            StmtKind::CheckFailures(n) => self.number(n.node, CHECK_FAILURES, n.span),
            StmtKind::Path(p) => {
                if let Some(c) = &p.class {
                    self.ident(c, "class name");
                }
                for h in &p.hops {
                    self.ident(h, "path hop");
                }
            }
            StmtKind::Rewrite(r) => {
                self.ident(&r.at, "switch name");
                self.ident(&r.from, "neighbour name");
                self.ident(&r.to, "neighbour name");
                self.number(u64::from(r.old.node), PRIORITY, r.old.span);
                self.number(u64::from(r.new.node), PRIORITY, r.new.span);
            }
            StmtKind::BounceTagging(ps) => {
                for p in ps {
                    self.number(u64::from(p.node), PRIORITY, p.span);
                }
            }
            StmtKind::BufferModel(_) => {}
            StmtKind::Allow(codes) => {
                for c in codes {
                    self.ident(c, "finding code");
                }
            }
            StmtKind::LoadBalance(lb) => self.load_balance(lb),
        }
    }

    fn switch_model(&mut self, m: &ast::SwitchModelDecl) {
        self.ident(&m.name, "switch model name");
        for p in &m.props {
            match &p.node {
                SwitchModelProp::Ports(groups) => {
                    for g in groups {
                        self.number(g.node.count, COUNT, g.span);
                        self.number(g.node.speed.0, SPEED, g.span);
                        if let Some(b) = g.node.breakout {
                            self.number(b.ways, BREAKOUT_WAYS, g.span);
                            self.number(b.speed.0, SPEED, g.span);
                        }
                    }
                }
                SwitchModelProp::Buffer(s) | SwitchModelProp::Cell(s) => self.size(*s, p.span),
                SwitchModelProp::LosslessLimit(l) => {
                    self.number(u64::from(*l), LOSSLESS_LIMIT, p.span)
                }
                SwitchModelProp::DynamicThreshold(t) => {
                    let (lo, hi) = DYNAMIC_THRESHOLD;
                    if !(lo..=hi).contains(&i64::from(*t)) {
                        self.diags.push(
                            Diagnostic::new(
                                Code::OutOfRange,
                                p.span,
                                format!("dynamic-threshold `{t}` is out of range"),
                            )
                            .label("out of range")
                            .help("`dynamic-threshold` must be between -8 and 7"),
                        );
                    }
                }
                SwitchModelProp::Description(d) => self.string(d, p.span, "description"),
                SwitchModelProp::Platform(n) => self.ident(n, "platform name"),
                SwitchModelProp::Os(..) | SwitchModelProp::BufferModel(_) => {}
                SwitchModelProp::Linecard(l) => self.linecard(l, p.span),
                SwitchModelProp::Sku(path) => self.string(&path.node, path.span, "SKU folder"),
            }
        }
    }

    fn nic_model(&mut self, m: &ast::NicModelDecl) {
        self.ident(&m.name, "NIC model name");
        for p in &m.props {
            match &p.node {
                NicModelProp::Platform(n) => self.ident(n, "platform name"),
                NicModelProp::Driver(d) => self.ident(d, "driver"),
                NicModelProp::Speed(v) => self.number(v.0, SPEED, p.span),
                NicModelProp::Buffer(s) => self.size(*s, p.span),
                NicModelProp::Ports(g) => {
                    self.number(g.count, NIC_PORTS, p.span);
                    self.number(g.speed.0, SPEED, p.span);
                }
            }
        }
    }

    fn switch(&mut self, d: &ast::SwitchDecl) {
        for n in &d.names {
            self.pattern(n, "switch name");
        }
        for p in &d.props {
            match &p.node {
                SwitchProp::Model(m) => self.ident(m, "model name"),
                SwitchProp::Tier(t) => self.number(u64::from(t.node), TIER, t.span),
                SwitchProp::Mtu(m) => self.number(m.node, MTU, m.span),
                SwitchProp::Description(d) => self.string(&d.node, d.span, "description"),
                SwitchProp::Class(c) => self.class(c),
                SwitchProp::Ecn { class, spec } => {
                    self.ident(class, "class name");
                    self.ecn(spec);
                }
                SwitchProp::Headroom { class, size } | SwitchProp::PfcThreshold { class, size } => {
                    self.ident(class, "class name");
                    self.size(size.node, size.span);
                }
                SwitchProp::Watchdog(w) => self.watchdog(w),
            }
        }
    }

    fn host(&mut self, d: &ast::HostDecl) {
        for n in &d.names {
            self.pattern(n, "host name");
        }
        for p in &d.props {
            match &p.node {
                HostProp::Nic { model, count, .. } => {
                    self.ident(model, "NIC model name");
                    if let Some(c) = count {
                        self.number(c.node, COUNT, c.span);
                    }
                }
                HostProp::Netdev(l) => {
                    for n in l {
                        self.pattern(n, "netdev name");
                    }
                }
                HostProp::RdmaDevice(l) => {
                    for n in l {
                        self.pattern(n, "rdma-device name");
                    }
                }
                HostProp::Pci(l) => {
                    for a in l {
                        self.pci(&a.node, a.span);
                    }
                }
                HostProp::Class(c) => self.class(c),
                HostProp::EcnOff { class: Some(c) } => self.ident(c, "class name"),
                HostProp::EcnOff { class: None }
                | HostProp::Pfc(_)
                | HostProp::Planes(_)
                | HostProp::Bond(_)
                | HostProp::Spare => {}
            }
        }
    }

    fn link(&mut self, l: &ast::LinkDecl) {
        self.pattern(&l.a, "link end");
        self.pattern(&l.b, "link end");
        for p in &l.props {
            match &p.node {
                LinkProp::Speed(v) => self.number(v.0, SPEED, p.span),
                LinkProp::Cable(c) => self.number(c.0, LENGTH, p.span),
                LinkProp::Count(n) => self.number(*n, COUNT, p.span),
                LinkProp::Zip => {}
                LinkProp::Ecn { class, args } => {
                    self.ident(class, "class name");
                    self.ecn(&EcnSpec::Params(args.clone()));
                }
            }
        }
    }

    fn tier(&mut self, t: &ast::TierDecl) {
        self.ident(&t.name, "tier name");
        for p in &t.props {
            match &p.node {
                TierProp::Model(m) => self.ident(m, "model name"),
                TierProp::Cable(c) => self.number(c.0, LENGTH, p.span),
                TierProp::Name(tpl) => {
                    for part in &tpl.parts {
                        if let TemplatePart::Text(t) = part
                            && !t.chars().all(is_name_char)
                        {
                            self.name(t, tpl.span, "name template");
                        }
                    }
                }
                TierProp::Oversubscription(_)
                | TierProp::Downlinks(_)
                | TierProp::Uplinks(_)
                | TierProp::Switches(_)
                | TierProp::Planes(_)
                | TierProp::Wiring(_)
                | TierProp::DualTor
                | TierProp::PeerLink(_) => {}
            }
        }
    }

    fn load_balance(&mut self, lb: &ast::LoadBalanceDecl) {
        for p in &lb.props {
            match &p.node {
                LbProp::FlowletGap(t) => self.number(t.0, TIME, p.span),
                LbProp::Seed(LbSeed::Fixed(n)) => self.number(*n, HASH_SEED, p.span),
                LbProp::QpsPerConnection(n) => self.number(*n, QPS_PER_CONNECTION, p.span),
                _ => {}
            }
        }
    }

    fn roce_mtu(&mut self, m: &Spanned<u64>) {
        if !ROCE_MTUS.contains(&m.node) {
            self.diags.push(
                Diagnostic::new(
                    Code::OutOfRange,
                    m.span,
                    format!("roce-mtu `{}` is out of range", m.node),
                )
                .label("out of range")
                .help("`roce-mtu` is one of 256, 512, 1024, 2048 and 4096"),
            );
        }
    }
}
