//! Movement (5.0), zones of control in movement (6.0), night movement (10.2, 16.1) and the
//! entry of reinforcements (15.0).

use crate::game::{Game, Loc, Step};
use crate::tables::Chart;
use crate::Opponent;
use crate::{Action, Event, UnitId};
use engine::{Refusal, Side};
use hexmap::{Dir, Hex, Map};
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
/// control are the caller's business. `chart` is the map's Terrain Effects Chart.
pub fn step_cost(map: &Map, chart: &Chart, from: Hex, d: Dir) -> Result<u16, &'static str> {
    let to = from.neighbour(d);
    if !map.contains(to) {
        return Err("15.4");
    }
    let side = map.hexside(from, d);
    if chart.unbridged_river(side) {
        return Err("5.24");
    }
    if side.any(chart.road) {
        // 5.22 and the ruling: road to road through a road hexside, whatever the hex or stream.
        return Ok(crate::tables::ROAD_STEP_HALF);
    }
    let Some(base) = chart.entry_cost_half(map.terrain(to)) else {
        return Err("9.0");
    };
    if side.any(chart.trail) {
        return Ok(crate::tables::TRAIL_STEP_HALF); // 5.23
    }
    let mut c = base; // 5.21
    if side.any(chart.stream) && !side.any(chart.bridge) {
        c += crate::tables::STREAM_EXTRA_HALF; // 5.25
    }
    if side.any(chart.slope) && map.is_slope_hex(from) {
        c += crate::tables::SLOPE_EXTRA_HALF; // 5.26 (and 9.0: whatever the hex entered)
    }
    Ok(c)
}

/// The six steps out of one hex: the neighbour's dense index and the cost in half movement
/// points per direction. Where the step may not be taken the neighbour is the table's
/// sentinel index (one past the last hex), which the search never enters. Kept together so
/// that expanding a hex reads one small record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct HexSteps {
    pub nbr: [u16; 6],
    pub cost: [u8; 6],
}

/// The terrain cost of every step of a map, precomputed once per scenario: for each hex (by
/// dense index) and direction, the neighbour's index and the half movement points of
/// [`step_cost`] (or the sentinel where it is prohibited), and the hex of each index. The
/// search then does no hex arithmetic.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct StepTable {
    /// The steps out of each hex.
    pub(crate) steps: Vec<HexSteps>,
    /// The hex of each dense index.
    pub(crate) hex: Vec<Hex>,
    /// The hexes into which a unit in each hex exerts its zone of control (6.0, 6.6: not
    /// across an unbridged river), by dense index; the sentinel where there is none.
    pub(crate) zoc: Vec<[u16; 6]>,
    /// The neighbours of each hex on the map, whatever the hexside, by dense index; the
    /// sentinel off the map.
    pub(crate) adj: Vec<[u16; 6]>,
}

impl StepTable {
    /// The table of a map with its Terrain Effects Chart.
    pub fn new(map: &Map, chart: &Chart) -> StepTable {
        let grid = map.grid(());
        let n = grid.len();
        let mut t = StepTable {
            steps: vec![
                HexSteps {
                    nbr: [n as u16; 6],
                    cost: [0; 6],
                };
                n
            ],
            hex: (0..n).map(|i| grid.hex_at(i)).collect(),
            zoc: vec![[n as u16; 6]; n],
            adj: vec![[n as u16; 6]; n],
        };
        for i in 0..n {
            let h = grid.hex_at(i);
            for d in Dir::ALL {
                if let (Ok(c), Some(ni)) = (step_cost(map, chart, h, d), grid.index(h.neighbour(d)))
                {
                    t.steps[i].nbr[d.index()] = ni as u16;
                    t.steps[i].cost[d.index()] = c.min(u8::MAX as u16) as u8;
                }
                if let Some(ni) = grid.index(h.neighbour(d)) {
                    t.adj[i][d.index()] = ni as u16;
                    if !chart.unbridged_river(map.hexside(h, d)) {
                        t.zoc[i][d.index()] = ni as u16;
                    }
                }
            }
        }
        t
    }
}

