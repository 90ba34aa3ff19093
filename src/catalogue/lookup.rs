//! The questions the next stages ask of a [`Platform`]: which OSes run on it, what ports it has
//! (and whether a model's `ports` fit them), what a port is called on each OS, which SONiC
//! lookup row a cable gets, which constants SONiC's Mellanox headroom formula reads. The data
//! they read is in `platform.rs`.

use super::asic_table::AsicConstants;
use super::port_group::PortGroup;
/// The interface type Comware gives an Ethernet port of `speed_gbps`, as H3C writes it in full
/// (`FourHundredGigE1/0/1`; the abbreviated `HGE1/0/1` in `display` output is the 100G one):
/// H3C S9825 & S9855 Command References R913x, "10-PFC commands" (`HGE1/0/1`,
/// https://www.h3c.com/en/d_202410/2284497_294551_0.htm) and the S6805 & S6825 & S6850 &
/// S9850 PFC commands (`WGE1/0/1`, 25G). `None` for a speed no source fabricc read names.
pub fn comware_type(speed_gbps: u32) -> Option<&'static str> {
    Some(match speed_gbps {
        10 => "Ten-GigabitEthernet",
        25 => "Twenty-FiveGigE",
        40 => "FortyGigE",
        50 => "FiftyGigE",
        100 => "HundredGigE",
        200 => "TwoHundredGigE",
        400 => "FourHundredGigE",
        _ => return None,
    })
}

#[cfg(test)]
use super::{check_key, valid_name};
use crate::syntax::ast::{BufferModel, Os};

use super::platform::*;

/// Why a model's `ports` do not fit its platform.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PortsMisfit {
    /// No cage runs ports this fast.
    TooFast { speed_gbps: u32, fastest_gbps: u32 },
    /// More ports than the cages give, even broken out.
    TooMany {
        count: u32,
        speed_gbps: u32,
        cages_needed: u32,
        cages: u32,
    },
}

impl Platform {
    pub fn asic_family(&self) -> Option<AsicFamily> {
        self.asic.as_ref().map(|a| a.family)
    }

    /// The OSes that run here, in catalogue order.
    pub fn oses(&self) -> Vec<Os> {
        self.os.iter().filter_map(OsSupport::os).collect()
    }

    pub fn runs(&self, os: Os) -> bool {
        self.oses().contains(&os)
    }

    /// The front-panel cages (auxiliary ones left out).
    pub fn fabric_cages(&self) -> impl Iterator<Item = &CageGroup> {
        self.cages.iter().filter(|c| !c.aux)
    }

    /// The ports a model on this platform has: every front-panel cage at its fastest speed,
    /// unbroken. Empty when the catalogue has no cages for it.
    pub fn port_groups(&self) -> Vec<PortGroup> {
        self.fabric_cages()
            .map(|c| PortGroup::plain(c.count, u64::from(c.speed_gbps) * 1000))
            .collect()
    }

    /// SerDes lanes of cage `cage` (0-based, counting every cage); `None` without cages.
    pub fn cage_lanes(&self, cage: u32) -> Option<u32> {
        self.locate(cage).map(|(g, _)| g.lanes)
    }

    /// The cage group of cage `cage` (0-based, counting every cage).
    pub fn cage_group(&self, cage: u32) -> Option<&CageGroup> {
        self.locate(cage).map(|(g, _)| g)
    }

    pub fn cage_count(&self) -> u32 {
        self.fabric_cages().map(|c| c.count).sum()
    }

    /// Whether `groups` (a model's `ports`) can be had from the front-panel cages, breaking
    /// them out where the cages allow. Cages are taken in order, fastest request first.
    pub fn fit(&self, groups: &[PortGroup]) -> Result<(), PortsMisfit> {
        let cages: Vec<&CageGroup> = self.fabric_cages().collect();
        if cages.is_empty() {
            return Ok(());
        }
        let mut left: Vec<u32> = cages.iter().map(|c| c.count).collect();
        let mut requests: Vec<PortGroup> = groups.to_vec();
        requests.sort_by_key(|g| std::cmp::Reverse(g.speed));
        for g in requests {
            let speed_gbps = u32::try_from(g.speed.div_ceil(1000)).unwrap_or(u32::MAX);
            let fastest = cages.iter().map(|c| c.speed_gbps).max().unwrap_or(0);
            if speed_gbps > fastest {
                return Err(PortsMisfit::TooFast {
                    speed_gbps,
                    fastest_gbps: fastest,
                });
            }
            let mut count = g.count;
            for (c, free) in cages.iter().zip(left.iter_mut()) {
                let per = c.ports_for(&g, speed_gbps);
                if per == 0 || count == 0 {
                    continue;
                }
                let take = count.div_ceil(per).min(*free);
                *free -= take;
                count = count.saturating_sub(take * per);
            }
            if count > 0 {
                let best = cages
                    .iter()
                    .map(|c| c.ports_per_cage(speed_gbps))
                    .max()
                    .unwrap_or(1)
                    .max(1);
                return Err(PortsMisfit::TooMany {
                    count: g.count,
                    speed_gbps,
                    cages_needed: g.count.div_ceil(best),
                    cages: self.cage_count(),
                });
            }
        }
        Ok(())
    }

