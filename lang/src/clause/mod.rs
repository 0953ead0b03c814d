//! Clauses: the parts of a row that state one thing each, and how to rewrite a row without some
//! of them.
//!
//! A row such as "Tom's bank PIN is 4821 and his locker number is 17." states two facts. A purge
//! of the PIN must erase the first and keep the second; a supersede of where Lena lives must
//! replace "lives in Hamburg" in "Lena lives in Hamburg and works at Airbus." and keep "works at
//! Airbus". This module finds the clauses of a text deterministically, without a parser:
//!
//! - sentences end at `.`, `!` or `?` followed by white space (not after a known abbreviation
//!   such as "Mr." or "no.", and not inside a number such as "9.5");
//! - inside a sentence, `;` always separates clauses; `, and`, `and`, `, but`, `but`, `while`,
//!   `whereas`, `plus` and a bare `,` separate clauses only when both sides hold at least two
//!   words and the right side reads as a clause (it has a verb marker, an identifier, or starts
//!   with a pronoun); a sentence's leading adverbial without a verb ("Until May 2022, ...") is
//!   no clause of its own. "Salt and pepper", "hiking and cycling" stay whole;
//! - the "and" and "but" of other languages split when three words stand before them and two
//!   after (`Split::Foreign`), and Chinese and Japanese sentences end at `。！？` and split at
//!   `，` between sides of four letters or more, but not after a leading time adverbial
//!   ("2023年3月起，...");
//! - the "and" Hebrew and Arabic write onto the next word (ו, و) splits between two values,
//!   each side with a digit ("... הרצל 15 בתל אביב ומספר הטלפון שלה 054-...").
//!
//! Each clause carries the subject of its sentence (a leading run of capitalized words, with
//! its possessive), so that "his locker number is 17" is known to be about Tom. When clauses are
//! removed, [`rewrite_without`] re-attaches that subject to the first kept clause: "Tom's locker
//! number is 17.", "Lena works at Airbus.".

use std::ops::Range;

/// One clause of a text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clause {
    /// Byte range of the clause in the text, without its leading conjunction and separators.
    pub span: Range<usize>,
    /// Index of the sentence the clause belongs to.
    pub sentence: usize,
    /// The subject of the sentence ("Tom", "Lena Park"), when it starts with one.
    pub subject: Option<Subject>,
    /// Byte range of the sentence's topic: the words before its first verb ("The server
    /// hostname" in "The server hostname is atlas-01 and its IP is 10.4.2.17"). Words there
    /// say what the sentence is about, not which clause a query means.
    pub topic: Range<usize>,
}

/// The subject a sentence starts with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subject {
    /// The name as written ("Tom", "Lena Park").
    pub name: String,
    /// True if the sentence starts with the possessive ("Tom's ...").
    pub possessive: bool,
    /// The verb right after a non-possessive subject ("has" in "Kai has badge B-40112"), lent
    /// to a kept clause that has none of its own.
    pub verb: Option<String>,
    /// True if the subject is a name (capitalized words); false for a topic phrase such as
    /// "The user", which pronouns do not stand for.
    pub named: bool,
}

/// Abbreviations after which a period does not end a sentence.
const ABBREVIATIONS: &[&str] = &[
    "mr", "mrs", "ms", "dr", "prof", "st", "no", "nr", "vs", "etc", "e.g", "i.e", "jr", "sr",
    "inc", "ltd", "co", "corp", "approx", "dept", "fig", "mt", "ave", "rd",
];

/// Words that mark the start of a clause when they follow a conjunction.
const PRONOUNS: &[&str] = &[
    "he", "she", "they", "it", "his", "her", "their", "its", "we", "our", "i", "my", "you", "your",
];

/// Personal and possessive pronouns of other languages written with letter case (Russian,
/// Ukrainian, Polish, German, French, Spanish, Portuguese, Italian), lowercase: after a comma
/// they open a clause as "her" does ("Лена учится в 5 «Б» классе, её классный руководитель —
/// ..."). Not the forms that are also English words ("on", "son", "o").
const OTHER_PRONOUNS: &[&str] = &[
    "он", "она", "они", "его", "её", "ее", "их", "він", "вона", "вони", "його", "її", "їх", "ona",
    "oni", "jego", "jej", "er", "sie", "sein", "seine", "ihr", "ihre", "il", "elle", "ils",
    "elles", "sa", "ses", "leur", "él", "ella", "ellos", "su", "sus", "ele", "ela", "seu", "sua",
    "lui", "lei", "suo",
];

