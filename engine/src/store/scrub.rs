//! Scrub: the erasure completion point.
//!
//! A purge deletes rows from the tables, but bytes of the erased text can survive in three
//! places: tantivy segments (a deleted document's terms stay in its segment until a merge), the
//! usearch snapshot (a removed vector's bytes stay in the serialized graph), and pages redb has
//! freed but not overwritten. Scrub removes all three:
//! 1. it rebuilds the vector snapshot from the remaining vectors (or drops it below the ANN
//!    threshold) and records a `scrub` event;
//! 2. it rebuilds the text index from the remaining rows into a single segment;
//! 3. it copies every table into a fresh file beside the store, syncs it, and renames it over
//!    the store, so no freed page of the old file survives. The old file's inode is unlinked;
//!    read-only handles that still have it open keep seeing it until they close.

use std::path::{Path, PathBuf};

use redb::ReadableTable;

use super::batch::Batch;
use super::{Inner, Store, copy_tables};
use crate::error::{Error, Result};
use crate::log::EventKind;
use crate::storage::{self, Db, MemoryImage, PAYLOADS, Payload};

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

impl Store {
    /// Rewrites the indexes and the file so that nothing erased by earlier purges remains in any
    /// byte of it. Returns the sequence number of the `scrub` event, the erasure completion point
    /// that receipts cite. Takes time proportional to the store's size.
    #[tracing::instrument(name = "oubli::Store::scrub", level = "debug", skip_all)]
    pub fn scrub(&self) -> Result<u64> {
        let mut guard = self.inner.write();
        let inner = guard.as_mut().ok_or(Error::Closed)?;
        let seq = inner.write(self.now(), self.opts.ann_threshold, scrub_event)?;
        rebuild_text(inner)?;
        self.rewrite_file(&mut guard)?;
        Ok(seq)
    }

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
        match Inner::from_db(Db::Writable(fresh), &self.opts) {
            Ok(new) => {
                *guard = Some(new);
                Ok(())
            }
            Err(e) => {
                // The old handle points at an unlinked file: never write through it again.
                guard.take();
                *guard = Some(Inner::open(&self.path, &self.opts)?);
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
            dst.commit()?;
        }
        // On failure the old image is still whole and in use: nothing to undo.
        let new = Inner::from_db(Db::Memory(fresh, image), &self.opts)?;
        let replaced = guard.replace(new);
        // Closing the old state drops every handle on the old database (the text index's
        // directory, the writer) before its bytes are wiped.
        drop(replaced);
        old.wipe()
    }
}

/// The scrub's transaction body: rebuilds the vector snapshot from the remaining vectors (or
/// drops it below the ANN threshold) and appends the `scrub` event. Returns its seq.
pub(super) fn scrub_event(b: &mut Batch<'_>) -> Result<u64> {
    let threshold = b.ann_threshold();
    let total = b.inner.vectors.len();
    // Disjoint borrows: the vector index and the transaction.
    let tx = b.tx;
    if total > threshold {
        b.inner.vectors.rebuild_snapshot(tx)?;
    } else {
        b.inner.vectors.drop_snapshot(tx)?;
    }
    b.event(EventKind::Scrub, "*", vec![], vec![])
}

/// Rebuilds the text index from the remaining rows into one segment without deleted documents.
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
