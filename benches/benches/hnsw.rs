//! What the HNSW snapshot's build parameters cost and buy: for each `expansion_add`, the time to
//! build the graph the way the store does (usearch, inner product, i8, connectivity 16, vectors
//! added in id order on one thread) and the graph's recall@10 against an exact f32 scan.
//!
//! Run: `cargo bench -p oubli-bench --bench hnsw`. `OUBLI_HNSW_ROWS` sets the vectors (default
//! 20000), `OUBLI_HNSW_EF_ADD` the `expansion_add` values (default `128,64,32`; the store uses
//! 128), `OUBLI_HNSW_CONNECTIVITY` the graph degree (default 16). Vectors are the store's default
//! embedder's (the built-in static table) over the synthetic memories; the 500 queries are
//! memories not in the graph. Search uses the store's `expansion_search` (256). This measures
//! the graph alone, not the store's recall path (which re-scores candidates exactly and merges
//! the exact tail). `OUBLI_HNSW_EMBEDDER=hash` takes the 384-d hash embedder's vectors instead
//! (the vectors `benches/peers/peers.py` gives every store).
//!
//! Beside the wall time, the build's CPU time (this thread's, from `/proc/thread-self/stat`, so
//! other processes on a shared machine move it less) and the blake3 of the serialized graph:
//! the same inputs must give the same bytes whatever distance kernel usearch was built with
//! (`hardware_acceleration`, printed first: `serial` without usearch's SIMD kernels).

mod support;

use std::time::Instant;

use oubli::{Embedder, HashEmbedder, StaticEmbedder};
use support::memory_text;
use usearch::{Index, IndexOptions, MetricKind, ScalarKind};

fn env_list(name: &str, default: &[usize]) -> Vec<usize> {
    std::env::var(name)
        .ok()
        .map(|s| s.split(',').filter_map(|x| x.trim().parse().ok()).collect())
        .unwrap_or_else(|| default.to_vec())
}

/// User + system CPU seconds of the calling thread so far (Linux; 0 elsewhere).
fn thread_cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/thread-self/stat") else {
        return 0.0;
    };
    // Fields after the command name (which is in parentheses and may hold spaces).
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|x| x.parse::<f64>().ok()).unwrap_or(0.0);
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name; 100 ticks/s.
    (ticks(11) + ticks(12)) / 100.0
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn main() {
    let n = env_list("OUBLI_HNSW_ROWS", &[20_000])[0];
    let efs = env_list("OUBLI_HNSW_EF_ADD", &[128, 64, 32]);
    let m = env_list("OUBLI_HNSW_CONNECTIVITY", &[16])[0];
    let e: Box<dyn Embedder> = match std::env::var("OUBLI_HNSW_EMBEDDER").as_deref() {
        Ok("hash") => Box::new(HashEmbedder::default()),
        _ => Box::new(StaticEmbedder::new().unwrap()),
    };
    let dim = e.dim();
    let texts: Vec<String> = (0..n as u64).map(memory_text).collect();
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let vectors = e.embed_batch(&refs).unwrap();
    let queries: Vec<Vec<f32>> = (0..500u64)
        .map(|q| e.embed(&memory_text(n as u64 + 1 + q * 13)).unwrap())
        .collect();
    // Exact top 10 of each query.
    let exact: Vec<Vec<u64>> = queries
        .iter()
        .map(|q| {
            let mut s: Vec<(u64, f32)> = vectors
                .iter()
                .enumerate()
                .map(|(i, v)| (i as u64, dot(q, v)))
                .collect();
            s.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            s.iter().take(10).map(|x| x.0).collect()
        })
        .collect();
    println!(
        "| vectors | dim | kernel | connectivity | expansion_add | build s | ms per vector | CPU ms per vector | recall@10 | search p50 us | graph blake3 |"
    );
    println!("|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---|");
    for ef in efs {
        let opts = IndexOptions {
            dimensions: dim,
            metric: MetricKind::IP,
            quantization: ScalarKind::I8,
            connectivity: m,
            expansion_add: ef,
            expansion_search: 256,
            multi: false,
        };
        let index = Index::new(&opts).unwrap();
        index.reserve(n).unwrap();
        let (t, c) = (Instant::now(), thread_cpu_seconds());
        for (i, v) in vectors.iter().enumerate() {
            index.add(i as u64, v).unwrap();
        }
        let (build, cpu) = (t.elapsed().as_secs_f64(), thread_cpu_seconds() - c);
        let mut blob = vec![0u8; index.serialized_length()];
        index.save_to_buffer(&mut blob).unwrap();
        let digest = blake3::hash(&blob).to_hex();
        let mut hits = 0usize;
        let mut lat = Vec::new();
        for (q, ex) in queries.iter().zip(&exact) {
            let t = Instant::now();
            let r = index.search(q, 10).unwrap();
            lat.push(t.elapsed().as_secs_f64() * 1e6);
            hits += r.keys.iter().filter(|k| ex.contains(k)).count();
        }
        lat.sort_by(f64::total_cmp);
        println!(
            "| {n} | {dim} | {} | {m} | {ef} | {build:.1} | {:.3} | {:.3} | {:.3} | {:.0} | {} |",
            index.hardware_acceleration(),
            build * 1e3 / n as f64,
            cpu * 1e3 / n as f64,
            hits as f64 / (10 * queries.len()) as f64,
            lat[lat.len() / 2],
            &digest[..16]
        );
    }
}
