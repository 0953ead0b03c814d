//! Group commit: concurrent inscriptions share one durable commit (one fsync).
//!
//! A durable write waits for the disk's flush, which costs far more than the write itself. When
//! several threads inscribe at once, the first to arrive leads: it takes every inscription
//! queued so far and commits each in a write transaction of its own, in queue order, the last
//! one durable and the ones before it without waiting for the disk
//! ([`redb::Durability::None`]; a durable commit makes every earlier commit durable too). The
//! others wait and return when the leader has committed their inscription; meanwhile new
//! arrivals queue for the next leader.
//!
//! What each caller sees is what a sequential call would give: its own transaction (one failing
//! inscription, say a duplicate key, fails alone and leaves the others committed), its own
//! events and checkpoint, and an `Ok` only once its rows are durable. The log of a group is
//! byte-identical to the log of the same inscriptions made one after the other in the order the
//! leader committed them (the order of the returned row ids). If the closing durable commit
//! fails, every inscription of the group reports the failure: none of them was acknowledged,
//! and a later open finds the file as of the last durable commit. A leader that must wait for a
//! vector snapshot build before its next write first makes the group's writes so far durable,
//! then releases the store's lock while it waits (readers never wait on a build).

use std::collections::HashMap;

use parking_lot::{Condvar, Mutex, RwLockUpgradableReadGuard};

use super::Store;
use crate::error::{Error, Result};
use crate::row::{Inscription, RowId};

/// How many durable commits the store's group commit made and how many writes they covered
/// ([`Store::group_commit_stats`]). With one writer thread every group holds one write; with
/// several, `writes / groups` is the mean number of writes one fsync covered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GroupCommitStats {
    /// Groups committed (one durable commit each, in a durable store).
    pub groups: u64,
    /// Inscription calls those groups held.
    pub writes: u64,
    /// The most calls one group held.
    pub largest: u64,
}

/// Rows of one inscription call, prepared (validated, embedded).
type Rows = Vec<(Inscription, Vec<f32>)>;

/// The queue and its leader (one per store).
#[derive(Default)]
pub(crate) struct GroupCommit {
    state: Mutex<State>,
    turn: Condvar,
}

#[derive(Default)]
struct State {
    queue: Vec<(u64, Rows)>,
    leading: bool,
    next_ticket: u64,
    done: HashMap<u64, Result<Vec<RowId>>>,
    stats: GroupCommitStats,
}

/// Hands the lead on when the leader is done, and answers, with an error, every call of the
/// group it took that has no result (so that no caller waits forever if the leader unwinds).
struct Lead<'a> {
    group: &'a GroupCommit,
    tickets: Vec<u64>,
}

impl Drop for Lead<'_> {
    fn drop(&mut self) {
        let mut st = self.group.state.lock();
        for t in &self.tickets {
            st.done.entry(*t).or_insert_with(|| {
                Err(Error::Storage(
                    "the group commit holding this write did not finish".into(),
                ))
            });
        }
        st.leading = false;
        drop(st);
        self.group.turn.notify_all();
    }
}

impl Store {
    /// Commits one inscription call's rows through the group commit (see this module's docs).
    pub(super) fn inscribe_grouped(&self, rows: Rows) -> Result<Vec<RowId>> {
        let group = &self.group;
        let mut st = group.state.lock();
        let ticket = st.next_ticket;
        st.next_ticket += 1;
        st.queue.push((ticket, rows));
        loop {
            if let Some(r) = st.done.remove(&ticket) {
                return r;
            }
            if !st.leading {
                st.leading = true;
                break;
            }
            group.turn.wait(&mut st);
        }
        let taken = std::mem::take(&mut st.queue);
        drop(st);
        let mut lead = Lead {
            group,
            tickets: taken.iter().map(|(t, _)| *t).collect(),
        };
        let (tickets, calls): (Vec<u64>, Vec<Rows>) = taken.into_iter().unzip();
        let results = self.commit_group(calls);
        {
            let mut st = group.state.lock();
            let n = tickets.len() as u64;
            st.stats.groups += 1;
            st.stats.writes += n;
            st.stats.largest = st.stats.largest.max(n);
            st.done.extend(tickets.into_iter().zip(results));
        }
        lead.tickets.clear();
        drop(lead);
        group
            .state
            .lock()
            .done
            .remove(&ticket)
            .unwrap_or_else(|| Err(Error::Storage("a grouped write lost its result".into())))
    }

