//! The query plumbing `Store` and `Snapshot` share: reading the filters and the `recall` /
//! `list` arguments into engine queries, running them and converting the results.

use std::sync::Arc;

use pyo3::prelude::*;

use oubli::{AsOf, Filter, Kind, ListQuery, RecallQuery, Store};

use crate::convert::{self, uint};
use crate::errors::invalid;
use crate::types::{PyHit, PyRow};

use super::call;

/// The filters shared by recall and list.
pub(super) struct Filters {
    namespace: Option<String>,
    filters: Filter,
    kinds: Vec<Kind>,
}

impl Filters {
    /// Reads `namespace=`, `filters=` and `kinds=`.
    pub(super) fn read(
        namespace: Option<&Bound<'_, PyAny>>,
        filters: Option<&Bound<'_, PyAny>>,
        kinds: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Filters> {
        Ok(Filters {
            namespace: convert::opt_namespace(namespace)?,
            filters: convert::filter(filters)?,
            kinds: convert::kinds(kinds)?,
        })
    }
}

/// Which rows below the surface a recall or list also returns.
#[derive(Clone, Copy)]
pub(super) struct Include {
    submerged: bool,
    expired: bool,
}

impl Include {
    /// From `include_submerged=` and `include_expired=`.
    pub(super) fn new(submerged: bool, expired: bool) -> Include {
        Include { submerged, expired }
    }
}

/// How a recall ranks: its legs and its score threshold.
pub(super) struct How<'a> {
    /// `"hybrid"`, `"lexical"` or `"vector"`.
    pub legs: &'a str,
    /// Hits scoring below this are dropped.
    pub min_score: f64,
}

/// Runs a recall on `store`: the `k` rows (default 10) that best match `query`.
#[allow(clippy::too_many_arguments)]
pub(super) fn recall(
    py: Python<'_>,
    store: &Arc<Store>,
    query: &Bound<'_, PyAny>,
    k: Option<&Bound<'_, PyAny>>,
    f: Filters,
    include: Include,
    as_of: Option<AsOf>,
    vector: Option<&Bound<'_, PyAny>>,
    how: How<'_>,
) -> PyResult<Vec<PyHit>> {
    let k = k.map(|k| uint(k, "k")).transpose()?.unwrap_or(10);
    let mut q = RecallQuery::new(convert::text(query, "query")?)
        .k(usize::try_from(k).map_err(|_| invalid("k is too large"))?)
        .include_submerged(include.submerged)
        .include_expired(include.expired)
        .legs(convert::legs(how.legs)?)
        .min_score(how.min_score);
    q.namespace = f.namespace;
    q.filters = f.filters;
    q.kinds = f.kinds;
    q.as_of = as_of;
    q.vector = convert::vector(vector)?;
    let found = call(py, store, |s| s.recall(&q))?;
    found.into_iter().map(|h| PyHit::new(py, h)).collect()
}

/// Runs a list on `store`: rows in id order, paged with `after` (a row id) and `limit`.
pub(super) fn list(
    py: Python<'_>,
    store: &Arc<Store>,
    f: Filters,
    include: Include,
    after: Option<&Bound<'_, PyAny>>,
    limit: Option<&Bound<'_, PyAny>>,
    as_of: Option<AsOf>,
) -> PyResult<Vec<PyRow>> {
    let after = after
        .filter(|a| !a.is_none())
        .map(|a| uint(a, "after"))
        .transpose()?;
    let limit = limit
        .filter(|a| !a.is_none())
        .map(|a| uint(a, "limit").map(|l| l as usize))
        .transpose()?;
    let q = ListQuery {
        namespace: f.namespace,
        filters: f.filters,
        kinds: f.kinds,
        include_submerged: include.submerged,
        include_expired: include.expired,
        include_stale: false,
        after,
        limit,
        as_of,
    };
    let rows = call(py, store, |s| s.list(&q))?;
    Ok(rows.into_iter().map(PyRow::from).collect())
}
