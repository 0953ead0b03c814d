//! One write transaction: row changes, the events that record them, and the index updates that
//! follow the commit.
//!
//! A mutating call runs its logic against a [`Batch`]. If the logic fails, the redb transaction is
//! dropped unfinished and nothing changes (not the file, not the indexes, not the in-memory
//! counters). If it succeeds, the batch appends its events, signs a checkpoint over the new head,
//! commits, and only then applies the staged index updates.

use std::collections::BTreeMap;

use redb::{ReadableTable, WriteTransaction};

use super::Inner;
use crate::depth::Depth;
use crate::error::{Error, Result};
use crate::log::{Checkpoint, Event, EventKind, Hash32, RowDigest, Transition, hash_encoded};
use crate::row::{Inscription, Millis, Row, RowId};
use crate::storage::{
    self, CHECKPOINTS, DERIVED, EVENT_TIMES, EVENTS, META, PAYLOADS, Payload, ROW_EVENTS, ROWS,
    VECTORS, meta,
};

mod bulk;
mod commit;
mod keys_ahead;

pub(crate) use commit::Access;
use keys_ahead::KeysAhead;

/// An index update to apply after the commit.
enum IndexOp {
    AddText(RowId, String),
    RemoveText(RowId),
    AddVector(RowId, Vec<f32>),
    RemoveVector(RowId),
}

/// What [`Batch::rewrite_row`] did.
pub(crate) struct Rewrite {
    /// The row's transition (its depth does not change).
    pub transition: Transition,
    /// Commitment of the new text.
    pub commitment: Hash32,
}

/// The state of one write transaction.
pub(crate) struct Batch<'a> {
    pub(crate) tx: &'a WriteTransaction,
    access: Access<'a>,
    pub(crate) now: Millis,
    ann_threshold: usize,
    next_row: RowId,
    head_seq: u64,
    head_hash: Hash32,
    ops: Vec<IndexOp>,
    /// Match keys of new rows' texts being computed while the batch writes and commits.
    keys_ahead: Vec<KeysAhead>,
    events: usize,
}

impl Inner {
    /// Makes every commit so far durable: an empty write transaction committed durably (with
    /// the text index files staged since, if any).
    pub(crate) fn sync(&mut self) -> Result<()> {
        let tx = self.db.begin_write()?;
        let staged = self.text.stage_into(&tx)?;
        tx.commit()?;
        self.text.committed(staged);
        Ok(())
    }

    /// Applies index updates one after another, each row's match keys computed first on several
    /// threads (they depend on its text alone) unless they were computed ahead. Returns whether
    /// the text index changed and the first text-index error.
    fn apply_in_order(&mut self, ops: Vec<IndexOp>, ahead: Vec<KeysAhead>) -> (bool, Result<()>) {
        let mut keys = keys_ahead::keys_in_order(&ops, ahead).into_iter();
        let mut text_changed = false;
        let mut text_result = Ok(());
        for op in ops {
            match op {
                IndexOp::AddText(id, t) => {
                    text_changed = true;
                    let k = keys.next().unwrap_or_default();
                    if text_result.is_ok() {
                        text_result = self.text.add_with_keys(id, &t, k);
                    }
                }
                IndexOp::RemoveText(id) => {
                    text_changed = true;
                    if text_result.is_ok() {
                        text_result = self.text.remove(id);
                    }
                }
                IndexOp::AddVector(id, v) => self.vectors.insert(id, &v),
                IndexOp::RemoveVector(id) => self.vectors.remove(id),
            }
        }
        (text_changed, text_result)
    }

    /// [`Inner::apply_in_order`] for updates that remove no text (a batch of new rows): the
    /// texts go to the text index (whose writer indexes them on its own thread) while the match
    /// keys are collected from the threads that computed them during the write ([`KeysAhead`])
    /// or computed on other threads, and then the keys join the index in row order. Each
    /// row ends with what the one-after-another order gives it: no row is removed in between.
    fn apply_additions(&mut self, ops: Vec<IndexOp>, ahead: Vec<KeysAhead>) -> (bool, Result<()>) {
        let any_text = ops.iter().any(|op| matches!(op, IndexOp::AddText(..)));
        let (text, vectors) = (&mut self.text, &mut self.vectors);
        let (keys, added, text_result) = std::thread::scope(|s| {
            let keys = s.spawn(|| {
                let _span = tracing::debug_span!("oubli::index::match_keys").entered();
                keys_ahead::keys_in_order(&ops, ahead)
            });
            let _span = tracing::debug_span!("oubli::index::add").entered();
            let mut added = Vec::new();
            let mut result = Ok(());
            for op in &ops {
                match op {
                    IndexOp::AddText(id, t) => {
                        if result.is_ok() {
                            result = text.add_text(*id, t);
                            if result.is_ok() {
                                added.push(*id);
                            }
                        }
                    }
                    IndexOp::AddVector(id, v) => vectors.insert(*id, v),
                    IndexOp::RemoveVector(id) => vectors.remove(*id),
                    IndexOp::RemoveText(_) => {}
                }
            }
            let keys = keys
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            (keys, added, result)
        });
        // Rows whose text reached the index get their keys; after a failure the index catches
        // up from the log, as in `apply_in_order`.
        for (id, k) in added.into_iter().zip(keys) {
            text.add_keys(id, k);
        }
        (any_text, text_result)
    }

