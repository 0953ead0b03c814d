//! The layout of a serialized vector snapshot (usearch's dense index format): where each key's
//! quantized vector sits in the bytes the store keeps in its `vector_snapshot` table, so that a
//! scrub overwrites exactly those bytes, in the chunks that hold them, instead of rebuilding the
//! graph ([`super::vector::VectorIndex::erase_removed`]); and reading the chunks back into one
//! blob at open (`read_blob`).

use redb::ReadableTable;

use crate::error::{Error, Result};
use crate::row::RowId;

/// Keys of [`crate::storage::VECTOR_SNAPSHOT`] each graph segment's chunks take: segment `n`
/// keys its chunks `n * SEGMENT_KEYS`, `n * SEGMENT_KEYS + 1`, ... (a store of format 5 and
/// earlier held one graph, keyed 0, 1, ..., which is segment 0).
pub(super) const SEGMENT_KEYS: u64 = 1 << 32;

/// The key of segment `segment`'s first chunk.
pub(super) fn segment_key(segment: usize) -> u64 {
    (segment as u64).saturating_mul(SEGMENT_KEYS)
}

/// Reads a serialized graph, `expected` bytes in chunks keyed `first`, `first + 1`, ... (below
/// `first + SEGMENT_KEYS`), into one buffer of that length (never copied to grow; it becomes
/// the buffer the graph views). Chunks of the current layout (`chunk` bytes each but the last)
/// are read on two threads, each into its half of the buffer, past redb's read cache as the
/// caller reads; any other layout (chunks of another size, written by an older version) is
/// read in key order on this thread. A missing chunk, or a total that does not match
/// `expected`, is an error.
pub(super) fn read_blob(
    snap_t: &(impl ReadableTable<u64, &'static [u8]> + Sync),
    first: u64,
    expected: u64,
    chunk: usize,
) -> Result<Vec<u8>> {
    let mismatch = || Error::Corrupt("vector snapshot length mismatch".into());
    let end = first.saturating_add(SEGMENT_KEYS);
    let expected = usize::try_from(expected).map_err(|_| mismatch())?;
    let chunks = expected.div_ceil(chunk.max(1));
    // The last chunk must be there before the buffer is allocated, so a damaged length cannot
    // ask for more memory than the chunks the table holds.
    if chunks >= 2 && snap_t.get(first + chunks as u64 - 1)?.is_some() {
        let mut blob = vec![0u8; expected];
        let half = chunks / 2;
        let (head, tail) = blob.split_at_mut(half * chunk);
        // Each part holds its chunks in key order, each of the current size but the very last.
        let fill = |part: &mut [u8], from: usize| -> Result<bool> {
            let mut at = 0;
            for (i, entry) in snap_t.range(first + from as u64..end)?.enumerate() {
                let (k, v) = entry?;
                let v = v.value();
                let end = at + v.len();
                let index = from + i;
                if k.value() != first + index as u64
                    || (v.len() != chunk && index != chunks - 1)
                    || end > part.len()
                {
                    return Ok(false);
                }
                part[at..end].copy_from_slice(v);
                at = end;
                if at == part.len() {
                    break;
                }
            }
            Ok(at == part.len())
        };
        let (a, b) = std::thread::scope(|scope| {
            let b = scope.spawn(|| redb::without_read_cache(|| fill(tail, half)));
            let a = fill(head, 0);
            let b = b
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            (a, b)
        });
        // Every chunk read, and no chunk after the last.
        if a? && b? && snap_t.range(first + chunks as u64..end)?.next().is_none() {
            return Ok(blob);
        }
    }
    let mut blob: Vec<u8> = Vec::new();
    blob.try_reserve_exact(expected).map_err(|_| mismatch())?;
    for (i, entry) in snap_t.range(first..end)?.enumerate() {
        let (k, v) = entry?;
        let v = v.value();
        if k.value() != first + i as u64 {
            return Err(Error::Corrupt(format!("vector snapshot chunk {i} missing")));
        }
        if blob.len() + v.len() > blob.capacity() {
            return Err(mismatch());
        }
        blob.extend_from_slice(v);
    }
    if blob.len() != expected {
        return Err(mismatch());
    }
    Ok(blob)
}

/// Zeroes `ranges` of a blob stored in chunks of `chunk` bytes (chunk `i` holds bytes
/// `i * chunk ..`), reading only the chunks the ranges touch with `read`. Returns those chunks
/// with the ranges zeroed, by chunk number.
pub(super) fn zero_in_chunks(
    ranges: &[std::ops::Range<usize>],
    chunk: usize,
    mut read: impl FnMut(u64) -> Result<Vec<u8>>,
) -> Result<std::collections::BTreeMap<u64, Vec<u8>>> {
    let mut chunks = std::collections::BTreeMap::new();
    for r in ranges.iter().filter(|r| !r.is_empty()) {
        for c in (r.start / chunk)..=((r.end - 1) / chunk) {
            let key = c as u64;
            let bytes = match chunks.entry(key) {
                std::collections::btree_map::Entry::Occupied(e) => e.into_mut(),
                std::collections::btree_map::Entry::Vacant(e) => e.insert(read(key)?),
            };
            // The part of the range this chunk holds.
            let at = c * chunk;
            let (from, to) = (r.start.max(at) - at, r.end.min(at + chunk) - at);
            bytes
                .get_mut(from..to)
                .ok_or_else(|| {
                    Error::Corrupt(format!(
                        "vector snapshot chunk {c} is shorter than its slots"
                    ))
                })?
                .fill(0);
        }
    }
    Ok(chunks)
}

/// The byte ranges of the vectors of `keys` in a serialized usearch snapshot, `None` if the bytes
/// do not have the layout [`vector_slots`] reads (then nothing may be assumed about them).
pub fn removed_vector_ranges(
    blob: &[u8],
    dim: usize,
    keys: &[RowId],
) -> Option<Vec<std::ops::Range<usize>>> {
    Some(vector_slots(blob, dim)?.ranges(keys))
}

/// Where each key's vector sits in a serialized snapshot: its slot, sorted by key, and the
/// length of a vector there. Kept beside a snapshot so that erasing a vector from the file reads
/// and rewrites only the chunk that holds it, at any size of the graph.
#[derive(Clone, Debug)]
pub struct VectorSlots {
    by_key: Vec<(RowId, u32)>,
    cols: usize,
}

impl VectorSlots {
    /// The byte ranges of the vectors of `keys` (those the snapshot holds), in key order.
    pub fn ranges(&self, keys: &[RowId]) -> Vec<std::ops::Range<usize>> {
        let mut keys = keys.to_vec();
        keys.sort_unstable();
        keys.dedup();
        keys.iter()
            .filter_map(|k| {
                let i = self.by_key.binary_search_by_key(k, |e| e.0).ok()?;
                let start = 8 + self.by_key[i].1 as usize * self.cols;
                Some(start..start + self.cols)
            })
            .collect()
    }
}

/// The slot of every key of a serialized usearch snapshot, `None` if the bytes do not have the
/// layout below.
///
/// usearch 2.x `index_dense_gt::save_to_stream` writes: the vector matrix (`u32` rows, `u32`
/// bytes per vector, then each slot's vector, in slot order), a 64-byte dense header, then the
/// graph (`index_gt::save_to_stream`): a header of five `u64` (`size`, `connectivity`,
/// `connectivity_base`, `max_level`, `entry_slot`), a `u16` level per node, then each node: its
/// `u64` key, its `u16` level, and its neighbour lists (a `u32` count and `u32` slots:
/// `connectivity_base` of them on level 0, `connectivity` on each level above). Node `i` is
/// slot `i`. The parse checks every size against the next (rows and nodes, bytes per vector and
/// dimensions at one byte per i8 element, each node's level in both places, the total length),
/// so a changed layout is detected rather than misread.
pub fn vector_slots(blob: &[u8], dim: usize) -> Option<VectorSlots> {
    let u32_at = |at: usize| -> Option<usize> {
        Some(u32::from_le_bytes(blob.get(at..at + 4)?.try_into().ok()?) as usize)
    };
    let u64_at = |at: usize| -> Option<u64> {
        Some(u64::from_le_bytes(blob.get(at..at + 8)?.try_into().ok()?))
    };
    let u16_at = |at: usize| -> Option<usize> {
        Some(u16::from_le_bytes(blob.get(at..at + 2)?.try_into().ok()?) as usize)
    };
    let (rows, cols) = (u32_at(0)?, u32_at(4)?);
    // i8 quantization: one byte per dimension.
    if cols != dim {
        return None;
    }
    let matrix = 8usize;
    let graph = matrix
        .checked_add(rows.checked_mul(cols)?)?
        .checked_add(64)?;
    let size = usize::try_from(u64_at(graph)?).ok()?;
    let connectivity = usize::try_from(u64_at(graph + 8)?).ok()?;
    let connectivity_base = usize::try_from(u64_at(graph + 16)?).ok()?;
    if size != rows || u32::try_from(size).is_err() {
        return None;
    }
    let levels = graph + 40;
    let base_bytes = 4usize.checked_add(connectivity_base.checked_mul(4)?)?;
    let level_bytes = 4usize.checked_add(connectivity.checked_mul(4)?)?;
    let mut at = levels.checked_add(size.checked_mul(2)?)?;
    let mut by_key = Vec::with_capacity(size);
    for slot in 0..size {
        let key = u64_at(at)?;
        let level = u16_at(at + 8)?;
        if level != u16_at(levels + 2 * slot)? {
            return None;
        }
        by_key.push((key, slot as u32));
        at = at
            .checked_add(10 + base_bytes)?
            .checked_add(level.checked_mul(level_bytes)?)?;
    }
    if at != blob.len() {
        return None;
    }
    by_key.sort_unstable();
    Some(VectorSlots { by_key, cols })
}
