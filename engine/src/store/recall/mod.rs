//! Recall and list: the read plane.
//!
//! Recall runs two legs, BM25 over the text index and similarity over the vector index, keeps
//! the candidates that pass the filters (namespace, metadata, kind, depth, validity, as-of),
//! and scores each candidate's relevance in [0, 1] from calibrated leg scores:
//!
//! - lexical: the row's BM25 score divided by the score of a row holding every query term once
//!   at average length ([`crate::index::text::TextIndex::full_match_score`]), capped at 1, so it
//!   is the share of the query's information (IDF mass) the row matches;
//! - coverage: for rows the BM25 leg returned, the share of the query's IDF mass carried by the
//!   query terms the row contains (the lexical evidence fusion weighs, see [`super::fusion`]);
//! - semantic: the cosine mapped linearly from the embedder's
//!   [`crate::Embedder::similarity_range`] `(unrelated, match)` onto [0, 1], clipped. With an
//!   embedder that embeds words ([`crate::Embedder::embeds_words`]: the static table, the hash
//!   embedder) and a query the store embeds, a lexical candidate holding some but not all of
//!   the query's terms is scored on what the two texts say beyond the words they share:
//!   semantic = coverage + (1 - coverage) x the calibrated cosine between the query and the
//!   row once the shared terms are taken out of both (the shared part of the query's
//!   information is matched word for word; the embedder judges the rest; a row holding every
//!   query term has nothing left to match and scores 1, a row with nothing beyond the shared
//!   terms scores its coverage). A bag-of-words vector
//!   otherwise counts the shared words a second time: every row naming the query's person
//!   looks alike to it, and the row that answers the question is not told apart;
//! - relevance = [`LEXICAL_WEIGHT`] x coverage + (1 - [`LEXICAL_WEIGHT`]) x semantic when both
//!   legs run, the one leg's calibrated score otherwise;
//! - score = relevance x the depth weight. Ties go to the newer row.
//!
//! A query about nothing in the store matches no informative term and sits near unrelated
//! texts in vector space, so its hits score low: [`RecallQuery::min_score`] drops hits below a
//! threshold ([`SUGGESTED_MIN_SCORE`] is the suggested one).

use std::collections::{BTreeMap, HashMap};
use std::ops::Range;

use redb::ReadableTable;

use super::fusion::{self, Fusion, Rest, RestCosine};
use super::history::AsOf;
use super::{Inner, Store};
use crate::depth::Depth;
use crate::embed::check_vector;
use crate::error::{Error, Result};
use crate::index::text::TextIndex;
use crate::metadata::Filter;
use crate::row::{Kind, Millis, Row, RowId, validate_field};
use crate::storage::{self, ROWS};

mod request;

pub use request::{
    DEFAULT_MIN_SCORE, Explain, Hit, LEXICAL_WEIGHT, Legs, ListQuery, MAX_K, RecallQuery,
    SUGGESTED_MIN_SCORE,
};

/// What the filter admits: the row's depth at its point in time and its stale mark.
type Admitted = (Depth, Option<u64>);

/// The admission test shared by recall and list.
struct Admission<'a> {
    namespace: Option<&'a str>,
    filters: &'a Filter,
    kinds: &'a [Kind],
    include_submerged: bool,
    include_expired: bool,
    include_stale: bool,
    now: Millis,
    /// Depths as of a past point; `None` means now.
    depths: Option<std::sync::Arc<HashMap<RowId, Depth>>>,
    /// Stale rows and the seq that marked them, as of the filter's point.
    stale: HashMap<RowId, u64>,
}

