//! Names written as one word: Hangul syllables and hyphenated given names. A row holding most
//! of such a name may name someone else: another family name before the same given name
//! (김민준 for 이민준), another, longer second part of a hyphenated given name ("Min-jun" for
//! "Min-junho"). Those requests are typed no-matches; the name itself, or its given name alone,
//! still reaches the row.

use super::*;

/// Asserts that releasing `query` over a fresh store of `facts` is a typed no-match that
/// leaves every row live.
fn no_match(facts: &[&str], query: &str) {
    let (_t, s) = store_with(facts);
    let err = s.release(Target::query(query)).err();
    assert!(matches!(err, Some(Error::NoMatch(_))), "{query}: {err:?}");
    assert_eq!(live_texts(&s).len(), facts.len(), "{query}");
}

/// The rows left live after releasing `query` over a fresh store of `facts`.
fn left_after_release(facts: &[&str], query: &str) -> Vec<String> {
    let (_t, s) = store_with(facts);
    s.release(Target::query(query))
        .unwrap_or_else(|e| panic!("{query}: {e}"));
    live_texts(&s)
}

#[test]
fn another_hangul_family_name_before_the_same_given_name_is_another_person() {
    let facts = [
        "김민준의 여권 번호는 LN6251431입니다",
        "김민준의 연봉은 90,000 EUR입니다",
        "Somchai's blood type is O-",
    ];
    no_match(&facts, "이민준의 여권 번호 잊어 주세요");
    // The full name, and the given name alone, are his.
    for query in [
        "김민준의 여권 번호 잊어 주세요",
        "민준의 여권 번호 잊어 주세요",
    ] {
        let left = left_after_release(&facts, query);
        assert!(
            !left.iter().any(|t| t.contains("LN6251431")),
            "{query}: {left:?}"
        );
        assert_eq!(left.len(), 2, "{query}: {left:?}");
    }
}

#[test]
fn a_hyphenated_given_name_extended_is_another_person() {
    let facts = [
        "Min-jun's credit card number is 4111 1111 1111 5478",
        "Min-jun's home address is Baker Street 12, London",
        "Anna Schmidt's credit card number is 4111 1111 1111 9824",
    ];
    no_match(&facts, "Min-junho credit card number");
    no_match(&facts, "Min-junho's credit card number");
    let left = left_after_release(&facts, "Min-jun credit card number");
    assert!(!left.iter().any(|t| t.contains("5478")), "{left:?}");
    assert_eq!(left.len(), 2, "{left:?}");
}

/// A Hangul name is one word: against a row that writes a name in Latin letters, every
/// syllable before its particle must be there. "Ji-woo Park" is not 박지원; "Park Jun-seo" is
/// 박준서, with or without the possessive particle.
#[test]
fn a_hangul_name_is_whole_against_a_latin_row() {
    let facts = [
        "Ji-woo Park received a bonus of 9,000 EUR this year",
        "Park Jun-seo's annual salary is 67 million won.",
        "Haruto Sato's badge number is B-6334",
    ];
    no_match(&facts, "박지원의 보너스 지워 줘");
    for query in ["박준서의 연봉 잊어 주세요", "박준서 연봉 잊어 주세요"] {
        let left = left_after_release(&facts, query);
        assert!(
            !left.iter().any(|t| t.contains("67 million")),
            "{query}: {left:?}"
        );
        assert_eq!(left.len(), 2, "{query}: {left:?}");
    }
    let left = left_after_release(&facts, "박지우의 보너스 지워 줘");
    assert!(!left.iter().any(|t| t.contains("9,000")), "{left:?}");
}

/// A Latin name read into a Han word must be a name of it, not a character inside it: "Yu" (a
/// reading of 由) is not 田中由紀 (Tanaka Yuki, given name 由紀), nor is "Wei" 张伟明 (Zhang
/// Weiming). The whole name, and the surname alone, still reach the row.
#[test]
fn a_latin_name_is_no_character_inside_a_han_name() {
    let facts = [
        "田中由紀の個人メールアドレスは非公開です",
        "张伟明的护照号码是E12345678",
        "Haruto Sato's badge number is B-6334",
    ];
    no_match(&facts, "the home email of Yu");
    no_match(&facts, "Wei's passport number");
    for (query, gone) in [
        ("Tanaka Yuki's email", "田中由紀"),
        ("Tanaka's email address", "田中由紀"),
        ("Zhang Weiming's passport number", "张伟明"),
        ("Zhang's passport number", "张伟明"),
    ] {
        let left = left_after_release(&facts, query);
        assert!(!left.iter().any(|t| t.contains(gone)), "{query}: {left:?}");
        assert_eq!(left.len(), 2, "{query}: {left:?}");
    }
}

/// A Hangul name with its possessive particle (김민지의) is the subject of a supersede whose new
/// text restates it, not the new value: "update 김민지's salary" never overwrites 김민준's,
/// however the request is worded (업데이트해 주세요 is "please update").
#[test]
fn a_hangul_possessor_restated_in_the_new_text_is_the_subject() {
    let facts = [
        "김민준의 연봉은 90,000 EUR입니다",
        "김민준의 여권 번호는 LN6251431입니다",
        "Haruto Sato's badge number is B-6334",
    ];
    let (_t, s) = store_with(&facts);
    let r = s.supersede(
        Target::query("김민지의 연봉 업데이트해 주세요"),
        Inscription::new("김민지의 연봉은 60,000 EUR입니다"),
    );
    assert!(matches!(r, Err(Error::NoMatch(_))), "{r:?}");
    assert_eq!(live_texts(&s).len(), 3);
    s.supersede(
        Target::query("김민준의 연봉 업데이트해 주세요"),
        Inscription::new("김민준의 연봉은 95,000 EUR입니다"),
    )
    .unwrap();
    let live = live_texts(&s);
    assert!(live.iter().any(|t| t.contains("95,000")), "{live:?}");
    assert!(!live.iter().any(|t| t.contains("90,000")), "{live:?}");
}
