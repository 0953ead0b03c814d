//! Request framing: which part of a forgetting request describes its target, and which part is
//! commentary about it.
//!
//! People rarely ask for an erasure in a bare noun phrase. They add why ("the sulfa allergy
//! listed for Rania Aziz, it was entered by mistake"), lead with what happened ("We changed the
//! locks, so please erase the old front door code"), and name the thing through the store
//! itself ("the entry saying ...", "Ahmad's smoking status", "the note about ..."). Counting
//! every one of those words as evidence the targeted row must hold makes the right row miss the
//! coverage threshold. This module splits a request into clause segments and marks:
//!
//! - **commentary**: a segment after a clause break (`,` `;` `—` `–` ` - ` or a sentence end,
//!   and their CJK and Arabic forms) that opens with a subject pronoun (of English or another
//!   common language: "she moved", "她已经离职了", "він уже випустився") or a conjunction
//!   ("because", "so ..."), or, after a strong break, with a possessive ("; her test came back
//!   negative"), unless it is itself a request with content ("so please erase the old door
//!   code"); a leading segment without a request verb when a later one has a request with
//!   content ("We changed the locks, so please erase ...");
//! - **bare requests**: a later segment that only asks ("..., please delete it", "把这条记录删掉",
//!   "приберіть його"), with nothing but request words, grammar, pronouns and words naming the
//!   record, in any language, and no word that widens the request ("delete all of her data");
//! - **reference words**: words that name the stored record rather than the fact ("entry",
//!   "note", "record", "status", "details", "saying", "listed"). They are optional evidence: a
//!   row holding one ("Gold status") counts it, a row without one is not missing anything.
//!
//! Both only ever *remove* evidence from a request that still describes its target on its own:
//! commentary is set aside only when the description holds an attribute word, an identifier or
//! "everything"; reference words become optional only when another attribute word remains. A request whose
//! only content is commentary or reference words keeps every word, so it can never widen to
//! "everything about" its subject. Names in commentary are set aside only when the description
//! names a subject or an identifier itself. Identifiers are never set aside. Negation and
//! "everything" are read from the description alone ("the booking, she cancelled all of it" is
//! not a request for everything).

use crate::canon::{self, Chunk};
use crate::index::keys::has_digit;
use crate::text;

/// Subject pronouns: a clause they open after a clause break is commentary ("she asked us to
/// delete it", "it was entered by mistake"). Possessive determiners ("her old one") continue
/// the description and are not here; demonstratives count only before an auxiliary (see
/// [`DEMONSTRATIVES`]).
const PRONOUNS: &[&str] = &[
    "he", "she", "they", "it", "we", "i", "you", "nobody", "someone", "somebody", "everyone",
    "there",
];

/// Subject pronouns of other languages, in the form a chunk has after folding (lowercase, no
/// diacritics; Han one character per chunk): French, Spanish, Portuguese, Italian, German,
/// Dutch, Russian, Ukrainian, Greek, Arabic, Hebrew, Chinese, Japanese. A request written in
/// those languages frames its commentary the same way ("黄丽的代发工资单位，她已经离职了").
const OTHER_PRONOUNS: &[&str] = &[
    // French, Spanish, Portuguese, Italian.
    "il",
    "elle",
    "ils",
    "elles",
    "nous",
    "on",
    "el",
    "ella",
    "ellos",
    "ellas",
    "nosotros",
    "ele",
    "eles",
    "elas",
    "nos",
    "lui",
    "lei",
    "loro",
    "noi",
    // German, Dutch.
    "er",
    "sie",
    "wir",
    "hij",
    "zij",
    "ze",
    // Russian, Ukrainian.
    "он",
    "она",
    "оно",
    "они",
    "мы",
    "я",
    "він",
    "вона",
    "воно",
    "вони",
    "ми",
    // Greek.
    "αυτος",
    "αυτη",
    "αυτο",
    "αυτοι",
    "εμεις",
    // Arabic, Hebrew.
    "هو",
    "هي",
    "هم",
    "نحن",
    "הוא",
    "היא",
    "הם",
    "הן",
    "אנחנו",
    // Chinese, Japanese (one character per chunk).
    "他",
    "她",
    "它",
    "我",
    "彼",
];

