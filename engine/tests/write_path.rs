//! The write path's deferred index work: the text index's in-memory tail and the vector snapshot
//! grown on a background thread. Both are derived data: they must never change what a store
//! returns for the same operations, and a store reopened (or opened read-only beside the writer)
//! must see every committed row.

mod common;

use std::sync::Arc;

use common::*;
use oubli::{Inscription, ManualClock, RecallQuery, Store, StoreOptions};

fn rows(from: usize, n: usize) -> Vec<Inscription> {
    (from..from + n)
        .map(|i| {
            Inscription::new(format!(
                "memory {i}: {} met {} about the {} project",
                ["alice", "bob", "carol", "dmitri", "eve"][i % 5],
                ["paris", "lima", "oslo", "kyoto"][i % 4],
                ["apollo", "zephyr", "quartz"][i % 3]
            ))
        })
        .collect()
}

fn results(s: &Store, queries: &[&str]) -> Vec<Vec<(u64, String)>> {
    queries
        .iter()
        .map(|q| {
            s.recall(&RecallQuery::new(*q).k(10))
                .unwrap()
                .into_iter()
                .map(|h| (h.row.id, format!("{:.9}", h.score)))
                .collect()
        })
        .collect()
}

const QUERIES: &[&str] = &[
    "alice paris",
    "memory 17",
    "quartz project oslo",
    "eve kyoto zephyr",
    "memory 301: carol met lima",
];

/// Runs the same writes on a store: batches and single inserts across the ANN threshold, so
/// that snapshot builds start and install on the way, and text-index tail commits happen.
fn load(s: &Store) {
    let mut next = 0;
    for _ in 0..6 {
        s.inscribe_batch(rows(next, 40)).unwrap();
        next += 40;
        for ins in rows(next, 15) {
            s.inscribe(ins).unwrap();
        }
        next += 15;
    }
}

fn opts() -> StoreOptions {
    fixed(Arc::new(ManualClock::new(1_763_700_000_000))).ann_threshold(64)
}

#[test]
fn deferred_index_work_gives_the_same_results_for_the_same_operations() {
    let (a, b) = (temp(), temp());
    let sa = Store::create_with(&a.path, opts()).unwrap();
    let sb = Store::create_with(&b.path, opts()).unwrap();
    load(&sa);
    load(&sb);
    let ra = results(&sa, QUERIES);
    assert_eq!(ra, results(&sb, QUERIES));
    assert!(ra.iter().all(|r| !r.is_empty()));
    // The exact text of a row is found, whether its vector is in the snapshot or the tail.
    assert!(ra[4].iter().any(|(id, _)| *id == 302), "{:?}", ra[4]);
    sa.close().unwrap();
    sb.close().unwrap();
    // Closing committed the text tail and installed the pending build in both files alike.
    let sa = Store::open_with(&a.path, opts()).unwrap();
    let sb = Store::open_with(&b.path, opts()).unwrap();
    assert_eq!(results(&sa, QUERIES), results(&sb, QUERIES));
}

#[test]
fn rows_in_the_text_tail_are_found_after_reopen_and_by_a_reader_beside_the_writer() {
    let t = temp();
    let s = Store::create_with(&t.path, StoreOptions::default()).unwrap();
    s.inscribe_batch(rows(0, 30)).unwrap();
    let id = s
        .inscribe(Inscription::new("the tail row mentions zanzibar"))
        .unwrap();
    // A read-only handle re-indexes the rows the file's text index does not hold yet.
    let reader = Store::open_with(&t.path, StoreOptions::default().read_only(true)).unwrap();
    let hits = reader.recall(&RecallQuery::new("zanzibar")).unwrap();
    assert_eq!(hits.first().map(|h| h.row.id), Some(id));
    assert_eq!(
        reader.recall(&RecallQuery::new("zanzibar")).unwrap().len(),
        s.recall(&RecallQuery::new("zanzibar")).unwrap().len()
    );
    drop(reader);
    drop(s);
    let s = Store::open(&t.path).unwrap();
    let hits = s.recall(&RecallQuery::new("zanzibar")).unwrap();
    assert_eq!(hits.first().map(|h| h.row.id), Some(id));
}
