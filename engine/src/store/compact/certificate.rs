//! The write-time certificate: every registered derivation in scope recomputed from the note's
//! kept sources, so a reader sees which stated values the note supports, contradicts or cannot
//! check.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::derive::Decimal;
use crate::error::Result;
use crate::row::{Kind, Row, RowId};
use crate::store::provenance::{Reader, live_head};

/// Outcome of recomputing one registered derivation from the note's kept sources.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckStatus {
    /// The kept sources give the stated value.
    Match,
    /// The kept sources give another value: the stated value is wrong or stale.
    Mismatch,
    /// A source of the derivation is not in the note.
    Unverifiable,
}

/// One derivation checked by the certificate.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Check {
    /// The derived row.
    pub derived: RowId,
    /// The derivation, e.g. `sum(price*qty)`.
    pub derivation: String,
    /// Its stated value (left out when unverifiable).
    pub claimed: Option<Decimal>,
    /// The value the note's kept sources give.
    pub recomputed: Option<Decimal>,
    /// The verdict.
    pub status: CheckStatus,
    /// Sources of the derivation the note does not keep.
    pub missing: Vec<RowId>,
}

/// The write-time certificate of a note.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Certificate {
    /// One check per registered derivation in scope, by row id.
    pub checks: Vec<Check>,
}

impl Certificate {
    /// Derived rows whose stated value the kept sources contradict.
    pub fn mismatches(&self) -> Vec<RowId> {
        self.checks
            .iter()
            .filter(|c| c.status == CheckStatus::Mismatch)
            .map(|c| c.derived)
            .collect()
    }
}

/// Checks every registered derivation among `rows` against the live heads of its sources, using
/// only the sources in `kept`.
pub(super) fn certify(r: &Reader<'_>, rows: &[Row], kept: &BTreeSet<RowId>) -> Result<Certificate> {
    let fetch = |id| r.row(id);
    let mut checks = Vec::new();
    for row in rows.iter().filter(|r| r.kind == Kind::Derived) {
        let Some(p) = r.provenance(row.id)? else {
            continue;
        };
        let Some(d) = &p.derivation else { continue };
        let mut heads = Vec::new();
        let mut missing = Vec::new();
        for s in &p.sources {
            match live_head(&fetch, s.id)? {
                Some(h) if kept.contains(&h.id) => heads.push(h),
                Some(h) => missing.push(h.id),
                None => missing.push(s.id),
            }
        }
        let (claimed, recomputed, status) = if missing.is_empty() {
            let v = d.evaluate(heads.iter().map(|h| (h.id, &h.metadata))).ok();
            let status = match (p.claimed, v) {
                (Some(c), Some(v)) if c == v => CheckStatus::Match,
                (_, Some(_)) => CheckStatus::Mismatch,
                _ => CheckStatus::Unverifiable,
            };
            (p.claimed, v, status)
        } else {
            (None, None, CheckStatus::Unverifiable)
        };
        checks.push(Check {
            derived: row.id,
            derivation: d.describe(),
            claimed,
            recomputed,
            status,
            missing,
        });
    }
    Ok(Certificate { checks })
}
