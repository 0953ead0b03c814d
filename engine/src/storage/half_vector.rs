//! Half-precision rounding of whole vectors, the store's format-4 vector records.
//!
//! [`oubli_audit::vector`] defines the rounding one component at a time (IEEE 754 binary16,
//! ties to even): that is the reference a verifier reads. The write path rounds every new row's
//! vector, checks that the exact-scan matrix can keep it in half precision, and encodes its
//! record; done a component at a time in software, those conversions were a tenth of a batch
//! load's CPU. Here a whole vector is converted at once with the `half` crate, which uses the
//! processor's conversion instructions (F16C on x86-64) where it has them. The results are the
//! reference's bit for bit on every finite value (`every_finite_f32_rounds_as_the_reference`
//! below, and a proptest); a vector holding a NaN or an infinity, which no stored vector does
//! (`crate::embed::check_vector` refuses them), takes the reference path, whose NaN payloads
//! the instructions would not reproduce.

use half::f16;
use half::slice::{HalfBitsSliceExt, HalfFloatSliceExt};
use oubli_audit::vector::{f32_to_half_bits, half_bits_to_f32};

/// The nearest half-precision value to each component of `v` (ties to even), as bit patterns:
/// [`oubli_audit::vector::f32_to_half_bits`] of each component.
pub fn bits_of(v: &[f32]) -> Vec<u16> {
    if !v.iter().all(|x| x.is_finite()) {
        return v.iter().map(|x| f32_to_half_bits(*x)).collect();
    }
    let mut bits = vec![0u16; v.len()];
    bits.reinterpret_cast_mut::<f16>().convert_from_f32_slice(v);
    bits
}

/// The f32 values of half-precision bit patterns (exact: every half is an f32), as
/// [`oubli_audit::vector::half_bits_to_f32`] of each. A NaN among them (which [`bits_of`] of a
/// finite vector never gives) takes the reference path: the instructions quiet a signalling
/// NaN, the reference keeps its bits.
pub fn values_of(bits: &[u16]) -> Vec<f32> {
    if bits.iter().any(|b| b & 0x7fff > 0x7c00) {
        return bits.iter().map(|b| half_bits_to_f32(*b)).collect();
    }
    let mut out = vec![0f32; bits.len()];
    bits.reinterpret_cast::<f16>()
        .convert_to_f32_slice(&mut out);
    out
}

/// The half-precision bit patterns of `v` when every component is exactly a half-precision
/// value (what every vector of a format-4 store is); `None` otherwise.
pub fn exact_bits(v: &[f32]) -> Option<Vec<u16>> {
    let bits = bits_of(v);
    let back = values_of(&bits);
    back.iter()
        .zip(v)
        .all(|(b, x)| b.to_bits() == x.to_bits())
        .then_some(bits)
}

/// A vector's half-precision record: the bit patterns, little-endian, 2 bytes a component.
pub fn record_of(bits: &[u16]) -> Vec<u8> {
    bits.iter().flat_map(|b| b.to_le_bytes()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use oubli_audit::vector::round_half;
    use proptest::prelude::*;

    /// Every f32 bit pattern that is finite rounds to the reference's half, in chunks the size
    /// of a vector (so the conversion instructions' wide path runs, not only their tail).
    /// Exhaustive: 2^32 patterns, about ten seconds in a release build; the proptest below samples
    /// the same property in the default run.
    #[test]
    #[ignore = "exhaustive over 2^32 patterns: cargo test --release -p oubli-db --lib half_vector -- --ignored"]
    fn every_finite_f32_rounds_as_the_reference() {
        let mut chunk = Vec::with_capacity(1 << 16);
        for hi in 0..=u16::MAX {
            chunk.clear();
            chunk.extend(
                (0..=u16::MAX).map(|lo| f32::from_bits(u32::from(hi) << 16 | u32::from(lo))),
            );
            let got = bits_of(&chunk);
            for (x, h) in chunk.iter().zip(got) {
                assert_eq!(h, f32_to_half_bits(*x), "{:#010x}", x.to_bits());
            }
        }
    }

    /// Every half decodes to the reference's value, NaN payloads included.
    #[test]
    fn every_half_decodes_as_the_reference() {
        let all: Vec<u16> = (0..=u16::MAX).collect();
        for (h, x) in all.iter().zip(values_of(&all)) {
            assert_eq!(x.to_bits(), half_bits_to_f32(*h).to_bits(), "{h:#06x}");
        }
    }

    /// The values on either side of each rounding boundary (half-way between two halves, where
    /// ties go to even) and the boundaries themselves.
    #[test]
    fn the_values_beside_each_rounding_boundary_round_as_the_reference() {
        let mut xs = Vec::new();
        for h in 0..0x7bffu16 {
            let (a, b) = (half_bits_to_f32(h), half_bits_to_f32(h + 1));
            let mid = ((f64::from(a) + f64::from(b)) / 2.0) as f32;
            for x in [a, mid, b] {
                for d in [-1i64, 0, 1] {
                    let y = f32::from_bits((i64::from(x.to_bits()) + d).max(0) as u32);
                    xs.extend([y, -y]);
                }
            }
        }
        for (x, h) in xs.iter().zip(bits_of(&xs)) {
            assert_eq!(h, f32_to_half_bits(*x), "{:#010x}", x.to_bits());
        }
    }

    #[test]
    fn a_vector_with_a_nan_or_infinity_takes_the_reference_path() {
        let v = [
            1.0,
            f32::from_bits(0x7fc1_2345),
            f32::INFINITY,
            -f32::NAN,
            70_000.0,
        ];
        let want: Vec<u16> = v.iter().map(|x| f32_to_half_bits(*x)).collect();
        assert_eq!(bits_of(&v), want);
    }

    #[test]
    fn only_a_vector_of_half_values_has_exact_bits() {
        let halves = round_half(&[0.1, -0.25, 3.0e-6, 1.0]);
        assert_eq!(exact_bits(&halves), Some(bits_of(&halves)));
        assert_eq!(exact_bits(&[0.1, 0.5]), None);
    }

    proptest! {
        /// Any f32 bit patterns, NaNs and infinities included, round as the reference does,
        /// and the rounded values are the reference's rounding.
        #[test]
        fn vectors_round_as_the_reference(raw in prop::collection::vec(any::<u32>(), 0..80)) {
            let v: Vec<f32> = raw.iter().map(|b| f32::from_bits(*b)).collect();
            let want: Vec<u16> = v.iter().map(|x| f32_to_half_bits(*x)).collect();
            let bits = bits_of(&v);
            prop_assert_eq!(&bits, &want);
            let values: Vec<u32> = values_of(&bits).iter().map(|x| x.to_bits()).collect();
            let reference: Vec<u32> = round_half(&v).iter().map(|x| x.to_bits()).collect();
            prop_assert_eq!(values, reference);
        }

        /// The record is the reference's encoding.
        #[test]
        fn records_encode_as_the_reference(raw in prop::collection::vec(-4.0f32..4.0, 0..80)) {
            prop_assert_eq!(record_of(&bits_of(&raw)), oubli_audit::vector::encode_half(&raw));
        }
    }
}
