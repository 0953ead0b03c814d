//! Read-only checks of a store file against a receipt, with redb only.
//!
//! The file is read once, into memory, and every check runs on that copy: the file is never
//! written (it may be read-only, held by a writer in another process, or not closed cleanly, in
//! which case the copy is recovered in memory).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use redb::{ReadableDatabase, ReadableTable, StorageBackend};

use crate::chain::{ChainReport, verify_chain};
use crate::depth::Depth;
use crate::error::{AuditError, Result};
use crate::event::{Event, EventKind};
use crate::receipt::SignedReceipt;
use crate::row_record::RowRecord;
use crate::tables;

/// What [`check_store`] established.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoreReport {
    /// The log chain, verified end to end under the receipt's key.
    pub chain: ChainReport,
    /// The receipt is stored in the file, byte for byte.
    pub receipt_stored: bool,
    /// Byte strings searched for in the raw file (none found, or the check fails).
    pub scanned: usize,
    /// Rows whose stored text opens a commitment the log holds for that row.
    pub payloads_checked: u64,
    /// Live rows whose every field (record, text, vector) hashes to the row digest the last
    /// event naming the row carries (rows last named before row digests existed are checked
    /// through their text commitment only).
    pub rows_digest_checked: u64,
}

/// Opens a private in-memory copy of a store file's bytes, recovering it there if the file was
/// not closed cleanly, and checks every committed page against its checksum.
pub fn open_copy(bytes: &[u8]) -> Result<redb::Database> {
    let backend = redb::backends::InMemoryBackend::new();
    StorageBackend::set_len(&backend, bytes.len() as u64)?;
    StorageBackend::write(&backend, 0, bytes)?;
    let opened = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut db = redb::Builder::new()
            .create_with_backend(backend)
            .map_err(store_err)?;
        db.check_integrity()
            .map_err(|e| AuditError::Mismatch(format!("page checksums: {e}")))?;
        Ok(db)
    }));
    opened.unwrap_or_else(|_| {
        Err(AuditError::Store(
            "the storage engine rejected the file".into(),
        ))
    })
}

/// Decodes a payload record (bincode 2 standard configuration of `{ text: String, salt: [u8;
/// 32] }`: a varint length, the UTF-8 text, the 32 salt bytes).
fn decode_payload(b: &[u8]) -> Result<(String, [u8; 32])> {
    let bad = || AuditError::Corrupt("payload record".into());
    let (len, rest) = match *b.first().ok_or_else(bad)? {
        n @ 0..=250 => (n as u64, &b[1..]),
        251 => (
            u16::from_le_bytes(b.get(1..3).ok_or_else(bad)?.try_into().map_err(|_| bad())?) as u64,
            &b[3..],
        ),
        252 => (
            u32::from_le_bytes(b.get(1..5).ok_or_else(bad)?.try_into().map_err(|_| bad())?) as u64,
            &b[5..],
        ),
        253 => (
            u64::from_le_bytes(b.get(1..9).ok_or_else(bad)?.try_into().map_err(|_| bad())?),
            &b[9..],
        ),
        _ => return Err(bad()),
    };
    let len = usize::try_from(len).map_err(|_| bad())?;
    if rest.len() != len.checked_add(32).ok_or_else(bad)? {
        return Err(bad());
    }
    let text = std::str::from_utf8(&rest[..len]).map_err(|_| bad())?;
    Ok((text.to_owned(), rest[len..].try_into().map_err(|_| bad())?))
}

fn store_err(e: impl std::fmt::Display) -> AuditError {
    AuditError::Store(e.to_string())
}

