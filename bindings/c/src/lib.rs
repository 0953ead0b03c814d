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

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::ffi::{CStr, CString, c_char};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use oubli::audit::{AuditError, Coverage, Opening, SignedReceipt};
use oubli::{
    AsOf, Error, HashEmbedder, Inscription, Kind, Legs, ListQuery, RecallQuery, Row, Store,
    StoreOptions, Target,
};

/// What a call did: `OUBLI_STATUS_OK` (0) or why it failed.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OubliStatus {
    /// Success.
    Ok = 0,
    /// A required pointer argument was NULL.
    NullPointer = 1,
    /// A string argument is not valid UTF-8.
    InvalidUtf8 = 2,
    /// Bad input: empty or oversized text, malformed field, bad vector, bad argument.
    InvalidArgument = 3,
    /// No row with this id, no live row with this key, or no store at the path.
    NotFound = 4,
    /// A query target matched no row.
    NoMatch = 5,
    /// Duplicate key, transition not allowed, or a file already exists.
    Conflict = 6,
    /// The row was purged.
    Purged = 7,
    /// The store was closed.
    Closed = 8,
    /// The store was opened read-only.
    ReadOnly = 9,
    /// Another handle or process holds the store for writing.
    Locked = 10,
    /// Corrupt file, tampered log, or key / embedder / version mismatch.
    Integrity = 11,
    /// A receipt or opening fails verification.
    Verification = 12,
    /// The storage engine or an index failed.
    Storage = 13,
    /// The embedder failed.
    Embedder = 14,
    /// An operating-system I/O error.
    Io = 15,
    /// An internal panic was caught at the boundary (a bug: please report it).
    Panic = 16,
}

/// `oubli_store_open` flag: create the store if the file does not exist.
pub const OUBLI_OPEN_CREATE: u32 = 1;
/// `oubli_store_open` flag: fail with `OUBLI_STATUS_CONFLICT` if the file exists.
pub const OUBLI_OPEN_EXCLUSIVE: u32 = 2;
/// `oubli_store_open` flag: open read-only (mutating calls fail with `OUBLI_STATUS_READ_ONLY`).
pub const OUBLI_OPEN_READ_ONLY: u32 = 4;
/// `oubli_store_open` flag: do not scrub the file on every purge (call `oubli_scrub`).
pub const OUBLI_OPEN_DEFER_SCRUB: u32 = 8;

/// Recall flag: also return submerged rows.
pub const OUBLI_RECALL_INCLUDE_SUBMERGED: u32 = 1;
/// Recall / list flag: also return rows whose validity has ended.
pub const OUBLI_RECALL_INCLUDE_EXPIRED: u32 = 2;
/// Recall flag: BM25 leg only.
pub const OUBLI_RECALL_LEXICAL: u32 = 4;
/// Recall flag: vector leg only.
pub const OUBLI_RECALL_VECTOR: u32 = 8;

/// `as_of_kind`: now.
pub const OUBLI_AS_OF_NOW: u32 = 0;
/// `as_of_kind`: just after the event with sequence number `as_of`.
pub const OUBLI_AS_OF_SEQ: u32 = 1;
/// `as_of_kind`: just after the last event at or before time `as_of` (ms since the epoch).
pub const OUBLI_AS_OF_TIME: u32 = 2;

/// `OubliTarget.kind`: one row by `id`.
pub const OUBLI_TARGET_ID: u32 = 1;
/// `OubliTarget.kind`: the live row holding `key` in namespace `ns` (NULL: "default").
pub const OUBLI_TARGET_KEY: u32 = 2;
/// `OubliTarget.kind`: the rows `query` describes (within namespace `ns` unless NULL).
pub const OUBLI_TARGET_QUERY: u32 = 3;

/// Options for `oubli_store_open`. A zeroed struct (or NULL) means: open an existing store
/// with the built-in 384-dimension hash embedder.
#[repr(C)]
pub struct OubliOpenOptions {
    /// `OUBLI_OPEN_*` flags.
    pub flags: u32,
    /// Dimension of the built-in hash embedder (0: 384).
    pub hash_dim: u32,
    /// 32 bytes: deterministic salt seed (tests and reproducible runs only), or NULL.
    pub seed: *const u8,
    /// 32 bytes: the ed25519 signing key, or NULL to keep a generated key in the file.
    pub signing_key: *const u8,
}

/// A metadata entry or filter: two NUL-terminated UTF-8 strings.
#[repr(C)]
pub struct OubliPair {
    /// Key.
    pub key: *const c_char,
    /// Value.
    pub value: *const c_char,
}

/// One row to inscribe. Only `text` is required; NULL pointers and zero lengths mean unset.
#[repr(C)]
pub struct OubliInscription {
    /// The text (required).
    pub text: *const c_char,
    /// Namespace (NULL: "default", or the old row's for a supersede).
    pub ns: *const c_char,
    /// Natural key, unique among the namespace's live rows.
    pub key: *const c_char,
    /// "source" (default), "derived" or "note".
    pub kind: *const c_char,
    /// Metadata entries.
    pub metadata: *const OubliPair,
    /// Number of metadata entries.
    pub metadata_len: usize,
    /// Your own vector (otherwise the store's embedder embeds the text).
    pub vector: *const f32,
    /// Length of `vector`.
    pub vector_len: usize,
    /// Expiry time (ms since the Unix epoch), or NULL.
    pub valid_until: *const i64,
    /// Source rows this row was derived from.
    pub derived_from: *const u64,
    /// Number of `derived_from` ids.
    pub derived_from_len: usize,
}

/// A recall request. Only `text` is required.
#[repr(C)]
pub struct OubliRecallQuery {
    /// The query text.
    pub text: *const c_char,
    /// Rows to return (0: 10).
    pub k: usize,
    /// Only rows of this namespace (NULL: all).
    pub ns: *const c_char,
    /// Only rows whose metadata has every one of these entries.
    pub filters: *const OubliPair,
    /// Number of filters.
    pub filters_len: usize,
    /// `OUBLI_RECALL_*` flags.
    pub flags: u32,
    /// Your own query vector, or NULL.
    pub vector: *const f32,
    /// Length of `vector`.
    pub vector_len: usize,
    /// `OUBLI_AS_OF_*`.
    pub as_of_kind: u32,
    /// Sequence number or time, per `as_of_kind`.
    pub as_of: i64,
}

