//! # oubli-audit
//!
//! Offline verification for [oubli](https://docs.rs/oubli) stores: the event log's hash chain and
//! signed checkpoints, purge receipts, the data subject's opening, and a read-only check of a
//! store file. It depends on neither tantivy nor usearch, so a privacy officer can build it small
//! and run it on a machine that never held the store.
//!
//! The byte formats live here and the engine uses them, so there is one implementation of each:
//! events ([`event`]), checkpoints ([`checkpoint`]), depth ([`depth`]), commitments
//! ([`commitment`]), canonical JSON ([`canonical`]), receipts and openings ([`receipt`]).

pub mod canonical;
pub mod chain;
pub mod checkpoint;
pub mod commitment;
pub mod depth;
pub mod error;
pub mod event;
pub mod hex;
pub mod meta_value;
pub mod receipt;
pub mod row_digest;
pub mod row_record;
pub mod store_check;
pub mod tables;
pub mod vector;

pub use chain::{ChainReport, verify_chain};
pub use checkpoint::{CHECKPOINT_LEN, Checkpoint, checkpoint_message, genesis_hash};
pub use depth::{Depth, DepthState};
pub use error::{AuditError, Result};
pub use event::{
    EVENT_FORMAT_VERSION, EVENT_FORMAT_VERSION_DIGESTS, Event, EventKind, Hash32, RowDigest,
    Transition, hash_encoded,
};
pub use meta_value::MetaValue;
pub use receipt::{
    CascadeEntry, Coverage, ErasedRow, ErasurePoint, LogPoints, OpenedRow, Opening, ReceiptBody,
    ResidualSummary, SignedReceipt,
};
pub use row_digest::RowFields;

/// A row's identifier.
pub type RowId = u64;
/// Milliseconds since the Unix epoch.
pub type Millis = i64;
