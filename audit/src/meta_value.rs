//! Typed metadata values, as the row records of store format 3 hold them and row digests bind
//! them ([`crate::row_digest`]).

/// A metadata value: a string, integer, finite float, bool, or a list of those scalars.
#[derive(Clone, Debug, PartialEq)]
pub enum MetaValue {
    /// UTF-8 text.
    Str(String),
    /// A signed 64-bit integer.
    Int(i64),
    /// A finite 64-bit float.
    Float(f64),
    /// A bool.
    Bool(bool),
    /// A list of scalars (never of lists).
    List(Vec<MetaValue>),
}

impl MetaValue {
    /// Digest tag of the value's type: 0 string, 1 integer, 2 float, 3 bool, 4 list.
    pub fn tag(&self) -> u8 {
        match self {
            MetaValue::Str(_) => 0,
            MetaValue::Int(_) => 1,
            MetaValue::Float(_) => 2,
            MetaValue::Bool(_) => 3,
            MetaValue::List(_) => 4,
        }
    }

    /// The typed digest encoding of the value ([`crate::row_digest`], version 2): the tag, then
    /// a string's UTF-8 bytes, an integer's i64 LE, a float's f64 bits LE, a bool's byte (0 or
    /// 1), or a list's u32 LE item count followed by each item as its tag and payload, a string
    /// item's payload being its u32 LE byte length and bytes.
    pub fn typed_bytes(&self) -> Vec<u8> {
        let mut out = vec![self.tag()];
        match self {
            MetaValue::Str(s) => out.extend_from_slice(s.as_bytes()),
            MetaValue::List(items) => {
                out.extend_from_slice(&(items.len() as u32).to_le_bytes());
                for i in items {
                    out.push(i.tag());
                    match i {
                        MetaValue::Str(s) => {
                            out.extend_from_slice(&(s.len() as u32).to_le_bytes());
                            out.extend_from_slice(s.as_bytes());
                        }
                        other => other.scalar_payload(&mut out),
                    }
                }
            }
            other => other.scalar_payload(&mut out),
        }
        out
    }

    fn scalar_payload(&self, out: &mut Vec<u8>) {
        match self {
            MetaValue::Int(i) => out.extend_from_slice(&i.to_le_bytes()),
            MetaValue::Float(f) => out.extend_from_slice(&f.to_bits().to_le_bytes()),
            MetaValue::Bool(b) => out.push(u8::from(*b)),
            // Strings and lists are written by `typed_bytes` itself.
            MetaValue::Str(_) | MetaValue::List(_) => {}
        }
    }
}