    /// Applies staged index updates after a commit. A text-index failure here does not lose
    /// anything: the rows are committed, and the index catches up from the log before the next
    /// write or on the next open.
    fn apply(
        &mut self,
        ops: Vec<IndexOp>,
        keys_ahead: Vec<KeysAhead>,
        ann_threshold: usize,
    ) -> Result<()> {
        let adds = ops
            .iter()
            .filter(|op| matches!(op, IndexOp::AddText(..)))
            .count();
        self.text.expect_adds(adds);
        // A few rows are not worth a thread; removals keep the one-after-another order.
        let (text_changed, mut text_result) = if adds < crate::parallel::MIN_ITEMS_PER_THREAD
            || ops.iter().any(|op| matches!(op, IndexOp::RemoveText(_)))
        {
            self.apply_in_order(ops, keys_ahead)
        } else {
            self.apply_additions(ops, keys_ahead)
        };
        if text_changed && text_result.is_ok() {
            let _span = tracing::debug_span!("oubli::index::settle").entered();
            text_result = self.text.settle(self.head_seq).map(|_| ());
        }
        if text_result.is_err() {
            self.text_behind = true;
        }
        // The snapshot grows on a background thread, never here (see `index::vector`).
        self.start_vector_build(ann_threshold, false)
    }
}

/// The texts `ops` add, in order.
fn added_texts(ops: &[IndexOp]) -> Vec<&str> {
    ops.iter()
        .filter_map(|op| match op {
            IndexOp::AddText(_, t) => Some(t.as_str()),
            _ => None,
        })
        .collect()
}

impl<'a> Batch<'a> {
    /// The open store's state as it was when this transaction began (the transaction's own
    /// changes reach it only after the commit).
    pub(crate) fn inner(&self) -> &Inner {
        self.access.inner()
    }

    /// The open store's state for a change that cannot wait for the commit (a scrub's vector
    /// snapshot): only in a transaction run under the store's exclusive lock ([`Inner::write`]).
    pub(crate) fn inner_mut(&mut self) -> Result<&mut Inner> {
        match &mut self.access {
            Access::Exclusive(i) => Ok(i),
            Access::Shared(_) => Err(Error::Storage(
                "this change needs the store's exclusive lock (Inner::write)".into(),
            )),
        }
    }

    /// Reads a row as this transaction sees it.
    pub(crate) fn row(&self, id: RowId) -> Result<Row> {
        let rows = self.tx.open_table(ROWS)?;
        let v = rows.get(id)?.ok_or(Error::UnknownRow(id))?;
        let mut row: Row = storage::decode(v.value())?;
        let payloads = self.tx.open_table(PAYLOADS)?;
        if let Some(p) = payloads.get(id)? {
            let p = Payload::decode(p.value())?;
            row.text = Some(p.text);
        }
        Ok(row)
    }

    /// The live row holding `key` in `namespace`.
    pub(crate) fn key_holder(&self, namespace: &str, key: &str) -> Result<Option<RowId>> {
        storage::KeyTables::new(self.tx).get(namespace, key)
    }

    /// Writes a row record (its text lives in the payload table and is not rewritten here).
    pub(crate) fn put_row(&self, row: &Row) -> Result<()> {
        let mut stored = row.clone();
        stored.text = None;
        // The depth as the log records it (verification compares them bit for bit).
        stored.depth = stored.depth.canonical();
        let mut rows = self.tx.open_table(ROWS)?;
        rows.insert(row.id, storage::encode(&stored)?.as_slice())?;
        Ok(())
    }

