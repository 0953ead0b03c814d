//! # oubli
//!
//! An embedded memory database for AI agents that can forget, provably.
//!
//! One file per store (redb). Rows are short natural-language memories recalled by hybrid
//! search (BM25 from tantivy fused with vector similarity) and forgotten on command: supersede,
//! release, decay, pin, purge. Every state change is one event in an append-only, hash-chained
//! (blake3), signed (ed25519) log.
//!
//! ```no_run
//! use oubli::{Inscription, RecallQuery, Store, Target};
//!
//! # fn main() -> oubli::Result<()> {
//! let store = Store::create("agent.oubli")?;
//! store.inscribe(Inscription::new("Ana's door code is 4417").namespace("user:ana"))?;
//! store.supersede(Target::query("Ana's door code"), Inscription::new("Ana's door code is 9051"))?;
//! let hits = store.recall(&RecallQuery::new("door code").namespace("user:ana"))?;
//! assert!(hits[0].row.text.as_deref().unwrap().contains("9051"));
//! store.purge(Target::query("Ana's door code"))?; // erases both versions, scrubs the file
//! store.verify_log(None)?;
//! # Ok(()) }
//! ```
//!
//! See `docs/` for the file format, the log encoding and the depth semantics.

#[cfg(feature = "cli")]
pub mod cli;
pub mod clock;
#[cfg(feature = "cluster")]
pub mod cluster;
pub mod derive;
pub mod embed;
pub mod entropy;
pub mod error;
pub mod index;
pub mod metadata;
pub mod namespace;
pub mod options;
mod parallel;
pub mod planner;
pub mod replication;
pub mod row;
#[cfg(feature = "cli")]
pub mod serve;
pub mod storage;
mod store;

/// The language layer (crate `oubli-lang`): canonicalizer, tokens, clauses, lexicons.
pub use oubli_lang::{
    canon, case_suffix, clause, concepts, derivation, function_words, latin_function_words,
    lexicon, spelling, text,
};

/// The depth scalar. Defined in `oubli-audit`, which verifiers build without the engine.
pub use oubli_audit::depth;

/// The event log's byte formats and chain verification (defined in `oubli-audit`).
pub mod log {
    pub use oubli_audit::chain::{ChainReport, verify_chain};
    pub use oubli_audit::checkpoint::{
        CHECKPOINT_LEN, Checkpoint, checkpoint_message, genesis_hash,
    };
    pub use oubli_audit::event::{
        EVENT_FORMAT_VERSION, EVENT_FORMAT_VERSION_DIGESTS, Event, EventKind, Hash32, RowDigest,
        Transition, hash_encoded,
    };
    pub use oubli_audit::row_digest::RowFields;
}

/// The residual audit's probe generation and hit classification, for tools and fuzzing.
pub mod residual {
    pub use crate::store::{classify, probes};
}

/// Receipts, openings, commitments and offline verification: the `oubli-audit` crate.
pub use oubli_audit as audit;

pub use clock::{Clock, ManualClock, SystemClock};
pub use depth::{Depth, DepthState};
pub use derive::{Decimal, Derivation, Provenance, SourceRef};
pub use embed::{Embedder, HashEmbedder, StaticEmbedder};
pub use error::{Error, Result};
pub use log::{Event, EventKind, Transition};
pub use metadata::{
    Condition, Filter, MetaValue, Metadata, Op, Scalar, metadata_from_json, metadata_to_json,
};
pub use options::StoreOptions;
pub use row::{DEFAULT_NAMESPACE, Inscription, Kind, MAX_TEXT_BYTES, Millis, Row, RowId};
pub use store::{
    AliasGroup, AliasKind, AsOf, AuditRequest, CANONICALIZER_VERSION, CONTROL_MAX_ROWS,
    Certificate, Check, CheckStatus, CompactOptions, CompactScope, Confidence, DEFAULT_QUERY_K,
    DecayPolicy, DerivedCheck, DerivedRow, Explain, Finding, GroupCommitStats, History, Hit,
    HitClass, INCOMPLETE_MARK, Legs, LineKind, ListQuery, LogReport, MAX_LISTED_DROPPED,
    NOTE_HEADER, Note, NoteLine, NoteReplay, Operation, Plan, PurgeReport, RecallQuery, Rejected,
    RepairReport, ResidualAudit, SpaceReport, Store, Superseded, SweepReport, TableSpace, Target,
    TargetMatch, VectorGraphStatus, VectorProbe,
};
pub use store::{DEFAULT_MIN_SCORE, LEXICAL_WEIGHT, SUGGESTED_MIN_SCORE};

/// Version of this engine, recorded in receipts.
pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");
