//! Typed JSON errors: every failure is answered `{"error": message, "code": code}` (the
//! shape of the CLI's `--json` errors) with an HTTP status that fits; a no-match also carries
//! `query` and `candidates`, the nearest rows and why each was not acted on.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::Error;

/// An error answer.
#[derive(Debug)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// The stable code (the library's [`Error::code`] for store errors).
    pub code: &'static str,
    /// The message.
    pub message: String,
    /// For `no_match`: the request and the nearest candidates.
    pub no_match: Option<crate::error::NoMatch>,
    /// For a redirect: where the tenant is served.
    pub location: Option<String>,
}

#[derive(Serialize)]
struct Body<'a> {
    error: &'a str,
    code: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    query: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    candidates: Option<&'a [crate::Rejected]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    location: Option<&'a str>,
}

impl ApiError {
    /// An error with a status, a code and a message.
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
            no_match: None,
            location: None,
        }
    }

    /// 500 `internal`: a fault of the server, not of the request.
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", message)
    }

    /// 503 `tenant_unavailable`: this server may not serve `tenant` right now (placement).
    pub fn unavailable(tenant: &super::tenant::TenantId, reason: &str) -> ApiError {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "tenant_unavailable",
            format!("tenant {tenant} is not available here: {reason}; retry shortly"),
        )
    }

    /// 504 `not_acknowledged`: the write committed on this server, but the replication stream
    /// did not confirm it (in time, or before this server lost the tenant). Its outcome is
    /// unknown: it may or may not survive a takeover, as after a timeout.
    pub fn not_acknowledged(tenant: &super::tenant::TenantId, reason: &str) -> ApiError {
        ApiError::new(
            StatusCode::GATEWAY_TIMEOUT,
            "not_acknowledged",
            format!(
                "the write to tenant {tenant} committed here but was not acknowledged by the \
                 replication stream ({reason}); its outcome is unknown"
            ),
        )
    }

    /// 503 `busy`: every open store has a request in flight.
    pub fn busy(max_open: usize) -> ApiError {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "busy",
            format!("all {max_open} open stores are in use; retry shortly"),
        )
    }
}

/// The HTTP status of a library error.
fn status_of(e: &Error) -> StatusCode {
    match e {
        Error::EmptyText
        | Error::InvalidField { .. }
        | Error::DimensionMismatch { .. }
        | Error::InvalidVector(_)
        | Error::InvalidArgument(_)
        | Error::BudgetTooSmall { .. } => StatusCode::BAD_REQUEST,
        Error::TextTooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
        Error::UnknownRow(_) | Error::UnknownKey { .. } | Error::NoMatch(_) => {
            StatusCode::NOT_FOUND
        }
        Error::Purged(_) => StatusCode::GONE,
        Error::DuplicateKey { .. }
        | Error::InvalidTransition { .. }
        | Error::IncompleteNote { .. }
        | Error::Derivation(_) => StatusCode::CONFLICT,
        Error::ReadOnly | Error::Closed | Error::Locked(_) => StatusCode::SERVICE_UNAVAILABLE,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

impl From<Error> for ApiError {
    fn from(e: Error) -> ApiError {
        let mut a = ApiError::new(status_of(&e), e.code(), e.to_string());
        if let Error::NoMatch(m) = e {
            a.no_match = Some(m);
        }
        a
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = Body {
            error: &self.message,
            code: self.code,
            query: self.no_match.as_ref().map(|m| m.query.as_str()),
            candidates: self.no_match.as_ref().map(|m| m.candidates.as_slice()),
            location: self.location.as_deref(),
        };
        let mut r = super::routes::json(self.status, &body);
        let headers = r.headers_mut();
        match self.status {
            StatusCode::UNAUTHORIZED => {
                headers.insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
            }
            StatusCode::SERVICE_UNAVAILABLE => {
                headers.insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
            }
            _ => {}
        }
        if let Some(l) = self
            .location
            .as_deref()
            .and_then(|l| HeaderValue::from_str(l).ok())
        {
            headers.insert(header::LOCATION, l);
        }
        r
    }
}