/// A list request (NULL means every live row).
#[repr(C)]
pub struct OubliListQuery {
    /// Only rows of this namespace (NULL: all).
    pub ns: *const c_char,
    /// Only rows whose metadata has every one of these entries.
    pub filters: *const OubliPair,
    /// Number of filters.
    pub filters_len: usize,
    /// `OUBLI_RECALL_INCLUDE_SUBMERGED` and `OUBLI_RECALL_INCLUDE_EXPIRED`.
    pub flags: u32,
    /// Start after this row id (0: from the first).
    pub after: u64,
    /// At most this many rows (0: all).
    pub limit: usize,
    /// `OUBLI_AS_OF_*`.
    pub as_of_kind: u32,
    /// Sequence number or time, per `as_of_kind`.
    pub as_of: i64,
}

/// What a mutating call acts on. Build it with designated initializers:
/// `OubliTarget t = { .kind = OUBLI_TARGET_QUERY, .query = "Ana's door code" };`
#[repr(C)]
pub struct OubliTarget {
    /// `OUBLI_TARGET_ID`, `OUBLI_TARGET_KEY` or `OUBLI_TARGET_QUERY`.
    pub kind: u32,
    /// Row id, for `OUBLI_TARGET_ID`.
    pub id: u64,
    /// Namespace of the key, or the namespace a query is restricted to (NULL: none/default).
    pub ns: *const c_char,
    /// The key, for `OUBLI_TARGET_KEY`.
    pub key: *const c_char,
    /// The description, for `OUBLI_TARGET_QUERY`.
    pub query: *const c_char,
}

/// An open store (opaque).
pub struct OubliStore {
    store: Arc<Store>,
}

/// One row (opaque), with its strings ready for C.
pub struct OubliRow {
    row: Row,
    text: Option<CString>,
    namespace: CString,
    key: Option<CString>,
    metadata: Vec<(CString, CString)>,
}

/// The rows a recall returned, best first, with their scores (opaque).
pub struct OubliHits {
    rows: Vec<OubliRow>,
    scores: Vec<f64>,
}

/// The rows a list returned, in id order (opaque).
pub struct OubliRows {
    rows: Vec<OubliRow>,
}

/// What a purge did, with its signed receipt and opening documents (opaque).
pub struct OubliPurgeReport {
    report: oubli::PurgeReport,
    receipt: CString,
    receipt_len: usize,
    opening: CString,
    opening_len: usize,
}

// ---------------------------------------------------------------------------------------
// Errors and the panic guard

thread_local! {
    static LAST_ERROR: RefCell<Option<CString>> = const { RefCell::new(None) };
}

/// A failed call: its status and message.
#[derive(Debug)]
struct Failure {
    status: OubliStatus,
    message: String,
}

impl Failure {
    fn new(status: OubliStatus, message: impl Into<String>) -> Failure {
        Failure {
            status,
            message: message.into(),
        }
    }
    fn null(what: &str) -> Failure {
        Failure::new(OubliStatus::NullPointer, format!("{what} is NULL"))
    }
    fn invalid(message: impl Into<String>) -> Failure {
        Failure::new(OubliStatus::InvalidArgument, message)
    }
}

impl From<Error> for Failure {
    fn from(e: Error) -> Failure {
        let status = match &e {
            Error::EmptyText
            | Error::TextTooLarge { .. }
            | Error::InvalidField { .. }
            | Error::DimensionMismatch { .. }
            | Error::InvalidVector(_)
            | Error::InvalidArgument(_) => OubliStatus::InvalidArgument,
            Error::UnknownRow(_) | Error::UnknownKey { .. } | Error::NotFound(_) => {
                OubliStatus::NotFound
            }
            Error::NoMatch(_) => OubliStatus::NoMatch,
            Error::Purged(_) => OubliStatus::Purged,
            Error::InvalidTransition { .. }
            | Error::DuplicateKey { .. }
            | Error::AlreadyExists(_) => OubliStatus::Conflict,
            Error::ReadOnly => OubliStatus::ReadOnly,
            Error::Closed => OubliStatus::Closed,
            Error::Locked(_) => OubliStatus::Locked,
            Error::Corrupt(_)
            | Error::UnsupportedVersion { .. }
            | Error::EmbedderMismatch { .. }
            | Error::KeyMismatch
            | Error::LogTampered { .. } => OubliStatus::Integrity,
            Error::Storage(_) | Error::TextIndex(_) | Error::VectorIndex(_) => OubliStatus::Storage,
            Error::Embedder(_) => OubliStatus::Embedder,
            Error::Io(_) => OubliStatus::Io,
            _ => OubliStatus::Storage,
        };
        Failure::new(status, e.to_string())
    }
}

impl From<AuditError> for Failure {
    fn from(e: AuditError) -> Failure {
        Failure::new(OubliStatus::Verification, e.to_string())
    }
}

/// A C string from a Rust string: interior NULs (never in text, keys or namespaces, which the
/// engine rejects) become U+FFFD so the string stays whole.
fn c_string(s: &str) -> CString {
    CString::new(s.replace('\0', "\u{FFFD}")).expect("no interior NUL")
}

fn set_error(message: &str) {
    LAST_ERROR.with(|e| *e.borrow_mut() = Some(c_string(message)));
}

fn clear_error() {
    LAST_ERROR.with(|e| *e.borrow_mut() = None);
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_owned()
    }
}

/// Runs one entry point: catches panics, records the error message, returns the status.
fn guard(f: impl FnOnce() -> Result<(), Failure>) -> OubliStatus {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => {
            clear_error();
            OubliStatus::Ok
        }
        Ok(Err(fail)) => {
            set_error(&fail.message);
            fail.status
        }
        Err(payload) => {
            set_error(&format!(
                "internal error (caught panic): {}",
                panic_message(payload.as_ref())
            ));
            OubliStatus::Panic
        }
    }
}

/// Runs an infallible accessor: a panic yields `default`.
fn guard_value<T>(default: T, f: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or(default)
}

// ---------------------------------------------------------------------------------------
// Argument helpers (each dereferences caller pointers: see the safety notes of the callers)

