//! Building the vector leg's HNSW graph: vectors added to a usearch index on several threads,
//! and the background build's result ([`Done`]) that a write waits on.
//!
//! usearch's `add` is thread-safe once the index has reserved room for the vectors and for the
//! threads that add them: each thread takes the next vector in row id order from a shared
//! counter and inserts it. With one thread the graph is the one the vectors added in id order
//! make, byte for byte, for the same operations. With several, which vector an insertion sees
//! already linked depends on the threads' timing, so the graph's shape (its neighbour lists, the
//! slot order of the serialized form and each node's level, drawn from per-thread generators)
//! can differ between two builds of the same vectors. What does not depend on the schedule:
//! the set of keys in the graph, the i8 bytes stored for each (quantized per vector), the log,
//! the rows and every event hash (the graph is derived data, outside the log, the replication
//! frames and the state digests), and the scores the store reports for the candidates the graph
//! returns (re-scored exactly against the stored vectors). The candidates themselves are an
//! approximate search's: a build on several threads can miss a different near-duplicate than a
//! build on one. Measured recall@10 against the exact scan is in docs/performance.md (issue 16,
//! ninth pass); [`crate::StoreOptions::vector_build_threads`] set to 1 restores the
//! byte-identical graph where that matters more than the build's speed.

use std::sync::atomic::{AtomicUsize, Ordering};

use parking_lot::{Condvar, Mutex};
use usearch::Index;

use crate::error::{Error, Result};
use crate::row::RowId;

/// Vectors per thread below which adding them stays on fewer threads (a thread per handful of
/// vectors costs more than it saves).
const MIN_VECTORS_PER_THREAD: usize = 256;

/// Search breadth while linking a vector into a graph of at least [`SEED_ROWS`] vectors.
pub(super) const EXPANSION_ADD: usize = 128;
/// Search breadth while linking each of a graph's first [`SEED_ROWS`] vectors.
///
/// Measured (issue 16, twenty-first pass, `recall` bench at 100,000 near-duplicate memories):
/// linking every vector at 128 gave recall@10 0.493 against the exact scan; linking the first
/// build's 25,000 vectors at 512 / 1,024 / 2,048 and the rest at 128 gave 0.879 / 0.951 / 0.981
/// for a load of 36 / 45 / 72 s against 25; linking every vector at 256 / 512 / 1,024 gave
/// 0.712 / 0.899 / 0.959 for 54 / 83 / 136 s. A well linked first part of the graph is what
/// later insertions (and searches) navigate through; its cost is paid once per graph.
pub(super) const SEED_EXPANSION_ADD: usize = 1024;
/// Vectors a graph links with [`SEED_EXPANSION_ADD`] (the first build's size at the default
/// ANN threshold is 25,000); the count is the graph's, so a build grown from a base graph of
/// this size or more links every vector with [`EXPANSION_ADD`].
pub(super) const SEED_ROWS: usize = 25_000;

/// Threads a build uses by default: the machine's available parallelism, at most 8.
pub fn default_build_threads() -> usize {
    crate::parallel::available_threads()
}

pub(super) fn vx(e: impl std::fmt::Display) -> Error {
    Error::VectorIndex(e.to_string())
}

/// Reserves room in `index` for `capacity` vectors added by up to `threads` threads. One thread
/// reserves as the store always did (usearch's default thread contexts), so its graphs stay the
/// bytes they were.
pub(super) fn reserve(index: &Index, capacity: usize, threads: usize) -> Result<()> {
    if threads <= 1 {
        index.reserve(capacity.max(1)).map_err(vx)
    } else {
        // Searches also take a thread context: never fewer than the machine's threads.
        let contexts = threads.max(default_build_threads());
        index
            .reserve_capacity_and_threads(capacity.max(1), contexts)
            .map_err(vx)
    }
}

/// Adds `vectors` (in row id order) to `index`, which has reserved room for them with
/// [`reserve`] and `threads`. Returns the highest row id added (`floor` if none is higher).
///
/// The vectors that take the graph to [`SEED_ROWS`] are linked with [`SEED_EXPANSION_ADD`],
/// the rest with [`EXPANSION_ADD`]; the breadth changes between the two parts, never while
/// threads add (usearch reads it unsynchronised), so a one-thread build stays the same bytes.
pub(super) fn add_all(
    index: &Index,
    vectors: &[(RowId, Vec<f32>)],
    threads: usize,
    floor: RowId,
) -> Result<RowId> {
    let max_row = vectors.iter().map(|x| x.0).fold(floor, RowId::max);
    let seed = SEED_ROWS.saturating_sub(index.size()).min(vectors.len());
    let (first, rest) = vectors.split_at(seed);
    if !first.is_empty() {
        index.change_expansion_add(SEED_EXPANSION_ADD);
        add_part(index, first, threads)?;
    }
    index.change_expansion_add(EXPANSION_ADD);
    add_part(index, rest, threads)?;
    Ok(max_row)
}

