//! `Store` methods of per-user scoping and aliases: `forget_user` (one purge of everything of
//! one user) with its dry run, and the alias registry (`declare_alias`, `aliases`,
//! `remove_alias`).

use pyo3::prelude::*;
use pyo3::types::PyDict;

use oubli::AliasKind;

use crate::convert::{self, Utf8};
use crate::errors::invalid;
use crate::types::PyPurgeReport;

use super::{PyStore, call};

fn alias_kind(kind: &str) -> PyResult<AliasKind> {
    Ok(match kind {
        "person" => AliasKind::Person,
        "account" => AliasKind::Account,
        "identifier" => AliasKind::Identifier,
        "other" => AliasKind::Other,
        other => {
            return Err(invalid(format!(
                "kind must be person, account, identifier or other, not {other:?}"
            )));
        }
    })
}

fn kind_name(kind: AliasKind) -> &'static str {
    match kind {
        AliasKind::Person => "person",
        AliasKind::Account => "account",
        AliasKind::Identifier => "identifier",
        AliasKind::Other => "other",
    }
}

/// An alias group as a dict: `id`, `namespace`, `kind`, `forms`.
fn group_dict<'py>(py: Python<'py>, g: &oubli::AliasGroup) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("id", g.id)?;
    d.set_item("namespace", &g.namespace)?;
    d.set_item("kind", kind_name(g.kind))?;
    d.set_item("forms", &g.forms)?;
    Ok(d)
}

#[pymethods]
impl PyStore {
    /// Erases everything of user `user_id` in one purge with one signed receipt: every row of
    /// the namespaces `("user", user_id)` and below (`("user", user_id, ...)`), the aliases
    /// declared there, and rows of shared namespaces holding one of those aliases' typed
    /// identifiers (e-mail, phone, account number); never a row of another user's namespaces.
    /// Returns a `PurgeReport`; raises `NoMatchError` if the user has no row.
    fn forget_user(&self, py: Python<'_>, user_id: Utf8) -> PyResult<PyPurgeReport> {
        let r = call(py, self.store()?, |s| s.forget_user(&user_id.0))?;
        PyPurgeReport::new(py, r)
    }

    /// Dry run of `forget_user`: the ids of the rows it would erase, changing nothing.
    fn plan_forget_user(&self, py: Python<'_>, user_id: Utf8) -> PyResult<Vec<u64>> {
        call(py, self.store()?, |s| s.plan_forget_user(&user_id.0))
    }

    /// Declares that `forms` name one person, account or identifier in `namespace` (`kind`:
    /// `"person"`, `"account"`, `"identifier"` or `"other"`). Queries naming any form reach
    /// rows naming the others; a purge of the entity erases the group. Groups sharing a form
    /// merge. Returns the resulting group as a dict (`id`, `namespace`, `kind`, `forms`).
    #[pyo3(signature = (namespace, forms, *, kind = "person"))]
    fn declare_alias<'py>(
        &self,
        py: Python<'py>,
        namespace: convert::Ns,
        forms: Vec<String>,
        kind: &str,
    ) -> PyResult<Bound<'py, PyDict>> {
        let kind = alias_kind(kind)?;
        let g = call(py, self.store()?, |s| {
            let forms: Vec<&str> = forms.iter().map(String::as_str).collect();
            s.declare_alias(&namespace.0, kind, &forms)
        })?;
        group_dict(py, &g)
    }

    /// The alias groups, in id order; only those of `namespace` when given.
    #[pyo3(signature = (namespace = None))]
    fn aliases<'py>(
        &self,
        py: Python<'py>,
        namespace: Option<convert::Ns>,
    ) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let ns = namespace.map(|n| n.0);
        let groups = call(py, self.store()?, |s| s.aliases(ns.as_deref()))?;
        groups.iter().map(|g| group_dict(py, g)).collect()
    }

    /// Removes alias group `id` (its rows are untouched).
    fn remove_alias(&self, py: Python<'_>, id: u64) -> PyResult<()> {
        call(py, self.store()?, |s| s.remove_alias(id))
    }
}
