//! How a request writes its subject: as a label before the attribute ("Ji-woo: credit card",
//! "Davis: IBAN"), where the label is the subject however it is written and an acronym naming
//! the attribute is no part of the name before it; or in lowercase after a title ("dr. sato's
//! phone number"), where the title says a name follows.

use super::*;

/// Asserts that purging (or releasing) `query` over a fresh store of `facts` is a typed
/// no-match that leaves every row live.
fn no_match(facts: &[&str], query: &str, release: bool) {
    let (_t, s) = store_with(facts);
    let err = if release {
        s.release(Target::query(query)).err()
    } else {
        s.purge(Target::query(query)).err()
    };
    assert!(matches!(err, Some(Error::NoMatch(_))), "{query}: {err:?}");
    assert_eq!(live_texts(&s).len(), facts.len(), "{query}");
}

/// "Ji-woo: credit card" where Ji-woo has no credit card on file: a hyphenated given name
/// heading the request is its subject, so her other rows (which hold none of the attribute) are
/// not released; her personal e-mail, asked the same way, is.
#[test]
fn a_hyphenated_name_heading_the_request_is_its_subject() {
    let (_t, s) = store_with(&[
        "Ji-woo's annual bonus is 20,000 EUR and her personal email is jiwoo.park55@gmail.com",
        "Ji-woo lives at 4-2-8 Shibakoen, Minato, Tokyo",
        "Priya Sharma's blood type is AB+",
    ]);
    let err = s
        .release(Target::query("Ji-woo: credit card"))
        .expect_err("no row holds Ji-woo's credit card");
    assert!(matches!(err, Error::NoMatch(_)), "{err}");
    assert_eq!(live_texts(&s).len(), 3);
    s.release(Target::query("Ji-woo: personal email"))
        .expect("her personal e-mail is held");
    let live = live_texts(&s);
    assert!(!live.iter().any(|t| t.contains("jiwoo.park55")), "{live:?}");
    assert!(live.iter().any(|t| t.contains("Shibakoen")), "{live:?}");
}

/// "Davis: IBAN" in a store holding David's IBAN: the acronym names the attribute, not half of
/// a name "Davis IBAN" that a row holding "IBAN" would be present in. Nothing is purged;
/// "David: IBAN" still reaches David's row.
#[test]
fn an_attribute_acronym_after_a_name_is_not_half_of_the_name() {
    let facts = [
        "Ivan's annual bonus is 6,000 EUR",
        "David's passport number is X1234567",
        "David's IBAN is DE87 3704 0044 0532 5024 29",
    ];
    for query in ["Davis: IBAN", "Davis IBAN"] {
        no_match(&facts, query, false);
    }
    let left = survivors_after_purge(&facts, "David: IBAN");
    assert_eq!(left, &facts[..2]);
}

/// "dr. okafor's phone number" typed in lowercase, in a store without Okafor: the word after
/// the title is the subject, so Anna's phone number is not released; "dr. sato's phone number"
/// and "the phone number of dr. sato" reach Dr. Sato's.
#[test]
fn a_lowercase_name_after_a_title_is_the_subject() {
    let facts = [
        "Anna's phone number is +49 30 1234567",
        "Yuki Sato's phone number is +81 90 1111 2222",
        "Nikos Papadopoulos' access badge is B-8224",
    ];
    for query in [
        "dr. okafor's phone number",
        "forget dr. okafor's phone number",
        "the phone number of dr. okafor",
        "release mrs. ivanova's old access badge",
    ] {
        no_match(&facts, query, true);
    }
    for query in ["dr. sato's phone number", "the phone number of dr. sato"] {
        let left = survivors_after_purge(&facts, query);
        assert_eq!(left, [facts[0], facts[2]], "{query}");
    }
}

/// "Tailspin Toys VAT number" where the company's registration number is stored and its VAT
/// number is not: the acronym modifies "number" (the attribute), it is not the third word of
/// the company's name, so the registration number is not purged; the VAT number, once stored,
/// is the one purged.
#[test]
fn an_acronym_before_a_generic_head_is_the_attribute() {
    let facts = [
        "Jonas Weber's phone number is +49 30 4397628",
        "Tailspin Toys' company registration number is HRB 53966",
    ];
    for query in ["Tailspin Toys VAT number", "Tailspin Toys: VAT number"] {
        no_match(&facts, query, false);
    }
    let with_vat = [
        facts[0],
        facts[1],
        "Tailspin Toys' VAT number is DE123456789",
    ];
    let left = survivors_after_purge(&with_vat, "Tailspin Toys VAT number");
    assert_eq!(left, &with_vat[..2]);
}

