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
