//! The heuristic player of the Napoleonic Battles system: one decision at a time from the
//! position alone (no memory between actions but its last explanation), cheap enough for the
//! search's rollouts.
//!
//! - **Activation** (the action phase): each officer's formation is worth the strength of the
//!   units his activation would take ([`Game::officer_units`]), weighted by how near the enemy
//!   they stand by path (in contact three times a distant unit); an initiative attempt is worth
//!   it times its chance (the officer's rating, +2 after a failure, certain on Auto or when a
//!   march order has arrived), a command point spends the commander's points on it for sure;
//!   a unit initiative takes one hex in contact; the side passes when nothing is worth a
//!   strength point. Before it, a commander with a point to spare sends a **march order** to
//!   an officer beyond his range whose formation is away from the fight and unlikely to
//!   activate alone ([`march_order`]). **Designating**, a commander adds officers near the
//!   enemy on further points, a unit activation takes its best second hex, an officer's
//!   activation leaves out the weak units holding the line ([`designation`]); a failed officer
//!   **writes an order** toward the enemy for his +2 ([`written_order`]).
//! - **Movement**: every activated unit not yet in contact steps toward the nearest enemy
//!   while a step brings it nearer by hexes (a step on a cheapest path first, by the rules'
//!   costs: [`super::paths`]); a unit the ground stalls (a river without a bridge) follows the
//!   cheapest path around; under an order, the path to its destination. It closes into
//!   contact only where its strength and that of the hex's friends is enough for its style
//!   against the enemy hex it meets, preferring hexes beside friends (the line). Then each hex
//!   faces the enemy: the hexside that puts most adjacent enemies in its front (no flank to an
//!   adjacent enemy), else the nearest enemy. Officers follow their formation.
//! - **Melee**: every declaration the rules allow is assessed by the rules
//!   ([`Game::melee_odds`]: the column with its shifts) and the table's expected losses and
//!   retreat chances; the best is declared when it beats the style's threshold.
//! - **Losses** fall on the strongest unit, **retreats** go where the enemy is farthest,
//!   **reactions** turn the front to the moving enemy, cavalry **evades** a melee that would
//!   cost it more than it would cost the attacker.

use engine::{Rules, Side, ToAct};
use hexmap::{Dir, Hex};
use napoleonic_battles::data::Rank;
use napoleonic_battles::melee::Column;
use napoleonic_battles::{arc, Action, Arc as Arcs, Game, LeaderId, LeaderLoc, Loc, Step};
use naw::{UnitId, UnitType};

use super::paths::{self, Field, FAR};

/// How boldly the heuristic plays: the search compares plans in each style.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Style {
    /// Closes into contact at even strength and melees at fair odds.
    Bold,
    /// The default: closes with an edge, melees when the expected exchange favours it.
    Steady,
    /// Keeps a hex between itself and the enemy unless clearly stronger; melees only at
    /// good odds.
    Cautious,
}

impl Style {
    /// Every style, the default first.
    pub const ALL: [Style; 3] = [Style::Steady, Style::Bold, Style::Cautious];

    /// The strength ratio (ours : the enemy hex's) needed to step into contact.
    fn contact_ratio(self) -> f64 {
        match self {
            Style::Bold => 0.6,
            Style::Steady => 0.8,
            Style::Cautious => 2.0,
        }
    }

    /// The least worth of a melee declared (see [`melee_worth`]).
    fn melee_threshold(self) -> f64 {
        match self {
            Style::Bold => -0.25,
            Style::Steady => 0.15,
            Style::Cautious => 0.6,
        }
    }

    /// Its name in explanations.
    pub fn name(self) -> &'static str {
        match self {
            Style::Bold => "bold",
            Style::Steady => "steady",
            Style::Cautious => "cautious",
        }
    }
}

/// The heuristic player.
#[derive(Clone, Debug)]
pub struct NbHeuristic {
    style: Style,
    last: Option<String>,
}

/// The side of a unit.
pub(crate) fn side_of(g: &Game, u: UnitId) -> Side {
    g.scenario().unit(u).side
}

/// The hex of a unit on the map.
pub(crate) fn hex_of(g: &Game, u: UnitId) -> Option<Hex> {
    match g.loc(u) {
        Loc::Map(h) => Some(h),
        _ => None,
    }
}

/// The hexes holding units of the side other than `me`, in order.
pub(crate) fn enemy_hexes(g: &Game, me: Side) -> Vec<Hex> {
    let mut v: Vec<Hex> = g
        .unit_ids()
        .filter(|&u| side_of(g, u) != me)
        .filter_map(|u| hex_of(g, u))
        .collect();
    v.sort();
    v.dedup();
    v
}

/// The nearest of `hexes` to `h` (ties to the first) and its distance.
fn nearest(g: &Game, h: Hex, hexes: &[Hex]) -> Option<(u32, Hex)> {
    let map = &g.scenario().map;
    hexes
        .iter()
        .map(|&e| (map.distance(h, e), e))
        .min_by_key(|&(d, e)| (d, e))
}

/// The SP of the units in a hex.
fn hex_sp(g: &Game, h: Hex) -> u32 {
    g.occupants(h).iter().map(|&u| u32::from(g.sp(u))).sum()
}

