//! Actions of the Napoleonic Battles system and their canonical text.
//!
//! | text | meaning |
//! |---|---|
//! | `roll N` | a die (or the dice summed) shows `N` (chance) |
//! | `pass` | the side to act passes (NB Action phase) |
//! | `command C O` | commander `C` spends a command point on officer `O` (first or another) |
//! | `initiative O` | officer `O` tries to activate his formation on his initiative |
//! | `unit U` | unit initiative with lead unit `U` |
//! | `include U` | a unit initiative takes unit `U` of the second hex along |
//! | `exclude U` | leave unit `U` out of the activation being designated |
//! | `go` | the designation is complete: activate (or roll for it) |
//! | `order O HEX` | a failed officer writes an order: his formation's destination |
//! | `no-order` | a failed officer writes no order |
//! | `march C O HEX` | commander `C` sends officer `O` a march order to `HEX` |
//! | `set-aside O` | officer `O` sets his written or march order aside |
//! | `lend C O` | commander `C` lends his whole command rating to officer `O` for the turn |
//! | `move U HEX` | unit `U` moves one hex |
//! | `face HEX DIR` | the units of `HEX` turn to face the hexside `DIR` (`E`, `NE`, ...) |
//! | `lead L HEX` | leader `L` moves to `HEX` (in the choice step: a commander's move before he spends his command points, NB77) |
//! | `end` | end the movement or the melee phase, or stop advancing |
//! | `melee HEX HEX` | the activated units of the first hex melee the second |
//! | `evade` / `stand` | defending cavalry retreats before infantry's melee, or stands |
//! | `lose U` | one SP of the loss falls on unit `U` |
//! | `retreat HEX` | the retreating stack steps into `HEX` |
//! | `advance U` | unit `U` advances into the won hex |
//! | `react HEX DIR` | a reaction face change of the units of `HEX` |
//! | `hold HEX` | the units of `HEX` do not react |
//! | `place U HEX` | unit `U`, back from elimination in the night's recovery, returns in `HEX` (NB Recovery; NB78) |

use crate::game::Game;
use engine::Refusal;
use hexmap::{Dir, Hex};
use naw::UnitId;

/// A leader, by its index in the supplement's leader list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct LeaderId(pub u8);

