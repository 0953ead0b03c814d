//! Canonicalization: deterministic matching of identifiers and names across obfuscation,
//! formatting and scripts, without a language model.
//!
//! Deletion targeting ("forget everything about TXN-4481", "forget Mikhail Solovyov") has to
//! find every spelling of its target in stored text: `txn 4481`, `ＴＸＮ４４８１`, `Михаил
//! Соловьёв`, `аlice@example.com` with a Cyrillic `а`. This module is the pure function from
//! text to comparable pieces; the store decides what to do with them. See
//! `docs/canonicalization.md` for the full specification with examples.
//!
//! - [`fold`]: NFKC, case folding, diacritics, full-width, homoglyphs, zero-width characters.
//! - [`transliterate`]: any script to lowercase ASCII (per syllable for Han and Hangul).
//! - [`chunks`]: the alphanumeric chunks of a text with their spans in the original.
//! - [`identifiers`]: typed identifiers (e-mails, handles, phones, IBANs, IPs, MACs, hostnames,
//!   URLs, codes) with canonical forms.
//! - [`code`] and [`find_code`]: whole-chunk matching of identifier-like query strings.
//! - [`variant_key`], [`skeleton`], [`same_name`]: names across romanization systems.
//!
//! Everything here is deterministic and total: no panics, byte spans always on character
//! boundaries of the original text, bounded work per input character. The behaviour is versioned
//! by [`CANONICALIZER_VERSION`], which the store records wherever a decision depended on it.
//!
//! # Spelling-variant rules
//!
//! [`variant_key`] takes a folded, transliterated word and applies these rules, in this order,
//! repeatedly until nothing changes (each pass shrinks the word or leaves it stable):
//!
//! | step | rule | source | example |
//! |---|---|---|---|
//! | 0 | keep ASCII letters only; apostrophes (soft and hard signs) and digits go | ISO 9 / BGN `'` `"` | `Solov'yev` -> `solovyev` |
//! | 1 | doubled letters collapse | German, Italian, English orthography | `Gross` ~ `Gros`, `Anna` -> `ana` |
//! | 2 | `tsch` -> `h`, `tch` -> `h` (through `ch`) | German Duden `tsch`, French `tch` for ч | `Tschechow` ~ `Tchekhov` ~ `Chekhov` |
//! | 2 | `sch` -> `sh` | German Duden for ш | `Schewtschenko` ~ `Shevchenko` |
//! | 2 | `ch` -> `h`, `kh` -> `h` | German/Greek `ch`, BGN `kh` for х/χ | `Michail` ~ `Mikhail` |
//! | 2 | `ck` -> `k`, `ph` -> `f`, `th` -> `t` | German `ck`; Greek φ, θ | `Theodor` ~ `Teodor` |
//! | 2 | `dj` -> `d` | Serbo-Croatian `dj` for đ / ђ | `Djordje` ~ `Đorđe` |
//! | 3 | `c` -> `s` before `e`/`i`/`y`, else `k`; `q` -> `k` | Romance/English `c` | `Marcus` ~ `Markus` |
//! | 3 | `w` -> `v` | German `w` for в | `Solowjow` ~ `Solovyov` |
//! | 3 | `x` -> `ks` | Greek ξ, Latin `x` | `Alexandr` ~ `Aleksandr` |
//! | 3 | `j` -> `i`, `y` -> `i` | German `j`, BGN `y` for й/ы/ь-glide | `Dmitriy` ~ `Dmitrij` |
//! | 4 | `ou` -> `u` | French `ou` for у, Greek ου | `Iouri` ~ `Yuri` |
//! | 4 | `ue` -> `u`, `oe` -> `o`, `ae` -> `a` | German umlaut transcription | `Mueller` ~ `Müller` |
//! | 5 | doubled letters collapse again (`ii`, `iy`, `ij` end as `i`) | | `Dmitriy` ~ `Dmitry` ~ `Dmitri` |
//! | 5 | `io`/`ie` (from `yo`, `ye`, `jo`, `je`, `io`, `ie`) before a consonant -> `ie` | Russian ё/е: BGN `yo`/`ye`, German `jo`, French `io` | `Solovyov` ~ `Soloviev` ~ `Solowjow` |
//!
//! The rules merge spellings of one name, never suffixes or vowel changes: `Solovyov` /
//! `Solovyeva`, `Solovyov` / `Соловей`, `Hale` / `Haley`, `Ann` / `Anna`, `Tom` / `Tim`,
//! `Ivan` / `Ivanov` keep different keys. The `ie` rule applies only before a consonant, so a
//! final vowel is kept (`Mario` / `Marie`).
//!
//! Hangul syllables (and words compared against one) are first relaxed for the differences
//! between Revised Romanization, McCune-Reischauer and popular spellings: initial `g`->`k`,
//! `d`->`t`, `b`->`p`, `j`->`ch`, `r`->`l`, and `eo`->`o`, `eu`->`u` (`gim` ~ `Kim`).
//! McCune-Reischauer's `ŏ` and `ŭ` fold to Revised Romanization's `eo` and `eu` in every text
//! (`Yŏng-ho` ~ `Yeong-ho`): the breve on o and u marks Korean vowels in no other romanization of
//! names.
//!
//! # Consonant skeletons
//!
//! Arabic and Hebrew are written without most vowels, so their transliteration (`محمد` ->
//! `mhmd`, `יוסי` -> `yvsy`) cannot have the same variant key as a vocalized Latin spelling.
//! When either side of [`same_name`] comes from an abjad, [`skeleton`] compares consonants:
//! `kh`/`ch` -> `k`, `sh` -> `s`, `th` -> `t`, `dh` -> `d`, `gh` -> `g`, `ph` -> `f`, `zh` -> `z`,
//! `c`/`q` -> `k`; vowels `a e i o u` dropped; `w`, `v`, `y` dropped except word-initially (they
//! are the matres lectionis و/ו and ي/י, written for long vowels); doubled consonants collapse.
//! `h` is kept: it is a consonant (ح, ه, ה) on both sides (`Mohammed` -> `mhmd`, `Ahmed` ->
//! `hmd`, `Cohen` -> `khn`, `כהן` -> `khn`, `Yossi` -> `ys`, `Mansour` -> `mnsr`), except that
//! an abjad word's final `h` may also be dropped ([`abjad_skeletons`]): word-final ה, ه and ة
//! write a vowel (`فاطمة` -> `ftm` = `Fatima`, `רבקה` -> `rbk` = `Rivka`). The other way round,
//! an abjad writes a name's final vowel: a Latin name ending in one meets only an abjad name
//! whose last letter can write it ([`vowel_finals_agree`]; `Yosefa` is not `יוסף`).

