//! Huawei VRP (CloudEngine): `display current-configuration` text and fabricc's `qos.cfg` as
//! paths (issue 35).
//!
//! Both print a view's lines with one space of indent under the line that entered it
//! (`interface 400GE1/0/1`, `dcb pfc FABRICC_ROCE`, `drop-profile FABRICC_Q3`); `#` lines
//! separate sections and `!`/`return` lines are not configuration. A top-level line with no
//! indented line under it is a system-view command. Every line becomes a path of its view,
//! its key and its value, the key being the command's leading words for a command that holds
//! one value per object ([`key_of`]: `qos queue 3 wred` → `FABRICC_Q3`, `ip-dscp-inbound 26`
//! → `phb af3 green`), so a changed value is one difference. `priority 3 4` in a PFC profile is
//! one path per priority (the command accumulates), and `qos drr 0 3 to 4` one per queue.
//!
//! fabricc's own file ([`fragment`]) removes before it writes: its `undo …` lines and its
//! `qos pq …` lines (PQ is VRP's default, which the device does not print) are no settings.
//!
//! Owned scope ([`Scope`]): a view fabricc writes (its profiles, its DiffServ domain,
//! `load-balance ecmp`) is fabricc's whole; in an `interface` view only the commands whose
//! first word fabricc writes there (`description`, `mtu`, `trust`, `dcb`, `qos`), never `ip
//! address`; a system-view command when its first two words are those of one fabricc writes
//! (`dcb pfc …`, `qos ecn …`, `qos buffer …`).
//!
//! Not known without a device: whether VRP prints all 64 `ip-dscp-inbound` entries of a
//! DiffServ domain or only those that differ from its default table; fabricc compares the
//! 64 it writes (docs/targets.md, open questions).

use std::collections::HashSet;

use super::canon::{Builder, Canon, Loc, segments};

/// The key of a command: the leading words of a command with one value per object.
pub fn key_of(line: &str) -> String {
    let w: Vec<&str> = line.split_whitespace().collect();
    let lead = |n: usize| w[..n.min(w.len())].join(" ");
    match w.as_slice() {
        ["qos", "queue", _, "drr", "weight", ..] => lead(5),
        ["qos", "queue", _, "wred", ..] => lead(4),
        ["priority", _, "deadlock-detect" | "deadlock-recovery", ..] => lead(3),
        ["dcb", "pfc", "buffer", _, _, ..] => lead(5),
        ["dcb", "pfc", "deadlock", "recovery-behavior", _, "slot", s] => {
            format!("dcb pfc deadlock recovery-behavior slot {s}")
        }
        ["qos", "buffer", "headroom-pool", .., "slot", s] => {
            format!("qos buffer headroom-pool slot {s}")
        }
        ["dcb", "pfc", "deadlock-detect" | "deadlock-recovery", _, ..] => lead(4),
        ["dcb", "pfc", "enable", ..] => lead(3),
        ["trust", "upstream", ..] | ["ip-dscp-inbound", _, ..] | ["ip", "address", ..] => lead(2),
        ["description" | "mtu" | "ecn" | "ip", ..] => lead(1),
        _ => w.join(" "),
    }
}

/// `1 to 3 5` → 1, 2, 3, 5; `None` for anything else.
fn queue_list(words: &[&str]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let a: u8 = words[i].parse().ok()?;
        if words.get(i + 1) == Some(&"to") {
            let b: u8 = words.get(i + 2)?.parse().ok()?;
            out.extend(a..=b.max(a));
            i += 3;
        } else {
            out.push(a);
            i += 1;
        }
    }
    Some(out)
}

/// `(key, value)` settings of one line.
fn settings(line: &str) -> Vec<(String, String)> {
    let w: Vec<&str> = line.split_whitespace().collect();
    match w.as_slice() {
        ["priority", ps @ ..] if !ps.is_empty() && ps.iter().all(|p| p.parse::<u8>().is_ok()) => ps
            .iter()
            .map(|p| (format!("priority {p}"), "on".to_string()))
            .collect(),
        ["qos", mode @ ("pq" | "drr"), rest @ ..] => match queue_list(rest) {
            Some(qs) => qs
                .into_iter()
                .map(|q| (format!("qos queue {q} mode"), (*mode).to_string()))
                .collect(),
            None => vec![(line.to_string(), String::new())],
        },
        _ => {
            let key = key_of(line);
            let value = line
                .strip_prefix(key.as_str())
                .map(str::trim)
                .unwrap_or_default()
                .to_string();
            vec![(key, value)]
        }
    }
}

struct Line {
    indent: usize,
    text: String,
    start: usize,
    end: usize,
}

fn lines(text: &str, skip: impl Fn(&str) -> bool) -> Vec<Line> {
    let mut out = Vec::new();
    let mut offset = 0;
    for raw in text.split_inclusive('\n') {
        let start = offset;
        offset += raw.len();
        let body = raw.trim_end_matches(['\n', '\r']).trim_end();
        let trimmed = body.trim_start();
        if trimmed.is_empty()
            || trimmed.starts_with('#')
            || trimmed.starts_with('!')
            || trimmed == "return"
            || skip(trimmed)
        {
            // A separator ends the view; so does a skipped top-level line.
            if body.len() == trimmed.len() {
                out.push(Line {
                    indent: 0,
                    text: String::new(),
                    start,
                    end: start,
                });
            }
            continue;
        }
        let indent = body.len() - trimmed.len();
        out.push(Line {
            indent,
            text: trimmed.split_whitespace().collect::<Vec<_>>().join(" "),
            start: start + indent,
            end: start + body.len(),
        });
    }
    out
}

