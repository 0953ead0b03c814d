//! Recall latency per leg on a store shaped like the peers benchmark's, and a digest of every
//! hit list, so that a change to the read path can show both its speed and that it returns
//! the same hits, in the same order, with the same scores.
//!
//! Run: `cargo bench -p oubli-bench --bench recall`. Settings (environment):
//!
//! - `OUBLI_RECALL_ROWS` (default 10000): rows in the store;
//! - `OUBLI_RECALL_QUERIES` (default 1000): queries per leg;
//! - `OUBLI_RECALL_STORE`: a file to keep the store in; built when absent, opened when present
//!   (so a profiler can run the queries without the load);
//! - `OUBLI_RECALL_LEG` (`hybrid`, `vector` or `lexical`): time only that leg;
//! - `OUBLI_RECALL_PROBES` (default 200): queries the recall@10 probe averages over;
//! - `OUBLI_RECALL_FRESH=1`: query the store that did the load, right after it, before closing
//!   it (what `benches/peers/peers.py` does), instead of a reopened one;
//! - `OUBLI_RECALL_EMBEDDER=static`: the store's default embedder (the static MiniLM table)
//!   instead of the hash embedder, and queries that bring only their text (the store embeds
//!   them, as an application calling `recall("...")` does);
//! - `OUBLI_RECALL_DEFER=1`: build the store as a bulk load does, with the vector graph deferred
//!   (`StoreOptions::defer_vector_graph`) and built after the load by `Store::build_vector_graph`
//!   on all cores (at most 8).
//!
//! Rows are memories of 60-120 bytes from the peers script's templates, with 384-d vectors
//! from the built-in hash embedder; queries are "person word word" and bring their own vector,
//! as in the peers script. Prints per leg p50 / p99 / mean wall-clock ms, the recall thread's
//! CPU ms per query (from `/proc/thread-self/stat`: a mean far above it is time spent waiting
//! for a core), and the digest (blake3 over each
//! hit's row id and score bits, in order), and the vector leg's recall@10 against an exact scan
//! (`Store::vector_probe`, mean over 200 queries).

use std::sync::Arc;
use std::time::{Duration, Instant};

use oubli::{Embedder, HashEmbedder, Inscription, Legs, RecallQuery, Store, StoreOptions};

#[path = "support/peers.rs"]
mod peers;
use peers::{memories, queries};

fn pct(sorted: &[Duration], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i].as_secs_f64() * 1e3
}

/// CPU time this thread has used, in ms (`/proc/thread-self/stat`, clock ticks of 10 ms; `None`
/// off Linux): beside a wall-clock latency, it tells computing from waiting for a core.
fn thread_cpu_ms() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // Fields after the command name (which ends with the last ')'): utime and stime are the
    // 12th and 13th.
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks * 10.0)
}

fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let n = env("OUBLI_RECALL_ROWS", 10_000);
    let nq = env("OUBLI_RECALL_QUERIES", 1_000);
    let fresh = std::env::var("OUBLI_RECALL_FRESH").is_ok_and(|v| v == "1");
    let own_vectors = std::env::var("OUBLI_RECALL_EMBEDDER").map_or(true, |e| e != "static");
    let embedder: Arc<dyn Embedder> = if own_vectors {
        Arc::new(HashEmbedder::default())
    } else {
        oubli::embed::default_embedder()
    };
    let defer = std::env::var("OUBLI_RECALL_DEFER").is_ok_and(|v| v == "1");
    let opts = || StoreOptions::default().embedder(embedder.clone());
    let dir = tempfile::tempdir().unwrap();
    let path = std::env::var("OUBLI_RECALL_STORE")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|_| dir.path().join("r.oubli"));
    let texts = memories(n);
    let store = if path.exists() && !fresh {
        Store::open_with(&path, opts()).unwrap()
    } else {
        if path.exists() {
            std::fs::remove_file(&path).unwrap();
        }
        let load_opts = if defer {
            opts()
                .defer_vector_graph(true)
                .vector_build_threads(oubli::index::vector_build::default_build_threads())
        } else {
            opts()
        };
        let s = Store::create_with(&path, load_opts).unwrap();
        let t = Instant::now();
        for chunk in texts.chunks(5_000) {
            s.inscribe_batch(chunk.iter().map(Inscription::new).collect())
                .unwrap();
        }
        eprintln!("loaded {n} rows in {:.1} s", t.elapsed().as_secs_f64());
        if defer {
            let t = Instant::now();
            let steps = s.build_vector_graph().unwrap();
            eprintln!(
                "built the vector graph in {:.1} s ({steps} steps)",
                t.elapsed().as_secs_f64()
            );
        }
        if fresh {
            s
        } else {
            drop(s);
            Store::open_with(&path, opts()).unwrap()
        }
    };
    let qs = queries(nq);
    let qvs: Vec<Vec<f32>> = qs.iter().map(|q| embedder.embed(q).unwrap()).collect();
    println!("| rows | leg | p50 ms | p99 ms | mean ms | CPU ms per query | digest |");
    println!("|---:|---|---:|---:|---:|---:|---|");
    let only = std::env::var("OUBLI_RECALL_LEG").ok();
    for (name, legs) in [
        ("hybrid", Legs::Hybrid),
        ("vector", Legs::Vector),
        ("lexical", Legs::Lexical),
    ]
    .into_iter()
    .filter(|(name, _)| only.as_deref().is_none_or(|o| o == *name))
    {
        let mut lat = Vec::with_capacity(nq);
        let mut digest = blake3::Hasher::new();
        let cpu0 = thread_cpu_ms();
        for (q, v) in qs.iter().zip(&qvs) {
            let query = RecallQuery::new(q.as_str()).k(10).legs(legs);
            let query = if own_vectors {
                query.vector(v.clone())
            } else {
                query
            };
            let t = Instant::now();
            let hits = store.recall(&query).unwrap();
            lat.push(t.elapsed());
            for h in &hits {
                digest.update(&h.row.id.to_le_bytes());
                digest.update(&h.score.to_bits().to_le_bytes());
            }
            digest.update(b"|");
        }
        let cpu = match (cpu0, thread_cpu_ms()) {
            (Some(a), Some(b)) => format!("{:.3}", (b - a) / nq as f64),
            _ => "-".to_string(),
        };
        let wall: f64 = lat.iter().map(|d| d.as_secs_f64() * 1e3).sum::<f64>() / nq as f64;
        lat.sort();
        println!(
            "| {n} | {name} | {:.3} | {:.3} | {wall:.3} | {cpu} | {} |",
            pct(&lat, 0.5),
            pct(&lat, 0.99),
            &digest.finalize().to_hex()[..16]
        );
    }
    let probes = env("OUBLI_RECALL_PROBES", 200).min(nq);
    let (mut recall10, mut with_ties) = (0.0, 0.0);
    for v in &qvs[..probes] {
        let v = oubli::embed::check_vector(v, embedder.dim()).unwrap();
        let probe = store.vector_probe(&v, 10).unwrap();
        recall10 += probe.recall() / probes as f64;
        with_ties += probe.recall_with_ties() / probes as f64;
    }
    if probes > 0 {
        println!(
            "vector recall@10 vs exact scan: {recall10:.3} by row id, {with_ties:.3} with ties \
             counted as found (mean over {probes} queries)"
        );
    }
}
