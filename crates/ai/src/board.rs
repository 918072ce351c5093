//! A light planning board: who stands where and the zone-of-control counts of each side, as
//! dense arrays a player can change hypothetically (place, lift) at the cost of a few array
//! writes, and the players' own movement-reach search over it.
//!
//! The board mirrors a `naw::Game` position; the rules themselves are always checked by the
//! game before an action is taken.

use crate::info::{Info, BLOCKED, NONE};
use engine::Side;
use naw::{Game, UnitId};

/// Units and zones of control by hex index.
#[derive(Clone, Debug)]
pub(crate) struct Board {
    /// 0 for a vacant hex, else unit index + 1.
    pub occ: Vec<u8>,
    /// How many units of each side exert a zone of control into each hex (6.0, 6.6).
    pub zoc: [Vec<u8>; 2],
    /// Each unit's hex index, or [`NONE`] when it is not on the map.
    pub pos: Vec<u16>,
}

impl Board {
    /// The board of a game position.
    pub fn from_game(info: &Info, g: &Game) -> Board {
        let nu = info.strength.len();
        let mut b = Board {
            occ: vec![0; info.n],
            zoc: [vec![0; info.n], vec![0; info.n]],
            pos: vec![NONE; nu],
        };
        for i in 0..nu {
            let u = UnitId(i as u8);
            if let Some(h) = g.hex_of(u) {
                if let Some(x) = info.idx(h) {
                    b.place(info, u, x);
                }
            }
        }
        b
    }

    /// The unit in a hex.
    #[inline]
    pub fn unit_at(&self, i: usize) -> Option<UnitId> {
        match self.occ[i] {
            0 => None,
            v => Some(UnitId(v - 1)),
        }
    }

    /// True when `side` controls the hex.
    #[inline]
    pub fn controlled(&self, side: Side, i: usize) -> bool {
        self.zoc[side.0 as usize][i] > 0
    }

    /// Puts a unit in a hex (lifting it from where it stood).
    pub fn place(&mut self, info: &Info, u: UnitId, i: usize) {
        self.lift(info, u);
        self.pos[u.0 as usize] = i as u16;
        self.occ[i] = u.0 + 1;
        self.exert(info, u, i, true);
    }

    /// Takes a unit off the board.
    pub fn lift(&mut self, info: &Info, u: UnitId) {
        let p = self.pos[u.0 as usize];
        if p == NONE {
            return;
        }
        let p = p as usize;
        if self.occ[p] == u.0 + 1 {
            self.occ[p] = 0;
        }
        self.exert(info, u, p, false);
        self.pos[u.0 as usize] = NONE;
    }

    fn exert(&mut self, info: &Info, u: UnitId, i: usize, on: bool) {
        let s = info.side[u.0 as usize].0 as usize;
        for k in 0..6 {
            let j = info.nb[i][k];
            if j != NONE && info.engage[i][k] {
                let c = &mut self.zoc[s][j as usize];
                *c = if on { *c + 1 } else { c.saturating_sub(1) };
            }
        }
    }

    /// The hex index of a unit on the board.
    #[inline]
    pub fn at(&self, u: UnitId) -> Option<usize> {
        match self.pos[u.0 as usize] {
            NONE => None,
            p => Some(p as usize),
        }
    }
}

/// Where a movement search starts and what it may spend.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mover {
    pub side: Side,
    pub start: usize,
    /// Half points already spent (one point to enter from off the map, 15.3).
    pub start_cost: u16,
    pub budget: u16,
    /// Starts in an enemy zone of control and may not leave it (5.13, 10.2).
    pub stuck: bool,
    /// Night: no entering enemy zones of control (10.2, 16.1).
    pub night: bool,
    /// A reinforcement may stop on its entry hex.
    pub waiting: bool,
}

/// Reusable scratch space for the movement search.
#[derive(Clone, Debug, Default)]
pub(crate) struct Reach {
    cost: Vec<u16>,
    touched: Vec<u32>,
    buckets: Vec<Vec<u32>>,
}

const UNREACHED: u16 = u16::MAX;

impl Reach {
    /// Every hex where the mover may end its move (vacant; its start only for a
    /// reinforcement), with the cheapest cost, in order of cost. Mirrors the rules' search
    /// (5.1-5.3, 6.0, 10.2, 15.3, 16.1) on the board.
    pub fn run(&mut self, info: &Info, b: &Board, m: Mover, out: &mut Vec<(u16, u16)>) {
        out.clear();
        if m.start_cost > m.budget {
            return;
        }
        if self.cost.len() != info.n {
            self.cost = vec![UNREACHED; info.n];
        }
        self.touched.clear();
        for q in &mut self.buckets {
            q.clear();
        }
        let enemy = Side(1 - m.side.0);
        let push = |buckets: &mut Vec<Vec<u32>>, c: u16, i: u32| {
            let c = c as usize;
            if buckets.len() <= c {
                buckets.resize_with(c + 1, Vec::new);
            }
            buckets[c].push(i);
        };
        self.cost[m.start] = m.start_cost;
        self.touched.push(m.start as u32);
        push(&mut self.buckets, m.start_cost, m.start as u32);
        let mut c = m.start_cost as usize;
        while c < self.buckets.len() {
            let Some(i) = self.buckets[c].pop() else {
                c += 1;
                continue;
            };
            let i = i as usize;
            if self.cost[i] != c as u16 {
                continue;
            }
            if b.occ[i] == 0 && (i != m.start || m.waiting) {
                out.push((i as u16, c as u16));
            }
            let here_zoc = b.controlled(enemy, i);
            if (i == m.start && m.stuck) || (i != m.start && here_zoc) {
                continue;
            }
            for k in 0..6 {
                let st = info.step[i][k];
                if st == BLOCKED {
                    continue;
                }
                let j = info.nb[i][k] as usize;
                if let Some(x) = b.unit_at(j) {
                    if info.side[x.0 as usize] == enemy {
                        continue;
                    }
                }
                if m.night && b.controlled(enemy, j) {
                    continue;
                }
                let nc = c as u16 + st as u16;
                if nc > m.budget {
                    continue;
                }
                if self.cost[j] == UNREACHED {
                    self.touched.push(j as u32);
                }
                if nc < self.cost[j] {
                    self.cost[j] = nc;
                    push(&mut self.buckets, nc, j as u32);
                }
            }
        }
        for &t in &self.touched {
            self.cost[t as usize] = UNREACHED;
        }
    }
}
