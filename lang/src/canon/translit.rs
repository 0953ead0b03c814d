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
//! - The other Brahmic scripts (Bengali, Tamil, ...) are read by the Devanagari rules
//!   (`super::brahmic`).
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
        Script::Thai => thai(w),
        Script::Other => super::brahmic::brahmic(w).unwrap_or_else(|| lower_ascii(w)),
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
    devanagari_with(w, true)
}

/// [`devanagari`], with or without Hindi's deletion of the inherent vowel.
pub(super) fn devanagari_with(w: &str, delete_schwa: bool) -> String {
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
    if !delete_schwa {
        return spell(&units, &deleted);
    }
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
    spell(&units, &deleted)
}

/// The romanization of `units`, without the inherent vowels `deleted` marks.
fn spell(units: &[Dv], deleted: &[bool]) -> String {
    let mut s = String::with_capacity(units.len() * 2);
    for (u, d) in units.iter().zip(deleted) {
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

/// Thai consonants with their initial and final sounds in the Royal Thai General System of
/// Transcription (RTGS), except final ว, written "w" as Thai names are in Latin letters
/// ("Kaew", not "Kaeo"). อ has no sound of its own at the start of a syllable.
const THAI_CONSONANTS: &[(char, &str, &str)] = &[
    ('ก', "k", "k"),
    ('ข', "kh", "k"),
    ('ฃ', "kh", "k"),
    ('ค', "kh", "k"),
    ('ฅ', "kh", "k"),
    ('ฆ', "kh", "k"),
    ('ง', "ng", "ng"),
    ('จ', "ch", "t"),
    ('ฉ', "ch", "t"),
    ('ช', "ch", "t"),
    ('ซ', "s", "t"),
    ('ฌ', "ch", "t"),
    ('ญ', "y", "n"),
    ('ฎ', "d", "t"),
    ('ฏ', "t", "t"),
    ('ฐ', "th", "t"),
    ('ฑ', "th", "t"),
    ('ฒ', "th", "t"),
    ('ณ', "n", "n"),
    ('ด', "d", "t"),
    ('ต', "t", "t"),
    ('ถ', "th", "t"),
    ('ท', "th", "t"),
    ('ธ', "th", "t"),
    ('น', "n", "n"),
    ('บ', "b", "p"),
    ('ป', "p", "p"),
    ('ผ', "ph", "p"),
    ('ฝ', "f", "p"),
    ('พ', "ph", "p"),
    ('ฟ', "f", "p"),
    ('ภ', "ph", "p"),
    ('ม', "m", "m"),
    ('ย', "y", "i"),
    ('ร', "r", "n"),
    ('ล', "l", "n"),
    ('ว', "w", "w"),
    ('ศ', "s", "t"),
    ('ษ', "s", "t"),
    ('ส', "s", "t"),
    ('ห', "h", ""),
    ('ฬ', "l", "n"),
    ('อ', "", ""),
    ('ฮ', "h", ""),
];

/// The RTGS initial and final sound of a Thai consonant.
fn thai_consonant(c: char) -> Option<(&'static str, &'static str)> {
    THAI_CONSONANTS
        .iter()
        .find(|(t, _, _)| *t == c)
        .map(|&(_, i, f)| (i, f))
}

/// Vowels written before the consonant they follow in speech.
const THAI_LEADING: &[char] = &['เ', 'แ', 'โ', 'ใ', 'ไ'];
/// Vowel signs written above or below a consonant, or after it.
const THAI_SIGNS: &[char] = &['ั', 'ิ', 'ี', 'ึ', 'ื', 'ุ', 'ู', 'ะ', 'า', 'ำ'];

/// Romanization of a run of Thai in the RTGS, syllable by syllable (`any_ascii` writes the letters in
/// written order, so "แก้ว" became "aekw" and "สมชาย" "smchay"). A leading vowel is read after
/// its consonant; tone marks are dropped, and a letter under the silencer ์ (with a ร before it
/// in ทร์) is not read ("พงษ์" -> "phong", "ทิพย์" -> "thip"); a syllable without a written vowel
/// reads "o" before its final consonant and "a" when open ("สมชาย" -> "somchai", "สบาย" ->
/// "sabai"); ร and ล after ก ข ค ต ป ผ พ, and ว after ก ข ค, form a cluster when a vowel follows
/// ("ประ" -> "pra", "กล้า" -> "kla"); ห before a sonorant and อ before ย are silent ("หญิง" ->
/// "ying"). Three departures from RTGS follow how Thai names are written in Latin letters: final
/// ว is "w" ("Kaew"), เ-ิ is "er" ("Prasert"), ศร and สร are "sr" ("Sri").
/// Thai spelling has exceptions no rule of this size reads (silent letters in loanwords); names
/// keep their skeleton either way.
fn thai(w: &str) -> String {
    // Tone marks, the short-vowel mark and the repetition signs carry no letter.
    let mut cs: Vec<char> = w
        .chars()
        .filter(|c| !matches!(c, '\u{0E47}'..='\u{0E4B}' | 'ๆ' | 'ฯ'))
        .collect();
    // The silencer: the consonant under it is not read, nor a vowel sign on it, nor the ท or
    // ด of ทร์ / ดร์.
    while let Some(k) = cs.iter().position(|&c| c == '\u{0E4C}') {
        let mut from = k.saturating_sub(1);
        if from > 0 && matches!(cs[from], 'ิ' | 'ุ') {
            from -= 1;
        }
        if cs[from] == 'ร' && from > 0 && matches!(cs[from - 1], 'ท' | 'ด') {
            from -= 1;
        }
        cs.drain(from..=k);
    }
    let consonant = |c: char| thai_consonant(c).is_some();
    let sign = |c: char| THAI_SIGNS.contains(&c);
    let mut out = String::with_capacity(w.len() * 2);
    let mut i = 0;
    let n = cs.len();
    while i < n {
        let lead = THAI_LEADING.contains(&cs[i]).then(|| {
            i += 1;
            cs[i - 1]
        });
        let Some((mut initial, _)) = cs.get(i).and_then(|&c| thai_consonant(c)) else {
            // A lone vowel or another character: letter by letter.
            if let Some(l) = lead {
                out.push_str(thai_lead_alone(l));
            } else if let Some(&c) = cs.get(i) {
                lower_ascii_char(c, &mut out);
                i += 1;
            }
            continue;
        };
        let first = cs[i];
        i += 1;
        // ห before a sonorant and อ before ย are silent: they only carry the tone.
        if (first == 'ห' && cs.get(i).is_some_and(|c| "งญนมยรลว".contains(*c)))
            || (first == 'อ' && cs.get(i) == Some(&'ย'))
        {
            initial = thai_consonant(cs[i]).map_or("", |v| v.0);
            i += 1;
        }
        out.push_str(initial);
        // A cluster: ร ล ว after a stop, when a vowel (or a leading vowel) makes it one onset.
        // After a leading vowel ว is the final ("แก้ว" -> "kaew"), not a cluster. ศร and สร
        // are read "sr" as names write them ("ศรี" -> "sri").
        if let Some(&c2) = cs.get(i)
            && (("รล".contains(c2) && "กขคตปผพ".contains(first))
                || (c2 == 'ว' && "กขค".contains(first) && lead.is_none())
                || (c2 == 'ร' && "ศส".contains(first) && lead.is_none()))
            && (lead.is_some() || cs.get(i + 1).is_some_and(|&c| sign(c)))
        {
            out.push_str(thai_consonant(c2).map_or("", |v| v.0));
            i += 1;
        }
        // The vowel.
        let next = cs.get(i).copied();
        let after = cs.get(i + 1).copied();
        let long_vowel = lead.is_none() && matches!(next, Some('า' | 'ี' | 'ู' | 'ื'));
        let vowel: &str = match (lead, next) {
            (Some('เ'), Some('ี')) if after == Some('ย') => {
                i += 2;
                "ia"
            }
            (Some('เ'), Some('ื')) if after == Some('อ') => {
                i += 2;
                "uea"
            }
            // เ-ิ is "oe" in RTGS and "er" in the names people write ("ประเสริฐ" ->
            // "prasert"); a ร before ิ there is silent.
            (Some('เ'), Some('ร')) if after == Some('ิ') => {
                i += 2;
                "er"
            }
            (Some('เ'), Some('ิ')) => {
                i += 1;
                "er"
            }
            (Some('เ'), Some('า')) => {
                i += 1;
                if cs.get(i) == Some(&'ะ') {
                    i += 1;
                    "o"
                } else {
                    "ao"
                }
            }
            (Some('เ'), Some('อ')) => {
                i += 1;
                "oe"
            }
            (Some('เ'), Some('ะ')) => {
                i += 1;
                "e"
            }
            (Some('เ'), _) => "e",
            (Some('แ'), Some('ะ')) => {
                i += 1;
                "ae"
            }
            (Some('แ'), _) => "ae",
            (Some('โ'), Some('ะ')) => {
                i += 1;
                "o"
            }
            (Some('โ'), _) => "o",
            (Some(_), _) => "ai",
            (None, Some('ั')) if after == Some('ว') => {
                i += 2;
                "ua"
            }
            (None, Some('ั' | 'ะ' | 'า')) => {
                i += 1;
                "a"
            }
            (None, Some('ำ')) => {
                i += 1;
                "am"
            }
            (None, Some('ิ' | 'ี')) => {
                i += 1;
                "i"
            }
            (None, Some('ึ')) => {
                i += 1;
                "ue"
            }
            (None, Some('ื')) => {
                i += 1;
                if cs.get(i) == Some(&'อ') {
                    i += 1;
                }
                "ue"
            }
            (None, Some('ุ' | 'ู')) => {
                i += 1;
                "u"
            }
            // อ or ว between two consonants: the vowels "o" and "ua" ("ก่อน", "สวน").
            (None, Some('อ')) if after.is_some_and(consonant) || after.is_none() => {
                i += 1;
                "o"
            }
            (None, Some('ว')) if after.is_some_and(consonant) => {
                i += 1;
                "ua"
            }
            // No written vowel: "o" before a final consonant, "a" in an open syllable.
            (None, Some(c)) if consonant(c) => {
                let closes = after.is_none_or(|a| consonant(a) || THAI_LEADING.contains(&a));
                if closes { "o" } else { "a" }
            }
            (None, _) => "a",
        };
        out.push_str(vowel);
        // The silent ย of ไทย, ไชย.
        if matches!(lead, Some('ไ'))
            && cs.get(i) == Some(&'ย')
            && !cs.get(i + 1).is_some_and(|&a| sign(a))
        {
            i += 1;
        }
        // The final consonant: one not followed by a vowel sign of its own. Syllables ending in
        // ะ, ำ, ใ, ไ or เ-า take none.
        let open = matches!(vowel, "am" | "ao") || matches!(lead, Some('ใ' | 'ไ'));
        // After a long vowel sign, a consonant followed by one last consonant of the word
        // begins the last syllable, which reads "o" before its final: "สุภาพร" is
        // "suphaphon", not "suphap-ra" (a word never ends in a consonant without a vowel). A
        // short vowel needs a final of its own ("บัตร", "bat": the ร is silent).
        let last_syllable =
            long_vowel && i + 2 == n && cs.get(i + 1).is_some_and(|&c| consonant(c) && c != 'อ');
        if !open
            && !last_syllable
            && let Some(&c) = cs.get(i)
            && let Some((_, fin)) = thai_consonant(c)
            && !cs.get(i + 1).is_some_and(|&a| sign(a))
        {
            // ย after the vowel reads "i": "ai", "oi", "ui" ("ชาย" -> "chai").
            out.push_str(fin);
            i += 1;
        }
    }
    out
}

/// A leading vowel with no consonant after it, as `any_ascii` would write it.
fn thai_lead_alone(c: char) -> &'static str {
    match c {
        'เ' => "e",
        'แ' => "ae",
        'โ' => "o",
        _ => "ai",
    }
}
