//! Requests written as a label and an attribute ("Ji-woo: credit card", "Davis: IBAN"): the
//! label is the subject, however it is written, and an acronym naming the attribute is no part
//! of the name before it.

use super::*;

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
        let (_t, s) = store_with(&facts);
        let err = s
            .purge(Target::query(query))
            .expect_err("nobody named Davis is stored");
        assert!(matches!(err, Error::NoMatch(_)), "{query}: {err}");
        assert_eq!(live_texts(&s).len(), 3, "{query}");
    }
    let left = survivors_after_purge(&facts, "David: IBAN");
    assert_eq!(left, &facts[..2]);
}
