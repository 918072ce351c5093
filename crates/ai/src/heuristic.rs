//! The heuristic player: hand-written play that knows the game (see `docs/ai.md`).

use crate::board::{Board, Reach};
use crate::info::{info, Info};
use crate::plan::{
    choose_combat_step, declaration_actions, fallback_declaration, plan_declarations,
    plan_movement, AttackNote, Explanation, Style,
};
use crate::tactics::{eval_combat, placed, Values};
use crate::Player;
use engine::{Dice, Rules};
use naw::tables::Column;
use naw::{Action, Game, Step};
use std::collections::VecDeque;

/// Hand-written play: attack set-ups at the best odds it can reach, soak-off attacks so the main
/// attack gets its odds, a line out of contact on good ground, the French line of
/// communications held, and every small combat choice made by its expected value as the
/// demoralization levels stand.
#[derive(Debug)]
pub struct HeuristicPlayer {
    rng: Dice,
    style: Style,
    reach: Reach,
    moves: VecDeque<Action>,
    moves_key: Option<(u8, u8)>,
    decl: VecDeque<Action>,
    decl_key: Option<(u8, u8)>,
    explanation: Explanation,
    last: Option<String>,
    /// A plan was adopted (the search player's) and is still to be announced by its first
    /// action.
    announce: bool,
    /// Hexes entered by displacement in the combat being resolved (and its key).
    displaced: (Option<(u8, u8, usize)>, Vec<naw::Loc>),
    /// The watch over our line in the current combat phase.
    watch: crate::plan::WatchCache,
}

impl HeuristicPlayer {
    /// The heuristic player with the default style.
    pub fn new(seed: u64) -> HeuristicPlayer {
        HeuristicPlayer::with_style(seed, Style::default())
    }

    /// A heuristic player with its own style (the search player's plan variants).
    pub fn with_style(seed: u64, style: Style) -> HeuristicPlayer {
        HeuristicPlayer {
            rng: Dice::new(seed),
            style,
            reach: Reach::default(),
            moves: VecDeque::new(),
            moves_key: None,
            decl: VecDeque::new(),
            decl_key: None,
            explanation: Explanation::default(),
            last: None,
            announce: false,
            displaced: (None, Vec::new()),
            watch: None,
        }
    }

    /// Forgets any plan (the position changed under it).
    pub fn reset(&mut self) {
        self.moves.clear();
        self.moves_key = None;
        self.decl.clear();
        self.decl_key = None;
    }

    /// The whole movement plan for the phase starting in `g`, without playing it.
    pub(crate) fn movement_plan(&mut self, g: &Game) -> (Vec<Action>, Explanation) {
        let info = info(g);
        let p = plan_movement(&info, g, self.style, &mut self.rng, &mut self.reach);
        (p.moves, p.explanation)
    }

    /// The declaration actions for the combat phase starting in `g`, without playing them.
    pub(crate) fn declaration_plan(&mut self, g: &Game) -> (Vec<Action>, Vec<AttackNote>) {
        let info = info(g);
        let plan = plan_declarations(&info, g, self.style, &mut self.rng);
        let notes = attack_notes(&info, g, &plan);
        (declaration_actions(&plan), notes)
    }

    /// Plays a prepared plan of moves or declarations for this phase (used by the search player
    /// to play the plan it chose).
    pub(crate) fn adopt(
        &mut self,
        g: &Game,
        actions: Vec<Action>,
        explanation: Option<Explanation>,
    ) {
        let key = Some((g.turn(), g.phasing().0));
        match g.step() {
            Step::Movement => {
                self.moves = actions.into();
                self.moves_key = key;
            }
            Step::Declare => {
                self.decl = actions.into();
                self.decl_key = key;
            }
            _ => {}
        }
        if let Some(e) = explanation {
            self.explanation = e;
        }
        self.announce = true;
    }

    /// The explanation of the current player-turn.
    pub(crate) fn explanation_ref(&self) -> &Explanation {
        &self.explanation
    }

    pub(crate) fn set_last(&mut self, s: Option<String>) {
        self.last = s;
    }

