//! The log as a reader sees it: verification, events, a row's history, time travel.

use std::collections::HashMap;
use std::sync::Arc;

use parking_lot::Mutex;

use redb::ReadableTable;
use serde::{Deserialize, Serialize};

use super::{Inner, Store};
use crate::depth::Depth;
use crate::error::{Error, Result};
use crate::log::{Event, Hash32, verify_chain};
use crate::row::{Millis, Row, RowId};
use crate::storage::{self, CHECKPOINTS, EVENT_TIMES, EVENTS, ROW_EVENTS};

/// The depths of the last time-travel fold, keyed by the seq it was taken at and the head
/// (seq and hash) it was read under. Events below the head never change, so the key also
/// guards against a log that was replaced (a compaction copies the log as is, a replica only
/// appends): any write moves the head and retires the entry.
#[derive(Default)]
pub(crate) struct DepthsCache(Mutex<Option<DepthsEntry>>);

type DepthsEntry = ((u64, u64, Hash32), Arc<HashMap<RowId, Depth>>);

/// A point in the store's past.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AsOf {
    /// Just after the event with this sequence number (0: before any event).
    Seq(u64),
    /// Just after the last event written at or before this time.
    Time(Millis),
}

/// What [`Store::verify_log`] checked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogReport {
    /// Events verified.
    pub events: u64,
    /// Signed checkpoints verified.
    pub checkpoints: u64,
    /// Sequence number of the head.
    pub head_seq: u64,
    /// Hash of the head event (the genesis hash for an empty log).
    pub head_hash: Hash32,
    /// Rows checked against the log (depth, content commitment, creating event and namespace).
    #[serde(default)]
    pub rows: u64,
}

/// A row's lineage: the supersede chain it belongs to, oldest first, and every event that touched
/// any row of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct History {
    /// The chain, oldest first.
    pub chain: Vec<Row>,
    /// Events touching the chain, in log order.
    pub events: Vec<Event>,
}

impl Store {
    /// Verifies the whole log against `public_key` (the store's own key when `None`): sequence
    /// numbers run from 1 without gaps, every event decodes canonically and names its
    /// predecessor's hash, every checkpoint's head matches the chain and its signature verifies,
    /// the last event is covered by a checkpoint, and the head recorded in the store matches.
    /// Any changed, removed or reordered byte fails with [`Error::LogTampered`].
    ///
    /// Then the data: every row's depth, text, creating event and namespace against the log,
    /// payloads, vectors and keys against the rows, and every committed page of the file
    /// against its checksum (see `docs/durability.md`); a mismatch is [`Error::Corrupt`]. Never
    /// reads the derived text or vector indexes.
    #[tracing::instrument(name = "oubli::Store::verify_log", level = "debug", skip_all)]
    pub fn verify_log(&self, public_key: Option<[u8; 32]>) -> Result<LogReport> {
        self.read(|inner| {
            let pk = public_key.unwrap_or(inner.public_key);
            let tx = inner.db.begin_read()?;
            let events = storage::open_read(&tx, EVENTS)?
                .ok_or_else(|| Error::Corrupt("events table missing".into()))?;
            let cps = storage::open_read(&tx, CHECKPOINTS)?
                .ok_or_else(|| Error::Corrupt("checkpoints table missing".into()))?;
            let rows = |t: &redb::ReadOnlyTable<u64, &'static [u8]>| -> Result<Vec<_>> {
                let mut out = Vec::new();
                for e in t.iter()? {
                    let (k, v) = e?;
                    out.push(Ok((k.value(), v.value().to_vec())));
                }
                Ok(out)
            };
            let r = verify_chain(rows(&events)?, rows(&cps)?, &pk)?;
            if r.events != inner.head_seq || r.head_hash != inner.head_hash {
                return Err(Error::LogTampered {
                    seq: r.events,
                    reason: format!(
                        "log ends at seq {} but the store's head is seq {}",
                        r.events, inner.head_seq
                    ),
                });
            }
            let rows = inner.verify_rows()?;
            Ok(LogReport {
                events: r.events,
                checkpoints: r.checkpoints,
                head_seq: r.events,
                head_hash: r.head_hash,
                rows,
            })
        })
        .and_then(|r| {
            self.verify_file()?;
            Ok(r)
        })
    }

    /// Events with `from <= seq <= to`, in order.
    #[tracing::instrument(name = "oubli::Store::events", level = "debug", skip_all)]
    pub fn events(&self, from: u64, to: u64) -> Result<Vec<Event>> {
        self.read(|inner| {
            let tx = inner.db.begin_read()?;
            let Some(t) = storage::open_read(&tx, EVENTS)? else {
                return Ok(Vec::new());
            };
            let mut out = Vec::new();
            if from > to {
                return Ok(out);
            }
            for e in t.range(from..=to)? {
                out.push(Event::decode(e?.1.value())?);
            }
            Ok(out)
        })
    }

    /// The current head: sequence number and hash of the last event.
    pub fn head(&self) -> Result<(u64, Hash32)> {
        self.read(|i| Ok((i.head_seq, i.head_hash)))
    }

    /// The supersede chain `id` belongs to and the events that touched it.
    #[tracing::instrument(name = "oubli::Store::history", level = "debug", skip_all)]
    pub fn history(&self, id: RowId) -> Result<History> {
        self.read(|inner| {
            let tx = inner.db.begin_read()?;
            let mut row = Inner::read_row(&tx, id)?.ok_or(Error::UnknownRow(id))?;
            let mut guard = 0usize;
            while let Some(prev) = row.supersedes {
                row = Inner::read_row(&tx, prev)?.ok_or(Error::UnknownRow(prev))?;
                guard += 1;
                if guard > 1_000_000 {
                    return Err(Error::Corrupt("supersede chain loops".into()));
                }
            }
            let mut chain = vec![row];
            while let Some(next) = chain.last().and_then(|r| r.superseded_by) {
                chain.push(Inner::read_row(&tx, next)?.ok_or(Error::UnknownRow(next))?);
                if chain.len() > 1_000_000 {
                    return Err(Error::Corrupt("supersede chain loops".into()));
                }
            }
            let re = storage::open_read(&tx, ROW_EVENTS)?;
            let ev = storage::open_read(&tx, EVENTS)?;
            let mut seqs = std::collections::BTreeSet::new();
            if let Some(re) = &re {
                for r in &chain {
                    for e in re.range((r.id, 0)..=(r.id, u64::MAX))? {
                        seqs.insert(e?.0.value().1);
                    }
                }
            }
            let mut events = Vec::new();
            if let Some(ev) = &ev {
                for s in seqs {
                    if let Some(v) = ev.get(s)? {
                        events.push(Event::decode(v.value())?);
                    }
                }
            }
            Ok(History { chain, events })
        })
    }
}

