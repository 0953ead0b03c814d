//! The one error type every public call returns.

use std::path::PathBuf;

/// Result alias used throughout the crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong in a call into the store.
///
/// Variants for bad input name the input; a call that returns one of them changed nothing.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Text was empty or only whitespace.
    #[error("text is empty")]
    EmptyText,
    /// Text is larger than [`crate::MAX_TEXT_BYTES`].
    #[error("text is {len} bytes, over the limit of {max} bytes")]
    TextTooLarge {
        /// Length of the rejected text in bytes.
        len: usize,
        /// The limit.
        max: usize,
    },
    /// A key, namespace or metadata entry is malformed (empty, too long, control characters).
    #[error("invalid {what}: {reason}")]
    InvalidField {
        /// Which field.
        what: &'static str,
        /// Why it was rejected.
        reason: String,
    },
    /// A vector's length differs from the store's embedding dimension.
    #[error("vector has {got} dimensions, the store uses {expected}")]
    DimensionMismatch {
        /// The store's dimension.
        expected: usize,
        /// The vector's length.
        got: usize,
    },
    /// A vector holds NaN or an infinity, or is all zeros.
    #[error("vector is not usable: {0}")]
    InvalidVector(&'static str),
    /// An argument is out of range or inconsistent.
    #[error("invalid argument: {0}")]
    InvalidArgument(String),
    /// No row has this id.
    #[error("no row with id {0}")]
    UnknownRow(u64),
    /// No live row carries this key in this namespace.
    #[error("no live row with key {key:?} in namespace {namespace:?}")]
    UnknownKey {
        /// Namespace searched.
        namespace: String,
        /// Key searched.
        key: String,
    },
    /// A live row in this namespace already carries this key.
    #[error("key {key:?} is already held by live row {holder} in namespace {namespace:?}")]
    DuplicateKey {
        /// Namespace.
        namespace: String,
        /// The contested key.
        key: String,
        /// The live row that holds it.
        holder: u64,
    },
    /// A query target matched no row, or no row whose evidence covers the request (every
    /// subject it names, and its attribute): nothing was changed. Carries the nearest
    /// candidates, so a caller can see what the request came close to.
    #[error("{0}")]
    NoMatch(NoMatch),
    /// The row was purged: void is absorbing, nothing brings it back.
    #[error("row {0} was purged")]
    Purged(u64),
    /// The transition is not allowed from the row's current depth.
    #[error("row {id}: cannot {op} a row that is {state}")]
    InvalidTransition {
        /// Row id.
        id: u64,
        /// The attempted operation.
        op: &'static str,
        /// The row's current state.
        state: &'static str,
    },
    /// The store was opened read-only.
    #[error("the store is open read-only")]
    ReadOnly,
    /// The store was closed.
    #[error("the store is closed")]
    Closed,
    /// Another handle or process holds the store for writing.
    #[error("the store at {0} is already open for writing elsewhere")]
    Locked(PathBuf),
    /// A store already exists where `create` was asked to make one.
    #[error("a file already exists at {0}")]
    AlreadyExists(PathBuf),
    /// No store exists at the path given to `open`.
    #[error("no store at {0}")]
    NotFound(PathBuf),
    /// The file is not an oubli store, or its content fails a check.
    #[error("corrupt store: {0}")]
    Corrupt(String),
    /// The store was written by an incompatible format version.
    #[error("unsupported format version {found} (this build reads {supported})")]
    UnsupportedVersion {
        /// Version found in the file.
        found: u32,
        /// Version this build reads.
        supported: u32,
    },
    /// The embedder differs from the one the store was created with.
    #[error("embedder mismatch: store uses {stored:?}, caller supplied {given:?}")]
    EmbedderMismatch {
        /// Embedder id recorded in the store.
        stored: String,
        /// Embedder id supplied.
        given: String,
    },
    /// The signing key supplied does not match the store's public key.
    #[error("signing key does not match the store's public key")]
    KeyMismatch,
    /// The event log fails verification.
    #[error("log verification failed at seq {seq}: {reason}")]
    LogTampered {
        /// First sequence number at which verification failed.
        seq: u64,
        /// What failed.
        reason: String,
    },
    /// An error from the embedded key-value engine.
    #[error("storage: {0}")]
    Storage(String),
    /// An error from the text index.
    #[error("text index: {0}")]
    TextIndex(String),
    /// An error from the vector index.
    #[error("vector index: {0}")]
    VectorIndex(String),
    /// An embedder failed.
    #[error("embedder: {0}")]
    Embedder(String),
    /// A registered derivation cannot be evaluated (missing or non-numeric metadata, a source
    /// that is gone, overflow), or a row has no derivation to recompute.
    #[error("derivation: {0}")]
    Derivation(String),
    /// A compaction budget cannot hold even the note's header and completeness mark.
    #[error("a note needs at least {needed} bytes, the budget is {budget}")]
    BudgetTooSmall {
        /// The budget given, in bytes.
        budget: usize,
        /// The smallest budget that holds the header.
        needed: usize,
    },
    /// Strict compaction refused: the budget cannot keep every answer-determining source.
    #[error("strict compaction refused: only {kept} of {total} answer-determining sources fit")]
    IncompleteNote {
        /// Answer-determining sources that fit.
        kept: usize,
        /// Answer-determining sources in scope.
        total: usize,
        /// The ones that did not fit.
        dropped: Vec<u64>,
    },
    /// A purge committed, but a file its caller asked for could not be written. The erasure
    /// stands: the receipt is stored in the store (`oubli receipt`), and an opening that was not
    /// delivered stays pending in it (`oubli receipt --opening-out`, [`crate::Store::take_opening`]).
    #[error(
        "purge {purge_id} committed, but its {what} could not be written to {}: {reason}",
        path.display()
    )]
    NotDelivered {
        /// The purge id.
        purge_id: u64,
        /// `receipt` or `opening`.
        what: &'static str,
        /// The file that could not be written.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// A replication frame was refused, or a feed request could not be served (see
    /// [`crate::replication`]).
    #[error("replication: {0}")]
    Replication(crate::replication::ReplicationError),
    /// An operating-system I/O error.
    #[error("io: {0}")]
    Io(#[from] std::io::Error),
}

/// What a query target that acted on nothing came closest to (the payload of
/// [`Error::NoMatch`]).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct NoMatch {
    /// The target as given ("Priya's phone number", "row 7").
    pub query: String,
    /// The nearest candidate rows and why each was not acted on, best first (at most
    /// [`NoMatch::MAX_CANDIDATES`]).
    pub candidates: Vec<crate::Rejected>,
}

