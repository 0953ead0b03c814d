//! Transliteration of one word of a non-Latin script to lowercase ASCII.
//!
//! `any_ascii` does the bulk. Three scripts get a thin layer of their own because `any_ascii`
//! maps character by character and so misses rules that standard romanizations state on
//! sequences:
//!
//! - Cyrillic: `е`/`ё` are "ye" at the start of a word and after a vowel, `ъ`, `ь` or `й`
//!   (BGN/PCGN 1947), otherwise "e" (`Соловьёв` -> "solov'yev", not "solov'ev").
//! - Greek: the digraphs of ELOT 743 / ISO 843: `ου` "ou", `αυ`/`ευ`/`ηυ` "av"/"ev"/"iv" (before
//!   a voiceless consonant "af"/"ef"/"if"), `μπ` "b" word-initially else "mb", `ντ` "d"
//!   word-initially else "nt", `γκ` "g" word-initially else "ng", `γγ` "ng", `γξ` "nx", `γχ` "nch".
//! - Devanagari: `any_ascii` drops the inherent vowel of every consonant ("शर्मा" -> "srma").
//!   Here a consonant carries "a" unless a vowel sign or virama follows, with Hindi schwa
//!   deletion: the word-final inherent "a" is dropped (unless the word is one consonant or ends in
//!   a conjunct), and a medial inherent "a" in the context V C _ C V is dropped (Ohala's rule), so
//!   "राहुल" -> "rahul", "शर्मा" -> "sharma", "राजकुमार" -> "rajkumar".
//! - Hangul: Revised Romanization (Ministry of Culture, 2000) of each syllable, read from its
//!   jamo: `any_ascii` writes a final consonant as it would an initial one ("박" -> "bag"), where
//!   the standard, every passport and every popular spelling write the syllable-final sound
//!   ("bak", "Pak", "Park"): final ㄱ ㄲ ㅋ -> k, ㄷ ㅅ ㅆ ㅈ ㅊ ㅌ ㅎ -> t, ㅂ ㅍ -> p, ㄹ -> l.
//!   Syllables are romanized one by one, as names are (no sound changes across syllables).

use super::Script;

/// Transliterates one word (a run of one script) to lowercase ASCII. The result may contain
/// apostrophes and other punctuation from `any_ascii`; callers keep only alphanumerics.
pub(crate) fn word(script: Script, w: &str) -> String {
    match script {
        Script::Cyrillic => cyrillic(w),
        Script::Greek => greek(w),
        Script::Devanagari => devanagari(w),
        Script::Hangul => hangul(w),
        _ => lower_ascii(w),
    }
}

/// `any_ascii`, lowercased.
pub(crate) fn lower_ascii(w: &str) -> String {
    let mut s = String::with_capacity(w.len());
    for c in w.chars() {
        lower_ascii_char(c, &mut s);
    }
    s
}

/// `any_ascii` of one character, lowercased, appended to `s`.
pub(crate) fn lower_ascii_char(c: char, s: &mut String) {
    for a in any_ascii::any_ascii_char(c).chars() {
        s.push(a.to_ascii_lowercase());
    }
}

/// Revised Romanization initials, medials and finals, in jamo order (Unicode's syllable
/// decomposition: `syllable = 0xAC00 + (initial * 21 + medial) * 28 + final`).
const HANGUL_INITIALS: [&str; 19] = [
    "g", "kk", "n", "d", "tt", "r", "m", "b", "pp", "s", "ss", "", "j", "jj", "ch", "k", "t", "p",
    "h",
];
const HANGUL_MEDIALS: [&str; 21] = [
    "a", "ae", "ya", "yae", "eo", "e", "yeo", "ye", "o", "wa", "wae", "oe", "yo", "u", "wo", "we",
    "wi", "yu", "eu", "ui", "i",
];
const HANGUL_FINALS: [&str; 28] = [
    "", "k", "k", "k", "n", "n", "n", "t", "l", "k", "m", "l", "l", "l", "p", "l", "m", "p", "p",
    "t", "t", "ng", "t", "t", "k", "t", "p", "t",
];

/// Revised Romanization of a run of Hangul, syllable by syllable; anything else (a lone jamo)
/// through `any_ascii`.
fn hangul(w: &str) -> String {
    let mut s = String::with_capacity(w.len());
    for c in w.chars() {
        let code = c as u32;
        if (0xAC00..=0xD7A3).contains(&code) {
            let index = (code - 0xAC00) as usize;
            s.push_str(HANGUL_INITIALS[index / (21 * 28)]);
            s.push_str(HANGUL_MEDIALS[(index / 28) % 21]);
            s.push_str(HANGUL_FINALS[index % 28]);
        } else {
            lower_ascii_char(c, &mut s);
        }
    }
    s
}

