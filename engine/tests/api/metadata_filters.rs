//! Typed metadata through the store: values come back with their types, filters are applied
//! inside the engine before `limit` and `k`, bad values and filters are typed errors that
//! write nothing, and list and recall agree with a brute-force model of the filter.

use crate::common;

use common::*;
use oubli::*;
use proptest::prelude::*;

fn tickets(s: &Store) -> Vec<RowId> {
    let rows: Vec<Inscription> = vec![
        Inscription::new("printer ticket one")
            .meta("priority", 3)
            .meta("tags", vec!["ops", "hw"])
            .meta("team", "core"),
        Inscription::new("printer ticket two")
            .meta("priority", 1)
            .meta("tags", vec!["hw"])
            .meta("archived", true),
        Inscription::new("printer ticket three")
            .meta("priority", 2.5)
            .meta("team", "core"),
        Inscription::new("printer ticket four").meta("priority", "high"),
    ];
    rows.into_iter().map(|r| s.inscribe(r).unwrap()).collect()
}

#[test]
fn values_come_back_with_their_types() {
    let t = temp();
    let (s, _) = create_fixed(&t);
    let ids = tickets(&s);
    let r = s.get(ids[0]).unwrap();
    assert_eq!(r.metadata["priority"], MetaValue::Int(3));
    assert_eq!(r.metadata["tags"], MetaValue::from(vec!["ops", "hw"]));
    assert_eq!(
        s.get(ids[2]).unwrap().metadata["priority"],
        MetaValue::Float(2.5)
    );
    assert_eq!(
        s.get(ids[1]).unwrap().metadata["archived"],
        MetaValue::Bool(true)
    );
    s.verify_log(None).unwrap();
}

#[test]
fn list_and_recall_apply_every_operator() {
    let t = temp();
    let (s, _) = create_fixed(&t);
    let ids = tickets(&s);
    let cases: Vec<(Filter, Vec<usize>)> = vec![
        (Filter::new().eq("team", "core"), vec![0, 2]),
        (Filter::new().eq("tags", "hw"), vec![0, 1]),
        (
            Filter::new().and(Condition::new("tags", Op::Ne("hw".into()))),
            vec![2, 3],
        ),
        (
            Filter::new().and(Condition::new("priority", Op::Gte(Scalar::Int(2)))),
            vec![0, 2],
        ),
        (
            Filter::new()
                .and(Condition::new("priority", Op::Gt(Scalar::Int(1))))
                .and(Condition::new("priority", Op::Lt(Scalar::Float(3.0)))),
            vec![2],
        ),
        (
            Filter::new().and(Condition::new("priority", Op::Gte("a".into()))),
            vec![3],
        ),
        (
            Filter::new().and(Condition::new(
                "tags",
                Op::In(vec!["ops".into(), "zzz".into()]),
            )),
            vec![0],
        ),
        (
            Filter::new().and(Condition::new("archived", Op::Exists)),
            vec![1],
        ),
        (
            Filter::new().and(Condition::new("archived", Op::Missing)),
            vec![0, 2, 3],
        ),
        (Filter::new().eq("priority", 3.0), vec![0]),
        (Filter::new().eq("priority", "3"), vec![]),
    ];
    for (f, want) in cases {
        let want: Vec<RowId> = want.iter().map(|i| ids[*i]).collect();
        let q = ListQuery {
            filters: f.clone(),
            ..ListQuery::default()
        };
        let got: Vec<RowId> = s.list(&q).unwrap().iter().map(|r| r.id).collect();
        assert_eq!(got, want, "list {f:?}");
        let mut rq = RecallQuery::new("printer ticket").legs(Legs::Lexical);
        rq.filters = f.clone();
        let mut got: Vec<RowId> = s.recall(&rq).unwrap().iter().map(|h| h.row.id).collect();
        got.sort();
        assert_eq!(got, want, "recall {f:?}");
    }
}

#[test]
fn limit_and_k_count_only_matching_rows() {
    let t = temp();
    let (s, _) = create_fixed(&t);
    let ids: Vec<RowId> = (0..60)
        .map(|i| {
            s.inscribe(Inscription::new(format!("apple note {i}")).meta("i", i as i64))
                .unwrap()
        })
        .collect();
    let q = ListQuery::default()
        .matching(Condition::new("i", Op::Gte(Scalar::Int(50))))
        .matching(Condition::new("i", Op::Ne(Scalar::Int(51))));
    let page = s
        .list(&ListQuery {
            limit: Some(3),
            ..q.clone()
        })
        .unwrap();
    assert_eq!(
        page.iter().map(|r| r.id).collect::<Vec<_>>(),
        vec![ids[50], ids[52], ids[53]]
    );
    // Only 3 rows in 60 match; recall still returns all of them for k = 3.
    let rq = RecallQuery::new("apple note").k(3).matching(Condition::new(
        "i",
        Op::In(vec![Scalar::Int(7), Scalar::Int(33), Scalar::Int(58)]),
    ));
    let mut got: Vec<RowId> = s.recall(&rq).unwrap().iter().map(|h| h.row.id).collect();
    got.sort();
    assert_eq!(got, vec![ids[7], ids[33], ids[58]]);
}

