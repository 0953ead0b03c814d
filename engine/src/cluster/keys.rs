//! Tenant signing keys derived from one deployment secret (`oubli serve --signing-secret`).
//!
//! Every tenant's store signs its hash-chained log and its receipts with an ed25519 key. When a
//! tenant moves to another node (a takeover restores it from the replication stream), the new
//! node must sign with the same key, so that the log continues and every receipt verifies with
//! one public key. Each node is given the same secret file; the key of tenant `T` is
//! `blake3::derive_key(KEY_CONTEXT, secret || T)`: the same on every node, different for every
//! tenant, and no key can be computed from another tenant's key or public key.
//!
//! The trade-off (docs/scale-out.md): whoever holds the secret file can sign for every tenant of
//! the deployment, so it is as sensitive as all the tenants' keys together; it never leaves the
//! nodes (it is not in the stream, the snapshots or etcd). Rotating it changes every tenant's
//! key, which existing stores refuse (`KeyMismatch`).

use std::path::Path;

use crate::serve::TenantId;

/// The BLAKE3 key-derivation context of tenant signing keys.
pub const KEY_CONTEXT: &str = "oubli 2026-11 tenant ed25519 signing key from a deployment secret";

/// A deployment's signing secret: 32 bytes, from a file of 64 hex digits.
#[derive(Clone)]
pub struct SigningSecret([u8; 32]);

impl std::fmt::Debug for SigningSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SigningSecret(..)")
    }
}

/// Why a signing secret could not be read.
#[derive(Debug, thiserror::Error)]
pub enum SecretError {
    /// The file could not be read.
    #[error("signing secret {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The error.
        source: std::io::Error,
    },
    /// The file is not 64 hex digits, or others than its owner may read it.
    #[error("signing secret {path}: {reason}")]
    Invalid {
        /// The file.
        path: String,
        /// What is wrong.
        reason: String,
    },
}

impl From<SecretError> for crate::Error {
    fn from(e: SecretError) -> crate::Error {
        match e {
            SecretError::Io { source, .. } => crate::Error::Io(source),
            e @ SecretError::Invalid { .. } => crate::Error::InvalidArgument(e.to_string()),
        }
    }
}

impl SigningSecret {
    /// A secret from its 32 bytes.
    pub fn from_bytes(bytes: [u8; 32]) -> SigningSecret {
        SigningSecret(bytes)
    }

    /// Reads the secret file: 64 hex digits (surrounding white space ignored), e.g. from
    /// `openssl rand -hex 32`. On Unix the file must not be readable or writable by group or
    /// others (as ssh requires of private keys): `chmod 600`.
    pub fn from_file(path: &Path) -> Result<SigningSecret, SecretError> {
        let shown = path.display().to_string();
        let invalid = |reason: String| SecretError::Invalid {
            path: shown.clone(),
            reason,
        };
        let meta = std::fs::metadata(path).map_err(|source| SecretError::Io {
            path: shown.clone(),
            source,
        })?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = meta.permissions().mode();
            if mode & 0o077 != 0 {
                return Err(invalid(format!(
                    "mode {:o} lets group or others read it; chmod 600",
                    mode & 0o777
                )));
            }
        }
        #[cfg(not(unix))]
        let _ = meta;
        let text = std::fs::read_to_string(path).map_err(|source| SecretError::Io {
            path: shown.clone(),
            source,
        })?;
        Self::parse_hex(text.trim()).ok_or_else(|| {
            invalid("expected 64 hex digits (32 random bytes: openssl rand -hex 32)".into())
        })
    }

    fn parse_hex(s: &str) -> Option<SigningSecret> {
        if s.len() != 64 {
            return None;
        }
        let mut out = [0u8; 32];
        for (i, b) in out.iter_mut().enumerate() {
            *b = u8::from_str_radix(s.get(2 * i..2 * i + 2)?, 16).ok()?;
        }
        Some(SigningSecret(out))
    }

    /// The ed25519 secret key of `tenant`: `blake3::derive_key(KEY_CONTEXT, secret || tenant)`
    /// (tenant ids hold no NUL and the secret has a fixed length, so no two pairs give the
    /// same input).
    pub fn tenant_key(&self, tenant: &TenantId) -> [u8; 32] {
        let mut material = Vec::with_capacity(32 + tenant.as_str().len());
        material.extend_from_slice(&self.0);
        material.extend_from_slice(tenant.as_str().as_bytes());
        blake3::derive_key(KEY_CONTEXT, &material)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_differ_per_tenant_and_repeat_per_secret() {
        let s = SigningSecret::from_bytes([7; 32]);
        let a = TenantId::parse("acme").unwrap();
        let b = TenantId::parse("beta").unwrap();
        assert_eq!(s.tenant_key(&a), s.tenant_key(&a));
        assert_ne!(s.tenant_key(&a), s.tenant_key(&b));
        assert_ne!(
            s.tenant_key(&a),
            SigningSecret::from_bytes([8; 32]).tenant_key(&a)
        );
    }

    #[test]
    fn the_file_must_be_64_hex_digits_and_private() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("secret");
        let write = |text: &str, mode: u32| {
            std::fs::write(&p, text).unwrap();
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode)).unwrap();
            }
            #[cfg(not(unix))]
            let _ = mode;
        };
        write(&format!("{}\n", "ab".repeat(32)), 0o600);
        assert!(SigningSecret::from_file(&p).is_ok());
        for bad in ["", "abc", &"zz".repeat(32), &"ab".repeat(33)] {
            write(bad, 0o600);
            assert!(
                matches!(
                    SigningSecret::from_file(&p),
                    Err(SecretError::Invalid { .. })
                ),
                "{bad:?}"
            );
        }
        #[cfg(unix)]
        {
            write(&"ab".repeat(32), 0o644);
            assert!(matches!(
                SigningSecret::from_file(&p),
                Err(SecretError::Invalid { .. })
            ));
        }
        assert!(matches!(
            SigningSecret::from_file(&dir.path().join("missing")),
            Err(SecretError::Io { .. })
        ));
    }
}
