//! The forgetting primitives: inscribe, supersede, release, pin, resurface, purge.

use serde::{Deserialize, Serialize};

use super::Store;
use super::batch::Batch;
use super::targeting::meaning::Meaning;
use super::targeting::{
    Confidence, Lookup, Policy, Rejected, Resolution, Scope, Target, TargetMatch, Width,
};
use crate::depth::Depth;
use crate::embed::check_vector;
use crate::error::{Error, Result};
use crate::log::EventKind;
use crate::planner::PlannerOutcome;
use crate::row::{Inscription, Row, RowId};
use crate::storage;

/// What a supersede did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Superseded {
    /// Rows submerged by the supersede (none when the supersede replaced one clause).
    pub replaced: Vec<RowId>,
    /// Rows rewritten without the clause the supersede replaced (clause-level edit); their old
    /// text is erased from the file.
    #[serde(default)]
    pub edited: Vec<RowId>,
    /// The new row.
    pub new_id: RowId,
    /// Sequence number of the supersede event.
    pub seq: u64,
}

impl Operation {
    /// The operation's name, as in the log and the planner contract.
    pub fn name(self) -> &'static str {
        match self {
            Operation::Supersede => "supersede",
            Operation::Release => "release",
            Operation::Pin => "pin",
            Operation::Resurface => "resurface",
            Operation::Purge => "purge",
        }
    }
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
    /// Candidate rows the target did not match, with why (query targets only).
    #[serde(default)]
    pub rejected: Vec<Rejected>,
    /// What became of the planner's proposal, when a planner is set.
    #[serde(default)]
    pub planner: Option<PlannerOutcome>,
    /// The weakest grade among the matches ([`TargetMatch::confidence`]); `None` when the
    /// call matches nothing.
    #[serde(default)]
    pub confidence: Option<Confidence>,
}

impl Store {
    pub(super) fn prepare(&self, mut ins: Inscription) -> Result<(Inscription, Vec<f32>)> {
        ins.validate()?;
        let dim = self.read(|i| Ok(i.dim))?;
        let v = match ins.vector.take() {
            Some(v) => check_vector(&v, dim)?,
            None => embed_checked(self.opts.embedder.as_ref(), &ins.text, dim)?,
        };
        Ok((ins, v))
    }

    /// Inscribes one row and returns its id.
    #[tracing::instrument(name = "oubli::Store::inscribe", level = "debug", skip_all)]
    pub fn inscribe(&self, ins: Inscription) -> Result<RowId> {
        let (ins, v) = self.prepare(ins)?;
        self.inscribe_grouped(vec![(ins, v)])?
            .pop()
            .ok_or_else(|| Error::Corrupt("an inscription wrote no row".into()))
    }