    /// The buffer fabricc sizes pools from: what the OS gives the pools where known, else
    /// the vendor's figure.
    pub fn buffer_bytes(&self) -> Option<u64> {
        self.buffer.pool_bytes()
    }

    /// The largest buffer figure the catalogue has (an override above it is suspect).
    pub fn max_buffer_bytes(&self) -> Option<u64> {
        [&self.buffer.total, &self.buffer.usable]
            .into_iter()
            .flatten()
            .map(|b| b.bytes)
            .max()
    }

    pub fn cell_bytes(&self) -> Option<u64> {
        self.buffer.cell.as_ref().map(|c| c.value)
    }

    pub fn lossless_limit(&self) -> Option<u8> {
        self.lossless_limit.as_ref().map(|l| l.value)
    }

    /// The buffer model a fresh SONiC image runs on this platform.
    pub fn default_buffer_model(&self) -> Option<BufferModel> {
        self.sonic.as_ref()?.buffer_model()
    }

    /// The lookup row of the default SONiC SKU for `speed_mbps` and `cable_mm`.
    pub fn lookup_row(&self, speed_mbps: u64, cable_mm: u64) -> Option<&LookupRow> {
        self.sonic
            .as_ref()?
            .default_hwsku()?
            .lookup_row(speed_mbps, cable_mm)
    }

    /// SONiC's headroom-formula constants, for Spectrum platforms.
    pub fn sonic_headroom_constants(&self) -> Option<AsicConstants> {
        self.sonic
            .as_ref()?
            .mellanox
            .as_ref()?
            .asic_constants(self.asic_family()?)
    }

    /// The cage group of cage `cage` (0-based over all groups) and the cage's place in it.
    fn locate(&self, cage: u32) -> Option<(&CageGroup, u32)> {
        let mut k = cage;
        for g in &self.cages {
            if k < g.count {
                return Some((g, k));
            }
            k -= g.count;
        }
        None
    }

    /// SONiC's name of sub-port `sub` (0-based) of cage `cage` (0-based) broken out into
    /// `split` ports: `Ethernet<n + sub × lanes/split>`, `n` the cage's number in the
    /// platform's `platform.json` (the first lane on Mellanox; cage × 8 on the Arista TH5).
    pub fn sonic_port_name(&self, cage: u32, split: u32, sub: u32) -> Option<String> {
        self.naming.sonic.as_ref()?;
        let (g, k) = self.locate(cage)?;
        if sub >= split || (split > 1 && (!g.has_split(split) || g.lanes % split != 0)) {
            return None;
        }
        let base = g.sonic_base(k)?;
        Some(format!("Ethernet{}", base + sub * (g.lanes / split)))
    }

