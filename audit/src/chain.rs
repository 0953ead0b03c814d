//! Verification of the event log's hash chain and signed checkpoints.

use std::collections::HashMap;

use crate::checkpoint::{Checkpoint, genesis_hash};
use crate::error::{AuditError, Result};
use crate::event::{Event, Hash32, hash_encoded};

/// What a chain verification covered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChainReport {
    /// Events verified (the head's seq).
    pub events: u64,
    /// Checkpoints verified.
    pub checkpoints: u64,
    /// Hash of the last event (the genesis hash when there is none).
    pub head_hash: Hash32,
    /// Hash of every event, by seq (index 0 is seq 1).
    pub hashes: Vec<Hash32>,
}

/// Verifies a log given as `(seq, encoded event)` in key order and `(seq, encoded checkpoint)`
/// in key order, under `public_key`:
/// 1. seqs run 1, 2, 3 … without gaps, and each entry decodes strictly and names its own seq;
/// 2. each event names the previous event's hash (the genesis hash first);
/// 3. each checkpoint's head equals the chain's hash at its seq and its signature verifies;
/// 4. the last event is covered by a checkpoint.
pub fn verify_chain(
    events: impl IntoIterator<Item = Result<(u64, Vec<u8>)>>,
    checkpoints: impl IntoIterator<Item = Result<(u64, Vec<u8>)>>,
    public_key: &[u8; 32],
) -> Result<ChainReport> {
    let mut prev = genesis_hash(public_key);
    let mut expected = 1u64;
    let mut hashes = Vec::new();
    for e in events {
        let (seq, bytes) = e?;
        let tampered = |reason: String| AuditError::LogTampered { seq, reason };
        if seq != expected {
            return Err(tampered(format!("expected seq {expected}, found {seq}")));
        }
        let ev = Event::decode(&bytes).map_err(|e| tampered(e.to_string()))?;
        if ev.seq != seq {
            return Err(tampered(format!(
                "entry stored at {seq} says seq {}",
                ev.seq
            )));
        }
        if ev.prev_hash != prev {
            return Err(tampered("previous-hash link broken".into()));
        }
        prev = hash_encoded(&bytes);
        hashes.push(prev);
        expected += 1;
    }
    let last = expected - 1;
    let by_seq: HashMap<u64, Hash32> = hashes
        .iter()
        .enumerate()
        .map(|(i, h)| (i as u64 + 1, *h))
        .collect();
    let mut count = 0;
    let mut last_cp = 0;
    for c in checkpoints {
        let (seq, bytes) = c?;
        let cp = Checkpoint::decode(&bytes).map_err(|e| AuditError::LogTampered {
            seq,
            reason: e.to_string(),
        })?;
        if cp.seq != seq {
            return Err(AuditError::LogTampered {
                seq,
                reason: "checkpoint stored under the wrong seq".into(),
            });
        }
        if by_seq.get(&seq) != Some(&cp.head) {
            return Err(AuditError::LogTampered {
                seq,
                reason: "checkpoint head does not match the chain".into(),
            });
        }
        cp.verify(public_key)?;
        count += 1;
        last_cp = seq;
    }
    if last_cp != last {
        return Err(AuditError::LogTampered {
            seq: last,
            reason: format!("last event {last} is not covered by a checkpoint (last is {last_cp})"),
        });
    }
    Ok(ChainReport {
        events: last,
        checkpoints: count,
        head_hash: prev,
        hashes,
    })
}
