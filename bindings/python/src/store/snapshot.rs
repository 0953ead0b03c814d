//! Time travel: `Store.as_of` and the read-only `Snapshot` it returns, whose `recall` and
//! `list` see the store as it stood at one point of its log.

use std::sync::Arc;

use pyo3::prelude::*;

use oubli::{AsOf, ListQuery, Store};

use crate::convert;
use crate::errors::invalid;
use crate::types::{PyHit, PyRow};

use super::query::{self, Filters, Include};
use super::{PyStore, call};

#[pymethods]
impl PyStore {
    /// A read-only view of the store as it stood at `at`: an int log sequence number or a
    /// datetime. Its `recall` and `list` see that point (minus what was purged since).
    fn as_of(slf: Py<Self>, py: Python<'_>, at: &Bound<'_, PyAny>) -> PyResult<PySnapshot> {
        let at = convert::as_of(Some(at))?
            .ok_or_else(|| invalid("as_of needs a sequence number or a datetime"))?;
        let store = slf.get().store()?.clone();
        // Resolve now so a bad point fails here rather than at the first read.
        let q = ListQuery {
            limit: Some(0),
            as_of: Some(at),
            ..ListQuery::default()
        };
        call(py, &store, |s| s.list(&q))?;
        Ok(PySnapshot { store, at })
    }
}

/// The store as it stood at one point of its log (see `Store.as_of`).
#[pyclass(frozen, name = "Snapshot", module = "oubli_db")]
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
        include_submerged = false, include_expired = false, vector = None, legs = "hybrid",
        min_score = 0.0
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
        min_score: f64,
    ) -> PyResult<Vec<PyHit>> {
        let f = Filters::read(namespace, filters, kinds)?;
        let include = Include::new(include_submerged, include_expired);
        query::recall(
            py,
            &self.store,
            query,
            k,
            f,
            include,
            Some(self.at),
            vector,
            query::How { legs, min_score },
        )
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
        let f = Filters::read(namespace, filters, kinds)?;
        let include = Include::new(include_submerged, include_expired);
        query::list(py, &self.store, f, include, after, limit, Some(self.at))
    }

    fn __repr__(&self) -> String {
        let (k, v) = self.at();
        format!("Snapshot({k}={v})")
    }
}
