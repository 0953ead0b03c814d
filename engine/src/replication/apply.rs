//! Applying a leader's frame to a replica ([`Store::apply_frame`]).

use std::collections::BTreeMap;

use redb::ReadableTable;

use super::ReplicationError;
use super::frame::{Frame, Key, Table};
use crate::error::{Error, Result};
use crate::log::{EventKind, hash_encoded};
use crate::row::Row;
use crate::storage::{self, Payload, meta};
use crate::store::Store;

/// What [`Store::apply_frame`] did with a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Applied {
    /// The frame was applied; the replica's head is now at `seq`.
    Applied {
        /// The frame's last seq.
        seq: u64,
    },
    /// The replica already held this frame, byte for byte the same events and checkpoint:
    /// nothing changed.
    Duplicate {
        /// The frame's last seq.
        seq: u64,
    },
}

fn malformed(e: impl std::fmt::Display) -> Error {
    ReplicationError::Malformed(e.to_string()).into()
}

impl Store {
    /// Decodes and applies a frame's bytes ([`Frame::decode`], then [`Store::apply_frame`]).
    pub fn apply_frame_bytes(&self, bytes: &[u8]) -> Result<Applied> {
        let frame = Frame::decode(bytes)?;
        self.apply_frame(&frame)
    }

    /// Applies one leader frame to this replica (a store opened with
    /// [`crate::StoreOptions::replica`] and the leader's key), in one write transaction.
    ///
    /// Checks, before anything is written: the frame and checkpoint signatures under this
    /// store's public key; the events' own chain; continuity with this replica's head (the
    /// frame's first seq is the head plus one, and its first event names the head's hash). A
    /// frame the replica already holds (its checkpoint and event hashes the same) is a
    /// [`Applied::Duplicate`] and changes nothing; any other frame at or below the head is
    /// [`ReplicationError::Diverged`], one past the next seq is [`ReplicationError::Gap`]. Then
    /// it writes the events, the checkpoint and every record of the frame, derives the `keys`,
    /// `row_events` and `event_times` entries, and checks every row the frame's events leave
    /// live against the row digest of the last event naming it ([`ReplicationError::RowMismatch`]
    /// drops the transaction). The text and vector indexes follow the commit, as for a local
    /// write. A frame holding a `scrub` event then runs this replica's own scrub (without an
    /// event of its own), so the erasure the leader completed reaches this file too.
    pub fn apply_frame(&self, frame: &Frame) -> Result<Applied> {
        let mut guard = self.inner.write();
        let inner = guard.as_mut().ok_or(Error::Closed)?;
        if !inner.replica {
            return Err(ReplicationError::NotReplica.into());
        }
        let events = frame.verify(&inner.public_key)?;
        let (first, last) = (events[0].seq, frame.seq());
        let head = inner.head_seq;
        if last <= head {
            return if self.holds(inner, frame)? {
                Ok(Applied::Duplicate { seq: last })
            } else {
                Err(ReplicationError::Diverged { seq: first }.into())
            };
        }
        if first > head + 1 {
            return Err(ReplicationError::Gap {
                expected: head + 1,
                found: first,
            }
            .into());
        }
        if first <= head || events[0].prev_hash != inner.head_hash {
            return Err(ReplicationError::Diverged { seq: first }.into());
        }
        let head_hash = frame.checkpoint().head;
        let dim = inner.dim;
        let (now, ann) = (self.now(), self.options().ann_threshold);
        let durable = inner.durable;
        inner.write_with(now, ann, durable, |b| {
            let tx = b.tx;
            let mut rekeyed: Vec<(u64, Option<Row>, Option<Row>)> = Vec::new();
            let mut next_row = None;
            for c in frame.changes() {
                let value = c.value.as_deref();
                match (c.table, &c.key) {
                    (Table::Meta, Key::Name(k)) => {
                        let mut t = tx.open_table(storage::META)?;
                        match value {
                            Some(v) => {
                                if k == meta::NEXT_ROW {
                                    let n: [u8; 8] = v.try_into().map_err(malformed)?;
                                    next_row = Some(u64::from_le_bytes(n));
                                }
                                t.insert(k.as_str(), v)?;
                            }
                            None => {
                                t.remove(k.as_str())?;
                            }
                        }
                    }
                    (Table::Rows, Key::Id(id)) => {
                        let mut t = tx.open_table(storage::ROWS)?;
                        let old = t
                            .get(*id)?
                            .map(|v| storage::decode::<Row>(v.value()))
                            .transpose()?;
                        let new = value.map(storage::decode::<Row>).transpose()?;
                        match value {
                            Some(v) => t.insert(*id, v)?,
                            None => t.remove(*id)?,
                        };
                        rekeyed.push((*id, old, new));
                    }
                    (Table::Payloads, Key::Id(id)) => {
                        let text = value.map(Payload::decode).transpose()?.map(|p| p.text);
                        put(tx, storage::PAYLOADS, *id, value)?;
                        b.reindex_text(*id, text);
                    }
                    (Table::Vectors, Key::Id(id)) => {
                        let v = value.map(|v| storage::decode_vector(v, dim)).transpose()?;
                        put(tx, storage::VECTORS, *id, value)?;
                        b.replace_vector(*id, v)?;
                    }
                    (Table::Provenance, Key::Id(id)) => put(tx, storage::PROVENANCE, *id, value)?,
                    (Table::Notes, Key::Id(id)) => put(tx, storage::NOTES, *id, value)?,
                    (Table::Aliases, Key::Id(id)) => put(tx, storage::ALIASES, *id, value)?,
                    (Table::Receipts, Key::Id(id)) => put(tx, storage::RECEIPTS, *id, value)?,
                    (Table::Stale, Key::Id(id)) => {
                        let mut t = tx.open_table(storage::STALE)?;
                        match value {
                            Some(v) => {
                                let n: [u8; 8] = v.try_into().map_err(malformed)?;
                                t.insert(*id, u64::from_le_bytes(n))?;
                            }
                            None => {
                                t.remove(*id)?;
                            }
                        }
                    }
                    (Table::IncompletePurges, Key::Id(id)) => {
                        let mut t = tx.open_table(storage::INCOMPLETE_PURGES)?;
                        match value {
                            Some(_) => {
                                t.insert(*id, ())?;
                            }
                            None => {
                                t.remove(*id)?;
                            }
                        }
                    }
                    (Table::Derived, Key::Pair(s, d)) => {
                        let mut t = tx.open_table(storage::DERIVED)?;
                        match value {
                            Some(_) => {
                                t.insert((*s, *d), ())?;
                            }
                            None => {
                                t.remove((*s, *d))?;
                            }
                        }
                    }
                    (Table::Policies, Key::Name(ns)) => {
                        let mut t = tx.open_table(storage::POLICIES)?;
                        match value {
                            Some(v) => {
                                t.insert(ns.as_str(), v)?;
                            }
                            None => {
                                t.remove(ns.as_str())?;
                            }
                        }
                    }
                    (table, key) => {
                        return Err(malformed(format!("key {key:?} in table {table:?}")));
                    }
                }
            }
            rekey(tx, &rekeyed)?;
            {
                let mut t_events = tx.open_table(storage::EVENTS)?;
                let mut t_row_events = tx.open_table(storage::ROW_EVENTS)?;
                let mut t_times = tx.open_table(storage::EVENT_TIMES)?;
                for (ev, bytes) in events.iter().zip(frame.event_bytes()) {
                    t_events.insert(ev.seq, bytes.as_slice())?;
                    for t in &ev.transitions {
                        t_row_events.insert((t.row, ev.seq), ())?;
                    }
                    t_times.insert((ev.time, ev.seq), ())?;
                }
                tx.open_table(storage::CHECKPOINTS)?
                    .insert(last, frame.checkpoint().encode().as_slice())?;
                let mut head = last.to_le_bytes().to_vec();
                head.extend_from_slice(&head_hash);
                tx.open_table(storage::META)?
                    .insert(meta::HEAD, head.as_slice())?;
            }
            // Every row the frame leaves live must match the digest of the last event naming it.
            let mut last_named: BTreeMap<u64, (u64, Option<[u8; 32]>)> = BTreeMap::new();
            for ev in &events {
                for t in &ev.transitions {
                    let digest = ev.digests.iter().find(|d| d.row == t.row).map(|d| d.digest);
                    last_named.insert(t.row, (ev.seq, digest));
                }
            }
            for (row, (seq, digest)) in last_named {
                if let Some(d) = digest
                    && b.row_digest(row).ok() != Some(d)
                {
                    return Err(ReplicationError::RowMismatch { seq, row }.into());
                }
            }
            b.adopt_head(last, head_hash, next_row);
            Ok(())
        })?;
        if events.iter().any(|e| e.kind == EventKind::Scrub) {
            self.replica_erasure(&mut guard)?;
        }
        Ok(Applied::Applied { seq: last })
    }

