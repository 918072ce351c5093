//! What one side may believe of the game (Reconnaissance): a *determinization* of the game for
//! a side, for computer players that must not read what their seat may not examine.
//!
//! While the Reconnaissance rule is in force the French see where every Allied counter stands
//! but not what an unrevealed one is ([`Game::sees`]). [`Game::as_seen_by`] makes a whole game
//! that keeps everything that side may see and re-draws the rest: the identities of the enemy
//! counters it may not examine (kind, and so strength, arm and allowance; leader number,
//! nationality, name; movement points, moved, forced march, dispersal and supply markers, the
//! Gotha and Saxon flags) are permuted among the positions of those counters, by a draw seeded
//! by the caller. What is public is kept: where each counter stands, how many stand there,
//! every unit the side may examine, the turn, the step, the declared combats, the cities, the
//! losses and the victory points. The identities drawn are those of the unexamined counters
//! taken as a set (the side knows the enemy's order of battle and the reinforcement chart,
//! and sees what it has revealed and destroyed): they are sorted before the draw, so the result
//! depends on which identities are hidden but never on which counter really carries which.
//!
//! The events of the last action are dropped from the copy (they name units by their real
//! labels). The real game is never changed. A side that may examine every unit gets an exact
//! copy.

use crate::game::{Game, Unit};
use engine::Dice;

/// The fields of a unit that stay with its position in a determinization (what a side sees of
/// a counter it may not examine: where it stands, that it is there, whose it is), the rest of
/// `id` carried over.
fn placed(id: &Unit, at: &Unit) -> Unit {
    Unit {
        side: at.side,
        hex: at.hex,
        status: at.status,
        hexset: at.hexset,
        stopped: at.stopped,
        aside: at.aside,
        revealed: at.revealed,
        exited: at.exited,
        ..id.clone()
    }
}

/// The order the hidden identities are sorted in before the draw: everything a unit carries
/// but its position, so that the sorted list depends only on the set of identities.
fn identity_key(u: &Unit) -> impl Ord {
    (
        u.kind,
        u.leader,
        u.nationality,
        u.serial,
        u.mp,
        u.moved,
        u.dispersed_until,
        u.disperse_at_end,
        format!("{:?}", u.march),
        (u.gotha, u.saxon, u.supply_use),
    )
}

impl Game {
    /// Whether `side` may examine every unit now ([`Game::sees`]): then
    /// [`Game::as_seen_by`] is an exact copy.
    pub fn sees_all(&self, side: u8) -> bool {
        (0..self.units.len()).all(|u| self.sees(side, u))
    }

    /// The units on the map that `side` may not examine now ([`Game::sees`]), by index.
    pub fn unseen_by(&self, side: u8) -> Vec<usize> {
        (0..self.units.len())
            .filter(|&u| self.units[u].on_map() && !self.sees(side, u))
            .collect()
    }

