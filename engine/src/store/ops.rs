//! The forgetting primitives: inscribe, supersede, release, pin, resurface, purge.

use serde::{Deserialize, Serialize};

use super::Store;
use super::batch::Batch;
use super::target::{Scope, Target, TargetMatch, Width};
use crate::depth::Depth;
use crate::embed::check_vector;
use crate::error::{Error, Result};
use crate::log::EventKind;
use crate::row::{Inscription, Row, RowId};
use crate::storage;

/// What a supersede did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Superseded {
    /// Rows submerged by the supersede (one today).
    pub replaced: Vec<RowId>,
    /// The new row.
    pub new_id: RowId,
    /// Sequence number of the supersede event.
    pub seq: u64,
}

/// A mutating operation, for [`Store::plan`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Operation {
    /// [`Store::supersede`].
    Supersede,
    /// [`Store::release`].
    Release,
    /// [`Store::pin`].
    Pin,
    /// [`Store::resurface`].
    Resurface,
    /// [`Store::purge`].
    Purge,
}

/// What a call would do: the rows its target resolves to, and every row it would change.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    /// The rows the target matches, best first, with why.
    pub matches: Vec<TargetMatch>,
    /// Every row the call would change (for a purge: the closure), in id order for purges.
    pub rows: Vec<RowId>,
}

impl Store {
    pub(super) fn prepare(&self, mut ins: Inscription) -> Result<(Inscription, Vec<f32>)> {
        ins.validate()?;
        let dim = self.read(|i| Ok(i.dim))?;
        let v = match ins.vector.take() {
            Some(v) => check_vector(&v, dim)?,
            None => {
                let e = self.opts.embedder.embed(&ins.text)?;
                check_vector(&e, dim).map_err(|e| Error::Embedder(e.to_string()))?
            }
        };
        Ok((ins, v))
    }

    /// Inscribes one row and returns its id.
    pub fn inscribe(&self, ins: Inscription) -> Result<RowId> {
        let (ins, v) = self.prepare(ins)?;
        self.write(|b| {
            let ns = ins.namespace_or_default().to_owned();
            let (row, t, c) = b.create_row(ins, v, None)?;
            b.event(EventKind::Inscribe, &ns, vec![t], vec![c])?;
            Ok(row.id)
        })
    }

    /// Inscribes many rows in one transaction (one event per row). All or nothing: if any
    /// inscription is invalid, none is written.
    pub fn inscribe_batch(&self, batch: Vec<Inscription>) -> Result<Vec<RowId>> {
        let dim = self.read(|i| Ok(i.dim))?;
        let mut prepared = Vec::with_capacity(batch.len());
        let mut to_embed = Vec::new();
        for (i, mut ins) in batch.into_iter().enumerate() {
            ins.validate()
                .map_err(|e| Error::InvalidArgument(format!("inscription {i}: {e}")))?;
            let v = match ins.vector.take() {
                Some(v) => Some(check_vector(&v, dim)?),
                None => {
                    to_embed.push(i);
                    None
                }
            };
            prepared.push((ins, v));
        }
        let texts: Vec<&str> = to_embed
            .iter()
            .map(|&i| prepared[i].0.text.as_str())
            .collect();
        let embedded = self.opts.embedder.embed_batch(&texts)?;
        for (i, e) in to_embed.into_iter().zip(embedded) {
            prepared[i].1 =
                Some(check_vector(&e, dim).map_err(|e| Error::Embedder(e.to_string()))?);
        }
        self.write(|b| {
            let mut ids = Vec::with_capacity(prepared.len());
            for (ins, v) in prepared {
                let ns = ins.namespace_or_default().to_owned();
                let (row, t, c) = b.create_row(ins, v.expect("embedded above"), None)?;
                b.event(EventKind::Inscribe, &ns, vec![t], vec![c])?;
                ids.push(row.id);
            }
            Ok(ids)
        })
    }

    /// Inscribes under a natural key: supersedes the live row holding the key if there is one,
    /// inscribes otherwise. The inscription must carry a key.
    pub fn upsert(&self, ins: Inscription) -> Result<RowId> {
        let key = ins
            .key
            .clone()
            .ok_or_else(|| Error::InvalidArgument("upsert needs a key".into()))?;
        let ns = ins.namespace_or_default().to_owned();
        match self.supersede(Target::key(ns, key), ins.clone()) {
            Ok(s) => Ok(s.new_id),
            Err(Error::UnknownKey { .. }) => self.inscribe(ins),
            Err(e) => Err(e),
        }
    }

    /// Reads one row by id, whatever its depth (a purged row comes back with no text).
    pub fn get(&self, id: RowId) -> Result<Row> {
        self.read(|i| {
            let tx = i.db.begin_read()?;
            super::Inner::read_row(&tx, id)?.ok_or(Error::UnknownRow(id))
        })
    }

    /// The live row holding `key` in `namespace`.
    pub fn get_by_key(&self, namespace: &str, key: &str) -> Result<Row> {
        let p = self.plan(Operation::Release, &Target::key(namespace, key))?;
        self.get(p.rows[0])
    }

