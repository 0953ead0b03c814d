//! Provenance, registered derivations, invalidation and recomputation.
//!
//! - Every row inscribed with `derived_from` gets a [`Provenance`] record naming the exact source
//!   versions (id, creating seq, salted content commitment).
//! - [`Store::inscribe_derived`] also registers a [`Derivation`], the value the row states and a
//!   text template; a row whose stated value disagrees with its sources is stale from birth.
//! - Superseding or releasing a row marks every row built on it stale, transitively, one
//!   `invalidate` event per row (see [`Batch::invalidate_dependents`]). Recall and list leave
//!   stale rows out unless asked.
//! - [`Store::recompute`] writes a new version of a derived row from the live heads of its
//!   sources' supersede chains.

use std::collections::{BTreeSet, VecDeque};

use redb::ReadableTable;
use serde::{Deserialize, Serialize};

use super::batch::Batch;
use super::ops::supersede_row;
use super::{Inner, Store, Superseded};
use crate::derive::{Decimal, Derivation, Provenance, SourceRef, VALUE_FIELD};
use crate::error::{Error, Result};
use crate::log::EventKind;
use crate::row::{Inscription, Kind, Row, RowId};
use crate::storage::{self, NOTES, PAYLOADS, PROVENANCE, STALE};

/// The state of a derived row against its sources, from [`Store::check_derived`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DerivedCheck {
    /// The row.
    pub id: RowId,
    /// Sequence number of the `invalidate` event that marked it stale, if it is stale.
    pub stale_since: Option<u64>,
    /// The value the row states (registered derivations only).
    pub claimed: Option<Decimal>,
    /// The value its derivation gives over the live heads of its sources, when computable.
    pub recomputed: Option<Decimal>,
    /// Every source is still the live, unchanged version the row was built from.
    pub sources_current: bool,
    /// Not stale, sources current, and (for a registered derivation) claimed == recomputed.
    pub fresh: bool,
}

/// What [`Store::inscribe_derived`] wrote.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DerivedRow {
    /// The new row.
    pub id: RowId,
    /// The value the row states.
    pub claimed: Decimal,
    /// The value its sources give.
    pub recomputed: Decimal,
    /// Set when the two disagree: the row is stale from birth (seq of its `invalidate` event).
    pub stale_since: Option<u64>,
}

impl Batch<'_> {
    /// The exact version of a row, as a provenance entry.
    pub(crate) fn source_ref(&self, id: RowId) -> Result<SourceRef> {
        let row = self.row(id)?;
        let payloads = self.tx.open_table(PAYLOADS)?;
        let p = payloads.get(id)?.ok_or(Error::Purged(id))?;
        let p = storage::Payload::decode(p.value())?;
        Ok(SourceRef {
            id,
            version: row.created_seq,
            commitment: storage::commitment(&p.salt, &p.text),
        })
    }

    /// Records the source versions of a freshly created row that names sources.
    pub(crate) fn record_sources(&self, row: &Row) -> Result<()> {
        if row.derived_from.is_empty() {
            return Ok(());
        }
        let sources = row
            .derived_from
            .iter()
            .map(|id| self.source_ref(*id))
            .collect::<Result<Vec<_>>>()?;
        self.put_provenance(
            row.id,
            &Provenance {
                sources,
                derivation: None,
                claimed: None,
                template: None,
            },
        )
    }

    pub(crate) fn put_provenance(&self, id: RowId, p: &Provenance) -> Result<()> {
        self.tx
            .open_table(PROVENANCE)?
            .insert(id, storage::encode(p)?.as_slice())?;
        Ok(())
    }

    pub(crate) fn provenance(&self, id: RowId) -> Result<Option<Provenance>> {
        let t = self.tx.open_table(PROVENANCE)?;
        let v = t.get(id)?;
        v.map(|v| storage::decode(v.value())).transpose()
    }

    /// Drops a purged row's provenance, note record and stale mark (they describe its content).
    pub(crate) fn forget_derivation_records(&self, id: RowId) -> Result<()> {
        self.tx.open_table(PROVENANCE)?.remove(id)?;
        self.tx.open_table(NOTES)?.remove(id)?;
        self.tx.open_table(STALE)?.remove(id)?;
        Ok(())
    }

    /// Seq of the event that marked `id` stale.
    pub(crate) fn stale_since(&self, id: RowId) -> Result<Option<u64>> {
        Ok(self.tx.open_table(STALE)?.get(id)?.map(|v| v.value()))
    }

    /// Marks one row stale with its own `invalidate` event (depth unchanged). Returns false if
    /// it was already stale or is void.
    pub(crate) fn mark_stale(&mut self, id: RowId) -> Result<bool> {
        let row = self.row(id)?;
        if row.depth.is_void() || self.stale_since(id)?.is_some() {
            return Ok(false);
        }
        let t = crate::log::Transition {
            row: id,
            before: Some(row.depth),
            after: row.depth,
        };
        let seq = self.event(EventKind::Invalidate, &row.namespace, vec![t], vec![])?;
        self.tx.open_table(STALE)?.insert(id, seq)?;
        Ok(true)
    }

    /// Marks every row built on `ids` (derived rows and notes, transitively) stale, one event
    /// each, in breadth-first then id order. Returns the rows newly marked.
    pub(crate) fn invalidate_dependents(&mut self, ids: &[RowId]) -> Result<Vec<RowId>> {
        let mut seen: BTreeSet<RowId> = ids.iter().copied().collect();
        let mut queue: VecDeque<RowId> = ids.iter().copied().collect();
        let mut marked = Vec::new();
        while let Some(id) = queue.pop_front() {
            let mut children = self.derived_from(id)?;
            children.sort_unstable();
            for c in children {
                if !seen.insert(c) {
                    continue;
                }
                if self.mark_stale(c)? {
                    marked.push(c);
                }
                queue.push_back(c);
            }
        }
        Ok(marked)
    }
}

