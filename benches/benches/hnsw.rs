//! What the HNSW snapshot's build parameters cost and buy: for each `expansion_add`, the time to
//! build the graph the way the store does (usearch, inner product, i8, vectors added in id
//! order) and the graph's recall@10 against an exact f32 scan, at each search breadth.
//!
//! Run: `cargo bench -p oubli-bench --bench hnsw --features simd`. Settings (environment):
//!
//! - `OUBLI_HNSW_ROWS` (default 20000): vectors in the graph;
//! - `OUBLI_HNSW_EF_ADD` (default `128,64,32`): the `expansion_add` values, one graph each (the
//!   store uses 128 past a graph's first vectors);
//! - `OUBLI_HNSW_SEED` (`ROWS:EF`, default none): link each graph's first `ROWS` vectors at
//!   `expansion_add` `EF` and the rest at the listed value, as the store does (`25000:1024`);
//! - `OUBLI_HNSW_CONNECTIVITY` (default 16): the graph degree;
//! - `OUBLI_HNSW_EF_SEARCH` (default `256`, the store's): the search breadths measured;
//! - `OUBLI_HNSW_THREADS` (default 1): threads adding vectors (the store's
//!   `vector_build_threads`; above 1 the graph's bytes depend on the schedule);
//! - `OUBLI_HNSW_SEGMENT` (default: all the vectors): vectors per graph; the vectors are cut
//!   into graphs of this many in id order (each seeded as above), every graph is searched for
//!   10 and the hits merged by exact similarity (the search time is all the graphs');
//! - `OUBLI_HNSW_DATA=peers`: the memories and "person word word" queries of
//!   `benches/peers/peers.py` and the `recall` bench (near-duplicates, queries far from every
//!   row) with the 384-d hash embedder, instead of the synthetic memories below;
//! - `OUBLI_HNSW_EMBEDDER=hash`: the hash embedder's vectors for the synthetic memories.
//!
//! By default the vectors are the store's default embedder's (the built-in static table) over
//! the synthetic memories, and the 500 queries are memories not in the graph; with `peers`, 200
//! queries. This measures the graph alone, not the store's recall path (which re-scores
//! candidates exactly and merges the exact tail).
//!
//! Beside the wall time, the build's CPU time (this thread's, from `/proc/thread-self/stat`, so
//! other processes on a shared machine move it less; with several threads, the first one's) and
//! the blake3 of the serialized graph: the same inputs on one thread must give the same bytes
//! whatever distance kernel usearch was built with (`hardware_acceleration`, printed first:
//! `serial` without usearch's SIMD kernels). Recall is counted by id, and with ties (an
//! approximate hit as similar as the exact 10th counts as found).

#[path = "support/peers.rs"]
mod peers;
mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
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

/// Inner product, eight lanes at a time (so the exact scan vectorizes).
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = [0f32; 8];
    for (x, y) in a.chunks_exact(8).zip(b.chunks_exact(8)) {
        for i in 0..8 {
            acc[i] += x[i] * y[i];
        }
    }
    let tail: f32 = a
        .chunks_exact(8)
        .remainder()
        .iter()
        .zip(b.chunks_exact(8).remainder())
        .map(|(x, y)| x * y)
        .sum();
    acc.iter().sum::<f32>() + tail
}

/// Each query's exact top 10 (ids, similarity descending, ties by id) and its 10th similarity,
/// on `threads` threads.
fn exact_top10(vectors: &[Vec<f32>], queries: &[Vec<f32>], threads: usize) -> Vec<(Vec<u64>, f32)> {
    let one = |q: &Vec<f32>| {
        let mut top: Vec<(u64, f32)> = Vec::with_capacity(11);
        for (i, v) in vectors.iter().enumerate() {
            let s = dot(q, v);
            if top.len() < 10 || s > top[9].1 {
                let at = top.partition_point(|x| x.1 >= s);
                top.insert(at, (i as u64, s));
                top.truncate(10);
            }
        }
        let last = top.last().map_or(f32::MIN, |x| x.1);
        (top.into_iter().map(|x| x.0).collect(), last)
    };
    let chunk = queries.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|s| {
        let parts: Vec<_> = queries
            .chunks(chunk)
            .map(|part| s.spawn(move || part.iter().map(one).collect::<Vec<_>>()))
            .collect();
        parts.into_iter().flat_map(|h| h.join().unwrap()).collect()
    })
}

/// Adds `vectors[from..to]` (keys = positions) to `index` on `threads` threads.
fn add_range(index: &Index, vectors: &[Vec<f32>], from: usize, to: usize, threads: usize) {
    let next = AtomicUsize::new(from);
    let work = || {
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= to {
                break;
            }
            index.add(i as u64, &vectors[i]).unwrap();
        }
    };
    std::thread::scope(|s| {
        for _ in 1..threads {
            s.spawn(work);
        }
        work();
    });
}

