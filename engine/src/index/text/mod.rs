//! The BM25 leg: a tantivy index over row texts, stored in the redb file, and beside it the rows'
//! match keys for targeting ([`super::key_index`]), added, removed, staged and rebuilt with it.
//!
//! The index holds every row that still has text (any depth but void); recall filters by depth
//! afterwards, so time travel and `include_submerged` need no second index. It stores no text,
//! only postings and each document's row id as a fast field.
//!
//! Determinism: one indexing thread, no background merges (segments are merged synchronously at
//! commit once more than [`MAX_SEGMENTS`] can merge, see [`merge_choice`]), so the same
//! operations give the same segments and the same BM25 statistics.
//!
//! No segment holds more than the cap of [`TextIndex::set_segment_docs`] documents (default
//! [`SEGMENT_DOCS`]): a batch larger than the cap is split into several segments, and merges stop
//! at the cap. A purge rewrites the segments that held its rows, so the cap bounds its cost. The commit payload records the
//! last log sequence number the index reflects; the store re-indexes newer rows on open.
//!
//! A commit writes nothing to the file by itself: its files are staged in the directory and reach
//! the file in the store's next write transaction (see [`super::directory`]).
//!
//! New rows first join an in-memory tail ([`super::text_tail`]), searched with the segments on
//! the same BM25 statistics; the write path commits the tail to tantivy as one segment once it
//! holds [`TAIL_ROWS`] rows ([`TextIndex::settle`]), and [`TextIndex::commit`] commits it at
//! once (close, purge, scrub). Removing a row that is in a segment also commits at once.

use std::ops::Bound;
use std::sync::Arc;

use tantivy::collector::Count;
use tantivy::directory::RamDirectory;
use tantivy::indexer::NoMergePolicy;
use tantivy::query::RangeQuery;
use tantivy::schema::{
    Field, IndexRecordOption, NumericOptions, Schema, TextFieldIndexing, TextOptions,
};
use tantivy::tokenizer::TextAnalyzer;
use tantivy::{
    Index, IndexReader, IndexSettings, IndexWriter, ReloadPolicy, TantivyDocument, Term,
};

use super::directory::{RedbDirectory, Staged};
use super::key_index::{self, KeyIndex, StagedKeys};
pub use super::text_tail::TAIL_ROWS;
use super::text_tail::TextTail;
use crate::error::{Error, Result};
use crate::row::RowId;
use crate::storage::Db;

mod search;
pub use search::PreparedQuery;
mod segments;

pub use segments::{MAX_SEGMENTS, SEGMENT_DOCS, SegmentRewrite, merge_choice};

/// The text field's tokenizer: the analyzer's version (see [`super::analyzer`]). Changing it
/// changes the schema, which makes stores rebuild their index on open.
const TOKENIZER: &str = super::analyzer::ANALYZER_VERSION;
const WRITER_MEMORY: usize = 32 * 1024 * 1024;

/// The tantivy index and its single writer.
pub struct TextIndex {
    index: Index,
    reader: IndexReader,
    writer: Option<IndexWriter<TantivyDocument>>,
    dir: Option<RedbDirectory>,
    f_id: Field,
    f_text: Field,
    /// The rows' match keys, kept beside the index and in step with it (see
    /// [`super::key_index`]).
    keys: KeyIndex,
    indexed_seq: u64,
    /// Rows not yet in a segment.
    tail: TextTail,
    /// Tail size at which [`TextIndex::settle`] commits.
    tail_rows: usize,
    /// Deletions staged in the writer since its last commit.
    deletes_pending: bool,
    /// Additions go straight to tantivy's writer until the next commit (see
    /// [`TextIndex::expect_adds`]).
    bypass_tail: bool,
    /// The cap on a segment's documents (see [`TextIndex::set_segment_docs`]).
    segment_docs: usize,
    /// Documents added to the writer since its last commit.
    writer_docs: usize,
    /// The analyzer of rows added to the tail, kept between rows for its memo of words
    /// ([`indexing_analyzer`]); replaced by a fresh one whenever a row is removed, so that it
    /// never holds the words of a row the index no longer has.
    tail_analyzer: TextAnalyzer,
}

/// What [`TextIndex::stage_into`] put into a transaction: the index files and the match keys.
#[derive(Default)]
pub struct StagedText {
    files: Staged,
    keys: StagedKeys,
}

fn schema() -> (Schema, Field, Field) {
    let mut b = Schema::builder();
    // The row id is a fast field only, never a term: a term per document would be one more
    // entry per row in each segment's term dictionary, which is most of what a purge's segment
    // rewrite costs (a removal finds the document by a range query on the fast field).
    let f_id = b.add_u64_field("id", NumericOptions::default().set_fast());
    let indexing = TextFieldIndexing::default()
        .set_tokenizer(TOKENIZER)
        .set_index_option(IndexRecordOption::WithFreqs);
    let f_text = b.add_text_field(
        "text",
        TextOptions::default().set_indexing_options(indexing),
    );
    (b.build(), f_id, f_text)
}

