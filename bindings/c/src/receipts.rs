//! Purge reports and receipts: the `OubliPurgeReport` handle with its signed receipt and
//! opening documents, and offline verification of receipts and openings (no store needed).

use std::ffi::{CString, c_char};

use oubli::audit::{Coverage, Opening, SignedReceipt};

use crate::convert::{bytes32, c_string, cstr, document, free_boxed, read, write_opt};
use crate::errors::{Failure, OubliStatus, guard, guard_value};
use crate::handle::{OubliStore, with_store_out};

/// What a purge did, with its signed receipt and opening documents (opaque).
pub struct OubliPurgeReport {
    report: oubli::PurgeReport,
    receipt: CString,
    receipt_len: usize,
    opening: CString,
    opening_len: usize,
}

/// A document as a C string (canonical JSON never holds a NUL byte).
fn document_cstring(doc: Vec<u8>, what: &str) -> Result<CString, Failure> {
    CString::new(doc).map_err(|_| Failure::invalid(format!("{what} document holds a NUL byte")))
}

impl OubliPurgeReport {
    /// Wraps an engine report with its documents ready for C.
    pub(crate) fn new(report: oubli::PurgeReport) -> Result<OubliPurgeReport, Failure> {
        let receipt = report.receipt.to_document()?;
        let opening = report.opening.to_document()?;
        Ok(OubliPurgeReport {
            receipt_len: receipt.len(),
            opening_len: opening.len(),
            receipt: document_cstring(receipt, "receipt")?,
            opening: document_cstring(opening, "opening")?,
            report,
        })
    }
}

/// The purge's id (its event's sequence number).
///
/// # Safety
/// `r` is NULL or a live report.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_purge_report_seq(r: *const OubliPurgeReport) -> u64 {
    // SAFETY: per this function's contract.
    unsafe { read(r, 0, |r| r.report.seq) }
}

/// Number of rows erased.
///
/// # Safety
/// `r` is NULL or a live report.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_purge_report_erased_len(r: *const OubliPurgeReport) -> usize {
    // SAFETY: per this function's contract.
    unsafe { read(r, 0, |r| r.report.erased.len()) }
}

/// Id of erased row `i` (in id order), or 0 when out of range.
///
/// # Safety
/// `r` is NULL or a live report.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_purge_report_erased(r: *const OubliPurgeReport, i: usize) -> u64 {
    // SAFETY: per this function's contract.
    unsafe { read(r, 0, |r| r.report.erased.get(i).copied().unwrap_or(0)) }
}

/// Whether the residual audit after the purge found nothing.
///
/// # Safety
/// `r` is NULL or a live report.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_purge_report_audit_clean(r: *const OubliPurgeReport) -> bool {
    // SAFETY: per this function's contract.
    unsafe { read(r, false, |r| r.report.audit.summary.clean) }
}

/// Shared body of the receipt and opening accessors: the document `pick` chooses, its length
/// written to `len` (may be NULL).
///
/// # Safety
/// `r` is NULL or a live report; `len` NULL or writable.
unsafe fn report_document(
    r: *const OubliPurgeReport,
    len: *mut usize,
    pick: fn(&OubliPurgeReport) -> (&CString, usize),
) -> *const c_char {
    guard_value(std::ptr::null(), || {
        // SAFETY: per the caller's contract.
        let Some(r) = (unsafe { r.as_ref() }) else {
            return std::ptr::null();
        };
        let (doc, doc_len) = pick(r);
        // SAFETY: NULL or writable per the caller's contract.
        unsafe { write_opt(len, doc_len) };
        doc.as_ptr()
    })
}

/// The signed receipt: a canonical JSON document, NUL-terminated, owned by the report.
/// `len` (may be NULL) receives its length in bytes without the NUL.
///
/// # Safety
/// `r` is NULL or a live report; `len` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_purge_report_receipt(
    r: *const OubliPurgeReport,
    len: *mut usize,
) -> *const c_char {
    // SAFETY: per this function's contract.
    unsafe { report_document(r, len, |r| (&r.receipt, r.receipt_len)) }
}

/// The opening for the data subject: a canonical JSON document, NUL-terminated, owned by the
/// report (the store keeps no copy). `len` (may be NULL) receives its length.
///
/// # Safety
/// `r` is NULL or a live report; `len` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_purge_report_opening(
    r: *const OubliPurgeReport,
    len: *mut usize,
) -> *const c_char {
    // SAFETY: per this function's contract.
    unsafe { report_document(r, len, |r| (&r.opening, r.opening_len)) }
}

/// Frees a purge report. NULL is ignored.
///
/// # Safety
/// `r` is NULL or a live report, not freed before.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_purge_report_free(r: *mut OubliPurgeReport) {
    // SAFETY: per this function's contract.
    unsafe { free_boxed(r) }
}

// ---------------------------------------------------------------------------------------
// Openings the caller never received

/// The purge ids whose opening is still held, sealed, in the store because the caller never
/// received it (the process died between the erasure and the delivery, or the delivery
/// failed), as a JSON array of integers. `*out_json` receives a string to free with
/// `oubli_string_free`.
///
/// # Safety
/// `store` is a live handle; `out_json` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_pending_openings_json(
    store: *const OubliStore,
    out_json: *mut *mut c_char,
) -> OubliStatus {
    // SAFETY: every pointer argument follows this function's contract.
    unsafe {
        with_store_out(store, out_json, "out_json", |s| {
            let json = serde_json::to_string(&s.pending_openings()?)
                .map_err(|e| Failure::new(OubliStatus::Storage, e.to_string()))?;
            Ok(c_string(&json).into_raw())
        })
    }
}

