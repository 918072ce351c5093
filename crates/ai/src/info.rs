//! What the computer players precompute once per scenario: the map as dense per-hex arrays
//! (neighbours, step costs, which hexsides carry zones of control, attacks and retreats), the
//! units' printed values, and distance fields (to the line-of-communications hex).
//!
//! Everything here is derived from the public scenario data; the rules stay in `naw`.

use engine::Side;
use hexmap::{Dir, Hex};
use naw::{Game, Scenario, UnitId};
use std::sync::{Arc, Mutex, OnceLock};

/// No neighbour (off the map).
pub(crate) const NONE: u16 = u16::MAX;
/// A step that cannot be taken.
pub(crate) const BLOCKED: u8 = u8::MAX;

/// Per-scenario static data for the players.
#[derive(Debug)]
pub(crate) struct Info {
    /// The scenario digest this was built for.
    pub digest: u64,
    /// Map height (hexes per row), for index arithmetic.
    pub height: i16,
    /// Number of hexes.
    pub n: usize,
    /// The hex of each dense index.
    pub hexes: Vec<Hex>,
    /// Neighbour index in each direction, or [`NONE`].
    pub nb: Vec<[u16; 6]>,
    /// Cost in half movement points of stepping into the neighbour (5.2, 9.0), or [`BLOCKED`].
    pub step: Vec<[u8; 6]>,
    /// The cheapest step anywhere on the map, in half movement points (at least 1): a mover
    /// with `p` half points left goes at most `p / min_step` hexes farther.
    pub min_step: u16,
    /// A zone of control reaches the neighbour through this hexside and units may attack across
    /// it (6.6, 9.0: not through an unbridged river).
    pub engage: Vec<[bool; 6]>,
    /// A retreat may cross into the neighbour (7.72: no unbridged river, marsh only by road).
    pub retreat: Vec<[bool; 6]>,
    /// The hexside is a stream or bridge (9.0: a defender attacked only across them doubles).
    pub stream: Vec<[bool; 6]>,
    /// The hexside is a slope hexside and this hex a slope hex (attacking from here up-slope).
    pub upslope: Vec<[bool; 6]>,
    /// The terrain doubles a defender (rough, marsh, town).
    pub doubles: Vec<bool>,
    /// Printed strength per unit.
    pub strength: Vec<u32>,
    /// Movement allowance per unit, in half points.
    pub movement: Vec<u16>,
    /// Side per unit.
    pub side: Vec<Side>,
    /// The line of communications: side, army, hex index (17.5).
    pub loc: Option<(Side, u8, usize)>,
    /// Hex distance (steps a line of communications may take) to the line-of-communications
    /// hex, ignoring units; `u16::MAX` where none leads.
    pub loc_dist: Vec<u16>,
    /// The hexes reachable from the line's end hex without crossing a river (bridged or not) or
    /// entering marsh: the ground behind the line's end, the side with the line must hold.
    pub loc_zone: Vec<bool>,
    /// Steps (over passable hexsides) to the nearest hex of `loc_zone`.
    pub loc_zone_dist: Vec<u16>,
    /// Draws are broken by the strength eliminated (the First Day arena rule).
    pub tiebreak: bool,
}

impl Info {
    /// The dense index of an on-map hex.
    #[inline]
    pub fn idx(&self, h: Hex) -> Option<usize> {
        let w = self.n as i16 / self.height;
        if h.x >= 1 && h.x <= w && h.y >= 1 && h.y <= self.height {
            Some((h.x as usize - 1) * self.height as usize + (h.y as usize - 1))
        } else {
            None
        }
    }

    /// The hex at a dense index.
    #[inline]
    pub fn hex(&self, i: usize) -> Hex {
        self.hexes[i]
    }

    /// Printed strength of a unit.
    #[inline]
    pub fn str(&self, u: UnitId) -> u32 {
        self.strength[u.0 as usize]
    }

    /// The demoralization level of `side`'s army on `turn` (one army per side in the shipped
    /// scenarios; with several, the lowest).
    pub fn level(&self, sc: &Scenario, side: Side, turn: u8) -> Option<u32> {
        sc.armies
            .iter()
            .enumerate()
            .filter(|(_, (_, s))| *s == side)
            .filter_map(|(a, _)| sc.demoralization_level(a as u8, turn))
            .min()
    }

