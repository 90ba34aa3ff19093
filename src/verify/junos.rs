//! Junos: `show configuration` (the curly form) or `show configuration | display set`, and
//! fabricc's fragment, as the words of `set` statements.
//!
//! Junos prints the same configuration in both forms; `| display set` gives each leaf
//! statement as `set` and the words of every enclosing statement ("Displaying the Current
//! Junos OS Configuration in set format", Juniper CLI User Guide,
//! https://www.juniper.net/documentation/us/en/software/junos/cli/topics/topic-map/junos-configuration-display.html).
//! So a curly text becomes the same words: every statement that ends in `;` is one path of
//! its enclosing statements' words and its own.
//!
//! Normalisations (the same on both sides):
//! * A list `[ a b c ]` is one path per item: `display set` prints `code-points [ … ]` items
//!   one statement each, or the list in brackets, depending on the release; one per item
//!   covers both.
//! * Quotes: `"gpu1 nic1"` is the word `gpu1 nic1`.
//! * Comments (`/* … */`, `#` to the end of the line, the `## Last commit` header) and
//!   annotations are not configuration.
//! * Inactive statements: `inactive: x { … }` (curly) and `deactivate x` (set form) are not in
//!   effect, so they and everything under them count as absent.
//! * Other markers a statement may carry (`protect:`, `replace:`, `delete:`) are dropped:
//!   `show configuration` never prints `replace:`/`delete:`, which act only while loading.
//! * Configuration groups: `groups G …` of a group named in the top-level `apply-groups` reads
//!   as the statements it gives (fabricc's file is the group `fabricc`); see `Groups`.
//!
//! Owned scope (paths that fabricc did not generate but owns):
//! * `interfaces <port>`: for a port fabricc configures, the statements whose first word
//!   fabricc writes there (`description`, `mtu`), never `unit … family inet address`;
//! * `class-of-service interfaces <port>`: everything, for a port fabricc configures (another
//!   classifier on a unit, a rewrite rule);
//! * `class-of-service forwarding-classes` and `shared-buffer`: everything (another no-loss
//!   class, another buffer partition);
//! * a named object fabricc writes (`class-of-service schedulers s-roce`, `drop-profiles …`,
//!   `congestion-notification-profile …`, `classifiers dscp fabricc-dscp`): everything in it.
//!   Other objects of those kinds act only when an interface or a map refers to them, and that
//!   reference is compared where it is made.

use std::collections::HashSet;

use super::canon::{Builder, Canon, Loc, key_of, segments};
use crate::render::junos::CLASSIFIER;

/// The deepest nesting of `{ }` accepted.
pub const MAX_DEPTH: usize = 128;

/// Why a text is not a Junos configuration: at which byte, and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub offset: usize,
    pub message: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    Word(String),
    Open,
    Close,
    Semi,
    List(Vec<String>),
}

struct Token {
    tok: Tok,
    start: usize,
    end: usize,
    /// The first token on its line (a `set` line starts there).
    line_start: bool,
}

fn tokens(text: &str) -> Result<Vec<Token>, Error> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    while i < b.len() {
        let c = b[i];
        match c {
            b'\n' => {
                line_start = true;
                i += 1;
                continue;
            }
            b' ' | b'\t' | b'\r' => {
                i += 1;
                continue;
            }
            b'#' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let Some(end) = text[i + 2..].find("*/") else {
                    return Err(Error {
                        offset: i,
                        message: "a comment `/*` is not closed by `*/`".into(),
                    });
                };
                i += end + 4;
                continue;
            }
            _ => {}
        }
        let start = i;
        let tok = match c {
            b'{' => {
                i += 1;
                Tok::Open
            }
            b'}' => {
                i += 1;
                Tok::Close
            }
            b';' => {
                i += 1;
                Tok::Semi
            }
            b'[' => {
                i += 1;
                let mut items = Vec::new();
                loop {
                    while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\r' | b'\n') {
                        i += 1;
                    }
                    match b.get(i) {
                        Some(b']') => {
                            i += 1;
                            break;
                        }
                        Some(b'"') => {
                            let (w, next) = quoted(text, i)?;
                            items.push(w);
                            i = next;
                        }
                        Some(_) => {
                            let from = i;
                            while i < b.len() && !is_break(b[i]) && b[i] != b']' {
                                i += 1;
                            }
                            if i == from {
                                return Err(Error {
                                    offset: i,
                                    message: "expected a list item or `]`".into(),
                                });
                            }
                            items.push(text[from..i].to_string());
                        }
                        None => {
                            return Err(Error {
                                offset: start,
                                message: "a list `[` is not closed by `]`".into(),
                            });
                        }
                    }
                }
                Tok::List(items)
            }
            b'"' => {
                let (w, next) = quoted(text, i)?;
                i = next;
                Tok::Word(w)
            }
            b']' => {
                return Err(Error {
                    offset: i,
                    message: "`]` without `[`".into(),
                });
            }
            _ => {
                while i < b.len() && !is_break(b[i]) {
                    i += 1;
                }
                Tok::Word(text[start..i].to_string())
            }
        };
        out.push(Token {
            tok,
            start,
            end: i,
            line_start,
        });
        line_start = false;
    }
    Ok(out)
}