    /// The name `os` gives sub-port `sub` of cage `cage` broken out into `split` ports
    /// (`split` 1: the unbroken port). `None` where the catalogue has no sourced rule for
    /// that OS on this platform, or the cage cannot be split so.
    pub fn port_name(&self, os: Os, cage: u32, split: u32, sub: u32) -> Option<String> {
        if os == Os::Sonic {
            return self.sonic_port_name(cage, split, sub);
        }
        let rule = match os {
            Os::Sonic => return None,
            Os::Cumulus => self.naming.cumulus.as_ref(),
            Os::Eos => self.naming.eos.as_ref(),
            Os::Nxos => self.naming.nxos.as_ref(),
            Os::Junos => self.naming.junos.as_ref(),
            Os::Vrp => self.naming.vrp.as_ref(),
            Os::Comware => self.naming.comware.as_ref(),
        }?;
        if sub >= split || split == 0 || (split > 1 && !rule.breakout) {
            return None;
        }
        let mut lanes_each = None;
        // VRP: the cage's interface type and its number among the cages of that type.
        let mut typed = None;
        // Comware: the sub-port's speed, which names its type.
        let mut sub_gbps = None;
        if !self.cages.is_empty() {
            let (g, k) = self.locate(cage)?;
            let before: u32 = self
                .cages
                .iter()
                .take_while(|c| !std::ptr::eq(*c, g))
                .filter(|c| c.speed_gbps == g.speed_gbps)
                .map(|c| c.count)
                .sum();
            typed = Some((g.speed_gbps, before + k + 1));
            sub_gbps = (g.speed_gbps % split == 0).then_some(g.speed_gbps / split);
            if split > 1 && !g.has_split(split) {
                return None;
            }
            lanes_each = (g.lanes % split == 0).then_some(g.lanes / split);
        }
        let n = cage + 1;
        Some(match (os, split) {
            (Os::Cumulus, 1) => format!("swp{n}"),
            (Os::Cumulus, _) => format!("swp{n}s{sub}"),
            (Os::Eos, 1) => format!("Ethernet{n}/1"),
            // EOS numbers a broken-out port by its first lane; that needs the cage's lanes.
            (Os::Eos, _) => format!("Ethernet{n}/{}", sub * lanes_each? + 1),
            (Os::Nxos, 1) => format!("Ethernet1/{n}"),
            (Os::Nxos, _) => format!("Ethernet1/{n}/{}", sub + 1),
            (Os::Junos, 1) => format!("et-0/0/{cage}"),
            (Os::Junos, _) => format!("et-0/0/{cage}:{sub}"),
            // VRP names a port by its cage's type, numbered per type, and a split port by
            // the cage's name and `:<sub, from 1>` ("port split", CloudEngine 8800/6800
            // V300R023C00 Command Reference); the type needs the cage's speed.
            (Os::Vrp, 1) => {
                let (gbps, k) = typed?;
                format!("{gbps}GE1/0/{k}")
            }
            (Os::Vrp, _) => {
                let (gbps, k) = typed?;
                format!("{gbps}GE1/0/{k}:{}", sub + 1)
            }
            // Comware names a port by its speed's type; a broken-out sub-port takes the
            // sub-port's speed and `:<sub, from 1>` (`TwoHundredGigE1/0/1:1`).
            (Os::Comware, 1) => format!("{}1/0/{n}", comware_type(sub_gbps?)?),
            (Os::Comware, _) => format!("{}1/0/{n}:{}", comware_type(sub_gbps?)?, sub + 1),
            (Os::Sonic, _) => return None,
        })
    }

    /// Where port `index` (0-based) of a model with `groups` sits: `(cage, split, sub)` for
    /// `port_name` (`place_all` for every port at once, the cheaper way to name a switch).
    pub fn place(&self, groups: &[PortGroup], index: u32) -> Option<(u32, u32, u32)> {
        if self.cages.is_empty() {
            // No cages in the catalogue: every port is its own cage, unless the model declares
            // a breakout (`ports 64 x 800G breakout 2 x 400G`), which splits its own cages.
            let (mut left, mut cage) = (index, 0u32);
            for g in groups {
                let ways = g.breakout.map_or(1, |b| b.ways.max(1));
                if left < g.count {
                    return Some((cage + left / ways, ways, left % ways));
                }
                left -= g.count;
                cage += g.count.div_ceil(ways);
            }
            return None;
        }
        let mut left = index;
        for taken in &self.cage_assignment(groups)? {
            for &(cage, per, take) in taken {
                if left < take {
                    return Some((cage, per, left));
                }
                left -= take;
            }
        }
        None
    }

    /// `place` of every port of a model with `groups`, in port order; shorter than the
    /// model's ports (empty) where they do not fit the cages.
    pub fn place_all(&self, groups: &[PortGroup]) -> Vec<(u32, u32, u32)> {
        let total: u32 = groups.iter().map(|g| g.count).sum();
        if self.cages.is_empty() {
            return (0..total).map_while(|i| self.place(groups, i)).collect();
        }
        let Some(assignment) = self.cage_assignment(groups) else {
            return Vec::new();
        };
        let mut out = Vec::with_capacity(total as usize);
        for taken in &assignment {
            for &(cage, per, take) in taken {
                out.extend((0..take).map(|sub| (cage, per, sub)));
            }
        }
        out
    }

