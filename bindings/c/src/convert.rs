//! The C plumbing every entry point shares: reading caller strings, slices and key/value pairs,
//! borrowing handles, writing out-parameters, boxing result handles and reading them back.
//! Each `unsafe fn` here dereferences caller pointers: see the safety notes of the callers.

use std::collections::BTreeMap;
use std::ffi::{CStr, CString, c_char};

use oubli::{Condition, Filter, MetaValue, Op, Scalar};

use crate::errors::{Failure, OubliStatus, guard_value};

/// A metadata entry or filter: two NUL-terminated UTF-8 strings.
#[repr(C)]
pub struct OubliPair {
    /// Key.
    pub key: *const c_char,
    /// Value.
    pub value: *const c_char,
}

/// A C string from a Rust string: interior NULs (never in text, keys or namespaces, which the
/// engine rejects) become U+FFFD so the string stays whole.
pub(crate) fn c_string(s: &str) -> CString {
    CString::new(s.replace('\0', "\u{FFFD}")).expect("no interior NUL")
}

/// A pointer to an optional owned string, NULL when absent.
pub(crate) fn opt_ptr(s: &Option<CString>) -> *const c_char {
    s.as_ref().map_or(std::ptr::null(), |s| s.as_ptr())
}

// ---------------------------------------------------------------------------------------
// Reading arguments

/// Reads a required NUL-terminated UTF-8 string.
///
/// # Safety
/// `p` is NULL or points to a NUL-terminated string that outlives `'a`.
pub(crate) unsafe fn cstr<'a>(p: *const c_char, what: &str) -> Result<&'a str, Failure> {
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
pub(crate) unsafe fn opt_cstr<'a>(
    p: *const c_char,
    what: &str,
) -> Result<Option<&'a str>, Failure> {
    if p.is_null() {
        Ok(None)
    } else {
        // SAFETY: forwarded contract.
        unsafe { cstr(p, what) }.map(Some)
    }
}

/// Reads an optional string as an owned `String` (NULL means absent).
///
/// # Safety
/// As [`cstr`].
pub(crate) unsafe fn opt_string(p: *const c_char, what: &str) -> Result<Option<String>, Failure> {
    // SAFETY: forwarded contract.
    Ok(unsafe { opt_cstr(p, what) }?.map(str::to_owned))
}

/// Reads `len` items at `p` (NULL is allowed when `len` is 0).
///
/// # Safety
/// `p` points to `len` initialized items that outlive `'a`.
pub(crate) unsafe fn slice<'a, T>(p: *const T, len: usize, what: &str) -> Result<&'a [T], Failure> {
    if len == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(Failure::null(what));
    }
    // SAFETY: non-null, `len` items per the caller's contract.
    Ok(unsafe { std::slice::from_raw_parts(p, len) })
}

/// Reads an optional vector: absent when `p` is NULL and `len` is 0.
///
/// # Safety
/// As [`slice`].
pub(crate) unsafe fn opt_vector(
    p: *const f32,
    len: usize,
    what: &str,
) -> Result<Option<Vec<f32>>, Failure> {
    if p.is_null() && len == 0 {
        return Ok(None);
    }
    // SAFETY: forwarded contract.
    Ok(Some(unsafe { slice(p, len, what) }?.to_vec()))
}

/// Reads pairs into a map of string metadata values.
///
/// # Safety
/// `p` points to `len` pairs of valid strings.
pub(crate) unsafe fn pairs(
    p: *const OubliPair,
    len: usize,
    what: &str,
) -> Result<BTreeMap<String, MetaValue>, Failure> {
    let mut out = BTreeMap::new();
    // SAFETY: forwarded contract.
    for pair in unsafe { slice(p, len, what) }? {
        // SAFETY: forwarded contract.
        let k = unsafe { cstr(pair.key, what) }?;
        // SAFETY: forwarded contract.
        let v = unsafe { cstr(pair.value, what) }?;
        out.insert(k.to_owned(), MetaValue::Str(v.to_owned()));
    }
    Ok(out)
}

/// Reads pairs as a filter: every key must equal its (string) value.
///
/// # Safety
/// As [`pairs`].
pub(crate) unsafe fn pair_filter(
    p: *const OubliPair,
    len: usize,
    what: &str,
) -> Result<Filter, Failure> {
    // SAFETY: forwarded contract.
    let pairs = unsafe { pairs(p, len, what) }?;
    Ok(Filter {
        conditions: pairs
            .into_iter()
            .map(|(k, v)| Condition::new(k, Op::Eq(Scalar::Str(v.to_string()))))
            .collect(),
    })
}

