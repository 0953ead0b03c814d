//! The Adapter Protocol: how the bank drives a memory store.
//!
//! Six methods come from ForgetEval's protocol: three mandatory recall-plane methods
//! ([`Adapter::reset`], [`Adapter::inscribe`], [`Adapter::recall_texts`]) and three optional
//! control-plane methods ([`Adapter::supersede`], [`Adapter::release`], [`Adapter::purge`]).
//! An optional method that a store cannot provide returns [`AdapterError::NotProvided`]; the
//! runner scores the case N/A, apart from "implemented and failed".
//!
//! Scenarios need more than the six methods (keys, metadata, clocks, listing). Those are
//! the extension methods below, all optional with the same N/A rule.

use std::collections::BTreeMap;

use crate::case::Row;

/// Identifier a store gives an inscribed row.
pub type RowId = u64;

/// Why an adapter call did not produce a result.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AdapterError {
    /// The store does not provide this method, by any composition of its API (scored N/A).
    #[error("{0} is not provided by this store")]
    NotProvided(&'static str),
    /// The store failed (scored as a failure, with this message as the reason).
    #[error("store error: {0}")]
    Store(String),
}

/// What a scenario's control step targets, with labels already resolved to row ids.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// Rows named by a query.
    Query(String),
    /// The row holding a natural key in a namespace.
    Key {
        /// Namespace.
        namespace: String,
        /// Natural key.
        key: String,
    },
    /// One row by id.
    Id(RowId),
}

/// A filtered recall (scenario extension).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecallRequest {
    /// Query text.
    pub query: String,
    /// Number of results.
    pub k: usize,
    /// Restrict to one namespace.
    pub namespace: Option<String>,
    /// Restrict to rows whose metadata holds every pair.
    pub meta: BTreeMap<String, String>,
}

/// A listing of live rows (scenario extension).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ListRequest {
    /// Restrict to one namespace.
    pub namespace: Option<String>,
    /// Restrict to rows whose metadata holds every pair.
    pub meta: BTreeMap<String, String>,
}

/// Namespace used when a row or request names none.
pub const DEFAULT_NAMESPACE: &str = "default";

/// A memory store under test.
pub trait Adapter {
    /// Short name used in reports (`oubli`, `baseline`).
    fn name(&self) -> &str;

    /// Start over with a fresh, empty store.
    fn reset(&mut self) -> Result<(), AdapterError>;

    /// Store a fact; returns its id.
    fn inscribe(&mut self, text: &str) -> Result<RowId, AdapterError>;

    /// The texts of the top `k` rows for `query`, best first.
    fn recall_texts(&mut self, query: &str, k: usize) -> Result<Vec<String>, AdapterError>;

    /// Replace what `old_q` targets by `new`; returns how many rows were replaced.
    fn supersede(&mut self, old_q: &str, new: &str) -> Result<usize, AdapterError> {
        let _ = (old_q, new);
        Err(AdapterError::NotProvided("supersede"))
    }

    /// Soft-forget what `q` targets; returns how many rows were released.
    fn release(&mut self, q: &str) -> Result<usize, AdapterError> {
        let _ = q;
        Err(AdapterError::NotProvided("release"))
    }

    /// Hard-erase what `q` targets; returns how many rows were erased.
    fn purge(&mut self, q: &str) -> Result<usize, AdapterError> {
        let _ = q;
        Err(AdapterError::NotProvided("purge"))
    }

    /// Extension: store many facts in order; returns their ids. The default inscribes them one
    /// by one; a store with a batch write overrides it. The scale suite loads its irrelevant
    /// sessions through this.
    fn inscribe_batch(&mut self, texts: &[String]) -> Result<Vec<RowId>, AdapterError> {
        texts.iter().map(|t| self.inscribe(t)).collect()
    }

    /// Extension: store a row with namespace, key and metadata.
    fn inscribe_row(&mut self, row: &Row) -> Result<RowId, AdapterError> {
        let _ = row;
        Err(AdapterError::NotProvided("inscribe_row"))
    }

    /// Extension: recall with namespace and metadata filters.
    fn recall_filtered(&mut self, request: &RecallRequest) -> Result<Vec<String>, AdapterError> {
        let _ = request;
        Err(AdapterError::NotProvided("recall_filtered"))
    }

    /// Extension: supersede a target by id, key or query; returns rows replaced.
    fn supersede_target(&mut self, target: &Target, new: &Row) -> Result<usize, AdapterError> {
        let _ = (target, new);
        Err(AdapterError::NotProvided("supersede_target"))
    }

    /// Extension: release a target by id, key or query; returns rows released.
    fn release_target(&mut self, target: &Target) -> Result<usize, AdapterError> {
        let _ = target;
        Err(AdapterError::NotProvided("release_target"))
    }

    /// Extension: purge a target by id, key or query; returns rows erased.
    fn purge_target(&mut self, target: &Target) -> Result<usize, AdapterError> {
        let _ = target;
        Err(AdapterError::NotProvided("purge_target"))
    }

    /// Extension: texts of the live rows matching the filters, in id order.
    fn list_texts(&mut self, request: &ListRequest) -> Result<Vec<String>, AdapterError> {
        let _ = request;
        Err(AdapterError::NotProvided("list_texts"))
    }

    /// Extension: advance the store's clock by `seconds`.
    fn advance_clock(&mut self, seconds: u64) -> Result<(), AdapterError> {
        let _ = seconds;
        Err(AdapterError::NotProvided("advance_clock"))
    }
}
