//! The measuring API: `Store::vector_probe` (the vector leg's own top k beside an exact scan)
//! and `Store::space_report` (where the file's bytes go), and the half-precision vector records
//! of format 4 they report on.

use std::sync::Arc;

use oubli::{Embedder, Error, HashEmbedder, Inscription, Store, StoreOptions};

const DIM: usize = 64;

fn opts(ann_threshold: usize) -> StoreOptions {
    StoreOptions::default()
        .embedder(Arc::new(HashEmbedder::new(DIM).unwrap()))
        .deterministic_seed([3; 32])
        .ann_threshold(ann_threshold)
}

/// Inscribes rows `from..from + n`, each with its own text.
fn fill(s: &Store, from: usize, n: usize) {
    let rows: Vec<Inscription> = (from..from + n)
        .map(|i| {
            Inscription::new(format!(
                "memory {i} about topic {} and place {}",
                i % 17,
                i % 23
            ))
        })
        .collect();
    s.inscribe_batch(rows).unwrap();
}

#[test]
fn below_the_threshold_the_vector_leg_is_the_exact_scan() {
    let s = Store::in_memory(opts(10_000)).unwrap();
    fill(&s, 0, 300);
    let e = HashEmbedder::new(DIM).unwrap();
    for q in ["memory about topic 3", "place 7", "something else entirely"] {
        let p = s.vector_probe(&e.embed(q).unwrap(), 10).unwrap();
        assert_eq!(p.exact.len(), 10);
        assert_eq!(p.approximate, p.exact, "{q}");
        assert_eq!(p.recall(), 1.0);
    }
}

#[test]
fn above_the_threshold_the_probe_measures_the_snapshot() {
    // 600 vectors with a threshold of 100: the snapshot holds most of them.
    let s = Store::in_memory(opts(100)).unwrap();
    for b in 0..6 {
        fill(&s, b * 100, 100);
    }
    let e = HashEmbedder::new(DIM).unwrap();
    let mut total = 0.0;
    for i in 0..40 {
        let p = s
            .vector_probe(
                &e.embed(&format!("memory {i} topic {}", i % 17)).unwrap(),
                10,
            )
            .unwrap();
        assert_eq!(p.exact.len(), 10);
        assert!(p.approximate.len() <= 10);
        // Whatever the leg found is scored exactly, so it is never better than the exact top.
        if let (Some(a), Some(x)) = (p.approximate.first(), p.exact.first()) {
            assert!(a.1 <= x.1);
        }
        total += p.recall();
    }
    assert!(total / 40.0 >= 0.95, "recall@10 {}", total / 40.0);
}

#[test]
fn a_probe_with_a_bad_vector_is_refused() {
    let s = Store::in_memory(opts(10_000)).unwrap();
    fill(&s, 0, 5);
    assert!(matches!(
        s.vector_probe(&[0.5; DIM + 1], 10),
        Err(Error::DimensionMismatch { .. })
    ));
    assert!(s.vector_probe(&[f32::NAN; DIM], 10).is_err());
}

#[test]
fn vectors_are_stored_in_half_precision_and_accounted_for() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("d.oubli");
    let s = Store::create_with(&path, opts(10_000)).unwrap();
    fill(&s, 0, 500);
    let r = s.space_report().unwrap();
    let vectors = r.tables.iter().find(|t| t.name == "vectors").unwrap();
    assert_eq!(vectors.entries, 500);
    // Each record: an 8-byte key and 2 bytes per dimension.
    assert_eq!(vectors.stored_bytes, 500 * (8 + 2 * DIM as u64));
    assert!(
        r.tables
            .iter()
            .any(|t| t.name == "events" && t.entries == 500)
    );
    assert_eq!(r.file_bytes, std::fs::metadata(&path).unwrap().len());
    let allocated = r.allocated_pages * r.page_size;
    assert!(allocated > 0 && allocated <= r.file_bytes);
    // The file stays close to what redb allocated (it grows by an eighth, not by doubling).
    assert!(
        r.file_bytes <= allocated + allocated / 4 + (1 << 20),
        "file {} allocated {allocated}",
        r.file_bytes
    );
    // The rounded vectors are what the log's digests commit to: the file verifies.
    s.verify_file().unwrap();
    s.verify_log(None).unwrap();
}

#[test]
fn recall_with_ties_counts_an_equally_similar_row_as_found() {
    // Rows 5, 4 and 3 tie at 0.5 for the last two places; the exact scan keeps 5 and 4 (its
    // tie rule), the approximate leg found 3 instead of 4.
    let probe = oubli::VectorProbe {
        approximate: vec![(9, 0.9), (5, 0.5), (3, 0.5)],
        exact: vec![(9, 0.9), (5, 0.5), (4, 0.5)],
    };
    assert!((probe.recall() - 2.0 / 3.0).abs() < 1e-12);
    assert_eq!(probe.recall_with_ties(), 1.0);
    // A less similar row is a miss either way; no more than k rows count.
    let probe = oubli::VectorProbe {
        approximate: vec![(9, 0.9), (5, 0.5), (2, 0.4)],
        exact: vec![(9, 0.9), (5, 0.5), (4, 0.5)],
    };
    assert!((probe.recall_with_ties() - 2.0 / 3.0).abs() < 1e-12);
    let empty = oubli::VectorProbe {
        approximate: vec![],
        exact: vec![],
    };
    assert_eq!(empty.recall_with_ties(), 1.0);
}
