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

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use oubli::{HashEmbedder, Inscription, Store, StoreOptions, Target};

const WORDS: [&str; 15] = [
    "invoice", "meeting", "password", "garden", "flight", "doctor", "rent", "coffee", "project",
    "deadline", "sister", "Lisbon", "bank", "phone", "email",
];

fn main() -> oubli::Result<()> {
    let mut args = std::env::args().skip(1);
    let (Some(path), Some(rows)) = (args.next(), args.next()) else {
        eprintln!("usage: keyed_purge STORE ROWS [KEY...]");
        std::process::exit(2);
    };
    let path = PathBuf::from(path);
    let rows: usize = rows.parse().expect("ROWS is a number");
    let keys: Vec<String> = args.collect();
    let opts = || StoreOptions::default().embedder(Arc::new(HashEmbedder::new(384).unwrap()));
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
