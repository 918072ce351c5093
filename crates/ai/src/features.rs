//! Napoleon at War's features for the learned evaluation (`learn.rs`), and that evaluation.
//!
//! Each feature is a quantity a wargamer names when he judges a position, computed from the
//! game's public queries and the ai's pinned copies of the rules (`info.rs`, `board.rs`,
//! `tactics.rs`, `loc.rs`). Strengths are printed combat strengths divided by the side's
//! demoralization level of the turn (its total strength when the scenario has none), so that
//! they weigh alike in every scenario. Most come in pairs, the evaluating side's own (`_own`)
//! and the enemy's (`_enemy`):
//!
//! | feature | meaning |
//! |---|---|
//! | `base` | today's hand-tuned evaluation (`eval.rs`) as a logit: weight 1 and nothing else is today's evaluation |
//! | `first_side` | 1 when the evaluating side is the scenario's first side (the scenario's balance) |
//! | `loss` | losses so far against the demoralization level (17.2): 1 is the level, the margin is 1 − `loss` |
//! | `loss4` | `loss`⁴: the steepness near the level |
//! | `threatened` | strength in an enemy zone of control (in contact: it must attack or be attacked, 7.1) |
//! | `trapped` | strength in contact with no hex to retreat into (7.72, 7.81): a `Dr` kills it |
//! | `one_way` | strength in contact with exactly one hex to retreat into |
//! | `encircled` | strength whose open neighbours (passable, not in an enemy zone, no enemy) are few: ⅓ of it with two, ⅔ with one, all with none |
//! | `edge` | strength in contact within two hexes of the map edge (retreats run out there): all of it on the edge, ⅔ one hex in, ⅓ two hexes in |
//! | `entry_blocked` | strength of reinforcements due this game-turn or the next whose entry hex a friendly unit stands on (15.0) |
//! | `idle` | strength on the map more than six hexes from every enemy unit |
//! | `loc_cut` | for the side with a line of communications (17.5): the strength it would cut off as the board stands |
//! | `loc_cut_late` | `loc_cut` weighted by the end drawing near (0.85 on the last game-turn, 0.45, 0.2, then 0.05), when the line is judged |
//! | `doubled` | strength on doubling terrain (towns, rough, marsh: 9.0) |
//! | `doubled_contact` | strength in contact on doubling terrain |
//! | `turns_left` | game-turns left as a fraction of the scenario's length |
//! | `lead_late` | (`loss_enemy` − `loss_own`) × (1 − `turns_left`): a lead counts more as the end nears |

use crate::board::Board;
use crate::eval::logit_on;
use crate::info::{info, Info, BLOCKED, NONE};
use crate::learn::{Features, Linear, Weights, WeightsFile};
use crate::loc::cut_strength;
use crate::tactics::{retreat_hexes, Values};
use engine::Side;
use naw::{Game, Step, UnitId};
use std::sync::{Arc, Mutex, OnceLock};

/// The names of Napoleon at War's features, in the order [`NawFeatures`] writes them.
pub const NAMES: &[&str] = &[
    "base",
    "first_side",
    "loss_own",
    "loss_enemy",
    "loss4_own",
    "loss4_enemy",
    "threatened_own",
    "threatened_enemy",
    "trapped_own",
    "trapped_enemy",
    "one_way_own",
    "one_way_enemy",
    "encircled_own",
    "encircled_enemy",
    "edge_own",
    "edge_enemy",
    "entry_blocked_own",
    "entry_blocked_enemy",
    "idle_own",
    "idle_enemy",
    "loc_cut_own",
    "loc_cut_enemy",
    "loc_cut_late_own",
    "loc_cut_late_enemy",
    "doubled_own",
    "doubled_enemy",
    "doubled_contact_own",
    "doubled_contact_enemy",
    "turns_left",
    "lead_late",
];

/// Hexes from every enemy unit beyond which strength is idle.
const IDLE: u32 = 6;

/// The embedded weights of the level `search2` (`crates/ai/weights/naw.toml`).
pub const NAW_WEIGHTS: &str = include_str!("../weights/naw.toml");

