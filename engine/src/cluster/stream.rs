//! Replication of a tenant's store through NATS JetStream.
//!
//! A leader runs one [`Replicator`] per tenant. It publishes every frame of the store's change
//! feed ([`crate::Store::start_feed`]) to the tenant's JetStream stream, in order, one message
//! per frame, and waits for JetStream's acknowledgement; it uploads snapshots
//! ([`crate::Store::snapshot_to`]) to the tenant's object-store bucket and then trims the stream
//! below them. Another node rebuilds the tenant with [`restore`]: the snapshot, then every frame
//! after it, each checked by [`crate::Store::apply_frame`]; [`promote`] makes it the leader.
//!
//! **Generations.** A tenant's stream and snapshot bucket belong to a *generation*, numbered
//! from 1; the stream `OUBLI_GEN_<cluster>` holds one message per tenant naming its current
//! generation. A replicator opens a new generation when it starts and after every purge: a new
//! stream and bucket, a snapshot of the store uploaded to the bucket, the generation message
//! switched (with JetStream's expected-last-subject-sequence check, so two leaders cannot both
//! switch), then the previous generation's stream and bucket deleted. Names, for cluster `C`,
//! tenant `T` (a [`TenantId`]) and generation `G` (`E` is `T` with `_` written `_5f` and `.`
//! written `_2e`, so that it is one subject token and part of a valid stream name):
//!
//! | what | name |
//! |---|---|
//! | generation message | subject `oubli.C.gen.E` in stream `OUBLI_GEN_C`, payload `G` in decimal |
//! | frames | stream `OUBLI_C_E_G`, subject `oubli.C.E.G.frames` |
//! | one frame | the frame's bytes; headers `Nats-Msg-Id` (JetStream's deduplication) and `Oubli-Seq`, both the frame's seq |
//! | snapshot | object `T` in bucket `OUBLI_SNAP_C_E_G` (stream `OBJ_OUBLI_SNAP_C_E_G`), metadata `oubli-seq` |
//!
//! **Acknowledged.** A write is acknowledged ([`Replicator::acknowledged`],
//! [`Replicator::write`]) once (1) the store committed it (on the leader's disk when the store
//! is durable) and (2) JetStream acknowledged the message of every frame up to it, which it
//! does once a quorum of the stream's replicas stored it (2 of 3 at R3): whichever server leads
//! the stream afterwards holds it. For a frame holding a purge, (3) the erasure reached every
//! copy as well ([`ErasureReport`]). A write committed but not acknowledged (the stream lost its
//! quorum, the leader died first) may or may not survive a takeover: a client treats it as
//! unknown, as any timeout.
//!
//! **Erasure.** JetStream's secure erase (`STREAM.MSG.DELETE`, `no_erase: false`) overwrites a
//! message in the stream's message blocks on every server, but not in the consensus (raft) log
//! a clustered stream keeps beside them, which holds every message it replicated until the
//! server compacts it, on its own schedule; a purge of the stream, or the object store's
//! replacement of an object, only marks messages deleted. Deleting a stream removes both, on
//! every server. So a frame holding a purge makes the replicator (1) securely erase the frames
//! the feed lists ([`FeedEntry::overwrite`]) that are still in the stream, (2) open a new
//! generation from a snapshot taken after the purge (which holds none of its bytes), and (3)
//! delete every older generation: its stream, its consensus log, its snapshot bucket. No frame
//! is rewritten (frames are signed, and a redacted frame would not verify), and no replay needs
//! an erased frame: a restore starts from the new generation's snapshot.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use async_nats::HeaderMap;
use async_nats::jetstream::object_store::{ObjectMetadata, ObjectStore};
use async_nats::jetstream::stream::{Config as StreamSettings, StorageType, Stream};
use async_nats::jetstream::{self, Context};
use tokio::sync::{mpsc, watch};

use crate::log::EventKind;
use crate::replication::{Applied, FeedEntry, Frame, ReplicationError};
use crate::serve::TenantId;
use crate::{PurgeReport, Store, StoreOptions, Target};

/// Header naming the frame's seq on every stream message.
pub const SEQ_HEADER: &str = "Oubli-Seq";
/// Object metadata key: the seq a snapshot stands at.
pub const META_SEQ: &str = "oubli-seq";
/// Size of the chunks a snapshot is uploaded in.
pub const CHUNK_SIZE: usize = 128 * 1024;

