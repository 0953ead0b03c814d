//! The store: one redb file holding rows, payloads, vectors, keys, the event log, checkpoints and
//! the derived indexes.
//!
//! Concurrency: many readers, one writer. Reads take a shared lock on the in-memory state; every
//! mutating call takes it exclusively for the duration of one redb write transaction plus the
//! index updates that follow its commit. Another process that opens the file for writing gets
//! [`Error::Locked`]; read-only handles, in any process, read a private in-memory copy without a
//! lock (see `docs/durability.md`).

mod alias;
mod audit;
mod batch;
mod compact;
mod decay;
mod diagnostics;
mod forget_user;
mod fusion;
mod group;
mod history;
mod integrity;
mod open;
mod ops;
#[cfg(test)]
mod pause_point;
mod pending;
mod provenance;
mod purge;
mod recall;
mod repair;
mod scrub;
mod targeting;
mod vector_graph;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use ed25519_dalek::SigningKey;
use parking_lot::RwLock;
use redb::{ReadableTable, TableDefinition, TableHandle};

pub use alias::{AliasGroup, AliasKind};
pub use audit::{
    AuditRequest, CONTROL_MAX_ROWS, Finding, HitClass, ResidualAudit, classify, probes,
};
pub use compact::{
    Certificate, Check, CheckStatus, CompactOptions, CompactScope, DEFAULT_QUERY_K,
    INCOMPLETE_MARK, LineKind, MAX_LISTED_DROPPED, NOTE_HEADER, Note, NoteLine, NoteReplay,
};
pub use decay::{DecayPolicy, SweepReport};
pub use diagnostics::{SpaceReport, TableSpace, VectorProbe};
pub use group::GroupCommitStats;
pub use history::{AsOf, History, LogReport};
pub use ops::{Operation, Plan, Superseded};
pub use provenance::{DerivedCheck, DerivedRow};
pub use purge::{CANONICALIZER_VERSION, PurgeReport};
pub use recall::{
    DEFAULT_MIN_SCORE, Explain, Hit, LEXICAL_WEIGHT, Legs, ListQuery, RecallQuery,
    SUGGESTED_MIN_SCORE,
};
pub use repair::RepairReport;
pub(crate) use targeting::Policy;
pub use targeting::{Confidence, Rejected, Target, TargetMatch};
pub use vector_graph::VectorGraphStatus;

use crate::embed::Embedder;
use crate::entropy::{self, Entropy};
use crate::error::{Error, Result};
use crate::index::text::TextIndex;
use crate::index::vector::VectorIndex;
use crate::log::{Hash32, genesis_hash};
use crate::options::StoreOptions;
use crate::row::{Row, RowId};
use crate::storage::{self, Db, META, PAYLOADS, ROWS, meta};

/// An oubli store: one file, opened in-process.
///
/// `Store` is `Send + Sync`; share it between threads behind an `Arc`.
pub struct Store {
    path: PathBuf,
    opts: StoreOptions,
    pub(crate) inner: RwLock<Option<Inner>>,
    /// Concurrent inscriptions waiting to share one durable commit (see `group`).
    group: group::GroupCommit,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("path", &self.path)
            .field("opts", &self.opts)
            .finish_non_exhaustive()
    }
}

/// The open state of a store.
pub(crate) struct Inner {
    pub(crate) db: Arc<Db>,
    pub(crate) text: TextIndex,
    pub(crate) text_behind: bool,
    pub(crate) vectors: VectorIndex,
    pub(crate) signing: Option<SigningKey>,
    pub(crate) public_key: [u8; 32],
    pub(crate) entropy: Entropy,
    pub(crate) head_seq: u64,
    pub(crate) head_hash: Hash32,
    pub(crate) next_row: RowId,
    pub(crate) dim: usize,
    pub(crate) durable: bool,
    /// Derived indexes this open found damaged and rebuilt (see [`Store::repair`]).
    pub(crate) rebuilt_on_open: repair::Rebuilt,
    /// A replica: appends events only by applying its leader's frames
    /// ([`crate::StoreOptions::replica`]).
    pub(crate) replica: bool,
    /// The change feed, when one runs (see `crate::replication::feed`).
    pub(crate) feed: crate::replication::feed::Slot,
    /// The last depths a time-travel read folded from the log (see `Inner::depths_at`).
    pub(crate) depths_cache: history::DepthsCache,
}