/// The embedded weights, parsed once.
pub fn naw_weights() -> Arc<Weights> {
    static W: OnceLock<Arc<Weights>> = OnceLock::new();
    W.get_or_init(|| {
        let file = WeightsFile::parse(NAW_WEIGHTS).expect("crates/ai/weights/naw.toml parses");
        Arc::new(Weights::from_file(&file, NAMES).expect("crates/ai/weights/naw.toml fits NAMES"))
    })
    .clone()
}

/// Napoleon at War's knowledge for learning an evaluation (see the module documentation).
#[derive(Clone, Copy, Debug, Default)]
pub struct NawFeatures;

impl Features<Game> for NawFeatures {
    fn names(&self) -> &'static [&'static str] {
        NAMES
    }

    fn features(&self, g: &Game, me: Side, out: &mut Vec<f64>) {
        features_on(&info(g), g, me, out);
    }

    fn final_score(&self, g: &Game, me: Side) -> Option<f64> {
        let o = g.outcome()?;
        let tiebreak = crate::TIEBREAK_SCENARIOS.contains(&g.scenario().id.as_str());
        Some(crate::score(o, crate::side_losses(g), tiebreak)[me.0 as usize])
    }

    /// Losses, being trapped, encircled, against the edge, in the way of one's reinforcements,
    /// idle or cut off hurt the side (the enemy's help it); doubling terrain and a late lead
    /// help; the scenario's balance, contact and the time left go either way.
    fn signs(&self) -> Vec<i8> {
        NAMES
            .iter()
            .map(|n| {
                let sign = match n.trim_end_matches("_own").trim_end_matches("_enemy") {
                    "base" | "doubled" | "doubled_contact" | "lead_late" => 1,
                    "first_side" | "threatened" | "turns_left" => 0,
                    _ => -1,
                };
                if n.ends_with("_enemy") {
                    -sign
                } else {
                    sign
                }
            })
            .collect()
    }

    /// The start of each movement phase: where the search's rollouts stop.
    fn sample_key(&self, g: &Game) -> Option<u64> {
        (g.step() == Step::Movement).then(|| (g.turn() as u64) << 8 | g.phasing().0 as u64)
    }
}

/// The learned evaluation of `g` for `me`: a finished game's score exactly, else
/// `σ(bias + Σ wᵢ·xᵢ)` over [`NAMES`].
pub(crate) fn evaluate_learned(info: &Info, w: &Linear, g: &Game, me: Side) -> f64 {
    if let Some(o) = g.outcome() {
        return crate::score(o, crate::side_losses(g), info.tiebreak)[me.0 as usize];
    }
    let mut x = Vec::with_capacity(NAMES.len());
    features_on(info, g, me, &mut x);
    w.value(&x)
}

/// Breadth-first steps from the `seeds` over hexsides a unit may cross (either way).
fn steps_from(info: &Info, seeds: impl Iterator<Item = usize>) -> Vec<u16> {
    let mut d = vec![u16::MAX; info.n];
    let mut q = std::collections::VecDeque::new();
    for s in seeds {
        if d[s] != 0 {
            d[s] = 0;
            q.push_back(s);
        }
    }
    while let Some(i) = q.pop_front() {
        for k in 0..6 {
            let j = info.nb[i][k];
            if j == NONE || info.step[i][k] == BLOCKED {
                continue;
            }
            let j = j as usize;
            if d[j] == u16::MAX {
                d[j] = d[i] + 1;
                q.push_back(j);
            }
        }
    }
    d
}

/// Steps to the map edge per hex, by scenario digest.
type EdgeCache = Mutex<Vec<(u64, Arc<Vec<u16>>)>>;

/// Steps from each hex to the map edge, per scenario (cached by digest).
fn edge_steps(info: &Info) -> Arc<Vec<u16>> {
    static CACHE: OnceLock<EdgeCache> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(Vec::new()));
    let mut c = cache.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, d)) = c.iter().find(|(d, _)| *d == info.digest) {
        return d.clone();
    }
    let d = Arc::new(steps_from(
        info,
        (0..info.n).filter(|&i| info.nb[i].contains(&NONE)),
    ));
    if c.len() > 16 {
        c.remove(0);
    }
    c.push((info.digest, d.clone()));
    d
}

