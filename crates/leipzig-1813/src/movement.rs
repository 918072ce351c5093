//! Movement (Movement, Zones of Control, Stacking and Unit Breakdown, the Terrain Effects
//! Chart): zones of control by side, and the hexes a unit can reach with the movement points it
//! has left, each by its cheapest path.
//!
//! - Terrain: the TEC's cost to enter, a river's 3 MP more, a pass's 1 MP from its entry
//!   ([`crate::board::Board`]); cavalry never enters a mountain, nor supply units and depots.
//! - Stacking (C), Movement (F): a combat unit pays 1 MP more to enter a hex of friendly combat
//!   units and 1 MP more to leave one, never in a fortress (Fortress (C)); non-combat units move
//!   freely (Stacking (A)).
//! - Zones of Control (A), (B): infantry and non-combat units stop on entering any enemy
//!   controlled hex and never step from one straight into another; cavalry stops only in a
//!   totally controlled hex, pays 2 MP more to leave a partially controlled hex entered in the
//!   same phase, and may step from one controlled hex into another.
//! - Zones of control: cavalry total, infantry partial, none across an unbridged river, none
//!   into or out of a fortress (Zones of Control (C), Fortress (D)).
//! - CRT Auto: a hex whose units were eliminated automatically this phase costs 1 MP more.
//! - Movement (G): no unit enters a hex of enemy units; the Saxon garrison may not be passed
//!   through before it is free (Saxon Garrison); a closed Austria may not be entered.

use crate::game::{Game, Unit};
use crate::units::Arm;
use hexmap::Hex;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// No zone of control.
pub const ZOC_NONE: u8 = 0;
/// An infantry unit's partial zone of control.
pub const ZOC_PARTIAL: u8 = 1;
/// A cavalry unit's total zone of control.
pub const ZOC_TOTAL: u8 = 2;

/// Per hex of the map (the board's dense index), what stands there, by side.
#[derive(Clone, Debug)]
pub(crate) struct Occupancy {
    /// Units of any kind, by side.
    pub any: Vec<[u16; 2]>,
    /// Combat units, by side.
    pub combat: Vec<[u16; 2]>,
    /// Hexes no other unit may pass (the Saxon garrison before it is free).
    pub locked: Vec<bool>,
}

/// One reachable hex: its cost and the hex it is entered from on the cheapest path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Step {
    pub hex: Hex,
    pub cost: u16,
    pub prev: Option<Hex>,
}

impl Game {
    /// Who stands where.
    pub(crate) fn occupancy(&self) -> Occupancy {
        let n = self.ctx.board.len();
        let mut o = Occupancy {
            any: vec![[0; 2]; n],
            combat: vec![[0; 2]; n],
            locked: vec![false; n],
        };
        for u in self.units.iter().filter(|u| u.on_map()) {
            if let Some(i) = self.ctx.board.index(u.hex) {
                let s = usize::from(u.side);
                o.any[i][s] += 1;
                if self.arm(u).is_combat() {
                    o.combat[i][s] += 1;
                }
                if self.saxon_locked(u) {
                    o.locked[i] = true;
                }
            }
        }
        o
    }

    /// The zone of control each side exerts in each hex: [`ZOC_NONE`], [`ZOC_PARTIAL`] or
    /// [`ZOC_TOTAL`] (Zones of Control: cavalry total, infantry partial, the greater where both
    /// reach; none across an unbridged river, none into or out of a fortress).
    pub fn zones_of_control(&self) -> Vec<[u8; 2]> {
        let b = &self.ctx.board;
        let mut z = vec![[ZOC_NONE; 2]; b.len()];
        if self.armistice_active() {
            // Armistice: from its announcement no unit exerts a zone of control.
            return z;
        }
        for u in self.units.iter().filter(|u| u.on_map()) {
            let level = match self.arm(u) {
                Arm::Cavalry => ZOC_TOTAL,
                Arm::Infantry => ZOC_PARTIAL,
                _ => continue,
            };
            // Saxon Garrison: neutral until it may move (our ruling L27: no zone of control).
            if self.saxon_locked(u) || b.hex(u.hex).fortress {
                continue;
            }
            for (d, n) in b.neighbours(u.hex) {
                if !b.side(u.hex, d).zoc || b.hex(n).fortress {
                    continue;
                }
                if let Some(i) = b.index(n) {
                    let s = usize::from(u.side);
                    z[i][s] = z[i][s].max(level);
                }
            }
        }
        z
    }

