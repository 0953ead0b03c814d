//! `oubli purge`, `oubli forget-user`, `oubli receipts`, `oubli receipt` and `oubli audit purge`: erasure and its proof.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::output::{ids, opt};
use super::{TargetArgs, alias, open, open_read_only, print_json, write_file};
use crate::{Error, Result};

/// `oubli purge`: erase (or, with `dry_run`, show) what a target names; write the receipt and
/// the opening.
pub(super) fn purge(
    path: &Path,
    target: &TargetArgs,
    dry_run: bool,
    receipt_out: Option<PathBuf>,
    opening_out: Option<PathBuf>,
    json: bool,
) -> Result<()> {
    let s = super::open_for(path, target)?;
    if dry_run {
        let plan = s.plan(crate::Operation::Purge, &target.target())?;
        if json {
            print_json(&plan)?;
        } else {
            alias::print_plan(&plan)?;
        }
        return Ok(());
    }
    deliver_purge(
        |deliver| s.purge_delivering(target.target(), deliver),
        receipt_out,
        opening_out,
        json,
    )
}

/// `oubli forget-user`: erase (or, with `dry_run`, list) every row of one user; write the
/// receipt and the opening.
pub(super) fn forget_user(
    path: &Path,
    user_id: &str,
    dry_run: bool,
    receipt_out: Option<PathBuf>,
    opening_out: Option<PathBuf>,
    json: bool,
) -> Result<()> {
    let s = open(path)?;
    if dry_run {
        let rows = s.plan_forget_user(user_id)?;
        if json {
            print_json(&serde_json::json!({ "rows": rows }))?;
        } else {
            outln!("would erase {} rows: {}", rows.len(), ids(&rows));
        }
        return Ok(());
    }
    deliver_purge(
        |deliver| s.forget_user_delivering(user_id, deliver),
        receipt_out,
        opening_out,
        json,
    )
}

/// Runs a purge whose opening goes to `opening_out` (refused before erasing if it cannot be
/// written there), writes the receipt to `receipt_out`, and reports.
fn deliver_purge(
    purge: impl FnOnce(
        &mut dyn FnMut(&crate::audit::Opening) -> Result<()>,
    ) -> Result<crate::PurgeReport>,
    receipt_out: Option<PathBuf>,
    opening_out: Option<PathBuf>,
    json: bool,
) -> Result<()> {
    // Refuse before erasing anything if a file asked for cannot be written there.
    for p in [&receipt_out, &opening_out].into_iter().flatten() {
        check_output_path(p)?;
    }
    let default_path = |id: u64, what: &str| PathBuf::from(format!("oubli-purge-{id}.{what}.json"));
    let mut opath = opening_out.clone();
    let r = purge(&mut |o| {
        let p = opath
            .get_or_insert_with(|| default_path(o.purge_id, "opening"))
            .clone();
        write_durably(&p, &o.to_document()?).map_err(|e| Error::NotDelivered {
            purge_id: o.purge_id,
            what: "opening",
            path: p,
            reason: e.to_string(),
        })
    })?;
    let opath = opath.unwrap_or_else(|| default_path(r.seq, "opening"));
    let rpath = receipt_out.unwrap_or_else(|| default_path(r.seq, "receipt"));
    write_durably(&rpath, &r.receipt.to_document()?).map_err(|e| Error::NotDelivered {
        purge_id: r.seq,
        what: "receipt",
        path: rpath.clone(),
        reason: e.to_string(),
    })?;
    if json {
        print_json(&serde_json::json!({
            "purge_id": r.seq, "erased": r.erased, "targeted": r.targeted,
            "cascade": r.cascade, "completion_seq": r.completion_seq,
            "residual_audit": r.audit.summary, "receipt": rpath, "opening": opath,
        }))?;
    } else {
        let a = &r.audit.summary;
        outln!(
            "purged {} rows: {} (targeted {}; {} by cascade); erasure complete at seq {}",
            r.erased.len(),
            ids(&r.erased),
            ids(&r.targeted),
            r.cascade.len(),
            opt(r.completion_seq)
        );
        outln!(
            "residual audit: {} probes, gold {}, reconstruction {}, object-only {}, control mismatches {} -> {}",
            a.probes,
            a.hits_gold,
            a.hits_reconstruction,
            a.hits_object_only,
            a.control_mismatches,
            if a.clean { "clean" } else { "NOT CLEAN" }
        );
        outln!(
            "receipt: {}\nopening (give to the data subject): {}",
            rpath.display(),
            opath.display()
        );
    }
    Ok(())
}