/// The live head of `id`'s supersede chain, if the chain ends in a live row.
pub(crate) fn live_head(row: &dyn Fn(RowId) -> Result<Row>, id: RowId) -> Result<Option<Row>> {
    let mut r = row(id)?;
    let mut guard = 0usize;
    while let Some(next) = r.superseded_by {
        r = row(next)?;
        guard += 1;
        if guard > 1_000_000 {
            return Err(Error::Corrupt("supersede chain loops".into()));
        }
    }
    Ok(r.depth.is_live().then_some(r))
}

/// Reads from a read transaction, for the checks that run outside a write.
pub(crate) struct Reader<'a> {
    pub(crate) tx: &'a redb::ReadTransaction,
}

impl Reader<'_> {
    pub(crate) fn row(&self, id: RowId) -> Result<Row> {
        Inner::read_row(self.tx, id)?.ok_or(Error::UnknownRow(id))
    }

    pub(crate) fn provenance(&self, id: RowId) -> Result<Option<Provenance>> {
        match storage::open_read(self.tx, PROVENANCE)? {
            Some(t) => t.get(id)?.map(|v| storage::decode(v.value())).transpose(),
            None => Ok(None),
        }
    }

    pub(crate) fn stale_since(&self, id: RowId) -> Result<Option<u64>> {
        match storage::open_read(self.tx, STALE)? {
            Some(t) => Ok(t.get(id)?.map(|v| v.value())),
            None => Ok(None),
        }
    }

    /// The current version of a row as a provenance entry (`None` once purged).
    pub(crate) fn source_ref(&self, id: RowId) -> Result<Option<SourceRef>> {
        let row = self.row(id)?;
        let Some(t) = storage::open_read(self.tx, PAYLOADS)? else {
            return Ok(None);
        };
        let Some(p) = t.get(id)? else {
            return Ok(None);
        };
        let p = storage::Payload::decode(p.value())?;
        Ok(Some(SourceRef {
            id,
            version: row.created_seq,
            commitment: storage::commitment(&p.salt, &p.text),
        }))
    }

    /// See [`Store::check_derived`].
    pub(crate) fn check(&self, id: RowId) -> Result<DerivedCheck> {
        let row = self.row(id)?;
        let stale_since = self.stale_since(id)?;
        let prov = self.provenance(id)?;
        let mut sources_current = row.depth.is_live() && prov.is_some();
        let mut recomputed = None;
        let mut claimed = None;
        if let Some(p) = &prov {
            for s in &p.sources {
                let r = self.row(s.id)?;
                let current = r.depth.is_live()
                    && r.superseded_by.is_none()
                    && self.source_ref(s.id)?.as_ref() == Some(s);
                sources_current &= current;
            }
            claimed = p.claimed;
            if let Some(d) = &p.derivation {
                let fetch = |i| self.row(i);
                let heads = p
                    .sources
                    .iter()
                    .map(|s| live_head(&fetch, s.id))
                    .collect::<Result<Option<Vec<Row>>>>()?;
                if let Some(heads) = heads {
                    recomputed = d.evaluate(heads.iter().map(|r| (r.id, &r.metadata))).ok();
                }
            }
        }
        let value_ok = match (&prov, claimed, recomputed) {
            (Some(p), _, _) if p.derivation.is_none() => true,
            (_, Some(c), Some(v)) => c == v,
            _ => false,
        };
        Ok(DerivedCheck {
            id,
            stale_since,
            claimed,
            recomputed,
            sources_current,
            fresh: stale_since.is_none() && sources_current && value_ok,
        })
    }
}

