//! Match keys: the canonical forms under which a row can be found by a targeting query.
//!
//! BM25 over the row text cannot find "+1 (415) 555-0132" from "14155550132", "张伟" from "Zhang
//! Wei", or "Michail Solowjow" from "Mikhail Solovyov". Each row therefore has match keys,
//! computed by [`row_keys`] with [`crate::canon`] and stored in the match-key index
//! ([`super::key_index`]), and query targeting looks its own keys up there ([`query_keys`]). Keys are candidates only: targeting verifies every
//! candidate against the row's text before acting on it.
//!
//! | prefix | key |
//! |---|---|
//! | `w:` | folded, transliterated, plural-folded word |
//! | `v:` | spelling-variant key of a name-like word ([`canon::variant_key`]) |
//! | `k:` | consonant skeleton of a name-like word ([`canon::skeleton`]) |
//! | `x:` | exonym of a place name ([`canon::exonyms`]) |
//! | `v:` | (queries) also the variant keys of a name word's other case forms in Greek, Russian and Ukrainian ([`canon::inflected_forms`]) |
//! | `h:` | Korean romanization key ([`canon::hangul_variant_key`]) of a Hangul syllable and of two or three joined syllables; of every Latin word of a query |
//! | `v:` | also: the variant key of two or three joined Han syllables (a romanized given name written as one word, "Xiaoming" 小明) |
//! | `c:` | concatenation of a run of chunks holding a digit (`TXN4481`, `14155550132`) |
//! | `p:` | phone-style forms of a long digit run (trunk and country code dropped) |
//! | `i:` | a typed identifier: kind and canonical form |

use std::collections::BTreeSet;
use std::ops::Range;

use crate::canon::{self, Chunk, Gap, Script};

/// Longest run of chunks whose concatenation is indexed as a code.
pub const MAX_CODE_CHUNKS: usize = 8;
/// Longest code indexed, in bytes.
pub const MAX_CODE_LEN: usize = 48;

/// Folds plurals and possessives so that "phones" meets "phone" and "companies" "company".
pub fn stem(w: &str) -> String {
    let n = w.chars().count();
    if n > 4 && w.ends_with("ies") {
        format!("{}y", &w[..w.len() - 3])
    } else if n > 3 && w.ends_with('s') && !w.ends_with("ss") && !w.ends_with("us") {
        w[..w.len() - 1].to_owned()
    } else {
        w.to_owned()
    }
}

/// True if a chunk may be part of a name: capitalized, or from a script without case.
pub fn name_like(c: &Chunk) -> bool {
    c.capitalized || c.script != Script::Latin
}

/// True if the chunk holds a digit.
pub fn has_digit(c: &Chunk) -> bool {
    c.form.chars().any(|ch| ch.is_ascii_digit())
}

/// Phone-style forms of a digit string of at least 7 digits: without leading zeros, and without
/// a 1 to 3 digit country code.
pub fn phone_forms(digits: &str) -> Vec<String> {
    let mut out = Vec::new();
    if digits.len() < 7 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return out;
    }
    let trimmed = digits.trim_start_matches('0');
    out.push(trimmed.to_owned());
    for cc in 1..=3 {
        if trimmed.len() >= cc + 7 {
            out.push(trimmed[cc..].to_owned());
        }
    }
    out
}

/// Runs of consecutive chunks joined by identifier separators: `(start, end)` exclusive.
pub fn joined_runs(chunks: &[Chunk]) -> Vec<(usize, usize)> {
    let mut runs = Vec::new();
    let mut start = 0;
    for i in 1..=chunks.len() {
        if i == chunks.len() || chunks[i].gap != Some(Gap::Joiner) {
            if start < i {
                runs.push((start, i));
            }
            start = i;
        }
    }
    runs
}

/// Upper-case concatenation of chunks `a..b`.
pub fn concat(chunks: &[Chunk], a: usize, b: usize) -> String {
    chunks[a..b]
        .iter()
        .map(|c| c.form.to_uppercase())
        .collect::<String>()
}

/// A key: `prefix` then `body`, in one allocation.
fn key(prefix: &str, body: &str) -> String {
    let mut k = String::with_capacity(prefix.len() + body.len());
    k.push_str(prefix);
    k.push_str(body);
    k
}

