//! The vector leg: exact scan while small, a usearch HNSW snapshot plus an exact scan of newer
//! rows once large.
//!
//! Vectors themselves live in the [`VECTORS`] table, one per row. This module holds the derived,
//! in-memory search structure:
//! - the *tail*: every vector newer than the snapshot, scanned exactly (all vectors while the
//!   store is below the ANN threshold);
//! - the *snapshot*: usearch graphs over the rows up to `snapshot_max_row`, serialized into
//!   [`VECTOR_SNAPSHOT`] so that opening a store restores them instead of rebuilding them.
//!
//! The snapshot is cut into *segments* of at most [`SEGMENT_THRESHOLDS`] ANN thresholds' worth
//! of vectors (100,000 at the default threshold), each a graph of its own over a range of row
//! ids; a search asks every segment and merges their candidates. One graph over a million
//! near-duplicate memories routed searches badly (recall@10 0.35 against the exact scan); ten
//! of a hundred thousand, each linking its first vectors widely (`vector_build::SEED_ROWS`),
//! find 0.97 (issue 16, twenty-third pass). Growth rebuilds only the last segment (or starts a
//! new one), so the bytes written per growth and the cost of linking a vector stay bounded at
//! any size of the store.
//!
//! Vectors are unit length, so inner product is cosine similarity. The graph stores them as i8
//! (usearch scales each to length 127), and its distance is `1 - a·b` over those integers, exact
//! in every usearch kernel: the generic loop, or with the `simd` feature a SIMD kernel chosen at
//! run time for the CPU. So the kernel changes the build's speed, never the graph's bytes.
//!
//! Growing the snapshot runs on a background thread ([`Build`]), never in a write: once the store
//! holds more than the ANN threshold `T` of vectors and the tail more than `T / 2`, a write starts
//! a build over a copy of the snapshot plus the tail as it stands (the *cut*); the write that
//! finds `T / 2` more vectors in the tail than at the start installs it (persisting it in its own
//! transaction) and the tail keeps only the rows newer than the cut. The start and the install
//! happen at counts, never at times, so the same operations give a graph of the same rows at the
//! same log position, and readers search the old snapshot and the exact tail meanwhile. The
//! build adds the vectors on several threads ([`super::vector_build`]): the graph's keys and
//! stored bytes are fixed by the operations, its shape by the threads' timing too (on one
//! thread, [`crate::StoreOptions::vector_build_threads`], the graph is the same bytes). A write
//! that must install a build that is still running waits for it before it takes the store's
//! lock, so readers never wait on a build (purge, repair and open, which write under a lock they
//! already hold, wait inside it). Closing the store installs a pending build. A build that overlaps a removed vector is discarded (a graph
//! holding an erased vector's bytes is never persisted) and started again by a later write.
//!
//! With the growth deferred ([`VectorIndex::set_deferred`], for bulk loads), writes neither
//! start nor install builds and the tail grows with every write; `Store::build_vector_graph`
//! then starts each step itself ([`VectorIndex::start_build`]: a new segment takes at most a
//! segment's worth of the tail's oldest rows) and installs it. The graph then changes only at
//! those calls, so the same operations still give the same graph at the same log position.

use std::sync::Arc;

use rustc_hash::FxHashMap;

use redb::{ReadableTable, WriteTransaction};
use usearch::{Index, IndexOptions, MetricKind, ScalarKind};

use super::exact::{ExactMatrix, LANES};
use super::vector_build::{Built, EXPANSION_ADD, run_build, vx};
pub use super::vector_build::{Done, default_build_threads};
pub use super::vector_layout::{VectorSlots, removed_vector_ranges, vector_slots};
use super::vector_layout::{read_blob, segment_key, zero_in_chunks};
use super::vector_segment::{
    Segment, build_all, dirty_rows, read_segment_list, serialize, view_segment, write_segment,
};
use crate::embed::dot;
use crate::error::{Error, Result};
use crate::row::RowId;
use crate::storage::{self, META, VECTOR_SNAPSHOT, VECTORS, meta};

