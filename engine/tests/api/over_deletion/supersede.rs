//! Supersedes that must not guess: ties on evidence, paraphrases without evidence, and new texts
//! that state whose fact, and which, they replace.

use super::{assert_no_match, live_texts, store_with};
use oubli::{Inscription, Target};

#[test]
fn a_supersede_never_guesses_between_rows_tied_on_evidence() {
    let (_t, s) = store_with(&[
        "Kenta's favourite colour is blue.",
        "Kenta's favourite food is ramen.",
    ]);
    let before = live_texts(&s);
    let none = assert_no_match(
        s.supersede(
            Target::query("Kenta's favourite"),
            Inscription::new("Kenta's favourite pastime is chess."),
        ),
        "supersede",
    );
    assert_eq!(live_texts(&s), before);
    assert!(
        none.candidates.len() >= 2 && none.candidates.iter().all(|c| c.reason.contains("ties")),
        "{none:?}"
    );
    // Evidence that tells them apart still decides.
    s.supersede(
        Target::query("Kenta's favourite food"),
        Inscription::new("Kenta's favourite food is udon."),
    )
    .unwrap();
    let left = live_texts(&s);
    assert!(left.iter().any(|t| t.contains("blue")), "{left:?}");
    assert!(!left.iter().any(|t| t.contains("ramen")), "{left:?}");
}

#[test]
fn a_paraphrased_supersede_without_evidence_inscribes_nothing_over_the_subject() {
    // The only row about Kenta says nothing about his salary and shares no attribute with it.
    let (_t, s) = store_with(&["Kenta lives in Osaka.", "Kenta plays the cello."]);
    let before = live_texts(&s);
    assert_no_match(
        s.supersede(
            Target::query("Kenta's salary"),
            Inscription::new("Kenta earns 9M yen a year."),
        ),
        "supersede",
    );
    assert_eq!(live_texts(&s), before);
}

#[test]
fn a_supersede_replaces_only_a_fact_of_the_kind_about_the_person_its_new_text_states() {
    // The query names nobody; the new text is Bogdan's, whom no row names.
    let (_t, s) = store_with(&[
        "Carmen García's current medication is metformin.",
        "Carmen García's phone number is +49 30 3260557.",
        "Min-jun Kim's social security number is 884-41-5597.",
    ]);
    let before = live_texts(&s);
    assert_no_match(
        s.supersede(
            Target::query("prescription"),
            Inscription::new("Bogdan's medication is sertraline."),
        ),
        "supersede",
    );
    // An acronym is no name: "update the SSN" names nobody either.
    assert_no_match(
        s.supersede(
            Target::query("update the SSN"),
            Inscription::new("Claire Dubois' new social security number is 505-64-4379."),
        ),
        "supersede",
    );
    assert_eq!(live_texts(&s), before);
    // The query is only a name; the new text states a bonus, which no row of Noa's holds.
    let (_t, s) = store_with(&[
        "Noa Levi earns 102,000 USD a year.",
        "Reza's birthday is 15 May.",
    ]);
    let before = live_texts(&s);
    assert_no_match(
        s.supersede(
            Target::query("Noa"),
            Inscription::new("Noa's new bonus is 8,000 EUR."),
        ),
        "supersede",
    );
    assert_eq!(live_texts(&s), before);
    // The same query with a new text restating a fact the row holds replaces it.
    let done = s
        .supersede(
            Target::query("Noa"),
            Inscription::new("Noa Levi now earns 110,000 USD a year."),
        )
        .unwrap();
    assert_eq!(done.replaced, vec![1]);
}

#[test]
fn a_supersede_naming_only_its_subject_replaces_only_the_attribute_its_new_text_states() {
    let (_t, s) = store_with(&[
        "Ahmed Hassan's work address is Istiklal Cd. 88, Istanbul.",
        "Ahmed Hassan's passport number is PN1990576.",
        "Kanya's driver's licence number is DL-728945.",
    ]);
    let before = live_texts(&s);
    for (query, new) in [
        (
            "Ahmed Hassan",
            "Ahmed Hassan's new home address is 4-2-8 Shibakoen, Tokyo.",
        ),
        (
            "Ahmed Hassan's details changed",
            "Ahmed Hassan's home address is 4-2-8 Shibakoen, Tokyo.",
        ),
        (
            "update Kanya's record",
            "Kanya's new licence plate is B-AS 8904.",
        ),
    ] {
        assert_no_match(
            s.supersede(Target::query(query), Inscription::new(new)),
            query,
        );
    }
    assert_eq!(live_texts(&s), before);
    // The attribute the row holds is replaced (here by a clause-level edit of its row).
    let done = s
        .supersede(
            Target::query("Ahmed Hassan"),
            Inscription::new("Ahmed Hassan's new work address is Ermou 33, Athens."),
        )
        .unwrap();
    assert_eq!([done.replaced, done.edited].concat(), vec![1]);
}

