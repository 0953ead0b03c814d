//! `forget_user`: one call erases every row of one user across the user's namespaces, with one
//! receipt that verifies offline; no other user's row is ever touched.

use crate::common;

use common::*;
use oubli::audit::store_check::check_store;
use oubli::audit::{Coverage, Opening, SignedReceipt};
use oubli::namespace::{join, user_namespace};
use oubli::{AliasKind, Error, Inscription, Kind, Store, StoreOptions};
use proptest::prelude::*;

/// Ana's rows in three namespaces, Bob's, a near-namesake user's, a user whose id contains a
/// colon, and shared rows.
fn two_users(s: &Store) -> (Vec<u64>, Vec<u64>) {
    let mut ana = Vec::new();
    let mut others = Vec::new();
    let mut add = |ns: &str, text: &str, mine: bool| {
        let id = s.inscribe(Inscription::new(text).namespace(ns)).unwrap();
        if mine { ana.push(id) } else { others.push(id) }
    };
    add("user:ana", "Ana's door code is QZX-4417", true);
    add(
        "user:ana:notes",
        "Ana prefers green tea in the morning",
        true,
    );
    add(
        &join(&["user", "ana", "agent", "planner"]).unwrap(),
        "Ana's flight lands at 9",
        true,
    );
    add("user:bob", "Bob's door code is QZX-9051", false);
    add("user:bob:notes", "Bob prefers green tea too", false);
    add("user:anastasia", "Anastasia's locker is 12", false);
    add(&user_namespace("ana:x").unwrap(), "Ana X keeps bees", false);
    add("team:support", "The support rota changes on Monday", false);
    add(
        "default",
        "Ana's door code is mentioned in the handbook",
        false,
    );
    (ana, others)
}

#[test]
fn forget_user_erases_one_user_across_namespaces_with_one_verifiable_receipt() {
    let t = temp();
    let (s, _) = create_fixed(&t);
    let (ana, others) = two_users(&s);
    // Supersede one of Ana's rows: the old version is hers too.
    let sup = s
        .supersede(
            oubli::Target::query_in("user:ana", "Ana's door code"),
            Inscription::new("Ana's door code is QZX-7788").namespace("user:ana"),
        )
        .unwrap();
    let receipts_before = s.receipts().unwrap().len();
    let plan = s.plan_forget_user("ana").unwrap();
    let r = s.forget_user("ana").unwrap();
    let mut expected: Vec<u64> = ana.iter().copied().chain([sup.new_id]).collect();
    expected.sort_unstable();
    assert_eq!(r.erased, expected);
    assert_eq!(
        plan, expected,
        "the dry run names exactly what the purge erases"
    );
    assert_eq!(
        s.receipts().unwrap().len(),
        receipts_before + 1,
        "one receipt"
    );
    for id in &others {
        let row = s.get(*id).unwrap();
        assert!(
            row.text.is_some(),
            "row {id} of {} was touched",
            row.namespace
        );
    }
    for id in &expected {
        assert!(s.get(*id).unwrap().depth.is_void());
    }

    // The receipt verifies offline against the key, the opening and the file.
    let pk = s.public_key().unwrap();
    let doc = r.receipt.to_document().unwrap();
    let receipt = SignedReceipt::verify_document(&doc, Some(&pk)).unwrap();
    assert_eq!(receipt.body.erased.len(), expected.len());
    let opening = Opening::parse(&r.opening.to_document().unwrap()).unwrap();
    receipt.check_opening(&opening).unwrap();
    assert_eq!(opening.selector, "user:ana");
    assert_eq!(
        receipt
            .covers(&opening, "Ana prefers green tea in the morning")
            .unwrap(),
        Coverage::FullText(ana[1])
    );
    let text = String::from_utf8(doc.clone()).unwrap();
    assert!(!text.contains("QZX") && !text.contains("green tea"));
    drop(s);
    let needles: Vec<String> = ["QZX-4417", "QZX-7788", "prefers green tea in the morning"]
        .map(String::from)
        .to_vec();
    check_store(&t.path, &receipt, &doc, &needles).unwrap();
    for n in &needles {
        assert!(
            !file_contains(&t.path, n.as_bytes()),
            "{n} left in the file"
        );
    }
    assert!(
        file_contains(&t.path, b"QZX-9051"),
        "Bob's row must survive"
    );
}

