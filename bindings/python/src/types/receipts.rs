//! Proof of forgetting: the signed `Receipt`, the data subject's `Opening`, and the
//! `PurgeReport` a purge returns with both.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use oubli::audit::hex;
use oubli::audit::{Coverage, Opening, SignedReceipt};

use crate::convert::{Utf8, text};
use crate::errors::audit_error;

use super::json_to_py;

/// A signed purge receipt: canonical JSON naming what was erased by salted commitments only.
/// Anyone holding the store's public key can verify it offline.
#[pyclass(frozen, name = "Receipt", module = "oubli_db")]
pub struct PyReceipt {
    pub receipt: SignedReceipt,
    pub document: Vec<u8>,
}

impl PyReceipt {
    /// Wraps a signed receipt.
    pub fn new(receipt: SignedReceipt) -> PyResult<Self> {
        let document = receipt.to_document().map_err(audit_error)?;
        Ok(PyReceipt { receipt, document })
    }
}

/// Reads a document given as `bytes` or `str`.
fn document_bytes(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<u8>> {
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(b.as_bytes().to_vec());
    }
    if obj.is_instance_of::<pyo3::types::PyString>() {
        return Ok(text(obj, what)?.into_bytes());
    }
    Err(PyTypeError::new_err(format!("{what} must be bytes or str")))
}

/// Verifies a receipt document's canonical form and signature (under `public_key` when given,
/// which must then be the issuing store's key). Raises `VerificationError` on any changed byte.
pub fn verify_receipt_document(
    document: &Bound<'_, PyAny>,
    public_key: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyReceipt> {
    let doc = document_bytes(document, "document")?;
    let key = crate::convert::bytes32(public_key, "public_key")?;
    let r = document
        .py()
        .detach(|| SignedReceipt::verify_document(&doc, key.as_ref()))
        .map_err(audit_error)?;
    Ok(PyReceipt {
        receipt: r,
        document: doc,
    })
}

#[pymethods]
impl PyReceipt {
    /// Parses and verifies a receipt document (see `oubli.verify_receipt`).
    #[staticmethod]
    #[pyo3(signature = (document, public_key = None))]
    fn from_document(
        document: &Bound<'_, PyAny>,
        public_key: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        verify_receipt_document(document, public_key)
    }

    /// The canonical JSON document (what a privacy officer verifies), as bytes.
    #[getter]
    fn document<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.document)
    }
    /// The purge's id (its event's sequence number).
    #[getter]
    fn purge_id(&self) -> u64 {
        self.receipt.body.purge_id
    }
    /// The issuing store's ed25519 public key.
    #[getter]
    fn public_key<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.receipt.body.store_public_key)
    }
    /// Namespace of the erased rows (`"*"` when several).
    #[getter]
    fn namespace(&self) -> String {
        self.receipt.body.namespace.clone()
    }
    /// Ids of the erased rows.
    #[getter]
    fn erased(&self) -> Vec<u64> {
        self.receipt.body.erased.iter().map(|r| r.row).collect()
    }
    /// Sequence number of the scrub after which no erased byte remained, if scrubbed.
    #[getter]
    fn completion_seq(&self) -> Option<u64> {
        self.receipt.body.erasure.completion_seq
    }
    /// Whether the residual audit after the purge found nothing.
    #[getter]
    fn audit_clean(&self) -> bool {
        self.receipt.body.residual_audit.clean
    }
    /// When the receipt was issued (ms since the Unix epoch).
    #[getter]
    fn issued_at(&self) -> i64 {
        self.receipt.body.issued_at
    }
    /// The signature, hex.
    #[getter]
    fn signature(&self) -> String {
        hex::encode(&self.receipt.signature)
    }

    /// Verifies the document again, under `public_key` when given. Returns `True` or raises
    /// `VerificationError`.
    #[pyo3(signature = (public_key = None))]
    fn verify(&self, py: Python<'_>, public_key: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
        let key = crate::convert::bytes32(public_key, "public_key")?;
        let doc = self.document.clone();
        py.detach(|| SignedReceipt::verify_document(&doc, key.as_ref()))
            .map_err(audit_error)?;
        Ok(true)
    }

    /// Checks that `opening` opens this receipt (same purge, committed digest, selector, rows).
    /// Returns `True` or raises `VerificationError`.
    fn check_opening(&self, opening: &PyOpening) -> PyResult<bool> {
        self.receipt
            .check_opening(&opening.opening)
            .map_err(audit_error)?;
        Ok(true)
    }

    /// Whether this receipt covers `content` (a full erased text, or words all from one erased
    /// row), given the data subject's opening. Returns the covering row id or raises
    /// `VerificationError`.
    fn covers(&self, opening: &PyOpening, content: Utf8) -> PyResult<u64> {
        match self
            .receipt
            .covers(&opening.opening, &content.0)
            .map_err(audit_error)?
        {
            Coverage::FullText(r) | Coverage::Fragments(r) => Ok(r),
        }
    }

    /// The receipt as a dict (parsed from the document).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.receipt)
    }

    fn __repr__(&self) -> String {
        format!(
            "Receipt(purge_id={}, erased={:?})",
            self.receipt.body.purge_id,
            self.erased()
        )
    }
}

