//! The checks every catalogue record shares: names and source keys.

use super::Source;

/// A platform name is lower-case `vendor-model`: letters, digits and `-`, one `-` at least.
pub(crate) fn valid_name(name: &str) -> bool {
    name.contains('-')
        && !name.starts_with('-')
        && !name.ends_with('-')
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// Checks that `key` names an entry of `sources`; records an error for `place` otherwise.
pub(crate) fn check_key(
    sources: &std::collections::BTreeMap<String, Source>,
    key: &str,
    place: &str,
    errors: &mut Vec<String>,
) {
    if !sources.contains_key(key) {
        errors.push(format!("{place}: source `{key}` is not in `sources`"));
    }
}

/// A line-card name is the card's model in lower case: letters, digits and `-`, starting with
/// a letter or digit (`7800r3a-36d`), as `linecard SLOTS NAME` writes it.
pub(crate) fn valid_card_name(name: &str) -> bool {
    name.bytes()
        .next()
        .is_some_and(|b| b.is_ascii_alphanumeric())
        && !name.ends_with('-')
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}