/// How much a unit `d` hexes from the nearest enemy is worth activating, per SP.
fn nearness_weight(d: u32, night: bool) -> f64 {
    if night {
        // no combat and no moving into contact at night: only repositioning
        return if d <= 1 { 0.1 } else { 0.3 };
    }
    match d {
        0..=1 => 3.0,
        2..=3 => 2.0,
        4..=6 => 1.2,
        _ => 0.6,
    }
}

/// How far a unit in `h` is from the enemy for the heuristic: 1 when adjacent, else the
/// hexes of clear ground the path to the enemy costs ([`paths::field`]: half MP / 2), never
/// less than the hex distance (99 when no path).
fn path_distance(g: &Game, h: Hex, enemies: &[Hex], field: &Field) -> u32 {
    let d = nearest(g, h, enemies).map_or(99, |x| x.0);
    if d <= 1 {
        return d;
    }
    let f = field.at(h);
    if f == FAR {
        return 99;
    }
    d.max(f / 2)
}

/// True for cavalry (its own movement costs: swamps are closed to it).
fn is_cavalry(g: &Game, u: UnitId) -> bool {
    g.scenario().unit(u).kind == UnitType::Cavalry
}

/// The worth of activating `units`: their SP weighted by nearness to the enemy (by path).
fn units_worth(g: &Game, units: &[UnitId], enemies: &[Hex]) -> f64 {
    let night = g.scenario().is_night(g.turn());
    let field = paths::field(g, false, enemies);
    units
        .iter()
        .filter_map(|&u| hex_of(g, u).map(|h| (u, h)))
        .map(|(u, h)| {
            let d = path_distance(g, h, enemies, &field);
            f64::from(g.sp(u)) * nearness_weight(d, night)
        })
        .sum()
}

/// An activation the heuristic considers, with its worth and a sentence.
#[derive(Clone, Debug)]
pub(crate) struct Choice {
    pub action: Action,
    pub worth: f64,
    pub why: String,
}

/// How much one more SP lost by the formations in a hex weighs: 1, up to 3 as the most worn
/// formation there nears its demoralization limit (formation demoralization is what scores).
fn wear(g: &Game, h: Hex) -> f64 {
    let sup = g.supplement();
    g.occupants(h)
        .iter()
        .map(|&u| sup.formation_of(g.scenario(), u))
        .filter_map(|f| {
            let def = sup.formations.get(f)?;
            if def.loss_limit == 0 || g.formation_demoralized(f) {
                return Some(1.0);
            }
            let frac = f64::from(g.formation_lost(f)) / f64::from(def.loss_limit);
            Some(1.0 + 2.0 * frac.min(1.0))
        })
        .fold(1.0, f64::max)
}

/// The worth of a melee from `a`'s hex into its target on `column` by the table: the
/// defender's expected loss and retreat chance against the attacker's, each loss weighed by
/// its formations' wear ([`wear`]).
fn melee_worth(g: &Game, a: Action, column: usize) -> f64 {
    let t = &g.supplement().melee;
    let (al, dl) = t.expected_losses(column);
    let dr = t.chance(column, |r| r.defender_retreat > 0);
    let ar = t.chance(column, |r| r.attacker_retreat > 0);
    let (wa, wd) = match a {
        Action::Melee { from, to } => (wear(g, from), wear(g, to)),
        _ => (1.0, 1.0),
    };
    dl * wd - al * wa + 0.8 * (dr - ar)
}

impl NbHeuristic {
    /// A heuristic player of a style.
    pub fn new(style: Style) -> NbHeuristic {
        NbHeuristic { style, last: None }
    }

    /// Its style.
    pub fn style(&self) -> Style {
        self.style
    }

    /// The explanation of the last choice, when it began a plan.
    pub fn explain(&self) -> Option<String> {
        self.last.clone()
    }

    /// One action for the seat to act, with its explanation kept for [`explain`].
    pub fn choose(&mut self, g: &Game) -> Action {
        let (a, why) = self.decide(g);
        self.last = why;
        a
    }

    /// One action for the seat to act and, when it begins a plan, a sentence.
    pub(crate) fn decide(&self, g: &Game) -> (Action, Option<String>) {
        let ToAct::Side(me) = g.to_act() else {
            return (Action::Pass, None);
        };
        let found = match g.step() {
            Step::Choose => {
                if let Some(m) = march_order(g, me) {
                    return (m.action, Some(m.why));
                }
                let c = activation_choices(g, me);
                let best = c.into_iter().next();
                best.map(|c| (c.action, Some(c.why)))
            }
            Step::Designate => Some(designation(g, me)),
            Step::WriteOrder => Some(written_order(g, me)),
            Step::Movement => Some((self.movement(g, me), None)),
            Step::Reaction => self.reaction(g, me).map(|a| (a, None)),
            Step::Melee => Some(self.melee(g, me)),
            Step::Evade => Some((self.evade(g), None)),
            Step::Losses | Step::Retreat | Step::Advance => self.after_melee(g, me),
            Step::Place => placement(g, me),
            _ => None,
        };
        found.unwrap_or_else(|| (first_legal(g), None))
    }

