//! Provenance, invalidation, recomputation and source-first compaction.

use crate::common;

use common::{create_fixed, file_contains, temp};
use oubli::{
    AsOf, CheckStatus, CompactOptions, CompactScope, Decimal, Derivation, Error, EventKind,
    Inscription, Kind, ListQuery, RecallQuery, Store, Target,
};
use proptest::prelude::*;

fn item(text: &str, price: &str, qty: u32) -> Inscription {
    Inscription::new(text)
        .namespace("shop")
        .meta("price", price)
        .meta("qty", qty.to_string())
}

fn dec(s: &str) -> Decimal {
    Decimal::parse(s).unwrap()
}

fn sum() -> Derivation {
    Derivation::sum_of_products(["price", "qty"])
}

/// Two items, a subtotal over them, and a derived row built on the subtotal.
fn ledger(s: &Store) -> (u64, u64, u64, u64) {
    let a = s.inscribe(item("7 pens at $2 each", "2", 7)).unwrap();
    let b = s.inscribe(item("3 mugs at $4.50 each", "4.50", 3)).unwrap();
    let total = s
        .inscribe_derived(
            Inscription::new("The subtotal is ${value}")
                .namespace("shop")
                .derived_from([a, b]),
            sum(),
        )
        .unwrap();
    assert_eq!(total.claimed, dec("27.5"));
    assert_eq!(total.stale_since, None);
    let summary = s
        .inscribe(
            Inscription::new("Shopping summary: subtotal noted")
                .namespace("shop")
                .kind(Kind::Derived)
                .derived_from([total.id]),
        )
        .unwrap();
    (a, b, total.id, summary)
}

#[test]
fn provenance_records_source_versions_and_commitments() {
    let t = temp();
    let (s, _) = create_fixed(&t);
    let (a, b, total, _) = ledger(&s);
    let p = s.provenance(total).unwrap().unwrap();
    assert_eq!(p.sources.iter().map(|r| r.id).collect::<Vec<_>>(), [a, b]);
    let events = s.events(1, 2).unwrap();
    for (src, ev) in p.sources.iter().zip(&events) {
        assert_eq!(src.version, ev.seq);
        assert_eq!(
            src.commitment, ev.commitments[0],
            "the inscribe event's commitment"
        );
    }
    assert_eq!(p.derivation, Some(sum()));
    assert_eq!(p.claimed, Some(dec("27.5")));
    assert_eq!(s.get(total).unwrap().text.unwrap(), "The subtotal is $27.5");
    assert!(s.check_derived(total).unwrap().fresh);
    assert_eq!(s.provenance(a).unwrap(), None);
}

#[test]
fn superseding_a_source_invalidates_dependents_transitively_one_event_each() {
    let t = temp();
    let (s, _) = create_fixed(&t);
    let (a, _, total, summary) = ledger(&s);
    let before = s.head().unwrap().0;
    let r = s
        .supersede(Target::id(a), item("7 pens at $3 each", "3", 7))
        .unwrap();
    let events = s.events(before + 1, u64::MAX).unwrap();
    let kinds: Vec<EventKind> = events.iter().map(|e| e.kind).collect();
    assert_eq!(
        kinds,
        [
            EventKind::Supersede,
            EventKind::Invalidate,
            EventKind::Invalidate
        ]
    );
    assert_eq!(events[1].transitions[0].row, total);
    assert_eq!(events[2].transitions[0].row, summary);
    for e in &events[1..] {
        assert_eq!(e.transitions[0].before, Some(e.transitions[0].after));
    }
    assert_eq!(s.stale_since(total).unwrap(), Some(events[1].seq));
    // Recall and list leave stale rows out; include_stale brings them back, flagged.
    let q = RecallQuery::new("subtotal summary").namespace("shop");
    let hits = s.recall(&q).unwrap();
    assert!(
        hits.iter()
            .all(|h| h.row.id != total && h.row.id != summary)
    );
    let hits = s.recall(&q.clone().include_stale(true)).unwrap();
    let h = hits.iter().find(|h| h.row.id == total).unwrap();
    assert!(h.stale);
    assert_eq!(h.explain.stale_since, Some(events[1].seq));
    let listed = s.list(&ListQuery::default().namespace("shop")).unwrap();
    assert!(listed.iter().all(|r| r.id != total && r.id != summary));
    // As of before the supersede, the subtotal was not stale.
    let past = s.recall(&q.clone().as_of(AsOf::Seq(before))).unwrap();
    assert!(past.iter().any(|h| h.row.id == total && !h.stale));
    // Recompute: a new version from the corrected source.
    let check = s.check_derived(total).unwrap();
    assert!(!check.fresh && !check.sources_current);
    assert_eq!(check.recomputed, Some(dec("34.5")));
    let fixed = s.recompute(total).unwrap();
    let new = s.get(fixed.new_id).unwrap();
    assert_eq!(new.text.as_deref(), Some("The subtotal is $34.5"));
    assert_eq!(new.derived_from[0], r.new_id);
    assert_eq!(new.metadata["value"], "34.5");
    assert!(s.check_derived(fixed.new_id).unwrap().fresh);
    assert!(!s.get(total).unwrap().depth.is_live());
    s.verify_log(None).unwrap();
}

