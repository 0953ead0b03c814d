//! The encoding of a row's vector in the store's `vectors` table.
//!
//! A record is the vector's components in order, each either an IEEE 754 half-precision float
//! (2 bytes, little-endian: what stores of format 4 write) or a single-precision float (4 bytes,
//! little-endian: formats 1 to 3, whose records are kept as they are). The record's length tells
//! which: `2 * dim` or `4 * dim` bytes for the store's dimension `dim`.
//!
//! A format-4 store rounds every new row's unit vector to half precision *before* it is digested
//! for the log ([`round_half`]), so the stored half-precision record decodes to exactly the f32
//! values the row digest commits to, and the digest is checked from the file as before.

/// The nearest IEEE 754 half-precision value to `x` (ties to even), as its bit pattern.
/// Overflow gives infinity, NaN stays NaN.
pub fn f32_to_half_bits(x: f32) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xff) as i32;
    let man = b & 0x7f_ffff;
    if exp == 0xff {
        return sign | 0x7c00 | if man != 0 { 0x200 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        // Subnormal half (or zero): value = m * 2^-24.
        if e < -10 {
            return sign;
        }
        let m = man | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = 1u32 << (shift - 1);
        let rem = m & ((1u32 << shift) - 1);
        let mut q = m >> shift;
        if rem > half || (rem == half && q & 1 == 1) {
            q += 1;
        }
        return sign | q as u16;
    }
    let mut h = ((e as u32) << 10) | (man >> 13);
    let rem = man & 0x1fff;
    if rem > 0x1000 || (rem == 0x1000 && h & 1 == 1) {
        // A carry out of the mantissa moves to the next exponent (up to infinity): correct.
        h += 1;
    }
    sign | h as u16
}

/// The f32 value of a half-precision bit pattern (exact: every half is an f32). Branch-free, so
/// that decoding a record vectorizes: the half's exponent and mantissa bits, shifted into an
/// f32's, read as `2^(e - 127) * 1.m` (or a subnormal `m * 2^-136`), and one multiplication by
/// `2^112` rebiases them exactly; infinities and NaNs are selected apart.
#[inline]
pub fn half_bits_to_f32(h: u16) -> f32 {
    let h = u32::from(h);
    let sign = (h & 0x8000) << 16;
    let em = h & 0x7fff;
    let scaled = (f32::from_bits(em << 13) * f32::from_bits(0x7780_0000)).to_bits();
    let special = (em << 13) | 0x7f80_0000;
    let bits = if em >= 0x7c00 { special } else { scaled };
    f32::from_bits(bits | sign)
}

/// Each component rounded to the nearest half-precision value: what a format-4 store keeps
/// (and digests) for a row's vector.
pub fn round_half(v: &[f32]) -> Vec<f32> {
    v.iter()
        .map(|x| half_bits_to_f32(f32_to_half_bits(*x)))
        .collect()
}

/// The half-precision record of `v` (2 bytes per component, little-endian).
pub fn encode_half(v: &[f32]) -> Vec<u8> {
    v.iter()
        .flat_map(|x| f32_to_half_bits(*x).to_le_bytes())
        .collect()
}

/// Decodes a vector record of a store of dimension `dim`: half precision when it is `2 * dim`
/// bytes, single precision when it is `4 * dim` bytes; `None` for any other length.
pub fn decode(bytes: &[u8], dim: usize) -> Option<Vec<f32>> {
    let mut out = Vec::with_capacity(dim);
    decode_into(bytes, dim, &mut out).then_some(out)
}