    /// Movement: steps toward the enemy, then facing, then officers, then the end.
    fn movement(&self, g: &Game, me: Side) -> Action {
        let enemies = enemy_hexes(g, me);
        let map = &g.scenario().map;
        let active: Vec<(UnitId, Hex)> = g
            .unit_ids()
            .filter(|&u| side_of(g, u) == me && g.unit(u).active)
            .filter_map(|u| hex_of(g, u).map(|h| (u, h)))
            .collect();
        // 1. steps toward the enemy, along the cheapest path (the rules' movement costs), or
        // toward the destination of the activation's order (NB50)
        let order = g.activation().and_then(|a| a.order);
        let targets: Vec<Hex> = match order {
            Some(dest) => vec![dest],
            None => enemies.clone(),
        };
        let fields = [
            paths::field(g, false, &targets),
            paths::field(g, true, &targets),
        ];
        let mut steps: Vec<(f64, Action)> = Vec::new();
        for &(u, h) in &active {
            let Some((d0, _)) = nearest(g, h, &enemies) else {
                continue;
            };
            if d0 <= 1 {
                continue; // in contact: it stays and fights
            }
            let cav = is_cavalry(g, u);
            let field = &fields[usize::from(cav)];
            let f0 = field.at(h);
            if order.is_some_and(|dest| dest == h) {
                continue; // at its order's destination
            }
            let my_sp = f64::from(g.sp(u));
            let kind = g.scenario().unit(u).kind;
            // a unit with a step that brings it nearer the enemy by hexes takes such a step,
            // the one on a cheapest path first (measured: straight lines beside friends beat
            // columns along the cheapest roads); a unit stalled by the ground (a river
            // without a bridge nearby) follows the field around it; under an order the field
            // toward its destination leads (NB50)
            let stalled = order.is_some()
                || !Dir::ALL.into_iter().any(|d| {
                    let n = map.neighbour(h, d);
                    map.contains(n)
                        && g.terrain_step(kind, h, d).is_ok()
                        && nearest(g, n, &enemies).is_some_and(|x| x.0 < d0)
                });
            for d in Dir::ALL {
                let n = map.neighbour(h, d);
                if !map.contains(n) {
                    continue;
                }
                let Some((dn, e)) = nearest(g, n, &enemies) else {
                    continue;
                };
                let fnext = field.at(n);
                let progress = if !stalled || f0 == FAR || fnext == FAR {
                    if dn >= d0 {
                        continue;
                    }
                    10.0 * f64::from(d0 - dn) + if fnext < f0 { 2.0 } else { 0.0 }
                } else {
                    if fnext >= f0 {
                        continue;
                    }
                    // on a cheapest path the step costs exactly the field's fall; off it, the
                    // excess is the detour
                    let cost = g.terrain_step(kind, h, d).map_or(99, u32::from);
                    let detour = (fnext + cost).saturating_sub(f0);
                    10.0 - f64::from(detour.min(9))
                };
                if dn <= 1 {
                    // into contact: only with enough strength for the style
                    let ours = my_sp + f64::from(hex_sp(g, n));
                    let theirs = f64::from(hex_sp(g, e)).max(1.0);
                    if ours / theirs < self.style.contact_ratio() {
                        continue;
                    }
                }
                let friends = map
                    .neighbours(n)
                    .iter()
                    .filter(|&&x| x != h)
                    .filter(|&&x| g.occupants(x).iter().any(|&f| side_of(g, f) == me))
                    .count();
                let score = progress + friends.min(2) as f64;
                steps.push((score, Action::Move { unit: u, to: n }));
            }
        }
        steps.sort_by(|a, b| b.0.total_cmp(&a.0));
        for (_, a) in steps {
            if g.check(a).is_ok() {
                return a;
            }
        }
        // 2. facing
        let mut hexes: Vec<Hex> = active.iter().map(|x| x.1).collect();
        hexes.dedup();
        for h in hexes {
            if let Some(a) = face_enemy(g, me, h, &enemies, |h, dir| Action::Face { hex: h, dir }) {
                return a;
            }
        }
        // 3. officers and commanders of the activation follow their units
        if let Some(act) = g.activation() {
            let mut leaders = act.officers.clone();
            leaders.extend(act.commander);
            for l in leaders {
                if let Some(a) = follow(g, me, l, &enemies) {
                    return a;
                }
            }
        }
        Action::End
    }

    /// A reaction face change: turn the front to the enemy that moved, or hold.
    fn reaction(&self, g: &Game, me: Side) -> Option<Action> {
        let mut legal = Vec::new();
        g.legal_actions(&mut legal);
        let hold = legal
            .iter()
            .copied()
            .find(|a| matches!(a, Action::Hold { .. }))?;
        let Action::Hold { hex } = hold else {
            return None;
        };
        let enemies = enemy_hexes(g, me);
        let cur = front_score(g, me, hex, g.hex_facing(hex)?, &enemies);
        let best = legal
            .iter()
            .filter_map(|&a| match a {
                Action::React { dir, .. } => Some((front_score(g, me, hex, dir, &enemies), a)),
                _ => None,
            })
            .max_by(|a, b| a.0.total_cmp(&b.0));
        Some(match best {
            Some((s, a)) if s > cur => a,
            _ => hold,
        })
    }

