//! Scrub: the erasure completion point.
//!
//! A purge deletes rows from the tables, but bytes of the erased text can survive in three
//! places: tantivy segments (a deleted document's terms stay in its segment until a merge), the
//! usearch snapshot (a removed vector's bytes stay in the serialized graph), and pages redb has
//! freed. Scrub removes all three, rewriting only what held the erased bytes:
//! 1. the text index rewrites the segments that hold deleted documents, each on its own, and
//!    tantivy's garbage collection deletes the replaced segment files from the directory
//!    ([`crate::index::text::TextIndex::erase_deleted`]);
//! 2. the vector snapshot drops the removed vectors (see [`scrub_event`]) and the `scrub` event
//!    is recorded, in one transaction with the index files' changes;
//! 3. one more durable commit (holding the index files still staged, if any): redb frees the
//!    pages the previous commits replaced once
//!    no reader or recovery root needs them, at the next commit, and the vendored redb
//!    overwrites every page it frees with zeros (`vendor/redb/OUBLI-PATCH.md`). The store holds
//!    its write lock throughout, so no read transaction of this process can hold those pages.
//!
//! The byte scan of the erasure tests is the check: no byte of an erased row is left in the
//! file. That relies on every free page of the file being zero, which holds for files created
//! with the vendored redb and not for older ones or after redb repaired a crashed file; the store
//! records it ([`crate::storage::meta::FREE_PAGES_ZEROED`]), and a scrub of a store without it
//! compacts instead ([`Store::scrub_compact`]): it rebuilds the text index and the vector
//! snapshot and copies every table into a fresh file, whose free pages are then all zero.

use std::path::{Path, PathBuf};

use parking_lot::{RwLockUpgradableReadGuard, RwLockWriteGuard};
use redb::ReadableTable;

use super::batch::Batch;
use super::{Inner, Store, copy_tables};
use crate::error::{Error, Result};
use crate::log::EventKind;
use crate::storage::{self, Db, META, MemoryImage, PAYLOADS, Payload, meta};

fn temp_path(path: &Path) -> PathBuf {
    let mut p = path.as_os_str().to_owned();
    p.push(".scrub-tmp");
    PathBuf::from(p)
}

/// Removes a scrub copy left by a crash (the store file itself is always complete: the copy only
/// replaces it by an atomic rename).
pub(crate) fn remove_stale_temp(path: &Path) {
    let tmp = temp_path(path);
    if tmp.exists() {
        let _ = std::fs::remove_file(tmp);
    }
}

/// How a scrub reaches the erasure point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ScrubKind {
    /// Only what held erased bytes is rewritten; freed pages are zeroed by redb.
    Incremental,
    /// The indexes are rebuilt and every table is copied into a fresh file.
    Compact,
}

impl ScrubKind {
    /// The receipt's name for the method ([`oubli_audit::receipt::ErasurePoint::method`]).
    pub(super) fn method(self) -> &'static str {
        match self {
            ScrubKind::Incremental => "scrub-zero-v1",
            ScrubKind::Compact => "scrub-rewrite-v1",
        }
    }

    /// The kind a scrub of this store must use: incremental when every free page of the file
    /// is known to be zero, a compaction otherwise.
    pub(super) fn for_store(inner: &Inner) -> Result<ScrubKind> {
        let tx = inner.db.begin_read()?;
        Ok(if storage::free_pages_zeroed(&tx)? {
            ScrubKind::Incremental
        } else {
            ScrubKind::Compact
        })
    }
}

impl Store {
    /// Removes every byte that earlier purges erased from the indexes and the file. Returns the
    /// sequence number of the `scrub` event, the erasure completion point that receipts cite.
    /// Rewrites only what held erased bytes (see the module docs), so its cost depends on the
    /// purged rows' index segments, not on the store's size; a store whose free pages are not
    /// known to be zero is compacted instead ([`Store::scrub_compact`]).
    #[tracing::instrument(name = "oubli::Store::scrub", level = "debug", skip_all)]
    pub fn scrub(&self) -> Result<u64> {
        self.scrub_as_needed().map(|(seq, _)| seq)
    }

