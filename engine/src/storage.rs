//! The redb tables that make up a store file, and the codec of the records in them.
//!
//! Every table lives in the one redb file. Records that are never hashed or signed (rows,
//! payloads) use bincode 2's standard configuration through serde; records that are hashed or
//! signed (events, checkpoints) use the hand-specified encodings in [`crate::log`].

use redb::{ReadableTable, TableDefinition};
use serde::{Deserialize, Serialize, de::DeserializeOwned};

use crate::error::{Error, Result};

/// Version of the file layout, stored under [`meta::FORMAT`].
pub const FORMAT_VERSION: u32 = 1;

/// Store-wide settings and counters: `&str -> bytes`.
pub const META: TableDefinition<&str, &[u8]> = oubli_audit::tables::META;
/// Row records without their text: `row id -> bincode(Row with text = None)`.
pub const ROWS: TableDefinition<u64, &[u8]> = TableDefinition::new("rows");
/// Row content: `row id -> bincode(Payload)`. Deleted on purge.
pub const PAYLOADS: TableDefinition<u64, &[u8]> = oubli_audit::tables::PAYLOADS;
/// Row vectors: `row id -> f32 little-endian`. Deleted on purge.
pub const VECTORS: TableDefinition<u64, &[u8]> = oubli_audit::tables::VECTORS;
/// Natural keys of live rows: `(namespace, key) -> row id`.
pub const KEYS: TableDefinition<(&str, &str), u64> = TableDefinition::new("keys");
/// Rows derived from a source: `(source id, derived id) -> ()`.
pub const DERIVED: TableDefinition<(u64, u64), ()> = TableDefinition::new("derived");
/// The event log: `seq -> canonical event encoding`.
pub const EVENTS: TableDefinition<u64, &[u8]> = oubli_audit::tables::EVENTS;
/// Signed checkpoints: `seq -> checkpoint encoding`.
pub const CHECKPOINTS: TableDefinition<u64, &[u8]> = oubli_audit::tables::CHECKPOINTS;
/// Events that touched a row: `(row id, seq) -> ()`, for history and as-of.
pub const ROW_EVENTS: TableDefinition<(u64, u64), ()> = TableDefinition::new("row_events");
/// Event sequence by time: `(time, seq) -> ()`, for as-of by time.
pub const EVENT_TIMES: TableDefinition<(i64, u64), ()> = TableDefinition::new("event_times");
/// Files of the tantivy text index: `path -> bytes`.
pub const TEXT_INDEX_FILES: TableDefinition<&str, &[u8]> = TableDefinition::new("text_index_files");
/// The serialized usearch snapshot, in chunks: `chunk number -> bytes`.
pub const VECTOR_SNAPSHOT: TableDefinition<u64, &[u8]> = TableDefinition::new("vector_snapshot");
/// Purge receipts: `purge id -> receipt document` (canonical JSON, see `oubli-audit`).
pub const RECEIPTS: TableDefinition<u64, &[u8]> = oubli_audit::tables::RECEIPTS;
/// Decay policies: `namespace -> bincode(DecayPolicy)`.
pub const POLICIES: TableDefinition<&str, &[u8]> = TableDefinition::new("policies");
/// Alias groups: `group id -> bincode(AliasGroup)`. A group is deleted when a purge erases the
/// entity it names.
pub const ALIASES: TableDefinition<u64, &[u8]> = TableDefinition::new("aliases");

/// Provenance of derived rows and notes: `row id -> bincode(Provenance)`. Deleted on purge.
pub const PROVENANCE: TableDefinition<u64, &[u8]> = TableDefinition::new("provenance");
/// Derived rows and notes marked stale: `row id -> seq of the invalidate event`.
pub const STALE: TableDefinition<u64, u64> = TableDefinition::new("stale");
/// Compaction records of notes: `note id -> bincode(NoteRecord)`. Deleted on purge.
pub const NOTES: TableDefinition<u64, &[u8]> = TableDefinition::new("notes");

