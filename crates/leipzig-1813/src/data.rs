//! The game's tables as one data file: `data/leipzig.toml` (embedded) or a replacement with the
//! printed values, read and validated whole; every problem is reported, one a line.

use crate::crt::{Crt, CrtFile};
use crate::forced_march::{ForcedMarchFile, ForcedMarchTables};
use crate::leaders::{Leader, PER_SIDE, SIDES};
use crate::terrain::{TerrainChart, TerrainFile};
use crate::victory::{VictoryRow, CITIES};
use serde::Deserialize;

/// Why a data file was refused: every problem found, one a line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", .0.join("\n"))]
pub struct DataError(pub Vec<String>);

/// The file's format tag.
pub const FORMAT: &str = "grognard-leipzig-1813/1";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    format: String,
    crt: CrtFile,
    forced_march: ForcedMarchFile,
    terrain: TerrainFile,
    leaders: Vec<Leader>,
    victory: Vec<VictoryRow>,
}

/// The game's tables: the CRT, both forced march tables, the terrain chart, the leaders and the
/// victory point schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tables {
    /// The Combat Results Table.
    pub crt: Crt,
    /// The Forced March Tables.
    pub forced_march: ForcedMarchTables,
    /// The Terrain Effects Chart.
    pub terrain: TerrainChart,
    /// Ten leaders a side, French first, each side by number.
    pub leaders: Vec<Leader>,
    /// The Victory Point Schedule, scenario 1 first.
    pub victory: Vec<VictoryRow>,
    /// XXH3 of the data file's text: to join every game's scenario digest, so that a record
    /// replays only with the tables it was played with.
    pub digest: u64,
}

impl Tables {
    /// The shipped data file.
    pub const LEIPZIG_TOML: &'static str = include_str!("../data/leipzig.toml");

    /// The shipped tables.
    pub fn leipzig() -> Tables {
        Tables::from_toml(Tables::LEIPZIG_TOML).expect("the shipped data/leipzig.toml is valid")
    }

    /// Reads and validates a data file.
    pub fn from_toml(text: &str) -> Result<Tables, DataError> {
        let f: File =
            toml::from_str(text).map_err(|e| DataError(vec![format!("leipzig data: {e}")]))?;
        let mut errs = Vec::new();
        if f.format != FORMAT {
            errs.push(format!("format '{}': expected '{FORMAT}'", f.format));
        }
        let crt = Crt::from_file(&f.crt)
            .map_err(|e| errs.push(e.to_string()))
            .ok();
        let forced_march = ForcedMarchTables::from_file(&f.forced_march)
            .map_err(|e| errs.push(format!("forced march tables: {e}")))
            .ok();
        let terrain = TerrainChart::from_file(&f.terrain)
            .map_err(|e| errs.extend(e))
            .ok();
        let leaders = check_leaders(f.leaders, &mut errs);
        let victory = check_victory(f.victory, &mut errs);
        match (crt, forced_march, terrain) {
            (Some(crt), Some(forced_march), Some(terrain)) if errs.is_empty() => Ok(Tables {
                crt,
                forced_march,
                terrain,
                leaders,
                victory,
                digest: engine::hash_bytes(text.as_bytes()),
            }),
            _ => Err(DataError(errs)),
        }
    }

    /// A side's leader by counter number.
    pub fn leader(&self, side: &str, number: u8) -> Option<&Leader> {
        self.leaders
            .iter()
            .find(|l| l.side == side && l.number == number)
    }

    /// A scenario's row of the victory point schedule.
    pub fn victory(&self, scenario: u8) -> Option<&VictoryRow> {
        self.victory.iter().find(|v| v.scenario == scenario)
    }
}

fn check_leaders(mut leaders: Vec<Leader>, errs: &mut Vec<String>) -> Vec<Leader> {
    for l in &leaders {
        if !SIDES.contains(&l.side.as_str()) {
            errs.push(format!(
                "leader {} ({}): side '{}' is neither French nor Allied",
                l.number, l.name, l.side
            ));
        }
        if !(1..=PER_SIDE).contains(&l.number) {
            errs.push(format!(
                "leader {} ({}): numbers run 1 to {PER_SIDE}",
                l.number, l.name
            ));
        }
    }
    for side in SIDES {
        let mut seen = [false; PER_SIDE as usize + 1];
        for l in leaders.iter().filter(|l| l.side == side) {
            let n = usize::from(l.number);
            if n < seen.len() {
                if seen[n] {
                    errs.push(format!("{side} leader {n} is given twice"));
                }
                seen[n] = true;
            }
        }
        let missing: Vec<String> = (1..=PER_SIDE)
            .filter(|&n| !seen[usize::from(n)])
            .map(|n| n.to_string())
            .collect();
        if !missing.is_empty() {
            errs.push(format!(
                "{side} leaders: ten a side (Leaders), missing {}",
                missing.join(", ")
            ));
        }
    }
    leaders.sort_by_key(|l| (SIDES.iter().position(|s| *s == l.side), l.number));
    leaders
}

fn check_victory(mut rows: Vec<VictoryRow>, errs: &mut Vec<String>) -> Vec<VictoryRow> {
    rows.sort_by_key(|r| r.scenario);
    let numbers: Vec<u8> = rows.iter().map(|r| r.scenario).collect();
    if numbers != (1..=8).collect::<Vec<u8>>() {
        errs.push(format!(
            "victory: one row for each scenario 1 to 8, found {numbers:?}"
        ));
    }
    for r in &rows {
        for c in r.cities.keys() {
            if !CITIES.contains(&c.as_str()) {
                errs.push(format!(
                    "victory, scenario {}: '{c}' is not a city of the schedule ({})",
                    r.scenario,
                    CITIES.join(", ")
                ));
            }
        }
    }
    rows
}