fn register(index: &Index) {
    index.tokenizers().register(TOKENIZER, indexing_analyzer());
}

use super::analyzer::indexing_analyzer;

/// The single-threaded writer, without background merges (see the module docs).
fn new_writer(index: &Index) -> Result<IndexWriter<TantivyDocument>> {
    let w: IndexWriter<TantivyDocument> = index.writer_with_num_threads(1, WRITER_MEMORY)?;
    w.set_merge_policy(Box::new(NoMergePolicy));
    Ok(w)
}

impl TextIndex {
    /// Opens the index stored in `db`, creating it if absent. `writable` controls whether a
    /// writer is opened.
    pub fn open(db: Arc<Db>, writable: bool) -> Result<TextIndex> {
        let dir = RedbDirectory::new(db.clone());
        let (schema, f_id, f_text) = schema();
        let exists = Index::exists(&dir).map_err(|e| Error::TextIndex(e.to_string()))?;
        // Match keys of another format or canonicalizer version make the whole index stale:
        // both are rebuilt together.
        let keys_current = key_index::is_current(&db)?;
        let index = if exists {
            let index = Index::open(dir.clone())?;
            if index.schema() != schema || !keys_current {
                // An index written by an older layout: start over; the store re-indexes every
                // row from the log (the new index reflects no event yet).
                if !writable {
                    // A read-only handle cannot rewrite the file: it indexes the rows in memory
                    // (the store's catch-up does it, since this index reflects no event).
                    return Self::in_memory(std::iter::empty(), 0);
                }
                drop(index);
                dir.delete_all()?;
                Index::create(dir.clone(), schema, IndexSettings::default())?
            } else {
                index
            }
        } else if writable {
            Index::create(dir.clone(), schema, IndexSettings::default())?
        } else {
            return Err(Error::Corrupt("text index is missing".into()));
        };
        register(&index);
        // The writer (a thread and, per segment, a term table of several MiB) is opened on the
        // first change that reaches tantivy: a store whose rows stay in the tail never opens
        // it. A read-only handle catching up with rows newer than the index indexes them into
        // staged files that never reach the file (it never writes).
        let writer = None;
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()?;
        let indexed_seq = Self::read_payload(&index)?;
        // A fresh index (created above) starts a fresh keys table.
        let keys = KeyIndex::open(db, indexed_seq == 0 && !keys_current);
        Ok(TextIndex {
            index,
            reader,
            writer,
            dir: Some(dir),
            f_id,
            f_text,
            keys,
            indexed_seq,
            tail: TextTail::default(),
            tail_rows: TAIL_ROWS,
            deletes_pending: false,
            bypass_tail: false,
            segment_docs: SEGMENT_DOCS,
            writer_docs: 0,
            tail_analyzer: indexing_analyzer(),
        })
    }

    fn read_payload(index: &Index) -> Result<u64> {
        let metas = index.load_metas()?;
        match metas.payload {
            None => Ok(0),
            Some(p) => p
                .parse()
                .map_err(|_| Error::Corrupt(format!("text index payload {p:?}"))),
        }
    }

    /// Files of the committed index that fail their checksum (empty when the index is sound).
    pub fn damaged_files(&self) -> Result<Vec<String>> {
        Ok(self
            .index
            .validate_checksum()?
            .into_iter()
            .map(|p| p.display().to_string())
            .collect())
    }

    /// Deletes every file of the index stored in `db`: the repair path, after which the store
    /// rebuilds the index from its rows (the match keys are replaced by that rebuild).
    pub fn reset(db: Arc<Db>) -> Result<()> {
        RedbDirectory::new(db).delete_all()
    }

    /// Writes the index files and match-key changes staged since the last write transaction
    /// into `tx` (see [`super::directory`] and [`super::key_index`]); hand the result to
    /// [`TextIndex::committed`] once `tx` commits.
    pub fn stage_into(&self, tx: &redb::WriteTransaction) -> Result<StagedText> {
        let files = match &self.dir {
            Some(dir) => dir.stage_into(tx)?,
            None => Staged::default(),
        };
        let keys = self.keys.stage_into(tx)?;
        Ok(StagedText { files, keys })
    }

    /// Forgets the staged changes `staged`'s transaction committed.
    pub fn committed(&mut self, staged: StagedText) {
        if let Some(dir) = &self.dir {
            dir.committed(staged.files);
        }
        self.keys.committed(staged.keys);
    }

