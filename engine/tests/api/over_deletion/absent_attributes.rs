//! Requests for an attribute a present subject does not have: in dense stores, through words
//! that name only a kind of value, and compounds told apart by their modifier.

use super::{PHONES, PRESENT, assert_no_match, live_texts, store_with};
use oubli::{Error, Inscription, Target};
use proptest::prelude::*;

#[test]
fn purge_of_an_absent_attribute_erases_nothing() {
    let (_t, s) = store_with(&[
        "Kenta lives in Osaka.",
        "Kenta works at Panasonic as an engineer.",
        "Mina's salary is 72,000 euros.",
    ]);
    let before = live_texts(&s);
    assert_no_match(s.purge(Target::query("Kenta's salary")), "purge");
    assert_eq!(live_texts(&s), before);
    // A compound attribute is told by its modifier.
    let (_t2, s2) = store_with(PHONES);
    let before = live_texts(&s2);
    assert_no_match(s2.purge(Target::query("Anna's passport number")), "purge");
    assert_eq!(live_texts(&s2), before);
}

#[test]
fn the_noun_a_place_name_runs_into_is_the_subject_not_the_attribute() {
    // "the Haifa datacenter door code": "datacenter" names the place, so a row about another
    // code of the place does not hold the door code.
    let (_t, s) = store_with(&[
        "The Wi-Fi password at the Haifa datacenter is orchid#2024.",
        "The phone number of the Munich lab is +49 89 234519.",
        "The door code for the Pune warehouse is 4785#.",
    ]);
    let before = live_texts(&s);
    for query in [
        "The Haifa datacenter door code",
        "the Munich lab's parking permit number",
    ] {
        assert_no_match(s.purge(Target::query(query)), query);
        assert_eq!(live_texts(&s), before, "{query}");
    }
    // The attribute the row holds is still found.
    s.purge(Target::query("the Pune warehouse door code"))
        .unwrap();
    assert!(!live_texts(&s).join("\n").contains("4785#"));
}

#[test]
fn articles_and_prepositions_of_other_languages_are_no_evidence() {
    // "de", "el", "les" are grammar: a row in another language holding them is no row about
    // the bonus, the personal e-mail or the medication the request asks for.
    let (_t, s) = store_with(&[
        "L'anniversaire de Ahmed Hassan est le 26.12.1977.",
        "El cumpleaños de Li Wei es el 26.05.1983.",
        "El teléfono de Priya Sharma es +44 7700 900895.",
    ]);
    let before = live_texts(&s);
    for query in [
        "la prima de Ahmed",
        "olvida el correo personal de Wei",
        "oublie les médicaments de Priya Sharma",
    ] {
        assert_no_match(s.purge(Target::query(query)), query);
        assert_eq!(live_texts(&s), before, "{query}");
    }
    // The attribute in the request's language still reaches its row.
    s.purge(Target::query("borra el teléfono de Priya Sharma"))
        .unwrap();
    assert!(!live_texts(&s).join("\n").contains("900895"));
}

#[test]
fn the_second_part_of_a_hyphenated_given_name_is_no_attribute_word() {
    // "jun" of "Min-jun" is part of the name, not evidence of the attribute: a request for
    // her allergies reaches no row of hers that holds none.
    let (_t, s) = store_with(&[
        "Min-jun's employee ID is E92585.",
        "Min-jun takes lisinopril daily.",
        "Ji-woo Park's credit card number is 4111 1111 1111 8310.",
    ]);
    let before = live_texts(&s);
    assert_no_match(s.release(Target::query("Min-jun's allergies")), "release");
    assert_no_match(
        s.purge(Target::query("Ji-woo Park: allergy information")),
        "purge",
    );
    assert_eq!(live_texts(&s), before);
    // Her rows are still reached by what they hold.
    s.purge(Target::query("Min-jun's employee ID")).unwrap();
    assert_eq!(live_texts(&s).len(), 2);
}

#[test]
fn a_longer_compound_is_told_by_its_modifier_and_synonyms_are_one_attribute() {
    // "private email address" is not the "office email address" nor the "work email" a row
    // holds; "private" and "personal" name the same e-mail.
    let (_t, s) = store_with(&[
        "David Okafor's office email address is dokafor@contoso.com.",
        "Lucia Fernandez's work email is lfernandez@litware.io.",
        "Tom Becker's personal email address is tom.becker@mail.example.",
    ]);
    let before = live_texts(&s);
    for request in [
        "David: private email address",
        "Prof. Fernandez: private email address",
    ] {
        assert_no_match(s.release(Target::query(request)), request);
    }
    assert_eq!(live_texts(&s), before);
    s.purge(Target::query("private email address for Mr. Becker"))
        .unwrap();
    let left = live_texts(&s);
    assert_eq!(left.len(), 2, "{left:?}");
    assert!(!left.iter().any(|t| t.contains("tom.becker")), "{left:?}");
}

