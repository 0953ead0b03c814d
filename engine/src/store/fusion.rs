//! Fusion: how recall turns its two legs' evidence about a row into one relevance in [0, 1].
//!
//! The rule (`docs/recall.md`, "Fusion and scores"):
//!
//! - the **lexical evidence** of a row is its *coverage*: the share of the query's information
//!   (the IDF mass of its analyzed terms) carried by the query terms the row contains. BM25
//!   chooses the lexical leg's candidates, but its term-frequency saturation and length
//!   normalization order rows that hold the same query terms by their length, which says
//!   nothing about which of them answers the query; coverage gives such rows the same
//!   lexical evidence and leaves the choice among them to the semantic leg;
//! - the **semantic evidence** is the calibrated cosine; with an embedder that embeds words,
//!   for a row holding part of the query, the shared part counts as matched (coverage) and the
//!   embedder judges only the rest of both texts (`super::recall`, module documentation);
//! - **relevance** = [`LEXICAL_WEIGHT`] x coverage + (1 - [`LEXICAL_WEIGHT`]) x semantic when
//!   both legs ran, the one leg's calibrated score when only one did (the lexical leg alone
//!   keeps BM25's own order: calibrated BM25).
//!
//! The weights are equal by rule and fitted to nothing. Relevance is a convex combination of
//! scores in [0, 1] with the same weights for every row of a query, so it is in [0, 1] and
//! monotone: a row at least as good as another on both kinds of evidence ranks at least as
//! high, and a row first on both is first.

use std::collections::HashMap;
use std::ops::Range;

use super::recall::{Explain, LEXICAL_WEIGHT};
use crate::error::Result;
use crate::index::text::TextIndex;

/// Which legs' evidence a recall fuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fusion {
    /// Both legs ran: coverage and semantic, weighted.
    Both,
    /// Only the lexical leg ran: its calibrated BM25 score.
    Lexical,
    /// Only the vector leg ran (or the query has no indexable term): the calibrated cosine.
    Semantic,
}

impl Fusion {
    /// The fusion of a recall whose lexical leg ran (`lexical`) and that has a query vector
    /// (`semantic`).
    pub(crate) fn of(lexical: bool, semantic: bool) -> Fusion {
        match (lexical, semantic) {
            (true, true) => Fusion::Both,
            (true, false) => Fusion::Lexical,
            (false, _) => Fusion::Semantic,
        }
    }

    /// The relevance in [0, 1] of a row whose calibrated evidence `e` holds.
    pub(crate) fn relevance(self, e: &Explain) -> f64 {
        match self {
            Fusion::Both => LEXICAL_WEIGHT * e.coverage + (1.0 - LEXICAL_WEIGHT) * e.semantic,
            Fusion::Lexical => e.lexical,
            Fusion::Semantic => e.semantic,
        }
    }
}

/// The share in [0, 1] of the query's IDF mass (`query`: analyzed terms and their IDFs, as
/// [`crate::index::text::TextIndex::term_idfs`] gives them) carried by the terms a row holds
/// (`held`: one flag per term of `query`, as
/// [`crate::index::text::TextIndex::holds_terms`] gives them); 0 for a query without terms.
pub(crate) fn coverage(query: &[(String, f32)], held: &[bool]) -> f64 {
    let total: f64 = query.iter().map(|(_, idf)| f64::from(*idf)).sum();
    if total <= 0.0 {
        return 0.0;
    }
    let part: f64 = query
        .iter()
        .zip(held)
        .filter(|(_, h)| **h)
        .map(|((_, idf), _)| f64::from(*idf))
        .sum();
    (part / total).clamp(0.0, 1.0)
}

/// What is left of a query and a row once their shared terms are taken out ([`Rest::cosine`]).
pub(crate) enum RestCosine {
    /// The row holds every term of the query: nothing of the query is left to match.
    NothingLeftToMatch,
    /// The row says nothing beyond the query terms it holds: the rest of the query is unmatched.
    RowHasNoRest,
    /// The cosine between the two rests.
    Cosine(f32),
}

/// A lexical candidate beside the query, for [`Rest::cosine`].
pub(crate) struct Rest<'a> {
    pub(crate) query: &'a str,
    /// Where the query's terms stand in the query ([`TextIndex::term_spans`]).
    pub(crate) query_spans: &'a [(usize, Range<usize>)],
    pub(crate) text: &'a str,
    /// Where the query's terms stand in the row's text.
    pub(crate) spans: &'a [(usize, Range<usize>)],
    /// The number of the query's terms.
    pub(crate) terms: usize,
}