#[test]
fn a_user_with_no_rows_is_a_no_match_and_changes_nothing() {
    let t = temp();
    let (s, _) = create_fixed(&t);
    two_users(&s);
    let head = s.head().unwrap();
    for user in ["carol", "an", "user"] {
        match s.forget_user(user) {
            Err(Error::NoMatch(_)) => {}
            other => panic!("forget_user({user:?}) gave {other:?}"),
        }
        assert!(matches!(s.plan_forget_user(user), Err(Error::NoMatch(_))));
    }
    assert!(matches!(s.forget_user(""), Err(Error::InvalidArgument(_))));
    assert_eq!(s.head().unwrap(), head, "a no-match wrote an event");
    assert!(s.receipts().unwrap().is_empty());
    // After forgetting Ana, forgetting her again is a no-match too, not an empty receipt.
    s.forget_user("ana").unwrap();
    assert!(matches!(s.forget_user("ana"), Err(Error::NoMatch(_))));
}

#[test]
fn identifiers_of_the_users_aliases_are_erased_in_shared_namespaces_names_are_not() {
    let t = temp();
    let (s, _) = create_fixed(&t);
    s.inscribe(Inscription::new("Ana Lopez lives in Lyon").namespace("user:ana"))
        .unwrap();
    s.declare_alias(
        "user:ana",
        AliasKind::Person,
        &["Ana Lopez", "ana.lopez@example.com"],
    )
    .unwrap();
    s.declare_alias("user:bob", AliasKind::Person, &["bob@example.com"])
        .unwrap();
    let shared = s
        .inscribe(
            Inscription::new("Ticket opened by ana.lopez@example.com about billing")
                .namespace("crm"),
        )
        .unwrap();
    let namesake = s
        .inscribe(
            Inscription::new("Ana Lopez from accounting approved the budget").namespace("crm"),
        )
        .unwrap();
    let near = s
        .inscribe(
            Inscription::new("Ticket opened by anna.lopez@example.com about login")
                .namespace("crm"),
        )
        .unwrap();
    let bobs = s
        .inscribe(
            Inscription::new("bob@example.com wrote to ana.lopez@example.com")
                .namespace("user:bob"),
        )
        .unwrap();
    let r = s.forget_user("ana").unwrap();
    assert_eq!(r.erased, vec![1, shared]);
    assert!(
        s.get(namesake).unwrap().text.is_some(),
        "a name may be someone else's"
    );
    assert!(s.get(near).unwrap().text.is_some(), "another address");
    assert!(s.get(bobs).unwrap().text.is_some(), "another user's row");
    assert!(
        s.aliases(Some("user:ana")).unwrap().is_empty(),
        "her alias group is erased"
    );
    assert_eq!(s.aliases(Some("user:bob")).unwrap().len(), 1);
    // The receipt covers the shared row and commits to the erased alias forms.
    let opening = &r.opening;
    assert_eq!(
        r.receipt.covers(opening, "ana.lopez@example.com").unwrap(),
        Coverage::Fragments(shared)
    );
    for form in ["Ana Lopez", "ana.lopez@example.com"] {
        let c = oubli::audit::commitment::content(&opening.selector_salt, form);
        assert!(r.receipt.body.alias_commitments.contains(&c), "{form}");
    }
}

#[test]
fn the_closure_never_reaches_into_another_users_namespace() {
    let t = temp();
    let (s, _) = create_fixed(&t);
    let a = s
        .inscribe(Inscription::new("Ana ran 10 km on Sunday").namespace("user:ana"))
        .unwrap();
    let shared_note = s
        .inscribe(
            Inscription::new("Weekly total: 10 km")
                .namespace("team:fitness")
                .kind(Kind::Derived)
                .derived_from([a]),
        )
        .unwrap();
    let bobs = s
        .inscribe(
            Inscription::new("Bob ran as far as Ana did: 10 km")
                .namespace("user:bob")
                .kind(Kind::Derived)
                .derived_from([a]),
        )
        .unwrap();
    let r = s.forget_user("ana").unwrap();
    assert_eq!(
        r.erased,
        vec![a, shared_note],
        "derived rows go with the source"
    );
    assert!(s.get(bobs).unwrap().text.is_some());
}

