//! Percentile latencies and sizes the criterion benches do not report: recall p50/p99 at 10k and
//! 100k rows, batch inscribe throughput, open time, purge + scrub time and file bytes per row.
//!
//! Run: `cargo bench -p oubli-bench --bench latency` (about 4 minutes on 2 cores; the 100k store
//! build dominates). `OUBLI_LATENCY_SIZES=10000` limits the sizes.
//!
//! The inscribe rate counts the close of the store (which waits for a vector snapshot still
//! building in the background). Vector recall@10 compares the vector leg's top 10 for 200 texts
//! not in the store with an exact scan over every row's vector.

mod support;

use std::time::{Duration, Instant};

use oubli::{Inscription, Legs, RecallQuery, Store, Target};
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
        "| rows | inscribe rows/s (batches of 5000, close included) | open ms | recall p50 ms | recall p99 ms | vector recall@10 | purge+scrub ms | file bytes/row |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|");
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
        let recall10 = vector_recall_at_10(&s, n);
        let t = Instant::now();
        s.purge(Target::id(n as u64 / 2)).unwrap();
        let purge_ms = t.elapsed().as_secs_f64() * 1e3;
        println!(
            "| {n} | {ins_rate:.0} | {open_ms:.1} | {:.2} | {:.2} | {recall10:.3} | {purge_ms:.0} | {:.0} |",
            pct(&lat, 0.5),
            pct(&lat, 0.99),
            bytes as f64 / n as f64
        );
    }
}

/// Mean share of the vector leg's top 10 that belongs to the exact top 10 (by inner product over
/// every row's vector), over 200 texts not in the store. A row tied with the exact 10th counts
/// as exact (the synthetic memories share templates, so many rows tie). Rows were inscribed in
/// order, so row `i + 1` holds `memory_text(i)`.
fn vector_recall_at_10(s: &Store, n: usize) -> f64 {
    let e = s.embedder();
    let texts: Vec<String> = (0..n as u64).map(memory_text).collect();
    let mut all = Vec::with_capacity(n);
    for chunk in texts.chunks(1024) {
        let refs: Vec<&str> = chunk.iter().map(String::as_str).collect();
        all.extend(e.embed_batch(&refs).unwrap());
    }
    let queries = 200;
    let mut found = 0usize;
    for j in 0..queries as u64 {
        let q = e.embed(&memory_text(n as u64 + 1 + j * 31)).unwrap();
        let mut exact: Vec<(u64, f32)> = all
            .iter()
            .enumerate()
            .map(|(i, v)| (i as u64 + 1, v.iter().zip(&q).map(|(a, b)| a * b).sum()))
            .collect();
        exact.sort_by(|a, b| b.1.total_cmp(&a.1).then(b.0.cmp(&a.0)));
        let tenth = exact[9.min(exact.len() - 1)].1;
        let hits = s
            .recall(
                &RecallQuery::new("vector probe")
                    .vector(q)
                    .legs(Legs::Vector)
                    .min_score(0.0)
                    .k(10),
            )
            .unwrap();
        let sim = |id: u64| -> f32 {
            all[id as usize - 1]
                .iter()
                .zip(&q)
                .map(|(a, b)| a * b)
                .sum()
        };
        found += hits
            .iter()
            .filter(|h| sim(h.row.id) >= tenth - 1e-6)
            .count();
    }
    found as f64 / (queries * 10) as f64
}
