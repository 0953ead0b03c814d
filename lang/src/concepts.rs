//! Cross-lingual attribute concepts: "room" in an English request and "палата", "الغرفة" or
//! "병실" in a stored row name the same attribute.
//!
//! A request written in one language about a row written in another shares no word with it
//! except the subject's name, which names every row about that person. This table names, for
//! the attributes personal-memory stores hold most (contact details, health care, money,
//! travel, work), the common words for each in English and in the languages of the scripts the
//! canonicalizer transliterates: Chinese (simplified and traditional), Japanese, Korean, Arabic,
//! Hebrew, Persian, Urdu, Russian and Ukrainian, Greek, Hindi and Thai. It is a bilingual-dictionary resource
//! of general language, written per concept, not per case, and names no entity.
//!
//! Generic heads ("number", "name", "date", "code") are left out on purpose: they do not say
//! which attribute a row holds, and matching them across languages would let a request for a
//! phone number reach an insurance number.
//!
//! Matching ([`concepts_of_text`]): a foreign form matches a word that contains it in scripts
//! written without spaces or with attached particles and clitics (Han, kana, Hangul, Thai,
//! Arabic, Hebrew) and a word that starts with it in inflecting scripts with spaces (Cyrillic,
//! Greek, Devanagari: the forms are stems). English words match by [`crate::lexicon::lemma`].

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::OnceLock;

use crate::canon::{Chunk, Script};
use crate::lexicon::lemma;

mod attributes;
mod days;

use attributes::{ATTRIBUTES, Concept};
use days::DAYS;

/// Every concept: the attributes, then the days.
fn all_concepts() -> impl Iterator<Item = &'static Concept> {
    ATTRIBUTES.iter().chain(DAYS)
}

/// Scripts written without spaces between words: their chunks (one per syllable for Han and
/// Hangul) are joined into runs before matching.
pub fn unspaced(script: Script) -> bool {
    matches!(
        script,
        Script::Han | Script::Kana | Script::Hangul | Script::Thai
    )
}

/// How a foreign form meets a word of its script: contained in it (unspaced scripts, and the
/// abjads, whose words carry clitics), or starting it (inflecting scripts: the forms are stems).
fn contained(script: Script) -> bool {
    unspaced(script) || matches!(script, Script::Arabic | Script::Hebrew)
}

/// The foreign forms with their script, parsed once.
fn forms() -> &'static [(&'static str, Script, &'static str)] {
    static FORMS: OnceLock<Vec<(&'static str, Script, &'static str)>> = OnceLock::new();
    FORMS.get_or_init(|| {
        let mut v = Vec::new();
        for (name, _, fs) in all_concepts() {
            for f in *fs {
                if let Some(c) = crate::canon::chunks(f).first() {
                    v.push((*name, c.script, *f));
                }
            }
        }
        v
    })
}

/// Whether `concept` is an attribute ("phone", "salary"), not a day of the week.
pub fn is_attribute(concept: &str) -> bool {
    ATTRIBUTES.iter().any(|(name, _, _)| *name == concept)
}

/// The concepts an English word (any inflection) names.
fn english() -> &'static BTreeMap<String, Vec<&'static str>> {
    static MAP: OnceLock<BTreeMap<String, Vec<&'static str>>> = OnceLock::new();
    MAP.get_or_init(|| {
        let mut m: BTreeMap<String, Vec<&'static str>> = BTreeMap::new();
        for (name, words, _) in all_concepts() {
            for w in *words {
                let e = m.entry(lemma(w)).or_default();
                if !e.contains(name) {
                    e.push(name);
                }
            }
        }
        m
    })
}

/// The concepts one word names: `word` is its original text, `script` its script, `form` its
/// folded Latin form (for English words). For an unspaced script, `word` is a run of it.
pub fn concepts_of_word(word: &str, script: Script, form: &str) -> Vec<&'static str> {
    if script == Script::Latin {
        return english().get(&lemma(form)).cloned().unwrap_or_default();
    }
    let lower = word.to_lowercase();
    let mut out: Vec<&'static str> = Vec::new();
    for (name, fs, f) in forms() {
        let same = *fs == script || (unspaced(*fs) && unspaced(script));
        let hit = same
            && if contained(script) {
                lower.contains(f)
            } else {
                lower.starts_with(f)
            };
        if hit && !out.contains(name) {
            out.push(name);
        }
    }
    out
}

/// The concepts one word names written as one of their words, or its plural ("bonuses",
/// "licences"), for an English word; as [`concepts_of_word`] for another script. Stricter than
/// the lemma [`concepts_of_word`] reads English by, which takes "office" for "officer".
pub fn concepts_named_exactly(word: &str, script: Script, form: &str) -> Vec<&'static str> {
    if script != Script::Latin {
        return concepts_of_word(word, script, form);
    }
    let lower = form.to_lowercase();
    let singular = [
        Some(lower.as_str()),
        lower.strip_suffix("es"),
        lower.strip_suffix('s'),
    ];
    let mut out: Vec<&'static str> = Vec::new();
    for (name, words, _) in all_concepts() {
        if words.iter().any(|w| singular.contains(&Some(*w))) && !out.contains(name) {
            out.push(name);
        }
    }
    out
}

/// The words of a text for concept matching: its chunks, with contiguous chunks of unspaced
/// scripts joined into one run. Each is `(index of its first chunk, byte span, script)`.
pub fn words(text: &str, chunks: &[Chunk]) -> Vec<(usize, Range<usize>, Script)> {
    let mut out: Vec<(usize, Range<usize>, Script)> = Vec::new();
    for (i, c) in chunks.iter().enumerate() {
        if let Some(last) = out.last_mut()
            && unspaced(c.script)
            && unspaced(last.2)
            && last.1.end == c.span.start
        {
            last.1.end = c.span.end;
            continue;
        }
        out.push((i, c.span.clone(), c.script));
    }
    debug_assert!(out.iter().all(|w| text.is_char_boundary(w.1.start)));
    out
}

