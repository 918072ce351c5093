//! `grognard suite`: the tactical test suite (`ai::suite`, docs/ai.md "The tactical suite"):
//! every level plays every position's phase; a table of pass and fail per position and level,
//! a score per level and the failures with why, or the same as JSON.

use anyhow::{anyhow, Result};
use serde_json::{json, Value};

/// Runs the suite for the comma-separated levels (`random,heuristic,search@2000n`), each with
/// the seeds `seed`, `seed + 1`, ... (`seeds` of them).
pub fn suite(players: &str, seed: u64, seeds: u64, json: bool) -> Result<String> {
    let levels: Vec<&str> = players
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    if levels.is_empty() {
        return Err(anyhow!("--players names no level"));
    }
    let map = |name: &str| scenarios::map_text(name).map(str::to_string);
    if seeds == 0 {
        return Err(anyhow!("--seeds must be at least 1"));
    }
    let list: Vec<u64> = (0..seeds).map(|k| seed.wrapping_add(k)).collect();
    let r = ai::suite::run(&levels, &list, &map).map_err(|e| anyhow!(e))?;
    if !json {
        let seeds = match list.as_slice() {
            [one] => format!("seed {one}"),
            _ => format!("seeds {}-{}", list[0], list[list.len() - 1]),
        };
        return Ok(format!(
            "Tactical suite: {} positions, {seeds} (docs/ai.md, \"The tactical suite\")\n\n{}",
            r.rows.len(),
            r.table()
        ));
    }
    let rows: Vec<Value> = r
        .rows
        .iter()
        .map(|row| {
            json!({
                "id": row.id,
                "kind": row.kind.name(),
                "title": row.title,
                "checks": row.checks,
                "results": row.outcomes.iter().map(|o| json!({
                    "level": o.level,
                    "passed": o.passed,
                    "passes": o.passes,
                    "runs": o.runs,
                    "failed": o.failed,
                    "actions": o.actions,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let scores: Vec<Value> = r
        .levels
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let (passed, share, of) = r.score(i);
            json!({ "level": l, "passed": passed, "passed_per_seed": share, "positions": of })
        })
        .collect();
    let v = json!({ "seeds": r.seeds, "levels": r.levels, "scores": scores, "positions": rows });
    Ok(format!("{}\n", serde_json::to_string_pretty(&v)?))
}
