//! `oubli-bench serve`: the multi-tenant server under load, and what one tenant costs.
//!
//! Two parts, both on this machine:
//! - **per-tenant cost**, through the library, each measurement in a fresh child process: the
//!   time to create and to reopen a store, the resident memory each open store adds (the
//!   process's RSS before and after opening `N` stores together, over `N`; empty stores, and
//!   `N / 10` stores of `R` rows), the disk an empty store takes, and disk bytes per row (a
//!   store of `R` rows less an empty one, over `R`);
//! - **served verbs**, over HTTP on loopback: for each tenant count, a fresh data directory,
//!   every tenant seeded with a few rows, then `inscribe` and `recall` requests from several
//!   keep-alive client threads, each request to a tenant drawn uniformly at random. Reported
//!   per verb: throughput and p50/p99 latency, and how many store opens the phase caused
//!   (with more tenants than `--max-open`, most requests reopen a closed store).
//!
//! Unix only (allocated file sizes), and Linux only for RSS (`/proc/self/statm`).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use oubli::serve::{ServeConfig, Server};
use oubli::{Inscription, Store, StoreOptions};
use serde::Serialize;

use crate::rng::SplitMix64;
use crate::stats::quantile;

/// Settings of a run.
#[derive(Debug, Clone, Serialize)]
pub struct ServeBenchConfig {
    /// Where the stores go (each tenant count gets a fresh subdirectory, removed afterwards).
    pub dir: PathBuf,
    /// Tenant counts, in order.
    pub tenants: Vec<usize>,
    /// Requests per verb and tenant count.
    pub requests: usize,
    /// Client threads (keep-alive connections).
    pub clients: usize,
    /// Rows each tenant is seeded with before the timed phases.
    pub seed_rows: usize,
    /// The server's `max_open`.
    pub max_open: usize,
    /// Stores opened together for the memory measurement.
    pub cost_stores: usize,
    /// Rows inscribed for the bytes-per-row measurement.
    pub cost_rows: usize,
    /// PRNG seed (tenant choice, texts).
    pub seed: u64,
}

/// Latency and throughput of one verb at one tenant count.
#[derive(Debug, Clone, Serialize)]
pub struct VerbFigures {
    /// `inscribe` or `recall`.
    pub verb: String,
    /// Requests completed.
    pub requests: usize,
    /// Requests per second, all clients together.
    pub per_second: f64,
    /// Median latency, microseconds.
    pub p50_us: u64,
    /// 99th-percentile latency, microseconds.
    pub p99_us: u64,
    /// Store opens during the phase.
    pub opens: u64,
}

/// One tenant count.
#[derive(Debug, Clone, Serialize)]
pub struct TenantFigures {
    /// Tenants.
    pub tenants: usize,
    /// Seconds to seed every tenant (first request opens and creates its store).
    pub seed_secs: f64,
    /// Bytes of all store files after seeding.
    pub disk_bytes: u64,
    /// The verbs.
    pub verbs: Vec<VerbFigures>,
}

/// What one tenant costs.
#[derive(Debug, Clone, Serialize)]
pub struct TenantCost {
    /// Median time to create a store, microseconds.
    pub create_p50_us: u64,
    /// Median time to open an existing store, microseconds.
    pub open_p50_us: u64,
    /// 99th-percentile time to open an existing store, microseconds.
    pub open_p99_us: u64,
    /// Resident memory added per open (empty) store, bytes.
    pub rss_per_open_store: u64,
    /// Resident memory added per open store of `rows` rows, bytes.
    pub rss_per_open_store_with_rows: u64,
    /// Median time to open a store of `rows` rows, microseconds.
    pub open_with_rows_p50_us: u64,
    /// Stores of `rows` rows opened together.
    pub stores_with_rows: usize,
    /// Disk allocated to an empty store file, bytes.
    pub empty_file_bytes: u64,
    /// Apparent size of an empty store file (sparse), bytes.
    pub empty_file_apparent: u64,
    /// Disk bytes per row, beyond the empty file.
    pub bytes_per_row: f64,
    /// Rows behind `bytes_per_row`.
    pub rows: usize,
}

/// The whole run.
#[derive(Debug, Clone, Serialize)]
pub struct ServeReport {
    /// Settings.
    pub config: ServeBenchConfig,
    /// Per-tenant cost.
    pub cost: TenantCost,
    /// Per tenant count.
    pub load: Vec<TenantFigures>,
}

fn rss_bytes() -> u64 {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok())
        .map_or(0, |pages| pages * 4096)
}

fn micros(d: Duration) -> u64 {
    d.as_micros() as u64
}

/// Bytes the file system allocated to a file (store files are sparse: redb reserves regions
/// it has not written).
#[cfg(unix)]
fn allocated(m: &std::fs::Metadata) -> u64 {
    use std::os::unix::fs::MetadataExt;
    m.blocks() * 512
}

