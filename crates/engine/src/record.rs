//! Game records and replay: a game is scenario + rules version + seed + actions.

use crate::{draw_chance, hash_text, Dice, Refusal, Rules, ToAct};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The `format` value of a game record.
pub const RECORD_FORMAT: &str = "grognard-record/1";

/// One recorded action.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Recorded {
    /// The action's canonical text.
    #[serde(rename = "do")]
    pub text: String,
    /// True for a die read from a physical die rather than the record's seeded dice.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub manual: bool,
    /// The state hash after the action (16 hex digits).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hash: Option<String>,
    /// What the computer player that chose the action said of it (its plan, an attack's odds
    /// and reason), kept for `replay`. A comment: no part of the state, its hash or the
    /// verification of the record.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A whole game: replaying it reproduces every state exactly.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// Always [`RECORD_FORMAT`].
    pub format: String,
    /// A shipped scenario id or a scenario file path.
    pub scenario: String,
    /// Digest of the scenario as loaded (16 hex digits).
    pub scenario_digest: String,
    /// The rules module and version (`naw/1`).
    pub rules: String,
    /// The seed of the record's dice.
    pub seed: u64,
    /// The actions, in order.
    #[serde(default)]
    pub actions: Vec<Recorded>,
    /// A sealed game's commitment to its dice: [`commitment`] of the seed and the salt,
    /// published when the game began, while the seed stayed secret (online play).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commitment: Option<String>,
    /// The secret that, with the seed, makes the commitment: revealed with the seed when a
    /// sealed game ends, so that anyone can check every roll was drawn from the seed
    /// committed to at the start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub salt: Option<String>,
    /// The computer players of the game, by seat name (`"Allied": "search@3s"`): the seats not
    /// named are played by people. Kept so that a game resumed later (`grognard play
    /// --resume`) is played by the same opponent; no part of the replay or its verification.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub players: BTreeMap<String, String>,
}

/// The commitment to a sealed game's dice: SHA-256 (hex) of `grognard-seed:SEED:SALT`. It
/// binds the server to the seed before the first roll; the salt (secret until the end, at
/// least 128 random bits) keeps anyone from finding the seed from the commitment by trying
/// every seed.
pub fn commitment(seed: u64, salt: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(format!("grognard-seed:{seed}:{salt}").as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Why a record's commitment does not hold.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommitmentError {
    /// The record carries a commitment but no salt: it was taken before the game ended.
    #[error("the record commits to its dice but does not reveal its salt: the game had not ended when it was taken")]
    Sealed,
    /// A salt without a commitment.
    #[error("the record has a salt but no commitment to check it against")]
    NoCommitment,
    /// The seed and the salt do not make the commitment published at the start.
    #[error("the seed and salt do not match the commitment published at the start (commitment {published}, seed and salt make {made}): the dice were not the ones committed to")]
    Mismatch {
        /// The commitment in the record.
        published: String,
        /// What the record's seed and salt make.
        made: String,
    },
}

/// Why a record does not replay.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The record names another rules module or version.
    #[error("the record is for rules '{found}', this program plays '{expected}'")]
    Rules {
        /// What the program plays.
        expected: String,
        /// What the record says.
        found: String,
    },
    /// The record's format field is not ours.
    #[error("not a game record: format is '{0}', expected '{RECORD_FORMAT}'")]
    Format(String),
    /// The scenario changed since the record was made.
    #[error(
        "the scenario has changed since this record was made (digest {found}, now {expected})"
    )]
    Scenario {
        /// Digest of the scenario now.
        expected: String,
        /// Digest in the record.
        found: String,
    },
    /// An action was refused.
    #[error("action {index} '{text}' is refused: {refusal}")]
    Refused {
        /// 1-based position in the record.
        index: usize,
        /// The action text.
        text: String,
        /// The refusal.
        refusal: Refusal,
    },
    /// A chance outcome differs from the one the record's seeded dice draw.
    #[error(
        "action {index} '{text}': the seeded dice drew '{expected}' here, the record says '{text}'"
    )]
    Die {
        /// 1-based position.
        index: usize,
        /// The recorded outcome's text.
        text: String,
        /// The outcome the dice drew, as text.
        expected: String,
    },
    /// The record's seed and salt do not make its commitment.
    #[error("{0}")]
    Commitment(#[from] CommitmentError),
    /// The state after an action differs from the one recorded.
    #[error("action {index} '{text}': the state hash is {expected}, the record says {found}: the record was altered")]
    Hash {
        /// 1-based position.
        index: usize,
        /// The action text.
        text: String,
        /// The hash after replaying.
        expected: String,
        /// The recorded hash.
        found: String,
    },
}

