//! Random changes of a small fabric, for the convergence property tests of each target
//! (issue 33 item 1): applying build N+1 over any earlier build N leaves what a fresh apply of
//! N+1 leaves.
//!
//! A *chain* starts from a random fabric and takes one random change per step: a class removed
//! or added, a DSCP range shrunk or grown, a priority moved, ECN thresholds or the PFC
//! watchdog changed, a host link removed or added, a host re-cabled to another port, the MTU
//! changed. Every fabric of a chain checks without errors and builds (a step whose result
//! does not is drawn again). A *pair* is a chain's newest fabric and one of its earlier ones
//! (the previous one two times in three), with the kind of the last change.
//!
//! Everything follows from the seed (SplitMix64), so a failing pair is reproduced by its seed
//! and position, which the callers print. `FABRICC_CONVERGE_PAIRS=N` overrides the number of
//! pairs, for the long runs (`FABRICC_CONVERGE_PAIRS=1000 cargo test --test it converge_`, the
//! count the property runs used before issue 36 trimmed the default to `PAIRS`;
//! `FABRICC_CONVERGE_PAIRS=100000 cargo test --release --test it converge_` for the benchmark).
//! A run of 100 pairs or more (the default's size, or a longer one) asserts that its seed drew
//! every kind of change, so a smaller default never silently stops exercising one.
//!
//! Fabrics: leaf1 and leaf2 (tier 1) and spine1 and spine2 (tier 2) of the target's platform,
//! each leaf joined to each spine on the leaf's last two ports; hosts with one NIC on a
//! numbered leaf port (`link h3.nic1 -- leaf2.port7`).

use std::collections::BTreeMap;

use fabricc::lower::Targets;
use fabricc::model::{Limits, load};
use fabricc::output::generate::{BuildInput, generate};
use fabricc::pipeline;
use fabricc::render::Templates;
use fabricc::source::Sources;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Os {
    Sonic,
    Cumulus,
    Eos,
    Nxos,
    Junos,
    Vrp,
    Comware,
}

/// The kinds of change issue 33 names ("ECN change", "MTU change"), in its words.
#[allow(clippy::enum_variant_names)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    ClassRemoval,
    ClassAdded,
    DscpShrink,
    DscpGrow,
    PriorityMove,
    EcnChange,
    WatchdogChange,
    LinkRemoval,
    LinkAdded,
    Recable,
    MtuChange,
}

const CHANGES: [Change; 11] = [
    Change::ClassRemoval,
    Change::ClassAdded,
    Change::DscpShrink,
    Change::DscpGrow,
    Change::PriorityMove,
    Change::EcnChange,
    Change::WatchdogChange,
    Change::LinkRemoval,
    Change::LinkAdded,
    Change::Recable,
    Change::MtuChange,
];

/// One build: the fabric's text and its switch files and the targets' programs (output-relative
/// path → contents, e.g. `switches/leaf1/qos.conf`, `programs/cumulus/nvue.sh`).
#[derive(Debug, Clone)]
pub struct Built {
    pub text: String,
    pub files: BTreeMap<String, String>,
}

impl Built {
    /// The files of one switch, by file name.
    pub fn device(&self, name: &str) -> BTreeMap<&str, &str> {
        let prefix = format!("switches/{name}/");
        self.files
            .iter()
            .filter_map(|(p, c)| Some((p.strip_prefix(&prefix)?, c.as_str())))
            .collect()
    }
}

/// The switches of every generated fabric.
pub const SWITCHES: [&str; 4] = ["leaf1", "leaf2", "spine1", "spine2"];

/// The number of pairs of each target's convergence property in a plain `cargo test` (issue
/// 36: a cold `cargo test` within 8 minutes on 2 cores). Each seed's run draws every kind of
/// change at this size (`for_each_pair` asserts it); `FABRICC_CONVERGE_PAIRS=1000` runs the
/// earlier default, more for a soak.
pub const PAIRS: usize = 250;