    /// Melee: the best declaration by the rules' odds, if worth it.
    fn melee(&self, g: &Game, me: Side) -> (Action, Option<String>) {
        let mut best: Option<(f64, Action, String)> = None;
        for (a, odds, c) in melee_options(g, me) {
            let w = melee_worth(g, a, c);
            if w >= self.style.melee_threshold() && best.as_ref().is_none_or(|b| w > b.0) {
                best = Some((w, a, melee_sentence(g, a, &odds, c)));
            }
        }
        match best {
            Some((_, a, why)) => (a, Some(why)),
            None => (Action::End, None),
        }
    }

    /// Defending cavalry evades a melee that would cost it more than the attacker.
    fn evade(&self, g: &Game) -> Action {
        let Some(m) = g.melee() else {
            return Action::Stand;
        };
        let col = match g.melee_odds(m.from, m.to).map(|o| o.column) {
            Ok(Column::Table(c)) => c,
            _ => return Action::Stand,
        };
        let (al, dl) = g.supplement().melee.expected_losses(col);
        if dl > al + 0.5 && g.check(Action::Evade).is_ok() {
            Action::Evade
        } else {
            Action::Stand
        }
    }

    /// Losses, retreats and the advance.
    fn after_melee(&self, g: &Game, me: Side) -> Option<(Action, Option<String>)> {
        let mut legal = Vec::new();
        g.legal_actions(&mut legal);
        let a = match g.step() {
            // losses on the strongest unit (no unit is lost while another can take the SP)
            Step::Losses => legal
                .iter()
                .copied()
                .filter_map(|a| match a {
                    Action::Lose { unit } => Some((g.sp(unit), std::cmp::Reverse(unit.0), a)),
                    _ => None,
                })
                .max_by_key(|x| (x.0, x.1))
                .map(|x| x.2),
            // retreats away from the enemy, toward friends
            Step::Retreat => legal
                .iter()
                .copied()
                .filter_map(|a| match a {
                    Action::Retreat { to } => {
                        let d = g.enemy_distance(me.0, to).min(20);
                        let friends = g
                            .scenario()
                            .map
                            .neighbours(to)
                            .iter()
                            .filter(|&&x| g.occupants(x).iter().any(|&f| side_of(g, f) == me))
                            .count();
                        Some((d * 10 + friends as u32, std::cmp::Reverse(to), a))
                    }
                    _ => None,
                })
                .max_by_key(|x| (x.0, x.1))
                .map(|x| x.2),
            // the advance: the strongest unit into the won hex, then face the enemy
            Step::Advance => {
                let m = g.melee()?;
                let entered = g.occupants(m.to).iter().any(|&u| side_of(g, u) == me);
                let adv = legal
                    .iter()
                    .copied()
                    .filter_map(|a| match a {
                        Action::Advance { unit } => Some((g.sp(unit), a)),
                        _ => None,
                    })
                    .max_by_key(|x| x.0)
                    .map(|x| x.1);
                let enemies = enemy_hexes(g, me);
                if !entered && adv.is_some() {
                    adv
                } else if let Some(f) =
                    face_enemy(g, me, m.to, &enemies, |h, dir| Action::Face { hex: h, dir })
                        .filter(|a| legal.contains(a))
                {
                    Some(f)
                } else if legal.contains(&Action::End) {
                    Some(Action::End)
                } else {
                    adv
                }
            }
            _ => None,
        };
        a.or_else(|| legal.first().copied()).map(|a| (a, None))
    }
}

/// The first legal action (the fallback; `Pass` when none).
/// Beyond this many hexes from the nearest enemy a returning unit is as safe as it can be.
const SAFE_DISTANCE: u32 = 4;

/// Where a unit back from elimination returns (NB Recovery; the rules list the hexes, nearest
/// its officer first): the hex farthest from the enemy, up to [`SAFE_DISTANCE`] (a 1-SP unit
/// should not be the next melee's target), then the nearest its officer (with its formation,
/// inside his span for the next activation).
fn placement(g: &Game, me: Side) -> Option<(Action, Option<String>)> {
    let u = g.unit_to_place()?;
    let (i, to) = g
        .placement_hexes(u)
        .into_iter()
        .enumerate()
        .max_by_key(|&(i, h)| {
            (
                g.enemy_distance(me.0, h).min(SAFE_DISTANCE),
                std::cmp::Reverse(i),
            )
        })?;
    let far = g.enemy_distance(me.0, to);
    let why = format!(
        "{} is back from elimination: placed in {to}, {} from the nearest enemy{}.",
        g.unit_name(u),
        if far == u32::MAX {
            "far".to_string()
        } else {
            format!("{far} hexes")
        },
        if i == 0 {
            ", as near its officer as that allows"
        } else {
            ""
        }
    );
    Some((Action::Place { unit: u, to }, Some(why)))
}

fn first_legal(g: &Game) -> Action {
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    legal.first().copied().unwrap_or(Action::Pass)
}

