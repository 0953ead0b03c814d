//! Reading the text index: analysis, BM25 search over the segments and the tail, IDFs and
//! match-key lookups.

use std::collections::{BTreeSet, HashMap};
use std::ops::Range;

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use tantivy::query::{
    Bm25StatisticsProvider, BooleanQuery, EnableScoring, Occur, Query, TermQuery,
};
use tantivy::schema::IndexRecordOption;
use tantivy::{Searcher, Term};

use super::TextIndex;
use crate::error::{Error, Result};
use crate::index::analyzer::analyzer;
use crate::index::text_tail::{KnownStats, Stats};
use crate::row::RowId;

impl TextIndex {
    /// The analyzed terms of `text`, deduplicated, in first-seen order.
    pub fn analyze(&self, text: &str) -> Vec<String> {
        Self::analyze_text(text)
    }

    /// [`TextIndex::analyze`], which depends on the text alone.
    pub fn analyze_text(text: &str) -> Vec<String> {
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

    /// Every token of `text` whose analyzed term is one of `terms`: the term's index in `terms`
    /// and the token's byte range in `text`, in text order (what [`Self::holds_terms`] reads,
    /// with where each term stands; the text is read to its end).
    pub fn term_spans(text: &str, terms: &[&str]) -> Vec<(usize, Range<usize>)> {
        let mut index: HashMap<&str, usize> = HashMap::with_capacity(terms.len());
        for (i, t) in terms.iter().enumerate() {
            index.entry(*t).or_insert(i);
        }
        let mut out = Vec::new();
        let mut analyzer = analyzer();
        let mut stream = analyzer.token_stream(text);
        while let Some(tok) = stream.next() {
            if let Some(&i) = index.get(tok.text.as_str()) {
                out.push((i, tok.offset_from..tok.offset_to));
            }
        }
        out
    }

    /// `text` with the byte ranges `spans` (token ranges, as [`Self::term_spans`] gives them)
    /// blanked out: replaced by spaces, so the rest keeps its word boundaries. A range that does
    /// not fall on character boundaries of `text` is left as it is.
    pub fn blank_spans<'a>(
        text: &str,
        spans: impl IntoIterator<Item = &'a Range<usize>>,
    ) -> String {
        let mut out = text.as_bytes().to_vec();
        for r in spans {
            if r.start <= r.end
                && r.end <= text.len()
                && text.is_char_boundary(r.start)
                && text.is_char_boundary(r.end)
            {
                out[r.clone()].fill(b' ');
            }
        }
        // Only whole characters were blanked: the rest is still UTF-8.
        String::from_utf8(out).unwrap_or_default()
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
        self.search_prepared(&self.prepare(text)?, limit)
    }

