//! The serde encodings of metadata values.

use std::fmt;

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

use super::{MAX_LIST_ITEMS, MetaValue, Scalar};

// Serde: human-readable formats (JSON) see plain values (`"a"`, `3`, `2.5`, `true`,
// `["a", 1]`); binary formats (postcard, the store's records) see a tagged enum, variant
// index first: 0 string, 1 integer, 2 float, 3 bool, 4 list (whose items are tagged 0 to 3).

#[derive(Serialize)]
enum WireRef<'a> {
    Str(&'a str),
    Int(i64),
    Float(f64),
    Bool(bool),
    List(&'a [Scalar]),
}

#[derive(Serialize)]
enum ScalarWireRef<'a> {
    Str(&'a str),
    Int(i64),
    Float(f64),
    Bool(bool),
}

#[derive(Deserialize)]
enum Wire {
    Str(String),
    Int(i64),
    Float(f64),
    Bool(bool),
    List(Vec<Scalar>),
}

#[derive(Deserialize)]
enum ScalarWire {
    Str(String),
    Int(i64),
    Float(f64),
    Bool(bool),
}

impl Serialize for Scalar {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            return match self {
                Scalar::Str(v) => s.serialize_str(v),
                Scalar::Int(v) => s.serialize_i64(*v),
                Scalar::Float(v) => s.serialize_f64(*v),
                Scalar::Bool(v) => s.serialize_bool(*v),
            };
        }
        match self {
            Scalar::Str(v) => ScalarWireRef::Str(v),
            Scalar::Int(v) => ScalarWireRef::Int(*v),
            Scalar::Float(v) => ScalarWireRef::Float(*v),
            Scalar::Bool(v) => ScalarWireRef::Bool(*v),
        }
        .serialize(s)
    }
}

impl Serialize for MetaValue {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            return match self {
                MetaValue::Str(v) => s.serialize_str(v),
                MetaValue::Int(v) => s.serialize_i64(*v),
                MetaValue::Float(v) => s.serialize_f64(*v),
                MetaValue::Bool(v) => s.serialize_bool(*v),
                MetaValue::List(v) => v.serialize(s),
            };
        }
        match self {
            MetaValue::Str(v) => WireRef::Str(v),
            MetaValue::Int(v) => WireRef::Int(*v),
            MetaValue::Float(v) => WireRef::Float(*v),
            MetaValue::Bool(v) => WireRef::Bool(*v),
            MetaValue::List(v) => WireRef::List(v),
        }
        .serialize(s)
    }
}

fn finite<E: de::Error>(f: f64) -> std::result::Result<f64, E> {
    if f.is_finite() {
        Ok(f)
    } else {
        Err(E::custom("a metadata float must be finite"))
    }
}

/// Visitor of plain (human-readable) values; `list` says whether an array is allowed.
struct PlainVisitor {
    list: bool,
}

impl<'de> Visitor<'de> for PlainVisitor {
    type Value = MetaValue;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.list {
            f.write_str("a string, integer, float, bool or list of those")
        } else {
            f.write_str("a string, integer, float or bool")
        }
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> std::result::Result<MetaValue, E> {
        Ok(MetaValue::Bool(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> std::result::Result<MetaValue, E> {
        Ok(MetaValue::Int(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> std::result::Result<MetaValue, E> {
        i64::try_from(v)
            .map(MetaValue::Int)
            .map_err(|_| E::custom(format!("{v} is over the integer limit of {}", i64::MAX)))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> std::result::Result<MetaValue, E> {
        finite(v).map(MetaValue::Float)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<MetaValue, E> {
        Ok(MetaValue::Str(v.to_owned()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> std::result::Result<MetaValue, E> {
        Ok(MetaValue::Str(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<MetaValue, A::Error> {
        if !self.list {
            return Err(de::Error::custom("a list may hold only scalars"));
        }
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Scalar>()? {
            if items.len() == MAX_LIST_ITEMS {
                return Err(de::Error::custom(format!(
                    "a list holds at most {MAX_LIST_ITEMS} items"
                )));
            }
            items.push(item);
        }
        Ok(MetaValue::List(items))
    }
}

impl<'de> Deserialize<'de> for Scalar {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Scalar, D::Error> {
        if d.is_human_readable() {
            return match d.deserialize_any(PlainVisitor { list: false })? {
                MetaValue::Str(v) => Ok(Scalar::Str(v)),
                MetaValue::Int(v) => Ok(Scalar::Int(v)),
                MetaValue::Float(v) => Ok(Scalar::Float(v)),
                MetaValue::Bool(v) => Ok(Scalar::Bool(v)),
                MetaValue::List(_) => Err(de::Error::custom("a list may hold only scalars")),
            };
        }
        Ok(match ScalarWire::deserialize(d)? {
            ScalarWire::Str(v) => Scalar::Str(v),
            ScalarWire::Int(v) => Scalar::Int(v),
            ScalarWire::Float(v) => Scalar::Float(finite(v)?),
            ScalarWire::Bool(v) => Scalar::Bool(v),
        })
    }
}

impl<'de> Deserialize<'de> for MetaValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<MetaValue, D::Error> {
        if d.is_human_readable() {
            return d.deserialize_any(PlainVisitor { list: true });
        }
        Ok(match Wire::deserialize(d)? {
            Wire::Str(v) => MetaValue::Str(v),
            Wire::Int(v) => MetaValue::Int(v),
            Wire::Float(v) => MetaValue::Float(finite(v)?),
            Wire::Bool(v) => MetaValue::Bool(v),
            Wire::List(v) => MetaValue::List(v),
        })
    }
}
