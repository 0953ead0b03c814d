//! Writing rows: the `OubliInscription` struct, reading it into an engine inscription, and
//! `oubli_inscribe` / `oubli_inscribe_text`.

use std::ffi::c_char;

use oubli::{Inscription, Kind};

use crate::convert::{
    OubliPair, cstr, handle, metadata_json, opt_cstr, opt_string, opt_vector, pairs, slice,
};
use crate::errors::{Failure, OubliStatus};
use crate::handle::{OubliStore, with_store_out};

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
    /// Typed metadata as a JSON object (NULL: none), e.g.
    /// `{"priority": 3, "score": 0.5, "done": false, "tags": ["a", "b"]}`: values are strings,
    /// integers, finite floats, bools or arrays of those. Merged with `metadata` (a key in
    /// both is refused).
    pub metadata_json: *const c_char,
}

/// Reads an inscription.
///
/// # Safety
/// Every pointer in `ins` follows the struct's documented contract.
pub(crate) unsafe fn read_inscription(ins: &OubliInscription) -> Result<Inscription, Failure> {
    // SAFETY (all blocks below): the fields follow the documented contract.
    let mut out = Inscription::new(unsafe { cstr(ins.text, "text") }?);
    out.namespace = unsafe { opt_string(ins.ns, "ns") }?;
    out.key = unsafe { opt_string(ins.key, "key") }?;
    if let Some(k) = unsafe { opt_cstr(ins.kind, "kind") }? {
        out.kind = Kind::parse(k)?;
    }
    out.metadata = unsafe { pairs(ins.metadata, ins.metadata_len, "metadata") }?;
    for (k, v) in unsafe { metadata_json(ins.metadata_json, "metadata_json") }? {
        if out.metadata.contains_key(&k) {
            return Err(Failure::invalid(format!(
                "metadata key {k:?} is given in both metadata and metadata_json"
            )));
        }
        out.metadata.insert(k, v);
    }
    out.vector = unsafe { opt_vector(ins.vector, ins.vector_len, "vector") }?;
    if !ins.valid_until.is_null() {
        out.valid_until = Some(unsafe { *ins.valid_until });
    }
    out.derived_from =
        unsafe { slice(ins.derived_from, ins.derived_from_len, "derived_from") }?.to_vec();
    Ok(out)
}

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
    // SAFETY: every pointer argument, also those the closure reads, follows this
    // function's contract.
    unsafe {
        with_store_out(store, out_id, "out_id", |s| {
            let ins = read_inscription(handle(ins, "ins")?)?;
            Ok(s.inscribe(ins)?)
        })
    }
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
        metadata_json: std::ptr::null(),
    };
    // SAFETY: forwarded contract.
    unsafe { oubli_inscribe(store, &ins, out_id) }
}
