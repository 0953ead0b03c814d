//! A Python callable as the engine's mutation-time planner ([`oubli::planner::Planner`]).
//!
//! The callable receives the plan request as a dict (the JSON contract of `oubli::planner`) and
//! returns the response as a dict or as a JSON string. Whatever it raises or returns that the
//! engine cannot validate is never acted on: the call falls back to the deterministic
//! resolution, and `Store.plan(...).planner` says why.

use pyo3::prelude::*;

/// The planner hook backed by a Python callable.
pub(crate) struct PyPlanner(Py<PyAny>);

impl PyPlanner {
    /// Wraps `callable`; a non-callable object is a `TypeError`.
    pub(crate) fn new(callable: &Bound<'_, PyAny>) -> PyResult<PyPlanner> {
        if !callable.is_callable() {
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "planner must be callable (request dict -> response dict), not {}",
                callable.get_type().name()?
            )));
        }
        Ok(PyPlanner(callable.clone().unbind()))
    }
}

impl oubli::planner::Planner for PyPlanner {
    fn propose(&self, request: &str) -> Result<String, String> {
        Python::attach(|py| {
            let json = py.import("json").map_err(|e| e.to_string())?;
            let req = json
                .call_method1("loads", (request,))
                .map_err(|e| e.to_string())?;
            let resp = self
                .0
                .bind(py)
                .call1((req,))
                .map_err(|e| format!("the planner raised {e}"))?;
            if let Ok(text) = resp.extract::<String>() {
                return Ok(text);
            }
            json.call_method1("dumps", (resp,))
                .and_then(|s| s.extract::<String>())
                .map_err(|e| format!("the planner's answer is not JSON: {e}"))
        })
    }
}
