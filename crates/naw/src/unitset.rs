//! A fixed-size set of units: a 256-bit set, `Copy`, so actions that name several units stay
//! small values.

use crate::UnitId;

/// A set of up to 256 units.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct UnitSet([u64; 4]);

impl UnitSet {
    /// The empty set.
    pub const EMPTY: UnitSet = UnitSet([0; 4]);

    /// Adds a unit.
    #[inline]
    pub fn insert(&mut self, u: UnitId) {
        self.0[u.0 as usize >> 6] |= 1 << (u.0 & 63);
    }

    /// Removes a unit.
    #[inline]
    pub fn remove(&mut self, u: UnitId) {
        self.0[u.0 as usize >> 6] &= !(1 << (u.0 & 63));
    }

    /// True when the unit is in the set.
    #[inline]
    pub fn contains(&self, u: UnitId) -> bool {
        self.0[u.0 as usize >> 6] & (1 << (u.0 & 63)) != 0
    }

    /// True for the empty set.
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }

    /// The number of units.
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The units in index order.
    pub fn iter(&self) -> impl Iterator<Item = UnitId> + '_ {
        (0..4).flat_map(move |w| {
            let mut bits = self.0[w];
            std::iter::from_fn(move || {
                if bits == 0 {
                    None
                } else {
                    let b = bits.trailing_zeros();
                    bits &= bits - 1;
                    Some(UnitId((w as u32 * 64 + b) as u8))
                }
            })
        })
    }

    /// The union of two sets.
    pub fn union(self, o: UnitSet) -> UnitSet {
        UnitSet([
            self.0[0] | o.0[0],
            self.0[1] | o.0[1],
            self.0[2] | o.0[2],
            self.0[3] | o.0[3],
        ])
    }

    /// The set of the given units.
    pub fn of(units: impl IntoIterator<Item = UnitId>) -> UnitSet {
        let mut s = UnitSet::EMPTY;
        for u in units {
            s.insert(u);
        }
        s
    }

    /// The lowest unit of the set.
    pub fn first(&self) -> Option<UnitId> {
        self.iter().next()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let mut s = UnitSet::EMPTY;
        for i in [0u8, 63, 64, 200, 255] {
            s.insert(UnitId(i));
        }
        assert_eq!(s.len(), 5);
        assert_eq!(
            s.iter().map(|u| u.0).collect::<Vec<_>>(),
            vec![0, 63, 64, 200, 255]
        );
        s.remove(UnitId(64));
        assert!(!s.contains(UnitId(64)));
        assert!(s.contains(UnitId(255)));
        assert_eq!(s.first(), Some(UnitId(0)));
    }
}
