//! Single-writer leases and tenant placement in etcd.
//!
//! Each node (an `oubli serve` process: an id and the URL other nodes and clients reach it
//! at) keeps one etcd lease alive. Tenant `T` belongs to the node whose lease holds the key
//! `/oubli/<cluster>/tenants/T` (value: the owner's id and URL). The key is created by a
//! transaction "create if absent", attached to the creator's lease, so at most one node holds
//! it; when a node dies its lease expires and etcd deletes its keys, and the next request for
//! one of its tenants, to any node, acquires it.
//!
//! [`EtcdPlacement`] is the server's [`Placement`]:
//!
//! - **Serve** a tenant this node acquired under its current lease (the set `mine`);
//! - **Redirect** (307) to the owner's URL when another node holds the key;
//! - **acquire** when nobody holds it: the transaction, then the [`Takeover::on_acquire`] hook
//!   (a restore of the tenant's data, later), then Serve; or Redirect to the winner of a race;
//! - **Unavailable** (503, retry) while this node holds no valid lease, or etcd cannot be
//!   reached for an acquisition.
//!
//! Decisions come from local state: `mine`, and a cache of every tenant key kept by an etcd
//! watch on the prefix; a request waits on etcd only to acquire a tenant nobody owns. Only
//! `mine` decides Serve, and a tenant enters `mine` only through this node's own successful
//! transaction, so a stale cache can cause a wrong redirect (the client is sent on and comes
//! back), never a second writer.
//!
//! The lease is kept on a runtime of its own (two threads), so that a server saturated with
//! requests cannot delay its keep-alives. Locally the lease is valid until the time the last
//! acknowledged keep-alive was *sent* plus its TTL, less a safety margin: etcd cannot expire
//! it earlier than that. At that deadline the node stops: [`Placement::may_write`] (checked
//! before every store call and every store open) turns false at once, and the keep-alive task
//! closes the stores of every tenant it held and calls [`Takeover::on_release`]. It then asks
//! for a new lease and acquires tenants again on demand. `docs/scale-out.md` has the failure
//! model and the limits of this fencing.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock, Weak};
use std::time::{Duration, Instant};

use etcd_client::{
    Client, Compare, CompareOp, ConnectOptions, EventType, GetOptions, PutOptions, Txn, TxnOp,
    TxnOpResponse, WatchOptions,
};
use parking_lot::Mutex;
use serde::{Deserialize, Serialize};
use tokio::sync::Mutex as AsyncMutex;

use crate::serve::{Decision, PlaceFuture, Placement, Registry, ShutdownFuture, TenantId};

mod acquire;
mod keep_alive;

/// Default lease time to live (`--lease-ttl-secs`).
pub const DEFAULT_LEASE_TTL: Duration = Duration::from_secs(5);

/// Default cluster name (`--cluster`): the keys live under `/oubli/default/`.
pub const DEFAULT_CLUSTER: &str = "default";

/// Shortest lease TTL accepted (etcd's own minimum is a few seconds; shorter ones are
/// rounded up by etcd, which the local deadline follows).
pub const MIN_LEASE_TTL: Duration = Duration::from_secs(1);

/// How long one etcd call may take before it counts as failed.
const CALL_TIMEOUT: Duration = Duration::from_secs(2);

/// Pause between attempts after an etcd call failed.
const RETRY_PAUSE: Duration = Duration::from_millis(200);

/// Why a cluster node could not start or act.
#[derive(Debug, thiserror::Error)]
pub enum LeaseError {
    /// A setting is unusable (empty endpoint list, bad node id, URL or TTL).
    #[error("invalid cluster setting: {0}")]
    Config(String),
    /// etcd refused a call or could not be reached.
    #[error("etcd: {0}")]
    Etcd(String),
    /// The node's own runtime could not be built.
    #[error("cluster runtime: {0}")]
    Runtime(#[from] std::io::Error),
}

impl From<etcd_client::Error> for LeaseError {
    fn from(e: etcd_client::Error) -> LeaseError {
        LeaseError::Etcd(e.to_string())
    }
}

impl From<LeaseError> for crate::Error {
    fn from(e: LeaseError) -> crate::Error {
        match e {
            LeaseError::Config(m) => crate::Error::InvalidArgument(m),
            LeaseError::Runtime(io) => crate::Error::Io(io),
            e @ LeaseError::Etcd(_) => crate::Error::Io(std::io::Error::other(e.to_string())),
        }
    }
}

/// The error a [`Takeover`] hook reports.
pub type HookError = Box<dyn std::error::Error + Send + Sync>;

/// What a node does when it takes or gives up a tenant: the hook a data mover (a restore
/// from the replication stream into the data directory) plugs into. Both calls run on a
/// blocking thread, so they may do file and network I/O.
pub trait Takeover: Send + Sync + 'static {
    /// Called after this node acquired `tenant` and before any request for it is served or its
    /// store is opened. An error gives the tenant up again (its key is deleted) and answers the
    /// request `503 tenant_unavailable`; the next request tries again.
    fn on_acquire(&self, tenant: &TenantId) -> Result<(), HookError>;