impl Inner {
    /// The sequence number and time an [`AsOf`] stands for.
    pub(crate) fn resolve_as_of(
        &self,
        tx: &redb::ReadTransaction,
        at: AsOf,
    ) -> Result<(u64, Millis)> {
        match at {
            AsOf::Seq(s) => {
                if s > self.head_seq {
                    return Err(Error::InvalidArgument(format!(
                        "as-of seq {s} is past the head {}",
                        self.head_seq
                    )));
                }
                let time =
                    match storage::open_read(tx, EVENTS)?.and_then(|t| t.get(s).ok().flatten()) {
                        Some(v) => Event::decode(v.value())?.time,
                        None => Millis::MIN,
                    };
                Ok((s, time))
            }
            AsOf::Time(t) => {
                let seq = match storage::open_read(tx, EVENT_TIMES)? {
                    Some(times) => times
                        .range(..=(t, u64::MAX))?
                        .next_back()
                        .transpose()?
                        .map_or(0, |(k, _)| k.value().1),
                    None => 0,
                };
                Ok((seq, t))
            }
        }
    }

    /// Every row's depth just after event `seq`, by folding the log's transitions.
    ///
    /// The fold reads the log up to `seq`, so its cost grows with the log; the last result is
    /// kept ([`DepthsCache`]) for as long as the head does not move, so that a series of reads at
    /// one point in time (a residual audit's probes, a paged time-travel listing) folds once.
    pub(crate) fn depths_at(
        &self,
        tx: &redb::ReadTransaction,
        seq: u64,
    ) -> Result<Arc<HashMap<RowId, Depth>>> {
        let key = (seq, self.head_seq, self.head_hash);
        if let Some((k, depths)) = self.depths_cache.0.lock().as_ref()
            && *k == key
        {
            return Ok(depths.clone());
        }
        let depths = Arc::new(self.fold_depths(tx, seq)?);
        *self.depths_cache.0.lock() = Some((key, depths.clone()));
        Ok(depths)
    }

    fn fold_depths(&self, tx: &redb::ReadTransaction, seq: u64) -> Result<HashMap<RowId, Depth>> {
        let mut out = HashMap::new();
        if seq == 0 {
            return Ok(out);
        }
        if let Some(t) = storage::open_read(tx, EVENTS)? {
            for e in t.range(1..=seq)? {
                let ev = Event::decode(e?.1.value())?;
                for tr in ev.transitions {
                    out.insert(tr.row, tr.after);
                }
            }
        }
        Ok(out)
    }
}