/// Possessive determiners: after a strong break (`;`, a dash, a sentence end) they open a
/// clause of commentary ("Shira's latex allergy; her patch test came back negative"); after a
/// comma they continue the description ("Anna's phone number, her old one").
const POSSESSIVES: &[&str] = &["her", "his", "their", "our", "my", "its"];

/// Conjunctions: a clause they open after a clause break is commentary ("because ...", "so
/// ..."), unless it is itself a request with content ("so please erase the old door code").
const CONJUNCTIONS: &[&str] = &[
    "because", "since", "so", "but", "which", "who", "as", "though", "although",
];

/// Demonstratives: they open commentary only when an auxiliary follows within two words ("that
/// number is out of service", "this was wrong"), not as determiners ("that one from 2019").
const DEMONSTRATIVES: &[&str] = &["that", "this", "those", "these"];

/// Auxiliaries (and the contracted forms' chunks) that make a demonstrative a subject.
const AUXILIARIES: &[&str] = &[
    "is", "was", "are", "were", "has", "had", "have", "s", "will", "would", "ll", "d", "isn",
    "wasn", "won", "can", "could", "should", "must", "might", "may", "got", "needs", "need",
];

/// True for an auxiliary or modal verb ([`AUXILIARIES`]).
pub(crate) fn is_auxiliary(form: &str) -> bool {
    AUXILIARIES.contains(&form)
}

/// Determiners that open a noun phrase: after a clause break, a segment opened by one (or by a
/// name) and stating something of its own is commentary ([`states_a_fact`]).
const DETERMINERS: &[&str] = &["the", "a", "an", "our", "my", "their", "his", "her", "its"];

/// Finite verbs that make a segment a statement of its own ("the skin test was negative",
/// "Lena has cancelled the Osaka stay"). Not the contracted `'s` and `'d` (a possessive, a
/// past participle), not the modals that are also nouns or names ("may", "will" as a noun
/// is rare but "May" is a month).
const FINITE_AUXILIARIES: &[&str] = &[
    "is", "was", "are", "were", "has", "had", "have", "got", "gets", "did", "does", "isn", "wasn",
    "didn", "doesn", "hasn", "hadn", "weren", "aren", "came", "turned", "showed", "shows",
];

/// Words that tie a segment back to the description: "the one she had at Acme" and "the card
/// which was blocked" continue it (an anaphoric head or a relative clause).
const CONTINUERS: &[&str] = &[
    "one", "ones", "that", "which", "who", "whose", "where", "when", "from", "before", "after",
    "until", "since",
];

/// Object pronouns after a past-tense verb: "the Mizrahi group called it off", "Priya closed
/// it".
const OBJECT_PRONOUNS: &[&str] = &["it", "them", "him", "her", "us", "me"];

/// True if the segment `seg` (not the first) is a statement of its own about the target rather
/// than a continuation of the description: it opens with a determiner or a name, holds a finite
/// verb within its first five words ("the new allergy test showed it was a mistake", "the skin
/// test was negative", "Lena has cancelled the Osaka stay", "the Mizrahi group called it off"),
/// and holds no request verb and no word that ties it back to the description ("the one she
/// had at Acme", "the card which was blocked").
fn states_a_fact(seg: &[Chunk]) -> bool {
    let Some(first) = seg.first() else {
        return false;
    };
    let opens_phrase = DETERMINERS.contains(&first.form.as_str())
        || (first.capitalized && !super::word_classes::is_title(&first.form));
    if seg.len() < 3
        || !opens_phrase
        || seg
            .iter()
            .any(|c| is_request(&c.form) || CONTINUERS.contains(&c.form.as_str()) || has_digit(c))
    {
        return false;
    }
    seg.iter().enumerate().skip(1).take(5).any(|(k, c)| {
        FINITE_AUXILIARIES.contains(&c.form.as_str())
            || (c.form.ends_with("ed")
                && c.form.chars().count() > 4
                && seg
                    .get(k + 1)
                    .is_some_and(|n| OBJECT_PRONOUNS.contains(&n.form.as_str())))
    })
}