/// The template of a derived text: `{value}` marks where the value goes.
fn template_for(text: &str, claimed: &str) -> String {
    if text.contains("{value}") {
        text.to_owned()
    } else if let Some(at) = text.rfind(claimed) {
        format!("{}{{value}}{}", &text[..at], &text[at + claimed.len()..])
    } else {
        format!("{text} = {{value}}")
    }
}

impl Store {
    /// Inscribes a derived row with a registered derivation over `ins.derived_from`.
    ///
    /// The row states its value in metadata field `value` (computed from the sources when the
    /// inscription gives none). `{value}` in the text is replaced by it; otherwise the last
    /// occurrence of the value in the text is where [`Store::recompute`] writes a new one. If the
    /// stated value disagrees with what the sources give, the row is written and marked stale at
    /// once (an `invalidate` event after its `inscribe` event).
    #[tracing::instrument(name = "oubli::Store::inscribe_derived", level = "debug", skip_all)]
    pub fn inscribe_derived(
        &self,
        mut ins: Inscription,
        derivation: Derivation,
    ) -> Result<DerivedRow> {
        derivation.validate()?;
        if ins.derived_from.is_empty() {
            return Err(Error::InvalidArgument(
                "a derived row needs its sources in derived_from".into(),
            ));
        }
        ins.kind = Kind::Derived;
        let recomputed = self.read(|i| {
            let tx = i.db.begin_read()?;
            let r = Reader { tx: &tx };
            let rows = ins
                .derived_from
                .iter()
                .map(|id| {
                    let row = r.row(*id)?;
                    if row.depth.is_void() {
                        return Err(Error::Purged(*id));
                    }
                    Ok(row)
                })
                .collect::<Result<Vec<_>>>()?;
            derivation.evaluate(rows.iter().map(|r| (r.id, &r.metadata)))
        })?;
        let claimed = match ins.metadata.get(VALUE_FIELD) {
            Some(v) => Decimal::from_meta(v)?,
            None => recomputed,
        };
        ins.metadata
            .insert(VALUE_FIELD.to_owned(), claimed.to_string().into());
        let template = template_for(&ins.text, &claimed.to_string());
        ins.text = template.replace("{value}", &claimed.to_string());
        let (ins, v) = self.prepare(ins)?;
        self.write(|b| {
            let ns = ins.namespace_or_default().to_owned();
            let (row, t, c) = b.create_row(ins, v, None)?;
            b.event(EventKind::Inscribe, &ns, vec![t], vec![c])?;
            let mut p = b
                .provenance(row.id)?
                .ok_or_else(|| Error::Corrupt("provenance not recorded".into()))?;
            p.derivation = Some(derivation.clone());
            p.claimed = Some(claimed);
            p.template = Some(template.clone());
            b.put_provenance(row.id, &p)?;
            let stale_since = if claimed != recomputed && b.mark_stale(row.id)? {
                b.stale_since(row.id)?
            } else {
                None
            };
            Ok(DerivedRow {
                id: row.id,
                claimed,
                recomputed,
                stale_since,
            })
        })
    }

