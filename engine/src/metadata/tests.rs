//! Tests of metadata values and filters.

use std::cmp::Ordering;

use super::*;
use crate::error::Error;
use proptest::prelude::*;

fn meta(pairs: &[(&str, MetaValue)]) -> Metadata {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), v.clone()))
        .collect()
}

fn holds(op: Op, v: Option<MetaValue>) -> bool {
    let m = match v {
        Some(v) => meta(&[("f", v)]),
        None => Metadata::new(),
    };
    Condition::new("f", op).holds(&m)
}

#[test]
fn equality_is_typed_and_numbers_compare_numerically() {
    assert!(holds(Op::Eq("a".into()), Some("a".into())));
    assert!(!holds(Op::Eq("3".into()), Some(3.into())));
    assert!(!holds(Op::Eq(Scalar::Int(1)), Some(true.into())));
    assert!(!holds(Op::Eq(Scalar::Bool(true)), Some(1.into())));
    assert!(holds(Op::Eq(Scalar::Float(1.0)), Some(1.into())));
    assert!(holds(Op::Eq(Scalar::Int(1)), Some(1.0.into())));
    assert!(!holds(Op::Eq(Scalar::Float(1.5)), Some(1.into())));
    assert!(!holds(Op::Eq("a".into()), None));
    assert!(holds(Op::Ne("a".into()), None));
    assert!(holds(Op::Ne("a".into()), Some("b".into())));
}

#[test]
fn lists_match_by_membership() {
    let tags = || Some(MetaValue::from(vec!["a", "b"]));
    assert!(holds(Op::Eq("a".into()), tags()));
    assert!(!holds(Op::Eq("c".into()), tags()));
    assert!(!holds(Op::Ne("a".into()), tags()));
    assert!(holds(Op::Ne("c".into()), tags()));
    assert!(holds(Op::In(vec!["x".into(), "b".into()]), tags()));
    assert!(!holds(Op::In(vec![]), tags()));
    assert!(holds(Op::Gte("b".into()), tags()));
    assert!(!holds(Op::Gt("b".into()), tags()));
    let empty = || Some(MetaValue::List(vec![]));
    assert!(holds(Op::Exists, empty()));
    assert!(!holds(Op::Eq("a".into()), empty()));
    assert!(holds(Op::Missing, None));
    assert!(!holds(Op::Missing, empty()));
}

#[test]
fn ranges_order_numbers_and_strings_but_never_across() {
    assert!(holds(Op::Gte(Scalar::Int(2)), Some(2.5.into())));
    assert!(holds(Op::Lt(Scalar::Float(2.5)), Some(2.into())));
    assert!(holds(Op::Lt("b".into()), Some("abc".into())));
    assert!(holds(Op::Gt("Z".into()), Some("a".into())), "byte order");
    assert!(!holds(Op::Gt(Scalar::Int(0)), Some("5".into())));
    assert!(!holds(Op::Lt("9".into()), Some(5.into())));
    assert!(!holds(Op::Gt(Scalar::Int(0)), None));
    // Exact at the edges of f64 precision: 2^53 + 1 is above the float 2^53.
    let big = (1i64 << 53) + 1;
    assert!(holds(
        Op::Gt(Scalar::Float((1u64 << 53) as f64)),
        Some(big.into())
    ));
    assert!(holds(Op::Lt(Scalar::Float(9.3e18)), Some(i64::MAX.into())));
    assert!(holds(Op::Gt(Scalar::Float(-9.3e18)), Some(i64::MIN.into())));
    assert!(!holds(
        Op::Gte(Scalar::Float(9.3e18)),
        Some(i64::MAX.into())
    ));
    assert!(holds(Op::Lt(Scalar::Float(1e300)), Some(i64::MAX.into())));
}

#[test]
fn validation_refuses_what_cannot_be_stored_or_compared() {
    assert!(MetaValue::Float(f64::NAN).validate().is_err());
    assert!(MetaValue::Float(f64::INFINITY).validate().is_err());
    assert!(MetaValue::from("x".repeat(513)).validate().is_err());
    assert!(
        MetaValue::List(vec![Scalar::Int(1); MAX_LIST_ITEMS + 1])
            .validate()
            .is_err()
    );
    assert!(
        MetaValue::List(vec![Scalar::Int(1); MAX_LIST_ITEMS])
            .validate()
            .is_ok()
    );
    assert!(
        MetaValue::List(vec![Scalar::Float(f64::NAN)])
            .validate()
            .is_err()
    );
    let c = |op| Filter::new().and(Condition::new("f", op)).validate();
    assert!(matches!(
        c(Op::Gt(Scalar::Bool(true))),
        Err(Error::InvalidArgument(_))
    ));
    assert!(c(Op::Eq(Scalar::Float(f64::NAN))).is_err());
    assert!(c(Op::In(vec![Scalar::Int(0); MAX_IN_VALUES + 1])).is_err());
    assert!(Filter::new().eq("", "x").validate().is_err());
    let many = Filter {
        conditions: vec![Condition::new("f", Op::Exists); MAX_FILTER_CONDITIONS + 1],
    };
    assert!(many.validate().is_err());
}

