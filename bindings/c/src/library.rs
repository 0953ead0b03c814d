//! Library-wide entry points: the last error, status names, the version, and freeing strings
//! returned through `char **` out-parameters.

use std::ffi::{CStr, CString, c_char};

use crate::errors::{guard_value, last_error};

/// The message of the last failed call on this thread, or NULL if the last call succeeded.
/// Valid until the next call into the library on this thread.
#[unsafe(no_mangle)]
pub extern "C" fn oubli_last_error() -> *const c_char {
    guard_value(std::ptr::null(), last_error)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::errors::OubliStatus;

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
}
