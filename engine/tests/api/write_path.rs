//! The write path's deferred index work: the text index's in-memory tail and the vector snapshot
//! grown on a background thread. Both are derived data: they must never change what a store
//! returns for the same operations, and a store reopened (or opened read-only beside the writer)
//! must see every committed row.

use crate::common;

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

/// The serialized vector snapshot in the file at `path` (its chunks concatenated).
pub(crate) fn snapshot_bytes(path: &std::path::Path) -> Vec<u8> {
    use redb::{ReadableDatabase, ReadableTable};
    let db = redb::Database::open(path).unwrap();
    let tx = db.begin_read().unwrap();
    let t = tx.open_table(oubli::storage::VECTOR_SNAPSHOT).unwrap();
    let mut blob = Vec::new();
    for e in t.iter().unwrap() {
        blob.extend_from_slice(e.unwrap().1.value());
    }
    blob
}

#[test]
fn the_graph_is_the_same_bytes_on_one_build_thread_and_answers_alike_on_several() {
    for threads in [1, 4] {
        let (a, b) = (temp(), temp());
        let o = || opts().vector_build_threads(threads);
        let sa = Store::create_with(&a.path, o()).unwrap();
        let sb = Store::create_with(&b.path, o()).unwrap();
        load(&sa);
        load(&sb);
        let ra = results(&sa, QUERIES);
        assert_eq!(ra, results(&sb, QUERIES), "{threads} build threads");
        assert!(ra.iter().all(|r| !r.is_empty()));
        // The log does not depend on the graph.
        assert_eq!(sa.head().unwrap(), sb.head().unwrap());
        sa.close().unwrap();
        sb.close().unwrap();
        let (ga, gb) = (snapshot_bytes(&a.path), snapshot_bytes(&b.path));
        assert!(!ga.is_empty(), "the load built a snapshot");
        if threads == 1 {
            assert_eq!(ga, gb, "one build thread: the same graph bytes");
        }
        let sa = Store::open_with(&a.path, o()).unwrap();
        let sb = Store::open_with(&b.path, o()).unwrap();
        assert_eq!(
            results(&sa, QUERIES),
            results(&sb, QUERIES),
            "{threads} build threads, reopened"
        );
    }
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

/// Rows of every shape a batch handles: plain rows (written in runs with tables held open), rows
/// with a key, metadata, a namespace or sources (written one by one), in an interleaved order.
fn mixed_rows(source: u64) -> Vec<Inscription> {
    (0..1_300usize)
        .map(|i| {
            let base = rows(i, 1).remove(0);
            match i % 97 {
                3 => base.key(format!("k{i}")),
                5 => base.namespace("user:ana").meta("priority", 2),
                7 => base.derived_from([source]),
                11 => base.vector((0..256).map(|j| ((i * 7 + j) % 13) as f32 - 6.0).collect()),
                _ => base,
            }
        })
        .collect()
}

fn batch_opts() -> StoreOptions {
    // No fsync wait: the test compares logs and results, not durability. Exact vector search:
    // a batch and single writes start and install HNSW snapshot builds at different writes (by
    // design, see `index::vector`), so an approximate leg may order its zero-score filler apart.
    fixed(Arc::new(ManualClock::new(1_763_700_000_000)))
        .ann_threshold(100_000)
        .durable(false)
}

#[test]
fn a_batch_writes_the_same_rows_events_and_results_as_the_same_rows_one_by_one() {
    let (a, b) = (temp(), temp());
    let sa = Store::create_with(&a.path, batch_opts()).unwrap();
    let sb = Store::create_with(&b.path, batch_opts()).unwrap();
    let source = sa.inscribe(Inscription::new("the source row")).unwrap();
    assert_eq!(
        sb.inscribe(Inscription::new("the source row")).unwrap(),
        source
    );
    // One batch (its keys and vectors computed on several threads) against one call per row.
    let ids_a = sa.inscribe_batch(mixed_rows(source)).unwrap();
    let ids_b: Vec<u64> = mixed_rows(source)
        .into_iter()
        .map(|ins| sb.inscribe(ins).unwrap())
        .collect();
    assert_eq!(ids_a, ids_b);
    // The same events: the same head hash (every event hash chains into it).
    assert_eq!(sa.head().unwrap(), sb.head().unwrap());
    sa.verify_log(None).unwrap();
    sb.verify_log(None).unwrap();
    for id in [
        source,
        ids_a[0],
        ids_a[3],
        ids_a[5],
        ids_a[7],
        ids_a[11],
        ids_a[1_299],
    ] {
        assert_eq!(sa.get(id).unwrap(), sb.get(id).unwrap());
    }
    let queries = &[
        "alice paris",
        "memory 1207",
        "quartz project oslo",
        "the source row",
    ];
    let ra = results(&sa, queries);
    assert_eq!(ra, results(&sb, queries));
    assert!(ra.iter().all(|r| !r.is_empty()));
    sa.close().unwrap();
    sb.close().unwrap();
    let sa = Store::open_with(&a.path, batch_opts()).unwrap();
    let sb = Store::open_with(&b.path, batch_opts()).unwrap();
    assert_eq!(results(&sa, queries), results(&sb, queries));
}

#[test]
fn a_batch_that_fails_midway_writes_nothing() {
    let t = temp();
    let s = Store::create_with(&t.path, batch_opts()).unwrap();
    let holder = s
        .inscribe(Inscription::new("holder of the key").key("taken"))
        .unwrap();
    let head = s.head().unwrap();
    let listed = s.list(&Default::default()).unwrap().len();
    // Row 650 of 700 takes a key a live row holds: the whole batch fails.
    let mut batch = rows(0, 700);
    batch[650] = Inscription::new("a second holder of the key").key("taken");
    batch[10] = Inscription::new("the batch row about xylophones");
    let r = s.inscribe_batch(batch);
    assert!(matches!(r, Err(oubli::Error::DuplicateKey { .. })), "{r:?}");
    assert_eq!(s.head().unwrap(), head);
    assert_eq!(s.list(&Default::default()).unwrap().len(), listed);
    let hits = s.recall(&RecallQuery::new("xylophones")).unwrap();
    assert!(
        texts(&hits).iter().all(|t| !t.contains("xylophones")),
        "{hits:?}"
    );
    // The store goes on: the same rows without the bad one get the ids the failed batch did not use.
    let mut batch = rows(0, 700);
    batch.remove(650);
    let ids = s.inscribe_batch(batch).unwrap();
    assert_eq!(ids[0], holder + 1);
    s.verify_log(None).unwrap();
    drop(s);
    let s = Store::open_with(&t.path, batch_opts()).unwrap();
    assert_eq!(s.list(&Default::default()).unwrap().len(), listed + 699);
}

#[test]
fn writers_on_several_threads_leave_the_log_of_the_same_writes_made_one_by_one() {
    // Eight threads inscribe at once, so concurrent calls share durable commits (group commit);
    // the rows' ids give the order the store committed them in. The same inscriptions made one by
    // one in that order must give the same log, event for event, and the same head.
    let (a, b) = (temp(), temp());
    let sa = Arc::new(Store::create_with(&a.path, opts()).unwrap());
    let handles: Vec<_> = (0..8)
        .map(|t| {
            let s = sa.clone();
            std::thread::spawn(move || {
                rows(t * 25, 25)
                    .into_iter()
                    .map(|ins| {
                        let text = ins.text.clone();
                        (s.inscribe(ins).unwrap(), text)
                    })
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let mut written: Vec<(u64, String)> = handles
        .into_iter()
        .flat_map(|h| h.join().unwrap())
        .collect();
    written.sort();
    let stats = sa.group_commit_stats();
    assert_eq!(stats.writes, 200);
    assert!(stats.groups <= 200);
    let sb = Store::create_with(&b.path, opts()).unwrap();
    for (id, text) in &written {
        assert_eq!(sb.inscribe(Inscription::new(text.clone())).unwrap(), *id);
    }
    assert_eq!(sa.head().unwrap(), sb.head().unwrap());
    assert_eq!(sa.verify_log(None).unwrap(), sb.verify_log(None).unwrap());
    assert_eq!(results(&sa, QUERIES), results(&sb, QUERIES));
}