/// Words that name a stored record rather than the fact it holds.
const REFERENCE_WORDS: &[&str] = &[
    "entry",
    "entries",
    "note",
    "notes",
    "record",
    "records",
    "status",
    "detail",
    "details",
    "info",
    "information",
    "data",
    "memory",
    "memories",
    "mention",
    "mentions",
    "saying",
    "says",
    "said",
    "stating",
    "states",
    "stated",
    "listed",
    "logged",
    "recorded",
    "stored",
    "saved",
    "noted",
    "entered",
    "filed",
];

/// Request verbs (shared with the query parser's list).
fn is_request(form: &str) -> bool {
    super::word_classes::is_request_word(form)
}

/// True for a word that names a stored record ("entry", "note", "status").
pub(crate) fn is_reference_word(form: &str) -> bool {
    REFERENCE_WORDS.contains(&form)
}

/// What the framing found, per chunk of the request.
#[derive(Clone, Debug, Default)]
pub(crate) struct Framing {
    /// True for chunks in commentary segments.
    pub commentary: Vec<bool>,
    /// True if commentary words are set aside (the description stands on its own).
    pub drop_commentary: bool,
    /// True if commentary names are set aside too (the description names a subject or holds
    /// an identifier).
    pub drop_commentary_names: bool,
    /// True if reference words are set aside (the description keeps another attribute word).
    pub drop_reference_words: bool,
}

impl Framing {
    /// True if the chunk at `pos` is set aside as commentary.
    pub fn set_aside(&self, pos: usize, chunk: &Chunk) -> bool {
        if !self.drop_commentary || !self.commentary.get(pos).copied().unwrap_or(false) {
            return false;
        }
        if has_digit(chunk) {
            return false;
        }
        !written_as_name(chunk) || self.drop_commentary_names
    }

    /// True if the chunk at `pos` belongs to the description (or nothing is set aside).
    pub fn in_description(&self, pos: usize) -> bool {
        !self.drop_commentary || !self.commentary.get(pos).copied().unwrap_or(false)
    }

    /// The text of the description: the original text of each run of description chunks,
    /// joined by spaces (the whole text when nothing is set aside).
    pub fn description_text(&self, text: &str, chunks: &[Chunk]) -> String {
        if !self.drop_commentary {
            return text.to_owned();
        }
        let mut out = String::new();
        let mut i = 0;
        while i < chunks.len() {
            if !self.in_description(i) {
                i += 1;
                continue;
            }
            let start = i;
            while i < chunks.len() && self.in_description(i) {
                i += 1;
            }
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(&text[chunks[start].span.start..chunks[i - 1].span.end]);
        }
        out
    }
}

/// How strongly the text between two chunks breaks a clause.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Break {
    /// No break.
    None,
    /// A comma (Latin, CJK, Arabic or Ethiopic).
    Comma,
    /// A semicolon, a dash, or a sentence end.
    Strong,
}

/// The clause break between two chunks. The punctuation of the scripts a request may be
/// written in counts as it does in English: the Arabic comma, semicolon and question mark, the
/// CJK comma and full stop, the Ethiopic comma and full stop (፣ ።), the Devanagari danda (।) and
/// the Urdu full stop (۔).
fn clause_break(text: &str, prev: &Chunk, next: &Chunk) -> Break {
    let between = &text[prev.span.end..next.span.start];
    if between.contains([
        ';', '；', '؛', '—', '–', '!', '?', '！', '？', '。', '።', '।', '۔', '؟',
    ]) || between.contains(" - ")
    {
        return Break::Strong;
    }
    if between.contains([',', '，', '،', '፣']) {
        return Break::Comma;
    }
    // A period ends a sentence when white space follows it and it does not close a title or an
    // initial ("Dr. Katz", "J. Smith").
    if between.contains(". ")
        && prev.form.chars().count() > 1
        && !super::word_classes::is_title(&prev.form)
    {
        Break::Strong
    } else {
        Break::None
    }
}

