//! Which rows a call acts on: by id, by natural key, or by query.
//!
//! Query targeting is lexical and deterministic. The query's content words (stopwords dropped,
//! light plural folding) are matched against each candidate row's words; a row's *coverage* is
//! the share of query words it contains. BM25 supplies the candidates and breaks ties. A call
//! that acts on one row takes the best candidate; a call that may fan out takes every row with
//! the best coverage. Rows covering less than half the query are never targeted.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::Inner;
use crate::error::{Error, Result};
use crate::row::{Row, RowId, validate_field};
use crate::text;

/// Least coverage a row needs to be targeted by a query.
pub const MIN_COVERAGE: f64 = 0.5;
/// Candidates BM25 supplies to query targeting.
const CANDIDATES: usize = 512;

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

    fn describe(&self) -> String {
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

/// Folds a word to a crude stem so that plurals and possessives meet ("phones", "alice's").
fn stem(w: &str) -> String {
    let n = w.chars().count();
    if n > 4 && w.ends_with("ies") {
        format!("{}y", &w[..w.len() - 3])
    } else if n > 3 && w.ends_with('s') && !w.ends_with("ss") {
        w[..w.len() - 1].to_owned()
    } else {
        w.to_owned()
    }
}

fn stems(words: Vec<String>) -> Vec<String> {
    let mut seen = BTreeSet::new();
    words
        .into_iter()
        .map(|w| stem(&w))
        .filter(|w| seen.insert(w.clone()))
        .collect()
}

fn in_scope(row: &Row, scope: Scope) -> bool {
    match scope {
        Scope::Live => row.depth.is_live(),
        Scope::NotVoid => !row.depth.is_void(),
    }
}

impl Inner {
    /// Resolves `target` to rows. `fetch` reads a row as the caller's transaction sees it.
    pub(crate) fn resolve(
        &self,
        target: &Target,
        scope: Scope,
        width: Width,
        fetch: &dyn Fn(RowId) -> Result<Option<Row>>,
        key_holder: &dyn Fn(&str, &str) -> Result<Option<RowId>>,
    ) -> Result<Vec<TargetMatch>> {
        let exact = |id| TargetMatch {
            id,
            coverage: 1.0,
            bm25: 0.0,
            matched: Vec::new(),
            missing: Vec::new(),
        };
        match target {
            Target::Id(id) => {
                let row = fetch(*id)?.ok_or(Error::UnknownRow(*id))?;
                if row.depth.is_void() {
                    return Err(Error::Purged(*id));
                }
                Ok(vec![exact(*id)])
            }
            Target::Key { namespace, key } => {
                validate_field("namespace", namespace)?;
                validate_field("key", key)?;
                let id = key_holder(namespace, key)?.ok_or_else(|| Error::UnknownKey {
                    namespace: namespace.clone(),
                    key: key.clone(),
                })?;
                Ok(vec![exact(id)])
            }
            Target::Query { namespace, text } => {
                let mut words = stems(text::content_tokens(text));
                if words.is_empty() {
                    words = stems(text::tokens(text));
                }
                if words.is_empty() {
                    return Err(Error::InvalidArgument(format!(
                        "query {text:?} has no words to match"
                    )));
                }
                let mut found = Vec::new();
                for (id, bm25) in self.text.search(text, CANDIDATES)? {
                    let Some(row) = fetch(id)? else { continue };
                    if !in_scope(&row, scope) {
                        continue;
                    }
                    if namespace.as_deref().is_some_and(|ns| ns != row.namespace) {
                        continue;
                    }
                    let row_words: BTreeSet<String> = row
                        .text
                        .as_deref()
                        .map(|t| stems(text::tokens(t)).into_iter().collect())
                        .unwrap_or_default();
                    let (matched, missing): (Vec<String>, Vec<String>) =
                        words.iter().cloned().partition(|w| row_words.contains(w));
                    let coverage = matched.len() as f64 / words.len() as f64;
                    if coverage >= MIN_COVERAGE {
                        found.push(TargetMatch {
                            id,
                            coverage,
                            bm25,
                            matched,
                            missing,
                        });
                    }
                }
                found.sort_by(|a, b| {
                    b.coverage
                        .total_cmp(&a.coverage)
                        .then(b.bm25.total_cmp(&a.bm25))
                        .then(b.id.cmp(&a.id))
                });
                match width {
                    Width::One => found.truncate(1),
                    Width::All => {
                        if let Some(best) = found.first().map(|m| m.coverage) {
                            found.retain(|m| m.coverage == best);
                        }
                    }
                }
                if found.is_empty() {
                    return Err(Error::NoMatch(target.describe()));
                }
                Ok(found)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems_fold_plurals() {
        assert_eq!(stem("phones"), "phone");
        assert_eq!(stem("alices"), "alice");
        assert_eq!(stem("address"), "address");
        assert_eq!(stem("companies"), "company");
        assert_eq!(stem("bus"), "bus");
    }
}
