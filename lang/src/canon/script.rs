//! Per-character classification and folding: scripts, marks, ignorables, homoglyphs.

use super::Script;
use unicode_normalization::UnicodeNormalization;

/// Script of one (NFKC-normalized) character. Digits and symbols are `Other` here; callers
/// treat digits as script-neutral.
pub(crate) fn script_of(c: char) -> Script {
    let u = c as u32;
    match u {
        0x41..=0x5A | 0x61..=0x7A => Script::Latin,
        0xC0..=0x24F if u != 0xD7 && u != 0xF7 => Script::Latin,
        0x250..=0x2AF
        | 0x1D00..=0x1D7F
        | 0x1E00..=0x1EFF
        | 0x2C60..=0x2C7F
        | 0xA720..=0xA7FF
        | 0xAB30..=0xAB6F
        | 0xFB00..=0xFB06
        | 0xFF21..=0xFF3A
        | 0xFF41..=0xFF5A => Script::Latin,
        0x370..=0x3FF | 0x1F00..=0x1FFF => Script::Greek,
        0x400..=0x52F | 0x1C80..=0x1C8F | 0x2DE0..=0x2DFF | 0xA640..=0xA69F => Script::Cyrillic,
        0x590..=0x5FF | 0xFB1D..=0xFB4F => Script::Hebrew,
        0x600..=0x6FF | 0x750..=0x77F | 0x8A0..=0x8FF | 0xFB50..=0xFDFF | 0xFE70..=0xFEFF => {
            Script::Arabic
        }
        0x900..=0x97F | 0xA8E0..=0xA8FF => Script::Devanagari,
        0xE00..=0xE7F => Script::Thai,
        0x1100..=0x11FF | 0x3130..=0x318F | 0xA960..=0xA97F | 0xAC00..=0xD7AF | 0xD7B0..=0xD7FF => {
            Script::Hangul
        }
        0x3040..=0x30FF | 0x31F0..=0x31FF | 0xFF66..=0xFF9F => Script::Kana,
        0x3005
        | 0x3007
        | 0x3400..=0x4DBF
        | 0x4E00..=0x9FFF
        | 0xF900..=0xFAFF
        | 0x20000..=0x3134F => Script::Han,
        _ => Script::Other,
    }
}

/// True for a letter of a script written without spaces between words (Chinese, Japanese,
/// Thai) or whose particles attach to the word before them (Korean): such a letter beside a
/// value ("は+7 916 ...", "5678ครับ") is a word boundary, not part of the value's token.
pub fn unspaced_letter(c: char) -> bool {
    matches!(
        script_of(c),
        Script::Han | Script::Kana | Script::Hangul | Script::Thai
    )
}

/// Characters removed before anything else: they never break a word and never show in a form
/// (soft hyphen, zero-width space/joiners, word joiner, BOM, bidi controls, variation selectors).
pub(crate) fn is_ignorable(c: char) -> bool {
    matches!(c as u32,
        0xAD | 0x34F | 0x61C | 0x180E | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x2064
        | 0x2066..=0x2069 | 0xFE00..=0xFE0F | 0xFEFF | 0xE0100..=0xE01EF)
}

/// Combining marks that belong to the preceding letter (diacritics, Hebrew points, Arabic
/// harakat, the vowel signs and viramas of Devanagari, Thai and every other script that writes
/// them: Tamil, Bengali, Telugu, Khmer, Myanmar...). They continue a word, never start one: a
/// virama inside "ஒவ்வாமை" or "তথ্য" does not split the word in two.
pub(crate) fn is_mark(c: char) -> bool {
    // Every range below starts above U+02FF: the common (ASCII, Latin-1) case in one compare.
    (c as u32) >= 0x300 && (listed_mark(c) || unicode_normalization::char::is_combining_mark(c))
}

/// The marks of the scripts folding knows, in one table (the common ones without a lookup).
fn listed_mark(c: char) -> bool {
    matches!(c as u32,
        0x300..=0x36F | 0x483..=0x489 | 0x591..=0x5BD | 0x5BF | 0x5C1..=0x5C2 | 0x5C4..=0x5C5
        | 0x5C7 | 0x610..=0x61A | 0x64B..=0x65F | 0x670 | 0x6D6..=0x6DC | 0x6DF..=0x6E4
        | 0x6E7..=0x6E8 | 0x6EA..=0x6ED | 0x900..=0x903 | 0x93A..=0x93C | 0x93E..=0x94F
        | 0x951..=0x957 | 0x962..=0x963 | 0xE31 | 0xE34..=0xE3A | 0xE47..=0xE4E
        | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF | 0x302A..=0x302F
        | 0x3099..=0x309A | 0xFE20..=0xFE2F)
}

/// Marks that folding strips: Latin/Greek/Cyrillic diacritics, Hebrew points, Arabic harakat.
/// Devanagari and Thai signs carry vowels and are kept.
fn is_strippable_mark(c: char) -> bool {
    matches!(c as u32,
        0x300..=0x36F | 0x483..=0x489 | 0x591..=0x5BD | 0x5BF | 0x5C1..=0x5C2 | 0x5C4..=0x5C5
        | 0x5C7 | 0x610..=0x61A | 0x64B..=0x65F | 0x670 | 0x6D6..=0x6DC | 0x6DF..=0x6E4
        | 0x6E7..=0x6E8 | 0x6EA..=0x6ED | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF
        | 0xFE20..=0xFE2F)
}

/// Identifier separators (after NFKC), the ones that make a `Gap::Joiner`.
pub(crate) fn is_joiner_sep(c: char) -> bool {
    matches!(
        c,
        '-' | '_' | '.' | '/' | '\\' | ':' | '(' | ')' | '+' | '#'
    ) || c.is_whitespace()
}

