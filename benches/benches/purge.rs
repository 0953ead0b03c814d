//! Purge cost against embedder cost: one purge by query (erasure, residual audit with its control
//! store, scrub) in a store file of N rows, with the built-in hash embedder and with the same
//! embedder slowed to a fixed cost per text (standing in for a transformer such as MiniLM, about
//! 5 ms per text on 2 cores). Prints the purge time, the embedder calls it made, and the split
//! between the residual audit and the rest (erasure, scrub to the erasure point, receipt): the
//! time inside the purge's own `oubli::Store::residual_audit` tracing span, measured by a
//! subscriber that times spans, and the purge time minus it. The span holds the audit's searches
//! and its comparison with the control; the audit's preparation (the probes' vectors and the
//! control index built from the rows) runs while the text segments are rewritten, and counts in
//! the rest.
//!
//! Run: `cargo bench -p oubli-bench --bench purge`. `OUBLI_PURGE_ROWS=150,10000` sets the sizes
//! (default 150), `OUBLI_PURGE_EMBED_MS=5` the slow embedder's cost per text.

mod support;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use std::collections::HashMap;
use std::sync::Mutex;

use oubli::{Embedder, HashEmbedder, Inscription, Store, StoreOptions, Target};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

/// Total time spent inside spans of each name (spans are entered once each here).
#[derive(Default)]
struct SpanTimer {
    names: Mutex<Vec<&'static str>>,
    entered: Mutex<HashMap<u64, Instant>>,
    total: Mutex<HashMap<&'static str, Duration>>,
}

impl SpanTimer {
    fn take(&self, name: &str) -> Duration {
        self.total.lock().unwrap().remove(name).unwrap_or_default()
    }
}

impl Subscriber for &'static SpanTimer {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, span: &Attributes<'_>) -> Id {
        let mut names = self.names.lock().unwrap();
        names.push(span.metadata().name());
        Id::from_u64(names.len() as u64)
    }
    fn record(&self, _: &Id, _: &Record<'_>) {}
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, _: &Event<'_>) {}
    fn enter(&self, id: &Id) {
        self.entered
            .lock()
            .unwrap()
            .insert(id.into_u64(), Instant::now());
    }
    fn exit(&self, id: &Id) {
        let Some(at) = self.entered.lock().unwrap().remove(&id.into_u64()) else {
            return;
        };
        let name = self.names.lock().unwrap()[id.into_u64() as usize - 1];
        *self.total.lock().unwrap().entry(name).or_default() += at.elapsed();
    }
}
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
            let timer: &'static SpanTimer = Box::leak(Box::default());
            let t = Instant::now();
            let r = tracing::subscriber::with_default(timer, || {
                s.purge(Target::query("KVRPZ-QX")).unwrap()
            });
            let ms = t.elapsed().as_secs_f64() * 1e3;
            assert_eq!(r.erased.len(), 1);
            let calls = slowed.calls.load(Ordering::SeqCst);
            let audit_ms = timer.take("oubli::Store::residual_audit").as_secs_f64() * 1e3;
            println!(
                "| {n} | {cost} | {ms:.1} | {audit_ms:.1} | {:.1} | {calls} |",
                ms - audit_ms
            );
        }
    }
}