impl Record {
    /// A new, empty record.
    pub fn new(scenario: &str, scenario_digest: u64, rules: &str, seed: u64) -> Record {
        Record {
            format: RECORD_FORMAT.to_string(),
            scenario: scenario.to_string(),
            scenario_digest: hash_text(scenario_digest),
            rules: rules.to_string(),
            seed,
            actions: Vec::new(),
            commitment: None,
            salt: None,
            players: BTreeMap::new(),
        }
    }

    /// Checks the commitment of a sealed game's record: `Ok(false)` for an open record (no
    /// commitment), `Ok(true)` when the seed and the salt make the commitment, else why not.
    pub fn verify_commitment(&self) -> Result<bool, CommitmentError> {
        match (&self.commitment, &self.salt) {
            (None, None) => Ok(false),
            (Some(_), None) => Err(CommitmentError::Sealed),
            (None, Some(_)) => Err(CommitmentError::NoCommitment),
            (Some(published), Some(salt)) => {
                let made = commitment(self.seed, salt);
                if made.eq_ignore_ascii_case(published) {
                    Ok(true)
                } else {
                    Err(CommitmentError::Mismatch {
                        published: published.clone(),
                        made,
                    })
                }
            }
        }
    }

    /// The record as published while a sealed game goes on: pretty JSON without the seed and
    /// the salt, with the commitment.
    pub fn sealed_json(&self) -> String {
        let mut v = serde_json::to_value(self).expect("a record always serialises");
        if let serde_json::Value::Object(m) = &mut v {
            m.remove("seed");
            m.remove("salt");
        }
        serde_json::to_string_pretty(&v).expect("a record always serialises")
    }

    /// The record as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a record always serialises")
    }

    /// Parses a record from JSON.
    pub fn from_json(text: &str) -> Result<Record, String> {
        serde_json::from_str(text).map_err(|e| {
            let sealed = serde_json::from_str::<serde_json::Value>(text)
                .is_ok_and(|v| v.get("commitment").is_some() && v.get("seed").is_none());
            if sealed {
                "this record's dice are sealed: its seed is published when the game ends, and \
                 only then can it be replayed"
                    .to_string()
            } else {
                format!("not a valid game record: {e}")
            }
        })
    }
}

/// Replays `record` from `start` (the scenario's initial state), stopping after `upto`
/// actions when given. Returns the state and the dice positioned after the last roll.
/// Every die roll not marked manual must equal the seeded dice's; every recorded hash must
/// equal the replayed state's.
pub fn replay<R: Rules>(
    start: R,
    record: &Record,
    scenario_digest: u64,
    upto: Option<usize>,
) -> Result<(R, Dice), ReplayError> {
    replay_with(start, record, scenario_digest, upto, |_, _, _, _| {})
}

/// [`replay`], calling `step(index, recorded, before, after)` after each action is verified:
/// `before` is who was to act, `after` the state the action made (for narrating a replay).
pub fn replay_with<R: Rules>(
    start: R,
    record: &Record,
    scenario_digest: u64,
    upto: Option<usize>,
    mut step: impl FnMut(usize, &Recorded, &ToAct, &R),
) -> Result<(R, Dice), ReplayError> {
    if record.format != RECORD_FORMAT {
        return Err(ReplayError::Format(record.format.clone()));
    }
    if record.rules != start.rules_version() {
        return Err(ReplayError::Rules {
            expected: start.rules_version().to_string(),
            found: record.rules.clone(),
        });
    }
    if record.scenario_digest != hash_text(scenario_digest) {
        return Err(ReplayError::Scenario {
            expected: hash_text(scenario_digest),
            found: record.scenario_digest.clone(),
        });
    }
    if record.salt.is_some() {
        record.verify_commitment()?;
    }
    let n = upto
        .unwrap_or(record.actions.len())
        .min(record.actions.len());
    let mut g = start;
    let mut dice = Dice::new(record.seed);
    replay_steps(&mut g, &mut dice, record, 0, n, &mut step)?;
    Ok((g, dice))
}

