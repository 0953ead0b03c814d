//! Purge cost against embedder cost: one purge by query (erasure, residual audit with its control
//! store, scrub) in a store file of N rows, with the built-in hash embedder and with the same
//! embedder slowed to a fixed cost per text (standing in for a transformer such as MiniLM, about
//! 5 ms per text on 2 cores). Prints the purge time, the embedder calls it made, and the split
//! between the residual audit and the rest (erasure, scrub to the erasure point, receipt): the
//! audit is timed again on its own with the purge's own request right after the purge, and the
//! erasure figure is the purge time minus that.
//!
//! Run: `cargo bench -p oubli-bench --bench purge`. `OUBLI_PURGE_ROWS=150,10000` sets the sizes
//! (default 150), `OUBLI_PURGE_EMBED_MS=5` the slow embedder's cost per text.

mod support;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use oubli::{AuditRequest, Embedder, HashEmbedder, Inscription, Store, StoreOptions, Target};
use support::memory_text;

/// The hash embedder, counting its texts and spending `cost` on each.
struct Slow {
    inner: HashEmbedder,
    cost: Duration,
    calls: AtomicUsize,
}

impl Embedder for Slow {
    fn id(&self) -> String {
        self.inner.id()
    }
    fn dim(&self) -> usize {
        self.inner.dim()
    }
    fn embed(&self, text: &str) -> oubli::Result<Vec<f32>> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        let until = Instant::now() + self.cost;
        while Instant::now() < until {
            std::hint::spin_loop();
        }
        self.inner.embed(text)
    }
}

fn main() {
    let sizes: Vec<usize> = std::env::var("OUBLI_PURGE_ROWS")
        .ok()
        .map(|s| s.split(',').filter_map(|x| x.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![150]);
    let slow_ms: u64 = std::env::var("OUBLI_PURGE_EMBED_MS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    println!(
        "| rows | embedder ms per text | purge ms | audit ms | purge to erasure point ms (purge - audit) | embedder calls in the purge |"
    );
    println!("|---:|---:|---:|---:|---:|---:|");
    for n in sizes {
        for cost in [0, slow_ms] {
            let embedder = Arc::new(Slow {
                inner: HashEmbedder::new(384).unwrap(),
                cost: Duration::ZERO,
                calls: AtomicUsize::new(0),
            });
            let dir = tempfile::tempdir().unwrap();
            let opts = StoreOptions::default()
                .embedder(embedder.clone())
                .deterministic_seed([3; 32]);
            let s = Store::create_with(dir.path().join("p.oubli"), opts).unwrap();
            let rows: Vec<Inscription> = (0..n as u64)
                .map(|i| Inscription::new(memory_text(i)))
                .collect();
            for chunk in rows.chunks(5_000) {
                s.inscribe_batch(chunk.to_vec()).unwrap();
            }
            s.inscribe(Inscription::new(
                "patient record KVRPZ-QX diagnosis is confidential",
            ))
            .unwrap();
            // The slow embedder's cost applies from here on: to the purge only.
            let slowed = Arc::new(Slow {
                inner: HashEmbedder::new(384).unwrap(),
                cost: Duration::from_millis(cost),
                calls: AtomicUsize::new(0),
            });
            drop(s);
            let opts = StoreOptions::default()
                .embedder(slowed.clone())
                .deterministic_seed([3; 32]);
            let s = Store::open_with(dir.path().join("p.oubli"), opts).unwrap();
            let t = Instant::now();
            let r = s.purge(Target::query("KVRPZ-QX")).unwrap();
            let ms = t.elapsed().as_secs_f64() * 1e3;
            assert_eq!(r.erased.len(), 1);
            let calls = slowed.calls.load(Ordering::SeqCst);
            // The purge's own audit, again: the erased text, the selector, the erased row and
            // the head before the purge, as the purge ran it.
            let req = AuditRequest {
                texts: vec!["patient record KVRPZ-QX diagnosis is confidential".into()],
                selector: "KVRPZ-QX".into(),
                erased: r.erased.clone(),
                before_seq: Some(r.receipt.body.log.seq_before),
                k: 20,
                control: None,
            };
            let t = Instant::now();
            let audit = s.residual_audit(&req).unwrap();
            let audit_ms = t.elapsed().as_secs_f64() * 1e3;
            assert_eq!(audit.summary.probes, r.audit.summary.probes);
            println!(
                "| {n} | {cost} | {ms:.1} | {audit_ms:.1} | {:.1} | {calls} |",
                ms - audit_ms
            );
        }
    }
}
