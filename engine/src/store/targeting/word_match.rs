//! Where a query word stands in a row: by its form, its spelling and reading variants, an
//! attribute concept it names in another script, or a value of the kind it asks for.

use std::ops::Range;

use super::query::QWord;
use super::row_view::RowView;
use super::value_kind::ValueKind;
use crate::canon::{self, Chunk, Script};
use crate::index::keys::{self, has_digit, name_like};
use crate::{derivation, lexicon};

/// Day and month names, which take plurals ("on Tuesdays").
pub(crate) fn is_calendar(w: &str) -> bool {
    const NAMES: &[&str] = &[
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ];
    NAMES.contains(&w)
}

/// True for a word that makes the date after it the bound of a period
/// ([`super::period::BOUND_WORDS`]: "before April", "since 2019").
pub(crate) fn is_bound_word(w: &str) -> bool {
    super::period::BOUND_WORDS.contains(&w)
}

/// The year a chunk states: four digits from 1900 to 2099.
pub(crate) fn year_of(form: &str) -> Option<u32> {
    let year: u32 = form
        .parse()
        .ok()
        .filter(|_| form.len() == 4 && form.bytes().all(|b| b.is_ascii_digit()))?;
    (1900..2100).contains(&year).then_some(year)
}

/// True if the query word `w` is a day or month name written as one ("May", not the verb
/// "may").
pub(super) fn is_date_word(w: &QWord) -> bool {
    is_calendar(&w.stem) && (w.chunk.script != Script::Latin || w.chunk.capitalized)
}

/// Characters that join the parts of one token ("api-gateway", "1.4.2", "/srv/data").
const STRONG_JOINERS: &[char] = &['-', '.', '_', '/', ':', '+', '#'];

/// True if `span` of `text` neither starts nor ends inside a longer token: no strong joiner
/// with a letter or digit beyond it ("api:1.4" is not a token of "api:1.4.2").
pub(crate) fn whole_token(text: &str, span: &Range<usize>) -> bool {
    let before = &text[..span.start];
    let after = &text[span.end..];
    // A letter of an unspaced script beyond the joiner is the next word ("は+7 916 ..."), not
    // more of the token.
    let token_char = |x: char| x.is_alphanumeric() && !canon::unspaced_letter(x);
    let mut b = before.chars().rev();
    let glued_before = matches!((b.next(), b.next()), (Some(j), Some(x)) if STRONG_JOINERS.contains(&j) && token_char(x));
    let mut a = after.chars();
    let glued_after = matches!((a.next(), a.next()), (Some(j), Some(x)) if STRONG_JOINERS.contains(&j) && token_char(x));
    !glued_before && !glued_after
}

/// True if `span` of `text` ends a path at a component boundary: a file name the row writes
/// at the end of its path ("tanaka_kyoto.pdf" of "/itineraries/2025/tanaka_kyoto.pdf", where
/// "tanaka_kyoto_v2.pdf" is another file), or the last components of it ("2025/q3.xlsx").
pub(crate) fn ends_path(text: &str, span: &Range<usize>) -> bool {
    let before = text[..span.start].chars().next_back();
    let mut after = text[span.end..].chars();
    let ends_token = match after.next() {
        None => true,
        Some(c) if c.is_whitespace() => true,
        // Sentence punctuation after the path, then the end or a space.
        Some('.' | ',' | ';' | ')' | '!' | '?' | '"' | '\'') => {
            after.next().is_none_or(char::is_whitespace)
        }
        Some(_) => false,
    };
    matches!(before, Some('/' | '\\')) && ends_token
}

