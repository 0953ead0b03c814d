//! The check of one target fact on a fresh store: purge, compare the erased closure with the
//! ground truth, read the residual audit, probe for the value, check every other row, and scan
//! the closed file.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde::Serialize;

use oubli::{
    DEFAULT_NAMESPACE, Error, Inscription, ManualClock, Operation, RecallQuery, RowId, Store,
    StoreOptions, Target,
};

use super::generator::{Database, squash};

/// Results per recall, for survivor probes and value probes.
pub const PROBE_K: usize = 10;

/// How to purge a fact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purger<'a> {
    /// `Store::purge(Target::query(..))` with the fact's generated query.
    Oubli,
    /// `Store::purge(Target::query(..))` with this query instead (to show the check can fail).
    OubliWith(&'a str),
    /// A naive baseline: purge by id every row whose text contains the value's canonical form
    /// as a substring.
    Substring,
}

/// What happened to one target fact.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FactOutcome {
    /// Case id: `topo-<domain>-<topology>-<fact>`.
    pub id: String,
    /// The purge query.
    pub query: String,
    /// Rows in the ground truth.
    pub expected: usize,
    /// Rows the purge made void or rewrote.
    pub erased: usize,
    /// Of those, rows in the ground truth.
    pub true_positives: usize,
    /// The audit's gold-equivalent hits.
    pub hits_gold: u64,
    /// The audit's reconstruction hits.
    pub hits_reconstruction: u64,
    /// The audit's object-only hits (reported, not residual).
    pub hits_object_only: u64,
    /// Erased row ids the audit saw come back.
    pub erased_returned: u64,
    /// Probes whose results differed from the audit's control store.
    pub control_mismatches: u64,
    /// Recall probes of the fact (subject and attribute, the value) whose hits still held the
    /// value.
    pub value_probe_hits: usize,
    /// Rows outside the closure (and surviving clauses of edited rows) checked.
    pub survivors: usize,
    /// Of those, rows unchanged (or correctly rewritten) and found by their own probe.
    pub survivors_found: usize,
    /// True if the plan listed exactly the rows the purge changed.
    pub plan_agrees: bool,
    /// Written forms of the value found in the raw file after close.
    pub scan_hits: Vec<String>,
    /// Everything that went wrong, one phrase each.
    pub problems: Vec<String>,
}

impl FactOutcome {
    /// True if the residual audit or a value probe found the fact after the purge.
    pub fn residual(&self) -> bool {
        self.hits_gold + self.hits_reconstruction + self.erased_returned + self.control_mismatches
            > 0
            || self.value_probe_hits > 0
    }

    /// True if every required property holds.
    pub fn passed(&self) -> bool {
        self.problems.is_empty()
    }
}

fn options() -> StoreOptions {
    StoreOptions::default()
        .clock(Arc::new(ManualClock::new(1_763_700_000_000)))
        .deterministic_seed([42; 32])
        .signing_key([7; 32])
}

fn short(t: &str) -> String {
    let mut s: String = t.chars().take(60).collect();
    if s.len() < t.len() {
        s.push('…');
    }
    format!("{s:?}")
}