/// Keeps the `limit` best of `scored`, best first; ties broken by higher row id. The order is
/// total (score by `f32::total_cmp`, then row id), so selecting the best before sorting them
/// gives what sorting everything and truncating gives.
fn best_first(scored: &mut Vec<(RowId, f32)>, limit: usize) {
    let order = |a: &(RowId, f32), b: &(RowId, f32)| b.1.total_cmp(&a.1).then(b.0.cmp(&a.0));
    if limit == 0 {
        scored.clear();
        return;
    }
    if scored.len() > limit {
        scored.select_nth_unstable_by(limit - 1, order);
        scored.truncate(limit);
    }
    scored.sort_unstable_by(order);
}

/// Bytes per row of [`VECTOR_SNAPSHOT`]. Erasing a vector rewrites the chunk that holds it, so
/// the chunk bounds the bytes a purge rewrites in the snapshot. Stores written with other
/// chunk sizes load the same (chunks are concatenated).
///
/// One page (4 KiB) short of 1 MiB: redb stores a value this large in a leaf of its own, whose
/// pages are allocated in powers of two; a chunk of exactly 1 MiB plus the leaf's header took
/// 2 MiB (measured: 400 of the snapshot's 800 bytes per row at 100,000 rows were unused).
pub(super) const CHUNK: usize = 1024 * 1024 - 4096;
/// HNSW search breadth. Measured: at 64 an outlier row among near-duplicates went unfound.
pub(super) const EXPANSION_SEARCH: usize = 256;
/// Vectors a graph segment holds before growth starts the next one, in ANN thresholds
/// ([`crate::StoreOptions::ann_threshold`]): 100,000 at the default threshold of 20,000 (see the
/// module docs).
///
/// Measured (issue 16, twenty-third pass, `hnsw` bench over the `recall` bench's 1,000,000
/// near-duplicate memories, graph recall@10 against the exact scan at the store's search
/// breadth): one graph 0.348; graphs of 200,000 each 0.877; of 100,000 each **0.971**, for less
/// build CPU than one graph (0.128 against 0.230 ms per vector) and ten searches instead of one.
pub const SEGMENT_THRESHOLDS: usize = 5;

/// In-memory vector search over the store's vectors.
pub struct VectorIndex {
    dim: usize,
    tail_ids: Vec<RowId>,
    /// The tail's vectors, row `i` being `tail_ids[i]`'s.
    tail: ExactMatrix,
    /// Keyed by row ids the store assigns (never chosen by a caller), so a fast hash is safe.
    tail_pos: FxHashMap<RowId, usize>,
    /// The graph segments, in row id order: segment `n` holds rows above segment `n - 1`'s
    /// `max_row`, up to its own.
    segments: Vec<Segment>,
    build: Option<Build>,
    /// Threads a graph build adds vectors on (see `index::vector_build`).
    build_threads: usize,
    /// Vectors a segment holds before growth starts the next ([`SEGMENT_THRESHOLDS`]).
    segment_rows: usize,
    /// Writes neither start nor wait for a build; only [`VectorIndex::start_build`] does
    /// ([`crate::StoreOptions::defer_vector_graph`]).
    deferred: bool,
}

/// A snapshot being grown on a background thread (see the module docs).
pub struct Build {
    /// The segment the build replaces (the last one, grown), or the number of segments (a new
    /// one).
    segment: usize,
    /// The highest row id the build holds.
    cut: RowId,
    /// Tail size when the build started.
    tail_at_start: usize,
    /// A vector the build holds was removed since it started.
    overlaps_removal: bool,
    done: Arc<Done>,
}

pub(super) fn new_usearch(dim: usize) -> Result<Index> {
    let opts = IndexOptions {
        dimensions: dim,
        metric: MetricKind::IP,
        quantization: ScalarKind::I8,
        connectivity: 16,
        // Set per part by `add_all` (a graph restored from its serialized form has none).
        expansion_add: EXPANSION_ADD,
        expansion_search: EXPANSION_SEARCH,
        multi: false,
    };
    Index::new(&opts).map_err(vx)
}

impl VectorIndex {
    /// An empty index.
    pub fn new(dim: usize) -> Self {
        VectorIndex {
            dim,
            tail_ids: Vec::new(),
            tail: ExactMatrix::new(dim),
            tail_pos: FxHashMap::default(),
            segments: Vec::new(),
            build: None,
            build_threads: 1,
            segment_rows: SEGMENT_THRESHOLDS * crate::options::DEFAULT_ANN_THRESHOLD,
            deferred: false,
        }
    }

