//! The leader's side: a [`Replicator`] publishes a tenant's frames to its stream, takes and
//! uploads snapshots, opens a new generation at start and after every purge, and reports which
//! copies each purge's erasure reached.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use async_nats::HeaderMap;
use async_nats::jetstream::object_store::ObjectMetadata;
use async_nats::jetstream::stream::{Config as StreamSettings, StorageType};
use async_nats::jetstream::{self, Context};
use tokio::sync::{mpsc, watch};

use super::names::{
    Erased, TenantNames, current_generation, delete_generation, erase, generations,
    switch_generation,
};
use super::{CHUNK_SIZE, META_SEQ, Result, SEQ_HEADER, StreamConfig, StreamError, nats};
use crate::log::EventKind;
use crate::replication::FeedEntry;
use crate::{PurgeReport, Store, Target};

/// A snapshot uploaded by the replicator.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct SnapshotUpload {
    /// The generation it belongs to.
    pub generation: u64,
    /// The seq it stands at.
    pub seq: u64,
    /// Its size in bytes.
    pub size: u64,
}

/// What the replicator did for a frame holding a purge: which copies the erasure reached.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct ErasureReport {
    /// The seq of the frame holding the purge.
    pub purge_frame: u64,
    /// The frames the feed listed as carrying erased content ([`FeedEntry::overwrite`]) that
    /// were published in the current or the previous generation, each with the generation and
    /// stream message that held it (a frame of an earlier generation went with it: see
    /// `retired` of the purge or periodic snapshot that opened the next one).
    pub frames: Vec<ListedFrame>,
    /// The new generation: its snapshot, taken after the purge, holds none of the purged bytes.
    pub snapshot: SnapshotUpload,
    /// The generations deleted (stream and snapshot bucket, on every server): every copy of a
    /// frame or snapshot from before the purge.
    pub retired: Vec<u64>,
}

/// A frame a purge listed, and where the stream held it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ListedFrame {
    /// The frame's seq.
    pub frame: u64,
    /// The generation whose stream held it.
    pub generation: u64,
    /// The message's seq in that stream.
    pub stream_seq: u64,
    /// Whether the message was still in the current stream and securely erased before its
    /// generation was deleted (`false`: it was in an older generation, deleted with it when a
    /// later snapshot opened a new one).
    pub erased: bool,
}

/// Where the publisher stands.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Every frame up to this seq is acknowledged.
    pub acked: u64,
    /// The tenant's current generation.
    pub generation: u64,
    /// The seq of the current generation's newest snapshot.
    pub snapshot: u64,
    /// The last error the publisher met since its last success (it retries).
    pub error: Option<String>,
}

struct Shared {
    progress: watch::Sender<Progress>,
    erasures: parking_lot::Mutex<BTreeMap<u64, ErasureReport>>,
    stop: AtomicBool,
}

/// Publishes one tenant's frames to its stream (see the module docs). Create it with
/// [`Replicator::start`] on the tenant's leader; stop it with [`Replicator::stop`].
pub struct Replicator {
    store: Arc<Store>,
    names: TenantNames,
    config: StreamConfig,
    shared: Arc<Shared>,
    worker: parking_lot::Mutex<Option<tokio::task::JoinHandle<()>>>,
}

/// The publishing task's state.
struct Worker {
    js: Context,
    store: Arc<Store>,
    names: TenantNames,
    config: StreamConfig,
    shared: Arc<Shared>,
    /// The current generation, and the stream seq of the message naming it in
    /// `OUBLI_GEN_<cluster>` (the expected sequence of the next switch).
    generation: u64,
    revision: u64,
    /// The seq of the current generation's newest snapshot.
    snapshot: u64,
    /// The snapshot that opened the current generation, and the generations deleted then.
    opened: (SnapshotUpload, Vec<u64>),
    /// The stream seq of the last message in the current stream (expected-last-sequence).
    last_stream_seq: u64,
    /// Frames published in the current and the previous generation: frame seq → (generation,
    /// stream seq, still in the stream).
    published: BTreeMap<u64, (u64, u64, bool)>,
    since_snapshot: u64,
}

