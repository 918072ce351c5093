//! Properties of the rules over random games (sized small: CI has two cores): every generated
//! action is accepted and its text parses back to it; every action accepted was generated (its
//! neighbours in the action space are tried); the replay from the texts is exact.

mod common;
use common::*;
use engine::Rules;
use leipzig_1813::{Action, Game};
use proptest::prelude::*;
use std::collections::HashSet;

/// Actions near `a`: the same kind with a neighbouring hex or another unit.
fn neighbours(g: &Game, a: Action) -> Vec<Action> {
    let hexes =
        |h: hexmap::Hex| -> Vec<hexmap::Hex> { g.board().neighbours(h).map(|(_, n)| n).collect() };
    let units = |u: u16| -> Vec<u16> {
        [u.wrapping_sub(1), u + 1, u + 2]
            .into_iter()
            .filter(|&x| usize::from(x) < g.units().len())
            .collect()
    };
    let mut v = Vec::new();
    match a {
        Action::Place { unit, hex } => {
            v.extend(
                hexes(hex)
                    .into_iter()
                    .map(|hex| Action::Place { unit, hex }),
            );
            v.extend(
                units(unit)
                    .into_iter()
                    .map(|unit| Action::Place { unit, hex }),
            );
        }
        Action::Move { unit, to } => {
            v.extend(hexes(to).into_iter().map(|to| Action::Move { unit, to }));
            v.extend(
                units(unit)
                    .into_iter()
                    .map(|unit| Action::Move { unit, to }),
            );
        }
        Action::Attack { from, to } => {
            v.extend(hexes(to).into_iter().map(|to| Action::Attack { from, to }));
            v.extend(
                hexes(from)
                    .into_iter()
                    .map(|from| Action::Attack { from, to }),
            );
        }
        Action::Advance { from, to } => {
            v.extend(hexes(to).into_iter().map(|to| Action::Advance { from, to }));
        }
        Action::Overrun { from, to } => {
            v.extend(hexes(to).into_iter().map(|to| Action::Overrun { from, to }));
        }
        Action::Retreat { unit, to } => {
            v.extend(hexes(to).into_iter().map(|to| Action::Retreat { unit, to }));
            v.extend(
                units(unit)
                    .into_iter()
                    .map(|unit| Action::Retreat { unit, to }),
            );
        }
        Action::Supply { unit } => {
            v.extend(units(unit).into_iter().map(|unit| Action::Supply { unit }))
        }
        Action::March { unit, triple } => {
            v.push(Action::March {
                unit,
                triple: !triple,
            });
            v.extend(
                units(unit)
                    .into_iter()
                    .map(|unit| Action::March { unit, triple }),
            );
        }
        Action::Split { unit, into } => {
            v.extend((0..7u8).map(|into| Action::Split { unit, into }));
            v.extend(
                units(unit)
                    .into_iter()
                    .map(|unit| Action::Split { unit, into }),
            );
        }
        Action::Combine { hex, .. } => {
            v.extend((0..7u8).map(|kind| Action::Combine { hex, kind }));
        }
        Action::Press { unit }
        | Action::Halt { unit }
        | Action::Disband { unit }
        | Action::Aside { unit }
        | Action::Hide { unit }
        | Action::Exit { unit } => {
            v.extend(units(unit).into_iter().flat_map(|unit| {
                [
                    Action::Press { unit },
                    Action::Halt { unit },
                    Action::Disband { unit },
                    Action::Aside { unit },
                    Action::Hide { unit },
                    Action::Exit { unit },
                ]
            }));
        }
        Action::End | Action::Roll(_) | Action::Armistice => {}
    }
    v.push(Action::End);
    v.push(Action::Armistice);
    v
}

fn run(n: u8, seed: u64) {
    let start = game(n);
    let mut g = start.clone();
    let mut hashes = Vec::new();
    let mut buf = Vec::new();
    let mut k = 0u64;
    let actions = play_random_ending(&mut g, seed, 1500, 6, |g| {
        hashes.push(g.state_hash());
        buf.clear();
        g.legal_actions(&mut buf);
        let legal: HashSet<Action> = buf.iter().copied().collect();
        k += 1;
        // Up to six actions a step, spread over the list and shifted from step to step.
        let stride = buf.len() / 6 + 1;
        for (i, &a) in buf.iter().enumerate() {
            if !(i as u64 + k).is_multiple_of(stride as u64) {
                continue;
            }
            assert!(
                g.check(a).is_ok(),
                "generated but refused: {}",
                g.action_text(a)
            );
            let t = g.action_text(a);
            assert_eq!(g.parse_action(&t).unwrap(), a, "{t}");
            for b in neighbours(g, a) {
                if g.check(b).is_ok() {
                    assert!(
                        legal.contains(&b),
                        "accepted but not generated: {}",
                        g.action_text(b)
                    );
                }
            }
        }
    });
    let mut r = start;
    for (i, t) in actions.iter().enumerate() {
        assert_eq!(r.state_hash(), hashes[i], "step {i}: {t}");
        r.apply(r.parse_action(t).unwrap()).unwrap();
    }
    assert_eq!(r.state_hash(), g.state_hash());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4, ..ProptestConfig::default() })]
    #[test]
    fn generated_actions_are_accepted_accepted_ones_generated_and_replays_exact(
        n in 1u8..=8,
        seed in any::<u64>(),
    ) {
        run(n, seed);
    }
}