    /// Defers the graph's growth to explicit builds ([`crate::StoreOptions::defer_vector_graph`]):
    /// [`VectorIndex::maybe_start_build`] starts nothing, [`VectorIndex::due_build`] asks no
    /// write to wait and [`VectorIndex::take_due_build`] installs only when forced.
    pub fn set_deferred(&mut self, yes: bool) {
        self.deferred = yes;
    }

    /// The pending build (running or finished, not yet installed), to wait on.
    pub fn pending_build(&self) -> Option<Arc<Done>> {
        self.build.as_ref().map(|b| b.done.clone())
    }

    /// Sets the threads a graph build adds vectors on (at least one; 1 gives the same graph,
    /// byte for byte, for the same operations: see `index::vector_build`).
    pub fn set_build_threads(&mut self, threads: usize) {
        self.build_threads = threads.max(1);
    }

    /// Sets the store's ANN threshold, which sizes the graph segments: a segment holds
    /// [`SEGMENT_THRESHOLDS`] thresholds' worth of vectors before growth starts the next one.
    /// Segments already built keep their size.
    pub fn set_ann_threshold(&mut self, ann_threshold: usize) {
        self.segment_rows = ann_threshold.max(1).saturating_mul(SEGMENT_THRESHOLDS);
    }

    /// Loads the snapshot (if any) and the vectors newer than it.
    ///
    /// The snapshot's serialized graph is read into one buffer, which the graph then views in
    /// place (usearch's `view_from_buffer`) instead of copying it into a graph of its own: at
    /// 1M rows that copy was 425 ms of an 850 ms open. A viewed graph is immutable: a vector
    /// removed from it is hidden from its searches (`Segment::remove`), and growing it
    /// builds a new, owned graph from its serialized form, as before.
    ///
    /// What it reads is copied into the index, so the pages are read past redb's read cache
    /// ([`redb::without_read_cache`]): a second copy of every vector and of the serialized graph
    /// would stay in the cache, and filling it is most of what a page read costs.
    pub fn load(
        dim: usize,
        meta_t: &impl ReadableTable<&'static str, &'static [u8]>,
        snap_t: Option<&(impl ReadableTable<u64, &'static [u8]> + Sync)>,
        vec_t: &impl ReadableTable<u64, &'static [u8]>,
    ) -> Result<Self> {
        redb::without_read_cache(|| Self::load_uncached(dim, meta_t, snap_t, vec_t))
    }

    fn load_uncached(
        dim: usize,
        meta_t: &impl ReadableTable<&'static str, &'static [u8]>,
        snap_t: Option<&(impl ReadableTable<u64, &'static [u8]> + Sync)>,
        vec_t: &impl ReadableTable<u64, &'static [u8]>,
    ) -> Result<Self> {
        let mut vi = VectorIndex::new(dim);
        let list = read_segment_list(meta_t)?;
        let dirty = dirty_rows(meta_t)?;
        if let Some(snap_t) = snap_t {
            let mut floor = 0;
            for (n, &(max_row, expected)) in list.iter().enumerate() {
                let blob = read_blob(snap_t, segment_key(n), expected, CHUNK)?;
                let mut segment = view_segment(blob.into_boxed_slice(), dim, max_row)?;
                segment.dirty = dirty
                    .iter()
                    .any(|&id| (n == 0 || id > floor) && id <= max_row);
                floor = max_row;
                vi.segments.push(segment);
            }
        }
        let from = vi.segments.last().map_or(0, |s| s.max_row + 1);
        // Decoded straight into the tail (the open path: no vector is allocated on its own).
        // Row ids come in ascending order, each once, so no position is replaced.
        let expect =
            (vec_t.len()? as usize).saturating_sub(vi.segments.iter().map(Segment::len).sum());
        vi.tail.reserve(expect);
        vi.tail_ids.reserve(expect);
        vi.tail_pos.reserve(expect);
        let mut v_buf = Vec::with_capacity(dim);
        // Half-precision records go in as they are stored, a block's worth of rows at a time;
        // a single-precision one (formats 1 to 3) is decoded first.
        let mut halves: Vec<u16> = Vec::with_capacity(LANES * dim);
        for entry in vec_t.range(from..)? {
            let (k, v) = entry?;
            let record = v.value();
            if dim > 0 && record.len() == 2 * dim {
                halves.extend(
                    record
                        .chunks_exact(2)
                        .map(|c| u16::from_le_bytes([c[0], c[1]])),
                );
                if halves.len() == LANES * dim {
                    vi.tail.push_half_rows(&halves);
                    halves.clear();
                }
            } else {
                vi.tail.push_half_rows(&halves);
                halves.clear();
                v_buf.clear();
                storage::decode_vector_into(record, dim, &mut v_buf)?;
                vi.tail.push(&v_buf);
            }
            vi.tail_pos.insert(k.value(), vi.tail_ids.len());
            vi.tail_ids.push(k.value());
        }
        vi.tail.push_half_rows(&halves);
        Ok(vi)
    }

    /// Number of vectors held (snapshot and tail).
    pub fn len(&self) -> usize {
        self.tail_ids.len() + self.segments.iter().map(Segment::len).sum::<usize>()
    }

    /// True when no vector is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of vectors in the exact-scan tail.
    pub fn tail_len(&self) -> usize {
        self.tail_ids.len()
    }

    /// Adds a vector for a new row (row ids only grow, so new rows always join the tail).
    pub fn insert(&mut self, id: RowId, v: &[f32]) {
        debug_assert_eq!(v.len(), self.dim);
        if self.tail_pos.contains_key(&id) {
            self.remove(id);
        }
        self.tail_pos.insert(id, self.tail_ids.len());
        self.tail_ids.push(id);
        self.tail.push(v);
    }

    /// Removes a row's vector (purge).
    pub fn remove(&mut self, id: RowId) {
        if let Some(pos) = self.tail_pos.remove(&id) {
            let last = self.tail_ids.len() - 1;
            self.tail_ids.swap_remove(pos);
            self.tail.swap_remove(pos);
            if pos != last {
                let moved = self.tail_ids[pos];
                self.tail_pos.insert(moved, pos);
            }
        }
        if let Some(b) = &mut self.build
            && id <= b.cut
        {
            b.overlaps_removal = true;
        }
        if let Some(s) = self.segments.iter_mut().find(|s| id <= s.max_row) {
            // Hidden from searches; the bytes stay in the in-memory graph until the segment is
            // rebuilt, which scrub does (and growth does before persisting a dirty graph).
            if s.remove(id) {
                s.dirty = true;
            }
        }
    }

    /// The vector of a row held in the exact tail (`None` for a row in the snapshot or without
    /// a vector): the values the vector table holds for it.
    pub fn tail_vector(&self, id: RowId) -> Option<Vec<f32>> {
        self.tail_pos.get(&id).map(|&pos| self.tail.row(pos))
    }

    /// True when a snapshot exists.
    pub fn has_snapshot(&self) -> bool {
        !self.segments.is_empty()
    }

    /// True when the snapshot's graph still holds bytes of a vector removed since it was built.
    pub fn snapshot_dirty(&self) -> bool {
        self.segments.iter().any(|s| s.dirty)
    }

    /// True when the snapshot still holds bytes of a removed vector.
    pub fn snapshot_has_removed(&self, removed: &[RowId]) -> bool {
        self.segments
            .last()
            .is_some_and(|s| removed.iter().any(|id| *id <= s.max_row))
    }

    /// The `limit` most similar rows to `q`, best first; ties broken by higher row id.
    ///
    /// The snapshot's graph stores vectors quantized to i8 (a third of the build time and size
    /// of f32); its candidates are re-scored exactly with the f32 vectors `exact` reads from the
    /// vector table, so reported similarities are exact whichever path found the row.
    pub fn search(
        &self,
        q: &[f32],
        limit: usize,
        exact: &dyn Fn(RowId) -> Result<Option<Vec<f32>>>,
    ) -> Result<Vec<(RowId, f32)>> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        let mut out: Vec<(RowId, f32)> = self
            .tail_ids
            .iter()
            .copied()
            .zip(self.tail.scores(q))
            .collect();
        // Each segment's candidates with the graph's own (quantized) distance, which compares
        // across segments: every graph holds its vectors at the same scale.
        let candidates = |segments: &[Segment]| -> Result<Vec<(RowId, f32)>> {
            let mut found = Vec::new();
            for s in segments {
                // Hidden keys may take places in the graph's answer: ask for as many more.
                let n = (limit + s.hidden.len()).min(s.index.size());
                if n > 0 {
                    let m = s.index.search(q, n).map_err(vx)?;
                    found.extend(
                        m.keys
                            .into_iter()
                            .zip(m.distances)
                            .filter(|(k, _)| !s.hidden.contains(k)),
                    );
                }
            }
            Ok(found)
        };
        // Several segments are searched on two threads, half of them each.
        let mut approximate = if self.segments.len() >= 2 {
            let (first, second) = self.segments.split_at(self.segments.len() / 2);
            std::thread::scope(|scope| -> Result<Vec<(RowId, f32)>> {
                let other = scope.spawn(|| candidates(second));
                let mut found = candidates(first)?;
                let rest = other
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))?;
                found.extend(rest);
                Ok(found)
            })?
        } else {
            candidates(&self.segments)?
        };
        // Of several segments' candidates, only the `limit` nearest by that distance are
        // re-scored (reading a stored vector is most of a candidate's cost); one segment's are
        // all re-scored, as they were when the snapshot was one graph.
        if self.segments.len() > 1 && approximate.len() > limit {
            approximate.sort_unstable_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
            approximate.truncate(limit);
        }
        for (k, _) in approximate {
            if let Some(v) = exact(k)? {
                out.push((k, dot(q, &v)));
            }
        }
        best_first(&mut out, limit);
        Ok(out)
    }

    /// The scrub's step for a snapshot that holds removed vectors: overwrites the bytes of every
    /// removed vector ([`meta::SNAPSHOT_DIRTY`]) in the serialized snapshot in the file with
    /// zeros, rewriting only the chunks that hold them, instead of rebuilding the graph. Returns
    /// `false` (nothing written) when the serialized bytes do not have the layout
    /// [`vector_slots`] reads; the caller then rebuilds the snapshot.
    ///
    /// The graph in memory keeps the removed vectors hidden, with their bytes in memory only, and
    /// stays marked dirty, so the next growth of the snapshot rebuilds it as before instead of
    /// writing those bytes back.
    pub fn erase_removed(&mut self, tx: &WriteTransaction) -> Result<bool> {
        let removed = dirty_rows(&tx.open_table(META)?)?;
        if !removed.is_empty() {
            let mut snap_t = tx.open_table(VECTOR_SNAPSHOT)?;
            let mut floor = None;
            for (n, segment) in self.segments.iter().enumerate() {
                let held: Vec<RowId> = removed
                    .iter()
                    .copied()
                    .filter(|&id| floor.is_none_or(|f| id > f) && id <= segment.max_row)
                    .collect();
                floor = Some(segment.max_row);
                if held.is_empty() {
                    continue;
                }
                // The slots are parsed from the stored graph when it was written or loaded;
                // none means its layout was not recognised, and the caller rebuilds it instead.
                let Some(slots) = segment.slots.as_ref() else {
                    return Ok(false);
                };
                let ranges = slots.ranges(&held);
                let first = segment_key(n);
                // Only the chunks holding the removed vectors are read and rewritten.
                let chunks = zero_in_chunks(&ranges, CHUNK, |c| {
                    snap_t
                        .get(first + c)?
                        .map(|v| v.value().to_vec())
                        .ok_or_else(|| Error::Corrupt(format!("vector snapshot chunk {c} missing")))
                })?;
                for (key, bytes) in chunks {
                    snap_t.insert(first + key, bytes.as_slice())?;
                }
            }
        }
        tx.open_table(META)?.remove(meta::SNAPSHOT_DIRTY)?;
        Ok(true)
    }

    /// True while a background build is pending (running or finished, not yet installed).
    pub fn is_building(&self) -> bool {
        self.build.is_some()
    }

    /// The build the next write must install, if it is still running: wait on it before taking
    /// the store's lock (see the module docs).
    pub fn due_build(&self, ann_threshold: usize) -> Option<Arc<Done>> {
        if self.deferred {
            return None;
        }
        let b = self.build.as_ref()?;
        let due = self.tail_len() >= b.tail_at_start + (ann_threshold / 2).max(1);
        (due && !b.done.is_finished()).then(|| b.done.clone())
    }

    /// True when the next write is the one to install the pending build (see
    /// [`VectorIndex::take_due_build`]): that write changes the index before its commit.
    pub fn install_due(&self, ann_threshold: usize) -> bool {
        self.build.as_ref().is_some_and(|b| {
            !self.deferred && self.tail_len() >= b.tail_at_start + (ann_threshold / 2).max(1)
        })
    }

    /// Takes the pending build when this write is the one to install it (or `force`), waiting
    /// for it if it still runs, and writes it into `tx`. Returns it for [`VectorIndex::install`]
    /// once `tx` commits; `None` when nothing is due, or when the build overlaps a vector removed
    /// since it started or in `removed` (this write's removals), in which case it is discarded.
    pub fn take_due_build(
        &mut self,
        tx: &WriteTransaction,
        ann_threshold: usize,
        removed: &[RowId],
        force: bool,
    ) -> Result<Option<Installable>> {
        if !self.install_due(ann_threshold) && !force {
            return Ok(None);
        }
        let Some(b) = self.build.take() else {
            return Ok(None);
        };
        if b.overlaps_removal || removed.iter().any(|id| *id <= b.cut) {
            return Ok(None);
        }
        let built = b.done.take()?;
        let mut list: Vec<(RowId, u64)> = self
            .segments
            .iter()
            .take(b.segment)
            .map(|s| (s.max_row, s.bytes))
            .collect();
        list.push((built.max_row, built.blob.len() as u64));
        write_segment(tx, b.segment, &built.blob, &list)?;
        Ok(Some(Installable(built, b.segment)))
    }

    /// Makes a build taken by [`VectorIndex::take_due_build`] the snapshot: the tail keeps only
    /// the rows newer than it.
    pub fn install(&mut self, built: Installable) {
        let Installable(
            Built {
                index,
                max_row,
                blob,
                slots,
            },
            segment,
        ) = built;
        index.change_expansion_search(EXPANSION_SEARCH);
        let keep: Vec<(RowId, Vec<f32>)> = self
            .tail_ids
            .iter()
            .enumerate()
            .filter(|(_, id)| **id > max_row)
            .map(|(i, id)| (*id, self.tail.row(i)))
            .collect();
        self.tail_ids.clear();
        self.tail.clear();
        self.tail_pos.clear();
        for (id, v) in keep {
            self.insert(id, &v);
        }
        let segment_now = Segment::owned(index, max_row, blob.len() as u64, slots);
        drop(blob);
        self.segments.truncate(segment);
        self.segments.push(segment_now);
    }

    /// [`VectorIndex::start_build`] for a write: nothing while the growth is deferred
    /// ([`VectorIndex::set_deferred`]).
    pub fn maybe_start_build(
        &mut self,
        ann_threshold: usize,
        all: impl FnOnce(RowId, RowId) -> Result<Vec<(RowId, Vec<f32>)>>,
    ) -> Result<()> {
        if self.deferred {
            return Ok(());
        }
        self.start_build(ann_threshold, all)
    }

    /// Starts a background build when none runs, the store holds more than `ann_threshold`
    /// vectors and the tail more than half of it. The build grows the last segment by the tail
    /// while the segment has room for it ([`SEGMENT_THRESHOLDS`]), else starts a new segment from
    /// the tail's oldest rows, at most a segment's worth (a tail left to grow, see
    /// [`VectorIndex::set_deferred`], becomes several segments, one build each). `all(from, to)`
    /// reads every stored vector of the rows `from..=to` (needed only when the last segment holds
    /// removed vectors and must be rebuilt).
    pub fn start_build(
        &mut self,
        ann_threshold: usize,
        all: impl FnOnce(RowId, RowId) -> Result<Vec<(RowId, Vec<f32>)>>,
    ) -> Result<()> {
        if self.build.is_some()
            || self.len() <= ann_threshold
            || self.tail_len() <= ann_threshold / 2
        {
            return Ok(());
        }
        let mut add: Vec<(RowId, Vec<f32>)> = self
            .tail_ids
            .iter()
            .enumerate()
            .map(|(i, id)| (*id, self.tail.row(i)))
            .collect();
        add.sort_by_key(|x| x.0);
        let n = self.segments.len();
        let grow = self
            .segments
            .last()
            .filter(|s| s.len() + add.len() <= self.segment_rows);
        if grow.is_none() {
            // A new segment: the oldest rows, a segment's worth; the rest stay in the tail.
            add.truncate(self.segment_rows.max(1));
        }
        let cut = add.last().map_or(0, |x| x.0);
        let (segment, base, base_max, base_len) = match grow {
            Some(s) if !s.dirty => (n - 1, Some(serialize(&s.index)?), s.max_row, s.len()),
            Some(_) => {
                // A segment holding removed vectors is rebuilt from the live rows it covers.
                let from = n
                    .checked_sub(2)
                    .and_then(|p| self.segments.get(p))
                    .map_or(0, |p| p.max_row + 1);
                add = all(from, cut)?;
                (n - 1, None, 0, 0)
            }
            None => (n, None, 0, 0),
        };
        let count = add.len() + base_len;
        let (dim, threads) = (self.dim, self.build_threads);
        let done = Arc::new(Done::default());
        let signal = done.clone();
        std::thread::Builder::new()
            .name("oubli-hnsw-build".into())
            .spawn(move || {
                let fresh = || new_usearch(dim);
                let r = std::panic::catch_unwind(|| {
                    run_build(fresh, base, base_max, add, count, threads)
                })
                .unwrap_or_else(|_| Err(Error::VectorIndex("snapshot build panicked".into())));
                signal.set(r);
            })
            .map_err(|e| Error::VectorIndex(format!("cannot start the snapshot build: {e}")))?;
        self.build = Some(Build {
            segment,
            cut,
            tail_at_start: self.tail_len(),
            overlaps_removal: false,
            done,
        });
        Ok(())
    }

    /// Builds a fresh snapshot over every vector in `vec_t` (rows in id order, on the build's
    /// threads: see `index::vector_build`) and writes it into the file within `tx`. Scrub uses
    /// this: a graph that only hid removed vectors would still hold their bytes.
    pub fn rebuild_snapshot(&mut self, tx: &WriteTransaction) -> Result<()> {
        // Every vector is copied into the graph: read past redb's read cache.
        redb::without_read_cache(|| self.rebuild_snapshot_uncached(tx))
    }

    fn rebuild_snapshot_uncached(&mut self, tx: &WriteTransaction) -> Result<()> {
        self.build = None;
        let segments = build_all(tx, self.dim, self.build_threads, self.segment_rows)?;
        // Every vector is in the graph now; the tail keeps only rows newer than it (none).
        self.tail_ids.clear();
        self.tail.clear();
        self.tail_pos.clear();
        self.segments = segments;
        Ok(())
    }

    /// Drops the snapshot from memory and from the file within `tx`, moving every vector back to
    /// the exact tail (used by scrub when the store is below the ANN threshold).
    pub fn drop_snapshot(&mut self, tx: &WriteTransaction) -> Result<()> {
        self.build = None;
        {
            let mut snap_t = tx.open_table(VECTOR_SNAPSHOT)?;
            snap_t.retain(|_, _| false)?;
            let mut meta_t = tx.open_table(META)?;
            meta_t.remove(meta::SNAPSHOT_MAX_ROW)?;
            meta_t.remove(meta::SNAPSHOT_LEN)?;
            meta_t.remove(meta::SNAPSHOT_SEGMENTS)?;
            meta_t.remove(meta::SNAPSHOT_DIRTY)?;
        }
        if !std::mem::take(&mut self.segments).is_empty() {
            let vec_t = tx.open_table(VECTORS)?;
            let mut fresh = VectorIndex::new(self.dim);
            fresh.set_build_threads(self.build_threads);
            fresh.deferred = self.deferred;
            fresh.segment_rows = self.segment_rows;
            for entry in vec_t.iter()? {
                let (k, v) = entry?;
                fresh.insert(k.value(), &storage::decode_vector(v.value(), self.dim)?);
            }
            *self = fresh;
        }
        Ok(())
    }
}

/// A finished build, written into a transaction, waiting for [`VectorIndex::install`].
pub struct Installable(Built, usize);

#[cfg(test)]
mod tests;
