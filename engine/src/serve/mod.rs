//! `oubli serve`: many tenant stores, one file each in a data directory, served over
//! HTTP/JSON with the verbs of the library and of the MCP server, receipts included.
//!
//! - [`tenant`]: tenant ids, validated before any path is made of one;
//! - [`registry`]: lazy open, idle close, the `max_open` bound (least recently used first,
//!   never a store with a request in flight) and the [`Placement`] hook a cluster layer fills;
//! - [`replication`]: the hook a replication layer fills (store options, a replicator per open
//!   store, writes answered once replicated);
//! - [`auth`]: bearer tokens per deployment or per tenant, kept hashed;
//! - `routes`: one route per verb under `/t/{tenant}/`;
//! - [`error`]: typed JSON errors with fitting HTTP statuses.
//!
//! Store calls run on tokio's blocking pool, so one tenant's slow purge never stalls another
//! tenant's requests. `docs/scale-out.md` has the routes, the tokens file, the measured
//! per-tenant costs and a capacity estimate.

pub mod auth;
pub mod error;
pub mod registry;
pub mod replication;
mod routes;
pub mod tenant;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

pub use auth::{TokenScope, Tokens};
pub use registry::{
    Decision, PlaceFuture, Placement, Registry, RegistryStats, ServeEverything, ShutdownFuture,
};
pub use replication::{Committed, HookFuture, LocalOnly, Replication};
pub use tenant::TenantId;

use crate::{Error, Result, StoreOptions};

/// Default `--idle-secs`: a store unused this long is closed.
pub const DEFAULT_IDLE: Duration = Duration::from_secs(300);
/// Default `--max-open`.
pub const DEFAULT_MAX_OPEN: usize = 1024;
/// Default `--max-body`: the largest request body, in bytes.
pub const DEFAULT_MAX_BODY: usize = 4 << 20;

/// How a server is set up.
pub struct ServeConfig {
    /// The directory of the tenants' store files (created if missing).
    pub data_dir: PathBuf,
    /// The address to listen on (port 0 picks a free port).
    pub listen: SocketAddr,
    /// The accepted bearer tokens; `None` serves without authentication, which only a
    /// loopback address allows.
    pub tokens: Option<Tokens>,
    /// A store unused this long is closed.
    pub idle: Duration,
    /// Most stores open at once.
    pub max_open: usize,
    /// Largest request body, in bytes.
    pub max_body: usize,
    /// The options every store is opened (or created) with.
    pub store_options: StoreOptions,
    /// Which tenants this server serves.
    pub placement: Arc<dyn Placement>,
    /// What happens around each tenant's store: its options, replication, when a write is
    /// done. Default [`LocalOnly`].
    pub replication: Arc<dyn Replication>,
}

impl ServeConfig {
    /// A configuration with the defaults: no tokens, [`DEFAULT_IDLE`], [`DEFAULT_MAX_OPEN`],
    /// [`DEFAULT_MAX_BODY`], default store options, every tenant served here, no replication.
    pub fn new(data_dir: impl Into<PathBuf>, listen: SocketAddr) -> ServeConfig {
        ServeConfig {
            data_dir: data_dir.into(),
            listen,
            tokens: None,
            idle: DEFAULT_IDLE,
            max_open: DEFAULT_MAX_OPEN,
            max_body: DEFAULT_MAX_BODY,
            store_options: StoreOptions::default(),
            placement: Arc::new(ServeEverything),
            replication: Arc::new(LocalOnly),
        }
    }
}

/// What [`ServeConfig`] becomes once checked: a bound socket and the shared state.
struct Prepared {
    listener: std::net::TcpListener,
    registry: Arc<Registry>,
    tokens: Option<Tokens>,
    max_body: usize,
}

