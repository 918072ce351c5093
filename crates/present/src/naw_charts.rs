//! Napoleon at War's charts as data for a board (the Combat Results Table, 7.6, and the
//! Terrain Effects Chart, 9.0, both read from `naw::tables`), and the preview of an action:
//! what a declaration would make of the combats, before it is made.

use crate::naw_views::{combats, CombatEntry};
use engine::dynamic::QueryError;
use engine::{Rules, Session, ToAct};
use naw::tables::{self, Column, CombatResult, COLUMN_NAMES, HEXSIDE_EFFECTS, TERRAIN_EFFECTS};
use naw::Game;
use serde::Serialize;

/// The Combat Results Table (7.6) as a board draws it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CrtView {
    /// The odds columns, weakest first (`1-5` … `6-1`).
    pub columns: Vec<&'static str>,
    /// One row per die face, 1 to 6: the result in each column.
    pub rows: Vec<CrtRow>,
    /// What each result means.
    pub results: Vec<ResultKey>,
    /// The case of the table.
    pub case: &'static str,
}

/// One die face's row of the CRT.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CrtRow {
    /// The die face.
    pub die: u8,
    /// The result in each column, in [`CrtView::columns`] order.
    pub results: Vec<&'static str>,
}

/// A result's code and meaning.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ResultKey {
    /// The printed code (`Dr`).
    pub code: &'static str,
    /// What it does, in our words.
    pub name: &'static str,
    /// The case that rules it.
    pub case: &'static str,
}

/// One row of the Terrain Effects Chart (9.0).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TecRow {
    /// The legend id (`rough`, `stream`).
    pub terrain: &'static str,
    /// `hex` or `hexside`.
    pub kind: &'static str,
    /// Its name for people (`Rough`).
    pub name: String,
    /// The movement column, in our words.
    pub movement: String,
    /// The combat column, in our words.
    pub combat: String,
    /// The case that rules its movement.
    pub case: &'static str,
}

/// The Terrain Effects Chart (9.0).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TecView {
    /// Hexes first, then hexsides, in the chart's order.
    pub rows: Vec<TecRow>,
    /// What the chart says of effects together.
    pub note: &'static str,
    /// The case of the chart.
    pub case: &'static str,
}

/// Both charts.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TablesView {
    /// The Combat Results Table.
    pub crt: CrtView,
    /// The Terrain Effects Chart.
    pub tec: TecView,
}

/// Half movement points as the chart says them ("1", "½", "1½").
fn points(half: u16) -> String {
    naw::fmt_half(half)
}

/// An id as a name (`rough` → `Rough`).
fn capitalised(id: &str) -> String {
    let mut c = id.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// The CRT and the TEC from the rules' tables.
pub fn tables_view() -> TablesView {
    let columns = COLUMN_NAMES.to_vec();
    let rows = (1..=6u8)
        .map(|die| CrtRow {
            die,
            results: (0..columns.len())
                .map(|c| tables::crt(Column(c as u8), die).name())
                .collect(),
        })
        .collect();
    let results = CombatResult::ALL
        .iter()
        .map(|r| ResultKey {
            code: r.name(),
            name: r.explain(),
            case: match r {
                // retreats are ruled by 7.7; eliminations and exchanges by the table itself
                CombatResult::Ar | CombatResult::Dr => "7.7",
                CombatResult::Ae | CombatResult::De | CombatResult::Ex => "7.6",
            },
        })
        .collect();
    let mut tec: Vec<TecRow> = TERRAIN_EFFECTS
        .iter()
        .map(|t| TecRow {
            terrain: t.id,
            kind: "hex",
            name: capitalised(t.id),
            movement: match t.entry_cost_half {
                Some(h) => format!("{} to enter", points(h)),
                None => "only along a road (9.0)".to_string(),
            },
            combat: if t.doubles_defender {
                "defender doubled".to_string()
            } else {
                "no effect".to_string()
            },
            case: if t.entry_cost_half.is_some() {
                "5.21"
            } else {
                "9.0"
            },
        })
        .collect();
    for t in TERRAIN_EFFECTS.iter().filter(|t| t.blocks_sight) {
        if let Some(row) = tec.iter_mut().find(|r| r.terrain == t.id) {
            row.combat
                .push_str("; blocks artillery's line of sight (8.33)");
        }
    }
    for e in HEXSIDE_EFFECTS.iter() {
        let movement = if e.impassable {
            "not crossed (only at a bridge)".to_string()
        } else if let Some(h) = e.step_cost_half {
            format!("{} from {} hex to {} hex", points(h), e.id, e.id)
        } else if let Some(h) = e.extra_cost_half {
            if e.id == "slope" {
                format!("+{} out of a slope hex", points(h))
            } else {
                format!("+{} to cross", points(h))
            }
        } else {
            "no extra cost".to_string()
        };
        let combat = if e.impassable {
            "no attack across it (bombardment only, 8.45)".to_string()
        } else if e.doubles_defender {
            format!(
                "defender doubled when attacked only across {} hexsides",
                e.id
            )
        } else {
            "no effect".to_string()
        };
        tec.push(TecRow {
            terrain: e.id,
            kind: "hexside",
            name: capitalised(e.id),
            movement,
            combat,
            case: e.case,
        });
    }
    TablesView {
        crt: CrtView {
            columns,
            rows,
            results,
            case: "7.6",
        },
        tec: TecView {
            rows: tec,
            note: "movement costs add up; combat effects do not: a defender is never more than doubled",
            case: "9.0",
        },
    }
}

/// What an action would make of the combats, were it taken now.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PreviewView {
    /// The action's canonical text.
    pub action: String,
    /// The combat the action makes or joins (for a declaration), as it would then stand.
    pub combat: Option<CombatEntry>,
    /// Every declared combat as it would then stand.
    pub combats: Vec<CombatEntry>,
}

