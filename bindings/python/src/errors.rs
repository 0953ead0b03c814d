//! Maps engine and verification errors to the exception hierarchy of `oubli.errors`.
//!
//! The classes are defined in Python (`python/oubli_db/errors.py`) so that they can inherit from
//! both `OubliError` and a builtin (`ValueError`, `LookupError`, `OSError`). Every raised
//! exception carries a `code` attribute naming the exact engine error (`"unknown_key"`,
//! `"duplicate_key"`, ...), and some carry the ids or names involved.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyString;

use oubli::Error;
use oubli::audit::AuditError;

/// Builds an instance of `oubli.errors.<class>` with `message`, `code` and extra attributes.
pub fn raise(
    py: Python<'_>,
    class: &str,
    code: &str,
    message: &str,
    attrs: &[(&str, Py<PyAny>)],
) -> PyErr {
    let build = || -> PyResult<PyErr> {
        let module = py.import("oubli_db.errors")?;
        let exc = module.getattr(class)?.call1((message,))?;
        exc.setattr("code", code)?;
        for (k, v) in attrs {
            exc.setattr(*k, v.bind(py))?;
        }
        Ok(PyErr::from_value(exc))
    };
    match build() {
        Ok(e) => e,
        // Only reachable if the package is broken (errors module missing).
        Err(e) => {
            let fallback = PyRuntimeError::new_err(format!("{code}: {message}"));
            fallback.set_cause(py, Some(e));
            fallback
        }
    }
}

fn int(py: Python<'_>, v: u64) -> Py<PyAny> {
    v.into_pyobject(py).expect("int").into_any().unbind()
}

fn string(py: Python<'_>, s: &str) -> Py<PyAny> {
    PyString::new(py, s).into_any().unbind()
}

/// Converts an engine error to the matching Python exception.
pub fn to_py(e: Error) -> PyErr {
    Python::attach(|py| engine_error(py, &e))
}

/// Converts an engine error to the matching Python exception (GIL held).
pub fn engine_error(py: Python<'_>, e: &Error) -> PyErr {
    let msg = e.to_string();
    let (class, code, attrs): (&str, &str, Vec<(&str, Py<PyAny>)>) = match e {
        Error::EmptyText => ("InvalidInputError", "empty_text", vec![]),
        Error::TextTooLarge { len, max } => (
            "InvalidInputError",
            "text_too_large",
            vec![
                ("length", int(py, *len as u64)),
                ("limit", int(py, *max as u64)),
            ],
        ),
        Error::InvalidField { what, .. } => (
            "InvalidInputError",
            "invalid_field",
            vec![("field", string(py, what))],
        ),
        Error::DimensionMismatch { expected, got } => (
            "InvalidInputError",
            "dimension_mismatch",
            vec![
                ("expected", int(py, *expected as u64)),
                ("got", int(py, *got as u64)),
            ],
        ),
        Error::InvalidVector(_) => ("InvalidInputError", "invalid_vector", vec![]),
        Error::InvalidArgument(_) => ("InvalidInputError", "invalid_argument", vec![]),
        Error::UnknownRow(id) => ("NotFoundError", "unknown_row", vec![("row", int(py, *id))]),
        Error::UnknownKey { namespace, key } => (
            "NotFoundError",
            "unknown_key",
            vec![
                ("namespace", string(py, namespace)),
                ("key", string(py, key)),
            ],
        ),
        Error::NoMatch(_) => ("NoMatchError", "no_match", vec![]),
        Error::NotFound(_) => ("NotFoundError", "store_not_found", vec![]),
        Error::Purged(id) => ("PurgedError", "purged", vec![("row", int(py, *id))]),
        Error::InvalidTransition { id, .. } => (
            "ConflictError",
            "invalid_transition",
            vec![("row", int(py, *id))],
        ),
        Error::DuplicateKey {
            namespace,
            key,
            holder,
        } => (
            "ConflictError",
            "duplicate_key",
            vec![
                ("namespace", string(py, namespace)),
                ("key", string(py, key)),
                ("row", int(py, *holder)),
            ],
        ),
        Error::AlreadyExists(_) => ("ConflictError", "already_exists", vec![]),
        Error::ReadOnly => ("ReadOnlyError", "read_only", vec![]),
        Error::Closed => ("StoreClosedError", "closed", vec![]),
        Error::Locked(_) => ("LockedError", "locked", vec![]),
        Error::Corrupt(_) => ("IntegrityError", "corrupt", vec![]),
        Error::UnsupportedVersion { .. } => ("IntegrityError", "unsupported_version", vec![]),
        Error::EmbedderMismatch { .. } => ("IntegrityError", "embedder_mismatch", vec![]),
        Error::KeyMismatch => ("IntegrityError", "key_mismatch", vec![]),
        Error::LogTampered { seq, .. } => (
            "IntegrityError",
            "log_tampered",
            vec![("seq", int(py, *seq))],
        ),
        Error::Storage(_) => ("StorageError", "storage", vec![]),
        Error::TextIndex(_) => ("StorageError", "text_index", vec![]),
        Error::VectorIndex(_) => ("StorageError", "vector_index", vec![]),
        Error::Embedder(_) => ("EmbedderError", "embedder", vec![]),
        Error::Io(_) => ("StorageError", "io", vec![]),
        _ => ("OubliError", "other", vec![]),
    };
    raise(py, class, code, &msg, &attrs)
}

/// Converts a receipt or opening verification failure to `VerificationError`.
pub fn audit_error(e: AuditError) -> PyErr {
    let code = match &e {
        AuditError::Corrupt(_) => "corrupt",
        AuditError::LogTampered { .. } => "log_tampered",
        AuditError::NotCanonical(_) => "not_canonical",
        AuditError::BadSignature(_) => "bad_signature",
        AuditError::Mismatch(_) => "mismatch",
        AuditError::Store(_) => "store",
        AuditError::Io(_) => "io",
        _ => "other",
    };
    Python::attach(|py| raise(py, "VerificationError", code, &e.to_string(), &[]))
}

/// `InvalidInputError` with code `invalid_argument`.
pub fn invalid(message: impl AsRef<str>) -> PyErr {
    Python::attach(|py| {
        raise(
            py,
            "InvalidInputError",
            "invalid_argument",
            message.as_ref(),
            &[],
        )
    })
}

/// `InvalidInputError` with code `invalid_utf8`, chained to the codec's error.
pub fn invalid_utf8(py: Python<'_>, what: &str, cause: PyErr) -> PyErr {
    let e = raise(
        py,
        "InvalidInputError",
        "invalid_utf8",
        &format!("{what} is not valid UTF-8 (it holds a lone surrogate): {cause}"),
        &[],
    );
    e.set_cause(py, Some(cause));
    e
}
