//! The rules reference served at `GET /api/rules`: every case of the standard rules and of
//! The Battle of Nations' exclusive rules in our own words, with the Terrain Effects Chart
//! and the Combat Results Table, from `crates/naw/rules-reference.toml`.

use serde::{Deserialize, Serialize};

/// The reference's source, embedded.
pub const REFERENCE_TOML: &str = include_str!("../../naw/rules-reference.toml");

/// One case of the rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// The case number (`5.13`), or `TEC` / `CRT` for the charts.
    pub case: String,
    /// A short title.
    pub title: String,
    /// What it says, in our words.
    pub text: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    case: Vec<Case>,
}

/// The rules reference, in the order of the rulebook.
pub fn reference() -> Result<Vec<Case>, String> {
    let f: File = toml::from_str(REFERENCE_TOML)
        .map_err(|e| format!("crates/naw/rules-reference.toml: {e}"))?;
    Ok(f.case)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reference_parses_and_covers_the_rulebook() {
        let r = reference().unwrap();
        let has = |c: &str| r.iter().any(|x| x.case == c);
        for c in [
            "4.0", "5.13", "5.14", "6.0", "7.11", "7.12", "7.6", "8.41", "9.0", "10.1", "14.62",
            "15.0", "17.2", "TEC", "CRT",
        ] {
            assert!(has(c), "the reference has no case {c}");
        }
        let mut seen = std::collections::HashSet::new();
        for c in &r {
            assert!(seen.insert(c.case.clone()), "case {} twice", c.case);
            assert!(
                !c.title.trim().is_empty() && !c.text.trim().is_empty(),
                "{}",
                c.case
            );
        }
    }
}