/// The pair count of a run: `FABRICC_CONVERGE_PAIRS` when set, else `count`.
pub fn pair_count(count: usize) -> usize {
    std::env::var("FABRICC_CONVERGE_PAIRS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(count)
}

/// Calls `f(change, older, newer)` for `count` pairs (or `FABRICC_CONVERGE_PAIRS`) of small
/// random fabrics on `os`, deterministic from `seed`. Returns the number of pairs visited.
pub fn for_each_pair(
    os: Os,
    seed: u64,
    count: usize,
    mut f: impl FnMut(Change, &Built, &Built),
) -> usize {
    let count = pair_count(count);
    let (visited, seen) = walk(os, seed, count, |c, o, n| {
        f(c, o, n);
        true
    });
    // Every kind of change but one may be impossible on a target's generated fabrics
    // (`every_os_gets_every_change_kind`); a default-sized run must draw all that are possible.
    if count >= 100 {
        assert!(
            seen.len() >= CHANGES.len() - 1,
            "{os:?}, seed {seed}: {count} pairs drew only {seen:?}"
        );
    }
    visited
}

/// `for_each_pair` that stops building fabrics at the first pair for which `f` returns true
/// (a search for one fitting pair). Returns whether one was found.
pub fn find_pair(
    os: Os,
    seed: u64,
    count: usize,
    mut f: impl FnMut(Change, &Built, &Built) -> bool,
) -> bool {
    let mut found = false;
    walk(os, seed, pair_count(count), |c, o, n| {
        found = f(c, o, n);
        !found
    });
    found
}

/// The chains behind `for_each_pair`: `f` returns whether to go on. Returns the pairs visited
/// and the kinds of change drawn.
fn walk(
    os: Os,
    seed: u64,
    count: usize,
    mut f: impl FnMut(Change, &Built, &Built) -> bool,
) -> (usize, std::collections::BTreeSet<String>) {
    let mut seen = std::collections::BTreeSet::new();
    let mut rng = Rng(seed);
    let mut visited = 0;
    let mut failed_starts = 0;
    // Chains of 16 fabrics: long enough for "any earlier build", short enough to hold.
    while visited < count {
        let mut chain: Vec<Built> = Vec::new();
        let (mut spec, first) = match start(os, &mut rng) {
            Ok(started) => started,
            Err(why) => {
                failed_starts += 1;
                assert!(failed_starts < 50, "{os:?}: no start fabric builds: {why}");
                continue;
            }
        };
        chain.push(first);
        while chain.len() < 16 && visited < count {
            let Some((change, next, built)) = step(&spec, &mut rng) else {
                break;
            };
            spec = next;
            let older = if rng.below(3) < 2 {
                chain.len() - 1
            } else {
                rng.below(chain.len() as u64) as usize
            };
            seen.insert(format!("{change:?}"));
            visited += 1;
            if !f(change, &chain[older], &built) {
                return (visited, seen);
            }
            chain.push(built);
        }
    }
    (visited, seen)
}

/// SplitMix64: small, fast and the same everywhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn coin(&mut self) -> bool {
        self.next() & 1 == 1
    }
    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }
}

#[derive(Debug, Clone, PartialEq)]
struct Class {
    name: &'static str,
    /// Inclusive ranges.
    dscps: Vec<(u8, u8)>,
    priority: u8,
    lossless: bool,
    /// (min KB, max KB, probability %)
    ecn: Option<(u32, u32, u32)>,
}

#[derive(Debug, Clone, PartialEq)]
struct Spec {
    os: Os,
    platform: usize,
    mtu: u32,
    roce: Class,
    storage: Option<Class>,
    scavenger: Option<Class>,
    cnp_priority: u8,
    /// (detect ms, restore ms) or off.
    watchdog: Option<(u32, u32)>,
    /// Host number → (leaf 1 or 2, port).
    hosts: BTreeMap<u32, (u8, u32)>,
}

