//! The confidence grade of each match in a plan, and the store's floor below which a forgetting
//! call does not act: a supersede that only a fallback could place is a guess (low), a row the
//! request's words reach in part is medium, a row holding every word of the request is high.

use oubli::Confidence;
use proptest::prelude::*;

use super::*;

const FACTS: [&str; 5] = [
    "Tom Hale's phone number is +44 7700 900123.",
    "Tom Hale lives in Bristol.",
    "Kenta Mori resides in a flat in Osaka.",
    "Kenta Mori's salary is 9 million yen.",
    "Marta Lindqvist's dentist is Dr. Ek.",
];

/// A store holding `FACTS` whose forgetting calls need `floor`.
fn store_with_floor(floor: Confidence) -> (common::TempStore, Store) {
    let t = temp();
    let clock = Arc::new(ManualClock::new(1_700_000_000_000));
    let s = Store::create_with(&t.path, common::fixed(clock).min_confidence(floor)).unwrap();
    for f in FACTS {
        s.inscribe(Inscription::new(f)).unwrap();
    }
    (t, s)
}

fn grades(plan: &oubli::Plan) -> Vec<Confidence> {
    plan.matches.iter().map(|m| m.confidence).collect()
}

#[test]
fn each_match_is_graded_by_how_the_request_reached_it() {
    let (_t, s) = store_with(&FACTS);
    // Every word of the request in the row: high.
    let plan = s
        .plan(Operation::Purge, &Target::query("Tom Hale's phone number"))
        .unwrap();
    assert_eq!(
        (plan.rows.clone(), grades(&plan)),
        (vec![1], vec![Confidence::High])
    );
    assert_eq!(plan.confidence, Some(Confidence::High));
    // The request's words reach the row, one of them not ("work"): medium. So is a given
    // name the row's name runs on from ("Tom" of "Tom Hale").
    for query in ["Tom Hale's work phone number", "Tom's phone number"] {
        let plan = s.plan(Operation::Purge, &Target::query(query)).unwrap();
        assert_eq!(plan.rows, vec![1], "{plan:?}");
        assert_eq!(plan.confidence, Some(Confidence::Medium), "{plan:?}");
    }
    // A supersede whose words reach no row of Kenta's: the fallback's choice is a guess.
    let plan = s
        .plan_with(
            Operation::Supersede,
            &Target::query("Kenta's home city"),
            Some("Kenta Mori moved to Kyoto."),
        )
        .unwrap();
    assert_eq!(plan.rows, vec![3], "{plan:?}");
    assert_eq!(grades(&plan), vec![Confidence::Low], "{plan:?}");
    // By id or key: high. A plan of nothing has no grade.
    let plan = s.plan(Operation::Purge, &Target::id(2)).unwrap();
    assert_eq!(plan.confidence, Some(Confidence::High));
    let plan = s
        .plan(Operation::Purge, &Target::query("Priya's phone number"))
        .unwrap();
    assert!(
        plan.rows.is_empty() && plan.confidence.is_none(),
        "{plan:?}"
    );
}

#[test]
fn a_floor_turns_a_guess_into_a_no_match_that_changes_nothing() {
    let (_t, s) = store_with_floor(Confidence::Medium);
    let target = Target::query("Kenta's home city");
    let new = "Kenta Mori moved to Kyoto.";
    let plan = s
        .plan_with(Operation::Supersede, &target, Some(new))
        .unwrap();
    assert!(plan.rows.is_empty(), "{plan:?}");
    let set_aside = plan.rejected.iter().find(|r| r.id == 3).expect("row 3");
    assert!(
        set_aside
            .reason
            .contains("low confidence, below the store's floor (medium)"),
        "{set_aside:?}"
    );
    let before = live_texts(&s);
    match s.supersede(target, Inscription::new(new)) {
        Err(Error::NoMatch(none)) => assert!(none.candidates.iter().any(|c| c.id == 3)),
        other => panic!("expected a no-match, got {other:?}"),
    }
    assert_eq!(live_texts(&s), before);
    // What the words reach in full is still acted on.
    s.purge(Target::query("Tom Hale's phone number")).unwrap();
    assert!(!live_texts(&s).iter().any(|t| t.contains("900123")));
}

#[test]
fn the_command_line_grades_and_takes_a_floor() {
    let (t, s) = store_with(&FACTS);
    drop(s);
    let bin = env!("CARGO_BIN_EXE_oubli");
    let plan = |floor: &str| {
        let out = std::process::Command::new(bin)
            .args([
                "plan",
                "--json",
                "--op",
                "supersede",
                "--query",
                "Kenta's home city",
            ])
            .args([
                "--new",
                "Kenta Mori moved to Kyoto.",
                "--min-confidence",
                floor,
            ])
            .arg(&t.path)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        serde_json::from_slice::<oubli::Plan>(&out.stdout).unwrap()
    };
    assert_eq!(plan("low").confidence, Some(Confidence::Low));
    assert!(plan("medium").rows.is_empty());
    let bad = std::process::Command::new(bin)
        .args([
            "plan",
            "--op",
            "purge",
            "--query",
            "Tom",
            "--min-confidence",
            "sure",
        ])
        .arg(&t.path)
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("expected low, medium or high"));
}

const WORDS: [&str; 14] = [
    "Tom",
    "Hale's",
    "phone",
    "number",
    "Kenta's",
    "salary",
    "home",
    "city",
    "Marta's",
    "dentist",
    "everything",
    "about",
    "lives",
    "Priya's",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// A floor only sets matches aside: a store with a floor plans exactly the matches of a
    /// store without one that are graded at or above it, whatever the request.
    #[test]
    fn a_floor_keeps_exactly_the_matches_graded_at_or_above_it(
        picks in proptest::collection::vec(0..WORDS.len(), 1..5),
        op in prop_oneof![Just(Operation::Purge), Just(Operation::Release)],
    ) {
        let query: Vec<&str> = picks.iter().map(|&i| WORDS[i]).collect();
        let target = Target::query(query.join(" "));
        let (_t0, open) = store_with_floor(Confidence::Low);
        let Ok(all) = open.plan(op, &target) else { return Ok(()) };
        for floor in [Confidence::Medium, Confidence::High] {
            let (_t, s) = store_with_floor(floor);
            let kept = s.plan(op, &target).unwrap();
            let expected: Vec<_> = all
                .matches
                .iter()
                .filter(|m| m.confidence >= floor)
                .map(|m| m.id)
                .collect();
            let got: Vec<_> = kept.matches.iter().map(|m| m.id).collect();
            prop_assert_eq!(got, expected, "{:?} at {}", query, floor);
        }
    }
}
