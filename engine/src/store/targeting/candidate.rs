//! A row chosen by query targeting, with its score and the clauses of it the call acts on.

use super::clause_choice::choose_clauses;
use super::query::QueryShape;
use super::row_view::RowView;
use super::score::RowScore;
use super::{Rejected, TargetMatch, confidence, names};
use crate::row::Row;

/// A scored candidate.
pub(super) struct Candidate {
    pub(super) row: Row,
    pub(super) score: RowScore,
    pub(super) bm25: f32,
    pub(super) hint_overlap: usize,
    /// Word pairs the row shares with the new text ("the meeting is"), the last tie-break
    /// before recency.
    pub(super) hint_pairs: usize,
    pub(super) clauses: Vec<usize>,
    /// True if a supersede's fallback chose the row, the request's words having reached none.
    pub(super) by_fallback: bool,
}

impl Candidate {
    /// A row a supersede's fallback chose (by meaning or by relatedness), with the clauses it
    /// acts on.
    pub(super) fn chosen(
        row: Row,
        score: RowScore,
        bm25: f32,
        hint_overlap: usize,
        query: &QueryShape,
        hint: Option<&QueryShape>,
        restated_ids: bool,
    ) -> Candidate {
        let text = row.text.clone().unwrap_or_default();
        let clauses = choose_clauses(&score, query, &RowView::new(&text), hint, restated_ids);
        Candidate {
            row,
            score,
            bm25,
            hint_overlap,
            hint_pairs: 0,
            clauses,
            by_fallback: true,
        }
    }

    /// The match the call acts on, graded ([`confidence::grade`]).
    pub(super) fn into_match(self) -> TargetMatch {
        let confidence = confidence::grade(&self.score, self.by_fallback);
        TargetMatch {
            id: self.row.id,
            coverage: self.score.coverage,
            bm25: self.bm25,
            matched: self.score.matched,
            missing: self.score.missing,
            clauses: self.clauses,
            reasons: self.score.reasons,
            rewrite: None,
            confidence,
        }
    }
}

/// True if a row names a person or organisation by a name of its own: two adjacent
/// capitalized words of a cased script ("Anan Boonmee"), or a word of a script without
/// capitals ("박지우"). A row holding an identifier and no such name ("MRN 2467493 was flagged
/// for review") names nobody else.
pub(super) fn names_someone(row: &RowView<'_>) -> bool {
    use crate::canon::Script;
    let name = |c: &crate::canon::Chunk| {
        c.capitalized && names::cased(c.script) && !crate::index::keys::has_digit(c)
    };
    row.chunks.iter().any(|c| {
        matches!(
            c.script,
            Script::Han
                | Script::Hangul
                | Script::Kana
                | Script::Arabic
                | Script::Hebrew
                | Script::Thai
                | Script::Devanagari
        )
    }) || row.chunks.windows(2).any(|p| {
        name(&p[0])
            && name(&p[1])
            && row.text[p[0].span.end..p[1].span.start]
                .chars()
                .all(char::is_whitespace)
    })
}

/// Of the candidates tied at the best coverage, drops those worse by a criterion some of them
/// meet and others do not, one criterion after the other: polarity ("is not on the board"
/// prefers the negative row), exact names ("York" the row that does not say "New York", the
/// query's spelling and reading of a name over another). Each dropped row is noted in
/// `rejected` with its reason.
pub(super) fn drop_worse_of_tied(scored: &mut Vec<Candidate>, rejected: &mut Vec<Rejected>) {
    let Some(best) = scored.iter().map(|c| c.score.coverage).reduce(f64::max) else {
        return;
    };
    let tied = |c: &Candidate| c.score.coverage == best;
    for (what, bad) in [
        (
            "polarity differs from the query",
            Box::new(|c: &Candidate| !c.score.polarity_ok) as Box<dyn Fn(&Candidate) -> bool>,
        ),
        (
            "names a longer name than the query",
            Box::new(|c: &Candidate| c.score.longer_name),
        ),
        (
            "reads the query's name only with a long vowel its spelling lacks",
            Box::new(|c: &Candidate| c.score.inexact_reading),
        ),
        (
            "spells the query's name otherwise",
            Box::new(|c: &Candidate| c.score.variant_spelling),
        ),
    ] {
        if scored.iter().any(|c| tied(c) && !bad(c)) && scored.iter().any(|c| tied(c) && bad(c)) {
            scored.retain(|c| {
                let drop = tied(c) && bad(c);
                if drop {
                    rejected.push(Rejected {
                        id: c.row.id,
                        coverage: c.score.coverage,
                        reason: what.into(),
                    });
                }
                !drop
            });
        }
    }
}
