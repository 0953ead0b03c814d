//! The `oubli` command-line tool. `oubli --help` lists the commands; every command takes
//! `--json` for machine-readable output.
//!
//! Conventions (tested in `engine/tests/cli.rs`):
//! - exit codes: 0 success (also when standard output is closed early, as by `| head`),
//!   1 a runtime error (`oubli: <message>` on stderr, or with `--json` the object
//!   `{"error": <message>, "code": <stable code>}`), 2 bad usage (code `usage`);
//! - `-` as a text (or `--file -`) reads standard input;
//! - `--ns` is the namespace flag of every verb (`--in` is a hidden alias);
//! - times are RFC 3339 / ISO 8601 (`2026-11-23T14:05:00Z`, `2026-11-23`) or epoch
//!   milliseconds, durations ISO 8601 (`P30D`, `PT12H`); text output prints times in ISO 8601,
//!   JSON keeps epoch milliseconds;
//! - a depth in JSON is always `{"state": ..., "level": number or null}`;
//! - an I/O error names the path it concerns.

/// `writeln!` to standard output that returns the write error (a closed pipe) from the
/// enclosing function instead of panicking as `println!` does.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout(), $($arg)*)?;
    }};
}

mod alias;
mod compact;
mod demo;
mod erasure;
mod filter_expr;
pub(crate) mod mcp;
mod output;
mod time;
pub(crate) mod verbs;

use std::io::{BufRead, Read, Write};
use std::path::{Path, PathBuf};

use clap::{Args, Parser, Subcommand};
use serde::Deserialize;

use crate::row::Millis;
use crate::{
    AsOf, Error, Inscription, Kind, ListQuery, RecallQuery, Result, Row, Store, StoreOptions,
    Target,
};
pub(crate) use output::print_json;
use output::{ids, opt};
use time::{format_time, parse_duration, parse_time};

