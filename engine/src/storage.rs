//! The redb tables that make up a store file, and the codec of the records in them.
//!
//! Every table lives in the one redb file. Records that are never hashed or signed (rows, decay
//! policies, alias groups, provenance, note records) use postcard through serde ([`encode`]);
//! payloads, which the independent auditor reads, use the explicit encoding of
//! [`Payload::encode`]; records that are hashed or signed (events, checkpoints) use the
//! hand-specified encodings in [`crate::log`].
//!
//! Format 1 encoded the serde records with bincode 2 and format 2 with postcard, both with
//! string metadata; [`migrate()`] rewrites them on open ([`format1`] is the hand-written
//! bincode reader it uses, [`migrate::RowFormat2`] the row record of formats 1 and 2).

use std::sync::Arc;

use redb::{ReadableTable, TableDefinition};
use serde::{Serialize, de::DeserializeOwned};

use crate::error::{Error, Result};

pub mod format1;
pub mod half_vector;
pub mod migrate;
mod private_copy;

pub use migrate::migrate;
pub use private_copy::open_in_memory;

/// Version of the file layout, stored under [`meta::FORMAT`]. Version 6 keeps the vector
/// snapshot in graph segments ([`meta::SNAPSHOT_SEGMENTS`]; a version-5 graph is its segment 0,
/// so a version-5 file migrates by its version number alone). Version 5 keeps the natural keys
/// in [`KEY_SHARDS`] tables ([`KEY_TABLES`]) instead of one. Version 4 writes new rows'
/// vectors in half precision (records of earlier versions stay single precision, which the
/// length tells); version 3 holds typed metadata in row records; versions 3, 2 (postcard,
/// string metadata) and 1 (bincode 2) are migrated on open ([`migrate()`]).
pub const FORMAT_VERSION: u32 = 6;

/// Store-wide settings and counters: `&str -> bytes`.
pub const META: TableDefinition<&str, &[u8]> = oubli_audit::tables::META;
/// Row records without their text: `row id -> postcard(Row with text = None)`.
pub const ROWS: TableDefinition<u64, &[u8]> = TableDefinition::new("rows");
/// Row content: `row id -> Payload::encode`. Deleted on purge.
pub const PAYLOADS: TableDefinition<u64, &[u8]> = oubli_audit::tables::PAYLOADS;
/// Row vectors: `row id -> f16 little-endian` (format 4; `f32` records of older formats are kept
/// as written). Deleted on purge.
pub const VECTORS: TableDefinition<u64, &[u8]> = oubli_audit::tables::VECTORS;
/// Natural keys of live rows, `(namespace, key) -> row id`, in [`KEY_SHARDS`] tables: a key is
/// in [`KEY_TABLES`]`[`[`key_shard`]`(namespace, key)]`. A purge that removes a key rebuilds only
/// that key's shard (a B-tree keeps copies of removed keys as separators in live branch pages,
/// see [`meta::KEYS_REBUILD_DUE`]), so its cost is a 64th of the store's keys.
pub const KEY_SHARDS: usize = 64;

macro_rules! key_tables {
    ($($n:literal)*) => {
        [$(TableDefinition::new(concat!("keys.", $n))),*]
    };
}

/// The shards of the natural-key table, `keys.0` to `keys.63` (see [`KEY_SHARDS`]).
pub const KEY_TABLES: [TableDefinition<(&str, &str), u64>; KEY_SHARDS] = key_tables!(
    0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
    32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61
    62 63
);

/// The natural-key table of formats 4 and earlier, moved into [`KEY_TABLES`] by the migration.
pub const LEGACY_KEYS: TableDefinition<(&str, &str), u64> = TableDefinition::new("keys");