mod brahmic;
mod cantonese;
mod ident;
pub mod japanese;
mod loanword;
mod name_forms;
mod script;
mod tables;
#[cfg(test)]
mod tests;
mod thai_words;
mod translit;
mod variant;

use std::ops::Range;

pub use cantonese::variant_keys as cantonese_variant_keys;
pub use ident::{code, find_code, identifiers, same_identifier};
pub use loanword::{
    MIN_CLASSES as LOAN_MIN_CLASSES, borrowed, loan_key, loan_keys_of, spelled_acronym,
};
pub use name_forms::{
    abjad_skeletons, inflected_forms, masculine_genitive, masculine_genitive_of_spelling,
    same_inflected_name, same_inflected_spelling, same_name, thai_variant_key, vowel_finals_agree,
    without_initial_glide,
};
pub use script::unspaced_letter;
pub use tables::{exonyms, han_readings, han_surname_readings, place_pair};

/// Version of the canonicalization rules. Recorded in the log and in receipts wherever a
/// decision (which rows a target matched) depended on them; any change to folding, chunking,
/// identifier forms or variant keys changes it.
pub const CANONICALIZER_VERSION: &str = "oubli-canon-18";

/// Writing system a word came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Script {
    /// Latin letters (and digits, which belong to no script).
    Latin,
    /// Cyrillic.
    Cyrillic,
    /// Greek.
    Greek,
    /// Arabic (an abjad).
    Arabic,
    /// Hebrew (an abjad).
    Hebrew,
    /// Devanagari.
    Devanagari,
    /// Han ideographs (Chinese hanzi, Japanese kanji, Korean hanja).
    Han,
    /// Hangul syllables and jamo.
    Hangul,
    /// Hiragana and katakana.
    Kana,
    /// Thai.
    Thai,
    /// Any other script.
    Other,
}