/// True if chunk `c` of `text` is a subject pronoun of English or another common language
/// (other scripts compared on the folded original, not on the transliterated form).
fn is_pronoun(text: &str, c: &Chunk) -> bool {
    PRONOUNS.contains(&c.form.as_str())
        || OTHER_PRONOUNS.contains(&c.form.as_str())
        || OTHER_PRONOUNS.contains(&canon::fold(&text[c.span.clone()]).as_str())
}

/// True for a word written in capitals only ("ID", "IBAN", "PIN") that the relation lexicon
/// knows as an attribute or a kind of value, not as a name.
pub(crate) fn attribute_acronym(text: &str, c: &Chunk) -> bool {
    let w = &text[c.span.clone()];
    w.chars().filter(|ch| ch.is_alphabetic()).count() >= 2
        && w.chars().all(|ch| !ch.is_alphabetic() || ch.is_uppercase())
        && (crate::lexicon::is_generic_head(&c.form) || !crate::lexicon::slots(&c.form).is_empty())
}

/// True if the chunk is written as a name: capitalized in a cased script (Latin, Cyrillic,
/// Greek), or any word of a caseless one.
fn written_as_name(c: &Chunk) -> bool {
    c.capitalized || !super::names::cased(c.script)
}

/// Adverbs that say how or when to carry a request out ("so please delete it completely",
/// "erase it permanently"): they describe the deletion, not its target.
const REQUEST_MANNER: &[&str] = &[
    "completely",
    "entirely",
    "fully",
    "totally",
    "permanently",
    "forever",
    "immediately",
    "asap",
    "promptly",
    "kindly",
    "thanks",
    "thank",
];

/// True if a chunk of content: a word that is not a stopword, a request or reference word, a
/// manner adverb of the request, a negation, an opener or the pro-form "one" ("forget that
/// one"); or a digit-bearing chunk.
fn content(text: &str, c: &Chunk) -> bool {
    has_digit(c)
        || !(text::is_stopword(&c.form)
            || is_request(&c.form)
            || REQUEST_MANNER.contains(&c.form.as_str())
            || is_reference_word(&c.form)
            || is_pronoun(text, c)
            || CONJUNCTIONS.contains(&c.form.as_str())
            || DEMONSTRATIVES.contains(&c.form.as_str())
            || matches!(c.form.as_str(), "one" | "ones")
            || super::word_classes::is_negation(&c.form)
            || super::word_classes::is_title(&c.form)
            || c.form.chars().count() < 2)
}

/// How a clause segment opens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Opens {
    /// The first segment, or one continuing the description.
    Description,
    /// A subject pronoun (or a demonstrative before an auxiliary): commentary.
    Pronoun,
    /// A conjunction: commentary unless it is a request with content.
    Conjunction,
    /// A statement of its own ([`states_a_fact`]): commentary.
    Statement,
    /// A request that describes nothing ([`asks_without_describing`]): commentary.
    BareRequest,
}

/// True if the segment `seg` (not the first) asks without describing: it holds a request word
/// and nothing else but grammar, pronouns and words naming the record, in English or another
/// language ("delete it", "please erase that one", "请删除", "把这条记录删掉", "приберіть його",
/// "ይሰረዝ"). Its words are no evidence a row must hold; the segments before it describe the
/// target ("Li Wei's parking space was given back, please delete it"). A segment that widens
/// the request ("delete all of her data") describes its scope and is not bare.
fn asks_without_describing(text: &str, seg: &[Chunk], grammar: &[std::ops::Range<usize>]) -> bool {
    let latin = |c: &Chunk| c.script == canon::Script::Latin;
    let foreign_function_word = |c: &Chunk| {
        if latin(c) {
            crate::latin_function_words::is_function_word(&c.form)
        } else {
            crate::function_words::covers(grammar, c)
        }
    };
    seg.iter()
        .any(|c| is_request(&c.form) || foreign_function_word(c))
        && seg.iter().all(|c| {
            !has_digit(c)
                && !super::word_classes::is_fan_out(&c.form)
                && (!content(text, c) || foreign_function_word(c) || is_pronoun(text, c))
        })
}