/// Checks `path` against `receipt`: the file's public key is the receipt's; the log verifies end
/// to end; the purge event is where the receipt says, with the receipt's hash, erasing exactly
/// the receipt's rows and carrying their commitments; the completion event is a scrub with the
/// receipt's hash; no payload or vector of an erased row is left; and none of `needles` occurs
/// anywhere in the file's raw bytes. Also: every committed page of the file matches its checksum,
/// and every stored text opens a content commitment of an event naming its row.
pub fn check_store(
    path: &Path,
    receipt: &SignedReceipt,
    receipt_bytes: &[u8],
    needles: &[String],
) -> Result<StoreReport> {
    let b = &receipt.body;
    let bytes = std::fs::read(path)?;
    let db = open_copy(&bytes)?;
    let tx = db.begin_read().map_err(store_err)?;
    let meta = tx.open_table(tables::META).map_err(store_err)?;
    let pk = meta
        .get(tables::META_PUBLIC_KEY)
        .map_err(store_err)?
        .ok_or_else(|| AuditError::Store("no public key in the store".into()))?;
    if pk.value() != b.store_public_key {
        return Err(AuditError::Mismatch(
            "the store's key is not the receipt's".into(),
        ));
    }
    let events_t = tx.open_table(tables::EVENTS).map_err(store_err)?;
    let cps_t = tx.open_table(tables::CHECKPOINTS).map_err(store_err)?;
    let events = events_t.iter().map_err(store_err)?.map(|e| {
        let (k, v) = e.map_err(store_err)?;
        Ok((k.value(), v.value().to_vec()))
    });
    let cps = cps_t.iter().map_err(store_err)?.map(|e| {
        let (k, v) = e.map_err(store_err)?;
        Ok((k.value(), v.value().to_vec()))
    });
    let chain = verify_chain(events, cps, &b.store_public_key)?;
    let head = meta
        .get(tables::META_HEAD)
        .map_err(store_err)?
        .map(|v| v.value().to_vec())
        .unwrap_or_default();
    if head.len() != 40 || head[8..] != chain.head_hash {
        return Err(AuditError::LogTampered {
            seq: chain.events,
            reason: "the store's recorded head is not the chain's end".into(),
        });
    }

    let event_at = |seq: u64| -> Result<Event> {
        let v = events_t
            .get(seq)
            .map_err(store_err)?
            .ok_or_else(|| AuditError::Mismatch(format!("no event at seq {seq}")))?;
        Event::decode(v.value())
    };
    let hash_at = |seq: u64| chain.hashes.get(seq as usize - 1).copied();
    let purge = event_at(b.log.purge_seq)?;
    if purge.kind != EventKind::Purge || hash_at(b.log.purge_seq) != Some(b.log.purge_hash) {
        return Err(AuditError::Mismatch(
            "the purge event is not the receipt's".into(),
        ));
    }
    let rows: Vec<u64> = purge.transitions.iter().map(|t| t.row).collect();
    // Rows rewritten by a clause edit keep their (rewritten) text and depth; every other row
    // of the purge is void.
    let edited: Vec<u64> = b
        .cascade
        .iter()
        .filter(|c| c.via == "clause_edit")
        .map(|c| c.row)
        .collect();
    let erased: Vec<u64> = b.erased.iter().map(|r| r.row).collect();
    let wrong_state = purge.transitions.iter().any(|t| {
        if edited.contains(&t.row) {
            t.before != Some(t.after)
        } else {
            !t.after.is_void()
        }
    });
    if rows != erased || wrong_state {
        return Err(AuditError::Mismatch(
            "the purge event erased other rows".into(),
        ));
    }
    for r in &b.erased {
        if !purge.commitments.contains(&r.commitment) {
            return Err(AuditError::Mismatch(format!(
                "row {}'s commitment is not in the purge event",
                r.row
            )));
        }
    }
    if !purge.commitments.contains(&b.selector_commitment) {
        return Err(AuditError::Mismatch(
            "selector commitment missing from the log".into(),
        ));
    }
    if b.log.seq_before + 1 != b.log.purge_seq
        || (b.log.seq_before > 0 && hash_at(b.log.seq_before) != Some(b.log.head_before))
    {
        return Err(AuditError::Mismatch(
            "log positions before the purge differ".into(),
        ));
    }
    if let (Some(seq), Some(h)) = (b.erasure.completion_seq, b.erasure.completion_hash) {
        let ev = event_at(seq)?;
        if ev.kind != EventKind::Scrub || hash_at(seq) != Some(h) || seq < b.log.purge_seq {
            return Err(AuditError::Mismatch(
                "the completion point is not a later scrub".into(),
            ));
        }
    }
    for (name, def) in [("payload", tables::PAYLOADS), ("vector", tables::VECTORS)] {
        let t = tx.open_table(def).map_err(store_err)?;
        for id in erased.iter().filter(|id| !edited.contains(id)) {
            if t.get(*id).map_err(store_err)?.is_some() {
                return Err(AuditError::Mismatch(format!(
                    "row {id}'s {name} is still stored"
                )));
            }
        }
    }
    let receipt_stored = match tx.open_table(tables::RECEIPTS) {
        Ok(t) => t
            .get(b.purge_id)
            .map_err(store_err)?
            .is_some_and(|v| v.value() == receipt_bytes),
        Err(redb::TableError::TableDoesNotExist(_)) => false,
        Err(e) => return Err(store_err(e)),
    };
    // Every stored text opens a content commitment of an event that names its row.
    let mut logged: BTreeMap<u64, BTreeSet<[u8; 32]>> = BTreeMap::new();
    let mut last: BTreeMap<u64, (Depth, Option<[u8; 32]>)> = BTreeMap::new();
    let mut digests_from = None;
    for e in events_t.iter().map_err(store_err)? {
        let (_, v) = e.map_err(store_err)?;
        let ev = Event::decode(v.value())?;
        if digests_from.is_none() && !ev.digests.is_empty() {
            digests_from = Some(ev.seq);
        }
        let expected: Vec<u64> = ev
            .transitions
            .iter()
            .filter(|t| !t.after.is_void())
            .map(|t| t.row)
            .collect();
        let carried: Vec<u64> = ev.digests.iter().map(|d| d.row).collect();
        if (digests_from.is_some() || !carried.is_empty()) && carried != expected {
            return Err(AuditError::Mismatch(format!(
                "event {} carries row digests for {carried:?}, not for {expected:?}",
                ev.seq
            )));
        }
        for t in &ev.transitions {
            logged
                .entry(t.row)
                .or_default()
                .extend(ev.commitments.iter().copied());
            let d = ev.digests.iter().find(|d| d.row == t.row).map(|d| d.digest);
            last.insert(t.row, (t.after, d));
        }
    }
    let mut payloads_checked = 0;
    let payloads = tx.open_table(tables::PAYLOADS).map_err(store_err)?;
    for e in payloads.iter().map_err(store_err)? {
        let (k, v) = e.map_err(store_err)?;
        let (text, salt) = decode_payload(v.value())?;
        let c = crate::commitment::content(&salt, &text);
        if !logged.get(&k.value()).is_some_and(|s| s.contains(&c)) {
            return Err(AuditError::Mismatch(format!(
                "row {}'s stored text opens no commitment the log holds for it",
                k.value()
            )));
        }
        payloads_checked += 1;
    }
    let rows_digest_checked = check_rows(&tx, &meta, &last)?;
    drop((payloads, meta, events_t, cps_t, tx, db));
    for n in needles {
        for form in [n.clone(), n.to_lowercase()] {
            if !form.is_empty() && bytes.windows(form.len()).any(|w| w == form.as_bytes()) {
                return Err(AuditError::Mismatch(format!(
                    "erased content {form:?} is still in the file's bytes"
                )));
            }
        }
    }
    Ok(StoreReport {
        chain,
        receipt_stored,
        scanned: needles.len(),
        payloads_checked,
        rows_digest_checked,
    })
}