/// True if `span` of `text` is whole segments of a host name, a path, a bucket or a file name
/// ("0231" of "printer-ward6-0231.shaare.local", "kp07" of "kp07.kyma.lan", "v2" of
/// "itineraries/kapoor_bkk_v2.pdf"): the address a memory writes a code in names it. The
/// token must be an address (a `/` or an `@`, or a last `.` part of letters: ".local",
/// ".pdf"), and a segment of digits alone next to the span continues the code, not the
/// address ("1.4" is not "api:1.4.2", "B-5693" not "B-5693-2.pdf").
pub(crate) fn segment_of_address(text: &str, span: &Range<usize>) -> bool {
    let start = text[..span.start]
        .char_indices()
        .rfind(|(_, c)| c.is_whitespace())
        .map_or(0, |(i, c)| i + c.len_utf8());
    let end = text[span.end..]
        .find(char::is_whitespace)
        .map_or(text.len(), |i| span.end + i);
    // Sentence punctuation after the token is not part of it.
    let token = text[start..end].trim_end_matches(['.', ',', ';', ')', '!', '?', '"', '\'']);
    let end = start + token.len();
    if span.end > end {
        return false;
    }
    let last_part = token.rsplit('.').next().unwrap_or_default();
    let address = token.contains(['/', '@'])
        || (token.contains('.')
            && (2..=6).contains(&last_part.len())
            && last_part.chars().all(|c| c.is_ascii_alphabetic()));
    if !address {
        return false;
    }
    const SEPARATORS: &[char] = &['-', '.', '_', '/', ':', '@'];
    let is_segment_break = |c: Option<char>| c.is_none_or(|c| SEPARATORS.contains(&c));
    let before = &text[start..span.start];
    let after = &text[span.end..end];
    if !is_segment_break(before.chars().next_back()) || !is_segment_break(after.chars().next()) {
        return false;
    }
    // The segments next to the span, across one separator.
    let prev: String = before
        .chars()
        .rev()
        .skip(1)
        .take_while(|c| !SEPARATORS.contains(c))
        .collect();
    let next: String = after
        .chars()
        .skip(1)
        .take_while(|c| !SEPARATORS.contains(c))
        .collect();
    let digits_only = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    !digits_only(&prev) && !digits_only(&next)
}

/// True if two transliterated Hindi words are one noun in its direct (-ā, `a`) and oblique
/// (-e, `e`) forms, either way round, with at least two letters before the ending.
fn hindi_oblique(a: &str, b: &str) -> bool {
    let stem = |w: &str, end: char| {
        w.strip_suffix(end)
            .filter(|s| s.chars().count() >= 2)
            .map(str::to_owned)
    };
    (stem(a, 'a').is_some() && stem(a, 'a') == stem(b, 'e'))
        || (stem(a, 'e').is_some() && stem(a, 'e') == stem(b, 'a'))
}

/// The base of an English inflection in `-ed`, `-ing` or `-er` that doubled the base's final
/// consonant ("travelled" -> "travel", "scanning" -> "scan"), when the base keeps four letters:
/// shorter ones meet unrelated words ("dinner" is not "din").
fn undoubled_inflection(word: &str) -> Option<&str> {
    let stem = ["ing", "ed", "er"]
        .iter()
        .find_map(|s| word.strip_suffix(s))?;
    // Called for every word a request word is compared with: no allocation.
    let b = stem.as_bytes();
    let n = b.len();
    (n >= 5
        && b[n - 1] == b[n - 2]
        && b[n - 1].is_ascii_lowercase()
        && !b"aeiouys".contains(&b[n - 1])
        && stem.chars().count() >= 5)
        .then(|| &stem[..n - 1])
}