#[test]
fn releasing_a_source_invalidates_and_blocks_recompute() {
    let t = temp();
    let (s, _) = create_fixed(&t);
    let (_, b, total, summary) = ledger(&s);
    s.release(Target::id(b)).unwrap();
    assert!(s.stale_since(total).unwrap().is_some());
    assert!(s.stale_since(summary).unwrap().is_some());
    assert!(matches!(s.recompute(total), Err(Error::Derivation(_))));
    assert!(matches!(s.recompute(summary), Err(Error::Derivation(_))));
}

#[test]
fn a_wrong_stated_value_is_stale_from_birth() {
    let t = temp();
    let (s, _) = create_fixed(&t);
    let a = s.inscribe(item("7 pens at $2 each", "2", 7)).unwrap();
    let r = s
        .inscribe_derived(
            Inscription::new("The pens come to $27")
                .namespace("shop")
                .meta("value", "27")
                .derived_from([a]),
            sum(),
        )
        .unwrap();
    assert_eq!((r.claimed, r.recomputed), (dec("27"), dec("14")));
    assert!(r.stale_since.is_some());
    let fixed = s.recompute(r.id).unwrap();
    assert_eq!(
        s.get(fixed.new_id).unwrap().text.as_deref(),
        Some("The pens come to $14")
    );
}

#[test]
fn bad_derivations_are_typed_errors_and_write_nothing() {
    let t = temp();
    let (s, _) = create_fixed(&t);
    let a = s
        .inscribe(Inscription::new("pens").meta("price", "two"))
        .unwrap();
    let head = s.head().unwrap();
    let d = |ins: Inscription, der| s.inscribe_derived(ins, der);
    assert!(matches!(
        d(Inscription::new("x").derived_from([a]), sum()),
        Err(Error::Derivation(_))
    ));
    assert!(matches!(
        d(Inscription::new("x"), sum()),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        d(
            Inscription::new("x").derived_from([a]),
            Derivation::sum_of_products(Vec::<String>::new())
        ),
        Err(Error::Derivation(_))
    ));
    assert!(matches!(
        d(Inscription::new("x").derived_from([999]), sum()),
        Err(Error::UnknownRow(999))
    ));
    assert!(matches!(s.recompute(a), Err(Error::Derivation(_))));
    assert_eq!(s.head().unwrap(), head);
}

