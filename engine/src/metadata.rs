//! Typed row metadata, and the filters recall and list apply to it.
//!
//! A metadata value is a string, an integer (`i64`), a float (`f64`, finite only), a bool, or a
//! list of those scalars ([`MetaValue`]). A [`Filter`] is a conjunction of [`Condition`]s, each
//! naming a metadata field and an [`Op`]:
//!
//! | op                          | holds when                                                   |
//! |-----------------------------|--------------------------------------------------------------|
//! | `Eq(x)`                     | the field's value equals `x`; a list field: it contains `x`  |
//! | `Ne(x)`                     | `Eq(x)` does not hold (a missing field is not equal to `x`)  |
//! | `In(set)`                   | the value (a list: one of its items) equals a member of `set`|
//! | `Gt`, `Gte`, `Lt`, `Lte`    | the value (a list: one of its items) compares so with `x`    |
//! | `Exists`                    | the row has the field (whatever its value, an empty list too)|
//! | `Missing`                   | the row does not have the field                              |
//!
//! Equality: strings byte for byte, bools with bools, numbers numerically (`Int(1)` equals
//! `Float(1.0)`); a string never equals a number or a bool (`"3"` is not `3`). Ordering: numbers
//! numerically (integers and floats compared exactly, without rounding the integer), strings by
//! their UTF-8 bytes (lexicographic, code point order); a number never compares with a string,
//! and a bool in a range is refused ([`Filter::validate`]). As in MongoDB, each condition on a
//! list field is met by any item on its own: `tags >= "m"` and `tags < "n"` may hold through two
//! different items.
//!
//! A filter also reads as JSON, in the style of mem0 and MongoDB ([`Filter::from_json`]):
//! `{"team": "x", "priority": {"$gte": 2}, "tags": {"$in": ["a", "b"]},
//! "archived": {"$exists": false}}`.

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::row::{MAX_FIELD_BYTES, validate_field};

/// Most items a list value may hold.
pub const MAX_LIST_ITEMS: usize = 64;
/// Most conditions one filter may hold.
pub const MAX_FILTER_CONDITIONS: usize = 64;
/// Most values the set of an `In` condition may hold.
pub const MAX_IN_VALUES: usize = 1024;

/// A row's metadata: field name to typed value, in key order.
pub type Metadata = BTreeMap<String, MetaValue>;

/// One item of a list value, and the operand of a filter condition.
#[derive(Clone, Debug, PartialEq)]
pub enum Scalar {
    /// UTF-8 text.
    Str(String),
    /// A signed 64-bit integer.
    Int(i64),
    /// A finite 64-bit float.
    Float(f64),
    /// A bool (never taken as a number).
    Bool(bool),
}

/// A metadata value.
#[derive(Clone, Debug, PartialEq)]
pub enum MetaValue {
    /// UTF-8 text (at most [`MAX_FIELD_BYTES`] bytes).
    Str(String),
    /// A signed 64-bit integer.
    Int(i64),
    /// A finite 64-bit float (NaN and infinities are refused).
    Float(f64),
    /// A bool.
    Bool(bool),
    /// A list of scalars (at most [`MAX_LIST_ITEMS`]).
    List(Vec<Scalar>),
}

