//! Plans over rough text never panic and change nothing.

use super::{live_texts, store_with};
use oubli::{Operation, Target};
use proptest::prelude::*;

/// Text built to reach the places where targeting slices a request or a row: names typed in
/// any case, possessives with straight and curly apostrophes, colons, prepositions, hyphens,
/// letters whose case changes their length, and arbitrary Unicode.
fn rough_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("jonas".to_owned()),
        Just("Jonas".to_owned()),
        Just("'s".to_owned()),
        Just("’".to_owned()),
        Just("'".to_owned()),
        Just(":".to_owned()),
        Just(" of ".to_owned()),
        Just(" for ".to_owned()),
        Just("-".to_owned()),
        Just("İẞ".to_owned()),
        Just("SSN".to_owned()),
        Just("new home address is".to_owned()),
        Just("王磊的".to_owned()),
        "\\PC{0,6}",
    ];
    proptest::collection::vec(piece, 0..10).prop_map(|v| v.join(" "))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, .. ProptestConfig::default() })]

    /// Planning any forgetting call over rough text returns a plan or a typed error, never a
    /// panic, and changes nothing.
    #[test]
    fn plans_over_rough_text_never_panic(
        rows in proptest::collection::vec(rough_text(), 1..5),
        query in rough_text(),
        new in rough_text(),
    ) {
        let mut facts: Vec<String> = rows.into_iter().filter(|r| !r.trim().is_empty()).collect();
        facts.push("Jonas Weber's badge number is B-2063.".to_owned());
        let refs: Vec<&str> = facts.iter().map(String::as_str).collect();
        let (_t, s) = store_with(&refs);
        let before = live_texts(&s);
        for op in [Operation::Purge, Operation::Release, Operation::Supersede] {
            let new = (op == Operation::Supersede).then_some(new.as_str());
            let _ = s.plan_with(op, &Target::query(query.as_str()), new);
        }
        prop_assert_eq!(live_texts(&s), before);
    }
}