/// Maps dash-like punctuation to '-' and space-like characters to ' ' (after NFKC).
pub(crate) fn normalize_punct(c: char) -> char {
    match c {
        '\u{2010}'..='\u{2015}' | '\u{2212}' | '\u{FE58}' | '\u{FE63}' | '\u{FF0D}' => '-',
        '\n' => '\n',
        c if c.is_whitespace() => ' ',
        c => c,
    }
}

/// Calls `f` with each character of the NFKC form of `c` (ignorables dropped, punctuation
/// normalized by [`normalize_punct`]).
pub(crate) fn nfkc_chars(c: char, mut f: impl FnMut(char)) {
    if c.is_ascii() {
        f(c);
        return;
    }
    for d in std::iter::once(c).nfkc() {
        if !is_ignorable(d) {
            f(normalize_punct(d));
        }
    }
}

/// True for the letters `fold` keeps whole instead of stripping their mark (Cyrillic short i and
/// short u, where the breve makes a different letter).
fn keep_composed(c: char) -> bool {
    matches!(c, 'й' | 'Й' | 'ў' | 'Ў')
}

/// Folds one NFKC character into `out`: lowercase, diacritics stripped, Latin letters to ASCII,
/// ß to "ss", final sigma to sigma. Non-Latin letters stay in their script.
pub(crate) fn fold_nfkc_char(c: char, out: &mut String) {
    if c.is_ascii() {
        out.push(c.to_ascii_lowercase());
        return;
    }
    if is_strippable_mark(c) || is_ignorable(c) {
        return;
    }
    if keep_composed(c) {
        out.extend(c.to_lowercase());
        return;
    }
    // The breve on o and u is McCune-Reischauer's mark for Korean ㅓ and ㅡ, which Revised
    // Romanization writes "eo" and "eu" ("Yŏng-ho" is "Yeong-ho"); no other romanization of
    // names writes them.
    match c {
        'ŏ' | 'Ŏ' => return out.push_str("eo"),
        'ŭ' | 'Ŭ' => return out.push_str("eu"),
        _ => {}
    }
    let mut push_base = |b: char| {
        if is_strippable_mark(b) {
            return;
        }
        for l in b.to_lowercase() {
            match l {
                'ß' | 'ẞ' => out.push_str("ss"),
                'ς' => out.push('σ'),
                l if l.is_ascii() => out.push(l),
                l if is_strippable_mark(l) => {}
                l if script_of(l) == Script::Latin || l.is_numeric() => {
                    for a in any_ascii::any_ascii_char(l).chars() {
                        if a.is_ascii_alphanumeric() {
                            out.push(a.to_ascii_lowercase());
                        }
                    }
                }
                l => out.push(l),
            }
        }
    };
    unicode_normalization::char::decompose_canonical(c, &mut push_base);
}

/// Folds one original character (NFKC first).
pub(crate) fn fold_char(c: char, out: &mut String) {
    nfkc_chars(c, |d| fold_nfkc_char(d, out));
}

/// Latin look-alike of a Cyrillic or Greek letter (by shape), if it has one.
pub(crate) fn homoglyph(c: char) -> Option<char> {
    Some(match c {
        'а' | 'А' | 'α' | 'Α' => 'a',
        'в' | 'В' | 'β' | 'Β' => 'b',
        'с' | 'С' | 'ϲ' | 'Ϲ' => 'c',
        'ԁ' => 'd',
        'е' | 'Е' | 'ё' | 'Ё' | 'ε' | 'Ε' => 'e',
        'һ' | 'Һ' | 'н' | 'Н' | 'Η' => 'h',
        'і' | 'І' | 'ι' | 'Ι' | 'ӏ' | 'Ӏ' => 'i',
        'ј' | 'Ј' | 'ϳ' => 'j',
        'к' | 'К' | 'κ' | 'Κ' => 'k',
        'м' | 'М' | 'Μ' => 'm',
        'η' | 'Ν' => 'n',
        'о' | 'О' | 'ο' | 'Ο' | 'σ' => 'o',
        'р' | 'Р' | 'ρ' | 'Ρ' => 'p',
        'ԛ' | 'Ԛ' => 'q',
        'ѕ' | 'Ѕ' => 's',
        'т' | 'Т' | 'τ' | 'Τ' => 't',
        'υ' | 'ν' => 'v',
        'ԝ' | 'Ԝ' => 'w',
        'х' | 'Х' | 'χ' | 'Χ' => 'x',
        'у' | 'У' | 'ү' | 'Ү' | 'γ' | 'Υ' => 'y',
        'Ζ' => 'z',
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use crate::canon::chunks;

    fn words(t: &str) -> Vec<&str> {
        chunks(t).into_iter().map(|c| &t[c.span]).collect()
    }

    #[test]
    fn a_virama_or_vowel_sign_never_splits_a_word() {
        // Tamil, Bengali, Telugu, Khmer: viramas and vowel signs are marks of their letter.
        assert_eq!(words("மீனா ராஜேந்திரனின் ஒவ்வாமை"), ["மீனா", "ராஜேந்திரனின்", "ஒவ்வாமை"]);
        assert_eq!(words("অনু দাসের তথ্য"), ["অনু", "দাসের", "তথ্য"]);
        assert_eq!(words("తెలుగు"), ["తెలుగు"]);
        assert_eq!(words("ខ្មែរ"), ["ខ្មែរ"]);
        // The scripts listed before keep their reading.
        assert_eq!(words("प्रिया शर्मा"), ["प्रिया", "शर्मा"]);
    }
}