impl<'a> Admission<'a> {
    /// The filter of a recall or list at `now`, or at the point `as_of` names (whose depths come
    /// from the log, and whose time decides validity). `include` is (submerged, expired,
    /// stale).
    #[allow(clippy::too_many_arguments)]
    fn new(
        inner: &Inner,
        tx: &redb::ReadTransaction,
        now: Millis,
        as_of: Option<AsOf>,
        namespace: Option<&'a str>,
        filters: &'a Filter,
        kinds: &'a [Kind],
        include: (bool, bool, bool),
    ) -> Result<Self> {
        let (depths, now, at_seq) = match as_of {
            None => (None, now, u64::MAX),
            Some(at) => {
                let (seq, t) = inner.resolve_as_of(tx, at)?;
                (Some(inner.depths_at(tx, seq)?), t, seq)
            }
        };
        let mut stale = HashMap::new();
        if let Some(t) = storage::open_read(tx, storage::STALE)? {
            for e in t.iter()? {
                let (k, v) = e?;
                if v.value() <= at_seq {
                    stale.insert(k.value(), v.value());
                }
            }
        }
        Ok(Admission {
            namespace,
            filters,
            kinds,
            include_submerged: include.0,
            include_expired: include.1,
            include_stale: include.2,
            now,
            depths,
            stale,
        })
    }

    /// The row's depth at the filter's point in time and its stale mark, if it passes.
    fn admit(&self, row: &Row) -> Option<Admitted> {
        let depth = match &self.depths {
            None => row.depth,
            Some(m) => *m.get(&row.id)?,
        };
        // What was purged since stays gone in every view of the past.
        if row.depth.is_void() || depth.is_void() {
            return None;
        }
        if !depth.is_live() && !self.include_submerged {
            return None;
        }
        if !self.include_expired && row.is_expired(self.now) {
            return None;
        }
        if self.namespace.is_some_and(|ns| ns != row.namespace) {
            return None;
        }
        if !self.kinds.is_empty() && !self.kinds.contains(&row.kind) {
            return None;
        }
        if !self.filters.matches(&row.metadata) {
            return None;
        }
        let stale = self.stale.get(&row.id).copied();
        if stale.is_some() && !self.include_stale {
            return None;
        }
        Some((depth, stale))
    }
}

impl Store {
    /// Recalls the `k` rows that best match the query.
    ///
    /// Runs BM25 over the text index and similarity over the vector index, keeps the candidates
    /// that pass the filters (namespace, metadata, kind, depth, validity, as-of), and scores
    /// each by calibrated relevance times depth weight (see the module documentation), dropping
    /// hits below `min_score`. Ties go to the newer row. Submerged,
    /// expired and void rows are left out unless asked for (void rows always).
    #[tracing::instrument(name = "oubli::Store::recall", level = "debug", skip_all)]
    pub fn recall(&self, q: &RecallQuery) -> Result<Vec<Hit>> {
        if q.k == 0 || q.k > MAX_K {
            return Err(Error::InvalidArgument(format!("k must be in 1..={MAX_K}")));
        }
        if !(0.0..=1.0).contains(&q.min_score) {
            return Err(Error::InvalidArgument(
                "min_score must be in 0..=1".to_string(),
            ));
        }
        // A query needs text, unless it brings its own vector.
        match crate::row::validate_text(&q.text) {
            Err(Error::EmptyText) if q.vector.is_some() => {}
            other => other?,
        }
        if let Some(ns) = &q.namespace {
            validate_field("namespace", ns)?;
        }
        q.filters.validate()?;
        let dim = self.read(|i| Ok(i.dim))?;
        let qv = match (&q.vector, q.legs) {
            (_, Legs::Lexical) => None,
            (Some(v), _) => Some(check_vector(v, dim)?),
            (None, _) => Some(check_vector(&self.opts.embedder.embed(&q.text)?, dim)?),
        };
        let now = self.now();
        let range = self.opts.embedder.similarity_range();
        self.read(|inner| {
            let tx = inner.db.begin_read()?;
            let filter = Admission::new(
                inner,
                &tx,
                now,
                q.as_of,
                q.namespace.as_deref(),
                &q.filters,
                &q.kinds,
                (q.include_submerged, q.include_expired, q.include_stale),
            )?;
            let words = self.opts.embedder.as_ref();
            // Only a query the store embeds itself: a vector brought by the caller may come
            // from another model than the one that would embed the rests.
            let rest = (words.embeds_words() && q.vector.is_none()).then_some(words);
            inner.fuse(&tx, q, qv.as_deref(), range, &filter, rest)
        })
    }

