//! One English word in its other forms: its British and American spellings (a request typed
//! in one names the attribute a row wrote in the other: "paediatrician" and "pediatrician",
//! "favourite" and "favorite") and its inflections ("volunteering" and "volunteers").

use super::*;

#[test]
fn a_british_spelling_reaches_the_american_one() {
    let facts = [
        "Katya's pediatrician is Dr. Hoffmann at the Lindenhof clinic.",
        "Katya's dentist is Dr. Brandt.",
        "Katya's brother Ilya also sees Dr. Hoffmann.",
    ];
    let live = live_after_supersede(
        &facts,
        "the paediatrician looking after Katya",
        "Katya now goes to Dr. Ayşe Demir for her check-ups.",
        1,
    );
    assert!(live.iter().any(|t| t.contains("Ayşe Demir")), "{live:?}");
    assert!(!live.iter().any(|t| t.contains("Lindenhof")), "{live:?}");
    assert!(
        live.iter().any(|t| t.contains("Ilya also sees")),
        "{live:?}"
    );

    let facts = [
        "Omar's favorite color is teal.",
        "Omar's favorite band is Tinariwen.",
        "Omar lives in Leeds.",
    ];
    let survivors = survivors_after_purge(&facts, "Omar's favourite colour");
    assert_eq!(
        survivors,
        ["Omar's favorite band is Tinariwen.", "Omar lives in Leeds."]
    );
}

/// Spelling variants are read for lowercase words only, never between unrelated words that
/// merely look alike ("four" is not "for", "poet" not "pet").
#[test]
fn look_alike_words_are_not_spelling_variants() {
    let facts = ["Omar's pet is a parrot.", "Omar lives in Leeds."];
    let (_t, s) = store_with(&facts);
    let plan = s
        .plan_with(Operation::Purge, &Target::query("Omar's poet"), None)
        .unwrap();
    assert!(plan.rows.is_empty(), "{plan:?}");
}

/// A noun in "-eer" keeps it through its inflections: "volunteering" is what "volunteers"
/// states, where the agent suffix "-er" read off "volunteers" left "volunt".
#[test]
fn a_noun_in_eer_meets_its_inflections() {
    let facts = [
        "Ngozi volunteers at the animal shelter on Saturdays.",
        "Ngozi's sister lives in Lagos.",
        "The user likes their tea without sugar.",
    ];
    let live = live_after_supersede(
        &facts,
        "Ngozi's volunteering",
        "Ngozi now spends her Saturdays tutoring kids at the library.",
        1,
    );
    assert!(live.iter().any(|t| t.contains("tutoring")), "{live:?}");
    assert!(
        !live.iter().any(|t| t.contains("animal shelter")),
        "{live:?}"
    );
}