/// Checks every row record against the log: its depth is the depth the log gives it, void rows
/// hold nothing, and a live row's fields hash to the digest the last event naming it carries.
fn check_rows(
    tx: &redb::ReadTransaction,
    meta: &redb::ReadOnlyTable<&'static str, &'static [u8]>,
    last: &BTreeMap<u64, (Depth, Option<[u8; 32]>)>,
) -> Result<u64> {
    let format = meta
        .get(tables::META_FORMAT)
        .map_err(store_err)?
        .map(|v| v.value().to_vec());
    let format = match format.as_deref() {
        Some(b) if b == 1u32.to_le_bytes() => 1,
        Some(b) if b == 2u32.to_le_bytes() => 2,
        Some(b) if b == 3u32.to_le_bytes() => 3,
        Some(b) if b == 4u32.to_le_bytes() => 4,
        Some(b) if b == 5u32.to_le_bytes() => 5,
        Some(b) if b == 6u32.to_le_bytes() => 6,
        _ => {
            return Err(AuditError::Store(format!(
                "row records of store format {format:?} are not understood by this verifier"
            )));
        }
    };
    let dim = meta
        .get(tables::META_DIM)
        .map_err(store_err)?
        .and_then(|v| <[u8; 4]>::try_from(v.value()).ok())
        .map(|b| u32::from_le_bytes(b) as usize)
        .ok_or_else(|| AuditError::Store("the store records no vector dimension".into()))?;
    let rows = tx.open_table(tables::ROWS).map_err(store_err)?;
    let payloads = tx.open_table(tables::PAYLOADS).map_err(store_err)?;
    let vectors = tx.open_table(tables::VECTORS).map_err(store_err)?;
    let mut checked = 0;
    let mut seen = 0usize;
    for e in rows.iter().map_err(store_err)? {
        let (k, v) = e.map_err(store_err)?;
        let id = k.value();
        let rec = RowRecord::decode_format(v.value(), format)?;
        let mismatch = |what: &str| AuditError::Mismatch(format!("row {id}: {what}"));
        let (depth, digest) = last.get(&id).ok_or_else(|| mismatch("in no event"))?;
        seen += 1;
        if rec.id != id || !rec.depth.identical(*depth) || rec.text.is_some() {
            return Err(mismatch("the record differs from the log"));
        }
        if depth.is_void() {
            continue;
        }
        let Some(d) = digest else { continue };
        let payload = payloads
            .get(id)
            .map_err(store_err)?
            .ok_or_else(|| mismatch("no payload"))?;
        let (text, salt) = decode_payload(payload.value())?;
        let vector = vectors
            .get(id)
            .map_err(store_err)?
            .ok_or_else(|| mismatch("no vector"))?;
        let vector =
            crate::vector::decode(vector.value(), dim).ok_or_else(|| mismatch("vector record"))?;
        if rec.fields(&text, &vector).digest(&salt) != *d {
            return Err(mismatch(
                "its fields do not hash to the digest the log holds",
            ));
        }
        checked += 1;
    }
    if seen != last.len() {
        return Err(AuditError::Mismatch(
            "rows named by the log are missing from the file".into(),
        ));
    }
    Ok(checked)
}