#[test]
fn a_compound_head_a_row_holds_only_as_a_modifier_is_another_attribute() {
    // A "driving licence" is not the "licence plate" a row holds; the same head written
    // alone, or before a verb, is the attribute.
    let (_t, s) = store_with(&[
        "Ivan Petrenko drives a car with licence plate 34 ABC 360.",
        "Sarah Miller drives a car with licence plate B-AS 6124.",
        "Maria Rossi's licence expires in May 2027.",
        "Ivan Petrenko's annual bonus is 5,000 EUR.",
    ]);
    let before = live_texts(&s);
    for request in [
        "driving licence for ivan",
        "Ms. Miller's driving licence",
        "please wipe the driver's licence number you have for Mr. Petrenko",
    ] {
        let plan = s
            .plan(oubli::Operation::Purge, &Target::query(request))
            .unwrap();
        assert!(plan.rows.is_empty(), "{request:?}: {plan:?}");
        assert!(
            plan.rejected
                .iter()
                .any(|r| r.reason.contains("licence plate")),
            "{request:?}: {plan:?}"
        );
        assert_no_match(s.release(Target::query(request)), request);
    }
    assert_eq!(live_texts(&s), before);
    s.release(Target::query("Maria Rossi's driving licence"))
        .unwrap();
    s.release(Target::query("Ivan's licence plate")).unwrap();
    let left = live_texts(&s);
    assert_eq!(left.len(), 2, "{left:?}");
    assert!(!left.iter().any(|t| t.contains("Maria")), "{left:?}");
}

#[test]
fn a_sphere_of_life_tells_an_address_from_a_row_stating_another() {
    // A "home address" is not where someone's office is located, an "office address" not
    // where someone lives; a full name opening the request also opens the compound.
    // Rows and requests in other languages are told the same way.
    let (_t, s) = store_with(&[
        "Mehmet Yilmaz's office is located at MG Road 14, Bengaluru.",
        "Elena Markou lives at Ermou 33, Athens.",
        "Min-jun Kim's car registration is B-AS 4888 and his office email address is mkim@litware.io.",
        "Ahmed Hassan's work address is Calle Mayor 7, Madrid.",
        "Noa Levi habite au 200 Nanjing Road, Shanghai.",
        "Jiho Shin works at the Incheon office.",
    ]);
    let before = live_texts(&s);
    for request in [
        "Mehmet's home address",
        "wipe Mehmet's old residential address",
        "Elena Markou: office address",
        "the business address of Elena",
        "Min-jun Kim private email address",
        "удали домашний адрес Ahmed",
        "תמחק בבקשה את כתובת המגורים של Ahmed Hassan",
        "noa's business address",
    ] {
        assert_no_match(s.release(Target::query(request)), request);
    }
    assert_no_match(
        s.supersede(
            Target::query("Elena Markou: office address"),
            Inscription::new("Elena Markou's work address is Leoforos Kifisias 7, Athens."),
        ),
        "supersede of an office address",
    );
    assert_eq!(live_texts(&s), before);
    // The sphere the row states is still found, and a subject-wide request for someone's
    // "personal data" reaches every row about them.
    s.release(Target::query("Mehmet's office address")).unwrap();
    s.purge(Target::query("erase all of Jiho Shin's personal data"))
        .unwrap();
    s.release(Target::query("Ahmed Hassan: office address"))
        .unwrap();
    let left = live_texts(&s);
    assert_eq!(left.len(), 3, "{left:?}");
    assert!(
        !left
            .iter()
            .any(|t| t.contains("MG Road") || t.contains("Calle Mayor") || t.contains("Jiho")),
        "{left:?}"
    );
}

#[test]
fn all_inside_a_word_does_not_widen_to_the_subject() {
    let facts = [
        "Mara presents the all-hands agenda on Fridays.",
        "Mara lives in Porto.",
        "Mara's phone number is 0912 345 678.",
    ];
    let (_t, s) = store_with(&facts);
    s.purge(Target::query("the all-hands agenda Mara presents"))
        .unwrap();
    let left = live_texts(&s);
    assert_eq!(left.len(), 2, "{left:?}");
    assert!(left.iter().all(|t| !t.contains("all-hands")));
    // A standalone "all" still does.
    let (_t, s) = store_with(&facts);
    s.purge(Target::query("all of Mara's data")).unwrap();
    assert!(live_texts(&s).is_empty());
}

