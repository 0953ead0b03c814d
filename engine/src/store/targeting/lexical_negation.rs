//! Words that negate by themselves ([`crate::lexicon::negates`]) as evidence: a request about
//! "Priyanka declining the offer" names what the row "Priyanka did not accept the offer"
//! states, and one about what "Petro did not marry" what "Petro divorced ..." states.

use super::query::QWord;
use super::row_view::RowView;
use crate::canon::Script;

/// Where `row` holds query word `w` through a lexical negation, if it does: the word `w`
/// negates in a clause the row states negatively ("declining" and "did not accept"), or, for
/// a request stated negatively (`query_negated`), a word of the row that negates `w` ("did not
/// accept" and "declined"). Latin words only, lowercase as the canonicalizer folds them.
pub(super) fn negation_hit(w: &QWord, query_negated: bool, row: &RowView<'_>) -> Option<usize> {
    if w.name || w.chunk.script != Script::Latin {
        return None;
    }
    row.chunks.iter().enumerate().find_map(|(p, c)| {
        if c.script != Script::Latin || c.capitalized && p > 0 {
            return None;
        }
        let negated_clause = || row.clause_at(&c.span).is_some_and(|k| row.negated[k]);
        let forward = crate::lexicon::negates(&w.chunk.form, &c.form) && negated_clause();
        let reverse = query_negated && crate::lexicon::negates(&c.form, &w.chunk.form);
        (forward || reverse).then_some(p)
    })
}
