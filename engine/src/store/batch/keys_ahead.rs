//! Match keys computed while a run of new rows is written and committed.
//!
//! A row's match keys (the canonical keys targeting looks rows up by) depend on its text alone.
//! A batch load used to compute them after the commit, beside the text index's own work, while
//! the writing thread had spent the write and the commit on one core. A run of many new rows
//! ([`Batch::inscribe_run`](super::Batch)) now starts their computation on a thread of its own
//! ([`KeysAhead::start`]) before it writes anything; the index updates that follow the commit
//! take the keys from it ([`keys_in_order`]) and compute only what it does not hold. Either way
//! each row gets [`TextIndex::keys_of`] of its own text, so the index is the same.
//!
//! If the transaction fails, the thread's keys are dropped unused: nothing reaches the index
//! before the commit.

use std::thread::JoinHandle;

use rustc_hash::FxHashMap;

use super::{IndexOp, added_texts};
use crate::index::text::TextIndex;
use crate::row::RowId;

/// The match keys of rows `first ..` (one a text, in order), being computed on a thread of
/// their own.
pub(super) struct KeysAhead {
    first: RowId,
    worker: JoinHandle<Vec<Vec<u32>>>,
}

impl KeysAhead {
    /// Starts computing the keys of `texts`, the texts of rows `first ..` in order. `None` when
    /// the run is too short to be worth a thread (below [`crate::parallel::MIN_ITEMS_PER_THREAD`]
    /// rows) or no thread can be started: the keys are then computed after the commit.
    pub(super) fn start<'t>(
        first: RowId,
        texts: impl ExactSizeIterator<Item = &'t str>,
    ) -> Option<Self> {
        if texts.len() < crate::parallel::MIN_ITEMS_PER_THREAD {
            return None;
        }
        let texts: Vec<String> = texts.map(str::to_owned).collect();
        let worker = std::thread::Builder::new()
            .name("oubli-match-keys".into())
            .spawn(move || {
                let _span = tracing::debug_span!("oubli::index::match_keys_ahead").entered();
                texts.iter().map(|t| TextIndex::keys_of(t)).collect()
            })
            .ok()?;
        Some(KeysAhead { first, worker })
    }
}

/// The keys the runs' threads computed, by row. A thread that panicked gives none (its rows'
/// keys are then computed again, where a panic is reported as the write's).
fn finished(ahead: Vec<KeysAhead>) -> FxHashMap<RowId, Vec<u32>> {
    let mut keys = FxHashMap::default();
    for run in ahead {
        if let Ok(run_keys) = run.worker.join() {
            keys.extend((run.first..).zip(run_keys));
        }
    }
    keys
}

/// The match keys of the texts `ops` adds, in order: the ones computed ahead, and the others
/// computed now on several threads. Keys computed ahead go to the first text added for their
/// row, the one the run wrote (a later text for the same row in the same batch, a rewrite, gets
/// its own).
pub(super) fn keys_in_order(ops: &[IndexOp], ahead: Vec<KeysAhead>) -> Vec<Vec<u32>> {
    if ahead.is_empty() {
        return crate::parallel::map(&added_texts(ops), |t| TextIndex::keys_of(t));
    }
    let mut known = finished(ahead);
    let mut slots: Vec<Option<Vec<u32>>> = Vec::new();
    let mut missing: Vec<&str> = Vec::new();
    for op in ops {
        if let IndexOp::AddText(id, t) = op {
            let k = known.remove(id);
            if k.is_none() {
                missing.push(t);
            }
            slots.push(k);
        }
    }
    let mut computed = crate::parallel::map(&missing, |t| TextIndex::keys_of(t)).into_iter();
    slots
        .into_iter()
        .map(|k| k.unwrap_or_else(|| computed.next().unwrap_or_default()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn text(i: usize) -> String {
        format!("row {i}: Ana's phone is +33 6 12 34 {i:02} and her office is in Lyon")
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]

        /// Whatever runs were computed ahead, and whatever else the batch adds (texts of other
        /// rows, a second text for a row of a run, vectors and removals between them), each
        /// added text gets `keys_of` of itself, in order.
        #[test]
        fn every_added_text_gets_its_own_keys_in_order(
            run_len in 0usize..300,
            before in 0usize..4,
            rewrites in prop::collection::vec(0usize..300, 0..4),
        ) {
            let first: RowId = 1_000;
            let mut ops = Vec::new();
            let mut want = Vec::new();
            for i in 0..before {
                ops.push(IndexOp::AddText(i as RowId, text(10_000 + i)));
                want.push(TextIndex::keys_of(&text(10_000 + i)));
                ops.push(IndexOp::RemoveVector(i as RowId));
            }
            let run: Vec<String> = (0..run_len).map(text).collect();
            let ahead: Vec<KeysAhead> =
                KeysAhead::start(first, run.iter().map(String::as_str)).into_iter().collect();
            prop_assert_eq!(ahead.len(), usize::from(run_len >= crate::parallel::MIN_ITEMS_PER_THREAD));
            for (k, t) in run.iter().enumerate() {
                ops.push(IndexOp::AddText(first + k as RowId, t.clone()));
                ops.push(IndexOp::AddVector(first + k as RowId, vec![1.0]));
                want.push(TextIndex::keys_of(t));
            }
            for r in rewrites.into_iter().filter(|r| *r < run_len) {
                let t = format!("rewritten {r}: the office moved to Porto");
                ops.push(IndexOp::AddText(first + r as RowId, t.clone()));
                want.push(TextIndex::keys_of(&t));
            }
            prop_assert_eq!(keys_in_order(&ops, ahead), want);
        }
    }
}
