//! The BM25 analyzer (`index::analyzer::terms`) and the residual audit's control index
//! (`TextIndex::control`), which analyzes every live row's text on each purge.
//!
//! Run: `cargo bench -p oubli-bench --bench analyzer`. The inputs are the synthetic memories of
//! the `load` and `latency` benches; the control is built over 10,000 of them, the size at which
//! the issue 16 purge target is set.
#![allow(missing_docs)] // criterion's macros generate undocumented items

mod support;

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use oubli::index::analyzer::{indexing_analyzer, terms};
use oubli::index::text::TextIndex;
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
    g.bench_function("control text index, 10,000 rows", |b| {
        b.iter(|| TextIndex::control(rows.iter().map(|(id, t)| (*id, t.as_str()))).unwrap())
    });
    g.finish();
}

criterion_group!(benches, analyzer);
criterion_main!(benches);
