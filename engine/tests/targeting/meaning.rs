//! Meaning in targeting: which row a paraphrased supersede replaces, and where meaning never
//! decides.

use super::*;

#[test]
fn a_paraphrased_supersede_replaces_the_row_closest_in_meaning() {
    // No row holds "heart" or "specialist": the words reach Marta's four rows and cannot
    // choose; the default embedder puts the cardiologist row clearly closest to the query and
    // the new text.
    let (_t, s) = store_with(&MARTA);
    let new = "Marta Lindqvist has a new heart specialist, Dr. Holm.";
    let target = Target::query("Marta's heart specialist");
    let plan = s
        .plan_with(Operation::Supersede, &target, Some(new))
        .unwrap();
    assert_eq!(plan.rows, vec![1], "{plan:?}");
    assert!(
        plan.matches[0]
            .reasons
            .iter()
            .any(|r| r.contains("closest in meaning")),
        "{plan:?}"
    );
    let done = s.supersede(target, Inscription::new(new)).unwrap();
    assert_eq!(done.replaced, vec![1]);
    let live = live_texts(&s);
    assert!(!live.iter().any(|t| t.contains("Dr. Berg")), "{live:?}");
    for kept in &MARTA[1..] {
        assert!(live.iter().any(|t| t == kept), "{kept} lost: {live:?}");
    }
}

#[test]
fn a_paraphrased_supersede_replaces_the_row_holding_a_value_of_the_new_kind() {
    // "The number the bank texts Rafael on" shares "number" with the customer number; the new
    // text states a phone number, and one row of Rafael's holds one.
    let facts = [
        "Rafael Costa's mobile on file is +351 912 345 678.",
        "Rafael Costa's customer number is PT-7781203.",
        "Rafael Costa's branch is Avenida da Boavista, Porto.",
        "Rafael Costa's adviser is Marta Pinheiro.",
    ];
    let live = live_after_supersede(
        &facts,
        "the number the bank texts Rafael on",
        "Rafael Costa changed his contact phone number to +351 936 111 204.",
        1,
    );
    assert!(!live.iter().any(|t| t.contains("912 345 678")), "{live:?}");
    assert!(live.iter().any(|t| t == facts[1]), "{live:?}");
    // An amount with words in common: the Kyoto trip's budget, not the Seoul trip's, nor the
    // Kyoto trip's dates.
    let facts = [
        "Hamid Karimi's travel budget for the Kyoto trip is 3,000 USD.",
        "Hamid Karimi's Kyoto trip runs from 1 to 8 April.",
        "Hamid Karimi's Seoul trip budget is 2,200 USD.",
    ];
    let (_t, s) = store_with(&facts);
    let target = Target::query("how much Hamid may spend on his trip");
    let new = "Hamid Karimi can spend up to 4,500 USD on the Kyoto trip.";
    let plan = s
        .plan_with(Operation::Supersede, &target, Some(new))
        .unwrap();
    assert_eq!(plan.rows, vec![1], "{plan:?}");
    // A row the words chose that holds only another kind of value is not replaced: a new
    // overdraft limit is not the account's IBAN.
    let facts = [
        "Siobhan Kelly's current account IBAN is IE29 AIBK 9311 5212 3456 78.",
        "Siobhan Kelly's branch is Dun Laoghaire.",
    ];
    let (_t, s) = store_with(&facts);
    let r = s.supersede(
        Target::query("how far Siobhan can go into the red on her current account"),
        Inscription::new(
            "Siobhan Kelly can now go overdrawn by up to €1,200 on her current account.",
        ),
    );
    assert!(matches!(r, Err(Error::NoMatch(_))), "{r:?}");
    assert_eq!(live_texts(&s), facts);
}