/// How well a hex facing `dir` fronts the enemy: adjacent enemy hexes in its front (weighted
/// by their SP), less those on its flank or rear, else nearness of its front to the nearest
/// enemy.
fn front_score(g: &Game, me: Side, h: Hex, dir: Dir, enemies: &[Hex]) -> f64 {
    let map = &g.scenario().map;
    let mut s = 0.0;
    for d in Dir::ALL {
        let n = map.neighbour(h, d);
        let sp = g
            .occupants(n)
            .iter()
            .filter(|&&e| side_of(g, e) != me)
            .map(|&e| f64::from(g.sp(e)))
            .sum::<f64>();
        if sp == 0.0 {
            continue;
        }
        match arc(dir, d) {
            Arcs::Front => s += 100.0 + sp,
            Arcs::Flank => s -= 50.0,
            Arcs::Rear => s -= 80.0,
        }
    }
    if let Some((_, e)) = nearest(g, h, enemies) {
        let front = map.neighbour(h, dir);
        s -= f64::from(map.distance(front, e));
    }
    s
}

/// The face change that fronts the enemy better than the present facing, if legal.
fn face_enemy(
    g: &Game,
    me: Side,
    h: Hex,
    enemies: &[Hex],
    make: impl Fn(Hex, Dir) -> Action,
) -> Option<Action> {
    let cur = g.hex_facing(h)?;
    let now = front_score(g, me, h, cur, enemies);
    let mut dirs: Vec<(f64, Dir)> = Dir::ALL
        .into_iter()
        .filter(|&d| d != cur)
        .map(|d| (front_score(g, me, h, d, enemies), d))
        .filter(|x| x.0 > now + 0.5)
        .collect();
    dirs.sort_by(|a, b| b.0.total_cmp(&a.0));
    dirs.into_iter()
        .map(|(_, d)| make(h, d))
        .find(|&a| g.check(a).is_ok())
}

/// An officer's or commander's move to stay with his units: to the hex of his formation's
/// unit nearest their middle, not in contact, when he is more than a hex from it.
fn follow(g: &Game, me: Side, l: LeaderId, enemies: &[Hex]) -> Option<Action> {
    let LeaderLoc::Map(lh) = g.leader_loc(l) else {
        return None;
    };
    let sup = g.supplement();
    let def = sup.leaders.get(usize::from(l.0))?;
    let units: Vec<Hex> = g
        .unit_ids()
        .filter(|&u| side_of(g, u) == me)
        .filter(|&u| match def.rank {
            Rank::Corps => def.formations.contains(&sup.formation_of(g.scenario(), u)),
            Rank::Army => g.unit(u).active,
        })
        .filter_map(|u| hex_of(g, u))
        .collect();
    if units.is_empty() {
        return None;
    }
    let n = units.len() as f64;
    let cx = units.iter().map(|h| f64::from(h.x)).sum::<f64>() / n;
    let cy = units.iter().map(|h| f64::from(h.y)).sum::<f64>() / n;
    let map = &g.scenario().map;
    let mut spots: Vec<(f64, Hex)> = units
        .iter()
        .copied()
        .filter(|&h| nearest(g, h, enemies).is_none_or(|x| x.0 > 1))
        .map(|h| {
            (
                (f64::from(h.x) - cx).powi(2) + (f64::from(h.y) - cy).powi(2),
                h,
            )
        })
        .collect();
    spots.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let (_, best) = *spots.first()?;
    if map.distance(lh, best) <= 1 {
        return None;
    }
    spots
        .into_iter()
        .take(4)
        .map(|(_, to)| Action::Lead { leader: l, to })
        .find(|&a| g.check(a).is_ok())
}

/// The sentence of a melee declaration: the rules' assessment in words and the table's
/// expected losses on its column.
pub(crate) fn melee_sentence(g: &Game, a: Action, odds: &str, c: usize) -> String {
    let t = &g.supplement().melee;
    let (al, dl) = t.expected_losses(c);
    let (from, to) = match a {
        Action::Melee { from, to } => (from.to_string(), to.to_string()),
        _ => ("?".into(), "?".into()),
    };
    format!(
        "Melee from {from} into {to} on the {} column ({odds}): expected losses {dl:.1} SP to \
         the defender against {al:.1} to the attacker.",
        t.column_name(c)
    )
}

/// The worth of a melee option (for the search's ordering).
pub(crate) fn option_worth(g: &Game, a: Action, c: usize) -> f64 {
    melee_worth(g, a, c)
}

/// An officer's chance to activate if he tries now: certain when a march order of his has
/// arrived or on the Auto side, else his initiative rating with a lent rating (NB75) and the
/// +2 of a written order, out of six (NB Action phase).
pub(crate) fn initiative_chance(g: &Game, o: LeaderId) -> f64 {
    let Some(v) = g.leader(o) else { return 0.0 };
    if v.march.is_some_and(|(t, _)| t <= g.turn()) {
        return 1.0;
    }
    let rating = u32::from(g.supplement().leaders[usize::from(o.0)].initiative) + u32::from(v.lent);
    match v.bonus {
        napoleonic_battles::Bonus::Auto => 1.0,
        napoleonic_battles::Bonus::Plus2 => f64::from((rating + 2).min(6)) / 6.0,
        napoleonic_battles::Bonus::None => f64::from(rating.min(6)) / 6.0,
    }
}