impl Scalar {
    /// Name of the type, for messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Scalar::Str(_) => "string",
            Scalar::Int(_) => "integer",
            Scalar::Float(_) => "float",
            Scalar::Bool(_) => "bool",
        }
    }

    /// Checks the documented limits: a string of at most [`MAX_FIELD_BYTES`], a finite float.
    pub fn validate(&self, what: &'static str) -> Result<()> {
        match self {
            Scalar::Str(s) if s.len() > MAX_FIELD_BYTES => Err(Error::InvalidField {
                what,
                reason: format!("{} bytes, over the limit of {MAX_FIELD_BYTES}", s.len()),
            }),
            Scalar::Float(f) if !f.is_finite() => Err(Error::InvalidField {
                what,
                reason: format!("{f} is not a finite number"),
            }),
            _ => Ok(()),
        }
    }

    /// Equality as filters see it: numbers numerically, otherwise same type and value.
    pub fn matches(&self, other: &Scalar) -> bool {
        match (self, other) {
            (Scalar::Str(a), Scalar::Str(b)) => a == b,
            (Scalar::Bool(a), Scalar::Bool(b)) => a == b,
            _ => self.compare(other) == Some(Ordering::Equal),
        }
    }

    /// Order as range filters see it: numbers numerically, strings by bytes; `None` across
    /// types and for bools.
    pub fn compare(&self, other: &Scalar) -> Option<Ordering> {
        match (self, other) {
            (Scalar::Str(a), Scalar::Str(b)) => Some(a.as_bytes().cmp(b.as_bytes())),
            (Scalar::Int(a), Scalar::Int(b)) => Some(a.cmp(b)),
            (Scalar::Float(a), Scalar::Float(b)) => a.partial_cmp(b),
            (Scalar::Int(a), Scalar::Float(b)) => cmp_int_float(*a, *b),
            (Scalar::Float(a), Scalar::Int(b)) => cmp_int_float(*b, *a).map(Ordering::reverse),
            _ => None,
        }
    }

    fn to_json(&self) -> serde_json::Value {
        match self {
            Scalar::Str(s) => serde_json::Value::String(s.clone()),
            Scalar::Int(i) => (*i).into(),
            Scalar::Float(f) => serde_json::Number::from_f64(*f)
                .map_or(serde_json::Value::Null, serde_json::Value::Number),
            Scalar::Bool(b) => (*b).into(),
        }
    }

    fn from_json(v: &serde_json::Value, what: &'static str) -> Result<Scalar> {
        let s = match v {
            serde_json::Value::String(s) => Scalar::Str(s.clone()),
            serde_json::Value::Bool(b) => Scalar::Bool(*b),
            serde_json::Value::Number(n) => match n.as_i64() {
                Some(i) => Scalar::Int(i),
                None if n.is_u64() => {
                    return Err(Error::InvalidField {
                        what,
                        reason: format!("{n} is over the integer limit of {}", i64::MAX),
                    });
                }
                None => Scalar::Float(n.as_f64().unwrap_or(f64::NAN)),
            },
            other => {
                return Err(Error::InvalidField {
                    what,
                    reason: format!("{other} is not a string, integer, float or bool"),
                });
            }
        };
        s.validate(what)?;
        Ok(s)
    }
}

/// Exact comparison of an integer with a finite float.
fn cmp_int_float(i: i64, f: f64) -> Option<Ordering> {
    if !f.is_finite() {
        return if f.is_nan() {
            None
        } else if f > 0.0 {
            Some(Ordering::Less)
        } else {
            Some(Ordering::Greater)
        };
    }
    // 2^63 is exactly representable; every i64 lies in [-2^63, 2^63).
    const TWO_63: f64 = 9_223_372_036_854_775_808.0;
    if f >= TWO_63 {
        return Some(Ordering::Less);
    }
    if f < -TWO_63 {
        return Some(Ordering::Greater);
    }
    let t = f.trunc();
    // In range, so the truncation converts exactly.
    let ti = t as i64;
    Some(i.cmp(&ti).then_with(|| {
        if f > t {
            Ordering::Less
        } else if f < t {
            Ordering::Greater
        } else {
            Ordering::Equal
        }
    }))
}

