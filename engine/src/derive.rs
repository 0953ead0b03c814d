//! Provenance and derivations: what a derived row or a note was built from, and how a derived
//! value is recomputed without a model.
//!
//! A [`Provenance`] lists the exact source versions a row was built from (id, the log sequence
//! number that created the source, and the source's salted content commitment), and optionally a
//! registered [`Derivation`]: a pure function of the sources' metadata. Arithmetic is exact
//! ([`Decimal`], no floats), so a recomputed value is byte-identical everywhere.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::{Error, Result};
use crate::log::Hash32;
use crate::metadata::{MetaValue, Metadata};
use crate::row::{RowId, validate_field};

/// Most fractional digits a [`Decimal`] may carry.
pub const MAX_SCALE: u32 = 18;
/// Most factors one [`Derivation::SumOfProducts`] may multiply.
pub const MAX_FACTORS: usize = 8;

/// An exact decimal number: `units / 10^scale`, kept normalized (no trailing fractional zeros),
/// so equal values have equal representations and equal text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Decimal {
    units: i128,
    scale: u32,
}

impl Decimal {
    /// Zero.
    pub const ZERO: Decimal = Decimal { units: 0, scale: 0 };

    /// An integer.
    pub fn from_int(v: i64) -> Decimal {
        Decimal {
            units: v as i128,
            scale: 0,
        }
    }

    /// Reads a metadata value: a string as [`Decimal::parse`], an integer exactly, a float
    /// through its shortest decimal form (`0.1` is `0.1`); a bool or a list is refused.
    pub fn from_meta(v: &MetaValue) -> Result<Decimal> {
        match v {
            MetaValue::Str(s) => Decimal::parse(s),
            MetaValue::Int(i) => Ok(Decimal::from_int(*i)),
            MetaValue::Float(f) => Decimal::parse(&format!("{f}")),
            other => Err(Error::Derivation(format!(
                "a {} is not a decimal number",
                other.type_name()
            ))),
        }
    }

    /// Parses `-?digits(.digits)?` (at most [`MAX_SCALE`] fractional digits, 30 digits in all).
    /// No exponent, no sign but `-`, no separators.
    pub fn parse(s: &str) -> Result<Decimal> {
        let bad = |why: &str| Error::Derivation(format!("{s:?} is not a decimal number: {why}"));
        let (neg, body) = match s.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, s),
        };
        let (int, frac) = match body.split_once('.') {
            Some((i, f)) => (i, f),
            None => (body, ""),
        };
        if int.is_empty() || !int.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad("needs digits before any point"));
        }
        if body.contains('.') && frac.is_empty() {
            return Err(bad("needs digits after the point"));
        }
        if !frac.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad("unexpected character"));
        }
        if frac.len() > MAX_SCALE as usize {
            return Err(bad("too many fractional digits"));
        }
        if int.len() + frac.len() > 30 {
            return Err(bad("too many digits"));
        }
        let mut units: i128 = 0;
        for b in int.bytes().chain(frac.bytes()) {
            units = units * 10 + i128::from(b - b'0');
        }
        if neg {
            units = -units;
        }
        Ok(Decimal {
            units,
            scale: frac.len() as u32,
        }
        .normalized())
    }

    fn normalized(mut self) -> Decimal {
        while self.scale > 0 && self.units % 10 == 0 {
            self.units /= 10;
            self.scale -= 1;
        }
        if self.units == 0 {
            self.scale = 0;
        }
        self
    }

    fn overflow() -> Error {
        Error::Derivation("decimal overflow".into())
    }

    /// Exact product; an error on overflow or when the scale would pass [`MAX_SCALE`] * 2.
    pub fn checked_mul(self, o: Decimal) -> Result<Decimal> {
        let units = self.units.checked_mul(o.units).ok_or_else(Self::overflow)?;
        let scale = self.scale + o.scale;
        let d = Decimal { units, scale }.normalized();
        if d.scale > 2 * MAX_SCALE {
            return Err(Self::overflow());
        }
        Ok(d)
    }

    /// Exact sum; an error on overflow.
    pub fn checked_add(self, o: Decimal) -> Result<Decimal> {
        let scale = self.scale.max(o.scale);
        let lift = |d: Decimal| -> Result<i128> {
            10i128
                .checked_pow(scale - d.scale)
                .and_then(|f| d.units.checked_mul(f))
                .ok_or_else(Self::overflow)
        };
        let units = lift(self)?
            .checked_add(lift(o)?)
            .ok_or_else(Self::overflow)?;
        Ok(Decimal { units, scale }.normalized())
    }
}

impl fmt::Display for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let neg = self.units < 0;
        let digits = self.units.unsigned_abs().to_string();
        let scale = self.scale as usize;
        let (int, frac) = if digits.len() > scale {
            let (i, fr) = digits.split_at(digits.len() - scale);
            (i.to_owned(), fr.to_owned())
        } else {
            ("0".to_owned(), format!("{digits:0>scale$}"))
        };
        if neg {
            f.write_str("-")?;
        }
        f.write_str(&int)?;
        if !frac.is_empty() {
            write!(f, ".{frac}")?;
        }
        Ok(())
    }
}