    /// `text` analyzed, with its terms' BM25 statistics summed over the index as it stands:
    /// what [`Self::search_prepared`] and [`PreparedQuery::idfs`] read, so that a recall that
    /// needs both (and may search more than once) sums each term's document frequency over the
    /// segments once, where every scorer built for the query summed it again.
    pub fn prepare(&self, text: &str) -> Result<PreparedQuery> {
        let terms = self.analyze(text);
        let searcher = self.reader.searcher();
        let stats = self.stats(&searcher, None);
        let known = KnownStats {
            doc_freqs: terms
                .iter()
                .map(|t| {
                    let term = Term::from_field_text(self.f_text, t);
                    let df = stats.doc_freq(&term)?;
                    Ok((term, df))
                })
                .collect::<tantivy::Result<_>>()?,
            tokens: stats.total_num_tokens(self.f_text)?,
            docs: stats.total_num_docs()?,
        };
        let live_docs = searcher.num_docs() + self.tail.len() as u64;
        Ok(PreparedQuery {
            terms,
            searcher,
            known,
            live_docs,
        })
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

    /// The analyzed terms of `text` (as [`Self::analyze`] gives them) with their IDFs (see
    /// [`PreparedQuery::idfs`]).
    pub fn term_idfs(&self, text: &str) -> Result<Vec<(String, f32)>> {
        Ok(self.prepare(text)?.idfs())
    }

    /// Top `limit` rows sharing match keys with `keys` (see [`crate::index::keys`]), best first
    /// (ranked as [`crate::index::key_index`] says).
    pub fn lookup_keys(&self, keys: &[String], limit: usize) -> Result<Vec<(RowId, f32)>> {
        self.keys.lookup(keys, self.num_docs(), limit)
    }

    /// BM25 top `limit` rows for a prepared query, best first; ties broken by higher row id.
    pub fn search_prepared(&self, p: &PreparedQuery, limit: usize) -> Result<Vec<(RowId, f32)>> {
        let field = self.f_text;
        if p.terms.is_empty() || limit == 0 {
            return Ok(Vec::new());
        }
        let queries: Vec<TermQuery> = p
            .terms
            .iter()
            .map(|t| {
                TermQuery::new(
                    Term::from_field_text(field, t),
                    IndexRecordOption::WithFreqs,
                )
            })
            .collect();
        let stats = self.stats(&p.searcher, Some(&p.known));
        let top = top_k_pruned(&p.searcher, &queries, &stats, limit)?;
        let mut out = self.tail.score(&p.terms, &stats)?;
        out.extend(top);
        out.sort_by(|a, b| b.1.total_cmp(&a.1).then(b.0.cmp(&a.0)));
        out.truncate(limit);
        Ok(out)
    }

    /// The BM25 statistics of the segments `searcher` sees and the tail together, answering
    /// from `known` what it holds.
    fn stats<'a>(
        &'a self,
        searcher: &'a tantivy::Searcher,
        known: Option<&'a KnownStats>,
    ) -> Stats<'a> {
        Stats {
            searcher,
            tail: &self.tail,
            field: self.f_text,
            known,
        }
    }

    /// Every live document of the segments matching any of `terms` in `field`, scored by a
    /// full scan (tantivy's union scorer, no pruning), best first, ties to the higher row id:
    /// the reference [`top_k_pruned`] is tested against.
    #[cfg(test)]
    pub(crate) fn full_scan(&self, terms: &[String]) -> Result<Vec<(RowId, f32)>> {
        let field = self.f_text;
        let query = BooleanQuery::new(
            terms
                .iter()
                .map(|t| {
                    let q = TermQuery::new(
                        Term::from_field_text(field, t),
                        IndexRecordOption::WithFreqs,
                    );
                    (Occur::Should, Box::new(q) as Box<dyn Query>)
                })
                .collect(),
        );
        let searcher = self.reader.searcher();
        let stats = self.stats(&searcher, None);
        let weight = query.weight(EnableScoring::enabled_from_statistics_provider(
            &stats, &searcher,
        ))?;
        let mut out = Vec::new();
        for reader in searcher.segment_readers() {
            let ids = reader.fast_fields().u64("id")?;
            let alive = reader.alive_bitset();
            weight.for_each(reader, &mut |doc, score| {
                if !alive.is_some_and(|a| a.is_deleted(doc)) {
                    out.push(Ranked(score, ids.first(doc).unwrap_or(u64::MAX)));
                }
            })?;
        }
        out.sort_unstable_by(|a, b| b.cmp(a));
        Ok(out.into_iter().map(|Ranked(s, id)| (id, s)).collect())
    }

    /// Each segment's document count, deleted documents included, in tantivy's order.
    pub fn segment_sizes(&self) -> Vec<u32> {
        let searcher = self.reader.searcher();
        searcher
            .segment_readers()
            .iter()
            .map(|s| s.max_doc())
            .collect()
    }

    /// Number of live documents (segments and tail).
    pub fn num_docs(&self) -> u64 {
        self.reader.searcher().num_docs() + self.tail.len() as u64
    }
}

/// A query analyzed against one view of the text index ([`TextIndex::prepare`]).
pub struct PreparedQuery {
    /// The analyzed terms, deduplicated, in first-seen order.
    terms: Vec<String>,
    /// The segments as they were when the query was prepared.
    searcher: Searcher,
    /// The terms' statistics over those segments and the tail.
    known: KnownStats,
    /// Live rows (segments and tail).
    live_docs: u64,
}

impl PreparedQuery {
    /// The analyzed terms with their IDFs, as tantivy's BM25 computes them over the indexed
    /// rows: `ln(1 + (N - n + 0.5) / (n + 0.5))` for a term in `n` of `N` rows, so a term in no
    /// row gets the highest IDF.
    pub fn idfs(&self) -> Vec<(String, f32)> {
        let n = self.live_docs as f32;
        self.terms
            .iter()
            .zip(&self.known.doc_freqs)
            .map(|(t, (_, df))| {
                let df = *df as f32;
                (t.clone(), (1.0 + (n - df + 0.5) / (df + 0.5)).ln())
            })
            .collect()
    }
}

/// A BM25 score ordered by [`f32::total_cmp`], then a row id: one entry of [`top_k_pruned`].
#[derive(Clone, Copy, Debug, PartialEq)]
struct Ranked(f32, RowId);

impl Eq for Ranked {}

impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ranked {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0).then(self.1.cmp(&other.1))
    }
}

/// Relative slack below the `limit`-th score within which [`top_k_pruned`]'s first pass keeps
/// candidates for exact scoring: far above the rounding of a sum of a few dozen f32 term scores
/// (about 1e-6), far below any real difference between two BM25 scores.
const PRUNE_SLACK: f32 = 1e-4;