/// One query word against one row chunk.
pub(crate) fn word_matches(w: &QWord, c: &Chunk) -> bool {
    if has_digit(c) {
        return false;
    }
    let both_names = w.name && name_like(c);
    if both_names {
        // Names are not plurals ("Andreas" is not "Andrea"), except calendar names.
        if c.form == w.chunk.form
            || (keys::stem(&c.form) == w.stem && is_calendar(&w.stem))
            || (w.plural_possessive && w.chunk.form.strip_suffix('s') == Some(c.form.as_str()))
        {
            return true;
        }
    } else if keys::stem(&c.form) == w.stem {
        return true;
    }
    if !w.name && w.stem.chars().count() >= 4 {
        let (row_lemma, query_lemma) = (lexicon::lemma(&c.form), lexicon::lemma(&w.stem));
        // An inflection that doubles the final consonant ("travelled", "cancelling",
        // "shopper") meets the base either way round.
        if row_lemma == query_lemma
            || undoubled_inflection(&c.form) == Some(query_lemma.as_str())
            || undoubled_inflection(&w.stem) == Some(row_lemma.as_str())
        {
            return true;
        }
    }
    // One English word in its British and American spellings ("driver's licence" and
    // "driver's license", "paediatrician" and "pediatrician").
    // (Called for every word a request word is compared with: the plural's "s" is sliced
    // off, not allocated.)
    if !w.name && !name_like(c) && {
        let form = c.form.as_str();
        crate::spelling::spelling_variants(form, &w.stem)
            || form
                .strip_suffix('s')
                .is_some_and(|f| crate::spelling::spelling_variants(f, &w.stem))
    } {
        return true;
    }
    // A Hindi noun in -ā takes -e before a postposition: "बीमा" (insurance) is "बीमे" in "नेहा
    // मेहता के बीमे की जानकारी", "दमा" (asthma) "दमे".
    // (Every word of a script without capitals may be a name, so the query word's flag says
    // nothing here.)
    if w.chunk.script == Script::Devanagari
        && c.script == Script::Devanagari
        && hindi_oblique(&w.chunk.form, &c.form)
    {
        return true;
    }
    // A noun and the word it derives from ("membership" and "member", "employment" and
    // "employed", "departure" and "departs"), either way round.
    if !w.name
        && !name_like(c)
        && (derivation::derived_from(&w.stem, &c.form)
            || derivation::derived_from(&c.form, &w.stem))
    {
        return true;
    }
    // Spelling variants of names: for a name of the query, or a word meeting a name of the row
    // in its own script. Across scripts both sides must be names: an attribute word never
    // meets a name by sound ("gym" is not 김, "gim"), nor a name a lowercase word ("user" is
    // not שרה, whose consonants are s-r).
    let same_script = c.script == w.chunk.script;
    let name_side = (w.name && (same_script || name_like(c))) || (name_like(c) && same_script);
    if name_side && (canon::same_name(&w.chunk, c) || canon::same_inflected_name(&w.chunk, c)) {
        return true;
    }
    // A Han surname of the query written in Latin letters in the row ("佐藤" and "Sato").
    if c.script == Script::Latin
        && w.readings
            .iter()
            .any(|r| *r == c.form || canon::variant_key(r) == canon::variant_key(&c.form))
    {
        return true;
    }
    if name_side {
        let ex = canon::exonyms(&c.form);
        if ex.iter().any(|e| keys::stem(e) == w.stem) {
            return true;
        }
        if canon::exonyms(&w.chunk.form).iter().any(|e| *e == c.form) {
            return true;
        }
    }
    false
}

/// Where `row` holds query word `w`: a chunk index (the first of a pair for place names in a
/// syllabic script, of a Han surname for its reading).
pub(crate) fn find_word(w: &QWord, row: &RowView<'_>) -> Option<usize> {
    find_name(w, row)
        .or_else(|| concept_hit(w, row))
        .or_else(|| loanword_hit(w, row))
        .or_else(|| kind_hit(w, row))
}

/// Where `row` writes query word `w` as a word borrowed across scripts ([`canon::borrowed`]):
/// "penicillin" and பென்சிலின், "VPN" and वीपीएन, "shift" and شیفت, either way round. One side
/// is Latin and no name (a lowercase word, or an acronym in capitals); the other is written in
/// a script read word by word (not Han or Hangul, whose chunks are syllables).
fn loanword_hit(w: &QWord, row: &RowView<'_>) -> Option<usize> {
    let read_by_word = |s: Script| !matches!(s, Script::Latin | Script::Han | Script::Hangul);
    let acronym = |written: &str| canon::spelled_acronym(written).is_some();
    let latin_word = |c: &Chunk, written: &str| {
        c.script == Script::Latin && !has_digit(c) && (!c.capitalized || acronym(written))
    };
    if has_digit(&w.chunk) {
        return None;
    }
    if w.chunk.script == Script::Latin {
        // The query's Latin word against the row's words in other scripts.
        if (w.name && !acronym(&w.written))
            || !latin_word(&w.chunk, &w.written)
            || !row.chunks.iter().any(|c| read_by_word(c.script))
        {
            return None;
        }
        let keys = canon::loan_keys_of(&w.stem, &w.written);
        if keys.is_empty() {
            return None;
        }
        return row.chunks.iter().position(|c| {
            read_by_word(c.script) && !has_digit(c) && keys.contains(&canon::loan_key(&c.form))
        });
    }
    if !read_by_word(w.chunk.script) || !row.chunks.iter().any(|c| c.script == Script::Latin) {
        return None;
    }
    // The query's word in another script against the row's Latin words.
    let theirs = canon::loan_key(&w.chunk.form);
    if theirs.len() < canon::LOAN_MIN_CLASSES {
        return None;
    }
    row.chunks.iter().position(|c| {
        let written = &row.text[c.span.clone()];
        latin_word(c, written)
            && canon::loan_keys_of(&keys::stem(&c.form), written).contains(&theirs)
    })
}

