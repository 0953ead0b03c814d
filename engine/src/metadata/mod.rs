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
//!
//! The module is split by concept: `value` holds the value types and their comparisons,
//! `wire` their serde encodings (plain JSON values for people, tagged records for the file),
//! and `filter` the filters.

use std::collections::BTreeMap;

mod filter;
#[cfg(test)]
mod tests;
mod value;
mod wire;

pub use filter::{Condition, Filter, Op};
pub use value::{MetaValue, Scalar, metadata_from_json, metadata_to_json};

/// Most items a list value may hold.
pub const MAX_LIST_ITEMS: usize = 64;
/// Most conditions one filter may hold.
pub const MAX_FILTER_CONDITIONS: usize = 64;
/// Most values the set of an `In` condition may hold.
pub const MAX_IN_VALUES: usize = 1024;

/// A row's metadata: field name to typed value, in key order.
pub type Metadata = BTreeMap<String, MetaValue>;
