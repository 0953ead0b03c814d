//! Requests about a relative of a person the store holds facts about.

use super::{ATTRIBUTES, PRESENT, assert_no_match, fact, live_texts, store_with};
use oubli::{Error, Inscription, Target};
use proptest::prelude::*;

#[test]
fn a_relative_named_in_another_language_is_someone_else() {
    // "сестры David" is David's sister, "la hermana de Ivan" Ivan's, "Yosef Cohen的哥哥"
    // Yosef's brother: rows about the person alone are about someone else.
    let facts = [
        "David Okafor's phone number is +44 7700 900123.",
        "Ivan Petrenko's birthday is 3 May 1990.",
        "Yosef Cohen's home address is 12 Harbour Road, Haifa.",
        "Reza Ahmadi's personal email is reza.ahmadi@mail.example.",
    ];
    let (_t, s) = store_with(&facts);
    let before = live_texts(&s);
    for query in [
        "забудь номер телефона сестры David",
        "olvida el cumpleaños de la hermana de Ivan",
        "删除Yosef Cohen的哥哥的家庭住址",
        "забудь личную почту жены Reza",
    ] {
        assert_no_match(s.release(Target::query(query)), query);
        assert_eq!(live_texts(&s), before, "{query}");
    }
    // A row naming the relative is still reached.
    let (_t, s) = store_with(&[
        "David Okafor's sister's phone number is +44 7700 900456.",
        "David Okafor's phone number is +44 7700 900123.",
        "Ivan Petrenko's sister's phone number is +7 916 555 0101.",
        "Ivan Petrenko's phone number is +380 44 555 0199.",
    ]);
    s.release(Target::query("забудь номер телефона сестры David"))
        .unwrap();
    s.release(Target::query("удали телефон сестры Ivan"))
        .unwrap();
    let left = live_texts(&s);
    assert_eq!(left.len(), 2, "{left:?}");
    assert!(
        left.iter()
            .all(|t| !t.contains("900456") && !t.contains("0101")),
        "{left:?}"
    );
}

#[test]
fn a_relative_of_a_present_person_is_someone_else() {
    // The request asks about the brother, the son, the assistant, the sister: rows about the
    // person alone, naming no such relative, are about someone else.
    let facts = [
        "Aisha Bello's council tax is paid by standing order on the 1st.",
        "Yuki Tanaka drives a car with licence plate AB49 CDE.",
        "Chen Mei's shoe size is EU 41.",
        "Yosef received a bonus of 10,000 EUR this year.",
        "Maria's access badge is B-3869.",
        "Claire Dubois' annual bonus is 5,000 EUR.",
    ];
    let (_t, s) = store_with(&facts);
    let before = live_texts(&s);
    for query in [
        "the standing order Aisha's brother set up for his rent",
        "Chen Mei's assistant's shoe size",
        "the annual bonus of Yosef's sister",
        "Yuki son licence plate",
        "the access badge of the mother of Maria",
        // A role written telegraphically, the query naming no one else; a possessive of a
        // name ending in s written with its apostrophe alone.
        "Chen Mei manager shoe size",
        "Aisha Bello landlord council tax",
        "Claire Dubois' assistant's annual bonus",
    ] {
        assert_no_match(s.purge(Target::query(query)), query);
        assert_no_match(
            s.supersede(
                Target::query(query),
                Inscription::new("A new fact about a relative."),
            ),
            query,
        );
        assert_eq!(live_texts(&s), before, "{query}");
    }
    // Someone who serves a person also names the service: "Chen Mei dentist appointment" is
    // her appointment.
    let (_t, s) = store_with(&[
        "Chen Mei has a dentist appointment on 3 May at 9:30.",
        "Chen Mei is registered with the Harbour practice.",
    ]);
    s.release(Target::query("Chen Mei dentist appointment on 3 May"))
        .unwrap();
    assert_eq!(
        live_texts(&s),
        ["Chen Mei is registered with the Harbour practice."]
    );
    // A relation that is all the request asks for is the attribute: "Sakura's manager".
    let (_t, s) = store_with(&[
        "Sakura Ito reports to Daniel Kim.",
        "Sakura Ito lives in Chiba.",
    ]);
    let done = s
        .supersede(
            Target::query("Sakura's manager"),
            Inscription::new("Sakura Ito reports to Rebecca Osei."),
        )
        .unwrap();
    assert_eq!(done.replaced, vec![1]);
}

/// Family words first (see the telegraphic form below), then a role.
const RELATIVES: &[&str] = &["brother", "sister", "son", "mother", "assistant", "lawyer"];

/// A request about a relative of a person the store holds facts about (never about any
/// relative).
fn relative_request() -> impl Strategy<Value = String> {
    (
        0..PRESENT.len(),
        0..RELATIVES.len(),
        0..ATTRIBUTES.len(),
        0..4usize,
    )
        .prop_map(|(p, r, a, form)| {
            let first = PRESENT[p].split(' ').next().unwrap();
            let (rel, attr) = (RELATIVES[r], ATTRIBUTES[a].0);
            match form {
                0 => format!("{first}'s {rel}'s {attr}"),
                1 => format!("the {attr} of {first}'s {rel}"),
                // Written without a possessive, only a family word reads as a relative
                // ("Busan manager role" is a role at Busan).
                2 if r < 4 => format!("{first} {rel} {attr}"),
                2 => format!("{first}'s {rel}'s {attr}"),
                _ => format!("please delete the {attr} {first}'s {rel} gave us"),
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, .. ProptestConfig::default() })]

    /// A request about a present person's relative, in a store that states nothing about any
    /// relative, erases, releases or overwrites nothing.
    #[test]
    fn requests_about_a_relative_of_a_present_subject_change_nothing(
        facts in proptest::collection::vec(fact(), 1..12),
        requests in proptest::collection::vec((relative_request(), 0..3usize), 1..4),
    ) {
        let refs: Vec<&str> = facts.iter().map(String::as_str).collect();
        let (_t, s) = store_with(&refs);
        let before = live_texts(&s);
        for (q, op) in &requests {
            let r = match op {
                0 => s.purge(Target::query(q.as_str())).map(|_| ()),
                1 => s.release(Target::query(q.as_str())).map(|_| ()),
                _ => s
                    .supersede(Target::query(q.as_str()), Inscription::new("A new fact about a relative."))
                    .map(|_| ()),
            };
            prop_assert!(matches!(r, Err(Error::NoMatch(_))), "{q:?} (op {op}): {r:?}");
            prop_assert_eq!(&live_texts(&s), &before, "{:?}", q);
        }
    }
}
