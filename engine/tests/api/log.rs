//! The event log: verification catches tampering; same inputs give the same hashes.

use crate::common;

use common::*;
use oubli::storage::{CHECKPOINTS, EVENTS};
use oubli::{Error, Event, EventKind, Inscription, Store, Target};
use redb::{ReadableDatabase, ReadableTable};

fn populate(s: &Store) {
    let a = s.inscribe(Inscription::new("alpha fact")).unwrap();
    s.inscribe(Inscription::new("beta fact")).unwrap();
    s.supersede(Target::id(a), Inscription::new("alpha fact, revised"))
        .unwrap();
    s.release(Target::query("beta")).unwrap();
}

fn with_db(path: &std::path::Path, f: impl FnOnce(&redb::WriteTransaction)) {
    let db = redb::Database::open(path).unwrap();
    let tx = db.begin_write().unwrap();
    f(&tx);
    tx.commit().unwrap();
}

fn events(path: &std::path::Path) -> Vec<(u64, Vec<u8>)> {
    let db = redb::Database::open(path).unwrap();
    let tx = db.begin_read().unwrap();
    let t = tx.open_table(EVENTS).unwrap();
    t.iter()
        .unwrap()
        .map(|e| {
            let (k, v) = e.unwrap();
            (k.value(), v.value().to_vec())
        })
        .collect()
}

fn verify(path: &std::path::Path) -> oubli::Result<oubli::LogReport> {
    let s = Store::open(path)?;
    s.verify_log(None)
}

#[test]
fn every_flipped_byte_of_every_event_is_detected() {
    let t = temp();
    let s = Store::create(&t.path).unwrap();
    populate(&s);
    drop(s);
    let original = events(&t.path);
    for (seq, bytes) in &original {
        for pos in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[pos] ^= 0x01;
            with_db(&t.path, |tx| {
                tx.open_table(EVENTS)
                    .unwrap()
                    .insert(*seq, bad.as_slice())
                    .unwrap();
            });
            let r = verify(&t.path);
            assert!(
                matches!(r, Err(Error::LogTampered { .. }) | Err(Error::Corrupt(_))),
                "flip at seq {seq} byte {pos} went unnoticed: {r:?}"
            );
            with_db(&t.path, |tx| {
                tx.open_table(EVENTS)
                    .unwrap()
                    .insert(*seq, bytes.as_slice())
                    .unwrap();
            });
        }
    }
    verify(&t.path).unwrap();
}

#[test]
fn removed_reordered_and_forged_entries_are_detected() {
    let t = temp();
    let s = Store::create(&t.path).unwrap();
    populate(&s);
    drop(s);
    let ev = events(&t.path);
    // Remove a middle event.
    with_db(&t.path, |tx| {
        tx.open_table(EVENTS).unwrap().remove(2).unwrap();
    });
    assert!(matches!(verify(&t.path), Err(Error::LogTampered { .. })));
    with_db(&t.path, |tx| {
        tx.open_table(EVENTS)
            .unwrap()
            .insert(2, ev[1].1.as_slice())
            .unwrap();
    });
    verify(&t.path).unwrap();
    // Swap two events.
    with_db(&t.path, |tx| {
        let mut e = tx.open_table(EVENTS).unwrap();
        e.insert(2, ev[2].1.as_slice()).unwrap();
        e.insert(3, ev[1].1.as_slice()).unwrap();
    });
    assert!(matches!(verify(&t.path), Err(Error::LogTampered { .. })));
    with_db(&t.path, |tx| {
        let mut e = tx.open_table(EVENTS).unwrap();
        e.insert(2, ev[1].1.as_slice()).unwrap();
        e.insert(3, ev[2].1.as_slice()).unwrap();
    });
    // Truncate the tail, checkpoints and all: the store's recorded head no longer matches.
    let last = ev.last().unwrap().0;
    let last_cp: Vec<u8> = {
        let db = redb::Database::open(&t.path).unwrap();
        let tx = db.begin_read().unwrap();
        let c = tx.open_table(CHECKPOINTS).unwrap();
        c.get(last).unwrap().unwrap().value().to_vec()
    };
    with_db(&t.path, |tx| {
        tx.open_table(EVENTS).unwrap().remove(last).unwrap();
        tx.open_table(CHECKPOINTS).unwrap().remove(last).unwrap();
    });
    assert!(matches!(verify(&t.path), Err(Error::LogTampered { .. })));
    with_db(&t.path, |tx| {
        tx.open_table(EVENTS)
            .unwrap()
            .insert(last, ev.last().unwrap().1.as_slice())
            .unwrap();
        tx.open_table(CHECKPOINTS)
            .unwrap()
            .insert(last, last_cp.as_slice())
            .unwrap();
    });
    verify(&t.path).unwrap();
    // A forger who rewrites an event and re-chains every later hash, and even re-signs the
    // checkpoints with a key of their own, still fails against the store's public key.
    let mut chain: Vec<Event> = ev.iter().map(|(_, b)| Event::decode(b).unwrap()).collect();
    chain[0].kind = EventKind::Pin;
    for i in 1..chain.len() {
        chain[i].prev_hash = chain[i - 1].hash();
    }
    let forger = ed25519_dalek::SigningKey::from_bytes(&[3u8; 32]);
    with_db(&t.path, |tx| {
        let mut e = tx.open_table(EVENTS).unwrap();
        let mut c = tx.open_table(CHECKPOINTS).unwrap();
        for ev in &chain {
            e.insert(ev.seq, ev.encode().as_slice()).unwrap();
            if c.get(ev.seq).unwrap().is_some() {
                let cp = oubli::log::Checkpoint::sign(&forger, ev.seq, ev.hash());
                c.insert(ev.seq, cp.encode().as_slice()).unwrap();
            }
        }
    });
    assert!(matches!(verify(&t.path), Err(Error::LogTampered { .. })));
}

#[test]
fn verification_against_another_key_fails() {
    let t = temp();
    let s = Store::create(&t.path).unwrap();
    populate(&s);
    assert!(s.verify_log(Some([9u8; 32])).is_err());
    let pk = s.public_key().unwrap();
    assert_eq!(s.verify_log(Some(pk)).unwrap().events, 4);
}

#[test]
fn same_inputs_same_hashes() {
    let run = || {
        let t = temp();
        let (s, clock) = create_fixed(&t);
        populate(&s);
        clock.advance(5);
        s.purge(Target::query("alpha")).unwrap();
        let head = s.head().unwrap();
        let evs = s.events(1, head.0).unwrap();
        (head, evs)
    };
    let (h1, e1) = run();
    let (h2, e2) = run();
    assert_eq!(h1, h2);
    assert_eq!(e1, e2);
    // Run the same thing from another thread too.
    let (h3, _) = std::thread::spawn(run).join().unwrap();
    assert_eq!(h1, h3);
}

#[test]
fn the_log_holds_no_plaintext() {
    let t = temp();
    let s = Store::create(&t.path).unwrap();
    s.inscribe(Inscription::new("plaintext-probe-5521"))
        .unwrap();
    drop(s);
    for (_, bytes) in events(&t.path) {
        assert!(!bytes.windows(8).any(|w| w == b"probe-55"));
    }
}