/// Per OS: the switch-model bodies the generator draws from (the platforms the fixtures use).
fn models(os: Os) -> &'static [&'static str] {
    match os {
        Os::Sonic => &["platform nvidia-sn5600  os sonic  ports 128 x 400G"],
        Os::Cumulus => &[
            "platform nvidia-sn5600  os cumulus 5.14  ports 128 x 400G  lossless-limit 2",
            "os cumulus  ports 32 x 400G  buffer 160MB  lossless-limit 2  cell 128B",
        ],
        Os::Eos => &[
            "platform arista-7060x6-64pe  os eos  ports 128 x 400G  lossless-limit 2",
            "platform arista-7280r4-32qf-32df  os eos  lossless-limit 2",
        ],
        Os::Nxos => &["os nxos  ports 32 x 400G  buffer 120MB  lossless-limit 2"],
        Os::Comware => &["os comware  ports 32 x 400G  buffer 120MB  lossless-limit 2  cell 254B"],
        Os::Junos => &[
            "platform juniper-qfx5240-64od  ports 32 x 400G  lossless-limit 2",
            "platform juniper-qfx5230-64cd  ports 64 x 400G  lossless-limit 2",
        ],
        // The CE8851's uplinks are its last two 400GE cages; hosts sit on 100GE ports.
        // Huawei publishes no buffer: the models state one.
        Os::Vrp => &[
            "platform huawei-ce8851-32cq8dq-p  ports 32 x 100G, 8 x 400G  buffer 64MB  lossless-limit 2",
            "os vrp  ports 32 x 400G  buffer 64MB  lossless-limit 2",
        ],
    }
}

/// Host-facing ports drawn from; the last two ports of a 32-port model carry the uplinks.
const HOST_PORTS: u32 = 16;

fn start(os: Os, rng: &mut Rng) -> Result<(Spec, Built), String> {
    let mut hosts = BTreeMap::new();
    for h in 1..=(2 + rng.below(3) as u32) {
        let leaf = if h % 2 == 1 { 1 } else { 2 };
        let port = free_port(&hosts, leaf, rng).ok_or("no free port")?;
        hosts.insert(h, (leaf, port));
    }
    let spec = Spec {
        os,
        platform: rng.below(models(os).len() as u64) as usize,
        mtu: rng.pick(&[9000, 9100, 9214]),
        roce: Class {
            name: "roce",
            dscps: if rng.coin() {
                vec![(26, 26)]
            } else {
                vec![(24, 27)]
            },
            priority: 3,
            lossless: true,
            ecn: Some((150, 1500, 100)),
        },
        storage: rng.coin().then(storage),
        scavenger: rng.coin().then(|| scavenger(rng)),
        cnp_priority: 6,
        watchdog: rng.coin().then_some((200, 400)),
        hosts,
    };
    let built = build(&spec)?;
    Ok((spec, built))
}

fn storage() -> Class {
    Class {
        name: "storage",
        dscps: vec![(10, 10)],
        priority: 4,
        lossless: true,
        ecn: Some((100, 1000, 50)),
    }
}

fn scavenger(rng: &mut Rng) -> Class {
    Class {
        name: "scavenger",
        dscps: vec![(8, 9)],
        priority: 1,
        lossless: false,
        ecn: rng.coin().then_some((300, 3000, 20)),
    }
}

fn free_port(hosts: &BTreeMap<u32, (u8, u32)>, leaf: u8, rng: &mut Rng) -> Option<u32> {
    let used: Vec<u32> = hosts
        .values()
        .filter(|(l, _)| *l == leaf)
        .map(|(_, p)| *p)
        .collect();
    let free: Vec<u32> = (1..=HOST_PORTS).filter(|p| !used.contains(p)).collect();
    (!free.is_empty()).then(|| rng.pick(&free))
}

/// One random change that gives a fabric that checks and builds (20 draws at most).
fn step(spec: &Spec, rng: &mut Rng) -> Option<(Change, Spec, Built)> {
    for _ in 0..20 {
        let change = rng.pick(&CHANGES);
        let Some(next) = mutate(spec, change, rng) else {
            continue;
        };
        if next == *spec {
            continue;
        }
        if let Ok(built) = build(&next) {
            return Some((change, next, built));
        }
    }
    None
}

fn used_priorities(s: &Spec) -> Vec<u8> {
    let mut p = vec![0, s.cnp_priority, s.roce.priority];
    p.extend(s.storage.iter().map(|c| c.priority));
    p.extend(s.scavenger.iter().map(|c| c.priority));
    p
}

