//! Requests whose subject the store never holds: capitalized or not, restated by a supersede's
//! new text, or a full name the store knows under another surname.

use super::{ABSENT, ATTRIBUTES, PHONES, assert_no_match, fact, live_texts, store_with};
use oubli::{Error, Inscription, Operation, Target};
use proptest::prelude::*;

#[test]
fn purge_of_an_absent_subject_erases_nothing() {
    let (_t, s) = store_with(PHONES);
    let before = live_texts(&s);
    let none = assert_no_match(s.purge(Target::query("Priya's phone number")), "purge");
    assert_eq!(live_texts(&s), before);
    // The nearest candidates come with the no-match, each with why it was not taken.
    assert!(!none.candidates.is_empty(), "{none:?}");
    assert!(
        none.candidates
            .iter()
            .all(|c| c.reason.contains("Priya") || c.reason.contains("below")),
        "{none:?}"
    );
    assert_eq!(Error::NoMatch(none).code(), "no_match");
}

#[test]
fn supersede_of_an_absent_subject_overwrites_nothing() {
    let (_t, s) = store_with(PHONES);
    let before = live_texts(&s);
    assert_no_match(
        s.supersede(
            Target::query("Priya's phone number"),
            Inscription::new("Priya's phone number is 0176 5550 1234."),
        ),
        "supersede",
    );
    assert_eq!(live_texts(&s), before);
    assert_no_match(
        s.release(Target::query("Delete Priya's phone number")),
        "release",
    );
    assert_eq!(live_texts(&s), before);
}

#[test]
fn an_absent_subject_restated_by_the_new_text_or_first_in_the_request_is_still_absent() {
    // One phone row only: no tie protects it. The new text naming the absent subject does not
    // make that name the new value, and a request that begins with the name (capitalized like
    // any first word) still names someone the store does not hold.
    let facts = [
        "Anna's phone number is +49 151 2345 6789.",
        "Ben lives in Leeds.",
    ];
    let (_t, s) = store_with(&facts);
    let before = live_texts(&s);
    for (query, new) in [
        (
            "Priya's phone number",
            "Priya's phone number is 0176 5550 1234.",
        ),
        (
            "Priya now uses a new phone",
            "Priya now uses 0176 5550 1234 as her phone.",
        ),
        ("Priya phone number", "Her phone number is 0176 5550 1234."),
    ] {
        assert_no_match(
            s.supersede(Target::query(query), Inscription::new(new)),
            query,
        );
        assert_eq!(live_texts(&s), before, "{query}");
    }
    for query in ["Priya phone number", "Priya Raman phone number"] {
        assert_no_match(s.purge(Target::query(query)), query);
        assert_eq!(live_texts(&s), before, "{query}");
    }
    // The subject present, a first word is still only capitalized by grammar.
    s.purge(Target::query("Anna phone number")).unwrap();
    assert_eq!(live_texts(&s), vec!["Ben lives in Leeds.".to_owned()]);
}

#[test]
fn plan_of_an_absent_target_is_empty_with_candidates() {
    let (_t, s) = store_with(PHONES);
    let plan = s
        .plan(Operation::Purge, &Target::query("Priya's phone number"))
        .unwrap();
    assert!(plan.rows.is_empty() && plan.matches.is_empty(), "{plan:?}");
    assert!(!plan.rejected.is_empty());
    // Present targets still plan as before.
    let plan = s
        .plan(Operation::Purge, &Target::query("Anna's phone number"))
        .unwrap();
    assert_eq!(plan.rows.len(), 1, "{plan:?}");
}

#[test]
fn present_targets_are_still_forgotten() {
    let (_t, s) = store_with(PHONES);
    s.purge(Target::query("Ben's phone number")).unwrap();
    let left = live_texts(&s);
    assert!(!left.iter().any(|t| t.contains("Ben")), "{left:?}");
    assert_eq!(left.len(), 3);
    let (_t, s) = store_with(&["Kenta lives in Osaka.", "Kenta's salary is 9M yen."]);
    s.purge(Target::query("everything about Kenta")).unwrap();
    assert!(live_texts(&s).is_empty());
}