    /// Changes a row's depth, keeping the key table in step (a key belongs to live rows only),
    /// and returns the transition to record. The caller writes the row and the event.
    pub(crate) fn set_depth(&self, row: &mut Row, to: Depth) -> Result<Transition> {
        let from = row.depth;
        if from.is_void() {
            return Err(Error::Purged(row.id));
        }
        if let Some(key) = &row.key {
            let mut keys = storage::KeyTables::new(self.tx);
            let holder = keys.get(&row.namespace, key)?;
            if from.is_live() && !to.is_live() && holder == Some(row.id) {
                keys.remove(&row.namespace, key)?;
            } else if !from.is_live() && to.is_live() {
                match holder {
                    Some(h) if h != row.id => {
                        return Err(Error::DuplicateKey {
                            namespace: row.namespace.clone(),
                            key: key.clone(),
                            holder: h,
                        });
                    }
                    _ => {
                        keys.insert(&row.namespace, key, row.id)?;
                    }
                }
            }
        }
        row.depth = to;
        Ok(Transition {
            row: row.id,
            before: Some(from),
            after: to,
        })
    }

    /// Creates a row from a validated inscription and its unit vector. Returns the row, its
    /// creation transition and its content commitment.
    pub(crate) fn create_row(
        &mut self,
        ins: Inscription,
        vector: Vec<f32>,
        supersedes: Option<RowId>,
    ) -> Result<(Row, Transition, Hash32)> {
        // The vector as it is stored, digested and indexed (half precision, format 4).
        let vector = storage::stored_vector(&vector);
        let namespace = ins.namespace_or_default().to_owned();
        if let Some(key) = &ins.key
            && let Some(holder) = self.key_holder(&namespace, key)?
        {
            return Err(Error::DuplicateKey {
                namespace,
                key: key.clone(),
                holder,
            });
        }
        for src in &ins.derived_from {
            let r = self.row(*src)?;
            if r.depth.is_void() {
                return Err(Error::Purged(*src));
            }
        }
        let id = self.next_row;
        self.next_row += 1;
        let salt = self.inner().entropy.next32();
        let commitment = storage::commitment(&salt, &ins.text);
        let row = Row {
            id,
            namespace,
            key: ins.key,
            text: Some(ins.text.clone()),
            kind: ins.kind,
            metadata: ins.metadata,
            created_at: self.now,
            surfaced_at: self.now,
            valid_until: ins.valid_until,
            depth: Depth::SURFACE,
            derived_from: ins.derived_from,
            superseded_by: None,
            supersedes,
            created_seq: self.head_seq + 1,
        };
        self.put_row(&row)?;
        {
            let mut payloads = self.tx.open_table(PAYLOADS)?;
            let p = Payload {
                text: ins.text.clone(),
                salt,
            };
            payloads.insert(id, p.encode().as_slice())?;
            let mut vectors = self.tx.open_table(VECTORS)?;
            vectors.insert(id, storage::encode_vector(&vector).as_slice())?;
            if let Some(key) = &row.key {
                storage::KeyTables::new(self.tx).insert(&row.namespace, key, id)?;
            }
            let mut derived = self.tx.open_table(DERIVED)?;
            for src in &row.derived_from {
                derived.insert((*src, id), ())?;
            }
        }
        self.record_sources(&row)?;
        self.ops.push(IndexOp::AddText(id, ins.text));
        self.ops.push(IndexOp::AddVector(id, vector));
        let t = Transition {
            row: id,
            before: None,
            after: Depth::SURFACE,
        };
        Ok((row, t, commitment))
    }

    /// Drops a row's vector from the vector index once this transaction commits. When the
    /// vector is in the persisted snapshot, records in the file that the snapshot holds removed
    /// vectors, so that the next scrub removes their bytes even after a reopen.
    fn remove_vector(&mut self, id: RowId) -> Result<()> {
        if self.inner().vectors.snapshot_has_removed(&[id]) {
            let mut m = self.tx.open_table(META)?;
            let mut ids = m
                .get(meta::SNAPSHOT_DIRTY)?
                .map(|v| v.value().to_vec())
                .unwrap_or_default();
            ids.extend_from_slice(&id.to_le_bytes());
            m.insert(meta::SNAPSHOT_DIRTY, ids.as_slice())?;
        }
        self.ops.push(IndexOp::RemoveVector(id));
        Ok(())
    }