/// Adds `vectors` to `index` in order on up to `threads` threads (see [`add_all`]).
fn add_part(index: &Index, vectors: &[(RowId, Vec<f32>)], threads: usize) -> Result<()> {
    let threads = threads
        .max(1)
        .min(vectors.len().div_ceil(MIN_VECTORS_PER_THREAD).max(1));
    if threads == 1 {
        for (id, v) in vectors {
            index.add(*id, v).map_err(vx)?;
        }
        return Ok(());
    }
    let next = AtomicUsize::new(0);
    let failed: Mutex<Option<Error>> = Mutex::new(None);
    let work = || {
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some((id, v)) = vectors.get(i) else { break };
            if let Err(e) = index.add(*id, v) {
                failed.lock().get_or_insert(vx(e));
                // The other threads stop at their next vector.
                next.store(vectors.len(), Ordering::Relaxed);
                break;
            }
        }
    };
    std::thread::scope(|s| {
        let work = &work;
        let helpers: Vec<_> = (1..threads)
            .map(|_| {
                std::thread::Builder::new()
                    .name("oubli-hnsw-add".into())
                    .spawn_scoped(s, work)
            })
            .collect();
        work();
        // A helper that could not start left its share to the others.
        for h in helpers.into_iter().flatten() {
            if h.join().is_err() {
                failed
                    .lock()
                    .get_or_insert(Error::VectorIndex("a graph insertion panicked".into()));
            }
        }
    });
    match failed.into_inner() {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// A finished build: the graph, its highest row id, and its serialized form.
pub(super) struct Built {
    pub(super) index: Index,
    pub(super) max_row: RowId,
    pub(super) blob: Vec<u8>,
    /// The slots of `blob` ([`super::vector::vector_slots`]).
    pub(super) slots: Option<super::vector::VectorSlots>,
}

/// A build thread's result, set when it finishes; waited on without holding the store's lock.
#[derive(Default)]
pub struct Done {
    result: Mutex<Option<Result<Built>>>,
    signal: Condvar,
}

impl Done {
    /// Blocks until the build has finished.
    pub fn wait(&self) {
        let mut r = self.result.lock();
        while r.is_none() {
            self.signal.wait(&mut r);
        }
    }

    pub(super) fn is_finished(&self) -> bool {
        self.result.lock().is_some()
    }

    pub(super) fn set(&self, result: Result<Built>) {
        *self.result.lock() = Some(result);
        self.signal.notify_all();
    }

    /// Waits for the result and takes it.
    pub(super) fn take(&self) -> Result<Built> {
        self.wait();
        self.result.lock().take().unwrap_or_else(|| {
            Err(Error::VectorIndex(
                "snapshot build result taken twice".into(),
            ))
        })
    }
}

/// The build thread: the base graph restored from its serialized form (or `fresh`), then `add`
/// inserted in id order on `threads` threads (see the module docs).
pub(super) fn run_build(
    fresh: impl FnOnce() -> Result<Index>,
    base: Option<Vec<u8>>,
    base_max: RowId,
    add: Vec<(RowId, Vec<f32>)>,
    count: usize,
    threads: usize,
) -> Result<Built> {
    let span = tracing::debug_span!("oubli::vector::build_restore").entered();
    let index = match base {
        Some(blob) => Index::restore_from_buffer(&blob).map_err(vx)?,
        None => fresh()?,
    };
    reserve(&index, count, threads)?;
    drop(span);
    let span = tracing::debug_span!(
        "oubli::vector::build_add",
        vectors = add.len(),
        base = index.size()
    )
    .entered();
    let max_row = add_all(&index, &add, threads, base_max)?;
    drop(add);
    drop(span);
    let _span = tracing::debug_span!("oubli::vector::build_save").entered();
    let mut blob = vec![0u8; index.serialized_length()];
    index.save_to_buffer(&mut blob).map_err(vx)?;
    let slots = super::vector::vector_slots(&blob, index.dimensions());
    Ok(Built {
        index,
        max_row,
        blob,
        slots,
    })
}