/// The command points a commander has left this turn.
fn points_left(g: &Game, c: LeaderId) -> u8 {
    let rating = g.supplement().leaders[usize::from(c.0)].command;
    g.leader(c)
        .map_or(0, |v| rating.saturating_sub(v.command_points_used))
}

/// The hex within an order's reach of `from` (NB50: 3 hexes) that is nearest the enemy by
/// path, not held by the enemy (ties to the nearer, then the lower hex).
fn order_destination(g: &Game, me: Side, from: Hex) -> Option<Hex> {
    let enemies = enemy_hexes(g, me);
    let field = paths::field(g, false, &enemies);
    let map = &g.scenario().map;
    let r = napoleonic_battles::ORDER_RADIUS;
    map.hexes()
        .filter(|&h| map.distance(from, h) <= r)
        .filter(|&h| !g.occupants(h).iter().any(|&u| side_of(g, u) != me))
        .filter(|&h| field.at(h) != FAR)
        .min_by_key(|&h| (field.at(h), map.distance(from, h), h))
}

/// A march order worth a command point (NB Action phase: March orders): to an officer beyond
/// his commander's range whose formation stands away from the fight (most of its SP four hexes
/// or more from the enemy by path) and who is unlikely to activate alone (his chance at most
/// half), toward the enemy; only while the commander keeps a point for an activation, or has
/// no officer in range to spend it on. The march then arrives in one or two turns and
/// activates the formation for sure.
pub(crate) fn march_order(g: &Game, me: Side) -> Option<Choice> {
    if g.scenario().is_night(g.turn()) {
        return None;
    }
    let sup = g.supplement();
    let enemies = enemy_hexes(g, me);
    let field = paths::field(g, false, &enemies);
    let leaders = g.leaders_of(me);
    let rank = |l: LeaderId| sup.leaders[usize::from(l.0)].rank;
    let mut best: Option<(f64, Choice)> = None;
    for &c in leaders.iter().filter(|&&l| rank(l) == Rank::Army) {
        let left = points_left(g, c);
        if left == 0 {
            continue;
        }
        let in_range = leaders.iter().any(|&o| {
            rank(o) == Rank::Corps
                && g.check(Action::Command {
                    commander: c,
                    officer: o,
                })
                .is_ok()
        });
        if left < 2 && in_range {
            continue;
        }
        for &o in leaders.iter().filter(|&&l| rank(l) == Rank::Corps) {
            if g.leader(o)
                .is_none_or(|v| v.march.is_some() || v.acted || v.spent)
            {
                continue;
            }
            let p = initiative_chance(g, o);
            if p > 0.5 {
                continue;
            }
            let units = g.officer_units(o);
            let sp: u32 = units.iter().map(|&u| u32::from(g.sp(u))).sum();
            let far: u32 = units
                .iter()
                .filter_map(|&u| hex_of(g, u).map(|h| (u, h)))
                .filter(|&(_, h)| path_distance(g, h, &enemies, &field) >= 4)
                .map(|(u, _)| u32::from(g.sp(u)))
                .sum();
            if sp < 6 || 2 * far < sp {
                continue;
            }
            let LeaderLoc::Map(oh) = g.leader_loc(o) else {
                continue;
            };
            let Some(to) = order_destination(g, me, oh) else {
                continue;
            };
            let a = Action::March {
                commander: c,
                officer: o,
                to,
            };
            if g.check(a).is_err() {
                continue;
            }
            let value = f64::from(far) * (1.0 - p);
            if best.as_ref().is_none_or(|b| value > b.0) {
                let turns = g.march_delay(c, o).unwrap_or(1);
                best = Some((
                    value,
                    Choice {
                        action: a,
                        worth: value,
                        why: format!(
                            "{} sends {} a march order toward {to} ({} turn{}): {} units of {sp} \
                             SP away from the fight, whose officer would activate alone only \
                             {:.0}% of the time.",
                            g.leader_name(c),
                            g.leader_name(o),
                            turns,
                            if turns == 1 { "" } else { "s" },
                            units.len(),
                            p * 100.0
                        ),
                    },
                ));
            }
        }
    }
    best.filter(|b| b.0 >= 4.0).map(|b| b.1)
}

