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

impl Shared {
    fn key(&self, tenant: &TenantId) -> String {
        format!("{}{tenant}", self.prefix)
    }

    /// The decision when no etcd call is needed; `None` when the tenant must be acquired.
    fn decide_locally(&self, tenant: &TenantId) -> Option<Decision> {
        let lease = {
            let state = self.state.lock();
            if !state.lease.valid() {
                return Some(Decision::Unavailable {
                    reason: "this node holds no valid etcd lease".into(),
                });
            }
            if state.mine.contains_key(tenant) {
                return Some(Decision::Serve);
            }
            state.lease
        };
        let owner = self.owners.lock().get(tenant.as_str()).cloned()?;
        if owner.record == self.node && owner.lease == lease.id {
            // Attached to this node's lease but not taken over (another request of this node
            // is taking it over, or an acquisition's answer was lost): the acquisition path
            // adopts it, one request at a time.
            return None;
        }
        Some(self.decide_for_owner(&owner, lease.id))
    }

    /// The decision when `owner` holds the tenant's key and this node has not acquired it.
    fn decide_for_owner(&self, owner: &Owner, my_lease: i64) -> Decision {
        if owner.record.node != self.node.node {
            Decision::Redirect {
                location: owner.record.url.clone(),
            }
        } else if owner.lease == my_lease {
            // Ours, being taken over or given back by another request of this node.
            Decision::Unavailable {
                reason: "this node is taking it over".into(),
            }
        } else {
            // Held under an earlier lease of this node (a restart within the old lease's TTL,
            // or a lease lost and replaced): it frees itself when that lease ends.
            Decision::Unavailable {
                reason: "held under an earlier lease of this node until that lease ends".into(),
            }
        }
    }

    /// Acquires `tenant` (nobody owned it as far as the cache knew).
    async fn acquire(self: &Arc<Self>, tenant: &TenantId) -> Decision {
        let gate = Arc::clone(self.acquiring.lock().entry(tenant.clone()).or_default());
        let decision = {
            let _turn = gate.lock().await;
            // Another request may have acquired it while this one waited.
            match self.decide_locally(tenant) {
                Some(d) => d,
                None => self.acquire_now(tenant).await,
            }
        };
        let mut acquiring = self.acquiring.lock();
        if Arc::strong_count(&gate) == 2 {
            acquiring.remove(tenant);
        }
        decision
    }

    async fn acquire_now(self: &Arc<Self>, tenant: &TenantId) -> Decision {
        let lease = self.state.lock().lease;
        let key = self.key(tenant);
        let value = match serde_json::to_vec(&self.node) {
            Ok(v) => v,
            Err(e) => {
                return Decision::Unavailable {
                    reason: format!("cannot encode the owner record: {e}"),
                };
            }
        };
        let txn = Txn::new()
            .when([Compare::create_revision(key.clone(), CompareOp::Equal, 0)])
            .and_then([TxnOp::put(
                key.clone(),
                value,
                Some(PutOptions::new().with_lease(lease.id)),
            )])
            .or_else([TxnOp::get(key.clone(), None)]);
        let mut client = self.client.clone();
        let resp = match timed(client.txn(txn)).await {
            Ok(r) => r,
            Err(e) => {
                return Decision::Unavailable {
                    reason: format!("cannot acquire it: {e}"),
                };
            }
        };
        let mut revision = resp.header().map_or(0, |h| h.revision());
        if !resp.succeeded() {
            let owner = resp.op_responses().into_iter().find_map(|r| match r {
                TxnOpResponse::Get(g) => g
                    .kvs()
                    .first()
                    .and_then(|kv| Some((parse_owner(kv)?, kv.create_revision()))),
                _ => None,
            });
            match owner {
                // Already attached to this node's lease (an earlier acquisition whose answer
                // was lost, or whose hook failed and whose key could not be given back):
                // adopt it.
                Some((o, created)) if o.record == self.node && o.lease == lease.id => {
                    revision = created;
                }
                Some((o, _)) => {
                    self.owners
                        .lock()
                        .insert(tenant.as_str().to_owned(), o.clone());
                    return self.decide_for_owner(&o, lease.id);
                }
                // Deleted between the compare and the get (its owner's lease just expired).
                None => {
                    return Decision::Unavailable {
                        reason: "its owner is changing".into(),
                    };
                }
            }
        }
        self.owners.lock().insert(
            tenant.as_str().to_owned(),
            Owner {
                record: self.node.clone(),
                lease: lease.id,
            },
        );
        let hook = Arc::clone(&self.takeover);
        let t = tenant.clone();
        let hooked =
            tokio::task::spawn_blocking(move || hook.on_acquire(&t).map_err(|e| e.to_string()))
                .await
                .unwrap_or_else(|e| Err(format!("the hook did not finish: {e}")));
        if let Err(e) = hooked {
            tracing::warn!(tenant = %tenant, error = %e, "on_acquire failed; giving the tenant back");
            self.give_back(tenant, lease.id).await;
            return Decision::Unavailable {
                reason: format!("taking it over failed: {e}"),
            };
        }
        // The lease may have been lost while the hook ran: then the key is gone or going.
        let mut state = self.state.lock();
        if state.lease.valid() && state.lease.id == lease.id {
            state.mine.insert(tenant.clone(), revision);
            tracing::info!(tenant = %tenant, node = %self.node.node, "tenant acquired");
            Decision::Serve
        } else {
            Decision::Unavailable {
                reason: "this node lost its lease while taking it over".into(),
            }
        }
    }

