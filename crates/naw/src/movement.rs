//! Movement (5.0), zones of control in movement (6.0), night movement (10.2, 16.1) and the
//! entry of reinforcements (15.0).

use crate::game::{Game, Loc, Step};
use crate::tables::entry_cost_half;
use crate::{Action, UnitId};
use engine::{Refusal, Side};
use hexmap::{Dir, Hex, Hexside, Map, Terrain};
use std::cell::RefCell;

/// A legal destination of a unit, with the cost of its cheapest path in half movement points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Destination {
    /// The hex.
    pub hex: Hex,
    /// Cheapest cost in half movement points (a road hexside costs 1).
    pub cost_half: u16,
}

/// The cost in half movement points of moving from `from` through the hexside in direction
/// `d` into the neighbour, or the case that prohibits it. Terrain only; units and zones of
/// control are the caller's business.
pub fn step_cost(map: &Map, from: Hex, d: Dir) -> Result<u16, &'static str> {
    let to = from.neighbour(d);
    if !map.contains(to) {
        return Err("15.4");
    }
    let side = map.hexside(from, d);
    if side.is_unbridged_river() {
        return Err("5.24");
    }
    if side.has(Hexside::ROAD) {
        // 5.22 and the ruling: road to road through a road hexside, whatever the hex or stream.
        return Ok(1);
    }
    let t = map.terrain(to);
    let Some(base) = entry_cost_half(t) else {
        return Err("9.0");
    };
    if side.has(Hexside::TRAIL) {
        return Ok(2); // 5.23
    }
    let mut c = base; // 5.21
    if side.has(Hexside::STREAM) && !side.has(Hexside::BRIDGE) {
        c += 4; // 5.25
    }
    if side.has(Hexside::SLOPE) && map.is_slope_hex(from) {
        c += 2; // 5.26 (and 9.0: whatever the hex entered)
    }
    let _ = Terrain::Clear;
    Ok(c)
}

/// A step that may not be taken, in [`StepTable::cost`].
pub(crate) const PROHIBITED: u8 = u8::MAX;

/// The terrain cost of every step of a map, precomputed once per scenario: for each hex (by
/// dense index) and direction, the neighbour's index and the half movement points of
/// [`step_cost`] (or [`PROHIBITED`]). The search then does no hex arithmetic.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct StepTable {
    /// Neighbour index per direction (unused where the step is prohibited).
    pub(crate) nbr: Vec<[u16; 6]>,
    /// Step cost per direction in half movement points, or [`PROHIBITED`].
    pub(crate) cost: Vec<[u8; 6]>,
}

impl StepTable {
    /// The table of a map.
    pub fn new(map: &Map) -> StepTable {
        let grid = map.grid(());
        let n = grid.len();
        let mut t = StepTable {
            nbr: vec![[0; 6]; n],
            cost: vec![[PROHIBITED; 6]; n],
        };
        for i in 0..n {
            let h = grid.hex_at(i);
            for d in Dir::ALL {
                if let (Ok(c), Some(ni)) = (step_cost(map, h, d), grid.index(h.neighbour(d))) {
                    t.nbr[i][d.index()] = ni as u16;
                    t.cost[i][d.index()] = c.min(PROHIBITED as u16 - 1) as u8;
                }
            }
        }
        t
    }
}

struct Scratch {
    cost: Vec<u16>,
    parent: Vec<u16>,
    touched: Vec<u16>,
    buckets: Vec<Vec<u16>>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = const { RefCell::new(Scratch {
        cost: Vec::new(),
        parent: Vec::new(),
        touched: Vec::new(),
        buckets: Vec::new(),
    }) };
}

const UNREACHED: u16 = u16::MAX;

/// Where a move starts and how much it may spend.
#[derive(Clone, Copy)]
struct Origin {
    hex: Hex,
    start_cost: u16,
    budget: u16,
    side: Side,
    /// 5.13 / 10.2: the start hex is enemy-controlled and may not be left.
    stuck: bool,
    night: bool,
    /// Terrain alone: units and zones of control set aside (to explain a refusal).
    terrain_only: bool,
}