/// The top `limit` documents of `query` over the segments of `searcher`, scored with `stats`,
/// best first, ties broken by higher row id: exactly what scoring every matching document and
/// sorting by (score, row id) gives, scores bit for bit, whatever the segments' order and split.
///
/// A sort-by-(score, id) collector cannot prune, and on queries with common words it scored
/// every matching document. Here, two passes:
/// 1. Candidates: tantivy's block-max WAND (`Weight::for_each_pruning`) skips every block of
///    postings whose best possible score is at or below a threshold, here [`PRUNE_SLACK`] below
///    the current `limit`-th score, carried from one segment to the next. Its scores sum the
///    terms in an order that depends on where each term's postings stand, so a score can differ
///    from the plain sum in its last bits: the slack keeps every document that could tie or pass
///    the `limit`-th once scored exactly.
/// 2. Exact scores: each candidate is scored term by term, in query order, by each term's own
///    scorer reached by seeking: the sum a full scan's union makes (it adds the matching terms'
///    scores to 0 in query order). Then sorted and cut to `limit`.
fn top_k_pruned(
    searcher: &Searcher,
    terms: &[TermQuery],
    stats: &dyn Bm25StatisticsProvider,
    limit: usize,
) -> Result<Vec<(RowId, f32)>> {
    let scoring = || EnableScoring::enabled_from_statistics_provider(stats, searcher);
    let query = BooleanQuery::new(
        terms
            .iter()
            .map(|q| (Occur::Should, Box::new(q.clone()) as Box<dyn Query>))
            .collect(),
    );
    let weight = query.weight(scoring())?;
    let term_weights = terms
        .iter()
        .map(|q| q.weight(scoring()))
        .collect::<tantivy::Result<Vec<_>>>()?;
    let slack = |score: f32| score - score.abs() * PRUNE_SLACK;
    // The best `limit` first-pass scores so far (a min-heap: its top is the `limit`-th).
    let mut best: BinaryHeap<Reverse<Ranked>> = BinaryHeap::with_capacity(limit + 1);
    let threshold = |best: &BinaryHeap<Reverse<Ranked>>| match best.peek() {
        Some(Reverse(worst)) if best.len() >= limit => slack(worst.0).next_down(),
        _ => f32::MIN,
    };
    // (first-pass score, segment, document, row id)
    let mut candidates: Vec<(f32, usize, u32, RowId)> = Vec::new();
    let mut failure = None;
    let readers = searcher.segment_readers();
    for (seg, reader) in readers.iter().enumerate() {
        let ids = reader.fast_fields().u64("id")?;
        let alive = reader.alive_bitset();
        let start = threshold(&best);
        weight.for_each_pruning(start, reader, &mut |doc, score| {
            if alive.is_some_and(|a| a.is_deleted(doc)) {
                return threshold(&best);
            }
            let Some(id) = ids.first(doc) else {
                failure
                    .get_or_insert_with(|| Error::Corrupt("text index document without id".into()));
                return threshold(&best);
            };
            candidates.push((score, seg, doc, id));
            let entry = Ranked(score, id);
            if best.len() < limit {
                best.push(Reverse(entry));
            } else if best.peek().is_some_and(|Reverse(worst)| entry > *worst) {
                best.pop();
                best.push(Reverse(entry));
            }
            threshold(&best)
        })?;
    }
    if let Some(e) = failure {
        return Err(e);
    }
    let cut = match best.peek() {
        Some(Reverse(worst)) if best.len() >= limit => slack(worst.0),
        _ => f32::MIN,
    };
    candidates.retain(|c| c.0 >= cut);
    // In segment and document order, so each term's scorer only seeks forward.
    candidates.sort_unstable_by_key(|c| (c.1, c.2));
    let mut exact: Vec<Ranked> = Vec::with_capacity(candidates.len());
    let mut i = 0;
    while i < candidates.len() {
        let seg = candidates[i].1;
        let mut scorers = term_weights
            .iter()
            .map(|w| w.scorer(&readers[seg], 1.0))
            .collect::<tantivy::Result<Vec<_>>>()?;
        while i < candidates.len() && candidates[i].1 == seg {
            let (_, _, doc, id) = candidates[i];
            let mut score: f32 = 0.0;
            for scorer in &mut scorers {
                if scorer.doc() < doc {
                    scorer.seek(doc);
                }
                if scorer.doc() == doc {
                    score += scorer.score();
                }
            }
            exact.push(Ranked(score, id));
            i += 1;
        }
    }
    exact.sort_unstable_by(|a, b| b.cmp(a));
    exact.truncate(limit);
    Ok(exact
        .into_iter()
        .map(|Ranked(score, id)| (id, score))
        .collect())
}
