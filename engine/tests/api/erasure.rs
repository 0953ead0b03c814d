//! After a purge completes, no byte sequence of the purged text, nor its vector, is in the file.

use crate::common;

use common::*;
use oubli::{Embedder, Inscription, RecallQuery, StaticEmbedder, Store, StoreOptions, Target};

/// The vector as the ANN snapshot stores it: usearch's i8 cast, which scales to unit magnitude
/// in f64 and truncates `x * 127 / |v|` toward zero (usearch `cast_to_i8_gt`).
fn vector_i8_bytes(text: &str) -> Vec<u8> {
    let e = StaticEmbedder::new().unwrap().embed(text).unwrap();
    let v = oubli::storage::stored_vector(&oubli::embed::check_vector(&e, e.len()).unwrap());
    let mag = v
        .iter()
        .map(|x| (*x as f64) * (*x as f64))
        .sum::<f64>()
        .sqrt();
    v.iter()
        .map(|x| ((*x as f64 * 127.0 / mag).clamp(-127.0, 127.0) as i8) as u8)
        .collect()
}

fn vector_bytes(text: &str) -> Vec<u8> {
    let e = StaticEmbedder::new().unwrap().embed(text).unwrap();
    // Exactly what the store keeps: the embedder's output, checked, normalized and rounded to
    // half precision (format 4), in its half-precision record.
    let v = oubli::storage::stored_vector(&oubli::embed::check_vector(&e, e.len()).unwrap());
    oubli::storage::encode_vector(&v)
}

#[test]
fn purged_markers_leave_no_bytes_in_the_file() {
    let t = temp();
    let s = Store::create(&t.path).unwrap();
    // Enough rows to spread over several pages and several index segments.
    for i in 0..300 {
        s.inscribe(Inscription::new(format!(
            "filler memory {i} about gardening and tea"
        )))
        .unwrap();
    }
    let secrets = [
        "ZQXJ-marker-alpha-7781 is the vault passphrase",
        "patient record KVRP-marker-beta-0042 diagnosis",
        "contact Ωμέγα-marker-gamma-x5151w at home",
    ];
    let mut ids = Vec::new();
    for m in secrets {
        ids.push(
            s.inscribe(Inscription::new(m).key(format!("k-{}", ids.len())))
                .unwrap(),
        );
    }
    // Supersede one so the old version also sits in the chain.
    s.supersede(
        Target::id(ids[0]),
        Inscription::new("ZQXJ-marker-alpha-7782 rotated"),
    )
    .unwrap();
    for i in 0..50 {
        s.inscribe(Inscription::new(format!("more filler {i}")))
            .unwrap();
    }
    let before = std::fs::read(&t.path).unwrap();
    assert!(
        before.windows(10).any(|w| w == b"ZQXJ-marke"),
        "marker should be present before"
    );
    let v = vector_bytes(secrets[1]);
    assert!(
        before.windows(64).any(|w| w == &v[..64]),
        "vector should be present before"
    );

    for id in &ids {
        s.purge(Target::id(*id)).unwrap();
    }
    drop(s);
    for needle in [
        "ZQXJ-marker-alpha",
        "marker-alpha-7782",
        "KVRP-marker-beta",
        "marker-beta-0042",
        "Ωμέγα-marker",
        "marker-gamma-x5151w",
        "vault passphrase",
        "zqxj", // lower-cased postings
        "kvrp",
        // A token of its own in the postings. A bare number would be a poor needle: hex digests
        // and decimal timestamps in receipts contain any four digits now and then.
        "x5151w",
    ] {
        assert!(
            !file_contains(&t.path, needle.as_bytes()),
            "found {needle:?} in the file after purge"
        );
    }
    for m in secrets {
        let v = vector_bytes(m);
        assert!(
            !file_contains(&t.path, &v[..64]),
            "found the vector of {m:?}"
        );
    }
    // The rest is intact and recallable after the rewrite.
    let s = Store::open(&t.path).unwrap();
    s.verify_log(None).unwrap();
    let hits = s.recall(&RecallQuery::new("gardening filler 42")).unwrap();
    assert!(
        hits.iter()
            .any(|h| h.row.text.as_deref().unwrap().contains("filler memory 42"))
    );
}