impl Game {
    fn origin(&self, u: UnitId, unlimited: bool) -> Option<Origin> {
        let d = &self.sc.units[u.0 as usize];
        let s = &self.units[u.0 as usize];
        let budget = if unlimited {
            u16::MAX / 4
        } else {
            d.movement as u16 * 2
        };
        let night = self.is_night();
        match s.loc {
            Loc::Map(h) => {
                let in_zoc = self.controlled_by(d.side.other(), h);
                // 5.13 by day; 10.2 at night, unless 16.1's night withdrawal applies
                let stuck = in_zoc && !(night && self.sc.hooks.night_withdrawal);
                Some(Origin {
                    hex: h,
                    start_cost: 0,
                    budget,
                    side: d.side,
                    stuck,
                    night,
                    terrain_only: false,
                })
            }
            // 15.3: one movement point to be placed on the entry hex
            Loc::Waiting if s.due <= self.turn => Some(Origin {
                hex: s.entry,
                start_cost: 2,
                budget,
                side: d.side,
                stuck: false,
                night,
                terrain_only: false,
            }),
            _ => None,
        }
    }

    /// Runs the cheapest-path search from `o`, calling `visit(hex, cost, parent_index)` for each
    /// hex settled, in order of cost.
    fn search(&self, o: Origin, mut visit: impl FnMut(Hex, u16)) -> Option<Vec<Hex>> {
        self.search_inner(o, None, &mut visit)
    }

    fn search_inner(
        &self,
        o: Origin,
        want_path_to: Option<Hex>,
        mut visit: impl FnMut(Hex, u16),
    ) -> Option<Vec<Hex>> {
        let enemy = o.side.other();
        if o.start_cost > o.budget {
            return None;
        }
        let steps = &self.sc.steps;
        let occ = self.occ.cells();
        let enemy_zoc = self.zoc[enemy.0 as usize].cells();
        SCRATCH.with(|cell| {
            let mut sc = cell.borrow_mut();
            let n = self.occ.len();
            if sc.cost.len() != n {
                sc.cost = vec![UNREACHED; n];
                sc.parent = vec![UNREACHED; n];
            }
            let Scratch {
                cost,
                parent,
                touched,
                buckets,
            } = &mut *sc;
            touched.clear();
            for b in buckets.iter_mut() {
                b.clear();
            }
            let start = self.occ.index(o.hex)? as u16;
            cost[start as usize] = o.start_cost;
            parent[start as usize] = UNREACHED;
            touched.push(start);
            let push = |buckets: &mut Vec<Vec<u16>>, c: u16, i: u16| {
                let c = c as usize;
                if buckets.len() <= c {
                    buckets.resize_with(c + 1, Vec::new);
                }
                buckets[c].push(i);
            };
            push(buckets, o.start_cost, start);
            let mut c = o.start_cost as usize;
            let mut found = None;
            while c < buckets.len() {
                let Some(i) = buckets[c].pop() else {
                    c += 1;
                    continue;
                };
                if cost[i as usize] != c as u16 {
                    continue; // stale entry
                }
                let h = self.occ.hex_at(i as usize);
                visit(h, c as u16);
                if Some(h) == want_path_to {
                    found = Some(i);
                    break;
                }
                let ii = i as usize;
                // 6.0: entering an enemy-controlled hex ends the move; 5.13: may not leave it.
                let here_zoc = !o.terrain_only && enemy_zoc[ii] > 0;
                if (ii == start as usize && o.stuck) || (ii != start as usize && here_zoc) {
                    continue;
                }
                for k in 0..6 {
                    let step = steps.cost[ii][k];
                    if step == PROHIBITED {
                        continue;
                    }
                    let ni = steps.nbr[ii][k] as usize;
                    if !o.terrain_only {
                        // 5.12: never into an enemy unit
                        let x = occ[ni];
                        if x != 0 && self.sc.units[x as usize - 1].side == enemy {
                            continue;
                        }
                        // 10.2 / 16.1: no entering enemy zones of control at night
                        if o.night && enemy_zoc[ni] > 0 {
                            continue;
                        }
                    }
                    let nc = c as u16 + step as u16;
                    if nc > o.budget {
                        continue; // 5.15
                    }
                    if cost[ni] == UNREACHED {
                        touched.push(ni as u16);
                    }
                    if nc < cost[ni] {
                        cost[ni] = nc;
                        parent[ni] = i;
                        push(buckets, nc, ni as u16);
                    }
                }
            }
            let path = found.map(|mut i| {
                let mut p = vec![self.occ.hex_at(i as usize)];
                while parent[i as usize] != UNREACHED {
                    i = parent[i as usize];
                    p.push(self.occ.hex_at(i as usize));
                }
                p.reverse();
                p
            });
            for &t in touched.iter() {
                cost[t as usize] = UNREACHED;
                parent[t as usize] = UNREACHED;
            }
            path
        })
    }

