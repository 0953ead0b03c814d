//! The command line's typed metadata (`--meta KEY:=JSON`) and filter expressions (`--where`).
//!
//! `--meta KEY=VALUE` stores the string VALUE; `--meta KEY:=JSON` stores a typed value written
//! as JSON: `priority:=3`, `score:=0.5`, `archived:=false`, `tags:='["a","b"]'`.
//!
//! `--where EXPR` (repeatable; every expression must hold) takes one of:
//!
//! | expression              | condition                                              |
//! |-------------------------|--------------------------------------------------------|
//! | `F=V`                   | F equals V (a list field: contains V)                  |
//! | `F!=V`                  | F does not equal V (or F is missing)                   |
//! | `F>V` `F>=V` `F<V` `F<=V` | F compares so with V (numbers, or strings by bytes) |
//! | `F in [V1, V2, ...]`    | F equals one of the values                             |
//! | `F?`                    | F exists                                               |
//! | `!F?`                   | F is missing                                           |
//! | `{...}`                 | a JSON filter object, as [`crate::Filter::from_json`]  |
//!
//! A value V is read as JSON when it is a JSON number, `true`, `false` or a quoted string, and
//! as a bare string otherwise: `priority>=2` compares with the integer 2, `team=core` with the
//! string `core`, `code="3"` with the string `3`.

use crate::metadata::{Condition, Filter, MetaValue, Op, Scalar};

/// Parses `KEY=VALUE` (a string) or `KEY:=JSON` (a typed value).
pub fn parse_meta(s: &str) -> Result<(String, MetaValue), String> {
    let (k, v) = s
        .split_once('=')
        .ok_or_else(|| format!("expected KEY=VALUE or KEY:=JSON, got {s:?}"))?;
    match k.strip_suffix(':') {
        Some(k) => {
            let json: serde_json::Value = serde_json::from_str(v)
                .map_err(|e| format!("{k}:={v}: the value is not JSON ({e})"))?;
            let value = MetaValue::from_json(&json).map_err(|e| format!("{k}:={v}: {e}"))?;
            Ok((k.to_owned(), value))
        }
        None => Ok((k.to_owned(), MetaValue::Str(v.to_owned()))),
    }
}

/// Parses one `--where` expression (see the module documentation).
pub fn parse_where(s: &str) -> Result<Filter, String> {
    let t = s.trim();
    if t.starts_with('{') {
        let json: serde_json::Value =
            serde_json::from_str(t).map_err(|e| format!("{s:?}: not a JSON filter ({e})"))?;
        return Filter::from_json(&json).map_err(|e| format!("{s:?}: {e}"));
    }
    let cond = condition(t).map_err(|e| format!("{s:?}: {e}"))?;
    cond.validate().map_err(|e| format!("{s:?}: {e}"))?;
    Ok(Filter::new().and(cond))
}

fn field(f: &str) -> Result<String, String> {
    let f = f.trim();
    if f.is_empty() {
        return Err("no field name".into());
    }
    Ok(f.to_owned())
}

fn condition(t: &str) -> Result<Condition, String> {
    if let Some(rest) = t.strip_suffix('?') {
        return Ok(match rest.strip_prefix('!') {
            Some(f) => Condition::new(field(f)?, Op::Missing),
            None => Condition::new(field(rest)?, Op::Exists),
        });
    }
    if let Some((f, set)) = t.split_once(" in ") {
        let set = set.trim();
        let inner = set
            .strip_prefix('[')
            .and_then(|x| x.strip_suffix(']'))
            .ok_or_else(|| format!("`in` needs a list in brackets, got {set:?}"))?;
        let values = if let Ok(serde_json::Value::Array(items)) = serde_json::from_str(set) {
            items
                .iter()
                .map(scalar_from_json)
                .collect::<Result<Vec<_>, _>>()?
        } else if inner.trim().is_empty() {
            Vec::new()
        } else {
            inner
                .split(',')
                .map(|v| value(v.trim()))
                .collect::<Result<Vec<_>, _>>()?
        };
        return Ok(Condition::new(field(f)?, Op::In(values)));
    }
    let at = t.find(['=', '!', '<', '>']).ok_or_else(|| {
        "expected F=V, F!=V, F>V, F>=V, F<V, F<=V, F in [..], F? or !F?".to_owned()
    })?;
    let (f, rest) = t.split_at(at);
    let (op, v): (fn(Scalar) -> Op, &str) = if let Some(v) = rest.strip_prefix("!=") {
        (Op::Ne, v)
    } else if let Some(v) = rest.strip_prefix(">=") {
        (Op::Gte, v)
    } else if let Some(v) = rest.strip_prefix("<=") {
        (Op::Lte, v)
    } else if let Some(v) = rest.strip_prefix('=') {
        (Op::Eq, v.strip_prefix('=').unwrap_or(v))
    } else if let Some(v) = rest.strip_prefix('>') {
        (Op::Gt, v)
    } else if let Some(v) = rest.strip_prefix('<') {
        (Op::Lt, v)
    } else {
        return Err(format!("unknown operator at {rest:?}"));
    };
    Ok(Condition::new(field(f)?, op(value(v.trim())?)))
}