/// A request about an absent subject (its name capitalized or in lowercase), and a new text for
/// a supersede of it: one naming nobody, or one restating the request with the absent subject's
/// name (a supersede's new text that
/// names its subject must not turn that name into the new value).
fn request() -> impl Strategy<Value = (String, String)> {
    (
        0..ABSENT.len(),
        0..ATTRIBUTES.len(),
        0..8usize,
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(p, a, form, restated, lowercase)| {
            // People type names in lowercase too ("the badge of jonas").
            let name = if lowercase {
                ABSENT[p].to_lowercase()
            } else {
                ABSENT[p].to_owned()
            };
            let name = name.as_str();
            let first = name.split(' ').next().unwrap();
            let (attr, value) = ATTRIBUTES[a];
            let q = match form {
                0 => format!("{first}'s {attr}"),
                1 => format!("{name}'s {attr}"),
                2 => format!("the {attr} of {name}"),
                3 => format!("Delete {first}'s {attr}"),
                4 => format!("everything about {name}"),
                5 => format!("{first} {attr}"),
                6 => format!("{name} {attr}"),
                _ => format!("please forget the {attr} we hold for {first}"),
            };
            let new = if restated {
                format!("{first}'s {attr} {value}.")
            } else {
                "A new fact about nobody here.".to_owned()
            };
            (q, new)
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, .. ProptestConfig::default() })]

    /// A request naming a subject the store does not hold erases, releases or overwrites
    /// nothing, whatever else it shares with the rows; it is a typed no-match.
    #[test]
    fn requests_about_an_absent_subject_change_nothing(
        facts in proptest::collection::vec(fact(), 1..12),
        requests in proptest::collection::vec((request(), 0..3usize), 1..4),
    ) {
        let refs: Vec<&str> = facts.iter().map(String::as_str).collect();
        let (_t, s) = store_with(&refs);
        let before = live_texts(&s);
        for ((q, new), op) in &requests {
            let r = match op {
                0 => s.purge(Target::query(q.as_str())).map(|_| ()),
                1 => s.release(Target::query(q.as_str())).map(|_| ()),
                _ => s
                    .supersede(Target::query(q.as_str()), Inscription::new(new.as_str()))
                    .map(|_| ()),
            };
            prop_assert!(matches!(r, Err(Error::NoMatch(_))), "{q:?} (op {op}): {r:?}");
            prop_assert_eq!(&live_texts(&s), &before, "{:?}", q);
        }
    }
}

#[test]
fn a_full_name_the_store_knows_under_another_surname_is_someone_else() {
    // The store knows Jonas Weber, and writes some of his facts with the given name alone: a
    // request about Jonas Wolf, whom it does not know, reaches none of them.
    let (_t, s) = store_with(&[
        "Jonas Weber's mobile is +49 30 3536824.",
        "Jonas' access badge is B-2063.",
        "Dmitri Ivanov's social security number is 360-82-6373.",
        "Dmitri's access badge is B-8037.",
    ]);
    let before = live_texts(&s);
    for request in [
        "the badge of Jonas Wolf",
        "Dmitri Sokolov's badge number",
        "everything about Jonas Wolf",
    ] {
        assert_no_match(s.purge(Target::query(request)), request);
        assert_no_match(s.release(Target::query(request)), request);
    }
    assert_eq!(live_texts(&s), before);
    // Asked by the name the store knows, or by the given name, the badge row is reached.
    s.purge(Target::query("Jonas Weber's access badge"))
        .unwrap();
    s.purge(Target::query("Dmitri's badge")).unwrap();
    assert_eq!(
        live_texts(&s),
        vec![
            "Dmitri Ivanov's social security number is 360-82-6373.".to_owned(),
            "Jonas Weber's mobile is +49 30 3536824.".to_owned(),
        ]
    );
}

