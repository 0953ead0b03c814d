//! Verification of the data against the signed log, and of every committed page of the file.
//!
//! [`Store::verify_log`] checks the event chain and its signed checkpoints; this module checks
//! that the rows a reader gets back are the ones the log recorded:
//! - every row's depth is the depth the log's transitions give it (a flipped depth byte, a row
//!   brought back from void, a submerged row surfaced);
//! - every live row's fields (namespace, key, text, kind, metadata, times, provenance links,
//!   supersede links, vector) hash to the row digest carried by the last event that names the
//!   row ([`crate::log::RowFields`]; a keyed blake3 hash, so any changed byte of any field
//!   fails); once the log carries digests, every later event carries one for each row it leaves
//!   non-void;
//! - rows last named by an event written before row digests existed (version 1 events): the
//!   text and salt open a content commitment carried by a logged event that names the row;
//! - every row was created by the event its record names, in that event's namespace;
//! - void rows hold nothing (no payload, vector, key or metadata), and every payload and vector
//!   belongs to a non-void row, with vectors of the store's dimension;
//! - the key table names live rows that carry those keys;
//! - the file's committed pages all match their checksums (redb's checksum tree, checked on a
//!   private in-memory copy, so the file is only read): any changed byte in any table, derived
//!   indexes included, fails, wherever it is.

use std::collections::{BTreeMap, BTreeSet};

use redb::ReadableTable;

use super::{Inner, Store};
use crate::depth::Depth;
use crate::error::{Error, Result};
use crate::log::{Event, Hash32, RowFields};
use crate::row::{Kind, Row, RowId};
use crate::storage::{self, EVENTS, PAYLOADS, Payload, ROW_EVENTS, ROWS, VECTORS};

fn bad(what: String) -> Error {
    Error::Corrupt(format!("data does not match the log: {what}"))
}

impl Store {
    /// Checks that every committed page of the store file matches its checksum, on a private
    /// in-memory copy (the file is only read). Fails with [`Error::Corrupt`] naming the failure.
    #[tracing::instrument(name = "oubli::Store::verify_file", level = "debug", skip_all)]
    pub fn verify_file(&self) -> Result<()> {
        let image = self.read(|i| Ok(i.db.memory_image().cloned()))?;
        match image {
            Some(image) => storage::check_image_integrity(&image),
            None => storage::check_file_integrity(&self.path),
        }
    }
}

/// The fields of `row` a row digest binds, with its text and vector (kept apart from the
/// record).
pub(crate) fn row_fields<'a>(row: &'a Row, text: &'a str, vector: &'a [f32]) -> RowFields<'a> {
    RowFields {
        id: row.id,
        namespace: &row.namespace,
        key: row.key.as_deref(),
        text,
        kind: match row.kind {
            Kind::Source => 1,
            Kind::Derived => 2,
            Kind::Note => 3,
        },
        metadata: row
            .metadata
            .iter()
            .map(|(k, v)| (k.as_str(), v.to_audit()))
            .collect(),
        created_at: row.created_at,
        surfaced_at: row.surfaced_at,
        valid_until: row.valid_until,
        derived_from: &row.derived_from,
        superseded_by: row.superseded_by,
        supersedes: row.supersedes,
        created_seq: row.created_seq,
        vector,
    }
}