/// Reads a required NUL-terminated UTF-8 string.
///
/// # Safety
/// `p` is NULL or points to a NUL-terminated string that outlives `'a`.
unsafe fn cstr<'a>(p: *const c_char, what: &str) -> Result<&'a str, Failure> {
    if p.is_null() {
        return Err(Failure::null(what));
    }
    // SAFETY: non-null and NUL-terminated per the caller's contract.
    let s = unsafe { CStr::from_ptr(p) };
    s.to_str().map_err(|e| {
        Failure::new(
            OubliStatus::InvalidUtf8,
            format!("{what} is not valid UTF-8: {e}"),
        )
    })
}

/// Reads an optional string (NULL means absent).
///
/// # Safety
/// As [`cstr`].
unsafe fn opt_cstr<'a>(p: *const c_char, what: &str) -> Result<Option<&'a str>, Failure> {
    if p.is_null() {
        Ok(None)
    } else {
        // SAFETY: forwarded contract.
        unsafe { cstr(p, what) }.map(Some)
    }
}

/// Reads `len` items at `p` (NULL is allowed when `len` is 0).
///
/// # Safety
/// `p` points to `len` initialized items that outlive `'a`.
unsafe fn slice<'a, T>(p: *const T, len: usize, what: &str) -> Result<&'a [T], Failure> {
    if len == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(Failure::null(what));
    }
    // SAFETY: non-null, `len` items per the caller's contract.
    Ok(unsafe { std::slice::from_raw_parts(p, len) })
}

/// Reads pairs into a map.
///
/// # Safety
/// `p` points to `len` pairs of valid strings.
unsafe fn pairs(
    p: *const OubliPair,
    len: usize,
    what: &str,
) -> Result<BTreeMap<String, String>, Failure> {
    let mut out = BTreeMap::new();
    // SAFETY: forwarded contract.
    for pair in unsafe { slice(p, len, what) }? {
        // SAFETY: forwarded contract.
        let k = unsafe { cstr(pair.key, what) }?;
        // SAFETY: forwarded contract.
        let v = unsafe { cstr(pair.value, what) }?;
        out.insert(k.to_owned(), v.to_owned());
    }
    Ok(out)
}

/// Reads 32 bytes, if `p` is not NULL.
///
/// # Safety
/// `p` is NULL or points to 32 readable bytes.
unsafe fn bytes32(p: *const u8) -> Option<[u8; 32]> {
    if p.is_null() {
        return None;
    }
    let mut out = [0u8; 32];
    // SAFETY: 32 readable bytes per the caller's contract.
    out.copy_from_slice(unsafe { std::slice::from_raw_parts(p, 32) });
    Some(out)
}

/// Borrows a handle.
///
/// # Safety
/// `p` is NULL or a live handle created by this library.
unsafe fn handle<'a, T>(p: *const T, what: &str) -> Result<&'a T, Failure> {
    // SAFETY: per the caller's contract.
    unsafe { p.as_ref() }.ok_or_else(|| Failure::null(what))
}

/// Checks an out-parameter before any work is done.
fn out_ptr<T>(p: *mut T, what: &str) -> Result<(), Failure> {
    if p.is_null() {
        Err(Failure::null(what))
    } else {
        Ok(())
    }
}

/// Writes an out-parameter checked by [`out_ptr`].
///
/// # Safety
/// `p` is non-null and writable.
unsafe fn write<T>(p: *mut T, v: T) {
    // SAFETY: per the caller's contract.
    unsafe { p.write(v) };
}

/// Builds an inscription.
///
/// # Safety
/// Every pointer in `ins` follows the struct's documented contract.
unsafe fn inscription(ins: &OubliInscription) -> Result<Inscription, Failure> {
    // SAFETY (all blocks below): the fields follow the documented contract.
    let mut out = Inscription::new(unsafe { cstr(ins.text, "text") }?);
    out.namespace = unsafe { opt_cstr(ins.ns, "ns") }?.map(str::to_owned);
    out.key = unsafe { opt_cstr(ins.key, "key") }?.map(str::to_owned);
    if let Some(k) = unsafe { opt_cstr(ins.kind, "kind") }? {
        out.kind = Kind::parse(k)?;
    }
    out.metadata = unsafe { pairs(ins.metadata, ins.metadata_len, "metadata") }?;
    if !ins.vector.is_null() || ins.vector_len > 0 {
        out.vector = Some(unsafe { slice(ins.vector, ins.vector_len, "vector") }?.to_vec());
    }
    if !ins.valid_until.is_null() {
        out.valid_until = Some(unsafe { *ins.valid_until });
    }
    out.derived_from =
        unsafe { slice(ins.derived_from, ins.derived_from_len, "derived_from") }?.to_vec();
    Ok(out)
}

/// Builds a target.
///
/// # Safety
/// The strings in `t` follow the struct's documented contract.
unsafe fn target(t: &OubliTarget) -> Result<Target, Failure> {
    // SAFETY (all blocks below): the fields follow the documented contract.
    let ns = unsafe { opt_cstr(t.ns, "ns") }?;
    match t.kind {
        OUBLI_TARGET_ID => Ok(Target::id(t.id)),
        OUBLI_TARGET_KEY => Ok(Target::key(
            ns.unwrap_or(oubli::DEFAULT_NAMESPACE),
            unsafe { cstr(t.key, "key") }?,
        )),
        OUBLI_TARGET_QUERY => {
            let q = unsafe { cstr(t.query, "query") }?;
            Ok(match ns {
                Some(ns) => Target::query_in(ns, q),
                None => Target::query(q),
            })
        }
        k => Err(Failure::invalid(format!(
            "target kind {k} is not OUBLI_TARGET_ID, OUBLI_TARGET_KEY or OUBLI_TARGET_QUERY"
        ))),
    }
}

fn as_of(kind: u32, at: i64) -> Result<Option<AsOf>, Failure> {
    match kind {
        OUBLI_AS_OF_NOW => Ok(None),
        OUBLI_AS_OF_SEQ => u64::try_from(at)
            .map(|s| Some(AsOf::Seq(s)))
            .map_err(|_| Failure::invalid("as_of sequence number is negative")),
        OUBLI_AS_OF_TIME => Ok(Some(AsOf::Time(at))),
        k => Err(Failure::invalid(format!("as_of_kind {k} is unknown"))),
    }
}

impl From<Row> for OubliRow {
    fn from(row: Row) -> OubliRow {
        OubliRow {
            text: row.text.as_deref().map(c_string),
            namespace: c_string(&row.namespace),
            key: row.key.as_deref().map(c_string),
            metadata: row
                .metadata
                .iter()
                .map(|(k, v)| (c_string(k), c_string(v)))
                .collect(),
            row,
        }
    }
}

