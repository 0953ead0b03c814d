//! `oubli mcp STORE`: the store as a Model Context Protocol server over standard input and
//! output, so that MCP clients (Claude Desktop, Cursor, agent frameworks) attach it as their
//! memory.
//!
//! The tools and their JSON schemas are in [`tools`]; scoping (`user_id`, `agent_id`,
//! `run_id`) in [`scope`]. The server owns the store for its lifetime: one writer, as everywhere
//! else. Store calls run on tokio's blocking pool, so a purge never stalls the protocol loop.

mod scope;
mod tools;

use std::path::Path;
use std::sync::Arc;

use rmcp::ServiceExt;

use crate::{Error, Result, Store};

pub use tools::OubliMcp;

/// Serves `path` over stdio until the client closes the connection.
pub fn serve_stdio(path: &Path) -> Result<()> {
    let store = Arc::new(Store::open(path)?);
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
