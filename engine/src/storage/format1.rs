//! A reader of format-1 records: bincode 2's standard configuration, written by hand so the
//! engine can migrate old files without depending on bincode.
//!
//! Format 1 (files whose `format` meta value is 1) encoded rows, decay policies, alias groups,
//! provenance and note records with `bincode::serde` in `bincode::config::standard()`:
//!
//! | serde type                     | bytes                                                    |
//! |--------------------------------|----------------------------------------------------------|
//! | `u8`, `i8`                     | the byte itself                                          |
//! | `u16`..`u128`, `usize`         | varint (below)                                           |
//! | `i16`..`i128`, `isize`         | zigzag (`0, -1, 1, -2, ...` -> `0, 1, 2, 3, ...`), varint  |
//! | `bool`                         | one byte, 0 or 1                                         |
//! | `f32`, `f64`                   | IEEE 754 little endian                                   |
//! | `char`                         | its UTF-8 bytes                                          |
//! | `str`, bytes                   | varint length, then the bytes                            |
//! | `Option`                       | byte 0 (`None`) or 1 then the value                      |
//! | sequence, map                  | varint length, then the items (map: key then value)      |
//! | tuple, array, struct           | the fields in order, no length                           |
//! | enum                           | varint variant index, then the variant's fields          |
//! | unit, unit struct              | nothing                                                  |
//!
//! Varint: a value below 251 is one byte; otherwise a marker byte 251, 252, 253 or 254 followed
//! by the value as a little-endian u16, u32, u64 or u128.
//!
//! [`decode`] is a serde [`Deserializer`](serde::Deserializer) over those bytes; it rejects trailing bytes. It is
//! not self-describing: `deserialize_any` (untagged enums, flattened fields) is refused, as
//! bincode refused it.

use serde::de::{
    self, DeserializeOwned, DeserializeSeed, EnumAccess, IntoDeserializer, MapAccess, SeqAccess,
    VariantAccess, Visitor,
};

use crate::error::{Error, Result};

/// Decodes one format-1 record; trailing bytes are corruption.
pub fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T> {
    let mut d = Decoder { input: bytes };
    let v = T::deserialize(&mut d).map_err(|e| Error::Corrupt(format!("format-1 record: {e}")))?;
    if !d.input.is_empty() {
        return Err(Error::Corrupt(
            "trailing bytes after format-1 record".into(),
        ));
    }
    Ok(v)
}

/// Why a format-1 record did not decode.
#[derive(Debug)]
pub struct DecodeError(String);

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DecodeError {}

impl de::Error for DecodeError {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        DecodeError(msg.to_string())
    }
}

type DResult<T> = std::result::Result<T, DecodeError>;

fn fail<T>(msg: &str) -> DResult<T> {
    Err(DecodeError(msg.to_owned()))
}

/// The decoder state: the bytes not read yet.
struct Decoder<'de> {
    input: &'de [u8],
}