/// The plural-folded word key `w:` of `w` (the key of [`stem`], without its allocation).
fn word_key(w: &str) -> String {
    let n = w.chars().count();
    if n > 4 && w.ends_with("ies") {
        let mut k = key("w:", &w[..w.len() - 3]);
        k.push('y');
        k
    } else if n > 3 && w.ends_with('s') && !w.ends_with("ss") && !w.ends_with("us") {
        key("w:", &w[..w.len() - 1])
    } else {
        key("w:", w)
    }
}

fn words_of(chunk: &Chunk, out: &mut Vec<String>) {
    if has_digit(chunk) {
        return;
    }
    for part in chunk.form.split_whitespace() {
        out.push(word_key(part));
        if name_like(chunk) {
            let v = canon::variant_key(part);
            if !v.is_empty() {
                out.push(key("v:", &v));
            }
            let k = canon::skeleton(part);
            if k.len() >= 2 {
                out.push(key("k:", &k));
            }
        }
    }
}

fn exonym_keys(chunks: &[Chunk], out: &mut Vec<String>) {
    let mut joined = String::new();
    for (i, c) in chunks.iter().enumerate() {
        for e in canon::exonyms(&c.form) {
            out.push(key("x:", e));
        }
        // Syllabic scripts split a place name into one chunk per character, Vietnamese into one
        // word per syllable: try pairs.
        if let Some(n) = chunks.get(i + 1)
            && canon::place_pair(c, n)
        {
            for sep in ["", " "] {
                joined.clear();
                joined.push_str(&c.form);
                joined.push_str(sep);
                joined.push_str(&n.form);
                for e in canon::exonyms(&joined) {
                    out.push(key("x:", e));
                }
            }
        }
    }
}

/// The `c:` and `p:` keys of every run of joined chunks. A code is keyed once it holds a digit,
/// so the concatenations from a start whose window of [`MAX_CODE_CHUNKS`] chunks has no digit
/// are skipped without being built. Chunk forms are ASCII, so upper-casing is ASCII's.
fn code_keys(chunks: &[Chunk], out: &mut Vec<String>) {
    let digits: Vec<bool> = chunks.iter().map(has_digit).collect();
    if !digits.contains(&true) {
        return;
    }
    let mut code = String::new();
    for (start, end) in joined_runs(chunks) {
        for a in start..end {
            let window = a..end.min(a + MAX_CODE_CHUNKS);
            if !digits[window.clone()].contains(&true) {
                continue;
            }
            code.clear();
            let mut digit = false;
            for k in window {
                let form = &chunks[k].form;
                if form.is_ascii() {
                    code.extend(form.chars().map(|c| c.to_ascii_uppercase()));
                } else {
                    code.push_str(&form.to_uppercase());
                }
                digit |= digits[k];
                if code.len() > MAX_CODE_LEN {
                    break;
                }
                if digit {
                    out.push(key("c:", &code));
                    for p in phone_forms(&code) {
                        out.push(key("p:", &p));
                    }
                }
            }
        }
    }
}

/// Japanese and Korean readings of runs of one or two Han chunks ("佐藤" -> "sato") and the
/// Cantonese spellings of single ones ("陳" -> "chan"), with the chunks of the run read.
pub fn han_readings(text: &str, chunks: &[Chunk]) -> Vec<(Range<usize>, &'static str)> {
    readings_with(text, chunks, canon::han_readings)
}

/// [`han_readings`] from the surname table alone, without the Cantonese spellings.
fn surname_readings(text: &str, chunks: &[Chunk]) -> Vec<(Range<usize>, &'static str)> {
    readings_with(text, chunks, |han| {
        canon::han_surname_readings(han).to_vec()
    })
}

/// The readings `read` gives of each Han chunk and each pair, with the chunks they read.
fn readings_with(
    text: &str,
    chunks: &[Chunk],
    read: impl Fn(&str) -> Vec<&'static str>,
) -> Vec<(Range<usize>, &'static str)> {
    let mut out = Vec::new();
    for i in 0..chunks.len() {
        for len in 1..=2 {
            let Some(last) = chunks.get(i + len - 1) else {
                break;
            };
            if chunks[i..i + len].iter().any(|c| c.script != Script::Han) {
                break;
            }
            for r in read(&text[chunks[i].span.start..last.span.end]) {
                out.push((i..i + len, r));
            }
        }
    }
    out
}

