//! The MCP tools: remember, recall, supersede, release, purge, forget_user, plan, history and
//! verify_log,
//! each a thin, scoped call into [`Store`] through the verbs it shares with `oubli serve`
//! ([`crate::cli::verbs`]), with JSON schemas generated from the argument types.
//!
//! A failed call comes back as a tool error whose text starts with the error's stable code
//! ([`crate::Error::code`]), e.g. `no_match: no live row matches "..."`; it changed nothing.

use std::sync::Arc;

use crate::cli::verbs::{
    self, ForgetUserArgs, ForgetUserResult, HistoryArgs, HistoryResult, PlanArgs, PlanResult,
    PurgeResult, RecallArgs, RecallResult, ReleaseResult, RememberArgs, Remembered, SupersedeArgs,
    SupersedeResult, TargetArgs, VerifyResult,
};
use crate::{Error, Store};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::model::{ServerCapabilities, ServerConfig};
use rmcp::{ServerHandler, tool, tool_handler, tool_router};

/// The MCP server: one open store and the tool router.
#[derive(Clone)]
pub struct OubliMcp {
    store: Arc<Store>,
    tool_router: ToolRouter<Self>,
}

impl std::fmt::Debug for OubliMcp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OubliMcp")
            .field("store", &self.store.path())
            .finish_non_exhaustive()
    }
}

fn fail(e: Error) -> String {
    format!("{}: {e}", e.code())
}

type ToolResult<T> = Result<Json<T>, String>;

impl OubliMcp {
    /// A server over an open store.
    pub fn new(store: Arc<Store>) -> Self {
        OubliMcp {
            store,
            tool_router: Self::tool_router(),
        }
    }

    /// Runs a verb on the blocking pool; a failure becomes the tool error `code: message`.
    async fn call<T, F>(&self, f: F) -> ToolResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Store) -> crate::Result<T> + Send + 'static,
    {
        let store = Arc::clone(&self.store);
        tokio::task::spawn_blocking(move || f(&store).map_err(fail))
            .await
            .map_err(|e| format!("internal: {e}"))?
            .map(Json)
    }
}

#[tool_router(router = tool_router)]
impl OubliMcp {
    /// Store one memory.
    #[tool(
        name = "remember",
        description = "Store one memory (a fact in natural language) for a user, agent or run. Returns its id."
    )]
    async fn remember(&self, Parameters(a): Parameters<RememberArgs>) -> ToolResult<Remembered> {
        self.call(move |s| verbs::remember(s, a)).await
    }

    /// Hybrid recall.
    #[tool(
        name = "recall",
        description = "Find the memories that best match a query (BM25 and vectors, fused), best first. Forgotten memories never come back."
    )]
    async fn recall(&self, Parameters(a): Parameters<RecallArgs>) -> ToolResult<RecallResult> {
        self.call(move |s| verbs::recall(s, a)).await
    }

    /// Replace a memory.
    #[tool(
        name = "supersede",
        description = "Replace one memory with a new text (a changed password, a new address). The old one is no longer recalled but stays in history. A request that matches nothing changes nothing."
    )]
    async fn supersede(
        &self,
        Parameters(a): Parameters<SupersedeArgs>,
    ) -> ToolResult<SupersedeResult> {
        self.call(move |s| verbs::supersede(s, a)).await
    }

    /// Soft forget.
    #[tool(
        name = "release",
        description = "Stop recalling memories (soft forget: kept for history and audit, never returned by recall). A request that matches nothing changes nothing."
    )]
    async fn release(&self, Parameters(a): Parameters<TargetArgs>) -> ToolResult<ReleaseResult> {
        self.call(move |s| verbs::release(s, a)).await
    }

    /// Hard erasure with a signed receipt.
    #[tool(
        name = "purge",
        description = "Erase memories for good (GDPR erasure): the rows, their older versions, rows derived from them and their aliases; the file is scrubbed. Returns a signed receipt and the data subject's opening. Dry-run it with `plan` first."
    )]
    async fn purge(&self, Parameters(a): Parameters<TargetArgs>) -> ToolResult<PurgeResult> {
        self.call(move |s| verbs::purge(s, a)).await
    }

    /// Erase one user.
    #[tool(
        name = "forget_user",
        description = "Erase everything of one user (GDPR erasure request): every memory in the user's namespaces (user:<user_id> and below), the aliases declared there, and rows of shared namespaces holding the user's e-mail, phone or account identifiers; never another user's memories. One signed receipt and the data subject's opening. With dry_run, only lists the rows."
    )]
    async fn forget_user(
        &self,
        Parameters(a): Parameters<ForgetUserArgs>,
    ) -> ToolResult<ForgetUserResult> {
        self.call(move |s| verbs::forget_user(s, a)).await
    }

    /// Dry run.
    #[tool(
        name = "plan",
        description = "Dry run of supersede, release or purge: which memories the call would act on, why, and which near candidates were rejected. Changes nothing."
    )]
    async fn plan(&self, Parameters(a): Parameters<PlanArgs>) -> ToolResult<PlanResult> {
        self.call(move |s| verbs::plan(s, a)).await
    }

    /// A row's history.
    #[tool(
        name = "history",
        description = "A memory's supersede chain (oldest first) and the signed log events that touched it."
    )]
    async fn history(&self, Parameters(a): Parameters<HistoryArgs>) -> ToolResult<HistoryResult> {
        self.call(move |s| verbs::history(s, a)).await
    }

    /// Log verification.
    #[tool(
        name = "verify_log",
        description = "Verify the store's hash-chained, signed event log end to end."
    )]
    async fn verify_log(&self) -> ToolResult<VerifyResult> {
        self.call(verbs::verify_log).await
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for OubliMcp {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build()).with_instructions(
            "oubli: agent memory that can forget, provably. `remember` stores a fact, `recall` \
             finds facts, `supersede` replaces one, `release` stops recalling, `purge` erases \
             for good with a signed receipt (dry-run with `plan`), `forget_user` erases \
             everything of one user. Pass `user_id` (and optionally `agent_id`, `run_id`) on every call to scope memory to one user.",
        )
    }
}
