//! Criterion benches of the engine's hot paths: batch inscribe, single inscribe, recall at 10k
//! rows, purge with scrub, and open. Run: `cargo bench -p oubli-bench --bench engine`.
//! Percentile latencies at 10k and 100k rows and file bytes per row: `--bench latency`.
#![allow(missing_docs)] // criterion's macros generate undocumented items

use std::hint::black_box;
use std::path::Path;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use oubli::{Inscription, RecallQuery, Store, Target};
mod support;
use support::memory_text;

fn fill(path: &Path, n: usize) -> Store {
    let s = Store::create(path).unwrap();
    let rows: Vec<Inscription> = (0..n as u64)
        .map(|i| Inscription::new(memory_text(i)))
        .collect();
    for chunk in rows.chunks(5_000) {
        s.inscribe_batch(chunk.to_vec()).unwrap();
    }
    s
}

fn inscribe(c: &mut Criterion) {
    let mut g = c.benchmark_group("inscribe");
    g.sample_size(10);
    g.throughput(Throughput::Elements(1_000));
    g.bench_function("batch_1000", |b| {
        b.iter_batched(
            || {
                let dir = tempfile::tempdir().unwrap();
                let s = Store::create(dir.path().join("b.oubli")).unwrap();
                let rows: Vec<Inscription> = (0..1_000u64)
                    .map(|i| Inscription::new(memory_text(i)))
                    .collect();
                (dir, s, rows)
            },
            |(dir, s, rows)| {
                s.inscribe_batch(rows).unwrap();
                (dir, s)
            },
            BatchSize::PerIteration,
        )
    });
    g.throughput(Throughput::Elements(1));
    let dir = tempfile::tempdir().unwrap();
    let s = fill(&dir.path().join("s.oubli"), 1_000);
    let mut i = 1_000_000u64;
    g.bench_function("single_durable", |b| {
        b.iter(|| {
            i += 1;
            s.inscribe(Inscription::new(memory_text(i))).unwrap()
        })
    });
    g.finish();
}

fn recall(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let s = fill(&dir.path().join("r.oubli"), 10_000);
    let queries: Vec<String> = (0..64u64).map(|i| memory_text(i * 977 + 13)).collect();
    let mut g = c.benchmark_group("recall_10k");
    let mut n = 0usize;
    g.bench_function("hybrid_k10", |b| {
        b.iter(|| {
            n += 1;
            black_box(s.recall(&RecallQuery::new(&queries[n % 64]).k(10)).unwrap())
        })
    });
    g.finish();
}

fn purge_and_open(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let template = dir.path().join("template.oubli");
    drop(fill(&template, 10_000));
    let mut g = c.benchmark_group("store_10k");
    g.sample_size(10);
    g.bench_function("purge_one_with_scrub", |b| {
        b.iter_batched(
            || {
                let d = tempfile::tempdir().unwrap();
                let p = d.path().join("p.oubli");
                std::fs::copy(&template, &p).unwrap();
                (d, Store::open(&p).unwrap())
            },
            |(d, s)| {
                s.purge(Target::id(5_000)).unwrap();
                (d, s)
            },
            BatchSize::PerIteration,
        )
    });
    g.bench_function("open", |b| {
        b.iter(|| black_box(Store::open(&template).unwrap()))
    });
    g.finish();
}

criterion_group!(benches, inscribe, recall, purge_and_open);
criterion_main!(benches);