/// `oubli receipts`: list the receipts stored in the file.
pub(super) fn receipts(path: &Path, json: bool) -> Result<()> {
    let s = open_read_only(path)?;
    let list = s.receipts()?;
    if json {
        print_json(&list.iter().map(|(_, r)| r).collect::<Vec<_>>())?;
    } else {
        for (id, r) in list {
            outln!(
                "purge {id:<6} rows {:<4} complete at {:<8} audit {}",
                r.body.erased.len(),
                opt(r.body.erasure.completion_seq),
                if r.body.residual_audit.clean {
                    "clean"
                } else {
                    "NOT CLEAN"
                }
            );
        }
    }
    Ok(())
}

/// `oubli receipt`: write one receipt document to `out` or stdout; with `opening_out`, also
/// the purge's opening if the store still holds it (taken out of the store once written). The
/// document is JSON already, so `--json` changes only what is said after writing to `out`.
pub(super) fn receipt(
    path: &Path,
    id: u64,
    out: Option<PathBuf>,
    opening_out: Option<PathBuf>,
    json: bool,
) -> Result<()> {
    let s = match &opening_out {
        Some(_) => open(path)?,
        None => open_read_only(path)?,
    };
    let doc = s.receipt_document(id)?;
    if let Some(o) = &opening_out {
        s.take_opening(id, |opening| {
            write_durably(o, &opening.to_document()?).map_err(|e| Error::NotDelivered {
                purge_id: id,
                what: "opening",
                path: o.clone(),
                reason: e.to_string(),
            })
        })?;
    }
    match out {
        Some(o) => {
            write_file(&o, &doc)?;
            if json {
                print_json(&serde_json::json!({ "purge_id": id, "receipt": o }))?;
            } else {
                outln!("wrote the receipt of purge {id} to {}", o.display());
            }
        }
        None => std::io::stdout().write_all(&doc)?,
    }
    Ok(())
}

/// Refuses an output path whose directory does not exist or that names a directory.
fn check_output_path(p: &Path) -> Result<()> {
    let dir = p
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    if !dir.is_dir() {
        return Err(Error::InvalidArgument(format!(
            "cannot write {}: {} is not a directory",
            p.display(),
            dir.display()
        )));
    }
    if p.is_dir() {
        return Err(Error::InvalidArgument(format!(
            "cannot write {}: it is a directory",
            p.display()
        )));
    }
    Ok(())
}

/// Writes `bytes` to `p` and waits for the disk.
fn write_durably(p: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut f = std::fs::File::create(p)?;
    f.write_all(bytes)?;
    f.sync_all()
}

/// `oubli audit purge`: rerun the residual audit of a purge, probing with `content`.
pub(super) fn audit_purge(
    path: &Path,
    id: u64,
    content: Vec<String>,
    k: usize,
    json: bool,
) -> Result<()> {
    let s = open(path)?;
    let receipt = s
        .receipts()?
        .into_iter()
        .find(|(i, _)| *i == id)
        .ok_or_else(|| Error::InvalidArgument(format!("no receipt for purge {id}")))?
        .1;
    let audit = s.residual_audit(&crate::AuditRequest {
        texts: content,
        selector: String::new(),
        erased: receipt.body.erased.iter().map(|r| r.row).collect(),
        before_seq: Some(receipt.body.log.seq_before),
        k,
        control: None,
    })?;
    if json {
        print_json(&audit)?;
    } else {
        let a = &audit.summary;
        for f in &audit.findings {
            outln!(
                "  {} row #{} via {} for probe \"{}\"",
                serde_json::to_value(f.class)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_else(|| "finding".into()),
                f.row,
                f.channel,
                f.probe
            );
        }
        outln!(
            "{} probes x {} channels at k={}: gold {}, reconstruction {}, object-only {}, erased ids returned {}, control compared {} mismatches {} -> {}",
            a.probes,
            a.channels.len(),
            a.k,
            a.hits_gold,
            a.hits_reconstruction,
            a.hits_object_only,
            a.erased_returned,
            a.control_compared,
            a.control_mismatches,
            if a.clean { "clean" } else { "NOT CLEAN" }
        );
    }
    if audit.summary.clean {
        Ok(())
    } else {
        Err(Error::InvalidArgument(
            "the residual audit is not clean".into(),
        ))
    }
}
