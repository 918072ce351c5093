//! The tactical test suite (issue 13): positions built as scenario files from the blunders a
//! strong wargamer punished, each with what a good player would and would not do there, and a
//! runner that lets any player (by spec: `random`, `heuristic`, `search@2000n`, ...) play each
//! position's phase and judges what it did.
//!
//! A [`Position`] is a scenario file of `crates/ai/suite/` (a few units on the Battle of
//! Nations map), the opening actions that bring it to the decision (often `end` to reach the
//! Allies' movement phase), how far the player under test plays ([`Until`]: its movement
//! phase, its movement and declarations, or its own choices of the moment, such as a retreat),
//! and [`Check`]s: predicates over the actions it took and where the units stand after them.
//! The side under test is the side to act after the opening. Each position carries a good line
//! and a blunder, written by hand, that pass and fail its checks (`tests/tactical_suite.rs`).
//!
//! Everything is reproducible: the position is a fixed state, a player is made from its spec
//! and a seed, a search with a simulation budget (`search@2000n`) plays the same actions on
//! any machine, and any die within a span is drawn from the seed. `grognard suite` prints the
//! table; `docs/ai.md` ("The tactical suite") has it for today's levels.

use crate::{player, Player};
use engine::{Dice, Rules, Side, ToAct};
use hexmap::Hex;
use naw::{Action, Column, CombatResult, Game, Scenario, Step, UnitId};

/// Whether the position tests a blunder to avoid or a chance to take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A blunder position: the good player does not do the tempting bad thing.
    Avoid,
    /// A must-take position: the good player takes what is offered.
    Take,
}

impl Kind {
    /// `avoid` or `take`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Avoid => "avoid",
            Kind::Take => "take",
        }
    }
}

/// How far the player under test plays from the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Until {
    /// Its movement phase, to its `end`.
    Movement,
    /// Its movement phase and its declarations (7.1), to the `end` that closes them.
    Declarations,
    /// Its choices of the moment (a retreat, 7.7; losses; an advance): until another side, or
    /// a die, is to act.
    Choice,
}

/// A predicate over what the player under test did in the span ([`Until`]) and where its
/// units stand at its end. Hexes are `XXYY`, units their scenario ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// None of the side's units stands in any of these hexes at the end.
    NoUnitIn(&'static [&'static str]),
    /// One of the side's units stands in one of these hexes at the end.
    HoldsOneOf(&'static [&'static str]),
    /// The side declares an attack on `target` at `at_least` (a column name, `3-1`) or better.
    Attacks {
        /// The defender.
        target: &'static str,
        /// The least column (`3-1`).
        at_least: &'static str,
    },
    /// If the side attacks `target`, it has at most `attackers` units on it (a soak-off, 7.5:
    /// the holding attack takes as little as it can).
    AtMostAttackers {
        /// The defender.
        target: &'static str,
        /// How many attackers at most.
        attackers: usize,
    },
    /// No combat the side declares lets an `Ar` eliminate an attacker: none at a column with
    /// an `Ar` result holds an attacker with no hex to retreat into nor a friend to displace
    /// (7.72, 7.81).
    NoArKill,
    /// No unit of the side retreats (or is displaced) into any of these hexes.
    NoRetreatInto(&'static [&'static str]),
    /// The side resolves its combat on `target` at a column without an `Ex` (3-1 or less,
    /// reducing the odds where they are higher, 7.9).
    ResolvedWithoutEx(&'static str),
    /// Units of the side with at least `strength` strength points between them end at least
    /// `by` hexes nearer to `hex` than they began.
    Approaches {
        /// The hex approached (the enemy's centre).
        hex: &'static str,
        /// Strength points that must come nearer.
        strength: u32,
        /// Hexes nearer.
        by: u32,
    },
}

impl Check {
    /// What the check asks, in a sentence fragment (`no unit ends in 1223`).
    pub fn describe(&self) -> String {
        match *self {
            Check::NoUnitIn(h) => format!("no unit ends in {}", h.join(", ")),
            Check::HoldsOneOf(h) => format!("a unit holds {}", h.join(" or ")),
            Check::Attacks { target, at_least } => {
                format!("attacks {target} at {at_least} or better")
            }
            Check::AtMostAttackers { target, attackers } => {
                format!("at most {attackers} unit(s) on {target}")
            }
            Check::NoArKill => "no attack where Ar kills an attacker".into(),
            Check::NoRetreatInto(h) => format!("no retreat into {}", h.join(", ")),
            Check::ResolvedWithoutEx(t) => format!("resolves on {t} at a column without Ex"),
            Check::Approaches { hex, strength, by } => {
                format!("{strength} SP come {by}+ hexes nearer {hex}")
            }
        }
    }