    /// True when index files or match-key changes wait for a write transaction.
    pub fn has_staged(&self) -> bool {
        self.dir.as_ref().is_some_and(RedbDirectory::has_staged) || self.keys.has_staged()
    }

    /// The last log sequence number whose changes the committed index reflects.
    pub fn indexed_seq(&self) -> u64 {
        self.indexed_seq
    }

    fn writer(&mut self) -> Result<&mut IndexWriter<TantivyDocument>> {
        if self.writer.is_none() {
            self.writer = Some(new_writer(&self.index)?);
        }
        self.writer.as_mut().ok_or(Error::ReadOnly)
    }

    /// Indexes `id` with `text` and its match keys (call [`TextIndex::remove`] first when
    /// replacing). The row joins the in-memory tail and is searchable at once; it reaches a
    /// segment at the next commit.
    pub fn add(&mut self, id: RowId, text: &str) -> Result<()> {
        self.add_with_keys(id, text, Self::keys_of(text))
    }

    /// The match keys [`TextIndex::add`] indexes for `text`, hashed
    /// ([`key_index::row_key_hashes`]): a function of the text alone, so a batch may compute
    /// them on other threads first.
    pub fn keys_of(text: &str) -> Vec<u32> {
        key_index::row_key_hashes(text)
    }

    /// [`TextIndex::add`] with the keys already computed by [`TextIndex::keys_of`].
    pub fn add_with_keys(&mut self, id: RowId, text: &str, keys: Vec<u32>) -> Result<()> {
        self.add_keys(id, keys);
        self.add_text(id, text)
    }

    /// The text half of [`TextIndex::add_with_keys`]: the row joins the tail, or tantivy's
    /// writer during a batch load. A caller that splits the two halves gives every row both,
    /// with no removal of the row in between.
    pub fn add_text(&mut self, id: RowId, text: &str) -> Result<()> {
        if self.bypass_tail {
            return self.add_doc(id, text);
        }
        self.tail.add(id, text, &mut self.tail_analyzer);
        Ok(())
    }

    /// The match-key half of [`TextIndex::add_with_keys`] (see [`TextIndex::add_text`]).
    pub fn add_keys(&mut self, id: RowId, keys: Vec<u32>) {
        self.keys.add(id, keys);
    }

    /// Announces `adds` additions before the write path makes them: when they will fill the tail
    /// anyway, they go straight to tantivy's writer (which indexes on its own thread) and
    /// [`TextIndex::settle`] commits them, instead of being indexed twice (a batch load). The
    /// choice depends on counts only, and so do the segments it makes.
    pub fn expect_adds(&mut self, adds: usize) {
        if adds > 0 && self.tail.len() + adds >= self.tail_rows {
            self.bypass_tail = true;
        }
    }

    /// Indexes `rows` (id, text) straight into tantivy's writer, bypassing the tail, with their
    /// match keys (computed on several threads).
    fn add_all_to_writer<'a>(
        &mut self,
        rows: impl IntoIterator<Item = (RowId, &'a str)>,
    ) -> Result<()> {
        let rows: Vec<(RowId, &str)> = rows.into_iter().collect();
        let keys = crate::parallel::map(&rows, |(_, t)| Self::keys_of(t));
        for ((id, text), k) in rows.into_iter().zip(keys) {
            self.keys.add(id, k);
            self.add_doc(id, text)?;
        }
        Ok(())
    }

    /// Stages a document for `id` in tantivy's writer (the text field; its match keys are the
    /// caller's).
    fn add_doc(&mut self, id: RowId, text: &str) -> Result<()> {
        let (f_id, f_text) = (self.f_id, self.f_text);
        let mut doc = TantivyDocument::default();
        doc.add_u64(f_id, id);
        doc.add_text(f_text, text);
        self.writer()?.add_document(doc)?;
        self.writer_docs += 1;
        if self.writer_docs >= self.segment_docs {
            self.cut_segment()?;
        }
        Ok(())
    }

    /// Makes the documents added since the last commit a segment of their own, once they reach
    /// the segment cap. The commit records the sequence number the index reflected before
    /// these additions: if the store stops before the commit that covers them, its catch-up
    /// re-indexes them (it removes a row before adding it, so nothing is indexed twice). The
    /// reader is reloaded by that later commit.
    fn cut_segment(&mut self) -> Result<()> {
        let seq = self.indexed_seq;
        let writer = self.writer()?;
        let mut prepared = writer.prepare_commit()?;
        prepared.set_payload(&seq.to_string());
        prepared.commit()?;
        self.writer_docs = 0;
        Ok(())
    }

