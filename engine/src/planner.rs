//! The mutation-time planner hook: an external planner (an LLM in production) may propose what
//! a supersede, release or purge by query acts on, through a narrow JSON contract.
//!
//! The engine stays in charge. It resolves the query deterministically first, then sends the
//! planner a [`PlanRequest`] holding the operation, the query, the new text of a supersede, and
//! the candidate rows with their clauses. The planner answers with a [`PlanResponse`]. The
//! engine validates every plan:
//!
//! - every target is one of the candidates, at most once;
//! - a supersede has at most one target;
//! - clause indexes exist; naming every clause of a row means the whole row;
//! - a rewrite is only allowed with clauses, must keep every word and identifier of the clauses
//!   it does not remove, and must not keep an identifier found only in the removed clauses.
//!
//! A planner error, malformed JSON or a plan that fails validation is never acted on: the call
//! falls back to the deterministic resolution, and the dry run ([`crate::Store::plan`]) says
//! why in [`crate::Plan::planner`]. The recall path never calls the planner.
//!
//! Request (`format` is [`PLAN_REQUEST_FORMAT`]):
//!
//! ```json
//! {"format": "oubli-plan-request-1", "op": "purge", "query": "Tom's bank PIN 4821",
//!  "new_text": null,
//!  "candidates": [{"id": 7, "text": "Tom's bank PIN is 4821 and his locker number is 17.",
//!                  "clauses": ["Tom's bank PIN is 4821", "his locker number is 17"],
//!                  "coverage": 1.0, "chosen": true, "clauses_chosen": [0]}]}
//! ```
//!
//! Response:
//!
//! ```json
//! {"targets": [{"id": 7, "clauses": [0], "rewrite": "Tom's locker number is 17."}],
//!  "reason": "the PIN is the first clause"}
//! ```

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::canon;
use crate::clause;
use crate::index::keys::has_digit;
use crate::row::RowId;

/// Format tag of [`PlanRequest`].
pub const PLAN_REQUEST_FORMAT: &str = "oubli-plan-request-1";

/// Most candidates a request carries.
pub const MAX_CANDIDATES: usize = 16;

/// An external planner consulted at mutation time.
pub trait Planner: Send + Sync {
    /// Answers a [`PlanRequest`] (JSON) with a [`PlanResponse`] (JSON), or an error message.
    fn propose(&self, request: &str) -> std::result::Result<String, String>;
}

/// One candidate row offered to the planner.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlanCandidate {
    /// The row id.
    pub id: RowId,
    /// The row text.
    pub text: String,
    /// The row's clauses, in order; `clauses` of a target index into this list.
    pub clauses: Vec<String>,
    /// Share of the query the deterministic path found in the row.
    pub coverage: f64,
    /// True if the deterministic path targets the row.
    pub chosen: bool,
    /// Clauses the deterministic path targets (empty: the whole row).
    pub clauses_chosen: Vec<usize>,
}

/// What the engine asks the planner.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlanRequest {
    /// [`PLAN_REQUEST_FORMAT`].
    pub format: String,
    /// `supersede`, `release` or `purge`.
    pub op: String,
    /// The query of the call.
    pub query: String,
    /// The new text of a supersede.
    pub new_text: Option<String>,
    /// Candidate rows, best first.
    pub candidates: Vec<PlanCandidate>,
}

/// One target the planner proposes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlannedTarget {
    /// A candidate's id.
    pub id: RowId,
    /// Clauses to act on; empty or absent for the whole row.
    #[serde(default)]
    pub clauses: Vec<usize>,
    /// The row's text after the clauses are removed; absent to let the engine compose it.
    #[serde(default)]
    pub rewrite: Option<String>,
}

/// The planner's answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlanResponse {
    /// What to act on; empty when nothing matches.
    pub targets: Vec<PlannedTarget>,
    /// The planner's reason, kept in the dry run.
    #[serde(default)]
    pub reason: Option<String>,
}

/// What became of a planner's proposal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", tag = "outcome", content = "detail")]
pub enum PlannerOutcome {
    /// The plan was valid and was used.
    Accepted(Option<String>),
    /// The planner failed or its plan was invalid: the deterministic path was used.
    Rejected(String),
}

/// Words (folded chunk forms) of `text`.
fn word_set(text: &str) -> BTreeSet<String> {
    canon::chunks(text)
        .into_iter()
        .filter(|c| !has_digit(c))
        .map(|c| c.form)
        .collect()
}

/// Identifier codes (chunks holding a digit) of `text`.
fn code_set(text: &str) -> BTreeSet<String> {
    canon::chunks(text)
        .into_iter()
        .filter(has_digit)
        .map(|c| c.form.to_uppercase())
        .collect()
}