#[test]
fn meaning_never_decides_an_erasure_or_a_lone_row() {
    // The same description that a supersede resolves by meaning is a no-match for a purge:
    // meaning never widens what is erased.
    let (_t, s) = store_with(&MARTA);
    assert!(matches!(
        s.purge(Target::query("Marta's heart specialist")),
        Err(Error::NoMatch(_))
    ));
    assert_eq!(live_texts(&s).len(), 4);
    // A subject with one row that lacks the attribute: nothing to choose between, so the
    // supersede is a typed no-match, not a replacement of the only row.
    let (_t2, s2) = store_with(&["Kenta Mori lives in Osaka."]);
    let r = s2.supersede(
        Target::query("Kenta's salary"),
        Inscription::new("Kenta Mori now earns 9 million yen."),
    );
    assert!(matches!(r, Err(Error::NoMatch(_))), "{r:?}");
    assert_eq!(
        live_texts(&s2),
        vec!["Kenta Mori lives in Osaka.".to_string()]
    );
}

#[test]
fn rows_close_in_meaning_are_not_told_apart_by_it() {
    // Two rows of one subject on one topic, differing only in a date: meaning does not lead by
    // the margin, so the supersede is ambiguous, changes nothing, and the plan says why. (The
    // query's "appointment" and the new text's "visit" name one attribute concept, which no
    // row names in its words: the plan may say so instead.)
    let (_t, s) = store_with(&[
        "Omar Haddad has a dental check-up on 3 May.",
        "Omar Haddad has a dental check-up on 9 June.",
        "Omar Haddad works at the port authority.",
    ]);
    let target = Target::query("Omar's teeth appointment");
    let new = "Omar Haddad's visit to the dentist moved to July.";
    let plan = s
        .plan_with(Operation::Supersede, &target, Some(new))
        .unwrap();
    assert!(plan.rows.is_empty(), "{plan:?}");
    assert!(
        plan.rejected.iter().all(|r| r.reason.contains("in meaning")
            || r.reason.contains("which no row about the subject holds")),
        "{plan:?}"
    );
    assert!(matches!(
        s.supersede(target, Inscription::new(new)),
        Err(Error::NoMatch(_))
    ));
    assert_eq!(live_texts(&s).len(), 3);
}

#[test]
fn a_new_phone_email_or_account_replaces_only_a_row_stating_one() {
    // The new text states a value that names one attribute on its own (an e-mail address, a
    // bank account): no fallback replaces a row of the subject's that states none, however
    // close in meaning, and an account number counts as one even when its check digits fail.
    let cases: &[(&[&str], &str, &str)] = &[
        (
            &[
                "Fatima Zahra is allergic to peanuts.",
                "Fatima Zahra's credit card number is 4111 1111 1111 2125.",
            ],
            "update Fatima Zahra's personal mail",
            "Fatima Zahra's personal e-mail is fatima.zahra37@mail.ru",
        ),
        (
            &[
                "Yosef Cohen's credit card number is 4111 1111 1111 8467.",
                "Yosef Cohen's shoe size is 43.",
            ],
            "the bank details of Yosef",
            "Yosef's IBAN is now DE99 3704 0044 0532 5730 95",
        ),
        (
            &[
                "Litware's bank account for invoices is GB52 NWBK 6016 1331 3827 36.",
                "Litware's office is in Leeds.",
            ],
            "Litware's VAT number",
            "The VAT number of Litware is DE680402774",
        ),
    ];
    for (facts, query, new) in cases {
        let (_t, s) = store_with(facts);
        let plan = s
            .plan_with(Operation::Supersede, &Target::query(*query), Some(new))
            .unwrap();
        assert!(plan.rows.is_empty(), "{query}: {plan:?}");
    }
    // A row stating the kind is still replaced.
    let facts = [
        "Yosef Cohen's bank account is DE12 3704 0044 0532 0000 01.",
        "Yosef Cohen's credit card number is 4111 1111 1111 8467.",
        "Yosef Cohen's shoe size is 43.",
    ];
    let (_t, s) = store_with(&facts);
    let plan = s
        .plan_with(
            Operation::Supersede,
            &Target::query("the bank details of Yosef"),
            Some("Yosef's IBAN is now DE99 3704 0044 0532 5730 95"),
        )
        .unwrap();
    assert_eq!(plan.rows, vec![1], "{plan:?}");
}

