//! Where a catalogue number comes from: a file of a public repository at a commit
//! (`sonic-net/sonic-buildimage@086b03bd70f9:device/…/pg_profile_lookup.ini`), or a vendor
//! document by title and address (`Juniper, "Class of Service" (QFX5220/5230/5240) https://…`).

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Source(pub String);

/// The parts of a repository source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RepoRef<'a> {
    pub repo: &'a str,
    pub commit: &'a str,
    pub path: &'a str,
}

impl Source {
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// `owner/name@commit:path` split up, when this is a repository source.
    pub fn repo(&self) -> Option<RepoRef<'_>> {
        let (repo, rest) = self.0.split_once('@')?;
        let (commit, path) = rest.split_once(':')?;
        let (owner, name) = repo.split_once('/')?;
        let word = |s: &str| {
            !s.is_empty()
                && s.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        };
        let hex = (7..=40).contains(&commit.len()) && commit.bytes().all(|b| b.is_ascii_hexdigit());
        (word(owner)
            && word(name)
            && hex
            && !path.is_empty()
            && !path.contains(char::is_whitespace))
        .then_some(RepoRef { repo, commit, path })
    }

    /// The document's address, when this is a document source (`title https://…`).
    pub fn url(&self) -> Option<&str> {
        let at = self.0.find("https://")?;
        let title = self.0[..at].trim();
        let url = &self.0[at..];
        (!title.is_empty() && !url.contains(char::is_whitespace)).then_some(url)
    }

    /// A source fabricc may cite: a repository file at a commit or a titled public document.
    pub fn is_valid(&self) -> bool {
        self.repo().is_some() || self.url().is_some()
    }
}

/// One number of a catalogue entry with its source: where it sits in the entry (a JSON
/// pointer-like path, `cages/0/speed_gbps`), its value, the key it cites and what that key
/// stands for. `fabricc platforms --format json` lists these per entry.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SourcedNumber {
    pub path: String,
    pub value: serde_json::Value,
    /// The key of the entry's `sources` (`o64_pg_lookup`).
    pub source: String,
    /// What the key stands for: `repo@commit:path` or a document's title and address.
    pub cites: String,
}

/// Every number of `entry` (a serialised catalogue record) with the source that gives it:
/// the nearest enclosing object's `source` (a row of a table takes its table's). A number
/// inside `port_config` rows counts as its row: the whole row string is the value. `Err`
/// lists the numbers that have no source, or whose key is not in `sources`.
pub fn sourced_numbers<T: Serialize>(
    entry: &T,
    sources: &std::collections::BTreeMap<String, Source>,
) -> Result<Vec<SourcedNumber>, Vec<String>> {
    fn walk(
        v: &serde_json::Value,
        path: &str,
        inherited: Option<&str>,
        sources: &std::collections::BTreeMap<String, Source>,
        out: &mut Vec<SourcedNumber>,
        errors: &mut Vec<String>,
    ) {
        use serde_json::Value;
        let push =
            |value: &Value, out: &mut Vec<SourcedNumber>, errors: &mut Vec<String>| match inherited
            {
                Some(k) => match sources.get(k) {
                    Some(s) => out.push(SourcedNumber {
                        path: path.to_string(),
                        value: value.clone(),
                        source: k.to_string(),
                        cites: s.as_str().to_string(),
                    }),
                    None => errors.push(format!("{path}: source `{k}` is not in `sources`")),
                },
                None => errors.push(format!("{path}: {value} has no source")),
            };
        match v {
            Value::Object(m) => {
                // `source` names the object's numbers; `part_source`/`profiles_source` name a
                // field of it, which the object's `source` may not cover.
                let own = m.get("source").and_then(Value::as_str).or(inherited);
                for (k, child) in m {
                    if k == "sources" || k.ends_with("source") {
                        continue;
                    }
                    let src = match (k.as_str(), m.get("profiles_source").and_then(Value::as_str)) {
                        ("profiles", Some(p)) => Some(p),
                        _ => own,
                    };
                    let child_path = if path.is_empty() {
                        k.clone()
                    } else {
                        format!("{path}/{k}")
                    };
                    walk(child, &child_path, src, sources, out, errors);
                }
            }
            Value::Array(a) => {
                for (i, child) in a.iter().enumerate() {
                    walk(
                        child,
                        &format!("{path}/{i}"),
                        inherited,
                        sources,
                        out,
                        errors,
                    );
                }
            }
            Value::Number(_) => push(v, out, errors),
            // A `port_config.ini` row: name, lanes, alias, index, speed in one string.
            Value::String(s)
                if path.contains("/port_config/rows/") && s.bytes().any(|b| b.is_ascii_digit()) =>
            {
                push(v, out, errors)
            }
            _ => {}
        }
    }
    let value = serde_json::to_value(entry).map_err(|e| vec![e.to_string()])?;
    let (mut out, mut errors) = (Vec::new(), Vec::new());
    walk(&value, "", None, sources, &mut out, &mut errors);
    errors.extend(
        out.iter()
            .filter(|n| sources.get(&n.source).is_some_and(|s| !s.is_valid()))
            .map(|n| format!("{}: source `{}` is not a citation", n.path, n.source)),
    );
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn case(text: &str, repo: bool, doc: bool) {
        let s = Source(text.into());
        assert_eq!(s.repo().is_some(), repo, "{text}: repository form");
        assert_eq!(s.url().is_some(), doc, "{text}: document form");
    }

    #[test]
    fn forms() {
        case(
            "sonic-net/sonic-buildimage@086b03bd70f9:device/mellanox/x86_64-nvidia_sn5600-r0/ACS-SN5600/pg_profile_lookup.ini",
            true,
            false,
        );
        case(
            "sonic-net/sonic-swss@e6b0c5b5d2ab:cfgmgr/buffer_pool_mellanox.lua:283",
            true,
            false,
        );
        case(
            "Juniper, Class of Service (QFX5220, QFX5230, QFX5240, QFX5241) https://www.juniper.net/x.html",
            false,
            true,
        );
        case("sonic-net/sonic-buildimage:device/x", false, false);
        // not a citation: a branch, which the catalogue must refuse
        case("sonic-net/sonic-buildimage@main:device/x", false, false); // not a citation:
        case("https://example.com/no-title", false, false); // not a citation:
        case("a guess", false, false);
    }
}