/// Inscribes `db` into a fresh store in `dir`, purges target fact `fact` with `purger`, and
/// checks every required property.
pub fn check_fact(
    db: &Database,
    fact: usize,
    purger: Purger<'_>,
    dir: &std::path::Path,
) -> Result<FactOutcome, Error> {
    let f = &db.facts[fact];
    let path = dir.join(format!(
        "{}-{}-{fact}.oubli",
        db.domain.name(),
        db.topology.name()
    ));
    let _ = std::fs::remove_file(&path);
    let store = Store::create_with(&path, options())?;
    for forms in db.alias_groups() {
        let forms: Vec<&str> = forms.iter().map(String::as_str).collect();
        store.declare_alias(DEFAULT_NAMESPACE, oubli::AliasKind::Person, &forms)?;
    }
    let ids = store.inscribe_batch(
        db.rows
            .iter()
            .map(|r| Inscription::new(r.text.clone()))
            .collect(),
    )?;
    let index: BTreeMap<RowId, usize> = ids.iter().enumerate().map(|(i, id)| (*id, i)).collect();
    let truth = db.closure(fact);
    let query = match purger {
        Purger::Oubli | Purger::Substring => f.query.clone(),
        Purger::OubliWith(q) => q.to_string(),
    };
    let mut problems = Vec::new();

    // Purge.
    let (changed, audit, plan_agrees) = match purger {
        Purger::Oubli | Purger::OubliWith(_) => {
            let target = Target::query(query.clone());
            let plan = match store.plan(Operation::Purge, &target) {
                Ok(p) => Some(p.rows.into_iter().collect::<BTreeSet<RowId>>()),
                Err(Error::NoMatch(_)) => None,
                Err(e) => return Err(e),
            };
            match store.purge(target) {
                Ok(report) => {
                    let changed: BTreeSet<RowId> = report.erased.iter().copied().collect();
                    let agrees = plan.as_ref() == Some(&changed);
                    (changed, Some(report.audit.summary), agrees)
                }
                Err(Error::NoMatch(_)) => {
                    problems.push("the query matched no row".to_string());
                    (BTreeSet::new(), None, plan.is_none())
                }
                Err(e) => return Err(e),
            }
        }
        Purger::Substring => {
            let mut changed = BTreeSet::new();
            let mut summary = oubli::audit::ResidualSummary::default();
            for (i, row) in db.rows.iter().enumerate() {
                if row.text.contains(&f.value.canonical) {
                    let r = store.purge(Target::id(ids[i]))?;
                    changed.extend(r.erased);
                    let s = r.audit.summary;
                    summary.hits_gold += s.hits_gold;
                    summary.hits_reconstruction += s.hits_reconstruction;
                    summary.hits_object_only += s.hits_object_only;
                    summary.erased_returned += s.erased_returned;
                    summary.control_mismatches += s.control_mismatches;
                }
            }
            (changed, Some(summary), true)
        }
    };
    if !plan_agrees {
        problems.push("the plan listed other rows than the purge changed".to_string());
    }

    // Closure against the ground truth.
    let erased_rows: BTreeSet<usize> = changed
        .iter()
        .filter_map(|id| index.get(id).copied())
        .collect();
    let tp = erased_rows.intersection(&truth).count();
    for r in truth.difference(&erased_rows) {
        problems.push(format!("missed {}", short(&db.rows[*r].text)));
    }
    for r in erased_rows.difference(&truth) {
        problems.push(format!("over-erased {}", short(&db.rows[*r].text)));
    }

    // The residual audit.
    let s = audit.unwrap_or_default();
    if s.hits_gold + s.hits_reconstruction + s.erased_returned + s.control_mismatches > 0 {
        problems.push(format!(
            "audit residual (gold {}, reconstruction {}, erased returned {}, control mismatches {})",
            s.hits_gold, s.hits_reconstruction, s.erased_returned, s.control_mismatches
        ));
    }

    // The fact's own probes must no longer return its value.
    let p = &db.people[f.subject];
    let value = f.value.compact();
    let probes = [
        format!("{}'s {}", p.name, f.attribute.name),
        format!("What is the {} of {}?", f.attribute.name, p.name),
        format!("{} {}", p.nickname, f.attribute.name),
        f.value.canonical.clone(),
    ];
    let mut value_probe_hits = 0;
    for probe in &probes {
        let q = RecallQuery::new(probe.clone())
            .k(PROBE_K)
            .include_submerged(true);
        let hits = store.recall(&q)?;
        if hits
            .iter()
            .any(|h| squash(h.row.text.as_deref().unwrap_or("")).contains(&value))
        {
            value_probe_hits += 1;
        }
    }
    if value_probe_hits > 0 {
        problems.push(format!(
            "{value_probe_hits} of {} recall probes still return the value",
            probes.len()
        ));
    }

    // Every other row unchanged and found by its own probe; surviving clauses of rewritten rows
    // kept and found.
    let (mut survivors, mut found) = (0, 0);
    for (i, row) in db.rows.iter().enumerate() {
        let in_truth = truth.contains(&i);
        // A closure row with nothing to keep is gone; one the purge missed is reported above.
        if in_truth && (row.keeps.is_none() || !erased_rows.contains(&i)) {
            continue;
        }
        survivors += 1;
        let id = ids[i];
        let now = store.get(id)?;
        let text_ok = match (&now.text, in_truth) {
            (Some(t), false) => *t == row.text,
            (Some(t), true) => {
                let keep = row.keeps.as_deref().map(squash).unwrap_or_default();
                squash(t).contains(&keep) && !squash(t).contains(&value)
            }
            (None, _) => false,
        };
        if !text_ok {
            problems.push(format!(
                "{} {}",
                if in_truth {
                    "lost the other clause of"
                } else {
                    "changed"
                },
                short(&row.text)
            ));
            continue;
        }
        let hits = store.recall(&RecallQuery::new(row.probe.clone()).k(PROBE_K))?;
        if hits.iter().any(|h| h.row.id == id) {
            found += 1;
        } else {
            problems.push(format!("probe {:?} lost {}", row.probe, short(&row.text)));
        }
    }

    // The raw file, closed: no written form of the value.
    store.close()?;
    drop(store);
    let bytes = std::fs::read(&path)?;
    let mut needles: BTreeSet<String> = BTreeSet::new();
    for r in &truth {
        for w in &db.rows[*r].written {
            needles.insert(w.clone());
            needles.insert(w.to_lowercase());
        }
    }
    needles.insert(value.clone());
    let scan_hits: Vec<String> = needles
        .into_iter()
        .filter(|n| n.len() >= 6 && bytes.windows(n.len()).any(|w| w == n.as_bytes()))
        .collect();
    if !scan_hits.is_empty() {
        problems.push(format!("raw scan found {scan_hits:?}"));
    }
    let _ = std::fs::remove_file(&path);

    Ok(FactOutcome {
        id: format!("topo-{}-{}-{fact:02}", db.domain.name(), db.topology.name()),
        query,
        expected: truth.len(),
        erased: erased_rows.len(),
        true_positives: tp,
        hits_gold: s.hits_gold,
        hits_reconstruction: s.hits_reconstruction,
        hits_object_only: s.hits_object_only,
        erased_returned: s.erased_returned,
        control_mismatches: s.control_mismatches,
        value_probe_hits,
        survivors,
        survivors_found: found,
        plan_agrees,
        scan_hits,
        problems,
    })
}
