//! The near-real-time tail of the text index: rows indexed in memory, searched together with the
//! tantivy segments, and handed to tantivy as one segment every [`TAIL_ROWS`] rows.
//!
//! A tantivy commit builds a segment, and a segment writer allocates and zeroes a term hash table
//! of several MiB however few documents it holds; committing one segment per one-row write made
//! that the largest cost of a durable insert. The tail holds what a segment would hold (for the text
//! field, each term's frequency in each document and each document's token count) and scores it with
//! tantivy's own BM25 ([`Bm25Weight`], k1 = 1.2, b = 0.75, field norms quantized by
//! [`FieldNormReader::fieldnorm_to_id`]) on statistics taken over the segments and the tail
//! together ([`Stats`]), and tantivy scores its segments on those same statistics. A row
//! therefore gets the same score whether it sits in the tail or in a segment (up to the order
//! of a float sum over the query's terms).
//!
//! The tail is derived data like the index: it is never written to the file. The segments'
//! commit records the last log sequence number they reflect, and opening a store re-indexes the
//! rows of later events (which is what the tail held) from the log. Removing a row from the tail
//! drops its text, its terms and its counts: nothing of an erased row stays in the tail.

use std::collections::{BTreeMap, HashMap};

use tantivy::fieldnorm::FieldNormReader;
use tantivy::query::{Bm25StatisticsProvider, Bm25Weight};
use tantivy::schema::Field;
use tantivy::tokenizer::{MAX_TOKEN_LEN, TextAnalyzer};
use tantivy::{Searcher, Term};

use crate::row::RowId;

/// Rows the tail holds before the store's next write commits them to tantivy as one segment.
/// A count, never a time, so that the same operations give the same segments.
pub const TAIL_ROWS: usize = 1024;

/// The indexed text of one document: term frequencies and the token count (its field norm).
#[derive(Default)]
struct FieldDoc {
    tf: BTreeMap<String, u32>,
    num_tokens: u32,
}

/// One document of the tail.
struct TailDoc {
    text: String,
    field: FieldDoc,
}

/// Rows indexed in memory, not yet in a tantivy segment.
#[derive(Default)]
pub struct TextTail {
    docs: BTreeMap<RowId, TailDoc>,
    /// Term -> documents holding it -> term frequency.
    postings: HashMap<String, BTreeMap<RowId, u32>>,
    total_tokens: u64,
}

/// Term frequencies and token count of `text` as tantivy indexes it with `analyzer`: every token
/// counts, except those longer than tantivy's [`MAX_TOKEN_LEN`], which it drops.
fn analyze(analyzer: &mut TextAnalyzer, text: &str) -> FieldDoc {
    let mut doc = FieldDoc::default();
    let mut stream = analyzer.token_stream(text);
    while let Some(tok) = stream.next() {
        if tok.text.len() > MAX_TOKEN_LEN {
            continue;
        }
        doc.num_tokens += 1;
        *doc.tf.entry(tok.text.clone()).or_insert(0) += 1;
    }
    doc
}

impl TextTail {
    /// Number of rows in the tail.
    pub fn len(&self) -> usize {
        self.docs.len()
    }

    /// True when the tail holds no row.
    pub fn is_empty(&self) -> bool {
        self.docs.is_empty()
    }

    /// True when `id` is in the tail.
    pub fn contains(&self, id: RowId) -> bool {
        self.docs.contains_key(&id)
    }

    /// Indexes `id` with `text`, analyzed by `analyzer`. Replaces a previous entry for `id`.
    pub fn add(&mut self, id: RowId, text: &str, analyzer: &mut TextAnalyzer) {
        self.remove(id);
        let field = analyze(analyzer, text);
        self.total_tokens += u64::from(field.num_tokens);
        for (term, tf) in &field.tf {
            self.postings
                .entry(term.clone())
                .or_default()
                .insert(id, *tf);
        }
        self.docs.insert(
            id,
            TailDoc {
                text: text.to_owned(),
                field,
            },
        );
    }

    /// Drops `id` from the tail with its text, terms and counts. Returns whether it was there.
    pub fn remove(&mut self, id: RowId) -> bool {
        let Some(doc) = self.docs.remove(&id) else {
            return false;
        };
        self.total_tokens -= u64::from(doc.field.num_tokens);
        for term in doc.field.tf.keys() {
            if let Some(p) = self.postings.get_mut(term) {
                p.remove(&id);
                if p.is_empty() {
                    self.postings.remove(term);
                }
            }
        }
        true
    }