/// The search's buffers, one set per thread (no allocation per query after the first). After
/// a whole search of a unit's destinations they are left as they are, tagged with the game's
/// [`Game::stamp`] and the unit, so that checking the move a player then picks among them
/// (the usual next query) is a lookup instead of a second search; the next search clears them.
struct Scratch {
    /// Cheapest cost per hex index, [`UNREACHED`] when not reached; one more entry, always 0,
    /// for the sentinel index of prohibited steps (so no cost ever improves on it).
    cost: Vec<u16>,
    /// The index a hex was reached from (meaningful only where `cost` is set).
    parent: Vec<u16>,
    /// Indices whose `cost` is set.
    touched: Vec<u16>,
    /// Bucket queue by cost.
    buckets: Vec<Vec<u16>>,
    /// Buckets the last search may have left entries in (`..used`).
    used: usize,
    /// `(stamp, unit)` of the complete destinations search the buffers hold.
    settled: Option<(u64, u8)>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = const { RefCell::new(Scratch {
        cost: Vec::new(),
        parent: Vec::new(),
        touched: Vec::new(),
        buckets: Vec::new(),
        used: 0,
        settled: None,
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

impl Scratch {
    /// Clears what the last search left and sizes the buffers for `n` hexes.
    fn reset(&mut self, n: usize) {
        self.settled = None;
        if self.cost.len() != n + 1 {
            self.cost = vec![UNREACHED; n + 1];
            self.cost[n] = 0; // the sentinel
            self.parent = vec![UNREACHED; n + 1];
            self.touched.clear();
        }
        for &t in self.touched.iter() {
            self.cost[t as usize] = UNREACHED;
        }
        self.touched.clear();
        for b in self.buckets[..self.used].iter_mut() {
            b.clear();
        }
        self.used = 0;
    }

    /// The path to index `i` by the parents, as hexes from the start.
    fn path_to(&self, steps: &StepTable, mut i: u16) -> Vec<Hex> {
        let mut p = vec![steps.hex[i as usize]];
        while self.parent[i as usize] != UNREACHED {
            i = self.parent[i as usize];
            p.push(steps.hex[i as usize]);
        }
        p.reverse();
        p
    }
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

    /// The cheapest-path search (a bucket-queue Dijkstra over half movement points) from `o`
    /// in the cleared scratch `sc`, calling `visit(index, cost)` for each hex settled, in order
    /// of cost. Stops when the hex of index `stop` is settled and returns its index; otherwise
    /// settles every reachable hex (then every touched hex holds its final cost).
    fn run_search(
        &self,
        o: Origin,
        sc: &mut Scratch,
        stop: Option<usize>,
        visit: impl FnMut(usize, u16),
    ) -> Option<u16> {
        if o.terrain_only {
            self.run_search_as::<false>(o, sc, stop, visit)
        } else {
            self.run_search_as::<true>(o, sc, stop, visit)
        }
    }

    /// [`Game::run_search`], with units and zones of control (`UNITS`) or terrain alone.
    fn run_search_as<const UNITS: bool>(
        &self,
        o: Origin,
        sc: &mut Scratch,
        stop: Option<usize>,
        mut visit: impl FnMut(usize, u16),
    ) -> Option<u16> {
        if o.start_cost > o.budget {
            return None;
        }
        let enemy = o.side.other().0;
        let steps = &self.sc.steps.steps[..];
        let occ = self.occ.cells();
        let occupant_side = &self.sc.occupant_side[..];
        let enemy_zoc = &self.zoc[enemy as usize][..];
        let start = self.occ.index(o.hex)?;
        let Scratch {
            cost,
            parent,
            touched,
            buckets,
            used,
            ..
        } = sc;
        let (cost, parent) = (&mut cost[..], &mut parent[..]);
        // one bucket per cost up to the budget (grown on demand for the unlimited searches
        // that explain a refusal)
        let want = (o.budget as usize + 1).min(64);
        if buckets.len() < want {
            buckets.resize_with(want, Vec::new);
        }
        cost[start] = o.start_cost;
        parent[start] = UNREACHED;
        touched.push(start as u16);
        let mut top = o.start_cost as usize;
        if buckets.len() <= top {
            buckets.resize_with(top + 1, Vec::new);
        }
        buckets[top].push(start as u16);
        let mut c = o.start_cost as usize;
        let found = 'search: loop {
            let Some(i) = buckets[c].pop() else {
                if c == top {
                    break 'search None;
                }
                c += 1;
                continue;
            };
            let ii = i as usize;
            let c16 = c as u16;
            if cost[ii] != c16 {
                continue; // stale entry
            }
            visit(ii, c16);
            if stop == Some(ii) {
                break 'search Some(i);
            }
            // 6.0: entering an enemy-controlled hex ends the move; 5.13: may not leave it.
            if ii == start {
                if o.stuck {
                    continue;
                }
            } else if UNITS && enemy_zoc[ii] > 0 {
                continue;
            }
            let st = &steps[ii];
            for k in 0..6 {
                // a prohibited step leads to the sentinel, whose cost 0 nothing improves on
                let ni = st.nbr[k] as usize;
                let nc = c16 + st.cost[k] as u16;
                // 5.15: within the movement allowance
                if nc >= cost[ni].min(o.budget + 1) {
                    continue;
                }
                if UNITS {
                    // 5.12: never into an enemy unit
                    if occupant_side[occ[ni] as usize] == enemy {
                        continue;
                    }
                    // 10.2 / 16.1: no entering enemy zones of control at night
                    if o.night && enemy_zoc[ni] > 0 {
                        continue;
                    }
                }
                if cost[ni] == UNREACHED {
                    touched.push(ni as u16);
                }
                cost[ni] = nc;
                parent[ni] = i;
                let b = nc as usize;
                if b > top {
                    top = b;
                    if buckets.len() <= b {
                        buckets.resize_with(b + 1, Vec::new);
                    }
                }
                buckets[b].push(ni as u16);
            }
        };
        *used = top + 1;
        found
    }

    /// Searches from `o` until `to` is settled: its cost and, when `want_path`, the path.
    fn search_to(&self, o: Origin, to: Hex, want_path: bool) -> Option<(Vec<Hex>, u16)> {
        let ti = self.occ.index(to)?;
        SCRATCH.with(|cell| {
            let sc = &mut *cell.borrow_mut();
            sc.reset(self.occ.len());
            let i = self.run_search(o, sc, Some(ti), |_, _| {})?;
            let path = if want_path {
                sc.path_to(&self.sc.steps, i)
            } else {
                Vec::new()
            };
            Some((path, sc.cost[ti]))
        })
    }

    /// True when the unit may still move this phase (its owner's movement phase, not yet moved,
    /// on the map or a reinforcement that is due). It may still have nowhere to go.
    pub fn may_move(&self, u: UnitId) -> bool {
        // the cases of check_can_move, without building a refusal
        let Some(s) = self.units.get(u.0 as usize) else {
            return false;
        };
        // evaluated without branches (`&`, not `&&`): callers ask for every unit in turn
        let eliminated = matches!(s.loc, Loc::Eliminated);
        let not_due = matches!(s.loc, Loc::Waiting) & (s.due > self.turn);
        (self.step == Step::Movement)
            & (self.side_of(u) == self.phasing())
            & !s.moved
            & !eliminated
            & !not_due
    }

    /// True when the unit may move in this phase at all (phase, owner, 5.17, 14.62, 15.0).
    fn check_can_move(&self, u: UnitId) -> Result<(), Refusal> {
        if self.may_move(u) {
            return Ok(());
        }
        if (u.0 as usize) >= self.units.len() {
            return Game::refuse("5.11", "no such unit");
        }
        if self.step != Step::Movement {
            return Err(self.out_of_phase());
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

    /// Why no unit may move now, outside a movement phase: the scenario takes the phasing
    /// side's movement phase away (14.62), the game is over, or it is a combat phase (4.1),
    /// in which units move only to retreat or advance after combat (5.11).
    pub fn out_of_phase(&self) -> Refusal {
        let side = self
            .sc
            .sides
            .get(self.player as usize)
            .map_or("?", |s| s.as_str());
        if let Some(o) = &self.outcome {
            return Refusal::new(o.case, format!("the game is over: {}", o.why));
        }
        if self.no_movement_phase_this_turn() {
            return Refusal::new(
                "14.62",
                format!(
                    "the {side} have no movement phase in game-turn {}: their player-turn opens \
                     with the combat phase (4.1), in which no unit moves except to retreat or \
                     advance after combat",
                    self.turn
                ),
            );
        }
        Refusal::new(
            "5.11",
            format!(
                "it is the {side} combat phase of game-turn {} (4.1): units move only in their \
                 own movement phase, or to retreat or advance after combat",
                self.turn
            ),
        )
    }

    /// Every legal destination of a unit in this movement phase, with its cheapest cost.
    /// Empty when the unit may not move.
    pub fn destinations(&self, u: UnitId, out: &mut Vec<Destination>) {
        out.clear();
        if !self.may_move(u) {
            return;
        }
        let Some(o) = self.origin(u, false) else {
            return;
        };
        let waiting = self.units[u.0 as usize].loc == Loc::Waiting;
        let occ = self.occ.cells();
        let hexes = &self.sc.steps.hex[..];
        SCRATCH.with(|cell| {
            let sc = &mut *cell.borrow_mut();
            sc.reset(self.occ.len());
            let Some(start) = self.occ.index(o.hex) else {
                return;
            };
            self.run_search(o, sc, None, |i, c| {
                // 5.32 (ruling: every move ends in a vacant hex); staying put is no move,
                // except that a reinforcement may stop on its entry hex.
                if occ[i] == 0 && (i != start || waiting) {
                    out.push(Destination {
                        hex: hexes[i],
                        cost_half: c,
                    });
                }
            });
            // every reachable hex is settled: keep the costs for check_move
            sc.settled = Some((self.stamp, u.0));
        });
    }

    /// The cheapest path of a legal move (hexes from the start or entry hex to `to`) and its
    /// cost in half movement points.
    pub fn path(&self, u: UnitId, to: Hex) -> Option<(Vec<Hex>, u16)> {
        self.check_move(u, to, true).ok()
    }

    /// Checks a move, returning its cost and, when `want_path`, its cheapest path (empty
    /// otherwise).
    /// Why a unit cannot move at all this phase, whatever the destination: it may not move
    /// now (5.11, 5.17, 14.62, ...), it stands in an enemy zone of control (5.13, 10.2), or
    /// it waits to enter and an enemy holds its entry hex (5.12). `None` when it may move
    /// (though perhaps nowhere: then no destination is open).
    pub fn why_immobile(&self, u: UnitId) -> Option<Refusal> {
        let check = || -> Result<(), Refusal> {
            self.check_can_move(u)?;
            let id = self.id(u);
            let Some(o) = self.origin(u, false) else {
                return Game::refuse("5.11", format!("{id} cannot move now"));
            };
            if o.stuck {
                let case = if self.is_night() { "10.2" } else { "5.13" };
                return Game::refuse(case, format!("{id} is in an enemy zone of control and may not leave it in the movement phase"));
            }
            if self.units[u.0 as usize].loc == Loc::Waiting {
                if let Some(x) = self
                    .unit_at(o.hex)
                    .filter(|&x| self.side_of(x) != self.side_of(u))
                {
                    return Game::refuse(
                        "5.12",
                        format!("{} holds the enemy unit {}", o.hex, self.id(x)),
                    );
                }
            }
            Ok(())
        };
        check().err()
    }

    /// Why a unit has no legal destination now, when [`Game::destinations`] finds none: what
    /// keeps it from moving at all ([`Game::why_immobile`]); or it stands in an enemy zone of
    /// control at night, which it may leave (16.1) but only for a hex no enemy controls (10.2),
    /// and there is none within reach; or no hex within its allowance is open (5.0).
    pub fn why_no_destination(&self, u: UnitId) -> Refusal {
        if let Some(r) = self.why_immobile(u) {
            return r;
        }
        let id = self.id(u);
        if self.is_night() && self.in_enemy_zoc(u) {
            let case = if self.sc.hooks.night_withdrawal {
                "16.1"
            } else {
                "10.2"
            };
            return Refusal::new(
                case,
                format!(
                    "{id} stands in an enemy zone of control: at night it may withdraw from it, \
                     but only into a hex no enemy controls (10.2), and none is within reach"
                ),
            );
        }
        Refusal::new(
            "5.0",
            format!(
                "{id} has no legal destination: every hex within its movement allowance is held, \
                 or shut off by enemy units (5.12), zones of control (6.0) or terrain (5.24, 9.0)"
            ),
        )
    }

    pub(crate) fn check_move(
        &self,
        u: UnitId,
        to: Hex,
        want_path: bool,
    ) -> Result<(Vec<Hex>, u16), Refusal> {
        self.check_can_move(u)?;
        let id = self.id(u);
        let map = &self.sc.map;
        let Some(ti) = self.occ.index(to) else {
            return Game::refuse(
                "15.4",
                format!("{to} is not on the map; units never leave it voluntarily"),
            );
        };
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
        // The unit's destinations were just searched in this very state (a player picking
        // among them): the settled costs answer without a second search.
        let known = SCRATCH.with(|cell| {
            let sc = cell.borrow();
            if sc.settled != Some((self.stamp, u.0)) {
                return None;
            }
            Some(match sc.cost[ti] {
                UNREACHED => None,
                c if want_path => Some((sc.path_to(&self.sc.steps, ti as u16), c)),
                c => Some((Vec::new(), c)),
            })
        });
        let found = match known {
            Some(found) => found,
            None => self.search_to(o, to, want_path),
        };
        if let Some(found) = found {
            return Ok(found);
        }
        // Explain why: too far, or no route at all.
        let unlimited = self.origin(u, true).expect("origin exists");
        if let Some((_, c)) = self.search_to(unlimited, to, false) {
            return Game::refuse(
                "5.15",
                format!(
                    "{to} costs {} movement points to reach; {id} has a movement allowance of {}",
                    fmt_half(c),
                    self.sc.units[u.0 as usize].movement
                ),
            );
        }
        if self.sc.chart.road_only(map.terrain(to)) {
            let name = &map.terrain_kind(to).id;
            return Game::refuse("9.0", format!("{to} is {name}, entered only along a road"));
        }
        // With units and zones of control set aside, does terrain alone shut it off?
        let bare = Origin {
            terrain_only: true,
            stuck: false,
            ..unlimited
        };
        if self.search_to(bare, to, false).is_none() {
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
        self.sync_unit(u);
        if waiting {
            self.event(Event::Entered { unit: u, hex: to }); // 15.1
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

/// Half movement points (M1: costs are kept in halves, 5.22) as text: `3`, `2½`, `½`. The
/// one formatting of movement points for refusals, the command line and the views.
pub fn fmt_half(c: u16) -> String {
    match (c / 2, c % 2) {
        (0, 1) => "½".to_string(),
        (w, 0) => w.to_string(),
        (w, _) => format!("{w}½"),
    }
}

impl Game {
    /// The terrain cost in half movement points of stepping from `from` through the hexside in
    /// direction `d` into the neighbour (5.2, 5.21-5.26, 9.0), or the case that prohibits it
    /// (5.24, 9.0, 15.4): [`step_cost`] on this game's map and Terrain Effects Chart. Units and
    /// zones of control are not considered. A query for the computer players, which keep the
    /// costs in their own tables.
    pub fn terrain_step_cost(&self, from: Hex, d: Dir) -> Result<u16, &'static str> {
        step_cost(&self.sc.map, &self.sc.chart, from, d)
    }
}

impl Game {
    /// The game-turn of `side`'s next movement phase (4.1: the first side moves first in
    /// each game-turn): this one when `side` is moving now or moves later this game-turn,
    /// else the next. `None` when the game ends first, or when 14.62 takes that phase away.
    /// For the study tools (a player weighing the enemy's reach).
    pub fn next_movement_turn(&self, side: Side) -> Option<u8> {
        let later_this_turn =
            side.0 > self.phasing().0 || (side == self.phasing() && self.step == Step::Movement);
        let turn = if later_this_turn {
            self.turn
        } else {
            self.turn.checked_add(1)?
        };
        let no_phase =
            turn == self.sc.first_turn && self.sc.hooks.no_movement_first_turn == Some(side);
        (turn <= self.sc.last_turn && self.outcome().is_none() && !no_phase).then_some(turn)
    }

    /// Where a unit could move in a movement phase of game-turn `turn` if the board stood as
    /// it stands now: its movement allowance (5.15), terrain (5.2, 9.0), enemy units (5.12)
    /// and the zones of control the units exert now (6.0; 5.13 holds a unit that starts in
    /// one, 10.2 and 16.1 at night), ending in a vacant hex (5.32); a reinforcement due by
    /// then from its entry hex (15.3). Unlike [`Game::destinations`] it asks neither whose
    /// phase it is nor whether the unit has moved: a what-if for the study tools, by the
    /// same search. Empty for a unit that could not move.
    pub fn reach(&self, u: UnitId, turn: u8) -> Vec<Destination> {
        let Some(s) = self.units.get(u.0 as usize) else {
            return Vec::new();
        };
        let d = &self.sc.units[u.0 as usize];
        let night = self.sc.is_night(turn);
        let (hex, start_cost, stuck) = match s.loc {
            Loc::Map(h) => {
                let in_zoc = self.controlled_by(d.side.other(), h);
                (h, 0, in_zoc && !(night && self.sc.hooks.night_withdrawal))
            }
            // 15.3: one movement point to be placed on the entry hex; 5.12: not onto an enemy
            Loc::Waiting if s.due <= turn => {
                if self
                    .unit_at(s.entry)
                    .is_some_and(|x| self.side_of(x) != d.side)
                {
                    return Vec::new();
                }
                (s.entry, 2, false)
            }
            _ => return Vec::new(),
        };
        let waiting = s.loc == Loc::Waiting;
        let o = Origin {
            hex,
            start_cost,
            budget: d.movement as u16 * 2,
            side: d.side,
            stuck,
            night,
            terrain_only: false,
        };
        let occ = self.occ.cells();
        let hexes = &self.sc.steps.hex[..];
        let mut out = Vec::new();
        SCRATCH.with(|cell| {
            let sc = &mut *cell.borrow_mut();
            sc.reset(self.occ.len());
            let Some(start) = self.occ.index(o.hex) else {
                return;
            };
            self.run_search(o, sc, None, |i, c| {
                if occ[i] == 0 && (i != start || waiting) {
                    out.push(Destination {
                        hex: hexes[i],
                        cost_half: c,
                    });
                }
            });
        });
        out
    }
}
