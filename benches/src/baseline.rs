//! A naive in-memory baseline that proves the bank can fail.
//!
//! It stands for the store most people write first: rows in a list, recall ranked by how many
//! query words a row contains, and forgetting by substring match, like ForgetEval's
//! `DELETE ... WHERE text LIKE '%q%'`. A control query targets every row that contains it as a
//! case-insensitive substring; when none does, every row that contains each of its words.
//! Supersede deletes the targets and inscribes the new text; release and purge both delete.
//! It has no clock, so clock advances are N/A.

use crate::adapter::{
    Adapter, AdapterError, DEFAULT_NAMESPACE, ListRequest, RecallRequest, RowId, Target,
};
use crate::case::Row;

#[derive(Debug, Clone)]
struct Stored {
    id: RowId,
    namespace: String,
    key: Option<String>,
    meta: std::collections::BTreeMap<String, String>,
    text: String,
    lower: String,
}

/// The naive baseline store.
#[derive(Debug, Default)]
pub struct NaiveAdapter {
    rows: Vec<Stored>,
    next_id: RowId,
}

impl NaiveAdapter {
    /// An empty baseline store.
    pub fn new() -> Self {
        Self::default()
    }

    fn add(&mut self, row: &Row) -> RowId {
        self.next_id += 1;
        let id = self.next_id;
        let namespace = row
            .namespace
            .clone()
            .unwrap_or_else(|| DEFAULT_NAMESPACE.to_string());
        // A natural key names one live row: a new row with the same key replaces the old one.
        if let Some(key) = &row.key {
            self.rows
                .retain(|r| !(r.namespace == namespace && r.key.as_ref() == Some(key)));
        }
        self.rows.push(Stored {
            id,
            namespace,
            key: row.key.clone(),
            meta: row.meta.clone(),
            text: row.text.clone(),
            lower: row.text.to_lowercase(),
        });
        id
    }

    /// Indexes of the rows a query targets: substring match, else all-words match.
    fn matching(&self, query: &str) -> Vec<usize> {
        let q = query.to_lowercase();
        let like: Vec<usize> = (0..self.rows.len())
            .filter(|&i| self.rows[i].lower.contains(&q))
            .collect();
        if !like.is_empty() {
            return like;
        }
        let words = words(&q);
        if words.is_empty() {
            return Vec::new();
        }
        (0..self.rows.len())
            .filter(|&i| {
                words
                    .iter()
                    .all(|w| self.rows[i].lower.contains(w.as_str()))
            })
            .collect()
    }

    fn targets(&self, target: &Target) -> Vec<usize> {
        match target {
            Target::Query(q) => self.matching(q),
            Target::Id(id) => (0..self.rows.len())
                .filter(|&i| self.rows[i].id == *id)
                .collect(),
            Target::Key { namespace, key } => (0..self.rows.len())
                .filter(|&i| {
                    self.rows[i].namespace == *namespace && self.rows[i].key.as_ref() == Some(key)
                })
                .collect(),
        }
    }

    fn delete(&mut self, indexes: &[usize]) -> usize {
        let ids: Vec<RowId> = indexes.iter().map(|&i| self.rows[i].id).collect();
        self.rows.retain(|r| !ids.contains(&r.id));
        ids.len()
    }

    fn ranked(&self, query: &str, k: usize, keep: impl Fn(&Stored) -> bool) -> Vec<String> {
        let words = words(&query.to_lowercase());
        let mut scored: Vec<(usize, RowId, &str)> = self
            .rows
            .iter()
            .filter(|r| keep(r))
            .map(|r| {
                let score = words
                    .iter()
                    .filter(|w| r.lower.contains(w.as_str()))
                    .count();
                (score, r.id, r.text.as_str())
            })
            .collect();
        // Highest score first; ties by id, so the order is deterministic.
        scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        scored
            .into_iter()
            .take(k)
            .map(|(_, _, t)| t.to_string())
            .collect()
    }
}

/// Lower-case alphanumeric words of a text, deduplicated, in order of first appearance.
fn words(lower: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for w in lower.split(|c: char| !c.is_alphanumeric()) {
        if !w.is_empty() && !out.iter().any(|o| o == w) {
            out.push(w.to_string());
        }
    }
    out
}

fn meta_matches(
    row: &std::collections::BTreeMap<String, String>,
    want: &std::collections::BTreeMap<String, String>,
) -> bool {
    want.iter().all(|(k, v)| row.get(k) == Some(v))
}

impl Adapter for NaiveAdapter {
    fn name(&self) -> &str {
        "baseline"
    }

    fn reset(&mut self) -> Result<(), AdapterError> {
        self.rows.clear();
        self.next_id = 0;
        Ok(())
    }

