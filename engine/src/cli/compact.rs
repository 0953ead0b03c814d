//! `oubli compact` (source-first notes), `oubli recompute` (refresh a derived row) and
//! `oubli compact --replay` (rebuild every note and check it against the log).

use std::path::PathBuf;

use clap::Args;

use super::output::{ids, opt};
use super::{hex, open, parse_kv, print_json};
use crate::{CompactOptions, CompactScope, Result};

#[derive(Args)]
pub(super) struct CompactArgs {
    path: PathBuf,
    /// Largest note in bytes, header and completeness mark included.
    #[arg(long, required_unless_present = "replay")]
    budget: Option<usize>,
    /// Only rows of this namespace.
    #[arg(long, alias = "in")]
    ns: Option<String>,
    /// Rows this query matches are answer-determining.
    #[arg(long)]
    query: Option<String>,
    /// Metadata filter KEY=VALUE (repeatable).
    #[arg(long = "filter", value_parser = parse_kv)]
    filters: Vec<(String, String)>,
    /// Exactly these rows (comma-separated ids).
    #[arg(long, value_delimiter = ',')]
    ids: Vec<u64>,
    /// Also keep fresh derived values, labelled as derived.
    #[arg(long)]
    include_derived: bool,
    /// Refuse (exit 1) instead of writing a note that misses an answer-determining source.
    #[arg(long)]
    strict: bool,
    /// Key of the note; a live note holding it is replaced.
    #[arg(long)]
    key: Option<String>,
    /// Namespace of the note (default: --ns).
    #[arg(long)]
    note_ns: Option<String>,
    /// Build and print the note without writing it.
    #[arg(long)]
    dry_run: bool,
    /// Instead of compacting, rebuild every note in the log and check its hashes.
    #[arg(long)]
    replay: bool,
}

pub(super) fn compact(a: CompactArgs, json: bool) -> Result<()> {
    let s = open(&a.path)?;
    if a.replay {
        let r = s.replay_notes()?;
        if json {
            print_json(&r)?;
        } else {
            for n in &r {
                let state = if n.purged {
                    "purged".to_owned()
                } else if n.commitment_matches && n.digest_matches {
                    format!("ok digest {}", hex(&n.digest))
                } else {
                    "MISMATCH".to_owned()
                };
                outln!("note #{:<6} seq {:<8} {state}", n.note, n.seq);
            }
        }
        let bad = r
            .iter()
            .any(|n| !(n.purged || n.commitment_matches && n.digest_matches));
        return if bad {
            Err(crate::Error::Corrupt("a note does not replay".into()))
        } else {
            Ok(())
        };
    }
    let scope = CompactScope {
        namespace: a.ns,
        filters: a.filters.into_iter().collect(),
        ids: a.ids,
        query: a.query,
        query_k: 0,
    };
    let mut opts = CompactOptions::new(a.budget.unwrap_or_default())
        .include_derived(a.include_derived)
        .strict(a.strict)
        .dry_run(a.dry_run);
    opts.key = a.key;
    opts.note_namespace = a.note_ns;
    let note = s.compact(&scope, &opts)?;
    if json {
        print_json(&note)?;
        return Ok(());
    }
    outln!("{}", note.text.trim_end_matches('\n'));
    outln!("---");
    match note.id {
        Some(id) => outln!("note #{id} (seq {})", opt(note.seq)),
        None => outln!("dry run: nothing written"),
    }
    outln!(
        "{} of {} bytes; kept {} of {} answer-determining sources{}",
        note.bytes(),
        note.budget,
        note.kept,
        note.total,
        if note.complete {
            ", complete".to_owned()
        } else {
            format!(", INCOMPLETE: dropped {}", ids(&note.dropped))
        }
    );
    for c in &note.certificate.checks {
        outln!(
            "check #{} {}: claimed {} recomputed {} -> {}",
            c.derived,
            c.derivation,
            opt(c.claimed),
            opt(c.recomputed),
            serde_json::to_value(c.status)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_else(|| "unknown".into())
        );
    }
    Ok(())
}

#[derive(Args)]
pub(super) struct RecomputeArgs {
    path: PathBuf,
    /// The derived row.
    id: u64,
}

pub(super) fn recompute(a: RecomputeArgs, json: bool) -> Result<()> {
    let s = open(&a.path)?;
    let r = s.recompute(a.id)?;
    if json {
        print_json(&r)?;
    } else {
        let check = s.check_derived(r.new_id)?;
        outln!(
            "#{} recomputed as #{} (value {})",
            a.id,
            r.new_id,
            opt(check.claimed)
        );
    }
    Ok(())
}