impl Replicator {
    /// Starts replicating `store` (the tenant's leader, writable) as `tenant`: starts the
    /// store's change feed, then opens a new generation (a snapshot of the store, uploaded to
    /// a new bucket beside a new empty stream) and deletes the previous one, whose frames no feed
    /// of this store knows; then publishes every frame committed after the snapshot, in order.
    pub async fn start(
        js: Context,
        store: Arc<Store>,
        tenant: &str,
        config: StreamConfig,
    ) -> Result<Replicator> {
        config.check()?;
        let names = TenantNames::new(&config.cluster, tenant)?;
        let gens = generations(&js, &names, config.replicas).await?;
        let (generation, revision) = current_generation(&gens, &names).await?.unwrap_or((0, 0));
        let (tx, rx) = mpsc::unbounded_channel::<FeedEntry>();
        {
            let s = store.clone();
            tokio::task::spawn_blocking(move || -> crate::Result<()> {
                s.start_feed()?;
                s.subscribe(Box::new(move |e| {
                    // The receiver is gone only once the replicator stopped.
                    let _ = tx.send(e.clone());
                }))
            })
            .await
            .map_err(|e| StreamError::Nats(e.to_string()))??;
        }
        let shared = Arc::new(Shared {
            progress: watch::channel(Progress::default()).0,
            erasures: Default::default(),
            stop: AtomicBool::new(false),
        });
        let mut worker = Worker {
            js,
            store: store.clone(),
            names: names.clone(),
            config: config.clone(),
            shared: shared.clone(),
            generation,
            revision,
            snapshot: 0,
            opened: (SnapshotUpload::default(), Vec::new()),
            last_stream_seq: 0,
            published: BTreeMap::new(),
            since_snapshot: 0,
        };
        worker.remove_stale_snapshots();
        let first = match worker.rotate().await {
            Ok(r) => r,
            Err(e) => {
                let _ = store.stop_feed();
                return Err(e);
            }
        };
        shared.progress.send_modify(|p| p.acked = first.0.seq);
        let handle = tokio::spawn(worker.run(rx));
        Ok(Replicator {
            store,
            names,
            config,
            shared,
            worker: parking_lot::Mutex::new(Some(handle)),
        })
    }

    /// The tenant's JetStream names.
    pub fn names(&self) -> &TenantNames {
        &self.names
    }

    /// The store replicated.
    pub fn store(&self) -> &Arc<Store> {
        &self.store
    }

    /// Where the publisher stands.
    pub fn progress(&self) -> Progress {
        self.shared.progress.borrow().clone()
    }

    /// Waits until every frame up to `seq` is acknowledged (see the module docs), at most the
    /// configured `ack_timeout`.
    pub async fn acknowledged(&self, seq: u64) -> Result<()> {
        let mut rx = self.shared.progress.subscribe();
        let wait = rx.wait_for(|p| p.acked >= seq);
        match tokio::time::timeout(self.config.ack_timeout, wait).await {
            Ok(Ok(_)) => Ok(()),
            Ok(Err(_)) => Err(StreamError::Stopped),
            Err(_) => Err(StreamError::NotAcknowledged {
                seq,
                reason: self.progress().error.unwrap_or_else(|| {
                    format!("not acknowledged in {:?}", self.config.ack_timeout)
                }),
            }),
        }
    }