fn opt_ptr(s: &Option<CString>) -> *const c_char {
    s.as_ref().map_or(std::ptr::null(), |s| s.as_ptr())
}

// ---------------------------------------------------------------------------------------
// Library

/// The message of the last failed call on this thread, or NULL if the last call succeeded.
/// Valid until the next call into the library on this thread.
#[unsafe(no_mangle)]
pub extern "C" fn oubli_last_error() -> *const c_char {
    guard_value(std::ptr::null(), || {
        LAST_ERROR.with(|e| e.borrow().as_ref().map_or(std::ptr::null(), |s| s.as_ptr()))
    })
}

/// A static name for a status code ("ok", "null_pointer", ...; "unknown" for other values).
/// Takes an `int` so that any value a caller passes is defined behaviour.
#[unsafe(no_mangle)]
pub extern "C" fn oubli_status_name(status: i32) -> *const c_char {
    const NAMES: [&CStr; 17] = [
        c"ok",
        c"null_pointer",
        c"invalid_utf8",
        c"invalid_argument",
        c"not_found",
        c"no_match",
        c"conflict",
        c"purged",
        c"closed",
        c"read_only",
        c"locked",
        c"integrity",
        c"verification",
        c"storage",
        c"embedder",
        c"io",
        c"panic",
    ];
    usize::try_from(status)
        .ok()
        .and_then(|i| NAMES.get(i))
        .map_or(c"unknown".as_ptr(), |n| n.as_ptr())
}

/// The engine version, a static string.
#[unsafe(no_mangle)]
pub extern "C" fn oubli_version() -> *const c_char {
    static VERSION: &CStr =
        match CStr::from_bytes_with_nul(concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes()) {
            Ok(v) => v,
            Err(_) => c"unknown",
        };
    VERSION.as_ptr()
}

/// Frees a string returned through a `char **` out-parameter. NULL is ignored.
///
/// # Safety
/// `s` is NULL or a string from this library, not freed before.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_string_free(s: *mut c_char) {
    if !s.is_null() {
        // SAFETY: created by CString::into_raw in this library.
        drop(unsafe { CString::from_raw(s) });
    }
}

// ---------------------------------------------------------------------------------------
// Store

/// Opens (or with `OUBLI_OPEN_CREATE` creates) the store at `path`. `options` may be NULL.
/// On success `*out` holds a handle to free with `oubli_store_free`.
///
/// # Safety
/// `path` is a NUL-terminated string; `options` is NULL or valid (its `seed` and
/// `signing_key` NULL or 32 bytes); `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_store_open(
    path: *const c_char,
    options: *const OubliOpenOptions,
    out: *mut *mut OubliStore,
) -> OubliStatus {
    guard(|| {
        out_ptr(out, "out")?;
        // SAFETY: per this function's contract.
        let path = unsafe { cstr(path, "path") }?;
        // SAFETY: per this function's contract.
        let o = unsafe { options.as_ref() };
        let flags = o.map_or(0, |o| o.flags);
        let dim = o.map_or(0, |o| o.hash_dim);
        let embedder = if dim == 0 {
            HashEmbedder::default()
        } else {
            HashEmbedder::new(dim as usize)?
        };
        let mut opts = StoreOptions::default()
            .embedder(Arc::new(embedder))
            .read_only(flags & OUBLI_OPEN_READ_ONLY != 0)
            .scrub_on_purge(flags & OUBLI_OPEN_DEFER_SCRUB == 0);
        if let Some(o) = o {
            // SAFETY: NULL or 32 bytes per this function's contract.
            if let Some(seed) = unsafe { bytes32(o.seed) } {
                opts = opts.deterministic_seed(seed);
            }
            // SAFETY: as above.
            if let Some(key) = unsafe { bytes32(o.signing_key) } {
                opts = opts.signing_key(key);
            }
        }
        let store = if flags & OUBLI_OPEN_EXCLUSIVE != 0 {
            Store::create_with(path, opts)?
        } else if flags & OUBLI_OPEN_CREATE != 0 {
            Store::open_or_create(path, opts)?
        } else {
            Store::open_with(path, opts)?
        };
        let h = Box::into_raw(Box::new(OubliStore {
            store: Arc::new(store),
        }));
        // SAFETY: checked writable above.
        unsafe { write(out, h) };
        Ok(())
    })
}

/// Closes the store: later calls on the handle fail with `OUBLI_STATUS_CLOSED`. The handle
/// must still be freed with `oubli_store_free`.
///
/// # Safety
/// `store` is NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_store_close(store: *const OubliStore) -> OubliStatus {
    guard(|| {
        // SAFETY: per this function's contract.
        let s = unsafe { handle(store, "store") }?;
        Ok(s.store.close()?)
    })
}

/// Closes and frees a store handle. NULL is ignored. No other thread may be using it.
///
/// # Safety
/// `store` is NULL or a live handle, not freed before.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_store_free(store: *mut OubliStore) {
    if store.is_null() {
        return;
    }
    guard_value((), || {
        // SAFETY: created by Box::into_raw in oubli_store_open.
        let s = unsafe { Box::from_raw(store) };
        let _ = s.store.close();
    });
}

/// Writes the store's 32-byte ed25519 public key to `out`.
///
/// # Safety
/// `store` is a live handle; `out` has room for 32 bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_store_public_key(
    store: *const OubliStore,
    out: *mut u8,
) -> OubliStatus {
    guard(|| {
        out_ptr(out, "out")?;
        // SAFETY: per this function's contract.
        let s = unsafe { handle(store, "store") }?;
        let k = s.store.public_key()?;
        // SAFETY: 32 writable bytes per this function's contract.
        unsafe { std::ptr::copy_nonoverlapping(k.as_ptr(), out, 32) };
        Ok(())
    })
}

/// Writes the sequence number of the log's head to `out_seq`.
///
/// # Safety
/// `store` is a live handle; `out_seq` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_store_head(
    store: *const OubliStore,
    out_seq: *mut u64,
) -> OubliStatus {
    guard(|| {
        out_ptr(out_seq, "out_seq")?;
        // SAFETY: per this function's contract.
        let s = unsafe { handle(store, "store") }?;
        let (seq, _) = s.store.head()?;
        // SAFETY: checked above.
        unsafe { write(out_seq, seq) };
        Ok(())
    })
}

