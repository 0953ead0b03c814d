//! A decoder of the engine's row records, written by hand so the audit needs no codec and no
//! engine, to recompute row digests ([`crate::row_digest`]). Store format 1 encoded the
//! engine's `Row` with bincode 2's standard configuration, formats 2 and 3 with postcard: the
//! same serde layout (below), with another varint. Format 3 differs from format 2 in one
//! field: metadata values are typed (below).
//!
//! Format 2 varints are LEB128 (seven bits a byte, least significant first, high bit set on
//! every byte but the last); everything else is as in format 1.
//!
//! Format 1 layout (varint: one byte below 251, or 251/252/253 followed by a little-endian u16/
//! u32/u64; signed integers zigzag-encoded first; strings: varint length then UTF-8 bytes;
//! options: a byte 0 or 1 then the value; enums: the variant index as a varint):
//! `id, namespace, key: opt str, text: opt str, kind, metadata: varint count then (str, str)
//! pairs, created_at: i64, surfaced_at: i64, valid_until: opt i64, depth: enum (0 pinned,
//! 1 level then f64 LE, 2 void), derived_from: varint count then u64s, superseded_by: opt u64,
//! supersedes: opt u64, created_seq: u64`.
//!
//! Format 3 metadata values: a varint type tag, then 0 string (str), 1 integer (zigzag varint),
//! 2 float (f64 LE; finite), 3 bool (one byte, 0 or 1), 4 list (varint count, then per item a
//! tag 0 to 3 and its value as above).

use crate::depth::Depth;
use crate::error::{AuditError, Result};
use crate::meta_value::MetaValue;
use crate::row_digest::RowFields;
use crate::{Millis, RowId};

/// A decoded row record (its text lives in the payload table).
#[derive(Clone, Debug, PartialEq)]
pub struct RowRecord {
    /// Row id.
    pub id: RowId,
    /// Namespace.
    pub namespace: String,
    /// Natural key.
    pub key: Option<String>,
    /// Text held in the record itself (always absent in a well-formed store).
    pub text: Option<String>,
    /// Kind code: 1 source, 2 derived, 3 note.
    pub kind: u8,
    /// Metadata entries in stored order (strings in formats 1 and 2).
    pub metadata: Vec<(String, MetaValue)>,
    /// Creation time.
    pub created_at: Millis,
    /// Last surfacing time.
    pub surfaced_at: Millis,
    /// Expiry.
    pub valid_until: Option<Millis>,
    /// Depth.
    pub depth: Depth,
    /// Sources.
    pub derived_from: Vec<RowId>,
    /// Successor.
    pub superseded_by: Option<RowId>,
    /// Predecessor.
    pub supersedes: Option<RowId>,
    /// Seq of the creating event.
    pub created_seq: u64,
}

impl RowRecord {
    /// Decodes a format-1 row record; any other byte string is [`AuditError::Corrupt`].
    pub fn decode(bytes: &[u8]) -> Result<RowRecord> {
        Self::decode_format(bytes, 1)
    }

    /// Decodes a row record of store format `format` (1 to 6; formats 3 to 6 share the row
    /// record: 4 changed the vector record, 5 the natural-key tables and 6 the vector
    /// snapshot's layout); any other byte string, or another format, is
    /// [`AuditError::Corrupt`].
    pub fn decode_format(bytes: &[u8], format: u32) -> Result<RowRecord> {
        let (leb128, typed) = match format {
            1 => (false, false),
            2 => (true, false),
            // Formats 5 and 6 changed the natural-key tables and the vector snapshot only.
            3..=6 => (true, true),
            _ => return Err(bad()),
        };
        let mut r = Reader {
            b: bytes,
            pos: 0,
            leb128,
        };
        let rec = RowRecord {
            id: r.varint()?,
            namespace: r.string()?,
            key: r.option(Reader::string)?,
            text: r.option(Reader::string)?,
            kind: match r.varint()? {
                0 => 1,
                1 => 2,
                2 => 3,
                _ => return Err(bad()),
            },
            metadata: {
                let n = r.len()?;
                let mut m = Vec::with_capacity(n.min(64));
                for _ in 0..n {
                    let k = r.string()?;
                    let v = if typed {
                        r.meta_value(true)?
                    } else {
                        MetaValue::Str(r.string()?)
                    };
                    m.push((k, v));
                }
                m
            },
            created_at: r.signed()?,
            surfaced_at: r.signed()?,
            valid_until: r.option(Reader::signed)?,
            depth: match r.varint()? {
                0 => Depth::Pinned,
                1 => Depth::Level(f64::from_le_bytes(
                    r.take(8)?.try_into().map_err(|_| bad())?,
                )),
                2 => Depth::Void,
                _ => return Err(bad()),
            },
            derived_from: {
                let n = r.len()?;
                let mut v = Vec::with_capacity(n.min(1024));
                for _ in 0..n {
                    v.push(r.varint()?);
                }
                v
            },
            superseded_by: r.option(Reader::varint)?,
            supersedes: r.option(Reader::varint)?,
            created_seq: r.varint()?,
        };
        if r.pos != bytes.len() {
            return Err(bad());
        }
        Ok(rec)
    }

