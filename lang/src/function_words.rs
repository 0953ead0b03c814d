//! Function words and request words of the languages written in other scripts than Latin.
//!
//! A forgetting request may be written in any language: "احذفي حساسية فاطمة الزهراني",
//! "张伟的银联借记卡已挂失注销，请删除", "अंजलि देशपांडे की सीट बदलकर 9C कर दो". Scripts without
//! letter case give no capital to tell a name from the words around it, so query targeting
//! (`store::targeting`) needs to know which words of such a request are grammar (particles,
//! prepositions, pronouns, auxiliaries) or the request itself ("delete", "please", "forget",
//! "change"): they are neither the subject's name nor evidence a row must hold. English has the
//! same lists in [`crate::text`] (stop words) and in the targeting query parser (request words).
//!
//! The lists are general language, per language, written the way a grammar lists them: closed
//! classes (prepositions, particles, pronouns, conjunctions, auxiliaries) and the few verbs and
//! politeness words a request to a records system uses. They name no entity.
//!
//! Matching ([`spans`]): in scripts written with spaces (Arabic, Hebrew, Cyrillic, Greek,
//! Devanagari, Hangul, Ethiopic, Tamil, Bengali) a listed form must be a whole word, after the one-letter
//! conjunction and preposition clitics of the abjads (Arabic و ف ب ل, Hebrew ו ב ל מ ש ה) and the
//! one-syllable prepositions of Amharic (የ በ ለ ከ); Persian, Urdu and the Hebrew question words
//! match whole words only, without clitics; in scripts written
//! without spaces (Han, kana, Thai) a listed form of two characters or more is found anywhere,
//! a one-character particle only where a word ends. Hiragana is the grammar of Japanese (names
//! are written in kanji or katakana): a run of hiragana is always grammar here.

use std::ops::Range;

use crate::canon::{Chunk, Script};

mod abjads;
mod devanagari;
mod ethiopic_cyrillic_greek;
mod hangul_han_thai;
mod tamil_bengali;

use abjads::{ARABIC, HEBREW, HEBREW_QUESTIONS, PERSIAN, URDU};
use devanagari::DEVANAGARI;
use ethiopic_cyrillic_greek::{CYRILLIC, ETHIOPIC, GREEK};
use hangul_han_thai::{HAN, HAN_PARTICLES, HANGUL, THAI};
use tamil_bengali::{BENGALI, TAMIL};

/// True for a listed Thai function word, request word, pronoun or honorific, written whole: the
/// copula คือ, the quantifier ทั้งหมด ("all"), ข้อมูล ("information", "data", the records noun
/// of "delete X's data"), คุณ ("you", and the honorific before a given name), นาย, นาง,
/// นางสาว (Mr, Mrs, Miss).
pub(crate) fn thai_function_word(word: &str) -> bool {
    THAI.contains(&word)
}

/// One-letter clitics an Arabic word may carry before its stem: "and", "so", "with", "for".
const ARABIC_CLITICS: &[char] = &['و', 'ف', 'ب', 'ل'];
/// One-syllable clitics an Amharic word may carry: "of", "in", "for", "from".
const ETHIOPIC_CLITICS: &[char] = &['የ', 'በ', 'ለ', 'ከ'];
/// Hebrew titles written as acronyms with a quote (ASCII or gershayim) between their letters.
const HEBREW_TITLE_ACRONYMS: &[&str] = &["ד\"ר", "ד״ר", "עו\"ד", "עו״ד", "רו\"ח", "רו״ח"];

/// One-letter clitics a Hebrew word may carry: "and", "in", "to", "from", "that", "the".
const HEBREW_CLITICS: &[char] = &['ו', 'ב', 'ל', 'מ', 'ש', 'ה'];

/// True for a hiragana character.
fn hiragana(c: char) -> bool {
    ('\u{3041}'..='\u{309f}').contains(&c)
}

