//! Many new rows in one transaction: runs of rows without sources are encoded and digested on
//! several threads, then written in row order with each table opened once per run.

use super::*;

impl Batch<'_> {
    /// Inscribes `rows` in order, one event per row: the same ids, salts, rows, events and hashes
    /// as [`Batch::create_row`] followed by [`Batch::event`] for each row in turn. A run of rows
    /// without sources (which need lookups of their own) is written in bulk: what each row's
    /// records are depends on the row, its id, sequence number and salt alone, so they are
    /// encoded and digested on several threads ([`prepare_row`], from the values written, as a
    /// read would decode them), and then written in row order with each table opened once for
    /// the run; keys are checked and inserted in that same order, so a key repeated within the
    /// run fails as it would one row at a time.
    pub(crate) fn inscribe_rows(
        &mut self,
        rows: Vec<(Inscription, Vec<f32>)>,
    ) -> Result<Vec<RowId>> {
        let bulk = |ins: &Inscription| ins.derived_from.is_empty();
        let mut ids = Vec::with_capacity(rows.len());
        let mut rows = rows.into_iter().peekable();
        while let Some((ins, _)) = rows.peek() {
            if !bulk(ins) {
                let Some((ins, v)) = rows.next() else { break };
                let ns = ins.namespace_or_default().to_owned();
                let (row, t, c) = self.create_row(ins, v, None)?;
                self.event(EventKind::Inscribe, &ns, vec![t], vec![c])?;
                ids.push(row.id);
                continue;
            }
            let mut run = Vec::new();
            while let Some(r) = rows.next_if(|(ins, _)| bulk(ins)) {
                run.push(r);
            }
            self.inscribe_run(run, &mut ids)?;
        }
        Ok(ids)
    }

    /// Writes a run of rows without sources (see [`Batch::inscribe_rows`]).
    pub(super) fn inscribe_run(
        &mut self,
        run: Vec<(Inscription, Vec<f32>)>,
        ids: &mut Vec<RowId>,
    ) -> Result<()> {
        let (first_id, first_seq, now, dim) =
            (self.next_row, self.head_seq + 1, self.now, self.inner().dim);
        let texts = run.iter().map(|(ins, _)| ins.text.as_str());
        self.keys_ahead.extend(KeysAhead::start(first_id, texts));
        let entropy = &self.inner().entropy;
        let prepare_span = tracing::debug_span!("oubli::batch::prepare_rows").entered();
        let inputs: Vec<(u64, &Inscription, &[f32])> = run
            .iter()
            .enumerate()
            .map(|(k, (ins, v))| (k as u64, ins, v.as_slice()))
            .collect();
        let prepared = crate::parallel::map(&inputs, |&(k, ins, v)| {
            prepare_row(
                ins,
                v,
                first_id + k,
                first_seq + k,
                entropy.ahead32(k),
                now,
                dim,
            )
        });
        drop(inputs);
        drop(prepare_span);
        let _write_span = tracing::debug_span!("oubli::batch::write_rows").entered();
        let mut t_keys = if run.iter().any(|(ins, _)| ins.key.is_some()) {
            Some(storage::KeyTables::new(self.tx))
        } else {
            None
        };
        let mut t_rows = self.tx.open_table(ROWS)?;
        let mut t_payloads = self.tx.open_table(PAYLOADS)?;
        let mut t_vectors = self.tx.open_table(VECTORS)?;
        let mut t_events = self.tx.open_table(EVENTS)?;
        let mut t_row_events = self.tx.open_table(ROW_EVENTS)?;
        let mut t_times = self.tx.open_table(EVENT_TIMES)?;
        for ((ins, _), p) in run.into_iter().zip(prepared) {
            let p = p?;
            let id = self.next_row;
            // A key already held fails the batch, and the transaction with the insert is dropped.
            if let (Some(key), Some(t_keys)) = (&ins.key, t_keys.as_mut())
                && let Some(holder) = t_keys.insert_new(&p.namespace, key, id)?
            {
                return Err(Error::DuplicateKey {
                    namespace: p.namespace,
                    key: key.clone(),
                    holder,
                });
            }
            self.next_row += 1;
            self.inner().entropy.skip(1);
            t_rows.insert(id, p.row.as_slice())?;
            t_payloads.insert(id, p.payload.as_slice())?;
            t_vectors.insert(id, p.encoded_vector.as_slice())?;
            let seq = self.head_seq + 1;
            let ev = Event {
                seq,
                time: now,
                namespace: p.namespace,
                kind: EventKind::Inscribe,
                transitions: vec![Transition {
                    row: id,
                    before: None,
                    after: Depth::SURFACE,
                }],
                commitments: vec![p.commitment],
                digests: vec![RowDigest {
                    row: id,
                    digest: p.digest,
                }],
                prev_hash: self.head_hash,
            };
            let enc = ev.encode();
            let hash = hash_encoded(&enc);
            t_events.insert(seq, enc.as_slice())?;
            t_row_events.insert((id, seq), ())?;
            t_times.insert((now, seq), ())?;
            self.head_seq = seq;
            self.head_hash = hash;
            self.events += 1;
            self.ops.push(IndexOp::AddText(id, ins.text));
            self.ops.push(IndexOp::AddVector(id, p.vector));
            ids.push(id);
        }
        Ok(())
    }
}