#[test]
fn compact_keeps_sources_first_and_marks_completeness() {
    let t = temp();
    let (s, _) = create_fixed(&t);
    let decoy = s
        .inscribe(item("considered, not bought: a lamp at $30", "30", 0))
        .unwrap();
    let (a, b, total, _) = ledger(&s);
    let scope = CompactScope::namespace("shop");
    let note = s
        .compact(&scope, &CompactOptions::new(400).include_derived(true))
        .unwrap();
    assert!(note.complete);
    assert_eq!((note.kept, note.total), (2, 2));
    assert_eq!(note.answer_determining, [a, b]);
    assert_eq!(note.lines[0].id, a);
    assert_eq!(note.lines[2].id, decoy);
    assert!(note.text.starts_with("oubli note v1: kept 2 of 2"));
    assert!(note.text.contains("[derived #"), "{}", note.text);
    assert!(note.bytes() <= 400);
    assert_eq!(note.certificate.checks[0].status, CheckStatus::Match);
    let row = s.get(note.id.unwrap()).unwrap();
    assert_eq!(row.kind, Kind::Note);
    assert_eq!(row.metadata["oubli.note.complete"], "true");
    assert_eq!(s.note(note.id.unwrap()).unwrap(), note);
    // The sources stay in the store.
    assert!(s.get(a).unwrap().depth.is_live());
    // A budget that cannot hold both items: incomplete, said in text and metadata.
    let small = s.compact(&scope, &CompactOptions::new(120)).unwrap();
    assert!(!small.complete && small.kept < 2);
    assert!(small.text.contains("INCOMPLETE, missing #"));
    assert!(small.bytes() <= 120);
    let row = s.get(small.id.unwrap()).unwrap();
    assert_eq!(row.metadata["oubli.note.complete"], "false");
    assert_eq!(
        small
            .certificate
            .checks
            .iter()
            .find(|c| c.derived == total)
            .unwrap()
            .status,
        CheckStatus::Unverifiable
    );
    // Strict refuses and writes nothing; a budget below the header is a typed error.
    let head = s.head().unwrap();
    assert!(matches!(
        s.compact(&scope, &CompactOptions::new(120).strict(true)),
        Err(Error::IncompleteNote { total: 2, .. })
    ));
    assert!(matches!(
        s.compact(&scope, &CompactOptions::new(20)),
        Err(Error::BudgetTooSmall { budget: 20, .. })
    ));
    assert!(matches!(
        s.compact(&scope, &CompactOptions::new(1 << 20)),
        Err(Error::InvalidArgument(_))
    ));
    assert_eq!(s.head().unwrap(), head);
    // Stale derived values are never kept, even when asked.
    s.supersede(Target::id(a), item("7 pens at $3 each", "3", 7))
        .unwrap();
    let after = s
        .compact(&scope, &CompactOptions::new(600).include_derived(true))
        .unwrap();
    assert!(!after.text.contains("[derived #"), "{}", after.text);
    assert!(!after.text.contains("27.5"));
    let replay = s.replay_notes().unwrap();
    assert_eq!(replay.len(), 3);
    assert!(
        replay
            .iter()
            .all(|r| r.commitment_matches && r.digest_matches)
    );
}

#[test]
fn a_keyed_note_replaces_the_previous_one_and_notes_go_stale() {
    let t = temp();
    let (s, _) = create_fixed(&t);
    let (a, ..) = ledger(&s);
    let opts = CompactOptions::new(400).key("shop-note");
    let first = s.compact(&CompactScope::namespace("shop"), &opts).unwrap();
    let second = s.compact(&CompactScope::namespace("shop"), &opts).unwrap();
    assert_eq!(first.text, second.text);
    assert_eq!(first.digest, second.digest);
    let old = s.get(first.id.unwrap()).unwrap();
    assert_eq!(old.superseded_by, second.id);
    assert!(!old.depth.is_live());
    s.supersede(Target::id(a), item("8 pens at $2 each", "2", 8))
        .unwrap();
    assert!(s.stale_since(second.id.unwrap()).unwrap().is_some());
    // A key held by a row that is not a note is never taken over.
    s.inscribe(item("receipt scan", "1", 1).key("taken"))
        .unwrap();
    let head = s.head().unwrap();
    assert!(matches!(
        s.compact(
            &CompactScope::namespace("shop"),
            &CompactOptions::new(400).key("taken")
        ),
        Err(Error::DuplicateKey { .. })
    ));
    assert_eq!(s.head().unwrap(), head);
}

#[test]
fn query_scope_makes_matches_answer_determining() {
    let t = temp();
    let (s, _) = create_fixed(&t);
    let pens = s.inscribe(item("7 pens at $2 each", "2", 7)).unwrap();
    let lamp = s.inscribe(item("a lamp at $30", "30", 1)).unwrap();
    let note = s
        .compact(
            &CompactScope::namespace("shop").query("pens"),
            &CompactOptions::new(300),
        )
        .unwrap();
    assert_eq!(note.answer_determining, [pens]);
    assert_eq!(note.others_total, 1);
    assert_eq!(note.lines[1].id, lamp);
}

