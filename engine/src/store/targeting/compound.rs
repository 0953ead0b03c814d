//! Compound attributes told apart by their modifiers: "passport number" is not the "phone
//! number" a row holds, "work phone" not its "home phone".

use super::query::{QWord, QueryShape};
use super::row_view::RowView;
use super::word_match::{find_word, is_calendar, is_date_word, word_matches};
use crate::canon;
use crate::index::keys::{self, has_digit, name_like};

/// True for a word that places an attribute's value in time ("the new number", "her old
/// address", "the current plan"): it says which value, never which attribute, so it is no
/// modifier that tells one compound attribute from another.
pub(super) fn is_time_qualifier(stem: &str) -> bool {
    super::period::OLD_WORDS.contains(&stem)
        || ["new", "current", "present", "latest", "now"].contains(&stem)
}

/// Modifiers that place a contact detail or address in the same sphere of life: "private
/// email" and "personal email" are one attribute, as are "work", "office" and "business
/// email", or a "mobile" and a "cell" phone.
const SAME_MODIFIER: &[&[&str]] = &[
    &["home", "private", "personal", "residential"],
    &["work", "office", "business", "professional", "corporate"],
    &["mobile", "cell", "cellular"],
];

/// True if the modifiers `a` and `b` (folded forms) name the same sphere ([`SAME_MODIFIER`]).
fn same_modifier(a: &str, b: &str) -> bool {
    SAME_MODIFIER
        .iter()
        .any(|group| group.contains(&a) && group.contains(&b))
}

