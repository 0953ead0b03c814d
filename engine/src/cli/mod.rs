//! The `oubli` command-line tool. `oubli --help` lists the commands; every command takes
//! `--json` for machine-readable output.
//!
//! Conventions (tested in `engine/tests/api/cli.rs`):
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
mod args;
#[cfg(feature = "cluster")]
mod cluster;
mod compact;
mod demo;
mod erasure;
mod filter_expr;
pub(crate) mod mcp;
mod output;
mod time;
pub(crate) mod verbs;

use std::io::{BufRead, Read, Write};
use std::path::Path;

use clap::Parser;
use serde::Deserialize;

use crate::row::Millis;
use crate::{
    Error, Inscription, Kind, ListQuery, RecallQuery, Result, Row, Store, StoreOptions, Target,
};
use args::parse_kv;
use args::{AuditCmd, Cli, Cmd, Fields, KeyCmd, TargetArgs, metadata_filter};
pub(crate) use output::print_json;
use output::{ids, opt};
use time::{format_time, parse_time};

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

/// Opens a store for a forgetting call on `target`, with the confidence floor it asks for;
/// errors name the path.
fn open_for(path: &Path, target: &TargetArgs) -> Result<Store> {
    Store::open_with(
        path,
        StoreOptions::default().min_confidence(target.min_confidence),
    )
    .map_err(|e| at_path(path, e))
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
        Cmd::Mcp {
            path,
            http,
            min_confidence,
        } => {
            if !path.exists() {
                Store::create(&path)?.close()?;
            }
            let options = StoreOptions::default().min_confidence(min_confidence);
            match http {
                Some(addr) => mcp::serve_http(&path, addr, options),
                None => mcp::serve_stdio(&path, options),
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
            // A file is a bulk load: the vector graph is built once, after the rows.
            let s = match &input {
                Ok(_) => open(&path)?,
                Err(_) => Store::open_with(&path, StoreOptions::default().defer_vector_graph(true))
                    .map_err(|e| at_path(&path, e))?,
            };
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
                    s.build_vector_graph()?;
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
            let s = open_for(&path, &target)?;
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
            ids_cmd(&path, &target, json, "released", |s, t| s.release(t))
        }
        Cmd::Pin { path, target } => ids_cmd(&path, &target, json, "pinned", |s, t| s.pin(t)),
        Cmd::Resurface { path, target } => {
            ids_cmd(&path, &target, json, "resurfaced", |s, t| s.resurface(t))
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
    target: &TargetArgs,
    json: bool,
    verb: &str,
    f: impl FnOnce(&Store, Target) -> Result<Vec<u64>>,
) -> Result<()> {
    let s = open_for(path, target)?;
    let changed = f(&s, target.target())?;
    if json {
        print_json(&changed)?;
    } else {
        outln!("{verb} {}", ids(&changed));
    }
    Ok(())
}
