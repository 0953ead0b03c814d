//! Possession: whether a name is marked as the possessor of what follows it ("Priya's",
//! "Claire Dubois' number", 王磊的), and whether a run of query words is the subject of a text.

use super::query::QWord;
use super::word_classes::is_title;
use crate::canon::Chunk;
use crate::text;

/// True if chunk `pos` of `text` is followed by the possessive "'s" ("Priya's"), or ends in
/// "s" and is followed by a bare apostrophe ("Claire Dubois' number").
pub(super) fn possessive_after(text: &str, chunks: &[Chunk], pos: usize) -> bool {
    let Some(last) = chunks.get(pos) else {
        return false;
    };
    let mut after = text.get(last.span.end..).unwrap_or_default().chars();
    if last.form.ends_with('s')
        && matches!(after.next(), Some('\'' | '’'))
        && !after.next().is_some_and(char::is_alphanumeric)
    {
        return true;
    }
    let Some(next) = chunks.get(pos + 1) else {
        return false;
    };
    next.form == "s"
        && text
            .get(last.span.end..next.span.start)
            .is_some_and(|gap| gap.chars().all(|ch| ch == '\'' || ch == '’'))
}

/// True if `text` has the possessive "'s" at byte `end` (the end of a name).
pub(crate) fn possessive_suffix(text: &str, end: usize) -> bool {
    let mut after = text.get(end..).unwrap_or_default().chars();
    matches!(after.next(), Some('\'' | '’'))
        && after.next() == Some('s')
        && !after.next().is_some_and(char::is_alphanumeric)
}

/// True if the grammar of possession around the run from chunk `first` to chunk `last` marks
/// it as a possessor in a script without letter case (王磊的, राम का, של שרה, ของสมชาย).
pub(super) fn marks_possessor_at(text: &str, first: &Chunk, last: &Chunk) -> bool {
    let (a, mut b) = (first.span.start, last.span.end);
    // A Hangul run holds the particle glued to the name ("김민지의"): the name ends before it.
    if last.script == crate::canon::Script::Hangul
        && first.span.start < last.span.start
        && super::glued_names::is_hangul_particle(&text[last.span.clone()])
    {
        b = last.span.start;
    }
    match (text.get(..a), text.get(a..b), text.get(b..)) {
        (Some(before), Some(run), Some(after)) => {
            crate::function_words::marks_possessor(before, run, after)
        }
        _ => false,
    }
}

/// True if the run of query words `run` is the subject of `view` (a supersede's new text):
/// it begins the text (when `or_first`), or the text marks it as a possessor ("Priya's phone
/// number is ...").
pub(crate) fn subject_of(
    words: &[QWord],
    run: &[usize],
    view: &super::row_view::RowView<'_>,
    or_first: bool,
) -> bool {
    let find = |i: usize| super::word_match::find_name(&words[i], view);
    let (Some(&a), Some(&b)) = (run.first(), run.last()) else {
        return false;
    };
    let (Some(first), Some(last)) = (find(a), find(b)) else {
        return false;
    };
    let grammar = crate::function_words::spans(view.text, &view.chunks);
    let begins = or_first
        && view.chunks[..first].iter().all(|c| {
            is_title(&c.form)
                || text::is_stopword(&c.form)
                || crate::function_words::covers(&grammar, c)
        });
    // Possession is marked by "'s" in a cased script, by the grammar around the name in a
    // caseless one ("of" before "April" marks no possessor).
    let caseless = run
        .iter()
        .all(|&i| !super::names::cased(words[i].chunk.script));
    let calendar = run
        .iter()
        .all(|&i| super::word_match::is_calendar(&words[i].stem));
    // A run joined by "and" to a possessor names a subject of a joint fact as well ("Kanya
    // Srisuk and Ji-woo's shared credit card").
    let and_possessor = view.chunks.get(last + 1).is_some_and(|c| c.form == "and")
        && view.chunks.get(last + 2).is_some_and(|c| c.capitalized)
        && (last + 2..(last + 6).min(view.chunks.len()))
            .take_while(|&j| !text::is_stopword(&view.chunks[j].form))
            .any(|j| possessive_after(view.text, &view.chunks, j));
    !calendar
        && (begins
            || possessive_after(view.text, &view.chunks, last)
            || and_possessor
            || caseless
                && last >= first
                && marks_possessor_at(view.text, &view.chunks[first], &view.chunks[last]))
}

/// The possessor a supersede's `new` text opens with ("さくら's medication is lisinopril"),
/// when it is written in letters without case, the request writes it too, and the request
/// names nobody: a name the request's grammar did not read as one (hiragana reads as grammar),
/// so the request's subject: a row chosen for the request by relatedness must hold it.
pub(super) fn unread_possessor<'a>(
    query: &super::query::QueryShape,
    new: &'a str,
) -> Option<&'a str> {
    if !query.names.is_empty() {
        return None;
    }
    let end = ["'s", "’s"].iter().filter_map(|p| new.find(p)).min()?;
    let run = new[..end].trim();
    let caseless = |c: char| c.is_alphabetic() && !c.is_uppercase() && !c.is_lowercase();
    let letters = run.chars().filter(|c| c.is_alphabetic()).count();
    (letters >= 2
        && run.split_whitespace().count() <= 3
        && run.chars().all(|c| caseless(c) || c.is_whitespace())
        && query.text.contains(run))
    .then_some(run)
}
