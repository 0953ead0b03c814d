//! Explicit repair of the derived indexes: the text index and the vector snapshot are rebuilt
//! from the rows, whatever state they are in. (Opens already rebuild an index they cannot
//! read; `repair` also replaces one that opens but may be stale or damaged in a way the open
//! did not notice, and says what it found.)

use serde::{Deserialize, Serialize};

use super::open::rebuilt_text;
use super::{Store, guarded};
use crate::error::{Error, Result};
use crate::index::vector::VectorIndex;
use crate::storage::{self, META};

/// Derived indexes an open found damaged and rebuilt before [`Store::repair`] ran.
#[derive(Clone, Debug, Default)]
pub(crate) struct Rebuilt {
    /// Why the text index was rebuilt (empty: it was not).
    pub text: Vec<String>,
    /// The vector snapshot could not be restored.
    pub snapshot: bool,
}

/// What [`Store::repair`] found and did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RepairReport {
    /// What was wrong with the text index before the rebuild, found by this handle's open or
    /// by the repair itself: files failing their checksum, an unreadable index (empty when it
    /// was sound).
    pub text_damaged: Vec<String>,
    /// Rows in the rebuilt text index.
    pub text_rows: u64,
    /// True when the stored vector snapshot could not be restored (at this handle's open or by
    /// the repair).
    pub snapshot_damaged: bool,
    /// Vectors in the rebuilt vector index.
    pub vectors: usize,
    /// True when a vector snapshot was written (the store is past the ANN threshold); false
    /// when recall scans the vectors exactly and no snapshot is kept.
    pub snapshot_written: bool,
}

impl Store {
    /// Rebuilds the text index and the vector snapshot from the rows (the data the log
    /// verifies), reporting what was damaged before. Changes no row and writes no event.
    /// Needs a writable handle.
    pub fn repair(&self) -> Result<RepairReport> {
        let mut guard = self.inner.write();
        let inner = guard.as_mut().ok_or(Error::Closed)?;
        if !inner.db.is_writable() {
            return Err(Error::ReadOnly);
        }
        let opts = &self.opts;
        let now = self.now();
        guarded(|| {
            let found = std::mem::take(&mut inner.rebuilt_on_open);
            let mut text_damaged = found.text;
            match guarded(|| inner.text.damaged_files()) {
                Ok(files) => text_damaged.extend(files),
                Err(e) => text_damaged.push(format!("the index could not be read: {e}")),
            }
            let cap = inner.text.segment_docs();
            inner.text = rebuilt_text(&inner.db, inner.head_seq, cap)?;
            inner.text_behind = false;
            let text_rows = inner.text.num_docs();

            let tx = inner.db.begin_read()?;
            let m = tx.open_table(META)?;
            let vec_t = storage::open_read(&tx, storage::VECTORS)?
                .ok_or_else(|| Error::Corrupt("vectors table missing".into()))?;
            let snap_t = storage::open_read(&tx, storage::VECTOR_SNAPSHOT)?;
            let snapshot_damaged = found.snapshot
                || (snap_t.is_some()
                    && guarded(|| VectorIndex::load(inner.dim, &m, snap_t.as_ref(), &vec_t))
                        .is_err());
            let mut exact = VectorIndex::load(
                inner.dim,
                &m,
                None::<&redb::ReadOnlyTable<u64, &'static [u8]>>,
                &vec_t,
            )?;
            drop((m, vec_t, snap_t, tx));
            exact.set_build_threads(opts.vector_build_threads);
            exact.set_ann_threshold(opts.ann_threshold);
            exact.set_deferred(opts.defer_vector_graph);
            inner.vectors = exact;
            let snapshot_written = inner.write(now, opts.ann_threshold, |b| {
                let tx = b.tx;
                if b.inner().vectors.len() > b.ann_threshold() {
                    b.inner_mut()?.vectors.rebuild_snapshot(tx)?;
                    Ok(true)
                } else {
                    b.inner_mut()?.vectors.drop_snapshot(tx)?;
                    Ok(false)
                }
            })?;
            Ok(RepairReport {
                text_damaged,
                text_rows,
                snapshot_damaged,
                vectors: inner.vectors.len(),
                snapshot_written,
            })
        })
    }
}
