//! How a batch commits: beside readers, or under the store's exclusive lock.
//!
//! [`Store::write`] runs a batch under the store's upgradable lock: readers go on while the
//! batch runs and while its transaction commits (and waits for the disk). They read the state
//! before it: the file's committed state is pinned for them ([`crate::storage::Db::pin`]) from
//! just before the commit until the store's in-memory indexes hold the commit's changes, which
//! happens under the exclusive lock, so that a reader sees rows and indexes of one state. Other
//! writers wait throughout. A batch that must change in-memory state before its commit (a text
//! index to catch up, a vector snapshot build to install, a scrub's vector snapshot) runs under
//! the exclusive lock instead ([`Inner::write`]).

use parking_lot::{RwLockUpgradableReadGuard, RwLockWriteGuard};
use redb::WriteTransaction;

use super::keys_ahead::KeysAhead;
use super::{Batch, IndexOp};
use crate::error::{Error, Result};
use crate::log::{Event, Hash32};
use crate::row::{Millis, RowId};
use crate::store::{Inner, Store};

/// How a batch reaches the open store.
pub(crate) enum Access<'a> {
    /// Under the store's upgradable lock: readers go on while the batch runs and commits, so the
    /// batch reads the in-memory state and stages every change to it for after the commit.
    Shared(&'a Inner),
    /// Under the store's exclusive lock: the batch may also change in-memory state directly
    /// (a scrub's vector snapshot, see [`Batch::inner_mut`]).
    Exclusive(&'a mut Inner),
}

/// A batch that ran to its end: its transaction, not yet committed, and what the store applies
/// once it is.
pub(crate) struct Prepared<R> {
    tx: WriteTransaction,
    then: Committed<R>,
}

/// What a committed batch leaves for the store to apply: the batch's result, its index updates,
/// the counters it advanced and its replication frame.
pub(crate) struct Committed<R> {
    result: R,
    ops: Vec<IndexOp>,
    keys_ahead: Vec<KeysAhead>,
    next_row: RowId,
    head_seq: u64,
    head_hash: Hash32,
    /// The transaction's replication frame, when a change feed runs.
    frame: Option<(crate::replication::Frame, Vec<Event>)>,
}

impl Store {
    /// Runs `f` in one write transaction (see this module's docs). Readers go on while `f` runs
    /// and while the transaction commits: they read the state before it (the file's state is
    /// pinned for them during the commit, see [`crate::storage::Db::pin`]) and wait only while
    /// the store's in-memory indexes take the committed changes. Other writers wait throughout.
    pub(crate) fn write<R>(&self, f: impl FnOnce(&mut Batch<'_>) -> Result<R>) -> Result<R> {
        let ann_threshold = self.opts.ann_threshold;
        // A vector snapshot build this write must install is waited for before the lock is
        // taken, so that readers never wait on it.
        let due = self
            .inner
            .read()
            .as_ref()
            .and_then(|i| i.vectors.due_build(ann_threshold));
        if let Some(done) = due {
            let _span = tracing::debug_span!("oubli::vector::wait_build").entered();
            done.wait();
        }
        let guard = self.inner.upgradable_read();
        self.write_beside_readers(guard, None, f).1
    }

    /// Runs `f` in one write transaction under the store's upgradable lock `guard` (see
    /// [`Store::write`]), waiting for the disk at commit if `durable` (`None`: as the store was
    /// opened). Returns the lock, upgradable again, with the result.
    pub(crate) fn write_beside_readers<'g, R>(
        &self,
        guard: RwLockUpgradableReadGuard<'g, Option<Inner>>,
        durable: Option<bool>,
        f: impl FnOnce(&mut Batch<'_>) -> Result<R>,
    ) -> (RwLockUpgradableReadGuard<'g, Option<Inner>>, Result<R>) {
        let ann_threshold = self.opts.ann_threshold;
        let now = self.now();
        let Some(inner) = guard.as_ref() else {
            return (guard, Err(Error::Closed));
        };
        if !inner.db.is_writable() {
            return (guard, Err(Error::ReadOnly));
        }
        let durable = durable.unwrap_or(inner.durable);
        // A text index to catch up, or a vector snapshot build to install in this transaction,
        // changes in-memory state before the commit: that write runs under the exclusive lock.
        if inner.text_behind || inner.vectors.install_due(ann_threshold) {
            let mut exclusive = RwLockUpgradableReadGuard::upgrade(guard);
            // A panic inside the storage engine (a mangled page) aborts the transaction
            // unfinished.
            let result = match exclusive.as_mut() {
                Some(inner) => {
                    crate::store::guarded(|| inner.write_with(now, ann_threshold, durable, f))
                }
                None => Err(Error::Closed),
            };
            return (RwLockWriteGuard::downgrade_to_upgradable(exclusive), result);
        }
        let committed = crate::store::guarded(|| {
            prepare(Access::Shared(inner), now, ann_threshold, durable, f)
        })
        .and_then(|prepared| {
            inner.db.pin()?;
            crate::store::guarded(|| {
                let staged = inner.text.stage_into(&prepared.tx)?;
                Ok((staged, prepared.commit()?))
            })
        });
        let (staged, done) = match committed {
            Ok(c) => c,
            Err(e) => {
                inner.db.unpin();
                return (guard, Err(e));
            }
        };
        #[cfg(test)]
        tests::AFTER_COMMIT.reach(&self.path);
        // Readers wait from here: the in-memory indexes take the commit's changes.
        let mut exclusive = RwLockUpgradableReadGuard::upgrade(guard);
        let result = match exclusive.as_mut() {
            Some(inner) => {
                inner.db.unpin();
                inner.text.committed(staged);
                crate::store::guarded(|| inner.after_commit(done, None, ann_threshold))
            }
            None => Err(Error::Closed),
        };
        (RwLockWriteGuard::downgrade_to_upgradable(exclusive), result)
    }
}

/// Runs `f` against a new write transaction of the store `access` reaches, then writes the
/// batch's events, checkpoint and counters into it (see [`Batch::finish`]); with a change feed
/// running, captures its replication frame. Nothing is committed: a failure drops the
/// transaction unfinished and leaves the store as it was.
fn prepare<R>(
    access: Access<'_>,
    now: Millis,
    ann_threshold: usize,
    durable: bool,
    f: impl FnOnce(&mut Batch<'_>) -> Result<R>,
) -> Result<Prepared<R>> {
    let (db, next_row, head_seq, head_hash) = {
        let i = access.inner();
        (i.db.clone(), i.next_row, i.head_seq, i.head_hash)
    };
    let mut tx = db.begin_write()?;
    if !durable {
        tx.set_durability(redb::Durability::None)?;
    }
    let mut batch = Batch {
        tx: &tx,
        access,
        next_row,
        head_seq,
        head_hash,
        now,
        ann_threshold,
        ops: Vec::new(),
        keys_ahead: Vec::new(),
        events: 0,
    };
    let result = f(&mut batch)?;
    let (access, ops, keys_ahead, next_row, new_head_seq, head_hash) = batch.finish()?;
    let inner = access.inner();
    // With a change feed running, the transaction's replication frame is captured before it
    // commits (a transaction that cannot be captured does not commit) and published after.
    let frame = match (&*inner.feed.lock(), &inner.signing) {
        (Some(_), Some(key)) if new_head_seq > head_seq => Some(crate::replication::feed::capture(
            &inner.db, &tx, head_seq, key,
        )?),
        _ => None,
    };
    Ok(Prepared {
        tx,
        then: Committed {
            result,
            ops,
            keys_ahead,
            next_row,
            head_seq: new_head_seq,
            head_hash,
            frame,
        },
    })
}

impl<R> Prepared<R> {
    /// Commits the transaction (waiting for the disk if it is durable).
    fn commit(self) -> Result<Committed<R>> {
        let commit_span = tracing::debug_span!("oubli::batch::commit").entered();
        self.tx.commit()?;
        drop(commit_span);
        Ok(self.then)
    }
}

impl<'a> Access<'a> {
    pub(super) fn inner(&self) -> &Inner {
        match self {
            Access::Shared(i) => i,
            Access::Exclusive(i) => i,
        }
    }
}

impl Inner {
    /// Runs `f` in one write transaction on an already locked store.
    pub(crate) fn write<R>(
        &mut self,
        now: Millis,
        ann_threshold: usize,
        f: impl FnOnce(&mut Batch<'_>) -> Result<R>,
    ) -> Result<R> {
        self.write_with(now, ann_threshold, self.durable, f)
    }

    /// [`Inner::write`], waiting for the disk at commit only if `durable` (the group commit
    /// commits all but the last write of a group without waiting, see `store::group`).
    pub(crate) fn write_with<R>(
        &mut self,
        now: Millis,
        ann_threshold: usize,
        durable: bool,
        f: impl FnOnce(&mut Batch<'_>) -> Result<R>,
    ) -> Result<R> {
        if !self.db.is_writable() {
            return Err(Error::ReadOnly);
        }
        if self.text_behind {
            self.catch_up_text()?;
        }
        let prepared = prepare(Access::Exclusive(self), now, ann_threshold, durable, f)?;
        // A vector snapshot built in the background is installed by the write that reaches its
        // count (see `index::vector`), in this same transaction.
        let removed: Vec<RowId> = prepared
            .then
            .ops
            .iter()
            .filter_map(|op| match op {
                IndexOp::RemoveVector(id) => Some(*id),
                _ => None,
            })
            .collect();
        let built = self
            .vectors
            .take_due_build(&prepared.tx, ann_threshold, &removed, false)?;
        // The text index files staged by the last index commit go in this same transaction: one
        // commit (one fsync) per durable write.
        let staged = self.text.stage_into(&prepared.tx)?;
        let committed = prepared.commit()?;
        self.text.committed(staged);
        self.after_commit(committed, built, ann_threshold)
    }

    /// What follows a commit: installs the vector snapshot build it wrote, if any, takes its
    /// counters, publishes its replication frame and applies its index updates.
    fn after_commit<R>(
        &mut self,
        c: Committed<R>,
        built: Option<crate::index::vector::Installable>,
        ann_threshold: usize,
    ) -> Result<R> {
        if let Some(b) = built {
            self.vectors.install(b);
        }
        self.next_row = c.next_row;
        self.head_seq = c.head_seq;
        self.head_hash = c.head_hash;
        if let Some((frame, events)) = c.frame
            && let Some(feed) = self.feed.lock().as_mut()
        {
            feed.publish(frame, &events);
        }
        self.apply(c.ops, c.keys_ahead, ann_threshold)?;
        Ok(c.result)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::mpsc;
    use std::time::Duration;

    use crate::store::pause_point::PausePoint;
    use crate::{Inscription, RecallQuery, Store, Target};

    /// Reached by a write beside readers after its commit reached the file and before the
    /// in-memory indexes take it.
    pub(super) static AFTER_COMMIT: PausePoint = PausePoint::new();

    fn texts(hits: &[crate::Hit]) -> Vec<String> {
        hits.iter()
            .filter_map(|h| h.row.text.clone())
            .collect::<Vec<_>>()
    }

    /// A reader runs while a write's commit is in the file but not yet in the indexes: the
    /// write waits (after its commit) for the reader, so if readers were shut out the reader
    /// could not finish, and the write's wait reports it. The reader sees the state before the
    /// write whole: the old row live and recalled, the new one neither recalled nor readable.
    /// Once the write returns, readers see the state after it whole.
    #[test]
    fn a_reader_sees_the_state_before_a_write_that_is_committing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.oubli");
        let store = Arc::new(Store::create(&path).unwrap());
        let old = store
            .inscribe(Inscription::new(
                "the locker code of the east annex is 4411",
            ))
            .unwrap();
        for i in 0..20 {
            store
                .inscribe(Inscription::new(format!(
                    "the garden budget note number {i}"
                )))
                .unwrap();
        }
        let (inside_tx, inside_rx) = mpsc::channel::<()>();
        let (done_tx, done_rx) = mpsc::channel::<()>();
        let (waited_tx, waited_rx) = mpsc::channel::<bool>();
        AFTER_COMMIT.set(
            &path,
            Box::new(move || {
                inside_tx.send(()).unwrap();
                // Not a timing assertion: a bound that turns "readers are shut out" into a
                // failure instead of a hang.
                let ok = done_rx.recv_timeout(Duration::from_secs(120)).is_ok();
                waited_tx.send(ok).unwrap();
            }),
        );
        let writer = {
            let store = store.clone();
            std::thread::spawn(move || {
                store.supersede(
                    Target::id(old),
                    Inscription::new("the locker code of the east annex is 9922"),
                )
            })
        };
        inside_rx
            .recv_timeout(Duration::from_secs(120))
            .expect("the write never committed");
        // The supersede is in the file now, and waits for these reads.
        let query = RecallQuery::new("locker code east annex").k(5);
        let before = texts(&store.recall(&query).unwrap());
        let old_row = store.get(old).unwrap();
        let new_row = store.get(old + 21);
        let head_during = store.head().unwrap();
        done_tx.send(()).unwrap();
        assert!(
            waited_rx.recv().unwrap(),
            "the reads finished only after the write"
        );
        let superseded = writer.join().unwrap().unwrap();
        assert!(before.iter().any(|t| t.ends_with("4411")), "{before:?}");
        assert!(!before.iter().any(|t| t.ends_with("9922")), "{before:?}");
        assert!(old_row.superseded_by.is_none());
        assert!(
            new_row.is_err(),
            "the new row was readable before the write returned"
        );
        assert_eq!(superseded.new_id, old + 21);
        let after = texts(&store.recall(&query).unwrap());
        assert!(after.iter().any(|t| t.ends_with("9922")), "{after:?}");
        assert!(!after.iter().any(|t| t.ends_with("4411")), "{after:?}");
        assert!(store.head().unwrap().0 > head_during.0);
    }
}