/// True for a pronoun that may open a clause after a comma, in English or another cased
/// language.
fn opens_with_pronoun(w: &str) -> bool {
    let w = lower(w);
    PRONOUNS.contains(&w.as_str()) || OTHER_PRONOUNS.contains(&w.as_str())
}

/// Verbs and auxiliaries that show that a span is a clause and not a noun phrase.
const VERB_MARKERS: &[&str] = &[
    "is", "are", "was", "were", "be", "been", "has", "have", "had", "will", "would", "can",
    "could", "does", "did", "do", "should", "must", "may", "might", "isn't", "aren't", "wasn't",
    "doesn't", "didn't", "won't", "can't", "hasn't", "haven't", "owns", "uses", "prefers", "likes",
    "lives", "works", "drives", "moved", "joined", "left", "keeps", "holds", "needs", "wants",
    "takes", "goes", "runs", "plays", "speaks", "studies", "teaches", "leads", "manages",
    "reports", "belongs", "costs", "pays", "earns", "owes", "ends", "starts",
];

/// Words the rewrite never treats as a verb to re-attach a subject to.
const DETERMINERS: &[&str] = &["the", "a", "an", "this", "that", "these", "those", "some"];

/// Honorifics that may open a subject ("Mr. Lau").
const HONORIFICS: &[&str] = &["mr", "mrs", "ms", "dr", "prof", "sir", "madam", "miss"];

/// True for a personal or possessive pronoun ("his", "she").
pub fn is_pronoun(word: &str) -> bool {
    PRONOUNS.contains(&word)
}

fn words(s: &str) -> impl Iterator<Item = &str> {
    s.split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’' || c == '-'))
        .filter(|w| !w.is_empty())
}

fn lower(w: &str) -> String {
    w.to_lowercase().replace('’', "'")
}

/// True if `s` reads as a clause: a verb marker, a word ending like a verb after a name, a
/// digit, or a leading pronoun.
fn reads_as_clause(s: &str) -> bool {
    let ws: Vec<String> = words(s).map(lower).collect();
    if ws.len() < 2 {
        return false;
    }
    if opens_with_pronoun(&ws[0]) {
        return true;
    }
    ws.iter().any(|w| {
        VERB_MARKERS.contains(&w.as_str())
            || w.ends_with("n't")
            || w.chars().any(|c| c.is_ascii_digit())
    }) || (ws[0].ends_with('s') && ws[0].len() > 3 && !DETERMINERS.contains(&ws[0].as_str()))
}

/// True if `s` holds a verb: a marker, or a first word inflected like one ("works", "moved").
fn has_verb(s: &str) -> bool {
    let ws: Vec<String> = words(s).map(lower).collect();
    let Some(first) = ws.first() else {
        return false;
    };
    ws.iter()
        .any(|w| VERB_MARKERS.contains(&w.as_str()) || w.ends_with("n't"))
        || (first.len() > 3
            && (first.ends_with('s') || first.ends_with("ed"))
            && !first.ends_with("ss")
            && !DETERMINERS.contains(&first.as_str()))
}

/// How many honorific words open `sentence`.
fn honorifics_before(sentence: &str) -> usize {
    words(sentence)
        .take_while(|w| HONORIFICS.contains(&lower(w).trim_end_matches('.')))
        .count()
}

