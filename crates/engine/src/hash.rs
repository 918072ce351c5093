//! A portable [`Hasher`] for state hashes: a rules system may derive `Hash` for its state and
//! feed it here, and get the same 64-bit hash on every machine (records carry these hashes and
//! are checked on replay, so they must not depend on the platform's word size or byte order).

use std::hash::Hasher;

/// A [`Hasher`] over xxh3 that writes every integer little-endian and every `usize`/`isize`
/// as 64 bits, so that `#[derive(Hash)]` state hashes alike on 32- and 64-bit, little- and
/// big-endian machines.
///
/// ```
/// use std::hash::{Hash, Hasher};
/// let mut h = engine::PortableHasher::new();
/// (3u8, 500u16, vec![1usize, 2]).hash(&mut h);
/// let again = { let mut h = engine::PortableHasher::new(); (3u8, 500u16, vec![1usize, 2]).hash(&mut h); h.finish() };
/// assert_eq!(h.finish(), again);
/// ```
#[derive(Clone, Default)]
pub struct PortableHasher(xxhash_rust::xxh3::Xxh3);

impl PortableHasher {
    /// A hasher with nothing written yet.
    pub fn new() -> PortableHasher {
        PortableHasher(xxhash_rust::xxh3::Xxh3::new())
    }
}

impl Hasher for PortableHasher {
    fn finish(&self) -> u64 {
        self.0.digest()
    }
    fn write(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }
    fn write_u8(&mut self, i: u8) {
        self.0.update(&[i]);
    }
    fn write_u16(&mut self, i: u16) {
        self.0.update(&i.to_le_bytes());
    }
    fn write_u32(&mut self, i: u32) {
        self.0.update(&i.to_le_bytes());
    }
    fn write_u64(&mut self, i: u64) {
        self.0.update(&i.to_le_bytes());
    }
    fn write_usize(&mut self, i: usize) {
        self.0.update(&(i as u64).to_le_bytes());
    }
    fn write_i8(&mut self, i: i8) {
        self.0.update(&[i as u8]);
    }
    fn write_i16(&mut self, i: i16) {
        self.0.update(&i.to_le_bytes());
    }
    fn write_i32(&mut self, i: i32) {
        self.0.update(&i.to_le_bytes());
    }
    fn write_i64(&mut self, i: i64) {
        self.0.update(&i.to_le_bytes());
    }
    fn write_isize(&mut self, i: isize) {
        self.0.update(&(i as i64).to_le_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::Hash;

    /// Pinned: a change of this value changes every recorded state hash of the systems that use
    /// the hasher (records would no longer verify).
    #[test]
    fn the_hash_of_a_known_value_is_pinned() {
        let mut h = PortableHasher::new();
        (7u8, 300u16, -2i32, 9usize, "Leipzig").hash(&mut h);
        assert_eq!(h.finish(), PINNED);
    }

    /// A `usize` hashes as its value in 64 bits, whatever the platform's word.
    #[test]
    fn a_usize_hashes_as_a_u64() {
        let (mut a, mut b) = (PortableHasher::new(), PortableHasher::new());
        a.write_usize(12345);
        b.write_u64(12345);
        assert_eq!(a.finish(), b.finish());
    }

    const PINNED: u64 = 8_949_297_147_413_413_532;
}