/// The `preview` query: the action (text in the grammar of `docs/actions.md`) applied to a
/// copy of the game; refused as the rules refuse it; dice are never rolled (a die's action is
/// not previewed).
pub fn preview_query(session: &Session<Game>, text: &str) -> Result<serde_json::Value, QueryError> {
    let g = &session.game;
    if matches!(g.to_act(), ToAct::Chance | ToAct::Over(_)) {
        return Err(QueryError::Bad(
            "there is nothing to preview: no side is to act".to_string(),
        ));
    }
    let a = g.parse_action(text).map_err(QueryError::Refused)?;
    g.check(a).map_err(QueryError::Refused)?;
    let canonical = g.action_text(a);
    let mut after = g.clone();
    after.apply_unchecked(a);
    let now = combats(&after);
    // the combat the action touches: one that holds a unit the action names and differs from
    // before (a declaration makes or joins exactly one)
    let before = combats(g);
    let named: Vec<&str> = canonical.split_whitespace().skip(1).collect();
    let combat = now
        .iter()
        .find(|c| {
            !before.contains(c)
                && named.iter().any(|n| {
                    c.attackers.iter().any(|u| u == n) || c.defenders.iter().any(|u| u == n)
                })
        })
        .cloned();
    Ok(serde_json::to_value(PreviewView {
        action: canonical,
        combat,
        combats: now,
    })
    .unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(id: &str) -> Session<Game> {
        let sc = scenarios::load(id).unwrap();
        let digest = sc.digest;
        Session::new(Game::new(sc), id, digest, 7)
    }

    #[test]
    fn case_7_6_the_crt_view_is_the_rules_table() {
        let t = tables_view();
        assert_eq!(t.crt.columns.len(), 10);
        assert_eq!(t.crt.rows.len(), 6);
        for row in &t.crt.rows {
            for (c, r) in row.results.iter().enumerate() {
                assert_eq!(*r, tables::crt(Column(c as u8), row.die).name());
            }
        }
        // die 6 at 1-5 eliminates the attacker; die 1 at 6-1 the defender
        assert_eq!(t.crt.rows[5].results[0], "Ae");
        assert_eq!(t.crt.rows[0].results[9], "De");
        assert_eq!(t.crt.results.len(), 5);
    }

    #[test]
    fn case_9_0_the_tec_view_has_every_terrain_and_hexside() {
        let t = tables_view();
        let hexes: Vec<&str> = t
            .tec
            .rows
            .iter()
            .filter(|r| r.kind == "hex")
            .map(|r| r.terrain)
            .collect();
        assert_eq!(hexes, ["clear", "forest", "rough", "marsh", "town"]);
        let sides: Vec<&str> = t
            .tec
            .rows
            .iter()
            .filter(|r| r.kind == "hexside")
            .map(|r| r.terrain)
            .collect();
        assert_eq!(sides, naw::tables::FEATURES);
        let row = |id: &str| t.tec.rows.iter().find(|r| r.terrain == id).unwrap();
        assert_eq!(row("clear").movement, "1 to enter");
        assert_eq!(row("rough").combat, "defender doubled");
        assert!(row("marsh").movement.contains("road"));
        assert_eq!(row("road").movement, "½ from road hex to road hex");
        assert_eq!(row("stream").movement, "+2 to cross");
        assert!(row("town").combat.contains("8.33"));
        assert!(row("river").combat.contains("no attack"));
    }

    /// The first day after the French turn (14.62) and PR.9's step next to FR.26: the Allies
    /// declare their attacks (the sequence of `e2e/tests/03-combat.test.mjs`).
    fn to_declaring(s: &mut Session<Game>) -> Option<naw::Action> {
        for text in ["end", "move PR.9 2416", "end"] {
            let a = s.game.parse_action(text).ok()?;
            s.game.apply(a).ok()?;
        }
        s.game.parse_action("attack PR.9 FR.26").ok()
    }

    #[test]
    fn a_preview_of_a_declaration_is_the_combat_it_would_make_and_changes_nothing() {
        let mut s = session("bon-first-day");
        let a = to_declaring(&mut s).expect("an attack to declare");
        let text = s.game.action_text(a);
        let hash = s.game.state_hash();
        let v = preview_query(&s, &text).unwrap();
        assert_eq!(s.game.state_hash(), hash, "the game is untouched");
        assert_eq!(v["action"], text);
        let c = &v["combat"];
        let target = text.split_whitespace().nth(2).unwrap();
        assert!(c["defenders"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d == target));
        // the odds are the rules' own: the same as the state after declaring it
        let mut after = s.game.clone();
        after.apply_unchecked(a);
        let real = combats(&after);
        assert!(real.iter().any(|r| serde_json::to_value(r).unwrap() == *c));
    }

    #[test]
    fn a_preview_of_a_refused_action_carries_the_case() {
        let mut s = session("bon-first-day");
        to_declaring(&mut s).expect("an attack to declare");
        match preview_query(&s, "move FR.4 2316") {
            Err(QueryError::Refused(r)) => assert!(!r.case.is_empty()),
            other => panic!("expected a refusal, got {other:?}"),
        }
        assert!(
            matches!(preview_query(&s, "fly away"), Err(QueryError::Refused(r)) if r.case == "action")
        );
    }
}
