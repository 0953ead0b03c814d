//! Names a request writes in lowercase ("jonas' blood type", "allergy for kanya", "chen mei:
//! social security number"): which lowercase words of a request say whose fact is asked.
//!
//! A capital marks a name in a cased script, and people often type without one. A lowercase
//! word that reads as a subject must not count as evidence of the attribute: "the badge of
//! jonas" in a store without Jonas would otherwise reach another person's badge through the
//! word "badge" alone, and "allergy for kanya" every row about Kanya through the word "kanya".
//! A word is read as a name in two ways, both only when the request names no one else:
//!
//! - the rows write it, wherever they hold it outside an identifier, only capitalized
//!   ([`written_only_as_name`]);
//! - no row holds it and it stands where a name stands ([`absent_subject_runs`]): as a possessor
//!   that opens its noun phrase, before a colon that opens the request, or at the end of the
//!   request after a preposition ("the badge of jonas", "the card you have for mei").

use super::possession::possessive_suffix;
use super::query::{DETERMINERS, QWord, QueryShape};
use super::row_view::RowView;
use super::word_classes::{is_request_word, is_title};
use super::word_match::{is_calendar, is_date_word, word_matches};
use crate::canon::{self, Chunk, Script};
use crate::index::keys::{self, has_digit};
use crate::text;

/// Words that frame a request to forget ("stop remembering", "stop keeping") beside the
/// request words of [`super::query`]: never a name.
const FRAMING: &[&str] = &[
    "stop",
    "remembering",
    "keeping",
    "storing",
    "saving",
    "holding",
    "tracking",
    "using",
];

/// Longest run of lowercase words read as one name ("maria del carmen").
const MAX_RUN: usize = 3;