    /// Runs a write on the store (on tokio's blocking pool) and returns its result once every
    /// frame up to the store's head after it is acknowledged.
    pub async fn write<R: Send + 'static>(
        &self,
        f: impl FnOnce(&Store) -> crate::Result<R> + Send + 'static,
    ) -> Result<R> {
        let store = self.store.clone();
        let (r, head) = tokio::task::spawn_blocking(move || -> crate::Result<(R, u64)> {
            let r = f(&store)?;
            Ok((r, store.head()?.0))
        })
        .await
        .map_err(|e| StreamError::Nats(e.to_string()))??;
        self.acknowledged(head).await?;
        Ok(r)
    }

    /// Purges `target` ([`Store::purge`]) and returns, once acknowledged (the erasure reached
    /// every copy the cluster holds), the purge's report and the erasure's.
    pub async fn purge(&self, target: Target) -> Result<(PurgeReport, ErasureReport)> {
        let report = self.write(move |s| s.purge(target)).await?;
        let erasure = self
            .erasure(report.seq)
            .ok_or_else(|| StreamError::NotAcknowledged {
                seq: report.seq,
                reason: "no erasure report for the purge".into(),
            })?;
        Ok((report, erasure))
    }

    /// The erasure report of the frame holding purge event `seq`, once that frame is
    /// acknowledged.
    pub fn erasure(&self, seq: u64) -> Option<ErasureReport> {
        let map = self.shared.erasures.lock();
        map.range(seq..).next().map(|(_, r)| r.clone())
    }

    /// Stops the feed and the publisher: frames already handed to it are published (if the
    /// stream acknowledges them within the `ack_timeout`), later ones are not.
    pub async fn stop(self) -> Result<Progress> {
        self.shutdown().await
    }

    /// [`Replicator::stop`] through a shared reference (a replicator shared with requests
    /// waiting for acknowledgements): later calls return at once.
    pub async fn shutdown(&self) -> Result<Progress> {
        let store = self.store.clone();
        tokio::task::spawn_blocking(move || store.stop_feed())
            .await
            .map_err(|e| StreamError::Nats(e.to_string()))??;
        let worker = self.worker.lock().take();
        if let Some(h) = worker
            && tokio::time::timeout(self.config.ack_timeout, h)
                .await
                .is_err()
        {
            self.shared.stop.store(true, Ordering::SeqCst);
        }
        Ok(self.progress())
    }
}

impl Drop for Replicator {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        let _ = self.store.stop_feed();
    }
}

/// Retries `op` until it succeeds or the replicator stops (or is fenced), recording each
/// failure.
macro_rules! retry {
    ($w:expr, $op:expr) => {{
        let mut pause = Duration::from_millis(20);
        loop {
            match $op {
                Ok(v) => {
                    $w.shared.progress.send_modify(|p| p.error = None);
                    break Some(v);
                }
                Err(e) => {
                    let fenced = matches!(e, StreamError::Fenced { .. });
                    $w.shared
                        .progress
                        .send_modify(|p| p.error = Some(e.to_string()));
                    if fenced || $w.shared.stop.load(Ordering::SeqCst) {
                        break None;
                    }
                    tokio::time::sleep(pause).await;
                    pause = (pause * 2).min(Duration::from_secs(1));
                }
            }
        }
    }};
}

impl Worker {
    async fn run(mut self, mut rx: mpsc::UnboundedReceiver<FeedEntry>) {
        while let Some(entry) = rx.recv().await {
            let seq = entry.frame.seq();
            let purge = entry
                .frame
                .events()
                .map(|es| es.iter().any(|e| e.kind == EventKind::Purge))
                .unwrap_or(false)
                || !entry.overwrite.is_empty();
            if seq <= self.snapshot {
                // The current generation's snapshot holds this frame: it is not published. A
                // purge in it was taken care of when the generation opened (its snapshot is
                // after the purge, and every older generation was deleted).
                if purge {
                    let (snapshot, retired) = self.opened.clone();
                    self.shared.erasures.lock().insert(
                        seq,
                        ErasureReport {
                            purge_frame: seq,
                            frames: Vec::new(),
                            snapshot,
                            retired,
                        },
                    );
                }
            } else {
                if retry!(self, self.publish(&entry).await).is_none() {
                    return;
                }
                if purge {
                    let Some(report) = retry!(self, self.erase_for(&entry).await) else {
                        return;
                    };
                    self.shared.erasures.lock().insert(seq, report);
                } else if self.config.snapshot_every > 0
                    && self.since_snapshot >= self.config.snapshot_every
                    && let Err(e) = self.rotate().await
                {
                    // A failed periodic snapshot is tried again after the next frame, unless
                    // another leader switched the generation.
                    let fenced = matches!(e, StreamError::Fenced { .. });
                    self.shared
                        .progress
                        .send_modify(|p| p.error = Some(e.to_string()));
                    if fenced {
                        return;
                    }
                }
            }
            self.shared
                .progress
                .send_modify(|p| p.acked = p.acked.max(seq));
            // The stream holds the frame now: the feed need not keep it (it keeps what it knows
            // about which frames carried which rows).
            let _ = self.store.trim_feed(seq);
        }
    }

