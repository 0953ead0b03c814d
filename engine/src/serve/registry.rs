//! The tenant registry: which tenants' stores are open, opening them on first use, closing idle
//! ones, and keeping at most `max_open` open (least recently used closed first, never one with
//! a request in flight).
//!
//! Each known tenant has an entry: an async lock around its open store (or none), a count of
//! requests in flight and the time of last use. A request takes a [`Lease`]: it counts as in
//! flight from before it waits for the store until the store call it carries has returned, so
//! neither eviction nor the idle sweep can close a store under it. Opening and closing run on
//! the blocking pool while holding only that tenant's lock, so a slow open (or a slow purge) of
//! one tenant never stalls another's requests.
//!
//! Before a tenant is served, the [`Placement`] hook decides whether this server serves it at
//! all; with feature `cluster`, `oubli::cluster::lease::EtcdPlacement` answers from its etcd
//! leases (serve, redirect to the owner, or unavailable while it holds no lease), and its
//! fencing check ([`Placement::may_write`]) runs again right before every store call.

use std::collections::HashMap;
use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

use parking_lot::Mutex;
use tokio::sync::{Mutex as AsyncMutex, OwnedMutexGuard};

use super::error::ApiError;
use super::replication::{LocalOnly, Replication};
use super::tenant::TenantId;
use crate::{Store, StoreOptions};

/// The future a [`Placement`] answers with.
pub type PlaceFuture<'a> = Pin<Box<dyn Future<Output = Decision> + Send + 'a>>;

/// The future of [`Placement::shutdown`].
pub type ShutdownFuture<'a> = Pin<Box<dyn Future<Output = ()> + Send + 'a>>;

/// Where a tenant is served: the hook a cluster layer implements.
///
/// [`place`](Placement::place) is asynchronous because a cluster layer may have to ask its
/// coordinator (acquire the tenant) the first time it sees a tenant; it should answer from
/// local state without waiting on the network in the common case, since it runs before every
/// request. [`may_write`](Placement::may_write) is the local fencing check made right before
/// each store call.
pub trait Placement: Send + Sync + 'static {
    /// Decides, before any store is touched, whether this server serves `tenant`.
    fn place<'a>(&'a self, tenant: &'a TenantId) -> PlaceFuture<'a>;

    /// Whether this server may still call `tenant`'s store, checked (without waiting) on the
    /// blocking pool right before each store call and before a store is opened. A server
    /// that lost its right to a tenant after [`place`](Placement::place) said `Serve` answers
    /// the request `503 tenant_unavailable` instead of touching the store. Default: always.
    fn may_write(&self, _tenant: &TenantId) -> bool {
        true
    }

    /// Called once when a server starts with this placement, with its registry, so that a
    /// cluster layer can close a tenant's store ([`Registry::close_tenant`]) when it loses
    /// the tenant. Default: nothing.
    fn attach(&self, _registry: Weak<Registry>) {}

    /// Called once when the server stops, after every store is closed (for a cluster layer:
    /// give up its tenants so that other servers take them at once). Default: nothing.
    fn shutdown(&self) -> ShutdownFuture<'_> {
        Box::pin(async {})
    }
}

/// A [`Placement`]'s answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Serve it here.
    Serve,
    /// Do not serve it here (HTTP 421, code `tenant_refused`).
    Refuse {
        /// Why, for the client.
        reason: String,
    },
    /// Another server serves it (HTTP 307 to `location`, code `tenant_moved`).
    Redirect {
        /// The base URL of the server that does (the request path is appended).
        location: String,
    },
    /// Nobody can serve it right now, retry shortly (HTTP 503 with `Retry-After`, code
    /// `tenant_unavailable`): e.g. this server lost its lease, or its coordinator is not
    /// reachable.
    Unavailable {
        /// Why, for the client.
        reason: String,
    },
}

/// The placement of a single server: every tenant is served here.
#[derive(Clone, Copy, Debug, Default)]
pub struct ServeEverything;