/// The designation of an activation (NB Action phase), one action at a time:
/// - a commander spends a further point on another officer near the enemy who is unlikely
///   to activate alone (his formation then moves and fights in the same impulse);
/// - a unit activation takes the one more hex within two whose units are worth most;
/// - an officer's activation leaves out the weak units holding the line in contact (too weak
///   to melee from their hex, fronting every enemy beside them): they keep their hex and stay
///   free for a unit initiative later in the turn;
/// - then `go`.
pub(crate) fn designation(g: &Game, me: Side) -> (Action, Option<String>) {
    let Some(act) = g.activation() else {
        return (Action::Go, None);
    };
    let enemies = enemy_hexes(g, me);
    if let Some(c) = act.commander {
        if let Some(x) = further_officer(g, me, c, &act.officers, &enemies) {
            return (x.action, Some(x.why));
        }
    }
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    if !legal.contains(&Action::Go) {
        // a commander who moved first must spend a point before his activation goes (NB77)
        return (first_legal(g), None);
    }
    if let Some(lead) = act.lead {
        let lh = hex_of(g, lead);
        let chosen = act.units.iter().any(|&u| hex_of(g, u) != lh);
        let includes: Vec<(UnitId, Hex)> = legal
            .iter()
            .filter_map(|&a| match a {
                Action::Include { unit } => hex_of(g, unit).map(|h| (unit, h)),
                _ => None,
            })
            .collect();
        if chosen {
            if let Some(&(u, _)) = includes.first() {
                return (Action::Include { unit: u }, None);
            }
        } else {
            let mut hexes: Vec<Hex> = includes.iter().map(|x| x.1).collect();
            hexes.sort();
            hexes.dedup();
            let best = hexes
                .into_iter()
                .map(|h| {
                    let us: Vec<UnitId> =
                        includes.iter().filter(|x| x.1 == h).map(|x| x.0).collect();
                    (units_worth(g, &us, &enemies), us[0])
                })
                .max_by(|a, b| a.0.total_cmp(&b.0));
            if let Some((w, u)) = best {
                if w > 0.0 {
                    return (Action::Include { unit: u }, None);
                }
            }
        }
        return (Action::Go, None);
    }
    if let Some(u) = line_holder(g, me, &act.units, &enemies) {
        if legal.contains(&Action::Exclude { unit: u }) {
            return (Action::Exclude { unit: u }, None);
        }
    }
    (Action::Go, None)
}

/// Another officer for commander `c`'s activation, worth a point: his units mostly within
/// three hexes of the enemy (by path), 8 weighted SP or more, and his own chance below five
/// in six.
pub(crate) fn further_officer(
    g: &Game,
    me: Side,
    c: LeaderId,
    taken: &[LeaderId],
    enemies: &[Hex],
) -> Option<Choice> {
    if points_left(g, c) == 0 {
        return None;
    }
    let mut best: Option<Choice> = None;
    for o in g.leaders_of(me) {
        if taken.contains(&o) || g.supplement().leaders[usize::from(o.0)].rank != Rank::Corps {
            continue;
        }
        let a = Action::Command {
            commander: c,
            officer: o,
        };
        if g.check(a).is_err() {
            continue;
        }
        let p = initiative_chance(g, o);
        if p >= 5.0 / 6.0 {
            continue;
        }
        let units = g.officer_units(o);
        let sp: u32 = units.iter().map(|&u| u32::from(g.sp(u))).sum();
        let worth = units_worth(g, &units, enemies);
        if sp == 0 || worth < 8.0 || worth < 1.9 * f64::from(sp) {
            continue;
        }
        let value = worth * (1.0 - p);
        if best.as_ref().is_none_or(|b| value > b.worth) {
            best = Some(Choice {
                action: a,
                worth: value,
                why: format!(
                    "{} also spends a command point on {} to activate {} units of {sp} SP near \
                     the enemy in the same impulse.",
                    g.leader_name(c),
                    g.leader_name(o),
                    units.len()
                ),
            });
        }
    }
    best
}

/// A unit of an officer's activation that holds the line and is best left out: in good
/// order, in contact, its hex fronting every adjacent enemy (none on a flank or the rear)
/// and too weak to melee from it (its hex's SP under half the weakest adjacent enemy hex's),
/// while the activation keeps at least as much SP as it leaves out.
fn line_holder(g: &Game, me: Side, units: &[UnitId], enemies: &[Hex]) -> Option<UnitId> {
    let total: u32 = units.iter().map(|&u| u32::from(g.sp(u))).sum();
    let map = &g.scenario().map;
    for &u in units {
        let Some(h) = hex_of(g, u) else { continue };
        if g.disorder(u) != napoleonic_battles::Disorder::Good {
            continue;
        }
        let Some(dir) = g.hex_facing(h) else { continue };
        let adjacent: Vec<(Dir, u32)> = Dir::ALL
            .into_iter()
            .filter_map(|d| {
                let n = map.neighbour(h, d);
                let sp: u32 = g
                    .occupants(n)
                    .iter()
                    .filter(|&&e| side_of(g, e) != me)
                    .map(|&e| u32::from(g.sp(e)))
                    .sum();
                (sp > 0).then_some((d, sp))
            })
            .collect();
        let Some(weakest) = adjacent.iter().map(|x| x.1).min() else {
            continue;
        };
        if adjacent.iter().any(|&(d, _)| arc(dir, d) != Arcs::Front) {
            continue;
        }
        let ours = hex_sp(g, h);
        let left_out: u32 = g
            .occupants(h)
            .iter()
            .filter(|x| units.contains(x))
            .map(|&x| u32::from(g.sp(x)))
            .sum();
        if 2 * ours >= weakest || 2 * left_out > total || enemies.is_empty() {
            continue;
        }
        return Some(u);
    }
    None
}

