//! Forgetting a user: one purge that erases everything one user's namespaces hold, with one
//! signed receipt (the GDPR erasure request a deployer receives).
//!
//! What [`Store::forget_user`] erases, in one transaction logged as one `purge` event:
//! 1. every row (at any depth but void) in a namespace of the user under the user rule of
//!    [`crate::namespace`]: `user:<id>` and every namespace below it (`user:<id>:notes`, ...);
//! 2. every alias group declared in those namespaces (its forms are personal data; their
//!    commitments go into the receipt);
//! 3. in namespaces that belong to no user (`default`, `team:support`), the rows or clauses that
//!    hold one of those alias groups' **typed identifier** forms (an e-mail address, a phone or
//!    account number, a handle: forms [`crate::canon::identifiers`] reads as one identifier),
//!    found by the engine's identifier-exact targeting (`TXN-12345` never matches
//!    `TXN-123456`). Name forms ("Ana", "Robert Smith") are not searched for outside the user's
//!    namespaces: a name may be someone else's, and an over-deletion cannot be undone;
//! 4. the purge closure of all of these (supersede chains, derived rows, notes), as any purge.
//!
//! Rows in another user's namespaces are never erased, not even through the closure: a row of
//! `user:bob` derived from one of Ana's rows stays (and is reported stale by the provenance
//! check). The planner is not consulted: the selection is deterministic.
//!
//! The receipt's selector is the user's namespace (`user:<id>`); the data subject's opening
//! holds it and the salts, as for any purge. A user with no row to erase is
//! [`Error::NoMatch`], never an empty receipt.

use oubli_audit::Opening;
use redb::ReadableTable;

use super::Store;
use super::batch::Batch;
use super::purge::{Erasure, PurgeReport, Selection, closure_ids, erase_selection};
use super::targeting::{Lookup, Resolution, Scope, Target, Width};
use crate::error::{Error, NoMatch, Result};
use crate::namespace;
use crate::row::{Row, RowId};
use crate::storage::{self, ROWS};

/// The error that rolls back a dry run's transaction.
const DRY_RUN: &str = "dry run: rolled back";

/// True if `form` is one typed identifier as a whole (an e-mail, phone, account number,
/// handle...), the only alias forms searched for outside the user's namespaces.
fn is_identifier_form(form: &str) -> bool {
    let t = form.trim();
    crate::canon::identifiers(t)
        .iter()
        .any(|i| i.span.start == 0 && i.span.end == t.len())
}

/// Rows of other users are never erased by a forget-user call.
fn of_another_user(row: &Row, user_id: &str) -> bool {
    namespace::owner(&row.namespace).is_some_and(|u| u != user_id)
}

/// Resolves `target` for a purge without alias expansion and without the planner: an
/// identifier form is looked for as itself only (the alias machinery would widen it to the
/// group's names, which may be someone else's).
fn resolve_exact(b: &Batch<'_>, target: &Target) -> Result<Resolution> {
    let fetch = |id| match b.row(id) {
        Ok(r) => Ok(Some(r)),
        Err(Error::UnknownRow(_)) => Ok(None),
        Err(e) => Err(e),
    };
    let holder = |ns: &str, k: &str| b.key_holder(ns, k);
    let lookup = Lookup {
        fetch: &fetch,
        key_holder: &holder,
        aliases: &[],
        op: "purge",
        planner: None,
        meaning: None,
        // Identifier-exact targeting: an identifier alone is every unit of its request.
        floor: super::targeting::Confidence::Low,
    };
    b.inner()
        .resolve(target, Scope::NotVoid, Width::All, None, &lookup)
}

