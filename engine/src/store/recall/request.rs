//! What a read asks for and what it returns: [`RecallQuery`] (with the legs it runs and its
//! threshold), [`Hit`] and its [`Explain`], and [`ListQuery`]. The read itself is in the parent
//! module.

use serde::{Deserialize, Serialize};

use crate::metadata::{Condition, Filter, Op, Scalar};
use crate::row::{Kind, Row, RowId};
use crate::store::history::AsOf;

/// Weight of the lexical evidence (a row's coverage of the query, [`Explain::coverage`]) when
/// both legs run; the semantic leg has the rest. Equal weights by rule (no leg is favoured
/// without evidence; fitted to no dataset); `docs/recall.md` reports recall@1/5/10 of each leg
/// and of the fusion.
pub const LEXICAL_WEIGHT: f64 = 0.5;
/// Default [`RecallQuery::min_score`]: no threshold, recall returns its `k` best rows.
pub const DEFAULT_MIN_SCORE: f64 = 0.0;
/// A threshold meant to separate relevant hits from hits on absent topics: pass it as
/// [`RecallQuery::min_score`] to get only relevant rows. `tests/api/relevance.rs` checks it on a
/// small store; `oubli-bench recall-quality` reports the highest absent-topic score to check it
/// against (`docs/recall.md`).
pub const SUGGESTED_MIN_SCORE: f64 = 0.3;
/// Largest `k` a recall may ask for.
pub const MAX_K: usize = 10_000;

/// Which legs recall runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Legs {
    /// BM25 and vectors, fused.
    #[default]
    Hybrid,
    /// BM25 only.
    Lexical,
    /// Vectors only.
    Vector,
}

/// A recall request. Build it with [`RecallQuery::new`] and the setters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecallQuery {
    /// The query text.
    pub text: String,
    /// How many rows to return (default 10).
    pub k: usize,
    /// Only rows of this namespace.
    pub namespace: Option<String>,
    /// Only rows whose metadata meets every condition ([`Filter`]), applied to candidates
    /// before scoring and `k`.
    pub filters: Filter,
    /// Only rows of these kinds (all kinds when empty).
    pub kinds: Vec<Kind>,
    /// Also return submerged rows (weighted low).
    pub include_submerged: bool,
    /// Also return rows whose validity has ended.
    pub include_expired: bool,
    /// Also return derived rows and notes marked stale (flagged in [`Hit::stale`]).
    #[serde(default)]
    pub include_stale: bool,
    /// Recall the store as it stood at this point.
    pub as_of: Option<AsOf>,
    /// Use this query vector instead of embedding the text.
    pub vector: Option<Vec<f32>>,
    /// Which legs to run.
    pub legs: Legs,
    /// Only hits whose score is at least this (in [0, 1]; default [`DEFAULT_MIN_SCORE`]).
    #[serde(default)]
    pub min_score: f64,
}

impl RecallQuery {
    /// A hybrid recall of 10 rows for `text`.
    pub fn new(text: impl Into<String>) -> Self {
        RecallQuery {
            text: text.into(),
            k: 10,
            namespace: None,
            filters: Filter::new(),
            kinds: Vec::new(),
            include_submerged: false,
            include_expired: false,
            include_stale: false,
            as_of: None,
            vector: None,
            legs: Legs::Hybrid,
            min_score: DEFAULT_MIN_SCORE,
        }
    }
    /// Keeps only hits scoring at least `min` (see [`SUGGESTED_MIN_SCORE`]).
    pub fn min_score(mut self, min: f64) -> Self {
        self.min_score = min;
        self
    }
    /// Sets k.
    pub fn k(mut self, k: usize) -> Self {
        self.k = k;
        self
    }
    /// Restricts to a namespace.
    pub fn namespace(mut self, ns: impl Into<String>) -> Self {
        self.namespace = Some(ns.into());
        self
    }
    /// Adds a metadata equality condition (`k` equals `v`; a list field: contains `v`).
    pub fn filter(mut self, k: impl Into<String>, v: impl Into<Scalar>) -> Self {
        self.filters
            .conditions
            .push(Condition::new(k, Op::Eq(v.into())));
        self
    }
    /// Adds a metadata condition (any [`Op`]).
    pub fn matching(mut self, c: Condition) -> Self {
        self.filters.conditions.push(c);
        self
    }
    /// Restricts to kinds.
    pub fn kinds(mut self, kinds: impl IntoIterator<Item = Kind>) -> Self {
        self.kinds = kinds.into_iter().collect();
        self
    }
    /// Includes submerged rows.
    pub fn include_submerged(mut self, yes: bool) -> Self {
        self.include_submerged = yes;
        self
    }
    /// Includes expired rows.
    pub fn include_expired(mut self, yes: bool) -> Self {
        self.include_expired = yes;
        self
    }
    /// Includes stale derived rows and notes.
    pub fn include_stale(mut self, yes: bool) -> Self {
        self.include_stale = yes;
        self
    }
    /// Recalls as of a log position or time.
    pub fn as_of(mut self, at: AsOf) -> Self {
        self.as_of = Some(at);
        self
    }
    /// Supplies the query vector.
    pub fn vector(mut self, v: Vec<f32>) -> Self {
        self.vector = Some(v);
        self
    }
    /// Chooses the legs.
    pub fn legs(mut self, legs: Legs) -> Self {
        self.legs = legs;
        self
    }
}

