//! Filters over metadata: conditions, their validation and their JSON form.

use std::cmp::Ordering;

use serde::{Deserialize, Serialize};

use super::{MAX_FILTER_CONDITIONS, MAX_IN_VALUES, Metadata, Scalar};
use crate::error::{Error, Result};
use crate::row::validate_field;

/// What a [`Condition`] asks of its field.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]

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

    /// Checks the field name and operands: string operands of at most [`MAX_FIELD_BYTES`](crate::row::MAX_FIELD_BYTES),
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
