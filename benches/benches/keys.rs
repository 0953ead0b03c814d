//! Match keys per row: `index::keys::row_keys`, the canonical keys every row's text is indexed
//! under (chunking, transliteration, spelling variants, exonyms, codes, typed identifiers). A
//! batch load computes them once per row, so their cost is a floor of the load's CPU per row.
//!
//! Run: `cargo bench -p oubli-bench --bench keys`. Three inputs: the synthetic memory of the
//! `load` and `latency` benches (English with a note number and a ticket code), a longer English
//! memory with a phone number and an e-mail address, and a mixed-script memory (Cyrillic, Han,
//! Greek names and an IBAN).
#![allow(missing_docs)] // criterion's macros generate undocumented items

mod support;

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use oubli::index::key_index::row_key_hashes;
use oubli::index::keys::row_keys;
use support::memory_text;

const ENGLISH: &str = "Maria moved to Lisbon last spring and now works as a nurse at the clinic. \
                       Call her at +35 4417-2291 or write to maria.silva@example.org.";
const MIXED: &str = "Михаил Соловьёв met 张伟 and Σωκράτης Παπαδόπουλος in München; \
                     IBAN DE89 3704 0044 0532 0130 00, ticket TXN-4481.";

/// A Chinese memory: each Han character also gives its Cantonese spellings (`canon::han_readings`).
const CHINESE: &str = "陳志明的港元儲蓄戶口尾號 6618，開戶於旺角分行，客戶經理是麥嘉琪。";

fn keys(c: &mut Criterion) {
    let memories: Vec<String> = (0..64).map(memory_text).collect();
    let mut i = 0;
    c.bench_function("row_keys, synthetic memory (load bench text)", |b| {
        b.iter(|| {
            i = (i + 1) % memories.len();
            row_keys(black_box(&memories[i]))
        })
    });
    // What a row stores: its keys hashed to 32 bits (`key_index::row_key_hashes`).
    let mut j = 0;
    c.bench_function("row_key_hashes, synthetic memory (load bench text)", |b| {
        b.iter(|| {
            j = (j + 1) % memories.len();
            row_key_hashes(black_box(&memories[j]))
        })
    });
    c.bench_function("row_keys, English memory with phone and e-mail", |b| {
        b.iter(|| row_keys(black_box(ENGLISH)))
    });
    c.bench_function("row_keys, mixed-script memory", |b| {
        b.iter(|| row_keys(black_box(MIXED)))
    });
    c.bench_function("row_keys, Chinese memory", |b| {
        b.iter(|| row_keys(black_box(CHINESE)))
    });
}

criterion_group!(benches, keys);
criterion_main!(benches);