/// Byte ranges of the sentences of `text`.
fn sentences(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    for (i, &(pos, c)) in chars.iter().enumerate() {
        // The full-width stops of Chinese and Japanese end a sentence without a space after.
        let full_width = matches!(c, '。' | '！' | '？');
        if !matches!(c, '.' | '!' | '?') && !full_width {
            continue;
        }
        let next_is_space = chars.get(i + 1).is_none_or(|(_, n)| n.is_whitespace());
        if !next_is_space && !full_width {
            continue;
        }
        if c == '.' {
            let before = &text[start..pos];
            let last = before
                .rsplit(|ch: char| ch.is_whitespace() || ch == '(')
                .next()
                .unwrap_or("");
            let last = lower(last.trim_start_matches(|ch: char| !ch.is_alphanumeric()));
            if ABBREVIATIONS.contains(&last.as_str())
                || (last.chars().count() == 1 && last.chars().all(char::is_alphabetic))
            {
                continue;
            }
            // "at 8:30 a.m. and Elif at 1:00 p.m.": after a clock time's a.m. or p.m. the
            // sentence goes on when the next word is not capitalized.
            let next_lower = text[pos + 1..]
                .trim_start()
                .chars()
                .next()
                .is_some_and(char::is_lowercase);
            if matches!(last.as_str(), "a.m" | "p.m") && next_lower {
                continue;
            }
        }
        let end = pos + c.len_utf8();
        if text[start..end].trim().is_empty() {
            start = end;
            continue;
        }
        out.push(start..end);
        start = end;
    }
    if !text[start..].trim().is_empty() {
        out.push(start..text.len());
    }
    out
}

/// The subject a sentence starts with: a run of capitalized words (after an optional
/// honorific), with its possessive.
fn subject_of(sentence: &str) -> Option<Subject> {
    // A script without letter case shows no name by its capitals: every word would read as
    // one ("刘洋的笔记本电脑是联想 T14，他的停车位是 B2-117" as a single subject). Such a
    // sentence has no subject here; query targeting reads the names it starts with from the
    // query instead.
    let first = words(sentence)
        .next()
        .and_then(|w| w.chars().find(|c| c.is_alphabetic()));
    if first.is_some_and(|c| !c.is_uppercase() && !c.is_lowercase()) {
        return None;
    }
    let mut name: Vec<&str> = Vec::new();
    let mut possessive = false;
    let mut verb = None;
    for w in words(sentence) {
        let first = w.chars().next()?;
        let lw = lower(w);
        let bare = lw.trim_end_matches(".");
        if name.is_empty() && HONORIFICS.contains(&bare) {
            continue;
        }
        let caseless = !first.is_lowercase() && !first.is_uppercase() && first.is_alphabetic();
        if !(first.is_uppercase() || caseless) {
            break;
        }
        if name.is_empty() && DETERMINERS.contains(&lw.as_str()) {
            break;
        }
        if let Some(stem) = w.strip_suffix("'s").or_else(|| w.strip_suffix("’s")) {
            name.push(stem);
            possessive = true;
            break;
        }
        name.push(w);
    }
    if name.is_empty() {
        // No name: the topic phrase and its verb ("The user prefers ...") still serve to give a
        // verbless kept clause its head back.
        let ws: Vec<&str> = words(sentence).collect();
        let v = ws.iter().position(|w| is_verb_word(w))?;
        if v == 0 || v > 5 {
            return None;
        }
        let topic = ws[..v].join(" ");
        return Some(Subject {
            name: topic,
            possessive: false,
            verb: Some(ws[v].to_owned()),
            named: false,
        });
    }
    if !possessive {
        // The word after the name, when it is one the loop stopped on.
        let after = words(sentence).nth(name.len() + honorifics_before(sentence));
        verb = after.filter(|w| has_verb(w)).map(str::to_owned);
    }
    Some(Subject {
        name: name.join(" "),
        possessive,
        verb,
        named: true,
    })
}

/// True if one word reads as a verb: a marker, or inflected like one and not a determiner.
fn is_verb_word(w: &str) -> bool {
    let lw = lower(w);
    VERB_MARKERS.contains(&lw.as_str())
        || lw.ends_with("n't")
        || (lw.len() > 3
            && (lw.ends_with("es")
                || lw.ends_with("ed")
                || lw.ends_with("ts")
                || lw.ends_with("ks"))
            && !lw.ends_with("ss")
            && w.chars().next().is_some_and(char::is_lowercase))
}

