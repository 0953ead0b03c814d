//! The HTTP/JSON routes: one per verb under `/t/{tenant}/`, bodies and answers in JSON, the
//! argument and result shapes of the MCP tools ([`crate::cli::verbs`]).

use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, FromRequest, FromRequestParts, RawPathParams, Request};
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::auth::{Denied, Tokens};
use super::error::ApiError;
use super::registry::{Decision, Lease, Registry};
use super::tenant::TenantId;
use crate::DecayPolicy;
use crate::cli::verbs::{
    self, ForgetUserArgs, HistoryArgs, PinArgs, PlanArgs, RecallArgs, RememberArgs, SupersedeArgs,
    TargetArgs,
};

/// Most events one `events` call returns.
pub const MAX_EVENTS: u64 = 1000;

/// What every handler shares.
pub(crate) struct App {
    pub(crate) registry: Arc<Registry>,
    pub(crate) tokens: Option<Tokens>,
}

/// A JSON answer.
pub(crate) fn json<T: Serialize>(status: StatusCode, v: &T) -> Response {
    match serde_json::to_vec(v) {
        Ok(bytes) => (
            status,
            [(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            )],
            bytes,
        )
            .into_response(),
        Err(e) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("cannot encode the answer: {e}"),
        )
            .into_response(),
    }
}

fn ok<T: Serialize>(v: T) -> Response {
    json(StatusCode::OK, &v)
}

/// The answer of a write: its result, with the replication layer's report (for a purge: which
/// copies the erasure reached) under `replication` when there is one.
fn written<T: Serialize>((v, report): (T, Option<serde_json::Value>)) -> Answer {
    let Some(report) = report else {
        return Ok(ok(v));
    };
    let mut value = serde_json::to_value(&v)
        .map_err(|e| ApiError::internal(format!("cannot encode the answer: {e}")))?;
    if let Some(map) = value.as_object_mut() {
        map.insert("replication".into(), report);
    }
    Ok(ok(value))
}

/// The tenant a request names, authenticated, placed here, its store leased.
pub(crate) struct Tenant {
    lease: Lease,
}

impl FromRequestParts<Arc<App>> for Tenant {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Self, ApiError> {
        let params = RawPathParams::from_request_parts(parts, app)
            .await
            .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, "invalid_tenant", e.body_text()))?;
        let raw = params
            .iter()
            .find(|(k, _)| *k == "tenant")
            .map(|(_, v)| v.to_owned())
            .unwrap_or_default();
        let id = TenantId::parse(&raw)
            .map_err(|m| ApiError::new(StatusCode::BAD_REQUEST, "invalid_tenant", m))?;
        if let Some(tokens) = &app.tokens {
            let auth = parts
                .headers
                .get(header::AUTHORIZATION)
                .and_then(|v| v.to_str().ok());
            tokens.check(auth, &id).map_err(|d| match d {
                Denied::Unauthenticated => ApiError::new(
                    StatusCode::UNAUTHORIZED,
                    "unauthorized",
                    "a valid bearer token is required",
                ),
                Denied::Forbidden => ApiError::new(
                    StatusCode::FORBIDDEN,
                    "forbidden",
                    format!("this token does not give access to tenant {id}"),
                ),
            })?;
        }
        match app.registry.place(&id).await {
            Decision::Serve => {}
            Decision::Refuse { reason } => {
                return Err(ApiError::new(
                    StatusCode::MISDIRECTED_REQUEST,
                    "tenant_refused",
                    format!("tenant {id} is not served here: {reason}"),
                ));
            }
            Decision::Redirect { location } => {
                let path = parts.uri.path_and_query().map_or("", |p| p.as_str());
                let mut e = ApiError::new(
                    StatusCode::TEMPORARY_REDIRECT,
                    "tenant_moved",
                    format!("tenant {id} is served at {location}"),
                );
                e.location = Some(format!("{}{path}", location.trim_end_matches('/')));
                return Err(e);
            }
            Decision::Unavailable { reason } => {
                return Err(ApiError::unavailable(&id, &reason));
            }
        }
        let lease = app.registry.acquire(&id).await?;
        Ok(Tenant { lease })
    }
}