#[test]
fn the_cli_verb_writes_a_receipt_that_verifies_against_the_file() {
    let t = temp();
    let path = t.path.to_str().unwrap();
    {
        let s = Store::create(&t.path).unwrap();
        two_users(&s);
    }
    let rpath = t.dir.path().join("r.json");
    let opath = t.dir.path().join("o.json");
    let dry = ok(&["forget-user", path, "ana", "--dry-run", "--json"]);
    let dry: serde_json::Value = serde_json::from_str(&dry).unwrap();
    assert_eq!(dry["rows"], serde_json::json!([1, 2, 3]));
    let out = ok(&[
        "--json",
        "forget-user",
        path,
        "ana",
        "--receipt-out",
        rpath.to_str().unwrap(),
        "--opening-out",
        opath.to_str().unwrap(),
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["erased"], serde_json::json!([1, 2, 3]));
    let doc = std::fs::read(&rpath).unwrap();
    let receipt = SignedReceipt::verify_document(&doc, None).unwrap();
    let opening = Opening::parse(&std::fs::read(&opath).unwrap()).unwrap();
    receipt.check_opening(&opening).unwrap();
    check_store(&t.path, &receipt, &doc, &["QZX-4417".into()]).unwrap();
    let out = oubli(&["forget-user", path, "carol"]);
    assert!(!out.status.success());
    let s = Store::open_with(&t.path, StoreOptions::default().read_only(true)).unwrap();
    assert_eq!(s.receipts().unwrap().len(), 1);
}

/// Users, some with colliding prefixes or escaped characters.
const USERS: [&str; 5] = ["ana", "bob", "anastasia", "ana:x", "a\\b"];

fn layout() -> impl Strategy<Value = Vec<(usize, u8)>> {
    // (user index, where: 0 own namespace, 1 a sub-namespace, 2 shared, 3 a look-alike string)
    prop::collection::vec((0..USERS.len(), 0u8..4), 1..14)
}

fn namespace_of(user: &str, at: u8, i: usize) -> String {
    match at {
        0 => user_namespace(user).unwrap(),
        1 => join(&["user", user, "run", &i.to_string()]).unwrap(),
        2 => format!("shared:{i}"),
        // The user id written unescaped after a prefix that is not `user`.
        _ => format!("users:{user}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// Whatever the layout, forgetting one user erases exactly that user's namespaces' rows:
    /// every other row keeps its text.
    #[test]
    fn other_users_rows_always_survive(rows in layout(), victim in 0..USERS.len()) {
        let t = temp();
        let s = Store::create(&t.path).unwrap();
        let mut placed = Vec::new();
        for (i, (u, at)) in rows.iter().enumerate() {
            let ns = namespace_of(USERS[*u], *at, i);
            let id = s
                .inscribe(Inscription::new(format!("memory {i} of someone")).namespace(ns.clone()))
                .unwrap();
            placed.push((id, *u == victim && *at <= 1));
        }
        let victim = USERS[victim];
        let any = placed.iter().any(|(_, mine)| *mine);
        match s.forget_user(victim) {
            Ok(r) => {
                prop_assert!(any);
                let mut mine: Vec<u64> =
                    placed.iter().filter(|(_, m)| *m).map(|(id, _)| *id).collect();
                mine.sort_unstable();
                prop_assert_eq!(r.erased, mine);
            }
            Err(Error::NoMatch(_)) => prop_assert!(!any),
            Err(e) => return Err(TestCaseError::fail(format!("{e}"))),
        }
        for (id, mine) in placed {
            let row = s.get(id).unwrap();
            prop_assert_eq!(row.depth.is_void(), mine, "row {} in {}", id, row.namespace);
        }
    }
}