fn mutate(spec: &Spec, change: Change, rng: &mut Rng) -> Option<Spec> {
    let mut s = spec.clone();
    match change {
        Change::ClassRemoval => {
            if s.storage.is_some() && (s.scavenger.is_none() || rng.coin()) {
                s.storage = None;
            } else {
                s.scavenger.take()?;
            }
        }
        Change::ClassAdded => {
            if s.storage.is_none() && (s.scavenger.is_some() || rng.coin()) {
                let mut c = storage();
                if used_priorities(&s).contains(&c.priority) {
                    c.priority = free_priority(&s, rng)?;
                }
                s.storage = Some(c);
            } else if s.scavenger.is_none() {
                let mut c = scavenger(rng);
                if used_priorities(&s).contains(&c.priority) {
                    c.priority = free_priority(&s, rng)?;
                }
                s.scavenger = Some(c);
            } else {
                return None;
            }
        }
        Change::DscpShrink | Change::DscpGrow => {
            let grow = change == Change::DscpGrow;
            let c = match rng.below(3) {
                0 => &mut s.roce,
                1 => s.storage.as_mut()?,
                _ => s.scavenger.as_mut()?,
            };
            let (lo, hi) = *c.dscps.first()?;
            let anchor = match c.name {
                "roce" => 26,
                "storage" => 10,
                _ => 8,
            };
            c.dscps = if grow {
                if hi > lo {
                    return None;
                }
                vec![(anchor - 2, anchor + 1)]
            } else {
                if hi == lo {
                    return None;
                }
                vec![(anchor, anchor)]
            };
        }
        Change::PriorityMove => {
            let p = free_priority(&s, rng)?;
            match rng.below(3) {
                0 => s.roce.priority = p,
                1 => s.storage.as_mut()?.priority = p,
                _ => s.scavenger.as_mut()?.priority = p,
            }
        }
        Change::EcnChange => {
            let c = if rng.coin() {
                &mut s.roce
            } else {
                s.storage.as_mut()?
            };
            let min = rng.pick(&[100u32, 150, 200, 300, 400]);
            let max = min * rng.pick(&[5u32, 10]);
            let prob = rng.pick(&[20u32, 50, 100]);
            c.ecn = Some((min, max, prob));
        }
        Change::WatchdogChange => {
            s.watchdog = match s.watchdog {
                None => Some((rng.pick(&[100, 200, 400]), rng.pick(&[200, 400, 1000]))),
                Some(_) if rng.coin() => None,
                Some((d, _)) => Some((d, rng.pick(&[200, 400, 1000]))),
            };
        }
        Change::LinkRemoval => {
            if s.hosts.len() <= 2 {
                return None;
            }
            let keys: Vec<u32> = s.hosts.keys().copied().collect();
            s.hosts.remove(&rng.pick(&keys));
        }
        Change::LinkAdded => {
            if s.hosts.len() >= 8 {
                return None;
            }
            let h = (1..=9).find(|h| !s.hosts.contains_key(h))?;
            let leaf = if rng.coin() { 1 } else { 2 };
            let port = free_port(&s.hosts, leaf, rng)?;
            s.hosts.insert(h, (leaf, port));
        }
        Change::Recable => {
            let keys: Vec<u32> = s.hosts.keys().copied().collect();
            let h = rng.pick(&keys);
            let (leaf, _) = s.hosts[&h];
            let port = free_port(&s.hosts, leaf, rng)?;
            s.hosts.insert(h, (leaf, port));
        }
        Change::MtuChange => {
            let mtus: Vec<u32> = [9000, 9100, 9214]
                .into_iter()
                .filter(|m| *m != s.mtu)
                .collect();
            s.mtu = rng.pick(&mtus);
        }
    }
    Some(s)
}

fn free_priority(s: &Spec, rng: &mut Rng) -> Option<u8> {
    let used = used_priorities(s);
    let free: Vec<u8> = (1..=5).filter(|p| !used.contains(p)).collect();
    (!free.is_empty()).then(|| rng.pick(&free))
}

fn class_line(c: &Class, bandwidth: u32) -> String {
    let dscps: Vec<String> = c
        .dscps
        .iter()
        .map(|&(lo, hi)| {
            if lo == hi {
                lo.to_string()
            } else {
                format!("{lo}-{hi}")
            }
        })
        .collect();
    let loss = if c.lossless { "lossless" } else { "lossy" };
    let ecn = c.ecn.map_or(String::new(), |(min, max, p)| {
        format!("  ecn min {min}KB max {max}KB probability {p}%")
    });
    format!(
        "  class {} {{ dscp {}  priority {}  {loss}{ecn}  bandwidth {bandwidth}% }}\n",
        c.name,
        dscps.join(","),
        c.priority
    )
}