    /// Erases a row: deletes its payload and vector, clears its key, metadata and text, drops it
    /// from the indexes, and sets it void. Returns the transition and the erased payload (text
    /// and the salt that opens its commitments, which exist nowhere else once this commits).
    pub(crate) fn erase_row(&mut self, row: &mut Row) -> Result<(Transition, Payload)> {
        let from = row.depth;
        if from.is_void() {
            return Err(Error::Purged(row.id));
        }
        let payload: Payload = {
            let mut payloads = self.tx.open_table(PAYLOADS)?;
            let p = payloads
                .remove(row.id)?
                .ok_or_else(|| Error::Corrupt(format!("row {} has no payload", row.id)))?;
            Payload::decode(p.value())?
        };
        self.tx.open_table(VECTORS)?.remove(row.id)?;
        if let Some(key) = &row.key
            && self.key_holder(&row.namespace, key)? == Some(row.id)
        {
            storage::KeyTables::new(self.tx).remove(&row.namespace, key)?;
            // A B-tree keeps copies of its keys as separators in live branch pages, which
            // zeroing freed pages does not reach: the next scrub rebuilds the key's shard, so the
            // erased key leaves the file too (see `meta::KEYS_REBUILD_DUE`).
            storage::mark_key_shard_due(self.tx, storage::key_shard(&row.namespace, key))?;
        }
        self.forget_derivation_records(row.id)?;
        row.text = None;
        row.key = None;
        row.metadata = BTreeMap::new();
        row.depth = Depth::Void;
        self.put_row(row)?;
        self.ops.push(IndexOp::RemoveText(row.id));
        self.remove_vector(row.id)?;
        let t = Transition {
            row: row.id,
            before: Some(from),
            after: Depth::Void,
        };
        Ok((t, payload))
    }

    /// Rewrites a row's text in place (a clause-level edit): a new payload with a fresh salt, a
    /// new vector, the text index entry replaced. Depth, key, metadata and provenance stay.
    /// Returns the (unchanged-depth) transition, the old payload, and the commitment of the new
    /// text. The old text leaves the file at the next scrub.
    pub(crate) fn rewrite_row(
        &mut self,
        row: &mut Row,
        text: String,
        vector: Vec<f32>,
    ) -> Result<Rewrite> {
        if row.depth.is_void() {
            return Err(Error::Purged(row.id));
        }
        crate::row::validate_text(&text)?;
        let vector = storage::stored_vector(&vector);
        let salt = self.inner().entropy.next32();
        let commitment = storage::commitment(&salt, &text);
        let _old: Payload = {
            let mut payloads = self.tx.open_table(PAYLOADS)?;
            let old = payloads
                .get(row.id)?
                .ok_or_else(|| Error::Corrupt(format!("row {} has no payload", row.id)))
                .and_then(|p| Payload::decode(p.value()))?;
            let p = Payload {
                text: text.clone(),
                salt,
            };
            payloads.insert(row.id, p.encode().as_slice())?;
            old
        };
        self.tx
            .open_table(VECTORS)?
            .insert(row.id, storage::encode_vector(&vector).as_slice())?;
        row.text = Some(text.clone());
        self.put_row(row)?;
        self.ops.push(IndexOp::RemoveText(row.id));
        self.ops.push(IndexOp::AddText(row.id, text));
        self.remove_vector(row.id)?;
        self.ops.push(IndexOp::AddVector(row.id, vector));
        Ok(Rewrite {
            transition: Transition {
                row: row.id,
                before: Some(row.depth),
                after: row.depth,
            },
            commitment,
        })
    }

    /// Rows derived from `id` (direct children in the provenance graph).
    pub(crate) fn derived_from(&self, id: RowId) -> Result<Vec<RowId>> {
        let derived = self.tx.open_table(DERIVED)?;
        let mut out = Vec::new();
        for e in derived.range((id, 0)..=(id, u64::MAX))? {
            out.push(e?.0.value().1);
        }
        Ok(out)
    }

    /// Appends one event and returns its sequence number.
    pub(crate) fn event(
        &mut self,
        kind: EventKind,
        namespace: &str,
        transitions: Vec<Transition>,
        commitments: Vec<Hash32>,
    ) -> Result<u64> {
        let seq = self.head_seq + 1;
        // Every row the event leaves non-void is bound to it by a digest of its fields as they
        // stand now (the row changes of this event are already written).
        let mut digests = Vec::new();
        for t in &transitions {
            if !t.after.is_void() {
                digests.push(RowDigest {
                    row: t.row,
                    digest: self.row_digest(t.row)?,
                });
            }
        }
        let ev = Event {
            seq,
            time: self.now,
            namespace: namespace.to_owned(),
            kind,
            transitions,
            commitments,
            digests,
            prev_hash: self.head_hash,
        };
        let enc = ev.encode();
        let hash = hash_encoded(&enc);
        self.tx.open_table(EVENTS)?.insert(seq, enc.as_slice())?;
        {
            let mut re = self.tx.open_table(ROW_EVENTS)?;
            for t in &ev.transitions {
                re.insert((t.row, seq), ())?;
            }
        }
        self.tx
            .open_table(EVENT_TIMES)?
            .insert((self.now, seq), ())?;
        self.head_seq = seq;
        self.head_hash = hash;
        self.events += 1;
        Ok(seq)
    }

