//! Noun phrases ended by a case suffix, in Tamil and Bengali: [`after_case_marked_noun`].
//!
//! Tamil and Bengali write a noun's case as a suffix on the last word of its phrase: the
//! genitive of a possessor ("மீனா ராஜேந்திரனின் ஒவ்வாமை", Meena Rajendran's allergy; "অনু
//! দাসের হোম ভিজিট", Anu Das's home visit), the dative or object of the person a request is
//! about ("সুমিত্রা ঘোষকে কোন ডাক্তার দেখেন", which doctor sees Sumitra Ghosh). Neither script
//! has letter case, so every word of such a request may be a name; the suffix is what says
//! where the name ends and the rest of the request begins, as "'s" does in English and का, की,
//! के, को do in Hindi (see [`crate::function_words`]).

use crate::canon::{Chunk, Gap};

/// Case endings of Tamil that end a noun phrase: the genitive `-இன்` (குமாரின்,
/// சுப்பிரமணியத்தின்; `-வின்`, `-யின்` after a vowel: பிரியாவின்) and `-உடைய` (குமாருடைய), the
/// dative `-க்கு` (குமாருக்கு, லட்சுமிக்கு).
const TAMIL_CASES: &[&str] = &[
    "\u{BBF}\u{BA9}\u{BCD}",
    "\u{BC1}\u{B9F}\u{BC8}\u{BAF}",
    "\u{B95}\u{BCD}\u{B95}\u{BC1}",
];

/// Case endings of Bengali that end a noun phrase: the genitive `-এর` after a consonant
/// (দাসের) and `-র` after the vowels i, u and o (চ্যাটার্জির, বাড়ির), and the object `-কে`
/// (ঘোষকে). `-আর` is left out: it ends bare nouns ("ডাক্তার", doctor).
const BENGALI_CASES: &[&str] = &[
    "\u{9C7}\u{9B0}",
    "\u{9BF}\u{9B0}",
    "\u{9C0}\u{9B0}",
    "\u{9C1}\u{9B0}",
    "\u{9CB}\u{9B0}",
    "\u{995}\u{9C7}",
];

/// Least characters a word keeps before its case ending.
const MIN_STEM_CHARS: usize = 2;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Language {
    Tamil,
    Bengali,
}

fn language_of(word: &str) -> Option<Language> {
    let mut letters = word.chars().filter(|c| c.is_alphabetic());
    let first = letters.next()?;
    let lang = match first {
        '\u{B80}'..='\u{BFF}' => Language::Tamil,
        '\u{980}'..='\u{9FF}' => Language::Bengali,
        _ => return None,
    };
    Some(lang)
}

/// True if `word` ends with a case suffix of its language (Tamil or Bengali) that ends a noun
/// phrase, after a stem of at least two characters.
pub fn has_case_suffix(word: &str) -> bool {
    let Some(lang) = language_of(word) else {
        return false;
    };
    let endings = match lang {
        Language::Tamil => TAMIL_CASES,
        Language::Bengali => BENGALI_CASES,
    };
    endings.iter().any(|e| {
        word.strip_suffix(e)
            .is_some_and(|stem| stem.chars().count() >= MIN_STEM_CHARS)
    })
}

/// The chunks of `text` that follow a noun phrase ended by a case suffix, in the same stretch
/// of text: what the phrase's noun has or undergoes, never more of its name. The phrase ends at
/// the first word with a suffix whose next word lacks one ("ஜாஸ்மின் ராஜின் ஒவ்வாமை": a name
/// may itself end like a case form, so the last of such a series is the one that marks); the
/// stretch runs on while the words are of the same language and joined by spaces only.
pub fn after_case_marked_noun(text: &str, chunks: &[Chunk]) -> Vec<usize> {
    let word = |i: usize| &text[chunks[i].span.clone()];
    let mut out = Vec::new();
    let mut i = 0;
    while i + 1 < chunks.len() {
        let lang = language_of(word(i));
        let joined = |j: usize| {
            chunks[j].gap == Some(Gap::Joiner)
                && text[chunks[j - 1].span.end..chunks[j].span.start]
                    .chars()
                    .all(char::is_whitespace)
                && language_of(word(j)) == lang
        };
        if lang.is_some()
            && has_case_suffix(word(i))
            && joined(i + 1)
            && !has_case_suffix(word(i + 1))
        {
            let mut j = i + 1;
            while j < chunks.len() && joined(j) {
                out.push(j);
                j += 1;
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canon::chunks;
    use proptest::prelude::*;

    proptest! {
        /// Any text of Tamil, Bengali, Latin letters, spaces and punctuation: no panic, and the
        /// chunks returned are increasing indexes of chunks after the first.
        #[test]
        fn any_text_gives_increasing_chunk_indexes(
            s in "[\u{0B80}-\u{0BFF}\u{0980}-\u{09FF}a-z ,.]{0,40}",
        ) {
            let cs = chunks(&s);
            let out = after_case_marked_noun(&s, &cs);
            prop_assert!(out.windows(2).all(|w| w[0] < w[1]));
            prop_assert!(out.iter().all(|&i| i > 0 && i < cs.len()));
            for c in &cs {
                let _ = has_case_suffix(&s[c.span.clone()]);
            }
        }
    }

    fn after_case(text: &str) -> Vec<String> {
        let cs = chunks(text);
        after_case_marked_noun(text, &cs)
            .into_iter()
            .map(|i| text[cs[i].span.clone()].to_owned())
            .collect()
    }

    #[test]
    fn the_words_after_a_case_marked_name_are_not_more_of_it() {
        assert_eq!(
            after_case("மீனா ராஜேந்திரனின் ஒவ்வாமை பதிவை நீக்கவும்"),
            ["ஒவ்வாமை", "பதிவை", "நீக்கவும்"]
        );
        assert_eq!(
            after_case("অনু দাসের হোম ভিজিটের তথ্য মুছে দিন, উনি এখন নিজেই ক্লিনিকে আসেন"),
            // "ক্লিনিকে" (at the clinic) reads as an object in -কে too: what follows is no
            // name either way.
            ["হোম", "ভিজিটের", "তথ্য", "মুছে", "দিন", "আসেন"]
        );
        // A name that itself ends like a genitive: the last of the series marks.
        assert_eq!(after_case("ஜாஸ்மின் ராஜின் ஒவ்வாமை"), ["ஒவ்வாமை"]);
        // A genitive after a vowel, a dative, an object.
        assert_eq!(
            after_case("பிரியாவின் வேலை நாட்கள் மாறிவிட்டன"),
            ["வேலை", "நாட்கள்", "மாறிவிட்டன"]
        );
        assert_eq!(after_case("ரவி சந்திரனுக்கு ஆஸ்துமா உள்ளது"), ["ஆஸ்துமா", "உள்ளது"]);
        assert_eq!(
            after_case("সুমিত্রা ঘোষকে কোন ডাক্তার দেখেন"),
            ["কোন", "ডাক্তার", "দেখেন"]
        );
    }

    #[test]
    fn no_case_suffix_no_words_after_it() {
        // A bare noun in -আর, another script, a suffix with no stem, a case form ending
        // the text.
        for text in [
            "அருண் பாலசுப்பிரமணியத்தின்",
            "ডাক্তার সৌরভ চ্যাটার্জি",
            "Priya's phone number",
            "राम शर्मा का बचत खाता",
            "ির হোম",
        ] {
            assert!(after_case(text).is_empty(), "{text}");
        }
    }
}