/// [`decode`], appending the components to `out`; `false` (and `out` unchanged) for a record of
/// another length.
pub fn decode_into(bytes: &[u8], dim: usize, out: &mut Vec<f32>) -> bool {
    if dim > 0 && bytes.len() == 2 * dim {
        out.extend(
            bytes
                .chunks_exact(2)
                .map(|c| half_bits_to_f32(u16::from_le_bytes([c[0], c[1]]))),
        );
        true
    } else if bytes.len() == 4 * dim {
        out.extend(
            bytes
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])),
        );
        true
    } else {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The half's value by its definition, for comparison with the branch-free decoder.
    fn reference(h: u16) -> f64 {
        let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
        let e = i32::from((h >> 10) & 0x1f);
        let m = f64::from(h & 0x3ff);
        match e {
            0 => sign * m * 2f64.powi(-24),
            0x1f if m == 0.0 => sign * f64::INFINITY,
            0x1f => f64::NAN,
            _ => sign * (1.0 + m / 1024.0) * 2f64.powi(e - 15),
        }
    }

    #[test]
    fn every_half_decodes_to_its_value() {
        for h in 0..=u16::MAX {
            let (got, want) = (half_bits_to_f32(h), reference(h));
            if want.is_nan() {
                assert!(got.is_nan(), "{h:#06x}");
            } else {
                assert_eq!(f64::from(got), want, "{h:#06x}");
                assert_eq!(got.is_sign_negative(), h & 0x8000 != 0, "{h:#06x}");
            }
        }
    }

    #[test]
    fn every_half_round_trips() {
        for h in 0..=u16::MAX {
            let x = half_bits_to_f32(h);
            if x.is_nan() {
                assert!(half_bits_to_f32(f32_to_half_bits(x)).is_nan());
            } else {
                assert_eq!(f32_to_half_bits(x), h, "{h:#06x} -> {x}");
            }
        }
    }

    #[test]
    fn known_values() {
        assert_eq!(f32_to_half_bits(1.0), 0x3c00);
        assert_eq!(f32_to_half_bits(-2.0), 0xc000);
        assert_eq!(f32_to_half_bits(65504.0), 0x7bff);
        assert_eq!(f32_to_half_bits(65520.0), 0x7c00); // rounds up to infinity
        assert_eq!(f32_to_half_bits(f32::from_bits(0x3380_0000)), 0x0001); // 2^-24
        assert_eq!(f32_to_half_bits(f32::from_bits(0x3300_0000)), 0x0000); // 2^-25: tie to even
        // 1 + 2^-11 lies halfway between 1 and the next half: ties to even (1.0).
        assert_eq!(f32_to_half_bits(1.0 + f32::EPSILON * 1024.0), 0x3c00);
        assert_eq!(
            decode(&encode_half(&[0.5, -0.25]), 2),
            Some(vec![0.5, -0.25])
        );
        assert_eq!(decode(&[0u8; 8], 2), Some(vec![0.0, 0.0]));
        assert_eq!(decode(&[0u8; 6], 2), None);
    }

    proptest! {
        /// The rounding picks the nearest half: no half lies closer to `x` (within the finite
        /// range; beyond 65,520 IEEE rounds to infinity, checked in `known_values`).
        #[test]
        fn rounds_to_the_nearest_half(
            x in prop_oneof![-65504.0f32..65504.0, -1.0f32..1.0, -1e-4f32..1e-4]
        ) {
            let h = f32_to_half_bits(x);
            let got = half_bits_to_f32(h) as f64;
            let err = (got - x as f64).abs();
            for n in [h.wrapping_add(1), h.wrapping_sub(1), h ^ 0x8000] {
                let y = half_bits_to_f32(n);
                if y.is_finite() {
                    prop_assert!(err <= (y as f64 - x as f64).abs(), "{x} -> {got}, {y} closer");
                }
            }
        }

        /// A rounded vector encodes and decodes to itself.
        #[test]
        fn rounded_vectors_survive_their_record(v in proptest::collection::vec(-1.0f32..1.0, 1..64)) {
            let r = round_half(&v);
            prop_assert_eq!(decode(&encode_half(&r), v.len()), Some(r.clone()));
            prop_assert_eq!(round_half(&r), r);
        }
    }
}
