//! Log entries and their canonical encoding.

use serde::{Deserialize, Serialize};

use crate::depth::Depth;
use crate::error::{AuditError as Error, Result};
use crate::{Millis, RowId};

/// A 32-byte blake3 digest.
pub type Hash32 = [u8; 32];

/// Version byte that opens an encoded event without row digests (every event before row
/// digests existed, and events that leave no row live: purges of whole rows, scrubs, config).
pub const EVENT_FORMAT_VERSION: u8 = 1;
/// Version byte of an event that carries row digests ([`Event::digests`] not empty).
pub const EVENT_FORMAT_VERSION_DIGESTS: u8 = 2;

/// Domain-separation context for event hashes (blake3 `derive_key` mode).
const EVENT_HASH_CONTEXT: &str = "oubli 2026-11-21 event hash v1";

/// Largest namespace an event may carry; larger encodings are corrupt.
const MAX_NAMESPACE: usize = 4096;
/// Largest number of transitions or commitments one event may carry when decoded.
const MAX_ITEMS: usize = 1 << 24;

/// What happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[repr(u8)]
pub enum EventKind {
    /// Rows created.
    Inscribe = 1,
    /// Old rows submerged, a new row created in their place.
    Supersede = 2,
    /// Rows submerged on request.
    Release = 3,
    /// Rows sank by a decay policy.
    Decay = 4,
    /// Rows pinned.
    Pin = 5,
    /// Rows brought back to the surface.
    Resurface = 6,
    /// Rows erased.
    Purge = 7,
    /// Rows submerged because their validity ended.
    Expire = 8,
    /// A row rewritten in place by a clause edit (its old text erased).
    Edit = 9,
    /// Freed pages and index segments rewritten: the erasure completion point.
    Scrub = 10,
    /// A derived row marked stale because a source changed.
    Invalidate = 11,
    /// A store-level setting changed (decay policy, alias registry).
    Config = 12,
    /// A note written by compaction (and the note it replaces, if any).
    Compact = 13,
    /// A purge's final receipt written in a transaction no `scrub` event records (the scrub
    /// deferred, or a purge completed on open): one commitment to the receipt document
    /// ([`receipt_commitment`]).
    Receipt = 14,
}

/// Domain-separation context of [`receipt_commitment`].
const RECEIPT_COMMITMENT_CONTEXT: &str = "oubli 2026-11-28 receipt commitment v1";

/// The commitment a `receipt` event carries: `blake3` derive-key over the stored receipt
/// document (the JSON a [`crate::receipt::SignedReceipt`] is kept as), binding the log to it.
pub fn receipt_commitment(document: &[u8]) -> Hash32 {
    blake3::derive_key(RECEIPT_COMMITMENT_CONTEXT, document)
}

impl EventKind {
    /// All kinds, in code order.
    pub const ALL: [EventKind; 14] = [
        EventKind::Inscribe,
        EventKind::Supersede,
        EventKind::Release,
        EventKind::Decay,
        EventKind::Pin,
        EventKind::Resurface,
        EventKind::Purge,
        EventKind::Expire,
        EventKind::Edit,
        EventKind::Scrub,
        EventKind::Invalidate,
        EventKind::Config,
        EventKind::Compact,
        EventKind::Receipt,
    ];

    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            EventKind::Inscribe => "inscribe",
            EventKind::Supersede => "supersede",
            EventKind::Release => "release",
            EventKind::Decay => "decay",
            EventKind::Pin => "pin",
            EventKind::Resurface => "resurface",
            EventKind::Purge => "purge",
            EventKind::Expire => "expire",
            EventKind::Edit => "edit",
            EventKind::Scrub => "scrub",
            EventKind::Invalidate => "invalidate",
            EventKind::Config => "config",
            EventKind::Compact => "compact",
            EventKind::Receipt => "receipt",
        }
    }

    fn from_code(c: u8) -> Option<EventKind> {
        EventKind::ALL.into_iter().find(|k| *k as u8 == c)
    }
}

/// One row's depth change inside an event.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Transition {
    /// The row.
    pub row: RowId,
    /// Depth before; `None` when the event creates the row.
    pub before: Option<Depth>,
    /// Depth after.
    pub after: Depth,
}

/// The digest of one row's fields ([`crate::row_digest`]) as the event left them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RowDigest {
    /// The row.
    pub row: RowId,
    /// [`crate::row_digest::RowFields::digest`] of the row after the event.
    pub digest: Hash32,
}

/// One log entry. Its hash covers every field, including the previous entry's hash.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Event {
    /// Position in the log, from 1, without gaps.
    pub seq: u64,
    /// Wall-clock time of the write, in milliseconds since the Unix epoch.
    pub time: Millis,
    /// Namespace the event acted in.
    pub namespace: String,
    /// What happened.
    pub kind: EventKind,
    /// Depth changes, one per row touched.
    pub transitions: Vec<Transition>,
    /// Salted blake3 commitments to the content involved (never plaintext).
    pub commitments: Vec<Hash32>,
    /// Digests of every row the event names that is not void afterwards, in transition order
    /// (empty in events written before row digests existed: version 1).
    #[serde(default)]
    pub digests: Vec<RowDigest>,
    /// Hash of the previous event (or the genesis hash for seq 1).
    pub prev_hash: Hash32,
}

