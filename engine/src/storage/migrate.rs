//! Migration of older file layouts to [`super::FORMAT_VERSION`], in one transaction.
//!
//! Format 1 encoded the records of [`super::ROWS`], [`super::POLICIES`], [`super::ALIASES`],
//! [`super::PROVENANCE`] and [`super::NOTES`] with bincode 2 ([`super::format1`]); formats 2
//! and 3 encode them with postcard ([`super::encode`]). Format 3 changed one thing: row
//! metadata values are typed ([`crate::MetaValue`]) where formats 1 and 2 held strings
//! ([`RowFormat2`]); a string value becomes [`crate::MetaValue::Str`]. Everything else is
//! unchanged: payloads keep their explicit encoding ([`super::Payload::encode`]), and the event
//! log, checkpoints and receipts (hand-specified encodings, hashed and signed) are not touched,
//! so every event hash stays what it was (and the row digests they carry: a row whose metadata
//! holds only strings digests as before, see `oubli_audit::row_digest`). Format 4 writes new
//! rows' vectors in half precision ([`super::encode_vector`]); format 3's single-precision vector
//! records are kept (the length tells them apart), so a format-3 file migrates by its version
//! number alone. So does a format-5 file to format 6 (the vector snapshot's one graph is the
//! first of its segments, [`super::meta::SNAPSHOT_SEGMENTS`]).

use std::collections::BTreeMap;

use redb::{ReadableTable, TableDefinition};
use serde::{Deserialize, Serialize, de::DeserializeOwned};

use super::{FORMAT_VERSION, META, meta};
use crate::depth::Depth;
use crate::error::{Error, Result};
use crate::metadata::MetaValue;
use crate::row::{Kind, Millis, Row, RowId};

/// A row record of store formats 1 and 2: [`Row`] with string metadata values (the serde
/// layout both formats encoded).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RowFormat2 {
    /// Identifier.
    pub id: RowId,
    /// Namespace.
    pub namespace: String,
    /// Natural key.
    pub key: Option<String>,
    /// Text (absent in stored records).
    pub text: Option<String>,
    /// Kind.
    pub kind: Kind,
    /// String metadata.
    pub metadata: BTreeMap<String, String>,
    /// Creation time.
    pub created_at: Millis,
    /// Last surfacing time.
    pub surfaced_at: Millis,
    /// Expiry.
    pub valid_until: Option<Millis>,
    /// Depth.
    pub depth: Depth,
    /// Sources.
    pub derived_from: Vec<RowId>,
    /// Successor.
    pub superseded_by: Option<RowId>,
    /// Predecessor.
    pub supersedes: Option<RowId>,
    /// Seq of the creating event.
    pub created_seq: u64,
}

impl From<RowFormat2> for Row {
    fn from(r: RowFormat2) -> Row {
        Row {
            id: r.id,
            namespace: r.namespace,
            key: r.key,
            text: r.text,
            kind: r.kind,
            metadata: r
                .metadata
                .into_iter()
                .map(|(k, v)| (k, MetaValue::Str(v)))
                .collect(),
            created_at: r.created_at,
            surfaced_at: r.surfaced_at,
            valid_until: r.valid_until,
            depth: r.depth,
            derived_from: r.derived_from,
            superseded_by: r.superseded_by,
            supersedes: r.supersedes,
            created_seq: r.created_seq,
        }
    }
}

