//! Every generated action is accepted and its text parses back; every accepted action (of
//! actions drawn at random over units, leaders, hexes and hexsides near the play) is
//! generated; replays are exact. Sampled with care: the CI machine is slow.

mod common;
use common::*;
use engine::{Dice, Rules, ToAct};
use hexmap::{Dir, Hex};
use napoleonic_battles::{Action, Game, LeaderId};
use naw::UnitId;
use proptest::prelude::*;

/// A random action of any kind over the game's units, leaders and the hexes near `around`.
fn random_action(g: &Game, d: &mut Dice, around: Hex) -> Action {
    let n = |d: &mut Dice, k: u64| (d.next_u64() % k.max(1)) as usize;
    let units = g.scenario().units.len() as u64;
    let leaders = g.supplement().leaders.len() as u64;
    let u = UnitId(n(d, units) as u8);
    let l = LeaderId(n(d, leaders) as u8);
    let l2 = LeaderId(n(d, leaders) as u8);
    let h = Hex::new(around.x + n(d, 9) as i16 - 4, around.y + n(d, 9) as i16 - 4);
    let h2 = g.scenario().map.neighbour(h, Dir::ALL[n(d, 6)]);
    let dir = Dir::ALL[n(d, 6)];
    match n(d, 26) {
        0 => Action::Roll(n(d, 13) as u8),
        1 => Action::Pass,
        2 => Action::Command {
            commander: l,
            officer: l2,
        },
        3 => Action::Initiative { officer: l },
        4 => Action::Unit { lead: u },
        5 => Action::Include { unit: u },
        6 => Action::Exclude { unit: u },
        7 => Action::Go,
        8 => Action::Order { officer: l, to: h },
        9 => Action::NoOrder,
        10 => Action::March {
            commander: l,
            officer: l2,
            to: h,
        },
        11 => Action::SetAside { officer: l },
        12 => Action::Move { unit: u, to: h2 },
        13 => Action::Face { hex: h, dir },
        14 => Action::Lead { leader: l, to: h },
        15 => Action::End,
        16 => Action::Melee { from: h, to: h2 },
        17 => Action::Evade,
        18 => Action::Stand,
        19 => Action::Lose { unit: u },
        20 => Action::Retreat { to: h2 },
        21 => Action::Advance { unit: u },
        22 => Action::React { hex: h, dir },
        23 => Action::Hold { hex: h },
        24 if n(d, 2) == 0 => Action::Lend {
            commander: l,
            officer: l2,
        },
        25 => Action::Place { unit: u, to: h },
        _ => {
            // an action aimed at a unit's own surroundings
            let at = match g.loc(u) {
                napoleonic_battles::Loc::Map(x) => x,
                _ => around,
            };
            Action::Move {
                unit: u,
                to: g.scenario().map.neighbour(at, dir),
            }
        }
    }
}

fn run(id: &str, seed: u64, probes: usize) {
    let start = game(id);
    let mut g = start.clone();
    let mut d = Dice::new(seed ^ 0x5151);
    let mut hashes = Vec::new();
    let mut legal_now = Vec::new();
    let actions = play_random(&mut g, seed, 400_000, |g, a| {
        hashes.push(g.state_hash());
        if matches!(g.to_act(), ToAct::Over(_)) {
            return;
        }
        legal_now.clear();
        g.legal_actions(&mut legal_now);
        for &x in legal_now.iter().step_by(1 + legal_now.len() / 25) {
            assert!(
                g.check(x).is_ok(),
                "generated but refused: {}",
                g.action_text(x)
            );
            let t = g.action_text(x);
            assert_eq!(g.parse_action(&t).unwrap(), x, "{t}");
        }
        let around = match a {
            Action::Move { to, .. } | Action::Retreat { to } => to,
            Action::Melee { to, .. } => to,
            _ => Hex::new(12, 15),
        };
        for _ in 0..probes {
            let x = random_action(g, &mut d, around);
            if g.check(x).is_ok() {
                assert!(
                    legal_now.contains(&x),
                    "accepted but not generated: {} at {:?}",
                    g.action_text(x),
                    g.step()
                );
            }
        }
    });
    assert!(
        matches!(g.to_act(), ToAct::Over(_)),
        "{id} {seed}: unfinished"
    );
    let mut r = start;
    for (i, a) in actions.iter().enumerate() {
        r.apply(*a).unwrap();
        assert_eq!(r.state_hash(), hashes[i], "replay diverged at action {i}");
    }
}

#[test]
fn legal_actions_are_exactly_the_accepted_ones_in_a_first_day() {
    run("bon-first-day", 11, 20);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3, failure_persistence: None, .. ProptestConfig::default() })]
    #[test]
    fn legal_actions_are_exactly_the_accepted_ones(seed in any::<u64>()) {
        run("bon-first-day", seed, 10);
    }
}
