//! Batch load throughput: `inscribe_batch` into a fresh store file, rows per second of wall time
//! and CPU milliseconds per 1,000 rows, the store's close included (close waits for a vector
//! snapshot still building and commits the text tail).
//!
//! Run: `cargo bench -p oubli-bench --bench load`. `OUBLI_LOAD_ROWS=10000,100000` sets the store
//! sizes (default 10000), `OUBLI_LOAD_REPS` the repetitions per size (default 3; the median is
//! printed with the range), `OUBLI_LOAD_BATCH` the rows per `inscribe_batch` call (default 5000).
//! Three modes per size (`OUBLI_LOAD_MODES=keyed,vectors` picks some): `embedded` lets the store embed the texts with its default embedder (the
//! built-in static table, 256-d); `vectors` passes precomputed 384-d vectors (the hash
//! embedder's, computed before the clock starts, the store created with that embedder), as
//! `benches/peers/peers.py` does for every store; `keyed` is `vectors` with a natural key per row
//! (`k{i}`), which is what the peers script loads into oubli.
//!
//! `OUBLI_LOAD_BUILD_THREADS=1,2` loads each size once per thread count of the vector graph's
//! build (`StoreOptions::vector_build_threads`; `0` = the machine's parallelism, at most 8;
//! default: `1`, the store's default).
//!
//! `OUBLI_LOAD_DEFER=1` loads with the vector graph's growth deferred
//! (`StoreOptions::defer_vector_graph`): the load writes and indexes the text, the vectors wait
//! in the exact tail; `Store::build_vector_graph` then links them, timed on its own (the last
//! column: the graph's wall seconds, median). The load's rows/s then count the batches and the
//! close, not the graph. `OUBLI_LOAD_ANN_THRESHOLD` sets the store's ANN threshold.
//!
//! CPU time is the process's user + system time (`/proc/self/stat`), all threads, so it shows
//! the work a load costs whatever the machine's other load does to the wall time.

mod support;

use std::sync::Arc;
use std::time::Instant;

use oubli::{Embedder, HashEmbedder, Inscription, Store, StoreOptions};
use support::memory_text;

fn env_list(name: &str, default: &[usize]) -> Vec<usize> {
    std::env::var(name)
        .ok()
        .map(|s| s.split(',').filter_map(|x| x.trim().parse().ok()).collect())
        .unwrap_or_else(|| default.to_vec())
}

/// User + system CPU seconds of this process so far (Linux; 0 elsewhere).
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // Fields after the command name (which is in parentheses and may hold spaces).
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|x| x.parse::<f64>().ok()).unwrap_or(0.0);
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name; 100 ticks/s.
    (ticks(11) + ticks(12)) / 100.0
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    if std::env::var_os("OUBLI_SPANS").is_some() {
        tracing_subscriber::fmt()
            .with_max_level(tracing::Level::DEBUG)
            .with_span_events(tracing_subscriber::fmt::format::FmtSpan::CLOSE)
            .with_writer(std::io::stderr)
            .init();
    }
    let sizes = env_list("OUBLI_LOAD_ROWS", &[10_000]);
    let reps = env_list("OUBLI_LOAD_REPS", &[3])[0].max(1);
    let batch = env_list("OUBLI_LOAD_BATCH", &[5_000])[0].max(1);
    let modes: Vec<String> = std::env::var("OUBLI_LOAD_MODES")
        .unwrap_or_else(|_| "embedded,vectors,keyed".into())
        .split(',')
        .map(|m| m.trim().to_owned())
        .collect();
    // 0: the store's default.
    let build_threads = env_list("OUBLI_LOAD_BUILD_THREADS", &[1]);
    // The store's ANN threshold (`StoreOptions::ann_threshold`); unset: the store's default.
    let ann_threshold = env_list("OUBLI_LOAD_ANN_THRESHOLD", &[]).first().copied();
    let defer = std::env::var_os("OUBLI_LOAD_DEFER").is_some_and(|v| v != "0");
    println!(
        "| rows | mode | build threads | rows/s (median) | rows/s (min-max) | CPU ms per 1,000 rows (median) | then the graph, s |"
    );
    println!("|---:|---|---:|---:|---:|---:|---:|");
    let hash = HashEmbedder::default();
    for n in sizes {
        let texts: Vec<String> = (0..n as u64).map(memory_text).collect();
        let vectors: Vec<Vec<f32>> = texts.iter().map(|t| hash.embed(t).unwrap()).collect();
        for (mode, &threads) in ["embedded", "vectors", "keyed"]
            .into_iter()
            .flat_map(|m| build_threads.iter().map(move |t| (m, t)))
        {
            if !modes.iter().any(|m| m == mode) {
                continue;
            }
            // 0: the machine's parallelism (at most 8); the store's own default is one thread.
            let with_threads = |o: StoreOptions| {
                let o = match ann_threshold {
                    Some(t) => o.ann_threshold(t),
                    None => o,
                }
                .defer_vector_graph(defer);
                match threads {
                    0 => {
                        o.vector_build_threads(oubli::index::vector_build::default_build_threads())
                    }
                    n => o.vector_build_threads(n),
                }
            };
            let mut rates = Vec::new();
            let mut cpus = Vec::new();
            let mut graphs = Vec::new();
            for _ in 0..reps {
                let rows: Vec<Inscription> = texts
                    .iter()
                    .zip(&vectors)
                    .enumerate()
                    .map(|(i, (t, v))| {
                        let ins = Inscription::new(t.clone());
                        match mode {
                            "vectors" => ins.vector(v.clone()),
                            "keyed" => ins.vector(v.clone()).key(format!("k{i}")),
                            _ => ins,
                        }
                    })
                    .collect();
                let dir = tempfile::tempdir().unwrap();
                let path = dir.path().join("load.oubli");
                let s = if mode != "embedded" {
                    // The vectors' embedder, so that the store takes 384-d vectors.
                    let opts = StoreOptions::default().embedder(Arc::new(HashEmbedder::default()));
                    Store::create_with(&path, with_threads(opts)).unwrap()
                } else {
                    Store::create_with(&path, with_threads(StoreOptions::default())).unwrap()
                };
                let (t, c) = (Instant::now(), cpu_seconds());
                for chunk in rows.chunks(batch) {
                    s.inscribe_batch(chunk.to_vec()).unwrap();
                }
                let (mut wall, mut cpu) = (t.elapsed().as_secs_f64(), cpu_seconds() - c);
                if defer {
                    let g = Instant::now();
                    s.build_vector_graph().unwrap();
                    graphs.push(g.elapsed().as_secs_f64());
                }
                let (t, c) = (Instant::now(), cpu_seconds());
                s.close().unwrap();
                wall += t.elapsed().as_secs_f64();
                cpu += cpu_seconds() - c;
                rates.push(n as f64 / wall);
                cpus.push(cpu * 1e3 / (n as f64 / 1e3));
            }
            let (lo, hi) = (
                rates.iter().copied().fold(f64::INFINITY, f64::min),
                rates.iter().copied().fold(0.0, f64::max),
            );
            let shown = match threads {
                0 => format!(
                    "{} (all cores)",
                    oubli::index::vector_build::default_build_threads()
                ),
                n => n.to_string(),
            };
            let graph = if graphs.is_empty() {
                "-".to_owned()
            } else {
                format!("{:.1}", median(&mut graphs))
            };
            println!(
                "| {n} | {mode} | {shown} | {:.0} | {lo:.0}-{hi:.0} | {:.1} | {graph} |",
                median(&mut rates),
                median(&mut cpus)
            );
        }
    }
}