    /// Per port group (in the order written), the cages it takes: `(cage, ports per cage,
    /// ports taken)`. Groups take the front-panel cages in order; a group slower than its
    /// cages breaks each cage out as far as the cage allows at that speed (the rule `fit`
    /// counts with, so `128 x 400G` on 64 cages of 800G with a 2x400G mode is two ports a
    /// cage). `None` when the ports do not fit the cages.
    fn cage_assignment(&self, groups: &[PortGroup]) -> Option<Vec<Vec<(u32, u32, u32)>>> {
        let mut slots = Vec::new();
        let mut global = 0u32;
        for g in &self.cages {
            for _ in 0..g.count {
                if !g.aux {
                    slots.push((global, g));
                }
                global += 1;
            }
        }
        // The groups in the order written first, each on the next free cages that can run
        // it, so `ports 8 x 400G breakout 2 x 200G, 32 x 100G` finds the 400G cages behind
        // 32 cages of 100G. Where that leaves a group without cages, the fastest groups
        // first, the order `fit` counts in, so every model `fit` accepts is placed.
        let written: Vec<usize> = (0..groups.len()).collect();
        assign_cages(&slots, groups, &written).or_else(|| {
            let mut fastest = written.clone();
            fastest.sort_by_key(|&i| std::cmp::Reverse(groups[i].speed));
            assign_cages(&slots, groups, &fastest)
        })
    }

    /// Everything inconsistent in this entry, appended to `errors`.
    // The catalogue's validation runs in its tests (`catalogue::tests`), not in the product.
    #[cfg(test)]
    pub(crate) fn validate(&self, errors: &mut Vec<String>) {
        let at = |what: &str| format!("{}: {what}", self.name);
        if !valid_name(&self.name) {
            errors.push(at("the name is not lower-case vendor-model"));
        }
        for (key, s) in &self.sources {
            if !s.is_valid() {
                errors.push(at(&format!(
                    "source `{key}` is neither repo@commit:path nor a titled https document"
                )));
            }
        }
        let key = |k: &str, place: &str, errors: &mut Vec<String>| {
            check_key(&self.sources, k, &at(place), errors);
        };
        if let Some(a) = &self.asic {
            key(&a.source, "asic", errors);
            if let Some(p) = &a.part_source {
                key(p, "asic part", errors);
            }
        }
        if self.os.is_empty() {
            errors.push(at("no OS runs on it"));
        }
        for o in &self.os {
            if o.os().is_none() {
                errors.push(at(&format!("`{}` is not an OS", o.os)));
            }
            key(&o.source, &format!("os {}", o.os), errors);
            if let Some(m) = &o.max_mtu {
                key(&m.source, &format!("os {} max_mtu", o.os), errors);
            }
            if let Some(f) = &o.build_finding {
                let c = f.code.as_bytes();
                if c.len() != 6
                    || !f.code.starts_with("FAB")
                    || !c[3..].iter().all(u8::is_ascii_digit)
                {
                    errors.push(at(&format!(
                        "os {} build_finding is not a FABnnn code",
                        o.os
                    )));
                }
            }
        }
        for (i, c) in self.cages.iter().enumerate() {
            let place = format!("cages[{i}]");
            key(&c.source, &place, errors);
            let modes = c.modes();
            if c.count == 0 || c.lanes == 0 || modes.len() != c.breakouts.len() {
                errors.push(at(&format!(
                    "{place}: a count, lanes and breakouts that parse"
                )));
            }
            if modes.iter().map(|m| m.speed_gbps).max() != Some(c.speed_gbps) {
                errors.push(at(&format!(
                    "{place}: speed_gbps is not the fastest breakout"
                )));
            }
            if let Some(n) = &c.sonic_names
                && !n.list.is_empty()
                && n.list.len() != c.count as usize
            {
                errors.push(at(&format!("{place}: one SONiC name per cage")));
            }
        }
        for (what, b) in [
            ("total", &self.buffer.total),
            ("usable", &self.buffer.usable),
        ] {
            if let Some(b) = b {
                key(&b.source, &format!("buffer {what}"), errors);
            }
        }
        if let Some(c) = &self.buffer.cell {
            key(&c.source, "buffer cell", errors);
        }
        if let Some(l) = &self.lossless_limit {
            key(&l.source, "lossless_limit", errors);
        }
        for (os, rule) in [
            (Os::Sonic, &self.naming.sonic),
            (Os::Cumulus, &self.naming.cumulus),
            (Os::Eos, &self.naming.eos),
            (Os::Nxos, &self.naming.nxos),
            (Os::Junos, &self.naming.junos),
            (Os::Vrp, &self.naming.vrp),
            (Os::Comware, &self.naming.comware),
        ] {
            if let Some(r) = rule {
                key(&r.source, &format!("naming {}", os.as_str()), errors);
                if let Some(e) = &r.example_source {
                    key(e, &format!("naming {} example", os.as_str()), errors);
                }
                if !self.runs(os) {
                    errors.push(at(&format!(
                        "naming for {}, an OS it does not run",
                        os.as_str()
                    )));
                }
            }
        }
        if let Some(s) = &self.sonic {
            self.validate_sonic(s, errors);
        }
        self.validate_chassis(errors);
    }