/// Keys of the [`META`] table.
pub mod meta {
    /// u32 LE: [`super::FORMAT_VERSION`].
    pub const FORMAT: &str = "format";
    /// The embedder id string.
    pub const EMBEDDER: &str = "embedder";
    /// u32 LE: embedding dimension.
    pub const DIM: &str = "dim";
    /// 32 bytes: the store's ed25519 public key.
    pub const PUBLIC_KEY: &str = oubli_audit::tables::META_PUBLIC_KEY;
    /// 32 bytes: the ed25519 secret key, when the store keeps its own key.
    pub const SECRET_KEY: &str = "secret_key";
    /// u64 LE: next row id to assign.
    pub const NEXT_ROW: &str = "next_row";
    /// u64 LE seq and 32-byte hash of the last event.
    pub const HEAD: &str = oubli_audit::tables::META_HEAD;
    /// u64 LE: highest row id covered by the vector snapshot.
    pub const SNAPSHOT_MAX_ROW: &str = "snapshot_max_row";
    /// u64 LE: total bytes of the vector snapshot.
    pub const SNAPSHOT_LEN: &str = "snapshot_len";
    /// UTF-8: version of the canonicalizer the store's match keys and targeting use
    /// ([`crate::canon::CANONICALIZER_VERSION`]). Absent in stores written before it existed.
    pub const CANONICALIZER: &str = "canonicalizer";
}

/// A row's content, kept apart from the row record so a purge deletes it whole.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Payload {
    /// The text.
    pub text: String,
    /// Random salt of the row's content commitment. Erased with the text, so the commitment in
    /// the log cannot be opened by anyone who does not hold the receipt's opening.
    pub salt: [u8; 32],
}

/// Encodes a record with bincode 2 (standard configuration).
pub fn encode<T: Serialize>(v: &T) -> Result<Vec<u8>> {
    Ok(bincode::serde::encode_to_vec(
        v,
        bincode::config::standard(),
    )?)
}

/// Decodes a record written by [`encode`]; trailing bytes are corruption.
pub fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T> {
    let (v, n) = bincode::serde::decode_from_slice(bytes, bincode::config::standard())?;
    if n != bytes.len() {
        return Err(Error::Corrupt("trailing bytes after record".into()));
    }
    Ok(v)
}

/// Reads a u64 meta value.
pub fn meta_u64(
    table: &impl ReadableTable<&'static str, &'static [u8]>,
    key: &str,
) -> Result<Option<u64>> {
    match table.get(key)? {
        None => Ok(None),
        Some(v) => {
            let b: [u8; 8] = v
                .value()
                .try_into()
                .map_err(|_| Error::Corrupt(format!("meta {key} is not 8 bytes")))?;
            Ok(Some(u64::from_le_bytes(b)))
        }
    }
}

/// Reads a vector record.
pub fn decode_vector(bytes: &[u8], dim: usize) -> Result<Vec<f32>> {
    if bytes.len() != dim * 4 {
        return Err(Error::Corrupt(format!(
            "vector record is {} bytes, expected {}",
            bytes.len(),
            dim * 4
        )));
    }
    Ok(bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect())
}

/// Writes a vector record.
pub fn encode_vector(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Salted content commitment (see `oubli_audit::commitment::content`).
pub use oubli_audit::commitment::content as commitment;

/// The redb handle: writable, or shared read-only.
pub enum Db {
    /// A writable database (the one writer).
    Writable(redb::Database),
    /// A read-only database; other read-only handles may share the file.
    ReadOnly(redb::ReadOnlyDatabase),
}

impl Db {
    /// Starts a read transaction.
    pub fn begin_read(&self) -> Result<redb::ReadTransaction> {
        use redb::ReadableDatabase;
        Ok(match self {
            Db::Writable(d) => d.begin_read()?,
            Db::ReadOnly(d) => d.begin_read()?,
        })
    }

    /// Starts a write transaction; [`Error::ReadOnly`] on a read-only handle.
    pub fn begin_write(&self) -> Result<redb::WriteTransaction> {
        match self {
            Db::Writable(d) => Ok(d.begin_write()?),
            Db::ReadOnly(_) => Err(Error::ReadOnly),
        }
    }

    /// True for a writable handle.
    pub fn is_writable(&self) -> bool {
        matches!(self, Db::Writable(_))
    }
}

/// Opens a table for reading; a table that was never created reads as absent (`None`).
pub fn open_read<K: redb::Key + 'static, V: redb::Value + 'static>(
    tx: &redb::ReadTransaction,
    def: TableDefinition<K, V>,
) -> Result<Option<redb::ReadOnlyTable<K, V>>> {
    match tx.open_table(def) {
        Ok(t) => Ok(Some(t)),
        Err(redb::TableError::TableDoesNotExist(_)) => Ok(None),
        Err(e) => Err(e.into()),
    }
}
