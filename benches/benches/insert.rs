//! Single durable insert latency: loads a store file to N rows in batches, then inscribes rows one
//! by one (each a durable commit) and prints their p50 / p95 / p99 / max, the way an agent writes
//! one memory per turn.
//!
//! Run: `cargo bench -p oubli-bench --bench insert`. `OUBLI_INSERT_ROWS=10000,100000` sets the
//! store sizes (default 10000), `OUBLI_INSERT_SINGLES=2000` the one-row inserts per size
//! (default 2000). The store uses the built-in hash embedder (384 dimensions), so the figure is
//! the engine's write path, not the embedder's. `OUBLI_INSERT_DURABLE=0` opens the store with
//! `durable(false)` (no fsync wait), which isolates the engine's own cost from the disk's.
//!
//! `OUBLI_INSERT_THREADS=1,4,8` (default 1) runs the one-row inserts from that many threads at
//! once (the `OUBLI_INSERT_SINGLES` inserts split between them) and adds the total rate of
//! inserts and the mean number of inserts one durable commit covered (the store's group commit,
//! `Store::group_commit_stats`).

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
    let threads = env_list("OUBLI_INSERT_THREADS", &[1]);
    println!(
        "| rows | threads | one-row inserts | inserts/s | p50 ms | p95 ms | p99 ms | max ms | inserts over 10 ms | inserts per durable commit | file bytes/row |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for n in sizes {
        for &t in &threads {
            run(n, singles, t.max(1));
        }
    }
}

fn run(n: usize, singles: usize, threads: usize) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("insert.oubli");
    let durable = std::env::var("OUBLI_INSERT_DURABLE").map_or(true, |v| v != "0");
    let opts = StoreOptions::default()
        .embedder(Arc::new(HashEmbedder::new(384).unwrap()))
        .deterministic_seed([7; 32])
        .durable(durable);
    let s = Arc::new(Store::create_with(&path, opts).unwrap());
    let rows: Vec<Inscription> = (0..n as u64)
        .map(|i| Inscription::new(memory_text(i)))
        .collect();
    for chunk in rows.chunks(5_000) {
        s.inscribe_batch(chunk.to_vec()).unwrap();
    }
    let stats_before = s.group_commit_stats();
    let per_thread = singles / threads;
    let start = Instant::now();
    let handles: Vec<_> = (0..threads)
        .map(|k| {
            let s = s.clone();
            std::thread::spawn(move || {
                let mut lat = Vec::with_capacity(per_thread);
                for j in 0..per_thread {
                    let i = (n + k * per_thread + j) as u64;
                    let ins = Inscription::new(memory_text(i));
                    let t = Instant::now();
                    s.inscribe(ins).unwrap();
                    lat.push(t.elapsed());
                }
                lat
            })
        })
        .collect();
    let mut lat: Vec<Duration> = handles
        .into_iter()
        .flat_map(|h| h.join().unwrap())
        .collect();
    let wall = start.elapsed();
    let stats = s.group_commit_stats();
    let groups = stats.groups - stats_before.groups;
    let writes = stats.writes - stats_before.writes;
    let slow = lat.iter().filter(|d| d.as_millis() > 10).count();
    lat.sort();
    drop(s);
    let bytes = std::fs::metadata(&path).unwrap().len();
    let done = lat.len();
    println!(
        "| {n} | {threads} | {done} | {:.0} | {:.2} | {:.2} | {:.2} | {:.2} | {slow} | {:.2} | {:.0} |",
        done as f64 / wall.as_secs_f64(),
        pct(&lat, 0.5),
        pct(&lat, 0.95),
        pct(&lat, 0.99),
        pct(&lat, 1.0),
        writes as f64 / groups.max(1) as f64,
        bytes as f64 / (n + done) as f64,
    );
}
