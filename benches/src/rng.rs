//! A tiny seeded PRNG (SplitMix64) for deterministic generation.
//!
//! The generators use only this: no clock, no floats, no hash-map order. The same seed gives
//! the same bytes on every platform.

/// SplitMix64 (Steele, Lea and Flood 2014), as in Vigna's reference implementation.
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform integer in `0..n` (rejection sampling, no modulo bias). `n` must be > 0.
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "below(0)");
        let zone = u64::MAX - (u64::MAX % n);
        loop {
            let x = self.next_u64();
            if x < zone {
                return x % n;
            }
        }
    }

    /// A uniform integer in `low..=high`.
    pub fn range(&mut self, low: u64, high: u64) -> u64 {
        low + self.below(high - low + 1)
    }

    /// A uniform index into a slice of length `len` (> 0).
    pub fn index(&mut self, len: usize) -> usize {
        self.below(len as u64) as usize
    }

    /// A uniform element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.index(items.len())]
    }

    /// Shuffle in place (Fisher-Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.index(i + 1);
            items.swap(i, j);
        }
    }

    /// `count` distinct elements drawn uniformly from `items` that `keep` accepts, in draw
    /// order; fewer when not enough are accepted.
    pub fn pick_distinct<'a, T>(
        &mut self,
        items: &'a [T],
        count: usize,
        keep: impl Fn(&T) -> bool,
    ) -> Vec<&'a T> {
        let mut pool: Vec<&T> = items.iter().filter(|x| keep(x)).collect();
        let n = count.min(pool.len());
        for i in 0..n {
            let j = i + self.index(pool.len() - i);
            pool.swap(i, j);
        }
        pool.truncate(n);
        pool
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_reference_outputs() {
        // Reference SplitMix64 with seed 1234567.
        let mut r = SplitMix64::new(1_234_567);
        assert_eq!(r.next_u64(), 6_457_827_717_110_365_317);
        assert_eq!(r.next_u64(), 3_203_168_211_198_807_973);
        assert_eq!(r.next_u64(), 9_817_491_932_198_370_423);
    }

    #[test]
    fn bounded_draws_stay_in_range_and_cover_it() {
        let mut r = SplitMix64::new(42);
        let mut seen = [false; 7];
        for _ in 0..500 {
            let x = r.below(7) as usize;
            seen[x] = true;
            let y = r.range(10, 12);
            assert!((10..=12).contains(&y));
        }
        assert!(seen.iter().all(|s| *s));
    }

    #[test]
    fn distinct_picks_and_shuffles_are_permutations() {
        let mut r = SplitMix64::new(7);
        let items: Vec<u32> = (0..20).collect();
        let picked = r.pick_distinct(&items, 5, |x| x % 2 == 0);
        assert_eq!(picked.len(), 5);
        let mut sorted: Vec<u32> = picked.iter().map(|x| **x).collect();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 5);
        assert!(sorted.iter().all(|x| x % 2 == 0));
        assert_eq!(r.pick_distinct(&items, 50, |x| *x < 3).len(), 3);
        let mut v = items.clone();
        r.shuffle(&mut v);
        assert_ne!(v, items);
        v.sort();
        assert_eq!(v, items);
    }
}