/// Where `row` states the value an attribute concept of query word `w` names on its own
/// ([`ValueKind::of_concept`]): "Jo's email address" and "Jo's work e-mail is jo@...",
/// "Aunt Rena's landline" and "Το σταθερό της θείας Ρένας είναι 2310 445 678", "Samir's March
/// address" and "As of March 2024, Samir lived at 12 Rue Gouraud".
fn kind_hit(w: &QWord, row: &RowView<'_>) -> Option<usize> {
    if w.name {
        return None;
    }
    w.concepts
        .iter()
        .filter_map(|c| ValueKind::of_concept(c))
        .find_map(|kind| super::value_kind::value_at(row, kind))
}

/// [`find_word`] by form only: names, spellings, readings and exonyms, not attribute concepts
/// (a word of a name run is present only as itself).
pub(crate) fn find_name(w: &QWord, row: &RowView<'_>) -> Option<usize> {
    find_name_where(w, row, false)
}

/// [`find_name`] for a Latin word that is a name on its own (a run of one word): never a
/// character inside a longer Han word ([`inside_han_word`]). A name spelled syllable by
/// syllable ("Chan Chi Ming" for 陳志明) is a longer run, and its syllables are inside.
pub(crate) fn find_lone_name(w: &QWord, row: &RowView<'_>) -> Option<usize> {
    find_name_where(w, row, w.chunk.script == Script::Latin)
}

fn find_name_where(w: &QWord, row: &RowView<'_>, lone: bool) -> Option<usize> {
    row.chunks
        .iter()
        .enumerate()
        .position(|(p, c)| {
            word_matches(w, c)
                && !(lone && c.script == Script::Han && inside_han_word(row, &(p..p + 1)))
        })
        .or_else(|| {
            row.chunks
                .windows(2)
                .position(|p| pair_matches(w, &p[0], &p[1]))
        })
        .or_else(|| {
            keys::han_readings(row.text, &row.chunks)
                .into_iter()
                .find(|(run, r)| {
                    (*r == w.chunk.form
                        || canon::variant_key(r) == canon::variant_key(&w.chunk.form))
                        && !(lone && inside_han_word(row, run))
                })
                .map(|(run, _)| run.start)
        })
        .or_else(|| acronym_hit(w, row))
}

/// True if the Han chunks `run` of `row` lie inside a longer word, a character glued to them
/// on both sides and none of them a particle: their reading is part of a name, not a name. "Yu"
/// (a reading of 由) is not 田中由紀, Tanaka Yuki, whose given name is 由紀.
pub(super) fn inside_han_word(row: &RowView<'_>, run: &std::ops::Range<usize>) -> bool {
    let glued_before = run.start > 0 && {
        let (prev, first) = (&row.chunks[run.start - 1], &row.chunks[run.start]);
        prev.script == Script::Han && prev.span.end == first.span.start
    };
    glued_before && super::glued_names::continues_unspaced_name(row, run.end - 1).is_some()
}

/// Where `row` spells out query word `w` written as an acronym: consecutive content words of
/// one phrase whose initials are its letters ("HCMC" and "Ho Chi Minh City", "ED" and
/// "emergency department"). The acronym is written in capitals, two to six letters and no
/// digit; the words of the expansion are Latin, joined by spaces or hyphens only, and none is a
/// function word ("ID" is not "is Dr").
fn acronym_hit(w: &QWord, row: &RowView<'_>) -> Option<usize> {
    let letters: Vec<char> = w.written.chars().collect();
    if w.chunk.script != Script::Latin
        || !(2..=6).contains(&letters.len())
        || !letters.iter().all(char::is_ascii_uppercase)
    {
        return None;
    }
    let n = letters.len();
    (0..row.chunks.len().saturating_sub(n - 1)).find(|&i| {
        let words = &row.chunks[i..i + n];
        words.iter().zip(&letters).enumerate().all(|(k, (c, l))| {
            c.script == Script::Latin
                && !has_digit(c)
                && c.form.len() >= 2
                && c.form.starts_with(l.to_ascii_lowercase())
                && !crate::text::is_stopword(&c.form)
                && (k == 0
                    || row.text[row.chunks[i + k - 1].span.end..c.span.start]
                        .chars()
                        .all(|ch| ch == ' ' || ch == '-'))
        })
    })
}