    /// Deletes `tenant`'s key if it is still attached to `lease`.
    async fn give_back(&self, tenant: &TenantId, lease: i64) {
        let key = self.key(tenant);
        let txn = Txn::new()
            .when([Compare::lease(key.clone(), CompareOp::Equal, lease)])
            .and_then([TxnOp::delete(key, None)]);
        let mut client = self.client.clone();
        if let Err(e) = timed(client.txn(txn)).await {
            // Not fatal: the key goes with the lease at the latest.
            tracing::warn!(tenant = %tenant, error = %e, "cannot give the tenant back");
        }
    }

    /// Obtains a new lease (at start, and after the previous one was lost).
    async fn grant(&self) -> Result<(), LeaseError> {
        let mut client = self.client.clone();
        let sent = Instant::now();
        let resp = timed(client.lease_grant(self.ttl.as_secs() as i64, None)).await?;
        let ttl = Duration::from_secs(resp.ttl().max(0) as u64);
        let mut state = self.state.lock();
        state.lease = LeaseState {
            id: resp.id(),
            valid_until: sent + ttl - margin(ttl),
            live: true,
        };
        // Tenants of an earlier lease were released when it was lost.
        state.mine.clear();
        drop(state);
        tracing::info!(node = %self.node.node, lease = resp.id(), ?ttl, "lease granted");
        Ok(())
    }

    /// Loads every tenant key into the cache; returns the revision it reflects. Gives up
    /// this node's tenants whose keys are no longer attached to its lease.
    async fn load(self: &Arc<Self>) -> Result<i64, LeaseError> {
        let mut client = self.client.clone();
        let resp =
            timed(client.get(self.prefix.clone(), Some(GetOptions::new().with_prefix()))).await?;
        let revision = resp.header().map_or(0, |h| h.revision());
        let mut owners = HashMap::new();
        for kv in resp.kvs() {
            if let (Some(t), Some(o)) = (self.tenant_of(kv.key()), parse_owner(kv)) {
                owners.insert(t, o);
            }
        }
        // Held tenants whose key this snapshot (newer than their acquisition) no longer shows
        // attached to this node's lease.
        let lost: Vec<TenantId> = {
            let state = self.state.lock();
            state
                .mine
                .iter()
                .filter(|(t, acquired)| {
                    **acquired < revision
                        && owners.get(t.as_str()).is_none_or(|o| {
                            o.lease != state.lease.id || o.record.node != self.node.node
                        })
                })
                .map(|(t, _)| t.clone())
                .collect()
        };
        *self.owners.lock() = owners;
        for t in lost {
            self.release(&t, None).await;
        }
        Ok(revision)
    }

    fn tenant_of(&self, key: &[u8]) -> Option<String> {
        std::str::from_utf8(key)
            .ok()?
            .strip_prefix(&self.prefix)
            .map(str::to_owned)
    }

    /// Keeps the lease alive; on loss, stops serving and obtains a new lease.
    async fn keep_alive_loop(self: Arc<Self>) {
        let interval = (self.ttl / 3).max(Duration::from_millis(300));
        while !self.stopping.load(Ordering::Acquire) {
            let lease = self.state.lock().lease;
            if !lease.valid() {
                self.lose_lease(lease.id).await;
                continue;
            }
            let mut client = self.client.clone();
            // No wait outlasts the lease: at its deadline the loop comes back to the top and
            // stops every tenant.
            let opened = tokio::time::timeout(
                lease.left().min(CALL_TIMEOUT),
                client.lease_keep_alive(lease.id),
            )
            .await;
            let (mut keeper, mut stream) = match opened {
                Ok(Ok(s)) => s,
                _ => {
                    tracing::warn!(lease = lease.id, "keep-alive stream failed; retrying");
                    let pause = RETRY_PAUSE.min(self.state.lock().lease.left());
                    tokio::time::sleep(pause).await;
                    continue;
                }
            };
            loop {
                if self.stopping.load(Ordering::Acquire) {
                    return;
                }
                let sent = Instant::now();
                let answer = async {
                    keeper.keep_alive().await?;
                    stream.message().await
                };
                let wait = interval.min(self.state.lock().lease.left());
                match tokio::time::timeout(wait, answer).await {
                    Ok(Ok(Some(r))) if r.ttl() > 0 => {
                        let ttl = Duration::from_secs(r.ttl() as u64);
                        let mut state = self.state.lock();
                        let l = &mut state.lease;
                        if l.live && l.id == lease.id {
                            l.valid_until = sent + ttl - margin(ttl);
                        }
                    }
                    Ok(Ok(Some(_))) => {
                        // TTL 0: etcd says the lease expired.
                        tracing::warn!(lease = lease.id, "etcd says the lease expired");
                        self.state.lock().lease.live = false;
                        break;
                    }
                    Ok(Ok(None)) | Ok(Err(_)) | Err(_) => {
                        tracing::warn!(lease = lease.id, "keep-alive failed; reconnecting");
                        break;
                    }
                }
                let now = Instant::now();
                let left = self.state.lock().lease.left();
                if left.is_zero() {
                    break;
                }
                tokio::time::sleep((sent + interval).saturating_duration_since(now).min(left))
                    .await;
            }
            let left = self.state.lock().lease.left();
            tokio::time::sleep(RETRY_PAUSE.min(left)).await;
        }
    }