#[test]
fn deferred_scrub_is_the_completion_point() {
    let t = temp();
    let s = Store::create_with(&t.path, StoreOptions::default().scrub_on_purge(false)).unwrap();
    s.inscribe(Inscription::new("deferred-marker-9931 secret"))
        .unwrap();
    s.inscribe(Inscription::new("keep this row")).unwrap();
    let r = s.purge(Target::query("deferred-marker-9931")).unwrap();
    assert_eq!(r.completion_seq, None);
    // Logically gone at once ...
    assert!(
        s.recall(&RecallQuery::new("deferred marker secret").include_submerged(true))
            .unwrap()
            .iter()
            .all(|h| h.row.text.as_deref() != Some("deferred-marker-9931 secret"))
    );
    // ... physically gone after scrub, while the store is still open.
    let seq = s.scrub().unwrap();
    assert!(seq > r.seq);
    assert!(!file_contains(&t.path, b"deferred-marker-9931"));
    assert!(!file_contains_token(&t.path, b"9931"));
    drop(s);
    assert!(!file_contains(&t.path, b"deferred-marker-9931"));
    assert!(!file_contains_token(&t.path, b"9931"));
}

#[test]
fn purge_with_an_ann_snapshot_rebuilds_it() {
    let t = temp();
    let s = Store::create_with(&t.path, StoreOptions::default().ann_threshold(64)).unwrap();
    // The marker is in the first batch, which the first background snapshot build holds (the
    // store installs it at the latest when it closes).
    let mut batch: Vec<Inscription> = (0..200)
        .map(|i| Inscription::new(format!("snapshot filler row {i}")))
        .collect();
    batch.push(Inscription::new("ann-marker-6060 unique words"));
    let id = s.inscribe_batch(batch).unwrap()[200];
    let more: Vec<Inscription> = (0..100)
        .map(|i| Inscription::new(format!("later filler row {i}")))
        .collect();
    s.inscribe_batch(more).unwrap();
    let v = vector_bytes("ann-marker-6060 unique words");
    let q = vector_i8_bytes("ann-marker-6060 unique words");
    drop(s);
    assert!(
        file_contains(&t.path, &v[..64]),
        "the vector table holds the vector"
    );
    assert!(
        file_contains(&t.path, &q[..64]),
        "the snapshot holds the quantized vector"
    );
    let s = Store::open_with(&t.path, StoreOptions::default().ann_threshold(64)).unwrap();
    let hits = s.recall(&RecallQuery::new("ann-marker-6060")).unwrap();
    assert_eq!(hits[0].row.id, id);
    s.purge(Target::id(id)).unwrap();
    drop(s);
    assert!(!file_contains(&t.path, &v[..64]));
    assert!(!file_contains(&t.path, &q[..64]));
    assert!(!file_contains(&t.path, b"ann-marker"));
    let s = Store::open_with(&t.path, StoreOptions::default().ann_threshold(64)).unwrap();
    let hits = s
        .recall(&RecallQuery::new("snapshot filler row 17"))
        .unwrap();
    assert!(
        hits.iter()
            .any(|h| h.row.text.as_deref() == Some("snapshot filler row 17"))
    );
}

/// Counts the texts it embeds (a hash embedder underneath).
struct Counting {
    inner: oubli::HashEmbedder,
    calls: std::sync::atomic::AtomicUsize,
}

impl Embedder for Counting {
    fn id(&self) -> String {
        self.inner.id()
    }
    fn dim(&self) -> usize {
        self.inner.dim()
    }
    fn embed(&self, text: &str) -> oubli::Result<Vec<f32>> {
        self.calls.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        self.inner.embed(text)
    }
}

