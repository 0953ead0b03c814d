//! Reading rows: recall (hybrid BM25 + vectors), list, get by id or key, and history, with
//! their query structs, `OUBLI_RECALL_*` flags and `OUBLI_AS_OF_*` points in time.

use std::ffi::c_char;

use oubli::{AsOf, Legs, ListQuery, RecallQuery};

use crate::convert::{
    OubliPair, boxed, c_string, cstr, filter_json, handle, opt_cstr, opt_string, opt_vector,
    pair_filter,
};
use crate::errors::{Failure, OubliStatus};
use crate::handle::{OubliStore, with_store_out};
use crate::rows::{OubliHits, OubliRow, OubliRows};

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

/// A recall request. Only `text` is required.
#[repr(C)]
pub struct OubliRecallQuery {
    /// The query text.
    pub text: *const c_char,
    /// Rows to return (0: 10).
    pub k: usize,
    /// Only rows of this namespace (NULL: all).
    pub ns: *const c_char,
    /// Only rows whose metadata has every one of these entries (string equality).
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
    /// Only hits whose score (relevance in [0, 1] times depth weight) is at least this; 0
    /// keeps the `k` best (0.3 keeps relevant hits only, see docs/recall.md).
    pub min_score: f64,
    /// A metadata filter as a JSON object (NULL: none), applied with `filters`:
    /// `{"team": "x", "priority": {"$gte": 2}, "tags": {"$in": ["a", "b"]},
    /// "archived": {"$exists": false}}` (operators `$eq`, `$ne`, `$in`, `$gt`, `$gte`, `$lt`,
    /// `$lte`, `$exists`; see docs/scoping.md).
    pub filter_json: *const c_char,
}

/// A list request (NULL means every live row).
#[repr(C)]
pub struct OubliListQuery {
    /// Only rows of this namespace (NULL: all).
    pub ns: *const c_char,
    /// Only rows whose metadata has every one of these entries (string equality).
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
    /// A metadata filter as a JSON object (NULL: none), as in `OubliRecallQuery`.
    pub filter_json: *const c_char,
}

/// Reads an `OUBLI_AS_OF_*` kind and its value.
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
    // SAFETY: every pointer argument, also those the closure reads, follows this
    // function's contract.
    unsafe {
        with_store_out(store, out, "out", |s| {
            let q = handle(q, "q")?;
            let mut rq = RecallQuery::new(cstr(q.text, "text")?)
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
            rq.namespace = opt_string(q.ns, "ns")?;
            rq.filters = pair_filter(q.filters, q.filters_len, "filters")?;
            rq.filters
                .conditions
                .extend(filter_json(q.filter_json, "filter_json")?.conditions);
            rq.vector = opt_vector(q.vector, q.vector_len, "vector")?;
            rq.as_of = as_of(q.as_of_kind, q.as_of)?;
            rq.min_score = q.min_score;
            let (rows, scores) = s
                .recall(&rq)?
                .into_iter()
                .map(|h| (OubliRow::from(h.row), h.score))
                .unzip();
            Ok(boxed(OubliHits { rows, scores }))
        })
    }
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
        min_score: 0.0,
        filter_json: std::ptr::null(),
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
    // SAFETY: every pointer argument, also those the closure reads, follows this
    // function's contract.
    unsafe {
        with_store_out(store, out, "out", |s| {
            let mut lq = ListQuery::default();
            if let Some(q) = q.as_ref() {
                lq.namespace = opt_string(q.ns, "ns")?;
                lq.filters = pair_filter(q.filters, q.filters_len, "filters")?;
                lq.filters
                    .conditions
                    .extend(filter_json(q.filter_json, "filter_json")?.conditions);
                lq.include_submerged = q.flags & OUBLI_RECALL_INCLUDE_SUBMERGED != 0;
                lq.include_expired = q.flags & OUBLI_RECALL_INCLUDE_EXPIRED != 0;
                lq.after = (q.after != 0).then_some(q.after);
                lq.limit = (q.limit != 0).then_some(q.limit);
                lq.as_of = as_of(q.as_of_kind, q.as_of)?;
            }
            let rows = s.list(&lq)?.into_iter().map(OubliRow::from).collect();
            Ok(boxed(OubliRows { rows }))
        })
    }
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
    // SAFETY: per this function's contract.
    unsafe { with_store_out(store, out, "out", |s| Ok(boxed(OubliRow::from(s.get(id)?)))) }
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
    // SAFETY: every pointer argument, also those the closure reads, follows this
    // function's contract.
    unsafe {
        with_store_out(store, out, "out", |s| {
            let ns = opt_cstr(ns, "ns")?.unwrap_or(oubli::DEFAULT_NAMESPACE);
            let key = cstr(key, "key")?;
            Ok(boxed(OubliRow::from(s.get_by_key(ns, key)?)))
        })
    }
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
    // SAFETY: every pointer argument, also those the closure reads, follows this
    // function's contract.
    unsafe {
        with_store_out(store, out_json, "out_json", |s| {
            let json = serde_json::to_string(&s.history(id)?)
                .map_err(|e| Failure::new(OubliStatus::Storage, e.to_string()))?;
            Ok(c_string(&json).into_raw())
        })
    }
}
