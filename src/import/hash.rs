//! The ECMP hash fields a switch states, as `load-balance { hash … }` keywords (issue 34 item
//! 3), for the readers of EOS, NX-OS, Junos and Cumulus (SONiC's `SWITCH_HASH` is read in
//! `sonic.rs`, VRP's `load-balance ecmp` in `vrp.rs`). The statements are those
//! `render::lb` writes, with its sources:
//! * EOS (Strata): `ip load-sharing trident fields ip source-ip destination-ip source-port
//!   destination-port [ingress-interface]`;
//! * NX-OS: `ip load-sharing address {source | destination | source-destination} [port
//!   {source | destination | source-destination}] [universal-id N] [rotate N]`;
//! * Junos (QFX5000): `forwarding-options enhanced-hash-key inet|inet6 no-…`, each removing a
//!   field from the default five (addresses, L4 ports, protocol);
//! * NVUE: `system forwarding ecmp-hash FIELD enabled|disabled` (`on|off` up to 5.14), a field
//!   it does not state keeping its default (the 5-tuple and `ipv6-label` on).
//!
//! A switch that states nothing keeps its default, which the `.fab` does not state either
//! (`None`, as SONiC without `SWITCH_HASH`). A field the `.fab` has no keyword for
//! (`ingress-interface`, `ipv6-label`, NX-OS's `gre-outer`) is a note and no hash; so is a
//! Junos `inet` and `inet6` that remove different fields (the read-back compares both).

use std::collections::{BTreeMap, BTreeSet};

use super::deployed::{Ev, Note, NoteKind};
use crate::model::HashField;

pub(super) type Hash = Option<(Vec<&'static str>, Ev)>;

/// Junos's IPv4 and IPv6 fields where they differ (`Switch::hash_split`).
pub(super) type Split = Option<(Vec<&'static str>, Vec<&'static str>)>;

/// Junos's and NVUE's default fields, the five of `hash src-ip dst-ip src-port dst-port
/// protocol`.
pub const FIVE: [&str; 5] = ["src-ip", "dst-ip", "src-port", "dst-port", "protocol"];

/// The keywords of `kws` in the `.fab`'s order (`HashField::ALL`).
fn ordered(kws: &BTreeSet<&str>) -> Vec<&'static str> {
    HashField::ALL
        .into_iter()
        .map(HashField::keyword)
        .filter(|k| kws.contains(k))
        .collect()
}

fn no_keyword(what: &str, field: &str, at: Ev, notes: &mut Vec<Note>) {
    notes.push(Note::new(
        NoteKind::CannotCarry,
        at,
        format!("{what} hashes on `{field}`, which `load-balance {{ hash … }}` has no keyword for; the `.fab` states no hash"),
    ));
}

/// EOS: the words of a line; `None` when it is not `ip load-sharing trident fields ip …`.
pub(super) fn eos(words: &[&str], at: Ev, notes: &mut Vec<Note>) -> Option<Hash> {
    let ["ip", "load-sharing", "trident", "fields", "ip", fields @ ..] = words else {
        return None;
    };
    let mut kws = BTreeSet::new();
    for f in fields {
        let kw = match *f {
            "source-ip" => "src-ip",
            "destination-ip" => "dst-ip",
            "source-port" => "src-port",
            "destination-port" => "dst-port",
            other => {
                no_keyword("`ip load-sharing trident fields ip`", other, at, notes);
                return Some(None);
            }
        };
        kws.insert(kw);
    }
    Some(Some((ordered(&kws), at)))
}

/// NX-OS: the words of a line; `None` when it is not `ip load-sharing address …`.
pub(super) fn nxos(words: &[&str], at: Ev, notes: &mut Vec<Note>) -> Option<Hash> {
    let ["ip", "load-sharing", "address", rest @ ..] = words else {
        return None;
    };
    let ends = |w: &str, ip: bool| -> Option<Vec<&'static str>> {
        let (s, d) = if ip {
            ("src-ip", "dst-ip")
        } else {
            ("src-port", "dst-port")
        };
        match w {
            "source" => Some(vec![s]),
            "destination" => Some(vec![d]),
            "source-destination" => Some(vec![s, d]),
            _ => None,
        }
    };
    let mut kws = BTreeSet::new();
    let mut i = 0;
    let mut ip = true;
    while i < rest.len() {
        let w = rest[i];
        match w {
            "port" => ip = false,
            // The seed and the hash rotation change no field.
            "universal-id" | "rotate" => i += 1,
            _ => match ends(w, ip) {
                Some(f) => kws.extend(f),
                None => {
                    no_keyword("`ip load-sharing address`", w, at, notes);
                    return Some(None);
                }
            },
        }
        i += 1;
    }
    Some(Some((ordered(&kws), at)))
}