impl NoMatch {
    /// Most candidates a no-match carries.
    pub const MAX_CANDIDATES: usize = 8;

    /// A no-match for `query` with no candidates.
    pub fn new(query: impl Into<String>) -> NoMatch {
        NoMatch {
            query: query.into(),
            candidates: Vec::new(),
        }
    }
}

impl std::fmt::Display for NoMatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "no live row matches {:?}", self.query)?;
        if !self.candidates.is_empty() {
            let near: Vec<String> = self
                .candidates
                .iter()
                .map(|c| format!("#{} ({})", c.id, c.reason))
                .collect();
            write!(f, "; nearest: {}", near.join(", "))?;
        }
        Ok(())
    }
}

impl Error {
    /// A stable, machine-readable name for the kind of error (`"no_match"`, `"locked"`, ...),
    /// for JSON output and protocol clients. Names never change once released.
    pub fn code(&self) -> &'static str {
        match self {
            Error::EmptyText => "empty_text",
            Error::TextTooLarge { .. } => "text_too_large",
            Error::InvalidField { .. } => "invalid_field",
            Error::DimensionMismatch { .. } => "dimension_mismatch",
            Error::InvalidVector(_) => "invalid_vector",
            Error::InvalidArgument(_) => "invalid_argument",
            Error::UnknownRow(_) => "unknown_row",
            Error::UnknownKey { .. } => "unknown_key",
            Error::DuplicateKey { .. } => "duplicate_key",
            Error::NoMatch(_) => "no_match",
            Error::Purged(_) => "purged",
            Error::InvalidTransition { .. } => "invalid_transition",
            Error::ReadOnly => "read_only",
            Error::Closed => "closed",
            Error::Locked(_) => "locked",
            Error::AlreadyExists(_) => "already_exists",
            Error::NotFound(_) => "not_found",
            Error::Corrupt(_) => "corrupt",
            Error::UnsupportedVersion { .. } => "unsupported_version",
            Error::EmbedderMismatch { .. } => "embedder_mismatch",
            Error::KeyMismatch => "key_mismatch",
            Error::Replication(_) => "replication",
            Error::LogTampered { .. } => "log_tampered",
            Error::Storage(_) => "storage",
            Error::TextIndex(_) => "text_index",
            Error::VectorIndex(_) => "vector_index",
            Error::Embedder(_) => "embedder",
            Error::Derivation(_) => "derivation",
            Error::BudgetTooSmall { .. } => "budget_too_small",
            Error::IncompleteNote { .. } => "incomplete_note",
            Error::NotDelivered { .. } => "not_delivered",
            Error::Io(_) => "io",
        }
    }
}

macro_rules! storage_from {
    ($($t:ty),*) => {$(
        impl From<$t> for Error {
            fn from(e: $t) -> Self {
                Error::Storage(e.to_string())
            }
        }
    )*};
}
storage_from!(
    redb::Error,
    redb::TransactionError,
    redb::TableError,
    redb::StorageError,
    redb::CommitError,
    redb::CompactionError,
    redb::SetDurabilityError
);

impl From<oubli_audit::AuditError> for Error {
    fn from(e: oubli_audit::AuditError) -> Self {
        use oubli_audit::AuditError as A;
        match e {
            A::LogTampered { seq, reason } => Error::LogTampered { seq, reason },
            A::Io(io) => Error::Io(io),
            A::Corrupt(m) => Error::Corrupt(m),
            other => Error::Corrupt(other.to_string()),
        }
    }
}

impl From<tantivy::TantivyError> for Error {
    fn from(e: tantivy::TantivyError) -> Self {
        Error::TextIndex(e.to_string())
    }
}