/// A value: JSON when it reads as a JSON scalar, a bare string otherwise.
fn value(v: &str) -> Result<Scalar, String> {
    match serde_json::from_str::<serde_json::Value>(v) {
        Ok(
            j @ (serde_json::Value::Number(_)
            | serde_json::Value::Bool(_)
            | serde_json::Value::String(_)),
        ) => scalar_from_json(&j),
        _ => Ok(Scalar::Str(v.to_owned())),
    }
}

/// A JSON scalar as a [`Scalar`]; arrays, objects and null are refused.
fn scalar_from_json(v: &serde_json::Value) -> Result<Scalar, String> {
    match MetaValue::from_json(v).map_err(|e| e.to_string())? {
        MetaValue::Str(s) => Ok(Scalar::Str(s)),
        MetaValue::Int(i) => Ok(Scalar::Int(i)),
        MetaValue::Float(f) => Ok(Scalar::Float(f)),
        MetaValue::Bool(b) => Ok(Scalar::Bool(b)),
        MetaValue::List(_) => Err("a list value where a scalar was expected".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(s: &str) -> Condition {
        let f = parse_where(s).unwrap();
        assert_eq!(f.conditions.len(), 1, "{s}");
        f.conditions.into_iter().next().unwrap()
    }

    #[test]
    fn expressions_parse_to_typed_conditions() {
        assert_eq!(
            one("team=core"),
            Condition::new("team", Op::Eq("core".into()))
        );
        assert_eq!(
            one("team==core"),
            Condition::new("team", Op::Eq("core".into()))
        );
        assert_eq!(
            one("priority>=2"),
            Condition::new("priority", Op::Gte(Scalar::Int(2)))
        );
        assert_eq!(
            one("priority > 2.5"),
            Condition::new("priority", Op::Gt(Scalar::Float(2.5)))
        );
        assert_eq!(one("n<3"), Condition::new("n", Op::Lt(Scalar::Int(3))));
        assert_eq!(one("n<=3"), Condition::new("n", Op::Lte(Scalar::Int(3))));
        assert_eq!(
            one("code=\"3\""),
            Condition::new("code", Op::Eq("3".into()))
        );
        assert_eq!(
            one("done!=true"),
            Condition::new("done", Op::Ne(Scalar::Bool(true)))
        );
        assert_eq!(one("archived?"), Condition::new("archived", Op::Exists));
        assert_eq!(one("!archived?"), Condition::new("archived", Op::Missing));
        assert_eq!(
            one("team in [x, y, 3]"),
            Condition::new("team", Op::In(vec!["x".into(), "y".into(), Scalar::Int(3)]))
        );
        assert_eq!(
            one("team in [\"a,b\", 1]"),
            Condition::new("team", Op::In(vec!["a,b".into(), Scalar::Int(1)]))
        );
        let f = parse_where(r#"{"priority": {"$gte": 2, "$lt": 5}}"#).unwrap();
        assert_eq!(f.conditions.len(), 2);
    }

    #[test]
    fn malformed_expressions_are_refused_with_a_reason() {
        for bad in [
            "",
            "priority",
            "=3",
            "x in 3",
            "flag>true",
            "{not json",
            "?",
            "x in [[1]]",
        ] {
            let e = parse_where(bad).unwrap_err();
            assert!(e.contains(&format!("{bad:?}")), "{bad}: {e}");
        }
    }

    #[test]
    fn meta_reads_strings_and_typed_json() {
        assert_eq!(
            parse_meta("a=3").unwrap(),
            ("a".into(), MetaValue::Str("3".into()))
        );
        assert_eq!(parse_meta("a:=3").unwrap(), ("a".into(), MetaValue::Int(3)));
        assert_eq!(
            parse_meta("tags:=[\"x\",true]").unwrap(),
            (
                "tags".into(),
                MetaValue::List(vec!["x".into(), Scalar::Bool(true)])
            )
        );
        assert!(parse_meta("a:=nope").is_err());
        assert!(parse_meta("a:={}").is_err());
        assert!(parse_meta("a").is_err());
    }
}
