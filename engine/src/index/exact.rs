//! The exact-scan matrix of the vector tail: row vectors kept in blocks of [`LANES`] rows,
//! component-major inside a block, so that one pass over a block computes [`LANES`] inner
//! products side by side.
//!
//! Each lane accumulates its row's products in component order, starting from `-0.0`, exactly
//! as [`crate::embed::dot`] does for one row (a float sum is not reordered, and Rust never fuses
//! a multiply and an add), so every score is bit-identical to `dot(q, row)`; the lanes only let
//! the processor run [`LANES`] independent sums at once (SIMD registers, no dependency chain
//! between rows), where `dot` over one row is a chain of `dim` dependent additions. On x86-64
//! the same loop is also compiled for AVX and chosen at run time; the instructions differ, the
//! arithmetic does not.

/// Rows per block.
pub const LANES: usize = 16;

/// Row vectors of one dimension, in blocks of [`LANES`] rows (the last block padded with
/// zeros).
#[derive(Clone, Debug)]
pub struct ExactMatrix {
    dim: usize,
    len: usize,
    /// Block `b` holds rows `b * LANES ..`; component `d` of the block's lane `l` is at
    /// `b * LANES * dim + d * LANES + l`.
    data: Vec<f32>,
}

impl ExactMatrix {
    /// An empty matrix of `dim`-dimensional rows.
    pub fn new(dim: usize) -> Self {
        ExactMatrix {
            dim,
            len: 0,
            data: Vec::new(),
        }
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when no row is held.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Reserves room for `more` rows.
    pub fn reserve(&mut self, more: usize) {
        let blocks = (self.len + more).div_ceil(LANES);
        let want = blocks * LANES * self.dim;
        self.data.reserve(want.saturating_sub(self.data.len()));
    }

    fn slot(&self, row: usize, d: usize) -> usize {
        (row / LANES) * LANES * self.dim + d * LANES + row % LANES
    }

    /// Appends a row (`v.len()` must be the dimension).
    pub fn push(&mut self, v: &[f32]) {
        debug_assert_eq!(v.len(), self.dim);
        if self.len.is_multiple_of(LANES) {
            self.data.resize(self.data.len() + LANES * self.dim, 0.0);
        }
        self.len += 1;
        self.set(self.len - 1, v);
    }

    fn set(&mut self, row: usize, v: &[f32]) {
        for (d, x) in v.iter().enumerate() {
            let s = self.slot(row, d);
            self.data[s] = *x;
        }
    }

    /// Row `i` as a vector.
    pub fn row(&self, i: usize) -> Vec<f32> {
        (0..self.dim).map(|d| self.data[self.slot(i, d)]).collect()
    }

    /// Removes row `i`, moving the last row into its place (as `Vec::swap_remove`).
    pub fn swap_remove(&mut self, i: usize) {
        let last = self.len - 1;
        if i != last {
            let moved = self.row(last);
            self.set(i, &moved);
        }
        // The vacated slot is zeroed: no byte of a removed vector stays in the matrix.
        self.set(last, &vec![0.0; self.dim]);
        self.len = last;
        self.data
            .truncate(self.len.div_ceil(LANES) * LANES * self.dim);
    }

    /// Removes every row.
    pub fn clear(&mut self) {
        self.len = 0;
        self.data.clear();
    }

    /// `dot(q, row)` for every row, in row order, each bit-identical to
    /// [`crate::embed::dot`].
    pub fn scores(&self, q: &[f32]) -> Vec<f32> {
        debug_assert_eq!(q.len(), self.dim);
        let mut out = Vec::with_capacity(self.data.len() / self.dim.max(1));
        if self.dim == 0 {
            out.resize(self.len, -0.0);
            return out;
        }
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx") {
                // SAFETY: the CPU supports AVX (checked just above).
                unsafe { scores_avx(&self.data, q, &mut out) };
                out.truncate(self.len);
                return out;
            }
        }
        scores_generic(&self.data, q, &mut out);
        out.truncate(self.len);
        out
    }
}

/// The lane loop over every block of `data`, appending [`LANES`] scores per block.
#[inline(always)]
fn scores_blocks(data: &[f32], q: &[f32], out: &mut Vec<f32>) {
    let dim = q.len();
    for block in data.chunks_exact(LANES * dim) {
        let mut acc = [-0.0f32; LANES];
        for (x, col) in q.iter().zip(block.chunks_exact(LANES)) {
            for l in 0..LANES {
                acc[l] += x * col[l];
            }
        }
        out.extend_from_slice(&acc);
    }
}

fn scores_generic(data: &[f32], q: &[f32], out: &mut Vec<f32>) {
    scores_blocks(data, q, out)
}

/// [`scores_blocks`] compiled for AVX.
///
/// # Safety
/// The CPU must support AVX.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn scores_avx(data: &[f32], q: &[f32], out: &mut Vec<f32>) {
    scores_blocks(data, q, out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::embed::dot;
    use proptest::prelude::*;

    fn rows(seed: u64, n: usize, dim: usize) -> Vec<Vec<f32>> {
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        (0..n)
            .map(|_| {
                (0..dim)
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        ((x >> 40) as f32 / (1u64 << 24) as f32) - 0.5
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn zero_vectors_score_as_dot_does_sign_included() {
        let mut m = ExactMatrix::new(4);
        m.push(&[0.0, -0.0, 0.0, 0.0]);
        m.push(&[-0.0; 4]);
        for q in [[0.0f32; 4], [-0.0; 4], [1.0, -1.0, 0.5, 0.0]] {
            let s = m.scores(&q);
            assert_eq!(s[0].to_bits(), dot(&q, &m.row(0)).to_bits());
            assert_eq!(s[1].to_bits(), dot(&q, &m.row(1)).to_bits());
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Every score is bit-identical to `dot`, whatever the number of rows (full and partial
        /// blocks), after pushes and removals, and rows read back as pushed.
        #[test]
        fn scores_are_bit_identical_to_dot(
            seed in any::<u64>(),
            n in 0usize..70,
            dim in 1usize..40,
            removals in proptest::collection::vec(any::<usize>(), 0..10),
        ) {
            let mut want = rows(seed, n, dim);
            let mut m = ExactMatrix::new(dim);
            for r in &want {
                m.push(r);
            }
            for r in removals {
                if want.is_empty() {
                    break;
                }
                let i = r % want.len();
                want.swap_remove(i);
                m.swap_remove(i);
            }
            let q = rows(seed ^ 0xABCD, 1, dim).remove(0);
            let s = m.scores(&q);
            // The portable loop too, whichever one `scores` chose on this CPU.
            let mut generic = Vec::new();
            scores_generic(&m.data, &q, &mut generic);
            generic.truncate(m.len());
            prop_assert_eq!(
                generic.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                s.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
            );
            prop_assert_eq!(s.len(), want.len());
            prop_assert_eq!(m.len(), want.len());
            for (i, r) in want.iter().enumerate() {
                prop_assert_eq!(&m.row(i), r);
                prop_assert_eq!(s[i].to_bits(), dot(&q, r).to_bits());
            }
        }
    }
}