/// The shard of [`KEY_TABLES`] holding `(namespace, key)`: the first byte of a blake3 hash of
/// both (length-prefixed), modulo [`KEY_SHARDS`]. Part of the file format.
pub fn key_shard(namespace: &str, key: &str) -> usize {
    let mut h = blake3::Hasher::new();
    h.update(&(namespace.len() as u64).to_le_bytes());
    h.update(namespace.as_bytes());
    h.update(key.as_bytes());
    usize::from(h.finalize().as_bytes()[0]) % KEY_SHARDS
}

/// The natural-key shards of one write transaction, each opened on first use: how every write
/// reads and changes the natural keys.
pub struct KeyTables<'t> {
    tx: &'t redb::WriteTransaction,
    open: Vec<Option<redb::Table<'t, (&'static str, &'static str), u64>>>,
}

impl<'t> KeyTables<'t> {
    /// The shards of `tx`, none opened yet.
    pub fn new(tx: &'t redb::WriteTransaction) -> KeyTables<'t> {
        KeyTables {
            tx,
            open: (0..KEY_SHARDS).map(|_| None).collect(),
        }
    }

    fn shard(
        &mut self,
        namespace: &str,
        key: &str,
    ) -> Result<&mut redb::Table<'t, (&'static str, &'static str), u64>> {
        let i = key_shard(namespace, key);
        let slot = &mut self.open[i];
        if slot.is_none() {
            *slot = Some(self.tx.open_table(KEY_TABLES[i])?);
        }
        slot.as_mut()
            .ok_or_else(|| Error::Storage("key shard not open".into()))
    }

    /// The row holding `key` in `namespace`.
    pub fn get(&mut self, namespace: &str, key: &str) -> Result<Option<u64>> {
        Ok(self
            .shard(namespace, key)?
            .get((namespace, key))?
            .map(|v| v.value()))
    }

    /// Records that row `id` holds `key` in `namespace` and returns the row that held it
    /// before, if any, which this replaces: one lookup where [`KeyTables::get`] then
    /// [`KeyTables::insert`] make two. A caller that finds a holder must fail its transaction
    /// (a key belongs to one row), as the batch load does.
    pub fn insert_new(&mut self, namespace: &str, key: &str, id: u64) -> Result<Option<u64>> {
        Ok(self
            .shard(namespace, key)?
            .insert((namespace, key), id)?
            .map(|v| v.value()))
    }

    /// Records that row `id` holds `key` in `namespace`.
    pub fn insert(&mut self, namespace: &str, key: &str, id: u64) -> Result<()> {
        self.shard(namespace, key)?.insert((namespace, key), id)?;
        Ok(())
    }

    /// Removes `key` in `namespace`; returns the row that held it.
    pub fn remove(&mut self, namespace: &str, key: &str) -> Result<Option<u64>> {
        Ok(self
            .shard(namespace, key)?
            .remove((namespace, key))?
            .map(|v| v.value()))
    }
}

/// The row holding `key` in `namespace`, read in `tx`.
pub fn key_holder_read(
    tx: &redb::ReadTransaction,
    namespace: &str,
    key: &str,
) -> Result<Option<u64>> {
    match open_read(tx, KEY_TABLES[key_shard(namespace, key)])? {
        Some(t) => Ok(t.get((namespace, key))?.map(|v| v.value())),
        None => Ok(None),
    }
}

