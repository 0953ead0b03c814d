//! The MCP tools: remember, recall, supersede, release, purge, forget_user, plan, history and
//! verify_log,
//! each a thin, scoped call into [`Store`], with JSON schemas generated from the argument types.
//!
//! A failed call comes back as a tool error whose text starts with the error's stable code
//! ([`crate::Error::code`]), e.g. `no_match: no live row matches "..."`; it changed nothing.

use std::collections::BTreeMap;
use std::sync::Arc;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::model::{ServerCapabilities, ServerConfig};
use rmcp::{ServerHandler, tool, tool_handler, tool_router};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::scope::{Scope, TargetSpec};
use crate::{Error, Hit, Operation, Row, Store, Target};

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

/// Arguments of `remember`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct RememberArgs {
    /// The memory, one fact in natural language.
    pub text: String,
    /// A natural key for later updates and deletions by key (unique among live rows of the
    /// namespace).
    #[serde(default)]
    pub key: Option<String>,
    /// Extra metadata: string, integer, float, bool or list-of-those values
    /// (`{"priority": 2, "tags": ["work"]}`).
    #[serde(default)]
    pub metadata: BTreeMap<String, serde_json::Value>,
    /// Who and where.
    #[serde(flatten)]
    pub scope: Scope,
}

/// Arguments of `recall`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct RecallArgs {
    /// What to look for.
    pub query: String,
    /// How many memories to return (default 10, at most 100).
    #[serde(default)]
    pub k: Option<usize>,
    /// Only memories whose metadata matches, every entry must hold: `{"topic": "food",
    /// "priority": {"$gte": 2}, "tags": {"$in": ["a", "b"]}, "archived": {"$exists": false}}`
    /// (operators $eq, $ne, $in, $gt, $gte, $lt, $lte, $exists; a list field matches a value
    /// it contains).
    #[serde(default)]
    pub filter: Option<serde_json::Value>,
    /// Who and where.
    #[serde(flatten)]
    pub scope: Scope,
}

/// Arguments of `supersede`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct SupersedeArgs {
    /// The memory to replace (one of id, key, query).
    pub target: TargetSpec,
    /// The new text.
    pub text: String,
    /// Who and where.
    #[serde(flatten)]
    pub scope: Scope,
}

/// Arguments of `release`, `purge` and `plan`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct TargetArgs {
    /// The memories to act on (one of id, key, query).
    pub target: TargetSpec,
    /// Who and where.
    #[serde(flatten)]
    pub scope: Scope,
}

/// Arguments of `forget_user`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct ForgetUserArgs {
    /// The user whose memories are erased: every namespace `user:<user_id>` and below.
    pub user_id: String,
    /// Only list the rows that would be erased; change nothing.
    #[serde(default)]
    pub dry_run: bool,
}

/// Result of `forget_user`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ForgetUserResult {
    /// Rows erased (with `dry_run`: rows that would be erased), closure included, in id order.
    pub rows: Vec<u64>,
    /// The purge, with its receipt and opening; absent for a dry run.
    pub purge: Option<PurgeResult>,
}

/// Arguments of `plan`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct PlanArgs {
    /// The call to dry-run: `supersede`, `release` or `purge`.
    pub operation: String,
    /// The memories it would act on (one of id, key, query).
    pub target: TargetSpec,
    /// Who and where.
    #[serde(flatten)]
    pub scope: Scope,
}

/// Arguments of `history`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct HistoryArgs {
    /// A row id.
    pub id: u64,
    /// Who and where.
    #[serde(flatten)]
    pub scope: Scope,
}

/// A memory as tools return it.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Memory {
    /// Row id.
    pub id: u64,
    /// The text.
    pub text: String,
    /// Namespace.
    pub namespace: String,
    /// Natural key, if any.
    pub key: Option<String>,
    /// Metadata, values as JSON (strings, numbers, bools, arrays).
    pub metadata: BTreeMap<String, serde_json::Value>,
    /// Creation time, milliseconds since the Unix epoch.
    pub created_at: i64,
    /// Forgetting state: pinned, surface, sinking, submerged or void.
    pub state: String,
}

impl From<&Row> for Memory {
    fn from(r: &Row) -> Self {
        Memory {
            id: r.id,
            text: r.text.clone().unwrap_or_default(),
            namespace: r.namespace.clone(),
            key: r.key.clone(),
            metadata: r
                .metadata
                .iter()
                .map(|(k, v)| (k.clone(), v.to_json()))
                .collect(),
            created_at: r.created_at,
            state: format!("{:?}", r.depth.state()).to_lowercase(),
        }
    }
}

/// A recalled memory and its score.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Recalled {
    /// The memory.
    #[serde(flatten)]
    pub memory: Memory,
    /// Relevance score (higher is better).
    pub score: f64,
}