/// Frames the request whose chunks are `chunks`.
pub(crate) fn frame(text: &str, chunks: &[Chunk]) -> Framing {
    if chunks.is_empty() {
        return Framing::default();
    }
    // Segments: (first chunk, end chunk, how it opens).
    let grammar = crate::function_words::spans(text, chunks);
    let mut segments: Vec<(usize, usize, Opens)> = Vec::new();
    let mut start = 0;
    // The break before the segment that starts at `start`.
    let mut opened_by = Break::None;
    for i in 1..=chunks.len() {
        let brk = if i == chunks.len() {
            Break::Strong
        } else {
            clause_break(text, &chunks[i - 1], &chunks[i])
        };
        if brk != Break::None {
            let first = chunks[start].form.as_str();
            let next = chunks.get(start + 1).map(|n| n.form.as_str());
            let opens = if start == 0 {
                Opens::Description
            } else if is_pronoun(text, &chunks[start])
                || opened_by == Break::Strong && POSSESSIVES.contains(&first)
                || DEMONSTRATIVES.contains(&first)
                    && chunks[start + 1..i.min(start + 3)]
                        .iter()
                        .any(|n| AUXILIARIES.contains(&n.form.as_str()))
            {
                Opens::Pronoun
            } else if states_a_fact(&chunks[start..i]) {
                Opens::Statement
            } else if asks_without_describing(text, &chunks[start..i], &grammar) {
                Opens::BareRequest
            } else if CONJUNCTIONS.contains(&first)
                && !(first == "as" && matches!(next, Some("of" | "well")))
            {
                Opens::Conjunction
            } else {
                Opens::Description
            };
            segments.push((start, i, opens));
            start = i;
            opened_by = brk;
        }
    }
    let requests_with_content: Vec<bool> = segments
        .iter()
        .map(|&(a, b, opens)| {
            !matches!(
                opens,
                Opens::Pronoun | Opens::Statement | Opens::BareRequest
            ) && chunks[a..b].iter().any(|c| is_request(&c.form))
                && chunks[a..b]
                    .iter()
                    .any(|c| content(text, c) && !written_as_name(c))
        })
        .collect();
    let description: Vec<bool> = if requests_with_content.iter().any(|&r| r) {
        requests_with_content
    } else {
        segments.iter().map(|s| s.2 == Opens::Description).collect()
    };
    let mut commentary = vec![false; chunks.len()];
    for (&(a, b, _), &d) in segments.iter().zip(&description) {
        if !d {
            commentary[a..b].iter_mut().for_each(|c| *c = true);
        }
    }
    let desc = || {
        chunks
            .iter()
            .enumerate()
            .filter(|(i, _)| !commentary[*i])
            .map(|(_, c)| c)
    };
    // In a caseless script every word may be a name; a description of five syllables or more
    // says more than a name (names there take two to four).
    let caseless = desc()
        .filter(|c| content(text, c) && !super::names::cased(c.script))
        .count();
    let attribute_words = desc()
        .filter(|c| content(text, c) && !written_as_name(c) && !has_digit(c))
        .count()
        + usize::from(caseless >= 5);
    let identifiers = desc().any(has_digit);
    // An acronym that names an attribute or a kind of value ("her old tax ID", "his IBAN") is
    // no subject: a description naming no one else does not name the subject the commentary
    // names ("We no longer employ Olena, so remove her employee ID").
    let names =
        desc().any(|c| written_as_name(c) && content(text, c) && !attribute_acronym(text, c));
    let fan_out = desc().any(|c| super::word_classes::is_fan_out(&c.form));
    Framing {
        drop_commentary: commentary.iter().any(|&c| c)
            && (attribute_words > 0 || identifiers || fan_out),
        drop_commentary_names: names || identifiers,
        drop_reference_words: attribute_words > 0,
        commentary,
    }
}

#[cfg(test)]
mod tests;