/// What a forget-user call selects, before the closure.
fn select(b: &Batch<'_>, user_id: &str) -> Result<Selection> {
    let mut whole: Vec<RowId> = Vec::new();
    {
        let rows = b.tx.open_table(ROWS)?;
        for e in rows.iter()? {
            let (_, v) = e?;
            let row: Row = storage::decode(v.value())?;
            if !row.depth.is_void() && namespace::belongs_to(&row.namespace, user_id) {
                whole.push(row.id);
            }
        }
    }
    let groups: Vec<_> = b
        .alias_groups()?
        .into_iter()
        .filter(|g| namespace::belongs_to(&g.namespace, user_id))
        .collect();
    let mut elsewhere = Vec::new();
    for form in groups
        .iter()
        .flat_map(|g| g.forms.iter())
        .filter(|f| is_identifier_form(f))
    {
        let target = Target::Query {
            namespace: None,
            text: form.clone(),
        };
        let matches = match resolve_exact(b, &target) {
            Ok(r) => r.matches,
            Err(Error::NoMatch(_)) => continue,
            Err(e) => return Err(e),
        };
        for m in matches {
            let row = b.row(m.id)?;
            // Rows of the user's own namespaces go whole already; other users' never go.
            if namespace::owner(&row.namespace).is_none()
                && !elsewhere.iter().any(|e: &crate::TargetMatch| e.id == m.id)
            {
                elsewhere.push(m);
            }
        }
    }
    let mut sel = Selection::of_matches(&elsewhere, groups.iter().map(|g| g.id).collect());
    sel.targeted.extend(whole.iter().copied());
    sel.targeted.sort_unstable();
    sel.whole.extend(whole);
    sel.whole.sort_unstable();
    if sel.whole.is_empty() && sel.edits.is_empty() {
        return Err(Error::NoMatch(NoMatch::new(format!(
            "user {user_id:?} (no row in {})",
            namespace::user_namespace(user_id)?
        ))));
    }
    Ok(sel)
}

impl Store {
    /// Erases everything of user `user_id` in one purge with one signed receipt: every row of
    /// the user's namespaces (`user:<id>` and below, see [`crate::namespace`]), the alias groups
    /// declared there, rows of shared namespaces holding one of those groups' typed identifiers,
    /// and the purge closure of all of them, never a row of another user's namespaces (see
    /// `forget_user`'s module docs for the exact rule). Scrubs, audits and signs as
    /// [`Store::purge`] does; the receipt verifies with `oubli-audit` like any other.
    ///
    /// [`Error::NoMatch`] if the user has no row to erase; [`Error::InvalidArgument`] for an
    /// empty or oversized id.
    #[tracing::instrument(name = "oubli::Store::forget_user", level = "debug", skip_all)]
    pub fn forget_user(&self, user_id: &str) -> Result<PurgeReport> {
        self.forget_user_delivering(user_id, |_| Ok(()))
    }

    /// [`Store::forget_user`], handing the opening to `deliver` before the store deletes its
    /// sealed copy (see [`Store::purge_delivering`]).
    pub fn forget_user_delivering(
        &self,
        user_id: &str,
        deliver: impl FnOnce(&Opening) -> Result<()>,
    ) -> Result<PurgeReport> {
        let selector = namespace::user_namespace(user_id)?;
        let embedder = self.opts.embedder.clone();
        self.purge_with(
            |b| -> Result<Erasure> {
                let sel = select(b, user_id)?;
                erase_selection(b, sel, &selector, embedder.as_ref(), &|r| {
                    of_another_user(r, user_id)
                })
            },
            deliver,
        )
    }

    /// Dry run of [`Store::forget_user`]: the rows it would erase (closure included), in id
    /// order. Changes nothing; [`Error::NoMatch`] as `forget_user`.
    pub fn plan_forget_user(&self, user_id: &str) -> Result<Vec<RowId>> {
        namespace::user_namespace(user_id)?;
        // A write transaction that is never committed: the selection reads as the purge would.
        let mut out = None;
        let r = self.write(|b| {
            let sel = select(b, user_id)?;
            let mut start = sel.whole.clone();
            for (id, _, _) in &sel.edits {
                start.extend(b.derived_from(*id)?);
            }
            let mut ids = closure_ids(&start, &|id| b.row(id), &|id| b.derived_from(id))?;
            let mut kept = Vec::new();
            for id in ids.drain(..) {
                if !of_another_user(&b.row(id)?, user_id) {
                    kept.push(id);
                }
            }
            for (id, _, _) in &sel.edits {
                if !kept.contains(id) {
                    kept.push(*id);
                }
            }
            kept.sort_unstable();
            out = Some(kept);
            // Failing the transaction drops it unfinished: nothing is written.
            Err::<(), _>(Error::InvalidArgument(DRY_RUN.into()))
        });
        match (r, out) {
            (_, Some(ids)) => Ok(ids),
            (Err(e), None) => Err(e),
            (Ok(()), None) => Ok(Vec::new()),
        }
    }
}
