//! How a row meets the lexicon slots of a request word (its sphere of life: "address" and
//! "lives", "salary" and "bonus"): whether the row holds a word of the slot, and whether that
//! word names another attribute of it (a sibling concept, or a compound with a head naming
//! only a kind of value, "staff number", "blood type"). Used where a supersede's request and
//! new text agree on an attribute ([`super::supersede_fit`]) and by the kind of a new value
//! ([`super::value_kind`]).

use super::query::QWord;
use super::row_view::RowView;
use crate::lexicon;

/// How `row` meets the lexicon slots of request word `w`: `.0` if it holds a word of one of
/// them ("lives" for "address"), `.1` if such a word names an attribute concept other than
/// `w`'s, written as one of the concept's words ("licence" shares the driving slot with
/// "registration" but names another attribute; "bonus" shares the employment slot with
/// "salary").
pub(super) fn slot_words(w: &QWord, row: &RowView<'_>) -> (bool, bool) {
    let slots = lexicon::slots(&w.chunk.form);
    let (mut shares, mut sibling) = (false, false);
    if slots.is_empty() {
        return (shares, sibling);
    }
    for (i, span, script) in crate::concepts::words(row.text, &row.chunks) {
        let form = &row.chunks[i].form;
        if !lexicon::slots(form).iter().any(|s| slots.contains(s)) {
            continue;
        }
        shares = true;
        let theirs = crate::concepts::concepts_named_exactly(&row.text[span], script, form);
        sibling |= !w.concepts.is_empty() && theirs.iter().any(|k| !w.concepts.contains(k));
        // A word of the slot that opens a compound with a head naming only a kind of value
        // ("staff number", "blood type") names an attribute of its own, not `w`'s in other
        // words: the compound is the attribute the row states.
        sibling |= row
            .chunks
            .get(i + 1)
            .is_some_and(|next| lexicon::is_generic_head(&next.form))
            && !lexicon::is_generic_head(&w.chunk.form);
    }
    (shares, sibling)
}

/// True if `row` holds a word of a lexicon slot of request word `w` ([`slot_words`]).
pub(super) fn shares_slot_of_word(w: &QWord, row: &RowView<'_>) -> bool {
    slot_words(w, row).0
}

/// True if `row` holds a word of a lexicon slot of request word `w` and none naming another
/// attribute concept of it ([`slot_words`]).
pub(super) fn holds_slot_not_sibling(w: &QWord, row: &RowView<'_>) -> bool {
    slot_words(w, row) == (true, false)
}