/// One alphanumeric chunk of a text: a maximal run of letters/digits after folding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chunk {
    /// Folded form (see `fold`), transliterated to Latin when the original is not Latin.
    pub form: String,
    /// Byte range of the chunk in the ORIGINAL text (not the folded one).
    pub span: Range<usize>,
    /// Script of the original characters.
    pub script: Script,
    /// True if the original started with an uppercase letter, or is from a script without case
    /// (so it may be a name).
    pub capitalized: bool,
    /// Separator class between the previous chunk and this one: `None` for the first chunk,
    /// `Some(Gap::Joiner)` if only identifier separators (space, '-', '_', '.', '/', '\\', ':', '(' ')',
    /// '+', '#') and at most one space-run lie between them, `Some(Gap::Break)` otherwise (other
    /// punctuation such as ',', ';', '!', '?', '"', or a sentence end).
    pub gap: Option<Gap>,
    /// True if the original word's last letter writes a vowel or may: a vowel letter in an
    /// alphabet (`a i o u y` after transliteration; a final `e` is often silent, as in French
    /// "Amine" for أمين, and does not count), and in an abjad a mater lectionis or a letter
    /// a Latin spelling writes as a vowel (Hebrew א ה ו י ע, Arabic ا ى ي و ة ه ء ع and the
    /// hamza seats, Persian and Urdu ی ے ہ). An abjad writes a name's final vowel, so a Latin
    /// name ending in one is not an abjad name ending in a consonant (see [`same_name`]).
    pub vowel_final: bool,
}

/// What separates two consecutive chunks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gap {
    /// Identifier separators only: the chunks may be parts of one identifier or name.
    Joiner,
    /// Anything else: the chunks never join.
    Break,
}

/// A typed identifier found in a text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identifier {
    /// What kind of identifier it is.
    pub kind: IdKind,
    /// Canonical form, kind-specific (documented per kind on [`IdKind`]).
    pub canonical: String,
    /// Byte range in the original text.
    pub span: Range<usize>,
}

/// Kinds of identifiers, with their canonical forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum IdKind {
    /// E-mail address: lowercase, `+tag` stripped from the local part; for gmail.com and
    /// googlemail.com dots removed from the local part and the domain is gmail.com. Also found
    /// in obfuscated forms (`alice at example dot com`, `alice [at] example [dot] com`).
    Email,
    /// `@name` handle, folded: `@Zoë_Ward` -> `@zoe_ward`.
    Handle,
    /// Phone number: digits with a leading `+` when written with `+` or `00` (7-15 digits).
    Phone,
    /// IBAN with a valid mod-97 check: uppercase, no spaces.
    Iban,
    /// IPv4 dotted quad, leading zeros dropped.
    Ipv4,
    /// IPv6, in the canonical compressed lowercase form of `std::net::Ipv6Addr`.
    Ipv6,
    /// MAC address: 12 lowercase hex digits.
    Mac,
    /// Host name: lowercase dotted labels with an alphabetic TLD, trailing dot dropped.
    Hostname,
    /// URL: scheme and host lowercased, the rest kept.
    Url,
    /// Any other identifier-shaped token: canonical form is [`code`] of the span.
    Code,
}