/// Every natural key in `tx`, by shard then key order: `(shard, namespace, key, row id)`.
pub fn all_keys(tx: &redb::ReadTransaction) -> Result<Vec<(usize, String, String, u64)>> {
    let mut out = Vec::new();
    for (i, def) in KEY_TABLES.iter().enumerate() {
        if let Some(t) = open_read(tx, *def)? {
            for e in t.iter()? {
                let (k, v) = e?;
                let (ns, key) = k.value();
                out.push((i, ns.to_owned(), key.to_owned(), v.value()));
            }
        }
    }
    Ok(out)
}
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
/// Match keys of indexed rows, as hashes: `row id -> u32 little-endian key hashes`; record 0
/// is the version marker (see `index::key_index`). Derived data, like the text index.
pub const MATCH_KEYS: TableDefinition<u64, &[u8]> = TableDefinition::new("match_keys");
/// The serialized usearch snapshot, in chunks: `chunk number -> bytes`.
pub const VECTOR_SNAPSHOT: TableDefinition<u64, &[u8]> = TableDefinition::new("vector_snapshot");
/// Purge receipts: `purge id -> receipt document` (canonical JSON, see `oubli-audit`).
pub const RECEIPTS: TableDefinition<u64, &[u8]> = oubli_audit::tables::RECEIPTS;
/// Decay policies: `namespace -> postcard(DecayPolicy)`.
pub const POLICIES: TableDefinition<&str, &[u8]> = TableDefinition::new("policies");
/// Alias groups: `group id -> postcard(AliasGroup)`. A group is deleted when a purge erases the
/// entity it names.
pub const ALIASES: TableDefinition<u64, &[u8]> = TableDefinition::new("aliases");

/// Provenance of derived rows and notes: `row id -> postcard(Provenance)`. Deleted on purge.
pub const PROVENANCE: TableDefinition<u64, &[u8]> = TableDefinition::new("provenance");
/// Derived rows and notes marked stale: `row id -> seq of the invalidate event`.
pub const STALE: TableDefinition<u64, u64> = TableDefinition::new("stale");
/// Compaction records of notes: `note id -> postcard(NoteRecord)`. Deleted on purge.
pub const NOTES: TableDefinition<u64, &[u8]> = TableDefinition::new("notes");

/// Openings of purges not yet delivered to their caller, sealed with a key derived from the
/// store's signing key: `purge id -> sealed opening` (see `store::pending`). Written in the
/// purge's own transaction, deleted once the opening is delivered (before the scrub completes, so
/// no byte of it survives in the file).
pub const PENDING_OPENINGS: TableDefinition<u64, &[u8]> = TableDefinition::new("pending_openings");
/// Purges whose completion step (scrub, residual audit, final receipt) has not committed yet:
/// `purge id -> ()`. Their stored receipt is the provisional one written with the erasure.
pub const INCOMPLETE_PURGES: TableDefinition<u64, ()> = TableDefinition::new("incomplete_purges");

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
    /// u64 LE: total bytes of the vector snapshot, when it is one graph (format 5 and earlier;
    /// later formats write [`SNAPSHOT_SEGMENTS`]).
    pub const SNAPSHOT_LEN: &str = "snapshot_len";
    /// Per graph segment of the vector snapshot, in row id order: u64 LE highest row id, then
    /// u64 LE bytes of its serialized graph (keyed in
    /// [`super::VECTOR_SNAPSHOT`] from the segment's number times 2^32).
    pub const SNAPSHOT_SEGMENTS: &str = "snapshot_segments";
    /// u64 LE each: rows whose vectors the vector snapshot still holds although they were
    /// purged or rewritten since it was written. The next scrub overwrites their bytes in the
    /// snapshot (see `VectorIndex::erase_removed`).
    pub const SNAPSHOT_DIRTY: &str = "snapshot_dirty";
    /// UTF-8: version of the canonicalizer the store's match keys and targeting use
    /// ([`crate::canon::CANONICALIZER_VERSION`]). Absent in stores written before it existed.
    pub const CANONICALIZER: &str = "canonicalizer";
    /// Present (empty) when every free page of the file is known to hold zeros: set when the
    /// store is created and when it is compacted into a fresh file, cleared after redb repairs
    /// the file (a repair frees the pages of a torn commit without zeroing them). The vendored
    /// redb zeroes every page it frees, so while this holds, a purge reaches its erasure point
    /// without copying the file; without it, the scrub compacts the file once (a store written
    /// before the vendored redb, see `vendor/redb/OUBLI-PATCH.md`).
    pub const FREE_PAGES_ZEROED: &str = "free_pages_zeroed";
    /// Present when a purge removed a natural key since the last scrub: the numbers of the
    /// [`super::KEY_TABLES`] shards it removed keys from, one byte each, ascending (empty: every
    /// shard, as formats 4 and earlier wrote it). A B-tree keeps copies of keys as separators in
    /// live branch pages, which zeroing freed pages does not reach: the next scrub rebuilds
    /// those shards into fresh pages (freeing, hence zeroing, every old one) and clears this.
    pub const KEYS_REBUILD_DUE: &str = "keys_rebuild_due";
}