#[test]
fn json_filters_read_every_operator() {
    let f = Filter::from_json(&serde_json::json!({
        "team": "x",
        "priority": {"$gte": 2, "$lt": 5},
        "tags": {"$in": ["a", 1]},
        "archived": {"$exists": false},
        "done": {"$ne": true},
    }))
    .unwrap();
    assert_eq!(f.conditions.len(), 6);
    let m = meta(&[
        ("team", "x".into()),
        ("priority", 3.into()),
        ("tags", vec![Scalar::Int(1)].into()),
    ]);
    assert!(f.matches(&m));
    for bad in [
        serde_json::json!([1]),
        serde_json::json!({"x": {"$near": 1}}),
        serde_json::json!({"x": {}}),
        serde_json::json!({"x": {"$in": 1}}),
        serde_json::json!({"x": {"$exists": 1}}),
        serde_json::json!({"x": null}),
        serde_json::json!({"x": [1, 2]}),
        serde_json::json!({"x": {"$gt": true}}),
        serde_json::json!({"x": 18446744073709551615u64}),
    ] {
        assert!(
            matches!(Filter::from_json(&bad), Err(Error::InvalidArgument(_))),
            "{bad}"
        );
    }
}

#[test]
fn json_shows_plain_values_and_postcard_tags_them() {
    let m = meta(&[
        ("a", "x".into()),
        ("b", 3.into()),
        ("c", 0.5.into()),
        ("d", true.into()),
        ("e", vec![Scalar::Str("y".into()), Scalar::Int(2)].into()),
    ]);
    let json = serde_json::to_value(&m).unwrap();
    assert_eq!(
        json,
        serde_json::json!({"a": "x", "b": 3, "c": 0.5, "d": true, "e": ["y", 2]})
    );
    assert_eq!(serde_json::from_value::<Metadata>(json.clone()).unwrap(), m);
    assert_eq!(metadata_from_json(&json).unwrap(), m);
    assert_eq!(metadata_to_json(&m), json);
    let bytes = postcard::to_allocvec(&m).unwrap();
    assert_eq!(postcard::from_bytes::<Metadata>(&bytes).unwrap(), m);
    // An integer and a float of the same value stay apart.
    assert_ne!(
        postcard::to_allocvec(&MetaValue::Int(1)).unwrap(),
        postcard::to_allocvec(&MetaValue::Float(1.0)).unwrap()
    );
    for bad in [
        serde_json::json!([[1]]),
        serde_json::json!(null),
        serde_json::json!({"a": 1}),
    ] {
        assert!(
            serde_json::from_value::<MetaValue>(bad.clone()).is_err(),
            "{bad}"
        );
        assert!(MetaValue::from_json(&bad).is_err(), "{bad}");
    }
}

fn scalar() -> impl Strategy<Value = Scalar> {
    prop_oneof![
        "[a-c]{0,2}".prop_map(Scalar::Str),
        (-3i64..3).prop_map(Scalar::Int),
        (-3i64..3).prop_map(|i| Scalar::Float(i as f64 / 2.0)),
        any::<bool>().prop_map(Scalar::Bool),
    ]
}

fn value() -> impl Strategy<Value = MetaValue> {
    prop_oneof![
        3 => scalar().prop_map(MetaValue::from),
        1 => proptest::collection::vec(scalar(), 0..4).prop_map(MetaValue::List),
    ]
}

proptest! {
    #[test]
    fn operators_agree_with_their_definitions(
        v in proptest::option::of(value()),
        x in scalar(),
        set in proptest::collection::vec(scalar(), 0..4),
    ) {
        let items = v.as_ref().map(MetaValue::items).unwrap_or_default();
        let eq = holds(Op::Eq(x.clone()), v.clone());
        prop_assert_eq!(eq, items.iter().any(|i| i.matches(&x)));
        prop_assert_eq!(holds(Op::Ne(x.clone()), v.clone()), !eq);
        prop_assert_eq!(
            holds(Op::In(set.clone()), v.clone()),
            set.iter().any(|s| holds(Op::Eq(s.clone()), v.clone()))
        );
        prop_assert_eq!(holds(Op::Exists, v.clone()), v.is_some());
        prop_assert_eq!(holds(Op::Missing, v.clone()), v.is_none());
        if !matches!(x, Scalar::Bool(_)) {
            let ge = holds(Op::Gte(x.clone()), v.clone());
            let gt = holds(Op::Gt(x.clone()), v.clone());
            let le = holds(Op::Lte(x.clone()), v.clone());
            let lt = holds(Op::Lt(x.clone()), v.clone());
            // On one scalar, >= is > or ==, and exactly one of <, ==, > holds when the
            // types compare at all.
            if let Some(MetaValue::List(_)) = v {
            } else if let Some(i) = items.first() {
                match i.compare(&x) {
                    Some(o) => {
                        prop_assert_eq!(ge, o.is_ge());
                        prop_assert_eq!(gt, o.is_gt());
                        prop_assert_eq!(le, o.is_le());
                        prop_assert_eq!(lt, o.is_lt());
                        prop_assert_eq!(ge && le, eq);
                    }
                    None => prop_assert!(!(ge || gt || le || lt)),
                }
            }
        }
    }

    #[test]
    fn int_float_order_matches_exact_arithmetic(i in any::<i64>(), f in any::<f64>()) {
        prop_assume!(f.is_finite());
        // Exact: compare i and f as rationals through i128 when f is integral, else
        // through the floor.
        let expected = if f >= 9.3e18 {
            Ordering::Less
        } else if f <= -9.3e18 {
            Ordering::Greater
        } else {
            let fl = f.floor();
            let fi = fl as i128;
            match (i as i128).cmp(&fi) {
                Ordering::Equal if f > fl => Ordering::Less,
                o => o,
            }
        };
        prop_assert_eq!(Scalar::Int(i).compare(&Scalar::Float(f)), Some(expected));
        prop_assert_eq!(Scalar::Float(f).compare(&Scalar::Int(i)), Some(expected.reverse()));
    }
}
