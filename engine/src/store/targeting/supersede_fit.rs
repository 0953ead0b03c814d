//! How a supersede's new text relates to a row and to each of its clauses: the evidence that
//! picks the row a paraphrased supersede replaces, and the clause a clause-level edit rewrites.

use std::collections::BTreeSet;
use std::ops::Range;

use super::query::{QWord, QueryShape};
use super::row_view::RowView;
use super::slot_match::{holds_slot_not_sibling, slot_words};
use super::word_classes::marks_restatement;
use super::word_match::word_matches;
use crate::index::keys::{has_digit, name_like};
use crate::{canon, lexicon};

/// Words of a supersede's new text (names aside, four letters or more, request words and words
/// naming only a kind of value such as "number" aside) that `row` holds: evidence that the
/// row states the attribute the new text restates. Nor is the noun a place's or a company's
/// name runs into, where both texts write it after the same name ("the Thessaloniki
/// warehouse"): it is part of whom the texts are about ([`super::compound::subject_noun`]).
pub(crate) fn hint_attribute_hits(hint: &QueryShape, row: &RowView<'_>) -> usize {
    hint.words
        .iter()
        .filter(|w| !w.name && w.stem.chars().count() >= 4)
        .filter(|w| !super::word_classes::is_request_word(&w.stem))
        .filter(|w| !lexicon::is_generic_head(&w.chunk.form))
        .filter(|w| row.chunks.iter().any(|c| word_matches(w, c)))
        .filter(|w| !super::compound::subject_noun(hint, w, row))
        .count()
}

