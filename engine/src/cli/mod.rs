//! The `oubli` command-line tool. `oubli --help` lists the commands; every command takes
//! `--json` for machine-readable output. Exit codes: 0 success, 1 a store error (message on
//! stderr), 2 bad usage.

mod alias;
mod compact;
mod demo;
mod erasure;
mod mcp;

use std::collections::BTreeMap;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use clap::{Args, Parser, Subcommand};
use serde::Deserialize;

use crate::{
    AsOf, Error, Inscription, Kind, ListQuery, RecallQuery, Result, Row, Store, StoreOptions,
    Target,
};

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
    /// Serve the store to MCP clients (Model Context Protocol) over standard input and output.
    /// The store is created when missing.
    Mcp { path: PathBuf },
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
    Inscribe {
        path: PathBuf,
        /// The text (omit with --file).
        text: Option<String>,
        /// JSONL file: one {"text", "namespace"?, "key"?, "kind"?, "metadata"?, "valid_until"?} per line.
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
        #[arg(long)]
        ns: Option<String>,
        /// Metadata filter KEY=VALUE (repeatable).
        #[arg(long = "filter", value_parser = parse_kv)]
        filters: Vec<(String, String)>,
        #[arg(long)]
        include_submerged: bool,
        /// Also return stale derived rows and notes (flagged).
        #[arg(long)]
        include_stale: bool,
        /// Recall the store as it stood after this log sequence number.
        #[arg(long)]
        as_of_seq: Option<u64>,
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
        #[arg(long)]
        ns: Option<String>,
        #[arg(long = "filter", value_parser = parse_kv)]
        filters: Vec<(String, String)>,
        #[arg(long)]
        include_submerged: bool,
        #[arg(long)]
        limit: Option<usize>,
    },
    /// Replace a row with a new text (the old row submerges).
    Supersede {
        path: PathBuf,
        #[command(flatten)]
        target: TargetArgs,
        /// The new text.
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
    /// List the purge receipts stored in the file.
    Receipts { path: PathBuf },
    /// Print (or write) one stored receipt document.
    Receipt {
        path: PathBuf,
        /// The purge id.
        id: u64,
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Residual audits.
    Audit {
        #[command(subcommand)]
        cmd: AuditCmd,
    },
    /// Rewrite indexes and file so nothing purged remains in any byte.
    Scrub { path: PathBuf },
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
    #[arg(long)]
    ns: Option<String>,
    /// Natural key.
    #[arg(long)]
    key: Option<String>,
    /// source, derived or note.
    #[arg(long)]
    kind: Option<String>,
    /// Metadata KEY=VALUE (repeatable).
    #[arg(long = "meta", value_parser = parse_kv)]
    meta: Vec<(String, String)>,
    /// Expiry, milliseconds since the Unix epoch.
    #[arg(long)]
    valid_until: Option<i64>,
}

#[derive(Args)]
#[group(skip)]
#[command(group(clap::ArgGroup::new("target").required(true).multiple(false).args(["id", "key", "query"])))]
struct TargetArgs {
    /// Target a row by id.
    #[arg(long)]
    id: Option<u64>,
    /// Target the live row holding this key (namespace from --in).
    #[arg(long)]
    key: Option<String>,
    /// Target rows matching this description.
    #[arg(long)]
    query: Option<String>,
    /// Namespace for --key and --query.
    #[arg(long = "in")]
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
    metadata: BTreeMap<String, String>,
    valid_until: Option<i64>,
    #[serde(default)]
    derived_from: Vec<u64>,
}

/// Entry point: parses arguments, runs, returns the exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    let json = cli.json;
    match run(cli) {
        Ok(()) => 0,
        Err(e) => {
            if json {
                let _ = writeln!(
                    std::io::stderr(),
                    "{}",
                    serde_json::json!({ "error": e.to_string() })
                );
            } else {
                let _ = writeln!(std::io::stderr(), "oubli: {e}");
            }
            1
        }
    }
}

fn open(path: &Path) -> Result<Store> {
    Store::open(path)
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

fn print_json(v: &impl serde::Serialize) {
    println!("{}", serde_json::to_string_pretty(v).unwrap_or_default());
}

fn print_row(r: &Row) {
    let text = r.text.as_deref().unwrap_or("<erased>");
    let key = r
        .key
        .as_deref()
        .map(|k| format!(" key={k}"))
        .unwrap_or_default();
    println!(
        "#{:<6} {:<9} {:<10} ns={}{}  {}",
        r.id,
        r.depth.state().name(),
        r.kind.name(),
        r.namespace,
        key,
        text
    );
}

fn inscription(text: String, f: &Fields) -> Result<Inscription> {
    let mut ins = Inscription::new(text);
    ins.namespace = f.ns.clone();
    ins.key = f.key.clone();
    if let Some(k) = &f.kind {
        ins.kind = Kind::parse(k)?;
    }
    ins.metadata = f.meta.iter().cloned().collect();
    ins.valid_until = f.valid_until;
    Ok(ins)
}

fn read_jsonl(file: &Path) -> Result<Vec<Inscription>> {
    let reader = std::io::BufReader::new(std::fs::File::open(file)?);
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
        ins.valid_until = r.valid_until;
        ins.derived_from = r.derived_from;
        ins.validate()
            .map_err(|e| Error::InvalidArgument(format!("{}:{}: {e}", file.display(), n + 1)))?;
        out.push(ins);
    }
    Ok(out)
}

