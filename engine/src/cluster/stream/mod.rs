//! Replication of a tenant's store through NATS JetStream.
//!
//! A leader runs one [`Replicator`] per tenant. It publishes every frame of the store's change
//! feed ([`crate::Store::start_feed`]) to the tenant's JetStream stream, in order, one message
//! per frame, and waits for JetStream's acknowledgement; every `snapshot_every` frames it opens a
//! new generation from a snapshot ([`crate::Store::snapshot_to`]) and deletes the older one.
//! Another node rebuilds the tenant with [`restore`]: the snapshot, then every frame
//! after it, each checked by [`crate::Store::apply_frame`]; [`promote`] makes it the leader.
//!
//! **Generations.** A tenant's stream and snapshot bucket belong to a *generation*, numbered
//! from 1; the stream `OUBLI_GEN_<cluster>` holds one message per tenant naming its current
//! generation. A replicator opens a new generation when it starts, after every purge and every
//! `snapshot_every` frames: a new
//! stream and bucket, a snapshot of the store uploaded to the bucket, the generation message
//! switched (with JetStream's expected-last-subject-sequence check, so two leaders cannot both
//! switch), then the previous generation's stream and bucket deleted. Names, for cluster `C`,
//! tenant `T` (a [`TenantId`](crate::serve::TenantId)) and generation `G` (`E` is `T` with `_`
//! written `_5f` and `.` written `_2e`, so that it is one subject token and part of a valid
//! stream name):
//!
//! | what | name |
//! |---|---|
//! | generation message | subject `oubli.C.gen.E` in stream `OUBLI_GEN_C`, payload `G` in decimal |
//! | frames | stream `OUBLI_C_E_G`, subject `oubli.C.E.G.frames` |
//! | one frame | the frame's bytes; headers `Nats-Msg-Id` (JetStream's deduplication) and `Oubli-Seq`, both the frame's seq |
//! | snapshot | object `T` in bucket `OUBLI_SNAP_C_E_G` (stream `OBJ_OUBLI_SNAP_C_E_G`), metadata `oubli-seq` |
//!
//! **Why a periodic snapshot opens a generation** instead of replacing the bucket's object and
//! purging the stream below it: NATS 2.9 does not subtract a filtered purge (which the object
//! store's replacement of an object is) from the account's storage usage, so each replaced
//! snapshot counted against the servers' `max_file` for good, and a busy cluster reached the
//! limit and stalled every stream (`JetStream resource limits exceeded`, then no quorum).
//! Deleting a stream releases its usage. The cost is two stream creations and two deletions
//! per `snapshot_every` frames; the gain besides is that a generation holds one snapshot and
//! the frames after it, nothing else.
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
//! the feed lists ([`FeedEntry::overwrite`](crate::replication::FeedEntry::overwrite)) that are
//! still in the stream, (2) open a new generation from a snapshot taken after the purge (which
//! holds none of its bytes), and (3) delete every older generation: its stream, its consensus
//! log, its snapshot bucket. No frame is rewritten (frames are signed, and a redacted frame
//! would not verify), and no replay needs an erased frame: a restore starts from the new
//! generation's snapshot.

// One concept each: the names and generation records; the leader's publisher; the restore.
mod names;
mod replicator;
mod restore;

use std::path::PathBuf;
use std::time::Duration;

use async_nats::jetstream::{self, Context};

use crate::replication::ReplicationError;

pub use names::TenantNames;
pub use replicator::{ErasureReport, ListedFrame, Progress, Replicator, SnapshotUpload};
pub use restore::{Restored, promote, restore};

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

/// A NATS error naming what it happened on (a stream, a message of it), so that a failure in a
/// sequence of calls says which call failed.
fn nats_at(what: &str, e: impl std::fmt::Display) -> StreamError {
    StreamError::Nats(format!("{what}: {e}"))
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

    pub(crate) fn check(&self) -> Result<()> {
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
