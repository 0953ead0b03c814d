//! Lower-case hex for the byte strings of receipts and openings, and serde adapters.

use crate::error::{AuditError, Result};

/// Lower-case hex of `b`.
pub fn encode(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Decodes exactly `N` bytes of lower-case hex.
pub fn decode<const N: usize>(s: &str) -> Result<[u8; N]> {
    let bad = || AuditError::Corrupt(format!("expected {} lower-case hex digits", 2 * N));
    if s.len() != 2 * N
        || !s
            .bytes()
            .all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c))
    {
        return Err(bad());
    }
    let mut out = [0u8; N];
    for (i, o) in out.iter_mut().enumerate() {
        *o = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).map_err(|_| bad())?;
    }
    Ok(out)
}

/// Serde adapter: `[u8; 32]` as 64 hex digits.
pub mod h32 {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    /// Serializes.
    pub fn serialize<S: Serializer>(v: &[u8; 32], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&super::encode(v))
    }
    /// Deserializes.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[u8; 32], D::Error> {
        let s = String::deserialize(d)?;
        super::decode::<32>(&s).map_err(D::Error::custom)
    }
}

/// Serde adapter: `Option<[u8; 32]>` as hex or null.
pub mod h32_opt {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    /// Serializes.
    pub fn serialize<S: Serializer>(v: &Option<[u8; 32]>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(v) => s.serialize_str(&super::encode(v)),
            None => s.serialize_none(),
        }
    }
    /// Deserializes.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<[u8; 32]>, D::Error> {
        let s = Option::<String>::deserialize(d)?;
        s.map(|s| super::decode::<32>(&s).map_err(D::Error::custom))
            .transpose()
    }
}

/// Serde adapter: `Vec<[u8; 32]>` as a list of hex strings.
pub mod h32_vec {
    use serde::{Deserialize, Deserializer, Serializer, de::Error, ser::SerializeSeq};

    /// Serializes.
    pub fn serialize<S: Serializer>(v: &[[u8; 32]], s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(v.len()))?;
        for x in v {
            seq.serialize_element(&super::encode(x))?;
        }
        seq.end()
    }
    /// Deserializes.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<[u8; 32]>, D::Error> {
        Vec::<String>::deserialize(d)?
            .iter()
            .map(|s| super::decode::<32>(s).map_err(D::Error::custom))
            .collect()
    }
}

/// Serde adapter: `[u8; 64]` (signatures) as 128 hex digits.
pub mod h64 {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    /// Serializes.
    pub fn serialize<S: Serializer>(v: &[u8; 64], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&super::encode(v))
    }
    /// Deserializes.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[u8; 64], D::Error> {
        let s = String::deserialize(d)?;
        super::decode::<64>(&s).map_err(D::Error::custom)
    }
}
