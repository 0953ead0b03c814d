//! A name the store writes in full elsewhere: a row that holds only part of a query's name
//! ("Carmen's birthday" for "Carmen López's birthday") is about the person the store names
//! with that part wherever it writes the name in full ("Carmen García's phone number"), not
//! about the person the query names, when no row names that person in full.
//!
//! Each row is scored on its own ([`super::score`]), and on its own a row holding half of a
//! name run is evidence of it ("Maria Garcia" for "Maria Garcia Lopez"). Across the rows, the
//! store may show who that half belongs to: the rule here reads the scores of every candidate
//! row together and vetoes the partial mentions that the store's full mentions contradict.

use std::collections::{BTreeMap, BTreeSet};

use super::score::RowScore;

/// How one row holds the query's name runs, for the store-wide reading.
#[derive(Debug, Clone, Default)]
pub(crate) struct NameHolds {
    /// Runs (by their text in the query) the row holds whole.
    pub whole: Vec<String>,
    /// Runs the row holds only in part, with the positions in the run of the words it holds.
    pub partial: Vec<(String, Vec<usize>)>,
    /// Runs whose word at the given position the row writes next to another name than the
    /// query's ("Carmen García" for the "Carmen" of "Carmen López").
    pub other: Vec<(String, usize)>,
}

/// Vetoes every row in `scores` that holds only part of a name run of the query when the
/// store names someone else with that part: some row writes each held word next to another
/// name than the query's, and no row holds the whole run. A row already vetoed is left as it
/// is; the others are untouched.
pub(crate) fn veto_partial_mentions(scores: &mut [RowScore]) {
    let whole: BTreeSet<String> = scores
        .iter()
        .flat_map(|s| s.names.whole.iter().cloned())
        .collect();
    let mut other: BTreeMap<String, BTreeSet<usize>> = BTreeMap::new();
    for s in scores.iter() {
        for (run, k) in &s.names.other {
            other.entry(run.clone()).or_default().insert(*k);
        }
    }
    if other.is_empty() {
        return;
    }
    for s in scores.iter_mut().filter(|s| s.veto.is_none()) {
        let contradicted = s.names.partial.iter().find(|(run, held)| {
            !whole.contains(run)
                && other
                    .get(run)
                    .is_some_and(|ks| !held.is_empty() && held.iter().all(|k| ks.contains(k)))
        });
        if let Some((run, _)) = contradicted {
            s.veto = Some(format!(
                "holds only part of {run:?}, which the store writes with another name elsewhere, \
                 and no row names {run:?} in full"
            ));
        }
    }
}