    fn inscribe(&mut self, text: &str) -> Result<RowId, AdapterError> {
        Ok(self.add(&Row::text(text)))
    }

    fn recall_texts(&mut self, query: &str, k: usize) -> Result<Vec<String>, AdapterError> {
        Ok(self.ranked(query, k, |_| true))
    }

    fn supersede(&mut self, old_q: &str, new: &str) -> Result<usize, AdapterError> {
        self.supersede_target(&Target::Query(old_q.to_string()), &Row::text(new))
    }

    fn release(&mut self, q: &str) -> Result<usize, AdapterError> {
        self.release_target(&Target::Query(q.to_string()))
    }

    fn purge(&mut self, q: &str) -> Result<usize, AdapterError> {
        self.purge_target(&Target::Query(q.to_string()))
    }

    fn inscribe_row(&mut self, row: &Row) -> Result<RowId, AdapterError> {
        Ok(self.add(row))
    }

    fn recall_filtered(&mut self, request: &RecallRequest) -> Result<Vec<String>, AdapterError> {
        Ok(self.ranked(&request.query, request.k, |r| {
            request
                .namespace
                .as_ref()
                .is_none_or(|ns| &r.namespace == ns)
                && meta_matches(&r.meta, &request.meta)
        }))
    }

    fn supersede_target(&mut self, target: &Target, new: &Row) -> Result<usize, AdapterError> {
        let hit = self.targets(target);
        let replaced = self.delete(&hit);
        self.add(new);
        Ok(replaced)
    }

    fn release_target(&mut self, target: &Target) -> Result<usize, AdapterError> {
        let hit = self.targets(target);
        Ok(self.delete(&hit))
    }

    fn purge_target(&mut self, target: &Target) -> Result<usize, AdapterError> {
        let hit = self.targets(target);
        Ok(self.delete(&hit))
    }

    fn list_texts(&mut self, request: &ListRequest) -> Result<Vec<String>, AdapterError> {
        Ok(self
            .rows
            .iter()
            .filter(|r| {
                request
                    .namespace
                    .as_ref()
                    .is_none_or(|ns| &r.namespace == ns)
                    && meta_matches(&r.meta, &request.meta)
            })
            .map(|r| r.text.clone())
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store(facts: &[&str]) -> NaiveAdapter {
        let mut a = NaiveAdapter::new();
        for f in facts {
            a.inscribe(f).unwrap();
        }
        a
    }

    #[test]
    fn purge_by_substring_over_deletes_prefix_collisions() {
        let mut a = store(&[
            "Order TXN-123 shipped",
            "Order TXN-1234 pending",
            "Bo likes tea",
        ]);
        assert_eq!(a.purge("TXN-123").unwrap(), 2);
        assert_eq!(a.recall_texts("order", 10).unwrap(), vec!["Bo likes tea"]);
    }

    #[test]
    fn falls_back_to_all_words_when_no_substring_matches() {
        let mut a = store(&["Ann works as a nurse", "Bo works as a pilot"]);
        assert_eq!(a.supersede("Ann nurse", "Ann works as a chef").unwrap(), 1);
        let texts = a.recall_texts("Ann works", 10).unwrap();
        assert_eq!(texts, vec!["Ann works as a chef", "Bo works as a pilot"]);
        assert_eq!(a.release("nobody here").unwrap(), 0);
    }

    #[test]
    fn recall_ranks_by_word_overlap_then_id() {
        let mut a = store(&["alpha", "beta gamma", "gamma"]);
        assert_eq!(
            a.recall_texts("gamma beta", 2).unwrap(),
            vec!["beta gamma", "gamma"]
        );
        a.reset().unwrap();
        assert!(a.recall_texts("gamma", 10).unwrap().is_empty());
    }

    #[test]
    fn keys_namespaces_and_metadata() {
        let mut a = NaiveAdapter::new();
        let mut row = Row::text("Ann's email is ann@x.org");
        row.namespace = Some("u1".into());
        row.key = Some("email".into());
        row.meta.insert("cat".into(), "contact".into());
        a.inscribe_row(&row).unwrap();
        a.inscribe("Bo likes tea").unwrap();
        let target = Target::Key {
            namespace: "u1".into(),
            key: "email".into(),
        };
        let mut new = row.clone();
        new.text = "Ann's email is ann@y.org".into();
        assert_eq!(a.supersede_target(&target, &new).unwrap(), 1);
        let listed = a
            .list_texts(&ListRequest {
                namespace: None,
                meta: [("cat".to_string(), "contact".to_string())].into(),
            })
            .unwrap();
        assert_eq!(listed, vec!["Ann's email is ann@y.org"]);
        assert_eq!(
            a.advance_clock(5),
            Err(AdapterError::NotProvided("advance_clock"))
        );
    }
}