impl Placement for ServeEverything {
    fn place<'a>(&'a self, _tenant: &'a TenantId) -> PlaceFuture<'a> {
        Box::pin(async { Decision::Serve })
    }
}

/// One known tenant.
#[derive(Default)]
struct Entry {
    store: Arc<AsyncMutex<Option<Arc<Store>>>>,
    is_open: AtomicBool,
    in_flight: AtomicUsize,
    /// Milliseconds since the registry started.
    last_used: AtomicU64,
}

/// Counters of the registry's work, for tests and benchmarks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RegistryStats {
    /// Stores open now (or being opened).
    pub open: usize,
    /// Stores opened since the start.
    pub opened: u64,
    /// Stores closed since the start (idle, evicted or at shutdown).
    pub closed: u64,
}

/// The tenants of one data directory.
pub struct Registry {
    dir: PathBuf,
    options: StoreOptions,
    max_open: usize,
    idle: Duration,
    placement: Arc<dyn Placement>,
    replication: Arc<dyn Replication>,
    started: Instant,
    tenants: Mutex<HashMap<TenantId, Arc<Entry>>>,
    open: AtomicUsize,
    opened: AtomicU64,
    closed: AtomicU64,
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Registry")
            .field("dir", &self.dir)
            .field("max_open", &self.max_open)
            .field("idle", &self.idle)
            .field("stats", &self.stats())
            .finish_non_exhaustive()
    }
}

/// A request's hold on a tenant's open store: the store stays open while the lease lives.
pub struct Lease {
    tenant: TenantId,
    store: Arc<Store>,
    entry: Arc<Entry>,
    registry: Arc<Registry>,
}

impl Drop for Lease {
    fn drop(&mut self) {
        self.entry
            .last_used
            .store(self.registry.now_ms(), Ordering::Relaxed);
        self.entry.in_flight.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Counts a request as in flight until the lease takes over (or the open fails).
struct InFlight(Option<(Arc<Entry>, Arc<Registry>)>);

impl Drop for InFlight {
    fn drop(&mut self) {
        if let Some((entry, registry)) = self.0.take() {
            entry.last_used.store(registry.now_ms(), Ordering::Relaxed);
            entry.in_flight.fetch_sub(1, Ordering::AcqRel);
        }
    }
}

impl Lease {
    /// Runs a store call on the blocking pool, holding the lease until it returns.
    pub async fn run<T, F>(self, f: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&Store) -> crate::Result<T> + Send + 'static,
    {
        tokio::task::spawn_blocking(move || {
            let lease = self;
            if !lease.registry.placement.may_write(&lease.tenant) {
                return Err(ApiError::unavailable(
                    &lease.tenant,
                    "this server no longer holds it",
                ));
            }
            f(&lease.store).map_err(ApiError::from)
        })
        .await
        .map_err(|e| ApiError::internal(format!("the store call failed: {e}")))?
    }
}

impl Lease {
    /// Runs a write on the blocking pool; `f` returns its result and the seq of the purge
    /// event it made, if any. Answers once the replication hook says the write is done
    /// ([`Replication::committed`]), holding the lease (the store stays open) until then.
    /// With a replication layer, a server that no longer holds the tenant when the write is
    /// confirmed answers `504 not_acknowledged` (unknown outcome) rather than success.
    pub async fn write<T, F>(self, f: F) -> Result<(T, Option<serde_json::Value>), ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&Store) -> crate::Result<(T, Option<u64>)> + Send + 'static,
    {
        let (value, purge, head, lease) = tokio::task::spawn_blocking(move || {
            let lease = self;
            if !lease.registry.placement.may_write(&lease.tenant) {
                return Err(ApiError::unavailable(
                    &lease.tenant,
                    "this server no longer holds it",
                ));
            }
            let (value, purge) = f(&lease.store).map_err(ApiError::from)?;
            let head = lease.store.head().map_err(ApiError::from)?.0;
            Ok((value, purge, head, lease))
        })
        .await
        .map_err(|e| ApiError::internal(format!("the store call failed: {e}")))??;
        let registry = Arc::clone(&lease.registry);
        let done = registry
            .replication
            .committed(&lease.tenant, &lease.store, head, purge)
            .await?;
        if done.replicated && !registry.placement.may_write(&lease.tenant) {
            return Err(ApiError::not_acknowledged(
                &lease.tenant,
                "this server lost the tenant before the write was confirmed",
            ));
        }
        drop(lease);
        Ok((value, done.report))
    }
}

/// How often an eviction is retried before a request is answered `busy`.
const RESERVE_ATTEMPTS: usize = 8;

impl Registry {
    /// A registry of the stores in `dir` (one file per tenant), opened with `options`.
    pub fn new(
        dir: PathBuf,
        options: StoreOptions,
        max_open: usize,
        idle: Duration,
        placement: Arc<dyn Placement>,
    ) -> Registry {
        Registry {
            dir,
            options,
            max_open: max_open.max(1),
            idle,
            placement,
            replication: Arc::new(LocalOnly),
            started: Instant::now(),
            tenants: Mutex::new(HashMap::new()),
            open: AtomicUsize::new(0),
            opened: AtomicU64::new(0),
            closed: AtomicU64::new(0),
        }
    }