/// Every table, so that creation makes them all and the scrub copy misses none.
macro_rules! for_each_table {
    ($m:ident) => {
        $m!(storage::META);
        $m!(storage::ROWS);
        $m!(storage::PAYLOADS);
        $m!(storage::VECTORS);
        for def in storage::KEY_TABLES {
            $m!(def);
        }
        $m!(storage::DERIVED);
        $m!(storage::EVENTS);
        $m!(storage::CHECKPOINTS);
        $m!(storage::ROW_EVENTS);
        $m!(storage::EVENT_TIMES);
        $m!(storage::TEXT_INDEX_FILES);
        $m!(storage::MATCH_KEYS);
        $m!(storage::VECTOR_SNAPSHOT);
        $m!(storage::POLICIES);
        $m!(storage::RECEIPTS);
        $m!(storage::PROVENANCE);
        $m!(storage::STALE);
        $m!(storage::NOTES);
        $m!(storage::ALIASES);
        $m!(storage::PENDING_OPENINGS);
        $m!(storage::INCOMPLETE_PURGES);
    };
}

fn map_open_error(path: &Path, e: redb::DatabaseError) -> Error {
    match e {
        redb::DatabaseError::DatabaseAlreadyOpen | redb::DatabaseError::LockProtocolMismatch => {
            Error::Locked(path.to_path_buf())
        }
        redb::DatabaseError::UpgradeRequired(v) => Error::UnsupportedVersion {
            found: v as u32,
            supported: storage::FORMAT_VERSION,
        },
        redb::DatabaseError::Storage(redb::StorageError::Io(io)) => Error::Io(io),
        other => Error::Corrupt(other.to_string()),
    }
}

/// Creates every table and writes the meta records of a new store (its key, embedder, format
/// and genesis head) in one transaction.
fn init_tables(db: &redb::Database, opts: &StoreOptions) -> Result<()> {
    let (secret, keep_secret) = match opts.signing_key {
        Some(s) => (s, false),
        None => (entropy::os_random()?, true),
    };
    let signing = SigningKey::from_bytes(&secret);
    let public_key = signing.verifying_key().to_bytes();
    let embedder = opts.embedder.clone();
    let tx = db.begin_write()?;
    macro_rules! create_table {
        ($t:expr) => {
            tx.open_table($t)?;
        };
    }
    for_each_table!(create_table);
    {
        let mut m = tx.open_table(META)?;
        m.insert(
            meta::FORMAT,
            storage::FORMAT_VERSION.to_le_bytes().as_slice(),
        )?;
        m.insert(meta::EMBEDDER, embedder.id().as_bytes())?;
        m.insert(meta::DIM, (embedder.dim() as u32).to_le_bytes().as_slice())?;
        m.insert(meta::PUBLIC_KEY, public_key.as_slice())?;
        if keep_secret {
            m.insert(meta::SECRET_KEY, secret.as_slice())?;
        }
        m.insert(meta::NEXT_ROW, 1u64.to_le_bytes().as_slice())?;
        m.insert(
            meta::CANONICALIZER,
            crate::canon::CANONICALIZER_VERSION.as_bytes(),
        )?;
        let mut head = 0u64.to_le_bytes().to_vec();
        head.extend_from_slice(&genesis_hash(&public_key));
        m.insert(meta::HEAD, head.as_slice())?;
        // A fresh file: nothing was ever freed in it without being zeroed.
        m.insert(meta::FREE_PAGES_ZEROED, [].as_slice())?;
    }
    tx.commit()?;
    Ok(())
}

/// Runs redb's open, turning a panic on a mangled file into [`Error::Corrupt`].
fn guarded<T>(f: impl FnOnce() -> Result<T>) -> Result<T> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(_) => Err(Error::Corrupt(
            "the storage engine rejected the file".into(),
        )),
    }
}

impl Store {
    /// Creates a new store at `path` with default options. Fails if a file is already there.
    #[tracing::instrument(name = "oubli::Store::create", level = "debug", skip_all)]
    pub fn create(path: impl AsRef<Path>) -> Result<Store> {
        Store::create_with(path, StoreOptions::default())
    }

    /// Opens the store at `path` with default options.
    #[tracing::instrument(name = "oubli::Store::open", level = "debug", skip_all)]
    pub fn open(path: impl AsRef<Path>) -> Result<Store> {
        Store::open_with(path, StoreOptions::default())
    }

    /// Opens the store at `path`, creating it first if there is none.
    #[tracing::instrument(name = "oubli::Store::open_or_create", level = "debug", skip_all)]
    pub fn open_or_create(path: impl AsRef<Path>, opts: StoreOptions) -> Result<Store> {
        if path.as_ref().exists() {
            Store::open_with(path, opts)
        } else {
            Store::create_with(path, opts)
        }
    }

