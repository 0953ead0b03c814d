//! Opening a store: the file (a writer's, or a reader's private copy), its migration, the
//! open state loaded from the meta table, and the text index brought up to the log head (or
//! rebuilt when damaged).

use std::path::Path;
use std::sync::Arc;

use ed25519_dalek::SigningKey;
use redb::ReadableTable;

use super::{Inner, guarded, map_open_error, repair};
use crate::entropy::{self, Entropy};
use crate::error::{Error, Result};
use crate::index::text::TextIndex;
use crate::index::vector::VectorIndex;
use crate::log::Hash32;
use crate::options::StoreOptions;
use crate::storage::{self, Db, META, PAYLOADS, meta};

impl Inner {
    pub(super) fn open(path: &Path, opts: &StoreOptions) -> Result<Inner> {
        let db = guarded(|| {
            // An older file layout is migrated first, in one transaction: in the file by a
            // writer, in the private copy by a reader (the file is never written then).
            if opts.read_only {
                // A private copy, read without a lock: never blocks the writer, needs no write
                // permission, and a file not closed cleanly is recovered in the copy only.
                let db = storage::open_in_memory(path)?;
                storage::migrate(&db)?;
                Ok(Db::snapshot(db))
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
                Ok(Db::writable(db))
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
        // The text index opens on a second thread while the vectors load: the two read
        // different tables and are the bulk of an open.
        let (vectors, text) = std::thread::scope(|scope| {
            let text = scope.spawn(|| {
                let mut rebuilt = repair::Rebuilt::default();
                let text = open_text(&db, head_seq, opts.text_segment_docs, &mut rebuilt)
                    .map(|t| (t, rebuilt.text));
                // Then the embedder's tables, which the first query would build.
                opts.embedder.warm_up();
                text
            });
            // The snapshot is derived: if it cannot be restored, scan every vector exactly
            // instead (and a writable handle rebuilds it below).
            let vectors = match guarded(|| VectorIndex::load(dim, &m, snap_t.as_ref(), &vec_t)) {
                Ok(v) => Ok((v, false)),
                Err(_) => VectorIndex::load(
                    dim,
                    &m,
                    None::<&redb::ReadOnlyTable<u64, &'static [u8]>>,
                    &vec_t,
                )
                .map(|v| (v, snap_t.is_some())),
            };
            let text = text
                .join()
                .map_err(|_| Error::TextIndex("opening the text index panicked".into()));
            (vectors, text)
        });
        let (mut vectors, snapshot_damaged) = vectors?;
        let (text, text_rebuilt) = text??;
        let rebuilt_on_open = repair::Rebuilt {
            text: text_rebuilt,
            snapshot: snapshot_damaged,
        };
        drop((m, vec_t, snap_t, tx));
        vectors.set_build_threads(opts.vector_build_threads);
        vectors.set_ann_threshold(opts.ann_threshold);
        vectors.set_deferred(opts.defer_vector_graph);

        let entropy_seed = match opts.seed {
            // Fold the head into a fixed seed so a reopened store never repeats a salt.
            Some(seed) => {
                let mut h = blake3::Hasher::new_keyed(&seed);
                h.update(&head_seq.to_le_bytes());
                *h.finalize().as_bytes()
            }
            None => entropy::os_random()?,
        };
        let mut inner = Inner {
            text,
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
            let cap = inner.text.segment_docs();
            inner.text = rebuilt_text(&inner.db, inner.head_seq, cap)?;
            inner.text_behind = false;
        }
        if snapshot_damaged && inner.db.is_writable() {
            inner.write(opts.clock.now(), opts.ann_threshold, |b| {
                let tx = b.tx;
                if b.inner().vectors.len() > b.ann_threshold() {
                    b.inner_mut()?.vectors.rebuild_snapshot(tx)
                } else {
                    b.inner_mut()?.vectors.drop_snapshot(tx)
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
}

/// Opens the text index. A damaged one (unreadable, or a file failing its checksum) is derived
/// data: it is rebuilt from the rows, in the file by a writable handle, in memory by a read-only
/// one.
fn open_text(
    db: &Arc<Db>,
    head_seq: u64,
    segment_docs: usize,
    rebuilt: &mut repair::Rebuilt,
) -> Result<TextIndex> {
    let opened = guarded(|| {
        let mut t = TextIndex::open(db.clone(), db.is_writable())?;
        t.set_segment_docs(segment_docs);
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
    rebuilt_text(db, head_seq, segment_docs)
}

/// The text index rebuilt from the rows, at `head_seq`: in the file (every old index file
/// deleted first) by a writable handle, in memory by a read-only one; its segments hold at most
/// `segment_docs` documents.
pub(super) fn rebuilt_text(db: &Arc<Db>, head_seq: u64, segment_docs: usize) -> Result<TextIndex> {
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
        t.set_segment_docs(segment_docs);
        t.rebuild(rows, head_seq)?;
        Ok(t)
    } else {
        TextIndex::in_memory(rows, head_seq)
    }
}
