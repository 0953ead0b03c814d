//! End-to-end behaviour of the forgetting primitives.

use crate::common;

use common::*;
use oubli::{
    AsOf, DepthState, Error, Inscription, Kind, ListQuery, RecallQuery, Store, StoreOptions, Target,
};

#[test]
fn inscribe_recall_supersede_release_purge() {
    let t = temp();
    let s = Store::create(&t.path).unwrap();
    let a = s
        .inscribe(Inscription::new("Ana's door code is 4417").namespace("ana"))
        .unwrap();
    s.inscribe(Inscription::new("Ana likes green tea").namespace("ana"))
        .unwrap();
    s.inscribe(Inscription::new("Ben's door code is 1234").namespace("ben"))
        .unwrap();

    let hits = s
        .recall(&RecallQuery::new("door code").namespace("ana"))
        .unwrap();
    assert_eq!(hits[0].row.id, a);
    assert!(hits.iter().all(|h| h.row.namespace == "ana"));

    let sup = s
        .supersede(
            Target::query_in("ana", "Ana's door code"),
            Inscription::new("Ana's door code is 9051"),
        )
        .unwrap();
    assert_eq!(sup.replaced, vec![a]);
    let old = s.get(a).unwrap();
    assert_eq!(old.depth.state(), DepthState::Submerged);
    assert_eq!(old.superseded_by, Some(sup.new_id));
    let joined = texts(&s.recall(&RecallQuery::new("Ana door code")).unwrap()).join("\n");
    assert!(joined.contains("9051"));
    assert!(
        !joined.contains("4417"),
        "superseded value leaked: {joined}"
    );

    // Submerged rows come back only when asked.
    let with_sub = s
        .recall(&RecallQuery::new("Ana door code").include_submerged(true))
        .unwrap();
    assert!(texts(&with_sub).iter().any(|x| x.contains("4417")));

    let released = s.release(Target::query("green tea")).unwrap();
    assert_eq!(released.len(), 1);
    let joined = texts(&s.recall(&RecallQuery::new("tea")).unwrap()).join("\n");
    assert!(!joined.contains("green tea"));
    s.resurface(Target::id(released[0])).unwrap();
    let joined = texts(&s.recall(&RecallQuery::new("tea")).unwrap()).join("\n");
    assert!(joined.contains("green tea"));

    let report = s.purge(Target::query("Ana's door code")).unwrap();
    // The whole supersede chain goes: the current and the old code.
    assert_eq!(report.erased, vec![a, sup.new_id]);
    assert!(report.completion_seq.is_some());
    assert!(s.get(a).unwrap().text.is_none());
    assert_eq!(s.get(a).unwrap().depth.state(), DepthState::Void);
    let all = texts(
        &s.recall(&RecallQuery::new("door code").include_submerged(true))
            .unwrap(),
    );
    assert!(
        all.iter()
            .all(|x| !x.contains("4417") && !x.contains("9051"))
    );
    // Void is absorbing.
    assert!(matches!(s.resurface(Target::id(a)), Err(Error::Purged(_))));
    assert!(matches!(s.pin(Target::id(a)), Err(Error::Purged(_))));

    let report = s.verify_log(None).unwrap();
    assert!(report.events >= 7);
    s.close().unwrap();
    assert!(matches!(
        s.recall(&RecallQuery::new("x")),
        Err(Error::Closed)
    ));

    // Reopen: everything is there without a rebuild.
    let s = Store::open(&t.path).unwrap();
    let hits = s.recall(&RecallQuery::new("Ben door code")).unwrap();
    assert!(hits[0].row.text.as_deref().unwrap().contains("1234"));
    s.verify_log(None).unwrap();
}

#[test]
fn keys_are_unique_among_live_rows_and_upsert_supersedes() {
    let t = temp();
    let s = Store::create(&t.path).unwrap();
    let a = s
        .inscribe(Inscription::new("wifi password is hunter2").key("wifi"))
        .unwrap();
    let err = s
        .inscribe(Inscription::new("wifi password is other").key("wifi"))
        .unwrap_err();
    assert!(matches!(err, Error::DuplicateKey { holder, .. } if holder == a));
    let b = s
        .upsert(Inscription::new("wifi password is correct-horse").key("wifi"))
        .unwrap();
    assert_ne!(a, b);
    assert_eq!(s.get_by_key("default", "wifi").unwrap().id, b);
    assert_eq!(s.get(a).unwrap().depth.state(), DepthState::Submerged);
    // Releasing frees the key; resurfacing the old row would now clash.
    s.release(Target::key("default", "wifi")).unwrap();
    assert!(matches!(
        s.get_by_key("default", "wifi"),
        Err(Error::UnknownKey { .. })
    ));
    s.resurface(Target::id(b)).unwrap();
    assert!(matches!(
        s.resurface(Target::id(a)),
        Err(Error::DuplicateKey { .. })
    ));
    // A failed call changed nothing.
    assert_eq!(s.get(a).unwrap().depth.state(), DepthState::Submerged);
}

