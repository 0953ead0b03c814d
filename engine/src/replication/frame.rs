//! The replication frame: one committed write transaction, as a replica applies it.
//!
//! A frame is physical: it carries the transaction's events (their canonical encodings, as the
//! leader's log holds them), the checkpoint the leader signed over them, and the after-image of
//! every record of the replicated tables the transaction changed (a value, or its deletion). It
//! is signed as a whole with the leader's ed25519 key, so a replica checks every byte of it, not
//! only the events the checkpoint covers. The encoding is specified in `docs/replication.md` and
//! is canonical: whatever [`Frame::decode`] accepts, [`Frame::encode`] writes back byte for byte.

use ed25519_dalek::{Signature, Signer, SigningKey, Verifier, VerifyingKey};

use super::ReplicationError;
use crate::log::{CHECKPOINT_LEN, Checkpoint, Event, Hash32, hash_encoded};

/// The first bytes of every frame.
pub const FRAME_MAGIC: &[u8; 8] = b"oubli-rf";
/// The frame format this build writes and reads.
pub const FRAME_VERSION: u8 = 1;
/// Context of the frame signature: the leader signs `FRAME_SIGNING_CONTEXT || blake3(body)`,
/// where the body is every byte of the frame before the signature.
pub const FRAME_SIGNING_CONTEXT: &[u8] = b"oubli replication frame v1";
/// Longest event encoding a frame may carry (a bound for the decoder, far above any event the
/// engine writes: an event holds ids, depths and 32-byte hashes).
pub const MAX_EVENT_LEN: usize = 64 << 20;
/// Longest record value a frame may carry.
pub const MAX_VALUE_LEN: usize = 256 << 20;

/// A replicated table: the tables that hold a store's state, apart from what a replica derives
/// itself (the event log's own tables, the `keys`, `row_events` and `event_times` indexes, the
/// text index and the vector snapshot) and what stays local (the sealed openings of purges, the
/// store's secret key, and the bookkeeping of its own scrubs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Table {
    /// `meta`, only the keys `next_row` and `canonicalizer`.
    Meta = 1,
    /// `rows`: row id → row record.
    Rows = 2,
    /// `payloads`: row id → text and salt.
    Payloads = 3,
    /// `vectors`: row id → vector record.
    Vectors = 4,
    /// `derived`: (source id, derived id) → nothing.
    Derived = 5,
    /// `policies`: namespace → decay policy.
    Policies = 6,
    /// `receipts`: purge id → receipt document.
    Receipts = 7,
    /// `provenance`: row id → provenance record.
    Provenance = 8,
    /// `stale`: row id → seq of its `invalidate` event (u64 LE).
    Stale = 9,
    /// `notes`: note row id → compaction record.
    Notes = 10,
    /// `aliases`: group id → alias group.
    Aliases = 11,
    /// `incomplete_purges`: purge id → nothing.
    IncompletePurges = 12,
}

impl Table {
    /// Every replicated table, in tag order.
    pub const ALL: [Table; 12] = [
        Table::Meta,
        Table::Rows,
        Table::Payloads,
        Table::Vectors,
        Table::Derived,
        Table::Policies,
        Table::Receipts,
        Table::Provenance,
        Table::Stale,
        Table::Notes,
        Table::Aliases,
        Table::IncompletePurges,
    ];

    /// The table with this tag.
    pub fn from_tag(tag: u8) -> Option<Table> {
        Table::ALL.into_iter().find(|t| *t as u8 == tag)
    }

    /// The shape of this table's keys.
    pub fn key_shape(self) -> KeyShape {
        match self {
            Table::Meta | Table::Policies => KeyShape::Name,
            Table::Derived => KeyShape::Pair,
            _ => KeyShape::Id,
        }
    }

    /// The exact length of every value of this table, for tables whose values have one.
    pub fn value_len(self) -> Option<usize> {
        match self {
            Table::Derived | Table::IncompletePurges => Some(0),
            Table::Stale => Some(8),
            _ => None,
        }
    }
}

/// The shape of a table's keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyShape {
    /// A u64 (a row, group or purge id).
    Id,
    /// Two u64s (a provenance edge).
    Pair,
    /// A UTF-8 string (a meta key, a namespace).
    Name,
}