/// Elsewhere, the apparent size (an over-estimate for sparse files).
#[cfg(not(unix))]
fn allocated(m: &std::fs::Metadata) -> u64 {
    m.len()
}

fn dir_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok()?.metadata().ok())
                .map(|m| allocated(&m))
                .sum()
        })
        .unwrap_or(0)
}

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// A sentence for row `n` of a tenant.
fn text(rng: &mut SplitMix64, n: usize) -> String {
    const WHO: [&str; 6] = ["Ana", "Priya", "Tomas", "Mei", "Kofi", "Lena"];
    const WHAT: [&str; 6] = [
        "prefers window seats",
        "moved to a new flat",
        "is allergic to peanuts",
        "drinks green tea",
        "plays the cello",
        "works night shifts",
    ];
    format!(
        "{} {} (note {n}, ref {})",
        rng.pick(&WHO),
        rng.pick(&WHAT),
        rng.next_u64() % 100_000
    )
}

/// One cost measurement, made in a process of its own (`oubli-bench serve-cost-probe`) so
/// that memory freed by an earlier measurement cannot be reused and hide this one's.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct CostProbe {
    /// Stores measured.
    pub stores: usize,
    /// Rows in each.
    pub rows: usize,
    /// Create times, microseconds.
    pub create_us: Vec<u64>,
    /// Open times of the existing stores, microseconds.
    pub open_us: Vec<u64>,
    /// RSS before and after opening all of them together, bytes.
    pub rss_before: u64,
    /// See `rss_before`.
    pub rss_after: u64,
    /// Allocated and apparent bytes of the first store's file.
    pub file_allocated: u64,
    /// See `file_allocated`.
    pub file_apparent: u64,
}

/// Creates `stores` stores of `rows` rows each in `dir` (inscribed in batches of 500), closes
/// them, then opens them all together, timing each open and reading the RSS around it.
pub fn cost_probe(dir: &Path, stores: usize, rows: usize, seed: u64) -> Result<CostProbe, String> {
    std::fs::create_dir_all(dir).map_err(err)?;
    let paths: Vec<PathBuf> = (0..stores.max(1))
        .map(|i| dir.join(format!("t{i}.oubli")))
        .collect();
    let mut rng = SplitMix64::new(seed);
    let mut create_us = Vec::new();
    for p in &paths {
        let t = Instant::now();
        let s = Store::create(p).map_err(err)?;
        create_us.push(micros(t.elapsed()));
        let mut n = 0;
        while n < rows {
            let batch: Vec<Inscription> = (n..(n + 500).min(rows))
                .map(|i| Inscription::new(text(&mut rng, i)).namespace("user:bench"))
                .collect();
            n += batch.len();
            s.inscribe_batch(batch).map_err(err)?;
        }
        s.close().map_err(err)?;
    }
    let first = std::fs::metadata(&paths[0]).map_err(err)?;
    let rss_before = rss_bytes();
    let mut open_us = Vec::new();
    let mut open = Vec::new();
    for p in &paths {
        let t = Instant::now();
        open.push(Store::open_with(p, StoreOptions::default()).map_err(err)?);
        open_us.push(micros(t.elapsed()));
    }
    let rss_after = rss_bytes();
    drop(open);
    std::fs::remove_dir_all(dir).map_err(err)?;
    Ok(CostProbe {
        stores: paths.len(),
        rows,
        create_us,
        open_us,
        rss_before,
        rss_after,
        file_allocated: allocated(&first),
        file_apparent: first.len(),
    })
}

