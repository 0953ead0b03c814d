//! Closed word classes a request's parse reads: negations, fan-out words, the verbs that frame
//! a request, titles and kinship words, and the questions of truth built from them.

use crate::text;

/// Words that make a query negative ("does not drink", "is no longer", "never").
const NEGATIONS: &[&str] = &[
    "not", "never", "no", "nobody", "none", "cannot", "without", "dont", "doesnt", "didnt", "isnt",
    "arent", "wasnt", "werent", "wont", "cant", "hasnt", "havent", "hadnt", "shouldnt", "wouldnt",
    "couldnt", "neither", "nor",
];

/// Words that widen a query to everything about its subject ("everything about Hannah").
const FAN_OUT: &[&str] = &["everything", "all", "anything", "every", "any", "whatever"];

/// Words that frame a forgetting request rather than name what it is about ("please delete
/// ..."): they never count as evidence of the attribute a row must hold.
const REQUEST_WORDS: &[&str] = &[
    "please", "delete", "erase", "remove", "forget", "purge", "wipe", "scrub", "clear", "update",
    "change", "replace", "correct", "fix", "retract", "drop", "release",
];

/// True for a word that frames a request ("delete", "please") rather than describing a fact.
pub(crate) fn is_request_word(stem: &str) -> bool {
    REQUEST_WORDS.contains(&stem)
}

/// True if the fan-out word at `span` stands alone: not glued to another word by a hyphen,
/// apostrophe, slash or the like ("all-hands", "any-time" are words of their own).
pub(super) fn standalone(text: &str, span: &std::ops::Range<usize>) -> bool {
    let glue = |c: char| !c.is_whitespace() && !"()[]{},;:!?\"“”«»".contains(c);
    let before = text[..span.start].chars().next_back();
    let after = text[span.end..].chars().next();
    // A sentence-final period or comma after the word is punctuation, not glue.
    let after_glued = after.is_some_and(|c| {
        glue(c)
            && !(c == '.'
                && text[span.end + 1..]
                    .chars()
                    .next()
                    .is_none_or(char::is_whitespace))
    });
    !before.is_some_and(glue) && !after_glued
}

/// Honorifics and generic titles that are capitalized but name nobody.
const TITLES: &[&str] = &[
    "mr", "mrs", "ms", "dr", "prof", "sir", "miss", "madam", "mx",
];

/// True for an honorific or title ("mr", "dr").
pub(crate) fn is_title(form: &str) -> bool {
    TITLES.contains(&form)
}

/// Kinship words that stand before a name as a title does ("Grandpa Boris", "Дедушка
/// Борис", "θεία Ρένα"), in English and in the languages of the cased scripts, lowercase as
/// written.
const KINSHIP: &[&str] = &[
    "grandpa",
    "grandma",
    "granny",
    "grandad",
    "granddad",
    "grandfather",
    "grandmother",
    "nana",
    "nan",
    "aunt",
    "auntie",
    "aunty",
    "uncle",
    "cousin",
    "mum",
    "mom",
    "dad",
    "papa",
    "mama",
    "дедушка",
    "дед",
    "бабушка",
    "баба",
    "тётя",
    "тетя",
    "дядя",
    "дідусь",
    "дід",
    "бабуся",
    "баба",
    "тітка",
    "дядько",
    "παππούς",
    "παππου",
    "γιαγιά",
    "γιαγιας",
    "θεία",
    "θείος",
    "θείου",
    "θείας",
    "ξάδερφος",
    "ξαδέρφη",
];

/// True for a kinship word written before a name ([`KINSHIP`]); `written` is the word as the
/// text writes it.
pub(crate) fn is_kinship(written: &str) -> bool {
    KINSHIP.contains(&written.to_lowercase().as_str())
}

/// True for a negation word ("not", "never", "doesnt").
pub(crate) fn is_negation(form: &str) -> bool {
    NEGATIONS.contains(&form)
}

/// True for a word that widens a request to everything about its subject ("everything").
pub(crate) fn is_fan_out(form: &str) -> bool {
    FAN_OUT.contains(&form)
}