#[derive(Parser)]
#[command(
    name = "oubli",
    version,
    about = "An embedded memory database for AI agents that can forget, provably."
)]
struct Cli {
    /// Print JSON instead of text.
    #[arg(long, global = true)]
    json: bool,
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Run a short end-to-end tour on a fresh store: inscribe, recall, supersede, purge, verify.
    Demo {
        /// Where to put the store (a temporary directory when omitted).
        path: Option<PathBuf>,
    },
    /// Create a new store file.
    Init { path: PathBuf },
    /// Serve the store to MCP clients (Model Context Protocol) over standard input and output,
    /// or over streamable HTTP with `--http`. The store is created when missing.
    Mcp {
        path: PathBuf,
        /// Serve streamable HTTP at this address (e.g. `127.0.0.1:8765`; port 0 picks a free
        /// port) on the path `/mcp`, instead of stdio. No authentication: only loopback `Host`
        /// headers are accepted (see the README's MCP section).
        #[arg(long, value_name = "ADDR")]
        http: Option<std::net::SocketAddr>,
    },
    /// Serve many tenant stores (one file each in --data-dir, opened on first use) over
    /// HTTP/JSON: every verb under /t/{tenant}/, bearer tokens per tenant or per deployment.
    /// See docs/scale-out.md.
    Serve {
        /// The directory of the tenants' store files (created when missing).
        #[arg(long, value_name = "DIR")]
        data_dir: PathBuf,
        /// The address to listen on (port 0 picks a free port).
        #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8766")]
        listen: std::net::SocketAddr,
        /// The tokens file: one `SCOPE SECRET` per line, SCOPE `*` or a tenant id, SECRET a
        /// token or `blake3:<hex>`. Required to listen on a non-loopback address.
        #[arg(long, value_name = "FILE")]
        tokens: Option<PathBuf>,
        /// Close a store unused for this many seconds.
        #[arg(long, default_value_t = crate::serve::DEFAULT_IDLE.as_secs())]
        idle_secs: u64,
        /// Most stores open at once (the least recently used idle one is closed first).
        #[arg(long, default_value_t = crate::serve::DEFAULT_MAX_OPEN)]
        max_open: usize,
        /// Largest request body, in bytes.
        #[arg(long, default_value_t = crate::serve::DEFAULT_MAX_BODY)]
        max_body: usize,
        /// Cluster membership (etcd leases and placement).
        #[cfg(feature = "cluster")]
        #[command(flatten)]
        cluster: ClusterArgs,
    },
    /// Declare, list and remove aliases (forms that name one person, account or identifier).
    #[command(subcommand)]
    Alias(alias::AliasCmd),
    /// Dry run: which rows (and clauses) a call would act on, and why.
    Plan {
        path: PathBuf,
        /// supersede, release, pin, resurface or purge.
        #[arg(long, value_parser = alias::parse_op)]
        op: crate::Operation,
        #[command(flatten)]
        target: TargetArgs,
        /// The new text of a supersede (helps choose the row and clause).
        #[arg(long)]
        new: Option<String>,
    },
    /// Inscribe one row, or every row of a JSONL file with --file.
    #[command(
        group(clap::ArgGroup::new("input").required(true).args(["text", "file"])),
        override_usage = "oubli inscribe [OPTIONS] <PATH> <TEXT>\n       oubli inscribe [OPTIONS] <PATH> --file <FILE>"
    )]
    Inscribe {
        /// The store file.
        path: PathBuf,
        /// The text; `-` reads it from standard input.
        text: Option<String>,
        /// JSONL file (`-`: standard input): one {"text", "namespace"?, "key"?, "kind"?,
        /// "metadata"?, "valid_until"? (RFC 3339 or epoch ms), "derived_from"?} per line.
        #[arg(long)]
        file: Option<PathBuf>,
        #[command(flatten)]
        fields: Fields,
    },
    /// Recall the rows that best match a query.
    Recall {
        path: PathBuf,
        query: String,
        #[arg(long, default_value_t = 10)]
        k: usize,
        /// Only rows of this namespace.
        #[arg(long, alias = "in")]
        ns: Option<String>,
        /// Metadata filter KEY=VALUE: the field equals the string VALUE (repeatable).
        #[arg(long = "filter", value_parser = parse_kv)]
        filters: Vec<(String, String)>,
        /// Metadata condition (repeatable, all must hold): F=V, F!=V, F>V, F>=V, F<V, F<=V,
        /// 'F in [V1, V2]', F? (exists), !F? (missing), or a JSON filter object; V is typed
        /// when it reads as JSON (2, 2.5, true, "quoted"). See docs/metadata.md.
        #[arg(long = "where", value_name = "EXPR", value_parser = filter_expr::parse_where)]
        wheres: Vec<crate::Filter>,
        #[arg(long)]
        include_submerged: bool,
        /// Also return stale derived rows and notes (flagged).
        #[arg(long)]
        include_stale: bool,
        #[command(flatten)]
        as_of: AsOfArgs,
        /// Show per-leg ranks and scores.
        #[arg(long)]
        explain: bool,
        /// Only hits scoring at least this relevance, in [0, 1] (0.3 keeps relevant hits only;
        /// see docs/recall.md).
        #[arg(long, default_value_t = crate::DEFAULT_MIN_SCORE)]
        min_score: f64,
    },
    /// List live rows in id order.
    List {
        path: PathBuf,
        /// Only rows of this namespace.
        #[arg(long, alias = "in")]
        ns: Option<String>,
        /// Metadata filter KEY=VALUE: the field equals the string VALUE (repeatable).
        #[arg(long = "filter", value_parser = parse_kv)]
        filters: Vec<(String, String)>,
        /// Metadata condition (repeatable, all must hold): F=V, F!=V, F>V, F>=V, F<V, F<=V,
        /// 'F in [V1, V2]', F? (exists), !F? (missing), or a JSON filter object; V is typed
        /// when it reads as JSON (2, 2.5, true, "quoted"). See docs/metadata.md.
        #[arg(long = "where", value_name = "EXPR", value_parser = filter_expr::parse_where)]
        wheres: Vec<crate::Filter>,
        #[arg(long)]
        include_submerged: bool,
        #[arg(long)]
        limit: Option<usize>,
        #[command(flatten)]
        as_of: AsOfArgs,
    },
    /// Replace a row with a new text (the old row submerges).
    Supersede {
        path: PathBuf,
        #[command(flatten)]
        target: TargetArgs,
        /// The new text; `-` reads it from standard input.
        text: String,
    },
    /// Soft-forget rows (depth 0; kept for history).
    Release {
        path: PathBuf,
        #[command(flatten)]
        target: TargetArgs,
    },
    /// Pin rows (never decay).
    Pin {
        path: PathBuf,
        #[command(flatten)]
        target: TargetArgs,
    },
    /// Bring submerged rows back.
    Resurface {
        path: PathBuf,
        #[command(flatten)]
        target: TargetArgs,
    },
    /// Erase rows and their closure; scrubs the file.
    Purge {
        path: PathBuf,
        #[command(flatten)]
        target: TargetArgs,
        /// Only show which rows would be erased.
        #[arg(long)]
        dry_run: bool,
        /// Where to write the signed receipt (default `oubli-purge-<id>.receipt.json`).
        #[arg(long)]
        receipt_out: Option<PathBuf>,
        /// Where to write the data subject's opening (default `oubli-purge-<id>.opening.json`).
        /// The store keeps no copy: without this file nobody can check coverage.
        #[arg(long)]
        opening_out: Option<PathBuf>,
    },
    /// Erase everything of one user (every namespace `user:<USER_ID>` and below, the aliases
    /// declared there, shared rows holding the user's identifiers) in one purge with one
    /// receipt; never another user's rows. Scrubs the file.
    ForgetUser {
        path: PathBuf,
        /// The user id (as given to `--ns user:<id>`, the MCP server's `user_id`, Python's
        /// `user_id=`).
        user_id: String,
        /// Only show which rows would be erased.
        #[arg(long)]
        dry_run: bool,
        /// Where to write the signed receipt (default `oubli-purge-<id>.receipt.json`).
        #[arg(long)]
        receipt_out: Option<PathBuf>,
        /// Where to write the data subject's opening (default `oubli-purge-<id>.opening.json`).
        #[arg(long)]
        opening_out: Option<PathBuf>,
    },
    /// List the purge receipts stored in the file.
    Receipts { path: PathBuf },
    /// Print (or write) one stored receipt document.
    Receipt {
        path: PathBuf,
        /// The purge id.
        id: u64,
        #[arg(long)]
        out: Option<PathBuf>,
        /// Also write the purge's opening, if the store still holds it because it was never
        /// delivered (a crash, or an unwritable --opening-out). Returned exactly once: the store
        /// deletes its sealed copy once the file is written.
        #[arg(long)]
        opening_out: Option<PathBuf>,
    },
    /// Residual audits.
    Audit {
        #[command(subcommand)]
        cmd: AuditCmd,
    },
    /// Rewrite indexes and file so nothing purged remains in any byte.
    Scrub { path: PathBuf },
    /// Rebuild the derived indexes (text index, vector snapshot) from the rows, and report
    /// what was damaged. Changes no row and no event.
    Repair { path: PathBuf },
    /// Apply decay policies and validity now.
    Sweep { path: PathBuf },
    /// Show a row's supersede chain and the events that touched it.
    History { path: PathBuf, id: u64 },
    /// Print the event log; with --verify, check the chain and signatures.
    Log {
        path: PathBuf,
        #[arg(long)]
        verify: bool,
        /// Verify against this public key (hex) instead of the one in the file.
        #[arg(long)]
        pubkey: Option<String>,
        #[arg(long, default_value_t = 1)]
        from: u64,
        #[arg(long)]
        to: Option<u64>,
    },
    /// Key management.
    Key {
        #[command(subcommand)]
        cmd: KeyCmd,
    },
    /// Write a source-first note within a byte budget (or --replay the notes in the log).
    Compact(compact::CompactArgs),
    /// Write a new version of a stale derived row from its sources' current versions.
    Recompute(compact::RecomputeArgs),
}