/// Byte range (within `sentence`) of the words before its first verb, at most six words.
fn topic_of(sentence: &str) -> Range<usize> {
    let mut end = 0;
    let mut pos = 0;
    for (count, w) in words(sentence).enumerate() {
        let at = sentence[pos..].find(w).map_or(pos, |i| pos + i);
        pos = at + w.len();
        if is_verb_word(w) || count >= 6 {
            break;
        }
        end = pos;
    }
    0..end
}

/// Prepositions that open a sentence's framing adverbial ("Until May 2022, ...").
const ADVERBIAL_OPENERS: &[&str] = &[
    "until",
    "till",
    "since",
    "from",
    "as",
    "before",
    "after",
    "in",
    "on",
    "during",
    "by",
    "starting",
    "effective",
    "for",
    "at",
    "between",
];

/// Sentence terminators a clause drops and a rewritten sentence ends with.
pub(crate) const STOPS: [char; 6] = ['.', '!', '?', '。', '！', '？'];

/// How a separator splits a sentence.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Split {
    /// Always (";").
    Always,
    /// An English conjunction or comma: when the right side reads as a clause (see
    /// `split_sentence`).
    English,
    /// A conjunction of another language, which the English verb tests cannot read: when at
    /// least three words stand before it and two after ("Ο Γιώργος είναι αλλεργικός στην
    /// πενικιλίνη και παίζει μπάσκετ"), so that "μήλα και πορτοκάλια" stays whole.
    Foreign,
    /// A full-width comma of Chinese or Japanese text: when each side holds at least four
    /// letters or digits ("吴刚的信用卡额度是 3 万元，他的客户经理是林晓").
    FullWidth,
    /// The conjunction Hebrew and Arabic write onto the next word (ו, و: "... בתל אביב ומספר
    /// הטלפון שלה ...", "and her phone number"): only between two values, when each side holds
    /// at least two words and a digit ("lives at Herzl 15 ... and her phone number is
    /// 054-..."), since many words start with that letter ("ויזה", visa; "وقت", time).
    Proclitic,
}

/// Separators inside a sentence, longest first, and how they split.
const SEPARATORS: &[(&str, Split)] = &[
    (";", Split::Always),
    ("；", Split::Always),
    (", and ", Split::English),
    (", but ", Split::English),
    (", while ", Split::English),
    (", whereas ", Split::English),
    // Arabic: a comma and the conjunction و written onto the next word ("، وهو يتناول").
    ("، و", Split::Foreign),
    (" and ", Split::English),
    (" but ", Split::English),
    (" while ", Split::English),
    (" whereas ", Split::English),
    (" plus ", Split::English),
    // "and" and "but" in Greek, Russian, Ukrainian, Spanish, Portuguese and Italian, French,
    // German, Turkish, Vietnamese, Hindi, Persian and Urdu; matched as written (lowercase), so
    // "Vitamin E daily" is no conjunction. (Left out: words that are also English names or words, such as
    // Indonesian "dan" and Italian "ma".)
    (" και ", Split::Foreign),
    (" αλλά ", Split::Foreign),
    (" и ", Split::Foreign),
    (" а ", Split::Foreign),
    (" но ", Split::Foreign),
    (" і ", Split::Foreign),
    (" та ", Split::Foreign),
    (" але ", Split::Foreign),
    (" y ", Split::Foreign),
    (" pero ", Split::Foreign),
    (" e ", Split::Foreign),
    (" mas ", Split::Foreign),
    (" et ", Split::Foreign),
    (" mais ", Split::Foreign),
    (" und ", Split::Foreign),
    (" aber ", Split::Foreign),
    (" ve ", Split::Foreign),
    (" và ", Split::Foreign),
    (" और ", Split::Foreign),
    // Persian and Urdu write "and" as a word of its own (و, اور).
    (" و ", Split::Foreign),
    (" اور ", Split::Foreign),
    (" ו", Split::Proclitic),
    (" و", Split::Proclitic),
    ("，", Split::FullWidth),
    (", ", Split::English),
];

/// The bytes a separator of [`SEPARATORS`] can start with: a position whose byte is none of
/// them starts no separator, and the scan skips it without comparing each separator.
const SEPARATOR_FIRST_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut k = 0;
    while k < SEPARATORS.len() {
        table[SEPARATORS[k].0.as_bytes()[0] as usize] = true;
        k += 1;
    }
    table
};