    /// Called after this node stopped serving `tenant` (lease lost, key gone, or shutdown)
    /// and closed its store.
    fn on_release(&self, _tenant: &TenantId) {}
}

/// The default [`Takeover`]: nothing to move (every node sees the same data directory, or
/// the data arrives by other means).
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTakeover;

impl Takeover for NoTakeover {
    fn on_acquire(&self, _tenant: &TenantId) -> Result<(), HookError> {
        Ok(())
    }
}

/// How a node joins a cluster.
#[derive(Clone)]
pub struct ClusterConfig {
    /// etcd endpoints (`http://host:port`), all members of one etcd cluster.
    pub endpoints: Vec<String>,
    /// Cluster name: the keys live under `/oubli/<cluster>/`.
    pub cluster: String,
    /// This node's id, unique in the cluster.
    pub node_id: String,
    /// The base URL clients and other nodes reach this node at (redirects point there).
    pub advertise: String,
    /// The lease's time to live: how long a dead node's tenants stay unserved at most.
    pub lease_ttl: Duration,
    /// Called when this node takes or gives up a tenant.
    pub takeover: Arc<dyn Takeover>,
}

impl std::fmt::Debug for ClusterConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClusterConfig")
            .field("endpoints", &self.endpoints)
            .field("cluster", &self.cluster)
            .field("node_id", &self.node_id)
            .field("advertise", &self.advertise)
            .field("lease_ttl", &self.lease_ttl)
            .finish_non_exhaustive()
    }
}

impl ClusterConfig {
    /// A configuration with [`DEFAULT_CLUSTER`], [`DEFAULT_LEASE_TTL`] and [`NoTakeover`].
    pub fn new(
        endpoints: Vec<String>,
        node_id: impl Into<String>,
        advertise: impl Into<String>,
    ) -> ClusterConfig {
        ClusterConfig {
            endpoints,
            cluster: DEFAULT_CLUSTER.to_owned(),
            node_id: node_id.into(),
            advertise: advertise.into(),
            lease_ttl: DEFAULT_LEASE_TTL,
            takeover: Arc::new(NoTakeover),
        }
    }

    fn check(&self) -> Result<(), LeaseError> {
        if self.endpoints.is_empty() || self.endpoints.iter().any(|e| e.trim().is_empty()) {
            return Err(LeaseError::Config(
                "at least one etcd endpoint is needed, none empty".into(),
            ));
        }
        check_name("node id", &self.node_id)?;
        check_name("cluster name", &self.cluster)?;
        if !(self.advertise.starts_with("http://") || self.advertise.starts_with("https://"))
            || self.advertise.len() > 512
            || self
                .advertise
                .chars()
                .any(|c| c.is_whitespace() || c.is_control())
        {
            return Err(LeaseError::Config(format!(
                "advertised URL {:?} must be an http:// or https:// URL",
                self.advertise
            )));
        }
        if self.lease_ttl < MIN_LEASE_TTL || self.lease_ttl.as_secs() > 3600 {
            return Err(LeaseError::Config(format!(
                "lease TTL {:?} must be 1 to 3600 seconds",
                self.lease_ttl
            )));
        }
        Ok(())
    }
}

/// Node ids and cluster names: 1 to 64 of `a-z A-Z 0-9 - _ .`, so that they never change the
/// shape of an etcd key.
fn check_name(what: &str, s: &str) -> Result<(), LeaseError> {
    let ok = !s.is_empty()
        && s.len() <= 64
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    if ok {
        Ok(())
    } else {
        Err(LeaseError::Config(format!(
            "{what} {s:?} must be 1 to 64 of a-z, A-Z, 0-9, '-', '_', '.'"
        )))
    }
}

/// The value of a tenant key: who owns it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct OwnerRecord {
    node: String,
    url: String,
}

/// A tenant key as seen in etcd: its owner and the lease it is attached to.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Owner {
    record: OwnerRecord,
    lease: i64,
}

