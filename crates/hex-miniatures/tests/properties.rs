//! Properties of the game over random play of the skirmish (sized small): every generated
//! action is accepted, every accepted action (of a wide sample of candidates) is generated,
//! chance events offer exactly their outcomes, and a replay reproduces every state.

use engine::{draw_chance, Dice, Rules, ToAct};
use hex_miniatures::action::Formation;
use hex_miniatures::data::Tables;
use hex_miniatures::setup::Standing;
use hex_miniatures::{Action, Game, GeneralId, Setup, UnitId};
use hexmap::{Dir, Hex};
use proptest::prelude::*;

/// A wide sample of candidate actions in the current state: every kind, many hexes.
fn candidates(g: &Game, dice: &mut Dice) -> Vec<Action> {
    let mut v = vec![Action::End, Action::Draw(0), Action::Roll(3)];
    let map = &g.setup().map;
    let hexes: Vec<Hex> = map.hexes().collect();
    let pick = |d: &mut Dice| hexes[(d.next_u64() % hexes.len() as u64) as usize];
    for i in 0..g.unit_count() {
        let u = UnitId(i as u8);
        for _ in 0..6 {
            v.push(Action::Move {
                unit: u,
                to: pick(dice),
            });
            v.push(Action::Attack {
                unit: u,
                target: pick(dice),
            });
        }
        if let Some(h) = g.hex_of(u) {
            for n in map.neighbours(h) {
                v.push(Action::Move { unit: u, to: n });
                v.push(Action::Attack { unit: u, target: n });
            }
        }
        for d in Dir::ALL {
            v.push(Action::Face { unit: u, dir: d });
        }
        v.push(Action::Advance { unit: u });
        for f in [
            Formation::Line,
            Formation::Column,
            Formation::Square,
            Formation::Limbered,
            Formation::Unlimbered,
        ] {
            v.push(Action::Form {
                unit: u,
                formation: f,
            });
        }
        for j in 0..g.unit_count() {
            v.push(Action::Fire {
                battery: u,
                target: UnitId(j as u8),
            });
        }
    }
    for i in 0..g.general_count() {
        let gen = GeneralId(i as u8);
        for _ in 0..6 {
            v.push(Action::Ride {
                general: gen,
                to: pick(dice),
            });
        }
        for f in 0..g.setup().formations.len() as u8 {
            for order in [
                Standing::Hold,
                Standing::Free,
                Standing::Advance(pick(dice)),
            ] {
                v.push(Action::Order {
                    general: gen,
                    formation: f,
                    order,
                });
            }
        }
    }
    v
}

fn run(seed: u64, steps: usize) {
    let start = Game::from_setup(Setup::skirmish(), &Tables::shipped()).unwrap();
    let mut g = start.clone();
    let mut dice = Dice::new(seed);
    let mut pick = Dice::new(seed.wrapping_mul(31).wrapping_add(7));
    let mut actions = Vec::new();
    let mut hashes = Vec::new();
    let mut legal = Vec::new();
    for _ in 0..steps {
        if matches!(g.to_act(), ToAct::Over(_)) {
            break;
        }
        legal.clear();
        g.legal_actions(&mut legal);
        for &a in &legal {
            assert!(
                g.check(a).is_ok(),
                "generated but refused: {}",
                g.action_text(a)
            );
        }
        for a in candidates(&g, &mut pick) {
            let ok = g.check(a).is_ok();
            assert_eq!(
                ok,
                legal.contains(&a),
                "{} accepted {ok} but generated {}",
                g.action_text(a),
                !ok
            );
        }
        let a = match g.to_act() {
            ToAct::Chance => {
                let outs = g.chance_outcomes();
                assert_eq!(outs.len(), legal.len());
                draw_chance(&g, &mut dice).unwrap()
            }
            _ => legal[(pick.next_u64() % legal.len() as u64) as usize],
        };
        g.apply(a).unwrap();
        actions.push(a);
        hashes.push(g.state_hash());
    }
    let mut r = start;
    for (i, a) in actions.iter().enumerate() {
        r.apply(*a).unwrap();
        assert_eq!(r.state_hash(), hashes[i], "replay diverged at {i}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]
    #[test]
    fn legal_actions_are_the_accepted_ones_and_replays_are_exact(seed in 0u64..1_000_000) {
        run(seed, 250);
    }
}
