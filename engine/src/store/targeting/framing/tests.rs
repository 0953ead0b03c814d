//! Request framing on requests of each kind: commentary, bare requests, statements,
//! continuations, reference words.

use super::*;
use crate::canon;

fn kept(text: &str) -> Vec<String> {
    let chunks = canon::chunks(text);
    let f = frame(text, &chunks);
    chunks
        .iter()
        .enumerate()
        .filter(|(i, c)| !f.set_aside(*i, c))
        .map(|(_, c)| c.form.clone())
        .collect()
}

#[test]
fn trailing_commentary_is_set_aside() {
    assert_eq!(
        kept("the sulfa allergy listed for Rania Aziz, it was entered by mistake"),
        ["the", "sulfa", "allergy", "listed", "for", "rania", "aziz"]
    );
    // A pronoun's clause is commentary even when it holds a request verb.
    assert_eq!(
        kept("Priya's e-mail address, she asked us to delete it"),
        ["priya", "s", "e", "mail", "address"]
    );
    assert_eq!(
        kept("Sven's opt-out from marketing calls, he asked us to reset that"),
        ["sven", "s", "opt", "out", "from", "marketing", "calls"]
    );
    assert_eq!(
        kept("extension 310 for the front desk, that number is out of service"),
        ["extension", "310", "for", "the", "front", "desk"]
    );
}

#[test]
fn a_bare_request_describes_nothing() {
    // "forget that one" asks without describing: the clause before it stays the
    // description (it used to become commentary, "one" counted as content), and the
    // request's own words are set aside.
    assert_eq!(
        kept("Lena closed the travel savings pot, forget that one"),
        ["lena", "closed", "the", "travel", "savings", "pot"]
    );
    assert_eq!(
        kept("Li Wei's parking space was given back, please delete it"),
        ["li", "wei", "s", "parking", "space", "was", "given", "back"]
    );
    // The same in other languages: "this record, delete it", "remove it", "let it be
    // deleted".
    let t = "李伟的停车位已经退还了，把这条记录删掉";
    assert_eq!(kept(t).len(), canon::chunks("李伟的停车位已经退还了").len());
    let t = "Штраф Богдана Ткачука за швидкість скасували, приберіть його.";
    assert_eq!(kept(t).len(), 6, "{:?}", kept(t));
    let t = "የተስፋዬ A-number ስህተት ነው፣ ይሰረዝ";
    assert_eq!(kept(t).len(), canon::chunks(t).len() - 1, "{:?}", kept(t));
    // A segment that widens the request describes its scope.
    let t = "Elena invoked the right to be forgotten; delete all of her data";
    assert_eq!(kept(t).len(), canon::chunks(t).len(), "{:?}", kept(t));
    // A request alone keeps its words: nothing else describes the target.
    let t = "Sami Odeh, please delete";
    assert_eq!(kept(t).len(), canon::chunks(t).len(), "{:?}", kept(t));
}

#[test]
fn a_statement_of_its_own_is_commentary() {
    assert_eq!(
        kept("Yuki's cat allergy; the new allergy test showed it was a mistake"),
        ["yuki", "s", "cat", "allergy"]
    );
    assert_eq!(
        kept("Selin's latex allergy, the skin test was negative"),
        ["selin", "s", "latex", "allergy"]
    );
    assert_eq!(
        kept("the Osaka hotel refund note, Lena has cancelled the Osaka stay"),
        ["the", "osaka", "hotel", "refund", "note"]
    );
    assert_eq!(
        kept("the reservation at table 12 — the Mizrahi group called it off"),
        ["the", "reservation", "at", "table", "12"]
    );
    // Continuations: an anaphoric head, a relative clause, a qualifier.
    for t in [
        "Priya's e-mail, the one she had at Acme",
        "Sam's card, the card which was blocked",
        "Tom's phone, the number he had until March",
    ] {
        assert_eq!(kept(t).len(), canon::chunks(t).len(), "{t}");
    }
}

#[test]
fn continuations_stay() {
    // A determiner, a possessive and "as of" continue the description.
    let t = "Esther's former family doctor, that one before 2024";
    assert_eq!(kept(t).len(), canon::chunks(t).len());
    let t = "Anna's phone number, her old one";
    assert_eq!(kept(t).len(), canon::chunks(t).len());
    let t = "Pablo's prednisone dose, as of March";
    assert_eq!(kept(t).len(), canon::chunks(t).len());
}

#[test]
fn commentary_in_other_languages_and_after_a_strong_break() {
    assert_eq!(kept("黄丽的代发工资单位，她已经离职了").len(), 9);
    assert_eq!(
        kept("Shira Levi's latex allergy; her patch test came back negative"),
        ["shira", "levi", "s", "latex", "allergy"]
    );
    // After a comma a possessive continues the description.
    let t = "Anna's phone number, her old one";
    assert_eq!(kept(t).len(), canon::chunks(t).len());
    let t = "де навчається Тарас — він уже випустився";
    assert_eq!(kept(t).len(), 3);
}

#[test]
fn a_later_request_with_content_is_the_description() {
    assert_eq!(
        kept("We changed the locks, so please erase the old front door code 4512"),
        [
            "so", "please", "erase", "the", "old", "front", "door", "code", "4512"
        ]
    );
    // An anaphoric "so drop it" has no content: the first segment describes the target.
    assert_eq!(
        kept("Tamar Peretz's Ward 4 admission; she was discharged yesterday, so drop it"),
        ["tamar", "peretz", "s", "ward", "4", "admission"]
    );
}

#[test]
fn a_request_that_says_only_how_to_delete_describes_nothing() {
    // "completely" says how to delete, not what: the first sentence stays the description.
    assert_eq!(
        kept(
            "Hamid's codeine allergy. It was a mislabel from the hospital letter, so please \
             delete it completely"
        ),
        ["hamid", "s", "codeine", "allergy"]
    );
}

#[test]
fn a_request_that_is_only_a_subject_keeps_its_commentary() {
    // Setting the commentary aside would leave "Sami Odeh" alone: everything about him.
    let t = "Sami Odeh, he has left the company";
    assert_eq!(kept(t).len(), canon::chunks(t).len());
}

#[test]
fn reference_words_are_optional_only_beside_another_attribute_word() {
    let f = |t: &str| frame(t, &canon::chunks(t)).drop_reference_words;
    assert!(f("Ahmad's smoking status"));
    assert!(f("the expired Gold status record for Kittipong"));
    assert!(!f("Priya's record"));
    assert!(!f("the note about Ana"));
}

#[test]
fn names_in_commentary_stay_when_the_description_names_nobody() {
    let t = "the car loan; it was paid off early by Oluwaseun";
    assert_eq!(kept(t), ["the", "car", "loan", "oluwaseun"]);
}

#[test]
fn titles_and_initials_do_not_end_a_sentence() {
    let t = "the note about Dr. Leah Katz not taking new patients";
    assert_eq!(kept(t).len(), canon::chunks(t).len());
}