/// Embedder calls of one purge by query in an in-memory store of `rows` filler rows.
fn purge_embeds(rows: usize, secret: &str) -> usize {
    let counting = std::sync::Arc::new(Counting {
        inner: oubli::HashEmbedder::new(64).unwrap(),
        calls: Default::default(),
    });
    let s = Store::in_memory(StoreOptions::default().embedder(counting.clone())).unwrap();
    let filler: Vec<Inscription> = (0..rows)
        .map(|i| Inscription::new(format!("filler memory {i} about gardening and tea")))
        .collect();
    s.inscribe_batch(filler).unwrap();
    s.inscribe(Inscription::new(secret)).unwrap();
    counting.calls.store(0, std::sync::atomic::Ordering::SeqCst);
    let r = s.purge(Target::query("KVRP-4410")).unwrap();
    assert_eq!(r.erased.len(), 1);
    assert!(
        r.audit.summary.control_compared,
        "the control store was compared"
    );
    counting.calls.load(std::sync::atomic::Ordering::SeqCst)
}

#[test]
fn purge_never_re_embeds_rows_and_embeds_each_probe_once() {
    let secret = "patient record KVRP-4410 diagnosis is confidential";
    let small = purge_embeds(20, secret);
    let large = purge_embeds(400, secret);
    // The rows (and the control store's copies of them) are never embedded again: the count
    // does not grow with the store.
    assert_eq!(small, large);
    // Only the audit's probes (built from the erased text, plus the selector) are embedded, once
    // each, whatever the number of recall channels and the control store that use them.
    let probes = oubli::residual::probes(secret).len() + 1;
    assert!(
        small <= probes,
        "{small} embedder calls for {probes} probes"
    );
}

/// A store of `opts` holding `row` (keyed `key`) in a committed text segment, between 3,000
/// rows before it and 2,000 after it (not in the in-memory tail).
fn store_with_a_row_in_a_segment(opts: StoreOptions, row: &str, key: &str) -> Store {
    let s = Store::in_memory(opts).unwrap();
    let rows: Vec<Inscription> = (0..3_000)
        .map(|i| {
            Inscription::new(format!(
                "memory {i}: the garden note {} for the tea shop",
                i * 7919 % 100_003
            ))
        })
        .collect();
    s.inscribe_batch(rows).unwrap();
    s.inscribe(Inscription::new(row).key(key)).unwrap();
    let more: Vec<Inscription> = (0..2_000)
        .map(|i| {
            Inscription::new(format!(
                "later memory {i} about the bakery on pier {}",
                i % 17
            ))
        })
        .collect();
    s.inscribe_batch(more).unwrap();
    s
}

/// A purge prepares its audit (the probes' vectors, the control built from the rows) while the
/// text segment that held the row is rewritten; the audit then searches the rewritten index. A
/// row erased from a committed segment (not the in-memory tail) leaves a clean audit: the store's
/// BM25 and vector legs agree with the control on every probe, and no erased id comes back.
#[test]
fn purge_of_a_row_in_a_segment_compares_clean_with_its_control() {
    let s = store_with_a_row_in_a_segment(
        StoreOptions::default(),
        "Orla's locker code at the Fenwick gym is QX-5521",
        "orla-locker",
    );
    let r = s.purge(Target::query("Orla's locker code")).unwrap();
    assert_eq!(r.erased.len(), 1);
    let a = &r.audit.summary;
    assert!(a.control_compared);
    assert_eq!(a.control_mismatches, 0, "{:?}", r.audit.findings);
    assert_eq!(a.erased_returned, 0);
    assert!(a.clean, "{a:?}");
    s.verify_log(None).unwrap();
}

/// The audit's control sees what a deferred scrub leaves: until the scrub, the text segment that
/// held the purged row still counts it in its BM25 statistics (document frequencies, token
/// total), so the store's scores differ from the control's, which never held the row; once
/// scrubbed, the same audit compares clean.
#[test]
fn the_control_sees_an_unscrubbed_row_and_a_scrub_clears_it() {
    let secret = "Tomas keeps the ferry office key under the harbour bench";
    let s = store_with_a_row_in_a_segment(
        StoreOptions::default().scrub_on_purge(false),
        secret,
        "tomas-key",
    );
    let r = s.purge(Target::key("default", "tomas-key")).unwrap();
    assert_eq!(r.erased.len(), 1);
    assert_eq!(r.completion_seq, None);
    let a = &r.audit.summary;
    assert!(a.control_compared);
    assert!(a.control_mismatches > 0, "{a:?}");
    assert!(!a.clean);
    s.scrub().unwrap();
    let again = s
        .residual_audit(&oubli::AuditRequest {
            texts: vec![secret.to_owned()],
            selector: r.opening.selector.clone(),
            erased: r.erased.clone(),
            before_seq: None,
            k: 20,
            control: Some(true),
        })
        .unwrap();
    assert_eq!(again.summary.control_mismatches, 0, "{:?}", again.findings);
    assert_eq!(again.summary.erased_returned, 0);
}

