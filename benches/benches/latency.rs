//! Percentile latencies and sizes the criterion benches do not report: recall p50/p99 at 10k and
//! 100k rows, batch inscribe throughput, open time, purge + scrub time and file bytes per row.
//!
//! Run: `cargo bench -p oubli-bench --bench latency` (about 4 minutes on 2 cores; the 100k store
//! build dominates). `OUBLI_LATENCY_SIZES=10000` limits the sizes.
//!
//! The inscribe rate counts the close of the store (which waits for a vector snapshot still
//! building in the background). "open + first ms" is `Store::open` plus the first recall.
//! "vector recall@10" is the mean, over 200 of the queries, of the share of an exact scan's top
//! 10 that the vector leg's own top 10 holds (`Store::vector_probe`): 1.0 below the ANN
//! threshold (the leg is an exact scan there), the HNSW snapshot's recall above it.
//! "recall@10 vs f32" compares the same top 10 with an exact scan over the embedder's vectors
//! in full precision (rows are stored in half precision since format 4), so it also counts what
//! the storage rounding costs.
//!
//! `OUBLI_LATENCY_EMBEDDER=hash` uses the built-in hash embedder (384 dimensions, the vectors
//! `benches/peers/peers.py` gives every store) instead of the default static embedder (256).
//!
//! `OUBLI_LATENCY_SPACE=1` also prints where the file's bytes go (`Store::space_report`): per
//! redb table and per text index file extension, in bytes per row.

mod support;

use std::time::{Duration, Instant};

use oubli::{HashEmbedder, Inscription, RecallQuery, Store, StoreOptions, Target};
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
        "| rows | inscribe rows/s (batches of 5000, close included) | open ms | open + first ms | recall p50 ms | recall p99 ms | vector recall@10 | recall@10 vs f32 | purge+scrub ms | file bytes/row |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    let space = std::env::var("OUBLI_LATENCY_SPACE").is_ok_and(|v| v == "1");
    let mut breakdowns = Vec::new();
    let opts = || match std::env::var("OUBLI_LATENCY_EMBEDDER").as_deref() {
        Ok("hash") => {
            StoreOptions::default().embedder(std::sync::Arc::new(HashEmbedder::default()))
        }
        _ => StoreOptions::default(),
    };
    for n in sizes {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("l.oubli");
        let s = Store::create_with(&path, opts()).unwrap();
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
        let s = Store::open_with(&path, opts()).unwrap();
        let open_ms = t.elapsed().as_secs_f64() * 1e3;
        let first = s.recall(&RecallQuery::new(memory_text(1)).k(10)).unwrap();
        let first_ms = t.elapsed().as_secs_f64() * 1e3;
        assert!(!first.is_empty());
        if space {
            breakdowns.push((n, s.space_report().unwrap()));
        }
        let mut lat = Vec::with_capacity(1000);
        for i in 0..1000u64 {
            let q = memory_text(i * 7919 % n as u64);
            let t = Instant::now();
            let hits = s.recall(&RecallQuery::new(q).k(10)).unwrap();
            lat.push(t.elapsed());
            assert!(!hits.is_empty());
        }
        lat.sort();
        let embedder = s.embedder();
        // Ground truth in full precision: every row's vector as the embedder gives it (f32,
        // normalized), before the store rounds it for storage.
        let dim = embedder.dim();
        let mut full = Vec::with_capacity(n * dim);
        for i in 0..n as u64 {
            let e = embedder.embed(&memory_text(i)).unwrap();
            full.extend(oubli::embed::check_vector(&e, dim).unwrap());
        }
        let probes = 200u64;
        let (mut recall10, mut recall10_f32) = (0.0, 0.0);
        for i in 0..probes {
            let q = embedder.embed(&memory_text(i * 7919 % n as u64)).unwrap();
            let q = oubli::embed::check_vector(&q, dim).unwrap();
            let p = s.vector_probe(&q, 10).unwrap();
            recall10 += p.recall() / probes as f64;
            let mut exact: Vec<(u64, f32)> = full
                .chunks_exact(dim)
                .enumerate()
                .map(|(r, v)| (r as u64 + 1, oubli::embed::dot(&q, v)))
                .collect();
            exact.sort_by(|a, b| b.1.total_cmp(&a.1).then(b.0.cmp(&a.0)));
            let hit = exact[..10]
                .iter()
                .filter(|(id, _)| p.approximate.iter().any(|(a, _)| a == id))
                .count();
            recall10_f32 += hit as f64 / 10.0 / probes as f64;
        }
        let t = Instant::now();
        s.purge(Target::id(n as u64 / 2)).unwrap();
        let purge_ms = t.elapsed().as_secs_f64() * 1e3;
        println!(
            "| {n} | {ins_rate:.0} | {open_ms:.1} | {first_ms:.1} | {:.2} | {:.2} | {recall10:.3} | {recall10_f32:.3} | {purge_ms:.0} | {:.0} |",
            pct(&lat, 0.5),
            pct(&lat, 0.99),
            bytes as f64 / n as f64
        );
    }
    for (n, r) in breakdowns {
        print_space(n, &r);
    }
}

/// Bytes per row of each redb table and each kind of text index file.
fn print_space(n: usize, r: &oubli::SpaceReport) {
    let per = |b: u64| b as f64 / n as f64;
    println!(
        "\n{n} rows: file {:.0} B/row, allocated {:.0} B/row (page {} B)",
        per(r.file_bytes),
        per(r.allocated_pages * r.page_size),
        r.page_size
    );
    println!(
        "| table | entries | stored B/row | metadata B/row | fragmented B/row | total B/row |"
    );
    println!("|---|---:|---:|---:|---:|---:|");
    let mut tables = r.tables.clone();
    tables.sort_by_key(|t| std::cmp::Reverse(t.total_bytes()));
    for t in tables.iter().filter(|t| t.total_bytes() > 0) {
        println!(
            "| {} | {} | {:.1} | {:.1} | {:.1} | {:.1} |",
            t.name,
            t.entries,
            per(t.stored_bytes),
            per(t.metadata_bytes),
            per(t.fragmented_bytes),
            per(t.total_bytes())
        );
    }
    let mut by_ext: std::collections::BTreeMap<String, u64> = Default::default();
    for (name, len) in &r.text_files {
        let ext = name.rsplit('.').next().unwrap_or(name).to_owned();
        *by_ext.entry(ext).or_default() += len;
    }
    println!("| text index file extension | B/row |");
    println!("|---|---:|");
    for (ext, len) in by_ext {
        println!("| {ext} | {:.1} |", per(len));
    }
}
