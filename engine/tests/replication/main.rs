//! Replication substrate: a leader's change feed, frames applied on replicas, snapshots, and
//! erasure across every copy (`docs/replication.md`).

#[path = "../common/mod.rs"]
mod common;
mod erasure;

use std::sync::{Arc, Mutex};

use common::*;
use oubli::replication::{Applied, Change, FeedEntry, Frame, Key, ReplicationError, Table};
use oubli::{
    AliasKind, CompactOptions, CompactScope, DecayPolicy, Derivation, Embedder, Error, Inscription,
    Kind, ManualClock, RecallQuery, StaticEmbedder, Store, StoreOptions, Target,
};
use proptest::prelude::*;

const T0: i64 = 1_763_700_000_000;

fn leader_opts(clock: Arc<ManualClock>) -> StoreOptions {
    fixed(clock).durable(false)
}

fn replica_opts(clock: Arc<ManualClock>) -> StoreOptions {
    fixed(clock).durable(false).replica(true)
}

/// A leader with its feed running, and a fresh replica (same key, empty log).
fn pair(t: &TempStore) -> (Store, Store, Arc<ManualClock>) {
    let clock = Arc::new(ManualClock::new(T0));
    let leader = Store::create_with(&t.path, leader_opts(clock.clone())).unwrap();
    assert_eq!(leader.start_feed().unwrap(), 0);
    let replica = Store::create_with(
        t.dir.path().join("replica.oubli"),
        replica_opts(clock.clone()),
    )
    .unwrap();
    (leader, replica, clock)
}

/// Every verb that writes: keyed, namespaced and typed rows, a bulk batch, supersede by key,
/// release, pin, resurface, aliases, a decay policy and a sweep, derived rows, a compaction note,
/// and a purge.
fn workload(s: &Store, clock: &ManualClock) {
    s.inscribe(
        Inscription::new("Ana's door code is 4417")
            .key("door")
            .namespace("user:ana"),
    )
    .unwrap();
    s.inscribe_batch(
        (0..40)
            .map(|i| {
                let ins = Inscription::new(format!(
                    "memory {i}: {} met {} in {}",
                    ["ana", "bo", "chen"][i % 3],
                    ["paris", "lima"][i % 2],
                    ["march", "july", "june"][i % 3]
                ));
                match i % 4 {
                    0 => ins.key(format!("k{i}")),
                    1 => ins.namespace("user:bo").meta("priority", i as i64),
                    2 => ins.valid_until(T0 + 10_000_000),
                    _ => ins,
                }
            })
            .collect(),
    )
    .unwrap();
    clock.advance(1_000);
    s.supersede(
        Target::key("user:ana", "door"),
        Inscription::new("Ana's door code is 9051")
            .key("door")
            .namespace("user:ana"),
    )
    .unwrap();
    let released = s.release(Target::key("default", "k4")).unwrap();
    s.pin(Target::key("default", "k8")).unwrap();
    s.resurface(Target::id(released[0])).unwrap();
    s.declare_alias(
        "user:ana",
        AliasKind::Person,
        &["Ana Lopez", "ana@example.com"],
    )
    .unwrap();
    s.set_decay_policy(
        "user:bo",
        Some(DecayPolicy {
            half_life_ms: Some(1_000),
            ttl_ms: None,
            floor: 0.05,
        }),
    )
    .unwrap();
    clock.advance(1_500);
    s.sweep().unwrap();
    let a = s
        .inscribe(
            Inscription::new("7 pens at $2 each")
                .namespace("shop")
                .meta("price", "2")
                .meta("qty", "7"),
        )
        .unwrap();
    let b = s
        .inscribe(
            Inscription::new("3 mugs at $4.50 each")
                .namespace("shop")
                .meta("price", "4.50")
                .meta("qty", "3"),
        )
        .unwrap();
    let total = s
        .inscribe_derived(
            Inscription::new("The subtotal is ${value}")
                .namespace("shop")
                .derived_from([a, b]),
            Derivation::sum_of_products(["price", "qty"]),
        )
        .unwrap();
    s.inscribe(
        Inscription::new("Shopping summary: subtotal noted")
            .namespace("shop")
            .kind(Kind::Derived)
            .derived_from([total.id]),
    )
    .unwrap();
    s.supersede(
        Target::id(a),
        Inscription::new("8 pens at $2 each")
            .namespace("shop")
            .meta("price", "2")
            .meta("qty", "8"),
    )
    .unwrap();
    s.compact(
        &CompactScope::namespace("shop"),
        &CompactOptions::new(400).include_derived(true),
    )
    .unwrap();
    clock.advance(1_000);
    s.purge(Target::key("user:ana", "door")).unwrap();
    s.inscribe(Inscription::new("after the purge, Lima in winter"))
        .unwrap();
}