impl ServeConfig {
    fn prepare(self) -> Result<Prepared> {
        if self.tokens.is_none() && !self.listen.ip().is_loopback() {
            return Err(Error::InvalidArgument(format!(
                "serving {} without --tokens: only a loopback address may go without authentication",
                self.listen
            )));
        }
        if self.max_open == 0 {
            return Err(Error::InvalidArgument("max_open must be at least 1".into()));
        }
        std::fs::create_dir_all(&self.data_dir).map_err(|e| {
            Error::Io(std::io::Error::new(
                e.kind(),
                format!("{}: {e}", self.data_dir.display()),
            ))
        })?;
        let listener = std::net::TcpListener::bind(self.listen).map_err(|e| {
            Error::InvalidArgument(format!("cannot listen on {}: {e}", self.listen))
        })?;
        listener.set_nonblocking(true).map_err(Error::Io)?;
        let registry = Arc::new(
            Registry::new(
                self.data_dir,
                self.store_options,
                self.max_open,
                self.idle,
                self.placement,
            )
            .with_replication(self.replication),
        );
        registry.placement().attach(Arc::downgrade(&registry));
        Ok(Prepared {
            listener,
            registry,
            tokens: self.tokens,
            max_body: self.max_body,
        })
    }
}

fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("oubli-serve")
        .build()
        .map_err(Error::Io)
}

/// Serves until `shutdown` resolves, then closes every store.
async fn serve_until(
    p: Prepared,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<()> {
    let listener = tokio::net::TcpListener::from_std(p.listener).map_err(Error::Io)?;
    let registry = p.registry;
    let sweeper = {
        let r = Arc::clone(&registry);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(r.sweep_interval()).await;
                r.sweep_idle().await;
            }
        })
    };
    let app = Arc::new(routes::App {
        registry: Arc::clone(&registry),
        tokens: p.tokens,
    });
    let served = axum::serve(listener, routes::router(app, p.max_body))
        .with_graceful_shutdown(shutdown)
        .await;
    sweeper.abort();
    registry.close_all().await;
    registry.placement().shutdown().await;
    served.map_err(Error::Io)
}

/// Serves `config` until Ctrl-C or SIGTERM (the `oubli serve` command). Prints
/// `listening on http://ADDR` (the bound address, so port 0 works) on standard error once the
/// socket is bound.
pub fn run(config: ServeConfig) -> Result<()> {
    let p = config.prepare()?;
    let addr = p.listener.local_addr().map_err(Error::Io)?;
    let rt = runtime()?;
    eprintln!("listening on http://{addr}");
    rt.block_on(serve_until(p, crate::cli::mcp::shutdown_signal()))
}

/// A server running on its own threads, for tests, benchmarks and embedding; stopped by
/// [`Server::stop`] or on drop.
pub struct Server {
    addr: SocketAddr,
    registry: Arc<Registry>,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<Result<()>>>,
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server")
            .field("addr", &self.addr)
            .finish_non_exhaustive()
    }
}

impl Server {
    /// Binds and starts serving; returns once the socket is bound.
    pub fn start(config: ServeConfig) -> Result<Server> {
        let p = config.prepare()?;
        let addr = p.listener.local_addr().map_err(Error::Io)?;
        let registry = Arc::clone(&p.registry);
        let rt = runtime()?;
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("oubli-serve-main".into())
            .spawn(move || {
                rt.block_on(serve_until(p, async move {
                    let _ = rx.await;
                }))
            })
            .map_err(Error::Io)?;
        Ok(Server {
            addr,
            registry,
            shutdown: Some(tx),
            thread: Some(thread),
        })
    }

    /// The bound address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The tenant registry (open stores, counters).
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// Stops accepting, lets requests in flight finish, closes every store.
    pub fn stop(mut self) -> Result<()> {
        self.halt()
    }

    fn halt(&mut self) -> Result<()> {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        match self.thread.take().map(|t| t.join()) {
            Some(Ok(r)) => r,
            Some(Err(_)) => Err(Error::InvalidArgument("the server thread panicked".into())),
            None => Ok(()),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.halt();
    }
}