    /// Sets the cap on a segment's documents (at least 2; default [`SEGMENT_DOCS`]): the most
    /// documents a purge's rewrite of one segment handles, against `rows / cap` or more segments
    /// for each search to visit. Segments already above a new cap stay as they are until
    /// erasures shrink them.
    pub fn set_segment_docs(&mut self, docs: usize) {
        self.segment_docs = docs.max(2);
    }

    /// The cap on a segment's documents ([`TextIndex::set_segment_docs`]).
    pub fn segment_docs(&self) -> usize {
        self.segment_docs
    }

    /// Removes `id`'s document: from the tail at once (with every count it held), and from the
    /// segments at the next commit, which [`TextIndex::settle`] then makes at once.
    pub fn remove(&mut self, id: RowId) -> Result<()> {
        self.keys.remove(id)?;
        self.tail.remove(id);
        self.tail_analyzer = indexing_analyzer();
        let term = Term::from_field_u64(self.f_id, id);
        let query = RangeQuery::new(Bound::Included(term.clone()), Bound::Included(term));
        if self.reader.searcher().search(&query, &Count)? > 0 {
            self.writer()?.delete_query(Box::new(query))?;
            self.deletes_pending = true;
        }
        Ok(())
    }

    /// Rows indexed in memory only, waiting for the next commit.
    pub fn tail_len(&self) -> usize {
        self.tail.len()
    }

    /// Sets the tail size at which [`TextIndex::settle`] commits (at least 1).
    pub fn set_tail_rows(&mut self, rows: usize) {
        self.tail_rows = rows.max(1);
    }

    /// The write path's commit: commits (see [`TextIndex::commit`]) once the tail holds the tail
    /// size of rows or a removal from a segment is staged; otherwise the changes stay in the tail
    /// and nothing is written. Returns whether it committed.
    pub fn settle(&mut self, seq: u64) -> Result<bool> {
        if self.tail.len() >= self.tail_rows || self.deletes_pending || self.bypass_tail {
            self.commit(seq)?;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    /// Commits the tail and the staged removals as reflecting the log up to `seq`, merges
    /// segments when there are too many, and reloads the reader.
    pub fn commit(&mut self, seq: u64) -> Result<()> {
        for (id, text) in self.tail.drain() {
            self.add_doc(id, &text)?;
        }
        let writer = self.writer()?;
        let mut prepared = writer.prepare_commit()?;
        prepared.set_payload(&seq.to_string());
        prepared.commit()?;
        self.writer_docs = 0;
        self.deletes_pending = false;
        self.bypass_tail = false;
        self.reader.reload()?;
        if self.index.searchable_segment_ids()?.len() > MAX_SEGMENTS {
            self.merge_tier()?;
        }
        self.indexed_seq = seq;
        Ok(())
    }

    /// Replaces the whole index with `rows` (id, text) and commits at `seq`: the rebuild path,
    /// used by scrub and repair. Leaves segments of at most the cap, without deleted documents,
    /// and no file of the old segments.
    pub fn rebuild<'a>(
        &mut self,
        rows: impl IntoIterator<Item = (RowId, &'a str)>,
        seq: u64,
    ) -> Result<()> {
        self.writer()?.delete_all_documents()?;
        self.tail.drain();
        self.keys.reset();
        self.add_all_to_writer(rows)?;
        self.commit(seq)?;
        // Tantivy deletes the replaced segment files from its own thread; wait for it, so that
        // no file holding an erased term is still in the directory when scrub copies the store.
        self.writer()?
            .garbage_collect_files()
            .wait()
            .map_err(|e| Error::Storage(format!("text index garbage collection: {e}")))?;
        if let Some(dir) = &self.dir {
            dir.clear_cache();
        }
        Ok(())
    }

    /// A writable index in memory holding `rows`: what a read-only handle uses when the index in
    /// the file is behind the log (it cannot write the catch-up into the file).
    pub fn in_memory<'a>(
        rows: impl IntoIterator<Item = (RowId, &'a str)>,
        seq: u64,
    ) -> Result<TextIndex> {
        let (schema, f_id, f_text) = schema();
        let index = Index::create(RamDirectory::create(), schema, IndexSettings::default())?;
        register(&index);
        let w = new_writer(&index)?;
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()?;
        let mut ti = TextIndex {
            index,
            reader,
            writer: Some(w),
            dir: None,
            f_id,
            f_text,
            keys: KeyIndex::in_memory(),
            indexed_seq: 0,
            tail: TextTail::default(),
            tail_rows: TAIL_ROWS,
            deletes_pending: false,
            bypass_tail: false,
            segment_docs: SEGMENT_DOCS,
            writer_docs: 0,
            tail_analyzer: indexing_analyzer(),
        };
        ti.add_all_to_writer(rows)?;
        ti.commit(seq)?;
        Ok(ti)
    }
}

#[cfg(test)]
mod tests;
