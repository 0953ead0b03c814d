//! The mutation-time planner's turn: offer the deterministic resolution, validate the plan.

use super::{Lookup, Rejected, Resolution, TargetMatch};
use crate::error::{Error, Result};
use crate::planner::{
    MAX_CANDIDATES, PLAN_REQUEST_FORMAT, PlanCandidate, PlanRequest, Planner, PlannerOutcome,
};

/// Offers the deterministic resolution to the planner and returns what to act on: the
/// planner's plan if it validates, the deterministic resolution otherwise.
pub(super) fn consult(
    planner: &dyn Planner,
    lookup: &Lookup<'_>,
    query: &str,
    hint: Option<&str>,
    det: Resolution,
) -> Result<Resolution> {
    let mut candidates = Vec::new();
    let offered = det
        .matches
        .iter()
        .map(|m| (m.id, m.coverage, true, m.clauses.clone()))
        .chain(
            det.rejected
                .iter()
                .map(|r| (r.id, r.coverage, false, Vec::new())),
        )
        .take(MAX_CANDIDATES);
    for (id, coverage, chosen, clauses_chosen) in offered {
        let Some(text) = (lookup.fetch)(id)?.and_then(|r| r.text) else {
            continue;
        };
        let clauses = crate::clause::clauses(&text)
            .into_iter()
            .map(|c| text[c.span].to_owned())
            .collect();
        candidates.push(PlanCandidate {
            id,
            text,
            clauses,
            coverage,
            chosen,
            clauses_chosen,
        });
    }
    let request = PlanRequest {
        format: PLAN_REQUEST_FORMAT.into(),
        op: lookup.op.into(),
        query: query.into(),
        new_text: hint.map(str::to_owned),
        candidates,
    };
    let json =
        serde_json::to_string(&request).map_err(|e| Error::InvalidArgument(e.to_string()))?;
    let verdict = planner
        .propose(&json)
        .map_err(|e| format!("planner failed: {e}"))
        .and_then(|answer| crate::planner::validate(&request, &answer));
    match verdict {
        Err(why) => Ok(Resolution {
            planner: Some(PlannerOutcome::Rejected(why)),
            ..det
        }),
        Ok(plan) => {
            let coverage = |id| {
                request
                    .candidates
                    .iter()
                    .find(|c| c.id == id)
                    .map_or(0.0, |c| c.coverage)
            };
            let reason = plan.reason.clone();
            let matches: Vec<TargetMatch> = plan
                .targets
                .iter()
                .map(|t| TargetMatch {
                    id: t.id,
                    coverage: coverage(t.id),
                    bm25: 0.0,
                    matched: Vec::new(),
                    missing: Vec::new(),
                    clauses: t.clauses.clone(),
                    reasons: vec![format!(
                        "planner: {}",
                        reason.as_deref().unwrap_or("no reason given")
                    )],
                    rewrite: t.rewrite.clone(),
                    // The planner's word adds no evidence: a row the engine matched keeps its
                    // grade, any other is the planner's guess.
                    confidence: det
                        .matches
                        .iter()
                        .find(|m| m.id == t.id)
                        .map_or(super::Confidence::Low, |m| m.confidence),
                })
                .collect();
            let rejected = request
                .candidates
                .iter()
                .filter(|c| !plan.targets.iter().any(|t| t.id == c.id))
                .map(|c| Rejected {
                    id: c.id,
                    coverage: c.coverage,
                    reason: "the planner did not target it".into(),
                })
                .collect();
            Ok(Resolution {
                matches,
                rejected,
                planner: Some(PlannerOutcome::Accepted(reason)),
            })
        }
    }
}