/// Why `row` states another attribute than the compound `q` asks for, if it does.
///
/// When the row holds the head of the query's compound but not its modifier, and the head
/// there carries a modifier of its own, the row states another attribute ("states \"home
/// phone\", not \"work phone\""). The query's time qualifiers ("new", "old") modify no
/// attribute; modifiers evoking one lexicon slot ("office", "work") are one attribute.
pub(super) fn modifier_contrast(q: &QueryShape, row: &RowView<'_>) -> Option<String> {
    let adjacent = |a: &QWord, b: &QWord| {
        a.pos + 1 == b.pos
            && b.chunk.gap == Some(canon::Gap::Joiner)
            && q.text[a.chunk.span.end..b.chunk.span.start]
                .chars()
                .all(char::is_whitespace)
    };
    for (k, pair) in q.words.windows(2).enumerate() {
        let (m, h) = (&pair[0], &pair[1]);
        // Only a two-word compound that ends its phrase: "passport number", not "taking
        // new" in "taking new patients".
        // A word naming only a kind of value may close it ("private email address"), and a
        // name opening the request or a possessor may open it ("Nikos business address",
        // "Ayşe's office email"; not "Giulia avoids contactless").
        // Or the compound's head runs on over more words ("private email address"): the row
        // must then write them after its own head too ("office email address"), or hold none
        // of them ("work email").
        let mut tail: Vec<&QWord> = Vec::new();
        while let Some(n) = q.words.get(k + 2 + tail.len())
            && adjacent(tail.last().copied().unwrap_or(h), n)
            && tail.len() < 2
        {
            tail.push(n);
        }
        let ends_phrase = q.words.get(k + 2 + tail.len()).is_none_or(|n| {
            !adjacent(tail.last().copied().unwrap_or(h), n)
                || crate::lexicon::is_generic_head(&n.chunk.form)
        });
        let tail: Vec<&QWord> = tail
            .into_iter()
            .filter(|n| !crate::lexicon::is_generic_head(&n.chunk.form))
            .collect();
        if tail.iter().any(|n| n.name || is_time_qualifier(&n.stem)) {
            continue;
        }
        // A row may leave out the rest of the head only where those words name an attribute
        // ("address"), not a verb after the phrase ("... interview happens").
        let tail_absent = tail
            .iter()
            .all(|n| find_word(n, row).is_none() && !n.concepts.is_empty());
        // A name opening the request may be several words ("Min-jun Kim private email").
        let starts_phrase = k == 0 || !adjacent(&q.words[k - 1], m) || {
            let prev = &q.words[k - 1];
            let opening_name = q.words[..k].iter().all(|w| w.name) && q.words[0].pos == 0;
            prev.name
                && (opening_name
                    || super::possession::possessive_suffix(&q.text, prev.chunk.span.end))
                // Or the noun the subject's name qualifies, written so in the row too ("the
                // Thessaloniki warehouse alarm code" over "... for the Thessaloniki
                // warehouse"): it says whose attribute it is, as the name does.
                || k >= 2 && q.words[k - 2].name && subject_noun(q, prev, row)
        };
        // A day or month names which of a recurring thing ("the August rent reminder"); the
        // row holds it as that modifier, not as the date of another ("the September rent
        // reminder was sent on 25 August").
        let calendar_modifier = is_date_word(m);
        let holds_modifier = if calendar_modifier {
            row.chunks
                .iter()
                .enumerate()
                .any(|(p, c)| word_matches(m, c) && !in_date(row, p))
        } else {
            find_word(m, row).is_some()
        };
        if !adjacent(m, h)
            || is_time_qualifier(&h.stem)
            || crate::text::is_stopword(&h.chunk.form)
            || !ends_phrase
            || !starts_phrase
            || m.name && !calendar_modifier
            || h.name
            || is_time_qualifier(&m.stem)
            // A word naming a kind of value tells no attribute apart ("number plate" is the
            // licence plate).
            || crate::lexicon::is_generic_head(&m.chunk.form)
            || holds_modifier
        {
            continue;
        }
        let contrast = row.chunks.iter().enumerate().find_map(|(p, c)| {
            let prev = row.chunks.get(p.checked_sub(1)?)?;
            let modifier = c.gap == Some(canon::Gap::Joiner)
                && prev.form.chars().count() >= 2
                && row.text[prev.span.end..c.span.start]
                    .chars()
                    .all(char::is_whitespace)
                && !has_digit(prev)
                // A month or day asked is contrasted only with another month or day: "the
                // August leave" may be the annual leave taken in August.
                && if calendar_modifier {
                    is_calendar(&keys::stem(&prev.form))
                } else {
                    !name_like(prev)
                }
                && !crate::text::is_stopword(&prev.form)
                && !super::word_classes::is_negated(&prev.form);
            // Modifiers evoking one attribute slot are one attribute ("office email" and
            // "work email").
            let slots = crate::lexicon::slots(&prev.form);
            let same_slot = crate::lexicon::slots(&m.chunk.form)
                .iter()
                .any(|s| slots.contains(s))
                || same_modifier(&m.chunk.form, &prev.form);
            let tail_follows = tail.iter().enumerate().all(|(j, n)| {
                row.chunks
                    .get(p + 1 + j)
                    .is_some_and(|rc| word_matches(n, rc))
            });
            (word_matches(h, c) && modifier && !same_slot && (tail_absent || tail_follows))
                .then(|| row.text[prev.span.start..c.span.end].to_owned())
        });
        if let Some(phrase) = contrast {
            return Some(format!(
                "states {phrase:?}, not {:?}",
                &q.text[m.chunk.span.start..h.chunk.span.end]
            ));
        }
    }
    None
}