fn build(text: &str, skip: impl Fn(&str) -> bool) -> Canon {
    let lines = lines(text, skip);
    let mut c = Builder::bounded(text.len());
    let mut header: Option<&str> = None;
    for (i, line) in lines.iter().enumerate() {
        if line.text.is_empty() {
            header = None;
            continue;
        }
        let at = Loc::new(line.start, line.end);
        if line.indent == 0 {
            let opens = lines
                .get(i + 1)
                .is_some_and(|n| n.indent > 0 && !n.text.is_empty());
            if opens {
                header = Some(&line.text);
                continue;
            }
            header = None;
            for (k, v) in settings(&line.text) {
                c.insert(&[k.as_str(), v.as_str()], at);
            }
            continue;
        }
        let Some(h) = header else {
            // An indented line outside a view: keep it as a system command.
            for (k, v) in settings(&line.text) {
                c.insert(&[k.as_str(), v.as_str()], at);
            }
            continue;
        };
        for (k, v) in settings(&line.text) {
            c.insert(&[h, k.as_str(), v.as_str()], at);
        }
    }
    c.build()
}

/// The settings of a `display current-configuration` text.
pub fn canon(text: &str) -> Canon {
    build(text, |_| false)
}

/// The settings fabricc's `qos.cfg` leaves on a device: its `undo` lines and its `qos pq`
/// lines (VRP's default) are none. Offsets stay those of the file.
pub fn fragment(text: &str) -> Canon {
    build(text, |l| l.starts_with("undo ") || l.starts_with("qos pq "))
}

/// What of a device's configuration fabricc owns, from what it generated.
pub struct Scope {
    /// First two words of the fragment's system-view commands.
    top: HashSet<String>,
    /// The fragment's views.
    views: HashSet<String>,
    /// First words of the commands the fragment writes in interfaces.
    port_words: HashSet<String>,
}

fn first_words(s: &str, n: usize) -> String {
    s.split(' ').take(n).collect::<Vec<_>>().join(" ")
}

impl Scope {
    pub fn new(expected: &Canon) -> Self {
        let mut top = HashSet::new();
        let mut views = HashSet::new();
        let mut port_words = HashSet::new();
        for key in expected.paths() {
            let p: Vec<&str> = segments(key).collect();
            if p.len() == 2 {
                top.insert(first_words(p[0], 2));
            } else if let Some(h) = p.first() {
                views.insert((*h).to_string());
                if h.starts_with("interface ")
                    && let Some(k) = p.get(1)
                {
                    port_words.insert(first_words(k, 1));
                }
            }
        }
        Scope {
            top,
            views,
            port_words,
        }
    }

    pub fn owns(&self, p: &[&str]) -> bool {
        if p.len() == 2 {
            return self.top.contains(&first_words(p[0], 2));
        }
        let Some(header) = p.first() else {
            return false;
        };
        if !self.views.contains(*header) {
            return false;
        }
        if header.starts_with("interface ") {
            return p
                .get(1)
                .is_some_and(|k| self.port_words.contains(&first_words(k, 1)));
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(c: &Canon) -> Vec<String> {
        c.path_vecs().iter().map(|p| p.join(" | ")).collect()
    }

    #[test]
    fn views_keys_and_lists() {
        let text = "#\ndcb pfc deadlock-detect timer 200\n#\ndcb pfc FABRICC_ROCE\n priority 3 4\n#\ninterface 400GE1/0/1\n ip address 10.0.0.1 255.255.255.254\n qos drr 0 3 to 4\n qos queue 3 wred FABRICC_Q3\n#\nreturn\n";
        let p = paths(&canon(text));
        assert!(
            p.contains(&"dcb pfc deadlock-detect timer | 200".to_string()),
            "{p:?}"
        );
        assert!(
            p.contains(&"dcb pfc FABRICC_ROCE | priority 4 | on".to_string()),
            "{p:?}"
        );
        assert!(p.contains(&"interface 400GE1/0/1 | qos queue 4 mode | drr".to_string()));
        assert!(p.contains(&"interface 400GE1/0/1 | qos queue 3 wred | FABRICC_Q3".to_string()));
        let frag =
            fragment("interface 400GE1/0/1\n undo qos queue 1 ecn\n qos pq 1\n mtu 9216\n#\n");
        assert_eq!(
            paths(&frag),
            vec!["interface 400GE1/0/1 | mtu | 9216".to_string()]
        );
        let scope = Scope::new(&fragment(
            "interface 400GE1/0/1\n mtu 9216\n qos queue 3 ecn\n undo qos queue 4 ecn\n#\n",
        ));
        assert!(scope.owns(&["interface 400GE1/0/1", "qos queue 3 ecn", ""]));
        assert!(!scope.owns(&["interface 400GE1/0/1", "ip address", "x"]));
        assert!(!scope.owns(&["interface 400GE1/0/9", "qos queue 3 ecn", ""]));
    }
}
