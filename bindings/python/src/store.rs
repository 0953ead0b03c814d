//! `oubli.Store`: the store as a Python object. Every call releases the GIL while the engine
//! works, so threads sharing one store run concurrently (many readers, one writer).

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyTuple};

use oubli::audit::{SignedReceipt, hex};
use oubli::{AsOf, DecayPolicy, ListQuery, Operation, RecallQuery, Store, StoreOptions};

use crate::convert::{self, InsFields, Utf8, uint};
use crate::errors::{audit_error, invalid, to_py};
use crate::types::{
    PyEvent, PyHistory, PyHit, PyLogReport, PyPlan, PyPurgeReport, PyReceipt, PyRow, PySuperseded,
    PySweepReport,
};

/// Runs `f` on the store with the GIL released and maps its error.
fn call<T: Send>(
    py: Python<'_>,
    store: &Arc<Store>,
    f: impl FnOnce(&Store) -> oubli::Result<T> + Send,
) -> PyResult<T> {
    py.detach(|| f(store)).map_err(to_py)
}

/// The filters shared by recall and list.
struct Filters {
    namespace: Option<String>,
    filters: std::collections::BTreeMap<String, String>,
    kinds: Vec<oubli::Kind>,
}

fn filters(
    namespace: Option<&Bound<'_, PyAny>>,
    filters: Option<&Bound<'_, PyAny>>,
    kinds: Option<&Bound<'_, PyAny>>,
) -> PyResult<Filters> {
    Ok(Filters {
        namespace: convert::opt_text(namespace, "namespace")?,
        filters: convert::string_map(filters, "filters")?,
        kinds: convert::kinds(kinds)?,
    })
}

#[allow(clippy::too_many_arguments)]
fn recall_query(
    query: &Bound<'_, PyAny>,
    k: &Bound<'_, PyAny>,
    f: Filters,
    include_submerged: bool,
    include_expired: bool,
    as_of: Option<AsOf>,
    vector: Option<&Bound<'_, PyAny>>,
    legs: &str,
) -> PyResult<RecallQuery> {
    let k = uint(k, "k")?;
    let mut q = RecallQuery::new(convert::text(query, "query")?)
        .k(usize::try_from(k).map_err(|_| invalid("k is too large"))?)
        .include_submerged(include_submerged)
        .include_expired(include_expired)
        .legs(convert::legs(legs)?);
    q.namespace = f.namespace;
    q.filters = f.filters;
    q.kinds = f.kinds;
    q.as_of = as_of;
    q.vector = convert::vector(vector)?;
    Ok(q)
}

#[allow(clippy::too_many_arguments)]
fn list_query(
    f: Filters,
    include_submerged: bool,
    include_expired: bool,
    after: Option<&Bound<'_, PyAny>>,
    limit: Option<&Bound<'_, PyAny>>,
    as_of: Option<AsOf>,
) -> PyResult<ListQuery> {
    let after = after
        .filter(|a| !a.is_none())
        .map(|a| uint(a, "after"))
        .transpose()?;
    let limit = limit
        .filter(|a| !a.is_none())
        .map(|a| uint(a, "limit").map(|l| l as usize))
        .transpose()?;
    Ok(ListQuery {
        namespace: f.namespace,
        filters: f.filters,
        kinds: f.kinds,
        include_submerged,
        include_expired,
        include_stale: false,
        after,
        limit,
        as_of,
    })
}

fn hits(py: Python<'_>, hits: Vec<oubli::Hit>) -> PyResult<Vec<PyHit>> {
    hits.into_iter().map(|h| PyHit::new(py, h)).collect()
}

fn rows(rows: Vec<oubli::Row>) -> Vec<PyRow> {
    rows.into_iter().map(PyRow::from).collect()
}

/// An oubli store: one file, opened in-process.
///
/// `Store(path)` opens the store at `path`, creating it if there is none (`create=True`
/// insists on a new file, `create=False` on an existing one). Use it as a context manager, or
/// call `close()`. One `Store` may be shared by many threads.
#[pyclass(frozen, name = "Store", module = "oubli")]
pub struct PyStore {
    inner: Arc<Store>,
    closed: AtomicBool,
}