/// The node's lease as known locally.
#[derive(Clone, Copy, Debug)]
struct LeaseState {
    id: i64,
    /// Serving stops at this instant unless a keep-alive moves it on.
    valid_until: Instant,
    /// False from the moment the lease is known or deemed lost until a new one is granted.
    live: bool,
}

/// The node's lease and what it holds.
struct NodeState {
    lease: LeaseState,
    /// The tenants this node acquired under its current lease (and whose on_acquire passed),
    /// each with the etcd revision of its acquisition.
    mine: HashMap<TenantId, i64>,
}

impl NodeState {
    fn serves(&self, tenant: &TenantId) -> bool {
        self.lease.valid() && self.mine.contains_key(tenant)
    }
}

impl LeaseState {
    fn valid(&self) -> bool {
        self.live && Instant::now() < self.valid_until
    }

    /// Time until the local deadline (zero once the lease is not valid).
    fn left(&self) -> Duration {
        if self.live {
            self.valid_until.saturating_duration_since(Instant::now())
        } else {
            Duration::ZERO
        }
    }
}

/// What the node's tasks and the placement share.
struct Shared {
    client: Client,
    node: OwnerRecord,
    prefix: String,
    ttl: Duration,
    takeover: Arc<dyn Takeover>,
    /// The lease and the tenants held under it, under one lock so that they change together.
    state: Mutex<NodeState>,
    /// Every tenant key of the cluster, from the watch.
    owners: Mutex<HashMap<String, Owner>>,
    /// One acquisition at a time per tenant on this node.
    acquiring: Mutex<HashMap<TenantId, Arc<AsyncMutex<()>>>>,
    registry: OnceLock<Weak<Registry>>,
    stopping: AtomicBool,
}

/// A node of an oubli cluster: the [`Placement`] of `oubli serve --etcd`.
pub struct EtcdPlacement {
    shared: Arc<Shared>,
    handle: tokio::runtime::Handle,
    runtime: Mutex<Option<tokio::runtime::Runtime>>,
}

impl std::fmt::Debug for EtcdPlacement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EtcdPlacement")
            .field("node", &self.shared.node.node)
            .field("url", &self.shared.node.url)
            .field("prefix", &self.shared.prefix)
            .finish_non_exhaustive()
    }
}

/// Runs an etcd call with [`CALL_TIMEOUT`].
async fn timed<T>(
    f: impl std::future::Future<Output = Result<T, etcd_client::Error>>,
) -> Result<T, LeaseError> {
    match tokio::time::timeout(CALL_TIMEOUT, f).await {
        Ok(r) => r.map_err(LeaseError::from),
        Err(_) => Err(LeaseError::Etcd(format!(
            "no answer within {CALL_TIMEOUT:?}"
        ))),
    }
}

impl EtcdPlacement {
    /// Connects to etcd, obtains this node's lease and loads the current placement; starts
    /// the keep-alive and watch tasks on the node's own runtime. Fails if etcd cannot be
    /// reached (or has no quorum) within a few seconds.
    pub fn connect(config: ClusterConfig) -> Result<Arc<EtcdPlacement>, LeaseError> {
        config.check()?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .thread_name("oubli-cluster")
            .build()?;
        let handle = runtime.handle().clone();
        let ttl = config.lease_ttl;
        let shared = runtime.block_on(async {
            let options = ConnectOptions::new()
                .with_connect_timeout(CALL_TIMEOUT)
                // A member cut off from the quorum answers with an error instead of stale
                // data or a watch that never fires.
                .with_require_leader(true)
                .with_keep_alive((ttl / 3).max(Duration::from_millis(500)), CALL_TIMEOUT)
                .with_keep_alive_while_idle(true);
            let client = timed(Client::connect(&config.endpoints, Some(options))).await?;
            let shared = Arc::new(Shared {
                client,
                node: OwnerRecord {
                    node: config.node_id.clone(),
                    url: config.advertise.trim_end_matches('/').to_owned(),
                },
                prefix: format!("/oubli/{}/tenants/", config.cluster),
                ttl,
                takeover: Arc::clone(&config.takeover),
                state: Mutex::new(NodeState {
                    lease: LeaseState {
                        id: 0,
                        valid_until: Instant::now(),
                        live: false,
                    },
                    mine: HashMap::new(),
                }),
                owners: Mutex::new(HashMap::new()),
                acquiring: Mutex::new(HashMap::new()),
                registry: OnceLock::new(),
                stopping: AtomicBool::new(false),
            });
            shared.grant().await?;
            let revision = shared.load().await?;
            Ok::<_, LeaseError>((shared, revision))
        });
        let (shared, revision) = match shared {
            Ok(s) => s,
            Err(e) => {
                runtime.shutdown_background();
                return Err(e);
            }
        };
        handle.spawn(Arc::clone(&shared).keep_alive_loop());
        handle.spawn(Arc::clone(&shared).watch_loop(revision));
        Ok(Arc::new(EtcdPlacement {
            shared,
            handle,
            runtime: Mutex::new(Some(runtime)),
        }))
    }