impl MetaValue {
    /// Name of the type, for messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            MetaValue::Str(_) => "string",
            MetaValue::Int(_) => "integer",
            MetaValue::Float(_) => "float",
            MetaValue::Bool(_) => "bool",
            MetaValue::List(_) => "list",
        }
    }

    /// The string, if this is a string value.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            MetaValue::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The scalars a filter condition looks at: the value itself, or a list's items.
    pub fn items(&self) -> Vec<Scalar> {
        match self {
            MetaValue::Str(s) => vec![Scalar::Str(s.clone())],
            MetaValue::Int(i) => vec![Scalar::Int(*i)],
            MetaValue::Float(f) => vec![Scalar::Float(*f)],
            MetaValue::Bool(b) => vec![Scalar::Bool(*b)],
            MetaValue::List(l) => l.clone(),
        }
    }

    fn any_item(&self, f: impl Fn(&Scalar) -> bool) -> bool {
        match self {
            MetaValue::List(l) => l.iter().any(f),
            MetaValue::Str(s) => f(&Scalar::Str(s.clone())),
            MetaValue::Int(i) => f(&Scalar::Int(*i)),
            MetaValue::Float(x) => f(&Scalar::Float(*x)),
            MetaValue::Bool(b) => f(&Scalar::Bool(*b)),
        }
    }

    /// The value as the independent verifier models it, for row digests
    /// ([`oubli_audit::row_digest`]).
    pub fn to_audit(&self) -> oubli_audit::MetaValue {
        use oubli_audit::MetaValue as A;
        let scalar = |s: &Scalar| match s {
            Scalar::Str(s) => A::Str(s.clone()),
            Scalar::Int(i) => A::Int(*i),
            Scalar::Float(f) => A::Float(*f),
            Scalar::Bool(b) => A::Bool(*b),
        };
        match self {
            MetaValue::Str(s) => A::Str(s.clone()),
            MetaValue::Int(i) => A::Int(*i),
            MetaValue::Float(f) => A::Float(*f),
            MetaValue::Bool(b) => A::Bool(*b),
            MetaValue::List(l) => A::List(l.iter().map(scalar).collect()),
        }
    }

    /// Checks the documented limits: strings of at most [`MAX_FIELD_BYTES`], finite floats,
    /// lists of at most [`MAX_LIST_ITEMS`].
    pub fn validate(&self) -> Result<()> {
        const WHAT: &str = "metadata value";
        match self {
            MetaValue::Str(s) => Scalar::Str(s.clone()).validate(WHAT),
            MetaValue::Float(f) => Scalar::Float(*f).validate(WHAT),
            MetaValue::Int(_) | MetaValue::Bool(_) => Ok(()),
            MetaValue::List(l) => {
                if l.len() > MAX_LIST_ITEMS {
                    return Err(Error::InvalidField {
                        what: WHAT,
                        reason: format!(
                            "a list of {} items, over the limit of {MAX_LIST_ITEMS}",
                            l.len()
                        ),
                    });
                }
                l.iter().try_for_each(|s| s.validate(WHAT))
            }
        }
    }

    /// The value as JSON: a string, number, bool or array.
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            MetaValue::Str(s) => Scalar::Str(s.clone()).to_json(),
            MetaValue::Int(i) => Scalar::Int(*i).to_json(),
            MetaValue::Float(f) => Scalar::Float(*f).to_json(),
            MetaValue::Bool(b) => Scalar::Bool(*b).to_json(),
            MetaValue::List(l) => serde_json::Value::Array(l.iter().map(Scalar::to_json).collect()),
        }
    }

    /// Reads a JSON string, integer, float, bool or array of those; anything else (null,
    /// objects, nested arrays, integers beyond `i64`) is [`Error::InvalidField`].
    pub fn from_json(v: &serde_json::Value) -> Result<MetaValue> {
        const WHAT: &str = "metadata value";
        let out = match v {
            serde_json::Value::Array(items) => MetaValue::List(
                items
                    .iter()
                    .map(|i| Scalar::from_json(i, WHAT))
                    .collect::<Result<_>>()?,
            ),
            other => Scalar::from_json(other, WHAT)?.into(),
        };
        out.validate()?;
        Ok(out)
    }
}

/// Reads a JSON object of metadata (`{"topic": "home", "priority": 3, "tags": ["a"]}`).
pub fn metadata_from_json(v: &serde_json::Value) -> Result<Metadata> {
    let serde_json::Value::Object(m) = v else {
        return Err(Error::InvalidField {
            what: "metadata",
            reason: "is not a JSON object".into(),
        });
    };
    m.iter()
        .map(|(k, v)| Ok((k.clone(), MetaValue::from_json(v)?)))
        .collect()
}

/// Metadata as a JSON object of typed values.
pub fn metadata_to_json(m: &Metadata) -> serde_json::Value {
    serde_json::Value::Object(m.iter().map(|(k, v)| (k.clone(), v.to_json())).collect())
}