// ---------------------------------------------------------------------------------------------
// Segmentation of the original text into units and words.

#[derive(Clone, Copy, Debug)]
enum UKind {
    Ignorable,
    Mark,
    Sep(char),
    /// A letter (`Some(script)`) or digit (`None`); `upper`/`caseless` of the NFKC char.
    Alnum {
        script: Option<Script>,
        upper: bool,
        caseless: bool,
    },
}

#[derive(Clone, Copy, Debug)]
struct Unit {
    start: usize,
    end: usize,
    ch: char,
    kind: UKind,
}

fn units(text: &str) -> Vec<Unit> {
    let mut v = Vec::with_capacity(text.len());
    for (start, ch) in text.char_indices() {
        let end = start + ch.len_utf8();
        // ASCII is its own NFKC form, neither ignorable nor a mark: a letter is Latin and cased,
        // a digit has no script, anything else separates.
        let kind = if ch.is_ascii() {
            if ch.is_ascii_alphanumeric() {
                UKind::Alnum {
                    script: (!ch.is_ascii_digit()).then_some(Script::Latin),
                    upper: ch.is_ascii_uppercase(),
                    caseless: false,
                }
            } else {
                UKind::Sep(ch)
            }
        } else if script::is_ignorable(ch) {
            UKind::Ignorable
        } else if script::is_mark(ch) {
            UKind::Mark
        } else {
            let mut first = None;
            script::nfkc_chars(ch, |d| {
                if first.is_none() {
                    first = Some(d);
                }
            });
            match first {
                Some(d) if d.is_alphanumeric() => {
                    let script = if d.is_numeric() {
                        None
                    } else {
                        Some(script::script_of(d))
                    };
                    UKind::Alnum {
                        script,
                        upper: d.is_uppercase(),
                        caseless: !d.is_numeric() && !d.is_uppercase() && !d.is_lowercase(),
                    }
                }
                Some(d) => UKind::Sep(d),
                None => UKind::Ignorable,
            }
        };
        v.push(Unit {
            start,
            end,
            ch,
            kind,
        });
    }
    v
}

/// A piece of a word in one script (or one Han/Hangul syllable).
#[derive(Clone, Debug)]
struct Piece {
    /// Unit index range (first alnum .. last alnum/mark + 1).
    units: Range<usize>,
    script: Script,
    homoglyph: bool,
}

fn is_syllabic(s: Script) -> bool {
    matches!(s, Script::Han | Script::Hangul)
}

/// Scripts written without spaces between words whose words are not split per syllable: a
/// digit is never part of one of their words.
fn is_unspaced(s: Script) -> bool {
    matches!(s, Script::Kana | Script::Thai)
}

/// Latin look-alike of a Cyrillic/Greek character as the homoglyph rule sees it.
fn homoglyph_of(c: char) -> Option<String> {
    if let Some(h) = script::homoglyph(c) {
        return Some(h.to_string());
    }
    let mut f = String::new();
    script::fold_char(c, &mut f);
    let mut out = String::new();
    for x in f.chars() {
        out.push(script::homoglyph(x)?);
    }
    (!out.is_empty()).then_some(out)
}

/// Splits the units of `text` into words and the words into pieces.
fn pieces(us: &[Unit]) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < us.len() {
        if !matches!(us[i].kind, UKind::Alnum { .. }) {
            i += 1;
            continue;
        }
        // The word: alnum units with marks and ignorables among them.
        let start = i;
        let mut end = i;
        let mut j = i;
        while j < us.len() {
            match us[j].kind {
                UKind::Alnum { .. } | UKind::Mark => end = j + 1,
                UKind::Ignorable => {}
                UKind::Sep(_) => break,
            }
            j += 1;
        }
        split_word(us, start..end, &mut out);
        i = j.max(end);
    }
    out
}