/// True if a separator may start at byte `i` of `s` (see [`SEPARATOR_FIRST_BYTES`]).
fn may_start_separator(s: &str, i: usize) -> bool {
    SEPARATOR_FIRST_BYTES[usize::from(s.as_bytes()[i])]
}

/// Postpositions that end a Chinese or Japanese time adverbial ("2023年3月起", "从去年开始",
/// "入社以来", "4月から").
const TIME_POSTPOSITIONS: &[&str] = &[
    "起",
    "前",
    "后",
    "後",
    "以来",
    "时",
    "時",
    "开始",
    "開始",
    "以后",
    "以後",
    "以前",
    "之前",
    "之后",
    "之後",
    "から",
    "まで",
    "以降",
    "までに",
];

/// True if `left`, the part of a Chinese or Japanese sentence before its first comma, is a time
/// adverbial that frames the sentence rather than a clause: it ends with a time postposition,
/// or it is only a date ("2024年9月").
fn frames_time(left: &str) -> bool {
    let t = left.trim();
    TIME_POSTPOSITIONS.iter().any(|p| t.ends_with(p))
        || t.chars()
            .all(|c| c.is_ascii_digit() || c.is_whitespace() || "年月日号號".contains(c))
}

/// Letters and digits in `s` (the size of a side of a full-width comma).
fn letters(s: &str) -> usize {
    s.chars().filter(|c| c.is_alphanumeric()).count()
}

/// Splits one sentence (at byte offset `base` of the text) into clause ranges.
fn split_sentence(text: &str, range: Range<usize>) -> Vec<Range<usize>> {
    let s = &text[range.clone()];
    // The English separators are ASCII, so ASCII lower-casing is enough to find them, and it
    // keeps every byte offset of `s` (full Unicode case mapping does not: "İ" grows, "ẞ"
    // shrinks). The others are matched in `s` as written.
    let lowered: String = s.to_ascii_lowercase();
    let commas = s.matches(", ").count();
    let mut cuts: Vec<(usize, usize)> = Vec::new(); // (separator start, separator end) in s
    let mut i = 0;
    'scan: while i < s.len() {
        if !s.is_char_boundary(i) || !may_start_separator(s, i) {
            i += 1;
            continue;
        }
        for &(sep, split) in SEPARATORS {
            let found = match split {
                Split::English => lowered[i..].starts_with(sep),
                _ => s[i..].starts_with(sep),
            };
            if found {
                let left_start = cuts.last().map_or(0, |c| c.1);
                let left = &s[left_start..i];
                let right_end = next_separator(&lowered, i + sep.len()).unwrap_or(s.len());
                let right = &s[i + sep.len()..right_end];
                let comma = sep.trim() == ",";
                // "Javier Montoya and Elif Yıldız both have hearings": names coordinated as
                // the sentence's subject are no clause of their own.
                let coordinated_names = left_start == 0
                    && !comma
                    && words(left).all(|w| {
                        w.chars().next().is_some_and(char::is_uppercase)
                            || HONORIFICS.contains(&lower(w).as_str())
                    });
                let english = (words(left).count() >= 2
                    && words(right).count() >= 2
                    && reads_as_clause(right)
                    && (!comma || starts_clause(right))
                    && !coordinated_names)
                    // Predicate and object coordination: "is vegetarian and allergic to
                    // sesame", "takes metformin in the morning and atorvastatin at night".
                    || (!comma
                        && words(left).count() >= 2
                        && words(right).count() >= 1
                        && left_has_verb(left))
                    // After a cut, a comma and a conjunction before a clause split however
                    // short the part before them ("speaks Vietnamese and Japanese, and his visa
                    // expires ..." once "and Japanese" was cut).
                    || (left_start > 0
                        && sep.starts_with(", ")
                        && !comma
                        && words(left).count() >= 1
                        && words(right).count() >= 2
                        && reads_as_clause(right)
                        && starts_clause(right))
                    // ", lives in Leeds", and lists of three or more items.
                    || (comma
                        && words(right).count() >= 2
                        && (words(right).next().is_some_and(is_verb_word) || commas >= 2));
                let ok = match split {
                    Split::Always => true,
                    Split::English => english,
                    Split::Foreign => words(left).count() >= 3 && words(right).count() >= 2,
                    Split::Proclitic => {
                        let digit = |t: &str| t.chars().any(|c| c.is_ascii_digit());
                        words(left).count() >= 3
                            && words(right).count() >= 2
                            && words(right).next().is_some_and(|w| w.chars().count() >= 2)
                            && digit(left)
                            && digit(right)
                    }
                    Split::FullWidth => {
                        letters(left) >= 4
                            && letters(right) >= 4
                            && !(left_start == 0 && frames_time(left))
                    }
                };
                // A leading adverbial without a verb ("Until May 2022, ...", "As of March,
                // ...") frames the sentence; it is no clause of its own. (Capitalized "May"
                // and "March" there are months, not verbs.)
                let adverbial = comma
                    && left_start == 0
                    && words(left)
                        .next()
                        .is_some_and(|w| ADVERBIAL_OPENERS.contains(&lower(w).as_str()))
                    && !has_verb(&left.replace("May", "").replace("March", ""));
                if ok && !adverbial {
                    cuts.push((i, i + sep.len()));
                    i += sep.len();
                    continue 'scan;
                }
            }
        }
        i += 1;
    }
    let mut out = Vec::new();
    let mut start = 0;
    for (a, b) in cuts {
        out.push(start..a);
        start = b;
    }
    out.push(start..s.len());
    out.into_iter()
        .filter_map(|r| trim(s, r))
        .map(|r| range.start + r.start..range.start + r.end)
        .collect()
}