impl Inner {
    /// Checks the rows, payloads, vectors and keys against the (already verified) event log;
    /// see the module docs. Returns the number of rows checked.
    pub(crate) fn verify_rows(&self) -> Result<u64> {
        let tx = self.db.begin_read()?;
        let events = storage::open_read(&tx, EVENTS)?
            .ok_or_else(|| Error::Corrupt("events table missing".into()))?;
        // Fold the log: each row's depth, and the commitments of the events naming it.
        let mut depth: BTreeMap<RowId, Depth> = BTreeMap::new();
        let mut created: BTreeMap<RowId, (u64, String)> = BTreeMap::new();
        let mut commitments: BTreeMap<RowId, BTreeSet<[u8; 32]>> = BTreeMap::new();
        // The digest the last event naming each row carries for it (`None`: a version 1 event).
        let mut digest: BTreeMap<RowId, Option<Hash32>> = BTreeMap::new();
        let mut digests_from: Option<u64> = None;
        for e in events.iter()? {
            let (_, v) = e?;
            let ev = Event::decode(v.value())?;
            if digests_from.is_none() && !ev.digests.is_empty() {
                digests_from = Some(ev.seq);
            }
            // The digests name exactly the rows the event leaves non-void, in transition order.
            let expected: Vec<RowId> = ev
                .transitions
                .iter()
                .filter(|t| !t.after.is_void())
                .map(|t| t.row)
                .collect();
            let carried: Vec<RowId> = ev.digests.iter().map(|d| d.row).collect();
            if (digests_from.is_some() || !carried.is_empty()) && carried != expected {
                return Err(bad(format!(
                    "event {} carries digests for rows {carried:?}, not for {expected:?}",
                    ev.seq
                )));
            }
            for t in &ev.transitions {
                digest.insert(
                    t.row,
                    ev.digests.iter().find(|d| d.row == t.row).map(|d| d.digest),
                );
                depth.insert(t.row, t.after);
                if t.before.is_none() {
                    created.insert(t.row, (ev.seq, ev.namespace.clone()));
                }
                commitments
                    .entry(t.row)
                    .or_default()
                    .extend(ev.commitments.iter().copied());
            }
        }
        drop(events);
        let rows_t = storage::open_read(&tx, ROWS)?
            .ok_or_else(|| Error::Corrupt("rows table missing".into()))?;
        let payloads = storage::open_read(&tx, PAYLOADS)?;
        let vectors = storage::open_read(&tx, VECTORS)?;
        let mut seen = 0u64;
        let mut rows: BTreeMap<RowId, Row> = BTreeMap::new();
        for e in rows_t.iter()? {
            let (k, v) = e?;
            let id = k.value();
            let row: Row = storage::decode(v.value())?;
            if row.id != id {
                return Err(bad(format!("row stored under {id} says it is {}", row.id)));
            }
            let logged = depth
                .get(&id)
                .ok_or_else(|| bad(format!("row {id} is in no event")))?;
            if !row.depth.identical(*logged) {
                return Err(bad(format!(
                    "row {id} has depth {} but the log gives {}",
                    row.depth, logged
                )));
            }
            match created.get(&id) {
                Some((seq, ns)) if *seq == row.created_seq => {
                    if ns != "*" && *ns != row.namespace {
                        return Err(bad(format!(
                            "row {id} is in namespace {:?} but was created in {ns:?}",
                            row.namespace
                        )));
                    }
                }
                _ => {
                    return Err(bad(format!(
                        "row {id} was not created by event {}",
                        row.created_seq
                    )));
                }
            }
            let payload = match &payloads {
                Some(t) => t.get(id)?.map(|p| Payload::decode(p.value())),
                None => None,
            }
            .transpose()?;
            let vector = match &vectors {
                Some(t) => match t.get(id)? {
                    Some(v) => Some(storage::decode_vector(v.value(), self.dim)?),
                    None => None,
                },
                None => None,
            };
            let has_vector = vector.is_some();
            if row.depth.is_void() {
                if payload.is_some()
                    || has_vector
                    || row.key.is_some()
                    || !row.metadata.is_empty()
                    || row.text.is_some()
                {
                    return Err(bad(format!("purged row {id} still holds content")));
                }
            } else {
                let p = payload.ok_or_else(|| bad(format!("row {id} has no payload")))?;
                let Some(vector) = vector else {
                    return Err(bad(format!("row {id} has no vector")));
                };
                if row.text.is_some() {
                    return Err(bad(format!("row {id}'s record holds a text")));
                }
                match digest.get(&id).copied().flatten() {
                    Some(d) => {
                        if row_fields(&row, &p.text, &vector).digest(&p.salt) != d {
                            return Err(bad(format!(
                                "row {id}'s fields do not hash to the digest the log holds"
                            )));
                        }
                    }
                    None => {
                        let c = storage::commitment(&p.salt, &p.text);
                        if !commitments.get(&id).is_some_and(|s| s.contains(&c)) {
                            return Err(bad(format!(
                                "row {id}'s text does not open any commitment the log holds for it"
                            )));
                        }
                    }
                }
            }
            rows.insert(id, row);
            seen += 1;
        }
        for (id, _) in depth.iter() {
            if !rows.contains_key(id) {
                return Err(bad(format!("row {id} is in the log but not in the file")));
            }
        }
        for (name, t) in [("payload", &payloads), ("vector", &vectors)] {
            if let Some(t) = t {
                for e in t.iter()? {
                    let id = e?.0.value();
                    if rows.get(&id).is_none_or(|r| r.depth.is_void()) {
                        return Err(bad(format!(
                            "a {name} is stored for row {id}, which has none"
                        )));
                    }
                }
            }
        }
        for (shard, ns, key, id) in storage::all_keys(&tx)? {
            if shard != storage::key_shard(&ns, &key) {
                return Err(bad(format!(
                    "key {key:?} in {ns:?} is in key shard {shard}, not its own"
                )));
            }
            let ok = rows.get(&id).is_some_and(|r| {
                r.depth.is_live() && r.namespace == ns && r.key.as_deref() == Some(key.as_str())
            });
            if !ok {
                return Err(bad(format!(
                    "key {key:?} in {ns:?} names row {id}, which does not hold it"
                )));
            }
        }
        if let Some(re) = storage::open_read(&tx, ROW_EVENTS)? {
            for e in re.iter()? {
                let (row, seq) = e?.0.value();
                if seq > self.head_seq || !depth.contains_key(&row) {
                    return Err(bad(format!("row-event index names row {row} at seq {seq}")));
                }
            }
        }
        Ok(seen)
    }
}