fn cyrillic(w: &str) -> String {
    let mut s = String::with_capacity(w.len() * 2);
    let mut prev: Option<char> = None;
    for c in w.chars().flat_map(char::to_lowercase) {
        match c {
            'е' | 'ё' => {
                let ye = match prev {
                    None => true,
                    Some(p) => "аеёиоуыэюяіїєъьй".contains(p),
                };
                s.push_str(if ye { "ye" } else { "e" });
            }
            _ => {
                for a in any_ascii::any_ascii_char(c).chars() {
                    s.push(a.to_ascii_lowercase());
                }
            }
        }
        if !super::script::is_mark(c) {
            prev = Some(c);
        }
    }
    s
}

/// Strips accents and lowercases Greek (tonos, dialytika), final sigma to sigma.
fn greek_base(w: &str) -> Vec<char> {
    let mut v = Vec::with_capacity(w.len());
    for c in w.chars() {
        unicode_normalization::char::decompose_canonical(c, |d| {
            if !super::script::is_mark(d) {
                for l in d.to_lowercase() {
                    v.push(if l == 'ς' { 'σ' } else { l });
                }
            }
        });
    }
    v
}

fn greek(w: &str) -> String {
    let v = greek_base(w);
    let mut s = String::with_capacity(v.len() * 2);
    let mut i = 0;
    while i < v.len() {
        let c = v[i];
        let n = v.get(i + 1).copied();
        let after = v.get(i + 2).copied();
        let initial = i == 0;
        let voiceless = |x: Option<char>| {
            matches!(
                x,
                None | Some('θ' | 'κ' | 'ξ' | 'π' | 'σ' | 'τ' | 'φ' | 'χ' | 'ψ')
            )
        };
        let pair: Option<&str> = match (c, n) {
            ('ο', Some('υ')) => Some("ou"),
            ('α', Some('υ')) => Some(if voiceless(after) { "af" } else { "av" }),
            ('ε', Some('υ')) => Some(if voiceless(after) { "ef" } else { "ev" }),
            ('η', Some('υ')) => Some(if voiceless(after) { "if" } else { "iv" }),
            ('μ', Some('π')) => Some(if initial { "b" } else { "mb" }),
            ('ν', Some('τ')) => Some(if initial { "d" } else { "nt" }),
            ('γ', Some('κ')) => Some(if initial { "g" } else { "ng" }),
            ('γ', Some('γ')) => Some("ng"),
            ('γ', Some('ξ')) => Some("nx"),
            ('γ', Some('χ')) => Some("nch"),
            _ => None,
        };
        if let Some(p) = pair {
            s.push_str(p);
            i += 2;
            continue;
        }
        match c {
            'η' | 'ι' | 'υ' => s.push(if c == 'υ' { 'y' } else { 'i' }),
            'χ' => s.push_str("ch"),
            _ => {
                for a in any_ascii::any_ascii_char(c).chars() {
                    s.push(a.to_ascii_lowercase());
                }
            }
        }
        i += 1;
    }
    s
}

/// A Devanagari syllable unit during transliteration.
enum Dv {
    /// A consonant with its (possibly deleted) inherent vowel: (romanization, vowel).
    Cons(&'static str, Option<&'static str>, bool),
    /// An independent vowel or other output.
    Other(String),
}

fn dv_consonant(c: char) -> Option<&'static str> {
    Some(match c {
        'क' => "k",
        'ख' => "kh",
        'ग' => "g",
        'घ' => "gh",
        'ङ' => "n",
        'च' => "ch",
        'छ' => "chh",
        'ज' => "j",
        'झ' => "jh",
        'ञ' => "n",
        'ट' => "t",
        'ठ' => "th",
        'ड' => "d",
        'ढ' => "dh",
        'ण' => "n",
        'त' => "t",
        'थ' => "th",
        'द' => "d",
        'ध' => "dh",
        'न' => "n",
        'ऩ' => "n",
        'प' => "p",
        'फ' => "ph",
        'ब' => "b",
        'भ' => "bh",
        'म' => "m",
        'य' => "y",
        'र' => "r",
        'ऱ' => "r",
        'ल' => "l",
        'ळ' => "l",
        'ऴ' => "l",
        'व' => "v",
        'श' => "sh",
        'ष' => "sh",
        'स' => "s",
        'ह' => "h",
        '\u{958}' => "q",
        '\u{959}' => "kh",
        '\u{95A}' => "g",
        '\u{95B}' => "z",
        '\u{95C}' => "r",
        '\u{95D}' => "rh",
        '\u{95E}' => "f",
        '\u{95F}' => "y",
        _ => return None,
    })
}