fn main() {
    let n = env_list("OUBLI_HNSW_ROWS", &[20_000])[0];
    let efs = env_list("OUBLI_HNSW_EF_ADD", &[128, 64, 32]);
    let m = env_list("OUBLI_HNSW_CONNECTIVITY", &[16])[0];
    let searches = env_list("OUBLI_HNSW_EF_SEARCH", &[256]);
    let threads = env_list("OUBLI_HNSW_THREADS", &[1])[0].max(1);
    let segment = env_list("OUBLI_HNSW_SEGMENT", &[n])[0].max(1);
    let seed = std::env::var("OUBLI_HNSW_SEED").ok().and_then(|s| {
        let (rows, ef) = s.split_once(':')?;
        Some((
            rows.trim().parse::<usize>().ok()?,
            ef.trim().parse::<usize>().ok()?,
        ))
    });
    let peers_data = std::env::var("OUBLI_HNSW_DATA").is_ok_and(|d| d == "peers");
    let e: Box<dyn Embedder> = match std::env::var("OUBLI_HNSW_EMBEDDER").as_deref() {
        _ if peers_data => Box::new(HashEmbedder::default()),
        Ok("hash") => Box::new(HashEmbedder::default()),
        _ => Box::new(StaticEmbedder::new().unwrap()),
    };
    let dim = e.dim();
    let (texts, query_texts): (Vec<String>, Vec<String>) = if peers_data {
        (peers::memories(n), peers::queries(200))
    } else {
        (
            (0..n as u64).map(memory_text).collect(),
            (0..500u64)
                .map(|q| memory_text(n as u64 + 1 + q * 13))
                .collect(),
        )
    };
    let vectors: Vec<Vec<f32>> = texts
        .chunks(10_000)
        .flat_map(|c| {
            let refs: Vec<&str> = c.iter().map(String::as_str).collect();
            e.embed_batch(&refs).unwrap()
        })
        .collect();
    drop(texts);
    let queries: Vec<Vec<f32>> = query_texts.iter().map(|q| e.embed(q).unwrap()).collect();
    let t = Instant::now();
    let exact = exact_top10(&vectors, &queries, threads.max(2));
    eprintln!(
        "exact top 10 of {} queries in {:.1} s",
        queries.len(),
        t.elapsed().as_secs_f64()
    );
    println!(
        "| vectors | segment | dim | kernel | connectivity | seed | expansion_add | threads | build s | ms per vector | CPU ms per vector | expansion_search | recall@10 | with ties | search p50 us | graph blake3 |"
    );
    println!("|---:|---:|---:|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|");
    let seed_label = seed.map_or("-".to_string(), |(r, e)| format!("{r}:{e}"));
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
        let (t, c) = (Instant::now(), thread_cpu_seconds());
        let mut graphs = Vec::new();
        let mut digest = blake3::Hasher::new();
        for from in (0..n).step_by(segment) {
            let to = (from + segment).min(n);
            let index = Index::new(&opts).unwrap();
            if threads > 1 {
                index
                    .reserve_capacity_and_threads(to - from, threads)
                    .unwrap();
            } else {
                index.reserve(to - from).unwrap();
            }
            let seeded = from + seed.map_or(0, |(rows, _)| rows.min(to - from));
            if let Some((_, seed_ef)) = seed {
                index.change_expansion_add(seed_ef);
                add_range(&index, &vectors, from, seeded, threads);
                index.change_expansion_add(ef);
            }
            add_range(&index, &vectors, seeded, to, threads);
            let mut blob = vec![0u8; index.serialized_length()];
            index.save_to_buffer(&mut blob).unwrap();
            digest.update(&blob);
            graphs.push(index);
        }
        let (build, cpu) = (t.elapsed().as_secs_f64(), thread_cpu_seconds() - c);
        let digest = digest.finalize().to_hex();
        for &ef_search in &searches {
            for g in &graphs {
                g.change_expansion_search(ef_search);
            }
            let (mut hits, mut tied) = (0usize, 0usize);
            let mut lat = Vec::new();
            for (q, (ex, tenth)) in queries.iter().zip(&exact) {
                let t = Instant::now();
                // Each graph's top 10, merged by exact similarity (as the store re-scores).
                let mut found: Vec<(u64, f32)> = graphs
                    .iter()
                    .flat_map(|g| g.search(q, 10).unwrap().keys)
                    .map(|k| (k, dot(q, &vectors[k as usize])))
                    .collect();
                found.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
                let keys: Vec<u64> = found.iter().take(10).map(|x| x.0).collect();
                lat.push(t.elapsed().as_secs_f64() * 1e6);
                hits += keys.iter().filter(|k| ex.contains(k)).count();
                tied += keys
                    .iter()
                    .filter(|&&k| ex.contains(&k) || dot(q, &vectors[k as usize]) >= *tenth)
                    .count();
            }
            lat.sort_by(f64::total_cmp);
            let total = (10 * queries.len()) as f64;
            println!(
                "| {n} | {segment} | {dim} | {} | {m} | {seed_label} | {ef} | {threads} | {build:.1} | {:.3} | {:.3} | {ef_search} | {:.3} | {:.3} | {:.0} | {} |",
                graphs[0].hardware_acceleration(),
                build * 1e3 / n as f64,
                cpu * 1e3 / n as f64,
                hits as f64 / total,
                tied as f64 / total,
                lat[lat.len() / 2],
                &digest[..16]
            );
        }
    }
}
