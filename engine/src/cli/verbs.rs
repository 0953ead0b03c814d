//! The verbs the MCP server ([`super::mcp`]) and `oubli serve` ([`crate::serve`]) share: their
//! JSON argument and result types (with JSON schemas for MCP clients) and, for each verb, the
//! synchronous call into [`Store`] that carries it out. Callers run these on a blocking pool.
//!
//! Scoping (`user_id`, `agent_id`, `run_id`, `namespace`) is [`Scope`]'s; a target by id must
//! lie in the scope's namespace, so a scoped call never reaches another user's rows.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub(crate) use super::mcp::scope::{Scope, TargetSpec};
use crate::{Error, Hit, Inscription, Operation, Result, Row, Store, Target};

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
    /// When the memory stops being true, milliseconds since the Unix epoch: recall leaves it
    /// out afterwards and a sweep submerges it.
    #[serde(default)]
    pub valid_until: Option<i64>,
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
    /// Only memories scoring at least this relevance, in [0, 1] (default: the library's
    /// default; 0.3 keeps relevant hits only).
    #[serde(default)]
    pub min_score: Option<f64>,
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

/// Arguments of `pin`: the memories to pin (they never decay).
pub type PinArgs = TargetArgs;

/// Result of `pin`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct PinResult {
    /// Rows pinned.
    pub pinned: Vec<u64>,
}

/// Most memories one recall returns.
pub const MAX_K: usize = 100;

/// A value as JSON; an encoding failure (none of this module's types can fail) reads as
/// corruption rather than a panic.
fn to_json<T: Serialize>(v: &T) -> Result<serde_json::Value> {
    serde_json::to_value(v).map_err(|e| Error::Corrupt(format!("cannot encode a result: {e}")))
}

/// The result of a purge report: receipt and opening as documents, the key as hex.
pub fn purge_result(r: crate::PurgeReport, key: [u8; 32]) -> Result<PurgeResult> {
    let doc = |bytes: std::result::Result<Vec<u8>, crate::audit::AuditError>| -> Result<String> {
        String::from_utf8(bytes?).map_err(|e| Error::Corrupt(format!("receipt document: {e}")))
    };
    Ok(PurgeResult {
        purge_id: r.seq,
        erased: r.erased.clone(),
        audit_clean: r.audit.summary.clean,
        receipt: doc(r.receipt.to_document())?,
        opening: doc(r.opening.to_document())?,
        public_key: hex(&key),
    })
}

/// Lower-case hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Resolves a scoped target; a target by id must lie in the scope's namespace.
pub fn target(s: &Store, spec: &TargetSpec, scope: &Scope) -> Result<Target> {
    let target = spec.target(scope)?;
    if let (Target::Id(id), Some(ns)) = (&target, scope.namespace()) {
        let row = s.get(*id)?;
        if row.namespace != ns {
            return Err(Error::UnknownRow(*id));
        }
    }
    Ok(target)
}

/// The inscription `remember` makes of its arguments.
pub fn inscription(a: RememberArgs) -> Result<Inscription> {
    let mut ins = a.scope.inscription(&a.text);
    if let Some(k) = a.key {
        ins = ins.key(k);
    }
    if let Some(t) = a.valid_until {
        ins = ins.valid_until(t);
    }
    for (k, v) in a.metadata {
        ins = ins.meta(k, crate::MetaValue::from_json(&v)?);
    }
    Ok(ins)
}

/// Stores one memory.
pub fn remember(s: &Store, a: RememberArgs) -> Result<Remembered> {
    let ins = inscription(a)?;
    let namespace = ins.namespace_or_default().to_owned();
    let id = s.inscribe(ins)?;
    Ok(Remembered { id, namespace })
}

/// Stores many memories in one transaction: all or none.
pub fn remember_batch(s: &Store, batch: Vec<RememberArgs>) -> Result<Vec<Remembered>> {
    let ins = batch
        .into_iter()
        .map(inscription)
        .collect::<Result<Vec<_>>>()?;
    let namespaces: Vec<String> = ins
        .iter()
        .map(|i| i.namespace_or_default().to_owned())
        .collect();
    let ids = s.inscribe_batch(ins)?;
    Ok(ids
        .into_iter()
        .zip(namespaces)
        .map(|(id, namespace)| Remembered { id, namespace })
        .collect())
}