/// Verifies the whole log (hash chain, signed checkpoints, head) under `public_key` (32
/// bytes; NULL: the store's own). Fails with `OUBLI_STATUS_INTEGRITY` on any changed byte.
/// `out_events` (may be NULL) receives the number of events verified.
///
/// # Safety
/// `store` is a live handle; `public_key` NULL or 32 bytes; `out_events` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_store_verify_log(
    store: *const OubliStore,
    public_key: *const u8,
    out_events: *mut u64,
) -> OubliStatus {
    guard(|| {
        // SAFETY: per this function's contract.
        let s = unsafe { handle(store, "store") }?;
        // SAFETY: per this function's contract.
        let key = unsafe { bytes32(public_key) };
        let r = s.store.verify_log(key)?;
        if !out_events.is_null() {
            // SAFETY: non-null and writable per this function's contract.
            unsafe { write(out_events, r.events) };
        }
        Ok(())
    })
}

// ---------------------------------------------------------------------------------------
// Writing

/// Inscribes one row; `*out_id` receives its id.
///
/// # Safety
/// `store` is a live handle; `ins` points to a valid inscription; `out_id` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_inscribe(
    store: *const OubliStore,
    ins: *const OubliInscription,
    out_id: *mut u64,
) -> OubliStatus {
    guard(|| {
        out_ptr(out_id, "out_id")?;
        // SAFETY: per this function's contract.
        let s = unsafe { handle(store, "store") }?;
        // SAFETY: per this function's contract.
        let ins = unsafe { inscription(handle(ins, "ins")?) }?;
        let id = s.store.inscribe(ins)?;
        // SAFETY: checked above.
        unsafe { write(out_id, id) };
        Ok(())
    })
}

/// Inscribes `text` in namespace `ns` (NULL: "default") under `key` (may be NULL).
///
/// # Safety
/// `store` is a live handle; the strings are NULL or NUL-terminated; `out_id` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_inscribe_text(
    store: *const OubliStore,
    text: *const c_char,
    ns: *const c_char,
    key: *const c_char,
    out_id: *mut u64,
) -> OubliStatus {
    let ins = OubliInscription {
        text,
        ns,
        key,
        kind: std::ptr::null(),
        metadata: std::ptr::null(),
        metadata_len: 0,
        vector: std::ptr::null(),
        vector_len: 0,
        valid_until: std::ptr::null(),
        derived_from: std::ptr::null(),
        derived_from_len: 0,
    };
    // SAFETY: forwarded contract.
    unsafe { oubli_inscribe(store, &ins, out_id) }
}

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
    guard(|| {
        out_ptr(out_new_id, "out_new_id")?;
        // SAFETY: per this function's contract.
        let s = unsafe { handle(store, "store") }?;
        // SAFETY: per this function's contract.
        let t = unsafe { self::target(handle(target, "target")?) }?;
        // SAFETY: per this function's contract.
        let ins = unsafe { inscription(handle(replacement, "replacement")?) }?;
        let r = s.store.supersede(t, ins)?;
        // SAFETY: checked above.
        unsafe { write(out_new_id, r.new_id) };
        Ok(())
    })
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
    guard(|| {
        // SAFETY: per the callers' contract.
        let s = unsafe { handle(store, "store") }?;
        // SAFETY: per the callers' contract.
        let t = unsafe { self::target(handle(target, "target")?) }?;
        let changed = op(&s.store, t)?;
        if !out_count.is_null() {
            // SAFETY: non-null and writable per the callers' contract.
            unsafe { write(out_count, changed.len()) };
        }
        Ok(())
    })
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
    guard(|| {
        out_ptr(out, "out")?;
        // SAFETY: per this function's contract.
        let s = unsafe { handle(store, "store") }?;
        // SAFETY: per this function's contract.
        let t = unsafe { self::target(handle(target, "target")?) }?;
        let report = s.store.purge(t)?;
        let receipt = report.receipt.to_document()?;
        let opening = report.opening.to_document()?;
        let r = OubliPurgeReport {
            receipt_len: receipt.len(),
            opening_len: opening.len(),
            receipt: CString::new(receipt)
                .map_err(|_| Failure::invalid("receipt document holds a NUL byte"))?,
            opening: CString::new(opening)
                .map_err(|_| Failure::invalid("opening document holds a NUL byte"))?,
            report,
        };
        // SAFETY: checked above.
        unsafe { write(out, Box::into_raw(Box::new(r))) };
        Ok(())
    })
}

/// Rewrites indexes and file so nothing erased remains (needed with
/// `OUBLI_OPEN_DEFER_SCRUB`). `out_seq` (may be NULL) receives the scrub event's sequence.
///
/// # Safety
/// `store` is a live handle; `out_seq` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_scrub(store: *const OubliStore, out_seq: *mut u64) -> OubliStatus {
    guard(|| {
        // SAFETY: per this function's contract.
        let s = unsafe { handle(store, "store") }?;
        let seq = s.store.scrub()?;
        if !out_seq.is_null() {
            // SAFETY: non-null and writable per this function's contract.
            unsafe { write(out_seq, seq) };
        }
        Ok(())
    })
}

// ---------------------------------------------------------------------------------------
// Reading