/// Why `row` states another attribute than the compound `q` asks for, when the row holds the
/// compound's head only as the modifier of another noun: "Maria's driving licence" (or
/// "driver's licence") is not the "licence plate" a row holds.
///
/// The two words of the query are joined by white space or a possessive "'s"; the head names
/// an attribute the lexicon knows and the modifier is no inflected verb ("owns hiring"). The
/// compound ends its phrase (a word naming a kind of value may close it: "driver's licence
/// number"). The row holds the head (as the same word: "prefers" is not "preference") only
/// right before a noun the lexicon knows that no word of the query names, written as no verb:
/// "Maria's licence expires in May" states her licence.
pub(super) fn head_as_modifier(q: &QueryShape, row: &RowView<'_>) -> Option<String> {
    let gap_of = |text: &str, a: &std::ops::Range<usize>, b: &std::ops::Range<usize>| {
        (a.end <= b.start).then(|| text[a.end..b.start].to_owned())
    };
    for (k, pair) in q.words.windows(2).enumerate() {
        let (m, h) = (&pair[0], &pair[1]);
        // "driving licence", "driver's licence".
        let joined = gap_of(&q.text, &m.chunk.span, &h.chunk.span).is_some_and(|g| {
            g.ends_with(char::is_whitespace) && ["", "'s", "’s"].contains(&g.trim())
        });
        if !joined
            || !compound_word(m)
            || !compound_word(h)
            || crate::lexicon::is_generic_head(&h.chunk.form)
        {
            continue;
        }
        let ends_phrase = q.words.get(k + 2).is_none_or(|n| {
            crate::lexicon::is_generic_head(&n.chunk.form)
                || gap_of(&q.text, &h.chunk.span, &n.chunk.span)
                    .is_none_or(|g| !g.chars().all(char::is_whitespace))
        });
        // The head names an attribute the lexicon knows, and the modifier is no verb ("owns
        // hiring"): an inflected modifier other than a gerund is one.
        let attribute_head =
            !h.concepts.is_empty() || !crate::lexicon::slots(&h.chunk.form).is_empty();
        let verb_modifier = ["s", "ed"].iter().any(|x| m.chunk.form.ends_with(x));
        if !ends_phrase || !attribute_head || verb_modifier {
            continue;
        }
        // The head as the same word (not "prefers" for "preference").
        let held: Vec<usize> = (0..row.chunks.len())
            .filter(|&p| word_matches(h, &row.chunks[p]) && same_word(h, &row.chunks[p]))
            .collect();
        let noun_after = |p: usize| {
            let next = row.chunks.get(p + 1)?;
            let form = next.form.as_str();
            let spaced = gap_of(row.text, &row.chunks[p].span, &next.span)
                .is_some_and(|g| !g.is_empty() && g.chars().all(char::is_whitespace));
            let verb_form = ["s", "ed", "ing"].iter().any(|x| form.ends_with(x));
            // A noun the lexicon knows ("plate", "bill"), not any word ("clinic every").
            let noun = !crate::lexicon::slots(form).is_empty()
                || !crate::concepts::concepts_of_word(form, next.script, form).is_empty();
            (spaced
                && noun
                && form.chars().count() >= 3
                && !verb_form
                && !has_digit(next)
                && !name_like(next)
                && !crate::text::is_stopword(form)
                && !crate::lexicon::is_generic_head(form)
                && !q.words.iter().any(|w| word_matches(w, next)))
            .then(|| row.text[row.chunks[p].span.start..next.span.end].to_owned())
        };
        if let Some(why) = held_only_in_another_compound(q, m, h, &held, noun_after) {
            return Some(why);
        }
    }
    None
}

