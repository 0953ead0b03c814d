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

/// Python's `repr` of a `str`: single quotes unless the text holds one and no double quote,
/// backslash escapes for the quote, backslashes and control characters.
pub(crate) fn py_str(s: &str) -> String {
    let q = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(q);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == q => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push(q);
    out
}

/// Python's `repr` of an optional `str`: `None` or the quoted text.
pub(crate) fn py_opt_str(s: Option<&str>) -> String {
    s.map_or_else(|| "None".into(), py_str)
}

/// Python's `repr` of an optional number: `None` or the number.
pub(crate) fn py_opt<T: std::fmt::Display>(v: Option<T>) -> String {
    v.map_or_else(|| "None".into(), |v| v.to_string())
}

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
