//! Status codes, the per-thread last-error message, and the panic guard every entry point runs
//! in: a [`Failure`] becomes an [`OubliStatus`] plus a message for `oubli_last_error`.

use std::cell::RefCell;
use std::ffi::{CString, c_char};
use std::panic::{AssertUnwindSafe, catch_unwind};

use oubli::Error;
use oubli::audit::AuditError;

use crate::convert::c_string;

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

thread_local! {
    static LAST_ERROR: RefCell<Option<CString>> = const { RefCell::new(None) };
}

/// A failed call: its status and message.
#[derive(Debug)]
pub(crate) struct Failure {
    status: OubliStatus,
    message: String,
}

impl Failure {
    pub(crate) fn new(status: OubliStatus, message: impl Into<String>) -> Failure {
        Failure {
            status,
            message: message.into(),
        }
    }
    pub(crate) fn null(what: &str) -> Failure {
        Failure::new(OubliStatus::NullPointer, format!("{what} is NULL"))
    }
    pub(crate) fn invalid(message: impl Into<String>) -> Failure {
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

/// The calling thread's last error message, or NULL after a success.
pub(crate) fn last_error() -> *const c_char {
    LAST_ERROR.with(|e| e.borrow().as_ref().map_or(std::ptr::null(), |s| s.as_ptr()))
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
pub(crate) fn guard(f: impl FnOnce() -> Result<(), Failure>) -> OubliStatus {
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
pub(crate) fn guard_value<T>(default: T, f: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or(default)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::library::oubli_last_error;
    use std::ffi::CStr;

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
}
