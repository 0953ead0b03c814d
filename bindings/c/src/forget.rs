//! Changing what the store remembers: supersede, the depth transitions (release, pin,
//! resurface), purge with its signed receipt, and scrub.

use std::ffi::c_char;

use oubli::{Store, Target};

use crate::convert::{boxed, cstr, handle, write_opt};
use crate::errors::OubliStatus;
use crate::handle::{OubliStore, with_store, with_store_out};
use crate::inscribe::{OubliInscription, read_inscription};
use crate::receipts::OubliPurgeReport;
use crate::target::{OubliTarget, read_target};

/// Replaces the row `target` names with `replacement`; the old row submerges (kept for
/// history). `*out_new_id` receives the new row's id.
///
/// # Safety
/// `store` is a live handle; `target` and `replacement` are valid; `out_new_id` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_supersede(
    store: *const OubliStore,
    target: *const OubliTarget,
    replacement: *const OubliInscription,
    out_new_id: *mut u64,
) -> OubliStatus {
    // SAFETY: every pointer argument, also those the closure reads, follows this
    // function's contract.
    unsafe {
        with_store_out(store, out_new_id, "out_new_id", |s| {
            let t = read_target(handle(target, "target")?)?;
            let ins = read_inscription(handle(replacement, "replacement")?)?;
            Ok(s.supersede(t, ins)?.new_id)
        })
    }
}

/// Shared body of release, pin and resurface.
///
/// # Safety
/// As the callers.
unsafe fn transition(
    store: *const OubliStore,
    target: *const OubliTarget,
    out_count: *mut usize,
    op: fn(&Store, Target) -> oubli::Result<Vec<u64>>,
) -> OubliStatus {
    // SAFETY: every pointer argument, also those the closure reads, follows the callers'
    // contract.
    unsafe {
        with_store(store, |s| {
            let t = read_target(handle(target, "target")?)?;
            let changed = op(s, t)?;
            write_opt(out_count, changed.len());
            Ok(())
        })
    }
}

/// Soft-forgets what `target` names (depth 0): recall stops returning it; history keeps it.
/// `out_count` (may be NULL) receives the number of rows released.
///
/// # Safety
/// `store` is a live handle; `target` is valid; `out_count` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_release(
    store: *const OubliStore,
    target: *const OubliTarget,
    out_count: *mut usize,
) -> OubliStatus {
    // SAFETY: forwarded contract.
    unsafe { transition(store, target, out_count, Store::release) }
}

/// Pins what `target` names (never decays). `out_count` may be NULL.
///
/// # Safety
/// As `oubli_release`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_pin(
    store: *const OubliStore,
    target: *const OubliTarget,
    out_count: *mut usize,
) -> OubliStatus {
    // SAFETY: forwarded contract.
    unsafe { transition(store, target, out_count, Store::pin) }
}

/// Brings submerged or sinking rows back to the surface. `out_count` may be NULL.
///
/// # Safety
/// As `oubli_release`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_resurface(
    store: *const OubliStore,
    target: *const OubliTarget,
    out_count: *mut usize,
) -> OubliStatus {
    // SAFETY: forwarded contract.
    unsafe { transition(store, target, out_count, Store::resurface) }
}

/// Erases what `target` names and its closure, scrubs the file (unless deferred), and issues
/// a signed receipt. `*out` receives a report to free with `oubli_purge_report_free`.
///
/// # Safety
/// `store` is a live handle; `target` is valid; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_purge(
    store: *const OubliStore,
    target: *const OubliTarget,
    out: *mut *mut OubliPurgeReport,
) -> OubliStatus {
    // SAFETY: every pointer argument, also those the closure reads, follows this
    // function's contract.
    unsafe {
        with_store_out(store, out, "out", |s| {
            let t = read_target(handle(target, "target")?)?;
            Ok(boxed(OubliPurgeReport::new(s.purge(t)?)?))
        })
    }
}

/// Erases everything of user `user_id` (UTF-8): every row of the namespaces `user:<user_id>`
/// and below, the aliases declared there, shared rows holding the user's identifiers, never
/// another user's rows; one purge, one signed receipt. `*out` receives a report to free with
/// `oubli_purge_report_free`. `OUBLI_NO_MATCH` if the user has no row.
///
/// # Safety
/// `store` is a live handle; `user_id` is a NUL-terminated string; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_forget_user(
    store: *const OubliStore,
    user_id: *const c_char,
    out: *mut *mut OubliPurgeReport,
) -> OubliStatus {
    // SAFETY: every pointer argument, also those the closure reads, follows this
    // function's contract.
    unsafe {
        with_store_out(store, out, "out", |s| {
            let user = cstr(user_id, "user_id")?;
            Ok(boxed(OubliPurgeReport::new(s.forget_user(user)?)?))
        })
    }
}

/// Rewrites indexes and file so nothing erased remains (needed with
/// `OUBLI_OPEN_DEFER_SCRUB`). `out_seq` (may be NULL) receives the scrub event's sequence.
///
/// # Safety
/// `store` is a live handle; `out_seq` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_scrub(store: *const OubliStore, out_seq: *mut u64) -> OubliStatus {
    // SAFETY: every pointer argument, also those the closure reads, follows this
    // function's contract.
    unsafe {
        with_store(store, |s| {
            let seq = s.scrub()?;
            write_opt(out_seq, seq);
            Ok(())
        })
    }
}