/// "Everything" in Spanish, French, German, Portuguese and Italian (folded).
const FOREIGN_EVERYTHING: &[&str] = &[
    "todo", "toda", "todos", "todas", "tout", "toute", "tous", "toutes", "alles", "tudo", "tutto",
    "tutti",
];

/// "About" after it: "todo sobre Ana", "tout ce qui concerne Mei", "alles über Jonas", "tudo
/// sobre", "tutto su".
const FOREIGN_ABOUT: &[&str] = &[
    "sobre",
    "acerca",
    "concerne",
    "concernant",
    "sur",
    "uber",
    "ueber",
    "su",
    "riguarda",
];

/// True if chunk `i` of `chunks` is "everything" in another language followed, within three
/// words, by a word for "about" ("borra todo sobre Anna", "supprime tout ce qui concerne Mei",
/// "lösche alles über Jonas"): a request about everything of its subject, as "everything
/// about" is. The quantifier alone is no such request ("borra todos los teléfonos de Ana"
/// asks for her phones).
pub(crate) fn foreign_fan_out(chunks: &[crate::canon::Chunk], i: usize) -> bool {
    if !FOREIGN_EVERYTHING.contains(&chunks[i].form.as_str()) {
        return false;
    }
    let Some(about) = (i + 1..chunks.len().min(i + 4))
        .find(|&j| FOREIGN_ABOUT.contains(&chunks[j].form.as_str()))
    else {
        return false;
    };
    // The subject follows, after grammar words only: "todo sobre el teléfono de Ana" asks
    // about her phone.
    chunks[about + 1..]
        .iter()
        .find(|c| !crate::latin_function_words::is_function_word(&c.form))
        .is_some_and(|c| c.capitalized)
}

/// True if `text` asks whether something holds instead of stating it: "whether", "or not", a
/// "status" ("smoking status", "visa status"), or a Chinese A-not-A question (能不能, 有没有,
/// 是不是). Such a request fits a row of either polarity: "whether Ahmed has a credit card" is
/// about "Ahmed does not have a credit card" as much as about "Ahmed has one".
pub(crate) fn asks_about_truth(text: &str) -> bool {
    let tokens = text::tokens(text);
    if tokens
        .iter()
        .any(|t| t == "whether" || t == "status" || t == "statuses")
        || tokens.windows(2).any(|w| w[0] == "or" && w[1] == "not")
    {
        return true;
    }
    let chars: Vec<char> = text.chars().collect();
    chars.windows(3).any(|w| {
        w[0] == w[2]
            && matches!(w[1], '不' | '没' | '沒')
            && ('\u{4e00}'..='\u{9fff}').contains(&w[0])
    })
}

/// True if `text` states something negatively.
pub(crate) fn is_negated(text: &str) -> bool {
    text::tokens(text)
        .iter()
        .any(|t| NEGATIONS.contains(&t.as_str()))
}

/// Words that mark a restated value as new, not part of the attribute ("new home address",
/// "Noa's details changed").
const RESTATING: &[&str] = &["new", "current", "now", "updated", "latest", "changed"];

/// True for a word that marks a value as restated ("new", "changed"), naming no attribute.
pub(crate) fn marks_restatement(stem: &str) -> bool {
    RESTATING.contains(&stem)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negation_is_detected() {
        assert!(is_negated("Omar does not drink coffee"));
        assert!(is_negated("Leah isn't allergic"));
        assert!(!is_negated("Leah is allergic to penicillin"));
    }

    #[test]
    fn a_fan_out_word_glued_to_another_is_not_standalone() {
        let text = "the all-hands notes and all of it.";
        let at = |w: &str, nth: usize| {
            let start = text
                .match_indices(w)
                .nth(nth)
                .map(|(i, _)| i)
                .unwrap_or_default();
            start..start + w.len()
        };
        assert!(!standalone(text, &at("all", 0)));
        assert!(standalone(text, &at("all", 1)));
        assert!(standalone("erase it all.", &(9..12)));
    }
}
