//! `Store` methods that change what is remembered: supersede, release, pin, resurface, purge
//! (with its dry run `plan`), scrub, and decay policies with `sweep`.

use pyo3::prelude::*;
use pyo3::types::PyDict;

use oubli::{DecayPolicy, Operation};

use crate::convert::{self, InsFields};
use crate::errors::invalid;
use crate::types::{PyPlan, PyPurgeReport, PySuperseded, PySweepReport};

use super::{PyStore, call};

#[pymethods]
impl PyStore {
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
        let s = call(py, self.store()?, |s| s.supersede(t, ins))?;
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
        self.on_target(py, target, key, namespace, |s, t| s.release(t))
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
        self.on_target(py, target, key, namespace, |s, t| s.pin(t))
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
        self.on_target(py, target, key, namespace, |s, t| s.resurface(t))
    }

    /// Erases what the target names and its closure (supersede chain, derived rows), scrubs
    /// the file, runs the residual audit and returns a `PurgeReport` with the signed `receipt`
    /// and the data subject's `opening`.
    ///
    /// `deliver`, if given, is called with the `Opening` right after the erasure commits and
    /// before the store deletes its sealed copy. If it raises, the purge still completes
    /// (receipt stored), the opening stays pending for `take_opening`, and the exception
    /// propagates.
    #[pyo3(signature = (target = None, *, key = None, namespace = None, deliver = None))]
    fn purge(
        &self,
        py: Python<'_>,
        target: Option<&Bound<'_, PyAny>>,
        key: Option<&Bound<'_, PyAny>>,
        namespace: Option<&Bound<'_, PyAny>>,
        deliver: Option<Py<PyAny>>,
    ) -> PyResult<PyPurgeReport> {
        let mut raised = None;
        let r = self.on_target(py, target, key, namespace, |s, t| match &deliver {
            Some(d) => s.purge_delivering(t, |o| super::audit::deliver_to(d, o, &mut raised)),
            None => s.purge(t),
        });
        if let Some(e) = raised {
            return Err(e);
        }
        PyPurgeReport::new(py, r?)
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
        self.on_target(py, target, key, namespace, |s, t| s.plan(op, &t))
            .map(PyPlan::from)
    }

    /// Rewrites indexes and file so nothing erased remains in any byte. Returns the scrub
    /// event's sequence number. Needed only with `scrub_on_purge=False`.
    fn scrub(&self, py: Python<'_>) -> PyResult<u64> {
        call(py, self.store()?, |s| s.scrub())
    }

    /// Sets the decay policy of `namespace`: depth halves every `half_life_ms`; rows older
    /// than `ttl_ms` submerge; rows sinking below `floor` submerge. `sweep()` applies it.
    #[pyo3(signature = (namespace, *, half_life_ms = None, ttl_ms = None, floor = 0.05))]
    fn set_decay_policy(
        &self,
        py: Python<'_>,
        namespace: convert::Ns,
        half_life_ms: Option<i64>,
        ttl_ms: Option<i64>,
        floor: f64,
    ) -> PyResult<()> {
        let p = DecayPolicy {
            half_life_ms,
            ttl_ms,
            floor,
        };
        call(py, self.store()?, |s| {
            s.set_decay_policy(&namespace.0, Some(p))
        })
    }

    /// Removes the decay policy of `namespace`.
    fn clear_decay_policy(&self, py: Python<'_>, namespace: convert::Ns) -> PyResult<()> {
        call(py, self.store()?, |s| {
            s.set_decay_policy(&namespace.0, None)
        })
    }

    /// The decay policy of `namespace` as a dict, or None.
    fn decay_policy<'py>(
        &self,
        py: Python<'py>,
        namespace: convert::Ns,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let p = call(py, self.store()?, |s| s.decay_policy(&namespace.0))?;
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
        let r = call(py, self.store()?, |s| s.sweep())?;
        Ok(PySweepReport {
            decayed: r.decayed,
            expired: r.expired,
        })
    }
}