/// Attributes a dense store may hold about one person, with a value each; the request side
/// asks for the ones it does not hold.
const DENSE: &[(&str, &str)] = &[
    ("phone number", "is 0151 2345 678"),
    ("home address", "is 12 Harbour Road"),
    ("employer", "is Northwind Traders"),
    ("blood type", "is A negative"),
    ("salary", "is 64,000 euros"),
    ("gym locker", "is number 17"),
    ("dentist", "is Dr. Ellison"),
    ("favourite colour", "is teal"),
    ("car", "is a grey Skoda Octavia"),
    ("passport number", "is X4410982"),
    ("wifi password", "is orange-boat-21"),
    ("bank branch", "is on Mill Street"),
    ("shoe size", "is 43"),
    ("pharmacy", "is the one on Elm Street"),
];

fn dense_request(name: &str, attr: &str, form: usize) -> String {
    let first = name.split(' ').next().unwrap();
    match form {
        0 => format!("{name}'s {attr}"),
        1 => format!("the {attr} of {first}"),
        2 => format!("Delete {first}'s {attr}"),
        3 => format!("please forget the {attr} we hold for {name}"),
        // Names written in lowercase, as people type them.
        4 => format!("{attr} for {}", first.to_lowercase()),
        _ => format!("{}: {attr}", name.to_lowercase()),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, .. ProptestConfig::default() })]

    /// A dense store about one person (ten or more facts) and a request for an attribute the
    /// store does not hold about them: nothing is erased or released, whatever the request
    /// shares with the other facts (the name, "number", "Street"). Supersedes are left out:
    /// their relation-slot fallback may still replace a row of the same slot ("Anna's dentist"
    /// and "Anna's employer" are both occupations), a known limit of that fallback.
    /// (Before, "Anna Weber's phone number" erased "Anna Weber's gym locker is number 17.".)
    #[test]
    fn requests_for_an_absent_attribute_of_a_present_subject_change_nothing(
        person in 0..PRESENT.len(),
        held in proptest::sample::subsequence((0..DENSE.len()).collect::<Vec<_>>(), 10..=12),
        requests in proptest::collection::vec((0..DENSE.len(), 0..6usize, 0..2usize), 1..4),
    ) {
        let name = PRESENT[person];
        let facts: Vec<String> = held
            .iter()
            .map(|&a| format!("{name}'s {} {}.", DENSE[a].0, DENSE[a].1))
            .collect();
        let refs: Vec<&str> = facts.iter().map(String::as_str).collect();
        let (_t, s) = store_with(&refs);
        let before = live_texts(&s);
        for &(a, form, op) in &requests {
            if held.contains(&a) {
                continue;
            }
            let q = dense_request(name, DENSE[a].0, form);
            let r = match op {
                0 => s.purge(Target::query(q.as_str())).map(|_| ()),
                _ => s.release(Target::query(q.as_str())).map(|_| ()),
            };
            prop_assert!(matches!(r, Err(Error::NoMatch(_))), "{q:?} (op {op}) over {facts:?}: {r:?}");
            prop_assert_eq!(&live_texts(&s), &before, "{:?}", q);
        }
    }
}

#[test]
fn words_that_name_only_a_kind_of_value_or_sound_like_a_name_hold_no_attribute() {
    // "number" alone says nothing of which attribute; "gym" is not 김 read aloud ("gim"), nor
    // "user" the Hebrew name שרה (consonants s-r).
    let (_t, s) = store_with(&[
        "Anna Weber's gym locker is number 17.",
        "Anna Weber's passport number is X4410982.",
        "김민수's blood type is A negative.",
        "김민수's shoe size is 43.",
        "The user's phone number is 0151 2345 678.",
    ]);
    let before = live_texts(&s);
    for request in [
        "Anna Weber's phone number",
        "김민수's gym locker",
        "the phone number of שרה",
    ] {
        assert_no_match(s.purge(Target::query(request)), request);
    }
    assert_eq!(live_texts(&s), before);
    s.purge(Target::query("Anna Weber's gym locker number"))
        .unwrap();
    assert_eq!(live_texts(&s).len(), before.len() - 1);
}