/// Why a replication call failed. Every error is typed; none leaves a store half-written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StreamError {
    /// A cluster name, tenant id or option is not valid.
    #[error("invalid cluster setting: {0}")]
    Config(String),
    /// NATS could not be reached, or refused a request.
    #[error("NATS: {0}")]
    Nats(String),
    /// JetStream did not acknowledge the frames up to `seq` in time (the write is committed on
    /// the leader, but not acknowledged: see the module docs).
    #[error("seq {seq} was not acknowledged by the stream: {reason}")]
    NotAcknowledged {
        /// The seq waited for.
        seq: u64,
        /// The last error the publisher met, or that the wait timed out.
        reason: String,
    },
    /// The stream holds messages this replicator did not publish: another leader wrote to it
    /// (JetStream refused the publish's expected last sequence).
    #[error("the stream {stream} was written by another leader")]
    Fenced {
        /// The stream.
        stream: String,
    },
    /// A snapshot could not be taken, uploaded or downloaded.
    #[error("snapshot: {0}")]
    Snapshot(String),
    /// The stream lacks frames between the restored store's head and the next frame it holds.
    #[error("gap in the stream at message {stream_seq}: expected seq {expected}, found {found}")]
    Gap {
        /// The stream message where the gap shows.
        stream_seq: u64,
        /// The seq the restored store needed next.
        expected: u64,
        /// The first seq of the frame the stream held there.
        found: u64,
    },
    /// A frame of the stream was refused: malformed, signed by another key, diverging from the
    /// chain, or not matching its row digests.
    #[error("frame in stream message {stream_seq} refused: {source}")]
    Chain {
        /// The stream message.
        stream_seq: u64,
        /// Why the store refused it.
        source: ReplicationError,
    },
    /// A message of the tenant's stream that is not a frame of this module.
    #[error("stream message {stream_seq} is not a frame: {reason}")]
    NotAFrame {
        /// The stream message.
        stream_seq: u64,
        /// What is wrong with it.
        reason: String,
    },
    /// The store refused an operation.
    #[error(transparent)]
    Store(#[from] crate::Error),
    /// A local file could not be read or written.
    #[error("file {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The replicator was stopped.
    #[error("the replicator has stopped")]
    Stopped,
}

type Result<T, E = StreamError> = std::result::Result<T, E>;

fn nats(e: impl std::fmt::Display) -> StreamError {
    StreamError::Nats(e.to_string())
}

/// Settings of a tenant's replication.
#[derive(Clone, Debug)]
pub struct StreamConfig {
    /// The cluster's name: 1 to 32 bytes of `a-z`, `0-9`, `-`. Part of every stream, subject
    /// and bucket name, so that two clusters can share one NATS deployment.
    pub cluster: String,
    /// Replicas of the stream and of the snapshot bucket (1 to 5; 3 in a cluster of 3 or more
    /// NATS servers, 1 for a single server).
    pub replicas: usize,
    /// Frames published between two periodic snapshots (0: snapshots only at start and after a
    /// purge).
    pub snapshot_every: u64,
    /// How long [`Replicator::acknowledged`] waits.
    pub ack_timeout: Duration,
    /// Timeout of one JetStream request.
    pub request_timeout: Duration,
}

impl StreamConfig {
    /// Settings for a NATS cluster: 3 replicas, a snapshot every 1000 frames, 10 s to
    /// acknowledge.
    pub fn new(cluster: impl Into<String>) -> StreamConfig {
        StreamConfig {
            cluster: cluster.into(),
            replicas: 3,
            snapshot_every: 1000,
            ack_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(5),
        }
    }

    /// Settings for a single NATS server: 1 replica.
    pub fn single_server(cluster: impl Into<String>) -> StreamConfig {
        StreamConfig {
            replicas: 1,
            ..StreamConfig::new(cluster)
        }
    }

    /// Sets the number of replicas.
    pub fn replicas(mut self, n: usize) -> Self {
        self.replicas = n;
        self
    }

    /// Sets the frames between periodic snapshots.
    pub fn snapshot_every(mut self, frames: u64) -> Self {
        self.snapshot_every = frames;
        self
    }

    /// Sets how long an acknowledgement is waited for.
    pub fn ack_timeout(mut self, t: Duration) -> Self {
        self.ack_timeout = t;
        self
    }

    fn check(&self) -> Result<()> {
        let ok = !self.cluster.is_empty()
            && self.cluster.len() <= 32
            && self
                .cluster
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
        if !ok {
            return Err(StreamError::Config(format!(
                "cluster name {:?}: 1 to 32 bytes of a-z, 0-9, '-'",
                self.cluster
            )));
        }
        if !(1..=5).contains(&self.replicas) {
            return Err(StreamError::Config(format!(
                "replicas must be 1 to 5, not {}",
                self.replicas
            )));
        }
        Ok(())
    }
}

