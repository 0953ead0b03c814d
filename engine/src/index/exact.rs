//! The exact-scan matrix of the vector tail: row vectors kept in blocks of [`LANES`] rows,
//! component-major inside a block, so that one pass over a block computes [`LANES`] inner
//! products side by side.
//!
//! Each lane accumulates its row's products in component order, starting from `-0.0`, exactly
//! as [`crate::embed::dot`] does for one row (a float sum is not reordered, and Rust never fuses
//! a multiply and an add), so every score is bit-identical to `dot(q, row)`; the lanes only let
//! the processor run [`LANES`] independent sums at once (SIMD registers, no dependency chain
//! between rows), where `dot` over one row is a chain of `dim` dependent additions.
//!
//! Components are kept as half-precision bit patterns while every row pushed is made of
//! half-precision values (every vector of a format-4 store is), so a scan reads half the bytes;
//! the conversion to f32 is exact. On x86-64 the loop runs with AVX and F16C when the CPU has
//! them (chosen at run time); the instructions differ, the arithmetic does not. A row that is
//! not half-precision switches the matrix to f32 components.

use crate::storage::half_vector::exact_bits;
use oubli_audit::vector::{f32_to_half_bits, half_bits_to_f32};

/// Rows per block: eight AVX registers of accumulators, enough independent sums to keep the
/// multiply and add units busy.
pub const LANES: usize = 64;

/// The matrix's components: half-precision bit patterns while every component pushed is a
/// half-precision value (what a format-4 store keeps for every row, so the scan reads half the
/// bytes), 32-bit floats from the first one that is not.
#[derive(Clone, Debug)]
enum Data {
    Half(Vec<u16>),
    Full(Vec<f32>),
}

/// Row vectors of one dimension, in blocks of [`LANES`] rows (the last block padded with
/// zeros).
#[derive(Clone, Debug)]
pub struct ExactMatrix {
    dim: usize,
    len: usize,
    /// Block `b` holds rows `b * LANES ..`; component `d` of the block's lane `l` is at
    /// `b * LANES * dim + d * LANES + l`.
    data: Data,
}