impl From<Scalar> for MetaValue {
    fn from(s: Scalar) -> MetaValue {
        match s {
            Scalar::Str(s) => MetaValue::Str(s),
            Scalar::Int(i) => MetaValue::Int(i),
            Scalar::Float(f) => MetaValue::Float(f),
            Scalar::Bool(b) => MetaValue::Bool(b),
        }
    }
}

macro_rules! from_impls {
    ($($t:ty => $v:ident($conv:expr)),* $(,)?) => {$(
        impl From<$t> for Scalar {
            fn from(x: $t) -> Scalar {
                Scalar::$v($conv(x))
            }
        }
        impl From<$t> for MetaValue {
            fn from(x: $t) -> MetaValue {
                MetaValue::$v($conv(x))
            }
        }
    )*};
}

from_impls! {
    String => Str(|s| s),
    &str => Str(str::to_owned),
    &String => Str(String::clone),
    i64 => Int(|i| i),
    i32 => Int(i64::from),
    u32 => Int(i64::from),
    f64 => Float(|f| f),
    bool => Bool(|b| b),
}

impl<T: Into<Scalar>> From<Vec<T>> for MetaValue {
    fn from(v: Vec<T>) -> MetaValue {
        MetaValue::List(v.into_iter().map(Into::into).collect())
    }
}

impl PartialEq<str> for MetaValue {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == Some(other)
    }
}

impl PartialEq<&str> for MetaValue {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == Some(*other)
    }
}

impl fmt::Display for Scalar {
    /// Strings as they are; numbers and bools as in JSON.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Scalar::Str(s) => f.write_str(s),
            other => write!(f, "{}", other.to_json()),
        }
    }
}

impl fmt::Display for MetaValue {
    /// Strings as they are; numbers, bools and lists as in JSON.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MetaValue::Str(s) => f.write_str(s),
            other => write!(f, "{}", other.to_json()),
        }
    }
}

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

/// What a [`Condition`] asks of its field.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Op {
    /// The value equals the operand (a list: contains it).
    Eq(Scalar),
    /// The value does not equal the operand (a list: does not contain it); a missing field
    /// meets it.
    Ne(Scalar),
    /// The value (a list: one of its items) equals one of these.
    In(Vec<Scalar>),
    /// The value (a list: one of its items) is greater than the operand.
    Gt(Scalar),
    /// Greater than or equal.
    Gte(Scalar),
    /// Less than.
    Lt(Scalar),
    /// Less than or equal.
    Lte(Scalar),
    /// The field is present.
    Exists,
    /// The field is absent.
    Missing,
}

/// One condition on one metadata field.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Condition {
    /// The metadata field.
    pub field: String,
    /// What it must satisfy.
    pub op: Op,
}

impl Condition {
    /// A condition on `field`.
    pub fn new(field: impl Into<String>, op: Op) -> Condition {
        Condition {
            field: field.into(),
            op,
        }
    }

    /// True if `metadata` meets the condition.
    pub fn holds(&self, metadata: &Metadata) -> bool {
        let v = metadata.get(&self.field);
        let range = |x: &Scalar, ok: fn(Ordering) -> bool| {
            v.is_some_and(|v| v.any_item(|i| i.compare(x).is_some_and(ok)))
        };
        match &self.op {
            Op::Eq(x) => v.is_some_and(|v| v.any_item(|i| i.matches(x))),
            Op::Ne(x) => !v.is_some_and(|v| v.any_item(|i| i.matches(x))),
            Op::In(set) => v.is_some_and(|v| v.any_item(|i| set.iter().any(|x| i.matches(x)))),
            Op::Gt(x) => range(x, Ordering::is_gt),
            Op::Gte(x) => range(x, Ordering::is_ge),
            Op::Lt(x) => range(x, Ordering::is_lt),
            Op::Lte(x) => range(x, Ordering::is_le),
            Op::Exists => v.is_some(),
            Op::Missing => v.is_none(),
        }
    }

