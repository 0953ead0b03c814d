//! The note as a record: what its lines are, the selection digest that pins what it kept,
//! and how it is written as a `note` row (with its record) and read back.

use serde::{Deserialize, Serialize};

use super::certificate::Certificate;
use super::{Built, CompactOptions};
use crate::depth::Depth;
use crate::derive::SourceRef;
use crate::error::{Error, Result};
use crate::log::{EventKind, Hash32};
use crate::row::{Inscription, Kind, RowId};
use crate::storage::{self, NOTES};
use crate::store::{Inner, Store};

const DIGEST_CONTEXT: &str = "oubli 2026-11-21 note selection v1";

/// What a line of a note carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LineKind {
    /// An answer-determining source.
    Determining,
    /// Another source in scope.
    Other,
    /// A fresh derived value, labelled as derived.
    Derived,
}

/// One kept row, in the note's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NoteLine {
    /// The row.
    pub id: RowId,
    /// Why it is there.
    pub kind: LineKind,
}

/// A note written (or, on a dry run, built) by [`Store::compact`], with its completeness record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Note {
    /// The note row (`None` on a dry run).
    pub id: Option<RowId>,
    /// Seq of the `compact` event (`None` on a dry run).
    pub seq: Option<u64>,
    /// The note's text, header first.
    pub text: String,
    /// The budget it was built for.
    pub budget: usize,
    /// Whether fresh derived values were allowed.
    pub include_derived: bool,
    /// k: answer-determining sources kept.
    pub kept: usize,
    /// N: answer-determining sources in scope.
    pub total: usize,
    /// `kept == total`.
    pub complete: bool,
    /// Every answer-determining source, by id.
    pub answer_determining: Vec<RowId>,
    /// The answer-determining sources that did not fit.
    pub dropped: Vec<RowId>,
    /// Other sources in scope.
    pub others_total: usize,
    /// The kept rows in the note's order.
    pub lines: Vec<NoteLine>,
    /// Every registered derivation in scope, recomputed from the kept sources.
    pub certificate: Certificate,
    /// blake3 over the selection: budget, options, the answer-determining ids, every kept row's
    /// (id, version, salted commitment) in order, the dropped ids. Carried by the `compact` event.
    pub digest: Hash32,
    /// Salted content commitment of the text, as in the `compact` event (`None` on a dry run).
    pub commitment: Option<Hash32>,
}

impl Note {
    /// Size of the text in bytes.
    pub fn bytes(&self) -> usize {
        self.text.len()
    }
}

/// The selection digest (see [`Note::digest`]).
pub(super) fn digest(
    budget: usize,
    include_derived: bool,
    determining: &[RowId],
    kept: &[(LineKind, SourceRef)],
    dropped: &[RowId],
) -> Hash32 {
    let mut h = blake3::Hasher::new_derive_key(DIGEST_CONTEXT);
    h.update(&(budget as u64).to_le_bytes());
    h.update(&[u8::from(include_derived)]);
    h.update(&(determining.len() as u64).to_le_bytes());
    for id in determining {
        h.update(&id.to_le_bytes());
    }
    h.update(&(kept.len() as u64).to_le_bytes());
    for (kind, r) in kept {
        h.update(&[match kind {
            LineKind::Determining => 1,
            LineKind::Other => 2,
            LineKind::Derived => 3,
        }]);
        h.update(&r.id.to_le_bytes());
        h.update(&r.version.to_le_bytes());
        h.update(&r.commitment);
    }
    h.update(&(dropped.len() as u64).to_le_bytes());
    for id in dropped {
        h.update(&id.to_le_bytes());
    }
    *h.finalize().as_bytes()
}

impl Store {
    /// Writes a built note; `None` if the store changed since it was built.
    pub(super) fn write_note(&self, built: Built, opts: &CompactOptions) -> Result<Option<Note>> {
        let Built {
            mut note,
            head,
            namespace,
        } = built;
        let mut ins = Inscription::new(note.text.clone())
            .namespace(namespace.clone())
            .kind(Kind::Note)
            .derived_from(note.lines.iter().map(|l| l.id))
            .meta("oubli.note.kept", note.kept.to_string())
            .meta("oubli.note.total", note.total.to_string())
            .meta("oubli.note.complete", note.complete.to_string())
            .meta("oubli.note.budget", note.budget.to_string())
            .meta(
                "oubli.note.certificate",
                if note.certificate.mismatches().is_empty() {
                    "ok"
                } else {
                    "mismatch"
                },
            );
        ins.key = opts.key.clone();
        let (ins, v) = self.prepare(ins)?;
        self.write(|b| {
            if b.head().0 != head {
                return Ok(None);
            }
            let mut transitions = Vec::new();
            let mut replaced = None;
            if let Some(key) = &opts.key
                && let Some(holder) = b.key_holder(&namespace, key)?
            {
                let mut old = b.row(holder)?;
                if old.kind != Kind::Note {
                    return Err(Error::DuplicateKey {
                        namespace: namespace.clone(),
                        key: key.clone(),
                        holder,
                    });
                }
                transitions.push(b.set_depth(&mut old, Depth::SUBMERGED)?);
                replaced = Some(old);
            }
            let (row, t, c) = b.create_row(ins, v, replaced.as_ref().map(|o| o.id))?;
            transitions.push(t);
            if let Some(mut old) = replaced.take() {
                old.superseded_by = Some(row.id);
                b.put_row(&old)?;
                replaced = Some(old);
            }
            let seq = b.event(
                EventKind::Compact,
                &namespace,
                transitions,
                vec![c, note.digest],
            )?;
            if let Some(old) = &replaced {
                b.invalidate_dependents(&[old.id])?;
            }
            note.id = Some(row.id);
            note.seq = Some(seq);
            note.commitment = Some(c);
            let mut record = note.clone();
            record.text = String::new();
            b.tx.open_table(NOTES)?
                .insert(row.id, storage::encode(&record)?.as_slice())?;
            Ok(Some(note))
        })
    }

    /// The note record of a note row, with its text.
    pub fn note(&self, id: RowId) -> Result<Note> {
        self.read(|i| {
            let tx = i.db.begin_read()?;
            let row = Inner::read_row(&tx, id)?.ok_or(Error::UnknownRow(id))?;
            if row.depth.is_void() {
                return Err(Error::Purged(id));
            }
            let rec = storage::open_read(&tx, NOTES)?
                .and_then(|t| t.get(id).ok().flatten().map(|v| v.value().to_vec()))
                .ok_or_else(|| {
                    Error::InvalidArgument(format!("row {id} is not a compaction note"))
                })?;
            let mut note: Note = storage::decode(&rec)?;
            note.text = row.text.unwrap_or_default();
            Ok(note)
        })
    }
}
