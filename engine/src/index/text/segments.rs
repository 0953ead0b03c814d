//! The text index's segments: which ones a commit merges ([`merge_choice`]) and the purge's
//! rewrite of the segments that hold deleted documents ([`TextIndex::erase_deleted`]).

use super::TextIndex;
use crate::error::{Error, Result};

/// Mergeable segments allowed before a commit merges some of them (see [`merge_choice`]).
pub const MAX_SEGMENTS: usize = 12;
/// Size ratio between merge tiers: a segment of `n` documents is in tier `log_TIER(n)`.
const TIER: u32 = 8;
/// The default cap on a segment's documents ([`crate::StoreOptions::text_segment_docs`]).
///
/// A purge rewrites each segment that held an erased row, at a cost proportional to the
/// segment's documents (about 60 us each on this project's benchmark data), so the cap bounds a
/// purge's text cost at any store size; a search visits every segment, so the cap also sets how
/// many segments a large store has (`rows / cap` to `2 * rows / cap`). See docs/performance.md,
/// "thirteenth pass", for the measurements behind the value.
pub const SEGMENT_DOCS: usize = 4096;

/// Which segments a commit merges, and in which groups, given each segment's document count
/// (deleted ones included) and the cap on a segment's documents.
///
/// Only segments of at most `cap / 2` documents can merge (two of them fit under the cap); the
/// others are full and stay as they are until erasures shrink them. Once more than
/// [`MAX_SEGMENTS`] segments can merge, the lowest size tier holding two or more of them is
/// merged (tier `t` holds segments of `TIER^t ..< TIER^(t+1)` documents): its segments, taken by
/// index, are packed into groups whose documents add up to at most `cap`, and each group of two
/// or more becomes one segment. Never a whole-index merge on the write path, and no merge makes
/// a segment above the cap, so a merge's cost is bounded by its tier and by the cap. Depends only
/// on the counts (no order, no randomness), so the same operations merge the same documents.
/// Returns groups of indexes into `docs`; empty when nothing is to merge.
pub fn merge_choice(docs: &[u32], cap: usize) -> Vec<Vec<usize>> {
    let cap = cap.min(u32::MAX as usize) as u32;
    let mergeable = |n: u32| n <= cap / 2;
    if docs.iter().filter(|&&n| mergeable(n)).count() <= MAX_SEGMENTS {
        return Vec::new();
    }
    let tier = |n: u32| n.max(1).ilog(TIER);
    let in_tier =
        |t: u32| (0..docs.len()).filter(move |&i| mergeable(docs[i]) && tier(docs[i]) == t);
    let Some(lowest) = (0..docs.len())
        .filter(|&i| mergeable(docs[i]))
        .map(|i| tier(docs[i]))
        .filter(|&t| in_tier(t).count() >= 2)
        .min()
    else {
        return Vec::new();
    };
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut current: Vec<usize> = Vec::new();
    let mut sum = 0u64;
    for i in in_tier(lowest) {
        if sum + u64::from(docs[i]) > u64::from(cap) {
            groups.push(std::mem::take(&mut current));
            sum = 0;
        }
        sum += u64::from(docs[i]);
        current.push(i);
    }
    groups.push(current);
    groups.retain(|g| g.len() >= 2);
    groups
}

/// Segment rewrites scheduled by [`TextIndex::start_erase_deleted`], running on tantivy's merge
/// thread.
#[must_use = "wait for the rewrites, then finish them with TextIndex::finish_erase_deleted"]
pub struct SegmentRewrite {
    /// The rewrites not yet waited for.
    merges: Vec<tantivy::FutureResult<Option<tantivy::SegmentMeta>>>,
    /// Segments scheduled.
    segments: usize,
}

impl SegmentRewrite {
    /// Blocks until every scheduled rewrite has finished.
    pub fn wait(&mut self) -> Result<()> {
        for m in self.merges.drain(..) {
            m.wait().map_err(|e| Error::TextIndex(e.to_string()))?;
        }
        Ok(())
    }
}