/// Everything a reader of a store gets back: head, every event hash, recall results.
fn observe(s: &Store) -> (u64, Vec<[u8; 32]>, Vec<Vec<String>>) {
    let (head, _) = s.head().unwrap();
    let hashes = s
        .events(1, head)
        .unwrap()
        .iter()
        .map(|e| e.hash())
        .collect();
    let recalls = [
        "door code",
        "paris march",
        "subtotal",
        "Lima winter",
        "pens",
    ]
    .iter()
    .map(|q| texts(&s.recall(&RecallQuery::new(*q).k(10)).unwrap()))
    .collect();
    (head, hashes, recalls)
}

fn apply_all(replica: &Store, entries: &[FeedEntry]) {
    for e in entries {
        let bytes = e.frame.encode();
        assert_eq!(Frame::decode(&bytes).unwrap(), e.frame);
        assert_eq!(
            replica.apply_frame_bytes(&bytes).unwrap(),
            Applied::Applied { seq: e.frame.seq() }
        );
    }
}

#[test]
fn a_replica_that_applies_every_frame_holds_what_the_leader_holds() {
    let t = temp();
    let (leader, replica, clock) = pair(&t);
    let heard: Arc<Mutex<Vec<FeedEntry>>> = Arc::default();
    let sink = heard.clone();
    leader
        .subscribe(Box::new(move |e| sink.lock().unwrap().push(e.clone())))
        .unwrap();
    workload(&leader, &clock);
    let entries = leader.changes_since(0).unwrap();
    // One frame per write transaction, the same through the callback as from the feed.
    assert_eq!(*heard.lock().unwrap(), entries);
    assert!(entries.len() > 10, "{} frames", entries.len());
    let mut at = 0;
    for e in &entries {
        assert_eq!(
            e.frame.events().unwrap()[0].seq,
            at + 1,
            "frames run without gaps"
        );
        at = e.frame.seq();
    }
    assert_eq!(at, leader.head().unwrap().0);
    apply_all(&replica, &entries);
    assert_eq!(
        replica.state_digests().unwrap(),
        leader.state_digests().unwrap()
    );
    assert_eq!(observe(&replica), observe(&leader));
    let pk = leader.public_key().unwrap();
    replica.verify_log(Some(pk)).unwrap();
    replica.verify_file().unwrap();
    for id in 1..=45 {
        assert_eq!(replica.get(id).ok(), leader.get(id).ok(), "row {id}");
    }
    // A replica writes nothing of its own.
    assert!(matches!(
        replica.inscribe(Inscription::new("a replica's own write")),
        Err(Error::Replication(ReplicationError::Replica))
    ));
    // Frames apply only to replicas.
    assert!(matches!(
        leader.apply_frame(&entries[0].frame),
        Err(Error::Replication(ReplicationError::NotReplica))
    ));
    // Trimmed frames are no longer served; later ones are.
    leader.trim_feed(entries[3].frame.seq()).unwrap();
    assert!(matches!(
        leader.changes_since(0),
        Err(Error::Replication(ReplicationError::NotRetained { .. }))
    ));
    assert_eq!(
        leader.changes_since(entries[3].frame.seq()).unwrap(),
        entries[4..]
    );
}

#[test]
fn the_same_writes_give_the_same_frames() {
    let frames = || {
        let t = temp();
        let (leader, _replica, clock) = pair(&t);
        workload(&leader, &clock);
        leader
            .changes_since(0)
            .unwrap()
            .iter()
            .map(|e| e.frame.encode())
            .collect::<Vec<_>>()
    };
    assert_eq!(frames(), frames());
}

/// The state a refused frame must leave untouched.
fn state(s: &Store) -> (u64, std::collections::BTreeMap<String, [u8; 32]>) {
    (s.head().unwrap().0, s.state_digests().unwrap())
}

