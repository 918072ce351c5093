//! The portable seeded die.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

/// The faces of a six-sided die.
pub const DIE_FACES: [u8; 6] = [1, 2, 3, 4, 5, 6];

/// A seeded six-sided die. The stream is ChaCha8 seeded from a `u64` by rand_core's documented,
/// portable `seed_from_u64` expansion; a face is drawn from one 32-bit output by rejection
/// (outputs at or above the largest multiple of six are drawn again), so every machine and
/// every build rolls the same sequence for the same seed (pinned by a golden-vector test).
#[derive(Clone, Debug)]
pub struct Dice {
    rng: ChaCha8Rng,
    rolled: u64,
}

impl Dice {
    /// The dice of a game with this seed.
    pub fn new(seed: u64) -> Dice {
        Dice {
            rng: ChaCha8Rng::seed_from_u64(seed),
            rolled: 0,
        }
    }

    /// Rolls one die: 1..=6.
    pub fn roll(&mut self) -> u8 {
        const LIMIT: u32 = u32::MAX - (u32::MAX % 6) - 1; // 4294967291: accept 0..=LIMIT
        loop {
            let x = self.rng.next_u32();
            if x <= LIMIT {
                self.rolled += 1;
                return (x % 6) as u8 + 1;
            }
        }
    }

    /// How many dice have been rolled.
    pub fn rolled(&self) -> u64 {
        self.rolled
    }

    /// A raw 64-bit draw, for computer players that need their own seeded randomness.
    pub fn next_u64(&mut self) -> u64 {
        self.rng.next_u64()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn golden_vector() {
        // Pinned: if this changes, every saved game's dice change. Never update it casually.
        let mut d = Dice::new(42);
        let got: Vec<u8> = (0..20).map(|_| d.roll()).collect();
        assert_eq!(got, GOLDEN_42.to_vec());
        let mut d = Dice::new(0);
        let got: Vec<u8> = (0..10).map(|_| d.roll()).collect();
        assert_eq!(got, GOLDEN_0.to_vec());
    }

    const GOLDEN_42: [u8; 20] = [4, 4, 5, 1, 3, 3, 5, 4, 1, 3, 3, 4, 3, 4, 5, 6, 1, 5, 5, 4];
    const GOLDEN_0: [u8; 10] = [3, 2, 2, 6, 5, 1, 1, 1, 4, 6];

    #[test]
    fn faces_are_roughly_uniform() {
        let mut d = Dice::new(7);
        let mut n = [0u32; 7];
        for _ in 0..60_000 {
            n[d.roll() as usize] += 1;
        }
        for (f, &count) in n.iter().enumerate().skip(1) {
            assert!((9_400..10_600).contains(&count), "face {f}: {count}");
        }
        assert_eq!(n[0], 0);
    }
}