#[test]
fn a_family_name_no_row_holds_makes_the_given_name_rows_candidates_only() {
    // The store writes Mehmet and Ji-woo by their given names only: nothing in it says which
    // Mehmet or which Ji-woo they are, so a request naming a family name reaches none of
    // their rows (a typed no-match that lists them as candidates).
    let (_t, s) = store_with(&[
        "Mehmet's wedding anniversary is 20 November 1971.",
        "Ji-woo's social security number is 646-57-5250.",
        "Carmen's birthday is 17 May 1966.",
        "Fernando Aguilar's birth certificate is at the Registro Civil in Ciudad de México.",
    ]);
    let before = live_texts(&s);
    for request in [
        "Mehmet Kaya's anniversary date",
        "wipe ji-woo choi's old social security number",
        "everything about Carmen López",
    ] {
        let plan = s.plan(Operation::Purge, &Target::query(request)).unwrap();
        assert!(plan.rows.is_empty(), "{request:?}: {plan:?}");
        assert!(!plan.rejected.is_empty(), "{request:?}: no candidates");
        assert_no_match(s.purge(Target::query(request)), request);
        assert_no_match(s.release(Target::query(request)), request);
    }
    assert_no_match(
        s.supersede(
            Target::query("Carmen López's birthday"),
            Inscription::new("Carmen López's birthday is 3 March 1970."),
        ),
        "Carmen López's birthday",
    );
    assert_eq!(live_texts(&s), before);
    // By the given name the rows are reached, and a common noun after a name is no family
    // name ("Mexico City").
    s.purge(Target::query("Mehmet's anniversary")).unwrap();
    s.supersede(
        Target::query("the Mexico City birth certificate for Fernando"),
        Inscription::new("Fernando Aguilar's birth certificate arrived on 2 September 2025."),
    )
    .unwrap();
    let left = live_texts(&s);
    assert_eq!(left.len(), 3, "{left:?}");
    assert!(!left.iter().any(|t| t.contains("Mehmet")), "{left:?}");
    assert!(left.iter().any(|t| t.contains("arrived")), "{left:?}");
}

#[test]
fn a_part_of_a_name_the_store_writes_whole_elsewhere_is_not_another_name() {
    // On its own, "Ji-woo received a bonus" could hold the "Ji" of "Ji-won" (the first word of
    // a sentence is capitalized by grammar, so "woo" need not be part of a name there). The
    // store writes "Ji-woo" as a name in another row, and no row names Ji-won: a request about
    // Ji-won reaches neither row.
    let (_t, s) = store_with(&[
        "Ji-woo received a bonus of 16,000 EUR this year.",
        "Ji-woo's employee ID is E13129.",
        "Kanya's annual bonus is 9,000 EUR.",
    ]);
    let before = live_texts(&s);
    for request in ["Ji-won's annual bonus", "all information on Ji-won"] {
        assert_no_match(s.purge(Target::query(request)), request);
        assert_no_match(s.release(Target::query(request)), request);
    }
    assert_eq!(live_texts(&s), before);
    // Asked by her own name, her bonus is reached.
    s.purge(Target::query("Ji-woo's annual bonus")).unwrap();
    assert_eq!(
        live_texts(&s),
        vec![
            "Ji-woo's employee ID is E13129.".to_owned(),
            "Kanya's annual bonus is 9,000 EUR.".to_owned(),
        ]
    );
}