    /// Judges a played span: `Ok` or why it fails.
    pub fn judge(&self, t: &Trace) -> Result<(), String> {
        let g = &t.end;
        let mine = |u: UnitId| g.side_of(u) == t.side;
        let hex = |h: &str| h.parse::<Hex>().map_err(|e| format!("bad hex {h}: {e:?}"));
        let unit = |id: &str| {
            g.scenario()
                .unit_by_id(id)
                .ok_or_else(|| format!("no unit {id} in the position"))
        };
        // the combats the side declared, with the target among the defenders
        let combat_on = |target: UnitId| {
            g.combats()
                .into_iter()
                .find(|c| c.defenders.contains(&target) && c.attackers.iter().any(|&a| mine(a)))
        };
        match *self {
            Check::NoUnitIn(hexes) => {
                for h in hexes {
                    if let Some(u) = g.unit_at(hex(h)?).filter(|&u| mine(u)) {
                        return Err(format!("{} ends in {h}", g.id(u)));
                    }
                }
                Ok(())
            }
            Check::HoldsOneOf(hexes) => {
                for h in hexes {
                    if g.unit_at(hex(h)?).is_some_and(mine) {
                        return Ok(());
                    }
                }
                Err(format!("nobody in {}", hexes.join(" or ")))
            }
            Check::Attacks { target, at_least } => {
                let least = Column::parse(at_least).ok_or(format!("bad column {at_least}"))?;
                match combat_on(unit(target)?) {
                    None => Err(format!("{target} not attacked")),
                    Some(c) if c.odds.column < least => {
                        Err(format!("{target} attacked at {}", c.odds.column.name()))
                    }
                    Some(_) => Ok(()),
                }
            }
            Check::AtMostAttackers { target, attackers } => match combat_on(unit(target)?) {
                Some(c) if c.attackers.len() > attackers => Err(format!(
                    "{} units on {target} ({})",
                    c.attackers.len(),
                    names(g, &c.attackers)
                )),
                _ => Ok(()),
            },
            Check::NoArKill => {
                for c in g.combats() {
                    if !c.attackers.iter().any(|&a| mine(a)) {
                        continue;
                    }
                    let ar = c.odds.probabilities[1];
                    debug_assert_eq!(CombatResult::ALL[1], CombatResult::Ar);
                    debug_assert_eq!(CombatResult::ALL[4], CombatResult::Ex);
                    if ar <= 0.0 {
                        continue;
                    }
                    let trapped: Vec<UnitId> = c
                        .attackers
                        .iter()
                        .copied()
                        .filter(|&a| {
                            g.retreat_choices(a)
                                .is_some_and(|r| r.vacant.is_empty() && r.displace.is_empty())
                        })
                        .collect();
                    if !trapped.is_empty() {
                        return Err(format!(
                            "{} on {} at {}: Ar ({:.0}%) eliminates {}",
                            names(g, &c.attackers),
                            names(g, &c.defenders),
                            c.odds.column.name(),
                            ar * 100.0,
                            names(g, &trapped)
                        ));
                    }
                }
                Ok(())
            }
            Check::ResolvedWithoutEx(target) => {
                let u = unit(target)?;
                let natural = t
                    .start
                    .combats()
                    .into_iter()
                    .find(|c| c.defenders.first() == Some(&u))
                    .map(|c| c.odds.column);
                let column = t.actions.iter().find_map(|(a, _)| match *a {
                    Action::Resolve { target, column } if target == u => column.or(natural),
                    _ => None,
                });
                match column {
                    None => Err(format!("the combat on {target} not resolved")),
                    Some(c) if naw::tables::probabilities(c)[4] > 0.0 => Err(format!(
                        "resolved at {}, where a {:.0}% Ex costs the attackers",
                        c.name(),
                        naw::tables::probabilities(c)[4] * 100.0
                    )),
                    Some(_) => Ok(()),
                }
            }
            Check::NoRetreatInto(hexes) => {
                for (a, _) in &t.actions {
                    if let Action::Retreat { unit, to } = *a {
                        if hexes.iter().any(|h| hex(h).is_ok_and(|h| h == to)) {
                            return Err(format!("{} retreats into {to}", g.id(unit)));
                        }
                    }
                }
                Ok(())
            }
            Check::Approaches {
                hex: h,
                strength,
                by,
            } => {
                let to = hex(h)?;
                let mut sum = 0;
                for u in g.unit_ids().filter(|&u| mine(u)) {
                    let (Some(a), Some(b)) = (t.start.hex_of(u), g.hex_of(u)) else {
                        continue;
                    };
                    if a.distance(to) >= b.distance(to) + by {
                        sum += g.scenario().unit(u).strength as u32;
                    }
                }
                if sum >= strength {
                    Ok(())
                } else {
                    Err(format!("only {sum} SP came {by}+ hexes nearer {h}"))
                }
            }
        }
    }
}

