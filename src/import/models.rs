//! The switch models of the imported `.fab`: the catalogue platform a SONiC switch runs on
//! (named by `DEVICE_METADATA`, or the only one whose buffer and cages fit), and a Cumulus
//! switch's model line from NVUE's header.

use super::deployed::{Deployed, Ev, Note, NoteKind};
use super::text::{Out, comment_text};

/// The catalogue platform of a SONiC switch model: the one its `DEVICE_METADATA` platform or
/// HWSKU names, or else the only SONiC platform whose usable buffer is the pools' total and
/// whose cages run ports of `lanes` lanes at `speed` (natively, or as a breakout), with how
/// it was found.
pub(super) fn platform_of(
    d: &Deployed,
    members: &[usize],
    lanes: u32,
    speed: u64,
    buffer: Option<u64>,
) -> Option<(&'static crate::catalogue::platform::Platform, String)> {
    let cat = &crate::catalogue::catalogue().switches;
    let sonic = |p: &&crate::catalogue::platform::Platform| p.os.iter().any(|o| o.os == "sonic");
    for &i in members {
        let sw = &d.switches[i].sw;
        for named in [&sw.platform, &sw.hwsku].into_iter().flatten() {
            let n = named.to_ascii_lowercase();
            if let Some(p) = cat.iter().filter(sonic).find(|p| {
                p.sonic
                    .as_ref()
                    .is_some_and(|s| s.platform.eq_ignore_ascii_case(named))
                    || n.contains(&p.model.to_ascii_lowercase())
            }) {
                return Some((p, format!("DEVICE_METADATA names `{named}`")));
            }
        }
    }
    let fits = |p: &crate::catalogue::platform::Platform, native: bool| {
        p.cages.iter().filter(|c| !c.aux).any(|c| {
            if native {
                c.lanes == lanes && u64::from(c.speed_gbps) * 1000 == speed
            } else {
                c.breakouts.iter().any(|b| {
                    let Some((k, rest)) = b.split_once('x') else {
                        return false;
                    };
                    let k: u32 = k.parse().unwrap_or(0);
                    let g: u64 = rest
                        .split(['G', '['])
                        .next()
                        .and_then(|x| x.parse().ok())
                        .unwrap_or(0);
                    k > 0 && c.lanes / k == lanes && g * 1000 == speed
                })
            }
        })
    };
    // The buffer is the egress pools' sum, or (where the lossy pools share it) the lossless
    // pool's size.
    let lossless: Vec<u64> = members
        .iter()
        .filter_map(|&i| d.switches[i].sw.lossless_pool)
        .collect();
    let by_buffer: Vec<_> = cat
        .iter()
        .filter(sonic)
        .filter(|p| {
            let u = p.buffer.usable.as_ref().map(|u| u.bytes);
            u.is_some() && (u == buffer || lossless.first().copied() == u)
        })
        .collect();
    for native in [true, false] {
        let c: Vec<_> = by_buffer.iter().filter(|p| fits(p, native)).collect();
        if let [one] = c.as_slice() {
            return Some((
                one,
                format!(
                    "its egress pools add up to that platform's buffer and its ports take {lanes} lanes at {}G, {}",
                    speed / 1000,
                    if native {
                        "as the platform's cages do"
                    } else {
                        "a breakout of its cages"
                    }
                ),
            ));
        }
    }
    None
}

/// A Cumulus switch model: `platform` where the header's model is a catalogue platform and the
/// port names are its breakout, `os cumulus <release>`, the ports where they differ from the
/// platform's cages. NVUE holds no buffer size or cell (switchd sizes the buffer itself), so
/// without a platform the model has none and says so.
#[allow(clippy::too_many_arguments)]
pub(super) fn cumulus_model(
    d: &Deployed,
    o: &mut Out,
    notes: &mut Vec<Note>,
    mname: &str,
    speed: u64,
    cu: &(Option<String>, Option<String>, u32, u32),
    members: &[usize],
    at: Option<Ev>,
) {
    let (release, model, split, ports) = cu;
    let file_at = members.first().map(|&i| Ev {
        file: d.switches[i].file,
        at: Default::default(),
    });
    let at = at.or(file_at);
    let platform = model.as_deref().and_then(super::cumulus::platform);
    let mut words = Vec::new();
    if let Some(p) = platform {
        words.push(format!("platform {}", p.name));
        if let Some(at) = at {
            notes.push(Note::new(
                NoteKind::Inferred,
                at,
                format!(
                    "switch model `{mname}` is taken to run on catalogue platform `{}`: `nv config show` names the system `{}`",
                    p.name,
                    model.as_deref().unwrap_or_default()
                ),
            ));
        }
    }
    words.push(match release {
        Some(r) => format!("os cumulus {r}"),
        None => "os cumulus".into(),
    });
    let native = platform.is_some_and(|p| {
        *split == 1
            && p.cages
                .iter()
                .find(|c| !c.aux)
                .is_some_and(|c| u64::from(c.speed_gbps) * 1000 == speed)
    });
    if !native {
        words.push(format!("ports {ports} x {}G", speed / 1000));
    }
    if platform.is_none()
        && let Some(at) = at
    {
        notes.push(
            Note::new(
                NoteKind::CannotCarry,
                at,
                format!("`nv config show` names no catalogue platform for switch model `{mname}`, and NVUE holds no buffer size or cell; the model has none, so headroom and ECN cannot be judged against the buffer"),
            )
            .help("add `platform …`, or `buffer …` and `cell …`, to the switch model by hand"),
        );
        o.comment(
            1,
            "NVUE holds no buffer size or cell: add them (or a platform) by hand",
        );
    }
    if platform.is_none()
        && members.iter().any(|&i| {
            d.switches[i]
                .sw
                .ports
                .values()
                .all(|p| p.speed_mbps.is_none())
        })
        && let Some(at) = at
    {
        notes.push(Note::new(
            NoteKind::Inferred,
            at,
            format!("no port of switch model `{mname}` states its speed (`link speed`) and no platform gives it; the ports are taken to run at {}G", speed / 1000),
        ).help("set `link speed` on the switch, or give the model's `ports` by hand"));
    }
    if let Some(m) = model {
        o.comment(
            1,
            &format!("nv config show header model: {}", comment_text(m)),
        );
    }
    o.line(
        1,
        &format!("switch-model {mname} {{ {} }}", words.join("  ")),
        at,
    );
}
