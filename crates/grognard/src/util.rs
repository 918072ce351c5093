//! Shared helpers of every rules system: files, records, refusals and seeds.

use anyhow::{anyhow, bail, Context, Result};
use engine::{Record, Refusal};
use std::io::Write;
use std::path::{Path, PathBuf};

/// An action refused by the rules: printed as `refused: CASE: WHY`, exit 1.
#[derive(Debug)]
pub struct Refused {
    /// The action text as given.
    pub text: String,
    /// The rules' refusal.
    pub refusal: Refusal,
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "refused: {}: {}", self.refusal.case, self.refusal.why)?;
        if !self.text.is_empty() {
            write!(f, " (action '{}')", self.text)?;
        }
        Ok(())
    }
}

impl std::error::Error for Refused {}

/// Writes `bytes` to `path` atomically: a temporary file in the same directory, flushed to
/// disk, then renamed over the target. A reader sees the old file or the new one, never half.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| anyhow!("'{}' is not a file name", path.display()))?
        .to_string_lossy()
        .to_string();
    let tmp = dir.join(format!(".{name}.tmp{}", std::process::id()));
    let result = (|| -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(e).with_context(|| format!("cannot write {}", path.display()));
    }
    Ok(())
}

/// Writes a record as pretty JSON, atomically.
pub fn save_record(path: &Path, record: &Record) -> Result<()> {
    let mut text = record.to_json();
    text.push('\n');
    write_atomically(path, text.as_bytes())
}

/// Reads and parses a record file (no replay).
pub fn read_record(path: &Path) -> Result<Record> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the record {}", path.display()))?;
    if text.trim().is_empty() {
        bail!("{}: the file is empty, not a game record", path.display());
    }
    Record::from_json(&text).map_err(|e| anyhow!("{}: {e}", path.display()))
}

/// A seed from the system clock.
pub fn time_seed() -> u64 {
    let d = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    mix(d.as_secs() ^ (d.subsec_nanos() as u64) << 20, 0x6772_6f67)
}

pub use engine::mix;