    /// The provenance record of a derived row or note (`None` for rows that name no sources).
    pub fn provenance(&self, id: RowId) -> Result<Option<Provenance>> {
        self.read(|i| {
            let tx = i.db.begin_read()?;
            Reader { tx: &tx }.provenance(id)
        })
    }

    /// The seq of the `invalidate` event that marked `id` stale, or `None` if it is not stale.
    pub fn stale_since(&self, id: RowId) -> Result<Option<u64>> {
        self.read(|i| {
            let tx = i.db.begin_read()?;
            let r = Reader { tx: &tx };
            r.row(id)?;
            r.stale_since(id)
        })
    }

    /// Checks a derived row (or note) against its sources: stale mark, source versions, and the
    /// registered derivation recomputed over the live heads of the sources' supersede chains.
    pub fn check_derived(&self, id: RowId) -> Result<DerivedCheck> {
        self.read(|i| {
            let tx = i.db.begin_read()?;
            Reader { tx: &tx }.check(id)
        })
    }

    /// Writes a new version of a derived row with a registered derivation: its sources become
    /// the live heads of the old sources' supersede chains, its value and text are recomputed,
    /// and the old version submerges (one `supersede` event). Rows built on the old version are
    /// marked stale. Fails with [`Error::Derivation`] if the row has no registered derivation or
    /// a source chain no longer ends in a live row.
    #[tracing::instrument(name = "oubli::Store::recompute", level = "debug", skip_all)]
    pub fn recompute(&self, id: RowId) -> Result<Superseded> {
        let ins = self.read(|i| {
            let tx = i.db.begin_read()?;
            let r = Reader { tx: &tx };
            let row = r.row(id)?;
            if row.depth.is_void() {
                return Err(Error::Purged(id));
            }
            if !row.depth.is_live() || row.superseded_by.is_some() {
                return Err(Error::InvalidTransition {
                    id,
                    op: "recompute",
                    state: if row.superseded_by.is_some() {
                        "superseded"
                    } else {
                        row.depth.state().name()
                    },
                });
            }
            let p = r.provenance(id)?;
            let (Some(p), Some(d)) = (p.clone(), p.and_then(|p| p.derivation)) else {
                return Err(Error::Derivation(format!(
                    "row {id} has no registered derivation"
                )));
            };
            let fetch = |i| r.row(i);
            let mut heads = Vec::with_capacity(p.sources.len());
            for s in &p.sources {
                heads.push(live_head(&fetch, s.id)?.ok_or_else(|| {
                    Error::Derivation(format!("source #{} was released or purged", s.id))
                })?);
            }
            let value = d.evaluate(heads.iter().map(|r| (r.id, &r.metadata)))?;
            let template = p.template.clone().unwrap_or_else(|| "{value}".into());
            let mut ins = Inscription::new(template.replace("{value}", &value.to_string()))
                .namespace(row.namespace.clone())
                .kind(Kind::Derived)
                .derived_from(heads.iter().map(|h| h.id));
            ins.metadata = row.metadata.clone();
            ins.metadata
                .insert(VALUE_FIELD.to_owned(), value.to_string().into());
            ins.valid_until = row.valid_until;
            Ok((ins, d, value, template))
        })?;
        let (ins, derivation, value, template) = ins;
        let (mut ins, v) = self.prepare(ins)?;
        self.write(|b| {
            let mut old = b.row(id)?;
            if !old.depth.is_live() || old.superseded_by.is_some() {
                return Err(Error::InvalidTransition {
                    id,
                    op: "recompute",
                    state: old.depth.state().name(),
                });
            }
            ins.key = old.key.clone();
            let (new, seq) = supersede_row(b, &mut old, ins, v)?;
            let mut p = b
                .provenance(new.id)?
                .ok_or_else(|| Error::Corrupt("provenance not recorded".into()))?;
            p.derivation = Some(derivation.clone());
            p.claimed = Some(value);
            p.template = Some(template.clone());
            b.put_provenance(new.id, &p)?;
            b.invalidate_dependents(&[old.id])?;
            Ok(Superseded {
                replaced: vec![old.id],
                edited: Vec::new(),
                new_id: new.id,
                seq,
            })
        })
    }
}
