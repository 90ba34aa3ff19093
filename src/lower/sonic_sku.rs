//! The SONiC lowering's questions of a SKU that breaks each cage out its own way (a model's
//! own SKU folder, `sku "PATH"`, issue 38): whether the model's ports fit its rows, and the
//! `BREAKOUT_CFG` mode of each cage.

use crate::catalogue::{BreakoutMode, Platform, PortConfigRow};
use crate::diagnostic::{Code, Diagnostic};
use crate::model::SwitchModel;

/// Model port `i` is the SKU's `i`-th front-panel row: it must be there, at least as fast as
/// the port, and where the model breaks a cage out `w` ways the row's cage must run `w` ports.
/// Otherwise FAB956, naming the port, the row and its cage.
pub fn fits(
    model: &SwitchModel,
    sku: &str,
    front: &[(PortConfigRow, u64)],
) -> Result<(), Diagnostic> {
    let unfit = |message: String| {
        Diagnostic::new(Code::SonicSkuUnfit, model.ports.span, message)
            .label("these ports")
            .help("model port N is row N of the SKU folder's `port_config.ini` (front-panel rows in file order): write the rows so that each cage runs the breakout the ports need, or change `ports` to the SKU's layout")
    };
    let count = model.port_count() as usize;
    if front.len() < count {
        return Err(unfit(format!(
            "model `{}` has {count} ports; SKU `{sku}` has {} front-panel rows",
            model.name,
            front.len()
        )));
    }
    let rows_of = |index: u32| front.iter().filter(|(r, _)| r.index == index).count();
    let mut i = 0usize;
    for g in &model.ports.value {
        for _ in 0..g.count {
            let (row, speed) = &front[i];
            let split = rows_of(row.index);
            let ways = g.breakout.map(|b| b.ways as usize);
            if *speed < g.speed || ways.is_some_and(|w| w != split) {
                return Err(unfit(format!(
                    "port {} of model `{}` ({}G{}) is `{}` of SKU `{sku}`, on cage {} that the SKU runs as {split} x {}G",
                    i + 1,
                    model.name,
                    g.speed / 1000,
                    ways.map_or(String::new(), |w| format!(", a cage broken out {w} ways")),
                    row.name,
                    row.index,
                    speed / 1000
                )));
            }
            i += 1;
        }
    }
    Ok(())
}

/// The `BREAKOUT_CFG` mode of cage `index` (1-based) whose first port is `parent`, broken out
/// `split` ways at `speed` Mb/s: the SKU folder's `hwsku.json` where it gives one, else the
/// platform's mode of that many ports at that speed as `platform.json` spells it (which DPB
/// checks `brkout_mode` against), else the first mode of that many ports, else the SKU's
/// breakout in words (`words`). `brkout_modes`: the folder's (parent port, mode) pairs.
pub fn cage_mode(
    platform: &Platform,
    brkout_modes: &[(String, String)],
    words: &str,
    (parent, index): (&str, u32),
    split: u32,
    speed: u64,
) -> String {
    if let Some((_, m)) = brkout_modes.iter().find(|(p, _)| p == parent) {
        return m.clone();
    }
    // Borrowed, and every cage's modes read only when the port's own cage has none at its
    // speed: this runs for every port of every switch.
    let own: &[String] = index
        .checked_sub(1)
        .and_then(|c| platform.cage_group(c))
        .map_or(&[], |g| g.breakouts.as_slice());
    let at_speed = |b: &&String| {
        BreakoutMode::parse(b).is_some_and(|m| {
            m.ports == split
                && (u64::from(m.speed_gbps) * 1000 == speed
                    || m.also_gbps.iter().any(|a| u64::from(*a) * 1000 == speed))
        })
    };
    let ways = |b: &&String| BreakoutMode::parse(b).is_some_and(|m| m.ports == split);
    own.iter()
        .find(at_speed)
        .or_else(|| {
            platform
                .fabric_cages()
                .flat_map(|c| c.breakouts.iter())
                .find(ways)
        })
        .cloned()
        .unwrap_or_else(|| words.to_string())
}
