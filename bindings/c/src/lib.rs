//! # oubli-c
//!
//! A C ABI for oubli. The header `include/oubli.h` is generated from this crate by cbindgen;
//! regenerate it with `OUBLI_BLESS_HEADER=1 cargo test -p oubli-c --test header` (the same
//! test fails when the checked-in header is out of date).
//!
//! Conventions:
//! - Every fallible function returns an [`OubliStatus`]; `OUBLI_STATUS_OK` is 0. On failure
//!   [`oubli_last_error`] returns a message for the calling thread, and out-parameters are left
//!   untouched.
//! - Handles ([`OubliStore`], [`OubliHits`], [`OubliRows`], [`OubliRow`], [`OubliPurgeReport`])
//!   are opaque; each has a `*_free` function that accepts NULL. Strings returned by accessors
//!   are NUL-terminated UTF-8 owned by their handle: valid until the handle is freed.
//!   Strings returned through `char **` out-parameters are freed with [`oubli_string_free`].
//! - Input strings are NUL-terminated UTF-8; anything else is `OUBLI_STATUS_INVALID_UTF8`.
//! - No panic crosses the boundary: each entry point catches unwinding and reports
//!   `OUBLI_STATUS_PANIC`.
//! - One `OubliStore` may be used from many threads at once (many readers, one writer);
//!   result handles are immutable and may be read from any thread.
//!
//! Layout: one module per concept. The order of the `mod` lines below is the order of the
//! declarations in `include/oubli.h` (cbindgen reads the modules in this order), so keep it.

// Status codes, `Failure` and the panic guard.
mod errors;
// C string, slice, pair and out-parameter plumbing.
mod convert;
// oubli_last_error, oubli_status_name, oubli_version, oubli_string_free.
mod library;
// The store handle: open, close, free, public key, head, verify_log.
mod handle;
// oubli_inscribe, oubli_inscribe_text.
mod inscribe;
// supersede, release, pin, resurface, purge, scrub.
mod forget;
// recall, list, get, get_by_key, history (and the OUBLI_RECALL_* / OUBLI_AS_OF_* constants).
mod recall;
// OubliTarget and the OUBLI_TARGET_* constants.
mod target;
// Row, hits and rows handles and their accessors.
mod rows;
// Purge reports and offline receipt verification.
mod receipts;

pub use convert::OubliPair;
pub use errors::OubliStatus;
pub use forget::*;
pub use handle::{
    OUBLI_OPEN_CREATE, OUBLI_OPEN_DEFER_SCRUB, OUBLI_OPEN_EXCLUSIVE, OUBLI_OPEN_READ_ONLY,
    OubliOpenOptions, OubliStore, oubli_store_close, oubli_store_free, oubli_store_head,
    oubli_store_open, oubli_store_public_key, oubli_store_verify_log,
};
pub use inscribe::{OubliInscription, oubli_inscribe, oubli_inscribe_text};
pub use library::*;
pub use recall::*;
pub use receipts::*;
pub use rows::*;
pub use target::*;
