//! The players keep their own copies of rules knowledge for speed (`ai::mirrors`: the step
//! costs, the planning board's occupancy and zones of control, terrain doubling, the movement
//! search they run for the enemy). Each is pinned here against the rules' public queries on
//! positions of the three Battle of Nations scenarios reached by random legal play: a copy
//! that drifts from the rules fails this test.

use ai::mirrors;
use ai::{Player, RandomPlayer};
use engine::{Dice, Rules, Side, ToAct};
use naw::{Destination, Game, Step, UnitId, UnitSet};
use std::sync::Arc;

const SCENARIOS: [&str; 3] = ["bon-first-day", "bon-third-day", "bon-grand-battle"];

/// Positions of `id` from random legal play: every `every`th action of a few seeded games,
/// and the start of every movement phase.
fn positions(id: &str, games: u64, every: usize) -> Vec<Game> {
    let sc = Arc::new(scenarios::load(id).expect("shipped scenario"));
    let mut out = Vec::new();
    for seed in 0..games {
        let mut g = Game::from_arc(sc.clone());
        let mut dice = Dice::new(seed);
        let mut players = [RandomPlayer::new(seed * 2), RandomPlayer::new(seed * 2 + 1)];
        let mut last_step = None;
        for n in 0..3_000 {
            let fresh_movement = g.step() == Step::Movement && last_step != Some(Step::Movement);
            last_step = Some(g.step());
            if n % every == 0 || fresh_movement {
                out.push(g.clone());
            }
            match g.to_act() {
                ToAct::Over(_) => break,
                ToAct::Chance => {
                    let a = engine::draw_chance(&g, &mut dice).expect("a chance event");
                    g.apply(a).expect("a chance outcome is legal");
                }
                ToAct::Side(s) => {
                    let a = players[s.0 as usize].choose(&g);
                    g.apply(a).expect("random play is legal");
                }
            }
        }
    }
    out
}

#[test]
fn the_step_costs_are_the_rules_step_costs() {
    for id in SCENARIOS {
        let g = Game::from_arc(Arc::new(scenarios::load(id).expect("shipped scenario")));
        let copy = mirrors::step_costs(&g);
        assert!(!copy.is_empty());
        for (h, d, c) in copy {
            let rules = g.terrain_step_cost(h, d).ok().map(|c| c.min(200));
            assert_eq!(c, rules, "{id}: the step from {h} toward {d:?}");
        }
    }
}

#[test]
fn the_board_is_the_rules_occupancy_and_zones_of_control() {
    for id in SCENARIOS {
        for g in positions(id, 3, 11) {
            for (h, u) in mirrors::occupants(&g) {
                assert_eq!(u, g.unit_at(h), "{id}: the unit at {h}");
            }
            for side in [Side(0), Side(1)] {
                for (h, z) in mirrors::zones_of_control(&g, side) {
                    assert_eq!(
                        z,
                        g.controlled_by(side, h),
                        "{id}, turn {}: side {} controls {h}",
                        g.turn(),
                        side.0
                    );
                }
            }
        }
    }
}

#[test]
fn the_defence_is_the_rules_defence() {
    let mut checked = 0;
    for id in SCENARIOS {
        for g in positions(id, 3, 11) {
            for d in g.unit_ids() {
                let Some(hd) = g.hex_of(d) else { continue };
                let attackers: Vec<UnitId> = g
                    .unit_ids()
                    .filter(|&a| g.side_of(a) != g.side_of(d))
                    .filter(|&a| g.hex_of(a).is_some_and(|ha| ha.distance(hd) == 1))
                    .collect();
                let mut sets: Vec<Vec<UnitId>> = attackers.iter().map(|&a| vec![a]).collect();
                sets.push(attackers.clone());
                for set in sets {
                    let rules = g
                        .odds_of(
                            UnitSet::of(set.iter().copied()),
                            UnitSet::default(),
                            UnitSet::of([d]),
                        )
                        .defence;
                    assert_eq!(
                        mirrors::defence(&g, &set, &[d]),
                        rules,
                        "{id}: {set:?} attack {d:?} at {hd}"
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 1_000, "only {checked} defences compared");
}

#[test]
fn the_enemy_reach_is_the_rules_movement() {
    let mut checked = 0;
    let mut dests: Vec<Destination> = Vec::new();
    for id in SCENARIOS {
        for g in positions(id, 3, 29) {
            if g.step() != Step::Movement || g.is_night() {
                continue;
            }
            for u in g.unit_ids() {
                if !g.may_move(u) {
                    continue;
                }
                g.destinations(u, &mut dests);
                let mut rules: Vec<_> = dests.iter().map(|d| (d.hex, d.cost_half)).collect();
                rules.sort();
                let copy = mirrors::reach(&g, u).unwrap_or_default();
                assert_eq!(copy, rules, "{id}, turn {}: where {u:?} may move", g.turn());
                checked += 1;
            }
        }
    }
    assert!(checked > 200, "only {checked} units compared");
}
