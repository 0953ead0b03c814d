//! `Store` methods of compaction and derived values: `compact` (a source-first note within a
//! budget, with its completeness) and `recompute` (a derived row from its current sources).

use pyo3::prelude::*;
use pyo3::types::PyDict;

use oubli::{CompactOptions, CompactScope};

use crate::convert;
use crate::types::PySuperseded;

use super::{PyStore, call};

#[pymethods]
impl PyStore {
    /// Compacts the live rows of `namespace` (every namespace when None; or exactly the rows
    /// `ids`; `query` picks the answer-determining rows) into one note of at most `budget`
    /// bytes, sources first: it keeps recomputable sources, drops re-derivable conclusions and
    /// records its completeness (k of N answer-determining sources kept), never dropping
    /// silently. `strict=True` refuses (IncompleteNote) rather than write an incomplete note;
    /// `dry_run=True` builds it without writing. Returns a dict: `id`, `seq`, `text`, `kept`,
    /// `total`, `complete`, `answer_determining`, `dropped`.
    #[pyo3(signature = (
        budget, *, namespace = None, ids = None, query = None, include_derived = false,
        strict = false, key = None, note_namespace = None, dry_run = false
    ))]
    #[allow(clippy::too_many_arguments)]
    fn compact<'py>(
        &self,
        py: Python<'py>,
        budget: usize,
        namespace: Option<convert::Ns>,
        ids: Option<Vec<u64>>,
        query: Option<String>,
        include_derived: bool,
        strict: bool,
        key: Option<String>,
        note_namespace: Option<convert::Ns>,
        dry_run: bool,
    ) -> PyResult<Bound<'py, PyDict>> {
        let scope = CompactScope {
            namespace: namespace.map(|n| n.0),
            ids: ids.unwrap_or_default(),
            query,
            ..CompactScope::default()
        };
        let mut opts = CompactOptions::new(budget);
        opts.include_derived = include_derived;
        opts.strict = strict;
        opts.key = key;
        opts.note_namespace = note_namespace.map(|n| n.0);
        opts.dry_run = dry_run;
        let n = call(py, self.store()?, |s| s.compact(&scope, &opts))?;
        let d = PyDict::new(py);
        d.set_item("id", n.id)?;
        d.set_item("seq", n.seq)?;
        d.set_item("text", &n.text)?;
        d.set_item("kept", n.kept)?;
        d.set_item("total", n.total)?;
        d.set_item("complete", n.complete)?;
        d.set_item("answer_determining", &n.answer_determining)?;
        d.set_item("dropped", &n.dropped)?;
        Ok(d)
    }

    /// Recomputes derived row `id` from its current sources: a new row supersedes it.
    fn recompute(&self, py: Python<'_>, id: u64) -> PyResult<PySuperseded> {
        let s = call(py, self.store()?, |s| s.recompute(id))?;
        Ok(PySuperseded {
            replaced: s.replaced,
            new_id: s.new_id,
            seq: s.seq,
        })
    }
}
