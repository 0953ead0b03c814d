//! Growing the vector graph (HNSW) on request: [`Store::build_vector_graph`], the step that
//! follows a load made with [`crate::StoreOptions::defer_vector_graph`].
//!
//! By default writes grow the graph themselves (see `index::vector`): a write starts a
//! background build once enough vectors wait in the exact tail, and a later write installs it.
//! Deferred, writes leave every new vector in the tail, and this call links them: one build per
//! step (the last segment grown, or a new segment of the tail's oldest rows), each run on the
//! build threads while the store's lock is free, so readers and writers go on meanwhile, and
//! installed in a transaction of its own.

use super::{Inner, Store};
use crate::error::{Error, Result};
use crate::storage::{self, VECTORS};

/// How much of a store's vectors the vector graph holds ([`Store::vector_graph_status`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VectorGraphStatus {
    /// Vectors linked into the graph (searched approximately, then re-scored exactly).
    pub linked: usize,
    /// Vectors newer than the graph, scanned exactly by every recall.
    pub exact: usize,
    /// A build of the graph's next step is running or waits to be installed.
    pub building: bool,
}

impl Store {
    /// How much of the store's vectors the vector graph holds: the vectors a recall scans
    /// exactly grow with a load made with [`crate::StoreOptions::defer_vector_graph`] until
    /// [`Store::build_vector_graph`].
    pub fn vector_graph_status(&self) -> Result<VectorGraphStatus> {
        let guard = self.inner.read();
        let inner = guard.as_ref().ok_or(Error::Closed)?;
        let v = &inner.vectors;
        Ok(VectorGraphStatus {
            linked: v.len() - v.tail_len(),
            exact: v.tail_len(),
            building: v.is_building(),
        })
    }

    /// Links the vectors newer than the vector graph into it, until at most half the ANN
    /// threshold of them are left to the exact scan (as writes keep it by default), and writes
    /// the graph into the file. Nothing to do below the ANN threshold. Returns the number of
    /// build steps installed.
    ///
    /// Needed only with [`crate::StoreOptions::defer_vector_graph`]; without it, a build that
    /// writes started is finished and installed, which a later write would have done. The build
    /// runs on [`crate::StoreOptions::vector_build_threads`] threads without holding the store's
    /// lock: recalls (exact over the vectors not yet linked) and writes proceed meanwhile. A
    /// vector removed while a step builds discards that step, which is then built again.
    #[tracing::instrument(name = "oubli::Store::build_vector_graph", level = "debug", skip_all)]
    pub fn build_vector_graph(&self) -> Result<usize> {
        let ann_threshold = self.opts.ann_threshold;
        let mut installed = 0;
        loop {
            let done = {
                let mut guard = self.inner.write();
                let inner = guard.as_mut().ok_or(Error::Closed)?;
                if !inner.db.is_writable() {
                    return Err(Error::ReadOnly);
                }
                inner.start_vector_build(ann_threshold, true)?;
                match inner.vectors.pending_build() {
                    Some(done) => done,
                    None => return Ok(installed),
                }
            };
            done.wait();
            let mut guard = self.inner.write();
            let inner = guard.as_mut().ok_or(Error::Closed)?;
            if inner.install_pending_build()? {
                installed += 1;
            }
        }
    }
}

impl Inner {
    /// Starts a background build of the vector graph if one is due (see
    /// `VectorIndex::start_build`); while the growth is deferred, only when `requested` (by
    /// [`Store::build_vector_graph`]).
    pub(crate) fn start_vector_build(
        &mut self,
        ann_threshold: usize,
        requested: bool,
    ) -> Result<()> {
        let db = self.db.clone();
        let dim = self.dim;
        // A bulk copy of the vectors: read past redb's read cache.
        let all = |from, to| {
            redb::without_read_cache(|| {
                let tx = db.begin_read()?;
                let mut all = Vec::new();
                if let Some(t) = storage::open_read(&tx, VECTORS)? {
                    for e in t.range(from..=to)? {
                        let (k, v) = e?;
                        all.push((k.value(), storage::decode_vector(v.value(), dim)?));
                    }
                }
                Ok(all)
            })
        };
        let _span = tracing::debug_span!("oubli::vector::start_build").entered();
        if requested {
            self.vectors.start_build(ann_threshold, all)
        } else {
            self.vectors.maybe_start_build(ann_threshold, all)
        }
    }

    /// Installs the pending build (waiting for it if it still runs) in a transaction of its own.
    /// Returns false when there was none, or when it overlapped a removed vector and was
    /// discarded.
    fn install_pending_build(&mut self) -> Result<bool> {
        let mut tx = self.db.begin_write()?;
        if !self.durable {
            tx.set_durability(redb::Durability::None)?;
        }
        match self.vectors.take_due_build(&tx, 0, &[], true)? {
            Some(built) => {
                tx.commit()?;
                self.vectors.install(built);
                Ok(true)
            }
            None => {
                tx.abort()?;
                Ok(false)
            }
        }
    }
}