/// Runs [`cost_probe`] in a child process (this executable, `serve-cost-probe`).
fn probe_in_child(dir: &Path, stores: usize, rows: usize, seed: u64) -> Result<CostProbe, String> {
    let exe = std::env::current_exe().map_err(err)?;
    let out = std::process::Command::new(exe)
        .arg("serve-cost-probe")
        .arg("--dir")
        .arg(dir)
        .args(["--stores", &stores.to_string()])
        .args(["--rows", &rows.to_string()])
        .args(["--seed", &seed.to_string()])
        .output()
        .map_err(err)?;
    if !out.status.success() {
        return Err(format!(
            "serve-cost-probe failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    serde_json::from_slice(&out.stdout).map_err(err)
}

/// Measures what one tenant costs through the library, each measurement in a fresh process.
pub fn tenant_cost(cfg: &ServeBenchConfig) -> Result<TenantCost, String> {
    let empty = probe_in_child(&cfg.dir.join("cost-empty"), cfg.cost_stores, 0, cfg.seed)?;
    let full_stores = (cfg.cost_stores / 10).max(1);
    let full = probe_in_child(
        &cfg.dir.join("cost-rows"),
        full_stores,
        cfg.cost_rows,
        cfg.seed,
    )?;
    let per = |p: &CostProbe| p.rss_after.saturating_sub(p.rss_before) / p.stores as u64;
    Ok(TenantCost {
        create_p50_us: quantile(&empty.create_us, 0.5).unwrap_or(0),
        open_p50_us: quantile(&empty.open_us, 0.5).unwrap_or(0),
        open_p99_us: quantile(&empty.open_us, 0.99).unwrap_or(0),
        rss_per_open_store: per(&empty),
        rss_per_open_store_with_rows: per(&full),
        open_with_rows_p50_us: quantile(&full.open_us, 0.5).unwrap_or(0),
        empty_file_bytes: empty.file_allocated,
        empty_file_apparent: empty.file_apparent,
        bytes_per_row: full.file_allocated.saturating_sub(empty.file_allocated) as f64
            / cfg.cost_rows.max(1) as f64,
        rows: cfg.cost_rows,
        stores_with_rows: full_stores,
    })
}

/// A keep-alive HTTP/1.1 connection.
struct Conn {
    addr: SocketAddr,
    reader: BufReader<TcpStream>,
    writer: TcpStream,
}

impl Conn {
    fn new(addr: SocketAddr) -> Result<Conn, String> {
        let s = TcpStream::connect(addr).map_err(err)?;
        s.set_nodelay(true).map_err(err)?;
        Ok(Conn {
            addr,
            reader: BufReader::new(s.try_clone().map_err(err)?),
            writer: s,
        })
    }

    /// POSTs `body` to `path`; returns the status.
    fn post(&mut self, path: &str, body: &str) -> Result<u16, String> {
        let req = format!(
            "POST {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        );
        self.writer.write_all(req.as_bytes()).map_err(err)?;
        let mut line = String::new();
        self.reader.read_line(&mut line).map_err(err)?;
        let status: u16 = line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| format!("bad status line {line:?}"))?;
        let mut len = 0usize;
        loop {
            line.clear();
            self.reader.read_line(&mut line).map_err(err)?;
            let l = line.trim_end();
            if l.is_empty() {
                break;
            }
            if let Some((k, v)) = l.split_once(':')
                && k.eq_ignore_ascii_case("content-length")
            {
                len = v.trim().parse().map_err(err)?;
            }
        }
        let mut body = vec![0; len];
        self.reader.read_exact(&mut body).map_err(err)?;
        Ok(status)
    }
}

/// Runs `requests` requests from `clients` threads; `make` builds request `i`'s path and body.
fn phase(
    addr: SocketAddr,
    verb: &str,
    cfg: &ServeBenchConfig,
    server: &Server,
    make: impl Fn(&mut SplitMix64, usize) -> (String, String) + Sync,
) -> Result<VerbFigures, String> {
    let opens_before = server.registry().stats().opened;
    let per = cfg.requests.div_ceil(cfg.clients);
    let start = Instant::now();
    let lat: Vec<Vec<u64>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..cfg.clients)
            .map(|c| {
                let make = &make;
                s.spawn(move || -> Result<Vec<u64>, String> {
                    let mut conn = Conn::new(addr)?;
                    let mut rng = SplitMix64::new(cfg.seed ^ ((c as u64 + 1) * 0x9E37));
                    let mut out = Vec::with_capacity(per);
                    for i in 0..per {
                        let (path, body) = make(&mut rng, c * per + i);
                        let t = Instant::now();
                        let status = conn.post(&path, &body)?;
                        out.push(micros(t.elapsed()));
                        if status != 200 {
                            return Err(format!("{verb} {path}: HTTP {status}"));
                        }
                    }
                    Ok(out)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().map_err(|_| "a client panicked".to_owned())?)
            .collect::<Result<Vec<_>, String>>()
    })?;
    let secs = start.elapsed().as_secs_f64();
    let all: Vec<u64> = lat.into_iter().flatten().collect();
    Ok(VerbFigures {
        verb: verb.to_owned(),
        requests: all.len(),
        per_second: all.len() as f64 / secs,
        p50_us: quantile(&all, 0.5).unwrap_or(0),
        p99_us: quantile(&all, 0.99).unwrap_or(0),
        opens: server.registry().stats().opened - opens_before,
    })
}

/// Serves `tenants` tenants and measures the verbs.
pub fn load(cfg: &ServeBenchConfig, tenants: usize) -> Result<TenantFigures, String> {
    let data = cfg.dir.join(format!("tenants-{tenants}"));
    let mut c = ServeConfig::new(&data, "127.0.0.1:0".parse().map_err(err)?);
    c.max_open = cfg.max_open;
    let server = Server::start(c).map_err(err)?;
    let addr = server.addr();
    let t0 = Instant::now();
    // Seed: every tenant gets `seed_rows` rows in one batch.
    std::thread::scope(|s| -> Result<(), String> {
        let handles: Vec<_> = (0..cfg.clients)
            .map(|c| {
                s.spawn(move || -> Result<(), String> {
                    let mut conn = Conn::new(addr)?;
                    let mut rng = SplitMix64::new(cfg.seed + c as u64);
                    for t in (c..tenants).step_by(cfg.clients) {
                        let rows: Vec<serde_json::Value> = (0..cfg.seed_rows)
                            .map(|n| serde_json::json!({"text": text(&mut rng, n), "user_id": "u"}))
                            .collect();
                        let body = serde_json::json!({ "memories": rows }).to_string();
                        let status = conn.post(&format!("/t/t{t}/inscribe/batch"), &body)?;
                        if status != 200 {
                            return Err(format!("seeding t{t}: HTTP {status}"));
                        }
                    }
                    Ok(())
                })
            })
            .collect();
        for h in handles {
            h.join().map_err(|_| "a client panicked".to_owned())??;
        }
        Ok(())
    })?;
    let seed_secs = t0.elapsed().as_secs_f64();
    let disk_bytes = dir_bytes(&data);
    let n = tenants as u64;
    let inscribe = phase(addr, "inscribe", cfg, &server, |rng, i| {
        let t = rng.below(n);
        let body = serde_json::json!({"text": text(rng, i), "user_id": "u"}).to_string();
        (format!("/t/t{t}/inscribe"), body)
    })?;
    let recall = phase(addr, "recall", cfg, &server, |rng, _| {
        let t = rng.below(n);
        let q = [
            "window seat",
            "green tea",
            "cello",
            "night shifts",
            "peanuts",
        ][rng.index(5)];
        let body = serde_json::json!({"query": q, "user_id": "u", "k": 5}).to_string();
        (format!("/t/t{t}/recall"), body)
    })?;
    server.stop().map_err(err)?;
    std::fs::remove_dir_all(&data).map_err(err)?;
    Ok(TenantFigures {
        tenants,
        seed_secs,
        disk_bytes,
        verbs: vec![inscribe, recall],
    })
}

/// The whole run: per-tenant cost, then each tenant count.
pub fn run(cfg: ServeBenchConfig, progress: impl Fn(&str)) -> Result<ServeReport, String> {
    std::fs::create_dir_all(&cfg.dir).map_err(err)?;
    progress("per-tenant cost");
    let cost = tenant_cost(&cfg)?;
    let mut figures = Vec::new();
    for &t in &cfg.tenants {
        progress(&format!("{t} tenants"));
        figures.push(load(&cfg, t)?);
    }
    Ok(ServeReport {
        config: cfg,
        cost,
        load: figures,
    })
}

/// The report as Markdown tables.
pub fn format_report(r: &ServeReport) -> String {
    let c = &r.cost;
    let mut s = format!(
        "per-tenant cost ({} empty stores opened together; {} stores of {} rows):\n\
         | create p50 | open p50 (empty) | open p99 (empty) | open p50 ({} rows) | RSS per open empty store | RSS per open store of {} rows | empty file (allocated / apparent) | disk bytes per row |\n\
         |---|---|---|---|---|---|---|---|\n\
         | {:.2} ms | {:.2} ms | {:.2} ms | {:.2} ms | {:.0} KiB | {:.0} KiB | {:.0} / {:.0} KiB | {:.0} |\n\n",
        r.config.cost_stores,
        c.stores_with_rows,
        c.rows,
        c.rows,
        c.rows,
        c.create_p50_us as f64 / 1e3,
        c.open_p50_us as f64 / 1e3,
        c.open_p99_us as f64 / 1e3,
        c.open_with_rows_p50_us as f64 / 1e3,
        c.rss_per_open_store as f64 / 1024.0,
        c.rss_per_open_store_with_rows as f64 / 1024.0,
        c.empty_file_bytes as f64 / 1024.0,
        c.empty_file_apparent as f64 / 1024.0,
        c.bytes_per_row,
    );
    s.push_str(
        "| tenants | seed (s) | disk after seed | verb | requests | req/s | p50 | p99 | store opens |\n\
         |---|---|---|---|---|---|---|---|---|\n",
    );
    for t in &r.load {
        for v in &t.verbs {
            s.push_str(&format!(
                "| {} | {:.1} | {:.1} MiB | {} | {} | {:.0} | {:.2} ms | {:.2} ms | {} |\n",
                t.tenants,
                t.seed_secs,
                t.disk_bytes as f64 / (1024.0 * 1024.0),
                v.verb,
                v.requests,
                v.per_second,
                v.p50_us as f64 / 1e3,
                v.p99_us as f64 / 1e3,
                v.opens
            ));
        }
    }
    s
}