/// Where `row` names, in another script, an attribute concept query word `w` names ("room" and
/// палата, 병실 and "room"; [`crate::concepts`]). Words of one script meet by their forms only.
pub(super) fn concept_hit(w: &QWord, row: &RowView<'_>) -> Option<usize> {
    use crate::concepts;
    if w.concepts.is_empty() {
        return None;
    }
    let same_language = |s: Script| {
        s == w.chunk.script || (concepts::unspaced(s) && concepts::unspaced(w.chunk.script))
    };
    concepts::words(row.text, &row.chunks)
        .into_iter()
        .find(|(i, span, script)| {
            if same_language(*script) {
                // One abjad: the same form under different clitics ("החדר", "בחדר").
                return concepts::same_abjad_form(&w.written, &row.text[span.clone()], *script);
            }
            !has_digit(&row.chunks[*i])
                && concepts::concepts_of_word(
                    &row.text[span.clone()],
                    *script,
                    &row.chunks[*i].form,
                )
                .iter()
                .any(|k| w.concepts.contains(k))
        })
        .map(|(i, _, _)| i)
}

/// Place names written in a syllabic script take two chunks ("東京" is "dong" "jing"), and so
/// do Vietnamese ones written in Latin letters, a word per syllable ("Sài Gòn" is "sai" "gon"):
/// in Latin, two capitalized words.
fn pair_matches(w: &QWord, a: &Chunk, b: &Chunk) -> bool {
    if !canon::place_pair(a, b) {
        return false;
    }
    [
        format!("{}{}", a.form, b.form),
        format!("{} {}", a.form, b.form),
    ]
    .iter()
    .any(|joined| {
        canon::exonyms(joined)
            .iter()
            .any(|e| keys::stem(e) == w.stem)
    })
}

#[cfg(test)]
mod tests {
    use super::{segment_of_address, undoubled_inflection};
    use proptest::prelude::*;

    #[test]
    fn inflections_that_double_a_consonant_meet_their_base() {
        for (word, base) in [
            ("travelled", "travel"),
            ("cancelling", "cancel"),
            ("scanned", "scan"),
            ("shopper", "shop"),
            ("labelled", "label"),
        ] {
            assert_eq!(undoubled_inflection(word), Some(base), "{word}");
        }
        // Shorter bases, vowels, an "s" or no inflection: none.
        for word in [
            "dinner", "letter", "called", "passed", "travel", "agreed", "staff",
        ] {
            assert_eq!(undoubled_inflection(word), None, "{word}");
        }
    }

    fn at(text: &str, part: &str) -> bool {
        let start = text.find(part).expect("part of the text");
        segment_of_address(text, &(start..start + part.len()))
    }

    #[test]
    fn segments_of_addresses() {
        assert!(at("is printer-ward6-0231.shaare.local.", "0231"));
        assert!(at("at kp07.kyma.lan now", "kp07"));
        assert!(at(
            "sent itineraries/2025/kapoor_bkk_v2.pdf by mistake",
            "v2"
        ));
        // Not an address, a continuing number, or inside a word.
        assert!(!at("code AB-0231-X today", "0231"));
        assert!(!at("see docs/api-1.4.2.html", "1.4"));
        assert!(!at("in files/B-5693-2.pdf", "B-5693"));
        assert!(!at("host xkp07.kyma.lan", "kp07"));
    }

    proptest! {
        // Any text and any span on character boundaries: an answer, never a panic.
        #[test]
        fn never_panics(text in "\\PC{0,40}", a in 0usize..48, b in 0usize..48) {
            let bounds: Vec<usize> = text
                .char_indices()
                .map(|(i, _)| i)
                .chain([text.len()])
                .collect();
            let (a, b) = (bounds[a % bounds.len()], bounds[b % bounds.len()]);
            let _ = segment_of_address(&text, &(a.min(b)..a.max(b)));
        }
    }
}