    /// The movement phase's next move of the plan. The plan is said once, with the phase's
    /// first action; the moves that carry it out say nothing more.
    fn choose_movement(&mut self, info: &Info, g: &Game) -> Action {
        let key = Some((g.turn(), g.phasing().0));
        let mut fresh = std::mem::take(&mut self.announce);
        if self.moves_key != key {
            let p = plan_movement(info, g, self.style, &mut self.rng, &mut self.reach);
            self.moves = p.moves.into();
            self.explanation = p.explanation;
            self.moves_key = key;
            fresh = true;
        }
        let mut a = Action::End;
        while let Some(m) = self.moves.pop_front() {
            if g.check(m).is_ok() {
                a = m;
                break;
            }
        }
        self.last = fresh.then(|| format!("plan: {}", self.explanation.plan));
        a
    }

    /// The declarations, said once with the first: every attack with its odds and why. The
    /// declarations that follow say nothing more, unless one is an obligation the plan did not
    /// foresee.
    fn choose_declaration(&mut self, info: &Info, g: &Game) -> Action {
        let key = Some((g.turn(), g.phasing().0));
        let mut fresh = std::mem::take(&mut self.announce);
        if self.decl_key != key {
            fresh = true;
            let plan = plan_declarations(info, g, self.style, &mut self.rng);
            self.explanation.attacks = attack_notes(info, g, &plan);
            if g.turn() != self.moves_key.map_or(0, |k| k.0) || self.explanation.plan.is_empty() {
                self.explanation.plan = format!(
                    "{} combat{} to fight this phase",
                    self.explanation.attacks.len(),
                    if self.explanation.attacks.len() == 1 {
                        ""
                    } else {
                        "s"
                    }
                );
            }
            self.decl = declaration_actions(&plan).into();
            self.decl_key = key;
        }
        let planned = match self.decl.pop_front() {
            Some(a) if g.check(a).is_ok() => Some(a),
            Some(_) => {
                // the plan does not fit the rules' view: finish greedily
                self.decl.clear();
                None
            }
            None => None,
        };
        let a = planned.unwrap_or_else(|| fallback_declaration(info, g));
        self.last = if fresh {
            Some(self.declarations_sentence(g))
        } else {
            self.unforeseen_note(g, a)
        };
        a
    }

    /// The phase's declarations in one sentence: each attack with its attackers, odds and why.
    pub(crate) fn declarations_sentence(&self, g: &Game) -> String {
        let attacks = &self.explanation.attacks;
        if attacks.is_empty() {
            return "no attack this phase".into();
        }
        let each: Vec<String> = attacks
            .iter()
            .map(|n| {
                format!(
                    "{} on {} at {}: {}",
                    ids(g, &n.attackers),
                    ids(g, &n.defenders),
                    n.odds.name(),
                    n.why
                )
            })
            .collect();
        format!(
            "declares {} attack{}. {}",
            attacks.len(),
            if attacks.len() == 1 { "" } else { "s" },
            each.join(". ")
        )
    }

    /// A declaration the announced attacks do not include (an obligation met greedily, 7.1).
    fn unforeseen_note(&self, g: &Game, a: Action) -> Option<String> {
        let Action::Attack { unit, target } = a else {
            return None;
        };
        let foreseen = self
            .explanation
            .attacks
            .iter()
            .any(|n| n.attackers.contains(&unit) && n.defenders.contains(&target));
        (!foreseen).then(|| {
            format!(
                "{} attacks {} as well (an obligation, 7.1)",
                g.id(unit),
                g.id(target)
            )
        })
    }
}