    #[cfg(test)]
    fn validate_sonic(&self, s: &Sonic, errors: &mut Vec<String>) {
        let at = |what: &str| format!("{}: sonic {what}", self.name);
        let key = |k: &str, place: &str, errors: &mut Vec<String>| {
            check_key(&self.sources, k, &at(place), errors);
        };
        key(&s.source, "", errors);
        key(&s.default_sku.source, "default_sku", errors);
        key(&s.buffer_model.source, "buffer_model", errors);
        if s.buffer_model().is_none() {
            errors.push(at("buffer_model is not dynamic or traditional"));
        }
        if !self.runs(Os::Sonic) {
            errors.push(at("data for a platform that does not run SONiC"));
        }
        if s.default_hwsku().is_none() {
            errors.push(at("the default SKU is not among `hwskus`"));
        }
        if let Some(p) = &s.lossless_traffic_pattern {
            key(&p.source, "lossless_traffic_pattern", errors);
        }
        if let Some(d) = &s.default_dynamic_th {
            key(&d.source, "default_dynamic_th", errors);
        }
        if let Some(m) = &s.max_mtu {
            key(&m.source, "max_mtu", errors);
        }
        if let Some(m) = &s.mellanox {
            key(&m.source, "mellanox", errors);
            key(&m.pool_reserves.source, "mellanox pool_reserves", errors);
            if self.sonic_headroom_constants().is_none() {
                errors.push(at("mellanox constants do not parse"));
            }
        }
        for sku in &s.hwskus {
            let place = format!("hwsku {}", sku.name);
            key(
                &sku.port_config.source,
                &format!("{place} port_config"),
                errors,
            );
            if let Some(l) = &sku.pg_profile_lookup {
                key(&l.source, &format!("{place} pg_profile_lookup"), errors);
                if l.rows.iter().any(|r| r.cable_m().is_none() || r.speed == 0) {
                    errors.push(at(&format!("{place}: a lookup row's speed or cable")));
                }
            }
            for b in &sku.buffer_defaults {
                key(&b.source, &format!("{place} buffer_defaults"), errors);
                if let Some(p) = &b.profiles_source {
                    key(p, &format!("{place} profiles"), errors);
                }
                for pr in &b.profiles {
                    if !b.pools.iter().any(|p| p.name == pr.pool) {
                        errors.push(at(&format!(
                            "{place}: profile `{}` names pool `{}`, not in the layout",
                            pr.name, pr.pool
                        )));
                    }
                }
            }
            self.validate_port_names(sku, errors);
        }
    }

    /// Every `port_config.ini` row carries the name `sonic_port_name` gives its place.
    #[cfg(test)]
    fn validate_port_names(&self, sku: &Hwsku, errors: &mut Vec<String>) {
        let at = |what: &str| format!("{}: sonic hwsku {} {what}", self.name, sku.name);
        let Some(rows) = sku.port_config.parsed() else {
            errors.push(at("port_config rows do not follow their columns"));
            return;
        };
        let Some(split) = sku.split() else {
            errors.push(at("breakout does not parse"));
            return;
        };
        let mut expected = Vec::new();
        let mut cage = 0;
        for g in &self.cages {
            let s = if g.aux { 1 } else { split };
            for _ in 0..g.count {
                for sub in 0..s {
                    expected.push(self.sonic_port_name(cage, s, sub));
                }
                cage += 1;
            }
        }
        let names: Vec<Option<String>> = rows.iter().map(|r| Some(r.name.clone())).collect();
        if names != expected {
            errors.push(at(&format!(
                "port_config names differ from the cage layout: {} rows, {} expected",
                names.len(),
                expected.len()
            )));
        }
    }
}

