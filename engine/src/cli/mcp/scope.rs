//! Per-user scoping of MCP tool calls: `user_id`, `agent_id` and `run_id` map onto oubli's
//! namespaces and metadata, the way agent frameworks scope memory.
//!
//! - `namespace`, when given, is used as is; otherwise `user_id` gives the namespace
//!   `user:<user_id>` (the id escaped as a label, see [`crate::namespace`]: the rule
//!   `forget_user` erases by); with neither, the store's default namespace.
//! - `agent_id` and `run_id` are stored as the metadata entries `agent_id` and `run_id` on
//!   `remember`, and become equality filters on `recall`.
//! - Targets by key or query stay inside the resolved namespace, so one user's request never
//!   reaches another user's rows.

use schemars::JsonSchema;
use serde::Deserialize;

use crate::{DEFAULT_NAMESPACE, Inscription, RecallQuery, Target};

/// The namespace of `user_id` under [`crate::namespace`]'s user rule (`user:<id>`, the id
/// escaped as a label); an empty id keeps the bare prefix, which no user's rule claims.
fn user_namespace(user_id: &str) -> String {
    crate::namespace::user_namespace(user_id).unwrap_or_else(|_| format!("user:{user_id}"))
}

/// The scope arguments every tool accepts.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
pub struct Scope {
    /// The user the memory belongs to; selects the namespace `user:<user_id>`.
    #[serde(default)]
    pub user_id: Option<String>,
    /// The agent that wrote or reads the memory (stored as metadata `agent_id`).
    #[serde(default)]
    pub agent_id: Option<String>,
    /// The run or session (stored as metadata `run_id`).
    #[serde(default)]
    pub run_id: Option<String>,
    /// An explicit namespace; overrides `user_id`'s.
    #[serde(default)]
    pub namespace: Option<String>,
}

impl Scope {
    /// The namespace calls in this scope act in, if the scope names one.
    pub fn namespace(&self) -> Option<String> {
        self.namespace
            .clone()
            .or_else(|| self.user_id.as_ref().map(|u| user_namespace(u)))
    }

    /// The metadata entries this scope adds to a new row or requires of a recalled one.
    pub fn metadata(&self) -> Vec<(&'static str, String)> {
        let mut m = Vec::new();
        if let Some(a) = &self.agent_id {
            m.push(("agent_id", a.clone()));
        }
        if let Some(r) = &self.run_id {
            m.push(("run_id", r.clone()));
        }
        m
    }

    /// Applies the scope to a new row.
    pub fn inscription(&self, text: &str) -> Inscription {
        let mut ins = Inscription::new(text);
        if let Some(ns) = self.namespace() {
            ins = ins.namespace(ns);
        }
        for (k, v) in self.metadata() {
            ins = ins.meta(k, v);
        }
        ins
    }

    /// Applies the scope to a recall.
    pub fn recall(&self, query: &str, k: usize) -> RecallQuery {
        let mut q = RecallQuery::new(query).k(k);
        if let Some(ns) = self.namespace() {
            q = q.namespace(ns);
        }
        for (key, v) in self.metadata() {
            q = q.filter(key, v);
        }
        q
    }
}

/// How a tool names the rows it acts on: exactly one of `id`, `key` or `query`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
pub struct TargetSpec {
    /// A row id (as returned by `remember` or `recall`).
    #[serde(default)]
    pub id: Option<u64>,
    /// The natural key of a live row in the scope's namespace.
    #[serde(default)]
    pub key: Option<String>,
    /// A description of the rows in words ("Ana's door code", "everything about Ana").
    #[serde(default)]
    pub query: Option<String>,
}

impl TargetSpec {
    /// The engine target, confined to `scope`'s namespace; an error unless exactly one of
    /// `id`, `key`, `query` is given.
    pub fn target(&self, scope: &Scope) -> crate::Result<Target> {
        let given = [self.id.is_some(), self.key.is_some(), self.query.is_some()];
        if given.iter().filter(|g| **g).count() != 1 {
            return Err(crate::Error::InvalidArgument(
                "give exactly one of id, key, query".into(),
            ));
        }
        Ok(if let Some(id) = self.id {
            Target::id(id)
        } else if let Some(k) = &self.key {
            Target::key(
                scope
                    .namespace()
                    .unwrap_or_else(|| DEFAULT_NAMESPACE.into()),
                k.clone(),
            )
        } else {
            Target::Query {
                namespace: scope.namespace(),
                text: self.query.clone().unwrap_or_default(),
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_id_selects_a_namespace_and_an_explicit_one_wins() {
        let s = Scope {
            user_id: Some("ana".into()),
            ..Scope::default()
        };
        assert_eq!(s.namespace().as_deref(), Some("user:ana"));
        let s = Scope {
            user_id: Some("ana".into()),
            namespace: Some("ops".into()),
            ..Scope::default()
        };
        assert_eq!(s.namespace().as_deref(), Some("ops"));
        assert_eq!(Scope::default().namespace(), None);
    }

    #[test]
    fn a_target_needs_exactly_one_selector() {
        let s = Scope::default();
        assert!(TargetSpec::default().target(&s).is_err());
        let both = TargetSpec {
            id: Some(1),
            query: Some("x".into()),
            ..TargetSpec::default()
        };
        assert!(both.target(&s).is_err());
        let q = TargetSpec {
            query: Some("door code".into()),
            ..TargetSpec::default()
        };
        let user = Scope {
            user_id: Some("ana".into()),
            ..Scope::default()
        };
        match q.target(&user).unwrap() {
            Target::Query { namespace, text } => {
                assert_eq!(namespace.as_deref(), Some("user:ana"));
                assert_eq!(text, "door code");
            }
            other => panic!("unexpected target {other:?}"),
        }
    }
}