fn is_break(b: u8) -> bool {
    matches!(
        b,
        b' ' | b'\t' | b'\r' | b'\n' | b'{' | b'}' | b';' | b'[' | b'"'
    )
}

/// A double-quoted string starting at `i`: its text and the byte after the closing quote.
fn quoted(text: &str, i: usize) -> Result<(String, usize), Error> {
    let b = text.as_bytes();
    let mut j = i + 1;
    let mut out = String::new();
    let mut run = j;
    while j < b.len() {
        match b[j] {
            b'"' => {
                out.push_str(&text[run..j]);
                return Ok((out, j + 1));
            }
            b'\\' if j + 1 < b.len() => {
                out.push_str(&text[run..j]);
                let next = text[j + 1..].chars().next().unwrap_or('\\');
                out.push(next);
                j += 1 + next.len_utf8();
                run = j;
            }
            _ => j += 1,
        }
    }
    Err(Error {
        offset: i,
        message: "a string `\"` is not closed".into(),
    })
}

/// The settings of a configuration in either form.
pub fn canon(text: &str) -> Result<Canon, Error> {
    let toks = tokens(text)?;
    let set_form = toks
        .first()
        .is_some_and(|t| matches!(&t.tok, Tok::Word(w) if w == "set" || w == "deactivate"));
    let groups = Groups::applied(&toks, set_form);
    if set_form {
        set_lines(&toks, text.len(), &groups)
    } else {
        curly(&toks, text.len(), &groups)
    }
}

/// Configuration groups in effect: the names in the top-level `apply-groups`.
///
/// Junos applies a group's statements where they would stand in the configuration: "The
/// individual software processes that perform the actions directed by the configuration
/// receive the expanded form of the configuration; they have no knowledge of configuration
/// groups", and "all values are inherited" for sets ("Use Configuration Groups to Quickly
/// Configure Devices", Junos CLI User Guide, juniper.net/documentation/us/en/software/junos/
/// cli/topics/topic-map/configuration-groups-usage.html). So `groups G rest…` of an applied
/// group reads as `rest…`, the statements of groups not applied count as absent, and
/// `apply-groups` itself is no setting. A statement configured outside the group on the same
/// path overrides the group's value; both are kept here, so verify reports the one fabricc
/// did not write. Wildcard names (`<et-*>`) stay literal.
struct Groups {
    applied: HashSet<String>,
}

impl Groups {
    fn applied(toks: &[Token], set_form: bool) -> Self {
        let mut applied = HashSet::new();
        if set_form {
            let mut i = 0;
            while i < toks.len() {
                let start = i;
                i += 1;
                while i < toks.len() && !toks[i].line_start {
                    i += 1;
                }
                let line: Vec<Tok> = toks[start..i].iter().map(|t| t.tok.clone()).collect();
                if let [Tok::Word(verb), Tok::Word(kw), rest @ ..] = &line[..]
                    && verb == "set"
                    && kw == "apply-groups"
                {
                    for p in expand(rest) {
                        applied.extend(p);
                    }
                }
            }
        } else {
            let mut depth = 0usize;
            let mut words: Vec<Tok> = Vec::new();
            for t in toks {
                match &t.tok {
                    Tok::Open => {
                        depth += 1;
                        words.clear();
                    }
                    Tok::Close => {
                        depth = depth.saturating_sub(1);
                        words.clear();
                    }
                    Tok::Semi => {
                        if depth == 0
                            && let [Tok::Word(kw), rest @ ..] = &words[..]
                            && kw == "apply-groups"
                        {
                            for p in expand(rest) {
                                applied.extend(p);
                            }
                        }
                        words.clear();
                    }
                    Tok::Word(w) if words.is_empty() && is_marker(w) => {}
                    other => words.push(other.clone()),
                }
            }
        }
        Groups { applied }
    }