/// Why `row` names another place or organisation than the one `q` asks about, if it does: the
/// query writes a one-word name followed by a common noun ("the Izmir branch", "Osaka
/// warehouse street address"), and the row writes that name after a determiner followed by
/// another common noun ("the Izmir lab"), and nowhere holds the query's noun. "The alarm code
/// of the Izmir branch" is not "the door code for the Izmir lab".
pub(super) fn named_head_contrast(q: &QueryShape, row: &RowView<'_>) -> Option<String> {
    const DETERMINERS: &[&str] = &["the", "our", "their", "a", "an", "my", "your", "its"];
    let common = |c: &canon::Chunk| {
        !c.capitalized
            && c.form.chars().count() >= 3
            && !has_digit(c)
            && !crate::text::is_stopword(&c.form)
            && !crate::lexicon::is_generic_head(&c.form)
    };
    for run in q.names.iter().filter(|run| run.len() == 1) {
        let n = &q.words[run[0]];
        let Some(h) = q.words.iter().find(|w| w.pos == n.pos + 1) else {
            continue;
        };
        let spaced = q
            .text
            .get(n.chunk.span.end..h.chunk.span.start)
            .is_some_and(|gap| gap.chars().all(char::is_whitespace));
        // The noun ends a noun phrase or continues a compound ("the Izmir branch's", "Osaka
        // warehouse street address", "of the Izmir branch"), or the name follows a determiner
        // or "of": not a verb after a name opening the request ("Dell assigned a ...").
        let qchunks = canon::chunks(&q.text);
        let after = qchunks.get(h.pos + 1);
        let before = n.pos.checked_sub(1).and_then(|i| qchunks.get(i));
        // A capitalized attribute word after the noun continues the compound too ("Haifa
        // warehouse Wi-Fi password").
        let attribute_after = q.names.iter().any(|r| {
            r.first().is_some_and(|&i| q.words[i].pos == h.pos + 1)
                && super::names::written_as_attribute(q, r)
        });
        let noun = after.is_none_or(|c| c.form == "s" || common(c))
            || attribute_after
            || before.is_some_and(|c| DETERMINERS.contains(&c.form.as_str()) || c.form == "of");
        if !spaced
            || !noun
            || h.name
            || !common(&h.chunk)
            || super::word_classes::is_request_word(&h.stem)
            || find_word(h, row).is_some()
        {
            continue;
        }
        for (p, c) in row.chunks.iter().enumerate() {
            let (Some(prev), Some(next)) = (
                p.checked_sub(1).and_then(|i| row.chunks.get(i)),
                row.chunks.get(p + 1),
            ) else {
                continue;
            };
            let joined = row
                .text
                .get(c.span.end..next.span.start)
                .is_some_and(|gap| gap.chars().all(char::is_whitespace) && !gap.is_empty());
            // Another spelling of the query's noun is the same noun ("licensing", "licence").
            let same_stem = {
                let (x, y): (Vec<char>, Vec<char>) =
                    (h.chunk.form.chars().collect(), next.form.chars().collect());
                x.len() >= 5 && y.len() >= 5 && x[..5] == y[..5]
            };
            if word_matches(n, c)
                && DETERMINERS.contains(&prev.form.as_str())
                && joined
                && common(next)
                && !same_stem
            {
                return Some(format!(
                    "names {:?}, not {:?}",
                    &row.text[c.span.start..next.span.end],
                    &q.text[n.chunk.span.start..h.chunk.span.end]
                ));
            }
        }
    }
    None
}

/// How many words of the query are the common noun a name of the query runs into ("datacenter"
/// of "the Haifa datacenter door code", "branch" of "the Lyon branch entry code") where the row
/// writes the same noun right after the same name ("The Wi-Fi password at the Haifa
/// datacenter"): part of the subject both texts name, not evidence of the attribute. Only white
/// space may stand between the name and the noun, in both texts ("Anna's phone" is an
/// attribute of Anna). Only when the request's attribute is a compound naming a kind of value
/// ("door code", "permit number": [`crate::lexicon::is_generic_head`]), which the noun of the
/// subject cannot stand for, or when the noun carries the possessive ("the Pune warehouse's
/// Wi-Fi password"); "the Delhi office address" may be held by "the Delhi office was in ...".
/// `word_hit` holds where the row holds each query word.
pub(super) fn subject_heads(
    q: &QueryShape,
    row: &RowView<'_>,
    word_hit: &[Option<usize>],
) -> usize {
    let kind_of_value = q
        .words
        .iter()
        .enumerate()
        .any(|(i, w)| !q.in_name_run(i) && crate::lexicon::is_generic_head(&w.chunk.form));
    q.names
        .iter()
        .filter(|run| {
            let Some(&last) = run.last() else {
                return false;
            };
            let Some(p) = word_hit[last] else {
                return false;
            };
            // A name written as one: not a lowercase word read as part of it.
            if !name_like(&q.words[last].chunk) {
                return false;
            }
            let pos = q.words[last].pos + 1;
            let Some(wi) = q.words.iter().position(|w| w.pos == pos) else {
                return false;
            };
            let w = &q.words[wi];
            // A word the score counts as the attribute's.
            let attribute_word = !w.optional
                && !super::word_classes::is_request_word(&w.stem)
                && !super::word_match::is_date_word(w)
                && !super::word_match::is_bound_word(&w.stem);
            // The noun carries the possessive ("the Pune warehouse's Wi-Fi password"): the
            // name and the noun are the possessor, whatever the attribute.
            let possessor = super::possession::possessive_suffix(&q.text, w.chunk.span.end);
            attribute_word
                && (kind_of_value || possessor)
                && !w.name
                && !q.in_name_run(wi)
                && word_hit[wi] == Some(p + 1)
                && spaced(&q.text, &q.words[last].chunk.span, &w.chunk.span)
                && spaced(row.text, &row.chunks[p].span, &row.chunks[p + 1].span)
        })
        .count()
}