#[derive(Subcommand)]
enum AuditCmd {
    /// Probe the store for what a past purge erased: every alias, perturbed form and paraphrase
    /// of the given content, through every recall channel, against a control store.
    Purge {
        path: PathBuf,
        /// The purge id (see `oubli receipts`).
        id: u64,
        /// Content that was erased (repeatable); probes are derived from it.
        #[arg(long, required = true)]
        content: Vec<String>,
        /// Hits per probe and channel.
        #[arg(long, default_value_t = 20)]
        k: usize,
    },
}

#[derive(Subcommand)]
enum KeyCmd {
    /// Print the store's ed25519 public key (hex).
    Export { path: PathBuf },
}

#[derive(Args)]
struct Fields {
    /// Namespace (user, tenant or agent).
    #[arg(long, alias = "in")]
    ns: Option<String>,
    /// Natural key.
    #[arg(long)]
    key: Option<String>,
    /// source, derived or note.
    #[arg(long)]
    kind: Option<String>,
    /// Metadata KEY=VALUE (a string) or KEY:=JSON (a typed value: 3, 0.5, true,
    /// '["a","b"]'); repeatable.
    #[arg(long = "meta", value_name = "KEY=VALUE|KEY:=JSON", value_parser = filter_expr::parse_meta)]
    meta: Vec<(String, crate::MetaValue)>,
    /// Expiry: RFC 3339 (2026-12-31T00:00:00Z), a date, or milliseconds since the epoch.
    #[arg(long, value_parser = parse_time)]
    valid_until: Option<Millis>,
    /// Expiry as a time to live from now, ISO 8601 (P30D, PT12H).
    #[arg(long, value_parser = parse_duration, conflicts_with = "valid_until")]
    ttl: Option<Millis>,
}

/// The point in the past a read looks at.
#[derive(Args)]
struct AsOfArgs {
    /// Read the store as it stood after this log sequence number.
    #[arg(long, conflicts_with = "as_of")]
    as_of_seq: Option<u64>,
    /// Read the store as it stood at this time (RFC 3339, a date, or epoch ms).
    #[arg(long, value_parser = parse_time)]
    as_of: Option<Millis>,
}

impl AsOfArgs {
    fn get(&self) -> Option<AsOf> {
        self.as_of_seq.map(AsOf::Seq).or(self.as_of.map(AsOf::Time))
    }
}