    /// Checks the field name and operands: string operands of at most [`MAX_FIELD_BYTES`],
    /// finite floats, at most [`MAX_IN_VALUES`] values in a set, no bool in a range.
    pub fn validate(&self) -> Result<()> {
        validate_field("filter field", &self.field)?;
        const WHAT: &str = "filter value";
        match &self.op {
            Op::Eq(x) | Op::Ne(x) => x.validate(WHAT),
            Op::In(set) => {
                if set.len() > MAX_IN_VALUES {
                    return Err(Error::InvalidArgument(format!(
                        "filter on {:?}: {} values in a set, over the limit of {MAX_IN_VALUES}",
                        self.field,
                        set.len()
                    )));
                }
                set.iter().try_for_each(|x| x.validate(WHAT))
            }
            Op::Gt(x) | Op::Gte(x) | Op::Lt(x) | Op::Lte(x) => {
                if matches!(x, Scalar::Bool(_)) {
                    return Err(Error::InvalidArgument(format!(
                        "filter on {:?}: a range needs a number or a string, not a bool",
                        self.field
                    )));
                }
                x.validate(WHAT)
            }
            Op::Exists | Op::Missing => Ok(()),
        }
    }
}

/// A conjunction of conditions: a row passes when every condition holds. The empty filter
/// passes every row.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Filter {
    /// The conditions, all of which must hold.
    pub conditions: Vec<Condition>,
}

impl Filter {
    /// The empty filter.
    pub fn new() -> Filter {
        Filter::default()
    }

    /// Adds a condition.
    pub fn and(mut self, c: Condition) -> Filter {
        self.conditions.push(c);
        self
    }

    /// Adds `field == value`.
    pub fn eq(self, field: impl Into<String>, value: impl Into<Scalar>) -> Filter {
        self.and(Condition::new(field, Op::Eq(value.into())))
    }

    /// True when the filter has no condition.
    pub fn is_empty(&self) -> bool {
        self.conditions.is_empty()
    }

    /// True if every condition holds on `metadata`.
    pub fn matches(&self, metadata: &Metadata) -> bool {
        self.conditions.iter().all(|c| c.holds(metadata))
    }

    /// Checks every condition ([`Condition::validate`]) and the count (at most
    /// [`MAX_FILTER_CONDITIONS`]).
    pub fn validate(&self) -> Result<()> {
        if self.conditions.len() > MAX_FILTER_CONDITIONS {
            return Err(Error::InvalidArgument(format!(
                "{} filter conditions, over the limit of {MAX_FILTER_CONDITIONS}",
                self.conditions.len()
            )));
        }
        self.conditions.iter().try_for_each(Condition::validate)
    }

    /// Reads a filter written as a JSON object, one entry per field:
    ///
    /// - a scalar `"team": "x"` is `Eq`;
    /// - an object of operators: `{"$eq": x}`, `{"$ne": x}`, `{"$in": [x, y]}`, `{"$gt": x}`,
    ///   `{"$gte": x}`, `{"$lt": x}`, `{"$lte": x}`, `{"$exists": true | false}`; several
    ///   operators in one object all apply (`{"$gte": 2, "$lt": 5}`).
    ///
    /// The result is validated; anything else is [`Error::InvalidArgument`].
    pub fn from_json(v: &serde_json::Value) -> Result<Filter> {
        let bad = |m: String| Error::InvalidArgument(m);
        let serde_json::Value::Object(fields) = v else {
            return Err(bad(format!("a filter is a JSON object, not {v}")));
        };
        let scalar = |field: &str, x: &serde_json::Value| {
            Scalar::from_json(x, "filter value")
                .map_err(|e| bad(format!("filter on {field:?}: {e}")))
        };
        let mut f = Filter::new();
        for (field, spec) in fields {
            match spec {
                serde_json::Value::Object(ops) => {
                    if ops.is_empty() {
                        return Err(bad(format!("filter on {field:?}: no operator")));
                    }
                    for (op, x) in ops {
                        let op = match op.as_str() {
                            "$eq" => Op::Eq(scalar(field, x)?),
                            "$ne" => Op::Ne(scalar(field, x)?),
                            "$gt" => Op::Gt(scalar(field, x)?),
                            "$gte" => Op::Gte(scalar(field, x)?),
                            "$lt" => Op::Lt(scalar(field, x)?),
                            "$lte" => Op::Lte(scalar(field, x)?),
                            "$in" => match x {
                                serde_json::Value::Array(items) => Op::In(
                                    items
                                        .iter()
                                        .map(|i| scalar(field, i))
                                        .collect::<Result<_>>()?,
                                ),
                                _ => {
                                    return Err(bad(format!(
                                        "filter on {field:?}: $in needs an array"
                                    )));
                                }
                            },
                            "$exists" => match x {
                                serde_json::Value::Bool(true) => Op::Exists,
                                serde_json::Value::Bool(false) => Op::Missing,
                                _ => {
                                    return Err(bad(format!(
                                        "filter on {field:?}: $exists needs true or false"
                                    )));
                                }
                            },
                            other => {
                                return Err(bad(format!(
                                    "filter on {field:?}: unknown operator {other:?} (expected \
                                     $eq, $ne, $in, $gt, $gte, $lt, $lte or $exists)"
                                )));
                            }
                        };
                        f.conditions.push(Condition::new(field.clone(), op));
                    }
                }
                other => f
                    .conditions
                    .push(Condition::new(field.clone(), Op::Eq(scalar(field, other)?))),
            }
        }
        f.validate()?;
        Ok(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn meta(pairs: &[(&str, MetaValue)]) -> Metadata {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.clone()))
            .collect()
    }