fn names(g: &Game, us: &[UnitId]) -> String {
    us.iter().map(|&u| g.id(u)).collect::<Vec<_>>().join(", ")
}

/// One position of the suite.
#[derive(Clone, Copy, Debug)]
pub struct Position {
    /// Short id (`pocket-leutzsch`).
    pub id: &'static str,
    /// What it tests, in a sentence.
    pub title: &'static str,
    /// Blunder to avoid, or chance to take.
    pub kind: Kind,
    /// The scenario file, relative to `crates/ai/` (`suite/pocket-leutzsch.toml`).
    pub file: &'static str,
    /// Its text.
    pub text: &'static str,
    /// The actions that bring the scenario to the decision.
    pub opening: &'static [&'static str],
    /// How far the player plays.
    pub until: Until,
    /// What a good player does and does not do there: all must hold.
    pub checks: &'static [Check],
    /// A good line of actions (the side under test's, to the end of the span): passes.
    pub good: &'static [&'static str],
    /// A blunder (the side under test's, to the end of the span): fails at least one check.
    pub blunder: &'static [&'static str],
}

/// What a player did in a position's span.
#[derive(Clone, Debug)]
pub struct Trace {
    /// The side under test.
    pub side: Side,
    /// The position (after the opening).
    pub start: Game,
    /// The actions taken in the span, with their text, dice included.
    pub actions: Vec<(Action, String)>,
    /// The game at the end of the span.
    pub end: Game,
}

/// Resolves a map a scenario file names: the text of a shipped map (`leipzig`). The suite's
/// files name only shipped maps; the caller brings them (`scenarios::map_text`), the ai
/// depending on no data crate.
pub type MapText<'a> = &'a dyn Fn(&str) -> Option<String>;

impl Position {
    /// The scenario of the position.
    pub fn scenario(&self, map: MapText) -> Result<Scenario, String> {
        let resolve = |name: &str| map(name).ok_or_else(|| format!("no shipped map '{name}'"));
        Scenario::from_toml(self.text, self.file, &resolve).map_err(|e| e.to_string())
    }

    /// The game at the decision: the scenario with the opening played.
    pub fn game(&self, map: MapText) -> Result<Game, String> {
        let mut g = Game::new(self.scenario(map)?);
        for text in self.opening {
            let a = g
                .parse_action(text)
                .map_err(|r| format!("{}: opening '{text}': {r}", self.id))?;
            g.apply(a)
                .map_err(|r| format!("{}: opening '{text}': {r}", self.id))?;
        }
        match g.to_act() {
            ToAct::Side(_) => Ok(g),
            other => Err(format!(
                "{}: after the opening {other:?} is to act, not a side",
                self.id
            )),
        }
    }

    /// Lets `p` play the side to act in `start` through the span; any die in it is drawn
    /// from `seed`. An action the rules refuse is an error.
    pub fn play(&self, start: &Game, p: &mut dyn Player, seed: u64) -> Result<Trace, String> {
        let ToAct::Side(side) = start.to_act() else {
            return Err(format!("{}: no side to act", self.id));
        };
        let mut g = start.clone();
        let mut dice = Dice::new(seed);
        let mut actions = Vec::new();
        let (turn, phasing) = (g.turn(), g.phasing());
        // a generous bound: a phase of the Battle of Nations takes a few hundred actions
        for _ in 0..10_000 {
            let done = match self.until {
                Until::Movement => g.step() != Step::Movement,
                Until::Declarations => !matches!(g.step(), Step::Movement | Step::Declare),
                Until::Choice => !actions.is_empty() && g.to_act() != ToAct::Side(side),
            };
            if done || g.turn() != turn || g.phasing() != phasing {
                break;
            }
            let a = match g.to_act() {
                ToAct::Side(s) if s == side => p.choose(&g),
                ToAct::Chance => {
                    let outcomes = g.chance_outcomes();
                    let w: Vec<u32> = outcomes.iter().map(|o| o.1).collect();
                    let i = dice.draw(&w).ok_or("a chance event with no outcome")?;
                    outcomes[i].0
                }
                _ => break,
            };
            let text = g.action_text(a);
            g.apply(a)
                .map_err(|r| format!("{}: '{text}' refused: {r}", self.id))?;
            actions.push((a, text));
        }
        Ok(Trace {
            side,
            start: start.clone(),
            actions,
            end: g,
        })
    }