    /// The fields a row digest binds, with the row's text and vector.
    pub fn fields<'a>(&'a self, text: &'a str, vector: &'a [f32]) -> RowFields<'a> {
        RowFields {
            id: self.id,
            namespace: &self.namespace,
            key: self.key.as_deref(),
            text,
            kind: self.kind,
            metadata: self
                .metadata
                .iter()
                .map(|(k, v)| (k.as_str(), v.clone()))
                .collect(),
            created_at: self.created_at,
            surfaced_at: self.surfaced_at,
            valid_until: self.valid_until,
            derived_from: &self.derived_from,
            superseded_by: self.superseded_by,
            supersedes: self.supersedes,
            created_seq: self.created_seq,
            vector,
        }
    }
}

fn bad() -> AuditError {
    AuditError::Corrupt("row record".into())
}

struct Reader<'a> {
    b: &'a [u8],
    pos: usize,
    /// Varints are LEB128 (format 2, postcard), else bincode 2's (format 1).
    leb128: bool,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|&e| e <= self.b.len())
            .ok_or_else(bad)?;
        let s = &self.b[self.pos..end];
        self.pos = end;
        Ok(s)
    }
    fn varint(&mut self) -> Result<u64> {
        if self.leb128 {
            let mut v = 0u64;
            for i in 0..10 {
                let b = self.take(1)?[0];
                let bits = u64::from(b & 0x7f);
                // The tenth byte may carry only the top bit of a u64.
                if i == 9 && b > 1 {
                    return Err(bad());
                }
                v |= bits << (7 * i);
                if b & 0x80 == 0 {
                    return Ok(v);
                }
            }
            return Err(bad());
        }
        let first = self.take(1)?[0];
        Ok(match first {
            n @ 0..=250 => n as u64,
            251 => u16::from_le_bytes(self.take(2)?.try_into().map_err(|_| bad())?) as u64,
            252 => u32::from_le_bytes(self.take(4)?.try_into().map_err(|_| bad())?) as u64,
            253 => u64::from_le_bytes(self.take(8)?.try_into().map_err(|_| bad())?),
            _ => return Err(bad()),
        })
    }
    fn signed(&mut self) -> Result<i64> {
        let z = self.varint()?;
        Ok(((z >> 1) as i64) ^ -((z & 1) as i64))
    }
    fn len(&mut self) -> Result<usize> {
        let n = usize::try_from(self.varint()?).map_err(|_| bad())?;
        if n > self.b.len() - self.pos {
            return Err(bad());
        }
        Ok(n)
    }
    fn string(&mut self) -> Result<String> {
        let n = self.len()?;
        Ok(std::str::from_utf8(self.take(n)?)
            .map_err(|_| bad())?
            .to_owned())
    }
    /// A typed metadata value (format 3); a list only when `list` (its items are scalars).
    fn meta_value(&mut self, list: bool) -> Result<MetaValue> {
        Ok(match self.varint()? {
            0 => MetaValue::Str(self.string()?),
            1 => MetaValue::Int(self.signed()?),
            2 => {
                let f = f64::from_le_bytes(self.take(8)?.try_into().map_err(|_| bad())?);
                if !f.is_finite() {
                    return Err(bad());
                }
                MetaValue::Float(f)
            }
            3 => match self.take(1)?[0] {
                0 => MetaValue::Bool(false),
                1 => MetaValue::Bool(true),
                _ => return Err(bad()),
            },
            4 if list => {
                let n = self.len()?;
                let mut items = Vec::with_capacity(n.min(64));
                for _ in 0..n {
                    items.push(self.meta_value(false)?);
                }
                MetaValue::List(items)
            }
            _ => return Err(bad()),
        })
    }
    fn option<T>(&mut self, f: fn(&mut Self) -> Result<T>) -> Result<Option<T>> {
        match self.take(1)?[0] {
            0 => Ok(None),
            1 => Ok(Some(f(self)?)),
            _ => Err(bad()),
        }
    }
}
