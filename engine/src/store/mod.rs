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
mod ops;
mod pending;
mod provenance;
mod purge;
mod recall;
mod repair;
mod scrub;
mod targeting;

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
pub use targeting::{Rejected, Target, TargetMatch};

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
        $m!(storage::KEYS);
        $m!(storage::DERIVED);
        $m!(storage::EVENTS);
        $m!(storage::CHECKPOINTS);
        $m!(storage::ROW_EVENTS);
        $m!(storage::EVENT_TIMES);
        $m!(storage::TEXT_INDEX_FILES);
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
        let inner = Inner::from_db(Db::Memory(db, image), &opts)?;
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
    /// closes.
    fn drop(&mut self) {
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
    fn open(path: &Path, opts: &StoreOptions) -> Result<Inner> {
        let db = guarded(|| {
            // An older file layout is migrated first, in one transaction: in the file by a
            // writer, in the private copy by a reader (the file is never written then).
            if opts.read_only {
                // A private copy, read without a lock: never blocks the writer, needs no write
                // permission, and a file not closed cleanly is recovered in the copy only.
                let db = storage::open_in_memory(path)?;
                storage::migrate(&db)?;
                Ok(Db::Snapshot(db))
            } else {
                let repaired = Arc::new(std::sync::atomic::AtomicBool::new(false));
                let seen = repaired.clone();
                let db = redb::Builder::new()
                    .set_repair_callback(move |_| {
                        seen.store(true, std::sync::atomic::Ordering::Relaxed);
                    })
                    .open(path)
                    .map_err(|e| map_open_error(path, e))?;
                if repaired.load(std::sync::atomic::Ordering::Relaxed) {
                    // The repair freed the pages of a torn commit without zeroing them: the
                    // next scrub must compact the file (see meta::FREE_PAGES_ZEROED).
                    storage::clear_free_pages_zeroed(&db)?;
                }
                storage::migrate(&db)?;
                Ok(Db::Writable(db))
            }
        })?;
        Inner::from_db(db, opts)
    }

    /// Loads the open state from an already opened database.
    pub(crate) fn from_db(db: Db, opts: &StoreOptions) -> Result<Inner> {
        let db = Arc::new(db);
        guarded(|| Inner::load(db, opts))
    }

    fn load(db: Arc<Db>, opts: &StoreOptions) -> Result<Inner> {
        let tx = db.begin_read()?;
        let m = storage::open_read(&tx, META)?
            .ok_or_else(|| Error::Corrupt("not an oubli store (no meta table)".into()))?;
        let get = |k: &str| -> Result<Vec<u8>> {
            m.get(k)?
                .map(|v| v.value().to_vec())
                .ok_or_else(|| Error::Corrupt(format!("meta {k} missing")))
        };
        let format = u32::from_le_bytes(
            get(meta::FORMAT)?
                .try_into()
                .map_err(|_| Error::Corrupt("meta format".into()))?,
        );
        if format != storage::FORMAT_VERSION {
            return Err(Error::UnsupportedVersion {
                found: format,
                supported: storage::FORMAT_VERSION,
            });
        }
        let stored = String::from_utf8(get(meta::EMBEDDER)?)
            .map_err(|_| Error::Corrupt("meta embedder".into()))?;
        if stored != opts.embedder.id() {
            return Err(Error::EmbedderMismatch {
                stored,
                given: opts.embedder.id(),
            });
        }
        let stored_canonicalizer = m
            .get(meta::CANONICALIZER)?
            .map(|v| String::from_utf8_lossy(v.value()).into_owned())
            .unwrap_or_default();
        let dim = u32::from_le_bytes(
            get(meta::DIM)?
                .try_into()
                .map_err(|_| Error::Corrupt("meta dim".into()))?,
        ) as usize;
        let public_key: [u8; 32] = get(meta::PUBLIC_KEY)?
            .try_into()
            .map_err(|_| Error::Corrupt("meta public key".into()))?;
        let stored_secret = m.get(meta::SECRET_KEY)?.map(|v| v.value().to_vec());
        let signing = match (opts.signing_key, stored_secret) {
            (Some(s), _) => Some(SigningKey::from_bytes(&s)),
            (None, Some(s)) => Some(SigningKey::from_bytes(
                &s.try_into()
                    .map_err(|_| Error::Corrupt("meta secret key".into()))?,
            )),
            (None, None) if db.is_writable() => {
                return Err(Error::InvalidArgument(
                    "this store signs with an external key: pass it with StoreOptions::signing_key"
                        .into(),
                ));
            }
            (None, None) => None,
        };
        if let Some(k) = &signing
            && k.verifying_key().to_bytes() != public_key
        {
            return Err(Error::KeyMismatch);
        }
        let head = get(meta::HEAD)?;
        if head.len() != 40 {
            return Err(Error::Corrupt("meta head".into()));
        }
        let head_seq = u64::from_le_bytes(head[..8].try_into().expect("8 bytes"));
        let head_hash: Hash32 = head[8..].try_into().expect("32 bytes");
        let next_row = storage::meta_u64(&m, meta::NEXT_ROW)?
            .ok_or_else(|| Error::Corrupt("meta next_row missing".into()))?;
        let vec_t = storage::open_read(&tx, storage::VECTORS)?
            .ok_or_else(|| Error::Corrupt("vectors table missing".into()))?;
        let snap_t = storage::open_read(&tx, storage::VECTOR_SNAPSHOT)?;
        // The snapshot is derived: if it cannot be restored, scan every vector exactly instead
        // (and a writable handle rebuilds it below).
        let (mut vectors, snapshot_damaged) =
            match guarded(|| VectorIndex::load(dim, &m, snap_t.as_ref(), &vec_t)) {
                Ok(v) => (v, false),
                Err(_) => (
                    VectorIndex::load(
                        dim,
                        &m,
                        None::<&redb::ReadOnlyTable<u64, &'static [u8]>>,
                        &vec_t,
                    )?,
                    snap_t.is_some(),
                ),
            };
        drop((m, vec_t, snap_t, tx));
        vectors.set_build_threads(opts.vector_build_threads);

        let entropy_seed = match opts.seed {
            // Fold the head into a fixed seed so a reopened store never repeats a salt.
            Some(seed) => {
                let mut h = blake3::Hasher::new_keyed(&seed);
                h.update(&head_seq.to_le_bytes());
                *h.finalize().as_bytes()
            }
            None => entropy::os_random()?,
        };
        let mut rebuilt_on_open = repair::Rebuilt {
            snapshot: snapshot_damaged,
            ..Default::default()
        };
        let mut inner = Inner {
            text: open_text(&db, head_seq, &mut rebuilt_on_open)?,
            durable: opts.durable,
            text_behind: false,
            db,
            vectors,
            signing,
            public_key,
            entropy: Entropy::from_seed(entropy_seed),
            head_seq,
            head_hash,
            next_row,
            dim,
            rebuilt_on_open,
            replica: opts.replica,
            feed: Default::default(),
            depths_cache: Default::default(),
        };
        if inner.text.indexed_seq() < inner.head_seq
            && let Err(e) = inner.catch_up_text()
        {
            // The index is derived: a writer that cannot catch it up (for example, files left
            // by a crash mid-commit) rebuilds it from the rows.
            if !inner.db.is_writable() {
                return Err(e);
            }
            inner
                .rebuilt_on_open
                .text
                .push(format!("could not be caught up: {e}"));
            inner.text = rebuilt_text(&inner.db, inner.head_seq)?;
            inner.text_behind = false;
        }
        if snapshot_damaged && inner.db.is_writable() {
            inner.write(opts.clock.now(), opts.ann_threshold, |b| {
                let tx = b.tx;
                if b.inner.vectors.len() > b.ann_threshold() {
                    b.inner.vectors.rebuild_snapshot(tx)
                } else {
                    b.inner.vectors.drop_snapshot(tx)
                }
            })?;
        }
        if inner.db.is_writable()
            && !inner.replica
            && stored_canonicalizer != crate::canon::CANONICALIZER_VERSION
        {
            inner.record_canonicalizer(opts)?;
        }
        Ok(inner)
    }

    /// Records that the store now targets with this engine's canonicalizer: the version in the
    /// meta table, and a `config` event committing to it, so the log shows from which point on
    /// match keys and targeting follow the new rules. (The text index was rebuilt with the new
    /// match keys when it was opened.)
    fn record_canonicalizer(&mut self, opts: &StoreOptions) -> Result<()> {
        let version = crate::canon::CANONICALIZER_VERSION;
        self.write(opts.clock.now(), opts.ann_threshold, |b| {
            b.tx.open_table(META)?
                .insert(meta::CANONICALIZER, version.as_bytes())?;
            let c = *blake3::hash(format!("oubli-canonicalizer:{version}").as_bytes()).as_bytes();
            b.event(crate::log::EventKind::Config, "", vec![], vec![c])?;
            Ok(())
        })
    }

    /// Brings the text index up to the log head: re-indexes every row touched since the index's
    /// last commit (the file's index lags the log by the last write while its files are staged,
    /// and a crash can leave it further behind). A read-only handle does the same in memory: its
    /// index files are staged and never written.
    pub(crate) fn catch_up_text(&mut self) -> Result<()> {
        let tx = self.db.begin_read()?;
        let events = storage::open_read(&tx, storage::EVENTS)?
            .ok_or_else(|| Error::Corrupt("events table missing".into()))?;
        let payloads = storage::open_read(&tx, PAYLOADS)?
            .ok_or_else(|| Error::Corrupt("payloads table missing".into()))?;
        let mut touched = std::collections::BTreeSet::new();
        for e in events.range(self.text.indexed_seq() + 1..)? {
            let (_, v) = e?;
            let ev = crate::log::Event::decode(v.value())?;
            touched.extend(ev.transitions.iter().map(|t| t.row));
        }
        for id in touched {
            self.text.remove(id)?;
            if let Some(p) = payloads.get(id)? {
                let p = storage::Payload::decode(p.value())?;
                self.text.add(id, &p.text)?;
            }
        }
        self.text.commit(self.head_seq)?;
        self.text_behind = false;
        Ok(())
    }

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

/// Opens the text index. A damaged one (unreadable, or a file failing its checksum) is derived
/// data: it is rebuilt from the rows, in the file by a writable handle, in memory by a read-only
/// one.
fn open_text(db: &Arc<Db>, head_seq: u64, rebuilt: &mut repair::Rebuilt) -> Result<TextIndex> {
    let opened = guarded(|| {
        let t = TextIndex::open(db.clone(), db.is_writable())?;
        let damaged = t.damaged_files()?;
        if damaged.is_empty() {
            Ok(t)
        } else {
            Err(Error::TextIndex(format!("damaged files {damaged:?}")))
        }
    });
    match opened {
        Ok(t) => return Ok(t),
        Err(e) => rebuilt.text.push(e.to_string()),
    }
    rebuilt_text(db, head_seq)
}

/// The text index rebuilt from the rows, at `head_seq`: in the file (every old index file
/// deleted first) by a writable handle, in memory by a read-only one.
fn rebuilt_text(db: &Arc<Db>, head_seq: u64) -> Result<TextIndex> {
    let tx = db.begin_read()?;
    let mut rows = Vec::new();
    if let Some(t) = storage::open_read(&tx, PAYLOADS)? {
        for e in t.iter()? {
            let (k, v) = e?;
            let p = storage::Payload::decode(v.value())?;
            rows.push((k.value(), p.text));
        }
    }
    drop(tx);
    let rows = rows.iter().map(|(i, t)| (*i, t.as_str()));
    if db.is_writable() {
        TextIndex::reset(db.clone())?;
        let mut t = TextIndex::open(db.clone(), true)?;
        t.rebuild(rows, head_seq)?;
        Ok(t)
    } else {
        TextIndex::in_memory(rows, head_seq)
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