impl<'de> Decoder<'de> {
    fn take(&mut self, n: usize) -> DResult<&'de [u8]> {
        if self.input.len() < n {
            return fail("unexpected end of record");
        }
        let (head, rest) = self.input.split_at(n);
        self.input = rest;
        Ok(head)
    }

    fn array<const N: usize>(&mut self) -> DResult<[u8; N]> {
        Ok(self.take(N)?.try_into().expect("N bytes"))
    }

    fn byte(&mut self) -> DResult<u8> {
        Ok(self.take(1)?[0])
    }

    /// A varint, as wide as it was written.
    fn varint(&mut self) -> DResult<u128> {
        Ok(match self.byte()? {
            b @ 0..=250 => u128::from(b),
            251 => u128::from(u16::from_le_bytes(self.array()?)),
            252 => u128::from(u32::from_le_bytes(self.array()?)),
            253 => u128::from(u64::from_le_bytes(self.array()?)),
            _ => u128::from_le_bytes(self.array()?),
        })
    }

    /// A varint that must fit `T`.
    fn unsigned<T: TryFrom<u128>>(&mut self) -> DResult<T> {
        T::try_from(self.varint()?).map_err(|_| DecodeError("integer out of range".into()))
    }

    /// A zigzag varint that must fit `T`.
    fn signed<T: TryFrom<i128>>(&mut self) -> DResult<T> {
        let z = self.varint()?;
        let v = ((z >> 1) as i128) ^ -((z & 1) as i128);
        T::try_from(v).map_err(|_| DecodeError("integer out of range".into()))
    }

    fn len(&mut self) -> DResult<usize> {
        let n: usize = self.unsigned()?;
        // Every item takes at least one byte except units; a length beyond the record is
        // corruption in every type the store writes.
        if n > self.input.len() {
            return fail("length beyond the end of the record");
        }
        Ok(n)
    }

    fn str(&mut self) -> DResult<&'de str> {
        let n = self.len()?;
        std::str::from_utf8(self.take(n)?).map_err(|_| DecodeError("invalid UTF-8".into()))
    }

    fn char(&mut self) -> DResult<char> {
        let first = *self
            .input
            .first()
            .ok_or(DecodeError("unexpected end".into()))?;
        let width = match first {
            0x00..=0x7f => 1,
            0xc0..=0xdf => 2,
            0xe0..=0xef => 3,
            0xf0..=0xf7 => 4,
            _ => return fail("invalid char"),
        };
        let s = std::str::from_utf8(self.take(width)?)
            .map_err(|_| DecodeError("invalid char".into()))?;
        Ok(s.chars().next().expect("one char"))
    }
}

impl<'de> de::Deserializer<'de> for &mut Decoder<'de> {
    type Error = DecodeError;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> DResult<V::Value> {
        fail("format 1 is not self-describing")
    }
    fn deserialize_ignored_any<V: Visitor<'de>>(self, _: V) -> DResult<V::Value> {
        fail("format 1 is not self-describing")
    }
    fn deserialize_bool<V: Visitor<'de>>(self, v: V) -> DResult<V::Value> {
        match self.byte()? {
            0 => v.visit_bool(false),
            1 => v.visit_bool(true),
            _ => fail("invalid bool"),
        }
    }
    fn deserialize_i8<V: Visitor<'de>>(self, v: V) -> DResult<V::Value> {
        v.visit_i8(self.byte()? as i8)
    }
    fn deserialize_i16<V: Visitor<'de>>(self, v: V) -> DResult<V::Value> {
        v.visit_i16(self.signed()?)
    }
    fn deserialize_i32<V: Visitor<'de>>(self, v: V) -> DResult<V::Value> {
        v.visit_i32(self.signed()?)
    }
    fn deserialize_i64<V: Visitor<'de>>(self, v: V) -> DResult<V::Value> {
        v.visit_i64(self.signed()?)
    }
    fn deserialize_i128<V: Visitor<'de>>(self, v: V) -> DResult<V::Value> {
        v.visit_i128(self.signed()?)
    }
    fn deserialize_u8<V: Visitor<'de>>(self, v: V) -> DResult<V::Value> {
        v.visit_u8(self.byte()?)
    }
    fn deserialize_u16<V: Visitor<'de>>(self, v: V) -> DResult<V::Value> {
        v.visit_u16(self.unsigned()?)
    }
    fn deserialize_u32<V: Visitor<'de>>(self, v: V) -> DResult<V::Value> {
        v.visit_u32(self.unsigned()?)
    }
    fn deserialize_u64<V: Visitor<'de>>(self, v: V) -> DResult<V::Value> {
        v.visit_u64(self.unsigned()?)
    }
    fn deserialize_u128<V: Visitor<'de>>(self, v: V) -> DResult<V::Value> {
        v.visit_u128(self.varint()?)
    }
    fn deserialize_f32<V: Visitor<'de>>(self, v: V) -> DResult<V::Value> {
        v.visit_f32(f32::from_le_bytes(self.array()?))
    }
    fn deserialize_f64<V: Visitor<'de>>(self, v: V) -> DResult<V::Value> {
        v.visit_f64(f64::from_le_bytes(self.array()?))
    }
    fn deserialize_char<V: Visitor<'de>>(self, v: V) -> DResult<V::Value> {
        v.visit_char(self.char()?)
    }
    fn deserialize_str<V: Visitor<'de>>(self, v: V) -> DResult<V::Value> {
        v.visit_borrowed_str(self.str()?)
    }
    fn deserialize_string<V: Visitor<'de>>(self, v: V) -> DResult<V::Value> {
        self.deserialize_str(v)
    }
    fn deserialize_bytes<V: Visitor<'de>>(self, v: V) -> DResult<V::Value> {
        let n = self.len()?;
        v.visit_borrowed_bytes(self.take(n)?)
    }
    fn deserialize_byte_buf<V: Visitor<'de>>(self, v: V) -> DResult<V::Value> {
        self.deserialize_bytes(v)
    }
    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> DResult<V::Value> {
        match self.byte()? {
            0 => v.visit_none(),
            1 => v.visit_some(self),
            _ => fail("invalid option tag"),
        }
    }
    fn deserialize_unit<V: Visitor<'de>>(self, v: V) -> DResult<V::Value> {
        v.visit_unit()
    }
    fn deserialize_unit_struct<V: Visitor<'de>>(self, _: &'static str, v: V) -> DResult<V::Value> {
        v.visit_unit()
    }
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        v: V,
    ) -> DResult<V::Value> {
        v.visit_newtype_struct(self)
    }
    fn deserialize_seq<V: Visitor<'de>>(self, v: V) -> DResult<V::Value> {
        let n = self.len()?;
        v.visit_seq(Items { d: self, left: n })
    }
    fn deserialize_tuple<V: Visitor<'de>>(self, n: usize, v: V) -> DResult<V::Value> {
        v.visit_seq(Items { d: self, left: n })
    }
    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        n: usize,
        v: V,
    ) -> DResult<V::Value> {
        v.visit_seq(Items { d: self, left: n })
    }
    fn deserialize_map<V: Visitor<'de>>(self, v: V) -> DResult<V::Value> {
        let n = self.len()?;
        v.visit_map(Items { d: self, left: n })
    }
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        v: V,
    ) -> DResult<V::Value> {
        v.visit_seq(Items {
            d: self,
            left: fields.len(),
        })
    }
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        v: V,
    ) -> DResult<V::Value> {
        v.visit_enum(self)
    }
    fn deserialize_identifier<V: Visitor<'de>>(self, v: V) -> DResult<V::Value> {
        v.visit_u32(self.unsigned()?)
    }
    fn is_human_readable(&self) -> bool {
        false
    }
}

