//! Rows as the store hands them back: `Row`, the recalled `Hit` and what a supersede did.

use pyo3::prelude::*;
use pyo3::types::PyDict;

use oubli::{Hit, Metadata, Row};

use crate::convert::metadata_to_py;

use super::{depth_f64, py_opt_str, py_str};

/// One memory row, as the store holds it (with its depth as of the call's point in time).
#[pyclass(frozen, name = "Row", module = "oubli_db")]
#[derive(Clone)]
pub struct PyRow {
    /// Row id, never reused.
    #[pyo3(get)]
    pub id: u64,
    /// Namespace (user, tenant or agent).
    #[pyo3(get)]
    pub namespace: String,
    /// Natural key, unique among the namespace's live rows.
    #[pyo3(get)]
    pub key: Option<String>,
    /// The text; `None` once purged.
    #[pyo3(get)]
    pub text: Option<String>,
    /// `"source"`, `"derived"` or `"note"`.
    #[pyo3(get)]
    pub kind: &'static str,
    /// Typed metadata.
    pub metadata: Metadata,
    /// When the row was inscribed (ms since the Unix epoch).
    #[pyo3(get)]
    pub created_at: i64,
    /// When the row last came to the surface (ms).
    #[pyo3(get)]
    pub surfaced_at: i64,
    /// When the row stops being valid (ms), if ever.
    #[pyo3(get)]
    pub valid_until: Option<i64>,
    /// Depth: `inf` pinned, `1.0` surface, sinking in `(0, 1)`, `0.0` submerged, `nan` void.
    #[pyo3(get)]
    pub depth: f64,
    /// `"pinned"`, `"surface"`, `"sinking"`, `"submerged"` or `"void"`.
    #[pyo3(get)]
    pub state: &'static str,
    /// Rows this row was derived from.
    #[pyo3(get)]
    pub derived_from: Vec<u64>,
    /// The row that replaced this one, if superseded.
    #[pyo3(get)]
    pub superseded_by: Option<u64>,
    /// The row this one replaced.
    #[pyo3(get)]
    pub supersedes: Option<u64>,
    /// Log sequence number of the event that created the row.
    #[pyo3(get)]
    pub created_seq: u64,
}

impl From<Row> for PyRow {
    fn from(r: Row) -> Self {
        PyRow {
            id: r.id,
            namespace: r.namespace,
            key: r.key,
            text: r.text,
            kind: r.kind.name(),
            metadata: r.metadata,
            created_at: r.created_at,
            surfaced_at: r.surfaced_at,
            valid_until: r.valid_until,
            depth: depth_f64(r.depth),
            state: r.depth.state().name(),
            derived_from: r.derived_from,
            superseded_by: r.superseded_by,
            supersedes: r.supersedes,
            created_seq: r.created_seq,
        }
    }
}

#[pymethods]
impl PyRow {
    /// Metadata: `str`, `int`, `float`, `bool` or `list` values (a fresh dict on every
    /// access).
    #[getter]
    fn metadata<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        metadata_to_py(py, &self.metadata)
    }

    /// The namespace as a tuple of labels (`"user:ana"` gives `("user", "ana")`; see
    /// `oubli.split_namespace`).
    #[getter]
    fn namespace_tuple<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
        pyo3::types::PyTuple::new(py, crate::convert::split_namespace(&self.namespace))
    }

    /// The row as a plain dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("id", self.id)?;
        d.set_item("namespace", &self.namespace)?;
        d.set_item("key", &self.key)?;
        d.set_item("text", &self.text)?;
        d.set_item("kind", self.kind)?;
        d.set_item("metadata", metadata_to_py(py, &self.metadata)?)?;
        d.set_item("created_at", self.created_at)?;
        d.set_item("surfaced_at", self.surfaced_at)?;
        d.set_item("valid_until", self.valid_until)?;
        d.set_item("depth", self.depth)?;
        d.set_item("state", self.state)?;
        d.set_item("derived_from", self.derived_from.clone())?;
        d.set_item("superseded_by", self.superseded_by)?;
        d.set_item("supersedes", self.supersedes)?;
        d.set_item("created_seq", self.created_seq)?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        format!(
            "Row(id={}, namespace={}, key={}, state={}, text={})",
            self.id,
            py_str(&self.namespace),
            py_opt_str(self.key.as_deref()),
            py_str(self.state),
            py_opt_str(self.text.as_deref())
        )
    }
}

/// One recalled row with its fused score and how the score came about.
#[pyclass(frozen, name = "Hit", module = "oubli_db")]
pub struct PyHit {
    /// The row.
    #[pyo3(get)]
    pub row: Py<PyRow>,
    /// Fused score (reciprocal rank fusion weighted by depth).
    #[pyo3(get)]
    pub score: f64,
    explain: oubli::Explain,
}

impl PyHit {
    /// Converts an engine hit.
    pub fn new(py: Python<'_>, h: Hit) -> PyResult<Self> {
        Ok(PyHit {
            row: Py::new(py, PyRow::from(h.row))?,
            score: h.score,
            explain: h.explain,
        })
    }
}

#[pymethods]
impl PyHit {
    /// The row's text.
    #[getter]
    fn text(&self) -> Option<String> {
        self.row.get().text.clone()
    }
    /// The row's id.
    #[getter]
    fn id(&self) -> u64 {
        self.row.get().id
    }
    /// The row's natural key.
    #[getter]
    fn key(&self) -> Option<String> {
        self.row.get().key.clone()
    }
    /// The row's namespace.
    #[getter]
    fn namespace(&self) -> String {
        self.row.get().namespace.clone()
    }
    /// The row's metadata.
    #[getter]
    fn metadata<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        metadata_to_py(py, &self.row.get().metadata)
    }
    /// The row's depth.
    #[getter]
    fn depth(&self) -> f64 {
        self.row.get().depth
    }
    /// The row's depth state.
    #[getter]
    fn state(&self) -> &'static str {
        self.row.get().state
    }
    /// Ranks and raw scores per leg (`bm25_rank`, `bm25_score`, `vector_rank`,
    /// `vector_score`), the calibrated leg scores `lexical` and `semantic` in [0, 1], the
    /// lexical `coverage` (share of the query's IDF mass the row holds) in [0, 1], the fused
    /// `relevance`, and `depth_weight` (score = relevance x depth_weight).
    #[getter]
    fn explain<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let e = &self.explain;
        let d = PyDict::new(py);
        d.set_item("bm25_rank", e.bm25_rank)?;
        d.set_item("bm25_score", e.bm25_score)?;
        d.set_item("vector_rank", e.vector_rank)?;
        d.set_item("vector_score", e.vector_score)?;
        d.set_item("lexical", e.lexical)?;
        d.set_item("coverage", e.coverage)?;
        d.set_item("semantic", e.semantic)?;
        d.set_item("relevance", e.relevance)?;
        d.set_item("depth_weight", e.depth_weight)?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        let r = self.row.get();
        format!(
            "Hit(id={}, score={:.5}, text={})",
            r.id,
            self.score,
            py_opt_str(r.text.as_deref())
        )
    }
}

/// What a supersede did.
#[pyclass(frozen, get_all, name = "Superseded", module = "oubli_db")]
pub struct PySuperseded {
    /// Rows submerged by the supersede.
    pub replaced: Vec<u64>,
    /// The new row.
    pub new_id: u64,
    /// Sequence number of the supersede event.
    pub seq: u64,
}

#[pymethods]
impl PySuperseded {
    fn __repr__(&self) -> String {
        format!(
            "Superseded(replaced={:?}, new_id={}, seq={})",
            self.replaced, self.new_id, self.seq
        )
    }
}