/// True if `word` (a whole word of a spaced script) is a listed function or request word of
/// `script`, with at most one clitic letter before it in the abjads.
fn listed_word(word: &str, script: Script) -> bool {
    // The lists write words without vowel points: "حدّث" (with a shadda) is "حدث".
    if word.chars().any(vowel_point) {
        let bare: String = word.chars().filter(|&c| !vowel_point(c)).collect();
        return !bare.is_empty() && listed_word(&bare, script);
    }
    let (list, clitics): (&[&str], &[char]) = match script {
        // Persian and Urdu share the script with Arabic; their lists match whole words only
        // (the clitics are Arabic's).
        Script::Arabic if PERSIAN.contains(&word) || URDU.contains(&word) => return true,
        Script::Arabic => (ARABIC, ARABIC_CLITICS),
        // Whole words only: a clitic before a short question word is often a name (ש + למה
        // is שלמה, Shlomo).
        Script::Hebrew if HEBREW_QUESTIONS.contains(&word) => return true,
        Script::Hebrew => (HEBREW, HEBREW_CLITICS),
        Script::Other if word.chars().all(ethiopic) => (ETHIOPIC, ETHIOPIC_CLITICS),
        Script::Other if word.chars().all(|c| ('\u{B80}'..='\u{BFF}').contains(&c)) => (TAMIL, &[]),
        Script::Other if word.chars().all(|c| ('\u{980}'..='\u{9FF}').contains(&c)) => {
            (BENGALI, &[])
        }
        Script::Cyrillic => (CYRILLIC, &[]),
        Script::Greek => (GREEK, &[]),
        Script::Devanagari => (DEVANAGARI, &[]),
        Script::Hangul => return HANGUL.contains(&word) || hangul_request_verb(word),
        _ => return false,
    };
    listed_in(list, clitics, word)
}

/// True for a vowel point or reading mark written over or under a letter of Arabic (harakat,
/// shadda, the superscript alef, Quranic marks) or Hebrew (niqqud, cantillation).
fn vowel_point(c: char) -> bool {
    matches!(c, '\u{0591}'..='\u{05C7}' | '\u{0610}'..='\u{061A}'
        | '\u{064B}'..='\u{065F}' | '\u{0670}' | '\u{06D6}'..='\u{06ED}')
        && !matches!(c, '\u{05BE}' | '\u{05C0}' | '\u{05C3}' | '\u{05C6}')
}

/// The endings of a Korean verb made of a noun and 하다 ("do") in a request: "업데이트해 주세요",
/// "수정해줘", "변경하세요", "삭제합니다".
const HADA_ENDINGS: &[&str] = &[
    "해",
    "해줘",
    "해요",
    "해주세요",
    "해줄래요",
    "하세요",
    "합니다",
    "해주십시오",
];

/// True if `word` is a request noun of [`HANGUL`] conjugated with 하다 ([`HADA_ENDINGS`]).
fn hangul_request_verb(word: &str) -> bool {
    HADA_ENDINGS.iter().any(|e| {
        word.strip_suffix(e)
            .is_some_and(|stem| !stem.is_empty() && HANGUL.contains(&stem))
    })
}

/// True if `word` is in `list`, as it is or after one of `clitics`.
fn listed_in(list: &[&str], clitics: &[char], word: &str) -> bool {
    let lower = word.to_lowercase();
    if list.contains(&lower.as_str()) {
        return true;
    }
    let mut chars = lower.chars();
    chars
        .next()
        .is_some_and(|c| clitics.contains(&c) && list.contains(&chars.as_str()))
        && lower.chars().count() >= 3
}

/// True for a letter of the Ethiopic script (Amharic, Tigrinya).
fn ethiopic(c: char) -> bool {
    ('\u{1200}'..='\u{139F}').contains(&c) || ('\u{2D80}'..='\u{2DDF}').contains(&c)
}

/// The byte spans of `text` that are function words or request words of a language written in
/// another script than Latin (see the module documentation). `chunks` are `text`'s
/// [`crate::canon::chunks`]; every span returned covers whole chunks.
pub fn spans(text: &str, chunks: &[Chunk]) -> Vec<Range<usize>> {
    let mut out: Vec<Range<usize>> = Vec::new();
    // Spaced scripts: whole words (maximal runs of letters and marks of one script).
    let mut i = 0;
    while i < chunks.len() {
        let c = &chunks[i];
        let spaced = matches!(
            c.script,
            Script::Arabic
                | Script::Hebrew
                | Script::Cyrillic
                | Script::Greek
                | Script::Devanagari
                | Script::Hangul
                | Script::Other
        );
        if !spaced {
            i += 1;
            continue;
        }
        // A word is the chunks glued to each other without a gap (Hangul syllables).
        let mut j = i + 1;
        while j < chunks.len()
            && chunks[j].script == c.script
            && chunks[j - 1].span.end == chunks[j].span.start
        {
            j += 1;
        }
        let span = c.span.start..chunks[j - 1].span.end;
        if listed_word(&text[span.clone()], c.script) {
            out.push(span);
        }
        i = j;
    }
    // Unspaced scripts: listed forms anywhere on chunk boundaries, particles at a word's end or
    // before another character, hiragana always.
    let starts: Vec<usize> = chunks.iter().map(|c| c.span.start).collect();
    let ends: Vec<usize> = chunks.iter().map(|c| c.span.end).collect();
    for c in chunks {
        let raw = &text[c.span.clone()];
        match c.script {
            Script::Kana if raw.chars().all(hiragana) => out.push(c.span.clone()),
            Script::Han if raw.chars().count() == 1 && HAN_PARTICLES.contains(raw) => {
                out.push(c.span.clone())
            }
            _ => {}
        }
    }
    // Hebrew titles written as acronyms with a quote between their letters (ד"ר, Dr.; עו"ד,
    // advocate; רו"ח, accountant), which the chunks split in two.
    for form in HEBREW_TITLE_ACRONYMS {
        for (at, _) in text.match_indices(form) {
            let end = at + form.len();
            if starts.contains(&at) && ends.contains(&end) {
                out.push(at..end);
            }
        }
    }
    for (list, scripts) in [
        (HAN, &[Script::Han, Script::Kana][..]),
        (THAI, &[Script::Thai][..]),
    ] {
        for form in list {
            for (at, _) in text.match_indices(form) {
                let end = at + form.len();
                let inside = chunks
                    .iter()
                    .any(|c| c.span.start <= at && at < c.span.end && scripts.contains(&c.script));
                if inside && starts.contains(&at) && ends.contains(&end) {
                    out.push(at..end);
                }
            }
        }
    }
    out.sort_by_key(|r| (r.start, r.end));
    out.dedup();
    out
}

