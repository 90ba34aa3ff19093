//! Escaping and validation of every string that reaches a generated file.
//!
//! In: names and free text from a context. Out: either a validated name (printed unquoted),
//! or a one-line, dialect-safe rendering of free text. Nothing from the source can add a
//! line, a statement separator (`;`), a comment (`#`, `!`) or a block (`{}`) to a config.

/// A fabric identifier: `[A-Za-z_][A-Za-z0-9_.-]*` (NAME in docs/language.md).
pub use crate::syntax::bounds::is_name as is_identifier;

/// A vendor port name: `Ethernet0`, `swp1`, `Ethernet1/1`, `et-0/0/0`, and Huawei VRP's
/// speed-prefixed `400GE1/0/1` / `400GE1/0/1:1` (the only shape that may start with a digit:
/// digits, `GE`, a digit).
pub fn is_port_name(s: &str) -> bool {
    let speed = s.trim_start_matches(|c: char| c.is_ascii_digit());
    if speed.len() != s.len() {
        let Some(rest) = speed.strip_prefix("GE") else {
            return false;
        };
        if !rest.starts_with(|c: char| c.is_ascii_digit()) {
            return false;
        }
        return s.len() <= 64 && rest.chars().all(port_name_char);
    }
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if c.is_ascii_alphabetic() => {}
        _ => return false,
    }
    // `:` for Junos channels (`et-0/0/0:1`, a broken-out cage); never followed by a space,
    // so a YAML plain scalar or key stays one.
    s.len() <= 64 && chars.all(port_name_char)
}

fn port_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '/' | '-' | '_' | '.' | ':')
}

/// A Linux netdev name (at most 15 bytes, no `/`, no whitespace).
pub fn is_netdev(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 15
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
}

/// An RDMA device name such as `mlx5_0`.
pub fn is_rdma_device(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
}

/// A PCI address such as `0000:3b:00.0`.
pub fn is_pci_address(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 16
        && s.chars()
            .all(|c| c.is_ascii_hexdigit() || c == ':' || c == '.')
}

/// Longest description kept; every target accepts at least this much.
const MAX_DESCRIPTION: usize = 200;

/// Free text reduced to characters that are inert in every dialect: letters, digits,
/// space and `_ . , : / ( ) @ + = -`. Everything else (newlines, quotes, `;`, `#`, `!`,
/// `{}`, `$`, backslash, non-ASCII) becomes `_`; runs of whitespace collapse. Why a
/// whitelist: the five CLI dialects, YAML and shell all disagree on what is special, and a
/// description is documentation, so losing a character is better than a second line.
pub fn sanitize_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut last_space = true;
    for c in s.chars() {
        let mapped = if c.is_whitespace() {
            ' '
        } else if c.is_ascii_alphanumeric() || "_.,:/()@+=-".contains(c) {
            c
        } else {
            '_'
        };
        if mapped == ' ' {
            if last_space {
                continue;
            }
            last_space = true;
        } else {
            last_space = false;
        }
        out.push(mapped);
        if out.len() >= MAX_DESCRIPTION {
            break;
        }
    }
    out.trim_end().to_string()
}

/// EOS / NX-OS `description <text>`: the rest of the line is the text.
pub fn cli_description(s: &str) -> String {
    sanitize_text(s)
}

/// Junos `description "<text>";` (quoted; the sanitized text has no `"` or `\`).
pub fn junos_string(s: &str) -> String {
    format!("\"{}\"", sanitize_text(s))
}

/// A shell word in single quotes; safe for any input.
pub fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// A YAML double-quoted scalar (a JSON string is one); safe for any input.
pub fn yaml_quote(s: &str) -> String {
    // serde_json cannot fail on a &str; fall back to an empty scalar rather than panic.
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_string())
}

/// A comment body for `#`/`!`-comment dialects: one line, sanitized.
pub fn comment_text(s: &str) -> String {
    sanitize_text(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOSTILE: &[&str] = &[
        "uplink\nshutdown",
        "a\"b",
        "x; rm -rf /",
        "# comment",
        "{ evil }",
        "line\r\nnext",
        "quote ' here",
        "back\\slash $(id) `id`",
        "! eos comment",
        "tab\there\u{2028}sep",
    ];

    #[test]
    fn identifiers() {
        for ok in ["leaf1", "_x", "a.b-c_d", "Spine-01"] {
            assert!(is_identifier(ok), "{ok}");
        }
        for bad in ["", "1a", "a b", "a;b", "a\nb", "a{b}", "a#", "-a"] {
            assert!(!is_identifier(bad), "{bad:?}");
        }
    }

    #[test]
    fn port_names() {
        for ok in [
            "Ethernet0",
            "swp1",
            "Ethernet1/1",
            "et-0/0/0",
            "400GE1/0/1",
            "400GE1/0/1:2",
        ] {
            assert!(is_port_name(ok), "{ok}");
        }
        for bad in [
            "", "eth 0", "e;x", "e\n", "0eth", "400GE", "400GEx", "4GE1 x",
        ] {
            assert!(!is_port_name(bad), "{bad:?}");
        }
    }

    #[test]
    fn sanitized_text_never_has_special_characters() {
        for s in HOSTILE {
            let out = sanitize_text(s);
            assert!(
                !out.chars()
                    .any(|c| "\n\r\"';#{}!$`\\".contains(c) || c.is_control()),
                "{s:?} -> {out:?}"
            );
            assert_eq!(out.lines().count().max(1), 1, "{s:?}");
        }
    }

    #[test]
    fn quoted_forms_stay_on_one_line() {
        for s in HOSTILE {
            assert_eq!(yaml_quote(s).lines().count(), 1, "{s:?}");
            let parsed: String = serde_yaml::from_str(&yaml_quote(s)).unwrap_or_default();
            assert_eq!(&parsed, s, "yaml round trip");
            let j = junos_string(s);
            assert!(j.starts_with('"') && j.ends_with('"'));
            assert!(!j[1..j.len() - 1].contains('"'));
            let sh = shell_quote(s);
            assert!(sh.starts_with('\'') && sh.ends_with('\''));
        }
    }

    #[test]
    fn long_text_is_cut() {
        let s = "x".repeat(1000);
        assert_eq!(sanitize_text(&s).len(), MAX_DESCRIPTION);
    }
}
