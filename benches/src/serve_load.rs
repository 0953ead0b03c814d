//! `oubli-bench serve`: the multi-tenant server under load, and what one tenant costs.
//!
//! Two parts, both on this machine:
//! - **per-tenant cost**, through the library: the time to create and to reopen a store, the
//!   resident memory each open store adds (the process's RSS before and after opening `N`
//!   stores, over `N`), the size of an empty store file, and bytes per row (a store's file
//!   size after `R` one-row inscribes, less the empty size, over `R`);
//! - **served verbs**, over HTTP on loopback: for each tenant count, a fresh data directory,
//!   every tenant seeded with a few rows, then `inscribe` and `recall` requests from several
//!   keep-alive client threads, each request to a tenant drawn uniformly at random. Reported
//!   per verb: throughput and p50/p99 latency, and how many store opens the phase caused
//!   (with more tenants than `--max-open`, most requests reopen a closed store).
//!
//! Linux only for RSS (`/proc/self/statm`).

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
    /// Resident memory that opening the store of the bytes-per-row run (`rows` rows) adds,
    /// bytes.
    pub rss_per_open_store_with_rows: u64,
    /// Size of an empty store file, bytes.
    pub empty_file_bytes: u64,
    /// File bytes per row, beyond the empty file.
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

fn dir_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok()?.metadata().ok())
                .map(|m| m.len())
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

/// Measures what one tenant costs through the library.
pub fn tenant_cost(cfg: &ServeBenchConfig) -> Result<TenantCost, String> {
    let dir = cfg.dir.join("cost");
    std::fs::create_dir_all(&dir).map_err(err)?;
    let paths: Vec<PathBuf> = (0..cfg.cost_stores)
        .map(|i| dir.join(format!("t{i}.oubli")))
        .collect();
    let mut create = Vec::new();
    for p in &paths {
        let t = Instant::now();
        let s = Store::create(p).map_err(err)?;
        create.push(micros(t.elapsed()));
        s.close().map_err(err)?;
    }
    let empty_file_bytes = std::fs::metadata(&paths[0]).map_err(err)?.len();
    let before = rss_bytes();
    let mut open = Vec::new();
    let mut stores = Vec::new();
    for p in &paths {
        let t = Instant::now();
        stores.push(Store::open(p).map_err(err)?);
        open.push(micros(t.elapsed()));
    }
    let after = rss_bytes();
    drop(stores);

    let rows_path = dir.join("rows.oubli");
    let mut rng = SplitMix64::new(cfg.seed);
    {
        let s = Store::create(&rows_path).map_err(err)?;
        for n in 0..cfg.cost_rows {
            s.inscribe(Inscription::new(text(&mut rng, n)).namespace("user:bench"))
                .map_err(err)?;
        }
        s.close().map_err(err)?;
    }
    let full = std::fs::metadata(&rows_path).map_err(err)?.len();
    let before_rows = rss_bytes();
    let s = Store::open_with(&rows_path, StoreOptions::default()).map_err(err)?;
    let after_rows = rss_bytes();
    drop(s);
    std::fs::remove_dir_all(&dir).map_err(err)?;
    Ok(TenantCost {
        create_p50_us: quantile(&create, 0.5).unwrap_or(0),
        open_p50_us: quantile(&open, 0.5).unwrap_or(0),
        open_p99_us: quantile(&open, 0.99).unwrap_or(0),
        rss_per_open_store: after.saturating_sub(before) / cfg.cost_stores.max(1) as u64,
        rss_per_open_store_with_rows: after_rows.saturating_sub(before_rows),
        empty_file_bytes,
        bytes_per_row: full.saturating_sub(empty_file_bytes) as f64 / cfg.cost_rows.max(1) as f64,
        rows: cfg.cost_rows,
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
        "per-tenant cost ({} stores opened together, {} rows):\n\
         | create p50 | open p50 | open p99 | RSS per open empty store | RSS of one open store of {} rows | empty file | bytes per row |\n\
         |---|---|---|---|---|---|---|\n\
         | {:.2} ms | {:.2} ms | {:.2} ms | {:.0} KiB | {:.0} KiB | {:.0} KiB | {:.0} |\n\n",
        r.config.cost_stores,
        c.rows,
        c.rows,
        c.create_p50_us as f64 / 1e3,
        c.open_p50_us as f64 / 1e3,
        c.open_p99_us as f64 / 1e3,
        c.rss_per_open_store as f64 / 1024.0,
        c.rss_per_open_store_with_rows as f64 / 1024.0,
        c.empty_file_bytes as f64 / 1024.0,
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