    /// The digest of row `id` as this transaction holds it (record, payload and vector).
    pub(crate) fn row_digest(&self, id: RowId) -> Result<Hash32> {
        let rows = self.tx.open_table(ROWS)?;
        let row: Row = storage::decode(rows.get(id)?.ok_or(Error::UnknownRow(id))?.value())?;
        let payload = Payload::decode(
            self.tx
                .open_table(PAYLOADS)?
                .get(id)?
                .ok_or_else(|| Error::Corrupt(format!("row {id} has no payload")))?
                .value(),
        )?;
        let vector = storage::decode_vector(
            self.tx
                .open_table(VECTORS)?
                .get(id)?
                .ok_or_else(|| Error::Corrupt(format!("row {id} has no vector")))?
                .value(),
            self.inner().dim,
        )?;
        Ok(super::integrity::row_fields(&row, &payload.text, &vector).digest(&payload.salt))
    }

    /// Vectors above which the store keeps an ANN snapshot.
    pub(crate) fn ann_threshold(&self) -> usize {
        self.ann_threshold
    }

    /// The current head (seq and hash) as this transaction sees it.
    pub(crate) fn head(&self) -> (u64, Hash32) {
        (self.head_seq, self.head_hash)
    }

    /// Draws 32 random bytes from the store's salt stream.
    pub(crate) fn salt(&mut self) -> [u8; 32] {
        self.inner().entropy.next32()
    }

    /// Replication: the head and row counter a replica takes from the frame it applies (whose
    /// events, checkpoint and `meta` records the caller writes itself).
    pub(crate) fn adopt_head(&mut self, seq: u64, hash: Hash32, next_row: Option<RowId>) {
        self.head_seq = seq;
        self.head_hash = hash;
        if let Some(n) = next_row {
            self.next_row = n;
        }
    }

    /// Replication: re-indexes a row's text after the commit (`None`: drops it from the index).
    pub(crate) fn reindex_text(&mut self, id: RowId, text: Option<String>) {
        self.ops.push(IndexOp::RemoveText(id));
        if let Some(t) = text {
            self.ops.push(IndexOp::AddText(id, t));
        }
    }

    /// Replication: replaces a row's vector in the vector index after the commit (`None`: drops
    /// it), recording a removal from the persisted snapshot as a local write does.
    pub(crate) fn replace_vector(&mut self, id: RowId, vector: Option<Vec<f32>>) -> Result<()> {
        self.remove_vector(id)?;
        if let Some(v) = vector {
            self.ops.push(IndexOp::AddVector(id, v));
        }
        Ok(())
    }

    /// Writes the checkpoint and counters. Returns the store's access back and what the store
    /// applies after the commit.
    #[allow(clippy::type_complexity)]
    fn finish(self) -> Result<(Access<'a>, Vec<IndexOp>, Vec<KeysAhead>, RowId, u64, Hash32)> {
        if self.events > 0 && self.inner().replica {
            // A replica's log is its leader's: an event of its own would fork it.
            return Err(crate::replication::ReplicationError::Replica.into());
        }
        if self.events > 0 {
            let key = self.inner().signing.as_ref().ok_or(Error::ReadOnly)?;
            let cp = Checkpoint::sign(key, self.head_seq, self.head_hash);
            self.tx
                .open_table(CHECKPOINTS)?
                .insert(self.head_seq, cp.encode().as_slice())?;
            let mut m = self.tx.open_table(META)?;
            let mut head = self.head_seq.to_le_bytes().to_vec();
            head.extend_from_slice(&self.head_hash);
            m.insert(meta::HEAD, head.as_slice())?;
            m.insert(meta::NEXT_ROW, self.next_row.to_le_bytes().as_slice())?;
        }
        Ok((
            self.access,
            self.ops,
            self.keys_ahead,
            self.next_row,
            self.head_seq,
            self.head_hash,
        ))
    }
}