#[derive(Args)]
#[group(skip)]
#[command(group(clap::ArgGroup::new("target").required(true).multiple(false).args(["id", "key", "query"])))]
struct TargetArgs {
    /// Target a row by id.
    #[arg(long)]
    id: Option<u64>,
    /// Target the live row holding this key (namespace from --ns).
    #[arg(long)]
    key: Option<String>,
    /// Target rows matching this description.
    #[arg(long)]
    query: Option<String>,
    /// Namespace for --key and --query.
    #[arg(long = "ns", alias = "in")]
    namespace: Option<String>,
}

impl TargetArgs {
    fn target(&self) -> Target {
        if let Some(id) = self.id {
            Target::id(id)
        } else if let Some(k) = &self.key {
            Target::key(
                self.namespace
                    .clone()
                    .unwrap_or_else(|| crate::DEFAULT_NAMESPACE.into()),
                k.clone(),
            )
        } else {
            Target::Query {
                namespace: self.namespace.clone(),
                text: self.query.clone().unwrap_or_default(),
            }
        }
    }
}

/// The conjunction of `--filter` (string equality) and `--where` conditions.
fn metadata_filter(filters: Vec<(String, String)>, wheres: Vec<crate::Filter>) -> crate::Filter {
    let mut f = crate::Filter::new();
    for (k, v) in filters {
        f = f.eq(k, v);
    }
    for w in wheres {
        f.conditions.extend(w.conditions);
    }
    f
}

fn parse_kv(s: &str) -> std::result::Result<(String, String), String> {
    s.split_once('=')
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .ok_or_else(|| format!("expected KEY=VALUE, got {s:?}"))
}

/// One line of an inscribe JSONL file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JsonlRow {
    text: String,
    namespace: Option<String>,
    key: Option<String>,
    kind: Option<String>,
    #[serde(default)]
    metadata: crate::Metadata,
    /// Epoch milliseconds or an RFC 3339 string.
    valid_until: Option<serde_json::Value>,
    #[serde(default)]
    derived_from: Vec<u64>,
}

