//! A segment of the vector snapshot (see [`super::vector`]): one usearch graph over a range of
//! row ids, held in memory and stored in [`VECTOR_SNAPSHOT`] under its own keys, with the list
//! of segments the file holds ([`meta::SNAPSHOT_SEGMENTS`]).

use redb::{ReadableTable, ReadableTableMetadata, WriteTransaction};
use rustc_hash::FxHashSet;
use usearch::Index;

use super::vector::{CHUNK, EXPANSION_SEARCH, new_usearch};
use super::vector_build::{add_all, reserve, vx};
use super::vector_layout::{SEGMENT_KEYS, VectorSlots, segment_key, vector_slots};
use crate::error::{Error, Result};
use crate::row::RowId;
use crate::storage::{self, META, VECTOR_SNAPSHOT, VECTORS, meta};

pub(super) struct Segment {
    /// The graph. Declared before `viewed`, so that it is dropped before the bytes it views.
    pub(super) index: Index,
    /// The serialized graph `index` views in place, for a snapshot loaded at open (see
    /// [`VectorIndex::load`]); `None` for a graph usearch owns (built or rebuilt here). A boxed
    /// slice: its bytes never move or change while it is held.
    pub(super) viewed: Option<Box<[u8]>>,
    /// Keys removed from a viewed graph, which usearch cannot remove from (it is immutable):
    /// searches skip them.
    pub(super) hidden: FxHashSet<RowId>,
    pub(super) max_row: RowId,
    /// Bytes of the serialized graph the file holds.
    pub(super) bytes: u64,
    /// The graph still holds bytes of vectors removed since it was built.
    pub(super) dirty: bool,
    /// Where each key's vector sits in the serialized snapshot the file holds
    /// ([`vector_slots`]); `None` when its layout was not recognised.
    pub(super) slots: Option<VectorSlots>,
}

impl Segment {
    /// A graph usearch owns, serialized in `bytes` bytes.
    pub(super) fn owned(
        index: Index,
        max_row: RowId,
        bytes: u64,
        slots: Option<VectorSlots>,
    ) -> Self {
        Segment {
            index,
            viewed: None,
            hidden: FxHashSet::default(),
            max_row,
            bytes,
            dirty: false,
            slots,
        }
    }

    /// Vectors the graph holds and searches return.
    pub(super) fn len(&self) -> usize {
        self.index.size() - self.hidden.len()
    }

    /// Removes `id` from the searches' results; true when the graph held it.
    pub(super) fn remove(&mut self, id: RowId) -> bool {
        if self.viewed.is_none() {
            return self.index.remove(id).unwrap_or(0) > 0;
        }
        self.index.contains(id) && self.hidden.insert(id)
    }
}

pub(super) fn serialize(index: &Index) -> Result<Vec<u8>> {
    let mut blob = vec![0u8; index.serialized_length()];
    index.save_to_buffer(&mut blob).map_err(vx)?;
    Ok(blob)
}

/// Writes segment number `segment`'s serialized graph `blob` into the file within `tx`,
/// replacing what that segment held, and records `list` (each segment's highest row id and
/// serialized length, this one's included) as the segments the file holds. The removed rows
/// still awaiting the scrub ([`meta::SNAPSHOT_DIRTY`]) keep only those of earlier segments: this
/// one is written from vectors that are all live.
pub(super) fn write_segment(
    tx: &WriteTransaction,
    segment: usize,
    blob: &[u8],
    list: &[(RowId, u64)],
) -> Result<()> {
    let first = segment_key(segment);
    let mut snap_t = tx.open_table(VECTOR_SNAPSHOT)?;
    snap_t.retain_in(first..first.saturating_add(SEGMENT_KEYS), |_, _| false)?;
    for (i, chunk) in blob.chunks(CHUNK).enumerate() {
        snap_t.insert(first + i as u64, chunk)?;
    }
    let mut meta_t = tx.open_table(META)?;
    let floor = segment
        .checked_sub(1)
        .and_then(|p| list.get(p))
        .map_or(0, |x| x.0);
    let dirty: Vec<u8> = dirty_rows(&meta_t)?
        .into_iter()
        .filter(|&id| segment > 0 && id <= floor)
        .flat_map(u64::to_le_bytes)
        .collect();
    if dirty.is_empty() {
        meta_t.remove(meta::SNAPSHOT_DIRTY)?;
    } else {
        meta_t.insert(meta::SNAPSHOT_DIRTY, dirty.as_slice())?;
    }
    write_segment_list(&mut meta_t, list)
}