    /// Empties the tail, returning its rows (id, text) in id order: what a commit hands to
    /// tantivy.
    pub fn drain(&mut self) -> Vec<(RowId, String)> {
        let docs = std::mem::take(&mut self.docs);
        self.postings = HashMap::new();
        self.total_tokens = 0;
        docs.into_iter().map(|(id, d)| (id, d.text)).collect()
    }

    /// Documents of the tail holding `term`.
    pub fn doc_freq(&self, term: &str) -> u64 {
        self.postings.get(term).map_or(0, |p| p.len() as u64)
    }

    /// Tokens over every tail document.
    pub fn total_tokens(&self) -> u64 {
        self.total_tokens
    }

    /// BM25 scores of the tail documents matching any of `terms` (a term listed twice counts
    /// twice, as in a tantivy boolean query), on the combined statistics `stats`, in id order.
    pub fn score(&self, terms: &[String], stats: &Stats<'_>) -> tantivy::Result<Vec<(RowId, f32)>> {
        let tantivy_field = stats.field;
        let mut scores: BTreeMap<RowId, f32> = BTreeMap::new();
        if self.docs.is_empty() {
            return Ok(Vec::new());
        }
        let n = stats.total_num_docs()?;
        let avg = stats.total_num_tokens(tantivy_field)? as f32 / n as f32;
        for t in terms {
            let Some(postings) = self.postings.get(t) else {
                continue;
            };
            let df = stats.doc_freq(&Term::from_field_text(tantivy_field, t))?;
            let weight = Bm25Weight::for_one_term_without_explain(df, n, avg);
            for (id, tf) in postings {
                let norm = self.docs.get(id).map_or(0, |d| d.field.num_tokens);
                let s = weight.score(FieldNormReader::fieldnorm_to_id(norm), *tf);
                *scores.entry(*id).or_insert(0.0) += s;
            }
        }
        Ok(scores.into_iter().collect())
    }
}

/// Statistics already summed over the segments and the tail for one query: each term's
/// document frequency and the totals (see `TextIndex::prepare`).
#[derive(Debug, Default)]
pub struct KnownStats {
    /// The query's terms with their document frequencies.
    pub doc_freqs: Vec<(Term, u64)>,
    /// Tokens of the text field over every document.
    pub tokens: u64,
    /// Documents, as BM25 counts them.
    pub docs: u64,
}

/// BM25 statistics over the segments a searcher sees and the tail together: what both the
/// segments and the tail are scored on.
pub struct Stats<'a> {
    /// The segments.
    pub searcher: &'a Searcher,
    /// The tail.
    pub tail: &'a TextTail,
    /// The text field.
    pub field: Field,
    /// Statistics already summed over these segments and the tail, answered from here.
    pub known: Option<&'a KnownStats>,
}

impl Bm25StatisticsProvider for Stats<'_> {
    fn total_num_tokens(&self, field: Field) -> tantivy::Result<u64> {
        if let Some(k) = self.known
            && field == self.field
        {
            return Ok(k.tokens);
        }
        let seg = Bm25StatisticsProvider::total_num_tokens(self.searcher, field)?;
        let tail = if field == self.field {
            self.tail.total_tokens()
        } else {
            0
        };
        Ok(seg + tail)
    }

    fn total_num_docs(&self) -> tantivy::Result<u64> {
        if let Some(k) = self.known {
            return Ok(k.docs);
        }
        let seg = Bm25StatisticsProvider::total_num_docs(self.searcher)?;
        Ok(seg + self.tail.len() as u64)
    }

    fn doc_freq(&self, term: &Term) -> tantivy::Result<u64> {
        if let Some((_, df)) = self
            .known
            .and_then(|k| k.doc_freqs.iter().find(|(t, _)| t == term))
        {
            return Ok(*df);
        }
        let seg = self.searcher.doc_freq(term)?;
        let tail = match term.value().as_str() {
            Some(t) if term.field() == self.field => self.tail.doc_freq(t),
            _ => 0,
        };
        Ok(seg + tail)
    }
}