    /// Lists rows matching the filters in id order. See [`ListQuery`].
    #[tracing::instrument(name = "oubli::Store::list", level = "debug", skip_all)]
    pub fn list(&self, q: &ListQuery) -> Result<Vec<Row>> {
        if let Some(ns) = &q.namespace {
            validate_field("namespace", ns)?;
        }
        q.filters.validate()?;
        let now = self.now();
        self.read(|inner| {
            let tx = inner.db.begin_read()?;
            let filter = Admission::new(
                inner,
                &tx,
                now,
                q.as_of,
                q.namespace.as_deref(),
                &q.filters,
                &q.kinds,
                (q.include_submerged, q.include_expired, q.include_stale),
            )?;
            let Some(rows) = storage::open_read(&tx, ROWS)? else {
                return Ok(Vec::new());
            };
            let start = q.after.map_or(0, |a| a.saturating_add(1));
            let limit = q.limit.unwrap_or(usize::MAX);
            let mut out = Vec::new();
            for e in rows.range(start..)? {
                if out.len() >= limit {
                    break;
                }
                let (k, v) = e?;
                let row: Row = storage::decode(v.value())?;
                if let Some((d, _)) = filter.admit(&row) {
                    // Admitted rows are not void, so they have a payload to read.
                    let mut full = Inner::read_row(&tx, k.value())?.unwrap_or(row);
                    full.depth = d;
                    out.push(full);
                }
            }
            Ok(out)
        })
    }
}

/// Reads rows as [`Inner::read_row`] does, with the row and payload tables opened once for
/// every candidate of a recall instead of once per row.
struct RowReader {
    rows: Option<redb::ReadOnlyTable<u64, &'static [u8]>>,
    payloads: Option<redb::ReadOnlyTable<u64, &'static [u8]>>,
}

impl RowReader {
    fn new(tx: &redb::ReadTransaction) -> Result<Self> {
        Ok(RowReader {
            rows: storage::open_read(tx, ROWS)?,
            payloads: storage::open_read(tx, storage::PAYLOADS)?,
        })
    }

    /// The row without its text (what admission reads), `None` when there is no such row.
    fn read(&self, id: RowId) -> Result<Option<Row>> {
        let Some(rows) = &self.rows else {
            return Ok(None);
        };
        let Some(v) = rows.get(id)? else {
            return Ok(None);
        };
        Ok(Some(storage::decode(v.value())?))
    }

    /// The row's text, when it has a payload: read only for the rows whose text recall uses
    /// (the lexical leg's candidates and the hits returned), as [`Inner::read_row`] reads it.
    fn text(&self, id: RowId) -> Result<Option<String>> {
        match &self.payloads {
            Some(payloads) => match payloads.get(id)? {
                Some(p) => Ok(Some(storage::Payload::decode(p.value())?.text)),
                None => Ok(None),
            },
            None => Ok(None),
        }
    }

    /// Gives `row` its text (see [`RowReader::text`]); a row without a payload keeps the text
    /// it decoded with.
    fn fill_text(&self, row: &mut Row) -> Result<()> {
        if let Some(t) = self.text(row.id)? {
            row.text = Some(t);
        }
        Ok(())
    }
}

/// How many candidates each leg of a recall for `k` hits keeps (after filters): what fusion
/// ranks from.
pub(crate) fn candidate_pool(k: usize) -> usize {
    (k * 4).max(50)
}

