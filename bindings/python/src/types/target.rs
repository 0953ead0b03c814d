//! `oubli.Target`: what a mutating call acts on.

use pyo3::prelude::*;

use oubli::Target;

use super::py_str;
use crate::convert::{Ns, Utf8};

/// What a mutating call acts on: one row by id, the live row holding a natural key, or the rows
/// a query describes. Mutating calls also take a plain `int` (id) or `str` (query).
#[pyclass(frozen, eq, name = "Target", module = "oubli_db")]
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
    fn by_key(key: Utf8, namespace: Option<Ns>) -> Self {
        let ns = namespace.map_or_else(|| oubli::DEFAULT_NAMESPACE.to_owned(), |n| n.0);
        PyTarget(Target::key(ns, key.0))
    }

    /// Targets the rows `text` describes, optionally within one namespace.
    #[staticmethod]
    #[pyo3(signature = (text, namespace = None))]
    fn by_query(text: Utf8, namespace: Option<Ns>) -> Self {
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
                format!(
                    "Target.by_key({}, namespace={})",
                    py_str(key),
                    py_str(namespace)
                )
            }
            Target::Query {
                namespace: Some(ns),
                text,
            } => format!(
                "Target.by_query({}, namespace={})",
                py_str(text),
                py_str(ns)
            ),
            Target::Query {
                namespace: None,
                text,
            } => format!("Target.by_query({})", py_str(text)),
        }
    }
}
