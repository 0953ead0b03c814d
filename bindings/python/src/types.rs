//! The value types the store hands back: rows, hits, receipts and reports. All are immutable.
//!
//! By concept: `target` (what a mutating call acts on), `rows` (rows, hits, supersede
//! results), `receipts` (receipts, openings, purge reports) and `reports` (events, history,
//! log verification, plans, sweeps).

mod receipts;
mod reports;
mod rows;
mod target;

use pyo3::prelude::*;

use oubli::Depth;

pub use receipts::{PyOpening, PyPurgeReport, PyReceipt, verify_receipt_document};
pub use reports::{PyEvent, PyHistory, PyLogReport, PyPlan, PySweepReport};
pub use rows::{PyHit, PyRow, PySuperseded};
pub use target::PyTarget;

/// Depth as a float: `inf` pinned, `1.0` surface, `(0, 1)` sinking, `0.0` submerged, `nan` void.
fn depth_f64(d: Depth) -> f64 {
    d.as_f64()
}

/// A serializable value as plain Python objects (dicts, lists, ...), through JSON.
fn json_to_py<'py>(py: Python<'py>, v: &impl serde::Serialize) -> PyResult<Bound<'py, PyAny>> {
    let s = serde_json::to_string(v)
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
    py.import("json")?.call_method1("loads", (s,))
}