/// Why `row` states another attribute than the compound `q` asks for, when the row holds the
/// compound's modifier only as the modifier of another head: "Maria's licence plate" is not
/// the "driver's licence number" a row holds, "the home phone" not "the home address".
///
/// The two words of the query are joined by white space alone and end their phrase; the head
/// names an attribute the lexicon knows (no word naming only a kind of value: "phone number"
/// is told by its modifier, [`modifier_contrast`]) and the modifier is no inflected verb. The
/// row holds no form of the head, and holds the modifier (as the same word) only right before
/// another noun the lexicon knows in another slot than the head's ("coordinator role" may be
/// the "coordinator position"), or a word naming a kind of value, that no word of the query
/// names and that is no verb form or adverb ("watering weekly").
pub(super) fn modifier_of_another_head(q: &QueryShape, row: &RowView<'_>) -> Option<String> {
    for (k, pair) in q.words.windows(2).enumerate() {
        let (m, h) = (&pair[0], &pair[1]);
        if m.pos + 1 != h.pos
            || !spaced(&q.text, &m.chunk.span, &h.chunk.span)
            || !compound_word(m)
            || !compound_word(h)
            || crate::lexicon::is_generic_head(&h.chunk.form)
            || crate::lexicon::slots(&h.chunk.form).is_empty()
            || ["s", "ed"].iter().any(|x| m.chunk.form.ends_with(x))
        {
            continue;
        }
        let ends_phrase = q
            .words
            .get(k + 2)
            .is_none_or(|n| !spaced(&q.text, &h.chunk.span, &n.chunk.span));
        if !ends_phrase || find_word(h, row).is_some() {
            continue;
        }
        let head_slots = crate::lexicon::slots(&h.chunk.form);
        let held: Vec<usize> = (0..row.chunks.len())
            .filter(|&p| word_matches(m, &row.chunks[p]) && same_word(m, &row.chunks[p]))
            .collect();
        let other_head = |p: usize| {
            let next = row.chunks.get(p + 1)?;
            let form = next.form.as_str();
            let slots = crate::lexicon::slots(form);
            // A noun of the head's own slot may name the same attribute ("coordinator role"
            // for "coordinator position").
            let noun = (!slots.is_empty() && !slots.iter().any(|s| head_slots.contains(s)))
                || crate::lexicon::is_generic_head(form);
            (spaced(row.text, &row.chunks[p].span, &next.span)
                && noun
                && !["s", "ed", "ing", "ly"].iter().any(|x| form.ends_with(x))
                && !is_time_qualifier(&crate::lexicon::lemma(form))
                && !has_digit(next)
                && !name_like(next)
                && !crate::text::is_stopword(form)
                && !q.words.iter().any(|w| word_matches(w, next)))
            .then(|| row.text[row.chunks[p].span.start..next.span.end].to_owned())
        };
        if let Some(why) = held_only_in_another_compound(q, m, h, &held, other_head) {
            return Some(why);
        }
    }
    None
}