fn split_word(us: &[Unit], word: Range<usize>, out: &mut Vec<Piece>) {
    // Homoglyph mode: a Latin letter, and every other letter a mappable Cyrillic/Greek one.
    let mut has_latin = false;
    let mut all_mappable = true;
    for u in &us[word.clone()] {
        if let UKind::Alnum {
            script: Some(s), ..
        } = u.kind
        {
            match s {
                Script::Latin => has_latin = true,
                Script::Cyrillic | Script::Greek if homoglyph_of(u.ch).is_some() => {}
                _ => all_mappable = false,
            }
        }
    }
    if has_latin && all_mappable {
        out.push(Piece {
            units: word,
            script: Script::Latin,
            homoglyph: true,
        });
        return;
    }
    let mut cur: Option<(usize, usize, Option<Script>)> = None; // (start, end, script)
    for k in word {
        match us[k].kind {
            UKind::Alnum { script, .. } => {
                let continues = match (cur, script) {
                    (None, _) => false,
                    (Some((_, _, Some(cs))), _) if is_syllabic(cs) => false,
                    (Some(_), Some(s)) if is_syllabic(s) => false,
                    // Kana and Thai write no space between words: digits glued to them are a
                    // value of their own ("+7 916 493-83-28です", "081-234-5678ครับ").
                    (Some((_, _, Some(cs))), None) if is_unspaced(cs) => false,
                    (Some((_, _, None)), Some(s)) if is_unspaced(s) => false,
                    (Some((_, _, None)), _) => true,
                    (Some(_), None) => true,
                    (Some((_, _, Some(cs))), Some(s)) => cs == s,
                };
                if continues {
                    if let Some(c) = cur.as_mut() {
                        c.1 = k + 1;
                        if c.2.is_none() {
                            c.2 = script;
                        }
                    }
                } else {
                    if let Some((s, e, sc)) = cur.take() {
                        thai_words::push_piece(us, s..e, sc.unwrap_or(Script::Latin), out);
                    }
                    cur = Some((k, k + 1, script));
                }
            }
            UKind::Mark => {
                if let Some(c) = cur.as_mut() {
                    c.1 = k + 1;
                }
            }
            _ => {}
        }
    }
    if let Some((s, e, sc)) = cur {
        thai_words::push_piece(us, s..e, sc.unwrap_or(Script::Latin), out);
    }
}

/// The raw (lowercase ASCII, possibly with punctuation) transliteration of a piece.
fn piece_raw(text: &str, us: &[Unit], p: &Piece) -> String {
    let mut s = String::new();
    piece_raw_into(text, us, p, &mut s);
    s
}

/// [`piece_raw`], appended to `s`.
fn piece_raw_into(text: &str, us: &[Unit], p: &Piece, s: &mut String) {
    if p.script == Script::Latin {
        for u in &us[p.units.clone()] {
            match u.kind {
                UKind::Alnum {
                    script: Some(Script::Cyrillic | Script::Greek),
                    ..
                } if p.homoglyph => {
                    if let Some(h) = homoglyph_of(u.ch) {
                        s.push_str(&h);
                    }
                }
                UKind::Ignorable => {}
                // An ASCII character folds to itself, lowercased.
                _ if u.ch.is_ascii() => s.push(u.ch.to_ascii_lowercase()),
                _ => fold_char_ascii(u.ch, s),
            }
        }
        return;
    }
    let (a, b) = (us[p.units.start].start, us[p.units.end - 1].end);
    let clean: String = text[a..b]
        .chars()
        .filter(|&c| !script::is_ignorable(c))
        .flat_map(|c| {
            let mut v = Vec::new();
            script::nfkc_chars(c, |d| v.push(d));
            v
        })
        .collect();
    s.push_str(&translit::word(p.script, &clean));
}