/// A JSON request body: 413 `body_too_large` over the limit, 400 `invalid_json` when it does
/// not parse, 422 `invalid_request` when it parses but does not fit the verb's arguments.
pub(crate) struct JsonBody<T>(T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let bytes = Bytes::from_request(req, state).await.map_err(|r| {
            if r.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "body_too_large",
                    "the request body is over the server's limit",
                )
            } else {
                ApiError::new(r.status(), "invalid_body", r.body_text())
            }
        })?;
        serde_json::from_slice(&bytes).map(JsonBody).map_err(|e| {
            if e.is_data() {
                ApiError::new(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "invalid_request",
                    e.to_string(),
                )
            } else {
                ApiError::new(StatusCode::BAD_REQUEST, "invalid_json", e.to_string())
            }
        })
    }
}

type Answer = Result<Response, ApiError>;

async fn inscribe(t: Tenant, JsonBody(a): JsonBody<RememberArgs>) -> Answer {
    written(
        t.lease
            .write(move |s| Ok((verbs::remember(s, a)?, None)))
            .await?,
    )
}

/// Arguments of `inscribe/batch`.
#[derive(Deserialize)]
struct Batch {
    memories: Vec<RememberArgs>,
}

#[derive(Serialize)]
struct BatchResult {
    memories: Vec<verbs::Remembered>,
}

async fn inscribe_batch(t: Tenant, JsonBody(b): JsonBody<Batch>) -> Answer {
    let (memories, report) = t
        .lease
        .write(move |s| Ok((verbs::remember_batch(s, b.memories)?, None)))
        .await?;
    written((BatchResult { memories }, report))
}

async fn recall(t: Tenant, JsonBody(a): JsonBody<RecallArgs>) -> Answer {
    Ok(ok(t.lease.run(move |s| verbs::recall(s, a)).await?))
}

async fn supersede(t: Tenant, JsonBody(a): JsonBody<SupersedeArgs>) -> Answer {
    written(
        t.lease
            .write(move |s| Ok((verbs::supersede(s, a)?, None)))
            .await?,
    )
}

async fn release(t: Tenant, JsonBody(a): JsonBody<TargetArgs>) -> Answer {
    written(
        t.lease
            .write(move |s| Ok((verbs::release(s, a)?, None)))
            .await?,
    )
}

async fn pin(t: Tenant, JsonBody(a): JsonBody<PinArgs>) -> Answer {
    written(
        t.lease
            .write(move |s| Ok((verbs::pin(s, a)?, None)))
            .await?,
    )
}

async fn purge(t: Tenant, JsonBody(a): JsonBody<TargetArgs>) -> Answer {
    written(
        t.lease
            .write(move |s| {
                let r = verbs::purge(s, a)?;
                let seq = r.purge_id;
                Ok((r, Some(seq)))
            })
            .await?,
    )
}

async fn forget_user(t: Tenant, JsonBody(a): JsonBody<ForgetUserArgs>) -> Answer {
    written(
        t.lease
            .write(move |s| {
                let r = verbs::forget_user(s, a)?;
                let seq = r.purge.as_ref().map(|p| p.purge_id);
                Ok((r, seq))
            })
            .await?,
    )
}

async fn plan(t: Tenant, JsonBody(a): JsonBody<PlanArgs>) -> Answer {
    Ok(ok(t.lease.run(move |s| verbs::plan(s, a)).await?))
}

async fn history(t: Tenant, JsonBody(a): JsonBody<HistoryArgs>) -> Answer {
    Ok(ok(t.lease.run(move |s| verbs::history(s, a)).await?))
}

async fn verify(t: Tenant) -> Answer {
    Ok(ok(t.lease.run(verbs::verify_log).await?))
}

/// Arguments of `decay`: a namespace's policy, or `null` to clear it.
#[derive(Deserialize, Serialize)]
struct DecayArgs {
    namespace: String,
    policy: Option<DecayPolicy>,
}

async fn decay(t: Tenant, JsonBody(a): JsonBody<DecayArgs>) -> Answer {
    written(
        t.lease
            .write(move |s| {
                s.set_decay_policy(&a.namespace, a.policy)?;
                Ok((a, None))
            })
            .await?,
    )
}

async fn sweep(t: Tenant) -> Answer {
    written(t.lease.write(|s| Ok((s.sweep()?, None))).await?)
}