    fn holds(op: Op, v: Option<MetaValue>) -> bool {
        let m = match v {
            Some(v) => meta(&[("f", v)]),
            None => Metadata::new(),
        };
        Condition::new("f", op).holds(&m)
    }

    #[test]
    fn equality_is_typed_and_numbers_compare_numerically() {
        assert!(holds(Op::Eq("a".into()), Some("a".into())));
        assert!(!holds(Op::Eq("3".into()), Some(3.into())));
        assert!(!holds(Op::Eq(Scalar::Int(1)), Some(true.into())));
        assert!(!holds(Op::Eq(Scalar::Bool(true)), Some(1.into())));
        assert!(holds(Op::Eq(Scalar::Float(1.0)), Some(1.into())));
        assert!(holds(Op::Eq(Scalar::Int(1)), Some(1.0.into())));
        assert!(!holds(Op::Eq(Scalar::Float(1.5)), Some(1.into())));
        assert!(!holds(Op::Eq("a".into()), None));
        assert!(holds(Op::Ne("a".into()), None));
        assert!(holds(Op::Ne("a".into()), Some("b".into())));
    }

    #[test]
    fn lists_match_by_membership() {
        let tags = || Some(MetaValue::from(vec!["a", "b"]));
        assert!(holds(Op::Eq("a".into()), tags()));
        assert!(!holds(Op::Eq("c".into()), tags()));
        assert!(!holds(Op::Ne("a".into()), tags()));
        assert!(holds(Op::Ne("c".into()), tags()));
        assert!(holds(Op::In(vec!["x".into(), "b".into()]), tags()));
        assert!(!holds(Op::In(vec![]), tags()));
        assert!(holds(Op::Gte("b".into()), tags()));
        assert!(!holds(Op::Gt("b".into()), tags()));
        let empty = || Some(MetaValue::List(vec![]));
        assert!(holds(Op::Exists, empty()));
        assert!(!holds(Op::Eq("a".into()), empty()));
        assert!(holds(Op::Missing, None));
        assert!(!holds(Op::Missing, empty()));
    }