#[pymethods]
impl PyStore {
    #[new]
    #[pyo3(signature = (
        path, *, create = None, read_only = false, embedder = None, seed = None,
        signing_key = None, scrub_on_purge = true
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        path: PathBuf,
        create: Option<bool>,
        read_only: bool,
        embedder: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        signing_key: Option<&Bound<'_, PyAny>>,
        scrub_on_purge: bool,
    ) -> PyResult<Self> {
        let mut opts = StoreOptions::default()
            .embedder(crate::embed::resolve(embedder)?)
            .read_only(read_only)
            .scrub_on_purge(scrub_on_purge);
        if let Some(s) = convert::bytes32(seed, "seed")? {
            opts = opts.deterministic_seed(s);
        }
        if let Some(k) = convert::bytes32(signing_key, "signing_key")? {
            opts = opts.signing_key(k);
        }
        let store = py
            .detach(|| match create {
                Some(true) => Store::create_with(&path, opts),
                Some(false) => Store::open_with(&path, opts),
                None if read_only => Store::open_with(&path, opts),
                None => Store::open_or_create(&path, opts),
            })
            .map_err(to_py)?;
        Ok(PyStore {
            inner: Arc::new(store),
            closed: AtomicBool::new(false),
        })
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    #[pyo3(signature = (*_args))]
    fn __exit__(&self, py: Python<'_>, _args: &Bound<'_, PyTuple>) -> PyResult<bool> {
        self.close(py)?;
        Ok(false)
    }

    /// Closes the store. Later calls raise `StoreClosedError`; closing twice is fine.
    fn close(&self, py: Python<'_>) -> PyResult<()> {
        self.closed.store(true, Ordering::SeqCst);
        call(py, &self.inner, |s| s.close())
    }

    /// Whether `close()` was called.
    #[getter]
    fn closed(&self) -> bool {
        self.closed.load(Ordering::SeqCst)
    }

    /// The file the store lives in.
    #[getter]
    fn path(&self) -> PathBuf {
        self.inner.path().to_path_buf()
    }

    /// The store's ed25519 public key (32 bytes): give it to whoever verifies receipts.
    #[getter]
    fn public_key<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let k = call(py, &self.inner, |s| s.public_key())?;
        Ok(PyBytes::new(py, &k))
    }

    /// The identifier of the store's embedder.
    #[getter]
    fn embedder_id(&self) -> String {
        self.inner.embedder().id()
    }

    /// The store's vector dimension.
    #[getter]
    fn dim(&self) -> usize {
        self.inner.embedder().dim()
    }

    /// Embeds `text` with the store's embedder.
    fn embed(&self, py: Python<'_>, text: Utf8) -> PyResult<Vec<f32>> {
        let e = self.inner.embedder();
        py.detach(|| e.embed(&text.0)).map_err(to_py)
    }

    /// Inscribes one row and returns its id.
    ///
    /// `metadata` is a dict of str to str; `kind` is `"source"` (default), `"derived"` or
    /// `"note"`; `valid_until` an int (ms since the epoch) or a datetime; `derived_from` a list of
    /// row ids; `vector` your own embedding (otherwise the store's embedder embeds `text`).
    #[pyo3(signature = (
        text, *, namespace = None, key = None, metadata = None, kind = None,
        valid_until = None, derived_from = None, vector = None
    ))]
    #[allow(clippy::too_many_arguments)]
    fn inscribe(
        &self,
        py: Python<'_>,
        text: &Bound<'_, PyAny>,
        namespace: Option<&Bound<'_, PyAny>>,
        key: Option<&Bound<'_, PyAny>>,
        metadata: Option<&Bound<'_, PyAny>>,
        kind: Option<&Bound<'_, PyAny>>,
        valid_until: Option<&Bound<'_, PyAny>>,
        derived_from: Option<&Bound<'_, PyAny>>,
        vector: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<u64> {
        let ins = convert::inscription(
            text,
            &InsFields {
                namespace,
                key,
                metadata,
                kind,
                valid_until,
                derived_from,
                vector,
            },
        )?;
        call(py, &self.inner, |s| s.inscribe(ins))
    }

    /// Inscribes many rows in one transaction: each item is a str or a dict with the keyword
    /// fields of `inscribe` (and `text`). All or nothing. Returns the ids in order.
    fn inscribe_many(&self, py: Python<'_>, items: &Bound<'_, PyAny>) -> PyResult<Vec<u64>> {
        if items.is_instance_of::<pyo3::types::PyString>() {
            return Err(pyo3::exceptions::PyTypeError::new_err(
                "items must be a list of str or dict, not str",
            ));
        }
        let mut batch = Vec::new();
        for (i, item) in items.try_iter()?.enumerate() {
            batch.push(convert::inscription_item(&item?, i)?);
        }
        call(py, &self.inner, |s| s.inscribe_batch(batch))
    }

    /// Inscribes under natural key `key`: supersedes the live row holding it, or inscribes.
    #[pyo3(signature = (
        text, *, key, namespace = None, metadata = None, kind = None, valid_until = None,
        derived_from = None, vector = None
    ))]
    #[allow(clippy::too_many_arguments)]
    fn upsert(
        &self,
        py: Python<'_>,
        text: &Bound<'_, PyAny>,
        key: &Bound<'_, PyAny>,
        namespace: Option<&Bound<'_, PyAny>>,
        metadata: Option<&Bound<'_, PyAny>>,
        kind: Option<&Bound<'_, PyAny>>,
        valid_until: Option<&Bound<'_, PyAny>>,
        derived_from: Option<&Bound<'_, PyAny>>,
        vector: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<u64> {
        let ins = convert::inscription(
            text,
            &InsFields {
                namespace,
                key: Some(key),
                metadata,
                kind,
                valid_until,
                derived_from,
                vector,
            },
        )?;
        call(py, &self.inner, |s| s.upsert(ins))
    }

    /// Reads one row by id, whatever its depth (a purged row has `text=None`).
    fn get(&self, py: Python<'_>, id: &Bound<'_, PyAny>) -> PyResult<PyRow> {
        let id = uint(id, "id")?;
        call(py, &self.inner, |s| s.get(id)).map(PyRow::from)
    }

    /// The live row holding `key` in `namespace` (default `"default"`).
    #[pyo3(signature = (key, *, namespace = None))]
    fn get_by_key(&self, py: Python<'_>, key: Utf8, namespace: Option<Utf8>) -> PyResult<PyRow> {
        let ns = namespace.map_or_else(|| oubli::DEFAULT_NAMESPACE.to_owned(), |n| n.0);
        call(py, &self.inner, |s| s.get_by_key(&ns, &key.0)).map(PyRow::from)
    }

    /// Recalls the `k` rows that best match `query`: BM25 and vector similarity fused by
    /// reciprocal rank, weighted by depth. Returns `Hit`s, best first.
    ///
    /// `filters` keeps rows whose metadata has every entry; `kinds` a kind or list of kinds;
    /// `as_of` an int (log sequence number) or a datetime; `vector` your own query vector;
    /// `legs` is `"hybrid"`, `"lexical"` or `"vector"`.
    #[pyo3(signature = (
        query, *, k = None, namespace = None, filters = None, kinds = None,
        include_submerged = false, include_expired = false, as_of = None, vector = None,
        legs = "hybrid"
    ))]
    #[allow(clippy::too_many_arguments)]
    fn recall(
        &self,
        py: Python<'_>,
        query: &Bound<'_, PyAny>,
        k: Option<&Bound<'_, PyAny>>,
        namespace: Option<&Bound<'_, PyAny>>,
        filters: Option<&Bound<'_, PyAny>>,
        kinds: Option<&Bound<'_, PyAny>>,
        include_submerged: bool,
        include_expired: bool,
        as_of: Option<&Bound<'_, PyAny>>,
        vector: Option<&Bound<'_, PyAny>>,
        legs: &str,
    ) -> PyResult<Vec<PyHit>> {
        let ten = 10u64.into_pyobject(py)?.into_any();
        let q = recall_query(
            query,
            k.unwrap_or(&ten),
            self::filters(namespace, filters, kinds)?,
            include_submerged,
            include_expired,
            convert::as_of(as_of)?,
            vector,
            legs,
        )?;
        let found = call(py, &self.inner, |s| s.recall(&q))?;
        hits(py, found)
    }

    /// Lists rows in id order: live rows by default, filtered like `recall`, paged with
    /// `after` (a row id) and `limit`.
    #[pyo3(signature = (
        *, namespace = None, filters = None, kinds = None, include_submerged = false,
        include_expired = false, after = None, limit = None, as_of = None
    ))]
    #[allow(clippy::too_many_arguments)]
    fn list(
        &self,
        py: Python<'_>,
        namespace: Option<&Bound<'_, PyAny>>,
        filters: Option<&Bound<'_, PyAny>>,
        kinds: Option<&Bound<'_, PyAny>>,
        include_submerged: bool,
        include_expired: bool,
        after: Option<&Bound<'_, PyAny>>,
        limit: Option<&Bound<'_, PyAny>>,
        as_of: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<PyRow>> {
        let q = list_query(
            self::filters(namespace, filters, kinds)?,
            include_submerged,
            include_expired,
            after,
            limit,
            convert::as_of(as_of)?,
        )?;
        call(py, &self.inner, |s| s.list(&q)).map(rows)
    }

    /// Replaces the row the target names with a new row holding `text`. The old row submerges
    /// (kept for history and time travel); the new one inherits its namespace and key.
    ///
    /// The target is a row id (int), a query (str; restricted to `namespace` when given) or a
    /// `Target`; or pass `key=` (and `namespace=`) instead.
    #[pyo3(signature = (
        target = None, text = None, *, key = None, namespace = None, metadata = None,
        kind = None, valid_until = None, derived_from = None, vector = None
    ))]
    #[allow(clippy::too_many_arguments)]
    fn supersede(
        &self,
        py: Python<'_>,
        target: Option<&Bound<'_, PyAny>>,
        text: Option<&Bound<'_, PyAny>>,
        key: Option<&Bound<'_, PyAny>>,
        namespace: Option<&Bound<'_, PyAny>>,
        metadata: Option<&Bound<'_, PyAny>>,
        kind: Option<&Bound<'_, PyAny>>,
        valid_until: Option<&Bound<'_, PyAny>>,
        derived_from: Option<&Bound<'_, PyAny>>,
        vector: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PySuperseded> {
        let t = convert::target(target, key, namespace)?;
        let text = text.ok_or_else(|| {
            pyo3::exceptions::PyTypeError::new_err("supersede() missing the new row's text")
        })?;
        let ins = convert::inscription(
            text,
            &InsFields {
                namespace: None,
                key: None,
                metadata,
                kind,
                valid_until,
                derived_from,
                vector,
            },
        )?;
        let s = call(py, &self.inner, |s| s.supersede(t, ins))?;
        Ok(PySuperseded {
            replaced: s.replaced,
            new_id: s.new_id,
            seq: s.seq,
        })
    }

    /// Soft-forgets what the target names (depth 0): recall stops returning it; history and
    /// time travel keep it; `resurface` brings it back. A query may fan out to several rows.
    /// Returns the ids released.
    #[pyo3(signature = (target = None, *, key = None, namespace = None))]
    fn release(
        &self,
        py: Python<'_>,
        target: Option<&Bound<'_, PyAny>>,
        key: Option<&Bound<'_, PyAny>>,
        namespace: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<u64>> {
        let t = convert::target(target, key, namespace)?;
        call(py, &self.inner, |s| s.release(t))
    }

    /// Pins what the target names (depth +inf, never decays). Returns the ids changed.
    #[pyo3(signature = (target = None, *, key = None, namespace = None))]
    fn pin(
        &self,
        py: Python<'_>,
        target: Option<&Bound<'_, PyAny>>,
        key: Option<&Bound<'_, PyAny>>,
        namespace: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<u64>> {
        let t = convert::target(target, key, namespace)?;
        call(py, &self.inner, |s| s.pin(t))
    }

    /// Brings submerged or sinking rows back to the surface. Returns the ids changed.
    #[pyo3(signature = (target = None, *, key = None, namespace = None))]
    fn resurface(
        &self,
        py: Python<'_>,
        target: Option<&Bound<'_, PyAny>>,
        key: Option<&Bound<'_, PyAny>>,
        namespace: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<u64>> {
        let t = convert::target(target, key, namespace)?;
        call(py, &self.inner, |s| s.resurface(t))
    }

    /// Erases what the target names and its closure (supersede chain, derived rows), scrubs
    /// the file, runs the residual audit and returns a `PurgeReport` with the signed `receipt`
    /// and the data subject's `opening`.
    #[pyo3(signature = (target = None, *, key = None, namespace = None))]
    fn purge(
        &self,
        py: Python<'_>,
        target: Option<&Bound<'_, PyAny>>,
        key: Option<&Bound<'_, PyAny>>,
        namespace: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyPurgeReport> {
        let t = convert::target(target, key, namespace)?;
        let r = call(py, &self.inner, |s| s.purge(t))?;
        PyPurgeReport::new(py, r)
    }

    /// Dry run of `op` (`"supersede"`, `"release"`, `"pin"`, `"resurface"` or `"purge"`): the
    /// rows it would act on and why, changing nothing.
    #[pyo3(signature = (op, target = None, *, key = None, namespace = None))]
    fn plan(
        &self,
        py: Python<'_>,
        op: &str,
        target: Option<&Bound<'_, PyAny>>,
        key: Option<&Bound<'_, PyAny>>,
        namespace: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyPlan> {
        let op = match op {
            "supersede" => Operation::Supersede,
            "release" => Operation::Release,
            "pin" => Operation::Pin,
            "resurface" => Operation::Resurface,
            "purge" => Operation::Purge,
            other => {
                return Err(invalid(format!(
                    "op must be supersede, release, pin, resurface or purge, not {other:?}"
                )));
            }
        };
        let t = convert::target(target, key, namespace)?;
        call(py, &self.inner, |s| s.plan(op, &t)).map(PyPlan::from)
    }

    /// Rewrites indexes and file so nothing erased remains in any byte. Returns the scrub
    /// event's sequence number. Needed only with `scrub_on_purge=False`.
    fn scrub(&self, py: Python<'_>) -> PyResult<u64> {
        call(py, &self.inner, |s| s.scrub())
    }

    /// Sets the decay policy of `namespace`: depth halves every `half_life_ms`; rows older
    /// than `ttl_ms` submerge; rows sinking below `floor` submerge. `sweep()` applies it.
    #[pyo3(signature = (namespace, *, half_life_ms = None, ttl_ms = None, floor = 0.05))]
    fn set_decay_policy(
        &self,
        py: Python<'_>,
        namespace: Utf8,
        half_life_ms: Option<i64>,
        ttl_ms: Option<i64>,
        floor: f64,
    ) -> PyResult<()> {
        let p = DecayPolicy {
            half_life_ms,
            ttl_ms,
            floor,
        };
        call(py, &self.inner, |s| {
            s.set_decay_policy(&namespace.0, Some(p))
        })
    }

    /// Removes the decay policy of `namespace`.
    fn clear_decay_policy(&self, py: Python<'_>, namespace: Utf8) -> PyResult<()> {
        call(py, &self.inner, |s| s.set_decay_policy(&namespace.0, None))
    }

    /// The decay policy of `namespace` as a dict, or None.
    fn decay_policy<'py>(
        &self,
        py: Python<'py>,
        namespace: Utf8,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let p = call(py, &self.inner, |s| s.decay_policy(&namespace.0))?;
        p.map(|p| {
            let d = PyDict::new(py);
            d.set_item("half_life_ms", p.half_life_ms)?;
            d.set_item("ttl_ms", p.ttl_ms)?;
            d.set_item("floor", p.floor)?;
            Ok(d)
        })
        .transpose()
    }

    /// Applies decay policies and validity now: one event per row whose depth changes.
    fn sweep(&self, py: Python<'_>) -> PyResult<PySweepReport> {
        let r = call(py, &self.inner, |s| s.sweep())?;
        Ok(PySweepReport {
            decayed: r.decayed,
            expired: r.expired,
        })
    }

    /// The supersede chain `id` belongs to and every event that touched it.
    fn history(&self, py: Python<'_>, id: &Bound<'_, PyAny>) -> PyResult<PyHistory> {
        let id = uint(id, "id")?;
        let h = call(py, &self.inner, |s| s.history(id))?;
        PyHistory::new(py, h)
    }

    /// Events with `start <= seq <= end` (`end` defaults to the head), in order.
    #[pyo3(signature = (start = 1, end = None))]
    fn events(&self, py: Python<'_>, start: u64, end: Option<u64>) -> PyResult<Vec<PyEvent>> {
        let evs = call(py, &self.inner, |s| {
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
        let (seq, h) = call(py, &self.inner, |s| s.head())?;
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
        let r = call(py, &self.inner, |s| s.verify_log(key))?;
        Ok(PyLogReport {
            events: r.events,
            checkpoints: r.checkpoints,
            head_seq: r.head_seq,
            head_hash: hex::encode(&r.head_hash),
        })
    }

    /// Every receipt stored in the file (each verified), by purge id.
    fn receipts(&self, py: Python<'_>) -> PyResult<Vec<PyReceipt>> {
        let rs = call(py, &self.inner, |s| s.receipts())?;
        rs.into_iter().map(|(_, r)| PyReceipt::new(r)).collect()
    }

    /// The stored receipt of purge `purge_id`, verified under the store's key.
    fn receipt(&self, py: Python<'_>, purge_id: u64) -> PyResult<PyReceipt> {
        let (doc, key) = call(py, &self.inner, |s| {
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

    /// A read-only view of the store as it stood at `at`: an int log sequence number or a
    /// datetime. Its `recall` and `list` see that point (minus what was purged since).
    fn as_of(slf: Py<Self>, py: Python<'_>, at: &Bound<'_, PyAny>) -> PyResult<PySnapshot> {
        let at = convert::as_of(Some(at))?
            .ok_or_else(|| invalid("as_of needs a sequence number or a datetime"))?;
        let store = slf.get().inner.clone();
        // Resolve now so a bad point fails here rather than at the first read.
        let q = ListQuery {
            limit: Some(0),
            as_of: Some(at),
            ..ListQuery::default()
        };
        call(py, &store, |s| s.list(&q))?;
        Ok(PySnapshot { store, at })
    }

    fn __repr__(&self) -> String {
        format!(
            "Store({:?}, closed={})",
            self.inner.path().display().to_string(),
            if self.closed() { "True" } else { "False" }
        )
    }
}

/// The store as it stood at one point of its log (see `Store.as_of`).
#[pyclass(frozen, name = "Snapshot", module = "oubli")]
pub struct PySnapshot {
    store: Arc<Store>,
    at: AsOf,
}

#[pymethods]
impl PySnapshot {
    /// The point: `("seq", n)` or `("time", ms)`.
    #[getter]
    fn at(&self) -> (&'static str, i64) {
        match self.at {
            AsOf::Seq(s) => ("seq", s as i64),
            AsOf::Time(t) => ("time", t),
        }
    }

    /// `Store.recall` at this point.
    #[pyo3(signature = (
        query, *, k = None, namespace = None, filters = None, kinds = None,
        include_submerged = false, include_expired = false, vector = None, legs = "hybrid"
    ))]
    #[allow(clippy::too_many_arguments)]
    fn recall(
        &self,
        py: Python<'_>,
        query: &Bound<'_, PyAny>,
        k: Option<&Bound<'_, PyAny>>,
        namespace: Option<&Bound<'_, PyAny>>,
        filters: Option<&Bound<'_, PyAny>>,
        kinds: Option<&Bound<'_, PyAny>>,
        include_submerged: bool,
        include_expired: bool,
        vector: Option<&Bound<'_, PyAny>>,
        legs: &str,
    ) -> PyResult<Vec<PyHit>> {
        let ten = 10u64.into_pyobject(py)?.into_any();
        let q = recall_query(
            query,
            k.unwrap_or(&ten),
            self::filters(namespace, filters, kinds)?,
            include_submerged,
            include_expired,
            Some(self.at),
            vector,
            legs,
        )?;
        let found = call(py, &self.store, |s| s.recall(&q))?;
        hits(py, found)
    }

    /// `Store.list` at this point.
    #[pyo3(signature = (
        *, namespace = None, filters = None, kinds = None, include_submerged = false,
        include_expired = false, after = None, limit = None
    ))]
    #[allow(clippy::too_many_arguments)]
    fn list(
        &self,
        py: Python<'_>,
        namespace: Option<&Bound<'_, PyAny>>,
        filters: Option<&Bound<'_, PyAny>>,
        kinds: Option<&Bound<'_, PyAny>>,
        include_submerged: bool,
        include_expired: bool,
        after: Option<&Bound<'_, PyAny>>,
        limit: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<PyRow>> {
        let q = list_query(
            self::filters(namespace, filters, kinds)?,
            include_submerged,
            include_expired,
            after,
            limit,
            Some(self.at),
        )?;
        call(py, &self.store, |s| s.list(&q)).map(rows)
    }

    fn __repr__(&self) -> String {
        let (k, v) = self.at();
        format!("Snapshot({k}={v})")
    }
}