/// Replays actions `from..to` of `record` onto `g` and `dice` (the state after `from`
/// actions), verifying each: its text parses and is accepted, a seeded chance outcome is the
/// one the dice draw, a recorded hash matches.
pub(crate) fn replay_steps<R: Rules>(
    g: &mut R,
    dice: &mut Dice,
    record: &Record,
    from: usize,
    to: usize,
    step: &mut impl FnMut(usize, &Recorded, &ToAct, &R),
) -> Result<(), ReplayError> {
    for (i, r) in record.actions[from..to].iter().enumerate() {
        let index = from + i + 1;
        let refused = |refusal| ReplayError::Refused {
            index,
            text: r.text.clone(),
            refusal,
        };
        let a = g.parse_action(&r.text).map_err(refused)?;
        let before = g.to_act();
        if matches!(before, ToAct::Chance) && !r.manual {
            if let Some(drawn) = draw_chance(g, dice) {
                if drawn != a {
                    return Err(ReplayError::Die {
                        index,
                        text: r.text.clone(),
                        expected: g.action_text(drawn),
                    });
                }
            }
        }
        g.apply(a).map_err(refused)?;
        if let Some(h) = &r.hash {
            let now = hash_text(g.state_hash());
            if &now != h {
                return Err(ReplayError::Hash {
                    index,
                    text: r.text.clone(),
                    expected: now,
                    found: h.clone(),
                });
            }
        }
        step(index, r, &before, g);
    }
    Ok(())
}

/// How many actions apart a [`Session`] keeps a copy of the state, so that taking back or
/// truncating replays at most this many actions.
pub const CHECKPOINT_EVERY: usize = 64;

/// A game in play: its record, the current state and the dice. Every front end (the CLI, the
/// server, the computer players' arena) acts through this.
#[derive(Clone, Debug)]
pub struct Session<R: Rules> {
    /// The record so far.
    pub record: Record,
    /// The state after the record's actions.
    pub game: R,
    /// The dice after the record's rolls.
    pub dice: Dice,
    /// The state and dice after every [`CHECKPOINT_EVERY`]-th action (the first is the
    /// initial state): `checkpoints[k]` follows `k * CHECKPOINT_EVERY` actions.
    checkpoints: Vec<(R, Dice)>,
}

impl<R: Rules> Session<R> {
    /// A new game from its initial state.
    pub fn new(start: R, scenario: &str, digest: u64, seed: u64) -> Session<R> {
        let record = Record::new(scenario, digest, start.rules_version(), seed);
        Session {
            record,
            game: start.clone(),
            dice: Dice::new(seed),
            checkpoints: vec![(start, Dice::new(seed))],
        }
    }

    /// Resumes a recorded game (verifying it), keeping checkpoints on the way.
    pub fn resume(start: R, record: Record, digest: u64) -> Result<Session<R>, ReplayError> {
        // verify the header (format, rules, scenario) without replaying an action
        replay(start.clone(), &record, digest, Some(0))?;
        let actions = record.actions.len();
        let mut s = Session {
            game: start.clone(),
            dice: Dice::new(record.seed),
            checkpoints: vec![(start, Dice::new(record.seed))],
            record,
        };
        let mut done = 0;
        while done < actions {
            let next = (done + CHECKPOINT_EVERY).min(actions);
            replay_steps(
                &mut s.game,
                &mut s.dice,
                &s.record,
                done,
                next,
                &mut |_, _, _, _| {},
            )?;
            done = next;
            if done.is_multiple_of(CHECKPOINT_EVERY) {
                s.checkpoints.push((s.game.clone(), s.dice.clone()));
            }
        }
        Ok(s)
    }

    /// The initial state.
    pub fn start(&self) -> &R {
        &self.checkpoints[0].0
    }

