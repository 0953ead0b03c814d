//! Errors of the verification path.

/// Result alias.
pub type Result<T, E = AuditError> = std::result::Result<T, E>;

/// Why a log, receipt or opening failed to verify or could not be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AuditError {
    /// Bytes that do not decode under the specified format.
    #[error("corrupt: {0}")]
    Corrupt(String),
    /// The event log fails verification at `seq`.
    #[error("log verification failed at seq {seq}: {reason}")]
    LogTampered {
        /// First failing sequence number.
        seq: u64,
        /// What failed.
        reason: String,
    },
    /// A document is valid JSON but not in canonical form (so some byte was changed).
    #[error("{0} is not in canonical form")]
    NotCanonical(&'static str),
    /// A signature does not verify under the given public key.
    #[error("signature does not verify: {0}")]
    BadSignature(String),
    /// A check of content, opening or store against the receipt failed.
    #[error("mismatch: {0}")]
    Mismatch(String),
    /// Reading the store file failed.
    #[error("store: {0}")]
    Store(String),
    /// An I/O error.
    #[error("io: {0}")]
    Io(#[from] std::io::Error),
}

impl AuditError {
    /// Exit code for the `oubli-audit` command: 3 for anything that fails verification
    /// (tampered, malformed, mismatched, not covered), 4 when an input cannot be read at all.
    pub fn exit_code(&self) -> i32 {
        match self {
            AuditError::Store(_) | AuditError::Io(_) => 4,
            _ => 3,
        }
    }
}
