//! Names in every script: a longer name, a given name alone, another word division in an abjad,
//! a proclitic, another given name in Han or Hangul, a possessor marked by grammar.

use super::{assert_no_match, live_texts, store_with};
use oubli::{Inscription, Target};

#[test]
fn a_longer_name_is_someone_else_in_every_script() {
    let facts = [
        "张伟明 joined the badminton club.",
        "张伟 joined the chess club.",
        "Zhang Wei-Ming joined the rowing club.",
        "김민수진 joined the tennis club.",
        "김민수 joined the swimming club.",
    ];
    let (_t, s) = store_with(&facts);
    s.purge(Target::query("Zhang Wei's club")).unwrap();
    let left = live_texts(&s);
    assert!(!left.iter().any(|t| t.contains("chess")), "{left:?}");
    for kept in ["badminton", "rowing", "tennis", "swimming"] {
        assert!(left.iter().any(|t| t.contains(kept)), "{kept}: {left:?}");
    }
    s.purge(Target::query("김민수's club")).unwrap();
    let left = live_texts(&s);
    assert!(!left.iter().any(|t| t.contains("swimming")), "{left:?}");
    assert!(left.iter().any(|t| t.contains("tennis")), "{left:?}");
    // Particles and titles after a name do not make it longer.
    let (_t, s) = store_with(&["张伟的 club is chess.", "张伟明的 club is go."]);
    s.purge(Target::query("Zhang Wei's club")).unwrap();
    let left = live_texts(&s);
    assert_eq!(left, ["张伟明的 club is go."], "{left:?}");
}

#[test]
fn a_given_name_alone_in_a_caseless_script_is_not_the_full_name() {
    // Hebrew has no capitals: nothing tells that לוי in "מרים לוי" is a surname, so a row
    // holding only the given name of "Miriam Cohen" is not about her.
    let (_t, s) = store_with(&[
        "מרים כהן prefers the window table.",
        "מרים לוי always orders the soup.",
        "Miriam Cohen's birthday is 4 May.",
    ]);
    s.purge(Target::query("everything about Miriam Cohen"))
        .unwrap();
    assert_eq!(
        live_texts(&s),
        vec!["מרים לוי always orders the soup.".to_string()]
    );
}

#[test]
fn a_name_divided_into_other_words_in_an_abjad_is_the_same_name() {
    // "Abdullah" is one word in Latin and two in Arabic (عبد الله); the joined consonant
    // skeleton decides, and Khalid Yusuf's room stays.
    let (_t, s) = store_with(&["خالد عبد الله's room is 12.", "خالد يوسف's room is 14."]);
    s.purge(Target::query("Khalid Abdullah's room")).unwrap();
    assert_eq!(live_texts(&s), vec!["خالد يوسف's room is 14.".to_string()]);
}

#[test]
fn an_arabic_request_with_a_proclitic_on_the_name_erases_only_that_persons_row() {
    // "الخاص بيوسف": belonging to Youssef, the preposition written onto the name. Read without
    // it, the name is Youssef's; read with it, the request named only the family name, and
    // Yousra's IBAN went too.
    let (_t, s) = store_with(&[
        "Youssef Al-Haddad's IBAN is AE07 0331 2345 6789 0123 456.",
        "Yousra Al-Haddad's IBAN is AE46 0211 0000 0012 3456 789.",
        "Youssef Al-Haddad banks at the Deira branch in Dubai.",
    ]);
    s.purge(Target::query("احذف رقم الآيبان الخاص بيوسف الحداد"))
        .unwrap();
    let live = live_texts(&s);
    assert!(!live.iter().any(|t| t.contains("AE07")), "{live:?}");
    assert!(live.iter().any(|t| t.contains("AE46")), "{live:?}");
    assert!(live.iter().any(|t| t.contains("Deira")), "{live:?}");
}

#[test]
fn another_given_name_in_han_or_hangul_is_someone_else() {
    // A Han or Hangul name is one word of syllables: half of it (the surname, or the surname
    // and one syllable) is no mention of the person. 王磊 is not 王芳, 최현진 not 최현지.
    let facts = [
        "王芳的电话是 138 0000 1111。",
        "최현지's badge number is SEL-7002.",
        "김민수's phone is 010-1234-5678.",
    ];
    let (_t, s) = store_with(&facts);
    let before = live_texts(&s);
    for request in ["王磊的电话", "최현진's badge", "김민호's phone"] {
        let none = assert_no_match(s.purge(Target::query(request)), request);
        assert!(
            none.candidates
                .iter()
                .any(|c| c.reason.contains("names") || c.reason.contains("does not name")),
            "{request}: {none:?}"
        );
        assert_no_match(
            s.supersede(
                Target::query(request),
                Inscription::new("It is 555 0100 now."),
            ),
            request,
        );
    }
    assert_eq!(live_texts(&s), before);
    // The whole name, and the name before a particle, still reach the row.
    s.purge(Target::query("王芳的电话")).unwrap();
    s.purge(Target::query("최현지의 배지")).unwrap();
    s.purge(Target::query("김민수's phone")).unwrap();
    assert!(live_texts(&s).is_empty(), "{:?}", live_texts(&s));
}