    /// [`Store::scrub`], also returning how it reached the erasure point.
    pub(super) fn scrub_as_needed(&self) -> Result<(u64, ScrubKind)> {
        let mut guard = self.inner.write();
        let inner = guard.as_mut().ok_or(Error::Closed)?;
        let kind = ScrubKind::for_store(inner)?;
        Ok((self.scrub_locked(&mut guard, kind)?, kind))
    }

    /// A scrub that also compacts: rebuilds the text index from the remaining rows into one
    /// segment, rebuilds the vector snapshot (or drops it below the ANN threshold), and copies
    /// every table into a fresh file that replaces the store's (a fresh image for an in-memory
    /// store), so the file shrinks to its live data. Takes time proportional to the store's
    /// size. Returns the seq of the `scrub` event.
    #[tracing::instrument(name = "oubli::Store::scrub_compact", level = "debug", skip_all)]
    pub fn scrub_compact(&self) -> Result<u64> {
        let mut guard = self.inner.write();
        self.scrub_locked(&mut guard, ScrubKind::Compact)
    }

    fn scrub_locked(&self, guard: &mut Option<Inner>, kind: ScrubKind) -> Result<u64> {
        let inner = guard.as_mut().ok_or(Error::Closed)?;
        erase_text(inner, kind)?;
        let seq = inner.write(self.now(), self.opts.ann_threshold, |b| {
            scrub_event(b, kind)
        })?;
        self.finish_erasure(guard, kind)?;
        Ok(seq)
    }

    /// The last step of a scrub, after the `scrub` event committed: for an incremental scrub,
    /// writes the text index files still staged and makes one more durable commit, which frees
    /// (and so zeroes) the pages the earlier commits replaced; for a compaction, the file copy.
    pub(super) fn finish_erasure(&self, guard: &mut Option<Inner>, kind: ScrubKind) -> Result<()> {
        match kind {
            ScrubKind::Compact => self.rewrite_file(guard),
            ScrubKind::Incremental => {
                let inner = guard.as_mut().ok_or(Error::Closed)?;
                inner.commit_frees()
            }
        }
    }
}

impl Inner {
    /// One more write transaction, committed durably whatever the store's durability, holding
    /// the text index files still staged (if any): redb frees the pages earlier commits replaced
    /// only in a durable commit, and only those replaced before it (see
    /// `vendor/redb/OUBLI-PATCH.md`). The pages this commit replaces itself are the previous
    /// commit's versions, which no longer held any erased byte.
    pub(super) fn commit_frees(&mut self) -> Result<()> {
        let tx = self.db.begin_write()?;
        let staged = self.text.stage_into(&tx)?;
        tx.commit()?;
        self.text.committed(staged);
        Ok(())
    }
}

impl Store {
    /// Copies every table into a fresh file beside the store, syncs it, and renames it over the
    /// store, so that no freed page of the old file survives.
    ///
    /// The writer's lock never lapses: the copy is created, and locked, by this handle before
    /// the rename, and the old file is closed only after the rename, so at every instant the file
    /// at the store's path is locked by this handle and no other process can open it for writing
    /// in between (readers in other processes keep reading whichever file they opened).
    pub(super) fn rewrite_file(&self, guard: &mut Option<Inner>) -> Result<()> {
        let inner = guard.as_mut().ok_or(Error::Closed)?;
        // The copy must hold the text index as rebuilt, not the files it replaced.
        inner.flush_text_files()?;
        if let Some(old) = inner.db.memory_image().cloned() {
            return self.rewrite_image(guard, old);
        }
        let tmp = temp_path(&self.path);
        // This handle holds the writer's lock: a copy already there is a crashed scrub's.
        let _ = std::fs::remove_file(&tmp);
        let fresh = redb::Builder::new()
            .create(&tmp)
            .map_err(|e| Error::Storage(e.to_string()))?;
        let copied = (|| -> Result<()> {
            let src = inner.db.begin_read()?;
            let dst = fresh.begin_write()?;
            copy_tables(&src, &dst)?;
            mark_free_pages_zeroed(&dst)?;
            dst.commit()?;
            Ok(())
        })();
        if let Err(e) = copied {
            drop(fresh);
            let _ = std::fs::remove_file(&tmp);
            return Err(e);
        }
        if let Err(e) = std::fs::rename(&tmp, &self.path) {
            drop(fresh);
            let _ = std::fs::remove_file(&tmp);
            return Err(e.into());
        }
        if let Some(dir) = self.path.parent().filter(|d| !d.as_os_str().is_empty())
            && let Ok(d) = std::fs::File::open(dir)
        {
            let _ = d.sync_all();
        }
        // The path now names the copy, which this handle has open and locked: swap the handles.
        let feed = inner.feed.clone();
        match Inner::from_db(Db::writable(fresh), &self.opts) {
            Ok(mut new) => {
                new.feed = feed;
                *guard = Some(new);
                Ok(())
            }
            Err(e) => {
                // The old handle points at an unlinked file: never write through it again.
                guard.take();
                let mut reopened = Inner::open(&self.path, &self.opts)?;
                reopened.feed = feed;
                *guard = Some(reopened);
                Err(e)
            }
        }
    }
}