    /// Publishes one frame to the current generation's stream and waits for its
    /// acknowledgement.
    async fn publish(&mut self, entry: &FeedEntry) -> Result<()> {
        let seq = entry.frame.seq();
        let mut headers = HeaderMap::new();
        headers.insert("Nats-Msg-Id", seq.to_string().as_str());
        headers.insert(SEQ_HEADER, seq.to_string().as_str());
        headers.insert(
            "Nats-Expected-Last-Sequence",
            self.last_stream_seq.to_string().as_str(),
        );
        let ack = self
            .js
            .publish_with_headers(
                self.names.subject(self.generation),
                headers,
                entry.frame.encode().into(),
            )
            .await
            .map_err(nats)?
            .await;
        let ack = match ack {
            Ok(a) => a,
            Err(e) => {
                let text = e.to_string();
                // 10071: wrong last sequence. Another writer published to the stream.
                if text.contains("10071") || text.contains("wrong last sequence") {
                    return Err(StreamError::Fenced {
                        stream: self.names.stream(self.generation),
                    });
                }
                return Err(nats(text));
            }
        };
        self.last_stream_seq = self.last_stream_seq.max(ack.sequence);
        self.published
            .insert(seq, (self.generation, ack.sequence, true));
        self.since_snapshot += 1;
        Ok(())
    }

    /// Where the temporary snapshot files go: beside the store.
    fn snapshot_dir(&self) -> PathBuf {
        self.store
            .path()
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(std::env::temp_dir)
    }

    /// The prefix of this tenant's temporary snapshot files (`+` is in no tenant id, so no
    /// other tenant's files start with it).
    fn snapshot_prefix(&self) -> String {
        format!(".{}+snapshot-", self.names.object())
    }

    /// Removes temporary snapshot files a replicator that died during an upload left behind
    /// (one may hold bytes a later purge erased).
    fn remove_stale_snapshots(&self) {
        let prefix = self.snapshot_prefix();
        if let Ok(dir) = std::fs::read_dir(self.snapshot_dir()) {
            for e in dir.flatten() {
                if e.file_name().to_string_lossy().starts_with(&prefix) {
                    let _ = std::fs::remove_file(e.path());
                }
            }
        }
    }

    /// Takes a snapshot of the store into a temporary file beside it.
    async fn take_snapshot(&self) -> Result<(PathBuf, u64)> {
        let store = self.store.clone();
        let dir = self.snapshot_dir();
        let mut rand = [0u8; 8];
        getrandom::fill(&mut rand).map_err(|e| StreamError::Snapshot(e.to_string()))?;
        let tmp = dir.join(format!(
            "{}{:016x}",
            self.snapshot_prefix(),
            u64::from_le_bytes(rand)
        ));
        let path = tmp.clone();
        let seq = tokio::task::spawn_blocking(move || store.snapshot_to(&path))
            .await
            .map_err(|e| StreamError::Snapshot(e.to_string()))?;
        match seq {
            Ok(s) => Ok((tmp, s)),
            Err(e) => {
                let _ = std::fs::remove_file(&tmp);
                Err(e.into())
            }
        }
    }

