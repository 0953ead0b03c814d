//! Joint facts: a supersede whose request says what two people share ("the credit card Kanya
//! Srisuk shares with Ji-woo") and whose new text coordinates them before a possessive ("Kanya
//! Srisuk and Ji-woo's shared credit card is ..."). Both are its subjects: a row naming only
//! one of them is not the joint fact, and is never replaced.

use super::*;

#[test]
fn a_name_joined_by_and_to_a_possessor_is_a_subject_of_the_new_text() {
    let facts = [
        "Ji-woo's credit card number is 4111 1111 1111 9824",
        "Kanya's current medication is lisinopril",
        "Ivan's work address is Khreshchatyk 22, Kyiv",
        "Haruto Sato's access badge is B-1114",
    ];
    for (query, new) in [
        (
            "replace the credit card Kanya Srisuk shares with Ji-woo",
            "Kanya Srisuk and Ji-woo's shared credit card is 4111 1111 1111 5786",
        ),
        (
            "change the office address Lucía Fernández shares with Ivan",
            "Lucía Fernández and Ivan's shared office address is Rue de Rivoli 21, Paris",
        ),
    ] {
        let (_t, s) = store_with(&facts);
        let r = s.supersede(Target::query(query), Inscription::new(new));
        assert!(matches!(r, Err(Error::NoMatch(_))), "{query}: {r:?}");
        assert_eq!(live_texts(&s), facts, "{query}");
    }
    // The joint fact itself, when the store holds it, is replaced.
    let held = [
        "Kanya Srisuk and Ji-woo share the credit card 4111 1111 1111 1234",
        "Ji-woo's shoe size is EU 38",
    ];
    let (_t, s) = store_with(&held);
    s.supersede(
        Target::query("replace the credit card Kanya Srisuk shares with Ji-woo"),
        Inscription::new("Kanya Srisuk and Ji-woo's shared credit card is 4111 1111 1111 5786"),
    )
    .unwrap();
    let live = live_texts(&s);
    assert!(!live.iter().any(|t| t.contains("1234")), "{live:?}");
    assert!(live.iter().any(|t| t == held[1]), "{live:?}");
}