/// True if chunk `p` of `row` is a day or month name inside a date: a day number or a year
/// beside it ("25 August", "August 25", "March 2024").
fn in_date(row: &RowView<'_>, p: usize) -> bool {
    [p.checked_sub(1), Some(p + 1)]
        .into_iter()
        .flatten()
        .filter_map(|j| row.chunks.get(j))
        .any(|c| has_digit(c) && c.form.chars().count() <= 4)
}

/// True if row chunk `c` writes the query word `w` as the same word, not a word derived from
/// it ("prefers" is not "preference"): one lemma, or one word in its British and American
/// spellings ("licence", "license").
fn same_word(w: &QWord, c: &canon::Chunk) -> bool {
    crate::lexicon::lemma(&c.form) == crate::lexicon::lemma(&w.chunk.form)
        || crate::spelling::spelling_variants(&crate::index::keys::stem(&c.form), &w.stem)
}

/// The words of `named` (a supersede's query words naming the attribute its new text names
/// too) that say which attribute, with the modifiers of a word naming only a kind of value
/// that both texts write before it ("door" of "the door code"): such a word ("code",
/// "number") is no attribute of its own when the texts agree on a word that says which. "The
/// alarm code" is not held by "the door code", nor "the door code" by "the Wi-Fi password".
/// Without such a word, `named` as it is.
pub(super) fn telling_words<'q>(
    query: &'q QueryShape,
    new: &QueryShape,
    mut named: Vec<&'q QWord>,
) -> Vec<&'q QWord> {
    let generic = |w: &QWord| crate::lexicon::is_generic_head(&w.chunk.form);
    let before_generic = |q: &QueryShape, m: &QWord| {
        q.words.iter().any(|h| {
            h.pos == m.pos + 1 && generic(h) && spaced(&q.text, &m.chunk.span, &h.chunk.span)
        })
    };
    for m in &query.words {
        let agreed = before_generic(query, m)
            && compound_word(m)
            && new
                .words
                .iter()
                .any(|n| n.stem == m.stem && before_generic(new, n));
        if agreed && !named.iter().any(|w| w.pos == m.pos) {
            named.push(m);
        }
    }
    // A noun both texts write right after the subject's name names the subject, not the
    // attribute ("office" of "the Osaka office's door code").
    named.retain(|w| !follows_name_in_both(query, new, w));
    let telling: Vec<&QWord> = named.iter().copied().filter(|w| !generic(w)).collect();
    if telling.is_empty() { named } else { telling }
}

/// True if query word `w` follows a name of `query` with only white space between, and `new`
/// writes the same word right after the same name: "office" of "the Osaka office".
fn follows_name_in_both(query: &QueryShape, new: &QueryShape, w: &QWord) -> bool {
    let after_name = |q: &QueryShape, w: &QWord| {
        q.words
            .iter()
            .find(|n| n.name && n.pos + 1 == w.pos && spaced(&q.text, &n.chunk.span, &w.chunk.span))
            .map(|n| n.stem.clone())
    };
    let Some(name) = after_name(query, w) else {
        return false;
    };
    new.words
        .iter()
        .any(|n| n.stem == w.stem && after_name(new, n).is_some_and(|m| m == name))
}

/// A word that may be part of a request's compound attribute: no name, digit, stop word, time
/// qualifier or request word, and three letters or more.
fn compound_word(w: &QWord) -> bool {
    !w.name
        && w.chunk.form.chars().count() >= 3
        && !has_digit(&w.chunk)
        && !crate::text::is_stopword(&w.chunk.form)
        && !is_time_qualifier(&w.stem)
        && !super::word_classes::is_request_word(&w.stem)
}