    /// The path a statement stands for: lifted out of an applied group, or none.
    fn effective<'a>(&self, p: &'a [String]) -> Option<&'a [String]> {
        match p {
            [kw, ..] if kw == "apply-groups" => None,
            [kw, name, rest @ ..] if kw == "groups" => {
                (self.applied.contains(name) && !rest.is_empty()).then_some(rest)
            }
            [kw] if kw == "groups" => None,
            _ => Some(p),
        }
    }
}

/// Words of a statement, with each list expanded: one word sequence per list item.
fn expand(words: &[Tok]) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = vec![Vec::new()];
    for t in words {
        match t {
            Tok::Word(w) => out.iter_mut().for_each(|p| p.push(w.clone())),
            Tok::List(items) if !items.is_empty() => {
                out = out
                    .into_iter()
                    .flat_map(|p| {
                        items.iter().map(move |it| {
                            let mut q = p.clone();
                            q.push(it.clone());
                            q
                        })
                    })
                    .collect();
            }
            _ => {}
        }
    }
    out
}

fn is_marker(w: &str) -> bool {
    w.ends_with(':') && w.len() > 1 && w[..w.len() - 1].bytes().all(|b| b.is_ascii_lowercase())
}

fn curly(toks: &[Token], len: usize, groups: &Groups) -> Result<Canon, Error> {
    let mut c = Builder::bounded(len);
    // Open statements: their words, and whether they are inactive.
    let mut stack: Vec<(Vec<String>, bool)> = Vec::new();
    let mut words: Vec<Tok> = Vec::new();
    let mut inactive = false;
    let mut first = 0;
    for (idx, t) in toks.iter().enumerate() {
        // Past the budget nothing more is kept: stop, rather than copy a long parent path into
        // every later statement (a megabyte-long header over 200,000 statements took a minute).
        if c.is_exceeded() {
            return Ok(c.build());
        }
        match &t.tok {
            Tok::Word(w) if words.is_empty() && is_marker(w) => {
                if w == "inactive:" {
                    inactive = true;
                }
                continue;
            }
            Tok::Word(_) | Tok::List(_) => {
                if words.is_empty() {
                    first = idx;
                }
                words.push(t.tok.clone());
            }
            Tok::Semi => {
                if !words.is_empty() {
                    let off = stack.iter().any(|(_, i)| *i) || inactive;
                    if !off {
                        let parent: Vec<String> =
                            stack.iter().flat_map(|(w, _)| w.iter().cloned()).collect();
                        for tail in expand(&words) {
                            let mut p = parent.clone();
                            p.extend(tail);
                            if let Some(p) = groups.effective(&p) {
                                c.insert(p, Loc::new(toks[first].start, t.end));
                            }
                        }
                    }
                }
                words.clear();
                inactive = false;
            }
            Tok::Open => {
                if stack.len() >= MAX_DEPTH {
                    return Err(Error {
                        offset: t.start,
                        message: format!("more than {MAX_DEPTH} levels of `{{`"),
                    });
                }
                let head = expand(&words).into_iter().next().unwrap_or_default();
                stack.push((head, inactive));
                words.clear();
                inactive = false;
            }
            Tok::Close => {
                if !words.is_empty() {
                    return Err(Error {
                        offset: t.start,
                        message: "expected `;` before `}`".into(),
                    });
                }
                if stack.pop().is_none() {
                    return Err(Error {
                        offset: t.start,
                        message: "`}` without a matching `{`".into(),
                    });
                }
                inactive = false;
            }
        }
    }
    if !words.is_empty() {
        let at = toks.get(first).map_or(0, |t| t.start);
        return Err(Error {
            offset: at,
            message: "a statement does not end with `;` or `{`".into(),
        });
    }
    if !stack.is_empty() {
        return Err(Error {
            offset: toks.last().map_or(0, |t| t.end),
            message: format!("{} `{{` not closed by `}}`", stack.len()),
        });
    }
    Ok(c.build())
}