    /// True when the unit may still move this phase (its owner's movement phase, not yet moved,
    /// on the map or a reinforcement that is due). It may still have nowhere to go.
    pub fn may_move(&self, u: UnitId) -> bool {
        self.check_can_move(u).is_ok()
    }

    /// True when the unit may move in this phase at all (phase, owner, 5.17, 14.62, 15.0).
    fn check_can_move(&self, u: UnitId) -> Result<(), Refusal> {
        if (u.0 as usize) >= self.units.len() {
            return Game::refuse("5.11", "no such unit");
        }
        if self.step != Step::Movement {
            return Game::refuse("5.11", "units move only in their own movement phase");
        }
        if self.side_of(u) != self.phasing() {
            return Game::refuse(
                "5.11",
                format!(
                    "{} belongs to the non-phasing player and may not move now",
                    self.id(u)
                ),
            );
        }
        let s = &self.units[u.0 as usize];
        if s.moved {
            return Game::refuse(
                "5.17",
                format!("{} has already moved this phase", self.id(u)),
            );
        }
        match s.loc {
            Loc::Eliminated => Game::refuse("7.6", format!("{} has been eliminated", self.id(u))),
            Loc::Waiting if s.due > self.turn => Game::refuse(
                "15.0",
                format!(
                    "{} is a reinforcement due on game-turn {} at {}",
                    self.id(u),
                    s.due,
                    s.entry
                ),
            ),
            _ => Ok(()),
        }
    }

    /// Every legal destination of a unit in this movement phase, with its cheapest cost.
    /// Empty when the unit may not move.
    pub fn destinations(&self, u: UnitId, out: &mut Vec<Destination>) {
        out.clear();
        if self.check_can_move(u).is_err() {
            return;
        }
        let Some(o) = self.origin(u, false) else {
            return;
        };
        let waiting = self.units[u.0 as usize].loc == Loc::Waiting;
        self.search(o, |h, c| {
            // 5.32 (ruling: every move ends in a vacant hex); staying put is no move, except
            // that a reinforcement may stop on its entry hex.
            if self.unit_at(h).is_none() && (h != o.hex || waiting) {
                out.push(Destination {
                    hex: h,
                    cost_half: c,
                });
            }
        });
    }

    /// The cheapest path of a legal move (hexes from the start or entry hex to `to`) and its
    /// cost in half movement points.
    pub fn path(&self, u: UnitId, to: Hex) -> Option<(Vec<Hex>, u16)> {
        self.check_move(u, to).ok()
    }