    /// Build the data for a game's scenario.
    fn build(g: &Game) -> Info {
        let sc = g.scenario();
        let map = &sc.map;
        let ch = &sc.chart;
        let grid = map.grid(0u8);
        let n = grid.len();
        let height = map.height();
        let mut nb = vec![[NONE; 6]; n];
        let mut step = vec![[BLOCKED; 6]; n];
        let mut engage = vec![[false; 6]; n];
        let mut retreat = vec![[false; 6]; n];
        let mut stream = vec![[false; 6]; n];
        let mut upslope = vec![[false; 6]; n];
        let mut doubles = vec![false; n];
        for i in 0..n {
            let h = grid.hex_at(i);
            let t = map.terrain(h);
            doubles[i] = ch.doubles_defender(t);
            for d in Dir::ALL {
                let k = d.index();
                let to = h.neighbour(d);
                let Some(j) = grid.index(to) else { continue };
                nb[i][k] = j as u16;
                let s = map.hexside(h, d);
                engage[i][k] = !ch.unbridged_river(s);
                retreat[i][k] = ch.passable(s, map.terrain(to));
                stream[i][k] = s.any(ch.stream.with(ch.bridge));
                upslope[i][k] = s.any(ch.slope) && map.is_slope_hex(h);
                // the rules' own terrain cost (5.2, 9.0)
                step[i][k] = g
                    .terrain_step_cost(h, d)
                    .map_or(BLOCKED, |c| c.min(200) as u8);
            }
        }
        let units = &sc.units;
        let strength = units.iter().map(|d| d.strength as u32).collect();
        let movement = units.iter().map(|d| d.movement as u16 * 2).collect();
        let side: Vec<Side> = units.iter().map(|d| d.side).collect();
        let loc = sc
            .loc
            .as_ref()
            .and_then(|l| grid.index(l.hex).map(|i| (l.side, l.army, i)));
        let mut loc_dist = vec![u16::MAX; n];
        if let Some((_, _, t)) = loc {
            // backwards breadth-first search over the steps a line may take (17.5)
            let mut q = std::collections::VecDeque::new();
            loc_dist[t] = 0;
            q.push_back(t);
            while let Some(i) = q.pop_front() {
                for k in 0..6 {
                    let j = nb[i][k];
                    if j == NONE {
                        continue;
                    }
                    let j = j as usize;
                    // the step j -> i, in the direction opposite to k
                    let back = (k + 3) % 6;
                    if loc_dist[j] == u16::MAX && retreat[j][back] {
                        loc_dist[j] = loc_dist[i] + 1;
                        q.push_back(j);
                    }
                }
            }
        }
        let mut loc_zone = vec![false; n];
        let mut loc_zone_dist = vec![u16::MAX; n];
        if let Some((_, _, t)) = loc {
            let mut stack = vec![t];
            loc_zone[t] = true;
            while let Some(i) = stack.pop() {
                let h = grid.hex_at(i);
                for d in Dir::ALL {
                    let j = nb[i][d.index()];
                    if j == NONE {
                        continue;
                    }
                    let j = j as usize;
                    if loc_zone[j]
                        || map.hexside(h, d).any(ch.river)
                        || ch.road_only(map.terrain(grid.hex_at(j)))
                    {
                        continue;
                    }
                    loc_zone[j] = true;
                    stack.push(j);
                }
            }
            let mut q: std::collections::VecDeque<usize> =
                (0..n).filter(|&i| loc_zone[i]).collect();
            for &i in &q {
                loc_zone_dist[i] = 0;
            }
            while let Some(i) = q.pop_front() {
                for k in 0..6 {
                    let j = nb[i][k];
                    if j == NONE || step[i][k] == BLOCKED {
                        continue;
                    }
                    let j = j as usize;
                    if loc_zone_dist[j] == u16::MAX {
                        loc_zone_dist[j] = loc_zone_dist[i] + 1;
                        q.push_back(j);
                    }
                }
            }
        }
        let min_step = step
            .iter()
            .flatten()
            .filter(|&&c| c != BLOCKED)
            .min()
            .map_or(1, |&c| c.max(1) as u16);
        Info {
            min_step,
            hexes: (0..n).map(|i| grid.hex_at(i)).collect(),
            digest: sc.digest,
            loc_zone,
            loc_zone_dist,
            height,
            n,
            nb,
            step,
            engage,
            retreat,
            stream,
            upslope,
            doubles,
            strength,
            movement,
            side,
            loc,
            loc_dist,
            tiebreak: TIEBREAK_SCENARIOS.contains(&sc.id.as_str()),
        }
    }
}

/// Scenarios whose drawn games the arena breaks by the strength each side eliminated.
pub const TIEBREAK_SCENARIOS: &[&str] = &["bon-first-day"];

/// The shared data for a game's scenario, built on first use and cached by digest.
pub(crate) fn info(g: &Game) -> Arc<Info> {
    static CACHE: OnceLock<Mutex<Vec<Arc<Info>>>> = OnceLock::new();
    let sc = g.scenario();
    let cache = CACHE.get_or_init(|| Mutex::new(Vec::new()));
    let mut c = cache.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(i) = c.iter().find(|i| i.digest == sc.digest) {
        return i.clone();
    }
    let i = Arc::new(Info::build(g));
    if c.len() > 16 {
        c.remove(0);
    }
    c.push(i.clone());
    i
}