/// One action. Each has one canonical text form ([`Game::action_text`](engine::Rules)) that
/// parses back to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// `roll N`: the pending die (or dice summed) shows `N`.
    Roll(u8),
    /// `pass`: no activation this time (NB Action phase).
    Pass,
    /// `command C O`: commander `C` spends a command point activating officer `O`.
    Command {
        /// The commander.
        commander: LeaderId,
        /// The officer.
        officer: LeaderId,
    },
    /// `initiative O`: officer `O` tries to activate his formation(s).
    Initiative {
        /// The officer.
        officer: LeaderId,
    },
    /// `unit U`: a unit initiative activation led by `U`.
    Unit {
        /// The lead unit.
        lead: UnitId,
    },
    /// `include U`: the unit activation takes `U` (from the one additional hex) along.
    Include {
        /// The unit.
        unit: UnitId,
    },
    /// `exclude U`: `U` is left out of the activation being designated.
    Exclude {
        /// The unit.
        unit: UnitId,
    },
    /// `go`: the designation is complete.
    Go,
    /// `order O HEX`: the failed officer writes an order (NB50).
    Order {
        /// The officer.
        officer: LeaderId,
        /// The destination of his formation.
        to: Hex,
    },
    /// `no-order`: the failed officer writes nothing.
    NoOrder,
    /// `march C O HEX`: a march order (NB Action phase: March orders).
    March {
        /// The commander sending it.
        commander: LeaderId,
        /// The officer receiving it.
        officer: LeaderId,
        /// The destination of the officer's formation.
        to: Hex,
    },
    /// `lend C O`: commander `C` lends his full command rating to officer `O` for this turn
    /// (NB Napoleon's Last Battles: commanders; NB75).
    Lend {
        /// The commander.
        commander: LeaderId,
        /// The officer.
        officer: LeaderId,
    },
    /// `set-aside O`: the officer discards his written or received order.
    SetAside {
        /// The officer.
        officer: LeaderId,
    },
    /// `move U HEX`: one hex of movement.
    Move {
        /// The unit.
        unit: UnitId,
        /// The adjacent hex it enters.
        to: Hex,
    },
    /// `face HEX DIR`: the units of a hex turn to face a hexside.
    Face {
        /// The hex.
        hex: Hex,
        /// The hexside faced.
        dir: Dir,
    },
    /// `lead L HEX`: a leader moves: in the movement phase with his activation, or in the
    /// choice step a commander before he spends his command points (NB77).
    Lead {
        /// The leader.
        leader: LeaderId,
        /// His destination.
        to: Hex,
    },
    /// `end`: end the movement or melee phase, or stop advancing after a melee.
    End,
    /// `melee HEX HEX`: a melee from one hex into another.
    Melee {
        /// The attacking hex.
        from: Hex,
        /// The defending hex.
        to: Hex,
    },
    /// `evade`: defending cavalry retreats before infantry's melee.
    Evade,
    /// `stand`: defending cavalry stands.
    Stand,
    /// `lose U`: one SP of a melee loss falls on `U`.
    Lose {
        /// The unit.
        unit: UnitId,
    },
    /// `retreat HEX`: the retreating stack steps into `HEX`.
    Retreat {
        /// The hex.
        to: Hex,
    },
    /// `advance U`: `U` advances into the won hex.
    Advance {
        /// The unit.
        unit: UnitId,
    },
    /// `react HEX DIR`: a reaction face change.
    React {
        /// The reacting hex.
        hex: Hex,
        /// Its new facing.
        dir: Dir,
    },
    /// `hold HEX`: the hex declines its reaction.
    Hold {
        /// The hex.
        hex: Hex,
    },
    /// `place U HEX`: the owner places a unit that recovered from elimination, within 2 hexes
    /// of its officer (NB Recovery; NB78).
    Place {
        /// The unit.
        unit: UnitId,
        /// The hex it returns in.
        to: Hex,
    },
}

/// A direction from its short name.
pub fn parse_dir(s: &str) -> Option<Dir> {
    Dir::ALL
        .into_iter()
        .find(|d| d.name().eq_ignore_ascii_case(s))
}

impl Action {
    /// The canonical text of the action.
    pub fn text(&self, g: &Game) -> String {
        let u = |u: &UnitId| g.unit_name(*u).to_string();
        let l = |l: &LeaderId| g.leader_name(*l).to_string();
        match self {
            Action::Roll(n) => format!("roll {n}"),
            Action::Pass => "pass".into(),
            Action::Command { commander, officer } => {
                format!("command {} {}", l(commander), l(officer))
            }
            Action::Initiative { officer } => format!("initiative {}", l(officer)),
            Action::Unit { lead } => format!("unit {}", u(lead)),
            Action::Include { unit } => format!("include {}", u(unit)),
            Action::Exclude { unit } => format!("exclude {}", u(unit)),
            Action::Go => "go".into(),
            Action::Order { officer, to } => format!("order {} {to}", l(officer)),
            Action::NoOrder => "no-order".into(),
            Action::March {
                commander,
                officer,
                to,
            } => format!("march {} {} {to}", l(commander), l(officer)),
            Action::SetAside { officer } => format!("set-aside {}", l(officer)),
            Action::Lend { commander, officer } => {
                format!("lend {} {}", l(commander), l(officer))
            }
            Action::Move { unit, to } => format!("move {} {to}", u(unit)),
            Action::Face { hex, dir } => format!("face {hex} {}", dir.name()),
            Action::Lead { leader, to } => format!("lead {} {to}", l(leader)),
            Action::End => "end".into(),
            Action::Melee { from, to } => format!("melee {from} {to}"),
            Action::Evade => "evade".into(),
            Action::Stand => "stand".into(),
            Action::Lose { unit } => format!("lose {}", u(unit)),
            Action::Retreat { to } => format!("retreat {to}"),
            Action::Advance { unit } => format!("advance {}", u(unit)),
            Action::React { hex, dir } => format!("react {hex} {}", dir.name()),
            Action::Hold { hex } => format!("hold {hex}"),
            Action::Place { unit, to } => format!("place {} {to}", u(unit)),
        }
    }