/// The `meta` keys a frame may carry.
pub const REPLICATED_META: [&str; 2] = [
    crate::storage::meta::NEXT_ROW,
    crate::storage::meta::CANONICALIZER,
];

/// The key of a record in a replicated table.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Key {
    /// A u64 key.
    Id(u64),
    /// A pair of u64s.
    Pair(u64, u64),
    /// A string key.
    Name(String),
}

impl Key {
    fn shape(&self) -> KeyShape {
        match self {
            Key::Id(_) => KeyShape::Id,
            Key::Pair(..) => KeyShape::Pair,
            Key::Name(_) => KeyShape::Name,
        }
    }

    /// The row this key names, in the tables keyed by row id (and the derived row of an edge).
    pub fn row(&self, table: Table) -> Option<u64> {
        match (table, self) {
            (
                Table::Rows
                | Table::Payloads
                | Table::Vectors
                | Table::Provenance
                | Table::Stale
                | Table::Notes,
                Key::Id(id),
            ) => Some(*id),
            _ => None,
        }
    }
}

/// One record as the transaction left it: its new value, or `None` if it deleted the record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// The table.
    pub table: Table,
    /// The record's key.
    pub key: Key,
    /// The record's value after the transaction; `None` when the transaction deleted it.
    pub value: Option<Vec<u8>>,
}

/// One committed write transaction of a leader (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    public_key: [u8; 32],
    events: Vec<Vec<u8>>,
    checkpoint: Checkpoint,
    changes: Vec<Change>,
    signature: [u8; 64],
}

impl Frame {
    /// Builds and signs a frame. `events` are canonical event encodings in log order, ending at
    /// the checkpoint's seq; `changes` are sorted into canonical order here. Fails if a change's
    /// key or value does not fit its table.
    pub fn sign(
        key: &SigningKey,
        events: Vec<Vec<u8>>,
        checkpoint: Checkpoint,
        mut changes: Vec<Change>,
    ) -> Result<Frame, ReplicationError> {
        changes.sort_by(|a, b| (a.table, &a.key).cmp(&(b.table, &b.key)));
        for c in &changes {
            check_change(c)?;
        }
        if changes
            .windows(2)
            .any(|w| (w[0].table, &w[0].key) == (w[1].table, &w[1].key))
        {
            return Err(ReplicationError::Malformed("a record changed twice".into()));
        }
        let mut frame = Frame {
            public_key: key.verifying_key().to_bytes(),
            events,
            checkpoint,
            changes,
            signature: [0; 64],
        };
        let message = signing_message(&frame.body());
        frame.signature = key.sign(&message).to_bytes();
        Ok(frame)
    }

    /// The leader's public key.
    pub fn public_key(&self) -> [u8; 32] {
        self.public_key
    }

    /// The canonical encodings of the transaction's events, in log order.
    pub fn event_bytes(&self) -> &[Vec<u8>] {
        &self.events
    }

    /// The transaction's events, decoded.
    pub fn events(&self) -> Result<Vec<Event>, ReplicationError> {
        self.events
            .iter()
            .map(|e| Event::decode(e).map_err(|e| ReplicationError::Malformed(e.to_string())))
            .collect()
    }

    /// The event hashes of the transaction, in log order.
    pub fn event_hashes(&self) -> Vec<Hash32> {
        self.events.iter().map(|e| hash_encoded(e)).collect()
    }

    /// The checkpoint the leader signed at the end of the transaction.
    pub fn checkpoint(&self) -> &Checkpoint {
        &self.checkpoint
    }

    /// The seq of the transaction's last event: the frame's position in the stream.
    pub fn seq(&self) -> u64 {
        self.checkpoint.seq
    }

    /// The records the transaction changed, in canonical order.
    pub fn changes(&self) -> &[Change] {
        &self.changes
    }