    /// Creates a new store at `path`.
    #[tracing::instrument(name = "oubli::Store::create_with", level = "debug", skip_all)]
    pub fn create_with(path: impl AsRef<Path>, opts: StoreOptions) -> Result<Store> {
        let path = path.as_ref().to_path_buf();
        if opts.read_only {
            return Err(Error::InvalidArgument(
                "cannot create a store read-only".into(),
            ));
        }
        if path.exists() {
            return Err(Error::AlreadyExists(path));
        }
        let db = guarded(|| {
            redb::Builder::new()
                .create(&path)
                .map_err(|e| map_open_error(&path, e))
        })?;
        if let Err(e) = init_tables(&db, &opts) {
            drop(db);
            let _ = std::fs::remove_file(&path);
            return Err(e);
        }
        drop(db);
        Store::open_with(&path, opts)
    }

    /// Creates a store that never touches disk: its redb database lives in memory, with the
    /// same semantics as a file store (log, checkpoints, receipts, purge, scrub, recall), except
    /// that nothing survives the handle. Meant for tests, conformance runs and scratch memories.
    ///
    /// `path()` is empty. Scrub erases in the image as in a file (freed pages are overwritten
    /// with zeros), and [`Store::scrub_compact`] copies every table into a fresh image, swaps it
    /// in and overwrites the old image with zeros, so no erased byte survives in the image; read
    /// it with [`Store::memory_image`] for the raw byte scan. `durable` and `read_only` do not apply
    /// (`read_only` is rejected).
    #[tracing::instrument(name = "oubli::Store::in_memory", level = "debug", skip_all)]
    pub fn in_memory(opts: StoreOptions) -> Result<Store> {
        if opts.read_only {
            return Err(Error::InvalidArgument(
                "an in-memory store cannot be read-only".into(),
            ));
        }
        let image = storage::MemoryImage::new();
        let db = guarded(|| {
            redb::Builder::new()
                .create_with_backend(image.backend())
                .map_err(|e| Error::Storage(e.to_string()))
        })?;
        init_tables(&db, &opts)?;
        let inner = Inner::from_db(Db::memory(db, image), &opts)?;
        Ok(Store {
            path: PathBuf::new(),
            opts,
            inner: RwLock::new(Some(inner)),
            group: Default::default(),
        })
    }

    /// A copy of every byte of an in-memory store's image ([`Store::in_memory`]); `None` for a
    /// store in a file (read the file instead). This is what a raw byte scan of an in-memory
    /// store reads.
    pub fn memory_image(&self) -> Result<Option<Vec<u8>>> {
        self.read(|i| i.db.memory_image().map(|m| m.bytes()).transpose())
    }

    /// True for a store made with [`Store::in_memory`].
    pub fn is_in_memory(&self) -> bool {
        self.inner
            .read()
            .as_ref()
            .is_some_and(|i| i.db.memory_image().is_some())
    }

    /// Opens an existing store at `path`.
    #[tracing::instrument(name = "oubli::Store::open_with", level = "debug", skip_all)]
    pub fn open_with(path: impl AsRef<Path>, mut opts: StoreOptions) -> Result<Store> {
        let path = path.as_ref().to_path_buf();
        if !path.exists() {
            return Err(Error::NotFound(path));
        }
        let inner = match Inner::open(&path, &opts) {
            // No embedder chosen: a store made with a built-in one keeps it.
            Err(Error::EmbedderMismatch { stored, given }) if !opts.embedder_chosen => {
                match crate::embed::builtin_for_id(&stored) {
                    Some(e) => {
                        opts.embedder = e;
                        Inner::open(&path, &opts)?
                    }
                    None => return Err(Error::EmbedderMismatch { stored, given }),
                }
            }
            other => other?,
        };
        let writable = inner.db.is_writable();
        if writable {
            // Only the writer ever makes a scrub copy, and this handle now holds the writer's
            // lock: a copy left beside the file is a crashed scrub's, never a running one's.
            scrub::remove_stale_temp(&path);
        }
        let store = Store {
            path,
            opts,
            inner: RwLock::new(Some(inner)),
            group: Default::default(),
        };
        // A replica completes no purge of its own: its leader's completion arrives as a frame.
        if writable && !store.opts.replica {
            store.complete_purges()?;
        }
        Ok(store)
    }

    /// The file this store lives in (empty for an in-memory store).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The store's ed25519 public key: give it to whoever verifies logs and receipts.
    pub fn public_key(&self) -> Result<[u8; 32]> {
        self.read(|i| Ok(i.public_key))
    }

    /// The embedder in use.
    pub fn embedder(&self) -> Arc<dyn Embedder> {
        self.opts.embedder.clone()
    }

    /// Closes the store. Later calls return [`Error::Closed`]; dropping the store closes it too.
    #[tracing::instrument(name = "oubli::Store::close", level = "debug", skip_all)]
    pub fn close(&self) -> Result<()> {
        let inner = self.inner.write().take();
        drop(inner);
        Ok(())
    }