/// Result of `remember`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Remembered {
    /// The new row's id.
    pub id: u64,
    /// The namespace it went to.
    pub namespace: String,
}

/// Result of `recall`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct RecallResult {
    /// Best first.
    pub memories: Vec<Recalled>,
}

/// Result of `supersede`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SupersedeResult {
    /// Rows replaced (now submerged, kept for history).
    pub replaced: Vec<u64>,
    /// Rows edited at clause level (the replaced clause's old text is erased).
    pub edited: Vec<u64>,
    /// The new row.
    pub new_id: u64,
}

/// Result of `release`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ReleaseResult {
    /// Rows released (no longer recalled, kept for history).
    pub released: Vec<u64>,
}

/// Result of `purge`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct PurgeResult {
    /// The purge id.
    pub purge_id: u64,
    /// Every row erased, in id order.
    pub erased: Vec<u64>,
    /// Whether the residual audit found nothing of the erased content.
    pub audit_clean: bool,
    /// The signed receipt: a canonical JSON document, to be saved byte for byte and verified
    /// offline with `oubli-audit verify`.
    pub receipt: String,
    /// The opening for the data subject (a canonical JSON document), who checks the receipt's
    /// coverage with it.
    pub opening: String,
    /// The store's ed25519 public key (hex), to verify the receipt.
    pub public_key: String,
}

/// Result of `plan`: the rows the call would act on and why.
#[derive(Debug, Serialize, JsonSchema)]
pub struct PlanResult {
    /// Rows the call would act on (for a purge, the whole closure).
    pub rows: Vec<u64>,
    /// The engine's plan: matches with reasons, and rejected candidates.
    pub plan: serde_json::Value,
}

/// Result of `history`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct HistoryResult {
    /// The supersede chain, oldest first (purged rows have no text).
    pub chain: Vec<Memory>,
    /// The log events that touched the row.
    pub events: serde_json::Value,
}

/// Result of `verify_log`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct VerifyResult {
    /// Whether the hash chain and every checkpoint signature verified.
    pub ok: bool,
    /// The report.
    pub report: serde_json::Value,
}

type ToolResult<T> = Result<Json<T>, String>;

fn fail(e: Error) -> String {
    format!("{}: {e}", e.code())
}

fn to_json<T: Serialize>(v: &T) -> Result<serde_json::Value, String> {
    serde_json::to_value(v).map_err(|e| format!("internal: {e}"))
}

const MAX_K: usize = 100;

/// The tool result of a purge report.
fn purge_result(r: crate::PurgeReport, key: [u8; 32]) -> Result<PurgeResult, String> {
    let doc = |bytes: std::result::Result<Vec<u8>, crate::audit::AuditError>| {
        let bytes = bytes.map_err(|e| fail(e.into()))?;
        String::from_utf8(bytes).map_err(|e| format!("internal: {e}"))
    };
    Ok(PurgeResult {
        purge_id: r.seq,
        erased: r.erased.clone(),
        audit_clean: r.audit.summary.clean,
        receipt: doc(r.receipt.to_document())?,
        opening: doc(r.opening.to_document())?,
        public_key: key.iter().map(|b| format!("{b:02x}")).collect(),
    })
}

impl OubliMcp {
    /// A server over an open store.
    pub fn new(store: Arc<Store>) -> Self {
        OubliMcp {
            store,
            tool_router: Self::tool_router(),
        }
    }

    /// Runs a store call on the blocking pool.
    async fn call<T, F>(&self, f: F) -> Result<T, String>
    where
        T: Send + 'static,
        F: FnOnce(&Store) -> crate::Result<T> + Send + 'static,
    {
        let store = Arc::clone(&self.store);
        tokio::task::spawn_blocking(move || f(&store).map_err(fail))
            .await
            .map_err(|e| format!("internal: {e}"))?
    }

    /// Resolves a scoped target; a target by id must lie in the scope's namespace.
    async fn target(&self, spec: &TargetSpec, scope: &Scope) -> Result<Target, String> {
        let target = spec.target(scope)?;
        if let (Target::Id(id), Some(ns)) = (&target, scope.namespace()) {
            let id = *id;
            let row = self.call(move |s| s.get(id)).await?;
            if row.namespace != ns {
                return Err(format!(
                    "unknown_row: no row with id {id} in namespace {ns:?}"
                ));
            }
        }
        Ok(target)
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
        let mut ins = a.scope.inscription(&a.text);
        if let Some(k) = a.key {
            ins = ins.key(k);
        }
        for (k, v) in a.metadata {
            let v = crate::MetaValue::from_json(&v).map_err(fail)?;
            ins = ins.meta(k, v);
        }
        let namespace = ins.namespace_or_default().to_owned();
        let id = self.call(move |s| s.inscribe(ins)).await?;
        Ok(Json(Remembered { id, namespace }))
    }