/// The rows whose vectors a segment in the file still holds although they were removed
/// ([`meta::SNAPSHOT_DIRTY`]): the next scrub zeroes them.
pub(super) fn dirty_rows(
    meta_t: &impl ReadableTable<&'static str, &'static [u8]>,
) -> Result<Vec<RowId>> {
    Ok(match meta_t.get(meta::SNAPSHOT_DIRTY)? {
        Some(v) => v
            .value()
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap_or_default()))
            .collect(),
        None => Vec::new(),
    })
}

/// Records the segments the file holds ([`meta::SNAPSHOT_SEGMENTS`]) and the highest row id
/// they cover ([`meta::SNAPSHOT_MAX_ROW`]).
fn write_segment_list(
    meta_t: &mut redb::Table<&'static str, &'static [u8]>,
    list: &[(RowId, u64)],
) -> Result<()> {
    let encoded: Vec<u8> = list
        .iter()
        .flat_map(|(max_row, len)| max_row.to_le_bytes().into_iter().chain(len.to_le_bytes()))
        .collect();
    meta_t.insert(meta::SNAPSHOT_SEGMENTS, encoded.as_slice())?;
    meta_t.remove(meta::SNAPSHOT_LEN)?;
    let max_row = list.last().map_or(0, |x| x.0);
    meta_t.insert(meta::SNAPSHOT_MAX_ROW, max_row.to_le_bytes().as_slice())?;
    Ok(())
}

/// The segments the file holds: each one's highest row id and serialized length, from
/// [`meta::SNAPSHOT_SEGMENTS`], or the single graph of a store of format 5 and earlier
/// ([`meta::SNAPSHOT_MAX_ROW`] and [`meta::SNAPSHOT_LEN`]). Empty when there is no graph.
pub(super) fn read_segment_list(
    meta_t: &impl ReadableTable<&'static str, &'static [u8]>,
) -> Result<Vec<(RowId, u64)>> {
    let Some(max_row) = storage::meta_u64(meta_t, meta::SNAPSHOT_MAX_ROW)? else {
        return Ok(Vec::new());
    };
    let Some(list) = meta_t.get(meta::SNAPSHOT_SEGMENTS)? else {
        let len = storage::meta_u64(meta_t, meta::SNAPSHOT_LEN)?.unwrap_or(0);
        return Ok(vec![(max_row, len)]);
    };
    let bytes = list.value();
    if bytes.len() % 16 != 0 || bytes.is_empty() {
        return Err(Error::Corrupt("vector snapshot segment list".into()));
    }
    let u64_at = |c: &[u8]| u64::from_le_bytes(c.try_into().unwrap_or_default());
    let list: Vec<(RowId, u64)> = bytes
        .chunks_exact(16)
        .map(|c| (u64_at(&c[..8]), u64_at(&c[8..])))
        .collect();
    // Row ranges ascend, and the last one ends where the graph's coverage does.
    if list.windows(2).any(|w| w[0].0 >= w[1].0) || list.last().map(|x| x.0) != Some(max_row) {
        return Err(Error::Corrupt("vector snapshot segment list".into()));
    }
    Ok(list)
}