    /// True when this store holds `frame`'s events and checkpoint, byte for byte.
    fn holds(&self, inner: &crate::store::Inner, frame: &Frame) -> Result<bool> {
        let tx = inner.db.begin_read()?;
        let cps = storage::open_read(&tx, storage::CHECKPOINTS)?;
        let events = storage::open_read(&tx, storage::EVENTS)?;
        let (Some(cps), Some(events)) = (cps, events) else {
            return Ok(false);
        };
        let Some(cp) = cps.get(frame.seq())? else {
            return Ok(false);
        };
        if cp.value() != frame.checkpoint().encode().as_slice() {
            return Ok(false);
        }
        let first = frame.seq() + 1 - frame.event_bytes().len() as u64;
        for (k, bytes) in frame.event_bytes().iter().enumerate() {
            match events.get(first + k as u64)? {
                Some(v) if hash_encoded(v.value()) == hash_encoded(bytes) => {}
                _ => return Ok(false),
            }
        }
        Ok(true)
    }
}

/// Writes or deletes one record of a table keyed by id.
fn put(
    tx: &redb::WriteTransaction,
    def: redb::TableDefinition<u64, &[u8]>,
    id: u64,
    value: Option<&[u8]>,
) -> Result<()> {
    let mut t = tx.open_table(def)?;
    match value {
        Some(v) => {
            t.insert(id, v)?;
        }
        None => {
            t.remove(id)?;
        }
    }
    Ok(())
}

/// Keeps the natural-key shards in step with the rows a frame rewrote: a key belongs to the live
/// row that holds it. Removals first (a key may move from one row to another in one
/// transaction); a removal marks the key's shard for a rebuild at the next scrub, as a purge
/// does on the leader (`meta::KEYS_REBUILD_DUE`).
fn rekey(tx: &redb::WriteTransaction, rows: &[(u64, Option<Row>, Option<Row>)]) -> Result<()> {
    let mut keys = storage::KeyTables::new(tx);
    let mut removed = Vec::new();
    for (id, old, _) in rows {
        if let Some(old) = old
            && let Some(k) = &old.key
            && keys.get(&old.namespace, k)? == Some(*id)
        {
            keys.remove(&old.namespace, k)?;
            removed.push(storage::key_shard(&old.namespace, k));
        }
    }
    for (id, _, new) in rows {
        if let Some(new) = new
            && new.depth.is_live()
            && let Some(k) = &new.key
        {
            keys.insert(&new.namespace, k, *id)?;
        }
    }
    drop(keys);
    for shard in removed {
        storage::mark_key_shard_due(tx, shard)?;
    }
    Ok(())
}