    /// Plays a line written by hand (action texts of the side under test) through the span.
    pub fn play_line(&self, start: &Game, line: &[&str]) -> Result<Trace, String> {
        let mut p = Scripted {
            line: line.iter().map(|s| s.to_string()).collect(),
            next: 0,
        };
        let t = self.play(start, &mut p, 0)?;
        if p.next != line.len() {
            return Err(format!(
                "{}: the span ended after {} of the line's {} actions",
                self.id,
                p.next,
                line.len()
            ));
        }
        Ok(t)
    }

    /// Judges a played span: each check with `Ok` or why it failed.
    pub fn judge(&self, t: &Trace) -> Vec<(Check, Result<(), String>)> {
        self.checks.iter().map(|c| (*c, c.judge(t))).collect()
    }
}

/// A line played by hand; past its end (or on an action it cannot parse) it says `end`, which
/// the span's checks then judge.
struct Scripted {
    line: Vec<String>,
    next: usize,
}

impl Player for Scripted {
    fn choose(&mut self, g: &Game) -> Action {
        let text = self.line.get(self.next).cloned().unwrap_or("end".into());
        self.next += 1;
        g.parse_action(&text).unwrap_or(Action::End)
    }
    fn name(&self) -> String {
        "line".into()
    }
}

/// One level's result on one position, over the seeds played.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The level's spec.
    pub level: String,
    /// Every check held with every seed.
    pub passed: bool,
    /// With how many seeds every check held.
    pub passes: usize,
    /// How many seeds were played.
    pub runs: usize,
    /// The failed checks of the first seed that failed, each with why (`seed 2: ...`).
    pub failed: Vec<String>,
    /// The actions it took in the span with the first seed (their text).
    pub actions: Vec<String>,
}

impl Outcome {
    /// `pass`, `FAIL`, or the passes out of the runs (`2/3`) when the seeds disagree.
    pub fn cell(&self) -> String {
        match self.passes {
            p if p == self.runs => "pass".into(),
            0 => "FAIL".into(),
            p => format!("{p}/{}", self.runs),
        }
    }
}

/// One position's row of the report.
#[derive(Clone, Debug)]
pub struct Row {
    /// The position's id.
    pub id: &'static str,
    /// Its kind.
    pub kind: Kind,
    /// Its title.
    pub title: &'static str,
    /// What it checks.
    pub checks: Vec<String>,
    /// One outcome per level, in the order asked.
    pub outcomes: Vec<Outcome>,
}

/// The suite's report: a row per position, a score per level.
#[derive(Clone, Debug)]
pub struct Report {
    /// The levels, in the order asked.
    pub levels: Vec<String>,
    /// The seeds each level played each position with (players and dice are made from them).
    pub seeds: Vec<u64>,
    /// One row per position.
    pub rows: Vec<Row>,
}

impl Report {
    /// The score of the level at `i`: positions passed with every seed, and the positions
    /// passed counted per seed (a position passed with two seeds of three counts ⅔), out of
    /// all.
    pub fn score(&self, i: usize) -> (usize, f64, usize) {
        let passed = self.rows.iter().filter(|r| r.outcomes[i].passed).count();
        let share = self
            .rows
            .iter()
            .map(|r| r.outcomes[i].passes as f64 / r.outcomes[i].runs.max(1) as f64)
            .sum();
        (passed, share, self.rows.len())
    }