/// The records of one row of a bulk run ([`Batch::inscribe_run`]), as written.
struct PreparedRow {
    /// The vector as stored, digested and indexed (half precision).
    vector: Vec<f32>,
    namespace: String,
    row: Vec<u8>,
    payload: Vec<u8>,
    encoded_vector: Vec<u8>,
    commitment: Hash32,
    digest: Hash32,
}

/// Encodes a new row's records and computes its commitment and digest (what [`Batch::event`]
/// would compute by reading the row back: the digest is taken from the encoded values, decoded
/// as a read would). Depends on its arguments alone, so rows are prepared on any thread.
fn prepare_row(
    ins: &Inscription,
    vector: &[f32],
    id: RowId,
    seq: u64,
    salt: [u8; 32],
    now: Millis,
    dim: usize,
) -> Result<PreparedRow> {
    // Half precision before anything is written, digested or indexed (format 4): one rounding
    // gives the record and the values it decodes to.
    let bits = storage::half_vector::bits_of(vector);
    let vector = storage::half_vector::values_of(&bits);
    let namespace = ins.namespace_or_default().to_owned();
    let commitment = storage::commitment(&salt, &ins.text);
    let row = Row {
        id,
        namespace: namespace.clone(),
        key: ins.key.clone(),
        text: None,
        kind: ins.kind,
        metadata: ins.metadata.clone(),
        created_at: now,
        surfaced_at: now,
        valid_until: ins.valid_until,
        depth: Depth::SURFACE.canonical(),
        derived_from: Vec::new(),
        superseded_by: None,
        supersedes: None,
        created_seq: seq,
    };
    let enc_row = storage::encode(&row)?;
    let payload = Payload {
        text: ins.text.clone(),
        salt,
    }
    .encode();
    let encoded_vector = storage::half_vector::record_of(&bits);
    let stored: Row = storage::decode(&enc_row)?;
    // The record decodes to exactly `vector` (every half is an f32), so the digest a read
    // would take is the digest of `vector`.
    debug_assert!(storage::decode_vector(&encoded_vector, dim).is_ok_and(|r| r == vector));
    let digest = crate::store::integrity::row_fields(&stored, &ins.text, &vector).digest(&salt);
    Ok(PreparedRow {
        vector,
        namespace,
        row: enc_row,
        payload,
        encoded_vector,
        commitment,
        digest,
    })
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::{HashEmbedder, ManualClock, Store, StoreOptions};

    fn opts() -> StoreOptions {
        StoreOptions::default()
            .embedder(Arc::new(HashEmbedder::new(64).unwrap()))
            .clock(Arc::new(ManualClock::new(1_763_700_000_000)))
            .deterministic_seed([9; 32])
            .signing_key([3; 32])
            .durable(false)
    }

    /// Rows of every shape the bulk path takes: plain, keyed (the same key in two namespaces),
    /// namespaced with metadata, with an expiry, with a caller's vector.
    fn rows(n: usize) -> Vec<Inscription> {
        (0..n)
            .map(|i| {
                let ins = Inscription::new(format!(
                    "memory {i}: {} met {} about invoice INV-{} in {}",
                    ["ana", "bo", "chen", "dara"][i % 4],
                    ["paris", "lima", "oslo"][i % 3],
                    1000 + i * 7,
                    ["march", "july"][i % 2]
                ));
                match i % 6 {
                    0 => ins.key(format!("k{i}")),
                    1 => ins.namespace("user:ana").meta("priority", i as i64),
                    2 => ins.namespace("user:bo").key(format!("k{}", i - 2)),
                    3 => ins.valid_until(1_863_700_000_000),
                    4 => ins.vector((0..64).map(|j| ((i * 5 + j) % 11) as f32 - 5.0).collect()),
                    _ => ins,
                }
            })
            .collect()
    }

    /// The reference: each row created and logged on its own ([`Batch::create_row`] then
    /// [`Batch::event`], which reads the row back to digest it), in one transaction.
    fn one_at_a_time(store: &Store, rows: Vec<Inscription>) -> Vec<RowId> {
        let prepared: Vec<_> = rows
            .into_iter()
            .map(|r| store.prepare(r).unwrap())
            .collect();
        store
            .write(|b| {
                let mut ids = Vec::new();
                for (ins, v) in prepared {
                    let ns = ins.namespace_or_default().to_owned();
                    let (row, t, c) = b.create_row(ins, v, None)?;
                    b.event(EventKind::Inscribe, &ns, vec![t], vec![c])?;
                    ids.push(row.id);
                }
                Ok(ids)
            })
            .unwrap()
    }

    #[test]
    fn a_bulk_batch_logs_what_one_row_at_a_time_logs_on_any_thread_count() {
        let dir = tempfile::tempdir().unwrap();
        for threads in [1, 2, 3, 8] {
            let reference =
                Store::create_with(dir.path().join(format!("ref{threads}.oubli")), opts()).unwrap();
            let ref_ids = one_at_a_time(&reference, rows(700));
            let store =
                Store::create_with(dir.path().join(format!("t{threads}.oubli")), opts()).unwrap();
            let ids =
                crate::parallel::with_threads(threads, || store.inscribe_batch(rows(700))).unwrap();
            assert_eq!(ids, ref_ids, "{threads} threads");
            // The same events: the same head hash (every event hash chains into it).
            assert_eq!(store.head().unwrap(), reference.head().unwrap());
            store.verify_log(None).unwrap();
            for &id in &ids {
                assert_eq!(store.get(id).unwrap(), reference.get(id).unwrap());
            }
            // The salt stream ends where one-by-one writing leaves it.
            store.inscribe(Inscription::new("after the batch")).unwrap();
            reference
                .inscribe(Inscription::new("after the batch"))
                .unwrap();
            assert_eq!(store.head().unwrap(), reference.head().unwrap());
        }
    }

    #[test]
    fn a_key_repeated_within_a_bulk_batch_fails_it_whole_on_any_thread_count() {
        for threads in [1, 8] {
            let dir = tempfile::tempdir().unwrap();
            let store = Store::create_with(dir.path().join("s.oubli"), opts()).unwrap();
            let before = store.inscribe(Inscription::new("before")).unwrap();
            let head = store.head().unwrap();
            let mut batch = rows(600);
            batch[590] = Inscription::new("a second holder of k36").key("k36");
            let r = crate::parallel::with_threads(threads, || store.inscribe_batch(batch));
            // The error names the batch's first holder of the key (row 36 of the batch).
            assert!(
                matches!(&r, Err(Error::DuplicateKey { key, holder, .. })
                    if key == "k36" && *holder == before + 1 + 36),
                "{r:?}"
            );
            assert_eq!(store.head().unwrap(), head);
            // The failed batch consumed no row id.
            let dir2 = tempfile::tempdir().unwrap();
            let clean = Store::create_with(dir2.path().join("s.oubli"), opts()).unwrap();
            clean.inscribe(Inscription::new("before")).unwrap();
            assert_eq!(
                store.inscribe(Inscription::new("after")).unwrap(),
                clean.inscribe(Inscription::new("after")).unwrap()
            );
        }
    }
}
