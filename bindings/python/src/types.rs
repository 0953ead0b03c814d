//! The value types the store hands back: rows, hits, receipts and reports. All are immutable.

use std::collections::BTreeMap;

use pyo3::IntoPyObjectExt;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};

use oubli::audit::hex;
use oubli::audit::{Coverage, Opening, SignedReceipt};
use oubli::{Depth, Event, Hit, Row, Target};

use crate::convert::{Utf8, text};
use crate::errors::audit_error;

/// Depth as a float: `inf` pinned, `1.0` surface, `(0, 1)` sinking, `0.0` submerged, `nan` void.
fn depth_f64(d: Depth) -> f64 {
    d.as_f64()
}

fn json_to_py<'py>(py: Python<'py>, v: &impl serde::Serialize) -> PyResult<Bound<'py, PyAny>> {
    let s = serde_json::to_string(v)
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
    py.import("json")?.call_method1("loads", (s,))
}

/// What a mutating call acts on: one row by id, the live row holding a natural key, or the rows
/// a query describes. Mutating calls also take a plain `int` (id) or `str` (query).
#[pyclass(frozen, eq, name = "Target", module = "oubli")]
#[derive(Clone, PartialEq)]
pub struct PyTarget(pub Target);

#[pymethods]
impl PyTarget {
    /// Targets one row by id.
    #[staticmethod]
    fn by_id(id: u64) -> Self {
        PyTarget(Target::id(id))
    }

    /// Targets the live row holding `key` in `namespace`.
    #[staticmethod]
    #[pyo3(signature = (key, namespace = None))]
    fn by_key(key: Utf8, namespace: Option<Utf8>) -> Self {
        let ns = namespace.map_or_else(|| oubli::DEFAULT_NAMESPACE.to_owned(), |n| n.0);
        PyTarget(Target::key(ns, key.0))
    }

    /// Targets the rows `text` describes, optionally within one namespace.
    #[staticmethod]
    #[pyo3(signature = (text, namespace = None))]
    fn by_query(text: Utf8, namespace: Option<Utf8>) -> Self {
        PyTarget(match namespace {
            Some(ns) => Target::query_in(ns.0, text.0),
            None => Target::query(text.0),
        })
    }

    /// `"id"`, `"key"` or `"query"`.
    #[getter]
    fn kind(&self) -> &'static str {
        match self.0 {
            Target::Id(_) => "id",
            Target::Key { .. } => "key",
            Target::Query { .. } => "query",
        }
    }

    fn __repr__(&self) -> String {
        match &self.0 {
            Target::Id(id) => format!("Target.by_id({id})"),
            Target::Key { namespace, key } => {
                format!("Target.by_key({key:?}, namespace={namespace:?})")
            }
            Target::Query {
                namespace: Some(ns),
                text,
            } => format!("Target.by_query({text:?}, namespace={ns:?})"),
            Target::Query {
                namespace: None,
                text,
            } => format!("Target.by_query({text:?})"),
        }
    }
}

/// One memory row, as the store holds it (with its depth as of the call's point in time).
#[pyclass(frozen, name = "Row", module = "oubli")]
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
    /// String metadata.
    pub metadata: BTreeMap<String, String>,
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
    /// String metadata (a fresh dict on every access).
    #[getter]
    fn metadata(&self) -> BTreeMap<String, String> {
        self.metadata.clone()
    }

    /// The row as a plain dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("id", self.id)?;
        d.set_item("namespace", &self.namespace)?;
        d.set_item("key", &self.key)?;
        d.set_item("text", &self.text)?;
        d.set_item("kind", self.kind)?;
        d.set_item("metadata", self.metadata.clone())?;
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
            "Row(id={}, namespace={:?}, key={:?}, state={:?}, text={:?})",
            self.id, self.namespace, self.key, self.state, self.text
        )
    }
}

/// One recalled row with its fused score and how the score came about.
#[pyclass(frozen, name = "Hit", module = "oubli")]
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
    fn metadata(&self) -> BTreeMap<String, String> {
        self.row.get().metadata.clone()
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
    /// Ranks and scores per leg: `bm25_rank`, `bm25_score`, `vector_rank`, `vector_score`,
    /// `rrf`, `depth_weight`.
    #[getter]
    fn explain<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let e = &self.explain;
        let d = PyDict::new(py);
        d.set_item("bm25_rank", e.bm25_rank)?;
        d.set_item("bm25_score", e.bm25_score)?;
        d.set_item("vector_rank", e.vector_rank)?;
        d.set_item("vector_score", e.vector_score)?;
        d.set_item("rrf", e.rrf)?;
        d.set_item("depth_weight", e.depth_weight)?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        let r = self.row.get();
        format!(
            "Hit(id={}, score={:.5}, text={:?})",
            r.id, self.score, r.text
        )
    }
}

/// What a supersede did.
#[pyclass(frozen, get_all, name = "Superseded", module = "oubli")]
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

/// A signed purge receipt: canonical JSON naming what was erased by salted commitments only.
/// Anyone holding the store's public key can verify it offline.
#[pyclass(frozen, name = "Receipt", module = "oubli")]
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
#[pyclass(frozen, name = "Opening", module = "oubli")]
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
#[pyclass(frozen, name = "PurgeReport", module = "oubli")]
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
            "PurgeReport(seq={}, erased={:?}, completion_seq={:?})",
            self.seq, self.erased, self.completion_seq
        )
    }
}

/// One event of the log.
#[pyclass(frozen, name = "Event", module = "oubli")]
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
            "Event(seq={}, kind={:?}, namespace={:?}, rows={:?})",
            self.seq,
            self.kind,
            self.namespace,
            self.event
                .transitions
                .iter()
                .map(|t| t.row)
                .collect::<Vec<_>>()
        )
    }
}

/// A row's lineage: its supersede chain (oldest first) and every event that touched it.
#[pyclass(frozen, get_all, name = "History", module = "oubli")]
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
#[pyclass(frozen, get_all, name = "LogReport", module = "oubli")]
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
#[pyclass(frozen, name = "Plan", module = "oubli")]
pub struct PyPlan {
    /// Every row the call would change (for a purge: the whole closure).
    #[pyo3(get)]
    pub rows: Vec<u64>,
    matches: Vec<oubli::TargetMatch>,
}

impl From<oubli::Plan> for PyPlan {
    fn from(p: oubli::Plan) -> Self {
        PyPlan {
            rows: p.rows,
            matches: p.matches,
        }
    }
}

#[pymethods]
impl PyPlan {
    /// The rows the target matched, best first: dicts with `id`, `coverage`, `bm25`,
    /// `matched` and `missing`.
    #[getter]
    fn matches<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.matches)
    }

    fn __repr__(&self) -> String {
        format!("Plan(rows={:?})", self.rows)
    }
}

/// What a sweep changed.
#[pyclass(frozen, get_all, name = "SweepReport", module = "oubli")]
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