    /// Commits each call in a transaction of its own, in order: all but the last without
    /// waiting for the disk, the last durable (when the store is durable). If the last fails,
    /// an empty durable commit makes the others durable; if that fails too, every call fails.
    fn commit_group(&self, calls: Vec<Rows>) -> Vec<Result<Vec<RowId>>> {
        let n = calls.len();
        let ann_threshold = self.opts.ann_threshold;
        let mut results: Vec<Result<Vec<RowId>>> = Vec::with_capacity(n);
        // `results[..durable_upto]` are durable or failed.
        let mut durable_upto = 0;
        // Readers go on while each write runs and commits (see `Store::write_beside_readers`).
        let mut guard = self.inner.upgradable_read();
        for (i, rows) in calls.into_iter().enumerate() {
            // As in `Store::write`: a vector snapshot build the next write must install is
            // waited for without the lock, so that readers never wait on it. The writes made so
            // far are made durable first: nothing acknowledged is left to another writer's
            // commit.
            while let Some(done) = guard
                .as_ref()
                .and_then(|i| i.vectors.due_build(ann_threshold))
            {
                let mut exclusive = RwLockUpgradableReadGuard::upgrade(guard);
                if let Some(inner) = exclusive.as_mut() {
                    make_durable(inner, &mut results[durable_upto..]);
                }
                durable_upto = results.len();
                drop(exclusive);
                {
                    let _span = tracing::debug_span!("oubli::vector::wait_build").entered();
                    done.wait();
                }
                guard = self.inner.upgradable_read();
            }
            let durable = guard.as_ref().is_some_and(|inner| inner.durable) && i + 1 == n;
            let (back, result) =
                self.write_beside_readers(guard, Some(durable), |b| b.inscribe_rows(rows));
            guard = back;
            results.push(result);
        }
        // The last write made every one before it durable, unless it failed (before or at its
        // commit).
        if results.last().is_some_and(|r| r.is_err()) {
            let mut exclusive = RwLockUpgradableReadGuard::upgrade(guard);
            if let Some(inner) = exclusive.as_mut() {
                make_durable(inner, &mut results[durable_upto..]);
            }
        }
        results
    }

    /// How many durable commits the group commit made and how many inscription calls they
    /// covered, since the store was opened (see [`GroupCommitStats`]).
    pub fn group_commit_stats(&self) -> GroupCommitStats {
        self.group.state.lock().stats
    }
}

/// Makes the writes of `results` that succeeded durable with one empty durable commit; if that
/// fails, they fail too (none of them was acknowledged, and the file keeps none of them).
fn make_durable(inner: &mut super::Inner, results: &mut [Result<Vec<RowId>>]) {
    if !inner.durable || !results.iter().any(|r| r.is_ok()) {
        return;
    }
    if let Err(e) = super::guarded(|| inner.sync()) {
        let why = e.to_string();
        for r in results.iter_mut().filter(|r| r.is_ok()) {
            *r = Err(Error::Storage(format!(
                "the durable commit of this write's group failed: {why}"
            )));
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use super::*;
    use crate::{HashEmbedder, Inscription, StoreOptions};

    fn opts() -> StoreOptions {
        StoreOptions::default()
            .embedder(Arc::new(HashEmbedder::new(64).unwrap()))
            .deterministic_seed([7; 32])
    }

    /// Stands in for a leader busy with a group while `calls` threads inscribe, so that they all
    /// queue, then hands the lead on: the first to wake leads a group holding every call.
    fn grouped(store: &Arc<Store>, calls: Vec<Inscription>) -> Vec<Result<RowId>> {
        let n = calls.len();
        store.group.state.lock().leading = true;
        let handles: Vec<_> = calls
            .into_iter()
            .map(|ins| {
                let s = store.clone();
                std::thread::spawn(move || s.inscribe(ins))
            })
            .collect();
        while store.group.state.lock().queue.len() < n {
            std::thread::sleep(Duration::from_millis(1));
        }
        store.group.state.lock().leading = false;
        store.group.turn.notify_all();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    }

    #[test]
    fn concurrent_inscriptions_share_one_durable_commit_and_fail_alone() {
        let dir = tempfile::tempdir().unwrap();
        let store = Arc::new(Store::create_with(dir.path().join("s.oubli"), opts()).unwrap());
        store
            .inscribe(Inscription::new("the first holder of key a").key("a"))
            .unwrap();
        assert_eq!(store.group_commit_stats().groups, 1);
        // A group of one, then a group of five, one of which reuses key "a" and must fail
        // without touching the others.
        let lone = grouped(&store, vec![Inscription::new("a lone write")]);
        assert!(lone[0].is_ok());
        let calls = vec![
            Inscription::new("write one about the garden"),
            Inscription::new("write two about the budget"),
            Inscription::new("a second holder of key a").key("a"),
            Inscription::new("write four about the trip"),
            Inscription::new("write five about the invoice"),
        ];
        let before = store.group_commit_stats();
        let results = grouped(&store, calls);
        let after = store.group_commit_stats();
        let failed: Vec<_> = results.iter().filter(|r| r.is_err()).collect();
        assert_eq!(failed.len(), 1, "{results:?}");
        assert!(matches!(failed[0], Err(Error::DuplicateKey { .. })));
        // One durable commit for the five calls.
        assert_eq!(after.writes - before.writes, 5);
        assert_eq!(after.groups - before.groups, 1, "{after:?}");
        assert_eq!(after.largest, 5);
        let ids: Vec<RowId> = results
            .iter()
            .filter_map(|r| r.as_ref().ok().copied())
            .collect();
        store.verify_log(None).unwrap();
        store.close().unwrap();
        // Every acknowledged row is in the file after a reopen.
        let store = Store::open_with(dir.path().join("s.oubli"), opts()).unwrap();
        for id in ids {
            assert!(store.get(id).unwrap().text.is_some());
        }
    }
}
