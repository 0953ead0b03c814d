//! Embedding speed: one sentence of about 100 bytes through the built-in static embedder (the
//! default of new stores) and, for comparison, the hash embedder.
//!
//! Run: `cargo bench -p oubli-bench --bench embed`.
#![allow(missing_docs)] // criterion's macros generate undocumented items

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use oubli::{Embedder, HashEmbedder, StaticEmbedder};

/// 100 bytes of ordinary memory text.
const SENTENCE: &str = "Maria moved to Lisbon last spring and now works as a nurse at the clinic.";
/// Appended to reach 100 bytes.
const TAIL: &str = " Call her at +35 4417-2291.";

fn embed(c: &mut Criterion) {
    let text = format!("{SENTENCE}{TAIL}");
    assert_eq!(text.len(), 100);
    let e = StaticEmbedder::new().expect("the shipped table parses");
    c.bench_function("static embedder, 100-byte sentence", |b| {
        b.iter(|| e.embed(black_box(&text)).expect("embeds"))
    });
    let h = HashEmbedder::default();
    c.bench_function("hash embedder, 100-byte sentence", |b| {
        b.iter(|| h.embed(black_box(&text)).expect("embeds"))
    });
}

criterion_group!(benches, embed);
criterion_main!(benches);
