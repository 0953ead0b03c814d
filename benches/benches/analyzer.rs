//! The BM25 analyzer (`index::analyzer::terms`) and the residual audit's BM25 control
//! (`index::text_control::ControlText`), which analyzes every live row's text on each purge.
//!
//! Run: `cargo bench -p oubli-bench --bench analyzer`. The inputs are the synthetic memories of
//! the `load` and `latency` benches; the control is built over 10,000 of them, the size at which
//! the issue 16 purge target is set.
#![allow(missing_docs)] // criterion's macros generate undocumented items

mod support;

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use oubli::index::analyzer::{indexing_analyzer, terms};
use oubli::index::text_control::ControlText;
use support::memory_text;
use tantivy::tokenizer::TokenStream;

fn analyzer(c: &mut Criterion) {
    let memories: Vec<String> = (0..1_000).map(memory_text).collect();
    let mut i = 0;
    c.bench_function("analyzer terms, synthetic memory", |b| {
        b.iter(|| {
            i = (i + 1) % memories.len();
            terms(black_box(&memories[i]))
        })
    });
    let mut indexing = indexing_analyzer();
    c.bench_function(
        "indexing analyzer terms, synthetic memory (one instance)",
        |b| {
            b.iter(|| {
                i = (i + 1) % memories.len();
                let mut stream = indexing.token_stream(black_box(&memories[i]));
                let mut n = 0;
                while stream.advance() {
                    n += stream.token().text.len();
                }
                n
            })
        },
    );
    let rows: Vec<(u64, String)> = (0..10_000).map(|i| (i, memory_text(i))).collect();
    let mut g = c.benchmark_group("control");
    g.sample_size(10);
    // A purge's probes: an erased memory verbatim, upper-cased, and a few of its words.
    let erased = memory_text(5_000);
    let probes: Vec<String> = vec![
        erased.clone(),
        erased.to_uppercase(),
        erased
            .split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" "),
    ];
    g.bench_function("control BM25 counts, 10,000 rows", |b| {
        b.iter(|| ControlText::build(rows.iter().map(|(id, t)| (*id, t.as_str())), &probes))
    });
    let control = ControlText::build(rows.iter().map(|(id, t)| (*id, t.as_str())), &probes);
    g.bench_function("control BM25 search, 10,000 rows", |b| {
        b.iter(|| control.search(black_box(&probes[0]), 20))
    });
    g.finish();
}

criterion_group!(benches, analyzer);
criterion_main!(benches);