#[test]
fn bad_frames_are_typed_errors_that_change_nothing() {
    let t = temp();
    let (leader, replica, clock) = pair(&t);
    workload(&leader, &clock);
    let entries = leader.changes_since(0).unwrap();
    apply_all(&replica, &entries[..3]);
    let before = state(&replica);
    let refuse = |bytes: &[u8]| {
        let r = replica.apply_frame_bytes(bytes);
        assert!(matches!(r, Err(Error::Replication(_))), "{r:?}");
        assert_eq!(state(&replica), before);
        r
    };
    // A gap.
    assert!(matches!(
        refuse(&entries[4].frame.encode()),
        Err(Error::Replication(ReplicationError::Gap { .. }))
    ));
    // A duplicate is idempotent; an earlier frame that differs diverges.
    assert_eq!(
        replica.apply_frame(&entries[1].frame).unwrap(),
        Applied::Duplicate {
            seq: entries[1].frame.seq()
        }
    );
    assert_eq!(state(&replica), before);
    // Every byte flipped, every truncation: refused.
    let good = entries[3].frame.encode();
    for i in (0..good.len()).step_by(7) {
        let mut bad = good.clone();
        bad[i] ^= 0x20;
        let _ = refuse(&bad);
    }
    for n in (0..good.len()).step_by(11) {
        let _ = refuse(&good[..n]);
    }
    let _ = refuse(&[good.as_slice(), b"x"].concat());
    // Another store's frame.
    let other_t = temp();
    let other = Store::create_with(
        &other_t.path,
        StoreOptions::default()
            .clock(clock.clone())
            .deterministic_seed([42; 32])
            .signing_key([8; 32]),
    )
    .unwrap();
    other.start_feed().unwrap();
    for i in 0..4 {
        other
            .inscribe(Inscription::new(format!("other {i}")))
            .unwrap();
    }
    let foreign = other.changes_since(0).unwrap();
    assert!(matches!(
        refuse(&foreign[3].frame.encode()),
        Err(Error::Replication(ReplicationError::ForeignKey))
    ));
    // A frame from a store with the same key but another history diverges.
    let fork_t = temp();
    let fork = Store::create_with(&fork_t.path, leader_opts(clock.clone())).unwrap();
    fork.start_feed().unwrap();
    fork.inscribe_batch(
        (0..before.0)
            .map(|i| Inscription::new(format!("a forked history {i}")))
            .collect(),
    )
    .unwrap();
    fork.inscribe(Inscription::new("the fork goes on")).unwrap();
    let forked = fork.changes_since(0).unwrap();
    let at = forked
        .iter()
        .find(|e| e.frame.events().unwrap()[0].seq == before.0 + 1)
        .unwrap();
    assert!(matches!(
        refuse(&at.frame.encode()),
        Err(Error::Replication(ReplicationError::Diverged { .. }))
    ));
    // A frame signed with the right key whose row image does not match its event's digest (a
    // leader bug, or a key in the wrong hands): the digest check refuses it.
    let k = (3..entries.len())
        .find(|&k| {
            entries[k]
                .frame
                .changes()
                .iter()
                .any(|c| c.table == Table::Payloads)
        })
        .unwrap();
    apply_all(&replica, &entries[3..k]);
    let before = state(&replica);
    let f = &entries[k].frame;
    let forged_changes: Vec<Change> = f
        .changes()
        .iter()
        .map(|c| match (c.table, &c.value) {
            (Table::Payloads, Some(v)) => {
                let mut v = v.clone();
                let n = v.len();
                v[n - 33] ^= 1; // last byte of the text, before the 32-byte salt
                Change {
                    value: Some(v),
                    ..c.clone()
                }
            }
            _ => c.clone(),
        })
        .collect();
    assert_ne!(forged_changes, f.changes());
    let key = ed25519_dalek::SigningKey::from_bytes(&[7; 32]);
    let forged = Frame::sign(
        &key,
        f.event_bytes().to_vec(),
        *f.checkpoint(),
        forged_changes,
    )
    .unwrap();
    let r = replica.apply_frame(&forged);
    assert!(
        matches!(
            r,
            Err(Error::Replication(ReplicationError::RowMismatch { .. }))
        ),
        "{r:?}"
    );
    assert_eq!(state(&replica), before);
    // The stream still applies after every refusal.
    apply_all(&replica, &entries[k..]);
    assert_eq!(
        replica.state_digests().unwrap(),
        leader.state_digests().unwrap()
    );
}