impl Store {
    /// The in-memory counterpart of the file rewrite: copies every table into a fresh image,
    /// swaps it in, closes the old database and overwrites every byte of the old image with
    /// zeros, so that no freed page of it survives.
    fn rewrite_image(&self, guard: &mut Option<Inner>, old: MemoryImage) -> Result<()> {
        let inner = guard.as_mut().ok_or(Error::Closed)?;
        let image = MemoryImage::new();
        let fresh = redb::Builder::new()
            .create_with_backend(image.backend())
            .map_err(|e| Error::Storage(e.to_string()))?;
        {
            let src = inner.db.begin_read()?;
            let dst = fresh.begin_write()?;
            copy_tables(&src, &dst)?;
            mark_free_pages_zeroed(&dst)?;
            dst.commit()?;
        }
        // On failure the old image is still whole and in use: nothing to undo.
        let mut new = Inner::from_db(Db::memory(fresh, image), &self.opts)?;
        new.feed = inner.feed.clone();
        let replaced = guard.replace(new);
        // Closing the old state drops every handle on the old database (the text index's
        // directory, the writer) before its bytes are wiped.
        drop(replaced);
        old.wipe()
    }
}

/// A fresh copy has no freed page yet: from now on redb zeroes every page it frees.
fn mark_free_pages_zeroed(tx: &redb::WriteTransaction) -> Result<()> {
    tx.open_table(META)?
        .insert(meta::FREE_PAGES_ZEROED, [].as_slice())?;
    Ok(())
}

impl Store {
    /// The text side of a purge's scrub ([`erase_text`]), letting readers in while the
    /// segments are rewritten. The segments to rewrite are chosen and their rewrites scheduled
    /// under the write lock; the lock is then downgraded to an upgradable read while tantivy's
    /// merge thread rewrites them, so recalls and lists proceed (searching the segments as they
    /// were, the reader reloading only at the end) and writers still wait; the lock is upgraded
    /// back to exclusive to delete the replaced files and reload the reader. Nothing reaches the
    /// file in between: the rewritten files are staged with the next write transaction, and the
    /// freeing commit that zeroes the replaced pages ([`Inner::commit_frees`]) runs later, under
    /// the exclusive lock, so no read transaction of this process holds them. A compaction
    /// rebuilds the text index under the exclusive lock, as before.
    ///
    /// `meanwhile` runs on this thread while tantivy's merge thread rewrites the segments, with
    /// read access to the store (a purge embeds its residual audit's probes there); for a
    /// compaction it runs after the rebuild. Its result is returned with the scrub's kind once the rewrite is finished.
    pub(super) fn erase_text_letting_readers<R>(
        &self,
        meanwhile: impl FnOnce(&Inner) -> Result<R>,
    ) -> Result<(ScrubKind, R)> {
        let _span = tracing::debug_span!("oubli::Store::erase_text").entered();
        let mut guard = self.inner.write();
        let inner = guard.as_mut().ok_or(Error::Closed)?;
        let kind = ScrubKind::for_store(inner)?;
        if kind == ScrubKind::Compact {
            rebuild_text(inner)?;
            return Ok((kind, meanwhile(inner)?));
        }
        let mut rewrite = inner.text.start_erase_deleted()?;
        let shared = RwLockWriteGuard::downgrade_to_upgradable(guard);
        #[cfg(test)]
        tests::WHILE_REWRITING.reach(&self.path);
        // The rewrite is waited for and finished whatever `meanwhile` returns.
        let prepared = shared.as_ref().ok_or(Error::Closed).and_then(meanwhile);
        let waited = {
            let _span = tracing::debug_span!("oubli::Store::erase_text_wait").entered();
            rewrite.wait()
        };
        let mut guard = RwLockUpgradableReadGuard::upgrade(shared);
        waited?;
        let inner = guard.as_mut().ok_or(Error::Closed)?;
        inner.text.finish_erase_deleted(rewrite)?;
        Ok((kind, prepared?))
    }
}