/// Brings the database to [`FORMAT_VERSION`] if it holds an older supported format; returns
/// the format it found. Runs in one write transaction: a crash leaves the file as it was. A
/// read-only handle runs it on its private in-memory copy, never on the file.
pub fn migrate(db: &redb::Database) -> Result<u32> {
    use redb::ReadableDatabase;
    let found = {
        let tx = db.begin_read()?;
        let Some(m) = super::open_read(&tx, META)? else {
            // Not a store: the open reports it.
            return Ok(FORMAT_VERSION);
        };
        let Some(v) = m.get(meta::FORMAT)? else {
            return Ok(FORMAT_VERSION);
        };
        let b: [u8; 4] = v
            .value()
            .try_into()
            .map_err(|_| Error::Corrupt("meta format".into()))?;
        u32::from_le_bytes(b)
    };
    let tx = match found {
        1 => {
            let tx = db.begin_write()?;
            use super::format1::decode as bincode;
            reencode_by_id::<Row, RowFormat2>(&tx, super::ROWS, bincode)?;
            reencode_by_id::<crate::AliasGroup, _>(&tx, super::ALIASES, bincode)?;
            reencode_by_id::<crate::Provenance, _>(&tx, super::PROVENANCE, bincode)?;
            reencode_by_id::<crate::Note, _>(&tx, super::NOTES, bincode)?;
            reencode_policies(&tx)?;
            tx
        }
        2 => {
            let tx = db.begin_write()?;
            reencode_by_id::<Row, RowFormat2>(&tx, super::ROWS, super::decode)?;
            tx
        }
        // Format 4 changed the vector record of new rows only (half precision); the single
        // precision records of format 3 stay as they are (the row digests commit to them).
        3 | 4 => db.begin_write()?,
        // Format 6 keeps the vector snapshot in segments, of which format 5's one graph is the
        // first as it is stored: the version number is all that changes.
        5 => db.begin_write()?,
        // The current format needs nothing; a newer or unknown one is refused by the open.
        _ => return Ok(found),
    };
    // Format 5 keeps the natural keys in shards.
    if found < 5 {
        shard_keys(&tx)?;
    }
    tx.open_table(META)?
        .insert(meta::FORMAT, FORMAT_VERSION.to_le_bytes().as_slice())?;
    tx.commit()?;
    Ok(found)
}

/// Moves the natural keys of the single `keys` table of formats 1 to 4 into their shards
/// ([`super::KEY_TABLES`]) and deletes it (its pages are freed, so zeroed by a later durable
/// commit, separators included).
fn shard_keys(tx: &redb::WriteTransaction) -> Result<()> {
    use redb::ReadableTable;
    let mut live: Vec<(String, String, u64)> = Vec::new();
    match tx.open_table(super::LEGACY_KEYS) {
        Ok(t) => {
            for e in t.iter()? {
                let (k, v) = e?;
                let (ns, key) = k.value();
                live.push((ns.to_owned(), key.to_owned(), v.value()));
            }
        }
        Err(redb::TableError::TableDoesNotExist(_)) => {}
        Err(e) => return Err(e.into()),
    }
    tx.delete_table(super::LEGACY_KEYS)?;
    let mut keys = super::KeyTables::new(tx);
    for def in super::KEY_TABLES {
        tx.open_table(def)?;
    }
    for (ns, key, id) in &live {
        keys.insert(ns, key, *id)?;
    }
    Ok(())
}

/// Rewrites every record of `def` from its older shape `Old` (read with `decode`) to the
/// current `New`.
fn reencode_by_id<New, Old>(
    tx: &redb::WriteTransaction,
    def: TableDefinition<u64, &[u8]>,
    decode: fn(&[u8]) -> Result<Old>,
) -> Result<()>
where
    New: Serialize + From<Old>,
    Old: DeserializeOwned,
{
    let mut t = tx.open_table(def)?;
    let old: Vec<(u64, Vec<u8>)> = t
        .iter()?
        .map(|e| e.map(|(k, v)| (k.value(), v.value().to_vec())))
        .collect::<std::result::Result<_, _>>()?;
    for (k, v) in old {
        let record = New::from(decode(&v)?);
        t.insert(k, super::encode(&record)?.as_slice())?;
    }
    Ok(())
}

/// Rewrites the decay policies (keyed by namespace).
fn reencode_policies(tx: &redb::WriteTransaction) -> Result<()> {
    let mut t = tx.open_table(super::POLICIES)?;
    let old: Vec<(String, Vec<u8>)> = t
        .iter()?
        .map(|e| e.map(|(k, v)| (k.value().to_owned(), v.value().to_vec())))
        .collect::<std::result::Result<_, _>>()?;
    for (k, v) in old {
        let record: crate::DecayPolicy = super::format1::decode(&v)?;
        t.insert(k.as_str(), super::encode(&record)?.as_slice())?;
    }
    Ok(())
}