    /// Checks everything a frame proves on its own, before it meets a replica: the events
    /// decode strictly, run without gaps and chain to one another, the checkpoint covers the
    /// last of them, and the checkpoint and frame signatures verify under `public_key`.
    /// Returns the events, decoded.
    pub fn verify(&self, public_key: &[u8; 32]) -> Result<Vec<Event>, ReplicationError> {
        if &self.public_key != public_key {
            return Err(ReplicationError::ForeignKey);
        }
        let vk = VerifyingKey::from_bytes(public_key)
            .map_err(|_| ReplicationError::BadSignature("public key"))?;
        vk.verify(
            &signing_message(&self.body()),
            &Signature::from_bytes(&self.signature),
        )
        .map_err(|_| ReplicationError::BadSignature("frame"))?;
        let events = self.events()?;
        let Some(first) = events.first() else {
            return Err(ReplicationError::Malformed("a frame without events".into()));
        };
        let mut hash = first.prev_hash;
        let mut last = first.seq;
        for (k, (ev, bytes)) in events.iter().zip(&self.events).enumerate() {
            let due = first.seq.checked_add(k as u64);
            if due != Some(ev.seq) {
                return Err(ReplicationError::Malformed(format!(
                    "event {} out of sequence",
                    ev.seq
                )));
            }
            if ev.prev_hash != hash {
                return Err(ReplicationError::Malformed(format!(
                    "event {} does not chain to the one before",
                    ev.seq
                )));
            }
            hash = hash_encoded(bytes);
            last = ev.seq;
        }
        if self.checkpoint.seq != last || self.checkpoint.head != hash {
            return Err(ReplicationError::Malformed(
                "the checkpoint does not cover the frame's last event".into(),
            ));
        }
        self.checkpoint
            .verify(public_key)
            .map_err(|_| ReplicationError::BadSignature("checkpoint"))?;
        Ok(events)
    }

    /// Every byte of the frame before its signature.
    fn body(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(FRAME_MAGIC);
        out.push(FRAME_VERSION);
        out.extend_from_slice(&self.public_key);
        put_u32(&mut out, self.events.len());
        for e in &self.events {
            put_u32(&mut out, e.len());
            out.extend_from_slice(e);
        }
        out.extend_from_slice(&self.checkpoint.encode());
        put_u32(&mut out, self.changes.len());
        for c in &self.changes {
            out.push(c.table as u8);
            match &c.key {
                Key::Id(id) => out.extend_from_slice(&id.to_le_bytes()),
                Key::Pair(a, b) => {
                    out.extend_from_slice(&a.to_le_bytes());
                    out.extend_from_slice(&b.to_le_bytes());
                }
                Key::Name(s) => {
                    put_u32(&mut out, s.len());
                    out.extend_from_slice(s.as_bytes());
                }
            }
            match &c.value {
                None => out.push(0),
                Some(v) => {
                    out.push(1);
                    put_u32(&mut out, v.len());
                    out.extend_from_slice(v);
                }
            }
        }
        out
    }

    /// The frame's bytes (see `docs/replication.md`).
    pub fn encode(&self) -> Vec<u8> {
        let mut out = self.body();
        out.extend_from_slice(&self.signature);
        out
    }

