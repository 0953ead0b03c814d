//! Snapshots of a store at a known seq, and the digest of the state replicas share.

use std::collections::BTreeMap;
use std::path::Path;

use redb::{ReadableTable, TableDefinition, TableHandle};

use crate::error::{Error, Result};
use crate::log::Hash32;
use crate::storage::{self, meta};
use crate::store::Store;

/// `meta` keys that describe one copy of a store rather than the state replicas share: its
/// secret key, its vector snapshot and the bookkeeping of its scrubs. A snapshot leaves them
/// out, and [`Store::state_digests`] ignores them.
pub const LOCAL_META: [&str; 7] = [
    meta::SECRET_KEY,
    meta::SNAPSHOT_MAX_ROW,
    meta::SNAPSHOT_LEN,
    meta::SNAPSHOT_SEGMENTS,
    meta::SNAPSHOT_DIRTY,
    meta::FREE_PAGES_ZEROED,
    meta::KEYS_REBUILD_DUE,
];

/// Tables a snapshot leaves empty: the derived indexes (rebuilt from the rows when the
/// snapshot is opened) and the sealed openings of purges (local to the leader, and about
/// erased content).
pub(crate) fn not_in_snapshot() -> [&'static str; 4] {
    [
        storage::TEXT_INDEX_FILES.name(),
        storage::MATCH_KEYS.name(),
        storage::VECTOR_SNAPSHOT.name(),
        storage::PENDING_OPENINGS.name(),
    ]
}

impl Store {
    /// Writes a consistent snapshot of this store to a new file at `path` and returns the seq
    /// it stands at (the head of the read transaction it was copied from; later commits are not
    /// in it).
    ///
    /// The snapshot is a store file: every table is copied into a fresh redb file record by
    /// record, so no freed page and no B-tree separator of an earlier version reaches it, and it
    /// leaves out the text index files, the match keys, the vector snapshot and the sealed
    /// openings of purges (so no erased byte that the leader's next scrub would remove is in it
    /// either), and the `meta` keys of [`LOCAL_META`], the secret key among them: a snapshot
    /// opens writable only with the signing key given ([`crate::StoreOptions::signing_key`]).
    /// Opening it rebuilds the text index and the match keys from the rows. Restoring a replica is opening the snapshot (with
    /// [`crate::StoreOptions::replica`]) and applying the frames after the returned seq.
    pub fn snapshot_to(&self, path: impl AsRef<Path>) -> Result<u64> {
        let path = path.as_ref();
        if path.exists() {
            return Err(Error::AlreadyExists(path.to_path_buf()));
        }
        self.read(|inner| {
            let src = inner.db.begin_read()?;
            let head = {
                let m = storage::open_read(&src, storage::META)?
                    .ok_or_else(|| Error::Corrupt("meta table missing".into()))?;
                let h = m
                    .get(meta::HEAD)?
                    .ok_or_else(|| Error::Corrupt("meta head missing".into()))?;
                let b: [u8; 8] = h.value()[..8]
                    .try_into()
                    .map_err(|_| Error::Corrupt("meta head".into()))?;
                u64::from_le_bytes(b)
            };
            let written = (|| -> Result<()> {
                let fresh = redb::Builder::new()
                    .create(path)
                    .map_err(|e| Error::Storage(e.to_string()))?;
                let dst = fresh.begin_write()?;
                crate::store::copy_tables_but(&src, &dst, &not_in_snapshot())?;
                {
                    let mut m = dst.open_table(storage::META)?;
                    for k in LOCAL_META {
                        m.remove(k)?;
                    }
                    // A fresh file: nothing was ever freed in it without being zeroed.
                    m.insert(meta::FREE_PAGES_ZEROED, [].as_slice())?;
                }
                dst.commit()?;
                Ok(())
            })();
            if let Err(e) = written {
                let _ = std::fs::remove_file(path);
                return Err(e);
            }
            Ok(head)
        })
    }

    /// A digest of every table replicas share, by table name: the event log and checkpoints,
    /// rows, payloads, vectors, keys, provenance edges and records, history indexes, policies,
    /// receipts, alias groups, incomplete purges, and `meta` without [`LOCAL_META`]. A replica
    /// that applied every frame of its leader has the leader's digests, table by table.
    pub fn state_digests(&self) -> Result<BTreeMap<String, Hash32>> {
        self.read(|inner| {
            let tx = inner.db.begin_read()?;
            let mut out = BTreeMap::new();
            fn digest<K: redb::Key + 'static, V: redb::Value + 'static>(
                tx: &redb::ReadTransaction,
                def: TableDefinition<K, V>,
                skip: &dyn Fn(&[u8]) -> bool,
                out: &mut BTreeMap<String, Hash32>,
            ) -> Result<()> {
                let mut h = blake3::Hasher::new_derive_key("oubli 2026-11-26 replicated state v1");
                if let Some(t) = storage::open_read(tx, def)? {
                    for e in t.iter()? {
                        let (k, v) = e?;
                        let kv = k.value();
                        let kb = K::as_bytes(&kv);
                        let kb: &[u8] = kb.as_ref();
                        if skip(kb) {
                            continue;
                        }
                        let vv = v.value();
                        let vb = V::as_bytes(&vv);
                        let vb: &[u8] = vb.as_ref();
                        h.update(&(kb.len() as u64).to_le_bytes());
                        h.update(kb);
                        h.update(&(vb.len() as u64).to_le_bytes());
                        h.update(vb);
                    }
                }
                out.insert(def.name().to_owned(), *h.finalize().as_bytes());
                Ok(())
            }
            let none = |_: &[u8]| false;
            let local = |k: &[u8]| LOCAL_META.iter().any(|l| l.as_bytes() == k);
            digest(&tx, storage::META, &local, &mut out)?;
            digest(&tx, storage::ROWS, &none, &mut out)?;
            digest(&tx, storage::PAYLOADS, &none, &mut out)?;
            digest(&tx, storage::VECTORS, &none, &mut out)?;
            for def in storage::KEY_TABLES {
                digest(&tx, def, &none, &mut out)?;
            }
            digest(&tx, storage::DERIVED, &none, &mut out)?;
            digest(&tx, storage::EVENTS, &none, &mut out)?;
            digest(&tx, storage::CHECKPOINTS, &none, &mut out)?;
            digest(&tx, storage::ROW_EVENTS, &none, &mut out)?;
            digest(&tx, storage::EVENT_TIMES, &none, &mut out)?;
            digest(&tx, storage::POLICIES, &none, &mut out)?;
            digest(&tx, storage::RECEIPTS, &none, &mut out)?;
            digest(&tx, storage::PROVENANCE, &none, &mut out)?;
            digest(&tx, storage::STALE, &none, &mut out)?;
            digest(&tx, storage::NOTES, &none, &mut out)?;
            digest(&tx, storage::ALIASES, &none, &mut out)?;
            digest(&tx, storage::INCOMPLETE_PURGES, &none, &mut out)?;
            Ok(out)
        })
    }
}
