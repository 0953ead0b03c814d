//! Running a store as part of a cluster (feature `cluster`): the pieces that talk to the
//! services a multi-node deployment shares.
//!
//! - [`stream`]: replication of each tenant through NATS JetStream: its frames to a stream,
//!   its snapshots to an object store, restore on another node, and erasure that reaches every
//!   copy (`docs/replication.md`).

pub mod stream;