    /// A determinization of the game for `side` (see the module's text): the identities of
    /// the enemy counters `side` may not examine permuted among their positions by a draw
    /// from `seed`, everything `side` may see kept. The same seed and the same public position
    /// give the same game whatever the hidden counters really are; the real game is not
    /// changed.
    pub fn as_seen_by(&self, side: u8, seed: u64) -> Game {
        let mut g = self.clone();
        let hidden = self.unseen_by(side);
        if hidden.is_empty() {
            return g;
        }
        g.events.clear();
        let mut ids: Vec<&Unit> = hidden.iter().map(|&u| &self.units[u]).collect();
        ids.sort_by_key(|u| identity_key(u));
        // a seeded Fisher-Yates shuffle of the identities over the hidden positions
        let mut dice = Dice::new(seed ^ 0x5EE1_1813_0000_0000);
        let mut order: Vec<usize> = (0..ids.len()).collect();
        for k in (1..order.len()).rev() {
            let j = dice.draw(&vec![1; k + 1]).unwrap_or(k);
            order.swap(k, j);
        }
        for (slot, &u) in hidden.iter().enumerate() {
            g.units[u] = placed(ids[order[slot]], &self.units[u]);
        }
        g
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Tables;
    use crate::game::Status;
    use crate::scenario::Scenario;
    use engine::{Rules, ToAct};

    /// A spring game (Reconnaissance in force) played by the first legal action and seeded
    /// dice until the French are to act in their movement phase with Allied counters hidden.
    fn spring_game() -> Game {
        let mut g = Game::new(&Scenario::leipzig(1).unwrap(), &Tables::leipzig()).unwrap();
        let mut dice = Dice::new(5);
        let mut v = Vec::new();
        for _ in 0..5_000 {
            match g.to_act() {
                ToAct::Side(s) if s.0 == 0 && g.step() == crate::game::Step::Movement => break,
                ToAct::Side(_) => {
                    v.clear();
                    g.legal_actions(&mut v);
                    let a = v
                        .iter()
                        .copied()
                        .find(|a| !matches!(a, crate::Action::End))
                        .unwrap_or(v[0]);
                    g.apply_unchecked(a);
                }
                ToAct::Chance => {
                    let a = engine::draw_chance(&g, &mut dice).unwrap();
                    g.apply_unchecked(a);
                }
                ToAct::Over(_) => break,
            }
        }
        g
    }

    /// The same game with the identities of two hidden counters of different kinds swapped
    /// (what the French could not tell apart).
    fn swapped(g: &Game) -> Game {
        let hidden = g.unseen_by(0);
        let a = hidden[0];
        let b = *hidden
            .iter()
            .find(|&&b| g.units[b].kind != g.units[a].kind)
            .expect("two hidden counters of different kinds");
        let mut h = g.clone();
        h.units[a] = placed(&g.units[b], &g.units[a]);
        h.units[b] = placed(&g.units[a], &g.units[b]);
        h
    }

    #[test]
    fn reconnaissance_hides_allied_counters_in_the_spring() {
        let g = spring_game();
        assert!(g.reconnaissance());
        assert!(g.unseen_by(0).len() >= 2, "hidden Allied counters");
        assert!(
            g.unseen_by(1).is_empty(),
            "the Allies see every French unit"
        );
        assert!(!g.sees_all(0));
        assert!(g.sees_all(1));
    }

    #[test]
    fn what_the_side_may_see_is_kept() {
        let g = spring_game();
        for seed in 0..20 {
            let d = g.as_seen_by(0, seed);
            assert_eq!(d.units.len(), g.units.len());
            assert_eq!(
                (d.turn, d.player, d.step, d.city_owner, d.victory_points()),
                (g.turn, g.player, g.step, g.city_owner, g.victory_points())
            );
            assert_eq!(d.combats, g.combats);
            assert_eq!(d.to_act(), g.to_act());
            for u in 0..g.units.len() {
                let (x, y) = (&d.units[u], &g.units[u]);
                assert_eq!(d.sees(0, u), g.sees(0, u));
                if g.sees(0, u) {
                    assert_eq!(x, y, "a unit the French may examine is unchanged");
                } else {
                    assert_eq!((x.side, x.hex, x.status), (y.side, y.hex, y.status));
                }
            }
            // the hidden identities are the same set, re-drawn
            let mut a: Vec<u16> = g.unseen_by(0).iter().map(|&u| g.units[u].serial).collect();
            let mut b: Vec<u16> = d.unseen_by(0).iter().map(|&u| d.units[u].serial).collect();
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b);
        }
        // the Allies see everything: an exact copy
        assert_eq!(g.as_seen_by(1, 3).state_hash(), g.state_hash());
    }

    #[test]
    fn the_draw_never_depends_on_which_counter_is_which() {
        let g = spring_game();
        let h = swapped(&g);
        assert_ne!(g.state_hash(), h.state_hash(), "the real games differ");
        let mut differs = false;
        for seed in 0..20 {
            let (a, b) = (g.as_seen_by(0, seed), h.as_seen_by(0, seed));
            assert_eq!(a.state_hash(), b.state_hash(), "seed {seed}");
            differs |= a.state_hash() != g.as_seen_by(0, seed + 1).state_hash();
        }
        assert!(differs, "different seeds draw different worlds");
        // the real game is untouched
        let before = g.state_hash();
        let _ = g.as_seen_by(0, 1);
        assert_eq!(g.state_hash(), before);
    }

    #[test]
    fn identities_are_drawn_from_the_hidden_counters_only() {
        let g = spring_game();
        let d = g.as_seen_by(0, 11);
        for u in d.unseen_by(0) {
            assert_eq!(d.units[u].side, 1);
            assert_eq!(d.units[u].status, Status::OnMap);
            assert!(g
                .unseen_by(0)
                .iter()
                .any(|&v| g.units[v].serial == d.units[u].serial
                    && g.units[v].kind == d.units[u].kind));
        }
    }
}