    #[test]
    fn ranges_order_numbers_and_strings_but_never_across() {
        assert!(holds(Op::Gte(Scalar::Int(2)), Some(2.5.into())));
        assert!(holds(Op::Lt(Scalar::Float(2.5)), Some(2.into())));
        assert!(holds(Op::Lt("b".into()), Some("abc".into())));
        assert!(holds(Op::Gt("Z".into()), Some("a".into())), "byte order");
        assert!(!holds(Op::Gt(Scalar::Int(0)), Some("5".into())));
        assert!(!holds(Op::Lt("9".into()), Some(5.into())));
        assert!(!holds(Op::Gt(Scalar::Int(0)), None));
        // Exact at the edges of f64 precision: 2^53 + 1 is above the float 2^53.
        let big = (1i64 << 53) + 1;
        assert!(holds(
            Op::Gt(Scalar::Float((1u64 << 53) as f64)),
            Some(big.into())
        ));
        assert!(holds(Op::Lt(Scalar::Float(9.3e18)), Some(i64::MAX.into())));
        assert!(holds(Op::Gt(Scalar::Float(-9.3e18)), Some(i64::MIN.into())));
        assert!(!holds(
            Op::Gte(Scalar::Float(9.3e18)),
            Some(i64::MAX.into())
        ));
        assert!(holds(Op::Lt(Scalar::Float(1e300)), Some(i64::MAX.into())));
    }

    #[test]
    fn validation_refuses_what_cannot_be_stored_or_compared() {
        assert!(MetaValue::Float(f64::NAN).validate().is_err());
        assert!(MetaValue::Float(f64::INFINITY).validate().is_err());
        assert!(MetaValue::from("x".repeat(513)).validate().is_err());
        assert!(
            MetaValue::List(vec![Scalar::Int(1); MAX_LIST_ITEMS + 1])
                .validate()
                .is_err()
        );
        assert!(
            MetaValue::List(vec![Scalar::Int(1); MAX_LIST_ITEMS])
                .validate()
                .is_ok()
        );
        assert!(
            MetaValue::List(vec![Scalar::Float(f64::NAN)])
                .validate()
                .is_err()
        );
        let c = |op| Filter::new().and(Condition::new("f", op)).validate();
        assert!(matches!(
            c(Op::Gt(Scalar::Bool(true))),
            Err(Error::InvalidArgument(_))
        ));
        assert!(c(Op::Eq(Scalar::Float(f64::NAN))).is_err());
        assert!(c(Op::In(vec![Scalar::Int(0); MAX_IN_VALUES + 1])).is_err());
        assert!(Filter::new().eq("", "x").validate().is_err());
        let many = Filter {
            conditions: vec![Condition::new("f", Op::Exists); MAX_FILTER_CONDITIONS + 1],
        };
        assert!(many.validate().is_err());
    }