/// The data subject's opening of a receipt: the selector and the salts of the erased rows'
/// commitments. The store keeps no copy.
#[pyclass(frozen, name = "Opening", module = "oubli_db")]
pub struct PyOpening {
    pub opening: Opening,
}

#[pymethods]
impl PyOpening {
    /// Parses an opening document (canonical JSON).
    #[staticmethod]
    fn from_document(document: &Bound<'_, PyAny>) -> PyResult<Self> {
        let doc = document_bytes(document, "document")?;
        Ok(PyOpening {
            opening: Opening::parse(&doc).map_err(audit_error)?,
        })
    }
    /// The canonical JSON document, as bytes.
    #[getter]
    fn document<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        Ok(PyBytes::new(
            py,
            &self.opening.to_document().map_err(audit_error)?,
        ))
    }
    /// The purge it opens.
    #[getter]
    fn purge_id(&self) -> u64 {
        self.opening.purge_id
    }
    /// The selector as given to the purge.
    #[getter]
    fn selector(&self) -> String {
        self.opening.selector.clone()
    }
    /// Ids of the rows it opens.
    #[getter]
    fn rows(&self) -> Vec<u64> {
        self.opening.rows.iter().map(|r| r.row).collect()
    }

    fn __repr__(&self) -> String {
        format!(
            "Opening(purge_id={}, rows={:?})",
            self.opening.purge_id,
            self.rows()
        )
    }
}

/// What a purge did: rows erased, the residual audit, the signed receipt and the opening.
#[pyclass(frozen, name = "PurgeReport", module = "oubli_db")]
pub struct PyPurgeReport {
    /// Sequence number of the purge event (the purge id).
    #[pyo3(get)]
    pub seq: u64,
    /// Rows the target matched directly.
    #[pyo3(get)]
    pub targeted: Vec<u64>,
    /// Every row erased, in id order.
    #[pyo3(get)]
    pub erased: Vec<u64>,
    /// Sequence number of the scrub event (erasure completion), if not deferred.
    #[pyo3(get)]
    pub completion_seq: Option<u64>,
    /// The signed receipt.
    #[pyo3(get)]
    pub receipt: Py<PyReceipt>,
    /// The opening, for the data subject.
    #[pyo3(get)]
    pub opening: Py<PyOpening>,
    cascade: Vec<oubli::audit::CascadeEntry>,
    audit: oubli::ResidualAudit,
}

impl PyPurgeReport {
    /// Converts an engine report.
    pub fn new(py: Python<'_>, r: oubli::PurgeReport) -> PyResult<Self> {
        Ok(PyPurgeReport {
            seq: r.seq,
            targeted: r.targeted,
            erased: r.erased,
            completion_seq: r.completion_seq,
            receipt: Py::new(py, PyReceipt::new(r.receipt)?)?,
            opening: Py::new(py, PyOpening { opening: r.opening })?,
            cascade: r.cascade,
            audit: r.audit,
        })
    }
}

#[pymethods]
impl PyPurgeReport {
    /// Rows erased through the closure: dicts with `row`, `via` and `from`.
    #[getter]
    fn cascade<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.cascade)
    }
    /// The residual audit: `summary` (as signed into the receipt) and `findings`.
    #[getter]
    fn audit<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.audit)
    }

    fn __repr__(&self) -> String {
        format!(
            "PurgeReport(seq={}, erased={:?}, completion_seq={})",
            self.seq,
            self.erased,
            super::py_opt(self.completion_seq)
        )
    }
}
