//! Percentile latencies and sizes the criterion benches do not report: recall p50/p99 at 10k and
//! 100k rows, batch inscribe throughput, open time, purge + scrub time and file bytes per row.
//!
//! Run: `cargo bench -p oubli-bench --bench latency` (about 4 minutes on 2 cores; the 100k store
//! build dominates). `OUBLI_LATENCY_SIZES=10000` limits the sizes.
//!
//! The inscribe rate counts the close of the store (which waits for a vector snapshot still
//! building in the background).

mod support;

use std::time::{Duration, Instant};

use oubli::{Inscription, RecallQuery, Store, Target};
use support::memory_text;

fn pct(sorted: &[Duration], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i].as_secs_f64() * 1e3
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else is accepted.
    let sizes: Vec<usize> = std::env::var("OUBLI_LATENCY_SIZES")
        .ok()
        .map(|s| s.split(',').filter_map(|x| x.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![10_000, 100_000]);
    println!(
        "| rows | inscribe rows/s (batches of 5000, close included) | open ms | recall p50 ms | recall p99 ms | purge+scrub ms | file bytes/row |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|");
    for n in sizes {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("l.oubli");
        let s = Store::create(&path).unwrap();
        let rows: Vec<Inscription> = (0..n as u64)
            .map(|i| Inscription::new(memory_text(i)))
            .collect();
        let t = Instant::now();
        for chunk in rows.chunks(5_000) {
            s.inscribe_batch(chunk.to_vec()).unwrap();
        }
        drop(s);
        let ins_rate = n as f64 / t.elapsed().as_secs_f64();
        let bytes = std::fs::metadata(&path).unwrap().len();
        let t = Instant::now();
        let s = Store::open(&path).unwrap();
        let open_ms = t.elapsed().as_secs_f64() * 1e3;
        let mut lat = Vec::with_capacity(1000);
        for i in 0..1000u64 {
            let q = memory_text(i * 7919 % n as u64);
            let t = Instant::now();
            let hits = s.recall(&RecallQuery::new(q).k(10)).unwrap();
            lat.push(t.elapsed());
            assert!(!hits.is_empty());
        }
        lat.sort();
        let t = Instant::now();
        s.purge(Target::id(n as u64 / 2)).unwrap();
        let purge_ms = t.elapsed().as_secs_f64() * 1e3;
        println!(
            "| {n} | {ins_rate:.0} | {open_ms:.1} | {:.2} | {:.2} | {purge_ms:.0} | {:.0} |",
            pct(&lat, 0.5),
            pct(&lat, 0.99),
            bytes as f64 / n as f64
        );
    }
}