    /// Hybrid recall.
    #[tool(
        name = "recall",
        description = "Find the memories that best match a query (BM25 and vectors, fused), best first. Forgotten memories never come back."
    )]
    async fn recall(&self, Parameters(a): Parameters<RecallArgs>) -> ToolResult<RecallResult> {
        let k = a.k.unwrap_or(10).clamp(1, MAX_K);
        let mut q = a.scope.recall(&a.query, k);
        if let Some(f) = &a.filter {
            let f = crate::Filter::from_json(f).map_err(fail)?;
            q.filters.conditions.extend(f.conditions);
        }
        let hits: Vec<Hit> = self.call(move |s| s.recall(&q)).await?;
        Ok(Json(RecallResult {
            memories: hits
                .iter()
                .map(|h| Recalled {
                    memory: Memory::from(&h.row),
                    score: h.score,
                })
                .collect(),
        }))
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
        let target = self.target(&a.target, &a.scope).await?;
        let ins = a.scope.inscription(&a.text);
        let r = self.call(move |s| s.supersede(target, ins)).await?;
        Ok(Json(SupersedeResult {
            replaced: r.replaced,
            edited: r.edited,
            new_id: r.new_id,
        }))
    }

    /// Soft forget.
    #[tool(
        name = "release",
        description = "Stop recalling memories (soft forget: kept for history and audit, never returned by recall). A request that matches nothing changes nothing."
    )]
    async fn release(&self, Parameters(a): Parameters<TargetArgs>) -> ToolResult<ReleaseResult> {
        let target = self.target(&a.target, &a.scope).await?;
        let released = self.call(move |s| s.release(target)).await?;
        Ok(Json(ReleaseResult { released }))
    }

    /// Hard erasure with a signed receipt.
    #[tool(
        name = "purge",
        description = "Erase memories for good (GDPR erasure): the rows, their older versions, rows derived from them and their aliases; the file is scrubbed. Returns a signed receipt and the data subject's opening. Dry-run it with `plan` first."
    )]
    async fn purge(&self, Parameters(a): Parameters<TargetArgs>) -> ToolResult<PurgeResult> {
        let target = self.target(&a.target, &a.scope).await?;
        let (r, key) = self
            .call(move |s| Ok((s.purge(target)?, s.public_key()?)))
            .await?;
        purge_result(r, key).map(Json)
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
        let user = a.user_id;
        if a.dry_run {
            let rows = self.call(move |s| s.plan_forget_user(&user)).await?;
            return Ok(Json(ForgetUserResult { rows, purge: None }));
        }
        let (r, key) = self
            .call(move |s| Ok((s.forget_user(&user)?, s.public_key()?)))
            .await?;
        let purge = purge_result(r, key)?;
        Ok(Json(ForgetUserResult {
            rows: purge.erased.clone(),
            purge: Some(purge),
        }))
    }

    /// Dry run.
    #[tool(
        name = "plan",
        description = "Dry run of supersede, release or purge: which memories the call would act on, why, and which near candidates were rejected. Changes nothing."
    )]
    async fn plan(&self, Parameters(a): Parameters<PlanArgs>) -> ToolResult<PlanResult> {
        let op = match a.operation.as_str() {
            "supersede" => Operation::Supersede,
            "release" => Operation::Release,
            "purge" => Operation::Purge,
            other => {
                return Err(format!(
                    "invalid_argument: operation must be supersede, release or purge, not {other:?}"
                ));
            }
        };
        let target = self.target(&a.target, &a.scope).await?;
        let plan = self.call(move |s| s.plan(op, &target)).await?;
        Ok(Json(PlanResult {
            rows: plan.rows.clone(),
            plan: to_json(&plan)?,
        }))
    }

    /// A row's history.
    #[tool(
        name = "history",
        description = "A memory's supersede chain (oldest first) and the signed log events that touched it."
    )]
    async fn history(&self, Parameters(a): Parameters<HistoryArgs>) -> ToolResult<HistoryResult> {
        let spec = TargetSpec {
            id: Some(a.id),
            ..TargetSpec::default()
        };
        self.target(&spec, &a.scope).await?;
        let id = a.id;
        let h = self.call(move |s| s.history(id)).await?;
        Ok(Json(HistoryResult {
            chain: h.chain.iter().map(Memory::from).collect(),
            events: to_json(&h.events)?,
        }))
    }

    /// Log verification.
    #[tool(
        name = "verify_log",
        description = "Verify the store's hash-chained, signed event log end to end."
    )]
    async fn verify_log(&self) -> ToolResult<VerifyResult> {
        let report = self.call(|s| s.verify_log(None)).await?;
        Ok(Json(VerifyResult {
            ok: true,
            report: to_json(&report)?,
        }))
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
