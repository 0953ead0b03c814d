//! Namespaces as paths of labels, and the rule that says which namespaces belong to a user.
//!
//! A namespace is a string. Tuple namespaces (Python's `("user", "ana", "notes")`, LangGraph's
//! namespace tuples) are its labels joined by `:`, with a `\` or `:` inside a label escaped by a
//! backslash: `("user", "ana")` is `"user:ana"`, `("user", "a:b")` is `"user:a\:b"`.
//! [`join`] and [`split`] convert; every surface (the MCP server's `user_id`, Python's tuples and
//! `user_id=`, `oubli forget-user`) uses them, so one user's namespaces are spelled one way.
//!
//! **The user rule.** The namespace of user `U` is `join(["user", U])`; every namespace whose
//! labels start with `"user", U` (`user:U`, `user:U:notes`, `user:U:agent:planner`) belongs to
//! `U` and to no one else. Labels are compared after splitting, never as string prefixes, so
//! `user:ana` never claims `user:anastasia` or `user:ana\:x` (the user `ana:x`). A namespace
//! whose first label is `user` and that has a second label belongs to that user ([`owner`]);
//! any other namespace (`default`, `team:support`) belongs to no user.

use crate::error::{Error, Result};
use crate::row::validate_field;

/// The separator of a namespace's labels in its string form.
pub const SEPARATOR: char = ':';

/// The first label of every user's namespace.
pub const USER_LABEL: &str = "user";

/// The string form of a tuple namespace: labels joined by `:`, with `\` and `:` inside a label
/// escaped by a backslash ([`split`] inverts it). An empty tuple or an empty label is
/// [`Error::InvalidArgument`].
pub fn join<S: AsRef<str>>(labels: &[S]) -> Result<String> {
    if labels.is_empty() {
        return Err(Error::InvalidArgument(
            "a namespace tuple needs at least one label".into(),
        ));
    }
    let mut out = String::new();
    for (i, l) in labels.iter().enumerate() {
        let l = l.as_ref();
        if l.is_empty() {
            return Err(Error::InvalidArgument(format!(
                "namespace label {i} is empty"
            )));
        }
        if i > 0 {
            out.push(SEPARATOR);
        }
        for c in l.chars() {
            if c == '\\' || c == SEPARATOR {
                out.push('\\');
            }
            out.push(c);
        }
    }
    Ok(out)
}

/// The labels of a namespace's string form (the inverse of [`join`]): split at unescaped `:`,
/// a backslash keeps the next character.
pub fn split(s: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let last = out.last_mut().expect("never empty");
                last.push(chars.next().unwrap_or('\\'));
            }
            SEPARATOR => out.push(String::new()),
            c => out.last_mut().expect("never empty").push(c),
        }
    }
    out
}

/// The namespace of user `user_id`: `user:<user_id>`, the id escaped as a label. An empty or
/// oversized id is [`Error::InvalidArgument`].
pub fn user_namespace(user_id: &str) -> Result<String> {
    let ns = join(&[USER_LABEL, user_id])
        .map_err(|_| Error::InvalidArgument("user_id must not be empty".into()))?;
    validate_field("namespace", &ns)?;
    Ok(ns)
}

/// The user a namespace belongs to under the user rule, if any.
pub fn owner(namespace: &str) -> Option<String> {
    let mut labels = split(namespace).into_iter();
    match (labels.next(), labels.next()) {
        (Some(first), Some(user)) if first == USER_LABEL && !user.is_empty() => Some(user),
        _ => None,
    }
}

/// True if `namespace` belongs to user `user_id` (it is `user:<user_id>` or below it).
pub fn belongs_to(namespace: &str, user_id: &str) -> bool {
    owner(namespace).is_some_and(|u| u == user_id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn join_and_split_invert_each_other() {
        let labels = ["user", "a:b", "c\\d", "notes"];
        let s = join(&labels).unwrap();
        assert_eq!(s, "user:a\\:b:c\\\\d:notes");
        assert_eq!(split(&s), labels);
        assert!(join::<&str>(&[]).is_err());
        assert!(join(&["user", ""]).is_err());
    }

    #[test]
    fn the_user_rule_compares_labels_not_prefixes() {
        assert_eq!(user_namespace("ana").unwrap(), "user:ana");
        assert!(belongs_to("user:ana", "ana"));
        assert!(belongs_to("user:ana:notes", "ana"));
        assert!(!belongs_to("user:anastasia", "ana"));
        assert!(!belongs_to("user:ana\\:x", "ana"));
        assert!(belongs_to(&user_namespace("ana:x").unwrap(), "ana:x"));
        assert!(!belongs_to("team:ana", "ana"));
        assert!(!belongs_to("user", "ana"));
        assert_eq!(owner("default"), None);
        assert_eq!(owner("user:bob:runs:7").as_deref(), Some("bob"));
        assert!(user_namespace("").is_err());
    }
}