/// Most syllables of Hangul or Han joined into one key: a romanized name word stands for up to
/// three ("Minjun" 민준, "Xiaoming" 小明).
const MAX_JOINED_SYLLABLES: usize = 3;

/// The `h:` keys of Hangul syllables and of runs of two or three unspaced ones, and the `v:`
/// keys of runs of two or three unspaced Han syllables: a name the query romanizes as one word
/// ("Pak Chihun" for 박지훈) reaches the row through them.
fn syllable_keys(chunks: &[Chunk], out: &mut Vec<String>) {
    let mut joined = String::new();
    for a in 0..chunks.len() {
        let script = chunks[a].script;
        if !matches!(script, Script::Hangul | Script::Han) {
            continue;
        }
        joined.clear();
        for b in a..chunks.len().min(a + MAX_JOINED_SYLLABLES) {
            if b > a
                && (chunks[b].script != script || chunks[b - 1].span.end != chunks[b].span.start)
            {
                break;
            }
            joined.push_str(&chunks[b].form);
            let k = if script == Script::Hangul {
                key("h:", &canon::hangul_variant_key(&joined))
            } else if b > a {
                key("v:", &canon::variant_key(&joined))
            } else {
                continue;
            };
            if k.len() > 2 {
                out.push(k);
            }
        }
    }
}

/// Every match key of a row text, sorted and deduplicated.
pub fn row_keys(text: &str) -> Vec<String> {
    let chunks = canon::chunks(text);
    let mut out = Vec::with_capacity(chunks.len() * 4);
    for c in &chunks {
        words_of(c, &mut out);
    }
    syllable_keys(&chunks, &mut out);
    exonym_keys(&chunks, &mut out);
    for (_, reading) in surname_readings(text, &chunks) {
        out.push(key("w:", reading));
        let v = canon::variant_key(reading);
        if !v.is_empty() {
            out.push(key("v:", &v));
        }
    }
    // A Han character's Cantonese spellings, by their variant keys only (a query's name words
    // always give theirs).
    for c in chunks.iter().filter(|c| c.script == Script::Han) {
        for ch in text[c.span.clone()].chars() {
            for v in canon::cantonese_variant_keys(ch) {
                out.push(key("v:", v));
            }
        }
    }
    code_keys(&chunks, &mut out);
    for id in canon::identifiers(text) {
        out.push(format!("i:{:?}:{}", id.kind, id.canonical));
    }
    finish(out)
}

/// Sorts and deduplicates keys, then writes their whitespace as `_` (after sorting, as the keys
/// always were: the order is that of the keys before the replacement).
fn finish(mut keys: Vec<String>) -> Vec<String> {
    keys.sort_unstable();
    keys.dedup();
    for k in &mut keys {
        if k.contains(char::is_whitespace) {
            *k = k.replace(char::is_whitespace, "_");
        }
    }
    keys
}

