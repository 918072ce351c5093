//! Movement by path: a distance field over the map in the rules' own movement costs.
//!
//! The rules crate prices each step ([`Game::terrain_step`]: the original game's terrain
//! chart, with the Leipzig swamps); the players never copy a cost. For each scenario and arm
//! (cavalry, or the others) the price of every step is asked once and kept in a table
//! ([`StepCosts`]); a **field** gives for every hex the least cost in half movement points of
//! reaching a set of target hexes (the enemy's hexes), by a Dijkstra search backward from
//! them. A unit steps to a neighbour whose field is lower: it goes around a river to its
//! bridge instead of stalling on the bank. Fields are kept per thread (the search's rollouts
//! run on several), keyed by scenario, arm and target set, so a whole movement phase reuses
//! one until a melee moves the enemy.

use hexmap::{Dir, Hex, HexGrid};
use napoleonic_battles::Game;
use naw::UnitType;
use std::cell::RefCell;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::rc::Rc;

/// No path: the field of a hex the targets cannot be reached from.
pub(crate) const FAR: u32 = u32::MAX;

/// The price of every step of the map for one arm, in half MP (`u16::MAX`: closed).
struct StepCosts {
    digest: u64,
    cavalry: bool,
    /// Per hex (the grid's index), per direction.
    cost: Vec<[u16; 6]>,
}

/// A distance field: per hex, the least cost in half MP to reach a target.
pub(crate) struct Field {
    grid: HexGrid<()>,
    dist: Vec<u32>,
}

impl Field {
    /// The field's value at `h` ([`FAR`] off the map or out of reach).
    pub(crate) fn at(&self, h: Hex) -> u32 {
        self.grid.index(h).map_or(FAR, |i| self.dist[i])
    }
}

#[derive(Default)]
struct Cache {
    costs: Vec<Rc<StepCosts>>,
    /// (key, field), most recent last.
    fields: Vec<(u64, Rc<Field>)>,
}

thread_local! {
    static CACHE: RefCell<Cache> = RefCell::new(Cache::default());
}

/// How many fields a thread keeps.
const KEEP: usize = 12;

fn step_costs(g: &Game, cavalry: bool) -> Rc<StepCosts> {
    let digest = g.scenario().digest;
    CACHE.with(|c| {
        if let Some(s) = c
            .borrow()
            .costs
            .iter()
            .find(|s| s.digest == digest && s.cavalry == cavalry)
        {
            return s.clone();
        }
        let map = &g.scenario().map;
        let grid = map.grid(());
        let kind = if cavalry {
            UnitType::Cavalry
        } else {
            UnitType::Infantry
        };
        let cost = (0..grid.len())
            .map(|i| {
                let h = grid.hex_at(i);
                let mut row = [u16::MAX; 6];
                for (k, d) in Dir::ALL.into_iter().enumerate() {
                    // the rules' price of the step (NB Impulse Action sequence: the original
                    // game's terrain chart; NB Leipzig Terrain Effects: swamps)
                    if let Ok(c) = g.terrain_step(kind, h, d) {
                        row[k] = c.max(1);
                    }
                }
                row
            })
            .collect();
        let s = Rc::new(StepCosts {
            digest,
            cavalry,
            cost,
        });
        let mut c = c.borrow_mut();
        c.costs.retain(|x| x.digest == digest);
        c.costs.push(s.clone());
        s
    })
}

/// The field of the least cost for a unit of the arm (`cavalry` or not) to reach any of
/// `targets`, in half MP, cached per thread.
pub(crate) fn field(g: &Game, cavalry: bool, targets: &[Hex]) -> Rc<Field> {
    let mut key = engine::mix(g.scenario().digest, u64::from(cavalry));
    for t in targets {
        key = engine::mix(key, (t.x as u64) << 16 | (t.y as u16 as u64));
    }
    if let Some(f) = CACHE.with(|c| {
        let mut c = c.borrow_mut();
        let i = c.fields.iter().position(|x| x.0 == key)?;
        let hit = c.fields.remove(i);
        let f = hit.1.clone();
        c.fields.push(hit);
        Some(f)
    }) {
        return f;
    }
    let costs = step_costs(g, cavalry);
    let map = &g.scenario().map;
    let grid = map.grid(());
    let mut dist = vec![FAR; grid.len()];
    let mut heap = BinaryHeap::new();
    for &t in targets {
        if let Some(i) = grid.index(t) {
            dist[i] = 0;
            heap.push(Reverse((0u32, i)));
        }
    }
    // backward: the cost of the step from a neighbour `y` into `x`
    while let Some(Reverse((d, i))) = heap.pop() {
        if d > dist[i] {
            continue;
        }
        let x = grid.hex_at(i);
        for dir in Dir::ALL {
            let y = map.neighbour(x, dir);
            let Some(j) = grid.index(y) else { continue };
            let Some(back) = map.direction(y, x) else {
                continue;
            };
            let c = costs.cost[j][back as usize];
            if c == u16::MAX {
                continue;
            }
            let nd = d + u32::from(c);
            if nd < dist[j] {
                dist[j] = nd;
                heap.push(Reverse((nd, j)));
            }
        }
    }
    let f = Rc::new(Field { grid, dist });
    CACHE.with(|c| {
        let mut c = c.borrow_mut();
        if c.fields.len() >= KEEP {
            c.fields.remove(0);
        }
        c.fields.push((key, f.clone()));
    });
    f
}

#[cfg(test)]
mod tests {
    use super::*;
    use napoleonic_battles::Supplement;

    fn first_day() -> Game {
        Game::new(
            scenarios::load("bon-first-day").expect("the First Day loads"),
            Supplement::bon(),
        )
    }

    /// The field is the rules' cheapest path: every hex's value is the least, over the steps
    /// the rules allow from it ([`Game::terrain_step`]), of the step's cost and the field
    /// beyond; the targets are 0; hexes behind rivers are farther by path than by hexes.
    #[test]
    fn the_field_follows_the_rules_movement_costs() {
        let g = first_day();
        let map = &g.scenario().map;
        let targets: Vec<Hex> = g
            .unit_ids()
            .filter(|&u| g.scenario().unit(u).side == engine::Side(1))
            .filter_map(|u| match g.loc(u) {
                napoleonic_battles::Loc::Map(h) => Some(h),
                _ => None,
            })
            .collect();
        assert!(!targets.is_empty());
        for cavalry in [false, true] {
            let kind = if cavalry {
                UnitType::Cavalry
            } else {
                UnitType::Infantry
            };
            let f = field(&g, cavalry, &targets);
            let mut detours = 0;
            for h in map.hexes() {
                let v = f.at(h);
                if targets.contains(&h) {
                    assert_eq!(v, 0);
                    continue;
                }
                let best = Dir::ALL
                    .into_iter()
                    .filter_map(|d| {
                        let c = g.terrain_step(kind, h, d).ok()?;
                        let beyond = f.at(map.neighbour(h, d));
                        (beyond != FAR).then(|| beyond + u32::from(c.max(1)))
                    })
                    .min()
                    .unwrap_or(FAR);
                assert_eq!(v, best, "{h}: the field against its best step");
                let d = targets
                    .iter()
                    .map(|&t| map.distance(h, t))
                    .min()
                    .unwrap_or(0);
                if v != FAR && v > 6 * d {
                    detours += 1;
                }
            }
            assert!(detours > 0, "no hex is farther by path than by hexes");
            // the second call is the cached field
            assert!(Rc::ptr_eq(&f, &field(&g, cavalry, &targets)));
        }
    }
}