/// True if two words of one abjad (Arabic or Hebrew) hold the same foreign form of a concept:
/// the same attribute word with different clitics ("החדר", "the room", and "בחדר", "in the
/// room").
pub fn same_abjad_form(a: &str, b: &str, script: Script) -> bool {
    if !matches!(script, Script::Arabic | Script::Hebrew) {
        return false;
    }
    forms()
        .iter()
        .any(|(_, fs, f)| *fs == script && a.contains(f) && b.contains(f))
}

/// The concepts written in a script without letter case in `text` (with its `chunks`), each
/// with its byte span: the whole word in Arabic, Hebrew and Devanagari, the form itself inside
/// a run of an unspaced script ("電話" in "鈴木さんの電話番号", not the whole run). In those
/// scripts no capital tells a name from an attribute word; a chunk inside such a span names an
/// attribute, not a person.
pub fn caseless_forms(text: &str, chunks: &[Chunk]) -> Vec<(&'static str, Range<usize>)> {
    let mut out = Vec::new();
    for (i, span, script) in words(text, chunks) {
        if matches!(script, Script::Latin | Script::Cyrillic | Script::Greek) {
            continue;
        }
        let word = &text[span.clone()];
        if !unspaced(script) {
            for k in concepts_of_word(word, script, &chunks[i].form) {
                out.push((k, span.clone()));
            }
            continue;
        }
        for (name, fs, f) in forms() {
            if !unspaced(*fs) {
                continue;
            }
            for (at, _) in word.match_indices(f) {
                out.push((*name, span.start + at..span.start + at + f.len()));
            }
        }
    }
    out
}

/// The concepts a text names, with the byte span of the word naming each.
pub fn concepts_of_text(text: &str) -> Vec<(&'static str, Range<usize>)> {
    let chunks = crate::canon::chunks(text);
    let mut out = Vec::new();
    for (i, span, script) in words(text, &chunks) {
        for k in concepts_of_word(&text[span.clone()], script, &chunks[i].form) {
            out.push((k, span.clone()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str) -> Vec<&'static str> {
        let mut v: Vec<&'static str> = concepts_of_text(text).into_iter().map(|c| c.0).collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    #[test]
    fn one_attribute_in_many_languages() {
        assert_eq!(names("rooms"), vec!["room"]);
        for row in [
            "Пациент лежит в палате 12.",
            "المريض في الغرفة 402.",
            "김민준의 병실은 305호입니다.",
            "王芳住在302病房。",
            "החדר שלו הוא 7.",
            "Ο ασθενής είναι στο δωμάτιο 4.",
        ] {
            assert!(names(row).contains(&"room"), "{row}: {:?}", names(row));
        }
    }

    #[test]
    fn workplace_attributes_and_persian_and_urdu_forms() {
        for (concept, texts) in [
            ("badge", &["badge", "张伟的门禁卡号", "김민준의 출입증"][..]),
            (
                "parking",
                &["parking space", "李伟的停车位", "Место на парковке 12"],
            ),
            ("computer", &["laptop", "陈明的笔记本电脑", "ноутбук Анны"]),
            ("phone", &["شماره تلفن رضا", "ثناء کا فون نمبر"]),
            ("passport", &["شماره گذرنامه", "پاسپورٹ نمبر"]),
        ] {
            for t in texts {
                assert!(names(t).contains(&concept), "{t}: {:?}", names(t));
            }
        }
        // Words that merely contain a short form name nothing: "clean" (تمیز) is no desk,
        // a capital city (столица) no table.
        assert!(names("تمیز").is_empty());
        assert!(names("столица").is_empty());
    }

    #[test]
    fn exact_naming_does_not_take_one_word_for_another() {
        let exact = |w: &str| concepts_named_exactly(w, Script::Latin, w);
        assert_eq!(exact("bonuses"), vec!["bonus"]);
        assert_eq!(exact("licences"), vec!["licence"]);
        assert_eq!(exact("officer"), vec!["adviser"]);
        assert!(exact("office").is_empty());
        assert_eq!(
            concepts_of_word("office", Script::Latin, "office"),
            vec!["adviser"]
        );
    }

    #[test]
    fn generic_heads_and_unrelated_words_name_nothing() {
        assert!(names("number").is_empty());
        assert!(names("номер").is_empty());
        assert!(names("Kenta lives in Osaka.").is_empty());
    }

    #[test]
    fn syllables_of_unspaced_scripts_are_read_as_runs() {
        // Han and Hangul chunks are single syllables; 病房 and 병실 span two.
        assert!(names("王芳住在302病房。").contains(&"room"));
        assert!(names("山田花子の住宅ローン残高").contains(&"loan"));
        assert!(names("山田花子の住宅ローン残高").contains(&"balance"));
    }

    #[test]
    fn every_form_is_of_a_script_it_can_meet() {
        for (name, words, forms) in all_concepts() {
            assert!(!words.is_empty(), "{name}");
            for f in *forms {
                let c = crate::canon::chunks(f);
                assert!(!c.is_empty(), "{name}: {f:?}");
                assert_ne!(c[0].script, Script::Latin, "{name}: {f:?} is Latin");
                assert_eq!(f.to_lowercase(), *f, "{name}: {f:?} is not lowercase");
            }
        }
    }
}
