//! Replay: every `compact` event of the log rebuilt from its note's record and the rows it
//! keeps, and checked against the commitment and digest the event carries.

use redb::ReadableTable;
use serde::{Deserialize, Serialize};

use super::note::{Note, digest};
use super::text::render;
use crate::error::{Error, Result};
use crate::log::{Event, EventKind, Hash32};
use crate::row::RowId;
use crate::storage::{self, EVENTS, NOTES, PAYLOADS};
use crate::store::Store;
use crate::store::provenance::Reader;

/// What [`Store::replay_notes`] found for one `compact` event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NoteReplay {
    /// The note row.
    pub note: RowId,
    /// The `compact` event.
    pub seq: u64,
    /// The note was purged since (nothing left to rebuild).
    pub purged: bool,
    /// Rebuilt text's salted commitment equals the event's.
    pub commitment_matches: bool,
    /// Rebuilt selection digest equals the event's.
    pub digest_matches: bool,
    /// The rebuilt digest.
    pub digest: Hash32,
}

/// The digest of a note record, from the current versions of the rows it keeps.
fn digest_of(r: &Reader<'_>, note: &Note) -> Result<Hash32> {
    let kept = note
        .lines
        .iter()
        .map(|l| Ok((l.kind, r.source_ref(l.id)?.ok_or(Error::Purged(l.id))?)))
        .collect::<Result<Vec<_>>>()?;
    Ok(digest(
        note.budget,
        note.include_derived,
        &note.answer_determining,
        &kept,
        &note.dropped,
    ))
}

impl Store {
    /// Replays every `compact` event of the log over the payloads: rebuilds each note's text
    /// from its record and the rows it keeps, and checks the text's salted commitment and the
    /// selection digest against the ones the event carries. Purged notes are reported as such.
    pub fn replay_notes(&self) -> Result<Vec<NoteReplay>> {
        self.read(|i| {
            let tx = i.db.begin_read()?;
            let r = Reader { tx: &tx };
            let mut out = Vec::new();
            let Some(events) = storage::open_read(&tx, EVENTS)? else {
                return Ok(out);
            };
            let notes = storage::open_read(&tx, NOTES)?;
            let payloads = storage::open_read(&tx, PAYLOADS)?;
            for e in events.iter()? {
                let (seq, v) = e?;
                let ev = Event::decode(v.value())?;
                if ev.kind != EventKind::Compact {
                    continue;
                }
                let Some(created) = ev.transitions.iter().find(|t| t.before.is_none()) else {
                    return Err(Error::Corrupt(format!(
                        "compact event {} creates no row",
                        seq.value()
                    )));
                };
                let (Some(commitment), Some(logged_digest)) =
                    (ev.commitments.first(), ev.commitments.get(1))
                else {
                    return Err(Error::Corrupt(format!(
                        "compact event {} lacks its commitments",
                        seq.value()
                    )));
                };
                let id = created.row;
                let row = r.row(id)?;
                let rec = notes
                    .as_ref()
                    .and_then(|t| t.get(id).ok().flatten().map(|v| v.value().to_vec()));
                let (false, Some(rec)) = (row.depth.is_void(), rec) else {
                    out.push(NoteReplay {
                        note: id,
                        seq: seq.value(),
                        purged: true,
                        commitment_matches: false,
                        digest_matches: false,
                        digest: [0; 32],
                    });
                    continue;
                };
                let note: Note = storage::decode(&rec)?;
                let text = render(&r, &note)?;
                let salt = payloads
                    .as_ref()
                    .and_then(|t| t.get(id).ok().flatten())
                    .map(|p| storage::Payload::decode(p.value()))
                    .transpose()?
                    .ok_or(Error::Purged(id))?
                    .salt;
                let digest = digest_of(&r, &note)?;
                out.push(NoteReplay {
                    note: id,
                    seq: seq.value(),
                    purged: false,
                    commitment_matches: storage::commitment(&salt, &text) == *commitment,
                    digest_matches: digest == *logged_digest,
                    digest,
                });
            }
            Ok(out)
        })
    }
}