/// A failed officer's written order (NB50): toward the enemy from his hex, for the +2 of his
/// next attempt; none when no hex within reach leads there.
pub(crate) fn written_order(g: &Game, me: Side) -> (Action, Option<String>) {
    let Some(o) = g.activation().and_then(|a| a.officers.first().copied()) else {
        return (Action::NoOrder, None);
    };
    let LeaderLoc::Map(oh) = g.leader_loc(o) else {
        return (Action::NoOrder, None);
    };
    match order_destination(g, me, oh) {
        Some(to) if g.check(Action::Order { officer: o, to }).is_ok() => (
            Action::Order { officer: o, to },
            Some(format!(
                "{} writes an order toward {to}: +2 to his next initiative attempt.",
                g.leader_name(o)
            )),
        ),
        _ => (Action::NoOrder, None),
    }
}

/// Every melee the rules allow now, with its odds in words and its table column.
pub(crate) fn melee_options(g: &Game, me: Side) -> Vec<(Action, String, usize)> {
    let map = &g.scenario().map;
    let mut from: Vec<Hex> = g
        .unit_ids()
        .filter(|&u| side_of(g, u) == me && g.unit(u).active)
        .filter_map(|u| hex_of(g, u))
        .collect();
    from.sort();
    from.dedup();
    let mut v = Vec::new();
    for h in from {
        for n in map.neighbours(h) {
            if !g.occupants(n).iter().any(|&e| side_of(g, e) != me) {
                continue;
            }
            let a = Action::Melee { from: h, to: n };
            if g.check(a).is_err() {
                continue;
            }
            if let Ok(odds) = g.melee_odds(h, n) {
                if let Column::Table(c) = odds.column {
                    v.push((a, odds.explain(&g.supplement().melee), c));
                }
            }
        }
    }
    v
}

/// The activations worth considering, best first (`Pass` last, or first when nothing is
/// worth a strength point).
pub(crate) fn activation_choices(g: &Game, me: Side) -> Vec<Choice> {
    let enemies = enemy_hexes(g, me);
    let sup = g.supplement();
    let leaders = g.leaders_of(me);
    let mut v: Vec<Choice> = Vec::new();
    let name = |l: LeaderId| sup.leaders[usize::from(l.0)].name.clone();
    let officers: Vec<LeaderId> = leaders
        .iter()
        .copied()
        .filter(|&l| sup.leaders[usize::from(l.0)].rank == Rank::Corps)
        .collect();
    let commanders: Vec<LeaderId> = leaders
        .iter()
        .copied()
        .filter(|&l| sup.leaders[usize::from(l.0)].rank == Rank::Army)
        .collect();
    for &o in &officers {
        let units = g.officer_units(o);
        if units.is_empty() {
            continue;
        }
        let worth = units_worth(g, &units, &enemies);
        let sp: u32 = units.iter().map(|&u| u32::from(g.sp(u))).sum();
        let ini = Action::Initiative { officer: o };
        if g.check(ini).is_ok() {
            let p = initiative_chance(g, o);
            v.push(Choice {
                action: ini,
                worth: worth * p,
                why: format!(
                    "{} tries his initiative ({:.0}% to succeed) to activate {} units of {} SP.",
                    name(o),
                    p * 100.0,
                    units.len(),
                    sp
                ),
            });
        }
        for &c in &commanders {
            let a = Action::Command {
                commander: c,
                officer: o,
            };
            if g.check(a).is_ok() {
                v.push(Choice {
                    action: a,
                    worth: worth * 0.9,
                    why: format!(
                        "{} spends a command point on {} to activate {} units of {} SP.",
                        name(c),
                        name(o),
                        units.len(),
                        sp
                    ),
                });
                break;
            }
        }
    }
    // unit initiative: one hex in contact, when no officer's activation is worth more
    let best_officer = v.iter().map(|c| c.worth).fold(0.0, f64::max);
    if best_officer < 10.0 {
        let mut seen: Vec<Hex> = Vec::new();
        for u in g.unit_ids() {
            if side_of(g, u) != me || g.unit(u).acted || g.unit(u).spent {
                continue;
            }
            let Some(h) = hex_of(g, u) else { continue };
            if seen.contains(&h) || nearest(g, h, &enemies).is_none_or(|x| x.0 > 2) {
                continue;
            }
            seen.push(h);
            let a = Action::Unit { lead: u };
            if g.check(a).is_err() {
                continue;
            }
            let units = g.occupants(h).to_vec();
            let p = f64::from(g.morale(u).clamp(0, 6)) / 6.0;
            let worth = units_worth(g, &units, &enemies) * p * 0.7;
            v.push(Choice {
                action: a,
                worth,
                why: format!(
                    "{} leads a unit initiative from {h} ({:.0}% to succeed).",
                    g.unit_name(u),
                    p * 100.0
                ),
            });
        }
    }
    v.sort_by(|a, b| b.worth.total_cmp(&a.worth));
    let pass = Choice {
        action: Action::Pass,
        worth: 1.0,
        why: "Nothing is worth activating: pass.".into(),
    };
    if v.first().is_none_or(|c| c.worth < pass.worth) {
        v.insert(0, pass);
    } else {
        v.push(pass);
    }
    v
}

impl crate::montecarlo::Rollout<Game> for NbHeuristic {
    fn act(&mut self, g: &Game) -> Action {
        self.decide(g).0
    }
}
