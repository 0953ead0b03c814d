//! Which clauses of a multi-clause row a supersede replaces: the one the request's words
//! reach; when they reach none, those talking about the attribute the request names, and the
//! one the new text restates.

use super::*;

#[test]
fn supersede_of_one_clause_keeps_the_others() {
    let t = temp();
    let (s, _) = create_fixed(&t);
    let id = s
        .inscribe(Inscription::new(
            "Lena lives in Hamburg and works at Airbus.",
        ))
        .unwrap();
    let out = s
        .supersede(
            Target::query("where Lena lives"),
            Inscription::new("Lena lives in Bremen."),
        )
        .unwrap();
    assert_eq!(out.edited, [id]);
    assert!(out.replaced.is_empty());
    let left = live_texts(&s);
    assert_eq!(left, ["Lena works at Airbus.", "Lena lives in Bremen."]);
    s.close().unwrap();
    assert!(!file_contains(&t.path, b"Hamburg"));
}

#[test]
fn a_paraphrased_supersede_replaces_the_clause_about_the_asked_attribute() {
    // "where she is based" holds no word of the row; it names the residence slot, which only
    // the first clause talks about. The second clause is kept, whatever the new text says.
    let (_t, s) = store_with(&[
        "Ines Duarte lives in Braga and works at a pharmacy.",
        "Ines Duarte's sister is Rita.",
    ]);
    let target = Target::query("where Ines is based now");
    let new = "Ines Duarte is now in Coimbra.";
    let plan = s
        .plan_with(Operation::Supersede, &target, Some(new))
        .unwrap();
    assert_eq!(plan.rows, vec![1], "{plan:?}");
    assert_eq!(plan.matches[0].clauses, vec![0], "{plan:?}");
    s.supersede(target, Inscription::new(new)).unwrap();
    let live = live_texts(&s);
    assert!(!live.iter().any(|t| t.contains("Braga")), "{live:?}");
    assert!(
        live.iter().any(|t| t.contains("works at a pharmacy")),
        "{live:?}"
    );
    assert!(
        live.iter().any(|t| t == "Ines Duarte's sister is Rita."),
        "{live:?}"
    );
}

#[test]
fn a_new_text_restating_another_clause_replaces_it_with_the_asked_one() {
    // The request asks where he is based (the first clause); the new text also restates where
    // his parcels go (the second, whose "there" is the old city). Both clauses go: no part of
    // the row about Gdansk survives, and his other rows are untouched.
    let facts = [
        "Tomasz Wrona lives in Gdansk, and his parcels are delivered there.",
        "Tomasz Wrona's dentist is Dr. Lis.",
        "Tomasz Wrona plays chess on Sundays.",
    ];
    let live = live_after_supersede(
        &facts,
        "Tomasz moved, update where he is based",
        "Tomasz Wrona moved to Poznan in May; deliver his parcels to the Poznan address.",
        1,
    );
    assert!(!live.iter().any(|t| t.contains("Gdansk")), "{live:?}");
    assert!(
        !live.iter().any(|t| t.contains("delivered there")),
        "{live:?}"
    );
    for kept in &facts[1..] {
        assert!(live.iter().any(|t| t == kept), "{kept} lost: {live:?}");
    }
}