    #[test]
    fn json_filters_read_every_operator() {
        let f = Filter::from_json(&serde_json::json!({
            "team": "x",
            "priority": {"$gte": 2, "$lt": 5},
            "tags": {"$in": ["a", 1]},
            "archived": {"$exists": false},
            "done": {"$ne": true},
        }))
        .unwrap();
        assert_eq!(f.conditions.len(), 6);
        let m = meta(&[
            ("team", "x".into()),
            ("priority", 3.into()),
            ("tags", vec![Scalar::Int(1)].into()),
        ]);
        assert!(f.matches(&m));
        for bad in [
            serde_json::json!([1]),
            serde_json::json!({"x": {"$near": 1}}),
            serde_json::json!({"x": {}}),
            serde_json::json!({"x": {"$in": 1}}),
            serde_json::json!({"x": {"$exists": 1}}),
            serde_json::json!({"x": null}),
            serde_json::json!({"x": [1, 2]}),
            serde_json::json!({"x": {"$gt": true}}),
            serde_json::json!({"x": 18446744073709551615u64}),
        ] {
            assert!(
                matches!(Filter::from_json(&bad), Err(Error::InvalidArgument(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn json_shows_plain_values_and_postcard_tags_them() {
        let m = meta(&[
            ("a", "x".into()),
            ("b", 3.into()),
            ("c", 0.5.into()),
            ("d", true.into()),
            ("e", vec![Scalar::Str("y".into()), Scalar::Int(2)].into()),
        ]);
        let json = serde_json::to_value(&m).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"a": "x", "b": 3, "c": 0.5, "d": true, "e": ["y", 2]})
        );
        assert_eq!(serde_json::from_value::<Metadata>(json.clone()).unwrap(), m);
        assert_eq!(metadata_from_json(&json).unwrap(), m);
        assert_eq!(metadata_to_json(&m), json);
        let bytes = postcard::to_allocvec(&m).unwrap();
        assert_eq!(postcard::from_bytes::<Metadata>(&bytes).unwrap(), m);
        // An integer and a float of the same value stay apart.
        assert_ne!(
            postcard::to_allocvec(&MetaValue::Int(1)).unwrap(),
            postcard::to_allocvec(&MetaValue::Float(1.0)).unwrap()
        );
        for bad in [
            serde_json::json!([[1]]),
            serde_json::json!(null),
            serde_json::json!({"a": 1}),
        ] {
            assert!(
                serde_json::from_value::<MetaValue>(bad.clone()).is_err(),
                "{bad}"
            );
            assert!(MetaValue::from_json(&bad).is_err(), "{bad}");
        }
    }

    fn scalar() -> impl Strategy<Value = Scalar> {
        prop_oneof![
            "[a-c]{0,2}".prop_map(Scalar::Str),
            (-3i64..3).prop_map(Scalar::Int),
            (-3i64..3).prop_map(|i| Scalar::Float(i as f64 / 2.0)),
            any::<bool>().prop_map(Scalar::Bool),
        ]
    }

    fn value() -> impl Strategy<Value = MetaValue> {
        prop_oneof![
            3 => scalar().prop_map(MetaValue::from),
            1 => proptest::collection::vec(scalar(), 0..4).prop_map(MetaValue::List),
        ]
    }

    proptest! {
        #[test]
        fn operators_agree_with_their_definitions(
            v in proptest::option::of(value()),
            x in scalar(),
            set in proptest::collection::vec(scalar(), 0..4),
        ) {
            let items = v.as_ref().map(MetaValue::items).unwrap_or_default();
            let eq = holds(Op::Eq(x.clone()), v.clone());
            prop_assert_eq!(eq, items.iter().any(|i| i.matches(&x)));
            prop_assert_eq!(holds(Op::Ne(x.clone()), v.clone()), !eq);
            prop_assert_eq!(
                holds(Op::In(set.clone()), v.clone()),
                set.iter().any(|s| holds(Op::Eq(s.clone()), v.clone()))
            );
            prop_assert_eq!(holds(Op::Exists, v.clone()), v.is_some());
            prop_assert_eq!(holds(Op::Missing, v.clone()), v.is_none());
            if !matches!(x, Scalar::Bool(_)) {
                let ge = holds(Op::Gte(x.clone()), v.clone());
                let gt = holds(Op::Gt(x.clone()), v.clone());
                let le = holds(Op::Lte(x.clone()), v.clone());
                let lt = holds(Op::Lt(x.clone()), v.clone());
                // On one scalar, >= is > or ==, and exactly one of <, ==, > holds when the
                // types compare at all.
                if let Some(MetaValue::List(_)) = v {
                } else if let Some(i) = items.first() {
                    match i.compare(&x) {
                        Some(o) => {
                            prop_assert_eq!(ge, o.is_ge());
                            prop_assert_eq!(gt, o.is_gt());
                            prop_assert_eq!(le, o.is_le());
                            prop_assert_eq!(lt, o.is_lt());
                            prop_assert_eq!(ge && le, eq);
                        }
                        None => prop_assert!(!(ge || gt || le || lt)),
                    }
                }
            }
        }

        #[test]
        fn int_float_order_matches_exact_arithmetic(i in any::<i64>(), f in any::<f64>()) {
            prop_assume!(f.is_finite());
            // Exact: compare i and f as rationals through i128 when f is integral, else
            // through the floor.
            let expected = if f >= 9.3e18 {
                Ordering::Less
            } else if f <= -9.3e18 {
                Ordering::Greater
            } else {
                let fl = f.floor();
                let fi = fl as i128;
                match (i as i128).cmp(&fi) {
                    Ordering::Equal if f > fl => Ordering::Less,
                    o => o,
                }
            };
            prop_assert_eq!(Scalar::Int(i).compare(&Scalar::Float(f)), Some(expected));
            prop_assert_eq!(Scalar::Float(f).compare(&Scalar::Int(i)), Some(expected.reverse()));
        }
    }
}