impl Rest<'_> {
    /// The cosine between what is left of the query and of the row's text once the query's
    /// terms the row holds are taken out of both (see the module documentation): the meaning
    /// the row adds beyond the words it shares with the query, or which side has nothing left.
    /// `queries` caches the query's rest by the terms held.
    pub(crate) fn cosine(
        &self,
        embedder: &dyn crate::embed::Embedder,
        queries: &mut HashMap<Vec<bool>, Option<Vec<f32>>>,
    ) -> Result<RestCosine> {
        let mut held = vec![false; self.terms];
        for (i, _) in self.spans {
            held[*i] = true;
        }
        let has_words = |s: &str| s.chars().any(char::is_alphanumeric);
        let qv = match queries.get(&held) {
            Some(v) => v.clone(),
            None => {
                let shared = self.query_spans.iter().filter(|(i, _)| held[*i]);
                let rest = TextIndex::blank_spans(self.query, shared.map(|(_, r)| r));
                let v = if has_words(&rest) {
                    Some(embedder.embed(&rest)?)
                } else {
                    None
                };
                queries.insert(held, v.clone());
                v
            }
        };
        let Some(qv) = qv else {
            return Ok(RestCosine::NothingLeftToMatch);
        };
        let rest = TextIndex::blank_spans(self.text, self.spans.iter().map(|(_, r)| r));
        if !has_words(&rest) {
            return Ok(RestCosine::RowHasNoRest);
        }
        Ok(RestCosine::Cosine(cosine(&qv, &embedder.embed(&rest)?)))
    }
}

/// The cosine of `a` and `b` whatever their lengths (an embedder need not return unit vectors);
/// 0 for a zero vector or vectors of different lengths.
fn cosine(a: &[f32], b: &[f32]) -> f32 {
    let norm = |v: &[f32]| v.iter().map(|x| x * x).sum::<f32>().sqrt();
    let n = norm(a) * norm(b);
    if a.len() != b.len() || !n.is_normal() {
        return 0.0;
    }
    crate::embed::dot(a, b) / n
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn evidence(lexical: f64, coverage: f64, semantic: f64) -> Explain {
        Explain {
            lexical,
            coverage,
            semantic,
            ..Explain::default()
        }
    }

    #[test]
    fn coverage_is_the_idf_share_of_the_terms_held() {
        let q = vec![("ana".to_string(), 2.0), ("occup".to_string(), 6.0)];
        assert_eq!(coverage(&q, &[true, false]), 0.25);
        assert_eq!(coverage(&q, &[true, true]), 1.0);
        assert_eq!(coverage(&q, &[false, false]), 0.0);
        assert_eq!(coverage(&[], &[]), 0.0);
    }

    #[test]
    fn one_leg_alone_is_that_legs_score() {
        let e = evidence(0.7, 0.4, 0.2);
        assert_eq!(Fusion::of(true, false).relevance(&e), 0.7);
        assert_eq!(Fusion::of(false, true).relevance(&e), 0.2);
        assert_eq!(Fusion::of(false, false).relevance(&e), 0.2);
        assert_eq!(Fusion::of(true, true), Fusion::Both);
    }

    proptest! {
        /// Relevance stays in [0, 1], and a row at least as good as another on both kinds of
        /// evidence the fusion weighs never ranks below it (so a row first on both is first).
        #[test]
        fn relevance_is_bounded_and_monotone(
            a in (0.0f64..=1.0, 0.0f64..=1.0, 0.0f64..=1.0),
            d in (0.0f64..=1.0, 0.0f64..=1.0, 0.0f64..=1.0),
        ) {
            let lo = evidence(a.0 * d.0, a.1 * d.1, a.2 * d.2);
            let hi = evidence(a.0, a.1, a.2);
            for f in [Fusion::Both, Fusion::Lexical, Fusion::Semantic] {
                let (l, h) = (f.relevance(&lo), f.relevance(&hi));
                prop_assert!((0.0..=1.0).contains(&l) && (0.0..=1.0).contains(&h));
                prop_assert!(h >= l, "{f:?}: {h} < {l}");
            }
        }

        /// Coverage is in [0, 1], grows with the terms held, and is additive over terms.
        #[test]
        fn coverage_is_additive_over_terms(
            idfs in proptest::collection::vec(0.01f32..10.0, 1..8),
            held in proptest::collection::vec(any::<bool>(), 8),
        ) {
            let q: Vec<(String, f32)> =
                idfs.iter().enumerate().map(|(i, x)| (format!("t{i}"), *x)).collect();
            let held = &held[..q.len()];
            let c = coverage(&q, held);
            prop_assert!((0.0..=1.0).contains(&c));
            let parts: f64 = (0..q.len())
                .filter(|i| held[*i])
                .map(|i| coverage(&q, &(0..q.len()).map(|j| j == i).collect::<Vec<_>>()))
                .sum();
            prop_assert!((c - parts).abs() < 1e-9);
            prop_assert!(coverage(&q, &vec![true; q.len()]) >= c);
        }
    }
}
