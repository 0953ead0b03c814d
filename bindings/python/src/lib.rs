//! Python bindings for oubli, an embedded memory database for AI agents that can forget,
//! provably.
//!
//! This crate builds the extension module `oubli_db._oubli`; the Python package `oubli_db`
//! (`python/oubli_db/`) re-exports it with the exception hierarchy, the ForgetEval adapter and the
//! LangGraph store. Build and install it with `pip install ./bindings/python` (maturin).
//! Every store call releases the GIL; the engine's own locks make one `Store` safe to share
//! between threads.

mod convert;
mod embed;
mod errors;
mod planner;
mod store;
mod types;

use pyo3::prelude::*;

/// Verifies a receipt document (bytes or str): canonical form and ed25519 signature, and, when
/// `public_key` (32 bytes) is given, that it was issued by that key. Returns the `Receipt` or
/// raises `VerificationError`.
#[pyfunction]
#[pyo3(signature = (document, public_key = None))]
fn verify_receipt(
    document: &Bound<'_, PyAny>,
    public_key: Option<&Bound<'_, PyAny>>,
) -> PyResult<types::PyReceipt> {
    types::verify_receipt_document(document, public_key)
}

/// The string form of a tuple namespace: `("user", "ana")` is `"user:ana"`. Labels are joined
/// by `:`; a `:` or `\` inside a label is escaped with a backslash. Every call that takes a
/// `namespace=` accepts the tuple directly; `split_namespace` inverts this.
#[pyfunction]
fn join_namespace(labels: &Bound<'_, PyAny>) -> PyResult<String> {
    if labels.is_instance_of::<pyo3::types::PyString>() {
        return Err(pyo3::exceptions::PyTypeError::new_err(
            "labels must be a tuple of str, not str",
        ));
    }
    convert::namespace(labels)
}

/// The labels of a namespace string: `"user:ana"` gives `("user", "ana")`; the inverse of
/// `join_namespace`.
#[pyfunction]
fn split_namespace<'py>(
    py: Python<'py>,
    namespace: convert::Utf8,
) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
    pyo3::types::PyTuple::new(py, convert::split_namespace(&namespace.0))
}

/// The extension module.
#[pymodule]
fn _oubli(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("ENGINE_VERSION", oubli::ENGINE_VERSION)?;
    m.add("DEFAULT_NAMESPACE", oubli::DEFAULT_NAMESPACE)?;
    m.add("MAX_TEXT_BYTES", oubli::MAX_TEXT_BYTES)?;
    m.add_class::<store::PyStore>()?;
    m.add_class::<store::PySnapshot>()?;
    m.add_class::<types::PyTarget>()?;
    m.add_class::<types::PyRow>()?;
    m.add_class::<types::PyHit>()?;
    m.add_class::<types::PySuperseded>()?;
    m.add_class::<types::PyPurgeReport>()?;
    m.add_class::<types::PyReceipt>()?;
    m.add_class::<types::PyOpening>()?;
    m.add_class::<types::PyEvent>()?;
    m.add_class::<types::PyHistory>()?;
    m.add_class::<types::PyLogReport>()?;
    m.add_class::<types::PyPlan>()?;
    m.add_class::<types::PySweepReport>()?;
    m.add_class::<embed::PyHashEmbedder>()?;
    m.add_class::<embed::PyMiniLm>()?;
    m.add_function(wrap_pyfunction!(verify_receipt, m)?)?;
    m.add_function(wrap_pyfunction!(join_namespace, m)?)?;
    m.add_function(wrap_pyfunction!(split_namespace, m)?)?;
    Ok(())
}