/// Marks as subjects the words of `q` (anchored to `views`) that are names written in
/// lowercase, when `q` names no one else. A run that a supersede's `new_text` holds, other
/// than as its subject, is the new value ("move the meeting to lisbon"), not a subject.
pub(super) fn mark(q: &mut QueryShape, views: &[RowView<'_>], new_text: Option<&RowView<'_>>) {
    if !q.names_nobody() {
        return;
    }
    let new_value = |run: &[usize]| {
        new_text.is_some_and(|v| {
            run.iter().all(|&i| word_matches_any(&q.words[i], v))
                && !super::possession::subject_of(&q.words, run, v, true)
        })
    };
    // Names where a subject stands (held by no row, or by rows only as names), else the words
    // the rows write only as names, wherever they stand.
    let runs: Vec<Vec<usize>> = match absent_subject_runs(q, views) {
        runs if !runs.is_empty() => runs,
        _ => (0..q.words.len())
            .filter(|&i| written_only_as_name(&q.words[i], views))
            .map(|i| vec![i])
            .collect(),
    };
    let runs: Vec<Vec<usize>> = runs
        .into_iter()
        .map(|run| with_hyphenated_parts(q, run))
        .filter(|r| !new_value(r))
        .collect();
    for run in runs {
        if q.names.iter().any(|r| r.iter().any(|i| run.contains(i))) {
            continue;
        }
        for &i in &run {
            q.words[i].name = true;
        }
        let at = q
            .names
            .iter()
            .position(|r| r[0] > run[0])
            .unwrap_or(q.names.len());
        q.names.insert(at, run);
        q.marked.insert(at, true);
    }
}

/// `run` with the words joined to its ends by a hyphen ("min" and "jun" of "min-jun"): the
/// parts of one hyphenated name are one name.
fn with_hyphenated_parts(q: &QueryShape, mut run: Vec<usize>) -> Vec<usize> {
    let joined = |a: &QWord, b: &QWord| hyphen_joined(q, a, b);
    while let Some(&first) = run.first()
        && first > 0
        && joined(&q.words[first - 1], &q.words[first])
        && may_be_name(&q.words[first - 1])
    {
        run.insert(0, first - 1);
    }
    while let Some(&last) = run.last()
        && last + 1 < q.words.len()
        && joined(&q.words[last], &q.words[last + 1])
        && may_be_name(&q.words[last + 1])
    {
        run.push(last + 1);
    }
    run
}

/// True if chunk `c` of `v` lies inside one of its identifiers ("kanya" in
/// "kanya.s@mail.example").
fn inside_identifier(v: &RowView<'_>, c: &Chunk) -> bool {
    v.ids
        .iter()
        .any(|id| id.span.start <= c.span.start && c.span.end <= id.span.end)
}

/// True if some chunk of `v` holds the query word `w`.
fn word_matches_any(w: &QWord, v: &RowView<'_>) -> bool {
    v.chunks.iter().any(|c| word_matches(w, c))
}

/// True for a lowercase Latin word that may be a name: not a function, request, calendar or
/// attribute word the lexicon knows, and no digits.
fn may_be_name(w: &QWord) -> bool {
    !w.name
        && !w.optional
        && w.chunk.script == Script::Latin
        && !w.chunk.capitalized
        && !has_digit(&w.chunk)
        && w.concepts.is_empty()
        && !text::is_stopword(&w.chunk.form)
        && !is_request_word(&w.stem)
        && !FRAMING.contains(&w.stem.as_str())
        && !is_calendar(&w.stem)
        && !is_date_word(w)
        && crate::lexicon::slots(&w.chunk.form).is_empty()
}

/// True if the query word `w`, written in lowercase, is one the rows of `views` write only as
/// a name: capitalized wherever they hold it, except inside an identifier ("kanya" in
/// "kanya.s@mail.example").
pub(super) fn written_only_as_name(w: &QWord, views: &[RowView<'_>]) -> bool {
    if !may_be_name(w) {
        return false;
    }
    let mut as_name = false;
    for v in views {
        for c in &v.chunks {
            if inside_identifier(v, c) || !word_matches(w, c) {
                continue;
            }
            if !c.capitalized {
                return false;
            }
            as_name = true;
        }
    }
    as_name
}

/// True if the word before chunk `pos` (`pos > 0`) of `chunks` opens a noun phrase after it:
/// a request word or a word framing one ("forget", "stop remembering"), or a function word
/// other than a determiner ("of", "for").
fn opens_after(chunks: &[Chunk], pos: usize) -> bool {
    let prev = &chunks[pos - 1].form;
    let stem = keys::stem(prev);
    is_request_word(&stem)
        || FRAMING.contains(&stem.as_str())
        || text::is_stopword(prev) && !DETERMINERS.contains(&prev.as_str())
}

/// The runs of lowercase words of `q` that no row of `views` holds and that stand where a
/// subject stands: a possessor opening its noun phrase ("jonas' blood type", "change rahul
/// verma's blood type"), the words before a colon that opens the request ("chen mei: social
/// security number"), or the words ending the request after a preposition ("the badge of
/// jonas", "the credit card you have for mei"), or, when no other place of the request holds
/// one, the words opening it ("yosef passport"). Not after a determiner
/// ("the fire inspector's visit"), and not words a row holds ("the user's phone").
fn absent_subject_runs(q: &QueryShape, views: &[RowView<'_>]) -> Vec<Vec<usize>> {
    let chunks = canon::chunks(&q.text);
    // Held as a word: a row writes it outside an identifier, and not only as a name ("Kanya",
    // "nikos.p@mail.example").
    let held = |w: &QWord| {
        views.iter().any(|v| {
            v.chunks
                .iter()
                .any(|c| !inside_identifier(v, c) && word_matches(w, c))
        }) && !written_only_as_name(w, views)
    };
    // At the start, after a word that opens a phrase ([`opens_after`]), or after a title that
    // stands where a phrase opens ("dr. sato's phone", "the badge of mrs. ivanova").
    let opens_phrase = |pos: usize| {
        pos == 0
            || opens_after(&chunks, pos)
            || is_title(&chunks[pos - 1].form) && (pos == 1 || opens_after(&chunks, pos - 1))
    };
    let mut runs = Vec::new();
    let mut opening = None;
    let mut i = 0;
    while i < q.words.len() {
        // The longest run of adjacent words that may be names and that no row holds. The
        // second half of a hyphenated name continues the run whatever the rows hold of it:
        // "woo" of "ji-woo choi", which rows write in lowercase inside "Ji-woo", or "jun" of
        // "min-jun lee", which also abbreviates a month.
        let mut j = i;
        while j < q.words.len()
            && j - i < MAX_RUN
            && (j > i && hyphen_part(q, j)
                || may_be_name(&q.words[j])
                    && !held(&q.words[j])
                    && (j == i || adjacent(&q.text, &q.words[j - 1].chunk, &q.words[j].chunk)))
        {
            j += 1;
        }
        if j == i {
            i += 1;
            continue;
        }
        let (first, last) = (&q.words[i], &q.words[j - 1]);
        let possessor = opens_phrase(first.pos)
            && (possessive_suffix(&q.text, last.chunk.span.end)
                || last.plural_possessive
                || bare_apostrophe(&q.text, last));
        let before_colon =
            opens_phrase(first.pos) && q.text[last.chunk.span.end..].trim_start().starts_with(':');
        let ends_request = last.pos + 1 == chunks.len()
            && first.pos > 0
            && after_preposition(&chunks, first.pos)
            && q.text[last.chunk.span.end..]
                .chars()
                .all(|c| c.is_whitespace() || ".?!".contains(c));
        // A telegraphic request begins with its subject: "yosef passport", "claire dubois shoe
        // size", "priya home address", when a word a row holds or an attribute word follows.
        let begins_request = (first.pos == 0
            || is_request_word(&keys::stem(&chunks[first.pos - 1].form)))
            && q.words.get(j).is_some_and(|next| {
                adjacent(&q.text, &last.chunk, &next.chunk)
                    && (held(next)
                        || !next.concepts.is_empty()
                        || !crate::lexicon::slots(&next.chunk.form).is_empty())
            });
        if possessor || before_colon || ends_request {
            runs.push((i..j).collect());
        } else if begins_request {
            opening = Some((i..j).collect());
        }
        i = j;
    }
    // The opening words are the subject only when no other place in the request holds one
    // ("private email address for nikos" is Nikos's, not Private's).
    if runs.is_empty() {
        runs.extend(opening);
    }
    runs
}

/// True if query word `b` follows `a` joined to it by a hyphen alone ("jun" after "min").
fn hyphen_joined(q: &QueryShape, a: &QWord, b: &QWord) -> bool {
    a.pos + 1 == b.pos && q.text.get(a.chunk.span.end..b.chunk.span.start) == Some("-")
}

/// True if word `j` of `q` is the lowercase second half of a hyphenated word whose first half
/// is word `j - 1` ("woo" of "ji-woo"): Latin letters only, no function word.
fn hyphen_part(q: &QueryShape, j: usize) -> bool {
    let (Some(a), Some(b)) = (
        j.checked_sub(1).and_then(|i| q.words.get(i)),
        q.words.get(j),
    ) else {
        return false;
    };
    hyphen_joined(q, a, b)
        && b.chunk.script == Script::Latin
        && !b.chunk.capitalized
        && !has_digit(&b.chunk)
        && !text::is_stopword(&b.chunk.form)
}

/// True if chunk `b` follows chunk `a` of `text` within one name: only spaces or a hyphen
/// between them ("chen mei", "seo-yeon"), not a colon or a comma.
fn adjacent(text: &str, a: &Chunk, b: &Chunk) -> bool {
    text.get(a.span.end..b.span.start)
        .is_some_and(|gap| !gap.is_empty() && gap.chars().all(|c| c == ' ' || c == '-'))
}

/// True if `w` ends in "s" and is followed by a bare apostrophe, the possessive of a name
/// ending in "s" ("gus' bonus", "jonas' blood type").
fn bare_apostrophe(text: &str, w: &QWord) -> bool {
    let mut after = text.get(w.chunk.span.end..).unwrap_or_default().chars();
    w.chunk.form.ends_with('s')
        && matches!(after.next(), Some('\'' | '’'))
        && !after.next().is_some_and(char::is_alphanumeric)
}

/// True if the chunk before `pos` is a preposition that may introduce a person ("of", "for",
/// "about", "from", "with", "to"), so that the words from `pos` on are its object.
fn after_preposition(chunks: &[Chunk], pos: usize) -> bool {
    const PREPOSITIONS: &[&str] = &["of", "for", "about", "from", "with", "to", "by"];
    let preposition = |at: usize| {
        chunks
            .get(at.wrapping_sub(1))
            .is_some_and(|c| PREPOSITIONS.contains(&c.form.as_str()))
    };
    // A title may stand between them ("the badge of mrs. ivanova").
    preposition(pos) || pos >= 1 && is_title(&chunks[pos - 1].form) && preposition(pos - 1)
}

/// The name a text opens with in lowercase as a possessor: "olga" of "olga's wedding
/// anniversary is 11 June 1993", "niloufar rahimi" of "niloufar rahimi's ...". Up to
/// [`MAX_RUN`] words of Latin letters from the text's start to the possessive, none of them a
/// word the lexicon knows (an attribute, a relative: "mum's birthday"), a stopword or a request
/// word. Indexes into `q.words`.
pub(super) fn possessor_opening(q: &QueryShape) -> Option<Vec<usize>> {
    let mut run = Vec::new();
    for (i, w) in q.words.iter().enumerate().take(MAX_RUN) {
        let form = w.chunk.form.as_str();
        let plain = w.pos == i
            && w.chunk.script == Script::Latin
            && !w.chunk.capitalized
            && form.chars().count() >= 3
            && form.chars().all(char::is_alphabetic)
            && w.concepts.is_empty()
            && crate::lexicon::slots(form).is_empty()
            && !text::is_stopword(form)
            && !is_request_word(&w.stem);
        if !plain {
            return None;
        }
        run.push(i);
        if possessive_suffix(&q.text, w.chunk.span.end) {
            return Some(run);
        }
    }
    None
}