/// Why a row ranked where it did.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Explain {
    /// Rank in the BM25 leg among rows passing the filters (1-based).
    pub bm25_rank: Option<usize>,
    /// BM25 score.
    pub bm25_score: Option<f32>,
    /// Rank in the vector leg among rows passing the filters (1-based).
    pub vector_rank: Option<usize>,
    /// Cosine similarity (also computed for rows only the BM25 leg found).
    pub vector_score: Option<f32>,
    /// Calibrated BM25 score in [0, 1] (0 when the BM25 leg did not return the row): the
    /// row's BM25 score over that of a row holding every query term once at average length.
    /// The score of a lexical-only recall.
    #[serde(default)]
    pub lexical: f64,
    /// Lexical coverage in [0, 1]: the share of the query's information (the IDF mass of its
    /// analyzed terms) carried by the terms the row contains (0 when the BM25 leg did not
    /// return the row).
    #[serde(default)]
    pub coverage: f64,
    /// Calibrated semantic score in [0, 1]: the calibrated cosine, or for a lexical candidate
    /// holding some of the query's terms with an embedder that embeds words, `coverage` + (1 -
    /// `coverage`) x the calibrated cosine of what the query and the row say beyond their
    /// shared terms (1 for a row holding all of them; see the module documentation;
    /// `vector_score` stays the whole texts' cosine).
    #[serde(default)]
    pub semantic: f64,
    /// The fused relevance in [0, 1], before depth weighting: [`LEXICAL_WEIGHT`] x `coverage`
    /// + (1 - [`LEXICAL_WEIGHT`]) x `semantic` when both legs ran, else the one leg's score.
    #[serde(default)]
    pub relevance: f64,
    /// The depth factor applied.
    pub depth_weight: f64,
    /// Seq of the `invalidate` event that marked the row stale (only with `include_stale`).
    #[serde(default)]
    pub stale_since: Option<u64>,
}

/// One recalled row.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Hit {
    /// The row (with its depth as of the recall's point in time).
    pub row: Row,
    /// Relevance in [0, 1] times the depth weight.
    pub score: f64,
    /// How the score came about.
    pub explain: Explain,
    /// The row is a derived row or note marked stale: its sources changed since it was built.
    /// Returned only when the query sets `include_stale`.
    #[serde(default)]
    pub stale: bool,
}

/// A list request: live rows matching filters, in id order, paged.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ListQuery {
    /// Only rows of this namespace.
    pub namespace: Option<String>,
    /// Only rows whose metadata meets every condition ([`Filter`]), applied before `limit`
    /// counts rows.
    pub filters: Filter,
    /// Only rows of these kinds (all when empty).
    pub kinds: Vec<Kind>,
    /// Also list submerged rows.
    pub include_submerged: bool,
    /// Also list expired rows.
    pub include_expired: bool,
    /// Also list stale derived rows and notes.
    #[serde(default)]
    pub include_stale: bool,
    /// Start after this row id (paging).
    pub after: Option<RowId>,
    /// At most this many rows (all when `None`).
    pub limit: Option<usize>,
    /// List the store as it stood at this point.
    pub as_of: Option<AsOf>,
}

impl ListQuery {
    /// Restricts to a namespace.
    pub fn namespace(mut self, ns: impl Into<String>) -> Self {
        self.namespace = Some(ns.into());
        self
    }
    /// Adds a metadata equality condition (`k` equals `v`; a list field: contains `v`).
    pub fn filter(mut self, k: impl Into<String>, v: impl Into<Scalar>) -> Self {
        self.filters
            .conditions
            .push(Condition::new(k, Op::Eq(v.into())));
        self
    }
    /// Adds a metadata condition (any [`Op`]).
    pub fn matching(mut self, c: Condition) -> Self {
        self.filters.conditions.push(c);
        self
    }
}