/// A word naming the attribute that both a supersede's query and its new text use, and that
/// no row of `pool` (the rows about the query's subject) holds: "salary" in "change Mei's
/// salary" / "Mei's salary is 137,000 EUR" over rows about Mei's address and badge. The two
/// texts agree on which attribute is meant and the store holds none of it, so no row may be
/// chosen for it by meaning, relatedness or the kind of its value: words have not failed, the
/// attribute is absent. The words are [`agreed_attribute_words`].
pub(super) fn named_attribute_absent(
    query: &QueryShape,
    new: &QueryShape,
    pool: &[RowView<'_>],
) -> Option<String> {
    let named = agreed_attribute_words(query, new);
    // A row holding any of them or a word of their attribute concept ("landline" for
    // "phone") may state the attribute in other words; so may a row holding a word of their
    // lexicon slot ("lives" for "address"), unless that word names another attribute concept
    // of the slot: a driver's licence is not a licence plate, though both are about driving.
    let held = |w: &QWord| {
        pool.iter()
            .any(|v| holds_word_or_concept(w, v) || holds_slot_not_sibling(w, v))
    };
    // So may a row already holding a word the new text states ("Min-jun Kim takes sertraline
    // daily" for "Sir Kim's medication is sertraline"): the new text restates its fact.
    let restated = || pool.iter().any(|v| hint_attribute_hits(new, v) > 0);
    let named = super::compound::telling_words(query, new, named);
    if pool.is_empty() || named.is_empty() || named.iter().any(|w| held(w)) || restated() {
        return None;
    }
    Some(
        named
            .iter()
            .map(|w| w.written.as_str())
            .collect::<Vec<_>>()
            .join(" "),
    )
}

/// True if a supersede's query and its new text agree on words naming the attribute
/// ([`agreed_attribute_words`]) and `row` holds none of them: "Tom's number plate" / "Tom's
/// licence plate is now ..." over "Tom's driver's licence number is ...". The new text's other
/// words ("licence") then cannot make the row the fact it restates: the two texts say which
/// attribute they mean, and the row states another of the same sphere of life.
pub(super) fn agreed_attribute_missing(
    query: &QueryShape,
    new: &QueryShape,
    row: &RowView<'_>,
) -> bool {
    let named = agreed_attribute_words(query, new);
    !named.is_empty() && named.iter().all(|w| !holds_word_or_concept(w, row))
}

/// Why a supersede's query and `new` text never reach `row`: they agree on an
/// attribute the row does not hold, and it names a sibling of it instead
/// ([`agreed_attribute_replaced`]). An identifier in the query decides instead ("Kwame's card
/// ending 6621").
pub(super) fn sibling_of_agreed(
    query: &QueryShape,
    new: &QueryShape,
    row: &RowView<'_>,
) -> Option<String> {
    (!query.has_identifiers() && agreed_attribute_replaced(query, new, row))
        .then(|| "names another attribute than the one the query and the new text both name".into())
}

/// True if a supersede's query and new text agree on attribute words
/// ([`agreed_attribute_words`]), `row` holds none of them, and it names another attribute of
/// their slot instead: "lucía's annual salary" / "lucía's salary is now ..." over "Lucía's
/// annual bonus is ...", chosen by "annual". A row holding only other words ("Dmitri's office
/// is located at ..." for "Dmitri's office address" / "... work address is ...") may still
/// state the attribute.
fn agreed_attribute_replaced(query: &QueryShape, new: &QueryShape, row: &RowView<'_>) -> bool {
    let named = agreed_attribute_words(query, new);
    !named.is_empty()
        && named.iter().all(|w| !holds_word_or_concept(w, row))
        && named.iter().any(|w| slot_words(w, row).1)
}

/// True if `row` holds request word `w` ([`super::word_match::find_word`]) or, in any
/// language, a word of an attribute concept it names ("earns" for "salary", "allergic" for
/// "allergy").
fn holds_word_or_concept(w: &QWord, row: &RowView<'_>) -> bool {
    super::word_match::find_word(w, row).is_some()
        || (!w.concepts.is_empty()
            && crate::concepts::words(row.text, &row.chunks)
                .into_iter()
                .any(|(i, span, script)| {
                    crate::concepts::concepts_of_word(&row.text[span], script, &row.chunks[i].form)
                        .iter()
                        .any(|k| w.concepts.contains(k))
                }))
}

/// True if request word `w` may name the attribute: not a name (an acronym the lexicon knows,
/// "PIN", reads as one and is not), nor a word that frames the request ("update", "please"),
/// names the stored record ("entry"), marks a value as new or old, qualifies a time, or names
/// only a kind of value ("number", "code").
pub(super) fn is_attribute_word(w: &QWord) -> bool {
    (!w.name || is_attribute_acronym(w))
        && !w.optional
        && w.stem.chars().count() >= 3
        && !super::word_classes::is_request_word(&w.stem)
        && !super::framing::is_reference_word(&w.chunk.form)
        && !marks_restatement(&w.stem)
        && !super::compound::is_time_qualifier(&w.stem)
        && !lexicon::is_generic_head(&w.chunk.form)
}

/// True for a word written in capitals that the lexicon's slots know ("PIN"), which the
/// query parser reads as a name.
fn is_attribute_acronym(w: &QWord) -> bool {
    w.written.chars().filter(|c| c.is_alphabetic()).count() >= 2
        && w.written
            .chars()
            .all(|c| !c.is_alphabetic() || c.is_uppercase())
        && !lexicon::slots(&w.chunk.form).is_empty()
}

/// The words of a supersede's query that name its attribute (known to the lexicon's slots)
/// and that its new text uses too, as the same word or a word of the
/// same concept ("car registration" / "licence plate"). Words that frame the request, mark a
/// value as new ("new", "old"), name the stored record ("entry") or only a kind of value
/// ("number") are not attribute words.
fn agreed_attribute_words<'q>(query: &'q QueryShape, new: &QueryShape) -> Vec<&'q QWord> {
    query
        .words
        .iter()
        .filter(|w| is_attribute_word(w) && !lexicon::slots(&w.chunk.form).is_empty())
        .filter(|w| {
            new.words.iter().any(|h| {
                (!h.name || is_attribute_acronym(h))
                    && (h.stem == w.stem || h.concepts.iter().any(|k| w.concepts.contains(k)))
            })
        })
        .collect()
}