fn ids(g: &Game, us: &[naw::UnitId]) -> String {
    us.iter()
        .map(|&u| g.id(u).to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Notes for planned combats: odds and why.
pub(crate) fn attack_notes(
    info: &Info,
    g: &Game,
    plan: &[crate::plan::PlannedCombat],
) -> Vec<AttackNote> {
    let b = Board::from_game(info, g);
    let vals = Values::new(info, g, g.phasing());
    plan.iter()
        .map(|c| {
            let e = eval_combat(info, &b, &vals, &placed(&b, &c.attackers), &c.defenders, None);
            let soak = e.ev < 0.0 && e.p_kill == 0.0;
            let why = if soak {
                format!(
                    "a holding attack (7.5): the defender must be attacked and the strength is needed elsewhere; {} of results cost nothing",
                    pct(1.0 - e.p_loss)
                )
            } else {
                crate::plan::attack_reason(g, &e)
            };
            AttackNote {
                attackers: c.attackers.clone(),
                defenders: c.defenders.clone(),
                odds: Column(e.column),
                why,
            }
        })
        .collect()
}

fn pct(x: f64) -> String {
    format!("{:.0}%", x * 100.0)
}

impl Player for HeuristicPlayer {
    fn choose(&mut self, g: &Game) -> Action {
        let info = info(g);
        match g.step() {
            Step::Movement => self.choose_movement(&info, g),
            Step::Declare => self.choose_declaration(&info, g),
            _ => {
                let key = Some((
                    g.turn(),
                    g.phasing().0,
                    g.combats().iter().filter(|c| c.resolved).count(),
                ));
                if self.displaced.0 != key {
                    self.displaced = (key, Vec::new());
                }
                let mut a =
                    choose_combat_step(&info, g, &self.displaced.1, &mut self.watch, self.style);
                if let Action::Retreat { to, .. } = a {
                    if g.unit_at(to).is_some() {
                        let l = naw::Loc::Map(to);
                        if self.displaced.1.iter().filter(|&&x| x == l).count() >= 2 {
                            // a chain going round: any legal retreat breaks it
                            let mut legal = Vec::new();
                            g.legal_actions(&mut legal);
                            if !legal.is_empty() {
                                a = legal[(self.rng.next_u64() % legal.len() as u64) as usize];
                            }
                        }
                        if let Action::Retreat { to, .. } = a {
                            self.displaced.1.push(naw::Loc::Map(to));
                        }
                    }
                }
                let a = if g.check(a).is_ok() {
                    a
                } else {
                    let a2 = match a {
                        Action::Resolve { target, .. } => Action::Resolve {
                            target,
                            column: None,
                        },
                        other => other,
                    };
                    if g.check(a2).is_ok() {
                        a2
                    } else {
                        let mut legal = Vec::new();
                        g.legal_actions(&mut legal);
                        legal.first().copied().unwrap_or(Action::End)
                    }
                };
                self.last = Some(step_note(&info, g, a));
                a
            }
        }
    }

    fn name(&self) -> String {
        "heuristic".into()
    }

    fn explain(&self) -> Option<String> {
        self.last.clone()
    }

    fn explanation(&self) -> Option<Explanation> {
        Some(self.explanation.clone())
    }
}

/// A sentence for a combat-phase choice.
pub(crate) fn step_note(info: &Info, g: &Game, a: Action) -> String {
    match a {
        Action::Resolve { target, column } => {
            let c = g.combats().into_iter().find(|c| c.defenders.contains(&target));
            match (c, column) {
                (Some(c), Some(col)) => format!(
                    "resolve the attack on {} at {} rather than {} (7.9): the exchanges of the higher column cost more than they bring",
                    ids(g, &c.defenders),
                    col.name(),
                    c.odds.column.name()
                ),
                (Some(c), None) => format!(
                    "resolve the attack on {} at {} next: its result may open or close retreats for the others",
                    ids(g, &c.defenders),
                    c.odds.column.name()
                ),
                _ => g.action_text(a),
            }
        }
        Action::Lose { units } => format!(
            "lose {} ({} strength points): the least that meets the exchange",
            units.iter().map(|u| g.id(u).to_string()).collect::<Vec<_>>().join(", "),
            units.iter().map(|u| info.str(u)).sum::<u32>()
        ),
        Action::Retreat { unit, to } => format!("{} retreats to {to}, the safest open hex", g.id(unit)),
        Action::Advance { unit, to } => format!(
            "{} advances into {to}: it cuts retreats, gains ground or holds the line of communications",
            g.id(unit)
        ),
        Action::Hold => "no advance: the vacated hex would only expose the unit".into(),
        _ => g.action_text(a),
    }
}