/// Entry point: parses arguments, runs, returns the exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            if !e.use_stderr() {
                // --help and --version.
                let _ = e.print();
                return 0;
            }
            let json = std::env::args_os()
                .skip(1)
                .take_while(|a| a != "--")
                .any(|a| a == "--json");
            if json {
                let msg = clap_message(&e.to_string());
                let _ = writeln!(
                    std::io::stderr(),
                    "{}",
                    serde_json::json!({ "error": msg, "code": "usage" })
                );
            } else {
                let _ = e.print();
            }
            return 2;
        }
    };
    let json = cli.json;
    match run(cli) {
        Ok(()) => 0,
        // The reader went away (`oubli list S | head`): nothing left to say to anyone.
        Err(Error::Io(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Err(e) => {
            if json {
                let _ = writeln!(
                    std::io::stderr(),
                    "{}",
                    serde_json::json!({ "error": e.to_string(), "code": e.code() })
                );
            } else {
                let _ = writeln!(std::io::stderr(), "oubli: {e}");
            }
            1
        }
    }
}

/// Clap's message on one line, without its `error: ` prefix and the usage that follows it.
fn clap_message(s: &str) -> String {
    let s = s.strip_prefix("error: ").unwrap_or(s);
    s.lines()
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Adds the path to an I/O or storage error that would not name it.
fn at_path(path: &Path, e: Error) -> Error {
    match e {
        Error::Io(io) => Error::Io(std::io::Error::new(
            io.kind(),
            format!("{}: {io}", path.display()),
        )),
        Error::Storage(s) if !s.contains(&path.display().to_string()) => {
            Error::Storage(format!("{}: {s}", path.display()))
        }
        e => e,
    }
}

/// Opens a store for writing; errors name the path.
fn open(path: &Path) -> Result<Store> {
    Store::open(path).map_err(|e| at_path(path, e))
}

/// Opens a store read-only, for verbs that only read; errors name the path. Works beside a
/// writer in another process, on a file without write permission, and on a store that was not
/// closed cleanly (recovered in memory, the file untouched).
fn open_read_only(path: &Path) -> Result<Store> {
    Store::open_with(path, StoreOptions::default().read_only(true)).map_err(|e| at_path(path, e))
}

/// Writes a file; an error names the path.
fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    std::fs::write(path, bytes).map_err(|e| at_path(path, e.into()))
}

/// Reads standard input as UTF-8 text for a `-` argument, without its final line break.
fn read_stdin_text() -> Result<String> {
    let mut s = String::new();
    std::io::stdin()
        .read_to_string(&mut s)
        .map_err(|e| at_path(Path::new("<stdin>"), e.into()))?;
    let trimmed = s.trim_end_matches(['\n', '\r']).len();
    s.truncate(trimmed);
    Ok(s)
}

/// A text argument: itself, or standard input when it is `-`.
fn text_arg(t: String) -> Result<String> {
    if t == "-" { read_stdin_text() } else { Ok(t) }
}

fn now_ms() -> Millis {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as Millis)
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Parses a 64-digit hex public key.
pub fn parse_key_hex(s: &str) -> Result<[u8; 32]> {
    let s = s.trim();
    if s.len() != 64 || !s.is_ascii() {
        return Err(Error::InvalidArgument(
            "a public key is 64 hex digits".into(),
        ));
    }
    let mut out = [0u8; 32];
    for (i, o) in out.iter_mut().enumerate() {
        *o = u8::from_str_radix(&s[2 * i..2 * i + 2], 16)
            .map_err(|_| Error::InvalidArgument("a public key is 64 hex digits".into()))?;
    }
    Ok(out)
}

/// One row on one line: id, state, kind, namespace, key, expiry and text.
fn row_line(r: &Row) -> String {
    let text = r.text.as_deref().unwrap_or("<erased>");
    let key = r
        .key
        .as_deref()
        .map(|k| format!(" key={k}"))
        .unwrap_or_default();
    let until = r
        .valid_until
        .map(|t| format!(" until={}", format_time(t)))
        .unwrap_or_default();
    format!(
        "#{:<6} {:<9} {:<10} ns={}{}{}  {}",
        r.id,
        r.depth.state().name(),
        r.kind.name(),
        r.namespace,
        key,
        until,
        text
    )
}

fn print_row(r: &Row) -> Result<()> {
    outln!("{}", row_line(r));
    Ok(())
}

fn inscription(text: String, f: &Fields) -> Result<Inscription> {
    let mut ins = Inscription::new(text);
    ins.namespace = f.ns.clone();
    ins.key = f.key.clone();
    if let Some(k) = &f.kind {
        ins.kind = Kind::parse(k)?;
    }
    ins.metadata = f.meta.iter().cloned().collect();
    ins.valid_until = f.valid_until.or(f.ttl.map(|d| now_ms().saturating_add(d)));
    Ok(ins)
}

fn read_jsonl(file: &Path) -> Result<Vec<Inscription>> {
    let reader: Box<dyn BufRead> = if file == Path::new("-") {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(std::io::BufReader::new(
            std::fs::File::open(file).map_err(|e| at_path(file, e.into()))?,
        ))
    };
    let file = if file == Path::new("-") {
        Path::new("<stdin>")
    } else {
        file
    };
    let mut out = Vec::new();
    for (n, line) in reader.lines().enumerate() {
        let line =
            line.map_err(|e| Error::InvalidArgument(format!("{}:{}: {e}", file.display(), n + 1)))?;
        if line.trim().is_empty() {
            continue;
        }
        let r: JsonlRow = serde_json::from_str(&line)
            .map_err(|e| Error::InvalidArgument(format!("{}:{}: {e}", file.display(), n + 1)))?;
        let mut ins = Inscription::new(r.text);
        ins.namespace = r.namespace;
        ins.key = r.key;
        if let Some(k) = r.kind {
            ins.kind = Kind::parse(&k)?;
        }
        ins.metadata = r.metadata;
        ins.valid_until = match r.valid_until {
            None | Some(serde_json::Value::Null) => None,
            Some(serde_json::Value::String(t)) => Some(parse_time(&t).map_err(|e| {
                Error::InvalidArgument(format!("{}:{}: valid_until: {e}", file.display(), n + 1))
            })?),
            Some(v) => Some(v.as_i64().ok_or_else(|| {
                Error::InvalidArgument(format!(
                    "{}:{}: valid_until: expected RFC 3339 text or integer epoch milliseconds, got {v}",
                    file.display(),
                    n + 1
                ))
            })?),
        };
        ins.derived_from = r.derived_from;
        ins.validate()
            .map_err(|e| Error::InvalidArgument(format!("{}:{}: {e}", file.display(), n + 1)))?;
        out.push(ins);
    }
    Ok(out)
}

/// `oubli serve`'s cluster options (feature `cluster`): with `--etcd`, this server is one node
/// of a cluster and serves only the tenants it holds a lease on (docs/scale-out.md).
#[cfg(feature = "cluster")]
#[derive(clap::Args, Debug)]
pub struct ClusterArgs {
    /// etcd endpoints, comma-separated (e.g. `http://127.0.0.1:2379,http://10.0.0.2:2379`).
    #[arg(long, value_name = "URLS", value_delimiter = ',', requires_all = ["node_id", "advertise"])]
    etcd: Vec<String>,
    /// This node's id, unique in the cluster (a-z, A-Z, 0-9, '-', '_', '.').
    #[arg(long, value_name = "ID", requires = "etcd")]
    node_id: Option<String>,
    /// The URL clients and other nodes reach this server at (redirects point there).
    #[arg(long, value_name = "URL", requires = "etcd")]
    advertise: Option<String>,
    /// The cluster's name: its keys live under /oubli/NAME/ in etcd.
    #[arg(long = "cluster", value_name = "NAME", default_value = crate::cluster::lease::DEFAULT_CLUSTER)]
    cluster_name: String,
    /// Lease time to live in seconds: a dead node's tenants are taken over within about this.
    #[arg(long, value_name = "N", default_value_t = crate::cluster::lease::DEFAULT_LEASE_TTL.as_secs())]
    lease_ttl_secs: u64,
    /// NATS servers with JetStream, comma-separated (e.g. `nats://10.0.0.1:4222,...`):
    /// replicate every tenant through them, answer writes once acknowledged, and restore a
    /// tenant from them on the node that takes it over. The data directory then becomes a
    /// cache: tenant files left in it are removed at start.
    #[arg(long, value_name = "URLS", value_delimiter = ',', requires_all = ["etcd", "signing_secret"])]
    nats: Vec<String>,
    /// The deployment's signing secret (64 hex digits, mode 600), the same file on every node:
    /// each tenant's signing key is derived from it and the tenant id.
    #[arg(long, value_name = "FILE", requires = "nats")]
    signing_secret: Option<PathBuf>,
    /// Copies of each tenant's stream and snapshots in JetStream (1 for a single NATS server).
    #[arg(long, value_name = "N", default_value_t = 3)]
    nats_replicas: usize,
}

#[cfg(feature = "cluster")]
impl ClusterArgs {
    /// Makes `config` a cluster node when these options ask for one (`--etcd`), replicating
    /// its tenants with `--nats`.
    fn apply(self, config: &mut crate::serve::ServeConfig) -> Result<()> {
        use crate::cluster::{keys, lease, replicated, stream};
        let (Some(node_id), Some(advertise)) = (self.node_id, self.advertise) else {
            return Ok(());
        };
        if self.etcd.is_empty() {
            return Ok(());
        }
        let mut cluster = lease::ClusterConfig::new(self.etcd, node_id, advertise);
        cluster.lease_ttl = std::time::Duration::from_secs(self.lease_ttl_secs);
        let mut replication = None;
        if let Some(secret) = self.signing_secret.filter(|_| !self.nats.is_empty()) {
            let r = replicated::Replicated::connect(replicated::ReplicationConfig {
                nats: self.nats,
                stream: stream::StreamConfig::new(self.cluster_name.clone())
                    .replicas(self.nats_replicas),
                data_dir: config.data_dir.clone(),
                store_options: config.store_options.clone(),
                secret: keys::SigningSecret::from_file(&secret)?,
            })
            .map_err(|e| Error::InvalidArgument(format!("replication: {e}")))?;
            cluster.takeover = r.clone();
            replication = Some(r);
        }
        cluster.cluster = self.cluster_name;
        let placement = lease::EtcdPlacement::connect(cluster)?;
        eprintln!(
            "node {} joined the cluster; serving the tenants it holds a lease on{}",
            placement.node_id(),
            if replication.is_some() {
                ", replicated through NATS JetStream"
            } else {
                ""
            }
        );
        config.placement = placement;
        if let Some(r) = replication {
            config.replication = r;
        }
        Ok(())
    }
}

fn run(cli: Cli) -> Result<()> {
    let json = cli.json;
    match cli.cmd {
        Cmd::Compact(a) => compact::compact(a, json),
        Cmd::Recompute(a) => compact::recompute(a, json),
        Cmd::Demo { path } => demo::run(path, json),
        Cmd::Serve {
            data_dir,
            listen,
            tokens,
            idle_secs,
            max_open,
            max_body,
            #[cfg(feature = "cluster")]
            cluster,
        } => {
            let mut config = crate::serve::ServeConfig::new(data_dir, listen);
            config.tokens = tokens
                .map(|t| crate::serve::Tokens::from_file(&t))
                .transpose()?;
            config.idle = std::time::Duration::from_secs(idle_secs);
            config.max_open = max_open;
            config.max_body = max_body;
            #[cfg(feature = "cluster")]
            cluster.apply(&mut config)?;
            crate::serve::run(config)
        }
        Cmd::Mcp { path, http } => {
            if !path.exists() {
                Store::create(&path)?.close()?;
            }
            match http {
                Some(addr) => mcp::serve_http(&path, addr),
                None => mcp::serve_stdio(&path),
            }
        }
        Cmd::Alias(cmd) => alias::run(cmd, json),
        Cmd::Plan {
            path,
            op,
            target,
            new,
        } => alias::plan(path, op, &target, new.as_deref(), json),
        Cmd::Init { path } => {
            let s = Store::create_with(&path, StoreOptions::default())
                .map_err(|e| at_path(&path, e))?;
            let pk = hex(&s.public_key()?);
            if json {
                print_json(&serde_json::json!({ "path": path, "public_key": pk }))?;
            } else {
                outln!("created {} (public key {pk})", path.display());
            }
            Ok(())
        }
        Cmd::Inscribe {
            path,
            text,
            file,
            fields,
        } => {
            // Read the input before opening the store: a bad input leaves the file untouched.
            let input = match (text, file) {
                (Some(t), None) => Ok(inscription(text_arg(t)?, &fields)?),
                // Parse and validate the whole file first: a bad line writes nothing.
                (None, Some(f)) => Err(read_jsonl(&f)?),
                // clap's "input" group takes exactly one of the two.
                _ => unreachable!("clap requires exactly one of TEXT and --file"),
            };
            let s = open(&path)?;
            let ids = match input {
                Ok(ins) => vec![s.inscribe(ins)?],
                Err(rows) => {
                    let bar = indicatif::ProgressBar::new(rows.len() as u64);
                    bar.set_style(
                        indicatif::ProgressStyle::with_template(
                            "{bar:40} {pos}/{len} rows {per_sec} eta {eta}",
                        )
                        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
                    );
                    let mut ids = Vec::with_capacity(rows.len());
                    for chunk in rows.chunks(1000) {
                        ids.extend(s.inscribe_batch(chunk.to_vec())?);
                        bar.inc(chunk.len() as u64);
                    }
                    bar.finish_and_clear();
                    ids
                }
            };
            if json {
                print_json(&ids)?;
            } else if ids.len() == 1 {
                outln!("inscribed #{}", ids[0]);
            } else if ids.is_empty() {
                outln!("inscribed no rows");
            } else {
                outln!(
                    "inscribed {} rows (#{}..#{})",
                    ids.len(),
                    ids[0],
                    ids[ids.len() - 1]
                );
            }
            Ok(())
        }
        Cmd::Recall {
            path,
            query,
            k,
            ns,
            filters,
            wheres,
            include_submerged,
            include_stale,
            as_of,
            explain,
            min_score,
        } => {
            let s = open_read_only(&path)?;
            let mut q = RecallQuery::new(query)
                .k(k)
                .min_score(min_score)
                .include_submerged(include_submerged)
                .include_stale(include_stale);
            q.namespace = ns;
            q.filters = metadata_filter(filters, wheres);
            q.as_of = as_of.get();
            let hits = s.recall(&q)?;
            if json {
                print_json(&hits)?;
            } else {
                for h in &hits {
                    outln!(
                        "{:.5} {}{}",
                        h.score,
                        if h.stale { "STALE " } else { "" },
                        row_line(&h.row)
                    );
                    if explain {
                        let e = &h.explain;
                        outln!(
                            "        bm25 rank {} score {} -> {:.3} coverage {:.3} | vector rank {} sim {} -> {:.3} | relevance {:.3} x depth {:.3}",
                            opt(e.bm25_rank),
                            opt(e.bm25_score.map(|v| format!("{v:.4}"))),
                            e.lexical,
                            e.coverage,
                            opt(e.vector_rank),
                            opt(e.vector_score.map(|v| format!("{v:.4}"))),
                            e.semantic,
                            e.relevance,
                            e.depth_weight
                        );
                    }
                }
            }
            Ok(())
        }
        Cmd::List {
            path,
            ns,
            filters,
            wheres,
            include_submerged,
            limit,
            as_of,
        } => {
            let s = open_read_only(&path)?;
            let rows = s.list(&ListQuery {
                namespace: ns,
                filters: metadata_filter(filters, wheres),
                include_submerged,
                limit,
                as_of: as_of.get(),
                ..Default::default()
            })?;
            if json {
                print_json(&rows)?;
            } else {
                for r in &rows {
                    print_row(r)?;
                }
            }
            Ok(())
        }
        Cmd::Supersede { path, target, text } => {
            let text = text_arg(text)?;
            let s = open(&path)?;
            let r = s.supersede(target.target(), Inscription::new(text))?;
            if json {
                print_json(&r)?;
            } else if r.replaced.is_empty() {
                outln!(
                    "#{} written; clause replaced in {}",
                    r.new_id,
                    ids(&r.edited)
                );
            } else {
                outln!("{} superseded by #{}", ids(&r.replaced), r.new_id);
            }
            Ok(())
        }
        Cmd::Release { path, target } => {
            ids_cmd(&path, json, "released", |s| s.release(target.target()))
        }
        Cmd::Pin { path, target } => ids_cmd(&path, json, "pinned", |s| s.pin(target.target())),
        Cmd::Resurface { path, target } => {
            ids_cmd(&path, json, "resurfaced", |s| s.resurface(target.target()))
        }
        Cmd::Purge {
            path,
            target,
            dry_run,
            receipt_out,
            opening_out,
        } => erasure::purge(&path, &target, dry_run, receipt_out, opening_out, json),
        Cmd::ForgetUser {
            path,
            user_id,
            dry_run,
            receipt_out,
            opening_out,
        } => erasure::forget_user(&path, &user_id, dry_run, receipt_out, opening_out, json),
        Cmd::Receipts { path } => erasure::receipts(&path, json),
        Cmd::Receipt {
            path,
            id,
            out,
            opening_out,
        } => erasure::receipt(&path, id, out, opening_out, json),
        Cmd::Audit {
            cmd:
                AuditCmd::Purge {
                    path,
                    id,
                    content,
                    k,
                },
        } => erasure::audit_purge(&path, id, content, k, json),
        Cmd::Scrub { path } => {
            let seq = open(&path)?.scrub()?;
            if json {
                print_json(&serde_json::json!({ "scrub_seq": seq }))?;
            } else {
                outln!("scrubbed at seq {seq}");
            }
            Ok(())
        }
        Cmd::Repair { path } => {
            let r = open(&path)?.repair()?;
            if json {
                print_json(&r)?;
            } else {
                outln!(
                    "text index: {} ({} rows); vector snapshot: {} ({} vectors{})",
                    if r.text_damaged.is_empty() {
                        "sound, rebuilt".to_owned()
                    } else {
                        format!("damaged {:?}, rebuilt", r.text_damaged)
                    },
                    r.text_rows,
                    if r.snapshot_damaged {
                        "damaged, rebuilt"
                    } else {
                        "sound"
                    },
                    r.vectors,
                    if r.snapshot_written {
                        ", snapshot written"
                    } else {
                        ", exact scan"
                    },
                );
            }
            Ok(())
        }
        Cmd::Sweep { path } => {
            let r = open(&path)?.sweep()?;
            if json {
                print_json(&r)?;
            } else {
                outln!("decayed {}; expired {}", ids(&r.decayed), ids(&r.expired));
            }
            Ok(())
        }
        Cmd::History { path, id } => {
            let h = open_read_only(&path)?.history(id)?;
            if json {
                print_json(&h)?;
            } else {
                for r in &h.chain {
                    print_row(r)?;
                }
                for e in &h.events {
                    outln!(
                        "  seq {:<6} {} {:<10} rows {}",
                        e.seq,
                        format_time(e.time),
                        e.kind.name(),
                        ids(&e.transitions.iter().map(|t| t.row).collect::<Vec<_>>())
                    );
                }
            }
            Ok(())
        }
        Cmd::Log {
            path,
            verify,
            pubkey,
            from,
            to,
        } => {
            let s = open_read_only(&path)?;
            if verify {
                let pk = pubkey.as_deref().map(parse_key_hex).transpose()?;
                let r = s.verify_log(pk)?;
                if json {
                    print_json(&serde_json::json!({
                        "ok": true, "events": r.events, "checkpoints": r.checkpoints,
                        "head_seq": r.head_seq, "head_hash": hex(&r.head_hash),
                    }))?;
                } else {
                    outln!(
                        "log verified: {} events, {} signed checkpoints, head seq {} hash {}",
                        r.events,
                        r.checkpoints,
                        r.head_seq,
                        hex(&r.head_hash)
                    );
                }
                return Ok(());
            }
            let (head, _) = s.head()?;
            let events = s.events(from, to.unwrap_or(head))?;
            if json {
                print_json(&events)?;
            } else {
                for e in events {
                    let tr: Vec<String> = e
                        .transitions
                        .iter()
                        .map(|t| {
                            let b = t.before.map_or("new".to_string(), |d| d.to_string());
                            format!("#{} {b}->{}", t.row, t.after)
                        })
                        .collect();
                    outln!(
                        "{:<6} {} {:<10} ns={} {} commitments={}",
                        e.seq,
                        format_time(e.time),
                        e.kind.name(),
                        e.namespace,
                        tr.join(" "),
                        e.commitments.len()
                    );
                }
            }
            Ok(())
        }
        Cmd::Key {
            cmd: KeyCmd::Export { path },
        } => {
            let s = open_read_only(&path)?;
            let pk = hex(&s.public_key()?);
            if json {
                print_json(&serde_json::json!({ "public_key": pk }))?;
            } else {
                outln!("{pk}");
            }
            Ok(())
        }
    }
}

fn ids_cmd(
    path: &Path,
    json: bool,
    verb: &str,
    f: impl FnOnce(&Store) -> Result<Vec<u64>>,
) -> Result<()> {
    let s = open(path)?;
    let changed = f(&s)?;
    if json {
        print_json(&changed)?;
    } else {
        outln!("{verb} {}", ids(&changed));
    }
    Ok(())
}