    /// Applies a player's (or a physical die's) action and records it. At a chance event only
    /// one of its outcomes is accepted, recorded as read from a physical die (`manual`).
    pub fn act(&mut self, a: R::Action) -> Result<(), Refusal> {
        let chance = matches!(self.game.to_act(), ToAct::Chance);
        if chance && !self.game.chance_outcomes().iter().any(|&(x, _)| x == a) {
            self.game.check(a)?;
            return Err(Refusal::new(
                "action",
                format!(
                    "{}: a chance event is pending; only one of its outcomes can be recorded",
                    self.game.action_text(a)
                ),
            ));
        }
        self.game.apply(a)?;
        self.push(a, chance);
        Ok(())
    }

    /// Parses and applies action text.
    pub fn act_text(&mut self, text: &str) -> Result<R::Action, Refusal> {
        let a = self.game.parse_action(text)?;
        self.act(a)?;
        Ok(a)
    }

    fn push(&mut self, a: R::Action, manual: bool) {
        self.record.actions.push(Recorded {
            text: self.game.action_text(a),
            manual,
            hash: Some(hash_text(self.game.state_hash())),
            note: None,
        });
        if self.record.actions.len().is_multiple_of(CHECKPOINT_EVERY) {
            self.checkpoints
                .push((self.game.clone(), self.dice.clone()));
        }
    }

    /// At a chance event, draws the outcome from the seeded dice and applies it. Returns the
    /// action.
    pub fn roll(&mut self) -> Option<R::Action> {
        if !matches!(self.game.to_act(), ToAct::Chance) {
            return None;
        }
        let a = draw_chance(&self.game, &mut self.dice)?;
        self.game.apply_unchecked(a);
        self.push(a, false);
        Some(a)
    }

    /// Takes back the last action where the rules allow (their take-back limit,
    /// [`Rules::undoable`]).
    pub fn undo(&mut self) -> Result<String, Refusal> {
        if self.record.actions.is_empty() {
            let mut r = self.game.undo_refusal();
            r.why = "there is nothing to take back".into();
            return Err(r);
        }
        if self.game.undoable() == 0 {
            return Err(self.game.undo_refusal());
        }
        let last = self.record.actions.last().expect("checked").text.clone();
        self.truncate(self.record.actions.len() - 1);
        Ok(last)
    }

    /// Cuts the game back to its first `n` actions (for undo, take-back and branching; the
    /// rules' limits are the caller's to check). Replays at most [`CHECKPOINT_EVERY`] actions
    /// from the nearest checkpoint, never the whole game.
    pub fn truncate(&mut self, n: usize) {
        if n >= self.record.actions.len() {
            return;
        }
        self.record.actions.truncate(n);
        let k = n / CHECKPOINT_EVERY;
        self.checkpoints.truncate(k + 1);
        let (g, d) = self.checkpoints[k].clone();
        self.game = g;
        self.dice = d;
        replay_steps(
            &mut self.game,
            &mut self.dice,
            &self.record,
            k * CHECKPOINT_EVERY,
            n,
            &mut |_, _, _, _| {},
        )
        .expect("a prefix of a valid record replays");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A record of before the notes and the players reads as it did and writes back byte for
    /// byte; a note and the players are kept when present.
    #[test]
    fn notes_and_players_are_optional_and_round_trip() {
        let old = r#"{
  "format": "grognard-record/1",
  "scenario": "bon-first-day",
  "scenario_digest": "0123456789abcdef",
  "rules": "naw/1",
  "seed": 42,
  "actions": [
    {
      "do": "end",
      "hash": "00000000000000ff"
    },
    {
      "do": "roll 2",
      "manual": true
    }
  ]
}"#;
        let r = Record::from_json(old).unwrap();
        assert!(r.players.is_empty());
        assert!(r.actions.iter().all(|a| a.note.is_none()));
        assert_eq!(r.to_json(), old);

        let mut r2 = r.clone();
        r2.players.insert("Allied".into(), "search@3s".into());
        r2.actions[0].note = Some("plan: hold the river".into());
        let text = r2.to_json();
        assert!(text.contains(r#""note": "plan: hold the river""#), "{text}");
        assert!(text.contains(r#""Allied": "search@3s""#), "{text}");
        let back = Record::from_json(&text).unwrap();
        assert_eq!(back, r2);
        // the state hashes recorded are the same: a note is no part of them
        assert_eq!(back.actions[0].hash, r.actions[0].hash);
    }
}
