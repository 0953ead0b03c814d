//! What a mutating call acts on ([`Target`]) and what resolving it gives: the rows matched and
//! why ([`TargetMatch`]), the candidates set aside ([`Rejected`]), and the scope and width a
//! call resolves with.

use serde::{Deserialize, Serialize};

use super::confidence::Confidence;
use super::meaning;
use crate::error::Result;
use crate::planner::{Planner, PlannerOutcome};
use crate::row::{Row, RowId};
use crate::store::alias::AliasGroup;

/// What a mutating call acts on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Target {
    /// One row by id.
    Id(RowId),
    /// The live row holding a natural key.
    Key {
        /// Namespace of the key.
        namespace: String,
        /// The key.
        key: String,
    },
    /// Rows whose text matches a description.
    Query {
        /// Restricts matching to one namespace.
        namespace: Option<String>,
        /// The description ("Alice's phone number", "everything about Hannah").
        text: String,
    },
}

impl Target {
    /// By id.
    pub fn id(id: RowId) -> Target {
        Target::Id(id)
    }
    /// By natural key.
    pub fn key(namespace: impl Into<String>, key: impl Into<String>) -> Target {
        Target::Key {
            namespace: namespace.into(),
            key: key.into(),
        }
    }
    /// By query, across namespaces.
    pub fn query(text: impl Into<String>) -> Target {
        Target::Query {
            namespace: None,
            text: text.into(),
        }
    }
    /// By query within one namespace.
    pub fn query_in(namespace: impl Into<String>, text: impl Into<String>) -> Target {
        Target::Query {
            namespace: Some(namespace.into()),
            text: text.into(),
        }
    }

    pub(super) fn describe(&self) -> String {
        match self {
            Target::Id(id) => format!("row {id}"),
            Target::Key { namespace, key } => format!("key {key:?} in {namespace:?}"),
            Target::Query { text, .. } => text.clone(),
        }
    }
}

/// One row a target resolved to, and why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TargetMatch {
    /// The row.
    pub id: RowId,
    /// Share of the query's content words the row contains (1 for id and key targets).
    pub coverage: f64,
    /// BM25 score of the row for the query (0 for id and key targets).
    pub bm25: f32,
    /// Query words the row contains.
    pub matched: Vec<String>,
    /// Query words the row lacks.
    pub missing: Vec<String>,
    /// Clauses of the row the call acts on (indexes into [`crate::clause::clauses`] of the row
    /// text); empty when the call acts on the whole row.
    #[serde(default)]
    pub clauses: Vec<usize>,
    /// Why the row was chosen.
    #[serde(default)]
    pub reasons: Vec<String>,
    /// The row's text after the clauses are removed, when a planner proposed it (the engine
    /// composes it otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rewrite: Option<String>,
    /// How strongly the evidence supports acting on the row ([`Confidence`]).
    #[serde(default)]
    pub confidence: Confidence,
}

/// A candidate row a query did not target, and why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rejected {
    /// The row.
    pub id: RowId,
    /// Share of the query's evidence the row holds.
    pub coverage: f64,
    /// Why it was not targeted.
    pub reason: String,
}

/// What a target resolved to.
#[derive(Clone, Debug, Default)]
pub(crate) struct Resolution {
    /// Targeted rows, best first.
    pub matches: Vec<TargetMatch>,
    /// Candidates left out, with why.
    pub rejected: Vec<Rejected>,
    /// What became of the planner's proposal, when a planner was consulted.
    pub planner: Option<PlannerOutcome>,
}

/// Which rows a resolution may return.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scope {
    /// Live rows only (supersede, release, pin).
    Live,
    /// Every row that still has text (purge, resurface).
    NotVoid,
}

/// How many rows a resolution may return.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Width {
    /// The single best row.
    One,
    /// Every row with the best coverage.
    All,
}

pub(super) fn in_scope(row: &Row, scope: Scope) -> bool {
    match scope {
        Scope::Live => row.depth.is_live(),
        Scope::NotVoid => !row.depth.is_void(),
    }
}

/// What a resolution may read: rows and key holders as the caller's transaction sees them,
/// and the alias groups of the store.
pub(crate) struct Lookup<'a> {
    /// Reads a row.
    pub fetch: &'a dyn Fn(RowId) -> Result<Option<Row>>,
    /// The live row holding a key.
    pub key_holder: &'a dyn Fn(&str, &str) -> Result<Option<RowId>>,
    /// Declared alias groups.
    pub aliases: &'a [AliasGroup],
    /// The operation resolving (`supersede`, `release`, `purge`, ...), for the planner.
    pub op: &'static str,
    /// The mutation-time planner, if any.
    pub planner: Option<&'a dyn Planner>,
    /// The embedder and stored vectors, for a supersede whose words cannot choose
    /// ([`meaning`]); `None` where meaning must not decide.
    pub meaning: Option<&'a meaning::Meaning<'a>>,
    /// The least confidence a match needs for the call to act on it ([`Confidence`]).
    pub floor: Confidence,
}

/// What a store's options ask of a query's resolution: the planner to consult, if any, and
/// the least confidence a match needs for the call to act on it.
#[derive(Clone, Copy, Default)]
pub(crate) struct Policy<'a> {
    /// The mutation-time planner, if any.
    pub planner: Option<&'a dyn Planner>,
    /// The least confidence a match needs ([`Confidence`]).
    pub floor: Confidence,
}

/// Longest supersede chain followed to a current version.
const MAX_CHAIN: usize = 1024;

/// The live end of `row`'s supersede chain, if the chain ends in a live row (bounded walk).
pub(super) fn current_version(row: &Row, lookup: &Lookup<'_>) -> Result<Option<Row>> {
    let mut next = row.superseded_by;
    for _ in 0..MAX_CHAIN {
        let Some(id) = next else { return Ok(None) };
        let Some(r) = (lookup.fetch)(id)? else {
            return Ok(None);
        };
        if r.depth.is_live() {
            return Ok(Some(r));
        }
        next = r.superseded_by;
    }
    Ok(None)
}