#[test]
fn a_snapshot_and_the_frames_after_it_restore_the_leader() {
    let t = temp();
    let (leader, _replica, clock) = pair(&t);
    for i in 0..30 {
        leader
            .inscribe(Inscription::new(format!("early memory {i} about tea")).key(format!("e{i}")))
            .unwrap();
    }
    let snap = t.dir.path().join("snap.oubli");
    let at = leader.snapshot_to(&snap).unwrap();
    assert_eq!(at, leader.head().unwrap().0);
    assert!(matches!(
        leader.snapshot_to(&snap),
        Err(Error::AlreadyExists(_))
    ));
    workload(&leader, &clock);
    // The snapshot keeps no secret key: it opens writable only with the key given.
    assert!(Store::open_with(&snap, StoreOptions::default().replica(true)).is_err());
    let restored = Store::open_with(&snap, replica_opts(clock.clone())).unwrap();
    assert_eq!(restored.head().unwrap().0, at);
    let entries = leader.changes_since(0).unwrap();
    // Frames the snapshot already holds are duplicates; the rest apply.
    for e in &entries {
        let r = restored.apply_frame(&e.frame).unwrap();
        if e.frame.seq() <= at {
            assert_eq!(r, Applied::Duplicate { seq: e.frame.seq() });
        } else {
            assert_eq!(r, Applied::Applied { seq: e.frame.seq() });
        }
    }
    assert_eq!(
        restored.state_digests().unwrap(),
        leader.state_digests().unwrap()
    );
    assert_eq!(observe(&restored), observe(&leader));
    restored.verify_log(None).unwrap();
    restored.verify_file().unwrap();
    // Taking over: reopened without `replica`, it writes, and its log still verifies.
    drop(restored);
    let promoted = Store::open_with(&snap, leader_opts(clock.clone())).unwrap();
    promoted
        .inscribe(Inscription::new("written by the new leader"))
        .unwrap();
    promoted
        .verify_log(Some(leader.public_key().unwrap()))
        .unwrap();
}

/// The kinds of the events `e` carries.
fn kinds(e: &FeedEntry) -> Vec<oubli::log::EventKind> {
    e.frame.events().unwrap().iter().map(|ev| ev.kind).collect()
}

/// Five notes, the third (row 3) the one the receipt tests purge.
fn locker_notes(s: &Store) {
    for i in 0..5 {
        s.inscribe(Inscription::new(format!(
            "note {i}: the locker code is 90{i}1"
        )))
        .unwrap();
    }
}

/// With the scrub deferred, a purge's final receipt is written by a transaction no `scrub`
/// event records: its `receipt` event makes it a frame, so a replica holds the final receipt
/// (not the provisional one) and no incomplete mark.
#[test]
fn a_purge_with_the_scrub_deferred_replicates_its_final_receipt() {
    let t = temp();
    let clock = Arc::new(ManualClock::new(T0));
    let leader =
        Store::create_with(&t.path, leader_opts(clock.clone()).scrub_on_purge(false)).unwrap();
    leader.start_feed().unwrap();
    let replica = Store::create_with(
        t.dir.path().join("replica.oubli"),
        replica_opts(clock.clone()),
    )
    .unwrap();
    locker_notes(&leader);
    let report = leader.purge(Target::id(3)).unwrap();
    assert_eq!(report.completion_seq, None);
    let entries = leader.changes_since(0).unwrap();
    let last = entries.last().unwrap();
    assert_eq!(kinds(last), vec![oubli::log::EventKind::Receipt]);
    apply_all(&replica, &entries);
    assert_eq!(
        replica.receipt_document(report.seq).unwrap(),
        leader.receipt_document(report.seq).unwrap()
    );
    assert_eq!(
        replica.receipt_document(report.seq).unwrap(),
        report.receipt.to_document().unwrap()
    );
    assert!(replica.incomplete_purges().unwrap().is_empty());
    replica
        .verify_log(Some(leader.public_key().unwrap()))
        .unwrap();
    replica.verify_file().unwrap();
}

