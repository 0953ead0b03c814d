//! Negation stated by a word of its own: "declining", "divorce", "left" against the negation a
//! row states with "not" or "no longer", and the other way round.

use super::*;

/// A word that negates by itself ("declining", "divorce", "left") is the negated statement
/// the row makes ("did not accept", "no longer married", "no longer works"), and the other way
/// round for a request stated negatively; the positive row of the same person stays.
#[test]
fn a_word_that_negates_meets_the_negation_the_row_states() {
    let facts: &[&str] = &[
        "Priyanka Das did not accept the offer for the Analyst role.",
        "Priyanka Das accepted the offer for the Senior Analyst role.",
        "Uncle Petro is no longer married to Iryna.",
        "Uncle Petro is married to Nadiya; they live in Poltava.",
        "Kwame Boateng declined the offer for the Analyst role.",
        "Kwame Boateng accepted the offer for the Senior Analyst role.",
    ];
    for (request, gone) in [
        ("the record of Priyanka declining the Analyst offer", 0),
        ("the line about Petro's divorce from Iryna", 2),
        ("Kwame did not accept the Analyst offer", 4),
    ] {
        let left = survivors_after_purge(facts, request);
        assert_eq!(left.len(), facts.len() - 1, "{request}: {left:?}");
        assert!(
            !left.iter().any(|t| t == facts[gone]),
            "{request}: {left:?}"
        );
    }
}