#[test]
fn a_joint_request_where_one_person_is_absent_changes_nothing() {
    // "Reza and Noa's shared bonus" names both: a name the request coordinates with another
    // is a subject even when it opens the request or the store never heard of it, and the new
    // text's restatement of it ("... and Sarah Miller's shared bonus is ...") is no new value.
    let (_t, s) = store_with(&[
        "Kanya Srisuk's blood type is A+.",
        "David Okafor's bonus is 12,000 EUR.",
        "Noa Levi's bonus is 8,000 EUR.",
        "Ahmed Hassan's social security number is 123-45-6789.",
        "Arjun Mehta carries the database pager this week.",
    ]);
    let before = live_texts(&s);
    assert_no_match(
        s.purge(Target::query("Reza and Noa's shared bonus")),
        "purge",
    );
    for (query, new) in [
        (
            "David Okafor & Sarah Miller bonus (joint)",
            "David Okafor and Sarah Miller's shared bonus is 19,000 EUR.",
        ),
        (
            "Emre Kaya and Ahmed's shared social security number",
            "Emre Kaya and Ahmed's shared social security number is 680-73-8093.",
        ),
    ] {
        assert_no_match(
            s.supersede(Target::query(query), Inscription::new(new)),
            query,
        );
    }
    assert_eq!(live_texts(&s), before);
    // A person the new text only begins with is still the new value of the fact.
    s.supersede(
        Target::query("hand the database pager to Lina Park instead of Arjun"),
        Inscription::new("Lina Park carries the database pager this week."),
    )
    .unwrap();
    let after = live_texts(&s);
    assert!(
        after.iter().any(|t| t.starts_with("Lina Park"))
            && !after.iter().any(|t| t.starts_with("Arjun")),
        "{after:?}"
    );
}

#[test]
fn a_place_the_store_knows_with_another_noun_is_another_place() {
    // "The Izmir branch" is not "the Izmir lab", and "the Porto lab" is not "the Izmir lab":
    // a name that qualifies the noun of a possessor is a subject, and the noun after it tells
    // one site from another.
    let (_t, s) = store_with(&[
        "The door code for the Izmir lab is 1438#.",
        "The Wi-Fi password of the Kyiv datacenter is orchid#2024.",
        "The Berlin warehouse's phone number is +49 30 555 0101.",
    ]);
    let before = live_texts(&s);
    for query in [
        "change the door code of the Izmir branch",
        "the Porto lab's door code",
        "Kyiv lab wifi password",
        "Berlin branch phone number",
    ] {
        assert_no_match(s.purge(Target::query(query)), query);
        assert_no_match(
            s.supersede(
                Target::query(query),
                Inscription::new("The code is now 9999#."),
            ),
            query,
        );
    }
    assert_eq!(live_texts(&s), before);
    // The same place, its noun spelled otherwise or not repeated, is still reached.
    s.supersede(
        Target::query("the door code of the Izmir lab"),
        Inscription::new("The door code for the Izmir lab is 2025#."),
    )
    .unwrap();
    s.purge(Target::query("Berlin warehouse phone number"))
        .unwrap();
    let after = live_texts(&s);
    assert!(
        after.iter().any(|t| t.contains("2025#"))
            && !after
                .iter()
                .any(|t| t.contains("1438#") || t.contains("555 0101")),
        "{after:?}"
    );
}

#[test]
fn a_subject_named_in_the_commentary_is_the_subject_of_the_request() {
    // "her" and "his" in the request point back to the person the commentary names; an
    // acronym naming the attribute ("ID", "IBAN") names no one else. No row names Olena,
    // Somchai or Ananya: the rows of other people holding those attributes stay.
    let (_t, s) = store_with(&[
        "Lucía Fernández's bank account (IBAN) is DE65 3704 0044 0532 7464 21.",
        "Dmitri Ivanov's employee ID is E83672.",
        "Elena Markou's tax ID is TIN 48-6213556.",
    ]);
    let before = live_texts(&s);
    for request in [
        "We no longer employ Olena, so remove her employee ID from memory",
        "Somchai Saetang moved out last month; forget his old IBAN",
        "Ananya moved out last month; forget her old tax ID",
    ] {
        assert_no_match(s.purge(Target::query(request)), request);
        assert_no_match(s.release(Target::query(request)), request);
    }
    assert_eq!(live_texts(&s), before);
    // Named by the commentary, a person the store knows is reached the same way.
    s.release(Target::query(
        "Elena moved out last month; forget her old tax ID",
    ))
    .unwrap();
    s.purge(Target::query(
        "We no longer employ Dmitri, so remove his employee ID",
    ))
    .unwrap();
    assert_eq!(live_texts(&s).len(), 1);
}
