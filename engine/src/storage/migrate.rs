//! Migration of older file layouts to [`super::FORMAT_VERSION`], in one transaction.
//!
//! Format 1 encoded the records of [`super::ROWS`], [`super::POLICIES`], [`super::ALIASES`],
//! [`super::PROVENANCE`] and [`super::NOTES`] with bincode 2 ([`super::format1`]); format 2
//! encodes them with postcard ([`super::encode`]). Everything else is unchanged: payloads keep
//! their explicit encoding ([`super::Payload::encode`]), and the event log, checkpoints and
//! receipts (hand-specified encodings, hashed and signed) are not touched, so every event hash
//! stays what it was.

use redb::{ReadableTable, TableDefinition};
use serde::{Serialize, de::DeserializeOwned};

use super::{FORMAT_VERSION, META, meta};
use crate::error::{Error, Result};

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
    if found != 1 {
        // The current format needs nothing; a newer or unknown one is refused by the open.
        return Ok(found);
    }
    let tx = db.begin_write()?;
    reencode_by_id::<crate::row::Row, crate::row::Row>(&tx, super::ROWS)?;
    reencode_by_id::<crate::AliasGroup, crate::AliasGroup>(&tx, super::ALIASES)?;
    reencode_by_id::<crate::Provenance, crate::Provenance>(&tx, super::PROVENANCE)?;
    reencode_by_id::<crate::Note, crate::Note>(&tx, super::NOTES)?;
    reencode_policies(&tx)?;
    tx.open_table(META)?
        .insert(meta::FORMAT, FORMAT_VERSION.to_le_bytes().as_slice())?;
    tx.commit()?;
    Ok(found)
}

/// Rewrites every record of `def` from its format-1 shape `Old` to the current `New`.
fn reencode_by_id<New, Old>(
    tx: &redb::WriteTransaction,
    def: TableDefinition<u64, &[u8]>,
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
        let record = New::from(super::format1::decode::<Old>(&v)?);
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