/// Junos: the `no-…` statements under `enhanced-hash-key inet` and `inet6`, and where the
/// first is. Both families take the hash the `.fab` states; where they differ, a note and no
/// hash.
pub(super) fn junos(
    inet: &BTreeSet<String>,
    inet6: &BTreeSet<String>,
    at: Option<Ev>,
    notes: &mut Vec<Note>,
) -> (Hash, Split) {
    let Some(at) = at else {
        return (None, None);
    };
    let kept = |excluded: &BTreeSet<String>, family: &str| -> BTreeSet<&'static str> {
        let mut kws: BTreeSet<&'static str> = FIVE.into_iter().collect();
        for st in excluded {
            let kw = match (family, st.as_str()) {
                (_, "no-l4-source-port") => "src-port",
                (_, "no-l4-destination-port") => "dst-port",
                ("inet", "no-ipv4-source-address") | ("inet6", "no-ipv6-source-address") => {
                    "src-ip"
                }
                ("inet", "no-ipv4-destination-address")
                | ("inet6", "no-ipv6-destination-address") => "dst-ip",
                ("inet", "no-protocol") | ("inet6", "no-next-header") => "protocol",
                // Statements that change no field of the five (`no-incoming-port`, …).
                _ => continue,
            };
            kws.remove(kw);
        }
        kws
    };
    let (v4, v6) = (kept(inet, "inet"), kept(inet6, "inet6"));
    if v4 != v6 {
        notes.push(Note::new(
            NoteKind::CannotCarry,
            at,
            format!(
                "`enhanced-hash-key` hashes IPv4 on `{}` and IPv6 on `{}`; `load-balance {{ hash … }}` states one hash for both, so the `.fab` states none",
                ordered(&v4).join(" "),
                ordered(&v6).join(" ")
            ),
        ));
        return (None, Some((ordered(&v4), ordered(&v6))));
    }
    (Some((ordered(&v4), at)), None)
}

/// NVUE: `ecmp-hash` field → (on, where); fields it does not state keep their defaults.
pub(super) fn nvue(stated: &BTreeMap<String, (bool, Ev)>, notes: &mut Vec<Note>) -> Hash {
    let at = stated.values().map(|x| x.1).min()?;
    let mut on: BTreeMap<&str, bool> = [
        ("source-ip", true),
        ("destination-ip", true),
        ("source-port", true),
        ("destination-port", true),
        ("ip-protocol", true),
        ("ipv6-label", true),
        ("ingress-interface", false),
    ]
    .into_iter()
    .collect();
    for (f, (v, _)) in stated {
        on.insert(f.as_str(), *v);
    }
    let mut kws = BTreeSet::new();
    for (f, _) in on.into_iter().filter(|x| x.1) {
        let kw = match f {
            "source-ip" => "src-ip",
            "destination-ip" => "dst-ip",
            "source-port" => "src-port",
            "destination-port" => "dst-port",
            "ip-protocol" => "protocol",
            other => {
                no_keyword("`ecmp-hash`", other, at, notes);
                return None;
            }
        };
        kws.insert(kw);
    }
    Some((ordered(&kws), at))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<&str> {
        s.split(' ').collect()
    }

    #[test]
    fn each_os_states_its_fields() {
        let at = Ev::default();
        let mut notes = Vec::new();
        let h = eos(
            &words(
                "ip load-sharing trident fields ip source-ip destination-ip source-port destination-port",
            ),
            at,
            &mut notes,
        );
        assert_eq!(
            h.unwrap().unwrap().0,
            ["src-ip", "dst-ip", "src-port", "dst-port"]
        );
        assert!(eos(&words("ip routing"), at, &mut notes).is_none());
        let h = nxos(
            &words(
                "ip load-sharing address source-destination port source-destination universal-id 1",
            ),
            at,
            &mut notes,
        );
        assert_eq!(
            h.unwrap().unwrap().0,
            ["src-ip", "dst-ip", "src-port", "dst-port"]
        );
        let h = nxos(
            &words("ip load-sharing address source-destination"),
            at,
            &mut notes,
        );
        assert_eq!(h.unwrap().unwrap().0, ["src-ip", "dst-ip"]);
        assert!(notes.is_empty());
        let h = eos(
            &words("ip load-sharing trident fields ip source-ip ingress-interface"),
            at,
            &mut notes,
        );
        assert_eq!(h, Some(None));
        let h = nxos(
            &words("ip load-sharing address source-destination gre-outer"),
            at,
            &mut notes,
        );
        assert_eq!(h, Some(None));
        assert_eq!(notes.len(), 2);
    }

    #[test]
    fn junos_and_nvue_remove_from_their_defaults() {
        let at = Some(Ev::default());
        let mut notes = Vec::new();
        let set = |v: &[&str]| v.iter().map(|s| (*s).to_string()).collect::<BTreeSet<_>>();
        let (h, split) = junos(
            &set(&["no-protocol"]),
            &set(&["no-next-header"]),
            at,
            &mut notes,
        );
        assert_eq!(h.unwrap().0, ["src-ip", "dst-ip", "src-port", "dst-port"]);
        assert!(split.is_none());
        assert_eq!(junos(&set(&[]), &set(&[]), None, &mut notes), (None, None));
        assert!(notes.is_empty());
        let (h, split) = junos(&set(&["no-protocol"]), &set(&[]), at, &mut notes);
        assert!(h.is_none());
        assert_eq!(
            split.unwrap().0,
            ["src-ip", "dst-ip", "src-port", "dst-port"]
        );
        assert_eq!(notes.len(), 1);
        let mut stated = BTreeMap::new();
        stated.insert("ip-protocol".to_string(), (false, Ev::default()));
        stated.insert("ipv6-label".to_string(), (false, Ev::default()));
        let h = nvue(&stated, &mut notes);
        assert_eq!(h.unwrap().0, ["src-ip", "dst-ip", "src-port", "dst-port"]);
        stated.insert("ingress-interface".to_string(), (true, Ev::default()));
        assert!(nvue(&stated, &mut notes).is_none());
        assert!(nvue(&BTreeMap::new(), &mut notes).is_none());
    }
}