/// True if chunk `c` lies inside one of `spans`.
pub fn covers(spans: &[Range<usize>], c: &Chunk) -> bool {
    spans
        .iter()
        .any(|s| s.start <= c.span.start && c.span.end <= s.end)
}

/// Particles that follow a possessor (Chinese 的, Japanese の, Korean 의), after an optional
/// honorific.
const POSSESSIVE_AFTER: &[&str] = &["的", "の", "의"];
/// Possessive postpositions written as words of their own (Hindi का / की / के, Urdu کا / کی /
/// کے): after a possessor, and only as a whole word ("केवल" and "کیا" are other words).
const POSSESSIVE_WORDS_AFTER: &[&str] = &["का", "की", "के", "کا", "کی", "کے"];
/// Honorifics that may stand between a name and its possessive particle.
const HONORIFICS: &[&str] = &[
    "さん",
    "様",
    "さま",
    "くん",
    "ちゃん",
    "씨",
    "님",
    "先生",
    "女士",
    "小姐",
    "जी",
];
/// Words that precede a possessor or the person a request is about (Hebrew של, Thai ของ;
/// English "of", "for", "about"; French, Spanish, Portuguese "de", Italian "di", German "von").
/// Greek genitive articles ("η αλλεργία της Έλενας") mark a possessor the same way.
const POSSESSIVE_BEFORE: &[&str] = &[
    "של",
    "ของ",
    "of",
    "for",
    "about",
    "de",
    "di",
    "von",
    "του",
    "της",
    "των",
];

/// Genitive endings of Russian and Ukrainian given names and surnames ("Ивана", "Олени",
/// "Дмитрия", "Мельника", "Ивановой").
const CYRILLIC_GENITIVE_ENDINGS: &[&str] =
    &["а", "я", "и", "ы", "ого", "его", "ой", "ей", "ої", "ів"];

/// True if `name`, a Cyrillic word, stands right after a lowercase word of its script ending a
/// noun phrase, in a genitive form: a possessor after the thing possessed ("зарплату Ивана",
/// "номер паспорта Івана Мельника").
fn cyrillic_genitive_after_noun(before: &str, name: &str) -> bool {
    let first = name.split_whitespace().next().unwrap_or_default();
    let cyrillic = |w: &str| {
        !w.is_empty()
            && w.chars()
                .all(|c| matches!(c, '\u{0400}'..='\u{04FF}' | '\'' | '’' | '-'))
    };
    let Some(prev) = before.split_whitespace().next_back() else {
        return false;
    };
    cyrillic(first)
        && cyrillic(prev)
        && first.chars().next().is_some_and(char::is_uppercase)
        && prev.chars().next().is_some_and(char::is_lowercase)
        && prev.chars().count() >= 3
        && CYRILLIC_GENITIVE_ENDINGS.iter().any(|e| first.ends_with(e))
}