fn set_lines(toks: &[Token], len: usize, groups: &Groups) -> Result<Canon, Error> {
    let mut c = Builder::bounded(len);
    let mut off: Vec<Vec<String>> = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let start = i;
        i += 1;
        while i < toks.len() && !toks[i].line_start {
            i += 1;
        }
        let line = &toks[start..i];
        let Some(Tok::Word(verb)) = line.first().map(|t| &t.tok) else {
            return Err(Error {
                offset: line[0].start,
                message: "expected `set` at the start of the line".into(),
            });
        };
        if line[1..]
            .iter()
            .any(|t| matches!(t.tok, Tok::Open | Tok::Close | Tok::Semi))
        {
            return Err(Error {
                offset: line[0].start,
                message: "a `set` line holds `{`, `}` or `;` (is the text curly?)".into(),
            });
        }
        let body: Vec<Tok> = line[1..].iter().map(|t| t.tok.clone()).collect();
        let at = Loc::new(line[0].start, line[line.len() - 1].end);
        match verb.as_str() {
            "set" => {
                for p in expand(&body) {
                    if let Some(p) = groups.effective(&p).filter(|p| !p.is_empty()) {
                        c.insert(p, at);
                    }
                }
            }
            "deactivate" => off.extend(
                expand(&body)
                    .iter()
                    .filter_map(|p| groups.effective(p).map(<[String]>::to_vec)),
            ),
            // `activate`, `delete`, `protect` … are not in `display set` output.
            _ => {}
        }
    }
    if !off.is_empty() {
        let off: Vec<String> = off
            .iter()
            .filter(|o| !o.is_empty())
            .map(|o| key_of(o))
            .collect();
        c.retain(|k| {
            !off.iter().any(|o| {
                k.starts_with(o.as_str())
                    && (k.len() == o.len() || k[o.len()..].starts_with(super::canon::SEP))
            })
        });
    }
    Ok(c.build())
}

/// What of a device's Junos configuration fabricc owns, from what it generated.
pub struct Scope {
    /// Every prefix (up to four words) of a generated path, as a key.
    expected_prefixes: HashSet<String>,
    interface_families: HashSet<String>,
}

impl Scope {
    pub fn new(expected: &Canon) -> Self {
        let mut expected_prefixes = HashSet::new();
        let mut interface_families = HashSet::new();
        for key in expected.paths() {
            let p: Vec<&str> = segments(key).collect();
            for k in 1..=p.len().min(4) {
                expected_prefixes.insert(key_of(&p[..k]));
            }
            if p.first() == Some(&"interfaces")
                && let Some(f) = p.get(2)
            {
                interface_families.insert((*f).to_string());
            }
        }
        Scope {
            expected_prefixes,
            interface_families,
        }
    }

    fn has(&self, prefix: &[&str]) -> bool {
        self.expected_prefixes.contains(&key_of(prefix))
    }