/// The JetStream names of one tenant (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TenantNames {
    /// The tenant.
    pub tenant: TenantId,
    /// The cluster.
    pub cluster: String,
    /// The tenant id as one subject token (`_` written `_5f`, `.` written `_2e`).
    pub escaped: String,
    /// The stream that names each tenant's current generation (`OUBLI_GEN_<cluster>`).
    pub generations: String,
}

impl TenantNames {
    /// The names of `tenant` in `cluster` (checked as [`StreamConfig`] and [`TenantId`] check
    /// them).
    pub fn new(cluster: &str, tenant: &str) -> Result<TenantNames> {
        StreamConfig::new(cluster).check()?;
        let tenant = TenantId::parse(tenant).map_err(StreamError::Config)?;
        let mut escaped = String::new();
        for c in tenant.as_str().chars() {
            match c {
                '_' => escaped.push_str("_5f"),
                '.' => escaped.push_str("_2e"),
                c => escaped.push(c),
            }
        }
        Ok(TenantNames {
            cluster: cluster.to_owned(),
            generations: format!("OUBLI_GEN_{cluster}"),
            escaped,
            tenant,
        })
    }

    /// The stream of the tenant's frames in generation `g`.
    pub fn stream(&self, g: u64) -> String {
        format!("OUBLI_{}_{}_{g}", self.cluster, self.escaped)
    }

    /// The subject of the tenant's frames in generation `g`.
    pub fn subject(&self, g: u64) -> String {
        format!("oubli.{}.{}.{g}.frames", self.cluster, self.escaped)
    }

    /// The object-store bucket of the tenant's snapshot in generation `g`.
    pub fn bucket(&self, g: u64) -> String {
        format!("OUBLI_SNAP_{}_{}_{g}", self.cluster, self.escaped)
    }

    /// The subject of the message naming the tenant's current generation.
    pub fn generation_subject(&self) -> String {
        format!("oubli.{}.gen.{}", self.cluster, self.escaped)
    }

    /// The snapshot's object name in its bucket: the tenant id.
    pub fn object(&self) -> &str {
        self.tenant.as_str()
    }
}

/// Connects to NATS (`servers`: URLs such as `nats://127.0.0.1:4222`; the client fails over
/// between them) and returns a JetStream context whose requests time out after `timeout`.
pub async fn connect(servers: &[String], timeout: Duration) -> Result<Context> {
    if servers.is_empty() {
        return Err(StreamError::Config("no NATS server given".into()));
    }
    let client = async_nats::ConnectOptions::new()
        .connection_timeout(timeout)
        .retry_on_initial_connect()
        .connect(servers.to_vec())
        .await
        .map_err(nats)?;
    Ok(jetstream::ContextBuilder::new()
        .timeout(timeout)
        .build(client))
}

/// The stream of the cluster's generations (one message per tenant, the last kept), created if
/// it does not exist. A key-value bucket would be the same thing, but the client's key-value
/// API needs a newer server than NATS 2.9.
async fn generations(js: &Context, names: &TenantNames, replicas: usize) -> Result<Stream> {
    js.get_or_create_stream(StreamSettings {
        name: names.generations.clone(),
        subjects: vec![format!("oubli.{}.gen.*", names.cluster)],
        max_messages_per_subject: 1,
        num_replicas: replicas,
        storage: StorageType::File,
        ..Default::default()
    })
    .await
    .map_err(nats)
}

/// The tenant's current generation and the stream seq of the message naming it (`None`: the
/// tenant was never replicated).
async fn current_generation(gens: &Stream, names: &TenantNames) -> Result<Option<(u64, u64)>> {
    let m = match gens
        .get_last_raw_message_by_subject(&names.generation_subject())
        .await
    {
        Ok(m) => m,
        Err(e) if e.kind() == jetstream::stream::LastRawMessageErrorKind::NoMessageFound => {
            return Ok(None);
        }
        Err(e) if is_not_found(&e) => return Ok(None),
        Err(e) => return Err(nats(e)),
    };
    let g = std::str::from_utf8(&m.payload)
        .ok()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| StreamError::Nats(format!("generation of {} unreadable", names.object())))?;
    Ok(Some((g, m.sequence)))
}