/// True if `name`, standing between `before` and `after`, is a possessor by the grammar of its
/// language (the first of a chain of possessives): a possessive particle after it (王磊的电话,
/// 鈴木さんの電話, 김민준의, राम का खाता), a
/// possessive word before it (הטלפון של שרה, "the phone of 王磊", "τα γενέθλια της Έλενας"; in
/// Thai, written without spaces, glued to it: เบอร์ของสมชาย), a Cyrillic name in the
/// genitive after the noun it possesses ("зарплату Ивана"), or a Tamil or Bengali name whose
/// last word carries a case suffix before more words (ராஜேந்திரனின் ஒவ்வாமை, ঘোষকে কোন).
pub fn marks_possessor(before: &str, name: &str, after: &str) -> bool {
    if name.starts_with("ของ") {
        return true;
    }
    // Tamil and Bengali: the case suffix on the name's last word (ராஜேந்திரனின், দাসের).
    if name
        .split_whitespace()
        .next_back()
        .is_some_and(crate::case_suffix::has_case_suffix)
        && !after.trim_start().is_empty()
    {
        return true;
    }
    let mut after = after.trim_start();
    for h in HONORIFICS {
        if let Some(rest) = after.strip_prefix(h) {
            after = rest.trim_start();
            break;
        }
    }
    let before = before.trim_end();
    // Thai is written without spaces: ของ may be glued to the name.
    let last_word = before
        .rsplit(|c: char| c.is_whitespace())
        .next()
        .unwrap_or_default();
    let whole_word = |p: &&str| {
        after
            .strip_prefix(*p)
            .is_some_and(|rest| rest.chars().next().is_none_or(|c| !c.is_alphabetic()))
    };
    // In a chain of possessives only the first is the person: in "शबनम के तलाक के मुकदमे का
    // नंबर" (Shabnam's divorce's case's number) the divorce and the case are her attributes.
    let in_chain = POSSESSIVE_AFTER.iter().any(|p| before.ends_with(p))
        || POSSESSIVE_WORDS_AFTER.contains(&last_word);
    (!in_chain
        && (POSSESSIVE_AFTER.iter().any(|p| after.starts_with(p))
            || POSSESSIVE_WORDS_AFTER.iter().any(whole_word)))
        || POSSESSIVE_BEFORE
            .iter()
            .any(|p| last_word.eq_ignore_ascii_case(p) || (*p == "ของ" && before.ends_with(p)))
        || cyrillic_genitive_after_noun(before, name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canon;

    fn function_chunks(text: &str) -> Vec<String> {
        let chunks = canon::chunks(text);
        let s = spans(text, &chunks);
        chunks
            .iter()
            .filter(|c| covers(&s, c))
            .map(|c| text[c.span.clone()].to_owned())
            .collect()
    }

    #[test]
    fn request_words_and_particles_are_found_in_each_script() {
        assert_eq!(
            function_chunks("احذفي حساسية فاطمة الزهراني من الإيبوبروفين"),
            ["احذفي", "من"]
        );
        assert_eq!(
            function_chunks("अंजलि देशपांडे की सीट बदलकर 9C कर दो"),
            ["की", "बदलकर", "कर", "दो"]
        );
        assert_eq!(
            function_chunks("गीता जी की थायराइड वाली गोली की जानकारी"),
            ["जी", "की", "वाली", "की", "जानकारी"]
        );
        // Vowel points do not hide a request word: "حدّث" (update, with a shadda) is "حدث".
        assert_eq!(function_chunks("حدّث رقم هاتف محمود حسن"), ["حدّث"]);
        let zh = function_chunks("张伟的银联借记卡已挂失注销，请删除");
        assert_eq!(zh, ["的", "已", "请", "删", "除"]);
        assert_eq!(function_chunks("鈴木由美子さんの電話番号"), ["さんの"]);
        assert!(marks_possessor("", "王磊", "的电话"));
        assert!(marks_possessor("", "鈴木", "さんの電話"));
        assert!(marks_possessor("הטלפון של", "שרה לוי", ""));
        assert!(marks_possessor("the e-mail of ", "王磊", ""));
        assert!(marks_possessor("phone ", "ของสมชาย", ""));
        assert!(!marks_possessor("proof ", "王磊", ""));
        assert!(!marks_possessor(
            "Müller group का ",
            "वाराणसी वाला",
            " होटल"
        ));
        assert_eq!(
            function_chunks("הביפר של ד\"ר שלמה בן חיים"),
            ["של", "ד", "ר"]
        );
        assert_eq!(
            function_chunks("Екатерина Смирнова просит удалить её номер"),
            ["просит", "удалить", "её"]
        );
    }

    #[test]
    fn korean_request_nouns_conjugated_with_hada_are_request_words() {
        let words: Vec<String> = function_chunks("김민지의 연봉 업데이트해 주세요")
            .into_iter()
            .collect();
        assert_eq!(words.concat(), "업데이트해주세요");
        assert!(hangul_request_verb("수정해줘"));
        assert!(hangul_request_verb("변경하세요"));
        // Only a listed noun: a name or an attribute before 해 is no request.
        assert!(!hangul_request_verb("연봉해"));
        assert!(!hangul_request_verb("해"));
    }

    #[test]
    fn tamil_and_bengali_requests_have_their_grammar() {
        assert_eq!(
            function_chunks("மீனா ராஜேந்திரனின் ஒவ்வாமை பதிவை நீக்கவும்"),
            ["பதிவை", "நீக்கவும்"]
        );
        assert_eq!(
            function_chunks("অনু দাসের হোম ভিজিটের তথ্য মুছে ফেলুন"),
            ["তথ্য", "মুছে", "ফেলুন"]
        );
        // "Which day": দিন is a day, not the light verb.
        assert_eq!(function_chunks("নার্স কোন দিন যান"), ["কোন"]);
        // A name whose last word carries a case suffix before the rest of the request is the
        // person it is about; a case form ending the text marks nothing.
        assert!(marks_possessor("", "மீனா ராஜேந்திரனின்", " ஒவ்வாமை"));
        assert!(marks_possessor("", "সুমিত্রা ঘোষকে", " কোন ডাক্তার দেখেন"));
        assert!(!marks_possessor("", "மீனா ராஜேந்திரன்", " ஒவ்வாமை"));
        assert!(!marks_possessor("", "অনু দাসের", ""));
    }

    #[test]
    fn persian_urdu_amharic_and_hebrew_questions_have_their_grammar() {
        assert_eq!(
            function_chunks("شماره تلفن رضا احمدی را حذف کن"),
            ["را", "حذف", "کن"]
        );
        assert_eq!(
            function_chunks("ثناء بٹ کا فون نمبر مٹا دیں"),
            ["کا", "مٹا", "دیں"]
        );
        assert_eq!(function_chunks("የመሰረት አለሙ ስልክ ቁጥር ይሰረዝ"), ["ይሰረዝ"]);
        assert_eq!(function_chunks("ሊያ ወደ አሜሪካ መጥታለች"), ["ወደ"]);
        assert_eq!(function_chunks("מי מטפל כעת בדוד"), ["מי", "כעת"]);
        // Urdu possessives are whole words: کیا ("what") is not کی.
        assert!(marks_possessor("", "ثناء بٹ", " کا فون"));
        assert!(!marks_possessor("", "نادیہ", " کیا"));
    }

    #[test]
    fn only_the_first_of_a_chain_of_possessives_is_the_person() {
        assert!(marks_possessor("", "شبنم قریشی", " کے طلاق"));
        assert!(!marks_possessor("شبنم قریشی کے ", "طلاق", " کے مقدمے"));
        assert!(marks_possessor("", "राम", " के खाते"));
        assert!(!marks_possessor("राम के ", "खाते", " का नंबर"));
        assert!(!marks_possessor("王磊的", "房贷", "的月供"));
    }

    #[test]
    fn greek_articles_and_cyrillic_genitives_mark_a_possessor() {
        assert!(marks_possessor("η αλλεργία της ", "Έλενας Νικολάου", ""));
        assert!(marks_possessor("обнови зарплату ", "Ивана", ""));
        assert!(marks_possessor(
            "онови номер паспорта ",
            "Івана Мельника",
            ""
        ));
        // A name opening the text, or in the nominative, is no genitive possessor; one after
        // a phrase opened by a capitalized word still follows the noun it possesses.
        assert!(!marks_possessor("", "Ивана", " зарплата"));
        assert!(!marks_possessor("позвонил ", "Олег", ""));
        assert!(marks_possessor("Новый адрес ", "Ивана", ""));
    }

    #[test]
    fn names_and_latin_text_are_left_alone() {
        for text in [
            "Fatima Al-Zahrani is allergic to ibuprofen",
            "فاطمة الزهراني",
            "张伟",
            "山田花子",
            "Дмитрий Соколов",
            "박준서",
            "สมชาย แก้วกล้า",
            "رضا احمدی",
            "ثناء بٹ",
            "መሰረት አለሙ",
            "דוד אשכנזי",
        ] {
            assert!(function_chunks(text).is_empty(), "{text}");
        }
    }

    #[test]
    fn an_abjad_clitic_needs_a_listed_stem() {
        // و + من ("and from") is grammar; a name starting with a clitic letter is not.
        assert_eq!(function_chunks("ومن"), ["ومن"]);
        assert!(function_chunks("وليد").is_empty());
    }
}
