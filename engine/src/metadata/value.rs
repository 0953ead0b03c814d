//! Metadata values: scalars and lists, their equality and order, and their JSON forms.

use std::cmp::Ordering;
use std::fmt;

use super::{MAX_LIST_ITEMS, Metadata};
use crate::error::{Error, Result};
use crate::row::MAX_FIELD_BYTES;

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

    pub(super) fn from_json(v: &serde_json::Value, what: &'static str) -> Result<Scalar> {
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

    pub(super) fn any_item(&self, f: impl Fn(&Scalar) -> bool) -> bool {
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