/// Names generation `g` as the tenant's current one, if the message naming it is still the one
/// at stream seq `revision` (0: none): JetStream refuses the publish otherwise, and that is
/// [`StreamError::Fenced`]. Returns the new message's seq.
async fn switch_generation(
    js: &Context,
    names: &TenantNames,
    g: u64,
    revision: u64,
) -> Result<u64> {
    let mut headers = HeaderMap::new();
    headers.insert(
        "Nats-Expected-Last-Subject-Sequence",
        revision.to_string().as_str(),
    );
    let ack = js
        .publish_with_headers(
            names.generation_subject(),
            headers,
            g.to_string().into_bytes().into(),
        )
        .await
        .map_err(nats)?
        .await;
    match ack {
        Ok(a) => Ok(a.sequence),
        Err(e) => {
            let text = e.to_string();
            if text.contains("10071") || text.to_ascii_lowercase().contains("wrong last") {
                Err(StreamError::Fenced {
                    stream: names.generations.clone(),
                })
            } else {
                Err(nats(text))
            }
        }
    }
}

/// Deletes generation `g` of the tenant: its stream and its snapshot bucket. Every server of
/// the stream removes their directories, the stream's consensus log among them. Returns whether
/// anything was there.
async fn delete_generation(js: &Context, names: &TenantNames, g: u64) -> Result<bool> {
    let mut found = false;
    for stream in [names.stream(g), format!("OBJ_{}", names.bucket(g))] {
        match js.delete_stream(&stream).await {
            Ok(_) => found = true,
            Err(e) if e.to_string().to_ascii_lowercase().contains("not found") => {}
            Err(e) => return Err(nats(e)),
        }
    }
    Ok(found)
}

/// What a secure erase of one message found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Erased {
    /// The server overwrote the message's bytes and removed it.
    Now,
    /// No such message (erased or removed before).
    Absent,
}

/// Removes message `seq` of `stream` with JetStream's secure erase: the servers overwrite its
/// bytes in the stream's message blocks before removing it (not in the stream's consensus log:
/// see the module docs).
async fn erase(js: &Context, stream: &str, seq: u64) -> Result<Erased> {
    let reply: serde_json::Value = js
        .request(
            format!("STREAM.MSG.DELETE.{stream}"),
            &serde_json::json!({ "seq": seq, "no_erase": false }),
        )
        .await
        .map_err(nats)?;
    if reply.get("success").and_then(|v| v.as_bool()) == Some(true) {
        return Ok(Erased::Now);
    }
    let err = reply.get("error").cloned().unwrap_or_default();
    let text = err
        .get("description")
        .and_then(|v| v.as_str())
        .unwrap_or_default()
        .to_ascii_lowercase();
    if text.contains("not found") || text.contains("no message") {
        return Ok(Erased::Absent);
    }
    Err(StreamError::Nats(format!(
        "erasing message {seq} of {stream}: {err}"
    )))
}

fn stream_not_found(e: &jetstream::context::GetStreamError) -> bool {
    matches!(e.kind(), jetstream::context::GetStreamErrorKind::JetStream(j)
        if j.error_code() == jetstream::ErrorCode::STREAM_NOT_FOUND)
}

fn is_not_found(e: &jetstream::stream::RawMessageError) -> bool {
    use jetstream::stream::RawMessageErrorKind as K;
    match e.kind() {
        K::NoMessageFound => true,
        K::JetStream(j) => j.error_code() == jetstream::ErrorCode::NO_MESSAGE_FOUND,
        _ => false,
    }
}

/// A snapshot uploaded by the replicator.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SnapshotUpload {
    /// The generation it belongs to.
    pub generation: u64,
    /// The seq it stands at.
    pub seq: u64,
    /// Its size in bytes.
    pub size: u64,
}

/// What the replicator did for a frame holding a purge: which copies the erasure reached.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ErasureReport {
    /// The seq of the frame holding the purge.
    pub purge_frame: u64,
    /// The frames the feed listed as carrying erased content ([`FeedEntry::overwrite`]), each
    /// with the generation and stream message that held it.
    pub frames: Vec<ListedFrame>,
    /// The new generation: its snapshot, taken after the purge, holds none of the purged bytes.
    pub snapshot: SnapshotUpload,
    /// The generations deleted (stream and snapshot bucket, on every server): every copy of a
    /// frame or snapshot from before the purge.
    pub retired: Vec<u64>,
}

