//! The state directory: one folder per device, named as in the build output, holding the
//! device's collected configuration in its native form and, optionally, its LLDP neighbours.
//!
//! Reading is bounded like `.fab` inputs: only regular files (a FIFO or a device file would
//! block or never end), at most `--max-input-bytes` each, and UTF-8 text. A file that breaks a
//! bound is a finding at the file, not a crash.

use std::fs;
use std::io::Read;
use std::path::Path;

use crate::render::SwitchOs;

/// The file holding a device's configuration, by target (the contract of `fabricc verify`).
pub fn config_file(target: Target) -> &'static str {
    match target {
        Target::Switch(SwitchOs::Sonic) => "config_db.json",
        Target::Switch(SwitchOs::Cumulus) => "startup.yaml",
        Target::Switch(SwitchOs::Eos | SwitchOs::Nxos) => "running-config",
        Target::Switch(SwitchOs::Junos) => "config",
        Target::Switch(SwitchOs::Vrp) => "current-configuration",
        Target::Switch(SwitchOs::Comware) => "current-configuration",
        Target::Host => "state.json",
    }
}

/// The optional LLDP neighbour table of any device.
pub const LLDP_FILE: &str = "lldp.json";

/// What a device is verified as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Target {
    Switch(SwitchOs),
    Host,
}

impl Target {
    pub fn as_str(self) -> &'static str {
        match self {
            Target::Switch(os) => os.as_str(),
            Target::Host => "host",
        }
    }
}

/// Why a state file could not be read as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadError {
    /// Not there (the folder lacks it).
    Missing,
    /// There, but not a regular file.
    NotAFile,
    TooLarge {
        limit: u64,
    },
    /// Not UTF-8: the offset of the first bad byte.
    NotText {
        offset: usize,
    },
    Io(String),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Missing => write!(f, "it does not exist"),
            ReadError::NotAFile => write!(f, "it is not a regular file"),
            ReadError::TooLarge { limit } => {
                write!(f, "it is larger than {limit} bytes (--max-input-bytes)")
            }
            ReadError::NotText { offset } => {
                write!(f, "it is not UTF-8 text (byte {offset} is not valid UTF-8)")
            }
            ReadError::Io(e) => write!(f, "{e}"),
        }
    }
}

/// The text of a state file, within the bounds.
pub fn read(path: &Path, max_bytes: u64) -> Result<String, ReadError> {
    let meta = match fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(ReadError::Missing),
        Err(e) => return Err(ReadError::Io(e.to_string())),
    };
    if !meta.is_file() {
        return Err(ReadError::NotAFile);
    }
    if meta.len() > max_bytes {
        return Err(ReadError::TooLarge { limit: max_bytes });
    }
    let file = fs::File::open(path).map_err(|e| ReadError::Io(e.to_string()))?;
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    // The size can grow between the check and the read: never read past the bound.
    file.take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| ReadError::Io(e.to_string()))?;
    if bytes.len() as u64 > max_bytes {
        return Err(ReadError::TooLarge { limit: max_bytes });
    }
    String::from_utf8(bytes).map_err(|e| ReadError::NotText {
        offset: e.utf8_error().valid_up_to(),
    })
}

/// The device folders of the state directory `dir` (shown to users as `display`), or the
/// message that says why it cannot be read.
pub fn device_folders(dir: &Path, display: &str) -> Result<Vec<String>, String> {
    if !dir.is_dir() {
        return Err(format!("the state directory `{display}` is not a folder"));
    }
    folders(dir).map_err(|e| format!("cannot read the state directory `{display}`: {e}"))
}

/// The folders of the state directory (names only, sorted), ignoring hidden ones and files.
pub fn folders(dir: &Path) -> std::io::Result<Vec<String>> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        if entry.path().is_dir() {
            out.push(name);
        }
    }
    out.sort();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds() {
        let dir = std::env::temp_dir().join(format!("fabricc-state-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("leaf1")).unwrap();
        fs::write(dir.join("big"), vec![b'x'; 100]).unwrap();
        fs::write(dir.join("bin"), [b'a', 0xff, b'b']).unwrap();
        fs::write(dir.join("ok"), "text").unwrap();
        assert_eq!(
            read(&dir.join("big"), 99),
            Err(ReadError::TooLarge { limit: 99 })
        );
        assert_eq!(
            read(&dir.join("bin"), 99),
            Err(ReadError::NotText { offset: 1 })
        );
        assert_eq!(read(&dir.join("ok"), 99).as_deref(), Ok("text"));
        assert_eq!(read(&dir.join("nope"), 99), Err(ReadError::Missing));
        assert_eq!(read(&dir.join("leaf1"), 99), Err(ReadError::NotAFile));
        assert_eq!(folders(&dir).unwrap(), vec!["leaf1"]);
        let _ = fs::remove_dir_all(&dir);
    }
}
