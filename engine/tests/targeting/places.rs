//! Places named by a city and a noun ("the Pune warehouse", "Haifa lab") and their attributes
//! (door codes, Wi-Fi passwords). The noun belongs to the subject: a row about the same place
//! holding another attribute, or about another place of the same city, is never the one asked
//! for, and a city heading the request is its subject even beside a capitalized attribute word
//! ("Wi-Fi").

use super::*;

const FACTS: [&str; 4] = [
    "The door code for the Pune warehouse is 4785#",
    "The Wi-Fi password at the Osaka lab is sunflower-42",
    "The Wi-Fi password at the Haifa lab is Tr0pic!Blue",
    "The door code for the Thessaloniki warehouse is 5585#",
];

/// Asserts that a supersede of `query` by `new` is a typed no-match that changes no row.
fn supersede_no_match(query: &str, new: &str) {
    let (_t, s) = store_with(&FACTS);
    let r = s.supersede(Target::query(query), Inscription::new(new));
    assert!(matches!(r, Err(Error::NoMatch(_))), "{query}: {r:?}");
    assert_eq!(live_texts(&s), FACTS, "{query}");
}

#[test]
fn a_possessive_place_noun_is_the_subject_not_the_attribute() {
    let (_t, s) = store_with(&FACTS);
    let err = s
        .purge(Target::query("the Pune warehouse's wifi password"))
        .expect_err("the Pune warehouse has no Wi-Fi password on file");
    assert!(matches!(err, Error::NoMatch(_)), "{err}");
    assert_eq!(live_texts(&s), FACTS);
    s.purge(Target::query("the Pune warehouse's door code"))
        .expect("its door code is held");
    let live = live_texts(&s);
    assert!(!live.iter().any(|t| t.contains("4785#")), "{live:?}");
    assert_eq!(live.len(), 3, "{live:?}");
}

#[test]
fn a_city_heading_the_request_is_its_subject_beside_wi_fi() {
    supersede_no_match(
        "Thessaloniki lab Wi-Fi password",
        "The Wi-Fi password of the Thessaloniki lab is orchid#2024",
    );
    supersede_no_match(
        "Haifa warehouse Wi-Fi password",
        "The Wi-Fi password of the Haifa warehouse is sunflower-42",
    );
    supersede_no_match(
        "The Thessaloniki warehouse alarm code",
        "The alarm code of the Thessaloniki warehouse is 8926#",
    );
    // The place and the attribute the store holds.
    let (_t, s) = store_with(&FACTS);
    let new = "The Wi-Fi password of the Osaka lab is orchid#2024";
    s.supersede(
        Target::query("Osaka lab Wi-Fi password"),
        Inscription::new(new),
    )
    .expect("the Osaka lab's Wi-Fi password is held");
    let live = live_texts(&s);
    assert!(live.contains(&new.to_owned()), "{live:?}");
    assert!(!live.iter().any(|t| t.contains("sunflower-42")), "{live:?}");
    assert!(live.iter().any(|t| t.contains("Tr0pic!Blue")), "{live:?}");
}