/// Recalls the rows that best match `q` (hybrid BM25 + vectors). `*out` receives the hits,
/// best first, to free with `oubli_hits_free`.
///
/// # Safety
/// `store` is a live handle; `q` is valid; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_recall(
    store: *const OubliStore,
    q: *const OubliRecallQuery,
    out: *mut *mut OubliHits,
) -> OubliStatus {
    guard(|| {
        out_ptr(out, "out")?;
        // SAFETY: per this function's contract.
        let s = unsafe { handle(store, "store") }?;
        // SAFETY: per this function's contract.
        let q = unsafe { handle(q, "q") }?;
        // SAFETY (all blocks below): the fields follow the struct's documented contract.
        let mut rq = RecallQuery::new(unsafe { cstr(q.text, "text") }?)
            .k(if q.k == 0 { 10 } else { q.k })
            .include_submerged(q.flags & OUBLI_RECALL_INCLUDE_SUBMERGED != 0)
            .include_expired(q.flags & OUBLI_RECALL_INCLUDE_EXPIRED != 0);
        rq.legs = match (
            q.flags & OUBLI_RECALL_LEXICAL != 0,
            q.flags & OUBLI_RECALL_VECTOR != 0,
        ) {
            (true, true) => {
                return Err(Failure::invalid(
                    "OUBLI_RECALL_LEXICAL and OUBLI_RECALL_VECTOR exclude each other",
                ));
            }
            (true, false) => Legs::Lexical,
            (false, true) => Legs::Vector,
            (false, false) => Legs::Hybrid,
        };
        rq.namespace = unsafe { opt_cstr(q.ns, "ns") }?.map(str::to_owned);
        rq.filters = unsafe { pairs(q.filters, q.filters_len, "filters") }?;
        if !q.vector.is_null() || q.vector_len > 0 {
            rq.vector = Some(unsafe { slice(q.vector, q.vector_len, "vector") }?.to_vec());
        }
        rq.as_of = as_of(q.as_of_kind, q.as_of)?;
        let hits = s.store.recall(&rq)?;
        let (rows, scores) = hits
            .into_iter()
            .map(|h| (OubliRow::from(h.row), h.score))
            .unzip();
        // SAFETY: checked above.
        unsafe { write(out, Box::into_raw(Box::new(OubliHits { rows, scores }))) };
        Ok(())
    })
}

/// Recalls the `k` (0: 10) rows that best match `query`, in every namespace.
///
/// # Safety
/// As `oubli_recall`; `query` is NUL-terminated.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_recall_text(
    store: *const OubliStore,
    query: *const c_char,
    k: usize,
    out: *mut *mut OubliHits,
) -> OubliStatus {
    let q = OubliRecallQuery {
        text: query,
        k,
        ns: std::ptr::null(),
        filters: std::ptr::null(),
        filters_len: 0,
        flags: 0,
        vector: std::ptr::null(),
        vector_len: 0,
        as_of_kind: OUBLI_AS_OF_NOW,
        as_of: 0,
    };
    // SAFETY: forwarded contract.
    unsafe { oubli_recall(store, &q, out) }
}

/// Lists rows in id order (live rows unless flags say otherwise). `q` may be NULL (every
/// live row). `*out` receives the rows, to free with `oubli_rows_free`.
///
/// # Safety
/// `store` is a live handle; `q` NULL or valid; `out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_list(
    store: *const OubliStore,
    q: *const OubliListQuery,
    out: *mut *mut OubliRows,
) -> OubliStatus {
    guard(|| {
        out_ptr(out, "out")?;
        // SAFETY: per this function's contract.
        let s = unsafe { handle(store, "store") }?;
        let mut lq = ListQuery::default();
        // SAFETY: per this function's contract.
        if let Some(q) = unsafe { q.as_ref() } {
            // SAFETY (both blocks): the fields follow the struct's documented contract.
            lq.namespace = unsafe { opt_cstr(q.ns, "ns") }?.map(str::to_owned);
            lq.filters = unsafe { pairs(q.filters, q.filters_len, "filters") }?;
            lq.include_submerged = q.flags & OUBLI_RECALL_INCLUDE_SUBMERGED != 0;
            lq.include_expired = q.flags & OUBLI_RECALL_INCLUDE_EXPIRED != 0;
            lq.after = (q.after != 0).then_some(q.after);
            lq.limit = (q.limit != 0).then_some(q.limit);
            lq.as_of = as_of(q.as_of_kind, q.as_of)?;
        }
        let rows = s.store.list(&lq)?.into_iter().map(OubliRow::from).collect();
        // SAFETY: checked above.
        unsafe { write(out, Box::into_raw(Box::new(OubliRows { rows }))) };
        Ok(())
    })
}

/// Reads one row by id, whatever its depth (a purged row has no text). `*out` receives a
/// row to free with `oubli_row_free`.
///
/// # Safety
/// `store` is a live handle; `out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_get(
    store: *const OubliStore,
    id: u64,
    out: *mut *mut OubliRow,
) -> OubliStatus {
    guard(|| {
        out_ptr(out, "out")?;
        // SAFETY: per this function's contract.
        let s = unsafe { handle(store, "store") }?;
        let row = s.store.get(id)?;
        // SAFETY: checked above.
        unsafe { write(out, Box::into_raw(Box::new(OubliRow::from(row)))) };
        Ok(())
    })
}

/// Reads the live row holding `key` in namespace `ns` (NULL: "default").
///
/// # Safety
/// `store` is a live handle; `ns` NULL or NUL-terminated; `key` NUL-terminated; `out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_get_by_key(
    store: *const OubliStore,
    ns: *const c_char,
    key: *const c_char,
    out: *mut *mut OubliRow,
) -> OubliStatus {
    guard(|| {
        out_ptr(out, "out")?;
        // SAFETY: per this function's contract.
        let s = unsafe { handle(store, "store") }?;
        // SAFETY: per this function's contract.
        let ns = unsafe { opt_cstr(ns, "ns") }?.unwrap_or(oubli::DEFAULT_NAMESPACE);
        // SAFETY: per this function's contract.
        let key = unsafe { cstr(key, "key") }?;
        let row = s.store.get_by_key(ns, key)?;
        // SAFETY: checked above.
        unsafe { write(out, Box::into_raw(Box::new(OubliRow::from(row)))) };
        Ok(())
    })
}

/// The supersede chain of row `id` and every event that touched it, as JSON. `*out_json`
/// receives a string to free with `oubli_string_free`.
///
/// # Safety
/// `store` is a live handle; `out_json` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_history_json(
    store: *const OubliStore,
    id: u64,
    out_json: *mut *mut c_char,
) -> OubliStatus {
    guard(|| {
        out_ptr(out_json, "out_json")?;
        // SAFETY: per this function's contract.
        let s = unsafe { handle(store, "store") }?;
        let h = s.store.history(id)?;
        let json = serde_json::to_string(&h)
            .map_err(|e| Failure::new(OubliStatus::Storage, e.to_string()))?;
        // SAFETY: checked above.
        unsafe { write(out_json, c_string(&json).into_raw()) };
        Ok(())
    })
}

// ---------------------------------------------------------------------------------------
// Result handles

/// Number of hits.
///
/// # Safety
/// `hits` is NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_hits_len(hits: *const OubliHits) -> usize {
    // SAFETY: per this function's contract.
    guard_value(0, || unsafe { hits.as_ref() }.map_or(0, |h| h.rows.len()))
}