    /// The report as a plain table: a line per position, a column per level, then the score
    /// and, per level, the positions it fails and why.
    pub fn table(&self) -> String {
        let w = self
            .rows
            .iter()
            .map(|r| r.id.len())
            .max()
            .unwrap_or(8)
            .max(8);
        let several = self.seeds.len() > 1;
        let least = if several { 10 } else { 6 };
        let cols: Vec<usize> = self.levels.iter().map(|l| l.len().max(least)).collect();
        let mut s = format!("{:w$}  {:6}", "position", "kind");
        for (l, c) in self.levels.iter().zip(&cols) {
            s += &format!("  {l:>c$}");
        }
        s.push('\n');
        for r in &self.rows {
            s += &format!("{:w$}  {:6}", r.id, r.kind.name());
            for (o, c) in r.outcomes.iter().zip(&cols) {
                s += &format!("  {:>c$}", o.cell());
            }
            s.push('\n');
        }
        s += &format!("{:w$}  {:6}", "score", "");
        for (i, c) in cols.iter().enumerate() {
            let (p, share, n) = self.score(i);
            let v = if several {
                format!("{p}/{n} ({share:.1})")
            } else {
                format!("{p}/{n}")
            };
            s += &format!("  {v:>c$}");
        }
        s.push('\n');
        for (i, l) in self.levels.iter().enumerate() {
            let fails: Vec<&Row> = self.rows.iter().filter(|r| !r.outcomes[i].passed).collect();
            if fails.is_empty() {
                continue;
            }
            s += &format!("\n{l} fails:\n");
            for r in fails {
                s += &format!("  {}: {}\n", r.id, r.outcomes[i].failed.join("; "));
            }
        }
        s
    }
}

/// Plays every position with every level (specs as [`player`] takes them) and every seed,
/// and judges it. Each player is made afresh for each position and seed; a level whose spec
/// is invalid is an error.
pub fn run(levels: &[&str], seeds: &[u64], map: MapText) -> Result<Report, String> {
    if seeds.is_empty() {
        return Err("no seed to play".into());
    }
    for l in levels {
        player(l, seeds[0])?;
    }
    let mut rows = Vec::new();
    for pos in POSITIONS {
        let start = pos.game(map)?;
        let mut outcomes = Vec::new();
        for l in levels {
            let mut o = Outcome {
                level: l.to_string(),
                passed: true,
                passes: 0,
                runs: seeds.len(),
                failed: Vec::new(),
                actions: Vec::new(),
            };
            for (k, &seed) in seeds.iter().enumerate() {
                let mut p = player(l, seed)?;
                let (failed, actions) = match pos.play(&start, p.as_mut(), seed) {
                    Ok(t) => (
                        pos.judge(&t)
                            .into_iter()
                            .filter_map(|(c, r)| r.err().map(|e| format!("{}: {e}", c.describe())))
                            .collect::<Vec<_>>(),
                        t.actions.into_iter().map(|a| a.1).collect(),
                    ),
                    Err(e) => (vec![e], Vec::new()),
                };
                if k == 0 {
                    o.actions = actions;
                }
                if failed.is_empty() {
                    o.passes += 1;
                } else if o.failed.is_empty() {
                    o.failed = if seeds.len() > 1 {
                        failed.iter().map(|f| format!("seed {seed}: {f}")).collect()
                    } else {
                        failed
                    };
                }
            }
            o.passed = o.passes == o.runs;
            outcomes.push(o);
        }
        rows.push(Row {
            id: pos.id,
            kind: pos.kind,
            title: pos.title,
            checks: pos.checks.iter().map(Check::describe).collect(),
            outcomes,
        });
    }
    Ok(Report {
        levels: levels.iter().map(|s| s.to_string()).collect(),
        seeds: seeds.to_vec(),
        rows,
    })
}

macro_rules! file {
    ($name:literal) => {
        (
            concat!("suite/", $name, ".toml"),
            include_str!(concat!("../suite/", $name, ".toml")),
        )
    };
}

