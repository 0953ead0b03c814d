//! Single durable insert latency: loads a store file to N rows in batches, then inscribes rows one
//! by one (each a durable commit) and prints their p50 / p95 / p99 / max, the way an agent writes
//! one memory per turn.
//!
//! Run: `cargo bench -p oubli-bench --bench insert`. `OUBLI_INSERT_ROWS=10000,100000` sets the
//! store sizes (default 10000), `OUBLI_INSERT_SINGLES=2000` the one-row inserts per size
//! (default 2000). The store uses the built-in hash embedder (384 dimensions), so the figure is
//! the engine's write path, not the embedder's. `OUBLI_INSERT_DURABLE=0` opens the store with
//! `durable(false)` (no fsync wait), which isolates the engine's own cost from the disk's.

mod support;

use std::sync::Arc;
use std::time::{Duration, Instant};

use oubli::{HashEmbedder, Inscription, Store, StoreOptions};
use support::memory_text;

fn pct(sorted: &[Duration], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i].as_secs_f64() * 1e3
}

fn env_list(name: &str, default: &[usize]) -> Vec<usize> {
    std::env::var(name)
        .ok()
        .map(|s| s.split(',').filter_map(|x| x.trim().parse().ok()).collect())
        .unwrap_or_else(|| default.to_vec())
}

fn main() {
    let sizes = env_list("OUBLI_INSERT_ROWS", &[10_000]);
    let singles = env_list("OUBLI_INSERT_SINGLES", &[2_000])[0];
    println!(
        "| rows | one-row inserts | p50 ms | p95 ms | p99 ms | max ms | inserts over 10 ms | file bytes/row |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|");
    for n in sizes {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("insert.oubli");
        let durable = std::env::var("OUBLI_INSERT_DURABLE").map_or(true, |v| v != "0");
        let opts = StoreOptions::default()
            .embedder(Arc::new(HashEmbedder::new(384).unwrap()))
            .deterministic_seed([7; 32])
            .durable(durable);
        let s = Store::create_with(&path, opts).unwrap();
        let rows: Vec<Inscription> = (0..n as u64)
            .map(|i| Inscription::new(memory_text(i)))
            .collect();
        for chunk in rows.chunks(5_000) {
            s.inscribe_batch(chunk.to_vec()).unwrap();
        }
        let mut lat = Vec::with_capacity(singles);
        for j in 0..singles as u64 {
            let ins = Inscription::new(memory_text(n as u64 + j));
            let t = Instant::now();
            s.inscribe(ins).unwrap();
            lat.push(t.elapsed());
        }
        let slow = lat.iter().filter(|d| d.as_millis() > 10).count();
        lat.sort();
        drop(s);
        let bytes = std::fs::metadata(&path).unwrap().len();
        println!(
            "| {n} | {singles} | {:.2} | {:.2} | {:.2} | {:.2} | {slow} | {:.0} |",
            pct(&lat, 0.5),
            pct(&lat, 0.95),
            pct(&lat, 0.99),
            pct(&lat, 1.0),
            bytes as f64 / (n + singles) as f64,
        );
    }
}