    /// Checks a move, returning its cheapest path and cost.
    pub(crate) fn check_move(&self, u: UnitId, to: Hex) -> Result<(Vec<Hex>, u16), Refusal> {
        self.check_can_move(u)?;
        let id = self.id(u);
        let map = &self.sc.map;
        if !map.contains(to) {
            return Game::refuse(
                "15.4",
                format!("{to} is not on the map; units never leave it voluntarily"),
            );
        }
        let Some(o) = self.origin(u, false) else {
            return Game::refuse("5.11", format!("{id} cannot move now"));
        };
        let waiting = self.units[u.0 as usize].loc == Loc::Waiting;
        if o.hex == to && !waiting {
            return Game::refuse("5.16", format!("{id} is already in {to}"));
        }
        if let Some(x) = self.unit_at(to) {
            if self.side_of(x) != self.side_of(u) {
                return Game::refuse("5.12", format!("{to} holds the enemy unit {}", self.id(x)));
            }
            return Game::refuse(
                "5.32",
                format!("{to} holds {}; no two units may share a hex (a unit may pass through friends but not stop on them)", self.id(x)),
            );
        }
        if o.stuck {
            let case = if self.is_night() { "10.2" } else { "5.13" };
            return Game::refuse(case, format!("{id} is in an enemy zone of control and may not leave it in the movement phase"));
        }
        if o.night && self.controlled_by(o.side.other(), to) {
            let case = if self.sc.hooks.night_withdrawal {
                "16.1"
            } else {
                "10.2"
            };
            return Game::refuse(
                case,
                format!("at night no unit may enter an enemy zone of control ({to})"),
            );
        }
        let mut cost = None;
        let path = self.search_inner(o, Some(to), &mut |h, c| {
            if h == to {
                cost = Some(c);
            }
        });
        if let (Some(p), Some(c)) = (path, cost) {
            return Ok((p, c));
        }
        // Explain why: too far, or no route at all.
        let unlimited = self.origin(u, true).expect("origin exists");
        let mut ucost = None;
        self.search_inner(unlimited, Some(to), &mut |h, c| {
            if h == to {
                ucost = Some(c);
            }
        });
        if let Some(c) = ucost {
            return Game::refuse(
                "5.15",
                format!(
                    "{to} costs {} movement points to reach; {id} has a movement allowance of {}",
                    fmt_half(c),
                    self.sc.units[u.0 as usize].movement
                ),
            );
        }
        if map.terrain(to) == Terrain::Marsh {
            return Game::refuse("9.0", format!("{to} is marsh, entered only along a road"));
        }
        // With units and zones of control set aside, does terrain alone shut it off?
        let bare = Origin {
            terrain_only: true,
            stuck: false,
            ..unlimited
        };
        let mut open = false;
        self.search_inner(bare, Some(to), &mut |h, _| open |= h == to);
        if !open {
            return Game::refuse(
                "5.24",
                format!("no route reaches {to}: rivers without bridges (5.24) or marsh off the roads (9.0) close every path"),
            );
        }
        Game::refuse(
            "6.0",
            format!("no route reaches {to}: rivers without bridges (5.24), enemy units (5.12) or zones of control (6.0) close every path"),
        )
    }

    pub(crate) fn apply_move(&mut self, u: UnitId, to: Hex) {
        let waiting = self.units[u.0 as usize].loc == Loc::Waiting;
        self.place(u, to);
        self.units[u.0 as usize].moved = true;
        if waiting {
            let text = format!("{} enters the map", self.id(u));
            self.event("15.1", text);
        }
    }

    pub(crate) fn movement_actions(&self, out: &mut Vec<Action>) {
        let mut dests = Vec::new();
        for u in self.unit_ids() {
            self.destinations(u, &mut dests);
            out.extend(dests.iter().map(|d| Action::Move { unit: u, to: d.hex }));
        }
        out.push(Action::End);
    }
}

/// Half movement points as text: `3`, `2½`.
pub fn fmt_half(c: u16) -> String {
    if c.is_multiple_of(2) {
        format!("{}", c / 2)
    } else {
        format!("{}½", c / 2)
    }
}