fn run(cli: Cli) -> Result<()> {
    let json = cli.json;
    match cli.cmd {
        Cmd::Compact(a) => compact::compact(a, json),
        Cmd::Recompute(a) => compact::recompute(a, json),
        Cmd::Demo { path } => demo::run(path, json),
        Cmd::Mcp { path } => {
            if !path.exists() {
                Store::create(&path)?.close()?;
            }
            mcp::serve_stdio(&path)
        }
        Cmd::Alias(cmd) => alias::run(cmd, json),
        Cmd::Plan {
            path,
            op,
            target,
            new,
        } => alias::plan(path, op, &target, new.as_deref(), json),
        Cmd::Init { path } => {
            let s = Store::create_with(&path, StoreOptions::default())?;
            let pk = hex(&s.public_key()?);
            if json {
                print_json(&serde_json::json!({ "path": path, "public_key": pk }));
            } else {
                println!("created {} (public key {pk})", path.display());
            }
            Ok(())
        }
        Cmd::Inscribe {
            path,
            text,
            file,
            fields,
        } => {
            let s = open(&path)?;
            let ids = match (text, file) {
                (Some(t), None) => vec![s.inscribe(inscription(t, &fields)?)?],
                (None, Some(f)) => {
                    // Parse and validate the whole file first: a bad line writes nothing.
                    let rows = read_jsonl(&f)?;
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
                _ => {
                    return Err(Error::InvalidArgument(
                        "give either a text or --file, not both".into(),
                    ));
                }
            };
            if json {
                print_json(&ids);
            } else if ids.len() == 1 {
                println!("inscribed #{}", ids[0]);
            } else {
                println!(
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
            include_submerged,
            include_stale,
            as_of_seq,
            explain,
            min_score,
        } => {
            let s = open(&path)?;
            let mut q = RecallQuery::new(query)
                .k(k)
                .min_score(min_score)
                .include_submerged(include_submerged)
                .include_stale(include_stale);
            q.namespace = ns;
            q.filters = filters.into_iter().collect();
            q.as_of = as_of_seq.map(AsOf::Seq);
            let hits = s.recall(&q)?;
            if json {
                print_json(&hits);
            } else {
                for h in &hits {
                    print!("{:.5} {}", h.score, if h.stale { "STALE " } else { "" });
                    print_row(&h.row);
                    if explain {
                        let e = &h.explain;
                        println!(
                            "        bm25 rank {:?} score {:?} -> {:.3} | vector rank {:?} sim {:?} -> {:.3} | relevance {:.3} x depth {:.3}",
                            e.bm25_rank,
                            e.bm25_score,
                            e.lexical,
                            e.vector_rank,
                            e.vector_score,
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
            include_submerged,
            limit,
        } => {
            let s = open(&path)?;
            let rows = s.list(&ListQuery {
                namespace: ns,
                filters: filters.into_iter().collect(),
                include_submerged,
                limit,
                ..Default::default()
            })?;
            if json {
                print_json(&rows);
            } else {
                rows.iter().for_each(print_row);
            }
            Ok(())
        }
        Cmd::Supersede { path, target, text } => {
            let s = open(&path)?;
            let r = s.supersede(target.target(), Inscription::new(text))?;
            if json {
                print_json(&r);
            } else {
                println!("#{:?} superseded by #{}", r.replaced, r.new_id);
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
        Cmd::Receipts { path } => erasure::receipts(&path, json),
        Cmd::Receipt { path, id, out } => erasure::receipt(&path, id, out),
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
                print_json(&serde_json::json!({ "scrub_seq": seq }));
            } else {
                println!("scrubbed at seq {seq}");
            }
            Ok(())
        }
        Cmd::Sweep { path } => {
            let r = open(&path)?.sweep()?;
            if json {
                print_json(&r);
            } else {
                println!("decayed {:?}, expired {:?}", r.decayed, r.expired);
            }
            Ok(())
        }
        Cmd::History { path, id } => {
            let h = open(&path)?.history(id)?;
            if json {
                print_json(&h);
            } else {
                h.chain.iter().for_each(print_row);
                for e in &h.events {
                    println!(
                        "  seq {:<6} {:<10} rows {:?}",
                        e.seq,
                        e.kind.name(),
                        e.transitions.iter().map(|t| t.row).collect::<Vec<_>>()
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
            let s = Store::open_with(&path, StoreOptions::default().read_only(true))?;
            if verify {
                let pk = pubkey.as_deref().map(parse_key_hex).transpose()?;
                let r = s.verify_log(pk)?;
                if json {
                    print_json(&serde_json::json!({
                        "ok": true, "events": r.events, "checkpoints": r.checkpoints,
                        "head_seq": r.head_seq, "head_hash": hex(&r.head_hash),
                    }));
                } else {
                    println!(
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
                print_json(&events);
            } else {
                for e in events {
                    let tr: Vec<String> = e
                        .transitions
                        .iter()
                        .map(|t| {
                            let b = t.before.map_or("-".to_string(), |d| d.to_string());
                            format!("#{} {b}->{}", t.row, t.after)
                        })
                        .collect();
                    println!(
                        "{:<6} {} {:<10} ns={} {} commitments={}",
                        e.seq,
                        e.time,
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
            let s = Store::open_with(&path, StoreOptions::default().read_only(true))?;
            let pk = hex(&s.public_key()?);
            if json {
                print_json(&serde_json::json!({ "public_key": pk }));
            } else {
                println!("{pk}");
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
    let ids = f(&s)?;
    if json {
        print_json(&ids);
    } else {
        println!("{verb} {ids:?}");
    }
    Ok(())
}