impl Inner {
    fn fuse(
        &self,
        tx: &redb::ReadTransaction,
        q: &RecallQuery,
        qv: Option<&[f32]>,
        range: (f32, f32),
        filter: &Admission<'_>,
        rest: Option<&dyn crate::embed::Embedder>,
    ) -> Result<Vec<Hit>> {
        let mut rows: HashMap<RowId, Option<(Row, Admitted)>> = HashMap::new();
        let reader = RowReader::new(tx)?;
        let mut admit = |id: RowId| -> Result<bool> {
            if let Some(v) = rows.get(&id) {
                return Ok(v.is_some());
            }
            let v = match reader.read(id)? {
                Some(row) => filter.admit(&row).map(|d| (row, d)),
                None => None,
            };
            let ok = v.is_some();
            rows.insert(id, v);
            Ok(ok)
        };
        let want = q.k;
        let total = self.vectors.len().max(self.text.num_docs() as usize).max(1);
        // Each leg fetches candidates, keeps those passing the filters, and widens its fetch
        // until it has `pool` survivors or has seen everything.
        let pool = candidate_pool(want);
        // `first`: the leg's fetch of `pool` candidates, when it was made beforehand.
        let mut leg = |search: &dyn Fn(usize) -> Result<Vec<(RowId, f32)>>,
                       mut first: Option<Vec<(RowId, f32)>>|
         -> Result<Vec<(RowId, f32)>> {
            let mut limit = pool;
            loop {
                let cands = match first.take() {
                    Some(cands) => cands,
                    None => search(limit)?,
                };
                let exhausted = cands.len() < limit || limit >= total;
                let mut kept = Vec::new();
                for (id, s) in cands {
                    if admit(id)? {
                        kept.push((id, s));
                        if kept.len() == pool {
                            break;
                        }
                    }
                }
                if kept.len() >= pool || exhausted {
                    return Ok(kept);
                }
                limit = (limit * 4).min(total.max(limit + 1));
            }
        };
        // Analyzed once, its statistics summed once: the IDFs and every search below use it.
        let prepared = if q.legs == Legs::Vector {
            None
        } else {
            Some(self.text.prepare(&q.text)?)
        };
        let idfs = prepared.as_ref().map(|p| p.idfs()).unwrap_or_default();
        let full_match: f32 = idfs.iter().map(|(_, idf)| idf).sum();
        let query_terms: Vec<&str> = idfs.iter().map(|(t, _)| t.as_str()).collect();
        let lexical_runs = q.legs != Legs::Vector && full_match > 0.0;
        let vec_t = storage::open_read(tx, storage::VECTORS)?;
        let dim = self.dim;
        let stored = |id: RowId| storage::read_vector(vec_t.as_ref(), id, dim);
        let qv = qv.filter(|_| q.legs != Legs::Lexical);
        // Both legs' first fetch runs on two threads when the vector leg searches a graph (the
        // store is above the ANN threshold), where each leg takes milliseconds; below it the
        // exact scan is cheaper than starting a thread. Each leg's result is the same either
        // way, and the filters are applied afterwards, in the same order.
        let (first_lexical, first_vector) = match qv {
            Some(v)
                if self.vectors.has_snapshot()
                    && let Some(p) = &prepared
                    && lexical_runs =>
            {
                let vectors = &self.vectors;
                let (lexical, vector) = std::thread::scope(|scope| {
                    let vector = scope.spawn(|| vectors.search(v, pool, &stored));
                    let lexical = self.text.search_prepared(p, pool);
                    let vector = vector
                        .join()
                        .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
                    (lexical, vector)
                });
                (Some(lexical?), Some(vector?))
            }
            _ => (None, None),
        };
        let lexical = match &prepared {
            Some(p) if lexical_runs => leg(&|n| self.text.search_prepared(p, n), first_lexical)?,
            _ => Vec::new(),
        };
        let vector = match qv {
            Some(v) => leg(&|n| self.vectors.search(v, n, &stored), first_vector)?,
            None => Vec::new(),
        };
        let (lo, hi) = range;
        let semantic = |cos: f32| -> f64 {
            let span = (hi - lo).max(1e-6) as f64;
            ((cos as f64 - lo as f64) / span).clamp(0.0, 1.0)
        };
        // Two rests share no word: unrelated ones sit near a cosine of 0, not at the
        // embedder's `unrelated` level (the cosine of whole texts, which share function words
        // and subwords), so the rest's cosine is mapped from (0, match).
        let rest_semantic =
            |cos: f32| -> f64 { (cos as f64 / (hi as f64).max(1e-6)).clamp(0.0, 1.0) };
        let mut explain: BTreeMap<RowId, Explain> = BTreeMap::new();
        // Where the query's terms stand in each lexical candidate (when rests are compared).
        let mut row_spans: HashMap<RowId, Vec<(usize, Range<usize>)>> = HashMap::new();
        for (rank, (id, s)) in lexical.iter().enumerate() {
            let e = explain.entry(*id).or_default();
            e.bm25_rank = Some(rank + 1);
            e.bm25_score = Some(*s);
            e.lexical = (*s as f64 / full_match as f64).clamp(0.0, 1.0);
            if let Some(Some((row, _))) = rows.get_mut(id) {
                reader.fill_text(row)?;
                let text = row.text.as_deref().unwrap_or("");
                let held = if rest.is_some() {
                    // Where the terms stand, for the row's rest below.
                    let spans = TextIndex::term_spans(text, &query_terms);
                    let mut held = vec![false; query_terms.len()];
                    for (i, _) in &spans {
                        held[*i] = true;
                    }
                    row_spans.insert(*id, spans);
                    held
                } else {
                    self.text.holds_terms(text, &query_terms)
                };
                e.coverage = fusion::coverage(&idfs, &held);
            }
        }
        for (rank, (id, s)) in vector.iter().enumerate() {
            let e = explain.entry(*id).or_default();
            e.vector_rank = Some(rank + 1);
            e.vector_score = Some(*s);
        }
        let lexical_ran = !lexical.is_empty() || (q.legs != Legs::Vector && full_match > 0.0);
        // The query's rest, embedded once per set of terms a candidate holds.
        let query_spans = match rest {
            Some(_) => TextIndex::term_spans(&q.text, &query_terms),
            None => Vec::new(),
        };
        let mut rest_queries: HashMap<Vec<bool>, Option<Vec<f32>>> = HashMap::new();
        let fusion = Fusion::of(lexical_ran, qv.is_some());
        for (id, e) in explain.iter_mut() {
            if let Some(v) = qv {
                if e.vector_score.is_none() {
                    // A row in the exact tail holds the same values as the vector table (both
                    // are the stored rounding), without a read and a decode.
                    let row_v = match self.vectors.tail_vector(*id) {
                        Some(row_v) => Some(row_v),
                        None => stored(*id)?,
                    };
                    if let Some(row_v) = row_v {
                        e.vector_score = Some(crate::embed::dot(v, &row_v));
                    }
                }
                e.semantic = e.vector_score.map_or(0.0, semantic);
                if let (Some(emb), Fusion::Both) = (rest, fusion)
                    && e.coverage > 0.0
                    && let Some(Some((row, _))) = rows.get(id)
                    && let Some(spans) = row_spans.get(id)
                {
                    let rest = Rest {
                        query: &q.text,
                        query_spans: &query_spans,
                        text: row.text.as_deref().unwrap_or(""),
                        spans,
                        terms: query_terms.len(),
                    };
                    let rest = if e.coverage >= 1.0 {
                        // Every query term held: nothing of the query is left to match.
                        1.0
                    } else {
                        match rest.cosine(emb, &mut rest_queries)? {
                            RestCosine::NothingLeftToMatch => 1.0,
                            RestCosine::RowHasNoRest => 0.0,
                            RestCosine::Cosine(cos) => rest_semantic(cos),
                        }
                    };
                    e.semantic = e.coverage + (1.0 - e.coverage) * rest;
                }
            }
            e.relevance = fusion.relevance(e);
        }
        let mut hits: Vec<Hit> = explain
            .into_iter()
            .filter_map(|(id, mut e)| {
                let (row, (depth, stale)) = rows.get(&id)?.clone()?;
                e.depth_weight = depth.recall_weight();
                e.stale_since = stale;
                let mut row = row;
                row.depth = depth;
                Some(Hit {
                    score: e.relevance * e.depth_weight,
                    row,
                    explain: e,
                    stale: stale.is_some(),
                })
            })
            .filter(|h| h.score >= q.min_score)
            .collect();
        hits.sort_by(|a, b| b.score.total_cmp(&a.score).then(b.row.id.cmp(&a.row.id)));
        hits.truncate(want);
        for h in &mut hits {
            if h.explain.bm25_rank.is_none() {
                // The lexical leg's rows got their text above.
                reader.fill_text(&mut h.row)?;
            }
        }
        Ok(hits)
    }
}
