//! `oubli mcp STORE`: the store as a Model Context Protocol server over standard input and
//! output, or over streamable HTTP (`--http ADDR`, path `/mcp`), so that MCP clients (Claude
//! Desktop, Cursor, agent frameworks) attach it as their memory.
//!
//! The tools and their JSON schemas are in [`tools`]; scoping (`user_id`, `agent_id`,
//! `run_id`) in [`scope`]. The server owns the store for its lifetime: one writer, as everywhere
//! else. Store calls run on tokio's blocking pool, so a purge never stalls the protocol loop.

pub(crate) mod scope;
mod tools;

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

use rmcp::ServiceExt;

use crate::{Error, Result, Store, StoreOptions};

pub use tools::OubliMcp;

/// Serves `path`, opened with `options`, over stdio until the client closes the connection.
pub fn serve_stdio(path: &Path, options: StoreOptions) -> Result<()> {
    let store = Arc::new(Store::open_with(path, options)?);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(Error::Io)?;
    runtime.block_on(async move {
        let service = OubliMcp::new(store)
            .serve(rmcp::transport::stdio())
            .await
            .map_err(|e| Error::InvalidArgument(format!("MCP initialization failed: {e}")))?;
        service
            .waiting()
            .await
            .map_err(|e| Error::InvalidArgument(format!("MCP server stopped: {e}")))?;
        Ok(())
    })
}

/// Serves `path` over streamable HTTP at `addr` (path `/mcp`) until interrupted (Ctrl-C or
/// SIGTERM). Prints `listening on http://ADDR/mcp` (the bound address, so port 0 works) on
/// standard error once the socket is bound.
///
/// Every HTTP session shares the one open store. Only loopback `Host` headers are accepted
/// (rmcp's protection against DNS rebinding); there is no authentication, so put a proxy that
/// authenticates in front of it before binding a public address.
pub fn serve_http(path: &Path, addr: SocketAddr, options: StoreOptions) -> Result<()> {
    use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
    use rmcp::transport::streamable_http_server::{
        StreamableHttpServerConfig, StreamableHttpService,
    };

    let store = Arc::new(Store::open_with(path, options)?);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(Error::Io)?;
    runtime.block_on(async move {
        let service = StreamableHttpService::new(
            move || Ok(OubliMcp::new(store.clone())),
            Arc::new(LocalSessionManager::default()),
            StreamableHttpServerConfig::default(),
        );
        let router = axum::Router::new().nest_service("/mcp", service);
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| Error::InvalidArgument(format!("cannot listen on {addr}: {e}")))?;
        let bound = listener.local_addr().map_err(Error::Io)?;
        eprintln!("listening on http://{bound}/mcp");
        axum::serve(listener, router)
            .with_graceful_shutdown(shutdown_signal())
            .await
            .map_err(Error::Io)
    })
}

/// Resolves on Ctrl-C or, on Unix, SIGTERM.
pub(crate) async fn shutdown_signal() {
    let ctrl_c = async {
        // If the handler cannot be installed, only SIGTERM (or killing) stops the server.
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = term => {}
    }
}
