//! Reading the text index: analysis, BM25 search over the segments and the tail, IDFs and
//! match-key lookups.

use std::collections::{BTreeSet, HashMap};

use tantivy::collector::TopDocs;
use tantivy::collector::sort_key::{SortBySimilarityScore, SortByStaticFastValue};
use tantivy::query::{Bm25StatisticsProvider, BooleanQuery, Occur, Query, TermQuery};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{Order, Term};

use super::TextIndex;
use crate::error::{Error, Result};
use crate::index::analyzer::analyzer;
use crate::index::text_tail::{Stats, TailField};
use crate::row::RowId;

impl TextIndex {
    /// The analyzed terms of `text`, deduplicated, in first-seen order.
    pub fn analyze(&self, text: &str) -> Vec<String> {
        let mut analyzer = analyzer();
        let mut stream = analyzer.token_stream(text);
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        while let Some(tok) = stream.next() {
            if seen.insert(tok.text.clone()) {
                out.push(tok.text.clone());
            }
        }
        out
    }

    /// Which of `terms` (analyzed terms, as [`Self::analyze`] gives them) `text` holds once
    /// analyzed: one flag per term, in order. Stops reading `text` once it has found them all.
    /// One hash lookup per token of `text`: linear in the text and the terms together, so a
    /// long query against long rows (the residual audit's verbatim probes) stays cheap.
    pub fn holds_terms(&self, text: &str, terms: &[&str]) -> Vec<bool> {
        let mut held = vec![false; terms.len()];
        let mut positions: HashMap<&str, Vec<usize>> = HashMap::with_capacity(terms.len());
        for (i, t) in terms.iter().enumerate() {
            positions.entry(*t).or_default().push(i);
        }
        let mut missing = positions.len();
        let mut analyzer = analyzer();
        let mut stream = analyzer.token_stream(text);
        while missing > 0
            && let Some(tok) = stream.next()
        {
            if let Some(at) = positions.remove(tok.text.as_str()) {
                for i in at {
                    held[i] = true;
                }
                missing -= 1;
            }
        }
        held
    }

    /// BM25 top `limit` rows for `text`, best first; ties broken by higher row id.
    pub fn search(&self, text: &str, limit: usize) -> Result<Vec<(RowId, f32)>> {
        let terms = self.analyze(text);
        self.top(self.f_text, &terms, limit)
    }

    /// The BM25 score a row gets for `text` when it holds every query term once and has the
    /// average length: the sum of the terms' IDFs, as tantivy computes them (terms absent from
    /// the index count with the IDF of a term in no row). Dividing a row's BM25 score by it
    /// gives the share of the query's information the row matches; 0 when the query has no
    /// term.
    pub fn full_match_score(&self, text: &str) -> Result<f32> {
        // A row with a term once at average length scores idf * (k1 + 1) / (1 + k1) = idf.
        Ok(self.term_idfs(text)?.iter().map(|(_, idf)| idf).sum())
    }

    /// The analyzed terms of `text` (as [`Self::analyze`] gives them) with their IDFs, as
    /// tantivy's BM25 computes them over the indexed rows: `ln(1 + (N - n + 0.5) / (n + 0.5))`
    /// for a term in `n` of `N` rows, so a term in no row gets the highest IDF.
    pub fn term_idfs(&self, text: &str) -> Result<Vec<(String, f32)>> {
        let terms = self.analyze(text);
        let searcher = self.reader.searcher();
        let stats = self.stats(&searcher);
        let n = (searcher.num_docs() + self.tail.len() as u64) as f32;
        let mut out = Vec::with_capacity(terms.len());
        for t in terms {
            let df = stats.doc_freq(&Term::from_field_text(self.f_text, &t))? as f32;
            out.push((t, (1.0 + (n - df + 0.5) / (df + 0.5)).ln()));
        }
        Ok(out)
    }

    /// Top `limit` rows sharing match keys with `keys` (see [`crate::index::keys`]), best first.
    pub fn lookup_keys(&self, keys: &[String], limit: usize) -> Result<Vec<(RowId, f32)>> {
        self.top(self.f_keys, keys, limit)
    }

    fn top(&self, field: Field, terms: &[String], limit: usize) -> Result<Vec<(RowId, f32)>> {
        if terms.is_empty() || limit == 0 {
            return Ok(Vec::new());
        }
        let clauses: Vec<(Occur, Box<dyn Query>)> = terms
            .iter()
            .map(|t| {
                let q: Box<dyn Query> = Box::new(TermQuery::new(
                    Term::from_field_text(field, t),
                    IndexRecordOption::WithFreqs,
                ));
                (Occur::Should, q)
            })
            .collect();
        let query = BooleanQuery::new(clauses);
        let searcher = self.reader.searcher();
        let stats = self.stats(&searcher);
        // Ties are broken by higher row id inside the collector, so the rows kept at the limit
        // do not depend on how the documents are split into segments (segment order follows
        // tantivy's random segment ids).
        let collector = TopDocs::with_limit(limit).order_by((
            (SortBySimilarityScore, Order::Desc),
            (SortByStaticFastValue::<u64>::for_field("id"), Order::Desc),
        ));
        let top = searcher.search_with_statistics_provider(&query, &collector, &stats)?;
        let tail_field = if field == self.f_keys {
            TailField::Keys
        } else {
            TailField::Text
        };
        let mut out = self.tail.score(tail_field, field, terms, &stats)?;
        for ((score, id), _) in top {
            let id = id.ok_or_else(|| Error::Corrupt("text index document without id".into()))?;
            out.push((id, score));
        }
        out.sort_by(|a, b| b.1.total_cmp(&a.1).then(b.0.cmp(&a.0)));
        out.truncate(limit);
        Ok(out)
    }

    /// The BM25 statistics of the segments `searcher` sees and the tail together.
    fn stats<'a>(&'a self, searcher: &'a tantivy::Searcher) -> Stats<'a> {
        Stats {
            searcher,
            tail: &self.tail,
            fields: (self.f_text, self.f_keys),
        }
    }

    /// Number of live documents (segments and tail).
    pub fn num_docs(&self) -> u64 {
        self.reader.searcher().num_docs() + self.tail.len() as u64
    }
}