impl Event {
    /// The canonical encoding (see `docs/log-format.md`):
    ///
    /// ```text
    /// u8  version (= 1)
    /// u64 seq            (little endian, as every integer here)
    /// i64 time
    /// u8  kind code
    /// u32 namespace length, then its UTF-8 bytes
    /// u32 transition count, then per transition:
    ///     u64 row id, 9-byte depth before (all zero = absent), 9-byte depth after
    /// u32 commitment count, then 32 bytes each
    /// (version 2 only) u32 digest count (>= 1), then per digest: u64 row id, 32-byte digest
    /// 32  previous hash
    /// ```
    ///
    /// The version is 2 exactly when [`Event::digests`] is not empty, so every event written
    /// before row digests existed keeps its bytes and hash.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(
            64 + self.namespace.len() + 26 * self.transitions.len() + 32 * self.commitments.len(),
        );
        out.push(if self.digests.is_empty() {
            EVENT_FORMAT_VERSION
        } else {
            EVENT_FORMAT_VERSION_DIGESTS
        });
        out.extend_from_slice(&self.seq.to_le_bytes());
        out.extend_from_slice(&self.time.to_le_bytes());
        out.push(self.kind as u8);
        out.extend_from_slice(&(self.namespace.len() as u32).to_le_bytes());
        out.extend_from_slice(self.namespace.as_bytes());
        out.extend_from_slice(&(self.transitions.len() as u32).to_le_bytes());
        for t in &self.transitions {
            out.extend_from_slice(&t.row.to_le_bytes());
            out.extend_from_slice(&t.before.map_or([0u8; 9], Depth::encode));
            out.extend_from_slice(&t.after.encode());
        }
        out.extend_from_slice(&(self.commitments.len() as u32).to_le_bytes());
        for c in &self.commitments {
            out.extend_from_slice(c);
        }
        if !self.digests.is_empty() {
            out.extend_from_slice(&(self.digests.len() as u32).to_le_bytes());
            for d in &self.digests {
                out.extend_from_slice(&d.row.to_le_bytes());
                out.extend_from_slice(&d.digest);
            }
        }
        out.extend_from_slice(&self.prev_hash);
        out
    }

    /// Strict inverse of [`Event::encode`]: any other byte string is an error, and
    /// `decode(b).encode() == b` whenever decoding succeeds.
    pub fn decode(bytes: &[u8]) -> Result<Event> {
        let mut r = Reader { bytes, pos: 0 };
        let version = r.u8()?;
        if version != EVENT_FORMAT_VERSION && version != EVENT_FORMAT_VERSION_DIGESTS {
            return Err(corrupt(format!("event version {version}")));
        }
        let seq = r.u64()?;
        let time = r.u64()? as i64;
        let code = r.u8()?;
        let kind = EventKind::from_code(code).ok_or_else(|| corrupt(format!("kind {code}")))?;
        let ns_len = r.u32()? as usize;
        if ns_len > MAX_NAMESPACE {
            return Err(corrupt("namespace too long".into()));
        }
        let namespace = std::str::from_utf8(r.take(ns_len)?)
            .map_err(|_| corrupt("namespace is not UTF-8".into()))?
            .to_owned();
        let n = r.count(26)?;
        let mut transitions = Vec::with_capacity(n);
        for _ in 0..n {
            let row = r.u64()?;
            let before_bytes = r.array9()?;
            let before = if before_bytes == [0u8; 9] {
                None
            } else {
                Some(Depth::decode(&before_bytes).ok_or_else(|| corrupt("depth".into()))?)
            };
            let after = Depth::decode(&r.array9()?).ok_or_else(|| corrupt("depth".into()))?;
            transitions.push(Transition { row, before, after });
        }
        let n = r.count(32)?;
        let mut commitments = Vec::with_capacity(n);
        for _ in 0..n {
            commitments.push(r.array32()?);
        }
        let mut digests = Vec::new();
        if version == EVENT_FORMAT_VERSION_DIGESTS {
            let n = r.count(40)?;
            if n == 0 {
                return Err(corrupt("a version 2 event without digests".into()));
            }
            digests.reserve(n);
            for _ in 0..n {
                let row = r.u64()?;
                let digest = r.array32()?;
                digests.push(RowDigest { row, digest });
            }
        }
        let prev_hash = r.array32()?;
        if r.pos != bytes.len() {
            return Err(corrupt("trailing bytes".into()));
        }
        Ok(Event {
            seq,
            time,
            namespace,
            kind,
            transitions,
            commitments,
            digests,
            prev_hash,
        })
    }

    /// blake3 (derive-key mode, context `oubli 2026-11-21 event hash v1`) of the encoding.
    pub fn hash(&self) -> Hash32 {
        hash_encoded(&self.encode())
    }
}

