//! Times "open + first query" on a store file of N rows, the way an agent process meets it:
//! open the file, run one hybrid recall (k = 10), report both times.
//!
//! The first run builds the store (N synthetic memories inscribed in batches of 5,000, default
//! embedder) and exits; later runs open it. `--reps R` opens it R times in this process (for a
//! profiler); `--read-only` opens read-only handles. Each line printed is one open:
//! `open_ms first_ms` (the first open's includes loading the built-in embedder, whose time
//! goes to standard error).
//!
//! ```sh
//! cargo build --release -p oubli-bench --example open_first
//! target/release/examples/open_first /tmp/o10k.oubli 10000
//! for i in 1 2 3 4 5; do target/release/examples/open_first /tmp/o10k.oubli 10000; done
//! perf record -g target/release/examples/open_first /tmp/o10k.oubli 10000 --reps 50
//! ```

use std::path::PathBuf;
use std::time::Instant;

use oubli::{Inscription, RecallQuery, Store, StoreOptions};

const PEOPLE: [&str; 8] = [
    "Ana", "Ben", "Chidi", "Dana", "Emeka", "Fatima", "Goran", "Hana",
];
const TOPICS: [&str; 6] = [
    "prefers window seats on long flights",
    "is allergic to shellfish",
    "moved to a new apartment near the river",
    "asked to be reminded about the dentist",
    "uses the staging cluster for load tests",
    "likes oat milk in coffee",
];

fn memory(i: usize) -> String {
    let p = PEOPLE[i % PEOPLE.len()];
    let t = TOPICS[(i / PEOPLE.len()) % TOPICS.len()];
    format!("{p} {t} (note {i}, ref TK-{:05})", (i * 7919) % 100_000)
}

fn main() -> oubli::Result<()> {
    let mut args = std::env::args().skip(1);
    let (Some(path), Some(rows)) = (args.next(), args.next()) else {
        eprintln!("usage: open_first STORE ROWS [--reps R] [--read-only]");
        std::process::exit(2);
    };
    let path = PathBuf::from(path);
    let rows: usize = rows.parse().expect("ROWS is a number");
    let mut reps = 1;
    let mut read_only = false;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--reps" => reps = args.next().and_then(|r| r.parse().ok()).expect("--reps R"),
            "--read-only" => read_only = true,
            other => {
                eprintln!("unknown argument {other}");
                std::process::exit(2);
            }
        }
    }
    if !path.exists() {
        let t = Instant::now();
        let store = Store::create(&path)?;
        let all: Vec<Inscription> = (0..rows).map(|i| Inscription::new(memory(i))).collect();
        for chunk in all.chunks(5_000) {
            store.inscribe_batch(chunk.to_vec())?;
        }
        store.close()?;
        eprintln!(
            "built {rows} rows in {:.1} s, {} bytes",
            t.elapsed().as_secs_f64(),
            std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0)
        );
        return Ok(());
    }
    for r in 0..reps {
        let t = Instant::now();
        // The default options load the built-in embedder, once per process: part of the first
        // open's time, as for any process that opens a store.
        let opts = StoreOptions::default().read_only(read_only);
        if r == 0 {
            eprintln!(
                "options (embedder) {:.2} ms",
                t.elapsed().as_secs_f64() * 1e3
            );
        }
        let store = Store::open_with(&path, opts)?;
        let open = t.elapsed();
        let hits = store.recall(&RecallQuery::new(memory(r * 31 + 5)).k(10))?;
        let first = t.elapsed();
        assert!(!hits.is_empty(), "the first query found nothing");
        println!(
            "{:.2} {:.2}",
            open.as_secs_f64() * 1e3,
            first.as_secs_f64() * 1e3
        );
    }
    Ok(())
}
