//! Memory and time of targeting's match-key index (`oubli::index::key_index`) over N synthetic
//! memories: the keys are computed first, then every row is added to an in-memory index, and
//! three lookups run (the first one sorts the pairs added since the last lookup). Prints the
//! resident memory the index and its pending records added (Linux `VmRSS`), which is what the
//! index holds in a store once a forgetting call has looked a key up.
//!
//! ```sh
//! cargo build --release -p oubli-bench --example key_index_memory
//! target/release/examples/key_index_memory 200000
//! ```

use std::time::Instant;

use oubli::index::key_index::{KeyIndex, row_key_hashes};
use oubli::index::keys::query_keys;

const PEOPLE: [&str; 6] = ["Ana", "Ben", "Chloe", "Dmitri", "Esther", "Farid"];
const WORDS: [&str; 8] = [
    "oat",
    "green",
    "sales",
    "design",
    "garden",
    "budget",
    "shellfish",
    "peanut",
];
const CITIES: [&str; 4] = ["Lisbon", "Tallinn", "Osaka", "Nairobi"];

/// Resident memory of this process, in KiB (0 where `/proc` is not available).
fn rss_kib() -> i64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}

fn main() -> oubli::Result<()> {
    let Some(n) = std::env::args().nth(1).and_then(|a| a.parse::<u64>().ok()) else {
        eprintln!("usage: key_index_memory ROWS");
        std::process::exit(2);
    };
    let t = Instant::now();
    let hashes: Vec<Vec<u32>> = (0..n)
        .map(|i| {
            let x = i.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            row_key_hashes(&format!(
                "{} booked a trip to {} for the {} conference with {} (note {i})",
                PEOPLE[(x % 6) as usize],
                CITIES[((x >> 8) % 4) as usize],
                WORDS[((x >> 16) % 8) as usize],
                WORDS[((x >> 24) % 8) as usize]
            ))
        })
        .collect();
    let pairs: usize = hashes.iter().map(Vec::len).sum();
    println!(
        "keys of {n} rows computed in {:.0} ms: {pairs} (key, row) pairs",
        t.elapsed().as_secs_f64() * 1e3
    );
    let before = rss_kib();
    let mut ix = KeyIndex::in_memory();
    let t = Instant::now();
    for (i, h) in hashes.into_iter().enumerate() {
        ix.add(i as u64 + 1, h);
    }
    println!("added in {:.0} ms", t.elapsed().as_secs_f64() * 1e3);
    let q = query_keys("Chloe booked a trip to Osaka");
    for _ in 0..3 {
        let t = Instant::now();
        let hits = ix.lookup(&q, n, 512)?;
        println!(
            "lookup in {:.1} ms: {} rows",
            t.elapsed().as_secs_f64() * 1e3,
            hits.len()
        );
    }
    println!(
        "resident memory added by the index: {} MiB",
        (rss_kib() - before) / 1024
    );
    Ok(())
}