/// The text side of a scrub: rewrites the segments holding deleted documents, or for a
/// compaction rebuilds the whole index from the remaining rows.
pub(super) fn erase_text(inner: &mut Inner, kind: ScrubKind) -> Result<()> {
    match kind {
        ScrubKind::Compact => rebuild_text(inner),
        ScrubKind::Incremental => inner.text.erase_deleted().map(drop),
    }
}

/// The scrub's transaction body: removes erased vectors' bytes from the vector snapshot and
/// appends the `scrub` event. Returns its seq.
///
/// Below the ANN threshold the snapshot, if any, is dropped (every vector goes back to the
/// exact tail). Above it, the removed vectors' bytes are overwritten in the serialized snapshot,
/// only the chunks holding them rewritten (`VectorIndex::erase_removed`); a snapshot whose
/// layout the parser does not recognise is rebuilt from the remaining vectors instead, as a
/// compaction always does.
pub(super) fn scrub_event(b: &mut Batch<'_>, kind: ScrubKind) -> Result<u64> {
    scrub_indexes(b, kind)?;
    b.event(EventKind::Scrub, "*", vec![], vec![])
}

/// The part of a scrub's transaction that erases from this copy's own derived data: the vector
/// snapshot (see [`scrub_event`]) and the `keys` table. Running it again changes nothing.
pub(super) fn scrub_indexes(b: &mut Batch<'_>, kind: ScrubKind) -> Result<()> {
    let threshold = b.ann_threshold();
    let total = b.inner().vectors.len();
    // Disjoint borrows: the vector index and the transaction.
    let tx = b.tx;
    if total > threshold {
        let patched = kind == ScrubKind::Incremental
            && (!b.inner().vectors.snapshot_dirty() || b.inner_mut()?.vectors.erase_removed(tx)?);
        if !patched {
            b.inner_mut()?.vectors.rebuild_snapshot(tx)?;
        }
    } else if kind == ScrubKind::Compact || b.inner().vectors.has_snapshot() {
        b.inner_mut()?.vectors.drop_snapshot(tx)?;
    }
    rebuild_keys_if_due(tx)?;
    Ok(())
}

impl Store {
    /// A replica's side of a `scrub` event it applied from its leader: the same erasure in this
    /// copy's text index, vector snapshot, `keys` table and file, without an event of its own.
    pub(crate) fn replica_erasure(&self, guard: &mut Option<Inner>) -> Result<()> {
        let inner = guard.as_mut().ok_or(Error::Closed)?;
        let kind = ScrubKind::for_store(inner)?;
        erase_text(inner, kind)?;
        inner.write(self.now(), self.opts.ann_threshold, |b| {
            scrub_indexes(b, kind)
        })?;
        self.finish_erasure(guard, kind)
    }
}

/// Rebuilds into fresh pages each natural-key shard a purge removed a key from since the last
/// scrub ([`meta::KEYS_REBUILD_DUE`]): a removed key can survive as a separator in a live branch
/// page, which no freed-page zeroing reaches. Deleting a shard's table frees every one of its
/// pages (the vendored redb zeroes them at the scrub's freeing commit), and its live keys are
/// inserted again in order, so every separator of the new tree is a live key. Costs one insert
/// per live key of the due shards (a 64th of the store's keys for one purge), not a copy of the
/// file.
fn rebuild_keys_if_due(tx: &redb::WriteTransaction) -> Result<()> {
    let due = storage::due_key_shards(tx)?;
    if due.is_empty() {
        return Ok(());
    }
    for shard in due {
        let def = storage::KEY_TABLES[shard];
        let mut live: Vec<(String, String, u64)> = Vec::new();
        {
            let keys = tx.open_table(def)?;
            for e in keys.iter()? {
                let (k, v) = e?;
                let (ns, key) = k.value();
                live.push((ns.to_owned(), key.to_owned(), v.value()));
            }
        }
        tx.delete_table(def)?;
        let mut keys = tx.open_table(def)?;
        for (ns, key, id) in &live {
            keys.insert((ns.as_str(), key.as_str()), id)?;
        }
    }
    tx.open_table(META)?.remove(meta::KEYS_REBUILD_DUE)?;
    Ok(())
}