    /// Uploads the snapshot file at `path` (standing at `seq`) as the tenant's snapshot of
    /// generation `g`, replacing the one there.
    async fn upload(&self, g: u64, path: &Path, seq: u64) -> Result<SnapshotUpload> {
        let io = |source| StreamError::Io {
            path: path.to_path_buf(),
            source,
        };
        let bucket = self
            .js
            .get_object_store(self.names.bucket(g))
            .await
            .map_err(nats)?;
        let mut file = tokio::fs::File::open(path).await.map_err(io)?;
        let meta = ObjectMetadata {
            name: self.names.object().to_owned(),
            description: Some(format!("oubli snapshot at seq {seq}")),
            chunk_size: Some(CHUNK_SIZE),
            metadata: HashMap::from([(META_SEQ.to_owned(), seq.to_string())]),
            headers: None,
        };
        let info = bucket
            .put(meta, &mut file)
            .await
            .map_err(|e| StreamError::Snapshot(e.to_string()))?;
        Ok(SnapshotUpload {
            generation: g,
            seq,
            size: info.size as u64,
        })
    }

    /// Opens a new generation: a new stream and snapshot bucket, a snapshot of the store
    /// uploaded to it, the generations bucket pointed at it (only if it still names the
    /// generation this replicator knows: another leader's change is [`StreamError::Fenced`]),
    /// then every older generation deleted. Returns the upload and the generations deleted.
    async fn rotate(&mut self) -> Result<(SnapshotUpload, Vec<u64>)> {
        let old = self.generation;
        let g = old + 1;
        // Left by a rotation that died before it switched the generation.
        delete_generation(&self.js, &self.names, g).await?;
        self.js
            .create_stream(StreamSettings {
                name: self.names.stream(g),
                subjects: vec![self.names.subject(g)],
                num_replicas: self.config.replicas,
                storage: StorageType::File,
                ..Default::default()
            })
            .await
            .map_err(nats)?;
        self.js
            .create_object_store(jetstream::object_store::Config {
                bucket: self.names.bucket(g),
                num_replicas: self.config.replicas,
                storage: StorageType::File,
                ..Default::default()
            })
            .await
            .map_err(nats)?;
        let (tmp, seq) = self.take_snapshot().await?;
        let up = self.upload(g, &tmp, seq).await;
        let _ = std::fs::remove_file(&tmp);
        let up = up?;
        self.revision = match switch_generation(&self.js, &self.names, g, self.revision).await {
            Ok(r) => r,
            Err(e) => {
                let _ = delete_generation(&self.js, &self.names, g).await;
                return Err(e);
            }
        };
        self.generation = g;
        self.snapshot = seq;
        self.last_stream_seq = 0;
        self.since_snapshot = 0;
        // What older streams held is gone with them; the previous generation's frames are kept
        // (not live) so that a purge right after this rotation can still name where they were.
        self.published.retain(|_, v| v.0 + 1 >= g);
        for v in self.published.values_mut() {
            v.2 = false;
        }
        self.shared.progress.send_modify(|p| {
            p.generation = g;
            p.snapshot = seq;
        });
        // Every older generation still there: the previous one, and any an earlier replicator
        // failed to delete (deletions go oldest first, so those lie just below).
        let mut retired = Vec::new();
        for k in (1..g).rev() {
            if !delete_generation(&self.js, &self.names, k).await? {
                break;
            }
            retired.push(k);
        }
        retired.reverse();
        self.opened = (up, retired.clone());
        Ok((up, retired))
    }

    /// The erasure of a frame holding a purge: the frames the feed lists are securely erased
    /// from the current stream, then a new generation starts from a snapshot after the purge
    /// and every older one is deleted.
    async fn erase_for(&mut self, entry: &FeedEntry) -> Result<ErasureReport> {
        let mut frames = Vec::new();
        for f in &entry.overwrite {
            let Some(&(g, s, live)) = self.published.get(f) else {
                // Before this generation's snapshot: never published by this replicator, and
                // the generation it could be in is deleted below.
                continue;
            };
            let erased = live
                && g == self.generation
                && erase(&self.js, &self.names.stream(g), s).await? == Erased::Now;
            if let Some(v) = self.published.get_mut(f) {
                v.2 = false;
            }
            frames.push(ListedFrame {
                frame: *f,
                generation: g,
                stream_seq: s,
                erased,
            });
        }
        let (snapshot, retired) = self.rotate().await?;
        Ok(ErasureReport {
            purge_frame: entry.frame.seq(),
            frames,
            snapshot,
            retired,
        })
    }
}