    /// Parses action text in a game (unit and leader ids are case-insensitive).
    pub fn parse(g: &Game, text: &str) -> Result<Action, Refusal> {
        let w: Vec<&str> = text.split_whitespace().collect();
        let bad = |what: &str| Refusal::new("action", format!("'{text}': {what}"));
        let unit = |s: &str| {
            g.scenario()
                .unit_by_id(s)
                .ok_or_else(|| Refusal::new("action", format!("no unit '{s}'")))
        };
        let leader = |s: &str| {
            g.leader_by_id(s)
                .ok_or_else(|| Refusal::new("action", format!("no leader '{s}'")))
        };
        let hex = |s: &str| {
            s.parse::<Hex>()
                .map_err(|_| Refusal::new("action", format!("'{s}' is not a hex (XXYY)")))
        };
        let dir = |s: &str| {
            parse_dir(s).ok_or_else(|| {
                Refusal::new(
                    "action",
                    format!("'{s}' is not a hexside (E, NE, NW, W, SW, SE)"),
                )
            })
        };
        let roll = |s: &str| {
            s.parse::<u8>()
                .map_err(|_| Refusal::new("action", format!("'{s}' is not a die roll")))
        };
        Ok(match w.as_slice() {
            ["roll", n] => Action::Roll(roll(n)?),
            ["pass"] => Action::Pass,
            ["command", c, o] => Action::Command {
                commander: leader(c)?,
                officer: leader(o)?,
            },
            ["initiative", o] => Action::Initiative {
                officer: leader(o)?,
            },
            ["unit", x] => Action::Unit { lead: unit(x)? },
            ["include", x] => Action::Include { unit: unit(x)? },
            ["exclude", x] => Action::Exclude { unit: unit(x)? },
            ["go"] => Action::Go,
            ["order", o, h] => Action::Order {
                officer: leader(o)?,
                to: hex(h)?,
            },
            ["no-order"] => Action::NoOrder,
            ["march", c, o, h] => Action::March {
                commander: leader(c)?,
                officer: leader(o)?,
                to: hex(h)?,
            },
            ["lend", c, o] => Action::Lend {
                commander: leader(c)?,
                officer: leader(o)?,
            },
            ["set-aside", o] => Action::SetAside {
                officer: leader(o)?,
            },
            ["move", x, h] => Action::Move {
                unit: unit(x)?,
                to: hex(h)?,
            },
            ["face", h, d] => Action::Face {
                hex: hex(h)?,
                dir: dir(d)?,
            },
            ["lead", o, h] => Action::Lead {
                leader: leader(o)?,
                to: hex(h)?,
            },
            ["end"] => Action::End,
            ["melee", a, b] => Action::Melee {
                from: hex(a)?,
                to: hex(b)?,
            },
            ["evade"] => Action::Evade,
            ["stand"] => Action::Stand,
            ["lose", x] => Action::Lose { unit: unit(x)? },
            ["retreat", h] => Action::Retreat { to: hex(h)? },
            ["advance", x] => Action::Advance { unit: unit(x)? },
            ["react", h, d] => Action::React {
                hex: hex(h)?,
                dir: dir(d)?,
            },
            ["hold", h] => Action::Hold { hex: hex(h)? },
            ["place", x, h] => Action::Place {
                unit: unit(x)?,
                to: hex(h)?,
            },
            _ => return Err(bad(
                "not an action (pass, command C O, initiative O, unit U, include U, exclude U, \
                     go, order O HEX, no-order, march C O HEX, lend C O, set-aside O, move U HEX, \
                     face HEX DIR, lead L HEX, end, melee HEX HEX, evade, stand, lose U, \
                     retreat HEX, advance U, react HEX DIR, hold HEX, place U HEX, roll N)",
            )),
        })
    }
}
