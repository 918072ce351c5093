//! Dense per-hex storage.

use crate::Hex;

/// A value for every hex of a `width x height` map (`XX` in `1..=width`, `YY` in
/// `1..=height`), stored in one `Vec` indexed by row. Lookups are a bounds check and an index.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HexGrid<T> {
    width: i16,
    height: i16,
    cells: Vec<T>,
}

impl<T: Clone> HexGrid<T> {
    /// A grid filled with `value`.
    pub fn new(width: i16, height: i16, value: T) -> Self {
        let n = width.max(0) as usize * height.max(0) as usize;
        HexGrid {
            width,
            height,
            cells: vec![value; n],
        }
    }

    /// Sets every cell to `value` without reallocating.
    pub fn fill(&mut self, value: T) {
        for c in &mut self.cells {
            *c = value.clone();
        }
    }
}

impl<T> HexGrid<T> {
    /// Number of rows (`XX`).
    pub fn width(&self) -> i16 {
        self.width
    }

    /// Hexes per row (`YY`).
    pub fn height(&self) -> i16 {
        self.height
    }

    /// The dense index of an on-map hex.
    #[inline]
    pub fn index(&self, h: Hex) -> Option<usize> {
        if h.x >= 1 && h.x <= self.width && h.y >= 1 && h.y <= self.height {
            Some((h.x as usize - 1) * self.height as usize + (h.y as usize - 1))
        } else {
            None
        }
    }

    /// The hex at a dense index.
    pub fn hex_at(&self, i: usize) -> Hex {
        let hgt = self.height as usize;
        Hex::new((i / hgt) as i16 + 1, (i % hgt) as i16 + 1)
    }

    /// True when the hex is on the grid.
    #[inline]
    pub fn contains(&self, h: Hex) -> bool {
        self.index(h).is_some()
    }

    /// The value at `h`, if on the grid.
    #[inline]
    pub fn get(&self, h: Hex) -> Option<&T> {
        self.index(h).map(|i| &self.cells[i])
    }

    /// The value at `h` for change, if on the grid.
    #[inline]
    pub fn get_mut(&mut self, h: Hex) -> Option<&mut T> {
        self.index(h).map(move |i| &mut self.cells[i])
    }

    /// The cells in index order.
    pub fn cells(&self) -> &[T] {
        &self.cells
    }

    /// Every on-grid hex with its value, in index order.
    pub fn iter(&self) -> impl Iterator<Item = (Hex, &T)> {
        self.cells
            .iter()
            .enumerate()
            .map(move |(i, v)| (self.hex_at(i), v))
    }

    /// Every hex of the grid, in index order.
    pub fn hexes(&self) -> impl Iterator<Item = Hex> + '_ {
        (0..self.cells.len()).map(move |i| self.hex_at(i))
    }

    /// The number of hexes.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// True for a grid with no hexes.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }
}

impl<T> std::ops::Index<Hex> for HexGrid<T> {
    type Output = T;
    fn index(&self, h: Hex) -> &T {
        let i = HexGrid::index(self, h).unwrap_or_else(|| panic!("hex {h} is off the grid"));
        &self.cells[i]
    }
}

impl<T> std::ops::IndexMut<Hex> for HexGrid<T> {
    fn index_mut(&mut self, h: Hex) -> &mut T {
        let i = HexGrid::index(self, h).unwrap_or_else(|| panic!("hex {h} is off the grid"));
        &mut self.cells[i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_round_trip() {
        let g = HexGrid::new(29, 31, 0u8);
        assert_eq!(g.len(), 899);
        for (i, h) in g.hexes().enumerate() {
            assert_eq!(g.index(h), Some(i));
        }
        assert!(!g.contains(Hex::new(0, 5)));
        assert!(!g.contains(Hex::new(30, 5)));
        assert!(!g.contains(Hex::new(3, 32)));
    }
}