/// The words of the attribute a supersede's new text states of its subject, when it reads
/// "NAME's ATTRIBUTE is ...": the words between the possessive and the first function word
/// or value ("home address" in "Ahmed Hassan's new home address is 4-2-8 Shibakoen"), without
/// words marking the value as new or naming only a kind of value ("number"). Empty for any
/// other shape.
pub(crate) fn stated_attribute(new: &QueryShape) -> Vec<usize> {
    let chunks = crate::canon::chunks(&new.text);
    let Some(&last) = new.names.first().and_then(|run| run.last()) else {
        return Vec::new();
    };
    let end = new.words[last].chunk.span.end;
    let rest = new.text.get(end..).unwrap_or_default();
    let possessive = rest.starts_with("'s")
        || rest.starts_with("’s")
        || rest.starts_with('\'') && new.words[last].chunk.form.ends_with('s');
    if !possessive {
        return Vec::new();
    }
    let after = new.words[last].pos + 1;
    // Chunks after the name: the "s" of "'s", then the attribute up to a function word.
    let mut stop = after;
    while stop < chunks.len() {
        let c = &chunks[stop];
        let glued_s = stop == after && c.form == "s";
        if !glued_s && (crate::text::is_stopword(&c.form) || has_digit(c)) {
            break;
        }
        stop += 1;
    }
    new.words
        .iter()
        .enumerate()
        .filter(|(_, w)| w.pos >= after && w.pos < stop)
        .filter(|(_, w)| !w.name && !crate::text::is_stopword(&w.chunk.form))
        .filter(|(_, w)| !marks_restatement(&w.stem))
        .filter(|(_, w)| !lexicon::is_generic_head(&w.chunk.form))
        .map(|(i, _)| i)
        .collect()
}

/// How closely `row` relates to a supersede's query and new text when no row covers the query:
/// query words it holds, new-text words it holds, and attribute slots it shares with either
/// ([`crate::lexicon`]). Names are left out: they anchor, they do not relate.
pub(crate) fn relatedness(q: &QueryShape, hint: &QueryShape, row: &RowView<'_>) -> usize {
    let row_words: Vec<&str> = row
        .chunks
        .iter()
        .filter(|c| !has_digit(c) && !name_like(c))
        .map(|c| c.form.as_str())
        .collect();
    let holds = |w: &QWord| row.chunks.iter().any(|c| word_matches(w, c));
    let query_hits = q.words.iter().filter(|w| !w.name && holds(w)).count();
    let hint_hits = hint.words.iter().filter(|w| !w.name && holds(w)).count();
    let wanted = lexicon::slots_of(
        q.words
            .iter()
            .chain(hint.words.iter())
            .filter(|w| !w.name)
            .map(|w| w.chunk.form.as_str()),
    );
    let shared = lexicon::slots_of(row_words)
        .into_iter()
        .filter(|s| wanted.contains(s))
        .count();
    2 * query_hits + hint_hits + shared
}

/// True if the query's own words (names aside) talk about an attribute slot the row also
/// talks about ("when the motor policy is due" and "car insurance renews").
pub(crate) fn shares_slot(q: &QueryShape, row: &RowView<'_>) -> bool {
    shares_slot_within(q, row, 0..row.text.len())
}

/// True if the query's own words (names aside) talk about an attribute slot that clause `c`
/// of the row talks about ("where he's based" and "lives in Chiang Mai").
pub(crate) fn clause_shares_slot(q: &QueryShape, row: &RowView<'_>, c: usize) -> bool {
    row.clauses
        .get(c)
        .is_some_and(|clause| shares_slot_within(q, row, clause.span.clone()))
}

/// [`shares_slot`] over the row's words inside `span`.
fn shares_slot_within(q: &QueryShape, row: &RowView<'_>, span: Range<usize>) -> bool {
    // Words naming only a kind of value ("number") belong to no one attribute.
    let wanted = lexicon::slots_of(
        q.words
            .iter()
            .filter(|w| !w.name && !lexicon::is_generic_head(&w.chunk.form))
            .map(|w| w.chunk.form.as_str()),
    );
    let have = lexicon::slots_of(
        row.chunks
            .iter()
            .filter(|c| span.start <= c.span.start && c.span.end <= span.end)
            .filter(|c| !has_digit(c) && !name_like(c) && !lexicon::is_generic_head(&c.form))
            .map(|c| c.form.as_str()),
    );
    wanted.iter().any(|s| have.contains(s))
}

