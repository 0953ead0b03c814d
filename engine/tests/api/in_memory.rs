//! A store that never touches disk behaves like a store in a file, except durability: same event
//! hashes, same recall results, same receipts, and a purge leaves no byte of the erased text or
//! its vector in the in-memory image.

use crate::common;

use std::sync::Arc;

use common::*;
use oubli::{
    Embedder, HashEmbedder, Inscription, ManualClock, RecallQuery, Store, StoreOptions, Target,
};

fn options(clock: Arc<ManualClock>) -> StoreOptions {
    fixed(clock).embedder(Arc::new(HashEmbedder::new(64).unwrap()))
}

/// Runs the same operations on `s`: inscribes, supersedes, releases, purges by key and query.
fn exercise(s: &Store, clock: &ManualClock) -> Vec<Vec<String>> {
    for i in 0..120 {
        s.inscribe(Inscription::new(format!(
            "filler memory {i} about gardening and tea"
        )))
        .unwrap();
        clock.advance(1_000);
    }
    s.inscribe(
        Inscription::new("Ana's locker code is LCK-4471")
            .namespace("ana")
            .key("locker"),
    )
    .unwrap();
    s.inscribe(Inscription::new("Ben prefers window seats on flights"))
        .unwrap();
    s.supersede(
        Target::key("ana", "locker"),
        Inscription::new("Ana's locker code is LCK-9902")
            .namespace("ana")
            .key("locker"),
    )
    .unwrap();
    clock.advance(60_000);
    s.release(Target::query("window seats")).unwrap();
    s.purge(Target::key("ana", "locker")).unwrap();
    s.purge(Target::query("filler memory 17")).unwrap();
    [
        "gardening tea",
        "locker code",
        "window seats flights",
        "memory 42",
    ]
    .iter()
    .map(|q| {
        s.recall(&RecallQuery::new(*q).k(10).include_submerged(true))
            .unwrap()
            .iter()
            .map(|h| format!("{} {:?}", h.row.id, h.row.text))
            .collect()
    })
    .collect()
}

#[test]
fn in_memory_store_gives_the_same_log_and_recall_as_a_file_store() {
    let t = temp();
    let clock_f = Arc::new(ManualClock::new(1_763_700_000_000));
    let file = Store::create_with(&t.path, options(clock_f.clone())).unwrap();
    let clock_m = Arc::new(ManualClock::new(1_763_700_000_000));
    let mem = Store::in_memory(options(clock_m.clone())).unwrap();
    assert!(mem.is_in_memory() && !file.is_in_memory());
    assert_eq!(mem.path(), std::path::Path::new(""));

    let recalled_f = exercise(&file, &clock_f);
    let recalled_m = exercise(&mem, &clock_m);
    assert_eq!(recalled_f, recalled_m);
    assert_eq!(file.head().unwrap(), mem.head().unwrap());
    let (head, _) = mem.head().unwrap();
    assert_eq!(
        file.events(1, head).unwrap(),
        mem.events(1, head).unwrap(),
        "the same events, hash for hash"
    );
    let receipts_f = file.receipts().unwrap();
    let receipts_m = mem.receipts().unwrap();
    assert_eq!(receipts_f.len(), 2);
    for ((a, _), (b, _)) in receipts_f.iter().zip(&receipts_m) {
        assert_eq!(
            file.receipt_document(*a).unwrap(),
            mem.receipt_document(*b).unwrap()
        );
    }
    mem.verify_log(None).unwrap();
    mem.verify_file().unwrap();
    assert!(file.memory_image().unwrap().is_none());
}

#[test]
fn purge_leaves_no_erased_byte_in_the_memory_image() {
    let clock = Arc::new(ManualClock::new(1_763_700_000_000));
    let s = Store::in_memory(options(clock)).unwrap();
    for i in 0..300 {
        s.inscribe(Inscription::new(format!(
            "filler memory {i} about gardening and tea"
        )))
        .unwrap();
    }
    let secret = "ZQXJ-marker-alpha-7781 is the vault passphrase";
    let id = s.inscribe(Inscription::new(secret)).unwrap();
    let e = HashEmbedder::new(64).unwrap().embed(secret).unwrap();
    let vector: Vec<u8> = oubli::storage::encode_vector(&oubli::storage::stored_vector(
        &oubli::embed::check_vector(&e, e.len()).unwrap(),
    ));
    let image = s.memory_image().unwrap().unwrap();
    let has = |b: &[u8], n: &[u8]| b.windows(n.len()).any(|w| w == n);
    assert!(has(&image, b"ZQXJ-marker"), "the text is in the image");
    assert!(has(&image, &vector[..32]), "the vector is in the image");

    let r = s.purge(Target::id(id)).unwrap();
    assert!(r.completion_seq.is_some());
    let image = s.memory_image().unwrap().unwrap();
    for needle in [
        "ZQXJ-marker",
        "marker-alpha-7781",
        "vault passphrase",
        "zqxj",
    ] {
        assert!(
            !has(&image, needle.as_bytes()),
            "found {needle:?} after purge"
        );
    }
    assert!(!has(&image, &vector[..32]), "found the vector after purge");
    // The rest is whole.
    s.verify_log(None).unwrap();
    s.verify_file().unwrap();
    let hits = s.recall(&RecallQuery::new("gardening filler 42")).unwrap();
    assert!(
        hits.iter()
            .any(|h| h.row.text.as_deref().unwrap().contains("filler memory 42"))
    );
}

#[test]
fn deferred_scrub_on_an_in_memory_store() {
    let clock = Arc::new(ManualClock::new(1_763_700_000_000));
    let s = Store::in_memory(options(clock).scrub_on_purge(false)).unwrap();
    s.inscribe(Inscription::new("deferred-marker-9931 secret"))
        .unwrap();
    s.inscribe(Inscription::new("keep this row")).unwrap();
    let r = s.purge(Target::query("deferred-marker-9931")).unwrap();
    assert_eq!(r.completion_seq, None);
    let seq = s.scrub().unwrap();
    assert!(seq > r.seq);
    let image = s.memory_image().unwrap().unwrap();
    assert!(!image.windows(20).any(|w| w == b"deferred-marker-9931"));
    assert_eq!(
        texts(&s.recall(&RecallQuery::new("keep this row")).unwrap()),
        vec!["keep this row".to_string()]
    );
}

#[test]
fn an_in_memory_store_cannot_be_read_only() {
    let e = Store::in_memory(StoreOptions::default().read_only(true)).unwrap_err();
    assert!(matches!(e, oubli::Error::InvalidArgument(_)), "{e:?}");
}
