//! Tenant ids: the name of a tenant's store file, so validated strictly before any path is
//! built from one.

use std::fmt;
use std::path::{Path, PathBuf};

/// Longest tenant id, in bytes.
pub const MAX_TENANT_LEN: usize = 64;

/// The file extension of a tenant's store: tenant `acme` lives in `DIR/acme.oubli`.
pub const STORE_EXTENSION: &str = "oubli";

/// A validated tenant id: 1 to [`MAX_TENANT_LEN`] bytes of lower-case ASCII letters, digits,
/// `-`, `_` and `.`, starting with a letter or a digit. No separator, no `..`, no upper case
/// (two ids never name one file on a case-insensitive file system), so an id is always one
/// plain file name inside the data directory.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TenantId(String);

impl TenantId {
    /// Validates `s`; the error says why it is not a tenant id.
    pub fn parse(s: &str) -> Result<TenantId, String> {
        if s.is_empty() {
            return Err("a tenant id is empty".into());
        }
        if s.len() > MAX_TENANT_LEN {
            return Err(format!(
                "a tenant id is at most {MAX_TENANT_LEN} bytes, this one is {}",
                s.len()
            ));
        }
        let first = s.as_bytes()[0];
        if !(first.is_ascii_lowercase() || first.is_ascii_digit()) {
            return Err("a tenant id starts with a lower-case letter or a digit".into());
        }
        if let Some(c) = s
            .chars()
            .find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || "-_.".contains(*c)))
        {
            return Err(format!(
                "a tenant id holds only a-z, 0-9, '-', '_' and '.', not {c:?}"
            ));
        }
        if s.contains("..") {
            return Err("a tenant id holds no \"..\"".into());
        }
        Ok(TenantId(s.to_owned()))
    }

    /// The id.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The tenant's store file inside `dir`.
    pub fn store_path(&self, dir: &Path) -> PathBuf {
        dir.join(format!("{}.{STORE_EXTENSION}", self.0))
    }
}

impl fmt::Display for TenantId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_names_pass_and_anything_path_like_fails() {
        for ok in [
            "acme",
            "a",
            "0",
            "team-7.prod_eu",
            &"x".repeat(MAX_TENANT_LEN),
        ] {
            assert!(TenantId::parse(ok).is_ok(), "{ok}");
        }
        for bad in [
            "",
            ".",
            "..",
            "a..b",
            "../etc",
            "a/b",
            "a\\b",
            "Acme",
            "-a",
            ".hidden",
            "a b",
            "a\0b",
            "é",
            &"x".repeat(MAX_TENANT_LEN + 1),
        ] {
            assert!(TenantId::parse(bad).is_err(), "{bad:?}");
        }
        let t = TenantId::parse("acme").unwrap();
        assert_eq!(t.store_path(Path::new("/d")), Path::new("/d/acme.oubli"));
    }
}
