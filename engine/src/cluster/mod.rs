//! Scale-out across machines (feature `cluster`): the pieces that make several `oubli serve`
//! processes one deployment, and that talk to the services a multi-node deployment shares.
//!
//! - [`lease`]: each node keeps one etcd lease; a tenant is owned by the node whose lease
//!   holds the tenant's key, and only its owner serves (writes) it. Placement answers
//!   `Serve`, `Redirect` to the owner, or `Unavailable` while this node holds no lease.
//! - [`stream`]: replication of each tenant through NATS JetStream: its frames to a stream,
//!   its snapshots to an object store, restore on another node, and erasure that reaches every
//!   copy (`docs/replication.md`).
//! - [`replicated`]: both wired into `oubli serve --nats`: a replicator per open tenant, writes
//!   answered once JetStream acknowledged them, and a tenant restored from the stream on the
//!   node that takes it over.
//! - [`keys`]: tenant signing keys derived from one deployment secret, so that a tenant signs
//!   with the same key on every node.
//!
//! `docs/scale-out.md` has the design, the failure model and how to run a cluster by hand.

pub mod keys;
pub mod lease;
pub mod replicated;
pub mod stream;