    /// Sets the replication hook (default [`LocalOnly`]): the options each store opens with,
    /// what runs once it is open and before it closes, and when a write counts as done.
    pub fn with_replication(mut self, replication: Arc<dyn Replication>) -> Registry {
        self.replication = replication;
        self
    }

    fn now_ms(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    /// The placement hook's decision for `tenant`.
    pub async fn place(&self, tenant: &TenantId) -> Decision {
        self.placement.place(tenant).await
    }

    /// The placement hook.
    pub fn placement(&self) -> &Arc<dyn Placement> {
        &self.placement
    }

    /// The counters.
    pub fn stats(&self) -> RegistryStats {
        RegistryStats {
            open: self.open.load(Ordering::Acquire),
            opened: self.opened.load(Ordering::Acquire),
            closed: self.closed.load(Ordering::Acquire),
        }
    }

    /// Whether `tenant`'s store is open now.
    pub fn is_open(&self, tenant: &TenantId) -> bool {
        self.tenants
            .lock()
            .get(tenant)
            .is_some_and(|e| e.is_open.load(Ordering::Acquire))
    }

    /// Leases `tenant`'s store, opening (or creating) it first if it is closed.
    pub async fn acquire(self: &Arc<Self>, tenant: &TenantId) -> Result<Lease, ApiError> {
        let entry = {
            let mut tenants = self.tenants.lock();
            let e = Arc::clone(tenants.entry(tenant.clone()).or_default());
            e.in_flight.fetch_add(1, Ordering::AcqRel);
            e
        };
        let mut in_flight = InFlight(Some((Arc::clone(&entry), Arc::clone(self))));
        let slot = Arc::clone(&entry.store).lock_owned().await;
        let store = match &*slot {
            Some(s) => Arc::clone(s),
            None => self.open(tenant, &entry, slot).await?,
        };
        in_flight.0 = None;
        Ok(Lease {
            tenant: tenant.clone(),
            store,
            entry,
            registry: Arc::clone(self),
        })
    }

    /// Opens `tenant`'s store into its locked slot, within the `max_open` bound, then runs the
    /// replication hook's `opened`. The whole sequence runs to its end on its own task even if
    /// the request goes away, so the count of open stores stays exact.
    async fn open(
        self: &Arc<Self>,
        tenant: &TenantId,
        entry: &Arc<Entry>,
        mut slot: OwnedMutexGuard<Option<Arc<Store>>>,
    ) -> Result<Arc<Store>, ApiError> {
        if !self.placement.may_write(tenant) {
            return Err(ApiError::unavailable(
                tenant,
                "this server no longer holds it",
            ));
        }
        let options = self.replication.store_options(tenant, &self.options)?;
        self.reserve().await?;
        let path = tenant.store_path(&self.dir);
        let entry = Arc::clone(entry);
        let registry = Arc::clone(self);
        let tenant = tenant.clone();
        tokio::spawn(async move {
            let opened = tokio::task::spawn_blocking(move || Store::open_or_create(path, options))
                .await
                .map_err(|e| ApiError::internal(format!("opening the store failed: {e}")))
                .and_then(|r| r.map_err(ApiError::from));
            let store = match opened {
                Ok(s) => Arc::new(s),
                Err(e) => {
                    registry.open.fetch_sub(1, Ordering::AcqRel);
                    return Err(e);
                }
            };
            if let Err(e) = registry.replication.opened(&tenant, &store).await {
                let s = Arc::clone(&store);
                let _ = tokio::task::spawn_blocking(move || s.close()).await;
                registry.open.fetch_sub(1, Ordering::AcqRel);
                return Err(e);
            }
            *slot = Some(Arc::clone(&store));
            entry.is_open.store(true, Ordering::Release);
            registry.opened.fetch_add(1, Ordering::AcqRel);
            Ok(store)
        })
        .await
        .map_err(|e| ApiError::internal(format!("opening the store failed: {e}")))?
    }

    /// Reserves room for one more open store, closing the least recently used idle one when
    /// the registry is full; `busy` when every open store has a request in flight.
    async fn reserve(self: &Arc<Self>) -> Result<(), ApiError> {
        for _ in 0..RESERVE_ATTEMPTS {
            let cur = self.open.load(Ordering::Acquire);
            if cur < self.max_open {
                if self
                    .open
                    .compare_exchange(cur, cur + 1, Ordering::AcqRel, Ordering::Acquire)
                    .is_ok()
                {
                    return Ok(());
                }
                continue;
            }
            if !self.close_least_recent(None).await {
                tokio::task::yield_now().await;
            }
        }
        Err(ApiError::busy(self.max_open))
    }

    /// Closes the least recently used open store with no request in flight (with `older`,
    /// only one unused for at least that long). Returns whether one was closed.
    async fn close_least_recent(self: &Arc<Self>, older: Option<Duration>) -> bool {
        let now = self.now_ms();
        let victim = {
            let tenants = self.tenants.lock();
            let mut idle: Vec<(&TenantId, &Arc<Entry>)> = tenants
                .iter()
                .filter(|(_, e)| {
                    e.is_open.load(Ordering::Acquire)
                        && e.in_flight.load(Ordering::Acquire) == 0
                        && older.is_none_or(|d| {
                            now.saturating_sub(e.last_used.load(Ordering::Relaxed))
                                >= d.as_millis() as u64
                        })
                })
                .collect();
            idle.sort_by_key(|(_, e)| e.last_used.load(Ordering::Relaxed));
            // Taken under the map lock, with nothing in flight: a request that arrives now
            // waits on this lock, then opens the store again.
            idle.into_iter().find_map(|(t, e)| {
                Arc::clone(&e.store)
                    .try_lock_owned()
                    .ok()
                    .map(|g| (t.clone(), Arc::clone(e), g))
            })
        };
        let Some((tenant, entry, slot)) = victim else {
            return false;
        };
        self.close_slot(tenant, entry, slot).await
    }

    /// Closes the store in a locked slot, if any, after the replication hook's `closing`.
    /// Closing flushes the file: it runs to its end on its own task (even if the request that
    /// asked goes away), holding the tenant's lock until the counters and flags are updated.
    async fn close_slot(
        self: &Arc<Self>,
        tenant: TenantId,
        entry: Arc<Entry>,
        mut slot: OwnedMutexGuard<Option<Arc<Store>>>,
    ) -> bool {
        let registry = Arc::clone(self);
        tokio::spawn(async move {
            if slot.is_none() {
                return false;
            }
            registry.replication.closing(&tenant).await;
            tokio::task::spawn_blocking(move || {
                let Some(store) = slot.take() else {
                    return false;
                };
                // Leases in flight (only at shutdown) hold clones: they see `closed`.
                let _ = store.close();
                drop(store);
                registry.open.fetch_sub(1, Ordering::AcqRel);
                registry.closed.fetch_add(1, Ordering::AcqRel);
                entry.is_open.store(false, Ordering::Release);
                drop(slot);
                true
            })
            .await
            .unwrap_or(false)
        })
        .await
        .unwrap_or(false)
    }

    /// Closes every store unused for the idle time and forgets closed tenants with nothing in
    /// flight. Returns how many stores it closed.
    pub async fn sweep_idle(self: &Arc<Self>) -> usize {
        let mut n = 0;
        while self.close_least_recent(Some(self.idle)).await {
            n += 1;
        }
        self.tenants.lock().retain(|_, e| {
            e.is_open.load(Ordering::Acquire)
                || e.in_flight.load(Ordering::Acquire) > 0
                || e.store.try_lock().is_err()
        });
        n
    }

    /// How often the idle sweep runs.
    pub fn sweep_interval(&self) -> Duration {
        (self.idle / 4).clamp(Duration::from_millis(20), Duration::from_secs(1))
    }

    /// Closes `tenant`'s store if it is open, waiting for the tenant's lock (an open in
    /// progress finishes first). Requests in flight on it fail with `closed`; later requests
    /// open it again, if the placement still allows. Returns whether a store was closed.
    pub async fn close_tenant(self: &Arc<Self>, tenant: &TenantId) -> bool {
        let entry = self.tenants.lock().get(tenant).cloned();
        let Some(entry) = entry else {
            return false;
        };
        let slot = Arc::clone(&entry.store).lock_owned().await;
        self.close_slot(tenant.clone(), entry, slot).await
    }

    /// Closes every open store (at shutdown), waiting for each tenant's lock.
    pub async fn close_all(self: &Arc<Self>) {
        let entries: Vec<(TenantId, Arc<Entry>)> = self
            .tenants
            .lock()
            .iter()
            .map(|(t, e)| (t.clone(), Arc::clone(e)))
            .collect();
        for (t, e) in entries {
            let slot = Arc::clone(&e.store).lock_owned().await;
            self.close_slot(t, e, slot).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn registry(dir: &std::path::Path, max_open: usize, idle: Duration) -> Arc<Registry> {
        Arc::new(Registry::new(
            dir.to_path_buf(),
            StoreOptions::default(),
            max_open,
            idle,
            Arc::new(ServeEverything),
        ))
    }

    #[test]
    fn a_store_with_a_request_in_flight_is_never_closed() {
        let dir = tempfile::tempdir().unwrap();
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let (a, b) = (TenantId::parse("a").unwrap(), TenantId::parse("b").unwrap());

            // Full, and the one open store is in use: the next tenant waits its turn.
            let r = registry(dir.path(), 1, Duration::from_secs(3600));
            let lease = r.acquire(&a).await.unwrap();
            match r.acquire(&b).await {
                Err(e) => assert_eq!(e.code, "busy"),
                Ok(_) => panic!("a second store opened beyond max_open"),
            }
            assert!(r.is_open(&a) && !r.is_open(&b));
            assert_eq!(r.stats().open, 1);
            drop(lease);
            let lease_b = r.acquire(&b).await.unwrap();
            assert!(!r.is_open(&a) && r.is_open(&b));
            drop(lease_b);
            r.close_all().await;
            assert_eq!(r.stats().open, 0);

            // Idle for longer than the idle time, but in flight: the sweep leaves it open.
            let r = registry(dir.path(), 4, Duration::ZERO);
            let lease = r.acquire(&a).await.unwrap();
            assert_eq!(r.sweep_idle().await, 0);
            assert!(r.is_open(&a));
            drop(lease);
            assert_eq!(r.sweep_idle().await, 1);
            assert!(!r.is_open(&a));
            assert_eq!(
                r.stats(),
                RegistryStats {
                    open: 0,
                    opened: 1,
                    closed: 1
                }
            );
        });
    }
}
