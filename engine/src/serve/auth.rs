//! Bearer tokens: deployment-wide tokens reach every tenant, tenant tokens reach one.
//!
//! The tokens file holds one token per line, `SCOPE SECRET`, where SCOPE is `*` (a
//! deployment token) or a tenant id, and SECRET is the token itself or `blake3:` followed by
//! the 64 hex digits of its BLAKE3 hash (`printf %s "$TOKEN" | b3sum`), which keeps the
//! plaintext off the server's disk. Blank lines and lines starting with `#` are ignored. A
//! plaintext token is at least [`MIN_TOKEN_LEN`] bytes; one token has one scope.
//!
//! In memory only hashes are kept; a presented token is hashed and looked up, and the digest
//! comparison is constant-time (`blake3::Hash`'s equality).

use std::collections::HashMap;
use std::path::Path;

use super::tenant::TenantId;
use crate::{Error, Result};

/// Shortest plaintext token accepted in a tokens file, in bytes.
pub const MIN_TOKEN_LEN: usize = 16;

/// What a token may reach.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TokenScope {
    /// Every tenant of the deployment.
    Deployment,
    /// One tenant.
    Tenant(TenantId),
}

/// Why a request was not let through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Denied {
    /// No bearer token, or one the server does not know (HTTP 401).
    Unauthenticated,
    /// A known token of another tenant (HTTP 403).
    Forbidden,
}

/// The tokens a server accepts, hashed.
#[derive(Clone, Debug, Default)]
pub struct Tokens {
    by_hash: HashMap<blake3::Hash, TokenScope>,
}

impl Tokens {
    /// Reads a tokens file (format in the module documentation).
    pub fn from_file(path: &Path) -> Result<Tokens> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            Error::Io(std::io::Error::new(
                e.kind(),
                format!("{}: {e}", path.display()),
            ))
        })?;
        Tokens::parse(&text).map_err(|m| Error::InvalidArgument(format!("{}: {m}", path.display())))
    }

    /// Parses the text of a tokens file; the error names the line.
    pub fn parse(text: &str) -> std::result::Result<Tokens, String> {
        let mut tokens = Tokens::default();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let at = |m: String| format!("line {}: {m}", n + 1);
            let mut parts = line.split_whitespace();
            let (Some(scope), Some(secret), None) = (parts.next(), parts.next(), parts.next())
            else {
                return Err(at("expected `SCOPE SECRET`".into()));
            };
            let scope = if scope == "*" {
                TokenScope::Deployment
            } else {
                TokenScope::Tenant(TenantId::parse(scope).map_err(at)?)
            };
            let hash = match secret.strip_prefix("blake3:") {
                Some(hex) => blake3::Hash::from_hex(hex)
                    .map_err(|_| at("blake3: takes 64 hex digits".into()))?,
                None if secret.len() < MIN_TOKEN_LEN => {
                    return Err(at(format!("a token is at least {MIN_TOKEN_LEN} bytes")));
                }
                None => blake3::hash(secret.as_bytes()),
            };
            if tokens.by_hash.insert(hash, scope).is_some() {
                return Err(at("this token is already listed".into()));
            }
        }
        Ok(tokens)
    }

    /// Adds a token (its plaintext) with a scope.
    pub fn insert(&mut self, token: &str, scope: TokenScope) {
        self.by_hash.insert(blake3::hash(token.as_bytes()), scope);
    }

    /// How many tokens are known.
    pub fn len(&self) -> usize {
        self.by_hash.len()
    }

    /// True when no token is known (every request is refused).
    pub fn is_empty(&self) -> bool {
        self.by_hash.is_empty()
    }

    /// Checks the value of an `Authorization` header (if any) for `tenant`.
    pub fn check(
        &self,
        authorization: Option<&str>,
        tenant: &TenantId,
    ) -> std::result::Result<(), Denied> {
        let token = authorization
            .and_then(|h| {
                h.strip_prefix("Bearer ")
                    .or_else(|| h.strip_prefix("bearer "))
            })
            .map(str::trim)
            .ok_or(Denied::Unauthenticated)?;
        match self.by_hash.get(&blake3::hash(token.as_bytes())) {
            None => Err(Denied::Unauthenticated),
            Some(TokenScope::Deployment) => Ok(()),
            Some(TokenScope::Tenant(t)) if t == tenant => Ok(()),
            Some(TokenScope::Tenant(_)) => Err(Denied::Forbidden),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_hashes_and_refusals() {
        let hashed = blake3::hash(b"tenant-b-token-0123456789").to_hex();
        let t = Tokens::parse(&format!(
            "# comment\n\n* deployment-token-0123456789\nacme tenant-a-token-0123456789\nbeta blake3:{hashed}\n"
        ))
        .unwrap();
        assert_eq!(t.len(), 3);
        let acme = TenantId::parse("acme").unwrap();
        let beta = TenantId::parse("beta").unwrap();
        let bearer = |s: &str| format!("Bearer {s}");
        assert_eq!(
            t.check(Some(&bearer("deployment-token-0123456789")), &beta),
            Ok(())
        );
        assert_eq!(
            t.check(Some(&bearer("tenant-a-token-0123456789")), &acme),
            Ok(())
        );
        assert_eq!(
            t.check(Some(&bearer("tenant-b-token-0123456789")), &beta),
            Ok(())
        );
        assert_eq!(
            t.check(Some(&bearer("tenant-a-token-0123456789")), &beta),
            Err(Denied::Forbidden)
        );
        assert_eq!(
            t.check(Some(&bearer("nope")), &acme),
            Err(Denied::Unauthenticated)
        );
        assert_eq!(t.check(None, &acme), Err(Denied::Unauthenticated));
        assert_eq!(
            t.check(Some("Basic dXNlcjpwYXNz"), &acme),
            Err(Denied::Unauthenticated)
        );
        for bad in [
            "* short",
            "Bad/Tenant long-enough-token-123",
            "acme",
            "acme blake3:xyz",
            "* same-token-0123456789\nacme same-token-0123456789",
        ] {
            assert!(Tokens::parse(bad).is_err(), "{bad}");
        }
    }
}
