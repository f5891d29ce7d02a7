//! A small deterministic random generator (xorshift64*), for the tools that need reproducible
//! randomness (self-play openings, tactics generation) and for the tests, without another crate;
//! and SplitMix64 ([`mix`], [`splitmix`]), for hashing small keys and for the games' Zobrist
//! keys. Not for anything that needs unpredictable numbers.

/// A seeded xorshift64* generator: the same seed gives the same sequence on every machine.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed (any value, zero included).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n` (which must be above 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True once in `one_in` times on average.
    pub fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }
}

/// SplitMix64's finaliser: a bijection of `u64` that mixes every bit (for hashing small keys).
pub const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The next value of the SplitMix64 stream whose state is `state` (advanced by the golden
/// ratio, then mixed). A `const fn`, so that tables of keys (the games' Zobrist keys) are made
/// at compile time, the same on every machine.
pub const fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    mix(*state)
}

#[cfg(test)]
mod tests {
    use super::{splitmix, Rng};

    #[test]
    fn same_seed_same_sequence_and_below_stays_below() {
        let (mut a, mut b) = (Rng::new(7), Rng::new(7));
        let mut c = Rng::new(8);
        let xs: Vec<u64> = (0..100).map(|_| a.next_u64()).collect();
        assert!(xs.iter().all(|&x| x == b.next_u64()));
        assert_ne!(xs[0], c.next_u64());
        let mut seen = [false; 7];
        for _ in 0..1000 {
            seen[a.below(7)] = true;
        }
        assert!(seen.iter().all(|&s| s), "every value below 7 comes up");
    }

    /// The stream is SplitMix64's: its published first outputs from seed 0.
    #[test]
    fn splitmix_is_splitmix64() {
        let mut state = 0;
        assert_eq!(splitmix(&mut state), 0xE220_A839_7B1D_CDAF);
        assert_eq!(splitmix(&mut state), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(state, 2u64.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    }
}