/// The reason a row states another compound than the request's `m h`, when it holds the word
/// at each of `held` (chunk positions) only inside another compound: `other(p)` gives that
/// compound's text, or `None` where the word stands on its own.
fn held_only_in_another_compound(
    q: &QueryShape,
    m: &QWord,
    h: &QWord,
    held: &[usize],
    other: impl Fn(usize) -> Option<String>,
) -> Option<String> {
    let first = *held.first()?;
    if !held.iter().all(|&p| other(p).is_some()) {
        return None;
    }
    Some(format!(
        "states {:?}, not {:?}",
        other(first).unwrap_or_default(),
        &q.text[m.chunk.span.start..h.chunk.span.end]
    ))
}

/// True if `w`, a word of `hint`, is a common noun that follows a name of `hint` with only white
/// space between, and `row` writes it right after the same name in the same way: "warehouse"
/// of "the Thessaloniki warehouse" in both. Not a verb form ("Kenta earns", "Ana lives").
pub(super) fn subject_noun(hint: &QueryShape, w: &QWord, row: &RowView<'_>) -> bool {
    let form = w.chunk.form.as_str();
    if w.chunk.capitalized || ["s", "ed", "ing"].iter().any(|x| form.ends_with(x)) {
        return false;
    }
    let Some(name) = hint.words.iter().find(|n| n.name && n.pos + 1 == w.pos) else {
        return false;
    };
    spaced(&hint.text, &name.chunk.span, &w.chunk.span)
        && row.chunks.windows(2).any(|pair| {
            word_matches(name, &pair[0])
                && word_matches(w, &pair[1])
                && spaced(row.text, &pair[0].span, &pair[1].span)
        })
}

/// Why `row` states another attribute than a two-word compound of `q` that it writes apart:
/// the query's modifier, then a word naming an attribute concept by name that no word of the
/// query names, then the head. "David's office email address" is his e-mail, not "the office
/// address" asked for; "home mobile phone" is still a home phone (the phone's concept is the
/// query's). A head naming only a kind of value ("number", "code") is no attribute of its own
/// ("work phone number" for "work number").
pub(super) fn interposed_head_contrast(q: &QueryShape, row: &RowView<'_>) -> Option<String> {
    let asked: Vec<&str> = q
        .words
        .iter()
        .flat_map(|w| w.concepts.iter().copied())
        .collect();
    for pair in q.words.windows(2) {
        let (m, h) = (&pair[0], &pair[1]);
        if m.pos + 1 != h.pos
            || !spaced(&q.text, &m.chunk.span, &h.chunk.span)
            || !compound_word(m)
            || !compound_word(h)
            || crate::lexicon::is_generic_head(&h.chunk.form)
        {
            continue;
        }
        for three in row.chunks.windows(3) {
            let (a, x, c) = (&three[0], &three[1], &three[2]);
            if !word_matches(m, a)
                || !word_matches(h, c)
                || !spaced(row.text, &a.span, &x.span)
                || !spaced(row.text, &x.span, &c.span)
            {
                continue;
            }
            let named: Vec<&str> = crate::concepts::concepts_named_exactly(
                &row.text[x.span.clone()],
                x.script,
                &x.form,
            )
            .into_iter()
            .filter(|k| crate::concepts::is_attribute(k))
            .collect();
            if !named.is_empty() && named.iter().all(|k| !asked.contains(k)) {
                return Some(format!(
                    "states {:?}, not {:?}",
                    &row.text[x.span.start..c.span.end],
                    &q.text[m.chunk.span.start..h.chunk.span.end]
                ));
            }
        }
    }
    None
}

/// True if white space, and nothing else, stands between byte ranges `a` and `b` of `text`.
fn spaced(text: &str, a: &std::ops::Range<usize>, b: &std::ops::Range<usize>) -> bool {
    a.end < b.start && text[a.end..b.start].chars().all(char::is_whitespace)
}