/// Reads an optional JSON document (NULL: absent).
///
/// # Safety
/// As [`cstr`].
unsafe fn opt_json(p: *const c_char, what: &str) -> Result<Option<serde_json::Value>, Failure> {
    // SAFETY: forwarded contract.
    let Some(s) = (unsafe { opt_cstr(p, what) })? else {
        return Ok(None);
    };
    serde_json::from_str(s)
        .map(Some)
        .map_err(|e| Failure::invalid(format!("{what} is not JSON: {e}")))
}

/// Reads optional typed metadata written as a JSON object (NULL: none).
///
/// # Safety
/// As [`cstr`].
pub(crate) unsafe fn metadata_json(
    p: *const c_char,
    what: &str,
) -> Result<BTreeMap<String, MetaValue>, Failure> {
    // SAFETY: forwarded contract.
    match unsafe { opt_json(p, what) }? {
        None => Ok(BTreeMap::new()),
        Some(v) => Ok(oubli::metadata_from_json(&v)?),
    }
}

/// Reads an optional filter written as a JSON object (NULL: none), as
/// [`oubli::Filter::from_json`].
///
/// # Safety
/// As [`cstr`].
pub(crate) unsafe fn filter_json(p: *const c_char, what: &str) -> Result<Filter, Failure> {
    // SAFETY: forwarded contract.
    match unsafe { opt_json(p, what) }? {
        None => Ok(Filter::default()),
        Some(v) => Ok(Filter::from_json(&v)?),
    }
}

/// Reads 32 bytes, if `p` is not NULL.
///
/// # Safety
/// `p` is NULL or points to 32 readable bytes.
pub(crate) unsafe fn bytes32(p: *const u8) -> Option<[u8; 32]> {
    if p.is_null() {
        return None;
    }
    let mut out = [0u8; 32];
    // SAFETY: 32 readable bytes per the caller's contract.
    out.copy_from_slice(unsafe { std::slice::from_raw_parts(p, 32) });
    Some(out)
}

/// Reads a document given as pointer and length.
///
/// # Safety
/// `p` points to `len` readable bytes.
pub(crate) unsafe fn document<'a>(
    p: *const c_char,
    len: usize,
    what: &str,
) -> Result<&'a [u8], Failure> {
    if p.is_null() {
        return Err(Failure::null(what));
    }
    // SAFETY: per the caller's contract.
    unsafe { slice(p.cast::<u8>(), len, what) }
}

/// Borrows a handle.
///
/// # Safety
/// `p` is NULL or a live handle created by this library.
pub(crate) unsafe fn handle<'a, T>(p: *const T, what: &str) -> Result<&'a T, Failure> {
    // SAFETY: per the caller's contract.
    unsafe { p.as_ref() }.ok_or_else(|| Failure::null(what))
}

// ---------------------------------------------------------------------------------------
// Writing results

/// Checks an out-parameter before any work is done.
pub(crate) fn out_ptr<T>(p: *mut T, what: &str) -> Result<(), Failure> {
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
pub(crate) unsafe fn write<T>(p: *mut T, v: T) {
    // SAFETY: per the caller's contract.
    unsafe { p.write(v) };
}

/// Writes an optional out-parameter: nothing when `p` is NULL.
///
/// # Safety
/// `p` is NULL or writable.
pub(crate) unsafe fn write_opt<T>(p: *mut T, v: T) {
    if !p.is_null() {
        // SAFETY: non-null and writable per the caller's contract.
        unsafe { write(p, v) };
    }
}

/// Moves a result handle to the heap for C; [`free_boxed`] takes it back.
pub(crate) fn boxed<T>(v: T) -> *mut T {
    Box::into_raw(Box::new(v))
}

/// Frees a handle made by [`boxed`]. NULL is ignored.
///
/// # Safety
/// `p` is NULL or a live handle from [`boxed`], not freed before.
pub(crate) unsafe fn free_boxed<T>(p: *mut T) {
    if !p.is_null() {
        // SAFETY: created by Box::into_raw in this library.
        guard_value((), || drop(unsafe { Box::from_raw(p) }));
    }
}

/// Runs an accessor on a result handle: `default` for NULL (or if the accessor panics).
///
/// # Safety
/// `p` is NULL or a live handle.
pub(crate) unsafe fn read<H, T: Copy>(p: *const H, default: T, f: impl FnOnce(&H) -> T) -> T {
    // SAFETY: per the caller's contract.
    guard_value(default, || unsafe { p.as_ref() }.map_or(default, f))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interior_nuls_do_not_truncate() {
        assert_eq!(c_string("a\0b").to_str().unwrap(), "a\u{FFFD}b");
    }
}