    pub fn owns(&self, p: &[&str]) -> bool {
        // fabricc's own names own their objects, and a binding to them, wherever they stand:
        // what a fabricc file from before the group `fabricc` (a `load merge` fragment) left
        // outside it, or a port that kept one after leaving the fabric, is reported.
        let fabricc_name = |w: &str| {
            w.starts_with("sm-fabricc") || w.starts_with("cnp-fabricc") || w == CLASSIFIER
        };
        match p {
            ["class-of-service", _, name, ..] if fabricc_name(name) => return true,
            ["class-of-service", "interfaces", _, .., last] if fabricc_name(last) => return true,
            _ => {}
        }
        match p {
            ["interfaces", _, family, _, ..] => {
                self.has(&p[..2]) && self.interface_families.contains(*family)
            }
            ["class-of-service", "interfaces", _, ..] => self.has(&p[..3]),
            ["class-of-service", "classifiers", _, _, ..] => self.has(&p[..4]),
            [
                "class-of-service",
                "forwarding-classes" | "shared-buffer",
                ..,
            ] => self.has(&p[..2]),
            [_, _, _, ..] => self.has(&p[..3]),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(c: &Canon) -> Vec<String> {
        c.path_vecs().iter().map(|p| p.join(" ")).collect()
    }

    const CURLY: &str = "## Last commit: 2026-01-01 by admin\nversion 23.4R1;\n/* fabricc */\nclass-of-service {\n    drop-profiles {\n        dp {\n            interpolate {\n                fill-level [ 1 3 ];\n                drop-probability [ 0 100 ];\n            }\n        }\n    }\n    forwarding-classes {\n        class roce queue-num 3 no-loss pfc-priority 3;\n    }\n    inactive: schedulers {\n        s { priority high; }\n    }\n}\ninterfaces {\n    et-0/0/0 {\n        description \"gpu1 nic1\";\n    }\n}\n";

    const SET: &str = "set version 23.4R1\nset class-of-service drop-profiles dp interpolate fill-level 1\nset class-of-service drop-profiles dp interpolate fill-level 3\nset class-of-service drop-profiles dp interpolate drop-probability [ 0 100 ]\nset class-of-service forwarding-classes class roce queue-num 3 no-loss pfc-priority 3\nset class-of-service schedulers s priority high\ndeactivate class-of-service schedulers\nset interfaces et-0/0/0 description \"gpu1 nic1\"\n";

    #[test]
    fn curly_and_set_forms_agree() {
        let a = canon(CURLY).unwrap();
        let b = canon(SET).unwrap();
        assert_eq!(set(&a), set(&b));
        assert!(set(&a).contains(&"interfaces et-0/0/0 description gpu1 nic1".to_string()));
        assert!(!set(&a).iter().any(|p| p.contains("schedulers")));
    }

    #[test]
    fn applied_groups_read_as_their_statements() {
        // fabricc's file (with its load-time `replace:` tag) and the device's printed
        // configuration, curly and `display set`, read alike.
        let file = "groups {\n    replace:\n    fabricc {\n        interfaces { et-0/0/0 { mtu 9216; } }\n    }\n    other { system { host-name x; } }\n}\napply-groups fabricc;\ninterfaces { et-0/0/0 { unit 0 { family inet; } } }\n";
        let device = "groups { fabricc { interfaces { et-0/0/0 { mtu 9216; } } } other { system { host-name x; } } }\napply-groups fabricc;\ninterfaces { et-0/0/0 { unit 0 { family inet; } } }\n";
        let setf = "set groups fabricc interfaces et-0/0/0 mtu 9216\nset groups other system host-name x\nset apply-groups fabricc\nset interfaces et-0/0/0 unit 0 family inet\n";
        let want = vec![
            "interfaces et-0/0/0 mtu 9216".to_string(),
            "interfaces et-0/0/0 unit 0 family inet".to_string(),
        ];
        for t in [file, device, setf] {
            assert_eq!(set(&canon(t).unwrap()), want, "{t}");
        }
        // A group not applied is not in effect.
        let off = "groups { fabricc { interfaces { et-0/0/0 { mtu 9216; } } } }\n";
        assert!(set(&canon(off).unwrap()).is_empty());
    }

    #[test]
    fn errors() {
        assert!(canon("a {\n b;\n").is_err());
        assert!(canon("a }").is_err());
        assert!(canon("a b").is_err());
        assert!(canon("a \"b;").is_err());
        assert!(canon(&"a {".repeat(1000)).is_err());
        assert!(canon("a [ b c ;").is_err());
    }

    #[test]
    fn scope() {
        let e = canon("interfaces { et-0/0/0 { mtu 9216; } }\nclass-of-service { forwarding-classes { class roce queue-num 3; } schedulers { s-roce { priority low; } } interfaces { et-0/0/0 { scheduler-map sm; } } }").unwrap();
        let s = Scope::new(&e);
        let p = |t: &'static str| t.split(' ').collect::<Vec<_>>();
        assert!(s.owns(&p(
            "class-of-service forwarding-classes class old queue-num 4 no-loss"
        )));
        assert!(s.owns(&p(
            "class-of-service interfaces et-0/0/0 unit 0 classifiers dscp other"
        )));
        assert!(!s.owns(&p("class-of-service interfaces et-0/0/9 scheduler-map x")));
        // fabricc's names, left outside the group by an earlier file, or on a port that left.
        assert!(s.owns(&p(
            "class-of-service scheduler-maps sm-fabricc-3 forwarding-class x scheduler s"
        )));
        assert!(s.owns(&p(
            "class-of-service congestion-notification-profile cnp-fabricc-30m input cable-length 30"
        )));
        assert!(s.owns(&p(
            "class-of-service interfaces et-0/0/9 scheduler-map sm-fabricc"
        )));
        assert!(s.owns(&p(
            "class-of-service interfaces et-0/0/9 unit 0 classifiers dscp fabricc-dscp"
        )));
        assert!(!s.owns(&p(
            "class-of-service scheduler-maps sm-other forwarding-class x scheduler s"
        )));
        assert!(s.owns(&p(
            "class-of-service schedulers s-roce buffer-size percent 5"
        )));
        assert!(!s.owns(&p("class-of-service schedulers s-old priority low")));
        assert!(s.owns(&p("interfaces et-0/0/0 mtu 1500")));
        assert!(!s.owns(&p(
            "interfaces et-0/0/0 unit 0 family inet address 10.0.0.1/31"
        )));
        assert!(!s.owns(&p("protocols bgp group g neighbor 10.0.0.1")));
    }
}