/// A frame a purge listed, and where the stream held it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ListedFrame {
    /// The frame's seq.
    pub frame: u64,
    /// The generation whose stream held it.
    pub generation: u64,
    /// The message's seq in that stream.
    pub stream_seq: u64,
    /// Whether the message was still in the stream and securely erased before its generation
    /// was deleted (`false`: a snapshot had trimmed it already).
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
    worker: Option<tokio::task::JoinHandle<()>>,
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
    /// Frames published: frame seq → (generation, stream seq, still in the stream).
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
            worker: Some(handle),
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
    pub async fn stop(mut self) -> Result<Progress> {
        let store = self.store.clone();
        tokio::task::spawn_blocking(move || store.stop_feed())
            .await
            .map_err(|e| StreamError::Nats(e.to_string()))??;
        if let Some(h) = self.worker.take()
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
                    && let Err(e) = self.snapshot_and_trim().await
                {
                    // A failed periodic snapshot is tried again after the next frame.
                    self.shared
                        .progress
                        .send_modify(|p| p.error = Some(e.to_string()));
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

    /// A periodic snapshot: uploaded in place of the current generation's, then the stream
    /// trimmed below it.
    async fn snapshot_and_trim(&mut self) -> Result<SnapshotUpload> {
        let (tmp, seq) = self.take_snapshot().await?;
        let up = self.upload(self.generation, &tmp, seq).await;
        let _ = std::fs::remove_file(&tmp);
        let up = up?;
        self.snapshot = seq;
        self.since_snapshot = 0;
        self.shared.progress.send_modify(|p| p.snapshot = seq);
        let g = self.generation;
        let below = self
            .published
            .range(..=seq)
            .filter(|(_, (pg, _, live))| *pg == g && *live)
            .map(|(_, (_, s, _))| *s)
            .max();
        if let Some(last) = below {
            let stream = self
                .js
                .get_stream(self.names.stream(g))
                .await
                .map_err(nats)?;
            stream.purge().sequence(last + 1).await.map_err(nats)?;
            for v in self.published.range_mut(..=seq).map(|(_, v)| v) {
                if v.0 == g {
                    v.2 = false;
                }
            }
        }
        Ok(up)
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

/// A store rebuilt from the cluster by [`restore`]: a replica, at the head of the stream.
pub struct Restored {
    /// The store (opened with [`StoreOptions::replica`]); [`promote`] makes it a leader.
    pub store: Store,
    /// The generation it was restored from (0: the tenant was never replicated).
    pub generation: u64,
    /// The seq of the snapshot it started from (0: none, it started empty).
    pub snapshot_seq: u64,
    /// Frames applied after the snapshot.
    pub frames_applied: u64,
    /// Its head seq.
    pub head: u64,
}

/// Rebuilds `tenant` into a new store file at `dest` (which must not exist): downloads the
/// newest snapshot (or starts an empty store if there is none), opens it as a replica with
/// `opts` (which must carry the tenant's signing key and embedder), then applies every frame of
/// the stream after the snapshot's seq, in order. [`Store::apply_frame`] checks each one's
/// signatures, chain and digests; a missing frame is [`StreamError::Gap`], a refused one
/// [`StreamError::Chain`]. On error the partial file at `dest` is removed.
///
/// Run it when no leader publishes (a takeover): a leader that trims its stream during a restore
/// can make the restore fail with a gap, never restore a wrong state; run it again then.
pub async fn restore(
    js: &Context,
    cluster: &str,
    tenant: &str,
    dest: &Path,
    opts: StoreOptions,
) -> Result<Restored> {
    let names = TenantNames::new(cluster, tenant)?;
    if dest.exists() {
        return Err(crate::Error::AlreadyExists(dest.to_path_buf()).into());
    }
    let r = restore_into(js, &names, dest, opts).await;
    if r.is_err() {
        let _ = std::fs::remove_file(dest);
    }
    r
}

async fn restore_into(
    js: &Context,
    names: &TenantNames,
    dest: &Path,
    opts: StoreOptions,
) -> Result<Restored> {
    let opts = opts.replica(true);
    // Only a cluster that answers "no such stream" has never replicated a tenant: any other
    // failure (no responders, a timeout while a stream leader is elected) is an error, never
    // an empty tenant.
    let generation = match js.get_stream(&names.generations).await {
        Ok(gens) => current_generation(&gens, names).await?.map(|(g, _)| g),
        Err(e) if stream_not_found(&e) => None,
        Err(e) => return Err(nats(e)),
    };
    let snapshot_seq = match generation {
        Some(g) => {
            let bucket = js
                .get_object_store(names.bucket(g))
                .await
                .map_err(|e| StreamError::Snapshot(format!("generation {g}: {e}")))?;
            Some(download_snapshot(&bucket, names, dest).await?)
        }
        None => None,
    };
    let dest_buf = dest.to_path_buf();
    let store = Arc::new(
        tokio::task::spawn_blocking(move || match snapshot_seq {
            Some(_) => Store::open_with(&dest_buf, opts),
            None => Store::create_with(&dest_buf, opts),
        })
        .await
        .map_err(|e| StreamError::Snapshot(e.to_string()))??,
    );
    let snapshot_seq = snapshot_seq.unwrap_or(0);
    let mut head = store.head()?.0;
    if head != snapshot_seq {
        return Err(StreamError::Snapshot(format!(
            "the snapshot says seq {snapshot_seq}, its file stands at {head}"
        )));
    }
    let mut frames_applied = 0;
    if let Some(g) = generation {
        let mut stream = js.get_stream(names.stream(g)).await.map_err(nats)?;
        let state = stream.info().await.map_err(nats)?.state.clone();
        for s in state.first_sequence.max(1)..=state.last_sequence {
            let m = match stream.get_raw_message(s).await {
                Ok(m) => m,
                Err(e) if is_not_found(&e) => continue,
                Err(e) => return Err(nats(e)),
            };
            let not_a_frame = |reason: &str| StreamError::NotAFrame {
                stream_seq: s,
                reason: reason.to_owned(),
            };
            let seq: u64 = m
                .headers
                .get(SEQ_HEADER)
                .and_then(|v| v.as_str().parse().ok())
                .ok_or_else(|| not_a_frame("no Oubli-Seq header"))?;
            if seq <= head {
                continue;
            }
            let frame = Frame::decode(&m.payload).map_err(|source| StreamError::Chain {
                stream_seq: s,
                source,
            })?;
            if frame.seq() != seq {
                return Err(not_a_frame("Oubli-Seq does not match the frame"));
            }
            let st = store.clone();
            let applied = tokio::task::spawn_blocking(move || st.apply_frame(&frame))
                .await
                .map_err(|e| StreamError::Nats(e.to_string()))?;
            match applied {
                Ok(Applied::Applied { seq }) => {
                    head = seq;
                    frames_applied += 1;
                }
                Ok(Applied::Duplicate { .. }) => {}
                Err(crate::Error::Replication(ReplicationError::Gap { expected, found })) => {
                    return Err(StreamError::Gap {
                        stream_seq: s,
                        expected,
                        found,
                    });
                }
                Err(crate::Error::Replication(source)) => {
                    return Err(StreamError::Chain {
                        stream_seq: s,
                        source,
                    });
                }
                Err(e) => return Err(e.into()),
            }
        }
    }
    let store = Arc::try_unwrap(store).map_err(|_| StreamError::Stopped)?;
    Ok(Restored {
        store,
        generation: generation.unwrap_or(0),
        snapshot_seq,
        frames_applied,
        head,
    })
}

/// Downloads the tenant's snapshot from its generation's bucket into `dest`.
async fn download_snapshot(bucket: &ObjectStore, names: &TenantNames, dest: &Path) -> Result<u64> {
    let info = bucket
        .info(names.object())
        .await
        .map_err(|e| StreamError::Snapshot(e.to_string()))?;
    let seq: u64 = info
        .metadata
        .get(META_SEQ)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| StreamError::Snapshot("the snapshot object has no oubli-seq".into()))?;
    let mut object = bucket
        .get(names.object())
        .await
        .map_err(|e| StreamError::Snapshot(e.to_string()))?;
    let io = |source| StreamError::Io {
        path: dest.to_path_buf(),
        source,
    };
    let mut file = tokio::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(dest)
        .await
        .map_err(io)?;
    // The object store's reader checks the SHA-256 digest at the end.
    tokio::io::copy(&mut object, &mut file).await.map_err(io)?;
    file.sync_all().await.map_err(io)?;
    Ok(seq)
}

/// Makes a restored replica the tenant's leader: closes it and reopens its file without
/// [`StoreOptions::replica`] (with `opts`, which carry the tenant's signing key). The store then
/// completes any purge left incomplete, as a leader does on open, and signs its own checkpoints
/// with the same key; [`Store::verify_log`] holds across the handover.
pub fn promote(restored: Store, opts: StoreOptions) -> Result<Store> {
    let path = restored.path().to_path_buf();
    restored.close()?;
    drop(restored);
    Ok(Store::open_with(path, opts.replica(false))?)
}