/// The row of hit `i`, or NULL when out of range. Owned by `hits`.
///
/// # Safety
/// `hits` is NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_hits_row(hits: *const OubliHits, i: usize) -> *const OubliRow {
    guard_value(std::ptr::null(), || {
        // SAFETY: per this function's contract.
        unsafe { hits.as_ref() }
            .and_then(|h| h.rows.get(i))
            .map_or(std::ptr::null(), |r| r as *const OubliRow)
    })
}

/// The fused score of hit `i`, or NaN when out of range.
///
/// # Safety
/// `hits` is NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_hits_score(hits: *const OubliHits, i: usize) -> f64 {
    guard_value(f64::NAN, || {
        // SAFETY: per this function's contract.
        unsafe { hits.as_ref() }
            .and_then(|h| h.scores.get(i).copied())
            .unwrap_or(f64::NAN)
    })
}

/// Frees hits. NULL is ignored.
///
/// # Safety
/// `hits` is NULL or a live handle, not freed before.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_hits_free(hits: *mut OubliHits) {
    if !hits.is_null() {
        // SAFETY: created by Box::into_raw in this library.
        guard_value((), || drop(unsafe { Box::from_raw(hits) }));
    }
}

/// Number of rows.
///
/// # Safety
/// `rows` is NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_rows_len(rows: *const OubliRows) -> usize {
    // SAFETY: per this function's contract.
    guard_value(0, || unsafe { rows.as_ref() }.map_or(0, |r| r.rows.len()))
}

/// Row `i`, or NULL when out of range. Owned by `rows`.
///
/// # Safety
/// `rows` is NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_rows_get(rows: *const OubliRows, i: usize) -> *const OubliRow {
    guard_value(std::ptr::null(), || {
        // SAFETY: per this function's contract.
        unsafe { rows.as_ref() }
            .and_then(|r| r.rows.get(i))
            .map_or(std::ptr::null(), |r| r as *const OubliRow)
    })
}

/// Frees rows. NULL is ignored.
///
/// # Safety
/// `rows` is NULL or a live handle, not freed before.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_rows_free(rows: *mut OubliRows) {
    if !rows.is_null() {
        // SAFETY: created by Box::into_raw in this library.
        guard_value((), || drop(unsafe { Box::from_raw(rows) }));
    }
}

/// Frees a row from `oubli_get` or `oubli_get_by_key` (never one owned by hits or rows).
/// NULL is ignored.
///
/// # Safety
/// `row` is NULL or a live handle from `oubli_get*`, not freed before.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_row_free(row: *mut OubliRow) {
    if !row.is_null() {
        // SAFETY: created by Box::into_raw in this library.
        guard_value((), || drop(unsafe { Box::from_raw(row) }));
    }
}

/// Runs an accessor on a row, `default` for NULL.
///
/// # Safety
/// `row` is NULL or a live row.
unsafe fn with_row<T>(row: *const OubliRow, default: T, f: impl FnOnce(&OubliRow) -> T) -> T {
    // SAFETY: per the caller's contract.
    match unsafe { row.as_ref() } {
        Some(r) => f(r),
        None => default,
    }
}

/// The row's id (0 for NULL; real ids start at 1).
///
/// # Safety
/// `row` is NULL or a live row.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_row_id(row: *const OubliRow) -> u64 {
    // SAFETY: forwarded contract.
    unsafe { with_row(row, 0, |r| r.row.id) }
}

/// The row's text, or NULL once purged.
///
/// # Safety
/// `row` is NULL or a live row.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_row_text(row: *const OubliRow) -> *const c_char {
    // SAFETY: forwarded contract.
    unsafe { with_row(row, std::ptr::null(), |r| opt_ptr(&r.text)) }
}

/// The row's namespace.
///
/// # Safety
/// `row` is NULL or a live row.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_row_namespace(row: *const OubliRow) -> *const c_char {
    // SAFETY: forwarded contract.
    unsafe { with_row(row, std::ptr::null(), |r| r.namespace.as_ptr()) }
}

/// The row's natural key, or NULL.
///
/// # Safety
/// `row` is NULL or a live row.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_row_key(row: *const OubliRow) -> *const c_char {
    // SAFETY: forwarded contract.
    unsafe { with_row(row, std::ptr::null(), |r| opt_ptr(&r.key)) }
}

/// The row's kind: "source", "derived" or "note" (static).
///
/// # Safety
/// `row` is NULL or a live row.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_row_kind(row: *const OubliRow) -> *const c_char {
    // SAFETY: forwarded contract.
    unsafe {
        with_row(row, std::ptr::null(), |r| match r.row.kind {
            Kind::Source => c"source".as_ptr(),
            Kind::Derived => c"derived".as_ptr(),
            Kind::Note => c"note".as_ptr(),
        })
    }
}

/// The row's depth: +inf pinned, 1 surface, (0, 1) sinking, 0 submerged, NaN void.
///
/// # Safety
/// `row` is NULL or a live row.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_row_depth(row: *const OubliRow) -> f64 {
    // SAFETY: forwarded contract.
    unsafe { with_row(row, f64::NAN, |r| r.row.depth.as_f64()) }
}

/// The row's depth state: "pinned", "surface", "sinking", "submerged" or "void" (static).
///
/// # Safety
/// `row` is NULL or a live row.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_row_state(row: *const OubliRow) -> *const c_char {
    use oubli::DepthState as S;
    // SAFETY: forwarded contract.
    unsafe {
        with_row(row, std::ptr::null(), |r| match r.row.depth.state() {
            S::Pinned => c"pinned".as_ptr(),
            S::Surface => c"surface".as_ptr(),
            S::Sinking => c"sinking".as_ptr(),
            S::Submerged => c"submerged".as_ptr(),
            S::Void => c"void".as_ptr(),
        })
    }
}

/// When the row was inscribed (ms since the Unix epoch).
///
/// # Safety
/// `row` is NULL or a live row.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_row_created_at(row: *const OubliRow) -> i64 {
    // SAFETY: forwarded contract.
    unsafe { with_row(row, 0, |r| r.row.created_at) }
}

/// The row that replaced this one (0: none).
///
/// # Safety
/// `row` is NULL or a live row.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_row_superseded_by(row: *const OubliRow) -> u64 {
    // SAFETY: forwarded contract.
    unsafe { with_row(row, 0, |r| r.row.superseded_by.unwrap_or(0)) }
}