fn dv_nukta(base: &'static str) -> &'static str {
    match base {
        "k" => "q",
        "j" => "z",
        "ph" => "f",
        "d" => "r",
        "dh" => "rh",
        b => b,
    }
}

fn dv_sign(c: char) -> Option<&'static str> {
    Some(match c {
        'ा' => "a",
        'ि' => "i",
        'ी' => "i",
        'ु' => "u",
        'ू' => "u",
        'ृ' => "ri",
        'ॄ' => "ri",
        'ॅ' => "e",
        'ॆ' => "e",
        'े' => "e",
        'ै' => "ai",
        'ॉ' => "o",
        'ॊ' => "o",
        'ो' => "o",
        'ौ' => "au",
        'ॢ' => "li",
        'ॣ' => "li",
        _ => return None,
    })
}

fn dv_vowel(c: char) -> Option<&'static str> {
    Some(match c {
        'अ' => "a",
        'आ' => "a",
        'इ' => "i",
        'ई' => "i",
        'उ' => "u",
        'ऊ' => "u",
        'ऋ' => "ri",
        'ॠ' => "ri",
        'ऌ' => "li",
        'ऍ' => "e",
        'ऎ' => "e",
        'ए' => "e",
        'ऐ' => "ai",
        'ऑ' => "o",
        'ऒ' => "o",
        'ओ' => "o",
        'औ' => "au",
        _ => return None,
    })
}

fn devanagari(w: &str) -> String {
    // Cons(roman, vowel, explicit): vowel None = virama (no vowel); explicit = vowel sign given.
    let mut units: Vec<Dv> = Vec::with_capacity(w.len() / 2);
    for c in w.chars() {
        if let Some(r) = dv_consonant(c) {
            units.push(Dv::Cons(r, Some("a"), false));
            continue;
        }
        let last = units.last_mut();
        match (c, last) {
            ('़', Some(Dv::Cons(r, _, _))) => *r = dv_nukta(r),
            ('्', Some(Dv::Cons(_, v, false))) => *v = None,
            (s, Some(Dv::Cons(_, v, e @ false))) if dv_sign(s).is_some() => {
                *v = dv_sign(s);
                *e = true;
            }
            ('ं' | 'ँ', _) => units.push(Dv::Other("n".into())),
            ('ः', _) => units.push(Dv::Other("h".into())),
            _ => {
                if let Some(v) = dv_vowel(c).or_else(|| dv_sign(c)) {
                    units.push(Dv::Other(v.into()));
                } else if c.is_ascii() {
                    units.push(Dv::Other(c.to_ascii_lowercase().to_string()));
                } else if ('०'..='९').contains(&c) {
                    let d = (c as u32 - '०' as u32) as u8;
                    units.push(Dv::Other(((b'0' + d) as char).to_string()));
                } else if !super::script::is_mark(c) {
                    units.push(Dv::Other(super::translit::lower_ascii(&c.to_string())));
                }
            }
        }
    }
    // Schwa deletion. A unit "has a vowel" if it is a consonant with a vowel or an independent
    // vowel; an inherent (implicit) 'a' may be deleted.
    let n = units.len();
    let is_inherent = |u: &Dv| matches!(u, Dv::Cons(_, Some(_), false));
    let ends_vowel = |u: &Dv| match u {
        Dv::Cons(_, v, _) => v.is_some(),
        Dv::Other(s) => s.ends_with(['a', 'e', 'i', 'o', 'u']),
    };
    let mut deleted = vec![false; n];
    // Word-final: the last consonant's inherent a, unless it is the only unit or a conjunct
    // (previous consonant with virama) precedes it.
    if n >= 2 && is_inherent(&units[n - 1]) && !matches!(units[n - 2], Dv::Cons(_, None, _)) {
        deleted[n - 1] = true;
    }
    // Medial, right to left: V C [a] C V -> drop, never two in a row.
    for i in (1..n.saturating_sub(1)).rev() {
        if !is_inherent(&units[i]) {
            continue;
        }
        let prev_vowel = ends_vowel(&units[i - 1]) && !deleted[i - 1];
        let next_cv = matches!(units[i + 1], Dv::Cons(_, Some(_), _)) && !deleted[i + 1];
        if prev_vowel && next_cv {
            deleted[i] = true;
        }
    }
    let mut s = String::with_capacity(n * 2);
    for (u, d) in units.iter().zip(&deleted) {
        match u {
            Dv::Cons(r, v, _) => {
                s.push_str(r);
                if let (Some(v), false) = (v, d) {
                    s.push_str(v);
                }
            }
            Dv::Other(o) => s.push_str(o),
        }
    }
    s
}
