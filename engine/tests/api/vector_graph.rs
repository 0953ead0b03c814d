//! A load with the vector graph's growth deferred (`StoreOptions::defer_vector_graph`), then
//! `Store::build_vector_graph`: the graph is derived data, so deferring it changes when its cost
//! is paid, never what a recall can find, and the graph it builds is the one the same
//! operations always build.

use crate::common;

use std::sync::Arc;

use common::*;

use crate::write_path::snapshot_bytes;
use oubli::{Error, Inscription, ManualClock, RecallQuery, Store, StoreOptions};

fn rows(from: usize, n: usize) -> Vec<Inscription> {
    (from..from + n)
        .map(|i| {
            Inscription::new(format!(
                "note {i}: {} booked {} for the {} trip",
                ["ana", "bo", "cyril", "dana", "emeka"][i % 5],
                ["a hotel", "a train", "a car", "a ferry"][i % 4],
                ["spring", "summer", "winter"][i % 3]
            ))
        })
        .collect()
}

/// A threshold of 64: graph segments of 320 vectors, 32 vectors left to the exact scan.
fn opts() -> StoreOptions {
    fixed(Arc::new(ManualClock::new(1_763_700_000_000)))
        .ann_threshold(64)
        .durable(false)
}

fn load(s: &Store, n: usize) {
    for from in (0..n).step_by(100) {
        s.inscribe_batch(rows(from, 100.min(n - from))).unwrap();
    }
}

fn results(s: &Store) -> Vec<Vec<u64>> {
    [
        "ana hotel spring",
        "note 517",
        "emeka ferry winter",
        "a train",
    ]
    .iter()
    .map(|q| {
        s.recall(&RecallQuery::new(*q).k(10))
            .unwrap()
            .into_iter()
            .map(|h| h.row.id)
            .collect()
    })
    .collect()
}

#[test]
fn a_deferred_load_scans_its_vectors_exactly_until_the_graph_is_built() {
    let (t, exact) = (temp(), temp());
    let s = Store::create_with(&t.path, opts().defer_vector_graph(true)).unwrap();
    load(&s, 1_000);
    let status = s.vector_graph_status().unwrap();
    assert_eq!((status.linked, status.exact), (0, 1_000));
    assert!(!status.building, "a deferred write starts no build");
    // Until the graph is built, recall is the exact scan: what a store that never builds one
    // answers.
    let e = Store::create_with(&exact.path, opts().ann_threshold(1_000_000)).unwrap();
    load(&e, 1_000);
    assert_eq!(results(&s), results(&e));

    // A new segment takes at most 320 of the tail's oldest rows: several steps.
    let steps = s.build_vector_graph().unwrap();
    assert!(steps >= 3, "{steps} steps");
    let status = s.vector_graph_status().unwrap();
    assert_eq!(status.linked + status.exact, 1_000);
    assert!(status.exact <= 32, "{status:?}");
    assert!(!status.building);
    // Built: nothing more to do.
    assert_eq!(s.build_vector_graph().unwrap(), 0);
    let built = results(&s);
    assert!(built.iter().all(|r| !r.is_empty()));
    // The note asked for by number is found through the graph too.
    assert!(built[1].contains(&518), "{:?}", built[1]);
    s.close().unwrap();
    assert!(
        !snapshot_bytes(&t.path).is_empty(),
        "the graph is in the file"
    );
    let s = Store::open_with(&t.path, opts().defer_vector_graph(true)).unwrap();
    assert_eq!(s.vector_graph_status().unwrap(), status);
    assert_eq!(results(&s), built);
}

#[test]
fn the_same_operations_build_the_same_graph_when_deferred() {
    let (a, b) = (temp(), temp());
    for p in [&a.path, &b.path] {
        let s = Store::create_with(p, opts().defer_vector_graph(true)).unwrap();
        load(&s, 400);
        s.build_vector_graph().unwrap();
        // Writes after the build stay in the exact tail; a second build links them.
        load(&s, 200);
        assert_eq!(s.vector_graph_status().unwrap().exact, 200);
        s.build_vector_graph().unwrap();
        s.close().unwrap();
    }
    let (ga, gb) = (snapshot_bytes(&a.path), snapshot_bytes(&b.path));
    assert!(!ga.is_empty());
    assert_eq!(ga, gb, "one build thread: the same graph bytes");
}

#[test]
fn building_the_graph_finishes_what_writes_started_by_default() {
    let t = temp();
    let s = Store::create_with(&t.path, opts()).unwrap();
    load(&s, 500);
    s.build_vector_graph().unwrap();
    let status = s.vector_graph_status().unwrap();
    assert_eq!(status.linked + status.exact, 500);
    assert!(status.exact <= 32 && !status.building, "{status:?}");
}

#[test]
fn a_read_only_store_builds_no_graph() {
    let t = temp();
    let s = Store::create_with(&t.path, opts().defer_vector_graph(true)).unwrap();
    load(&s, 200);
    s.close().unwrap();
    let r = Store::open_with(&t.path, opts().read_only(true)).unwrap();
    assert!(matches!(r.build_vector_graph(), Err(Error::ReadOnly)));
    assert_eq!(r.vector_graph_status().unwrap().exact, 200);
}