#[test]
fn bad_values_and_filters_are_typed_errors_and_write_nothing() {
    let t = temp();
    let (s, _) = create_fixed(&t);
    let head = s.head().unwrap();
    for bad in [
        Inscription::new("x").meta("f", f64::NAN),
        Inscription::new("x").meta("f", f64::INFINITY),
        Inscription::new("x").meta("f", MetaValue::List(vec![Scalar::Int(1); 65])),
        Inscription::new("x").meta("f", "y".repeat(513)),
        Inscription::new("x").meta("f", vec![Scalar::Float(f64::NEG_INFINITY)]),
    ] {
        assert!(matches!(s.inscribe(bad), Err(Error::InvalidField { .. })));
    }
    assert_eq!(s.head().unwrap(), head);
    let bool_range = ListQuery::default().matching(Condition::new("f", Op::Lt(Scalar::Bool(true))));
    assert!(matches!(
        s.list(&bool_range),
        Err(Error::InvalidArgument(_))
    ));
    let nan = RecallQuery::new("x").matching(Condition::new("f", Op::Eq(Scalar::Float(f64::NAN))));
    assert!(matches!(s.recall(&nan), Err(Error::InvalidField { .. })));
}

fn scalar() -> impl Strategy<Value = Scalar> {
    prop_oneof![
        "[ab]".prop_map(Scalar::Str),
        (0i64..4).prop_map(Scalar::Int),
        (0i64..4).prop_map(|i| Scalar::Float(i as f64 * 0.75)),
        any::<bool>().prop_map(Scalar::Bool),
    ]
}

fn value() -> impl Strategy<Value = MetaValue> {
    prop_oneof![
        3 => scalar().prop_map(MetaValue::from),
        1 => proptest::collection::vec(scalar(), 0..3).prop_map(MetaValue::List),
    ]
}

fn condition() -> impl Strategy<Value = Condition> {
    let field = prop_oneof![Just("p"), Just("q")];
    let op = prop_oneof![
        scalar().prop_map(Op::Eq),
        scalar().prop_map(Op::Ne),
        proptest::collection::vec(scalar(), 0..3).prop_map(Op::In),
        scalar()
            .prop_filter("no bool ranges", |s| !matches!(s, Scalar::Bool(_)))
            .prop_flat_map(|s| prop_oneof![
                Just(Op::Gt(s.clone())),
                Just(Op::Gte(s.clone())),
                Just(Op::Lt(s.clone())),
                Just(Op::Lte(s)),
            ]),
        Just(Op::Exists),
        Just(Op::Missing),
    ];
    (field, op).prop_map(|(f, op)| Condition::new(f, op))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// List with any filter and any limit returns exactly the first matching rows a
    /// brute-force scan finds, and recall returns only matching rows.
    #[test]
    fn list_and_recall_agree_with_a_brute_force_model(
        rows in proptest::collection::vec(
            (proptest::option::of(value()), proptest::option::of(value())), 1..12),
        conds in proptest::collection::vec(condition(), 0..3),
        limit in 1usize..5,
    ) {
        let t = temp();
        let (s, _) = create_fixed(&t);
        let mut stored = Vec::new();
        for (i, (p, q)) in rows.iter().enumerate() {
            let mut ins = Inscription::new(format!("common word row {i}"));
            if let Some(p) = p { ins = ins.meta("p", p.clone()); }
            if let Some(q) = q { ins = ins.meta("q", q.clone()); }
            let id = s.inscribe(ins.clone()).unwrap();
            stored.push((id, ins.metadata));
        }
        let filter = Filter { conditions: conds };
        let model: Vec<RowId> = stored
            .iter()
            .filter(|(_, m)| filter.conditions.iter().all(|c| c.holds(m)))
            .map(|(id, _)| *id)
            .collect();
        let q = ListQuery { filters: filter.clone(), limit: Some(limit), ..ListQuery::default() };
        let got: Vec<RowId> = s.list(&q).unwrap().iter().map(|r| r.id).collect();
        prop_assert_eq!(&got[..], &model[..model.len().min(limit)]);
        let mut rq = RecallQuery::new("common word").k(limit).legs(Legs::Lexical);
        rq.filters = filter;
        let hits = s.recall(&rq).unwrap();
        prop_assert_eq!(hits.len(), model.len().min(limit));
        prop_assert!(hits.iter().all(|h| model.contains(&h.row.id)));
    }
}