#[test]
fn a_new_numbered_identifier_replaces_only_a_code_of_its_format() {
    let plan = |first: &str| {
        let facts = [
            first,
            "Noa is allergic to penicillin",
            "Noa lives at 5 Herzl Street, Haifa",
        ];
        let (_t, s) = store_with(&facts);
        s.plan_with(
            Operation::Supersede,
            &Target::query("passport for noa"),
            Some("noa's new passport number is DR8025316"),
        )
        .unwrap()
    };
    // No row names a passport: meaning would pick the tax number, a code of another length.
    let p = plan("Noa's tax ID is TIN 60-6530376");
    assert!(p.rows.is_empty(), "{p:?}");
    assert!(
        p.rejected
            .iter()
            .any(|r| r.id == 1 && r.reason.contains("another format")),
        "{p:?}"
    );
    // A travel document of the same format is still replaced by meaning.
    let p = plan("Noa travels on document DR7711204");
    assert_eq!(p.rows, vec![1], "{p:?}");
}

#[test]
fn a_value_of_the_new_kind_does_not_decide_for_an_attribute_the_query_names() {
    // The new text states a phone-shaped value for an attribute the query names itself (a
    // fax number, a PIN code, a religion): the subject's phone row holds a value of that kind
    // but none of the query's attribute words, nor a word of their sphere, so it is not
    // the fact restated.
    let facts = [
        "Yosef Cohen's phone number is +49 30 9165864",
        "Yosef Cohen lives in Haifa",
        "Yosef Cohen's car registration is AB12 CDE",
    ];
    for (query, new) in [
        (
            "drop the fax number we have on file for Yosef Cohen",
            "Yosef Cohen's new fax number is +44 7700 900208",
        ),
        (
            "can you change Yosef Cohen's PIN code?",
            "Yosef Cohen's PIN code is +49 30 7607309",
        ),
        (
            "Yosef: religion",
            "Yosef's religion is now +7 916 792-28-66",
        ),
    ] {
        let (_t, s) = store_with(&facts);
        let r = s.supersede(Target::query(query), Inscription::new(new));
        assert!(matches!(r, Err(Error::NoMatch(_))), "{query}: {r:?}");
        assert_eq!(live_texts(&s).len(), facts.len(), "{query}");
    }
    // A query naming no attribute of its own still reaches the row by the kind of the value.
    let (_t, s) = store_with(&facts);
    s.supersede(
        Target::query("update Yosef's number"),
        Inscription::new("Yosef Cohen's number is now +44 7700 900208"),
    )
    .unwrap();
    let live = live_texts(&s);
    assert!(live.iter().any(|t| t.contains("900208")), "{live:?}");
    assert!(!live.iter().any(|t| t.contains("9165864")), "{live:?}");
}

#[test]
fn rows_about_the_subjects_relations_are_rivals_a_choice_by_meaning_must_beat() {
    // Tomas has one row of his own; the other two are about his sister and his father. The
    // words reach no row ("school" is in none), and a lone row is no evidence by itself; the
    // relations' rows are rivals: the choice must stand out from them.
    let facts = [
        "Tomas Berg is a pupil at Riverside Grammar, year 9.",
        "Tomas Berg's sister Ingrid plays the violin.",
        "Tomas Berg's father Nils is a ferry captain.",
    ];
    let live = live_after_supersede(
        &facts,
        "which school Tomas goes to",
        "Tomas Berg is now a pupil at Hillside Academy, year 9.",
        1,
    );
    assert!(!live.iter().any(|t| t.contains("Riverside")), "{live:?}");
    for kept in &facts[1..] {
        assert!(live.iter().any(|t| t == kept), "{kept} lost: {live:?}");
    }
    // The instrument is the sister's: her row is the closest, and it may not be chosen, so
    // nothing is (Tomas's school row is not replaced with an instrument).
    let (_t, s) = store_with(&facts);
    let plan = s
        .plan_with(
            Operation::Supersede,
            &Target::query("what instrument Tomas learns"),
            Some("Tomas Berg now learns the cello."),
        )
        .unwrap();
    assert!(plan.rows.is_empty(), "{plan:?}");
}