/// Number of metadata entries.
///
/// # Safety
/// `row` is NULL or a live row.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_row_metadata_len(row: *const OubliRow) -> usize {
    // SAFETY: forwarded contract.
    unsafe { with_row(row, 0, |r| r.metadata.len()) }
}

/// Key of metadata entry `i` (sorted by key), or NULL when out of range.
///
/// # Safety
/// `row` is NULL or a live row.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_row_metadata_key(row: *const OubliRow, i: usize) -> *const c_char {
    // SAFETY: forwarded contract.
    unsafe {
        with_row(row, std::ptr::null(), |r| {
            r.metadata
                .get(i)
                .map_or(std::ptr::null(), |(k, _)| k.as_ptr())
        })
    }
}

/// Value of metadata entry `i`, or NULL when out of range.
///
/// # Safety
/// `row` is NULL or a live row.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_row_metadata_value(row: *const OubliRow, i: usize) -> *const c_char {
    // SAFETY: forwarded contract.
    unsafe {
        with_row(row, std::ptr::null(), |r| {
            r.metadata
                .get(i)
                .map_or(std::ptr::null(), |(_, v)| v.as_ptr())
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
    guard_value(0, || unsafe { r.as_ref() }.map_or(0, |r| r.report.seq))
}

/// Number of rows erased.
///
/// # Safety
/// `r` is NULL or a live report.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_purge_report_erased_len(r: *const OubliPurgeReport) -> usize {
    // SAFETY: per this function's contract.
    guard_value(0, || {
        unsafe { r.as_ref() }.map_or(0, |r| r.report.erased.len())
    })
}

/// Id of erased row `i` (in id order), or 0 when out of range.
///
/// # Safety
/// `r` is NULL or a live report.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_purge_report_erased(r: *const OubliPurgeReport, i: usize) -> u64 {
    guard_value(0, || {
        // SAFETY: per this function's contract.
        unsafe { r.as_ref() }
            .and_then(|r| r.report.erased.get(i).copied())
            .unwrap_or(0)
    })
}

/// Whether the residual audit after the purge found nothing.
///
/// # Safety
/// `r` is NULL or a live report.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_purge_report_audit_clean(r: *const OubliPurgeReport) -> bool {
    // SAFETY: per this function's contract.
    guard_value(false, || {
        unsafe { r.as_ref() }.is_some_and(|r| r.report.audit.summary.clean)
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
    guard_value(std::ptr::null(), || {
        // SAFETY: per this function's contract.
        let Some(r) = (unsafe { r.as_ref() }) else {
            return std::ptr::null();
        };
        if !len.is_null() {
            // SAFETY: writable per this function's contract.
            unsafe { write(len, r.receipt_len) };
        }
        r.receipt.as_ptr()
    })
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
    guard_value(std::ptr::null(), || {
        // SAFETY: per this function's contract.
        let Some(r) = (unsafe { r.as_ref() }) else {
            return std::ptr::null();
        };
        if !len.is_null() {
            // SAFETY: writable per this function's contract.
            unsafe { write(len, r.opening_len) };
        }
        r.opening.as_ptr()
    })
}

/// Frees a purge report. NULL is ignored.
///
/// # Safety
/// `r` is NULL or a live report, not freed before.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_purge_report_free(r: *mut OubliPurgeReport) {
    if !r.is_null() {
        // SAFETY: created by Box::into_raw in this library.
        guard_value((), || drop(unsafe { Box::from_raw(r) }));
    }
}

// ---------------------------------------------------------------------------------------
// Offline verification

/// Reads a document given as pointer and length.
///
/// # Safety
/// `p` points to `len` readable bytes.
unsafe fn document<'a>(p: *const c_char, len: usize, what: &str) -> Result<&'a [u8], Failure> {
    if p.is_null() {
        return Err(Failure::null(what));
    }
    // SAFETY: per the caller's contract.
    unsafe { slice(p.cast::<u8>(), len, what) }
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
        if !out_purge_id.is_null() {
            // SAFETY: writable per this function's contract.
            unsafe { write(out_purge_id, r.body.purge_id) };
        }
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
        let r = SignedReceipt::verify_document(
            unsafe { document(receipt, receipt_len, "receipt") }?,
            None,
        )?;
        // SAFETY: per this function's contract.
        let o = Opening::parse(unsafe { document(opening, opening_len, "opening") }?)?;
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
        let r = SignedReceipt::verify_document(
            unsafe { document(receipt, receipt_len, "receipt") }?,
            None,
        )?;
        // SAFETY: per this function's contract.
        let o = Opening::parse(unsafe { document(opening, opening_len, "opening") }?)?;
        // SAFETY: per this function's contract.
        let content = unsafe { cstr(content, "content") }?;
        let row = match r.covers(&o, content)? {
            Coverage::FullText(row) | Coverage::Fragments(row) => row,
        };
        if !out_row.is_null() {
            // SAFETY: writable per this function's contract.
            unsafe { write(out_row, row) };
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_is_caught_and_reported() {
        let status = guard(|| panic!("boom"));
        assert_eq!(status, OubliStatus::Panic);
        // SAFETY: the pointer is a valid C string until the next call on this thread.
        let msg = unsafe { CStr::from_ptr(oubli_last_error()) }
            .to_str()
            .unwrap();
        assert!(msg.contains("boom"), "{msg}");
        assert_eq!(guard_value(7, || panic!("boom")), 7);
    }

    #[test]
    fn success_clears_the_last_error() {
        guard(|| Err(Failure::invalid("bad")));
        assert!(!oubli_last_error().is_null());
        guard(|| Ok(()));
        assert!(oubli_last_error().is_null());
    }

    #[test]
    fn every_status_has_a_name() {
        let name = |s: i32| {
            // SAFETY: static string.
            unsafe { CStr::from_ptr(oubli_status_name(s)) }
                .to_str()
                .unwrap()
        };
        assert_eq!(name(OubliStatus::Ok as i32), "ok");
        assert_eq!(name(OubliStatus::Verification as i32), "verification");
        assert_eq!(name(OubliStatus::Panic as i32), "panic");
        assert_eq!(name(-1), "unknown");
        assert_eq!(name(17), "unknown");
    }

    #[test]
    fn interior_nuls_do_not_truncate() {
        assert_eq!(c_string("a\0b").to_str().unwrap(), "a\u{FFFD}b");
    }
}
