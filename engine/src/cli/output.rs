//! How the CLI writes: JSON with stable shapes, and text without Rust debug syntax.
//!
//! Every write to standard output goes through [`outln!`](crate::cli) and returns an error
//! instead of panicking, so a closed pipe (`oubli list S | head`) ends the command quietly.

use std::io::Write;

use serde_json::Value;

use crate::{Depth, Result};

/// Writes `v` as pretty JSON on standard output, with every depth in its stable shape
/// ([`depth_json`]).
pub fn print_json(v: &impl serde::Serialize) -> Result<()> {
    let mut v = serde_json::to_value(v)
        .map_err(|e| crate::Error::InvalidArgument(format!("json output: {e}")))?;
    normalize_depths(&mut v);
    let text = serde_json::to_string_pretty(&v)
        .map_err(|e| crate::Error::InvalidArgument(format!("json output: {e}")))?;
    writeln!(std::io::stdout(), "{text}")?;
    Ok(())
}

/// A depth in JSON, always one shape: `{"state": "surface", "level": 1.0}`; `level` is the
/// finite depth in `[0, 1]`, or `null` for `pinned` (+inf) and `void` (erased).
pub fn depth_json(d: Depth) -> Value {
    let level = match d {
        Depth::Level(l) => serde_json::json!(l),
        Depth::Pinned | Depth::Void => Value::Null,
    };
    serde_json::json!({ "state": d.state().name(), "level": level })
}

/// The engine serializes a depth as `"Pinned"`, `"Void"` or `{"Level": x}` (that encoding is
/// hashed into the log, so it stays). Fields that hold a depth (`depth`, and a transition's
/// `before` / `after`) are rewritten into [`depth_json`]'s shape. Metadata is never touched.
fn normalize_depths(v: &mut Value) {
    match v {
        Value::Array(a) => a.iter_mut().for_each(normalize_depths),
        Value::Object(o) => {
            for (k, val) in o.iter_mut() {
                if k == "metadata" {
                    continue;
                }
                if matches!(k.as_str(), "depth" | "before" | "after")
                    && let Some(d) = as_depth(val)
                {
                    *val = depth_json(d);
                    continue;
                }
                normalize_depths(val);
            }
        }
        _ => {}
    }
}

/// Reads the engine's serialized depth back, if `v` is exactly one.
fn as_depth(v: &Value) -> Option<Depth> {
    match v {
        Value::String(s) if s == "Pinned" => Some(Depth::Pinned),
        Value::String(s) if s == "Void" => Some(Depth::Void),
        Value::Object(o) if o.len() == 1 => o.get("Level")?.as_f64().map(Depth::Level),
        _ => None,
    }
}

/// Row ids for people: `#3, #5`, or `none`.
pub fn ids(ids: &[u64]) -> String {
    if ids.is_empty() {
        return "none".into();
    }
    ids.iter()
        .map(|i| format!("#{i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// An optional value for people: the value, or `-`.
pub fn opt<T: std::fmt::Display>(v: Option<T>) -> String {
    v.map_or_else(|| "-".into(), |v| v.to_string())
}

/// Words for people: `"a", "b"` becomes `a, b`, or `none`.
pub fn words(w: &[String]) -> String {
    if w.is_empty() {
        "none".into()
    } else {
        w.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_depth_has_one_shape() {
        let mut v = serde_json::json!([
            {"depth": "Pinned", "metadata": {"depth": "Pinned"}},
            {"depth": {"Level": 0.5}},
            {"transitions": [{"before": null, "after": "Void"}]},
        ]);
        normalize_depths(&mut v);
        assert_eq!(
            v[0]["depth"],
            serde_json::json!({"state": "pinned", "level": null})
        );
        assert_eq!(v[0]["metadata"]["depth"], "Pinned");
        assert_eq!(
            v[1]["depth"],
            serde_json::json!({"state": "sinking", "level": 0.5})
        );
        assert_eq!(v[2]["transitions"][0]["before"], Value::Null);
        assert_eq!(v[2]["transitions"][0]["after"]["state"], "void");
    }

    #[test]
    fn text_helpers() {
        assert_eq!(ids(&[3, 5]), "#3, #5");
        assert_eq!(ids(&[]), "none");
        assert_eq!(opt(Some(5)), "5");
        assert_eq!(opt::<u64>(None), "-");
    }
}