/// The keys a query looks up: the same families as [`row_keys`], so that any row the query can
/// match shares at least one key with it.
pub fn query_keys(text: &str) -> Vec<String> {
    let mut keys = row_keys(text);
    // A query name may be written in lower case ("zhang wei"): look its name keys up too.
    let chunks = canon::chunks(text);
    let mut extra = BTreeSet::new();
    for c in &chunks {
        if has_digit(c) {
            continue;
        }
        for part in c.form.split_whitespace() {
            let v = canon::variant_key(part);
            if !v.is_empty() {
                // Either romanization of an initial Е ("Yekaterina", "Ekaterina").
                let bare = canon::without_initial_glide(&v);
                extra.insert(format!("v:{bare}"));
                if bare.starts_with('e') {
                    extra.insert(format!("v:i{bare}"));
                }
                extra.insert(format!("v:{v}"));
            }
            let k = canon::skeleton(part);
            if k.len() >= 2 {
                extra.insert(format!("k:{k}"));
            }
            if matches!(c.script, Script::Arabic | Script::Hebrew) {
                for k in canon::abjad_skeletons(part) {
                    if k.len() >= 2 {
                        extra.insert(format!("k:{k}"));
                    }
                }
            }
            for e in canon::exonyms(part) {
                extra.insert(format!("w:{}", stem(e)));
            }
            // The other case forms of a name that Greek, Russian and Ukrainian decline
            // ("Ελένης" for "Eleni", "Миколи" for "Mykola").
            if name_like(c) {
                for alt in canon::inflected_forms(part) {
                    let v = canon::variant_key(&alt);
                    if !v.is_empty() {
                        extra.insert(format!("v:{v}"));
                    }
                }
            }
            // A plural possessive ("the Moreaus' flat") names the family by its singular.
            if c.script == Script::Latin
                && let Some(singular) = part.strip_suffix('s')
                && singular.len() >= 3
                && text[c.span.end..].starts_with(['\'', '’'])
                && !text[c.span.end..]
                    .chars()
                    .nth(1)
                    .is_some_and(char::is_alphanumeric)
            {
                extra.insert(format!("w:{singular}"));
                let v = canon::variant_key(singular);
                if !v.is_empty() {
                    extra.insert(format!("v:{v}"));
                }
            }
            // A Korean name in Latin letters, in any romanization ("Pak", "Park" for 박).
            if c.script == Script::Latin {
                let h = canon::hangul_variant_key(part);
                if !h.is_empty() {
                    extra.insert(format!("h:{h}"));
                }
            }
        }
    }
    // A Japanese name written in kanji: the Latin readings of each run of two or three
    // characters (surnames and given names outside any table, "松尾" -> "matsuo").
    for i in 0..chunks.len() {
        for len in 2..=3 {
            let Some(last) = chunks.get(i + len - 1) else {
                break;
            };
            let run = &chunks[i..i + len];
            if run.iter().any(|c| c.script != Script::Han)
                || run.windows(2).any(|p| p[0].span.end != p[1].span.start)
            {
                break;
            }
            for r in canon::japanese::readings(&text[chunks[i].span.start..last.span.end], 256) {
                extra.insert(format!("w:{r}"));
            }
        }
    }
    keys.extend(
        extra
            .into_iter()
            .map(|k| k.replace(char::is_whitespace, "_")),
    );
    keys.sort();
    keys.dedup();
    keys
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn word_key_is_the_key_of_the_stem(w in "\\PC{0,12}(ies|s|ss|us)?") {
            prop_assert_eq!(word_key(&w), format!("w:{}", stem(&w)));
        }
    }

    #[test]
    fn stems_fold_plurals() {
        assert_eq!(stem("phones"), "phone");
        assert_eq!(stem("address"), "address");
        assert_eq!(stem("companies"), "company");
        assert_eq!(stem("bus"), "bus");
        assert_eq!(stem("status"), "status");
    }

    #[test]
    fn phone_forms_drop_trunk_and_country_code() {
        let a = phone_forms("441514960142");
        let b = phone_forms("01514960142");
        assert!(a.iter().any(|x| b.contains(x)));
        assert!(phone_forms("12345").is_empty());
    }

    #[test]
    fn codes_are_indexed_across_separators() {
        let keys = row_keys("Customer phone: +1 (415) 555-0132.");
        assert!(keys.contains(&"c:14155550132".to_owned()), "{keys:?}");
        let keys = row_keys("Order TXN-123456 was billed.");
        assert!(keys.contains(&"c:TXN123456".to_owned()));
        assert!(!keys.contains(&"c:TXN12345".to_owned()));
    }

    #[test]
    fn romanized_korean_and_chinese_names_share_a_key_with_their_syllables() {
        let shared = |query: &str, row: &str| {
            let r = row_keys(row);
            query_keys(query).into_iter().any(|k| r.contains(&k))
        };
        // One Latin word for two syllables, in Revised Romanization, McCune-Reischauer or a
        // popular spelling.
        for q in ["Minjun", "Chihun", "Park", "Pak", "Bak"] {
            assert!(shared(q, "박지훈 김민준"), "{q}");
        }
        assert!(shared("Xiaoming", "王小明的电话"));
        assert!(!shared("Minji", "박지훈 김민준"));
    }
}