    /// Runs `f` on the open state under the shared lock.
    pub(crate) fn read<R>(&self, f: impl FnOnce(&Inner) -> Result<R>) -> Result<R> {
        let guard = self.inner.read();
        let inner = guard.as_ref().ok_or(Error::Closed)?;
        // A mangled page can make the storage engine panic while decoding (a key that is not
        // UTF-8): that is a corrupt file, reported as such, never a panic across the API.
        guarded(|| f(inner))
    }

    pub(crate) fn now(&self) -> crate::row::Millis {
        self.opts.clock.now()
    }

    /// The options this store was opened with.
    pub(crate) fn options(&self) -> &StoreOptions {
        &self.opts
    }
}

impl Drop for Inner {
    /// Commits the text index's in-memory tail, writes the text index files still staged, and
    /// makes the last commits of a store opened with `durable(false)` durable, when the store
    /// closes. An in-memory store does none of it: its image goes with it, and the wipe of a
    /// replaced image (scrub) needs nothing written first.
    fn drop(&mut self) {
        if self.db.memory_image().is_some() {
            return;
        }
        if self.db.is_writable() && self.text.tail_len() > 0 {
            // Best effort: a tail that cannot be committed is re-indexed from the log on open.
            let _ = self.text.commit(self.head_seq);
        }
        // A vector snapshot still building is installed (best effort: the vectors it holds are
        // scanned exactly on open otherwise).
        if self.db.is_writable()
            && self.vectors.is_building()
            && let Ok(tx) = self.db.begin_write()
        {
            match self.vectors.take_due_build(&tx, 0, &[], true) {
                Ok(Some(_)) => {
                    let _ = tx.commit();
                }
                _ => drop(tx),
            }
        }
        if (!self.durable || self.text.has_staged())
            && let Ok(tx) = self.db.begin_write()
        {
            match self.text.stage_into(&tx) {
                Ok(staged) => {
                    if tx.commit().is_ok() {
                        self.text.committed(staged);
                    }
                }
                Err(_) => drop(tx),
            }
        }
    }
}

impl Inner {
    /// Writes the text index files staged since the last write transaction in a transaction of
    /// their own (before the file is copied, so the copy holds the index as it is in memory).
    pub(crate) fn flush_text_files(&mut self) -> Result<()> {
        if !self.text.has_staged() {
            return Ok(());
        }
        let mut tx = self.db.begin_write()?;
        if !self.durable {
            tx.set_durability(redb::Durability::None)?;
        }
        let staged = self.text.stage_into(&tx)?;
        tx.commit()?;
        self.text.committed(staged);
        Ok(())
    }

    /// Reads a row (with its text when it has one).
    pub(crate) fn read_row(tx: &redb::ReadTransaction, id: RowId) -> Result<Option<Row>> {
        let rows = storage::open_read(tx, ROWS)?;
        let Some(rows) = rows else { return Ok(None) };
        let Some(v) = rows.get(id)? else {
            return Ok(None);
        };
        let mut row: Row = storage::decode(v.value())?;
        if let Some(payloads) = storage::open_read(tx, PAYLOADS)?
            && let Some(p) = payloads.get(id)?
        {
            let p = storage::Payload::decode(p.value())?;
            row.text = Some(p.text);
        }
        Ok(Some(row))
    }
}

/// Copies every table of `src` into `dst` (used by the compacting scrub's file rewrite).
pub(crate) fn copy_tables(src: &redb::ReadTransaction, dst: &redb::WriteTransaction) -> Result<()> {
    copy_tables_but(src, dst, &[])
}

/// Copies every table of `src` into `dst`, leaving the tables named in `empty` empty (they are
/// created, not copied: a replication snapshot leaves out the derived indexes).
pub(crate) fn copy_tables_but(
    src: &redb::ReadTransaction,
    dst: &redb::WriteTransaction,
    empty: &[&str],
) -> Result<()> {
    fn copy<K: redb::Key + 'static, V: redb::Value + 'static>(
        src: &redb::ReadTransaction,
        dst: &redb::WriteTransaction,
        def: TableDefinition<K, V>,
        empty: &[&str],
    ) -> Result<()>
    where
        for<'a> K::SelfType<'a>: std::borrow::Borrow<K::SelfType<'a>>,
        for<'a> V::SelfType<'a>: std::borrow::Borrow<V::SelfType<'a>>,
    {
        let mut out = dst.open_table(def)?;
        if empty.contains(&def.name()) {
            return Ok(());
        }
        if let Some(t) = storage::open_read(src, def)? {
            for e in t.iter()? {
                let (k, v) = e?;
                out.insert(k.value(), v.value())?;
            }
        }
        Ok(())
    }
    macro_rules! copy_table {
        ($t:expr) => {
            copy(src, dst, $t, empty)?;
        };
    }
    for_each_table!(copy_table);
    Ok(())
}
