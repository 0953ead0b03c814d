//! Canonical JSON: the one byte form of a receipt or opening that is signed and compared.
//!
//! Objects with keys in byte order, no insignificant white space, strings with serde_json's
//! minimal escaping (`"`, `\`, control characters; everything else literal UTF-8), integers only
//! (no floats, no exponents), and exactly one trailing newline at the end of a document file.
//! A parser that accepts a document re-serializes it and requires the same bytes, so any
//! inserted, deleted or changed byte is either a different value or a non-canonical form.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::error::{AuditError, Result};

/// Canonical bytes of a value (without the trailing newline).
pub fn to_vec<T: Serialize>(v: &T) -> Result<Vec<u8>> {
    let value = serde_json::to_value(v).map_err(|e| AuditError::Corrupt(e.to_string()))?;
    check_integers(&value)?;
    // serde_json's map is ordered by key (no `preserve_order`), and `to_vec` is compact.
    serde_json::to_vec(&value).map_err(|e| AuditError::Corrupt(e.to_string()))
}

/// A document file: canonical bytes and one newline.
pub fn to_document<T: Serialize>(v: &T) -> Result<Vec<u8>> {
    let mut out = to_vec(v)?;
    out.push(b'\n');
    Ok(out)
}

/// Parses a document file and insists it is canonical: `bytes` must be exactly
/// `to_document(parse(bytes))`. `what` names the document in errors.
pub fn from_document<T: DeserializeOwned + Serialize>(
    bytes: &[u8],
    what: &'static str,
) -> Result<T> {
    let body = bytes
        .strip_suffix(b"\n")
        .ok_or(AuditError::NotCanonical(what))?;
    let value: Value =
        serde_json::from_slice(body).map_err(|e| AuditError::Corrupt(format!("{what}: {e}")))?;
    check_integers(&value)?;
    let parsed: T =
        serde_json::from_value(value).map_err(|e| AuditError::Corrupt(format!("{what}: {e}")))?;
    if to_vec(&parsed)? != body {
        return Err(AuditError::NotCanonical(what));
    }
    Ok(parsed)
}

fn check_integers(v: &Value) -> Result<()> {
    match v {
        Value::Number(n) if !(n.is_u64() || n.is_i64()) => Err(AuditError::Corrupt(
            "canonical JSON carries integers only".into(),
        )),
        Value::Array(a) => a.iter().try_for_each(check_integers),
        Value::Object(o) => o.values().try_for_each(check_integers),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn sorted_compact_and_strict() {
        let mut m = BTreeMap::new();
        m.insert("b", 1);
        m.insert("a", 2);
        assert_eq!(to_document(&m).unwrap(), b"{\"a\":2,\"b\":1}\n");
        let ok: BTreeMap<String, i64> = from_document(b"{\"a\":2,\"b\":1}\n", "doc").unwrap();
        assert_eq!(ok.len(), 2);
        for bad in [
            &b"{\"b\":1,\"a\":2}\n"[..],
            b"{\"a\":2, \"b\":1}\n",
            b"{\"a\":2,\"b\":1}",
            b"{\"a\":2,\"b\":1}\n\n",
            b"{\"a\":2,\"a\":2,\"b\":1}\n",
            b"{\"a\":2.0,\"b\":1}\n",
        ] {
            assert!(
                from_document::<BTreeMap<String, i64>>(bad, "doc").is_err(),
                "{bad:?}"
            );
        }
    }
}