/// Records in `tx` that the natural-key shard `shard` must be rebuilt by the next scrub
/// ([`meta::KEYS_REBUILD_DUE`]).
pub fn mark_key_shard_due(tx: &redb::WriteTransaction, shard: usize) -> Result<()> {
    let mut m = tx.open_table(META)?;
    let due = m.get(meta::KEYS_REBUILD_DUE)?.map(|v| v.value().to_vec());
    let mut due = match due {
        // Every shard is due already.
        Some(d) if d.is_empty() => return Ok(()),
        Some(d) => d,
        None => Vec::new(),
    };
    let b = u8::try_from(shard).map_err(|_| Error::Storage(format!("key shard {shard}")))?;
    if let Err(at) = due.binary_search(&b) {
        due.insert(at, b);
    }
    m.insert(meta::KEYS_REBUILD_DUE, due.as_slice())?;
    Ok(())
}

/// The natural-key shards the next scrub must rebuild ([`meta::KEYS_REBUILD_DUE`]), ascending.
pub fn due_key_shards(tx: &redb::WriteTransaction) -> Result<Vec<usize>> {
    let m = tx.open_table(META)?;
    let Some(v) = m.get(meta::KEYS_REBUILD_DUE)? else {
        return Ok(Vec::new());
    };
    if v.value().is_empty() {
        return Ok((0..KEY_SHARDS).collect());
    }
    let mut due = Vec::new();
    for &b in v.value() {
        let i = usize::from(b);
        if i >= KEY_SHARDS {
            return Err(Error::Corrupt(format!(
                "meta keys_rebuild_due names shard {i}"
            )));
        }
        due.push(i);
    }
    Ok(due)
}

/// A row's content, kept apart from the row record so a purge deletes it whole.
#[derive(Clone, Debug, PartialEq)]
pub struct Payload {
    /// The text.
    pub text: String,
    /// Random salt of the row's content commitment. Erased with the text, so the commitment in
    /// the log cannot be opened by anyone who does not hold the receipt's opening.
    pub salt: [u8; 32],
}

impl Payload {
    /// The explicit encoding of a payload record, the same in formats 1 to 3 (and read by
    /// `oubli-audit` without the engine): the text's byte length as a varint (below 251: one
    /// byte; otherwise a byte 251, 252 or 253 followed by the length as a little-endian u16, u32
    /// or u64), the UTF-8 text, then the 32-byte salt.
    pub fn encode(&self) -> Vec<u8> {
        let n = self.text.len();
        let mut out = Vec::with_capacity(n + 41);
        if n < 251 {
            out.push(n as u8);
        } else if let Ok(n) = u16::try_from(n) {
            out.push(251);
            out.extend_from_slice(&n.to_le_bytes());
        } else if let Ok(n) = u32::try_from(n) {
            out.push(252);
            out.extend_from_slice(&n.to_le_bytes());
        } else {
            out.push(253);
            out.extend_from_slice(&(n as u64).to_le_bytes());
        }
        out.extend_from_slice(self.text.as_bytes());
        out.extend_from_slice(&self.salt);
        out
    }

    /// Reads a record written by [`Payload::encode`]; anything else is [`Error::Corrupt`].
    pub fn decode(bytes: &[u8]) -> Result<Payload> {
        let (text, salt): (String, [u8; 32]) = format1::decode(bytes)?;
        Ok(Payload { text, salt })
    }
}