#[test]
fn purge_of_a_source_erases_notes_and_derived_rows_and_their_records() {
    let t = temp();
    let (s, _) = create_fixed(&t);
    let marker = "zqvmarker";
    let a = s
        .inscribe(item(&format!("7 {marker} pens at $2 each"), "2", 7))
        .unwrap();
    let b = s.inscribe(item("3 mugs at $4.50 each", "4.50", 3)).unwrap();
    let total = s
        .inscribe_derived(
            Inscription::new("subtotal ${value}")
                .namespace("shop")
                .derived_from([a, b]),
            sum(),
        )
        .unwrap()
        .id;
    let note = s
        .compact(&CompactScope::namespace("shop"), &CompactOptions::new(500))
        .unwrap();
    // An unrelated purge first: scrub rewrites the file and must keep the new tables.
    let other = s.inscribe(Inscription::new("unrelated")).unwrap();
    s.purge(Target::id(other)).unwrap();
    assert!(s.provenance(total).unwrap().is_some());
    assert!(s.note(note.id.unwrap()).is_ok());
    assert!(s.replay_notes().unwrap().iter().all(|r| r.digest_matches));
    let r = s.purge(Target::id(a)).unwrap();
    for id in [a, total, note.id.unwrap()] {
        assert!(r.erased.contains(&id), "{id} not erased: {:?}", r.erased);
    }
    assert!(
        r.cascade
            .iter()
            .any(|c| c.row == note.id.unwrap() && c.via == "note")
    );
    assert!(s.get(b).unwrap().depth.is_live());
    assert_eq!(s.provenance(total).unwrap(), None);
    assert!(matches!(s.note(note.id.unwrap()), Err(Error::Purged(_))));
    let replay = s.replay_notes().unwrap();
    assert!(
        replay
            .iter()
            .any(|r| r.note == note.id.unwrap() && r.purged)
    );
    s.close().unwrap();
    assert!(!file_contains(&t.path, marker.as_bytes()));
}

#[test]
fn same_operations_give_byte_identical_notes() {
    let run = || {
        let t = temp();
        let (s, _) = create_fixed(&t);
        ledger(&s);
        let n = s
            .compact(
                &CompactScope::namespace("shop"),
                &CompactOptions::new(150).include_derived(true),
            )
            .unwrap();
        (n, s.head().unwrap())
    };
    let (a, ha) = run();
    let (b, hb) = run();
    assert_eq!(a, b);
    assert_eq!(ha, hb);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// For any ledger and budget: the note fits, k == N iff complete iff no INCOMPLETE mark,
    /// a dry run gives the same bytes as the written note, and strict refuses exactly when
    /// incomplete.
    #[test]
    fn notes_fit_and_say_whether_they_are_complete(
        items in prop::collection::vec((1u32..9, 1u32..5000, 0usize..30), 1..12),
        budget in 60usize..700,
    ) {
        let t = temp();
        let (s, _) = create_fixed(&t);
        let mut ids = Vec::new();
        for (i, (qty, cents, pad)) in items.iter().enumerate() {
            let price = format!("{}.{:02}", cents / 100, cents % 100);
            let text = format!("{qty} item{i}{} at ${price} each", "x".repeat(*pad));
            ids.push(s.inscribe(item(&text, &price, *qty)).unwrap());
        }
        s.inscribe_derived(
            Inscription::new("total ${value}").namespace("shop").derived_from(ids.clone()),
            sum(),
        ).unwrap();
        let scope = CompactScope::namespace("shop");
        match s.compact(&scope, &CompactOptions::new(budget).dry_run(true)) {
            Ok(dry) => {
                prop_assert!(dry.bytes() <= budget);
                prop_assert_eq!(dry.total, ids.len());
                prop_assert_eq!(dry.complete, dry.kept == dry.total);
                prop_assert_eq!(!dry.complete, dry.text.contains("INCOMPLETE"));
                prop_assert_eq!(dry.dropped.len(), dry.total - dry.kept);
                let strict = s.compact(&scope, &CompactOptions::new(budget).strict(true));
                prop_assert_eq!(strict.is_err(), !dry.complete);
                let written = s.compact(&scope, &CompactOptions::new(budget)).unwrap();
                prop_assert_eq!(&written.text, &dry.text);
                prop_assert_eq!(written.digest, dry.digest);
            }
            Err(Error::BudgetTooSmall { needed, .. }) => prop_assert!(needed > budget),
            Err(e) => prop_assert!(false, "{e}"),
        }
    }
}

#[test]
fn a_clause_edit_of_a_source_invalidates_what_was_built_on_it() {
    let t = temp();
    let (s, _) = create_fixed(&t);
    let id = s
        .inscribe(Inscription::new(
            "Lena lives in Hamburg and works at Airbus.",
        ))
        .unwrap();
    let derived = s
        .inscribe(
            Inscription::new("Lena's commute is short")
                .kind(Kind::Derived)
                .derived_from([id]),
        )
        .unwrap();
    let out = s
        .supersede(
            Target::query("Lena lives in Hamburg"),
            Inscription::new("Lena lives in Berlin."),
        )
        .unwrap();
    assert_eq!(out.edited, [id], "the supersede took the clause path");
    assert!(s.stale_since(derived).unwrap().is_some());
    assert!(!s.check_derived(derived).unwrap().sources_current);
}