/// Adjacent word pairs `a` and `b` share (stopwords included: "the meeting is").
pub(crate) fn shared_pairs(a: &str, b: &str) -> usize {
    let pairs = |t: &str| -> BTreeSet<(String, String)> {
        let toks = crate::text::tokens(t);
        toks.windows(2)
            .map(|w| (w[0].clone(), w[1].clone()))
            .collect()
    };
    pairs(a).intersection(&pairs(b)).count()
}

/// Drops the rows a supersede's fallbacks chose (its words reached no row) that do not fit the
/// new text `hint`: a row stating another attribute by name
/// ([`drop_other_stated_attributes`]) or naming another attribute concept
/// ([`super::concept_contrast`]), lacking the phone, e-mail or account kind the new text
/// states ([`drop_without_the_new_specific_kind`]), or holding codes of another format
/// ([`drop_other_code_formats`]).
pub(super) fn drop_unfit_fallbacks(
    q: &QueryShape,
    hint: &QueryShape,
    new_kinds: &std::collections::BTreeSet<super::value_kind::ValueKind>,
    scored: &mut Vec<super::candidate::Candidate>,
    rejected: &mut Vec<super::Rejected>,
) {
    drop_other_stated_attributes(q, hint, scored, rejected);
    super::concept_contrast::drop_other_concepts(q, Some(hint), scored, rejected);
    drop_without_the_new_specific_kind(scored, rejected, new_kinds);
    drop_other_code_formats(scored, rejected, &RowView::new(&hint.text));
    // Read as a request, the new text's compound is not the row's: "Priya's new driver's
    // licence number is ..." is no "licence plate" ([`super::compound::head_as_modifier`]).
    drop_candidates(scored, rejected, |v| {
        super::compound::head_as_modifier(hint, v)
    });
}