/// The fabric's text.
fn text(s: &Spec) -> String {
    let mut classes = String::new();
    let mut rest = 100;
    classes += &class_line(&s.roce, 40);
    rest -= 40;
    if let Some(c) = &s.storage {
        classes += &class_line(c, 20);
        rest -= 20;
    }
    if let Some(c) = &s.scavenger {
        classes += &class_line(c, 10);
        rest -= 10;
    }
    classes += &format!(
        "  class cnp {{ dscp 48  priority {}  strict  cnp }}\n",
        s.cnp_priority
    );
    classes += &format!("  class bulk {{ dscp other  priority 0  bandwidth {rest}% }}\n");
    let watchdog = match s.watchdog {
        Some((d, r)) => format!("pfc-watchdog detect {d}ms restore {r}ms"),
        None => "pfc-watchdog off".to_string(),
    };
    let model = models(s.os)[s.platform];
    let mut links = String::new();
    for (h, (leaf, port)) in &s.hosts {
        links += &format!("  link h{h}.nic1 -- leaf{leaf}.port{port} {{ cable 3m }}\n");
    }
    let hosts: Vec<String> = s.hosts.keys().map(|h| format!("h{h}")).collect();
    format!(
        "fabric change {{
  mtu {mtu}
  roce-mtu 4096
{classes}  {watchdog}
  switch-model sw {{ {model} }}
  nic-model cx7 {{ driver mlx5  speed 400G }}
  switch leaf[1..2] {{ model sw  tier 1 }}
  switch spine[1..2] {{ model sw  tier 2 }}
  host {hosts} {{ nic cx7 }}
{links}  link leaf[1..2] -- spine[1..2] {{ speed 400G  cable 30m }}
  routing updown
}}
",
        mtu = s.mtu,
        hosts = hosts.join(", "),
    )
}

/// Checks and builds `spec`; its errors when it has some or does not build.
fn build(spec: &Spec) -> Result<Built, String> {
    let text = text(spec);
    let mut sources = Sources::new();
    let limits = Limits::default();
    let loaded = load::load_text(&mut sources, "change.fab", text.clone(), &limits);
    let checked = pipeline::check_loaded(&sources, loaded, &limits);
    let messages = |d: &[fabricc::diagnostic::Diagnostic]| {
        let m: Vec<String> = d
            .iter()
            .map(|d| format!("{}: {}", d.code, d.message))
            .collect();
        format!("{}\n{text}", m.join("\n"))
    };
    if checked.errors() > 0 {
        return Err(messages(&checked.diagnostics));
    }
    let input = BuildInput::of(&checked).ok_or("no lowered devices")?;
    let targets = Targets {
        host: false,
        ..Targets::ALL
    };
    let files = generate(input, targets, templates()).map_err(|d| messages(&d))?;
    let files = files
        .into_iter()
        .filter(|a| a.path.starts_with("switches/") || a.path.starts_with("programs/"))
        .map(|a| (a.path, a.contents))
        .collect();
    Ok(Built { text, files })
}

fn templates() -> &'static Templates {
    static T: std::sync::OnceLock<Templates> = std::sync::OnceLock::new();
    T.get_or_init(|| Templates::embedded().expect("embedded templates"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every OS gets fabrics of every kind of change, and both ends of each pair build files
    /// for all four switches: the generator itself cannot silently degenerate.
    #[test]
    fn every_os_gets_every_change_kind() {
        for os in [
            Os::Sonic,
            Os::Cumulus,
            Os::Eos,
            Os::Nxos,
            Os::Junos,
            Os::Vrp,
            Os::Comware,
        ] {
            let mut seen = std::collections::BTreeSet::new();
            let n = for_each_pair(os, 7, 120, |change, old, new| {
                seen.insert(format!("{change:?}"));
                assert!(
                    old.text.starts_with("fabric change") && new.text.starts_with("fabric change")
                );
                for sw in SWITCHES {
                    assert!(!old.device(sw).is_empty(), "{os:?}: {sw} has no files");
                    assert!(!new.device(sw).is_empty(), "{os:?}: {sw} has no files");
                }
            });
            assert!(n >= 120, "{os:?}: {n} pairs");
            assert!(
                seen.len() >= CHANGES.len() - 1,
                "{os:?}: only {seen:?} occurred"
            );
        }
    }
}
