//! The hook a replication layer fills around each tenant's store: the options a store is
//! opened with (its signing key), what happens once it is open and before it closes (start and
//! stop a replicator), and when a write counts as done (its frames acknowledged by the
//! replication stream).
//!
//! The default, [`LocalOnly`], replicates nothing: a write is done once the store committed
//! it. With feature `cluster`, `oubli::cluster::replicated::Replicated` publishes every frame
//! to NATS JetStream and answers a write only once the stream acknowledged it.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use super::error::ApiError;
use super::tenant::TenantId;
use crate::{Store, StoreOptions};

/// The future a [`Replication`] hook answers with.
pub type HookFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// How a write was confirmed by [`Replication::committed`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Committed {
    /// Whether a replication layer confirmed it (then the server checks once more that it
    /// still holds the tenant before answering: a write confirmed by a node that lost the
    /// tenant meanwhile is answered as unknown).
    pub replicated: bool,
    /// For a purge: which copies the erasure reached, added to the answer as `replication`.
    pub report: Option<serde_json::Value>,
}

/// What a replication layer does around a tenant's store. Every method has a default that
/// does nothing, which is [`LocalOnly`].
pub trait Replication: Send + Sync + 'static {
    /// The options `tenant`'s store is opened (or created) with; `base` is the server's.
    fn store_options(
        &self,
        _tenant: &TenantId,
        base: &StoreOptions,
    ) -> Result<StoreOptions, ApiError> {
        Ok(base.clone())
    }

    /// Called once `tenant`'s store is open, before any request uses it, holding the tenant's
    /// lock. An error closes the store again and answers the request with it.
    fn opened<'a>(
        &'a self,
        _tenant: &'a TenantId,
        _store: &'a Arc<Store>,
    ) -> HookFuture<'a, Result<(), ApiError>> {
        Box::pin(async { Ok(()) })
    }

    /// Called before `tenant`'s store is closed (idle, evicted, released or at shutdown),
    /// holding the tenant's lock.
    fn closing<'a>(&'a self, _tenant: &'a TenantId) -> HookFuture<'a, ()> {
        Box::pin(async {})
    }

    /// Called after a write committed on `store`, which then stood at `head`; `purge` is the
    /// seq of the purge event the write made, if any. Answers once the write counts as done;
    /// an error is the request's answer instead of its result (the write is committed on this
    /// node: a client treats it as unknown, as a timeout).
    fn committed<'a>(
        &'a self,
        _tenant: &'a TenantId,
        _store: &'a Arc<Store>,
        _head: u64,
        _purge: Option<u64>,
    ) -> HookFuture<'a, Result<Committed, ApiError>> {
        Box::pin(async { Ok(Committed::default()) })
    }
}

/// No replication: a write is done once the store committed it.
#[derive(Clone, Copy, Debug, Default)]
pub struct LocalOnly;

impl Replication for LocalOnly {}