impl TextIndex {
    /// Merges the segments [`merge_choice`] picks, in a deterministic order (by lowest row id,
    /// then size), and deletes the files of the old segments.
    pub(super) fn merge_tier(&mut self) -> Result<()> {
        let searcher = self.reader.searcher();
        let mut segments = Vec::new();
        for seg in searcher.segment_readers() {
            let min_id = seg.fast_fields().u64("id")?.min_value();
            segments.push((min_id, seg.max_doc(), seg.segment_id()));
        }
        drop(searcher);
        // Tantivy lists segments in the order of its random ids: sort them first, so that the
        // groups are the same on every run.
        segments.sort_by_key(|s| (s.0, s.1));
        let docs: Vec<u32> = segments.iter().map(|s| s.1).collect();
        let groups = merge_choice(&docs, self.segment_docs);
        if groups.is_empty() {
            return Ok(());
        }
        let writer = self.writer()?;
        // The groups are disjoint: their merges run side by side on tantivy's merge threads.
        let merges: Vec<_> = groups
            .iter()
            .map(|g| {
                let ids: Vec<_> = g.iter().map(|&i| segments[i].2).collect();
                writer.merge(&ids)
            })
            .collect();
        for m in merges {
            m.wait().map_err(|e| Error::TextIndex(e.to_string()))?;
        }
        writer
            .garbage_collect_files()
            .wait()
            .map_err(|e| Error::TextIndex(e.to_string()))?;
        self.reader.reload()?;
        Ok(())
    }

    /// The erasure step of a purge: rewrites only the segments that hold deleted documents,
    /// each into a segment without them (so their terms leave the term dictionary and postings),
    /// and waits until tantivy has deleted the replaced segment files from the directory (their
    /// deletion is staged for the store's next write transaction, which frees their pages; the
    /// vendored redb zeroes freed pages). Segments without deletes are left as they are.
    ///
    /// Deterministic: the segments are chosen by their deletes only and merged in order of
    /// lowest row id, as `merge_tier` does. Each segment is rewritten on its own, so
    /// a purge touching one segment rewrites that segment only, and segments never grow through
    /// erasure. The cost is bounded by the size of the segments that held erased rows; the
    /// largest segment is the size the write path's tiered merges build (see
    /// [`merge_choice`]). Returns the number of segments rewritten.
    pub fn erase_deleted(&mut self) -> Result<usize> {
        let rewrite = self.start_erase_deleted()?;
        self.finish_erase_deleted(rewrite)
    }

    /// The first step of [`Self::erase_deleted`]: chooses the segments holding deleted
    /// documents and schedules their rewrites on tantivy's merge thread. The rewrites run while
    /// the caller waits on [`SegmentRewrite::wait`], which needs no access to the index:
    /// searches meanwhile read the segments as they were (the reader reloads only in
    /// [`Self::finish_erase_deleted`]).
    pub fn start_erase_deleted(&mut self) -> Result<SegmentRewrite> {
        self.reader.reload()?;
        let searcher = self.reader.searcher();
        let mut with_deletes = Vec::new();
        for seg in searcher.segment_readers() {
            if seg.num_deleted_docs() > 0 {
                let min_id = seg.fast_fields().u64("id")?.min_value();
                with_deletes.push((min_id, seg.max_doc(), seg.segment_id()));
            }
        }
        drop(searcher);
        if with_deletes.is_empty() {
            // Nothing to rewrite and no file replaced: a commit collects the files it replaces
            // itself, and its deletions reach the file in the same transaction as its new files.
            return Ok(SegmentRewrite {
                merges: Vec::new(),
                segments: 0,
            });
        }
        with_deletes.sort_by_key(|s| (s.0, s.1));
        let writer = self.writer()?;
        // A merge of one segment rewrites it without its deleted documents (a segment whose
        // documents are all deleted merges into nothing). The segments are disjoint, so their
        // merges are independent of each other's order.
        let merges = with_deletes
            .iter()
            .map(|(_, _, id)| writer.merge(std::slice::from_ref(id)))
            .collect();
        Ok(SegmentRewrite {
            merges,
            segments: with_deletes.len(),
        })
    }

    /// The last step of [`Self::erase_deleted`]: waits for the rewrites (if the caller has not
    /// already, see [`SegmentRewrite::wait`]), deletes the
    /// replaced segment files and reloads the reader. Returns the number of segments rewritten.
    pub fn finish_erase_deleted(&mut self, mut rewrite: SegmentRewrite) -> Result<usize> {
        rewrite.wait()?;
        let rewritten = rewrite.segments;
        if rewritten == 0 {
            return Ok(0);
        }
        let writer = self.writer()?;
        // Tantivy deletes the replaced files from its own thread; wait for it, so that no file
        // holding an erased term is still in the directory when the store commits.
        writer
            .garbage_collect_files()
            .wait()
            .map_err(|e| Error::TextIndex(format!("text index garbage collection: {e}")))?;
        self.reader.reload()?;
        Ok(rewritten)
    }
}