/// Drops the candidates for which `reject` gives a reason (read from the row's text), and
/// records each with its reason.
pub(super) fn drop_candidates(
    scored: &mut Vec<super::candidate::Candidate>,
    rejected: &mut Vec<super::Rejected>,
    reject: impl Fn(&RowView<'_>) -> Option<String>,
) {
    scored.retain(|c| {
        let view = RowView::new(c.row.text.as_deref().unwrap_or_default());
        let Some(reason) = reject(&view) else {
            return true;
        };
        rejected.push(super::Rejected {
            id: c.row.id,
            coverage: c.score.coverage,
            reason,
        });
        false
    });
}

/// Drops the candidates holding only values of other kinds than `new_kinds`, a supersede's
/// new text's ([`super::value_kind::other_kind`]), and says why.
pub(super) fn drop_other_kinds(
    scored: &mut Vec<super::candidate::Candidate>,
    rejected: &mut Vec<super::Rejected>,
    new_kinds: &std::collections::BTreeSet<super::value_kind::ValueKind>,
) {
    if new_kinds.is_empty() {
        return;
    }
    drop_candidates(scored, rejected, |view| {
        super::value_kind::other_kind(&super::value_kind::value_kinds(view), new_kinds)
            .then(|| "holds values of another kind than the new text states".into())
    });
}

/// Drops the candidates a supersede's fallbacks chose (by the kind of the new value, by meaning
/// or by relatedness, its words having reached no row) that state no value of a kind the new
/// text states that names one attribute on its own: a phone number, an e-mail address, an
/// IBAN, a handle, a network address ([`super::value_kind::ValueKind::specific`]; street
/// addresses aside, which are read from words and not always seen). "Fatima's personal e-mail
/// is ..." restates an e-mail address: the row about her allergy, or the one holding her card
/// number, is not the fact it replaces, however close in meaning.
fn drop_without_the_new_specific_kind(
    scored: &mut Vec<super::candidate::Candidate>,
    rejected: &mut Vec<super::Rejected>,
    new_kinds: &std::collections::BTreeSet<super::value_kind::ValueKind>,
) {
    use super::value_kind::ValueKind;
    let specific: Vec<ValueKind> = new_kinds
        .iter()
        .copied()
        .filter(|k| k.specific() && *k != ValueKind::Address)
        .collect();
    if specific.is_empty() {
        return;
    }
    let nouns: Vec<&str> = specific.iter().map(|k| k.noun()).collect();
    let reason = format!("states no {} as the new text does", nouns.join(" or "));
    drop_candidates(scored, rejected, |view| {
        let kinds = super::value_kind::value_kinds(view);
        (!specific.iter().any(|k| kinds.contains(k))).then(|| reason.clone())
    });
}

/// Drops the candidates whose codes are of another format than every code the new text
/// states ([`super::value_kind::other_code_format`]), and says why.
fn drop_other_code_formats(
    scored: &mut Vec<super::candidate::Candidate>,
    rejected: &mut Vec<super::Rejected>,
    new: &RowView<'_>,
) {
    drop_candidates(scored, rejected, |view| {
        super::value_kind::other_code_format(view, new)
            .then(|| "its codes are of another format than the new text's".into())
    });
}

/// The forms of "to be" that join an attribute to its value ("Anna's phone number is ...").
const COPULAS: &[&str] = &["is", "are", "was", "were"];

/// Possessive determiners that open an attribute a clause states ("and his badge number is").
const POSSESSIVE_DETERMINERS: &[&str] = &["his", "her", "their", "its", "my", "our", "your"];

/// The attribute each clause of `row` states by name, as chunk indices, when every clause
/// reads "NAME's ATTRIBUTE is VALUE" or "... and her ATTRIBUTE is VALUE": the words between
/// the possessive and the copula. `None` when a clause states its fact otherwise ("Rossi is
/// based in Milan", "Tomasz's badge opens the server room").
fn stated_per_clause(row: &RowView<'_>) -> Option<Vec<Vec<usize>>> {
    let mut out = Vec::new();
    for clause in &row.clauses {
        let inside: Vec<usize> = (0..row.chunks.len())
            .filter(|&i| {
                let c = &row.chunks[i].span;
                clause.span.start <= c.start && c.end <= clause.span.end
            })
            .collect();
        let copula = inside
            .iter()
            .position(|&i| COPULAS.contains(&row.chunks[i].form.as_str()))?;
        // Back from the copula over the attribute's words to the possessive that opens it.
        let mut words = Vec::new();
        let mut opened = false;
        for &i in inside[..copula].iter().rev() {
            let c = &row.chunks[i];
            let apostrophe_s = c.form == "s"
                && i > 0
                && row
                    .text
                    .get(row.chunks[i - 1].span.end..c.span.start)
                    .is_some_and(|g| g == "'" || g == "’");
            if apostrophe_s || POSSESSIVE_DETERMINERS.contains(&c.form.as_str()) {
                opened = true;
                break;
            }
            // An acronym names an attribute ("tax ID", "IBAN"); another capitalized word or
            // a word of a caseless script may be a name.
            let written = row.text.get(c.span.clone()).unwrap_or_default();
            let acronym = written.chars().filter(|ch| ch.is_alphabetic()).count() >= 2
                && written
                    .chars()
                    .all(|ch| !ch.is_alphabetic() || ch.is_uppercase());
            if crate::text::is_stopword(&c.form)
                || has_digit(c)
                || c.script != crate::canon::Script::Latin
                || (c.capitalized && !acronym)
            {
                break;
            }
            words.push(i);
        }
        if !opened || words.is_empty() {
            return None;
        }
        out.push(words);
    }
    (!out.is_empty()).then_some(out)
}

/// Drops the rows a supersede's fallbacks chose (by the kind of the new value, by meaning or
/// by relatedness, when its words reached no row) whose every clause states its attribute by
/// name ("Maria Rossi's annual bonus is 4,000 EUR") when neither the query nor the new text
/// names any of them: not a word, nor a word of its lexicon slot or attribute concept. "The pay
/// of Dr. Rossi" / "Dr. Rossi's new salary is ..." is not her bonus. A row stating a fact in
/// other words ("Rossi is based in Milan") may still be what a paraphrase means, and the guess
/// stands.
fn drop_other_stated_attributes(
    query: &QueryShape,
    new: &QueryShape,
    scored: &mut Vec<super::candidate::Candidate>,
    rejected: &mut Vec<super::Rejected>,
) {
    // Rows and new text are compared in one shape: a new text in another language ("Die
    // Reisepassnummer von Niloufar ist ...") may name the row's attribute in words this
    // check cannot read.
    if stated_attribute(new).is_empty() {
        return;
    }
    // Every word, names too: an acronym reads as a name ("its MOT", "Reza's IBAN").
    let asked: Vec<&QWord> = query.words.iter().chain(&new.words).collect();
    let named_by_request = |form: &str| {
        let stem = crate::index::keys::stem(form);
        let slots = lexicon::slots(form);
        let concepts = crate::concepts::concepts_of_word(form, crate::canon::Script::Latin, form);
        let named =
            crate::concepts::concepts_named_exactly(form, crate::canon::Script::Latin, form);
        // A word of the request's slot that names another attribute concept ("bonus" for
        // "salary") is no evidence the row states the request's attribute.
        asked.iter().any(|a| {
            let siblings = !a.concepts.is_empty()
                && !named.is_empty()
                && !a.concepts.iter().any(|k| named.contains(k));
            a.stem == stem
                || a.concepts.iter().any(|k| concepts.contains(k))
                || (!siblings
                    && lexicon::slots(&a.chunk.form)
                        .iter()
                        .any(|s| slots.contains(s)))
        })
    };
    scored.retain(|c| {
        let view = RowView::new(c.row.text.as_deref().unwrap_or_default());
        let Some(stated) = stated_per_clause(&view) else {
            return true;
        };
        // A word naming only a kind of value ("number" of "credit card number") says nothing
        // of which attribute, unless the row states nothing else.
        let forms: Vec<&str> = stated
            .iter()
            .flatten()
            .map(|&i| view.chunks[i].form.as_str())
            .collect();
        let content: Vec<&str> = forms
            .iter()
            .copied()
            .filter(|f| !lexicon::is_generic_head(f))
            .collect();
        let words = if content.is_empty() { &forms } else { &content };
        if words.iter().any(|f| named_by_request(f)) {
            return true;
        }
        let named: Vec<String> = stated
            .iter()
            .map(|words| {
                let (first, last) = (words[words.len() - 1], words[0]);
                view.text[view.chunks[first].span.start..view.chunks[last].span.end].to_owned()
            })
            .collect();
        rejected.push(super::Rejected {
            id: c.row.id,
            coverage: c.score.coverage,
            reason: format!(
                "states its {}, which neither the query nor the new text names",
                named.join(" and ")
            ),
        });
        false
    });
}

/// A supersede's new text states a fact about someone, and the row it replaces must be a fact
/// of that kind about that person, also when its query leaves either out:
/// - a query that names no subject ("the prescription", "replace the allergy we have on
///   file", "update the SSN": an acronym names no one) reaches only rows holding the name the
///   new text marks as possessor ("Bogdan's medication is sertraline" is not Carmen's
///   medication; the name a new text begins with may be its new value: "Dr. Haddad has taken
///   over the pager"), or the name it opens with in lowercase as a possessor ("olga's
///   wedding anniversary is ...");
/// - a query that is only one name in a cased script ("Noa", "update Noa's record", "Noa's
///   details changed") reaches only rows holding something of what the new text
///   states ("Noa's new bonus is 8,000 EUR" is not "Noa Levi earns 102,000 USD a year"), and
///   every word of the attribute it states of its subject ("Noa's new home address is ..."
///   is not her work address), not as the modifier of another noun ("Noa's driver's licence
///   number is ..." is not her licence plate). A hyphenated name is one name ("Ji-woo").
pub(super) fn drop_unlike_the_new_text(
    query: &QueryShape,
    new: &QueryShape,
    scored: &mut Vec<super::candidate::Candidate>,
    rejected: &mut Vec<super::Rejected>,
) {
    let new_view = RowView::new(&new.text);
    let subjects: Vec<&Vec<usize>> = new
        .names
        .iter()
        .filter(|run| super::possession::subject_of(&new.words, run, &new_view, false))
        .collect();
    // Cased scripts only: in a caseless one, a request's attribute words may read as a name.
    let names_only = query.names.len() == 1
        && query
            .words
            .iter()
            .all(|w| super::names::cased(w.chunk.script))
        && !query.fan_out
        && !query.has_identifiers()
        && query.words.iter().enumerate().all(|(i, w)| {
            w.name
                || query.in_name_run(i)
                || w.optional
                || super::word_classes::is_request_word(&w.stem)
                || super::framing::is_reference_word(&w.chunk.form)
                || marks_restatement(&w.stem)
        });
    // The attribute the new text states of its subject ("home address" in "Ahmed Hassan's new
    // home address is ..."): with a query that names only the subject, the row must hold it.
    let stated = stated_attribute(new);
    let lowercase = super::lowercase_names::possessor_opening(new);
    scored.retain(|c| {
        let view = RowView::new(c.row.text.as_deref().unwrap_or_default());
        let reason = if query.names_nobody()
            && let Some(run) = &lowercase
            && !run
                .iter()
                .all(|&i| view.chunks.iter().any(|ch| word_matches(&new.words[i], ch)))
        {
            Some(format!(
                "the new text is about {:?}, whom the row does not name",
                new.run_text(run)
            ))
        } else if query.names_nobody()
            && let Some(run) = subjects.iter().find(|run| {
                !run.iter()
                    .all(|&i| super::word_match::find_name(&new.words[i], &view).is_some())
            }) {
            let (a, b) = (&new.words[run[0]], &new.words[run[run.len() - 1]]);
            Some(format!(
                "the new text is about {:?}, whom the row does not name",
                &new.text[a.chunk.span.start..b.chunk.span.end]
            ))
        } else if names_only
            && hint_attribute_hits(new, &view) == 0
            && !shares_slot(new, &view)
        {
            Some(
                "holds nothing of what the new text states, and the query names only its subject"
                    .into(),
            )
        } else if names_only
            && let Some(other) = super::compound::head_as_modifier(new, &view)
        {
            Some(format!(
                "{other} (of the new text), and the query names only its subject"
            ))
        } else if names_only
            && let Some(missing) = stated.iter().find(|&&i| {
                !view
                    .chunks
                    .iter()
                    .any(|ch| word_matches(&new.words[i], ch))
            })
        {
            Some(format!(
                "does not hold {:?}, which the new text states, and the query names only its subject",
                new.words[*missing].written
            ))
        } else {
            None
        };
        if let Some(reason) = reason {
            rejected.push(super::Rejected {
                id: c.row.id,
                coverage: c.score.coverage,
                reason,
            });
            return false;
        }
        true
    });
}

/// True if the query names identifiers and a supersede's new text restates every one of them
/// ("... allowance on 6E 2014 is now 25 kg" for "... luggage for 6E 2014"): the context the old
/// and the new fact share, not the value replaced.
pub(super) fn restates_identifiers(q: &QueryShape, new: &QueryShape) -> bool {
    let codes: Vec<_> = q.codes.iter().filter(|c| c.year.is_none()).collect();
    if codes.is_empty() && q.typed.is_empty() {
        return false;
    }
    let new_chunks = canon::chunks(&new.text);
    codes
        .iter()
        .all(|c| !canon::find_code(&new_chunks, &c.display).is_empty())
        && q.typed
            .iter()
            .all(|id| new.typed.iter().any(|n| canon::same_identifier(id, n)))
}
