//! What the log and the maintenance calls report: `Event`, a row's `History`, `LogReport`,
//! the dry-run `Plan` and `SweepReport`.

use pyo3::IntoPyObjectExt;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use oubli::audit::hex;
use oubli::{Depth, Event};

use super::rows::PyRow;
use super::{depth_f64, json_to_py};

/// One event of the log.
#[pyclass(frozen, name = "Event", module = "oubli_db")]
pub struct PyEvent {
    /// Position in the log, from 1.
    #[pyo3(get)]
    pub seq: u64,
    /// Time of the write (ms since the Unix epoch).
    #[pyo3(get)]
    pub time: i64,
    /// Namespace the event acted in.
    #[pyo3(get)]
    pub namespace: String,
    /// `"inscribe"`, `"supersede"`, `"release"`, `"purge"`, `"scrub"`, ...
    #[pyo3(get)]
    pub kind: &'static str,
    event: Event,
}

impl From<Event> for PyEvent {
    fn from(e: Event) -> Self {
        PyEvent {
            seq: e.seq,
            time: e.time,
            namespace: e.namespace.clone(),
            kind: e.kind.name(),
            event: e,
        }
    }
}

fn depth_obj(py: Python<'_>, d: Option<Depth>) -> PyResult<Py<PyAny>> {
    match d {
        None => Ok(py.None()),
        Some(d) => depth_f64(d).into_py_any(py),
    }
}

#[pymethods]
impl PyEvent {
    /// Depth changes: dicts with `row`, `before` (float or None), `after`, `before_state`,
    /// `after_state`.
    #[getter]
    fn transitions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        for t in &self.event.transitions {
            let d = PyDict::new(py);
            d.set_item("row", t.row)?;
            d.set_item("before", depth_obj(py, t.before)?)?;
            d.set_item("before_state", t.before.map(|b| b.state().name()))?;
            d.set_item("after", depth_f64(t.after))?;
            d.set_item("after_state", t.after.state().name())?;
            out.append(d)?;
        }
        Ok(out)
    }
    /// Salted commitments to the content involved (hex; never plaintext).
    #[getter]
    fn commitments(&self) -> Vec<String> {
        self.event
            .commitments
            .iter()
            .map(|c| hex::encode(c))
            .collect()
    }
    /// Hash of the previous event (hex).
    #[getter]
    fn prev_hash(&self) -> String {
        hex::encode(&self.event.prev_hash)
    }
    /// This event's hash (hex).
    #[getter]
    fn hash(&self) -> String {
        hex::encode(&self.event.hash())
    }

    fn __repr__(&self) -> String {
        format!(
            "Event(seq={}, kind={}, namespace={}, rows={:?})",
            self.seq,
            super::py_str(self.kind),
            super::py_str(&self.namespace),
            self.event
                .transitions
                .iter()
                .map(|t| t.row)
                .collect::<Vec<_>>()
        )
    }
}

/// A row's lineage: its supersede chain (oldest first) and every event that touched it.
#[pyclass(frozen, get_all, name = "History", module = "oubli_db")]
pub struct PyHistory {
    /// The chain, oldest first.
    pub chain: Vec<Py<PyRow>>,
    /// Events touching the chain, in log order.
    pub events: Vec<Py<PyEvent>>,
}

impl PyHistory {
    /// Converts an engine history.
    pub fn new(py: Python<'_>, h: oubli::History) -> PyResult<Self> {
        Ok(PyHistory {
            chain: h
                .chain
                .into_iter()
                .map(|r| Py::new(py, PyRow::from(r)))
                .collect::<PyResult<_>>()?,
            events: h
                .events
                .into_iter()
                .map(|e| Py::new(py, PyEvent::from(e)))
                .collect::<PyResult<_>>()?,
        })
    }
}

#[pymethods]
impl PyHistory {
    fn __repr__(&self) -> String {
        format!(
            "History(chain={}, events={})",
            self.chain.len(),
            self.events.len()
        )
    }
}

/// What `verify_log` checked.
#[pyclass(frozen, get_all, name = "LogReport", module = "oubli_db")]
pub struct PyLogReport {
    /// Events verified.
    pub events: u64,
    /// Signed checkpoints verified.
    pub checkpoints: u64,
    /// Sequence number of the head.
    pub head_seq: u64,
    /// Hash of the head event (hex).
    pub head_hash: String,
}

#[pymethods]
impl PyLogReport {
    fn __repr__(&self) -> String {
        format!(
            "LogReport(events={}, checkpoints={}, head_seq={})",
            self.events, self.checkpoints, self.head_seq
        )
    }
}

/// A dry run: the rows a call would act on and why.
#[pyclass(frozen, name = "Plan", module = "oubli_db")]
pub struct PyPlan {
    /// Every row the call would change (for a purge: the whole closure).
    #[pyo3(get)]
    pub rows: Vec<u64>,
    matches: Vec<oubli::TargetMatch>,
    rejected: Vec<oubli::Rejected>,
    planner: Option<oubli::planner::PlannerOutcome>,
    confidence: Option<oubli::Confidence>,
}

impl From<oubli::Plan> for PyPlan {
    fn from(p: oubli::Plan) -> Self {
        PyPlan {
            rows: p.rows,
            matches: p.matches,
            rejected: p.rejected,
            planner: p.planner,
            confidence: p.confidence,
        }
    }
}

#[pymethods]
impl PyPlan {
    /// The rows the target matched, best first: dicts with `id`, `coverage`, `bm25`,
    /// `matched`, `missing`, `clauses`, `reasons` and `confidence` (`"low"`, `"medium"` or
    /// `"high"`).
    #[getter]
    fn matches<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.matches)
    }

    /// Candidate rows the target did not match, nearest first: dicts with `id`, `coverage` and
    /// `reason` (what a no-match names as its candidates).
    #[getter]
    fn rejected<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.rejected)
    }

    /// What became of the planner's proposal: `None` without a planner, else a dict with
    /// `outcome` (`"accepted"` or `"rejected"`) and `detail` (the planner's reason, or why
    /// its plan was not used).
    #[getter]
    fn planner<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.planner)
    }

    /// The weakest grade among the matches (`"low"`, `"medium"` or `"high"`), `None` when the
    /// call matches nothing.
    #[getter]
    fn confidence(&self) -> Option<&'static str> {
        self.confidence.map(oubli::Confidence::name)
    }

    fn __repr__(&self) -> String {
        match self.confidence {
            Some(c) => format!("Plan(rows={:?}, confidence={:?})", self.rows, c.name()),
            None => format!("Plan(rows={:?})", self.rows),
        }
    }
}

/// What a sweep changed.
#[pyclass(frozen, get_all, name = "SweepReport", module = "oubli_db")]
pub struct PySweepReport {
    /// Rows whose depth sank.
    pub decayed: Vec<u64>,
    /// Rows submerged because their validity or time to live ended.
    pub expired: Vec<u64>,
}

#[pymethods]
impl PySweepReport {
    fn __repr__(&self) -> String {
        format!(
            "SweepReport(decayed={:?}, expired={:?})",
            self.decayed, self.expired
        )
    }
}