/// Per port group, the cages it takes as `(cage, ports per cage, ports taken)`, the groups
/// served in `order`, each on the next free cages (front-panel order) that can run it;
/// `None` when a group finds too few.
fn assign_cages(
    slots: &[(u32, &CageGroup)],
    groups: &[PortGroup],
    order: &[usize],
) -> Option<Vec<Vec<(u32, u32, u32)>>> {
    let mut used = vec![false; slots.len()];
    let mut cages = vec![Vec::new(); groups.len()];
    for &i in order {
        let group = groups.get(i)?;
        let speed_gbps = u32::try_from(group.speed.div_ceil(1000)).unwrap_or(u32::MAX);
        let mut remaining = group.count;
        let mut k = 0;
        while remaining > 0 {
            let (slot, per) = (k..slots.len()).find_map(|j| {
                let per = slots[j].1.ports_for(group, speed_gbps);
                (!used[j] && per > 0).then_some((j, per))
            })?;
            used[slot] = true;
            let take = per.min(remaining);
            cages[i].push((slots[slot].0, per, take));
            remaining -= take;
            k = slot + 1;
        }
    }
    Some(cages)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::platform::milli;
    use crate::catalogue::switch_platform;

    fn sn5600() -> &'static Platform {
        switch_platform("nvidia-sn5600").expect("nvidia-sn5600 is in the catalogue")
    }

    #[test]
    fn breakout_modes_parse() {
        let m = BreakoutMode::parse("2x400G[200G,100G,50G,40G,25G,10G]").expect("parses");
        assert_eq!((m.ports, m.speed_gbps), (2, 400));
        assert_eq!(m.also_gbps, vec![200, 100, 50, 40, 25, 10]);
        let m = BreakoutMode::parse("4x25G(4)[10G,1G]").expect("parses");
        assert_eq!((m.ports, m.speed_gbps, m.also_gbps.len()), (4, 25, 2));
        assert_eq!(BreakoutMode::parse("1x10G").map(|m| m.ports), Some(1));
        assert_eq!(BreakoutMode::parse("0x10G"), None);
        assert_eq!(BreakoutMode::parse("2x400"), None);
    }

    #[test]
    fn milli_reads_one_decimal_kib() {
        for (text, want) in [
            ("19", Some(19_000)),
            ("0.8", Some(800)),
            ("3.8", Some(3_800)),
        ] {
            assert_eq!(milli(text), want, "{text}");
        }
        assert_eq!(milli("x"), None);
        assert_eq!(milli("1.2345"), None);
    }

    #[test]
    fn sonic_port_names_follow_the_sku_port_config() {
        let p = sn5600();
        for (cage, split, sub, want) in [
            (0, 1, 0, Some("Ethernet0")),
            (1, 1, 0, Some("Ethernet8")),
            (63, 1, 0, Some("Ethernet504")),
            (0, 2, 1, Some("Ethernet4")),
            (63, 2, 1, Some("Ethernet508")),
            (2, 4, 3, Some("Ethernet22")),
            (64, 1, 0, Some("Ethernet512")),
            (0, 8, 0, None), // SN5600 has no 8x100G mode
            (0, 2, 2, None),
            (65, 1, 0, None),
        ] {
            assert_eq!(
                p.sonic_port_name(cage, split, sub).as_deref(),
                want,
                "cage {cage} split {split} sub {sub}"
            );
        }
        let a = switch_platform("arista-7060x6-64pe").expect("in the catalogue");
        // Broadcom: the name counts cages × 8, whatever lanes the cage uses.
        assert_eq!(a.sonic_port_name(1, 2, 1).as_deref(), Some("Ethernet12"));
        assert_eq!(a.sonic_port_name(0, 8, 7).as_deref(), Some("Ethernet7"));
        assert_eq!(a.sonic_port_name(65, 1, 0).as_deref(), Some("Ethernet513"));
        let s = switch_platform("nvidia-sn5400").expect("in the catalogue");
        assert_eq!(s.sonic_port_name(65, 1, 0).as_deref(), Some("Ethernet520"));
    }

    #[test]
    fn port_names_per_os() {
        let p = sn5600();
        assert_eq!(p.port_name(Os::Cumulus, 0, 1, 0).as_deref(), Some("swp1"));
        assert_eq!(
            p.port_name(Os::Cumulus, 31, 2, 1).as_deref(),
            Some("swp32s1")
        );
        assert_eq!(p.port_name(Os::Cumulus, 0, 8, 0), None);
        assert_eq!(
            p.port_name(Os::Eos, 0, 1, 0),
            None,
            "SN5600 does not run EOS"
        );
        let a = switch_platform("arista-7060x6-64pe").expect("in the catalogue");
        assert_eq!(
            a.port_name(Os::Eos, 63, 1, 0).as_deref(),
            Some("Ethernet64/1")
        );
        // EOS numbers a broken-out port by its first lane (the entry's `naming.eos`, from
        // AMD's 7388 example `Ethernet2/5/1`, `Ethernet2/5/5`): 8 lanes, 2 ports.
        assert_eq!(
            a.port_name(Os::Eos, 0, 2, 1).as_deref(),
            Some("Ethernet1/5")
        );
        assert_eq!(
            a.port_name(Os::Eos, 2, 4, 3).as_deref(),
            Some("Ethernet3/7")
        );
        assert_eq!(a.port_name(Os::Eos, 2, 3, 0), None, "no 3-way mode");
        let j = switch_platform("juniper-qfx5240-64od").expect("in the catalogue");
        assert_eq!(j.port_name(Os::Junos, 0, 1, 0).as_deref(), Some("et-0/0/0"));
        assert_eq!(
            j.port_name(Os::Junos, 5, 2, 1).as_deref(),
            Some("et-0/0/5:1")
        );
        let c = switch_platform("cisco-n9364d-gx2a").expect("in the catalogue");
        assert_eq!(
            c.port_name(Os::Nxos, 0, 1, 0).as_deref(),
            Some("Ethernet1/1")
        );
        assert_eq!(
            c.port_name(Os::Nxos, 9, 4, 3).as_deref(),
            Some("Ethernet1/10/4")
        );
    }

    #[test]
    fn place_breaks_out_slower_ports_as_far_as_the_cages_allow() {
        let g = |count, gbps: u64| PortGroup::plain(count, gbps * 1000);
        let p = sn5600();
        assert_eq!(p.place(&[g(64, 800)], 63), Some((63, 1, 0)));
        assert_eq!(p.place(&[g(64, 800)], 64), None);
        assert_eq!(p.place(&[g(128, 400)], 0), Some((0, 2, 0)));
        assert_eq!(p.place(&[g(128, 400)], 3), Some((1, 2, 1)));
        assert_eq!(p.place(&[g(128, 400)], 127), Some((63, 2, 1)));
        // 800G cages first, then the 400G ports two to a cage.
        assert_eq!(p.place(&[g(2, 800), g(3, 400)], 1), Some((1, 1, 0)));
        assert_eq!(p.place(&[g(2, 800), g(3, 400)], 4), Some((3, 2, 0)));
        assert_eq!(p.port_name(Os::Cumulus, 3, 2, 0).as_deref(), Some("swp4s0"));
        // No cages recorded: every port is its own cage.
        let c = switch_platform("cisco-n9364d-gx2a").expect("in the catalogue");
        assert_eq!(c.place(&[g(64, 400)], 9), Some((9, 1, 0)));
        assert_eq!(c.place(&[g(64, 400)], 64), None);
        // A group the cages ahead of it cannot run takes the next ones that can: the
        // CE8851's 400G cages (33-40) behind its 32 cages of 100G, broken out 2 x 200G.
        let ce = switch_platform("huawei-ce8851-32cq8dq-p").expect("in the catalogue");
        let split = |count, gbps: u64, ways, cage_gbps: u64| PortGroup {
            breakout: Some(crate::catalogue::port_group::CageBreakout {
                ways,
                cage_speed: cage_gbps * 1000,
            }),
            ..PortGroup::plain(count, gbps * 1000)
        };
        let leaf = [split(16, 200, 2, 400), g(32, 100)];
        assert_eq!(ce.place(&leaf, 0), Some((32, 2, 0)));
        assert_eq!(ce.place(&leaf, 15), Some((39, 2, 1)));
        assert_eq!(ce.place(&leaf, 16), Some((0, 1, 0)));
        assert_eq!(ce.place(&leaf, 47), Some((31, 1, 0)));
        assert_eq!(ce.place(&leaf, 48), None);
        assert_eq!(
            ce.port_name(Os::Vrp, 32, 2, 0).as_deref(),
            Some("400GE1/0/1:1")
        );
        let all = ce.place_all(&leaf);
        assert_eq!(all.len(), 48);
        assert!((0..48).all(|i| ce.place(&leaf, i) == Some(all[i as usize])));
        assert!(ce.place_all(&[g(41, 400)]).is_empty());
        // The 400G cages first on the front panel: served in the order written, 40 x 100G
        // would take them (4 ports a cage) before 6 x 400G comes; the fastest group first
        // places both, as `fit` counts.
        let mut fast_first = ce.clone();
        fast_first.cages.reverse();
        let mixed = [g(40, 100), g(6, 400)];
        assert!(fast_first.fit(&mixed).is_ok());
        assert_eq!(fast_first.place(&mixed, 40), Some((0, 1, 0)));
        assert_eq!(fast_first.place(&mixed, 45), Some((5, 1, 0)));
        assert_eq!(fast_first.place(&mixed, 0), Some((6, 4, 0)));
        assert_eq!(fast_first.place(&mixed, 7), Some((7, 4, 3)));
        assert_eq!(fast_first.place(&mixed, 8), Some((8, 1, 0)));
        // In the catalogue's order nothing is skipped: the 100G cages, then the 400G ones.
        let in_order = [g(32, 100), g(8, 400)];
        assert_eq!(ce.place(&in_order, 31), Some((31, 1, 0)));
        assert_eq!(ce.place(&in_order, 32), Some((32, 1, 0)));
        let a = switch_platform("arista-7060x6-64pe").expect("in the catalogue");
        let (cage, split, sub) = a.place(&[g(128, 400)], 5).expect("fits");
        assert_eq!(
            a.port_name(Os::Eos, cage, split, sub).as_deref(),
            Some("Ethernet3/5")
        );
    }

    #[test]
    fn lookup_row_takes_the_shortest_row_at_least_as_long() {
        let p = sn5600();
        for (speed, cable_mm, want) in [
            (400_000, 3_000, Some(("5m", 250_880, 19_456, 231_424))),
            (400_000, 5_000, Some(("5m", 250_880, 19_456, 231_424))),
            (400_000, 5_001, Some(("40m", 303_104, 19_456, 283_648))),
            (400_000, 30_000, Some(("40m", 303_104, 19_456, 283_648))),
            (
                800_000,
                300_000,
                Some(("300m", 1_198_080, 38_912, 1_150_976)),
            ),
            (400_000, 301_000, None),
            (123_000, 3_000, None),
        ] {
            let got = p
                .lookup_row(speed, cable_mm)
                .map(|r| (r.cable.as_str(), r.size, r.xon, r.xoff));
            assert_eq!(got, want, "{speed} Mb/s, {cable_mm} mm");
        }
    }

    #[test]
    fn fit_allows_breakouts_and_names_the_shortfall() {
        let p = sn5600();
        let g = |count, gbps: u64| PortGroup::plain(count, gbps * 1000);
        assert_eq!(p.fit(&[g(64, 800)]), Ok(()));
        assert_eq!(p.fit(&[g(128, 400)]), Ok(()));
        assert_eq!(p.fit(&[g(32, 800), g(64, 400)]), Ok(()));
        assert_eq!(p.fit(&[g(256, 100)]), Ok(()));
        assert_eq!(
            p.fit(&[g(130, 400)]),
            Err(PortsMisfit::TooMany {
                count: 130,
                speed_gbps: 400,
                cages_needed: 65,
                cages: 64
            })
        );
        assert_eq!(
            p.fit(&[g(1, 1600)]),
            Err(PortsMisfit::TooFast {
                speed_gbps: 1600,
                fastest_gbps: 800
            })
        );
    }

    #[test]
    fn spectrum4_constants_match_the_ported_formula() {
        use crate::catalogue::asic_table::Spectrum;
        assert_eq!(
            sn5600().sonic_headroom_constants(),
            Some(Spectrum::Spectrum4.constants())
        );
        let sn4700 = switch_platform("nvidia-sn4700").expect("in the catalogue");
        assert_eq!(
            sn4700.sonic_headroom_constants(),
            Some(Spectrum::Spectrum3.constants())
        );
    }

    #[test]
    fn families_and_buffer_models() {
        let fam = |n: &str| switch_platform(n).and_then(Platform::asic_family);
        assert_eq!(fam("nvidia-sn5600"), Some(AsicFamily::Spectrum4));
        assert_eq!(fam("nvidia-sn4700"), Some(AsicFamily::Spectrum3));
        assert_eq!(fam("arista-7060x6-64pe"), Some(AsicFamily::Tomahawk5));
        assert_eq!(fam("arista-7280r4-32qf-32df"), Some(AsicFamily::Jericho3));
        assert!(AsicFamily::Jericho3.is_broadcom_dnx());
        assert!(AsicFamily::Tomahawk5.is_broadcom_xgs());
        assert_eq!(sn5600().default_buffer_model(), Some(BufferModel::Dynamic));
        let a = switch_platform("arista-7060x6-64pe").expect("in the catalogue");
        assert_eq!(a.default_buffer_model(), Some(BufferModel::Traditional));
        assert!(a.runs(Os::Eos) && a.runs(Os::Sonic) && !a.runs(Os::Junos));
    }
}