/// Folds one original character and appends it to `out` as ASCII: what folding leaves outside
/// ASCII goes through `any_ascii`, lowercased.
fn fold_char_ascii(ch: char, out: &mut String) {
    let mut f = String::new();
    script::fold_char(ch, &mut f);
    for c in f.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            translit::lower_ascii_char(c, out);
        }
    }
}

/// Appends the ASCII alphanumerics of `raw` to `out`, lowercased.
fn push_alnum_form(raw: &str, out: &mut String) {
    out.extend(
        raw.chars()
            .filter(char::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_lowercase()),
    );
}

/// Gap class of the units strictly between two chunks.
fn gap_between(us: &[Unit]) -> Gap {
    let mut runs = 0;
    let mut newlines = 0;
    let mut in_space = false;
    let mut prev_dot = false;
    for u in us {
        match u.kind {
            UKind::Ignorable | UKind::Mark => continue,
            UKind::Alnum { .. } => return Gap::Break,
            UKind::Sep(c) => {
                if !script::is_joiner_sep(c) {
                    return Gap::Break;
                }
                if c.is_whitespace() {
                    if prev_dot {
                        return Gap::Break;
                    }
                    if c == '\n' {
                        newlines += 1;
                    }
                    if !in_space {
                        runs += 1;
                    }
                    in_space = true;
                } else {
                    in_space = false;
                }
                prev_dot = c == '.';
            }
        }
    }
    if runs > 1 || newlines > 1 {
        Gap::Break
    } else {
        Gap::Joiner
    }
}

/// NFKC, full case folding, diacritic stripping, full-width folding, homoglyph folding
/// (Cyrillic/Greek look-alikes inside otherwise-Latin words, e.g. Cyrillic 'а' in "аlice"),
/// zero-width and soft-hyphen removal, ß -> ss, æ -> ae, ø -> o, đ -> d, ł -> l, etc. Does not
/// transliterate whole non-Latin words (that is `transliterate`).
///
/// Every Latin letter comes out as lowercase ASCII; letters of other scripts stay in their
/// script, lowercased and without diacritics (Cyrillic й and ў keep their breve). Dashes become
/// '-', spaces ' '.
///
/// Idempotent: `fold(&fold(t)) == fold(t)`. One folding pass finds word boundaries and script
/// runs on the original characters, and a few inputs change them by folding (a compatibility
/// form of a combining mark, an NFKC expansion that holds a separator such as "¼" -> "1⁄4", a
/// dropped zero-width character that had kept a Cyrillic letter apart from a Latin one), so a
/// second pass could fold the result further. `fold` is therefore the fixed point of that pass:
/// it folds again until the text stops changing (at most [`FOLD_PASSES`] passes; on ordinary
/// text the second pass already changes nothing).
pub fn fold(text: &str) -> String {
    let mut folded = fold_pass(text);
    for _ in 1..FOLD_PASSES {
        let again = fold_pass(&folded);
        if again == folded {
            break;
        }
        folded = again;
    }
    folded
}

/// The most folding passes [`fold`] makes. The inputs that need more than two are the rare
/// ones its docs describe; the proptest `canon::tests::fold_idempotent` keeps drawing fresh ones.
pub const FOLD_PASSES: usize = 6;

/// One folding pass (see [`fold`]).
fn fold_pass(text: &str) -> String {
    let us = units(text);
    let ps = pieces(&us);
    let mut out = String::with_capacity(text.len());
    let mut next_piece = 0;
    let mut i = 0;
    while i < us.len() {
        if let Some(p) = ps.get(next_piece).filter(|p| p.units.start == i) {
            if p.homoglyph {
                out.push_str(&piece_raw(text, &us, p));
            } else {
                for u in &us[p.units.clone()] {
                    script::fold_char(u.ch, &mut out);
                }
            }
            i = p.units.end;
            next_piece += 1;
            continue;
        }
        let u = us[i];
        if !matches!(u.kind, UKind::Ignorable) {
            script::fold_char(u.ch, &mut out);
        }
        i += 1;
    }
    out
}