/// Rebuilds the text index from the remaining rows into segments of at most the segment cap,
/// without deleted documents.
pub(super) fn rebuild_text(inner: &mut Inner) -> Result<()> {
    let tx = inner.db.begin_read()?;
    let mut rows = Vec::new();
    if let Some(t) = storage::open_read(&tx, PAYLOADS)? {
        for e in t.iter()? {
            let (k, v) = e?;
            let p = Payload::decode(v.value())?;
            rows.push((k.value(), p.text));
        }
    }
    drop(tx);
    let seq = inner.head_seq;
    inner
        .text
        .rebuild(rows.iter().map(|(id, t)| (*id, t.as_str())), seq)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::mpsc;

    use crate::store::pause_point::PausePoint;
    use crate::{Inscription, RecallQuery, Store, StoreOptions, Target};

    /// Reached by a purge while its text segments are being rewritten (the lock downgraded).
    pub(super) static WHILE_REWRITING: PausePoint = PausePoint::new();

    /// A reader completes a recall while a purge is rewriting the text segments that held the
    /// erased row: the purge waits (inside the rewrite) for the reader's recall to finish, so
    /// if readers were shut out the recall could not finish before the purge, and the purge's
    /// wait reports it. The erased text is absent from the file afterwards (raw byte scan).
    #[test]
    fn a_reader_recalls_while_a_purge_rewrites_the_text_segments() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.oubli");
        let store = Arc::new(Store::create_with(&path, StoreOptions::default()).unwrap());
        // 1,100 rows in one write go straight to a tantivy segment (not the in-memory tail),
        // so purging one leaves a segment with a deleted document to rewrite.
        let texts: Vec<String> = (0..1100)
            .map(|i| format!("note {i} about the quarterly garden budget zq{i}xv"))
            .collect();
        store
            .inscribe_batch(texts.iter().map(Inscription::new).collect())
            .unwrap();
        let victim = 6u64;
        let victim_text = texts[victim as usize - 1].clone();
        let (inside_tx, inside_rx) = mpsc::channel::<()>();
        let (done_tx, done_rx) = mpsc::channel::<()>();
        let (waited_tx, waited_rx) = mpsc::channel::<bool>();
        WHILE_REWRITING.set(
            &path,
            Box::new(move || {
                inside_tx.send(()).unwrap();
                // Not a timing assertion: a bound that turns "readers are shut out" (the
                // recall below would wait for this purge, which waits here) into a failure
                // instead of a hang.
                let ok = done_rx
                    .recv_timeout(std::time::Duration::from_secs(120))
                    .is_ok();
                waited_tx.send(ok).unwrap();
            }),
        );
        let purger = {
            let store = store.clone();
            std::thread::spawn(move || store.purge(Target::id(victim)))
        };
        if inside_rx
            .recv_timeout(std::time::Duration::from_secs(120))
            .is_err()
        {
            panic!(
                "the purge never reached its segment rewrite: {:?}",
                purger.join().map(|r| r.map(|p| p.erased))
            );
        }
        // The purge is now inside its segment rewrite, and waits for this recall.
        let hits = store
            .recall(&RecallQuery::new("quarterly garden budget").k(5))
            .unwrap();
        done_tx.send(()).unwrap();
        assert!(!hits.is_empty());
        assert!(hits.iter().all(|h| h.row.id != victim));
        assert!(
            waited_rx.recv().unwrap(),
            "the recall finished only after the purge"
        );
        let report = purger.join().unwrap().unwrap();
        assert_eq!(report.erased, vec![victim]);
        store.close().unwrap();
        let bytes = std::fs::read(&path).unwrap();
        let needle = victim_text.as_bytes();
        assert!(
            !bytes.windows(needle.len()).any(|w| w == needle),
            "erased text left in the file"
        );
        let marker = format!("zq{}xv", victim - 1);
        let marker = marker.as_bytes();
        assert!(!bytes.windows(marker.len()).any(|w| w == marker));
    }
}