    /// Inscribes many rows in one transaction (one event per row). All or nothing: if any
    /// inscription is invalid, none is written.
    #[tracing::instrument(name = "oubli::Store::inscribe_batch", level = "debug", skip_all)]
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
        // An embedder that returns fewer vectors than texts is an embedder error, not a panic.
        let rows = prepared
            .into_iter()
            .map(|(ins, v)| {
                v.map(|v| (ins, v))
                    .ok_or_else(|| Error::Embedder("the embedder returned too few vectors".into()))
            })
            .collect::<Result<Vec<_>>>()?;
        self.inscribe_grouped(rows)
    }

    /// Inscribes under a natural key: supersedes the live row holding the key if there is one,
    /// inscribes otherwise. The inscription must carry a key.
    #[tracing::instrument(name = "oubli::Store::upsert", level = "debug", skip_all)]
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
    #[tracing::instrument(name = "oubli::Store::get", level = "debug", skip_all)]
    pub fn get(&self, id: RowId) -> Result<Row> {
        self.read(|i| {
            let tx = i.db.begin_read()?;
            super::Inner::read_row(&tx, id)?.ok_or(Error::UnknownRow(id))
        })
    }

    /// The live row holding `key` in `namespace`.
    #[tracing::instrument(name = "oubli::Store::get_by_key", level = "debug", skip_all)]
    pub fn get_by_key(&self, namespace: &str, key: &str) -> Result<Row> {
        let p = self.plan(Operation::Release, &Target::key(namespace, key))?;
        self.get(p.rows[0])
    }

    /// Dry run: the rows a call of `op` on `target` would act on and why, and for a purge the
    /// whole closure it would erase, without changing anything. A query that covers no row
    /// (the subject or attribute it names is absent) plans nothing: `rows` and `matches` are
    /// empty and `rejected` holds the nearest candidates, as [`Error::NoMatch`] would.
    pub fn plan(&self, op: Operation, target: &Target) -> Result<Plan> {
        self.plan_with(op, target, None)
    }

    /// [`Store::plan`] for a supersede whose new text is known: the new text helps choose the
    /// row and the clause it replaces, exactly as [`Store::supersede`] would.
    #[tracing::instrument(name = "oubli::Store::plan_with", level = "debug", skip_all)]
    pub fn plan_with(
        &self,
        op: Operation,
        target: &Target,
        new_text: Option<&str>,
    ) -> Result<Plan> {
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
                storage::key_holder_read(&tx, ns, k)
            };
            let aliases = i.alias_groups()?;
            // A supersede's plan chooses as the supersede does, meaning included.
            let embedder = self.opts.embedder.as_ref();
            let embed = |t: &str| embed_checked(embedder, t, i.dim);
            let meaning = Meaning {
                embed: &embed,
                range: embedder.similarity_range(),
            };
            let lookup = Lookup {
                fetch: &fetch,
                key_holder: &holder,
                aliases: &aliases,
                op: op.name(),
                planner: self.opts.planner.as_deref(),
                meaning: (op == Operation::Supersede).then_some(&meaning),
                floor: self.opts.min_confidence,
            };
            // A query that covers no row is a plan of nothing, with the nearest candidates.
            let Resolution {
                matches,
                rejected,
                planner,
            } = match i.resolve(target, scope, width, new_text, &lookup) {
                Err(Error::NoMatch(none)) if matches!(target, Target::Query { .. }) => Resolution {
                    rejected: none.candidates,
                    ..Resolution::default()
                },
                other => other?,
            };
            let ids: Vec<RowId> = matches
                .iter()
                .filter(|m| m.clauses.is_empty())
                .map(|m| m.id)
                .collect();
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
                let mut rows = super::purge::closure_ids(&ids, &row, &children)?;
                rows.extend(
                    matches
                        .iter()
                        .filter(|m| !m.clauses.is_empty())
                        .map(|m| m.id),
                );
                rows.sort_unstable();
                rows.dedup();
                rows
            } else {
                matches.iter().map(|m| m.id).collect()
            };
            Ok(Plan {
                confidence: matches.iter().map(|m| m.confidence).min(),
                matches,
                rows,
                rejected,
                planner,
            })
        })
    }

    /// Replaces the row `target` names with a new row. The old row submerges (kept for history
    /// and time travel) with `superseded_by` set; the new row inherits the old row's namespace
    /// and key unless the inscription sets them. One event records both transitions.
    ///
    /// When the target is one clause of a row that states several things ("Lena lives in
    /// Hamburg and works at Airbus"), only that clause is replaced: the row is rewritten without
    /// it ("Lena works at Airbus."), the new row is inscribed beside it, one `edit` event records
    /// both, and the old text is erased from the file as a purge would (unless scrubbing is
    /// deferred, see [`crate::StoreOptions::scrub_on_purge`]).
    #[tracing::instrument(name = "oubli::Store::supersede", level = "debug", skip_all)]
    pub fn supersede(&self, target: Target, ins: Inscription) -> Result<Superseded> {
        let (mut ins, v) = self.prepare(ins)?;
        let embedder = self.opts.embedder.clone();
        let planner = self.opts.planner.clone();
        let policy = Policy {
            planner: planner.as_deref(),
            floor: self.opts.min_confidence,
        };
        let out = self.write(|b| {
            let res = resolve_with_meaning(
                b,
                &target,
                Scope::Live,
                Width::One,
                Some(&ins.text),
                "supersede",
                policy,
                Some(embedder.as_ref()),
            )?;
            let m = &res.matches[0];
            let mut old = b.row(m.id)?;
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
            let old_text = old.text.clone().unwrap_or_default();
            let kept = if m.clauses.is_empty() {
                // One phrase of a one-clause row restated ("The booking is at 20:00."): the
                // row keeps its other phrases.
                crate::clause::phrase_without(&old_text, &ins.text)
            } else {
                m.rewrite
                    .clone()
                    .or_else(|| crate::clause::rewrite_without(&old_text, &m.clauses))
            };
            if let Some(kept) = kept {
                let kept_vec = embed_checked(embedder.as_ref(), &kept, b.inner().dim)?;
                let ns = old.namespace.clone();
                let edit = b.rewrite_row(&mut old, kept, kept_vec)?;
                let (new, t_new, c) = b.create_row(ins, v, None)?;
                let seq = b.event(
                    EventKind::Edit,
                    &ns,
                    vec![edit.transition, t_new],
                    vec![edit.commitment, c],
                )?;
                b.invalidate_dependents(&[old.id])?;
                return Ok(Superseded {
                    replaced: Vec::new(),
                    edited: vec![old.id],
                    new_id: new.id,
                    seq,
                });
            }
            if ins.key.is_none() && ins.namespace.as_deref() == Some(old.namespace.as_str()) {
                ins.key = old.key.clone();
            }
            let (new, seq) = supersede_row(b, &mut old, ins, v)?;
            b.invalidate_dependents(&[old.id])?;
            Ok(Superseded {
                replaced: vec![old.id],
                edited: Vec::new(),
                new_id: new.id,
                seq,
            })
        })?;
        if !out.edited.is_empty() && self.opts.scrub_on_purge {
            self.scrub()?;
        }
        Ok(out)
    }

    /// Submerges what `target` names (soft forget, depth 0): recall stops returning it, history
    /// and time travel keep it, [`Store::resurface`] brings it back. A query may fan out to
    /// several rows. One event per row.
    #[tracing::instrument(name = "oubli::Store::release", level = "debug", skip_all)]
    pub fn release(&self, target: Target) -> Result<Vec<RowId>> {
        self.transition(target, "release", EventKind::Release, Scope::Live, |_| {
            Depth::SUBMERGED
        })
    }

    /// Pins what `target` names: depth `+inf`, never decays. Works on submerged rows too.
    #[tracing::instrument(name = "oubli::Store::pin", level = "debug", skip_all)]
    pub fn pin(&self, target: Target) -> Result<Vec<RowId>> {
        self.transition(target, "pin", EventKind::Pin, Scope::NotVoid, |_| {
            Depth::Pinned
        })
    }

    /// Brings submerged or sinking rows back to the surface (depth 1). Pinned rows stay pinned.
    #[tracing::instrument(name = "oubli::Store::resurface", level = "debug", skip_all)]
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
            let policy = self.opts.policy();
            let matches = resolve_in(b, &target, scope, width, None, op, policy)?.matches;
            let mut changed = Vec::new();
            for m in matches {
                let mut row = b.row(m.id)?;
                if row.depth.is_void() {
                    return Err(Error::Purged(row.id));
                }
                if kind == EventKind::Release && !m.clauses.is_empty() && row.depth.is_live() {
                    self.release_clauses(b, &mut row, &m)?;
                    changed.push(row.id);
                    continue;
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

impl Store {
    /// Releases some clauses of a row: the row is rewritten without them and the released
    /// clauses (with the sentence subject) become a new submerged row, so history and
    /// resurface keep them. One `edit` event records both.
    fn release_clauses(&self, b: &mut Batch<'_>, row: &mut Row, m: &TargetMatch) -> Result<()> {
        let text = row.text.clone().unwrap_or_default();
        let all = crate::clause::clauses(&text);
        let others: Vec<usize> = (0..all.len()).filter(|i| !m.clauses.contains(i)).collect();
        let (Some(kept), Some(released)) = (
            m.rewrite
                .clone()
                .or_else(|| crate::clause::rewrite_without(&text, &m.clauses)),
            crate::clause::rewrite_without(&text, &others),
        ) else {
            return Ok(());
        };
        let dim = b.inner().dim;
        let kept_vec = embed_checked(self.opts.embedder.as_ref(), &kept, dim)?;
        let released_vec = embed_checked(self.opts.embedder.as_ref(), &released, dim)?;
        let edit = b.rewrite_row(row, kept, kept_vec)?;
        let mut ins = Inscription::new(released);
        ins.namespace = Some(row.namespace.clone());
        ins.metadata = row.metadata.clone();
        let (mut new, mut t_new, c) = b.create_row(ins, released_vec, None)?;
        b.set_depth(&mut new, Depth::SUBMERGED)?;
        b.put_row(&new)?;
        t_new.after = Depth::SUBMERGED;
        b.event(
            EventKind::Edit,
            &row.namespace,
            vec![edit.transition, t_new],
            vec![edit.commitment, c],
        )?;
        b.invalidate_dependents(&[row.id])?;
        Ok(())
    }
}

pub(super) fn resolve_in(
    b: &Batch<'_>,
    target: &Target,
    scope: Scope,
    width: Width,
    hint: Option<&str>,
    op: &'static str,
    policy: Policy<'_>,
) -> Result<Resolution> {
    resolve_with_meaning(b, target, scope, width, hint, op, policy, None)
}

/// [`resolve_in`] for a supersede: `embedder` lets meaning choose between rows about the
/// query's subject when the words cannot (see `targeting::meaning`).
#[allow(clippy::too_many_arguments)]
pub(super) fn resolve_with_meaning(
    b: &Batch<'_>,
    target: &Target,
    scope: Scope,
    width: Width,
    hint: Option<&str>,
    op: &'static str,
    policy: Policy<'_>,
    embedder: Option<&dyn crate::embed::Embedder>,
) -> Result<Resolution> {
    let fetch = |id| match b.row(id) {
        Ok(r) => Ok(Some(r)),
        Err(Error::UnknownRow(_)) => Ok(None),
        Err(e) => Err(e),
    };
    let holder = |ns: &str, k: &str| b.key_holder(ns, k);
    let aliases = b.alias_groups()?;
    let dim = b.inner().dim;
    let embed = |t: &str| match embedder {
        Some(e) => embed_checked(e, t, dim),
        None => Err(Error::InvalidArgument("no embedder".into())),
    };
    let meaning = embedder.map(|e| Meaning {
        embed: &embed,
        range: e.similarity_range(),
    });
    let lookup = Lookup {
        fetch: &fetch,
        key_holder: &holder,
        aliases: &aliases,
        op,
        planner: policy.planner,
        meaning: meaning.as_ref(),
        floor: policy.floor,
    };
    b.inner().resolve(target, scope, width, hint, &lookup)
}

/// Submerges `old` and writes `ins` (embedded as `v`) as its successor, linked both ways, in one
/// `supersede` event; returns the new row and the event's seq. The caller invalidates `old`'s
/// dependents once it has finished with the new row.
pub(super) fn supersede_row(
    b: &mut Batch<'_>,
    old: &mut Row,
    ins: Inscription,
    v: Vec<f32>,
) -> Result<(Row, u64)> {
    let t_old = b.set_depth(old, Depth::SUBMERGED)?;
    let ns = old.namespace.clone();
    let (new, t_new, c) = b.create_row(ins, v, Some(old.id))?;
    old.superseded_by = Some(new.id);
    b.put_row(old)?;
    let seq = b.event(EventKind::Supersede, &ns, vec![t_old, t_new], vec![c])?;
    Ok((new, seq))
}

/// Embeds `text` with `embedder` and checks the vector.
pub(super) fn embed_checked(
    embedder: &dyn crate::embed::Embedder,
    text: &str,
    dim: usize,
) -> Result<Vec<f32>> {
    let e = embedder.embed(text)?;
    check_vector(&e, dim).map_err(|e| Error::Embedder(e.to_string()))
}