/// Hybrid recall, best first.
pub fn recall(s: &Store, a: RecallArgs) -> Result<RecallResult> {
    let k = a.k.unwrap_or(10).clamp(1, MAX_K);
    let mut q = a.scope.recall(&a.query, k);
    if let Some(f) = &a.filter {
        q.filters
            .conditions
            .extend(crate::Filter::from_json(f)?.conditions);
    }
    if let Some(m) = a.min_score {
        if !(0.0..=1.0).contains(&m) {
            return Err(Error::InvalidArgument(format!(
                "min_score must be in [0, 1], not {m}"
            )));
        }
        q = q.min_score(m);
    }
    let hits: Vec<Hit> = s.recall(&q)?;
    Ok(RecallResult {
        memories: hits
            .iter()
            .map(|h| Recalled {
                memory: Memory::from(&h.row),
                score: h.score,
            })
            .collect(),
    })
}

/// Replaces one memory.
pub fn supersede(s: &Store, a: SupersedeArgs) -> Result<SupersedeResult> {
    let t = target(s, &a.target, &a.scope)?;
    let r = s.supersede(t, a.scope.inscription(&a.text))?;
    Ok(SupersedeResult {
        replaced: r.replaced,
        edited: r.edited,
        new_id: r.new_id,
    })
}

/// Soft forget.
pub fn release(s: &Store, a: TargetArgs) -> Result<ReleaseResult> {
    let t = target(s, &a.target, &a.scope)?;
    Ok(ReleaseResult {
        released: s.release(t)?,
    })
}

/// Pins memories: they never decay.
pub fn pin(s: &Store, a: PinArgs) -> Result<PinResult> {
    let t = target(s, &a.target, &a.scope)?;
    Ok(PinResult { pinned: s.pin(t)? })
}

/// Hard erasure with a signed receipt.
pub fn purge(s: &Store, a: TargetArgs) -> Result<PurgeResult> {
    let t = target(s, &a.target, &a.scope)?;
    let r = s.purge(t)?;
    purge_result(r, s.public_key()?)
}

/// Erases one user (or, with `dry_run`, lists the rows it would erase).
pub fn forget_user(s: &Store, a: ForgetUserArgs) -> Result<ForgetUserResult> {
    if a.dry_run {
        let rows = s.plan_forget_user(&a.user_id)?;
        return Ok(ForgetUserResult { rows, purge: None });
    }
    let r = s.forget_user(&a.user_id)?;
    let purge = purge_result(r, s.public_key()?)?;
    Ok(ForgetUserResult {
        rows: purge.erased.clone(),
        purge: Some(purge),
    })
}

/// Dry run of supersede, release, pin or purge.
pub fn plan(s: &Store, a: PlanArgs) -> Result<PlanResult> {
    let op = match a.operation.as_str() {
        "supersede" => Operation::Supersede,
        "release" => Operation::Release,
        "pin" => Operation::Pin,
        "purge" => Operation::Purge,
        other => {
            return Err(Error::InvalidArgument(format!(
                "operation must be supersede, release, pin or purge, not {other:?}"
            )));
        }
    };
    let t = target(s, &a.target, &a.scope)?;
    let plan = s.plan(op, &t)?;
    Ok(PlanResult {
        rows: plan.rows.clone(),
        plan: to_json(&plan)?,
    })
}

/// A memory's supersede chain and the log events that touched it.
pub fn history(s: &Store, a: HistoryArgs) -> Result<HistoryResult> {
    let spec = TargetSpec {
        id: Some(a.id),
        ..TargetSpec::default()
    };
    target(s, &spec, &a.scope)?;
    let h = s.history(a.id)?;
    Ok(HistoryResult {
        chain: h.chain.iter().map(Memory::from).collect(),
        events: to_json(&h.events)?,
    })
}

/// Verifies the whole event log.
pub fn verify_log(s: &Store) -> Result<VerifyResult> {
    let report = s.verify_log(None)?;
    Ok(VerifyResult {
        ok: true,
        report: to_json(&report)?,
    })
}
