//! Japanese names written in kanji and in Latin letters: does "田中美咲" read "Tanaka Misaki"?
//!
//! A Japanese name has no single reading: each kanji has several (on, kun and the nanori used
//! in names), and the reading of a name is one reading per character, with voicing of the
//! first consonant after the first character (rendaku: 山崎 "Yamazaki", 中島 "Nakajima").
//! Latin spellings drop long vowels ("Satō", "Satou", "Sato", "Ohno"). This module answers
//! whether a run of kanji can be read as a given Latin word, with the per-character readings
//! of KANJIDIC as shipped by the `ib-romaji` crate: a reading rule, not a list of names, so a
//! name outside any table still meets its romanization.

use std::sync::OnceLock;

use ib_romaji::HepburnRomanizer;

/// Longest kanji run read as one Latin word (a surname or a given name).
pub const MAX_NAME_KANJI: usize = 4;

fn romanizer() -> &'static HepburnRomanizer {
    static R: OnceLock<HepburnRomanizer> = OnceLock::new();
    R.get_or_init(|| HepburnRomanizer::builder().kana(true).kanji(true).build())
}

/// Lowercase ASCII letters of `s` with long vowels written short: `ou`, `oo`, `oh` before a
/// consonant or at the end, `uu` and `-` (a long-vowel mark) fold, as in passport spellings.
fn fold(s: &str) -> Vec<u8> {
    let b: Vec<u8> = s
        .bytes()
        .filter(u8::is_ascii_alphabetic)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    let vowel = |c: u8| matches!(c, b'a' | b'e' | b'i' | b'o' | b'u');
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        out.push(c);
        let next = b.get(i + 1).copied();
        let long = match (c, next) {
            (b'o', Some(b'u' | b'o')) | (b'u', Some(b'u')) => true,
            (b'o', Some(b'h')) => b.get(i + 2).is_none_or(|&n| !vowel(n)),
            _ => false,
        };
        i += if long { 2 } else { 1 };
    }
    out
}

/// The forms a reading takes after the first character of a name: itself and its voiced
/// (rendaku) forms.
fn voiced(reading: &[u8]) -> Vec<Vec<u8>> {
    let mut out = vec![reading.to_vec()];
    let swap = |from: &[u8], to: &[&[u8]]| -> Vec<Vec<u8>> {
        match reading.strip_prefix(from) {
            Some(rest) => to.iter().map(|t| [*t, rest].concat()).collect(),
            None => Vec::new(),
        }
    };
    for (from, to) in [
        (&b"k"[..], &[&b"g"[..]][..]),
        (b"sh", &[b"j"]),
        (b"s", &[b"z"]),
        (b"ch", &[b"j"]),
        (b"ts", &[b"z"]),
        (b"t", &[b"d"]),
        (b"h", &[b"b", b"p"]),
        (b"f", &[b"b", b"p"]),
    ] {
        if reading.starts_with(from) {
            out.extend(swap(from, to));
            break;
        }
    }
    out
}

/// The readings of a kanji `run` of two or three characters as Latin words (folded as
/// [`reads_as`] compares them), at most `limit` of them: the candidates a store looks up for a
/// Japanese name written in kanji. Empty for any other run.
pub fn readings(run: &str, limit: usize) -> Vec<String> {
    let chars: Vec<&str> = run
        .char_indices()
        .map(|(i, c)| &run[i..i + c.len_utf8()])
        .collect();
    if !(2..=3).contains(&chars.len())
        || !run
            .chars()
            .all(|c| super::script::script_of(c) == super::Script::Han)
    {
        return Vec::new();
    }
    let mut out: Vec<Vec<u8>> = vec![Vec::new()];
    for (k, one) in chars.iter().enumerate() {
        let mut next = Vec::new();
        for (len, r) in romanizer().romanize_vec(*one) {
            if len != one.len() {
                continue;
            }
            let base = fold(r);
            let forms = if k == 0 { vec![base] } else { voiced(&base) };
            for f in forms {
                for prefix in &out {
                    if next.len() >= limit {
                        break;
                    }
                    next.push([prefix.as_slice(), f.as_slice()].concat());
                }
            }
        }
        out = next;
    }
    let mut words: Vec<String> = out
        .into_iter()
        .filter(|w| w.len() >= 2)
        .filter_map(|w| String::from_utf8(w).ok())
        .collect();
    words.sort();
    words.dedup();
    words
}