    /// Reads a frame written by [`Frame::encode`]. Strict: a wrong magic or version, a
    /// truncation, a count the bytes cannot hold, a table or key that does not exist, records out
    /// of canonical order, or trailing bytes are [`ReplicationError::Malformed`] (or
    /// [`ReplicationError::UnsupportedVersion`]). Decoding checks no signature: see
    /// [`Frame::verify`].
    pub fn decode(bytes: &[u8]) -> Result<Frame, ReplicationError> {
        let mut r = Reader { bytes, pos: 0 };
        if r.take(FRAME_MAGIC.len())? != FRAME_MAGIC {
            return Err(ReplicationError::Malformed(
                "not a replication frame".into(),
            ));
        }
        let version = r.u8()?;
        if version != FRAME_VERSION {
            return Err(ReplicationError::UnsupportedVersion(version));
        }
        let public_key: [u8; 32] = r.array()?;
        let n = r.count(4)?;
        let mut events = Vec::with_capacity(n);
        for _ in 0..n {
            let len = r.u32()? as usize;
            if len > MAX_EVENT_LEN {
                return Err(ReplicationError::Malformed("event too long".into()));
            }
            events.push(r.take(len)?.to_vec());
        }
        let checkpoint = Checkpoint::decode(r.take(CHECKPOINT_LEN)?)
            .map_err(|e| ReplicationError::Malformed(e.to_string()))?;
        let n = r.count(10)?;
        let mut changes: Vec<Change> = Vec::with_capacity(n);
        for _ in 0..n {
            let tag = r.u8()?;
            let table = Table::from_tag(tag)
                .ok_or_else(|| ReplicationError::Malformed(format!("unknown table {tag}")))?;
            let key = match table.key_shape() {
                KeyShape::Id => Key::Id(r.u64()?),
                KeyShape::Pair => Key::Pair(r.u64()?, r.u64()?),
                KeyShape::Name => {
                    let len = r.u32()? as usize;
                    let s = std::str::from_utf8(r.take(len)?)
                        .map_err(|_| ReplicationError::Malformed("key is not UTF-8".into()))?;
                    Key::Name(s.to_owned())
                }
            };
            let value = match r.u8()? {
                0 => None,
                1 => {
                    let len = r.u32()? as usize;
                    if len > MAX_VALUE_LEN {
                        return Err(ReplicationError::Malformed("value too long".into()));
                    }
                    Some(r.take(len)?.to_vec())
                }
                b => {
                    return Err(ReplicationError::Malformed(format!("presence byte {b}")));
                }
            };
            let change = Change { table, key, value };
            check_change(&change)?;
            if let Some(prev) = changes.last()
                && (prev.table, &prev.key) >= (change.table, &change.key)
            {
                return Err(ReplicationError::Malformed(
                    "records out of canonical order".into(),
                ));
            }
            changes.push(change);
        }
        let signature: [u8; 64] = r.array()?;
        if r.pos != bytes.len() {
            return Err(ReplicationError::Malformed("trailing bytes".into()));
        }
        Ok(Frame {
            public_key,
            events,
            checkpoint,
            changes,
            signature,
        })
    }
}

/// What the leader signs for a frame whose body is `body`.
fn signing_message(body: &[u8]) -> Vec<u8> {
    let mut m = FRAME_SIGNING_CONTEXT.to_vec();
    m.extend_from_slice(blake3::hash(body).as_bytes());
    m
}

/// Checks that a change's key has its table's shape, a meta key is one a frame may carry, and a
/// value has its table's length.
fn check_change(c: &Change) -> Result<(), ReplicationError> {
    if c.key.shape() != c.table.key_shape() {
        return Err(ReplicationError::Malformed(format!(
            "a {:?} key in table {:?}",
            c.key.shape(),
            c.table
        )));
    }
    if c.table == Table::Meta
        && !matches!(&c.key, Key::Name(k) if REPLICATED_META.contains(&k.as_str()))
    {
        return Err(ReplicationError::Malformed(format!(
            "meta key {:?} is not replicated",
            c.key
        )));
    }
    if let (Some(len), Some(v)) = (c.table.value_len(), &c.value)
        && v.len() != len
    {
        return Err(ReplicationError::Malformed(format!(
            "a {}-byte value in table {:?}",
            v.len(),
            c.table
        )));
    }
    Ok(())
}

fn put_u32(out: &mut Vec<u8>, n: usize) {
    out.extend_from_slice(&(n as u32).to_le_bytes());
}

/// A strict reader over a frame's bytes.
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], ReplicationError> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or_else(|| ReplicationError::Malformed("truncated".into()))?;
        let s = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(s)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], ReplicationError> {
        let mut a = [0u8; N];
        a.copy_from_slice(self.take(N)?);
        Ok(a)
    }

    fn u8(&mut self) -> Result<u8, ReplicationError> {
        Ok(self.take(1)?[0])
    }

    fn u32(&mut self) -> Result<u32, ReplicationError> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    fn u64(&mut self) -> Result<u64, ReplicationError> {
        Ok(u64::from_le_bytes(self.array()?))
    }

    /// A count of items at least `min` bytes each, which the remaining bytes must be able to hold.
    fn count(&mut self, min: usize) -> Result<usize, ReplicationError> {
        let n = self.u32()? as usize;
        if n.saturating_mul(min) > self.bytes.len() - self.pos {
            return Err(ReplicationError::Malformed(
                "a count the frame cannot hold".into(),
            ));
        }
        Ok(n)
    }
}