/// Encodes a record with postcard (formats 2 and 3).
pub fn encode<T: Serialize>(v: &T) -> Result<Vec<u8>> {
    postcard::to_allocvec(v).map_err(|e| Error::Storage(format!("record encoding: {e}")))
}

/// Decodes a record written by [`encode`]; trailing bytes are corruption.
pub fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T> {
    let (v, rest) =
        postcard::take_from_bytes(bytes).map_err(|e| Error::Corrupt(format!("record: {e}")))?;
    if !rest.is_empty() {
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

/// Reads a vector record: half precision (format 4) or single precision (formats 1 to 3, kept
/// as written), told apart by length (`oubli_audit::vector::decode`).
pub fn decode_vector(bytes: &[u8], dim: usize) -> Result<Vec<f32>> {
    oubli_audit::vector::decode(bytes, dim).ok_or_else(|| {
        Error::Corrupt(format!(
            "vector record is {} bytes, expected {} or {}",
            bytes.len(),
            dim * 2,
            dim * 4
        ))
    })
}

/// [`decode_vector`], appending the components to `out` (the bulk path of loading vectors).
pub fn decode_vector_into(bytes: &[u8], dim: usize, out: &mut Vec<f32>) -> Result<()> {
    if oubli_audit::vector::decode_into(bytes, dim, out) {
        Ok(())
    } else {
        decode_vector(bytes, dim).map(|_| ())
    }
}

/// A row's stored vector from the vector table as a read transaction sees it (`None` when the
/// table does not exist yet or the row has no vector).
pub fn read_vector(
    table: Option<&redb::ReadOnlyTable<u64, &[u8]>>,
    id: u64,
    dim: usize,
) -> Result<Option<Vec<f32>>> {
    match table {
        Some(t) => t
            .get(id)?
            .map(|b| decode_vector(b.value(), dim))
            .transpose(),
        None => Ok(None),
    }
}

/// Writes a vector record in half precision. The vector must already be
/// [`stored_vector`]'s rounding, so the record holds exactly the values the row digest commits
/// to.
pub fn encode_vector(v: &[f32]) -> Vec<u8> {
    let bits = half_vector::bits_of(v);
    debug_assert!(
        half_vector::values_of(&bits)
            .iter()
            .zip(v)
            .all(|(a, b)| a.to_bits() == b.to_bits())
    );
    half_vector::record_of(&bits)
}

/// A row's vector as the store keeps it: each component rounded to half precision (format 4).
/// Rows are created and rewritten with this rounding, before anything is digested or indexed.
pub fn stored_vector(v: &[f32]) -> Vec<f32> {
    half_vector::values_of(&half_vector::bits_of(v))
}

/// Salted content commitment (see `oubli_audit::commitment::content`).
pub use oubli_audit::commitment::content as commitment;

/// Checks every page checksum of the committed state of the file at `path` (on a private
/// in-memory copy; the file is only read), with redb's whole integrity check. Any byte changed in
/// a committed page of any table (rows, payloads, vectors, log, indexes) since redb wrote it fails
/// with [`Error::Corrupt`].
pub fn check_file_integrity(path: &std::path::Path) -> Result<()> {
    private_copy::open_copy(path, private_copy::Check::Full).map(drop)
}

/// Checks every page checksum of the committed state of an in-memory store's image (on a
/// private copy of its bytes), with redb's whole integrity check.
pub fn check_image_integrity(image: &MemoryImage) -> Result<()> {
    private_copy::open_checked_bytes(image.bytes()?, private_copy::Check::Full).map(drop)
}

/// The bytes of a store that never touches disk: a redb in-memory backend that the store keeps a
/// handle to, so that its image can be read (for the raw byte scan of the erasure check and the
/// integrity check) and wiped when scrub replaces it.
#[derive(Clone, Debug, Default)]
pub struct MemoryImage(Arc<redb::backends::InMemoryBackend>);

impl MemoryImage {
    /// A new, empty image.
    pub fn new() -> MemoryImage {
        MemoryImage::default()
    }

    /// The backend to hand to redb (it shares the bytes with this handle).
    pub fn backend(&self) -> SharedMemoryBackend {
        SharedMemoryBackend(self.0.clone())
    }

    /// Length of the image in bytes.
    pub fn len(&self) -> Result<u64> {
        use redb::StorageBackend;
        Ok(StorageBackend::len(&*self.0)?)
    }

    /// True when the image holds no byte.
    pub fn is_empty(&self) -> Result<bool> {
        Ok(self.len()? == 0)
    }

    /// A copy of every byte of the image.
    pub fn bytes(&self) -> Result<Vec<u8>> {
        use redb::StorageBackend;
        let len = StorageBackend::len(&*self.0)?;
        let mut out = vec![0u8; len as usize];
        StorageBackend::read(&*self.0, 0, &mut out)?;
        Ok(out)
    }

    /// Overwrites every byte of the image with zeros and empties it. Only for an image no
    /// database reads any more (scrub wipes the image it replaced).
    pub fn wipe(&self) -> Result<()> {
        use redb::StorageBackend;
        let len = StorageBackend::len(&*self.0)?;
        const CHUNK: usize = 1 << 20;
        let zeros = vec![0u8; CHUNK.min(len as usize)];
        let mut at = 0u64;
        while at < len {
            let n = (len - at).min(CHUNK as u64) as usize;
            StorageBackend::write(&*self.0, at, &zeros[..n])?;
            at += n as u64;
        }
        StorageBackend::set_len(&*self.0, 0)?;
        Ok(())
    }
}

/// A redb storage backend over the bytes of a [`MemoryImage`].
#[derive(Debug)]
pub struct SharedMemoryBackend(Arc<redb::backends::InMemoryBackend>);

impl redb::StorageBackend for SharedMemoryBackend {
    fn len(&self) -> std::result::Result<u64, std::io::Error> {
        redb::StorageBackend::len(&*self.0)
    }
    fn read(&self, offset: u64, out: &mut [u8]) -> std::result::Result<(), std::io::Error> {
        redb::StorageBackend::read(&*self.0, offset, out)
    }
    fn set_len(&self, len: u64) -> std::result::Result<(), std::io::Error> {
        redb::StorageBackend::set_len(&*self.0, len)
    }
    fn sync_data(&self) -> std::result::Result<(), std::io::Error> {
        redb::StorageBackend::sync_data(&*self.0)
    }
    fn write(&self, offset: u64, data: &[u8]) -> std::result::Result<(), std::io::Error> {
        redb::StorageBackend::write(&*self.0, offset, data)
    }
}

/// The redb handle: the writer's, or a reader's private in-memory copy, and the committed state
/// readers are pinned to while a write commits (see [`Db::pin`]).
pub struct Db {
    kind: DbKind,
    /// While a write commits with readers going on, the state they read: the last commit whose
    /// changes the store's in-memory indexes hold.
    pinned: parking_lot::Mutex<Option<Arc<redb::ReadTransaction>>>,
}

/// Which redb handle a [`Db`] is.
pub enum DbKind {
    /// A writable database (the one writer; other processes cannot open the file for writing).
    Writable(redb::Database),
    /// A read-only view of a private in-memory copy of the file ([`open_in_memory`]): what
    /// read-only handles read. Nothing is ever written, to the file or the copy.
    Snapshot(redb::Database),
    /// A writable database that never touches disk (`Store::in_memory`), over `image`.
    Memory(redb::Database, MemoryImage),
}

impl Db {
    /// A writable database.
    pub fn writable(db: redb::Database) -> Db {
        Db::of(DbKind::Writable(db))
    }

    /// A read-only view of a private in-memory copy ([`DbKind::Snapshot`]).
    pub fn snapshot(db: redb::Database) -> Db {
        Db::of(DbKind::Snapshot(db))
    }

    /// A writable database over an in-memory `image` ([`DbKind::Memory`]).
    pub fn memory(db: redb::Database, image: MemoryImage) -> Db {
        Db::of(DbKind::Memory(db, image))
    }

    fn of(kind: DbKind) -> Db {
        Db {
            kind,
            pinned: parking_lot::Mutex::new(None),
        }
    }

    /// Which handle this is.
    pub fn kind(&self) -> &DbKind {
        &self.kind
    }

    /// The redb database.
    pub fn database(&self) -> &redb::Database {
        match &self.kind {
            DbKind::Writable(d) | DbKind::Snapshot(d) | DbKind::Memory(d, _) => d,
        }
    }

    /// Starts a read transaction: the last committed state, or while a write commits with
    /// readers going on, the state before it (see [`Db::pin`]).
    pub fn begin_read(&self) -> Result<Arc<redb::ReadTransaction>> {
        if let Some(pinned) = &*self.pinned.lock() {
            return Ok(pinned.clone());
        }
        self.begin_read_fresh().map(Arc::new)
    }

    fn begin_read_fresh(&self) -> Result<redb::ReadTransaction> {
        use redb::ReadableDatabase;
        Ok(self.database().begin_read()?)
    }

    /// Pins readers to the state committed now: until [`Db::unpin`], every
    /// [`Db::begin_read`] reads it, whatever commits meanwhile. A writer pins before a commit
    /// that readers may run beside, and unpins once the store's in-memory indexes hold that
    /// commit's changes, so that a reader never sees rows the indexes do not (or the reverse).
    /// The pin holds the pages of one commit: it is released before any commit that must free
    /// them (the erasure point's freeing commit runs unpinned, under the exclusive lock).
    pub fn pin(&self) -> Result<()> {
        let mut pinned = self.pinned.lock();
        if pinned.is_none() {
            *pinned = Some(Arc::new(self.begin_read_fresh()?));
        }
        Ok(())
    }

    /// Releases the pin of [`Db::pin`]: reads see the last commit again.
    pub fn unpin(&self) {
        let released = self.pinned.lock().take();
        drop(released);
    }

    /// Starts a write transaction; [`Error::ReadOnly`] on a read-only handle.
    pub fn begin_write(&self) -> Result<redb::WriteTransaction> {
        match &self.kind {
            DbKind::Writable(d) | DbKind::Memory(d, _) => Ok(d.begin_write()?),
            DbKind::Snapshot(_) => Err(Error::ReadOnly),
        }
    }

    /// True for a writable handle.
    pub fn is_writable(&self) -> bool {
        matches!(self.kind, DbKind::Writable(_) | DbKind::Memory(..))
    }

    /// The image of a store that never touches disk; `None` for a file.
    pub fn memory_image(&self) -> Option<&MemoryImage> {
        match &self.kind {
            DbKind::Memory(_, image) => Some(image),
            _ => None,
        }
    }
}

/// Removes [`meta::FREE_PAGES_ZEROED`] from the file (after redb repaired it). A file without
/// it (or without a meta table: not a store, which the open reports) is left untouched.
pub fn clear_free_pages_zeroed(db: &redb::Database) -> Result<()> {
    use redb::ReadableDatabase;
    if !free_pages_zeroed(&db.begin_read()?)? {
        return Ok(());
    }
    let tx = db.begin_write()?;
    tx.open_table(META)?.remove(meta::FREE_PAGES_ZEROED)?;
    tx.commit()?;
    Ok(())
}

/// True when [`meta::FREE_PAGES_ZEROED`] is set in the committed state `tx` reads.
pub fn free_pages_zeroed(tx: &redb::ReadTransaction) -> Result<bool> {
    Ok(match open_read(tx, META)? {
        Some(m) => m.get(meta::FREE_PAGES_ZEROED)?.is_some(),
        None => false,
    })
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