/// The items of a sequence, tuple, struct or map, counted down.
struct Items<'a, 'de> {
    d: &'a mut Decoder<'de>,
    left: usize,
}

impl<'de> SeqAccess<'de> for Items<'_, 'de> {
    type Error = DecodeError;
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> DResult<Option<T::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        seed.deserialize(&mut *self.d).map(Some)
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

impl<'de> MapAccess<'de> for Items<'_, 'de> {
    type Error = DecodeError;
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> DResult<Option<K::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        seed.deserialize(&mut *self.d).map(Some)
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> DResult<V::Value> {
        seed.deserialize(&mut *self.d)
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

impl<'de> EnumAccess<'de> for &mut Decoder<'de> {
    type Error = DecodeError;
    type Variant = Self;
    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> DResult<(V::Value, Self)> {
        let index: u32 = self.unsigned()?;
        let v = seed.deserialize(index.into_deserializer())?;
        Ok((v, self))
    }
}

impl<'de> VariantAccess<'de> for &mut Decoder<'de> {
    type Error = DecodeError;
    fn unit_variant(self) -> DResult<()> {
        Ok(())
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> DResult<T::Value> {
        seed.deserialize(self)
    }
    fn tuple_variant<V: Visitor<'de>>(self, n: usize, v: V) -> DResult<V::Value> {
        de::Deserializer::deserialize_tuple(self, n, v)
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        v: V,
    ) -> DResult<V::Value> {
        de::Deserializer::deserialize_tuple(self, fields.len(), v)
    }
}