/// True if `left` holds a verb after its first word.
fn left_has_verb(left: &str) -> bool {
    words(left).skip(1).any(is_verb_word)
}

/// After a bare comma a clause must open with a pronoun (of English or another cased language)
/// or a capitalized word.
fn starts_clause(right: &str) -> bool {
    words(right)
        .next()
        .is_some_and(|w| opens_with_pronoun(w) || w.chars().next().is_some_and(char::is_uppercase))
}

fn next_separator(lowered: &str, from: usize) -> Option<usize> {
    (from..lowered.len())
        .filter(|&j| lowered.is_char_boundary(j) && may_start_separator(lowered, j))
        .find(|&j| {
            SEPARATORS
                .iter()
                .any(|(sep, _)| lowered[j..].starts_with(sep))
        })
}

/// Trims white space and a trailing sentence terminator from a range of `s`.
fn trim(s: &str, r: Range<usize>) -> Option<Range<usize>> {
    let part = &s[r.clone()];
    let lead = part.len() - part.trim_start().len();
    let body = part.trim();
    let body = body.trim_end_matches(STOPS).trim_end();
    if body.is_empty() {
        return None;
    }
    Some(r.start + lead..r.start + lead + body.len())
}

/// The clauses of `text`, in order.
pub fn clauses(text: &str) -> Vec<Clause> {
    let mut out = Vec::new();
    for (n, s) in sentences(text).into_iter().enumerate() {
        let sentence = &text[s.clone()];
        let subject = subject_of(sentence);
        let lead = sentence.len() - sentence.trim_start().len();
        let t = topic_of(sentence.trim_start());
        let topic = s.start + lead + t.start..s.start + lead + t.end;
        let spans = split_sentence(text, s.clone());
        // The topic never runs past the first clause: a sentence of a script written without
        // spaces ("黄丽的笔记本电脑是…，她的停车位是 P3-018") is one "word" to the verb test, and
        // the second clause is about something else.
        let first_end = spans.first().map_or(topic.end, |r| r.end);
        let topic = topic.start..topic.end.min(first_end).max(topic.start);
        for span in spans {
            out.push(Clause {
                span,
                sentence: n,
                subject: subject.clone(),
                topic: topic.clone(),
            });
        }
    }
    out
}

mod rewrite;
#[cfg(test)]
mod tests;

pub use rewrite::{phrase_without, rewrite_without};
