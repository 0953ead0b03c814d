//! The command line's grammar: every command, its arguments and their parsers (clap derive).
//! `super::run` dispatches on [`Cmd`].

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

#[cfg(feature = "cluster")]
use super::cluster::ClusterArgs;
use super::time::{parse_duration, parse_time};
use super::{alias, compact, filter_expr};
use crate::row::Millis;
use crate::{AsOf, Target};

#[derive(Parser)]
#[command(
    name = "oubli",
    version,
    about = "An embedded memory database for AI agents that can forget, provably."
)]
pub(super) struct Cli {
    /// Print JSON instead of text.
    #[arg(long, global = true)]
    pub(super) json: bool,
    #[command(subcommand)]
    pub(super) cmd: Cmd,
}

#[derive(Subcommand)]
pub(super) enum Cmd {
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
        /// The least confidence (low, medium, high) a forgetting tool's match needs for the
        /// call to act on it; `plan` grades each match (docs/targeting.md, "Confidence").
        #[arg(long, default_value = "low")]
        min_confidence: crate::Confidence,
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
pub(super) enum AuditCmd {
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
pub(super) enum KeyCmd {
    /// Print the store's ed25519 public key (hex).
    Export { path: PathBuf },
}

#[derive(Args)]
pub(super) struct Fields {
    /// Namespace (user, tenant or agent).
    #[arg(long, alias = "in")]
    pub(super) ns: Option<String>,
    /// Natural key.
    #[arg(long)]
    pub(super) key: Option<String>,
    /// source, derived or note.
    #[arg(long)]
    pub(super) kind: Option<String>,
    /// Metadata KEY=VALUE (a string) or KEY:=JSON (a typed value: 3, 0.5, true,
    /// '["a","b"]'); repeatable.
    #[arg(long = "meta", value_name = "KEY=VALUE|KEY:=JSON", value_parser = filter_expr::parse_meta)]
    pub(super) meta: Vec<(String, crate::MetaValue)>,
    /// Expiry: RFC 3339 (2026-12-31T00:00:00Z), a date, or milliseconds since the epoch.
    #[arg(long, value_parser = parse_time)]
    pub(super) valid_until: Option<Millis>,
    /// Expiry as a time to live from now, ISO 8601 (P30D, PT12H).
    #[arg(long, value_parser = parse_duration, conflicts_with = "valid_until")]
    pub(super) ttl: Option<Millis>,
}

/// The point in the past a read looks at.
#[derive(Args)]
pub(super) struct AsOfArgs {
    /// Read the store as it stood after this log sequence number.
    #[arg(long, conflicts_with = "as_of")]
    pub(super) as_of_seq: Option<u64>,
    /// Read the store as it stood at this time (RFC 3339, a date, or epoch ms).
    #[arg(long, value_parser = parse_time)]
    pub(super) as_of: Option<Millis>,
}

impl AsOfArgs {
    pub(super) fn get(&self) -> Option<AsOf> {
        self.as_of_seq.map(AsOf::Seq).or(self.as_of.map(AsOf::Time))
    }
}

#[derive(Args)]
#[group(skip)]
#[command(group(clap::ArgGroup::new("target").required(true).multiple(false).args(["id", "key", "query"])))]
pub(super) struct TargetArgs {
    /// Target a row by id.
    #[arg(long)]
    pub(super) id: Option<u64>,
    /// Target the live row holding this key (namespace from --ns).
    #[arg(long)]
    pub(super) key: Option<String>,
    /// Target rows matching this description.
    #[arg(long)]
    pub(super) query: Option<String>,
    /// Namespace for --key and --query.
    #[arg(long = "ns", alias = "in")]
    pub(super) namespace: Option<String>,
    /// The least confidence (low, medium, high) a match needs for the call to act on it; a
    /// call whose matches are graded below is a no-match. `plan` grades each match.
    #[arg(long, default_value = "low")]
    pub(super) min_confidence: crate::Confidence,
}

impl TargetArgs {
    pub(super) fn target(&self) -> Target {
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
pub(super) fn metadata_filter(
    filters: Vec<(String, String)>,
    wheres: Vec<crate::Filter>,
) -> crate::Filter {
    let mut f = crate::Filter::new();
    for (k, v) in filters {
        f = f.eq(k, v);
    }
    for w in wheres {
        f.conditions.extend(w.conditions);
    }
    f
}

pub(super) fn parse_kv(s: &str) -> std::result::Result<(String, String), String> {
    s.split_once('=')
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .ok_or_else(|| format!("expected KEY=VALUE, got {s:?}"))
}