impl Serialize for Decimal {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for Decimal {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Decimal, D::Error> {
        let s = String::deserialize(d)?;
        Decimal::parse(&s).map_err(serde::de::Error::custom)
    }
}

/// A pure, registered way to recompute a derived value from its sources' metadata.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Derivation {
    /// The sum over the sources of the product of these metadata fields, each parsed as a
    /// [`Decimal`] (for a ledger: `["price", "qty"]`). One factor gives a plain sum.
    SumOfProducts {
        /// Metadata field names, multiplied together per source.
        factors: Vec<String>,
    },
}

impl Derivation {
    /// `sum(f1*f2*...)` over the sources.
    pub fn sum_of_products<S: Into<String>>(factors: impl IntoIterator<Item = S>) -> Derivation {
        Derivation::SumOfProducts {
            factors: factors.into_iter().map(Into::into).collect(),
        }
    }

    /// Checks the derivation's own fields.
    pub fn validate(&self) -> Result<()> {
        match self {
            Derivation::SumOfProducts { factors } => {
                if factors.is_empty() || factors.len() > MAX_FACTORS {
                    return Err(Error::Derivation(format!(
                        "sum_of_products needs 1 to {MAX_FACTORS} factors"
                    )));
                }
                for f in factors {
                    validate_field("factor", f)?;
                }
                Ok(())
            }
        }
    }

    /// Short human description, e.g. `sum(price*qty)`.
    pub fn describe(&self) -> String {
        match self {
            Derivation::SumOfProducts { factors } => format!("sum({})", factors.join("*")),
        }
    }

    /// Evaluates the derivation over the sources' metadata, in the given order.
    pub fn evaluate<'a>(
        &self,
        sources: impl IntoIterator<Item = (RowId, &'a Metadata)>,
    ) -> Result<Decimal> {
        match self {
            Derivation::SumOfProducts { factors } => {
                let mut total = Decimal::ZERO;
                for (id, meta) in sources {
                    let mut product = Decimal::from_int(1);
                    for f in factors {
                        let v = meta.get(f).ok_or_else(|| {
                            Error::Derivation(format!("source #{id} has no metadata field {f:?}"))
                        })?;
                        let d = Decimal::from_meta(v).map_err(|e| {
                            Error::Derivation(format!("source #{id}, field {f:?}: {e}"))
                        })?;
                        product = product.checked_mul(d)?;
                    }
                    total = total.checked_add(product)?;
                }
                Ok(total)
            }
        }
    }
}

/// One source version a row was built from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceRef {
    /// The source row.
    pub id: RowId,
    /// The source's version: the log sequence number of the event that created it.
    pub version: u64,
    /// The source's salted content commitment (as in its inscribe event).
    pub commitment: Hash32,
}

/// What a derived row or a note was built from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Provenance {
    /// The exact source versions, in the order the row named them.
    pub sources: Vec<SourceRef>,
    /// The registered derivation, if the value can be recomputed without a model.
    pub derivation: Option<Derivation>,
    /// The value the row states (for a registered derivation).
    pub claimed: Option<Decimal>,
    /// The row's text with `{value}` where the value goes, for [`crate::Store::recompute`].
    pub template: Option<String>,
}

/// Metadata field where a derived row with a registered derivation states its value.
pub const VALUE_FIELD: &str = "value";

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use proptest::prelude::*;

    #[test]
    fn parses_and_prints_canonically() {
        for (s, out) in [
            ("4.25", "4.25"),
            ("4.50", "4.5"),
            ("007", "7"),
            ("-0.0", "0"),
            ("0.05", "0.05"),
            ("-12.340", "-12.34"),
        ] {
            assert_eq!(Decimal::parse(s).unwrap().to_string(), out);
        }
        for s in ["", ".5", "5.", "1e3", "+1", "1,5", "--1", "1.2.3"] {
            assert!(Decimal::parse(s).is_err(), "{s:?} parsed");
        }
    }

    #[test]
    fn sum_of_products_is_exact() {
        let m = |p: MetaValue, q: MetaValue| {
            BTreeMap::from([("price".to_owned(), p), ("qty".to_owned(), q)])
        };
        // Strings, integers and floats all read exactly.
        let rows = [
            m("0.10".into(), "3".into()),
            m(0.2.into(), 3.into()),
            m("4.25".into(), 7.into()),
        ];
        let d = Derivation::sum_of_products(["price", "qty"]);
        let v = d
            .evaluate(rows.iter().enumerate().map(|(i, r)| (i as u64, r)))
            .unwrap();
        assert_eq!(v.to_string(), "30.65");
        assert!(d.evaluate([(9, &BTreeMap::new())]).is_err());
        assert!(d.evaluate([(9, &m(true.into(), 1.into()))]).is_err());
    }

    proptest! {
        #[test]
        fn display_round_trips(units in -10i64.pow(15)..10i64.pow(15), scale in 0u32..8) {
            let d = Decimal { units: units as i128, scale }.normalized();
            prop_assert_eq!(Decimal::parse(&d.to_string()).unwrap(), d);
        }

        #[test]
        fn addition_matches_integers(a in -10i64.pow(12)..10i64.pow(12), b in -10i64.pow(12)..10i64.pow(12)) {
            let x = Decimal { units: a as i128, scale: 2 }.normalized();
            let y = Decimal { units: b as i128, scale: 2 }.normalized();
            let s = x.checked_add(y).unwrap();
            prop_assert_eq!(s, Decimal { units: (a + b) as i128, scale: 2 }.normalized());
        }
    }
}