/// Returns the pending opening of purge `purge_id` **exactly once**: `*out_opening` receives
/// the opening document (canonical JSON, free it with `oubli_string_free`) and the store deletes
/// its sealed copy before this call returns (its bytes leave the file at the next scrub). A
/// second call for the same purge fails with `OUBLI_INVALID_ARGUMENT`, as does a purge whose
/// opening was delivered already.
///
/// Trade-off: from the moment this call returns, the caller holds the only copy. Write it
/// where the data subject gets it (durably) before anything else; if the process dies first,
/// the opening is lost and nobody can check the receipt's coverage. The store cannot know
/// whether the caller kept it. Needs a writable handle.
///
/// # Safety
/// `store` is a live handle; `out_opening` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_take_opening(
    store: *const OubliStore,
    purge_id: u64,
    out_opening: *mut *mut c_char,
) -> OubliStatus {
    // SAFETY: every pointer argument follows this function's contract.
    unsafe {
        with_store_out(store, out_opening, "out_opening", |s| {
            let mut doc = None;
            s.take_opening(purge_id, |o| {
                // Built before the store deletes its copy: a failure here keeps it pending.
                let c = CString::new(o.to_document()?).map_err(|_| {
                    oubli::Error::Corrupt("the opening document holds a NUL byte".into())
                })?;
                doc = Some(c);
                Ok(())
            })?;
            Ok(doc.expect("delivered above").into_raw())
        })
    }
}

// ---------------------------------------------------------------------------------------
// Offline verification

/// Verifies a receipt document (without a key check) and parses the opening given with it.
///
/// # Safety
/// `receipt` points to `receipt_len` bytes, `opening` to `opening_len` bytes.
unsafe fn receipt_and_opening(
    receipt: *const c_char,
    receipt_len: usize,
    opening: *const c_char,
    opening_len: usize,
) -> Result<(SignedReceipt, Opening), Failure> {
    // SAFETY: per the caller's contract.
    let r = SignedReceipt::verify_document(
        unsafe { document(receipt, receipt_len, "receipt") }?,
        None,
    )?;
    // SAFETY: per the caller's contract.
    let o = Opening::parse(unsafe { document(opening, opening_len, "opening") }?)?;
    Ok((r, o))
}

/// Verifies a receipt document (`len` bytes): canonical form and ed25519 signature, and, if
/// `public_key` (32 bytes) is not NULL, that it was issued by that key. Fails with
/// `OUBLI_STATUS_VERIFICATION` on any changed byte. `out_purge_id` may be NULL.
///
/// # Safety
/// `doc` points to `len` bytes; `public_key` NULL or 32 bytes; `out_purge_id` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_receipt_verify(
    doc: *const c_char,
    len: usize,
    public_key: *const u8,
    out_purge_id: *mut u64,
) -> OubliStatus {
    guard(|| {
        // SAFETY: per this function's contract.
        let bytes = unsafe { document(doc, len, "doc") }?;
        // SAFETY: per this function's contract.
        let key = unsafe { bytes32(public_key) };
        let r = SignedReceipt::verify_document(bytes, key.as_ref())?;
        // SAFETY: NULL or writable per this function's contract.
        unsafe { write_opt(out_purge_id, r.body.purge_id) };
        Ok(())
    })
}

/// Verifies a receipt (as `oubli_receipt_verify`, without a key check) and checks that the
/// opening opens it: same purge, committed digest, selector, same rows.
///
/// # Safety
/// `receipt` points to `receipt_len` bytes, `opening` to `opening_len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_receipt_check_opening(
    receipt: *const c_char,
    receipt_len: usize,
    opening: *const c_char,
    opening_len: usize,
) -> OubliStatus {
    guard(|| {
        // SAFETY: per this function's contract.
        let (r, o) = unsafe { receipt_and_opening(receipt, receipt_len, opening, opening_len) }?;
        r.check_opening(&o)?;
        Ok(())
    })
}

/// Checks that the receipt, with its opening, covers `content` (an erased row's full text, or
/// words all from one erased row). `out_row` (may be NULL) receives the covering row's id.
/// Fails with `OUBLI_STATUS_VERIFICATION` when it does not.
///
/// # Safety
/// As `oubli_receipt_check_opening`; `content` NUL-terminated; `out_row` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_receipt_covers(
    receipt: *const c_char,
    receipt_len: usize,
    opening: *const c_char,
    opening_len: usize,
    content: *const c_char,
    out_row: *mut u64,
) -> OubliStatus {
    guard(|| {
        // SAFETY: per this function's contract.
        let (r, o) = unsafe { receipt_and_opening(receipt, receipt_len, opening, opening_len) }?;
        // SAFETY: per this function's contract.
        let content = unsafe { cstr(content, "content") }?;
        let row = match r.covers(&o, content)? {
            Coverage::FullText(row) | Coverage::Fragments(row) => row,
        };
        // SAFETY: NULL or writable per this function's contract.
        unsafe { write_opt(out_row, row) };
        Ok(())
    })
}
