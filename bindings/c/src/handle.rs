//! The store handle: opening, closing and freeing it, its key, head and log verification, and
//! the two wrappers nearly every entry point runs in ([`with_store`], [`with_store_out`]).

use std::ffi::c_char;
use std::sync::Arc;

use oubli::{HashEmbedder, Store, StoreOptions};

use crate::convert::{boxed, bytes32, cstr, handle, out_ptr, write, write_opt};
use crate::errors::{Failure, OubliStatus, guard, guard_value};

/// `oubli_store_open` flag: create the store if the file does not exist.
pub const OUBLI_OPEN_CREATE: u32 = 1;
/// `oubli_store_open` flag: fail with `OUBLI_STATUS_CONFLICT` if the file exists.
pub const OUBLI_OPEN_EXCLUSIVE: u32 = 2;
/// `oubli_store_open` flag: open read-only (mutating calls fail with `OUBLI_STATUS_READ_ONLY`).
pub const OUBLI_OPEN_READ_ONLY: u32 = 4;
/// `oubli_store_open` flag: do not scrub the file on every purge (call `oubli_scrub`).
pub const OUBLI_OPEN_DEFER_SCRUB: u32 = 8;

/// Options for `oubli_store_open`. A zeroed struct (or NULL) means: open an existing store
/// with the built-in embedder it was created with.
#[repr(C)]
pub struct OubliOpenOptions {
    /// `OUBLI_OPEN_*` flags.
    pub flags: u32,
    /// 0: the built-in default (a new store gets the static MiniLM table; an existing store
    /// reopens with the built-in embedder it was created with). Otherwise the dimension of the
    /// built-in hash embedder to use (16 to 8192).
    pub hash_dim: u32,
    /// 32 bytes: deterministic salt seed (tests and reproducible runs only), or NULL.
    pub seed: *const u8,
    /// 32 bytes: the ed25519 signing key, or NULL to keep a generated key in the file.
    pub signing_key: *const u8,
}

/// An open store (opaque).
pub struct OubliStore {
    pub(crate) store: Arc<Store>,
}

/// Runs an entry point on a borrowed store: the guard, then `f`.
///
/// # Safety
/// `store` is NULL or a live handle; `f` upholds the contract of its caller's other arguments.
pub(crate) unsafe fn with_store(
    store: *const OubliStore,
    f: impl FnOnce(&Store) -> Result<(), Failure>,
) -> OubliStatus {
    guard(|| {
        // SAFETY: per this function's contract.
        let s = unsafe { handle(store, "store") }?;
        f(&s.store)
    })
}

/// Runs an entry point with a required out-parameter: checks `out` (named `what`) before any
/// work, borrows the store, runs `f` and writes its result to `out`.
///
/// # Safety
/// `store` is NULL or a live handle; `out` is NULL or writable; `f` upholds the contract of its
/// caller's other arguments.
pub(crate) unsafe fn with_store_out<T>(
    store: *const OubliStore,
    out: *mut T,
    what: &str,
    f: impl FnOnce(&Store) -> Result<T, Failure>,
) -> OubliStatus {
    guard(|| {
        out_ptr(out, what)?;
        // SAFETY: per this function's contract.
        let s = unsafe { handle(store, "store") }?;
        let v = f(&s.store)?;
        // SAFETY: checked above.
        unsafe { write(out, v) };
        Ok(())
    })
}

/// Opens (or with `OUBLI_OPEN_CREATE` creates) the store at `path`. `options` may be NULL.
/// On success `*out` holds a handle to free with `oubli_store_free`.
///
/// The path `":memory:"` (with `OUBLI_OPEN_CREATE`) makes a new store that never touches disk,
/// as in SQLite: same log, receipts, purge and recall, no durability, gone when freed.
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
        let mut opts = StoreOptions::default();
        if dim != 0 {
            opts = opts.embedder(Arc::new(HashEmbedder::new(dim as usize)?));
        }
        let mut opts = opts
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
        let store = if path == ":memory:" {
            if flags & (OUBLI_OPEN_CREATE | OUBLI_OPEN_EXCLUSIVE) == 0 {
                return Err(oubli::Error::InvalidArgument(
                    "\":memory:\" makes a new store: pass OUBLI_OPEN_CREATE".into(),
                )
                .into());
            }
            Store::in_memory(opts)?
        } else if flags & OUBLI_OPEN_EXCLUSIVE != 0 {
            Store::create_with(path, opts)?
        } else if flags & OUBLI_OPEN_CREATE != 0 {
            Store::open_or_create(path, opts)?
        } else {
            Store::open_with(path, opts)?
        };
        let h = boxed(OubliStore {
            store: Arc::new(store),
        });
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
    // SAFETY: per this function's contract.
    unsafe { with_store(store, |s| Ok(s.close()?)) }
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
    // SAFETY: per this function's contract (32 writable bytes, alignment 1).
    unsafe {
        with_store_out(
            store,
            out.cast::<[u8; 32]>(),
            "out",
            |s| Ok(s.public_key()?),
        )
    }
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
    // SAFETY: per this function's contract.
    unsafe { with_store_out(store, out_seq, "out_seq", |s| Ok(s.head()?.0)) }
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
    // SAFETY: every pointer argument, also those the closure reads, follows this
    // function's contract.
    unsafe {
        with_store(store, |s| {
            let key = bytes32(public_key);
            let r = s.verify_log(key)?;
            write_opt(out_events, r.events);
            Ok(())
        })
    }
}
