//! `manifest.json`: every generated file with its device, kind, target and SHA-256, sorted by
//! path. It is also how the next build recognises its own files (and leaves all others alone).

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::render::{Artifact, ArtifactKind};

/// The manifest's file name in the output folder (not listed in itself).
pub const MANIFEST: &str = "manifest.json";

/// Format marker, so a foreign `manifest.json` is not mistaken for ours.
const GENERATOR: &str = "fabricc";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    pub generator: String,
    pub version: u32,
    pub fabric: String,
    pub files: Vec<Entry>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub path: String,
    pub device: String,
    /// `switch`, `host` or `report`.
    pub kind: String,
    pub target: String,
    pub sha256: String,
}

impl Entry {
    /// The entry of one generated file (hashes its contents).
    pub fn of(a: &Artifact) -> Entry {
        Entry {
            path: a.path.clone(),
            device: a.device.clone(),
            kind: kind_name(a.kind).to_string(),
            target: a.target.clone(),
            sha256: sha256_hex(a.contents.as_bytes()),
        }
    }
}

/// Lower-case hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let mut s = String::with_capacity(64);
    for b in digest.iter() {
        s.push(char::from(b"0123456789abcdef"[usize::from(b >> 4)]));
        s.push(char::from(b"0123456789abcdef"[usize::from(b & 15)]));
    }
    s
}

pub fn kind_name(kind: ArtifactKind) -> &'static str {
    match kind {
        ArtifactKind::Switch => "switch",
        ArtifactKind::Host => "host",
        ArtifactKind::Report => "report",
    }
}

impl Manifest {
    /// Bench support (benches/build.rs), not the product's.
    #[cfg(feature = "internals")]
    pub fn of(fabric: &str, files: &[Artifact]) -> Manifest {
        use rayon::prelude::*;
        Manifest::from_entries(fabric, files.par_iter().map(Entry::of).collect())
    }

    /// The manifest of these files, in path order.
    pub fn from_entries(fabric: &str, mut files: Vec<Entry>) -> Manifest {
        files.sort_by(|a, b| a.path.cmp(&b.path));
        Manifest {
            generator: GENERATOR.into(),
            version: 1,
            fabric: fabric.into(),
            files,
        }
    }

    /// Pretty JSON with a final newline.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }

    /// `None` unless the text is a fabricc manifest.
    pub fn parse(text: &str) -> Option<Manifest> {
        serde_json::from_str::<Manifest>(text)
            .ok()
            .filter(|m| m.generator == GENERATOR)
    }

    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.files.iter().map(|e| e.path.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_of_abc() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