#[test]
fn a_supersede_naming_only_its_subject_reads_the_new_texts_compound_and_hyphenated_names() {
    // "Ji-woo" is one name, so the query names only its subject: her bonus is not the salary
    // the new text states. "driver's licence" is not the licence plate a row holds.
    let (_t, s) = store_with(&[
        "Ji-woo Park's annual bonus is 6,000 EUR.",
        "Ji-woo Park's employee ID is E88010.",
        "Carmen García drives a car with licence plate AB80 CDE.",
        "Carmen García's credit card number is 4111 1111 1111 1234.",
    ]);
    let before = live_texts(&s);
    for (query, new) in [
        ("Ji-woo", "Ji-woo's salary is now 78,000 GBP."),
        (
            "Carmen García",
            "Carmen García's driver's licence number is now DL-246813.",
        ),
    ] {
        assert_no_match(
            s.supersede(Target::query(query), Inscription::new(new)),
            query,
        );
    }
    assert_eq!(live_texts(&s), before);
    let done = s
        .supersede(
            Target::query("Carmen García"),
            Inscription::new("Carmen García's new licence plate is AB81 CDE."),
        )
        .unwrap();
    assert_eq!([done.replaced, done.edited].concat(), vec![3]);
}

#[test]
fn a_supersede_does_not_guess_a_row_stating_an_attribute_neither_text_names() {
    // Each of Rossi's rows states its attribute by name; the request and the new text name her
    // salary, which none of them is.
    let facts = [
        "Maria Rossi's annual bonus is 4,000 EUR.",
        "Maria Rossi's tax ID is TIN 48-1265427.",
        "Maria Rossi's shoe size is EU 38.",
    ];
    let (_t, s) = store_with(&facts);
    let before = live_texts(&s);
    assert_no_match(
        s.supersede(
            Target::query("the pay of Dr. Rossi"),
            Inscription::new("Dr. Rossi's new salary is 101,000 EUR."),
        ),
        "supersede",
    );
    assert_no_match(
        s.supersede(
            Target::query("Maria Rossi's badge number"),
            Inscription::new("Maria Rossi's new badge number is B-8641."),
        ),
        "supersede",
    );
    assert_eq!(live_texts(&s), before);
    // A word naming only a kind of value is no word of the attribute: "badge number" does not
    // name Noa's "credit card number".
    let (_t2, s2) = store_with(&[
        "Noa's credit card number is 4111 1111 1111 1272.",
        "Noa Levi's birthday is 20 February 1995.",
        "Noa Levi drives a car with licence plate 34 ABC 411.",
    ]);
    let before2 = live_texts(&s2);
    assert_no_match(
        s2.supersede(
            Target::query("Noa Levi: access badge"),
            Inscription::new("Noa Levi's badge number is now B-6469."),
        ),
        "supersede",
    );
    assert_eq!(live_texts(&s2), before2);
    // A payment card is not the bank account it draws on.
    let (_t3, s3) = store_with(&[
        "Carmen García's bank account (IBAN) is DE36 3704 0044 0532 9264 96.",
        "Carmen García's birthday is 2 May 1988.",
        "Carmen García lives at Calle Mayor 5, Madrid.",
    ]);
    let before3 = live_texts(&s3);
    assert_no_match(
        s3.supersede(
            Target::query("can you change Carmen García's credit card number?"),
            Inscription::new("Carmen García's credit card number is 4111 1111 1111 2456."),
        ),
        "supersede",
    );
    assert_eq!(live_texts(&s3), before3);
    // A row stating its fact in other words may still be what a paraphrase means.
    let (_t, s) = store_with(&[
        "Maria Rossi earns 96,000 EUR a year.",
        "Maria Rossi's shoe size is EU 38.",
    ]);
    s.supersede(
        Target::query("the pay of Dr. Rossi"),
        Inscription::new("Dr. Rossi's new salary is 101,000 EUR."),
    )
    .unwrap();
    let left = live_texts(&s);
    assert!(!left.iter().any(|t| t.contains("96,000")), "{left:?}");
    assert!(left.iter().any(|t| t.contains("EU 38")), "{left:?}");
}