/// Latin transliteration, lowercase ASCII. Han and Hangul: one syllable per character,
/// separated by spaces ("张伟" -> "zhang wei", "김민준" -> "gim min jun"); Kana runs stay one
/// word; Devanagari with schwa deletion ("राहुल" -> "rahul", "शर्मा" -> "sharma"); Cyrillic `е`/`ё`
/// as "ye" after vowels and soft signs; Greek digraphs per ELOT 743. Latin text is folded.
pub fn transliterate(text: &str) -> String {
    let us = units(text);
    let ps = pieces(&us);
    let mut out = String::with_capacity(text.len());
    let mut next_piece = 0;
    let mut last_piece_end: Option<(usize, Script)> = None;
    let mut i = 0;
    while i < us.len() {
        if let Some(p) = ps.get(next_piece).filter(|p| p.units.start == i) {
            if let Some((e, s)) = last_piece_end
                && e == i
                && (is_syllabic(s) || is_syllabic(p.script))
            {
                out.push(' ');
            }
            piece_raw_into(text, &us, p, &mut out);
            last_piece_end = Some((p.units.end, p.script));
            i = p.units.end;
            next_piece += 1;
            continue;
        }
        let u = us[i];
        match u.kind {
            UKind::Ignorable => {}
            UKind::Mark => {}
            _ if u.ch.is_ascii() => out.push(u.ch.to_ascii_lowercase()),
            _ => fold_char_ascii(u.ch, &mut out),
        }
        i += 1;
    }
    out
}

/// All chunks of `text`, in order (non-Latin words are transliterated, Han/Hangul split per
/// syllable, each syllable its own chunk with the span of its character).
pub fn chunks(text: &str) -> Vec<Chunk> {
    let us = units(text);
    let ps = pieces(&us);
    let mut out: Vec<Chunk> = Vec::with_capacity(ps.len());
    let mut prev_end_unit: Option<usize> = None;
    let mut raw = String::new();
    for p in &ps {
        raw.clear();
        piece_raw_into(text, &us, p, &mut raw);
        let mut form = String::with_capacity(raw.len());
        push_alnum_form(&raw, &mut form);
        if form.is_empty() {
            continue;
        }
        let first = us[p.units.start];
        let capitalized = match first.kind {
            UKind::Alnum {
                script: Some(_),
                upper,
                caseless,
            } => upper || caseless,
            _ => false,
        };
        let gap = prev_end_unit.map(|e| gap_between(&us[e..p.units.start]));
        let span = first.start..us[p.units.end - 1].end;
        let vowel_final = name_forms::ends_in_vowel_letter(&text[span.clone()], p.script, &form);
        out.push(Chunk {
            form,
            span,
            script: p.script,
            capitalized,
            gap,
            vowel_final,
        });
        prev_end_unit = Some(p.units.end);
    }
    out
}

/// FNV-1a hash of `s`'s bytes: cheap, and the same in every run and on every thread (the
/// in-process tables of this module index by it).
pub(crate) fn fnv1a(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Spelling-variant key of one folded/transliterated word (rules in the module docs). Empty
/// input -> empty key. Idempotent: `variant_key(&variant_key(w)) == variant_key(w)`.
pub fn variant_key(word: &str) -> String {
    variant::key(word)
}

/// Variant key of a Hangul-derived word, or of a word compared against one: the Korean
/// romanization relaxations of the module docs, then [`variant_key`].
pub fn hangul_variant_key(word: &str) -> String {
    let mut k: String = word.chars().filter(char::is_ascii_alphabetic).collect();
    for _ in 0..8 {
        let next = variant::key(&variant::hangul_relax(&k));
        if next == k {
            break;
        }
        k = next;
    }
    k
}

/// Consonant skeleton, used only when one side comes from an abjad (Arabic, Hebrew). Rules in
/// the module docs.
pub fn skeleton(word: &str) -> String {
    variant::skeleton(word)
}
