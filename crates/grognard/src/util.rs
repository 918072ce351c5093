//! Shared helpers: files, records, scenarios, units and number formatting.

use anyhow::{anyhow, bail, Context, Result};
use engine::{Record, Refusal, Session};
use hexmap::Hex;
use naw::{Game, Scenario, UnitId};
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

/// Loads a scenario by shipped id or path.
pub fn load_scenario(spec: &str) -> Result<Scenario> {
    scenarios::load(spec).map_err(|e| anyhow!("{e}"))
}

/// Loads the scenario a record names: a shipped id, a path as written (relative to the
/// current directory), or else a path relative to the record's own directory.
fn record_scenario(spec: &str, record_path: &Path) -> Result<Scenario> {
    if scenarios::scenario_text(spec).is_none() {
        let p = Path::new(spec);
        if p.is_relative() && !p.exists() {
            if let Some(dir) = record_path.parent() {
                let beside = dir.join(p);
                if beside.exists() {
                    return load_scenario(&beside.to_string_lossy());
                }
            }
        }
    }
    load_scenario(spec)
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

/// Opens a record: parses it, loads its scenario and replays it (verifying every action).
pub fn open_record(path: &Path) -> Result<Session<Game>> {
    let record = read_record(path)?;
    let sc = record_scenario(&record.scenario, path)
        .with_context(|| format!("{}: the record's scenario", path.display()))?;
    let digest = sc.digest;
    Session::resume(Game::new(sc), record, digest).map_err(|e| anyhow!("{}: {e}", path.display()))
}

/// The initial state and digest of a record's scenario.
pub fn record_start(path: &Path, record: &Record) -> Result<(Game, u64)> {
    let sc = record_scenario(&record.scenario, path)
        .with_context(|| format!("{}: the record's scenario", path.display()))?;
    let digest = sc.digest;
    Ok((Game::new(sc), digest))
}

/// A unit named by id (case-insensitive) or by the hex it stands in ([`Game::find_unit`]),
/// with the reason when none is.
pub fn find_unit(g: &Game, word: &str) -> Result<UnitId> {
    if let Some(u) = g.find_unit(word) {
        return Ok(u);
    }
    if let Ok(h) = word.parse::<Hex>() {
        if !g.scenario().map.contains(h) {
            bail!("{h} is not on the map");
        }
        bail!("no unit stands in {h}");
    }
    bail!(
        "'{word}' is not a unit id of {} (ids look like {})",
        g.scenario().id,
        g.scenario()
            .units
            .iter()
            .take(3)
            .map(|d| d.id.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// A hex that must be on the map.
pub fn parse_map_hex(g: &Game, word: &str) -> Result<Hex> {
    let h: Hex = word.parse().map_err(|e| anyhow!("{e}"))?;
    if !g.scenario().map.contains(h) {
        bail!(
            "{h} is not on the map (rows 01-{:02}, hexes 01-{:02})",
            g.scenario().map.width(),
            g.scenario().map.height()
        );
    }
    Ok(h)
}

/// A seed from the system clock.
pub fn time_seed() -> u64 {
    let d = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    mix(d.as_secs() ^ (d.subsec_nanos() as u64) << 20, 0x6772_6f67)
}

/// SplitMix64 of `a` and `b`: independent seeds from one base seed.
pub fn mix(a: u64, b: u64) -> u64 {
    let mut z = a
        .wrapping_add(b.wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The name of a side.
pub fn side_name(g: &Game, s: engine::Side) -> &str {
    &g.scenario().sides[s.0 as usize]
}

/// The events of the last action, one per line, indented.
pub fn events_text(g: &Game) -> String {
    let mut out = String::new();
    for e in g.events() {
        out.push_str(&format!("  [{}] {}\n", e.case(), e.text(g)));
    }
    out
}