/// "Wei: SSN" as a supersede in a store without Wei: the colon ends the label, so "SSN" is no
/// second word of a name "Wei SSN" that any row holding a social security number would be
/// half present in. Haruto's and Olena's numbers stay; "Haruto: SSN" reaches Haruto's.
#[test]
fn a_colon_ends_the_name_a_label_writes() {
    let facts = [
        "Haruto's blood type is O-",
        "Haruto's social security number is 804-86-1740",
        "Olena Kovalenko's social security number is 658-39-5715",
    ];
    let (_t, s) = store_with(&facts);
    let r = s.supersede(
        Target::query("Wei: SSN"),
        Inscription::new("Wei's social security number is 476-31-9274"),
    );
    assert!(matches!(r, Err(Error::NoMatch(_))), "{r:?}");
    assert_eq!(live_texts(&s), facts);
    let new = "Haruto's social security number is 804-86-9999";
    s.supersede(Target::query("Haruto: SSN"), Inscription::new(new))
        .expect("Haruto's number is held");
    let live = live_texts(&s);
    assert!(live.contains(&new.to_owned()), "{live:?}");
    assert!(!live.iter().any(|t| t.contains("804-86-1740")), "{live:?}");
    assert!(live.iter().any(|t| t.contains("658-39-5715")), "{live:?}");
}

/// A supersede whose request names no one ("the old wedding anniversary is wrong") and whose new
/// text opens with a name in lowercase as the possessor ("olga's wedding anniversary is ..."):
/// that name is whom the new text is about, so Olena's and Ivan's anniversaries stay; the same
/// new text about "olena" replaces hers.
#[test]
fn a_lowercase_possessor_opening_the_new_text_is_its_subject() {
    let facts = [
        "Olena's wedding anniversary is 14 February 1993",
        "Ivan Petrenko's wedding anniversary is 5 March 1976",
        "Olena's phone is +44 7700 900293",
    ];
    let (_t, s) = store_with(&facts);
    for new in [
        "olga's wedding anniversary is 11 June 1993",
        "niloufar rahimi's wedding anniversary is 22 December 1971",
    ] {
        let r = s.supersede(
            Target::query("the old wedding anniversary is wrong"),
            Inscription::new(new),
        );
        assert!(matches!(r, Err(Error::NoMatch(_))), "{new}: {r:?}");
    }
    assert_eq!(live_texts(&s), facts);
    let new = "olena's wedding anniversary is 11 June 1993";
    s.supersede(
        Target::query("the old wedding anniversary is wrong"),
        Inscription::new(new),
    )
    .expect("Olena's anniversary is held");
    let live = live_texts(&s);
    assert!(live.contains(&new.to_owned()), "{live:?}");
    assert!(
        !live.iter().any(|t| t.contains("14 February 1993")),
        "{live:?}"
    );
    assert!(live.iter().any(|t| t.contains("5 March 1976")), "{live:?}");
}

#[test]
fn an_acronym_of_three_letters_beside_a_name_is_no_part_of_it() {
    // "SSN" is no part of the name "Lucía": read as "SSN Lucía", half of a two-word name held
    // would make every row about Lucía the subject of a request with no attribute left.
    let facts = [
        "Lucía's shoe size is EU 39",
        "Lucía's car registration is AB67 CDE",
        "Ayşe Demir's social security number is 329-37-1793",
    ];
    for query in ["the SSN Lucía has", "Lucía SSN"] {
        let (_t, s) = store_with(&facts);
        let r = s.purge(Target::query(query));
        assert!(matches!(r, Err(Error::NoMatch(_))), "{query}: {r:?}");
        assert_eq!(live_texts(&s), facts, "{query}");
    }
    let (_t, s) = store_with(&facts);
    let r = s.supersede(
        Target::query("correct the SSN Lucía shares with Ayşe Demir"),
        Inscription::new("Lucía and Ayşe Demir's shared SSN is 161-80-6807"),
    );
    assert!(matches!(r, Err(Error::NoMatch(_))), "{r:?}");
    assert_eq!(live_texts(&s), facts);
    // Where Lucía's SSN is held, the same request erases it and nothing else; initials of two
    // letters still join a name.
    let held = [
        "Lucía's SSN is 123-45-6789",
        "Lucía's shoe size is EU 39",
        "AJ Smith's phone number is +44 7700 900456",
    ];
    let (_t, s) = store_with(&held);
    s.purge(Target::query("the SSN Lucía has")).unwrap();
    assert_eq!(live_texts(&s), held[1..]);
    s.purge(Target::query("AJ Smith's phone number")).unwrap();
    assert_eq!(live_texts(&s), held[1..2]);
}