/// The hash of an already encoded event.
pub fn hash_encoded(encoded: &[u8]) -> Hash32 {
    let mut h = blake3::Hasher::new_derive_key(EVENT_HASH_CONTEXT);
    h.update(encoded);
    *h.finalize().as_bytes()
}

fn corrupt(what: String) -> Error {
    Error::Corrupt(format!("event encoding: {what}"))
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or_else(|| corrupt("truncated".into()))?;
        let s = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(s)
    }
    fn u8(&mut self) -> Result<u8> {
        Ok(self.take(1)?[0])
    }
    fn u32(&mut self) -> Result<u32> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }
    fn u64(&mut self) -> Result<u64> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().expect("8 bytes"),
        ))
    }
    fn array9(&mut self) -> Result<[u8; 9]> {
        Ok(self.take(9)?.try_into().expect("9 bytes"))
    }
    fn array32(&mut self) -> Result<[u8; 32]> {
        Ok(self.take(32)?.try_into().expect("32 bytes"))
    }
    /// Reads an item count and checks that `count * item_len` bytes can follow.
    fn count(&mut self, item_len: usize) -> Result<usize> {
        let n = self.u32()? as usize;
        if n > MAX_ITEMS || n * item_len > self.bytes.len() - self.pos {
            return Err(corrupt("count exceeds the remaining bytes".into()));
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Event {
        Event {
            seq: 7,
            time: 1_763_700_000_000,
            namespace: "user:ana".into(),
            kind: EventKind::Supersede,
            transitions: vec![
                Transition {
                    row: 3,
                    before: Some(Depth::SURFACE),
                    after: Depth::SUBMERGED,
                },
                Transition {
                    row: 4,
                    before: None,
                    after: Depth::SURFACE,
                },
            ],
            commitments: vec![[0xab; 32]],
            digests: Vec::new(),
            prev_hash: [0x11; 32],
        }
    }

    /// Golden vector of a version 2 event: the version byte and the digest list are the only
    /// differences from version 1.
    #[test]
    fn golden_vector_with_digests() {
        let mut e = sample();
        e.digests = vec![RowDigest {
            row: 4,
            digest: [0xcd; 32],
        }];
        let v1: String = sample().encode()[1..]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let v2: String = e.encode().iter().map(|b| format!("{b:02x}")).collect();
        let split = v1.len() - 64;
        assert_eq!(
            v2,
            format!(
                "02{}{}{}{}",
                &v1[..split],
                "01000000",         // 1 digest
                "0400000000000000", // row 4
                "cd".repeat(32) + &v1[split..]
            )
        );
        assert_eq!(Event::decode(&e.encode()).unwrap(), e);
        // A version 2 event must carry digests: the strict inverse of encode.
        let mut empty = e.encode();
        let at = empty.len() - 32 - 40 - 4;
        empty.splice(at..at + 44, 0u32.to_le_bytes());
        assert!(Event::decode(&empty).is_err());
    }

    #[test]
    fn round_trip() {
        let e = sample();
        let bytes = e.encode();
        assert_eq!(Event::decode(&bytes).unwrap(), e);
    }

    /// Golden vector: pins the byte format and the hash. If this fails, the log format changed
    /// and every signed log and receipt in the field would stop verifying.
    #[test]
    fn golden_vector() {
        let e = sample();
        let hex: String = e.encode().iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(
            hex,
            concat!(
                "01",               // version
                "0700000000000000", // seq 7
                "0045b6a49a010000", // time 1763700000000 ms
                "02",               // kind: supersede
                "08000000",
                "757365723a616e61",   // namespace "user:ana"
                "02000000",           // 2 transitions
                "0300000000000000",   // row 3
                "01000000000000f03f", // before: level 1.0
                "010000000000000000", // after: level 0.0
                "0400000000000000",   // row 4
                "000000000000000000", // before: absent
                "01000000000000f03f", // after: level 1.0
                "01000000",           // 1 commitment
                "abababababababababababababababababababababababababababababababab",
                "1111111111111111111111111111111111111111111111111111111111111111", // prev hash
            )
        );
        let h: String = e.hash().iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(h, GOLDEN_HASH);
    }

    /// Cross-checked with the Python `blake3` package (derive_key_context mode) over the bytes above.
    const GOLDEN_HASH: &str = "096c7274667f4c073d4fe4f91c85c097a05df4b17adaa0418d3b825e3c88c74b";

    #[test]
    fn rejects_trailing_and_truncated() {
        let bytes = sample().encode();
        for cut in 0..bytes.len() {
            assert!(
                Event::decode(&bytes[..cut]).is_err(),
                "prefix {cut} decoded"
            );
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(Event::decode(&longer).is_err());
    }
}
