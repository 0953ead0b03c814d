//! Readers beside writers: how long a recall takes while another thread purges, supersedes or
//! inscribes in the same store (the time a reader waits on a writer shows here).
//!
//! A durable store file of N synthetic memories (hash embedder, 384-d). One reader thread runs
//! hybrid recalls (k = 10) back to back, first alone, then while a writer thread runs a fixed
//! sequence of writes of one kind:
//! - `purge`: inscribes a memory holding a fresh code, then purges it by query (to the erasure
//!   point, receipt and residual audit included: the whole call);
//! - `supersede`: supersedes a memory by query with a new text;
//! - `inscribe`: one durable one-row inscription (20 times as many as the other kinds: each is
//!   short).
//!
//! Prints, per phase, the reader's recall p50 / p99 / max wall-clock ms and how many recalls
//! took over 10 ms, and the writer's mean ms per call. A reader that never waits on a writer
//! keeps its p99 near the alone figure (both threads share the machine's cores, so some rise
//! is CPU, not waiting).
//!
//! Run: `cargo bench -p oubli-bench --bench readers`. `OUBLI_READERS_ROWS=10000` sets the store
//! size (default 10,000), `OUBLI_READERS_WRITES=40` the writes per kind (default 40).

mod support;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use oubli::{Inscription, RecallQuery, Store, Target};
use support::memory_text;

fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn pct(sorted: &[Duration], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 * q).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[i].as_secs_f64() * 1e3
}

/// Recalls back to back until `stop` is set (or `count` recalls when given); their latencies.
fn read_until(store: &Store, stop: &AtomicBool, count: Option<usize>) -> Vec<Duration> {
    let mut lat = Vec::new();
    let mut i = 0u64;
    while count.map_or(!stop.load(Ordering::Relaxed), |c| lat.len() < c) {
        // The same query mix as the recall bench: a person and a topic word.
        let q = memory_text(i * 7919 + 13);
        let words: Vec<&str> = q.split_whitespace().take(3).collect();
        let query = RecallQuery::new(words.join(" ")).k(10);
        let t = Instant::now();
        let hits = store.recall(&query).expect("recall");
        lat.push(t.elapsed());
        std::hint::black_box(hits);
        i += 1;
    }
    lat
}

fn report(n: usize, phase: &str, mut lat: Vec<Duration>, writer_ms: Option<f64>) {
    lat.sort();
    let slow = lat.iter().filter(|d| d.as_millis() > 10).count();
    println!(
        "| {n} | {phase} | {} | {:.3} | {:.3} | {:.3} | {slow} | {} |",
        lat.len(),
        pct(&lat, 0.5),
        pct(&lat, 0.99),
        lat.last().map_or(0.0, |d| d.as_secs_f64() * 1e3),
        writer_ms.map_or("-".to_string(), |m| format!("{m:.1}")),
    );
}

fn main() {
    let n = env("OUBLI_READERS_ROWS", 10_000);
    let writes = env("OUBLI_READERS_WRITES", 40);
    let dir = tempfile::tempdir().expect("temp dir");
    let store = Arc::new(Store::create(dir.path().join("r.oubli")).expect("create"));
    let texts: Vec<Inscription> = (0..n as u64)
        .map(|i| Inscription::new(memory_text(i)))
        .collect();
    for chunk in texts.chunks(5_000) {
        store.inscribe_batch(chunk.to_vec()).expect("load");
    }
    println!(
        "| rows | reader beside | recalls | p50 ms | p99 ms | max ms | recalls over 10 ms | writer ms per call |"
    );
    println!("|---:|---|---:|---:|---:|---:|---:|---:|");
    let never = AtomicBool::new(false);
    report(n, "nothing", read_until(&store, &never, Some(2_000)), None);
    for kind in ["purge", "supersede", "inscribe"] {
        let stop = Arc::new(AtomicBool::new(false));
        let reader = {
            let (store, stop) = (store.clone(), stop.clone());
            std::thread::spawn(move || read_until(&store, &stop, None))
        };
        let t = Instant::now();
        let count = if kind == "inscribe" {
            writes * 20
        } else {
            writes
        };
        for w in 0..count {
            match kind {
                "purge" => {
                    let code = format!("QZX-{w:04}-K");
                    store
                        .inscribe(Inscription::new(format!(
                            "the locker code of the east annex is {code}"
                        )))
                        .expect("inscribe");
                    let r = store.purge(Target::query(code.as_str())).expect("purge");
                    assert_eq!(r.erased.len(), 1, "the purge erases the one row");
                }
                "supersede" => {
                    let old = memory_text(w as u64 * 31);
                    store
                        .supersede(
                            Target::query(old.as_str()),
                            Inscription::new(format!("{old}, revised")),
                        )
                        .expect("supersede");
                }
                _ => {
                    store
                        .inscribe(Inscription::new(memory_text((n + w) as u64)))
                        .expect("inscribe");
                }
            }
        }
        let writer_ms = t.elapsed().as_secs_f64() * 1e3 / count.max(1) as f64;
        stop.store(true, Ordering::Relaxed);
        let lat = reader.join().expect("reader thread");
        report(n, kind, lat, Some(writer_ms));
    }
}