/// True if the kanji `run` (at most [`MAX_NAME_KANJI`] characters, all Han) can be read as the
/// Latin `word` (at least two letters): one reading per character, in order, the characters
/// after the first possibly voiced, long vowels ignored on both sides.
pub fn reads_as(run: &str, word: &str) -> bool {
    reading_match(run, word, true)
}

/// True if the kanji `run` reads as the Latin `word` without dropping a long vowel the word
/// does not write: "Hanako" is 花子 (hana + ko) exactly, and 花江 only through the long
/// reading "kou" of 江 written short. Where several rows' names read as the query's, the exact
/// reading is the better evidence (see `targeting`).
pub fn reads_exactly(run: &str, word: &str) -> bool {
    reading_match(run, word, false)
}

fn reading_match(run: &str, word: &str, fold_long: bool) -> bool {
    let n = run.chars().count();
    if n == 0
        || n > MAX_NAME_KANJI
        || !run
            .chars()
            .all(|c| super::script::script_of(c) == super::Script::Han)
    {
        return false;
    }
    let letters = |s: &str| -> Vec<u8> {
        if fold_long {
            fold(s)
        } else {
            s.bytes()
                .filter(u8::is_ascii_alphabetic)
                .map(|c| c.to_ascii_lowercase())
                .collect()
        }
    };
    let target = letters(&super::fold(word));
    if target.len() < 2 {
        return false;
    }
    let chars: Vec<(usize, char)> = run.char_indices().collect();
    // Positions in `target` reachable after reading the first k characters.
    let mut reach: Vec<bool> = vec![false; target.len() + 1];
    reach[0] = true;
    for (k, &(at, c)) in chars.iter().enumerate() {
        let mut next = vec![false; target.len() + 1];
        let one = &run[at..at + c.len_utf8()];
        let readings: Vec<&'static str> = romanizer()
            .romanize_vec(one)
            .into_iter()
            .filter(|(len, _)| *len == one.len())
            .map(|(_, r)| r)
            .collect();
        for r in readings {
            let base = letters(r);
            if base.is_empty() {
                continue;
            }
            let forms = if k == 0 { vec![base] } else { voiced(&base) };
            for f in forms {
                for p in 0..=target.len() {
                    if reach[p] && target[p..].starts_with(&f) {
                        next[p + f.len()] = true;
                    }
                }
            }
        }
        reach = next;
        if !reach.iter().any(|&r| r) {
            return false;
        }
    }
    reach[target.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_outside_any_table_meet_their_romanization() {
        for (kanji, latin) in [
            ("田中", "Tanaka"),
            ("美咲", "Misaki"),
            ("花子", "Hanako"),
            ("由美子", "Yumiko"),
            ("健太", "Kenta"),
            ("鈴木", "Suzuki"),
            ("山崎", "Yamazaki"),
            ("佐藤", "Satō"),
            ("佐藤", "Satou"),
            ("大野", "Ohno"),
        ] {
            assert!(reads_as(kanji, latin), "{kanji} {latin}");
        }
    }

    #[test]
    fn other_names_do_not() {
        for (kanji, latin) in [
            ("田中", "Tanabe"),
            ("美咲", "Misato"),
            ("健太", "Kenji"),
            ("鈴木", "Sasaki"),
            ("田中", "T"),
            ("田中美咲花子", "Tanakamisakihanako"),
        ] {
            assert!(!reads_as(kanji, latin), "{kanji} {latin}");
        }
    }

    #[test]
    fn a_reading_that_drops_a_long_vowel_is_not_exact() {
        // 江 reads "e" and "kou": "Hanako" meets 花江 only with the long vowel written short.
        assert!(reads_as("花江", "Hanako"));
        assert!(!reads_exactly("花江", "Hanako"));
        assert!(reads_exactly("花子", "Hanako"));
        assert!(reads_exactly("花江", "Hanae"));
        assert!(reads_exactly("佐藤", "Satou"));
    }
}
