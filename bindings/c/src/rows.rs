//! Result handles for rows: one row (`OubliRow`), the hits of a recall (`OubliHits`), the rows
//! of a list (`OubliRows`), and their accessors. Strings are converted for C once, when the
//! handle is built, and live as long as it.

use std::ffi::{CString, c_char};

use oubli::{Kind, Row};

use crate::convert::{c_string, free_boxed, opt_ptr, read};

/// One row (opaque), with its strings ready for C.
pub struct OubliRow {
    row: Row,
    text: Option<CString>,
    namespace: CString,
    key: Option<CString>,
    metadata: Vec<(CString, CString)>,
    metadata_json: CString,
}

/// The rows a recall returned, best first, with their scores (opaque).
pub struct OubliHits {
    pub(crate) rows: Vec<OubliRow>,
    pub(crate) scores: Vec<f64>,
}

/// The rows a list returned, in id order (opaque).
pub struct OubliRows {
    pub(crate) rows: Vec<OubliRow>,
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
                .map(|(k, v)| (c_string(k), c_string(&v.to_string())))
                .collect(),
            metadata_json: c_string(&oubli::metadata_to_json(&row.metadata).to_string()),
            row,
        }
    }
}

/// Row `i` of `rows`, or NULL when out of range.
fn row_at(rows: &[OubliRow], i: usize) -> *const OubliRow {
    rows.get(i)
        .map_or(std::ptr::null(), |r| r as *const OubliRow)
}

/// Number of hits.
///
/// # Safety
/// `hits` is NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_hits_len(hits: *const OubliHits) -> usize {
    // SAFETY: per this function's contract.
    unsafe { read(hits, 0, |h| h.rows.len()) }
}

/// The row of hit `i`, or NULL when out of range. Owned by `hits`.
///
/// # Safety
/// `hits` is NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_hits_row(hits: *const OubliHits, i: usize) -> *const OubliRow {
    // SAFETY: per this function's contract.
    unsafe { read(hits, std::ptr::null(), |h| row_at(&h.rows, i)) }
}

/// The fused score of hit `i`, or NaN when out of range.
///
/// # Safety
/// `hits` is NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_hits_score(hits: *const OubliHits, i: usize) -> f64 {
    // SAFETY: per this function's contract.
    unsafe {
        read(hits, f64::NAN, |h| {
            h.scores.get(i).copied().unwrap_or(f64::NAN)
        })
    }
}

/// Frees hits. NULL is ignored.
///
/// # Safety
/// `hits` is NULL or a live handle, not freed before.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_hits_free(hits: *mut OubliHits) {
    // SAFETY: per this function's contract.
    unsafe { free_boxed(hits) }
}

/// Number of rows.
///
/// # Safety
/// `rows` is NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_rows_len(rows: *const OubliRows) -> usize {
    // SAFETY: per this function's contract.
    unsafe { read(rows, 0, |r| r.rows.len()) }
}

/// Row `i`, or NULL when out of range. Owned by `rows`.
///
/// # Safety
/// `rows` is NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_rows_get(rows: *const OubliRows, i: usize) -> *const OubliRow {
    // SAFETY: per this function's contract.
    unsafe { read(rows, std::ptr::null(), |r| row_at(&r.rows, i)) }
}

/// Frees rows. NULL is ignored.
///
/// # Safety
/// `rows` is NULL or a live handle, not freed before.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_rows_free(rows: *mut OubliRows) {
    // SAFETY: per this function's contract.
    unsafe { free_boxed(rows) }
}

/// Frees a row from `oubli_get` or `oubli_get_by_key` (never one owned by hits or rows).
/// NULL is ignored.
///
/// # Safety
/// `row` is NULL or a live handle from `oubli_get*`, not freed before.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_row_free(row: *mut OubliRow) {
    // SAFETY: per this function's contract.
    unsafe { free_boxed(row) }
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

/// Metadata entry `i`'s key or value (`pick`), or NULL when out of range.
fn metadata_at(r: &OubliRow, i: usize, pick: fn(&(CString, CString)) -> &CString) -> *const c_char {
    r.metadata
        .get(i)
        .map_or(std::ptr::null(), |entry| pick(entry).as_ptr())
}

/// Key of metadata entry `i` (sorted by key), or NULL when out of range.
///
/// # Safety
/// `row` is NULL or a live row.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_row_metadata_key(row: *const OubliRow, i: usize) -> *const c_char {
    // SAFETY: forwarded contract.
    unsafe { with_row(row, std::ptr::null(), |r| metadata_at(r, i, |(k, _)| k)) }
}

/// Value of metadata entry `i` as text, or NULL when out of range: a string value as it is;
/// an integer, float, bool or list as JSON (`3`, `0.5`, `true`, `["a","b"]`). For the types,
/// read `oubli_row_metadata_json`.
///
/// # Safety
/// `row` is NULL or a live row.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_row_metadata_value(row: *const OubliRow, i: usize) -> *const c_char {
    // SAFETY: forwarded contract.
    unsafe { with_row(row, std::ptr::null(), |r| metadata_at(r, i, |(_, v)| v)) }
}

/// The row's metadata as a JSON object of typed values (`{"priority":3,"tags":["a"]}`;
/// `{}` when none). Owned by the row.
///
/// # Safety
/// `row` is NULL (NULL is returned) or a live row.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oubli_row_metadata_json(row: *const OubliRow) -> *const c_char {
    // SAFETY: forwarded contract.
    unsafe { with_row(row, std::ptr::null(), |r| r.metadata_json.as_ptr()) }
}
