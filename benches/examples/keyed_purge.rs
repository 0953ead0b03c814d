//! Times a keyed purge in a store file of N rows, the shape of the peers script's erase column
//! (every row has a natural key; `purge(key=...)`, residual audit and scrub included).
//!
//! The first run builds the store (N synthetic memories of 60-90 bytes, keys `k0..`, inscribed in
//! batches of 5,000, 384-d hash embedder) and exits; later runs open it and purge the keys given,
//! printing the open time and each purge's time. Purge a copy, so that every run starts from the
//! same file:
//!
//! ```sh
//! cargo build --release -p oubli-bench --features simd --example keyed_purge
//! target/release/examples/keyed_purge /tmp/k10k.oubli 10000
//! cp /tmp/k10k.oubli /tmp/k10k-run.oubli
//! target/release/examples/keyed_purge /tmp/k10k-run.oubli 10000 k7 k5000 k9999
//! ```
//!
//! Before purging, a run times 400 hybrid recalls (k = 10) and prints their p50 and p99, and the
//! text index's segment count: the other side of the segment cap. `OUBLI_SEGMENT_DOCS=N` sets
//! [`StoreOptions::text_segment_docs`] (when building, and when purging: a smaller cap than the
//! store was built with does not split its segments). `OUBLI_SPANS=1` prints, to stderr, the
//! busy and idle time of each of the engine's debug spans as it closes (the purge's phases: its
//! erasure, the text rewrite, the audit's preparation and searches, the completion).
//! `OUBLI_SPACE=1` prints each table's space in the file (`Store::space_report`) before purging.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use oubli::{HashEmbedder, Inscription, RecallQuery, Store, StoreOptions, Target};

const WORDS: [&str; 15] = [
    "invoice", "meeting", "password", "garden", "flight", "doctor", "rent", "coffee", "project",
    "deadline", "sister", "Lisbon", "bank", "phone", "email",
];

fn main() -> oubli::Result<()> {
    if std::env::var_os("OUBLI_SPANS").is_some() {
        tracing_subscriber::fmt()
            .with_max_level(tracing::Level::DEBUG)
            .with_span_events(tracing_subscriber::fmt::format::FmtSpan::CLOSE)
            .with_writer(std::io::stderr)
            .init();
    }
    let mut args = std::env::args().skip(1);
    let (Some(path), Some(rows)) = (args.next(), args.next()) else {
        eprintln!("usage: keyed_purge STORE ROWS [KEY...]");
        std::process::exit(2);
    };
    let path = PathBuf::from(path);
    let rows: usize = rows.parse().expect("ROWS is a number");
    let keys: Vec<String> = args.collect();
    let segment_docs: Option<usize> = std::env::var("OUBLI_SEGMENT_DOCS")
        .ok()
        .map(|v| v.parse().expect("OUBLI_SEGMENT_DOCS is a number"));
    let opts = || {
        let o = StoreOptions::default().embedder(Arc::new(HashEmbedder::new(384).unwrap()));
        match segment_docs {
            Some(n) => o.text_segment_docs(n),
            None => o,
        }
    };
    if !path.exists() {
        let t = Instant::now();
        let store = Store::create_with(&path, opts())?;
        for start in (0..rows).step_by(5_000) {
            let batch = (start..rows.min(start + 5_000))
                .map(|j| {
                    let text = format!(
                        "memory {j}: the {} about the {} moved to {} on day {} with note {}",
                        WORDS[j % 15],
                        WORDS[(j / 15) % 15],
                        WORDS[(j / 225) % 15],
                        j % 31,
                        j * 7919 % 100_003
                    );
                    Inscription::new(text).key(format!("k{j}"))
                })
                .collect();
            store.inscribe_batch(batch)?;
        }
        drop(store);
        println!("built {rows} rows in {:.1} ms", ms(t));
        return Ok(());
    }
    let t = Instant::now();
    let store = Store::open_with(&path, opts())?;
    println!("open {:.1} ms", ms(t));
    let mut times = Vec::new();
    for q in 0..400usize {
        let text = format!(
            "{} about the {} in {} note {}",
            WORDS[q % 15],
            WORDS[(q * 7) % 15],
            WORDS[(q * 11) % 15],
            q * 131 % rows.max(1)
        );
        let t = Instant::now();
        let hits = store.recall(&RecallQuery::new(text).k(10))?;
        times.push(ms(t));
        assert!(!hits.is_empty());
    }
    times.sort_by(f64::total_cmp);
    println!(
        "recall p50 {:.2} ms, p99 {:.2} ms; text segments {:?}",
        times[times.len() / 2],
        times[times.len() * 99 / 100],
        store.space_report()?.text_segments
    );
    if std::env::var_os("OUBLI_SPACE").is_some() {
        for t in store.space_report()?.tables {
            println!(
                "table {}: {} entries, {} bytes ({} stored, {} fragmented)",
                t.name,
                t.entries,
                t.total_bytes(),
                t.stored_bytes,
                t.fragmented_bytes
            );
        }
    }
    for key in keys {
        let t = Instant::now();
        let report = store.purge(Target::key("default", &key))?;
        println!(
            "purge {key}: {:.1} ms, {} row(s) erased, audit clean {}",
            ms(t),
            report.erased.len(),
            report.audit.summary.clean
        );
    }
    Ok(())
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}