    /// This node's id.
    pub fn node_id(&self) -> &str {
        &self.shared.node.node
    }

    /// The tenants this node serves now (acquired under its current lease).
    pub fn owned(&self) -> Vec<TenantId> {
        let mut v: Vec<TenantId> = self.shared.state.lock().mine.keys().cloned().collect();
        v.sort();
        v
    }

    /// Whether this node holds a valid lease now.
    pub fn has_lease(&self) -> bool {
        self.shared.state.lock().lease.valid()
    }
}

impl Drop for EtcdPlacement {
    fn drop(&mut self) {
        self.shared.stopping.store(true, Ordering::Release);
        if let Some(rt) = self.runtime.lock().take() {
            // Never blocks, so a placement dropped inside another runtime is fine.
            rt.shutdown_background();
        }
    }
}

impl Placement for EtcdPlacement {
    fn place<'a>(&'a self, tenant: &'a TenantId) -> PlaceFuture<'a> {
        Box::pin(async move {
            if let Some(d) = self.shared.decide_locally(tenant) {
                return d;
            }
            // Acquisitions run on the node's runtime, where the etcd client lives; a request
            // that goes away does not cut one short.
            let shared = Arc::clone(&self.shared);
            let t = tenant.clone();
            match self
                .handle
                .spawn(async move { shared.acquire(&t).await })
                .await
            {
                Ok(d) => d,
                Err(e) => Decision::Unavailable {
                    reason: format!("the acquisition failed: {e}"),
                },
            }
        })
    }

    fn may_write(&self, tenant: &TenantId) -> bool {
        self.shared.state.lock().serves(tenant)
    }

    fn attach(&self, registry: Weak<Registry>) {
        let _ = self.shared.registry.set(registry);
    }

    fn shutdown(&self) -> ShutdownFuture<'_> {
        let shared = Arc::clone(&self.shared);
        Box::pin(async move {
            let done = self.handle.spawn(async move { shared.resign().await });
            let _ = done.await;
        })
    }
}

/// The part of a lease's TTL the node gives up to be safe: it stops serving this long before
/// etcd can expire the lease (covers clock-rate differences and a short stall between the
/// fencing check and the write).
fn margin(ttl: Duration) -> Duration {
    ttl / 5
}

fn parse_owner(kv: &etcd_client::KeyValue) -> Option<Owner> {
    let record: OwnerRecord = serde_json::from_slice(kv.value()).ok()?;
    Some(Owner {
        record,
        lease: kv.lease(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_are_checked_before_anything_connects() {
        let ok = ClusterConfig::new(
            vec!["http://127.0.0.1:2379".into()],
            "n1",
            "http://127.0.0.1:8766",
        );
        assert!(ok.check().is_ok());
        let mut c = ok.clone();
        c.endpoints.clear();
        assert!(matches!(c.check(), Err(LeaseError::Config(_))));
        for bad in ["", "a/b", "x y", &"n".repeat(65)] {
            let mut c = ok.clone();
            c.node_id = bad.into();
            assert!(matches!(c.check(), Err(LeaseError::Config(_))), "{bad:?}");
        }
        let mut c = ok.clone();
        c.cluster = "../etc".into();
        assert!(c.check().is_err());
        let mut c = ok.clone();
        c.advertise = "127.0.0.1:8766".into();
        assert!(c.check().is_err());
        let mut c = ok.clone();
        c.lease_ttl = Duration::from_millis(500);
        assert!(c.check().is_err());
    }

    #[test]
    fn an_unreachable_etcd_is_a_typed_error() {
        // A closed loopback port: nothing listens there.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let c = ClusterConfig::new(
            vec![format!("http://127.0.0.1:{port}")],
            "n1",
            "http://127.0.0.1:8766",
        );
        match EtcdPlacement::connect(c) {
            Err(LeaseError::Etcd(_)) => {}
            other => panic!("expected an etcd error, got {other:?}"),
        }
    }
}