impl ExactMatrix {
    /// An empty matrix of `dim`-dimensional rows.
    pub fn new(dim: usize) -> Self {
        ExactMatrix {
            dim,
            len: 0,
            data: Data::Half(Vec::new()),
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

    /// Components the blocks holding `rows` rows take.
    fn slots(&self, rows: usize) -> usize {
        rows.div_ceil(LANES) * LANES * self.dim
    }

    /// Reserves room for `more` rows.
    pub fn reserve(&mut self, more: usize) {
        let want = self.slots(self.len + more);
        match &mut self.data {
            Data::Half(d) => d.reserve(want.saturating_sub(d.len())),
            Data::Full(d) => d.reserve(want.saturating_sub(d.len())),
        }
    }

    fn slot(&self, row: usize, d: usize) -> usize {
        (row / LANES) * LANES * self.dim + d * LANES + row % LANES
    }

    /// Appends a row (`v.len()` must be the dimension).
    pub fn push(&mut self, v: &[f32]) {
        debug_assert_eq!(v.len(), self.dim);
        if let Data::Half(_) = self.data {
            // One pass converts and checks; a row that is not all half-precision values widens
            // the matrix first.
            if let Some(bits) = exact_bits(v) {
                let row = self.new_row();
                let base = self.slot(row, 0);
                if let Data::Half(h) = &mut self.data {
                    for (d, b) in bits.into_iter().enumerate() {
                        h[base + d * LANES] = b;
                    }
                }
                return;
            }
            self.widen();
        }
        let row = self.new_row();
        self.set(row, v);
    }

    /// Makes room for one more row (a new block of zeros when the last one is full) and returns
    /// its index.
    fn new_row(&mut self) -> usize {
        if self.len.is_multiple_of(LANES) {
            let n = self.slots(self.len + 1);
            match &mut self.data {
                Data::Half(d) => d.resize(n, 0),
                Data::Full(d) => d.resize(n, 0.0),
            }
        }
        self.len += 1;
        self.len - 1
    }

    /// Appends a row given as a half-precision vector record (`2 * dim` bytes, little-endian
    /// bit patterns, what a format-4 store keeps): [`Self::push_half_rows`] of its bits (the open
    /// path loads a block's worth of records at a time with that). The row is the same as
    /// [`Self::push`] of the decoded vector. Returns `false`, appending nothing, for a record of
    /// another length.
    pub fn push_half_record(&mut self, record: &[u8]) -> bool {
        if self.dim == 0 || record.len() != 2 * self.dim {
            return false;
        }
        let bits: Vec<u16> = record
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect();
        self.push_half_rows(&bits);
        true
    }

    /// Appends rows given as half-precision bit patterns, row after row (`bits.len()` a multiple
    /// of the dimension): the rows [`Self::push_half_record`] of each one's record would make,
    /// written block by block, component-major as the blocks hold them (the open path's bulk
    /// load: contiguous writes instead of one strided write per component).
    pub fn push_half_rows(&mut self, bits: &[u16]) {
        let dim = self.dim;
        if dim == 0 || bits.is_empty() {
            return;
        }
        debug_assert_eq!(bits.len() % dim, 0);
        if matches!(self.data, Data::Full(_)) {
            for row in bits.chunks_exact(dim) {
                let v: Vec<f32> = row.iter().map(|h| half_bits_to_f32(*h)).collect();
                self.push(&v);
            }
            return;
        }
        let rows = bits.len() / dim;
        let first = self.len;
        let n = self.slots(first + rows);
        let Data::Half(h) = &mut self.data else {
            return;
        };
        h.resize(n, 0);
        let mut i = 0;
        while i < rows {
            // The rows `i .. i + take` fill lanes `lane ..` of one block.
            let (block, lane) = ((first + i) / LANES, (first + i) % LANES);
            let take = (LANES - lane).min(rows - i);
            let base = block * LANES * dim + lane;
            for d in 0..dim {
                let at = base + d * LANES;
                for (j, slot) in h[at..at + take].iter_mut().enumerate() {
                    *slot = bits[(i + j) * dim + d];
                }
            }
            i += take;
        }
        self.len += rows;
    }

    /// Switches to 32-bit components (exact: every half is an f32).
    fn widen(&mut self) {
        if let Data::Half(d) = &self.data {
            self.data = Data::Full(d.iter().map(|h| half_bits_to_f32(*h)).collect());
        }
    }

    /// Writes row `i` (whose components the storage holds exactly, see [`Self::push`]).
    fn set(&mut self, row: usize, v: &[f32]) {
        for (d, x) in v.iter().enumerate() {
            let s = self.slot(row, d);
            match &mut self.data {
                Data::Half(h) => h[s] = f32_to_half_bits(*x),
                Data::Full(f) => f[s] = *x,
            }
        }
    }

    /// Row `i` as a vector.
    pub fn row(&self, i: usize) -> Vec<f32> {
        (0..self.dim)
            .map(|d| {
                let s = self.slot(i, d);
                match &self.data {
                    Data::Half(h) => half_bits_to_f32(h[s]),
                    Data::Full(f) => f[s],
                }
            })
            .collect()
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
        let n = self.slots(self.len);
        match &mut self.data {
            Data::Half(d) => d.truncate(n),
            Data::Full(d) => d.truncate(n),
        }
    }

    /// Removes every row.
    pub fn clear(&mut self) {
        self.len = 0;
        self.data = Data::Half(Vec::new());
    }

    /// `dot(q, row)` for every row, in row order, each bit-identical to
    /// [`crate::embed::dot`].
    pub fn scores(&self, q: &[f32]) -> Vec<f32> {
        debug_assert_eq!(q.len(), self.dim);
        let mut out = Vec::with_capacity(self.slots(self.len) / self.dim.max(1));
        if self.dim == 0 {
            out.resize(self.len, -0.0);
            return out;
        }
        match &self.data {
            Data::Half(h) => {
                #[cfg(target_arch = "x86_64")]
                {
                    if std::arch::is_x86_feature_detected!("avx")
                        && std::arch::is_x86_feature_detected!("f16c")
                    {
                        // SAFETY: the CPU supports AVX and F16C (checked just above).
                        unsafe { scores_half_f16c(h, q, &mut out) };
                        out.truncate(self.len);
                        return out;
                    }
                }
                scores_half_generic(h, q, &mut out);
            }
            Data::Full(f) => {
                #[cfg(target_arch = "x86_64")]
                {
                    if std::arch::is_x86_feature_detected!("avx") {
                        // SAFETY: the CPU supports AVX (checked just above).
                        unsafe { scores_avx(f, q, &mut out) };
                        out.truncate(self.len);
                        return out;
                    }
                }
                scores_generic(f, q, &mut out);
            }
        }
        out.truncate(self.len);
        out
    }
}

/// The lane loop over every block of `data`, appending [`LANES`] scores per block.
// An index loop over a fixed number of lanes is what the compiler turns into SIMD registers.
#[allow(clippy::needless_range_loop)]
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

/// The lane loop over half-precision components, each converted exactly to f32 first.
#[allow(clippy::needless_range_loop)]
fn scores_half_generic(data: &[u16], q: &[f32], out: &mut Vec<f32>) {
    let dim = q.len();
    for block in data.chunks_exact(LANES * dim) {
        let mut acc = [-0.0f32; LANES];
        for (x, col) in q.iter().zip(block.chunks_exact(LANES)) {
            for l in 0..LANES {
                acc[l] += x * half_bits_to_f32(col[l]);
            }
        }
        out.extend_from_slice(&acc);
    }
}

/// [`scores_half_generic`] with F16C's conversion (exact, as [`half_bits_to_f32`]) and AVX
/// arithmetic: per component, the same product and the same sum in the same order, eight lanes
/// per instruction.
///
/// # Safety
/// The CPU must support AVX and F16C.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx,f16c")]
unsafe fn scores_half_f16c(data: &[u16], q: &[f32], out: &mut Vec<f32>) {
    use std::arch::x86_64::{
        __m128i, __m256, _mm_loadu_si128, _mm256_add_ps, _mm256_cvtph_ps, _mm256_mul_ps,
        _mm256_set1_ps, _mm256_storeu_ps,
    };
    const REGS: usize = LANES / 8;
    let dim = q.len();
    for block in data.chunks_exact(LANES * dim) {
        let mut acc: [__m256; REGS] = [_mm256_set1_ps(-0.0); REGS];
        for (x, col) in q.iter().zip(block.chunks_exact(LANES)) {
            let xv = _mm256_set1_ps(*x);
            for (r, a) in acc.iter_mut().enumerate() {
                // SAFETY: `col` holds LANES = 8 * REGS halves, so eight from `r * 8` are in
                // bounds; the load is unaligned.
                let h = unsafe { _mm_loadu_si128(col.as_ptr().add(r * 8).cast::<__m128i>()) };
                *a = _mm256_add_ps(*a, _mm256_mul_ps(xv, _mm256_cvtph_ps(h)));
            }
        }
        let mut lanes = [0.0f32; LANES];
        for (r, a) in acc.iter().enumerate() {
            // SAFETY: `lanes` holds 8 * REGS floats, so eight from `r * 8` are in bounds.
            unsafe { _mm256_storeu_ps(lanes.as_mut_ptr().add(r * 8), *a) };
        }
        out.extend_from_slice(&lanes);
    }
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

    /// `loaded` holds the rows `pushed` holds, in the same component width, and scores a query
    /// bit for bit as `pushed` does.
    fn same_matrix(
        pushed: &ExactMatrix,
        loaded: &ExactMatrix,
        seed: u64,
        dim: usize,
    ) -> Result<(), TestCaseError> {
        prop_assert_eq!(pushed.len(), loaded.len());
        prop_assert_eq!(
            matches!(pushed.data, Data::Half(_)),
            matches!(loaded.data, Data::Half(_))
        );
        for i in 0..pushed.len() {
            prop_assert_eq!(pushed.row(i), loaded.row(i));
        }
        let q = rows(seed ^ 0xABCD, 1, dim).remove(0);
        prop_assert_eq!(
            pushed
                .scores(&q)
                .iter()
                .map(|x| x.to_bits())
                .collect::<Vec<_>>(),
            loaded
                .scores(&q)
                .iter()
                .map(|x| x.to_bits())
                .collect::<Vec<_>>()
        );
        Ok(())
    }

    /// The conversion both ways, the definition `exact_bits` (what `push` keeps a row in half
    /// precision by) must agree with.
    fn exact_half_by_round_trip(x: f32) -> Option<u16> {
        let h = f32_to_half_bits(x);
        (half_bits_to_f32(h).to_bits() == x.to_bits()).then_some(h)
    }

    #[test]
    fn exact_bits_agree_with_the_round_trip_on_every_half_value_and_its_neighbours() {
        for h in 0..=u16::MAX {
            let x = half_bits_to_f32(h);
            for b in [
                x.to_bits(),
                x.to_bits().wrapping_add(1),
                x.to_bits().wrapping_sub(1),
            ] {
                let y = f32::from_bits(b);
                assert_eq!(
                    exact_bits(&[y]).map(|h| h[0]),
                    exact_half_by_round_trip(y),
                    "bits {b:#x}"
                );
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn exact_bits_agree_with_the_round_trip_on_any_f32(bits in any::<u32>()) {
            let x = f32::from_bits(bits);
            prop_assert_eq!(exact_bits(&[x]).map(|h| h[0]), exact_half_by_round_trip(x));
        }

        /// Every score is bit-identical to `dot`, whatever the number of rows (full and partial
        /// blocks), after pushes and removals, and rows read back as pushed.
        #[test]
        fn scores_are_bit_identical_to_dot(
            seed in any::<u64>(),
            n in 0usize..150,
            dim in 1usize..40,
            removals in proptest::collection::vec(any::<usize>(), 0..10),
            mode in 0u8..3,
        ) {
            // Mode 0: 32-bit components; 1: every row a half-precision vector (as a store
            // keeps them); 2: half-precision rows, then one that is not (the matrix widens).
            let mut want = rows(seed, n, dim);
            if mode > 0 {
                let last = want.len().saturating_sub(1);
                for (i, r) in want.iter_mut().enumerate() {
                    if mode == 1 || i < last {
                        *r = crate::storage::stored_vector(r);
                    }
                }
            }
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
            let half = matches!(m.data, Data::Half(_));
            prop_assert!(mode != 1 || half);
            prop_assert!(mode != 0 || n == 0 || !half);
            let q = rows(seed ^ 0xABCD, 1, dim).remove(0);
            let s = m.scores(&q);
            // The portable loop too, whichever one `scores` chose on this CPU.
            let mut generic = Vec::new();
            match &m.data {
                Data::Half(h) => scores_half_generic(h, &q, &mut generic),
                Data::Full(f) => scores_generic(f, &q, &mut generic),
            }
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

        /// A row loaded from its stored record (`push_half_record`, the open path) is the row
        /// `push` of the decoded vector makes, in a half matrix and in a widened one, and
        /// scores the same; a record of another length is refused and changes nothing.
        #[test]
        fn half_records_load_as_pushed_rows(
            seed in any::<u64>(),
            n in 0usize..150,
            dim in 1usize..40,
            widen_at in proptest::option::of(0usize..150),
        ) {
            let want: Vec<Vec<f32>> = rows(seed, n, dim)
                .iter()
                .map(|r| crate::storage::stored_vector(r))
                .collect();
            let odd = rows(seed ^ 0x55, 1, dim).remove(0);
            let (mut pushed, mut loaded) = (ExactMatrix::new(dim), ExactMatrix::new(dim));
            for (i, r) in want.iter().enumerate() {
                if widen_at == Some(i) {
                    // A row that is not half-precision: both matrices widen.
                    pushed.push(&odd);
                    loaded.push(&odd);
                }
                pushed.push(r);
                let record = oubli_audit::vector::encode_half(r);
                prop_assert!(loaded.push_half_record(&record));
                prop_assert!(!loaded.push_half_record(&record[1..]));
            }
            same_matrix(&pushed, &loaded, seed, dim)?;
        }

        /// Rows loaded in runs (`push_half_rows`, the open path), starting at any lane and
        /// after a widening, are the rows `push` makes, and score the same.
        #[test]
        fn half_rows_load_as_pushed_rows(
            seed in any::<u64>(),
            n in 0usize..200,
            dim in 1usize..40,
            runs in proptest::collection::vec(1usize..90, 1..8),
            widen_first in any::<bool>(),
        ) {
            let want: Vec<Vec<f32>> = rows(seed, n, dim)
                .iter()
                .map(|r| crate::storage::stored_vector(r))
                .collect();
            let (mut pushed, mut loaded) = (ExactMatrix::new(dim), ExactMatrix::new(dim));
            if widen_first {
                let odd = rows(seed ^ 0x55, 1, dim).remove(0);
                pushed.push(&odd);
                loaded.push(&odd);
            }
            for r in &want {
                pushed.push(r);
            }
            let mut at = 0;
            for run in runs.iter().cycle() {
                if at >= want.len() {
                    break;
                }
                let end = (at + run).min(want.len());
                let bits: Vec<u16> = want[at..end]
                    .iter()
                    .flatten()
                    .map(|x| f32_to_half_bits(*x))
                    .collect();
                loaded.push_half_rows(&bits);
                at = end;
            }
            same_matrix(&pushed, &loaded, seed, dim)?;
        }
    }
}