#[test]
fn a_modifier_tells_an_attribute_from_a_close_one() {
    // "private email" is not the work email a row holds, "business address" not the
    // home address; "office email" and "work email" are one attribute.
    let (_t, s) = store_with(&[
        "David Okafor's work email is dokafor@litware.io.",
        "Nikos Papadopoulos's home address is Ermou 33, Athens.",
        "Mehmet Yılmaz's work email is myilmaz@fabrikam.de.",
    ]);
    let before = live_texts(&s);
    for request in ["David's private email", "Nikos business address"] {
        assert_no_match(s.purge(Target::query(request)), request);
    }
    assert_eq!(live_texts(&s), before);
    s.purge(Target::query("Mehmet office email")).unwrap();
    assert_eq!(live_texts(&s).len(), before.len() - 1);
    assert!(live_texts(&s).iter().all(|t| !t.contains("myilmaz")));
}

#[test]
fn a_supersede_whose_request_and_new_text_name_an_attribute_no_row_holds_replaces_nothing() {
    // The request and the new text agree on the attribute ("salary", "allergy"), and no row
    // about the subject holds it or a word of its kind: neither meaning nor the kind of the
    // new value may pick another of the subject's facts for it.
    let (_t, s) = store_with(&[
        "Chen Mei's annual bonus is 12,000 EUR.",
        "Chen Mei's home email is chen.mei@example.com.",
        "Chen Mei's tax ID is TIN 11-2233445.",
        "Priya's employee number is E-20931.",
        "Priya lives in Pune.",
        "Priya's locker is in the west wing.",
    ]);
    let before = live_texts(&s);
    for (query, new) in [
        ("Mei: salary", "Mei's salary is 137,000 EUR."),
        (
            "change Mei's salary",
            "Chen Mei's new salary is 137,000 EUR.",
        ),
        (
            "Priya's badge number",
            "Priya's new badge number is B-8641.",
        ),
        ("Priya's allergy", "Priya's allergy is now penicillin."),
        ("Priya: blood type", "Priya's blood type is O+."),
    ] {
        let none = assert_no_match(
            s.supersede(Target::query(query), Inscription::new(new)),
            query,
        );
        assert!(!none.candidates.is_empty(), "{query}: candidates listed");
        assert_eq!(live_texts(&s), before, "{query}");
    }
    // A row that states the attribute in other words of its kind is still replaced.
    let (_t2, s2) = store_with(&[
        "Somchai Saetang earns 110,000 USD a year.",
        "Somchai Saetang's current medication is sertraline.",
        "Somchai Saetang lives in Chiang Mai.",
    ]);
    s2.supersede(
        Target::query("Somchai salary"),
        Inscription::new("Somchai Saetang's salary is now 122,000 USD."),
    )
    .unwrap();
    let after = live_texts(&s2);
    assert!(
        after.iter().any(|t| t.contains("122,000")) && !after.iter().any(|t| t.contains("110,000")),
        "{after:?}"
    );
}

#[test]
fn a_compound_modifier_a_row_holds_only_before_another_head_is_another_attribute() {
    // "licence plate" asks for the plate; the row holds "licence" only as the modifier of
    // "number" (the driving licence), and "home" only before "phone".
    let (_t, s) = store_with(&[
        "Maria Rossi's driver's licence number is DL-240550.",
        "Maria Rossi's home phone is +39 06 555 0101.",
        "Maria Rossi's shoe size is EU 38.",
    ]);
    let before = live_texts(&s);
    for request in [
        "maria's licence plate",
        "can you forget Maria's licence plate?",
        "Maria Rossi licence plate",
        "Maria's home address",
    ] {
        assert_no_match(s.purge(Target::query(request)), request);
        assert_no_match(s.release(Target::query(request)), request);
    }
    assert_eq!(live_texts(&s), before);
    // The compound the row does hold, and a head of the same slot ("coordinator role" for
    // "coordinator position"), are still found.
    s.purge(Target::query("Maria's licence number")).unwrap();
    assert!(live_texts(&s).iter().all(|t| !t.contains("DL-240550")));
    let (_t2, s2) = store_with(&[
        "Hana Seo is the hiring manager for the logistics coordinator role.",
        "Hana Seo's desk is on floor 3.",
    ]);
    s2.purge(Target::query("Hana Seo's logistics coordinator position"))
        .unwrap();
    assert!(live_texts(&s2).iter().all(|t| !t.contains("coordinator")));
}