/// The deferred scrub of a store whose only row was purged: the erased bytes are gone from the
/// file once `scrub` returns, before the store is closed.
#[test]
fn deferred_scrub_of_the_only_row_erases_before_close() {
    let t = temp();
    let s = Store::create_with(&t.path, StoreOptions::default().scrub_on_purge(false)).unwrap();
    s.inscribe(Inscription::new("Ingrid's locker code is 5150"))
        .unwrap();
    let r = s.purge(Target::query("Ingrid's locker code")).unwrap();
    assert_eq!(r.completion_seq, None);
    let seq = s.scrub().unwrap();
    assert!(seq > r.seq);
    // A four-digit number occurs by chance inside hex digests: look for it as a token.
    assert!(!file_contains_token(&t.path, b"5150"));
    assert!(!file_contains(&t.path, b"Ingrid"));
    drop(s);
    assert!(!file_contains_token(&t.path, b"5150"));
}

/// A reopened store searches its vector graph in place (usearch's view of the bytes read from
/// the file): a purged row leaves every search at once, and the graph grows past the rows it
/// held, after a purge (rebuilt from the vectors) and without one (extended from the view).
#[test]
fn a_graph_viewed_after_open_hides_purged_rows_and_grows() {
    let t = temp();
    // The hash embedder, and rows of distinct words: each row's own text is its nearest.
    let opts = || {
        StoreOptions::default()
            .ann_threshold(64)
            .embedder(std::sync::Arc::new(oubli::HashEmbedder::new(64).unwrap()))
    };
    const W: [&str; 20] = [
        "amber", "basil", "cedar", "delta", "ember", "fjord", "glade", "heron", "iris", "juniper",
        "kelp", "lotus", "maple", "nectar", "olive", "pepper", "quartz", "raven", "sage", "thyme",
    ];
    let text = |i: usize| {
        format!(
            "{} x{} y{} graph",
            W[i % 20],
            W[i / 20 % 20],
            W[i / 400 % 20]
        )
    };
    let add = |s: &Store, from: usize, to: usize| -> Vec<u64> {
        let mut ids = Vec::new();
        for start in (from..to).step_by(40) {
            let batch = (start..to.min(start + 40))
                .map(|i| Inscription::new(text(i)))
                .collect();
            ids.extend(s.inscribe_batch(batch).unwrap());
        }
        ids
    };
    let s = Store::create_with(&t.path, opts()).unwrap();
    let mut ids = add(&s, 0, 300);
    drop(s);
    // By raw cosine (the calibrated score ties every close row at 1).
    let nearest = |s: &Store, i: usize| {
        let q = RecallQuery::new(text(i)).k(20).legs(oubli::Legs::Vector);
        let mut hits = s.recall(&q).unwrap();
        let cos = |h: &oubli::Hit| h.explain.vector_score.unwrap_or(f32::MIN);
        hits.sort_by(|a, b| cos(b).total_cmp(&cos(a)));
        hits
    };
    // Reopened: the graph is a view. Its rows are found; a purged one is gone from every search.
    let s = Store::open_with(&t.path, opts()).unwrap();
    for i in [0, 17, 150, 299] {
        assert_eq!(nearest(&s, i)[0].row.id, ids[i]);
    }
    s.purge(Target::id(ids[17])).unwrap();
    assert!(nearest(&s, 17).iter().all(|h| h.row.id != ids[17]));
    assert_eq!(nearest(&s, 18)[0].row.id, ids[18]);
    // Growth after a purge rebuilds the graph from the vectors; then growth from a clean view.
    ids.extend(add(&s, 300, 500));
    drop(s);
    let s = Store::open_with(&t.path, opts()).unwrap();
    ids.extend(add(&s, 500, 700));
    drop(s);
    let s = Store::open_with(&t.path, opts()).unwrap();
    for i in [0, 18, 299, 300, 499, 500, 699] {
        assert_eq!(nearest(&s, i)[0].row.id, ids[i], "row {i}");
    }
    assert!(nearest(&s, 17).iter().all(|h| h.row.id != ids[17]));
    assert!(!file_contains(&t.path, text(17).as_bytes()));
}

