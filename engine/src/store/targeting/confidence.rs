//! How strongly a match's evidence supports acting on its row ([`Confidence`]), and the floor
//! below which a store does not act ([`apply_floor`]).
//!
//! The grade is read from how the row was reached, not from a score: a row that holds every
//! unit of the request's evidence (each name run, each attribute word or identifier) in its
//! own spelling is [`Confidence::High`]; a row the request's words reach only in part, or
//! through a weaker reading of a name, is [`Confidence::Medium`]; a row a supersede chose
//! without the request's words (by the kind of the new value, by meaning, by relatedness to
//! the new text), or that only a planner proposed, is [`Confidence::Low`]. A grade is not a
//! probability, and no threshold is tuned on it: the safety probe
//! (`benches/safety_probe`) and the blind banks report how the grades split between calls
//! that act on the right row and calls that would act on another (docs/conformance.md).

use serde::{Deserialize, Serialize};

use super::score::RowScore;
use super::target::{Rejected, Resolution};

/// How strongly the evidence supports acting on a matched row, weakest first.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Confidence {
    /// The request's words did not reach the row: a supersede chose it by the kind of value its
    /// new text states, by meaning or by relatedness to the new text, or a planner proposed
    /// it. A guess, however often right. (Also what an older plan without a grade reads as.)
    #[default]
    Low,
    /// The request's words reach the row, but not every unit of its evidence (an attribute
    /// word missing, a paraphrase), or a name only in a weaker reading (another spelling of
    /// the same script, a reading that drops a long vowel, a name that runs on).
    Medium,
    /// The row holds every unit of the request's evidence, or was named by id or natural key.
    High,
}

impl Confidence {
    /// The grade's name, as in plans and on the command line (`low`, `medium`, `high`).
    pub fn name(self) -> &'static str {
        match self {
            Confidence::Low => "low",
            Confidence::Medium => "medium",
            Confidence::High => "high",
        }
    }
}

impl std::fmt::Display for Confidence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Confidence {
    type Err = String;

    fn from_str(s: &str) -> Result<Confidence, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "low" => Ok(Confidence::Low),
            "medium" => Ok(Confidence::Medium),
            "high" => Ok(Confidence::High),
            other => Err(format!(
                "unknown confidence {other:?}: expected low, medium or high"
            )),
        }
    }
}

/// The grade of a row the request's words reached (`by_fallback` false) or a supersede's
/// fallback chose (`by_fallback` true).
pub(super) fn grade(score: &RowScore, by_fallback: bool) -> Confidence {
    if by_fallback {
        return Confidence::Low;
    }
    let weaker_name = score.inexact_reading || score.variant_spelling || score.longer_name;
    if score.coverage >= 1.0 && !weaker_name {
        Confidence::High
    } else {
        Confidence::Medium
    }
}

/// Moves the matches graded below `floor` to the rejected candidates, each with why. A call
/// left with no match is then a no-match whose candidates name the grade the row had.
pub(super) fn apply_floor(res: &mut Resolution, floor: Confidence) {
    if floor == Confidence::Low {
        return;
    }
    let (kept, below): (Vec<_>, Vec<_>) = std::mem::take(&mut res.matches)
        .into_iter()
        .partition(|m| m.confidence >= floor);
    res.matches = kept;
    res.rejected.extend(below.into_iter().map(|m| Rejected {
        id: m.id,
        coverage: m.coverage,
        reason: format!(
            "matched with {} confidence, below the store's floor ({floor}){}",
            m.confidence,
            m.reasons
                .first()
                .map(|r| format!(": {r}"))
                .unwrap_or_default()
        ),
    }));
    res.rejected
        .sort_by(|a, b| b.coverage.total_cmp(&a.coverage).then(a.id.cmp(&b.id)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grades_order_weakest_first_and_parse_by_name() {
        assert!(Confidence::Low < Confidence::Medium && Confidence::Medium < Confidence::High);
        for c in [Confidence::Low, Confidence::Medium, Confidence::High] {
            assert_eq!(c.name().parse::<Confidence>(), Ok(c));
            assert_eq!(
                serde_json::to_string(&c).unwrap(),
                format!("\"{}\"", c.name())
            );
        }
        assert_eq!(" HIGH ".parse::<Confidence>(), Ok(Confidence::High));
        assert!("certain".parse::<Confidence>().is_err());
    }
}
