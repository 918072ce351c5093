//! The views every rules system shares, over [`DynGame`]: the log of a game and the change
//! from one state view to the next. Names no rules crate.

use engine::dynamic::{Acted, DynGame};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// One recorded action of any system's game, as the log shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AnyLogEntry {
    /// Its position in the record, from 1.
    pub n: usize,
    /// Who took it: a seat's name, or `chance` for a chance outcome.
    pub side: String,
    /// Its canonical text.
    pub action: String,
    /// What it caused: each with `case`, `kind`, `text` and its facts.
    pub events: Vec<Value>,
}

impl AnyLogEntry {
    /// The log entry of an applied action, its seat named from `seats`.
    pub fn of(acted: &Acted, seats: &[String]) -> AnyLogEntry {
        AnyLogEntry {
            n: acted.n,
            side: match acted.seat {
                Some(s) => seats
                    .get(s.0 as usize)
                    .cloned()
                    .unwrap_or_else(|| "?".into()),
                None => "chance".into(),
            },
            action: acted.text.clone(),
            events: acted.events.clone(),
        }
    }
}

/// The log of a whole game, replayed from its record.
pub fn log_of_game(game: &dyn DynGame) -> Vec<AnyLogEntry> {
    let seats = game.seats();
    game.log()
        .iter()
        .map(|a| AnyLogEntry::of(a, &seats))
        .collect()
}

/// The fields of a state view that a change never carries: they do not change in a game
/// (`title`, the turn span) or travel apart (`units`, `log`, `legal`, `legal_actions`).
const NOT_IN_A_CHANGE: &[&str] = &[
    "id",
    "scenario",
    "title",
    "first_turn",
    "last_turn",
    "night_turns",
    "units",
    "log",
    "legal",
    "legal_actions",
    "setup_events",
];

/// The change from a state view whose units were `before_units` and whose overlays were
/// `before_overlays` (and whose record held `base` actions) to the state view `now`
/// (`docs/api.md`, "The change"): the view's small fields, the `overlays` only when they
/// differ from `before_overlays` (a system's ranges may weigh more than all the rest), the
/// units whose entry differs (by position), the log entries added since `base` (`added`: the
/// whole log's entries past `base`), and the legal actions when asked for. Works for any
/// system whose view has a `units` list.
pub fn change_of(
    base: usize,
    before_units: &[Value],
    before_overlays: Option<&Value>,
    now: &Value,
    added: &[AnyLogEntry],
    with_legal: bool,
) -> Value {
    let mut out = Map::new();
    out.insert("base".into(), Value::from(base));
    if let Value::Object(m) = now {
        for (k, v) in m {
            let unchanged_overlays = k == "overlays" && before_overlays == Some(v);
            if !NOT_IN_A_CHANGE.contains(&k.as_str()) && !unchanged_overlays {
                out.insert(k.clone(), v.clone());
            }
        }
        let units: Vec<Value> = m
            .get("units")
            .and_then(Value::as_array)
            .map(|now_units| {
                now_units
                    .iter()
                    .enumerate()
                    .filter(|(i, u)| before_units.get(*i) != Some(*u))
                    .map(|(_, u)| u.clone())
                    .collect()
            })
            .unwrap_or_default();
        out.insert("units".into(), Value::Array(units));
        if with_legal {
            for k in ["legal", "legal_actions"] {
                if let Some(v) = m.get(k) {
                    out.insert(k.into(), v.clone());
                }
            }
        }
    }
    out.insert(
        "log".into(),
        serde_json::to_value(added).unwrap_or(Value::Array(Vec::new())),
    );
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_change_carries_changed_units_new_log_and_small_fields_only() {
        let before = vec![
            json!({"id": "a", "hex": "0101"}),
            json!({"id": "b", "hex": "0202"}),
        ];
        let now = json!({
            "title": "T", "turn": 2, "units": [{"id": "a", "hex": "0102"}, {"id": "b", "hex": "0202"}],
            "legal": ["end"], "legal_actions": [{"text": "end", "kind": "end"}],
        });
        let log = [
            AnyLogEntry {
                n: 1,
                side: "Blue".into(),
                action: "end".into(),
                events: vec![],
            },
            AnyLogEntry {
                n: 2,
                side: "Red".into(),
                action: "end".into(),
                events: vec![],
            },
        ];
        let c = change_of(1, &before, None, &now, &log[1..], false);
        assert_eq!(c["base"], 1);
        assert_eq!(c["turn"], 2);
        assert!(c.get("title").is_none() && c.get("legal").is_none());
        assert_eq!(c["units"], json!([{"id": "a", "hex": "0102"}]));
        assert_eq!(c["log"].as_array().unwrap().len(), 1);
        let c = change_of(1, &before, None, &now, &log[1..], true);
        assert_eq!(c["legal"], json!(["end"]));
        assert_eq!(c["legal_actions"][0]["kind"], "end");
    }

    #[test]
    fn a_change_carries_the_overlays_only_when_they_changed() {
        let ranges = json!({"range": {"L1": ["0101", "0102"]}});
        let now = json!({"turn": 2, "units": [], "overlays": ranges});
        let same = change_of(1, &[], Some(&ranges), &now, &[], false);
        assert!(same.get("overlays").is_none());
        assert_eq!(same["turn"], 2);
        let other = json!({"range": {"L1": ["0101"]}});
        let changed = change_of(1, &[], Some(&other), &now, &[], false);
        assert_eq!(changed["overlays"], ranges);
        // a viewer whose overlays are not known gets them
        assert_eq!(
            change_of(1, &[], None, &now, &[], false)["overlays"],
            ranges
        );
    }
}