/// The positions, in the order the table lists them. Each scenario file says the position in
/// its opening comment; the reason for each check and its rule cases are beside it here.
pub const POSITIONS: &[Position] = &[
    // Issue 13: "drops single units into hexes with few open neighbours (Leutzsch, ...) where
    // they are surrounded and destroyed next turn". Leutzsch's east and north-east hexsides are
    // the Elster (5.24, 7.72: no retreat across a river) and 1124 behind it is a dead end: two
    // French units on 1224 and 1324 close every retreat, and a Dr then eliminates (7.72). The
    // marsh to the north (9.0: entered only by road) makes 1026 and 0928 pockets too; the
    // scenario file gives the losses measured in the French reply for each.
    Position {
        id: "pocket-leutzsch",
        title: "a lone unit does not step into Leutzsch, a pocket against the Elster",
        kind: Kind::Avoid,
        file: file!("pocket-leutzsch").0,
        text: file!("pocket-leutzsch").1,
        opening: &["end"],
        until: Until::Movement,
        checks: &[Check::NoUnitIn(&["1223", "1124", "1026", "0928"])],
        good: &["move AU.7 1028", "end"],
        blunder: &["move AU.7 1223", "end"],
    },
    // Issue 13, Güldengossa: a town one step ahead of the line, every neighbour in the French
    // reach next turn (5.0, 6.0): surrounded, no retreat (7.72), destroyed by a Dr.
    Position {
        id: "pocket-gueldengossa",
        title: "a lone unit does not step into Güldengossa ahead of its friends",
        kind: Kind::Avoid,
        file: file!("pocket-gueldengossa").0,
        text: file!("pocket-gueldengossa").1,
        opening: &["end"],
        until: Until::Movement,
        checks: &[Check::NoUnitIn(&["2612"])],
        good: &["move RU.5 2809", "end"],
        blunder: &["move RU.5 2612", "end"],
    },
    // Issue 13, Seifertshain: a town with streams on two hexsides, in front of five French
    // units that reach its open neighbours next turn (6.0, 7.72).
    Position {
        id: "pocket-seifertshain",
        title: "a lone unit does not step into Seifertshain in front of the French",
        kind: Kind::Avoid,
        file: file!("pocket-seifertshain").0,
        text: file!("pocket-seifertshain").1,
        opening: &["end"],
        until: Until::Movement,
        checks: &[Check::NoUnitIn(&["2107"])],
        good: &["move AU.3 2407", "end"],
        blunder: &["move AU.3 2107", "end"],
    },
    // Issue 13, "a hex with two land neighbours": 2917 has the Pleisse on two hexsides (5.24)
    // and the map edge on two (15.4): two enemy zones (6.0) close it (7.72).
    Position {
        id: "pocket-corner",
        title: "a lone unit does not step into 2917, a hex with two land neighbours",
        kind: Kind::Avoid,
        file: file!("pocket-corner").0,
        text: file!("pocket-corner").1,
        opening: &["end"],
        until: Until::Movement,
        checks: &[Check::NoUnitIn(&["2917"])],
        good: &["move RU.8 2821", "end"],
        blunder: &["move RU.8 2917", "end"],
    },
    // Issue 13: "retreats its southern army against the map edge until every 'defender
    // retreats' kills". A unit on the edge row has no retreat off the map (15.4, 7.72): the
    // retreat (7.7, the owner's choice) goes toward friends, not onto the edge.
    Position {
        id: "edge-retreat",
        title: "a Dr retreat goes toward friends, not onto the map edge",
        kind: Kind::Avoid,
        file: file!("edge-retreat").0,
        text: file!("edge-retreat").1,
        opening: &["attack FR.1 AU.1", "end", "resolve AU.1", "roll 1"],
        until: Until::Choice,
        checks: &[Check::NoRetreatInto(&["2911", "2912", "2913", "2914"])],
        good: &["retreat AU.1 2813"],
        blunder: &["retreat AU.1 2913"],
    },
    // Issue 13: "parks a unit on its own reinforcement entry hex so the Prussian Guard cannot
    // enter" (15.0, 15.5; with friendly_occupied_entry_ok = false, ruling X3, a friend on it
    // delays the reinforcement a game-turn).
    Position {
        id: "entry-hex",
        title: "no unit parks on the entry hex of a reinforcement due next turn",
        kind: Kind::Avoid,
        file: file!("entry-hex").0,
        text: file!("entry-hex").1,
        opening: &["end"],
        until: Until::Movement,
        checks: &[Check::NoUnitIn(&["2915"])],
        good: &["end"],
        blunder: &["move AU.1 2915", "end"],
    },
    // A free 3-1: a lone 4 SP unit in the open within reach of 14 SP and out of its friends'
    // reach (7.1, 7.6: at 3-1 only a 6 gives an Ar; two attackers on opposite sides leave it no
    // retreat, 7.72, so each Dr eliminates it).
    Position {
        id: "free-3-1",
        title: "a lone enemy unit in reach is attacked at 3-1 or better",
        kind: Kind::Take,
        file: file!("free-3-1").0,
        text: file!("free-3-1").1,
        opening: &["end"],
        until: Until::Declarations,
        checks: &[Check::Attacks {
            target: "FR.12",
            at_least: "3-1",
        }],
        good: &[
            "move AU.3 1910",
            "move AU.4 2111",
            "end",
            "attack AU.3 FR.12",
            "attack AU.4 FR.12",
            "end",
        ],
        blunder: &["end", "end"],
    },
    // A soak-off (7.5, obligations 7.11 and 7.12): the weakest unit holds the strong enemy so
    // the main attack keeps its odds.
    Position {
        id: "soak-off",
        title: "a soak-off on the strong unit lets the main attack go in at 3-1",
        kind: Kind::Take,
        file: file!("soak-off").0,
        text: file!("soak-off").1,
        opening: &["end"],
        until: Until::Declarations,
        checks: &[
            Check::Attacks {
                target: "FR.1",
                at_least: "3-1",
            },
            Check::AtMostAttackers {
                target: "FR.2",
                attackers: 1,
            },
        ],
        good: &[
            "attack AU.3 FR.2",
            "attack AU.1 FR.1",
            "attack AU.2 FR.1",
            "end",
        ],
        blunder: &[
            "attack AU.3 FR.2",
            "attack AU.1 FR.2",
            "attack AU.2 FR.1",
            "end",
        ],
    },
    // Reduced odds (7.9): against a defender with no retreat every Dr eliminates it (7.72), so
    // 3-1 kills five times in six and risks only an Ar on a 6; at 6-1 an Ex (two faces in six)
    // costs at least the defender's strength in attackers (7.6), here an 8 SP unit for a 4.
    // Issue 13: today's levels "reduce odds to avoid an exchange"; the suite keeps it so.
    Position {
        id: "reduce-odds",
        title: "a trapped defender is attacked at reduced odds, without an exchange",
        kind: Kind::Take,
        file: file!("reduce-odds").0,
        text: file!("reduce-odds").1,
        opening: &[
            "end",
            "attack AU.1 FR.1",
            "attack AU.2 FR.1",
            "attack AU.3 FR.1",
            "end",
        ],
        until: Until::Choice,
        checks: &[Check::ResolvedWithoutEx("FR.1")],
        good: &["resolve FR.1 at 3-1"],
        blunder: &["resolve FR.1"],
    },
    // Issue 13: "'100% of results cost nothing' for an attack whose unit then died on Ar". An
    // attacker with no retreat (7.72) dies on an Ar: at 1-1 three faces in six; at 4-1 none.
    Position {
        id: "ar-kill",
        title: "an attacker with no retreat is not left to attack at 1-1",
        kind: Kind::Avoid,
        file: file!("ar-kill").0,
        text: file!("ar-kill").1,
        opening: &[],
        until: Until::Declarations,
        checks: &[Check::NoArKill],
        good: &[
            "move RU.10 2718",
            "end",
            "attack RU.8 FR.1",
            "attack RU.10 FR.1",
            "end",
        ],
        blunder: &["end", "attack RU.8 FR.1", "end"],
    },
    // The line of communications (17.5): checked at the end of the last game-turn; a French
    // unit on 2131 keeps the end hex (the line's end hex is where Allied cavalry would stand).
    Position {
        id: "loc-guard",
        title: "on the last turn the French hold 2131, the end of their line",
        kind: Kind::Take,
        file: file!("loc-guard").0,
        text: file!("loc-guard").1,
        opening: &[],
        until: Until::Movement,
        checks: &[Check::HoldsOneOf(&["2131"])],
        good: &["move FR.9 2131", "end"],
        blunder: &["end"],
    },
    // Issue 13: "leaves large forces idle for the whole game (the northern army, 114 SP)".
    Position {
        id: "idle-force",
        title: "a large force far from the enemy marches toward it",
        kind: Kind::Take,
        file: file!("idle-force").0,
        text: file!("idle-force").1,
        opening: &[],
        until: Until::Movement,
        checks: &[Check::Approaches {
            hex: "2414",
            strength: 22,
            by: 2,
        }],
        good: &[
            "move FR.31 1110",
            "move FR.35 1011",
            "move FR.36 1010",
            "move FR.39 0909",
            "end",
        ],
        blunder: &["end"],
    },
];