    /// Whether a unit of `side` and `arm` may enter hex `n` at all (terrain, enemies, the
    /// garrison, Austria).
    pub(crate) fn may_enter(&self, side: u8, arm: Arm, n: Hex, occ: &Occupancy) -> bool {
        let b = &self.ctx.board;
        let Some(i) = b.index(n) else { return false };
        let info = b.hex(n);
        if occ.any[i][usize::from(1 - side)] > 0 || occ.locked[i] {
            return false;
        }
        if info.austria && !self.austria_open() {
            return false;
        }
        match arm {
            Arm::Cavalry if !info.cavalry => false,
            Arm::Supply | Arm::Depot if !info.supply => false,
            _ => true,
        }
    }

    /// Every hex unit `u` can reach with its movement points left, each with its cheapest
    /// cost and path (the start included at cost 0).
    pub(crate) fn reach(&self, u: usize, occ: &Occupancy, zoc: &[[u8; 2]]) -> Vec<Step> {
        let b = &self.ctx.board;
        let unit = &self.units[u];
        let arm = self.arm(unit);
        let combat = arm.is_combat();
        let cavalry = arm == Arm::Cavalry;
        let side = usize::from(unit.side);
        let enemy = 1 - side;
        let start = unit.hex;
        let Some(si) = b.index(start) else {
            return Vec::new();
        };
        let budget = u16::from(unit.mp);
        let mut dist = vec![u16::MAX; b.len()];
        let mut prev: Vec<Option<Hex>> = vec![None; b.len()];
        let mut out = Vec::new();
        dist[si] = 0;
        let mut heap = BinaryHeap::new();
        heap.push(Reverse((0u16, si)));
        let start_controlled = zoc[si][enemy] > ZOC_NONE;
        // Armistice: a unit on its own side of the line may not cross it again.
        let home_zone = (self.armistice_active() && self.on_own_side(unit.side, start))
            .then(|| b.hex(start).zone);
        let over_mp = self.ctx.tables.terrain.over_eliminated_mp.min(255) as u16;
        let cav_leave = self
            .ctx
            .tables
            .terrain
            .cavalry_leave_partial_zoc_mp
            .min(255) as u16;
        while let Some(Reverse((c, i))) = heap.pop() {
            if c > dist[i] {
                continue;
            }
            let h = b.hex_at(i);
            out.push(Step {
                hex: h,
                cost: c,
                prev: prev[i],
            });
            // Zones of Control (A), (B): stop on entering a controlled hex.
            if i != si {
                let z = zoc[i][enemy];
                if z == ZOC_TOTAL || (z == ZOC_PARTIAL && !cavalry) {
                    continue;
                }
            }
            let others = if i == si {
                occ.combat[i][side].saturating_sub(u16::from(combat))
            } else {
                occ.combat[i][side]
            };
            let mut leave = 0u16;
            // Stacking (C): leaving friendly combat units costs 1 more (not in a fortress).
            if combat && others > 0 && !b.hex(h).fortress {
                leave += 1;
            }
            // Zones of Control (B): cavalry leaving a partial zone it entered this phase.
            if cavalry && zoc[i][enemy] == ZOC_PARTIAL && (i != si || unit.moved) {
                leave += cav_leave;
            }
            for (d, n) in b.neighbours(h) {
                if !self.may_enter(unit.side, arm, n, occ) {
                    continue;
                }
                let Some(ni) = b.index(n) else { continue };
                if home_zone.is_some_and(|z| b.hex(n).zone != z) {
                    continue;
                }
                // Zones of Control (B): infantry and non-combat units never step from one
                // controlled hex straight into another.
                if i == si && start_controlled && !cavalry && zoc[ni][enemy] > ZOC_NONE {
                    continue;
                }
                let mut cost = u16::from(b.side(h, d).cost) + leave;
                if combat && occ.combat[ni][side] > 0 && !b.hex(n).fortress && ni != si {
                    cost += 1;
                }
                if self.overrun.contains(&n) {
                    cost += over_mp;
                }
                let nc = c + cost;
                if nc <= budget && nc < dist[ni] {
                    dist[ni] = nc;
                    prev[ni] = Some(h);
                    heap.push(Reverse((nc, ni)));
                }
            }
        }
        out
    }

    /// The path from a unit's hex to `to` along `steps` (start excluded, `to` included).
    pub(crate) fn path_to(steps: &[Step], to: Hex) -> Vec<Hex> {
        let mut path = Vec::new();
        let mut at = Some(to);
        while let Some(h) = at {
            let Some(s) = steps.iter().find(|s| s.hex == h) else {
                break;
            };
            if s.prev.is_none() {
                break;
            }
            path.push(h);
            at = s.prev;
        }
        path.reverse();
        path
    }