/// A segment that views its serialized graph `blob` in place (see [`VectorIndex::load`]).
///
/// The erasure path's map of each row's slot is parsed on a second thread while usearch views
/// the graph (which builds its own key index): both only read the bytes, and at 1M rows each
/// takes tens of milliseconds.
pub(super) fn view_segment(blob: Box<[u8]>, dim: usize, max_row: RowId) -> Result<Segment> {
    let (index, slots) = std::thread::scope(|scope| {
        let slots = scope.spawn(|| vector_slots(&blob, dim));
        let index = Index::new(&Index::metadata_from_buffer(&blob).map_err(vx)?.into())
            .map_err(vx)
            .and_then(|index| {
                // SAFETY: `blob` is kept beside the index in the same `Segment`, whose field
                // order drops the index first; a boxed slice's bytes neither move nor change
                // while held.
                unsafe { index.view_from_buffer(&blob) }.map_err(vx)?;
                Ok(index)
            });
        let slots = slots
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        index.map(|index| (index, slots))
    })?;
    // The serialized header does not carry search-time settings.
    index.change_expansion_search(EXPANSION_SEARCH);
    if index.dimensions() != dim {
        return Err(Error::Corrupt("vector snapshot dimension mismatch".into()));
    }
    Ok(Segment {
        index,
        bytes: blob.len() as u64,
        viewed: Some(blob),
        hidden: FxHashSet::default(),
        max_row,
        dirty: false,
        slots,
    })
}

/// Builds graph segments over every vector of the file's vector table (rows in id order,
/// `segment_rows` to a segment, each added on `threads` threads: see `index::vector_build`) and
/// writes them into the file within `tx` in place of the segments it held. Scrub uses this: a
/// graph that only hid removed vectors would still hold their bytes.
pub(super) fn build_all(
    tx: &WriteTransaction,
    dim: usize,
    threads: usize,
    segment_rows: usize,
) -> Result<Vec<Segment>> {
    /// Vectors decoded and added at a time (bounds the memory of a rebuild at any size).
    const STEP: usize = 65_536;
    let vec_t = tx.open_table(VECTORS)?;
    let mut remaining = vec_t.len()? as usize;
    // Each segment's graph, its highest row id and its serialized form, in row id order.
    let mut built: Vec<(Index, RowId, Vec<u8>)> = Vec::new();
    let mut open: Option<Index> = None;
    let mut max_row = 0;
    let mut step = Vec::with_capacity(STEP.min(remaining));
    let mut entries = vec_t.iter()?;
    loop {
        // A step never runs past the end of the segment it fills.
        let room = segment_rows - open.as_ref().map_or(0, Index::size).min(segment_rows);
        step.clear();
        for entry in entries.by_ref().take(STEP.min(room.max(1))) {
            let (k, v) = entry?;
            step.push((k.value(), storage::decode_vector(v.value(), dim)?));
        }
        if step.is_empty() {
            break;
        }
        let graph = match open.take() {
            Some(graph) => graph,
            None => {
                let graph = new_usearch(dim)?;
                reserve(&graph, remaining.min(segment_rows), threads)?;
                graph
            }
        };
        max_row = add_all(&graph, &step, threads, max_row)?;
        remaining = remaining.saturating_sub(step.len());
        if graph.size() >= segment_rows {
            let blob = serialize(&graph)?;
            built.push((graph, max_row, blob));
        } else {
            open = Some(graph);
        }
    }
    if let Some(graph) = open {
        let blob = serialize(&graph)?;
        built.push((graph, max_row, blob));
    }
    drop(entries);
    drop(vec_t);
    tx.open_table(VECTOR_SNAPSHOT)?.retain(|_, _| false)?;
    let list: Vec<(RowId, u64)> = built
        .iter()
        .map(|(_, max_row, blob)| (*max_row, blob.len() as u64))
        .collect();
    let mut segments = Vec::with_capacity(built.len());
    for (n, (graph, max_row, blob)) in built.into_iter().enumerate() {
        write_segment(tx, n, &blob, &list[..=n])?;
        let slots = vector_slots(&blob, dim);
        segments.push(Segment::owned(graph, max_row, blob.len() as u64, slots));
    }
    {
        let mut meta_t = tx.open_table(META)?;
        // Every segment is written from live vectors.
        meta_t.remove(meta::SNAPSHOT_DIRTY)?;
        if list.is_empty() {
            meta_t.remove(meta::SNAPSHOT_MAX_ROW)?;
            meta_t.remove(meta::SNAPSHOT_LEN)?;
            meta_t.remove(meta::SNAPSHOT_SEGMENTS)?;
        }
    }
    Ok(segments)
}