/// `from` and `to` of an events query string.
fn event_range(query: Option<&str>) -> Result<(u64, Option<u64>), ApiError> {
    let (mut from, mut to) = (1, None);
    for pair in query.unwrap_or("").split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let n: u64 = v.parse().map_err(|_| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                "invalid_argument",
                format!("{k} must be a sequence number, not {v:?}"),
            )
        })?;
        match k {
            "from" => from = n.max(1),
            "to" => to = Some(n),
            other => {
                return Err(ApiError::new(
                    StatusCode::BAD_REQUEST,
                    "invalid_argument",
                    format!("unknown parameter {other:?} (from, to)"),
                ));
            }
        }
    }
    Ok((from, to))
}

#[derive(Serialize)]
struct Events {
    head: u64,
    events: Vec<crate::Event>,
}

async fn events(t: Tenant, uri: Uri) -> Answer {
    let (from, to) = event_range(uri.query())?;
    let page = t
        .lease
        .run(move |s| {
            let head = s.head()?.0;
            let to = to
                .unwrap_or(head)
                .min(head)
                .min(from.saturating_add(MAX_EVENTS - 1));
            let events = if from > to {
                Vec::new()
            } else {
                s.events(from, to)?
            };
            Ok(Events { head, events })
        })
        .await?;
    Ok(ok(page))
}

#[derive(Serialize)]
struct Receipts {
    receipts: Vec<ReceiptEntry>,
}

#[derive(Serialize)]
struct ReceiptEntry {
    purge_id: u64,
    receipt: crate::audit::receipt::SignedReceipt,
}

async fn receipts(t: Tenant) -> Answer {
    let list = t.lease.run(|s| s.receipts()).await?;
    Ok(ok(Receipts {
        receipts: list
            .into_iter()
            .map(|(purge_id, receipt)| ReceiptEntry { purge_id, receipt })
            .collect(),
    }))
}

async fn receipt(t: Tenant, params: RawPathParams) -> Answer {
    let raw = params
        .iter()
        .find(|(k, _)| *k == "id")
        .map_or("", |(_, v)| v);
    let id: u64 = raw.parse().map_err(|_| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "invalid_argument",
            format!("a purge id is a number, not {raw:?}"),
        )
    })?;
    let doc = t.lease.run(move |s| s.receipt_document(id)).await?;
    Ok((
        StatusCode::OK,
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        doc,
    )
        .into_response())
}

#[derive(Serialize)]
struct Key {
    public_key: String,
}

async fn key(t: Tenant) -> Answer {
    let k = t.lease.run(|s| s.public_key()).await?;
    Ok(ok(Key {
        public_key: verbs::hex(&k),
    }))
}

async fn health() -> Response {
    ok(serde_json::json!({ "ok": true }))
}

async fn unknown_route() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "unknown_route", "no such route")
}

async fn wrong_method() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        "this route takes another method",
    )
}

/// The router: every route, the body limit, the typed fallbacks.
pub(crate) fn router(app: Arc<App>, max_body: usize) -> Router {
    Router::new()
        .route("/healthz", get(health))
        .route("/t/{tenant}/inscribe", post(inscribe))
        .route("/t/{tenant}/inscribe/batch", post(inscribe_batch))
        .route("/t/{tenant}/recall", post(recall))
        .route("/t/{tenant}/supersede", post(supersede))
        .route("/t/{tenant}/release", post(release))
        .route("/t/{tenant}/pin", post(pin))
        .route("/t/{tenant}/purge", post(purge))
        .route("/t/{tenant}/forget-user", post(forget_user))
        .route("/t/{tenant}/plan", post(plan))
        .route("/t/{tenant}/history", post(history))
        .route("/t/{tenant}/decay", post(decay))
        .route("/t/{tenant}/sweep", post(sweep))
        .route("/t/{tenant}/verify", get(verify))
        .route("/t/{tenant}/events", get(events))
        .route("/t/{tenant}/receipts", get(receipts))
        .route("/t/{tenant}/receipts/{id}", get(receipt))
        .route("/t/{tenant}/key", get(key))
        .fallback(unknown_route)
        .method_not_allowed_fallback(wrong_method)
        .layer(DefaultBodyLimit::max(max_body))
        .with_state(app)
}