#[test]
fn list_filters_and_pages_in_id_order() {
    let t = temp();
    let s = Store::create(&t.path).unwrap();
    let mut ids = Vec::new();
    for i in 0..10 {
        let cat = if i % 2 == 0 { "todo" } else { "expense" };
        ids.push(
            s.inscribe(
                Inscription::new(format!("item number {i}"))
                    .namespace("u1")
                    .meta("category", cat),
            )
            .unwrap(),
        );
    }
    s.inscribe(Inscription::new("other namespace").namespace("u2"))
        .unwrap();
    s.release(Target::id(ids[2])).unwrap();
    let todos = s
        .list(
            &ListQuery::default()
                .namespace("u1")
                .filter("category", "todo"),
        )
        .unwrap();
    let got: Vec<u64> = todos.iter().map(|r| r.id).collect();
    assert_eq!(got, vec![ids[0], ids[4], ids[6], ids[8]]);
    assert!(todos.iter().all(|r| r.text.is_some()));
    let page = s
        .list(&ListQuery {
            namespace: Some("u1".into()),
            after: Some(ids[4]),
            limit: Some(2),
            ..Default::default()
        })
        .unwrap();
    assert_eq!(
        page.iter().map(|r| r.id).collect::<Vec<_>>(),
        vec![ids[5], ids[6]]
    );
    // Recall honours metadata filters too.
    let hits = s
        .recall(&RecallQuery::new("item number").filter("category", "expense"))
        .unwrap();
    assert!(!hits.is_empty());
    assert!(hits.iter().all(|h| h.row.metadata["category"] == "expense"));
}

#[test]
fn expired_rows_leave_recall_and_sweep_logs_them() {
    let t = temp();
    let (s, clock) = create_fixed(&t);
    let now = clock.now_ms();
    let id = s
        .inscribe(Inscription::new("dentist appointment on friday").valid_until(now + 1000))
        .unwrap();
    assert_eq!(
        s.recall(&RecallQuery::new("dentist")).unwrap()[0].row.id,
        id
    );
    clock.advance(1000);
    assert!(s.recall(&RecallQuery::new("dentist")).unwrap().is_empty());
    assert_eq!(
        s.recall(&RecallQuery::new("dentist").include_expired(true))
            .unwrap()
            .len(),
        1
    );
    let r = s.sweep().unwrap();
    assert_eq!(r.expired, vec![id]);
    assert_eq!(s.get(id).unwrap().depth.state(), DepthState::Submerged);
}

#[test]
fn decay_sinks_rows_and_weighs_recall() {
    let t = temp();
    let (s, clock) = create_fixed(&t);
    s.set_decay_policy(
        "chat",
        Some(oubli::DecayPolicy {
            half_life_ms: Some(1000),
            ..Default::default()
        }),
    )
    .unwrap();
    let old = s
        .inscribe(Inscription::new("the user mentioned a trip to Lisbon").namespace("chat"))
        .unwrap();
    let pinned = s
        .inscribe(Inscription::new("the user is allergic to peanuts").namespace("chat"))
        .unwrap();
    s.pin(Target::id(pinned)).unwrap();
    clock.advance(1000);
    let r = s.sweep().unwrap();
    assert_eq!(r.decayed, vec![old]);
    assert_eq!(s.get(old).unwrap().depth.as_f64(), 0.5);
    assert_eq!(s.get(pinned).unwrap().depth.state(), DepthState::Pinned);
    let hits = s.recall(&RecallQuery::new("trip to Lisbon")).unwrap();
    let hit = hits.iter().find(|h| h.row.id == old).unwrap();
    assert_eq!(hit.explain.depth_weight, 0.5);
    assert_eq!(hit.score, hit.explain.relevance * 0.5);
    clock.advance(10_000);
    s.sweep().unwrap();
    assert_eq!(s.get(old).unwrap().depth.state(), DepthState::Submerged);
    assert!(
        s.recall(&RecallQuery::new("Lisbon"))
            .unwrap()
            .iter()
            .all(|h| h.row.id != old)
    );
}

#[test]
fn as_of_sees_the_past_minus_purges() {
    let t = temp();
    let s = Store::create(&t.path).unwrap();
    s.inscribe(Inscription::new("Carla works at Initech"))
        .unwrap();
    let (seq_before, _) = s.head().unwrap();
    s.supersede(
        Target::query("Carla works at"),
        Inscription::new("Carla works at Globex"),
    )
    .unwrap();
    let past = texts(
        &s.recall(&RecallQuery::new("where does Carla work").as_of(AsOf::Seq(seq_before)))
            .unwrap(),
    );
    assert_eq!(past, vec!["Carla works at Initech".to_string()]);
    let now = texts(
        &s.recall(&RecallQuery::new("where does Carla work"))
            .unwrap(),
    );
    assert_eq!(now, vec!["Carla works at Globex".to_string()]);
    s.purge(Target::query("Carla Initech")).unwrap();
    let past = s
        .recall(&RecallQuery::new("Carla").as_of(AsOf::Seq(seq_before)))
        .unwrap();
    assert!(
        past.is_empty(),
        "purged rows must not come back in the past"
    );
    assert!(matches!(
        s.recall(&RecallQuery::new("Carla").as_of(AsOf::Seq(10_000))),
        Err(Error::InvalidArgument(_))
    ));
}