/// Parses and validates `response` against `request`. Returns the targets to act on, with
/// clause lists normalized (all clauses = whole row) and rewrites checked.
pub fn validate(
    request: &PlanRequest,
    response: &str,
) -> std::result::Result<PlanResponse, String> {
    let mut plan: PlanResponse =
        serde_json::from_str(response).map_err(|e| format!("malformed plan: {e}"))?;
    if request.op == "supersede" && plan.targets.len() > 1 {
        return Err(format!(
            "a supersede acts on one row, the plan names {}",
            plan.targets.len()
        ));
    }
    let mut seen = BTreeSet::new();
    for t in &mut plan.targets {
        let c = request
            .candidates
            .iter()
            .find(|c| c.id == t.id)
            .ok_or_else(|| format!("row {} is not a candidate", t.id))?;
        if !seen.insert(t.id) {
            return Err(format!("row {} is named twice", t.id));
        }
        t.clauses.sort_unstable();
        t.clauses.dedup();
        if let Some(bad) = t.clauses.iter().find(|&&i| i >= c.clauses.len()) {
            return Err(format!("row {} has no clause {bad}", t.id));
        }
        if t.clauses.len() == c.clauses.len() {
            t.clauses.clear();
        }
        let Some(rewrite) = &t.rewrite else { continue };
        if t.clauses.is_empty() {
            return Err(format!(
                "row {}: a rewrite needs the clauses it removes",
                t.id
            ));
        }
        crate::row::validate_text(rewrite).map_err(|e| format!("row {}: {e}", t.id))?;
        let words = word_set(rewrite);
        let codes = code_set(rewrite);
        let mut kept_codes = BTreeSet::new();
        for (i, clause) in c.clauses.iter().enumerate() {
            if t.clauses.contains(&i) {
                continue;
            }
            kept_codes.extend(code_set(clause));
            let clause_words = word_set(clause);
            // Pronouns may become the subject's name; every other word must stay.
            let lost: Vec<&String> = clause_words
                .iter()
                .filter(|w| !words.contains(*w) && !clause::is_pronoun(w))
                .collect();
            if !lost.is_empty() {
                return Err(format!(
                    "row {}: the rewrite drops {lost:?} of kept clause {i}",
                    t.id
                ));
            }
            if let Some(code) = code_set(clause).iter().find(|k| !codes.contains(*k)) {
                return Err(format!(
                    "row {}: the rewrite drops {code} of kept clause {i}",
                    t.id
                ));
            }
        }
        for (i, clause) in c.clauses.iter().enumerate() {
            if !t.clauses.contains(&i) {
                continue;
            }
            if let Some(code) = code_set(clause)
                .iter()
                .find(|k| codes.contains(*k) && !kept_codes.contains(*k))
            {
                return Err(format!(
                    "row {}: the rewrite keeps {code} of removed clause {i}",
                    t.id
                ));
            }
        }
    }
    Ok(plan)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request() -> PlanRequest {
        let text = "Tom's bank PIN is 4821 and his locker number is 17.";
        PlanRequest {
            format: PLAN_REQUEST_FORMAT.into(),
            op: "purge".into(),
            query: "Tom's PIN".into(),
            new_text: None,
            candidates: vec![PlanCandidate {
                id: 7,
                text: text.into(),
                clauses: clause::clauses(text)
                    .into_iter()
                    .map(|c| text[c.span].to_owned())
                    .collect(),
                coverage: 1.0,
                chosen: true,
                clauses_chosen: vec![0],
            }],
        }
    }

    #[test]
    fn valid_plans_pass() {
        let r = request();
        let p = validate(
            &r,
            r#"{"targets":[{"id":7,"clauses":[0],"rewrite":"Tom's locker number is 17."}]}"#,
        )
        .unwrap();
        assert_eq!(p.targets[0].clauses, [0]);
        let p = validate(&r, r#"{"targets":[{"id":7,"clauses":[1,0]}]}"#).unwrap();
        assert!(p.targets[0].clauses.is_empty(), "all clauses = whole row");
        assert!(validate(&r, r#"{"targets":[]}"#).unwrap().targets.is_empty());
    }

    #[test]
    fn invalid_plans_fail() {
        let r = request();
        for bad in [
            "not json",
            r#"{"targets":[{"id":8}]}"#,
            r#"{"targets":[{"id":7},{"id":7}]}"#,
            r#"{"targets":[{"id":7,"clauses":[5]}]}"#,
            r#"{"targets":[{"id":7,"rewrite":"x"}]}"#,
            r#"{"targets":[{"id":7,"clauses":[0],"rewrite":"Tom's number is 18."}]}"#,
            r#"{"targets":[{"id":7,"clauses":[0],"rewrite":"Tom's locker number is 17, PIN 4821."}]}"#,
            r#"{"targets":[{"id":7}],"extra":1}"#,
        ] {
            assert!(validate(&r, bad).is_err(), "{bad}");
        }
    }
}