    /// The lease `old` is lost: stop serving every tenant, then get a new lease (retrying
    /// until etcd answers) and revoke the old one, which frees its keys at once if etcd has
    /// not expired it yet.
    async fn lose_lease(self: &Arc<Self>, old: i64) {
        let tenants: Vec<TenantId> = {
            let mut state = self.state.lock();
            state.lease.live = false;
            state.mine.keys().cloned().collect()
        };
        tracing::warn!(lease = old, node = %self.node.node, "lease lost: stopping every tenant");
        for t in tenants {
            self.release(&t, None).await;
        }
        while !self.stopping.load(Ordering::Acquire) {
            match self.grant().await {
                Ok(()) => {
                    let mut client = self.client.clone();
                    let _ = timed(client.lease_revoke(old)).await;
                    return;
                }
                Err(e) => {
                    tracing::warn!(error = %e, "cannot obtain a new lease; retrying");
                    tokio::time::sleep(RETRY_PAUSE).await;
                }
            }
        }
    }

    /// Stops serving `tenant`: out of `mine` (so the fencing check fails from now on), its
    /// store closed, then the on_release hook. With `deleted_at`, only if the tenant was
    /// acquired before that revision (an old key's deletion does not release a new hold).
    async fn release(self: &Arc<Self>, tenant: &TenantId, deleted_at: Option<i64>) {
        {
            let mut state = self.state.lock();
            match state.mine.get(tenant) {
                Some(&acquired) if deleted_at.is_none_or(|d| d > acquired) => {
                    state.mine.remove(tenant);
                }
                _ => return,
            }
        }
        if let Some(registry) = self.registry.get().and_then(Weak::upgrade) {
            registry.close_tenant(tenant).await;
        }
        let hook = Arc::clone(&self.takeover);
        let t = tenant.clone();
        let _ = tokio::task::spawn_blocking(move || hook.on_release(&t)).await;
        tracing::info!(tenant = %tenant, node = %self.node.node, "tenant released");
    }

    /// Follows every change of the tenant keys; reloads everything when the watch breaks.
    async fn watch_loop(self: Arc<Self>, mut revision: i64) {
        while !self.stopping.load(Ordering::Acquire) {
            let mut client = self.client.clone();
            let options = WatchOptions::new()
                .with_prefix()
                .with_start_revision(revision + 1);
            match timed(client.watch(self.prefix.clone(), Some(options))).await {
                Ok(mut stream) => loop {
                    match stream.message().await {
                        Ok(Some(resp)) if !resp.canceled() => {
                            for ev in resp.events() {
                                self.apply(ev).await;
                            }
                        }
                        _ => break,
                    }
                },
                Err(e) => tracing::warn!(error = %e, "watch failed; reloading"),
            }
            if self.stopping.load(Ordering::Acquire) {
                return;
            }
            tokio::time::sleep(RETRY_PAUSE).await;
            match self.load().await {
                Ok(r) => revision = r,
                Err(e) => tracing::warn!(error = %e, "cannot reload the placement"),
            }
        }
    }

    async fn apply(self: &Arc<Self>, ev: &etcd_client::Event) {
        let Some(kv) = ev.kv() else { return };
        let Some(t) = self.tenant_of(kv.key()) else {
            return;
        };
        match ev.event_type() {
            EventType::Put => {
                if let Some(o) = parse_owner(kv) {
                    self.owners.lock().insert(t, o);
                }
            }
            EventType::Delete => {
                self.owners.lock().remove(&t);
                if let Ok(id) = TenantId::parse(&t) {
                    // Our key vanished: our lease expired in etcd, or someone deleted it.
                    self.release(&id, Some(kv.mod_revision())).await;
                }
            }
        }
    }

    /// Graceful stop (stores already closed): give every tenant up and revoke the lease, so
    /// that other nodes take them at once instead of after the TTL.
    async fn resign(self: &Arc<Self>) {
        self.stopping.store(true, Ordering::Release);
        let (id, live, tenants) = {
            let mut state = self.state.lock();
            let r = (state.lease.id, state.lease.live);
            state.lease.live = false;
            (r.0, r.1, state.mine.keys().cloned().collect::<Vec<_>>())
        };
        for t in tenants {
            self.release(&t, None).await;
        }
        if live {
            let mut client = self.client.clone();
            if let Err(e) = timed(client.lease_revoke(id)).await {
                tracing::warn!(error = %e, "cannot revoke the lease; it expires by itself");
            }
        }
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