/// Past five ANN thresholds of vectors the graph is cut into segments: a row in any segment is
/// found by the vector leg, and purging one from the first segment leaves neither its stored
/// nor its quantized vector in the file while the later segments keep serving their rows.
#[test]
fn a_purge_erases_a_vector_from_any_graph_segment() {
    let t = temp();
    let opts = || StoreOptions::default().ann_threshold(64);
    // Rows of distinct word bags, so that each row's own text is its nearest vector.
    const A: [&str; 20] = [
        "apple", "bridge", "candle", "desert", "engine", "forest", "guitar", "harbor", "island",
        "jacket", "kettle", "ladder", "mirror", "needle", "orange", "pillow", "rocket", "saddle",
        "tunnel", "violin",
    ];
    const B: [&str; 20] = [
        "red", "blue", "green", "yellow", "purple", "silver", "golden", "black", "white", "pink",
        "brown", "grey", "violet", "crimson", "amber", "ivory", "olive", "teal", "navy", "coral",
    ];
    const C: [&str; 3] = ["monday", "winter", "morning"];
    let text = |i: usize| format!("the {} {} on a {}", B[i / 20 % 20], A[i % 20], C[i / 400]);
    let marker = "seg-marker-7171 orchid lantern";
    let s = Store::create_with(&t.path, opts()).unwrap();
    let mut ids = Vec::new();
    for start in (0..1_000).step_by(50) {
        let mut batch: Vec<Inscription> = (start..start + 50)
            .map(|i| Inscription::new(text(i)))
            .collect();
        if start == 50 {
            batch.push(Inscription::new(marker));
        }
        ids.extend(s.inscribe_batch(batch).unwrap());
    }
    let marker_id = ids[100];
    drop(s);
    {
        use redb::ReadableDatabase as _;
        let db = redb::Database::open(&t.path).unwrap();
        let tx = db.begin_read().unwrap();
        let m = tx.open_table(oubli::storage::META).unwrap();
        let list = m.get(oubli::storage::meta::SNAPSHOT_SEGMENTS).unwrap();
        assert!(
            list.is_some_and(|l| l.value().len() >= 3 * 16),
            "three segments or more"
        );
    }
    let (v, q) = (vector_bytes(marker), vector_i8_bytes(marker));
    assert!(file_contains(&t.path, &q[..64]), "a segment holds it");
    let s = Store::open_with(&t.path, opts()).unwrap();
    // By raw cosine (the calibrated score ties every close row at 1).
    let vector_hit = |s: &Store, query: &str| {
        let q = RecallQuery::new(query).k(20).legs(oubli::Legs::Vector);
        let hits = s.recall(&q).unwrap();
        let cos = |h: &oubli::Hit| h.explain.vector_score.unwrap_or(f32::MIN);
        hits.iter()
            .max_by(|a, b| cos(a).total_cmp(&cos(b)))
            .and_then(|h| h.row.text.clone())
    };
    assert_eq!(vector_hit(&s, marker).as_deref(), Some(marker));
    s.purge(Target::id(marker_id)).unwrap();
    drop(s);
    assert!(!file_contains(&t.path, &v[..64]));
    assert!(!file_contains(&t.path, &q[..64]));
    assert!(!file_contains(&t.path, b"seg-marker"));
    let s = Store::open_with(&t.path, opts()).unwrap();
    for i in [0, 20, 400, 777, 999] {
        assert_eq!(vector_hit(&s, &text(i)), Some(text(i)), "row {i}");
    }
    s.verify_file().unwrap();
}
