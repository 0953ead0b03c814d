//! Replication substrate: the engine-level pieces a distributed deployment needs to keep copies
//! of a store in step, with no network code.
//!
//! - [`frame`]: the replication frame, one committed write transaction as bytes a replica
//!   applies: the transaction's events and signed checkpoint, and the after-image of every
//!   replicated record it changed, signed as a whole by the leader.
//! - [`feed`]: the change feed of a leader ([`crate::Store::start_feed`],
//!   [`crate::Store::changes_since`], [`crate::Store::subscribe`]), which also says which
//!   earlier frames held what a purge erased, so a transport can overwrite exactly those.
//! - [`apply`]: [`crate::Store::apply_frame`] on a follower (a store opened with
//!   [`crate::StoreOptions::replica`]): checks continuity, linkage, signatures and row digests,
//!   then writes the frame in one transaction, so the follower's rows, events, hashes and
//!   checkpoints are the leader's.
//! - [`snapshot`]: [`crate::Store::snapshot_to`], a consistent copy of a store at a known seq
//!   holding no erased byte; restore is opening it and applying the frames after that seq.
//!
//! Why physical frames and not re-executed verbs: see `docs/replication.md`.

pub mod apply;
pub mod feed;
pub mod frame;
pub mod snapshot;

pub use apply::Applied;
pub use feed::{FeedEntry, Subscriber};
pub use frame::{Change, FRAME_MAGIC, FRAME_VERSION, Frame, Key, KeyShape, Table};

/// Why a frame was refused, or a feed request could not be served. A refused frame changes
/// nothing in the store it was offered to.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReplicationError {
    /// The bytes are not a well-formed frame (truncated, out of order, unknown table, ...).
    #[error("malformed replication frame: {0}")]
    Malformed(String),
    /// A frame format this build does not read.
    #[error("replication frame version {0} is not supported")]
    UnsupportedVersion(u8),
    /// The frame was written by a store with another key.
    #[error("the frame was signed by another store's key")]
    ForeignKey,
    /// A signature does not verify (`frame` or `checkpoint`).
    #[error("the {0} signature does not verify")]
    BadSignature(&'static str),
    /// The frame starts after the replica's next seq: frames are missing in between.
    #[error("gap in the stream: the replica expects seq {expected}, the frame starts at {found}")]
    Gap {
        /// The replica's head seq plus one.
        expected: u64,
        /// The frame's first seq.
        found: u64,
    },
    /// The frame does not continue the replica's log: its first event names another previous
    /// hash, it overlaps the replica's head, or it repeats a seq the replica holds with other
    /// bytes.
    #[error("the frame diverges from the replica's log at seq {seq}")]
    Diverged {
        /// The first seq where the two disagree.
        seq: u64,
    },
    /// A row record, payload or vector in the frame does not match the row digest its event
    /// carries.
    #[error("row {row} does not match the digest of event {seq}")]
    RowMismatch {
        /// The event.
        seq: u64,
        /// The row.
        row: u64,
    },
    /// A feed request for frames the feed does not hold (before it started, or trimmed).
    #[error("the feed holds frames after seq {oldest} only, not after {requested}")]
    NotRetained {
        /// The seq asked for.
        requested: u64,
        /// The seq the retained frames start after.
        oldest: u64,
    },
    /// The store has no change feed running ([`crate::Store::start_feed`]).
    #[error("no change feed is running on this store")]
    NoFeed,
    /// A replica appends events only by applying frames: it refused a write of its own.
    #[error("a replica writes only frames from its leader")]
    Replica,
    /// An `apply_frame` on a store not opened as a replica.
    #[error("frames apply only to a store opened with StoreOptions::replica(true)")]
    NotReplica,
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::{HashEmbedder, Inscription, ManualClock, Store, StoreOptions};

    fn frames(threads: usize) -> Vec<Vec<u8>> {
        let opts = StoreOptions::default()
            .embedder(Arc::new(HashEmbedder::new(64).unwrap()))
            .clock(Arc::new(ManualClock::new(1_763_700_000_000)))
            .deterministic_seed([9; 32])
            .signing_key([3; 32]);
        let store = Store::in_memory(opts).unwrap();
        store.start_feed().unwrap();
        let rows = (0..600)
            .map(|i| {
                Inscription::new(format!("memory {i} about invoice INV-{}", 1000 + i * 7))
                    .key(format!("k{i}"))
            })
            .collect();
        crate::parallel::with_threads(threads, || store.inscribe_batch(rows)).unwrap();
        store.purge(crate::Target::key("default", "k7")).unwrap();
        store
            .changes_since(0)
            .unwrap()
            .iter()
            .map(|e| e.frame.encode())
            .collect()
    }

    /// A bulk batch is encoded and digested on several threads: its frame is the same on any
    /// thread count.
    #[test]
    fn frames_are_the_same_on_any_thread_count() {
        let one = frames(1);
        assert!(one.len() >= 3, "{} frames", one.len());
        for threads in [2, 4, 8] {
            assert_eq!(frames(threads), one, "{threads} threads");
        }
    }
}