#[test]
fn an_identifier_the_request_acts_on_is_never_taken_for_the_new_value() {
    // "Replace the badge B-3671" acts on badge B-3671. The new text restating it does not make
    // it the new value, and no row holds it: a no-match, not Elena's badge B-3674.
    let facts = [
        "Elena Markou's badge number is B-3674.",
        "Fatima Zahra's credit card number is 4111 1111 1111 5282.",
        "Dmitri Ivanov's office email address is divanov@litware.io.",
    ];
    let (_t, s) = store_with(&facts);
    let before = live_texts(&s);
    for (query, new) in [
        (
            "replace the badge B-3671",
            "The badge B-3671 is no longer valid.",
        ),
        (
            "change the credit card number 4111 1111 1111 5287",
            "The credit card number 4111 1111 1111 5287 is no longer valid.",
        ),
        (
            "replace the work email divanovx@litware.io",
            "The work email divanovx@litware.io is no longer valid.",
        ),
    ] {
        assert_no_match(
            s.supersede(Target::query(query), Inscription::new(new)),
            query,
        );
        assert_eq!(live_texts(&s), before, "{query}");
    }
    // Marked as the new value, it is one: the row of the attribute is replaced.
    s.supersede(
        Target::query("change Elena's badge number to B-3671"),
        Inscription::new("Elena Markou's badge number is B-3671."),
    )
    .unwrap();
    let left = live_texts(&s).join("\n");
    assert!(
        left.contains("B-3671") && !left.contains("B-3674"),
        "{left}"
    );
}

#[test]
fn a_capitalized_attribute_word_anchors_no_subject() {
    // "Wi-Fi" is capitalized and the rows hold it, but it names what is asked, not whose: it
    // does not make "Pune", which no row holds, the new value of the Lyon office's password.
    let facts = [
        "The Wi-Fi password at the Lyon office is Tr0pic!Blue",
        "The door code for the Lyon office is 4785#",
    ];
    let (_t, s) = store_with(&facts);
    let before = live_texts(&s);
    for query in [
        "the Pune office's Wi-Fi password",
        "the Wi-Fi password of the Pune office",
    ] {
        assert_no_match(
            s.supersede(
                Target::query(query),
                Inscription::new("The Wi-Fi password of the Pune office is orchid#2024"),
            ),
            query,
        );
        assert_eq!(live_texts(&s), before, "{query}");
    }
    // Asked of the Lyon office, the same request replaces its password.
    s.supersede(
        Target::query("the Lyon office's Wi-Fi password"),
        Inscription::new("The Wi-Fi password of the Lyon office is orchid#2024"),
    )
    .unwrap();
    let left = live_texts(&s).join("\n");
    assert!(
        left.contains("orchid#2024") && !left.contains("Tr0pic!Blue") && left.contains("4785#"),
        "{left}"
    );
}

#[test]
fn a_word_of_the_new_text_does_not_make_a_row_lacking_the_agreed_attribute_the_fact() {
    // The request and the new text agree on "plate"; the only row sharing a word with the new
    // text ("licence") states the driving licence, another attribute of the same sphere.
    let (_t, s) = store_with(&[
        "Tom Becker's driver's licence number is DL-623788.",
        "Tom's shoe size is EU 42.",
        "Tom Becker lives at Sukhumvit Soi 11, Bangkok.",
    ]);
    let before = live_texts(&s);
    for query in [
        "Tom's number plate",
        "Tom: number plate",
        "Tom moved out last month; forget his old number plate",
    ] {
        assert_no_match(
            s.supersede(
                Target::query(query),
                Inscription::new("Tom's licence plate is now B-AS 9404."),
            ),
            query,
        );
        assert_eq!(live_texts(&s), before, "{query}");
    }
    // The row that holds the agreed word is the fact.
    let (_t2, s2) = store_with(&[
        "Tom Becker's driver's licence number is DL-623788.",
        "Tom Becker's car has the licence plate B-AS 1100.",
    ]);
    s2.supersede(
        Target::query("Tom's plate"),
        Inscription::new("Tom's licence plate is now B-AS 9404."),
    )
    .unwrap();
    let after = live_texts(&s2);
    assert!(after.iter().any(|t| t.contains("DL-623788")), "{after:?}");
    assert!(!after.iter().any(|t| t.contains("B-AS 1100")), "{after:?}");
}
