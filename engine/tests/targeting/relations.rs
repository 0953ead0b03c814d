//! A relation noun after a possessive ("Kofi's brother's phone") makes the relative the subject:
//! a row about the possessor alone is not about them, whatever adjective stands between.

use super::*;

#[test]
fn an_adjective_before_the_relation_keeps_it_a_relation() {
    let facts = [
        "Kofi Mensah's phone is +233 20 555 0101.",
        "Kofi Mensah lives in Accra.",
        "Kofi Mensah's passport number is G1234567.",
    ];
    let (_t, s) = store_with(&facts);
    // "current brother", "old mother": the brother's phone and the mother's maiden name are
    // not Kofi's phone.
    for query in [
        "Kofi's current brother's phone",
        "Kofi's old brother's phone",
    ] {
        for op in [Operation::Purge, Operation::Release] {
            let plan = s.plan_with(op, &Target::query(query), None).unwrap();
            assert!(plan.rows.is_empty(), "{query} {op:?}: {plan:?}");
        }
    }
    let r = s.supersede(
        Target::query("replace Kofi's old mother's maiden name"),
        Inscription::new("Kofi's mother's maiden name is now +233 20 555 0199"),
    );
    assert!(matches!(r, Err(Error::NoMatch(_))), "{r:?}");
    assert_eq!(live_texts(&s), facts);
}