    /// Whether unit `u` may move at all in this phase (Combat (K): not dispersed; the Saxon
    /// garrison before its turn; a unit stopped in a zone of control).
    pub(crate) fn may_move(&self, u: &Unit) -> bool {
        u.on_map()
            && u.side == self.player
            && !self.is_dispersed(u)
            && !self.saxon_locked(u)
            && !u.stopped
            && u.mp > 0
            // Armistice: units in fortresses stay there while it lasts, but those beyond the
            // garrison limit of a fortress on the enemy side of the line (ruling L41).
            && !(self.armistice_active()
                && self.ctx.board.hex(u.hex).fortress
                && !self.over_garrison(u.side, u.hex))
    }

    /// The divisions of `side`'s combat units in a hex.
    pub(crate) fn divisions_at(&self, side: u8, h: Hex) -> u32 {
        self.units
            .iter()
            .filter(|x| x.on_map() && x.side == side && x.hex == h && self.arm(x).is_combat())
            .map(|x| self.kind(x).worth)
            .sum()
    }

    /// Armistice: a fortress on the enemy side of the line holding more of `side`'s divisions
    /// than the fortress stacking limit (six, Fortress (B)): the surplus must leave (L41).
    pub(crate) fn over_garrison(&self, side: u8, h: Hex) -> bool {
        self.ctx.board.hex(h).fortress
            && !self.on_own_side(side, h)
            && self.divisions_at(side, h) > self.garrison_limit()
    }

    /// Armistice: the divisions a fortress across the line may keep (six, the fortress
    /// stacking limit).
    pub(crate) fn garrison_limit(&self) -> u32 {
        self.ctx
            .scenario
            .rules
            .armistice
            .as_ref()
            .map_or(6, |a| a.fortress_garrison)
    }

    /// Armistice (ruling L41): whether a unit must withdraw to its own side of the line: it
    /// stands on the enemy side, outside a fortress or in one holding more than six divisions.
    pub fn must_withdraw(&self, u: usize) -> bool {
        let x = &self.units[u];
        self.armistice_active()
            && x.on_map()
            && !self.on_own_side(x.side, x.hex)
            && (!self.ctx.board.hex(x.hex).fortress || self.over_garrison(x.side, x.hex))
    }

    /// Armistice: every hex's distance in hexes to the nearest hex of `side`'s own side of the
    /// line (0 on it).
    pub(crate) fn home_distance(&self, side: u8) -> Vec<u16> {
        let b = &self.ctx.board;
        let mut dist = vec![u16::MAX; b.len()];
        let mut queue = std::collections::VecDeque::new();
        for (i, d) in dist.iter_mut().enumerate() {
            if self.on_own_side(side, b.hex_at(i)) {
                *d = 0;
                queue.push_back(i);
            }
        }
        while let Some(i) = queue.pop_front() {
            for (_, n) in b.neighbours(b.hex_at(i)) {
                let Some(ni) = b.index(n) else { continue };
                if dist[ni] == u16::MAX {
                    dist[ni] = dist[i] + 1;
                    queue.push_back(ni);
                }
            }
        }
        dist
    }

    /// Armistice (ruling L41): whether a unit that must withdraw may end a move in `to`: on its
    /// own side, nearer to it than where it stands, or in a fortress on the enemy side left
    /// as a garrison within the six divisions. Any move of another unit is allowed here.
    pub(crate) fn withdraw_ok(&self, u: usize, to: Hex, dist: &[u16]) -> bool {
        if !self.must_withdraw(u) {
            return true;
        }
        let b = &self.ctx.board;
        let x = &self.units[u];
        let (Some(i), Some(t)) = (b.index(x.hex), b.index(to)) else {
            return false;
        };
        let info = b.hex(to);
        let worth = if self.arm(x).is_combat() {
            self.kind(x).worth
        } else {
            0
        };
        dist[t] < dist[i]
            || (info.fortress && self.divisions_at(x.side, to) + worth <= self.garrison_limit())
    }

    /// Whether a hex lies on a side's own side of the armistice line: the French south-west of
    /// it, the Allies north-east of it or in Austria.
    pub fn on_own_side(&self, side: u8, h: Hex) -> bool {
        let z = self.ctx.board.hex(h).zone;
        if side == 0 {
            z == 0
        } else {
            z != 0
        }
    }
}