    /// Dry run: the rows a call of `op` on `target` would act on and why, and for a purge the
    /// whole closure it would erase, without changing anything.
    pub fn plan(&self, op: Operation, target: &Target) -> Result<Plan> {
        let (scope, width) = match (op, target) {
            (Operation::Supersede, _) => (Scope::Live, Width::One),
            (Operation::Release, Target::Query { .. }) => (Scope::Live, Width::All),
            (Operation::Release, _) => (Scope::Live, Width::One),
            (Operation::Pin | Operation::Resurface, Target::Query { .. }) => {
                (Scope::NotVoid, Width::All)
            }
            (Operation::Pin | Operation::Resurface, _) => (Scope::NotVoid, Width::One),
            (Operation::Purge, _) => (Scope::NotVoid, Width::All),
        };
        self.read(|i| {
            let tx = i.db.begin_read()?;
            let fetch = |id| super::Inner::read_row(&tx, id);
            let holder = |ns: &str, k: &str| -> Result<Option<RowId>> {
                match storage::open_read(&tx, storage::KEYS)? {
                    Some(t) => Ok(t.get((ns, k))?.map(|v| v.value())),
                    None => Ok(None),
                }
            };
            let matches = i.resolve(target, scope, width, &fetch, &holder)?;
            let ids: Vec<RowId> = matches.iter().map(|m| m.id).collect();
            let rows = if op == Operation::Purge {
                let row = |id| fetch(id)?.ok_or(Error::UnknownRow(id));
                let children = |id: RowId| -> Result<Vec<RowId>> {
                    let mut out = Vec::new();
                    if let Some(t) = storage::open_read(&tx, storage::DERIVED)? {
                        for e in t.range((id, 0)..=(id, u64::MAX))? {
                            out.push(e?.0.value().1);
                        }
                    }
                    Ok(out)
                };
                super::purge::closure_ids(&ids, &row, &children)?
            } else {
                ids
            };
            Ok(Plan { matches, rows })
        })
    }

    /// Replaces the row `target` names with a new row. The old row submerges (kept for history
    /// and time travel) with `superseded_by` set; the new row inherits the old row's namespace
    /// and key unless the inscription sets them. One event records both transitions.
    pub fn supersede(&self, target: Target, ins: Inscription) -> Result<Superseded> {
        let (mut ins, v) = self.prepare(ins)?;
        self.write(|b| {
            let m = resolve_in(b, &target, Scope::Live, Width::One)?;
            let mut old = b.row(m[0].id)?;
            if !old.depth.is_live() {
                return Err(Error::InvalidTransition {
                    id: old.id,
                    op: "supersede",
                    state: old.depth.state().name(),
                });
            }
            if ins.namespace.is_none() {
                ins.namespace = Some(old.namespace.clone());
            }
            if ins.key.is_none() && ins.namespace.as_deref() == Some(old.namespace.as_str()) {
                ins.key = old.key.clone();
            }
            let t_old = b.set_depth(&mut old, Depth::SUBMERGED)?;
            let ns = old.namespace.clone();
            let (new, t_new, c) = b.create_row(ins, v, Some(old.id))?;
            old.superseded_by = Some(new.id);
            b.put_row(&old)?;
            let seq = b.event(EventKind::Supersede, &ns, vec![t_old, t_new], vec![c])?;
            b.invalidate_dependents(&[old.id])?;
            Ok(Superseded {
                replaced: vec![old.id],
                new_id: new.id,
                seq,
            })
        })
    }

    /// Submerges what `target` names (soft forget, depth 0): recall stops returning it, history
    /// and time travel keep it, [`Store::resurface`] brings it back. A query may fan out to
    /// several rows. One event per row.
    pub fn release(&self, target: Target) -> Result<Vec<RowId>> {
        self.transition(target, "release", EventKind::Release, Scope::Live, |_| {
            Depth::SUBMERGED
        })
    }

    /// Pins what `target` names: depth `+inf`, never decays. Works on submerged rows too.
    pub fn pin(&self, target: Target) -> Result<Vec<RowId>> {
        self.transition(target, "pin", EventKind::Pin, Scope::NotVoid, |_| {
            Depth::Pinned
        })
    }

    /// Brings submerged or sinking rows back to the surface (depth 1). Pinned rows stay pinned.
    pub fn resurface(&self, target: Target) -> Result<Vec<RowId>> {
        self.transition(
            target,
            "resurface",
            EventKind::Resurface,
            Scope::NotVoid,
            |d| {
                if d == Depth::Pinned {
                    Depth::Pinned
                } else {
                    Depth::SURFACE
                }
            },
        )
    }

    fn transition(
        &self,
        target: Target,
        op: &'static str,
        kind: EventKind,
        scope: Scope,
        to: impl Fn(Depth) -> Depth,
    ) -> Result<Vec<RowId>> {
        self.write(|b| {
            let width = if matches!(target, Target::Query { .. }) {
                Width::All
            } else {
                Width::One
            };
            let matches = resolve_in(b, &target, scope, width)?;
            let mut changed = Vec::new();
            for m in matches {
                let mut row = b.row(m.id)?;
                if row.depth.is_void() {
                    return Err(Error::Purged(row.id));
                }
                if kind == EventKind::Release && !row.depth.is_live() {
                    return Err(Error::InvalidTransition {
                        id: row.id,
                        op,
                        state: row.depth.state().name(),
                    });
                }
                let new = to(row.depth);
                if new == row.depth {
                    continue;
                }
                let t = b.set_depth(&mut row, new)?;
                if new == Depth::SURFACE {
                    row.surfaced_at = b.now;
                }
                b.put_row(&row)?;
                b.event(kind, &row.namespace, vec![t], vec![])?;
                if kind == EventKind::Release {
                    b.invalidate_dependents(&[row.id])?;
                }
                changed.push(row.id);
            }
            Ok(changed)
        })
    }
}

pub(super) fn resolve_in(
    b: &Batch<'_>,
    target: &Target,
    scope: Scope,
    width: Width,
) -> Result<Vec<TargetMatch>> {
    let fetch = |id| match b.row(id) {
        Ok(r) => Ok(Some(r)),
        Err(Error::UnknownRow(_)) => Ok(None),
        Err(e) => Err(e),
    };
    let holder = |ns: &str, k: &str| b.key_holder(ns, k);
    b.inner.resolve(target, scope, width, &fetch, &holder)
}
