//! The append-only, hash-chained, signed event log.
//!
//! Every state change of a row is one [`Event`]; each event names the hash of the one before it,
//! and each write transaction ends with a [`Checkpoint`] signed by the store's ed25519 key. The
//! byte encoding is specified in `docs/log-format.md` and pinned by golden vectors in tests.

mod checkpoint;
mod event;

pub use checkpoint::{CHECKPOINT_LEN, Checkpoint, checkpoint_message, genesis_hash};
pub use event::{EVENT_FORMAT_VERSION, Event, EventKind, Hash32, Transition, hash_encoded};
