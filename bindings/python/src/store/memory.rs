//! `Store` methods that write and read rows: inscribe, inscribe_many, upsert, get,
//! get_by_key, recall and list; and the vector graph a bulk load defers (`build_vector_graph`,
//! `vector_graph_status`).

use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::convert::{self, InsFields, Utf8, uint};
use crate::types::{PyHit, PyRow};

use super::query::{self, Filters, Include};
use super::{PyStore, call};

#[pymethods]
impl PyStore {
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
        call(py, self.store()?, |s| s.inscribe(ins))
    }

    /// Links the vectors newer than the vector graph into it (after a load made with
    /// `defer_vector_graph=True`); recalls go on meanwhile. Returns the build steps installed.
    fn build_vector_graph(&self, py: Python<'_>) -> PyResult<usize> {
        call(py, self.store()?, |s| s.build_vector_graph())
    }

    /// How much of the store's vectors the vector graph holds: a dict with `linked` (in the
    /// graph), `exact` (scanned exactly by every recall) and `building`.
    fn vector_graph_status<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let st = call(py, self.store()?, |s| s.vector_graph_status())?;
        let d = PyDict::new(py);
        d.set_item("linked", st.linked)?;
        d.set_item("exact", st.exact)?;
        d.set_item("building", st.building)?;
        Ok(d)
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
        call(py, self.store()?, |s| s.inscribe_batch(batch))
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
        call(py, self.store()?, |s| s.upsert(ins))
    }

    /// Reads one row by id, whatever its depth (a purged row has `text=None`).
    fn get(&self, py: Python<'_>, id: &Bound<'_, PyAny>) -> PyResult<PyRow> {
        let id = uint(id, "id")?;
        call(py, self.store()?, |s| s.get(id)).map(PyRow::from)
    }

    /// The live row holding `key` in `namespace` (default `"default"`).
    #[pyo3(signature = (key, *, namespace = None))]
    fn get_by_key(
        &self,
        py: Python<'_>,
        key: Utf8,
        namespace: Option<convert::Ns>,
    ) -> PyResult<PyRow> {
        let ns = namespace.map_or_else(|| oubli::DEFAULT_NAMESPACE.to_owned(), |n| n.0);
        call(py, self.store()?, |s| s.get_by_key(&ns, &key.0)).map(PyRow::from)
    }

    /// Recalls the `k` rows that best match `query`: BM25 and vector similarity, each
    /// calibrated to [0, 1] and fused into a relevance score, weighted by depth. Returns `Hit`s,
    /// best first; `min_score` (0 to 1, default 0) drops hits scoring less (0.3 keeps relevant
    /// hits only, see docs/recall.md).
    ///
    /// `filters` keeps rows whose metadata has every entry; `kinds` a kind or list of kinds;
    /// `as_of` an int (log sequence number) or a datetime; `vector` your own query vector;
    /// `legs` is `"hybrid"`, `"lexical"` or `"vector"`.
    #[pyo3(signature = (
        query, *, k = None, namespace = None, filters = None, kinds = None,
        include_submerged = false, include_expired = false, as_of = None, vector = None,
        legs = "hybrid", min_score = 0.0
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
        min_score: f64,
    ) -> PyResult<Vec<PyHit>> {
        let f = Filters::read(namespace, filters, kinds)?;
        let as_of = convert::as_of(as_of)?;
        let include = Include::new(include_submerged, include_expired);
        let how = query::How { legs, min_score };
        query::recall(py, self.store()?, query, k, f, include, as_of, vector, how)
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
        let f = Filters::read(namespace, filters, kinds)?;
        let as_of = convert::as_of(as_of)?;
        let include = Include::new(include_submerged, include_expired);
        query::list(py, self.store()?, f, include, after, limit, as_of)
    }
}
