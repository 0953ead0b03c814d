//! `oubli alias` (the alias registry) and `oubli plan` (dry runs that explain targeting).

use std::path::PathBuf;

use clap::Subcommand;

use super::output::{ids, words};
use super::{TargetArgs, open, print_json};
use crate::{AliasKind, Operation, Plan, Result, Store, StoreOptions};

/// `oubli alias ...`
#[derive(Subcommand)]
pub(super) enum AliasCmd {
    /// Declare that several forms name one person, account or identifier.
    Add {
        path: PathBuf,
        /// The forms ("Robert Smith", "Bob", "bob@example.org").
        #[arg(required = true)]
        forms: Vec<String>,
        /// person, account, identifier or other.
        #[arg(long, default_value = "person", value_parser = parse_kind)]
        kind: AliasKind,
        /// Namespace of the group.
        #[arg(long = "ns", alias = "in", default_value = crate::DEFAULT_NAMESPACE)]
        namespace: String,
    },
    /// List alias groups.
    List {
        path: PathBuf,
        /// Only groups of this namespace.
        #[arg(long = "ns", alias = "in")]
        namespace: Option<String>,
    },
    /// Remove an alias group (rows are untouched).
    Remove { path: PathBuf, id: u64 },
}

fn parse_kind(s: &str) -> std::result::Result<AliasKind, String> {
    match s {
        "person" => Ok(AliasKind::Person),
        "account" => Ok(AliasKind::Account),
        "identifier" => Ok(AliasKind::Identifier),
        "other" => Ok(AliasKind::Other),
        _ => Err(format!(
            "unknown alias kind {s:?} (person, account, identifier, other)"
        )),
    }
}

pub(super) fn run(cmd: AliasCmd, json: bool) -> Result<()> {
    match cmd {
        AliasCmd::Add {
            path,
            forms,
            kind,
            namespace,
        } => {
            let s = open(&path)?;
            let forms: Vec<&str> = forms.iter().map(String::as_str).collect();
            let g = s.declare_alias(&namespace, kind, &forms)?;
            if json {
                print_json(&g)?;
            } else {
                outln!("alias group {}: {}", g.id, g.forms.join(" | "));
            }
        }
        AliasCmd::List { path, namespace } => {
            let s = open(&path)?;
            let groups = s.aliases(namespace.as_deref())?;
            if json {
                print_json(&groups)?;
            } else {
                for g in groups {
                    outln!(
                        "{} [{}] ns={}: {}",
                        g.id,
                        kind_name(g.kind),
                        g.namespace,
                        g.forms.join(" | ")
                    );
                }
            }
        }
        AliasCmd::Remove { path, id } => {
            open(&path)?.remove_alias(id)?;
            if json {
                print_json(&serde_json::json!({ "removed": id }))?;
            } else {
                outln!("removed alias group {id}");
            }
        }
    }
    Ok(())
}

/// `oubli plan`: what a call would act on and why.
pub(super) fn plan(
    path: PathBuf,
    op: Operation,
    target: &TargetArgs,
    new_text: Option<&str>,
    json: bool,
) -> Result<()> {
    let s = Store::open_with(
        &path,
        StoreOptions::default()
            .read_only(true)
            .min_confidence(target.min_confidence),
    )
    .map_err(|e| super::at_path(&path, e))?;
    let plan = s.plan_with(op, &target.target(), new_text)?;
    if json {
        print_json(&plan)?;
    } else {
        print_plan(&plan)?;
    }
    Ok(())
}

/// The lower-case name of an alias kind, as `--kind` takes it.
fn kind_name(k: AliasKind) -> &'static str {
    match k {
        AliasKind::Person => "person",
        AliasKind::Account => "account",
        AliasKind::Identifier => "identifier",
        AliasKind::Other => "other",
    }
}

/// Prints a dry run for people.
pub(super) fn print_plan(plan: &Plan) -> Result<()> {
    outln!("would change rows {}", ids(&plan.rows));
    for m in &plan.matches {
        let scope = if m.clauses.is_empty() {
            "whole row".to_owned()
        } else {
            format!(
                "clauses {}",
                m.clauses
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        outln!(
            "  target #{} ({scope}) confidence {}, coverage {:.2}; matched {}; missing {}",
            m.id,
            m.confidence,
            m.coverage,
            words(&m.matched),
            words(&m.missing)
        );
        for r in &m.reasons {
            outln!("    because {r}");
        }
    }
    for r in &plan.rejected {
        outln!("  not #{} (coverage {:.2}): {}", r.id, r.coverage, r.reason);
    }
    if let Some(p) = &plan.planner {
        outln!(
            "  planner: {}",
            serde_json::to_string(p).unwrap_or_else(|_| "(unprintable)".into())
        );
    }
    Ok(())
}

/// Parses an operation name.
pub(super) fn parse_op(s: &str) -> std::result::Result<Operation, String> {
    match s {
        "supersede" => Ok(Operation::Supersede),
        "release" => Ok(Operation::Release),
        "pin" => Ok(Operation::Pin),
        "resurface" => Ok(Operation::Resurface),
        "purge" => Ok(Operation::Purge),
        _ => Err(format!(
            "unknown operation {s:?} (supersede, release, pin, resurface, purge)"
        )),
    }
}
