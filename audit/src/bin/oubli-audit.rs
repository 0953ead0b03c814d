//! `oubli-audit`: verify oubli purge receipts, openings and logs offline.
//!
//! Exit codes: 0 verified, 2 usage error, 3 verification failed (tampered, malformed,
//! mismatched, not covered, residual audit not clean), 4 an input could not be read.

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use oubli_audit::store_check::check_store;
use oubli_audit::{AuditError, Coverage, Opening, SignedReceipt, hex};

#[derive(Parser)]
#[command(
    name = "oubli-audit",
    version,
    about = "Verify oubli purge receipts and logs offline."
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Verify a receipt: signature and canonical form; with --opening and --content, that the
    /// content is covered; with --store, that the store's log holds the purge and verifies end
    /// to end and that no erased payload, vector or content byte is left in the file.
    Verify {
        /// The receipt file.
        receipt: PathBuf,
        /// The store's public key (hex); without it, the receipt's own key is used.
        #[arg(long)]
        pubkey: Option<String>,
        /// The data subject's opening.
        #[arg(long)]
        opening: Option<PathBuf>,
        /// Content to check coverage of (repeatable); needs --opening.
        #[arg(long, requires = "opening")]
        content: Vec<String>,
        /// The store file.
        #[arg(long)]
        store: Option<PathBuf>,
    },
}

fn main() {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            std::process::exit(if e.use_stderr() { 2 } else { 0 });
        }
    };
    match run(cli) {
        Ok(()) => {}
        Err(e) => {
            eprintln!("oubli-audit: FAILED: {e}");
            std::process::exit(e.exit_code());
        }
    }
}

fn run(cli: Cli) -> Result<(), AuditError> {
    let Cmd::Verify {
        receipt,
        pubkey,
        opening,
        content,
        store,
    } = cli.cmd;
    let bytes = std::fs::read(&receipt)?;
    let pk = pubkey.as_deref().map(hex::decode::<32>).transpose()?;
    let r = SignedReceipt::verify_document(&bytes, pk.as_ref())?;
    println!(
        "receipt: signature ok, canonical; purge {} by key {}; {} rows erased, erasure complete at seq {}",
        r.body.purge_id,
        hex::encode(&r.body.store_public_key),
        r.body.erased.len(),
        r.body
            .erasure
            .completion_seq
            .map_or("(deferred)".to_string(), |s| s.to_string())
    );
    let a = &r.body.residual_audit;
    println!(
        "residual audit: {} probes x {} channels at k={}: gold {}, reconstruction {}, object-only {}, erased ids returned {}, control mismatches {}{}",
        a.probes,
        a.channels.len(),
        a.k,
        a.hits_gold,
        a.hits_reconstruction,
        a.hits_object_only,
        a.erased_returned,
        a.control_mismatches,
        if a.clean { " (clean)" } else { " (NOT clean)" }
    );
    if let Some(o) = opening {
        let o = Opening::parse(&std::fs::read(o)?)?;
        r.check_opening(&o)?;
        println!("opening: ok, opens the selector and {} rows", o.rows.len());
        for c in &content {
            match r.covers(&o, c)? {
                Coverage::FullText(row) => {
                    println!("content {c:?}: covered (full text of row {row})")
                }
                Coverage::Fragments(row) => {
                    println!("content {c:?}: covered (every word, row {row})")
                }
            }
        }
    }
    if let Some(s) = store {
        let rep = check_store(&s, &r, &bytes, &content)?;
        println!(
            "store: log verified ({} events, {} checkpoints), purge event and completion point match, no erased payload or vector{}{}",
            rep.chain.events,
            rep.chain.checkpoints,
            if rep.scanned > 0 {
                ", content absent from the file's bytes"
            } else {
                ""
            },
            if rep.receipt_stored {
                ", receipt stored in the file"
            } else {
                ""
            }
        );
    }
    if !a.clean {
        return Err(AuditError::Mismatch(
            "the receipt's residual audit is not clean".into(),
        ));
    }
    println!("verified");
    Ok(())
}
