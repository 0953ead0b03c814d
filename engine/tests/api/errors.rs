//! Bad input gets a typed error and changes nothing.

use crate::common;

use std::sync::Arc;

use common::*;
use oubli::{
    Error, HashEmbedder, Inscription, ListQuery, MAX_TEXT_BYTES, RecallQuery, Store, StoreOptions,
    Target,
};

#[test]
fn bad_text_is_rejected() {
    let t = temp();
    let s = Store::create(&t.path).unwrap();
    assert!(matches!(
        s.inscribe(Inscription::new("")),
        Err(Error::EmptyText)
    ));
    assert!(matches!(
        s.inscribe(Inscription::new(" \n\t ")),
        Err(Error::EmptyText)
    ));
    let huge = "x".repeat(MAX_TEXT_BYTES + 1);
    assert!(matches!(
        s.inscribe(Inscription::new(huge)),
        Err(Error::TextTooLarge { .. })
    ));
    assert!(matches!(
        s.inscribe(Inscription::new("a\0b")),
        Err(Error::InvalidField { .. })
    ));
    assert!(matches!(
        s.inscribe(Inscription::new("ok").namespace("")),
        Err(Error::InvalidField { .. })
    ));
    assert!(matches!(
        s.inscribe(Inscription::new("ok").key("bad\nkey")),
        Err(Error::InvalidField { .. })
    ));
    assert!(matches!(
        s.recall(&RecallQuery::new("")),
        Err(Error::EmptyText)
    ));
    assert!(matches!(
        s.recall(&RecallQuery::new("x").k(0)),
        Err(Error::InvalidArgument(_))
    ));
    assert!(s.list(&ListQuery::default()).unwrap().is_empty());
    assert_eq!(s.head().unwrap().0, 0, "nothing was logged");
}

#[test]
fn bad_vectors_are_rejected() {
    let t = temp();
    let s = Store::create(&t.path).unwrap();
    assert!(matches!(
        s.inscribe(Inscription::new("v").vector(vec![1.0; 3])),
        Err(Error::DimensionMismatch {
            expected: 256,
            got: 3
        })
    ));
    let mut v = vec![0.1; 256];
    v[7] = f32::NAN;
    assert!(matches!(
        s.inscribe(Inscription::new("v").vector(v)),
        Err(Error::InvalidVector(_))
    ));
    assert!(matches!(
        s.inscribe(Inscription::new("v").vector(vec![0.0; 256])),
        Err(Error::InvalidVector(_))
    ));
    assert!(matches!(
        s.recall(&RecallQuery::new("q").vector(vec![f32::INFINITY; 256])),
        Err(Error::InvalidVector(_))
    ));
    // A caller-supplied vector is used as given.
    let mut mine = vec![0.0; 256];
    mine[0] = 1.0;
    let id = s
        .inscribe(Inscription::new("custom").vector(mine.clone()))
        .unwrap();
    let hits = s
        .recall(
            &RecallQuery::new("unrelated words")
                .vector(mine)
                .legs(oubli::Legs::Vector),
        )
        .unwrap();
    assert_eq!(hits[0].row.id, id);
}

#[test]
fn unknown_targets_and_batches_fail_whole() {
    let t = temp();
    let s = Store::create(&t.path).unwrap();
    s.inscribe(Inscription::new("the only row")).unwrap();
    assert!(matches!(s.get(99), Err(Error::UnknownRow(99))));
    assert!(matches!(
        s.release(Target::id(99)),
        Err(Error::UnknownRow(99))
    ));
    assert!(matches!(
        s.purge(Target::key("default", "nope")),
        Err(Error::UnknownKey { .. })
    ));
    assert!(matches!(
        s.supersede(Target::query("zebra migration"), Inscription::new("x")),
        Err(Error::NoMatch(_))
    ));
    assert!(matches!(
        s.release(Target::query("   ")),
        Err(Error::InvalidArgument(_))
    ));
    let head = s.head().unwrap();
    let r = s.inscribe_batch(vec![
        Inscription::new("fine"),
        Inscription::new(""),
        Inscription::new("also fine"),
    ]);
    assert!(matches!(r, Err(Error::InvalidArgument(_))));
    assert_eq!(s.head().unwrap(), head);
    assert_eq!(s.list(&ListQuery::default()).unwrap().len(), 1);
    // Releasing an already submerged row is an invalid transition, not a silent no-op.
    let id = s.inscribe(Inscription::new("to release")).unwrap();
    s.release(Target::id(id)).unwrap();
    assert!(matches!(
        s.release(Target::id(id)),
        Err(Error::InvalidTransition { .. })
    ));
}

#[test]
fn files_that_are_not_stores_are_rejected() {
    let t = temp();
    assert!(matches!(Store::open(&t.path), Err(Error::NotFound(_))));
    std::fs::write(&t.path, b"this is not a database at all, just text").unwrap();
    assert!(matches!(
        Store::open(&t.path),
        Err(Error::Corrupt(_)) | Err(Error::Storage(_)) | Err(Error::Io(_))
    ));
    assert!(matches!(
        Store::create(&t.path),
        Err(Error::AlreadyExists(_))
    ));
    // A plain redb file without oubli's tables.
    let other = t.dir.path().join("plain.redb");
    drop(redb::Database::create(&other).unwrap());
    assert!(matches!(Store::open(&other), Err(Error::Corrupt(_))));
    // A real store, truncated.
    let real = t.dir.path().join("real.oubli");
    let s = Store::create(&real).unwrap();
    for i in 0..50 {
        s.inscribe(Inscription::new(format!("row {i}"))).unwrap();
    }
    drop(s);
    let bytes = std::fs::read(&real).unwrap();
    std::fs::write(&real, &bytes[..bytes.len() / 3]).unwrap();
    assert!(Store::open(&real).is_err());
}

#[test]
fn options_must_match_the_store() {
    let t = temp();
    drop(Store::create(&t.path).unwrap());
    let r = Store::open_with(
        &t.path,
        StoreOptions::default().embedder(Arc::new(HashEmbedder::new(64).unwrap())),
    );
    assert!(matches!(r, Err(Error::EmbedderMismatch { .. })));
    let r = Store::open_with(&t.path, StoreOptions::default().signing_key([1; 32]));
    assert!(matches!(r, Err(Error::KeyMismatch)));
    // A store created with an external key needs it for writing, not for reading.
    let t2 = temp();
    drop(Store::create_with(&t2.path, StoreOptions::default().signing_key([5; 32])).unwrap());
    assert!(matches!(
        Store::open(&t2.path),
        Err(Error::InvalidArgument(_))
    ));
    Store::open_with(&t2.path, StoreOptions::default().read_only(true)).unwrap();
    Store::open_with(&t2.path, StoreOptions::default().signing_key([5; 32])).unwrap();
}

#[test]
fn concurrent_readers_and_a_writer() {
    let t = temp();
    let s = Arc::new(Store::create(&t.path).unwrap());
    for i in 0..20 {
        s.inscribe(Inscription::new(format!("seed memory {i}")))
            .unwrap();
    }
    let mut handles = Vec::new();
    for _ in 0..4 {
        let s = s.clone();
        handles.push(std::thread::spawn(move || {
            for _ in 0..50 {
                let hits = s.recall(&RecallQuery::new("seed memory")).unwrap();
                assert!(!hits.is_empty());
            }
        }));
    }
    for i in 0..30 {
        s.inscribe(Inscription::new(format!("written during reads {i}")))
            .unwrap();
    }
    for h in handles {
        h.join().unwrap();
    }
    assert_eq!(s.verify_log(None).unwrap().events, 50);
}