/// Writes the features of `g` for `me` (in the order of [`NAMES`]) into `out`.
pub(crate) fn features_on(info: &Info, g: &Game, me: Side, out: &mut Vec<f64>) {
    out.clear();
    let vals = Values::new(info, g, me);
    let b = Board::from_game(info, g);
    let sc = g.scenario();
    let nu = info.strength.len();
    // each side's yardstick: its demoralization level, or its whole strength
    let mut total = [0u32; 2];
    for i in 0..nu {
        total[info.side[i].0 as usize] += info.strength[i];
    }
    let norm: [f64; 2] = std::array::from_fn(|s| {
        if vals.level[s] < 10_000 {
            vals.level[s].max(1) as f64
        } else {
            total[s].max(1) as f64
        }
    });
    // each side's units on the map, and the steps from the map edge
    let placed: [Vec<hexmap::Hex>; 2] = std::array::from_fn(|s| {
        (0..nu)
            .filter(|&i| info.side[i].0 as usize == s)
            .filter_map(|i| b.at(UnitId(i as u8)).map(|p| info.hex(p)))
            .collect()
    });
    let map = &sc.map;
    let edge_d = edge_steps(info);

    #[derive(Default, Clone, Copy)]
    struct Side_ {
        threatened: f64,
        trapped: f64,
        one_way: f64,
        encircled: f64,
        edge: f64,
        entry_blocked: f64,
        idle: f64,
        loc_cut: f64,
        loc_cut_late: f64,
        doubled: f64,
        doubled_contact: f64,
    }
    let mut f = [Side_::default(); 2];
    for i in 0..nu {
        let u = UnitId(i as u8);
        let s = info.side[i];
        let si = s.0 as usize;
        let enemy = Side(1 - s.0);
        let st = info.strength[i] as f64;
        if let Some(p) = b.at(u) {
            let contact = b.controlled(enemy, p);
            if contact {
                f[si].threatened += st;
                match retreat_hexes(info, &b, s, p, |_| true) {
                    0 => f[si].trapped += st,
                    1 => f[si].one_way += st,
                    _ => {}
                }
                if edge_d[p] <= 2 {
                    f[si].edge += st * (3 - edge_d[p]) as f64 / 3.0;
                }
            }
            let open = (0..6)
                .filter(|&k| {
                    let j = info.nb[p][k];
                    if j == NONE || !info.retreat[p][k] {
                        return false;
                    }
                    let j = j as usize;
                    !b.controlled(enemy, j)
                        && b.unit_at(j).is_none_or(|w| info.side[w.0 as usize] == s)
                })
                .count();
            if open <= 2 {
                f[si].encircled += st * (3 - open) as f64 / 3.0;
            }
            let here = info.hex(p);
            if placed[1 - si].iter().all(|&e| map.distance(here, e) > IDLE) {
                f[si].idle += st;
            }
            if info.doubles[p] {
                f[si].doubled += st;
                if contact {
                    f[si].doubled_contact += st;
                }
            }
        } else if let Some((due, hex)) = g.arrival(u) {
            if due <= g.turn().saturating_add(1) {
                let blocked = info
                    .idx(hex)
                    .and_then(|x| b.unit_at(x))
                    .is_some_and(|w| info.side[w.0 as usize] == s);
                if blocked {
                    f[si].entry_blocked += st;
                }
            }
        }
    }
    let turns_left = sc.last_turn.saturating_sub(g.turn());
    let cut = info.loc.map(|(ls, _, _)| cut_strength(info, &b, ls));
    if let (Some((ls, _, _)), Some(cut)) = (info.loc, cut) {
        let cut = cut as f64;
        let w = match turns_left {
            0 => 0.85,
            1 => 0.45,
            2 => 0.2,
            _ => 0.05,
        };
        f[ls.0 as usize].loc_cut = cut;
        f[ls.0 as usize].loc_cut_late = cut * w;
    }
    let own = me.0 as usize;
    let en = 1 - own;
    let loss = |s: usize| vals.losses[s] as f64 / norm[s];
    let length = (sc.last_turn.saturating_sub(sc.first_turn) as f64 + 1.0).max(1.0);
    let tl = turns_left as f64 / length;
    out.push(logit_on(info, g, &vals, &b, cut));
    out.push(if own == 0 { 1.0 } else { 0.0 });
    out.push(loss(own));
    out.push(loss(en));
    out.push(loss(own).powi(4));
    out.push(loss(en).powi(4));
    let pairs: [fn(&Side_) -> f64; 11] = [
        |x| x.threatened,
        |x| x.trapped,
        |x| x.one_way,
        |x| x.encircled,
        |x| x.edge,
        |x| x.entry_blocked,
        |x| x.idle,
        |x| x.loc_cut,
        |x| x.loc_cut_late,
        |x| x.doubled,
        |x| x.doubled_contact,
    ];
    for get in pairs {
        out.push(get(&f[own]) / norm[own]);
        out.push(get(&f[en]) / norm[en]);
    }
    out.push(tl);
    out.push((loss(en) - loss(own)) * (1.0 - tl));
    debug_assert_eq!(out.len(), NAMES.len());
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{Dice, Rules, ToAct};

    /// `base` alone, with weight 1, is today's evaluation (`eval.rs`).
    #[test]
    fn base_alone_is_todays_evaluation() {
        let sc = Arc::new(scenarios::load("bon-first-day").unwrap());
        let mut g = Game::from_arc(sc);
        let info = info(&g);
        let mut w = vec![0.0; NAMES.len()];
        w[0] = 1.0;
        let base = Linear { bias: 0.0, w };
        let mut dice = Dice::new(9);
        let mut p = crate::HeuristicPlayer::new(9);
        let mut checked = 0;
        for n in 0..3000 {
            match g.to_act() {
                ToAct::Over(_) => break,
                ToAct::Chance => {
                    let a = engine::draw_chance(&g, &mut dice).unwrap();
                    g.apply_unchecked(a);
                }
                ToAct::Side(_) => {
                    if n % 13 == 0 {
                        for me in [Side(0), Side(1)] {
                            let today = crate::eval::evaluate(&info, &g, me);
                            let learned = evaluate_learned(&info, &base, &g, me);
                            assert!((today - learned).abs() < 1e-9, "{today} {learned}");
                        }
                        checked += 1;
                    }
                    let a = crate::Player::choose(&mut p, &g);
                    g.apply_unchecked(a);
                }
            }
        }
        assert!(checked > 10);
    }

    /// What an evaluation costs, learned against today's, on the positions of a Grand Battle
    /// played by the heuristic: `cargo test --release -p ai --lib features::tests::cost --
    /// --ignored --nocapture` (a measurement, not a test).
    #[test]
    #[ignore]
    fn cost() {
        let sc = Arc::new(scenarios::load("bon-grand-battle").unwrap());
        let mut g = Game::from_arc(sc);
        let info = info(&g);
        let w = naw_weights();
        let mut dice = Dice::new(9);
        let mut p = crate::HeuristicPlayer::new(9);
        let mut positions = Vec::new();
        for n in 0..100_000 {
            match g.to_act() {
                ToAct::Over(_) => break,
                ToAct::Chance => {
                    let a = engine::draw_chance(&g, &mut dice).unwrap();
                    g.apply_unchecked(a);
                }
                ToAct::Side(_) => {
                    if n % 7 == 0 {
                        positions.push(g.clone());
                    }
                    let a = crate::Player::choose(&mut p, &g);
                    g.apply_unchecked(a);
                }
            }
        }
        let t = std::time::Instant::now();
        let mut sum = 0.0;
        for g in &positions {
            sum += crate::eval::evaluate(&info, g, Side(0));
        }
        let today = t.elapsed();
        let t = std::time::Instant::now();
        for g in &positions {
            sum += evaluate_learned(&info, w.for_side(Side(0)), g, Side(0));
        }
        let learned = t.elapsed();
        let n = positions.len() as f64;
        println!(
            "{} positions: today's evaluation {:.1} µs, the learned one {:.1} µs ({sum:.1})",
            positions.len(),
            today.as_secs_f64() * 1e6 / n,
            learned.as_secs_f64() * 1e6 / n
        );
    }
}