#[test]
fn purge_cascades_to_derived_rows() {
    let t = temp();
    let s = Store::create(&t.path).unwrap();
    let src = s
        .inscribe(Inscription::new("Dmitri's salary is 91000 EUR"))
        .unwrap();
    let other = s
        .inscribe(Inscription::new("Team budget is 400000 EUR"))
        .unwrap();
    let derived = s
        .inscribe(
            Inscription::new("Payroll share above average")
                .kind(Kind::Derived)
                .derived_from([src, other]),
        )
        .unwrap();
    let r = s.purge(Target::id(src)).unwrap();
    assert_eq!(r.targeted, vec![src]);
    assert_eq!(r.cascade.len(), 1);
    assert_eq!(
        (
            r.cascade[0].row,
            r.cascade[0].via.as_str(),
            r.cascade[0].from
        ),
        (derived, "derived", src)
    );
    assert_eq!(s.get(other).unwrap().depth.state(), DepthState::Surface);
    assert!(matches!(
        s.inscribe(Inscription::new("x").derived_from([src])),
        Err(Error::Purged(_))
    ));
}

#[test]
fn read_only_handles_reject_writes_and_writers_exclude_each_other() {
    let t = temp();
    let s = Store::create(&t.path).unwrap();
    s.inscribe(Inscription::new("something to read")).unwrap();
    assert!(matches!(Store::open(&t.path), Err(Error::Locked(_))));
    drop(s);
    let ro = Store::open_with(&t.path, StoreOptions::default().read_only(true)).unwrap();
    let ro2 = Store::open_with(&t.path, StoreOptions::default().read_only(true)).unwrap();
    assert_eq!(ro.recall(&RecallQuery::new("read")).unwrap().len(), 1);
    assert_eq!(ro2.recall(&RecallQuery::new("read")).unwrap().len(), 1);
    assert!(matches!(
        ro.inscribe(Inscription::new("nope")),
        Err(Error::ReadOnly)
    ));
    ro.verify_log(None).unwrap();
}

#[test]
fn non_durable_commits_survive_a_clean_close() {
    let t = temp();
    let s = Store::create_with(&t.path, StoreOptions::default().durable(false)).unwrap();
    for i in 0..20 {
        s.inscribe(Inscription::new(format!("scratch memory {i}")))
            .unwrap();
    }
    s.purge(Target::query("scratch memory 7")).unwrap();
    drop(s);
    let s = Store::open(&t.path).unwrap();
    assert_eq!(s.list(&ListQuery::default()).unwrap().len(), 19);
    s.verify_log(None).unwrap();
    assert_eq!(
        s.recall(&RecallQuery::new("scratch memory 3")).unwrap()[0]
            .row
            .text
            .as_deref(),
        Some("scratch memory 3")
    );
}

/// Time travel reads at several points, interleaved with writes, answer what a fresh handle (which
/// has folded nothing yet) answers at the same points: the fold a time-travel read keeps for the
/// next one never outlives the head it was read under.
#[test]
fn as_of_reads_between_writes_match_a_fresh_handle() {
    let t = temp();
    let s = Store::create(&t.path).unwrap();
    s.inscribe(Inscription::new("Carla works at Initech"))
        .unwrap();
    let (a, _) = s.head().unwrap();
    s.supersede(
        Target::query("Carla works at"),
        Inscription::new("Carla works at Globex"),
    )
    .unwrap();
    let (b, _) = s.head().unwrap();
    let at = |s: &Store, seq: u64| {
        texts(
            &s.recall(&RecallQuery::new("where does Carla work").as_of(AsOf::Seq(seq)))
                .unwrap(),
        )
    };
    assert_eq!(at(&s, a), vec!["Carla works at Initech".to_string()]);
    assert_eq!(at(&s, b), vec!["Carla works at Globex".to_string()]);
    // Same point twice, then a write, then the same point and a new one.
    assert_eq!(at(&s, b), vec!["Carla works at Globex".to_string()]);
    s.supersede(
        Target::query("Carla works at Globex"),
        Inscription::new("Carla works at Umbrella"),
    )
    .unwrap();
    let (c, _) = s.head().unwrap();
    assert_eq!(at(&s, b), vec!["Carla works at Globex".to_string()]);
    assert_eq!(at(&s, c), vec!["Carla works at Umbrella".to_string()]);
    assert_eq!(at(&s, a), vec!["Carla works at Initech".to_string()]);
    let answers: Vec<_> = [a, b, c].iter().map(|&q| at(&s, q)).collect();
    drop(s);
    let fresh = Store::open(&t.path).unwrap();
    let again: Vec<_> = [a, b, c].iter().map(|&q| at(&fresh, q)).collect();
    assert_eq!(again, answers);
}