/// A replica that holds a purge's erasure but not its completion (its leader stopped in
/// between) completes the purge when it is promoted: it scrubs, audits and writes the final
/// receipt, each receipt logged by a `receipt` event, and its log still verifies.
#[test]
fn a_promoted_replica_completes_a_purge_its_leader_left_incomplete() {
    let t = temp();
    let (leader, replica, clock) = pair(&t);
    locker_notes(&leader);
    let report = leader.purge(Target::id(3)).unwrap();
    let entries = leader.changes_since(0).unwrap();
    let erasure = entries
        .iter()
        .position(|e| kinds(e).contains(&oubli::log::EventKind::Purge))
        .unwrap();
    apply_all(&replica, &entries[..=erasure]);
    assert_eq!(replica.incomplete_purges().unwrap(), vec![report.seq]);
    let path = t.dir.path().join("replica.oubli");
    drop(replica);
    let promoted = Store::open_with(&path, leader_opts(clock.clone())).unwrap();
    assert!(promoted.incomplete_purges().unwrap().is_empty());
    let receipts = promoted.receipts().unwrap();
    assert_eq!(receipts.len(), 1);
    let body = &receipts[0].1.body;
    assert!(body.erasure.completion_seq.is_some());
    assert!(body.residual_audit.clean, "{body:?}");
    let (head, _) = promoted.head().unwrap();
    let last = promoted.events(head, head).unwrap();
    assert_eq!(last[0].kind, oubli::log::EventKind::Receipt);
    assert_eq!(
        last[0].commitments,
        vec![oubli::audit::event::receipt_commitment(
            &promoted.receipt_document(report.seq).unwrap()
        )]
    );
    promoted
        .verify_log(Some(leader.public_key().unwrap()))
        .unwrap();
    drop(promoted);
    assert!(!file_contains(&path, b"the locker code is 9021"));
}

/// A few real frames, and the replica state they must not disturb, built once.
fn sample() -> &'static (Vec<Vec<u8>>, TempStore) {
    static S: std::sync::OnceLock<(Vec<Vec<u8>>, TempStore)> = std::sync::OnceLock::new();
    S.get_or_init(|| {
        let t = temp();
        let (leader, _r, _c) = pair(&t);
        leader.inscribe(Inscription::new("one").key("a")).unwrap();
        leader
            .inscribe(Inscription::new("two").namespace("user:x"))
            .unwrap();
        leader.release(Target::key("default", "a")).unwrap();
        let frames = leader
            .changes_since(0)
            .unwrap()
            .iter()
            .map(|e| e.frame.encode())
            .collect();
        (frames, t)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Random bytes, and random bytes behind a real frame's magic and version, never decode
    /// into something that applies, and never panic.
    #[test]
    fn random_bytes_never_panic_and_never_apply(
        body in proptest::collection::vec(any::<u8>(), 0..600),
        framed in any::<bool>(),
    ) {
        let mut bytes = Vec::new();
        if framed {
            bytes.extend_from_slice(oubli::replication::FRAME_MAGIC);
            bytes.push(oubli::replication::FRAME_VERSION);
        }
        bytes.extend(body);
        if let Ok(f) = Frame::decode(&bytes) {
            prop_assert_eq!(f.encode(), bytes.clone());
        }
        let t = temp();
        let clock = Arc::new(ManualClock::new(T0));
        let replica = Store::create_with(&t.path, replica_opts(clock)).unwrap();
        let before = state(&replica);
        prop_assert!(replica.apply_frame_bytes(&bytes).is_err());
        prop_assert_eq!(state(&replica), before);
    }

    /// Any truncation or single-byte change of a real frame is refused before it applies.
    #[test]
    fn damaged_frames_never_apply(which in 0usize..3, pos in any::<prop::sample::Index>(), flip in 1u8..=255, cut in any::<bool>()) {
        let (frames, _) = sample();
        let good = &frames[which];
        let i = pos.index(good.len());
        let bad = if cut { good[..i].to_vec() } else {
            let mut b = good.clone();
            b[i] ^= flip;
            b
        };
        if let Ok(f) = Frame::decode(&bad) {
            prop_assert_eq!(f.encode(), bad.clone());
        }
        let t = temp();
        let clock = Arc::new(ManualClock::new(T0));
        let replica = Store::create_with(&t.path, replica_opts(clock)).unwrap();
        for f in &frames[..which] {
            replica.apply_frame_bytes(f).unwrap();
        }
        let before = state(&replica);
        prop_assert!(replica.apply_frame_bytes(&bad).is_err());
        prop_assert_eq!(state(&replica), before);
    }
}

#[test]
fn frame_keys_have_their_tables_shape() {
    let key = ed25519_dalek::SigningKey::from_bytes(&[7; 32]);
    let (frames, _) = sample();
    let f = Frame::decode(&frames[0]).unwrap();
    let bad = Change {
        table: Table::Rows,
        key: Key::Name("x".into()),
        value: None,
    };
    assert!(Frame::sign(&key, f.event_bytes().to_vec(), *f.checkpoint(), vec![bad]).is_err());
    let secret = Change {
        table: Table::Meta,
        key: Key::Name("secret_key".into()),
        value: Some(vec![0; 32]),
    };
    assert!(
        Frame::sign(
            &key,
            f.event_bytes().to_vec(),
            *f.checkpoint(),
            vec![secret]
        )
        .is_err()
    );
}
