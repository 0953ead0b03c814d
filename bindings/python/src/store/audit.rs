//! `Store` methods for accountability: a row's history, the event log and its verification,
//! and the stored purge receipts.

use pyo3::prelude::*;

use oubli::audit::{SignedReceipt, hex};

use crate::convert::{self, uint};
use crate::errors::audit_error;
use crate::errors::to_py;
use crate::types::{PyEvent, PyHistory, PyLogReport, PyOpening, PyReceipt};

use super::{PyStore, call};

/// Hands `opening` to the Python callable `deliver`; if it raises, the exception is kept in
/// `raised` (re-raised by the caller) and the engine gets an error, so the opening stays
/// pending in the store.
pub(crate) fn deliver_to(
    deliver: &Py<PyAny>,
    opening: &oubli::audit::Opening,
    raised: &mut Option<PyErr>,
) -> oubli::Result<()> {
    Python::attach(|py| -> PyResult<()> {
        let o = Py::new(
            py,
            PyOpening {
                opening: opening.clone(),
            },
        )?;
        deliver.call1(py, (o,))?;
        Ok(())
    })
    .map_err(|e| {
        let what = e.to_string();
        *raised = Some(e);
        oubli::Error::InvalidArgument(format!("deliver raised: {what}"))
    })
}

#[pymethods]
impl PyStore {
    /// The supersede chain `id` belongs to and every event that touched it.
    fn history(&self, py: Python<'_>, id: &Bound<'_, PyAny>) -> PyResult<PyHistory> {
        let id = uint(id, "id")?;
        let h = call(py, self.store()?, |s| s.history(id))?;
        PyHistory::new(py, h)
    }

    /// Events with `start <= seq <= end` (`end` defaults to the head), in order.
    #[pyo3(signature = (start = 1, end = None))]
    fn events(&self, py: Python<'_>, start: u64, end: Option<u64>) -> PyResult<Vec<PyEvent>> {
        let evs = call(py, self.store()?, |s| {
            let end = match end {
                Some(e) => e,
                None => s.head()?.0,
            };
            s.events(start, end)
        })?;
        Ok(evs.into_iter().map(PyEvent::from).collect())
    }

    /// The head of the log: `(seq, hash hex)`.
    fn head(&self, py: Python<'_>) -> PyResult<(u64, String)> {
        let (seq, h) = call(py, self.store()?, |s| s.head())?;
        Ok((seq, hex::encode(&h)))
    }

    /// Verifies the whole log (hash chain, signed checkpoints, head) under `public_key` (the
    /// store's own when None). Raises `IntegrityError` (code `log_tampered`) on any changed byte.
    #[pyo3(signature = (public_key = None))]
    fn verify_log(
        &self,
        py: Python<'_>,
        public_key: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyLogReport> {
        let key = convert::bytes32(public_key, "public_key")?;
        let r = call(py, self.store()?, |s| s.verify_log(key))?;
        Ok(PyLogReport {
            events: r.events,
            checkpoints: r.checkpoints,
            head_seq: r.head_seq,
            head_hash: hex::encode(&r.head_hash),
        })
    }

    /// Every receipt stored in the file (each verified), by purge id.
    fn receipts(&self, py: Python<'_>) -> PyResult<Vec<PyReceipt>> {
        let rs = call(py, self.store()?, |s| s.receipts())?;
        rs.into_iter().map(|(_, r)| PyReceipt::new(r)).collect()
    }

    /// Purge ids whose opening is still held, sealed, in the file because the caller never
    /// received it (the process died between the erasure and the delivery, or `deliver`
    /// raised). Fetch each with `take_opening`.
    fn pending_openings(&self, py: Python<'_>) -> PyResult<Vec<u64>> {
        call(py, self.store()?, |s| s.pending_openings())
    }

    /// Returns the pending opening of purge `purge_id` **exactly once**: the store deletes its
    /// sealed copy before returning (its bytes leave the file at the next scrub), and a second
    /// call raises `InvalidArgumentError`. `deliver`, if given, is called with the `Opening`
    /// first (write it where the data subject gets it); if it raises, the opening stays pending
    /// and the exception propagates. Without `deliver`, the returned object is the only copy:
    /// if the process dies before the caller stores it, the opening is lost. Needs a writable
    /// store.
    #[pyo3(signature = (purge_id, deliver = None))]
    fn take_opening(
        &self,
        py: Python<'_>,
        purge_id: u64,
        deliver: Option<Py<PyAny>>,
    ) -> PyResult<PyOpening> {
        let store = self.store()?;
        let mut raised = None;
        let taken = py.detach(|| {
            store.take_opening(purge_id, |o| match &deliver {
                Some(d) => deliver_to(d, o, &mut raised),
                None => Ok(()),
            })
        });
        if let Some(e) = raised {
            return Err(e);
        }
        Ok(PyOpening {
            opening: taken.map_err(to_py)?,
        })
    }

    /// The stored receipt of purge `purge_id`, verified under the store's key.
    fn receipt(&self, py: Python<'_>, purge_id: u64) -> PyResult<PyReceipt> {
        let (doc, key) = call(py, self.store()?, |s| {
            Ok((s.receipt_document(purge_id)?, s.public_key()?))
        })?;
        let r = py
            .detach(|| SignedReceipt::verify_document(&doc, Some(&key)))
            .map_err(audit_error)?;
        Ok(PyReceipt {
            receipt: r,
            document: doc,
        })
    }
}