#[test]
fn a_name_in_a_caseless_script_marked_as_possessor_must_be_present() {
    // No row names 王磊 or any 王: dropped as an unknown word, the name left "the phone" and
    // erased the only phone in the store. The grammar of possession marks it as a subject in
    // each language: 的 / の / 의 / का after it, של / ของ / "of" before it.
    let facts = [
        "李娜的电话是 139 0000 2222。",
        "Anna Weber's email address is on file with support.",
        "שרה כהן's phone number is 054-332-1876.",
        "สมหญิง's phone number is 081 234 5678.",
        "सीमा शर्मा का फ़ोन नंबर 98110 23345 है।",
    ];
    let (_t, s) = store_with(&facts);
    let before = live_texts(&s);
    for request in [
        "王磊的电话",
        "the email address of 王磊",
        "מספר הטלפון של שרה לוי",
        "phone number ของสมชาย",
        "राम शर्मा का फ़ोन नंबर",
    ] {
        assert_no_match(s.purge(Target::query(request)), request);
    }
    assert_eq!(live_texts(&s), before);
    s.purge(Target::query("李娜的电话")).unwrap();
    s.purge(Target::query("the email address of Anna Weber"))
        .unwrap();
    assert_eq!(live_texts(&s).len(), before.len() - 2);
}

#[test]
fn a_given_name_alone_is_not_a_hyphenated_given_name() {
    // "Ji" is not "Ji-woo", nor "Wei" "Wei-Ming": a hyphen glues the parts of one given name.
    let (_t, s) = store_with(&[
        "Ji-woo Park's badge number is B-5513.",
        "Wei-Ming Chen's tax ID is TIN 11-2233445.",
    ]);
    let before = live_texts(&s);
    assert_no_match(s.purge(Target::query("Ji's badge number")), "purge");
    assert_no_match(s.release(Target::query("the tax ID of Wei")), "release");
    assert_eq!(live_texts(&s), before);
    // The whole given name still reaches its rows.
    s.purge(Target::query("Ji-woo's badge number")).unwrap();
    let after = live_texts(&s);
    assert!(!after.iter().any(|t| t.contains("B-5513")), "{after:?}");
}

#[test]
fn a_phrase_glued_before_a_latin_name_is_no_part_of_it() {
    // Thai writes without spaces: "delete the bank account number of Carmen" glued to her
    // name asks for an attribute, not for everything about Carmen.
    let (_t, s) = store_with(&[
        "Carmen vive en MG Road 14, Bengaluru.",
        "Carmen's blood type is B+.",
        "Carmen García's badge number is B-3301.",
    ]);
    let before = live_texts(&s);
    assert_no_match(s.purge(Target::query("ลบเลขบัญชีธนาคารของCarmen")), "purge");
    assert_eq!(live_texts(&s), before);
}

#[test]
fn a_possessor_marked_by_a_genitive_is_the_subject_of_a_supersede() {
    // "зарплату Ивана" (Ivan's salary), "τα γενέθλια της Έλενας" (Elena's birthday): the new
    // text restates the same possessor, which no row names, so it is the subject, not the new
    // value, and no other person's salary or birthday is replaced.
    let (_t, s) = store_with(&[
        "David Okafor's salary is 111,000 EUR.",
        "Yuki earns 44,000 GBP a year.",
        "Η αλλεργία της Έλενας Μάρκου: πενικιλίνη.",
    ]);
    let before = live_texts(&s);
    for (query, new) in [
        (
            "обнови зарплату Ивана",
            "Зарплата Ивана — 60,000 GBP в год.",
        ),
        (
            "онови зарплату Олени",
            "Зарплата Олени — 48,000 EUR на рік.",
        ),
    ] {
        assert_no_match(
            s.supersede(Target::query(query), Inscription::new(new)),
            query,
        );
    }
    assert_eq!(live_texts(&s), before);
}
