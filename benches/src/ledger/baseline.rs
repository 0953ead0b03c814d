//! The positional baseline: a note that fills its budget with rows in id order, the way a
//! summary keeps whatever comes first. It knows nothing of provenance, so decoys that come
//! early crowd out items, and it cannot say what it dropped.

use oubli::{Kind, ListQuery, Store};

use super::generator::NAMESPACE;

/// Header of a positional note.
pub const HEADER: &str = "positional note\n";

/// Builds a positional note of at most `budget` bytes over the ledger's sources.
pub fn positional_note(store: &Store, budget: usize) -> oubli::Result<String> {
    let mut q = ListQuery::default().namespace(NAMESPACE);
    q.kinds = vec![Kind::Source];
    let mut note = HEADER.to_owned();
    for row in store.list(&q)? {
        let line = format!("[#{}] {}\n", row.id, row.text.unwrap_or_default());
        if note.len() + line.len() > budget {
            break;
        }
        note.push_str(&line);
    }
    Ok(note)
}
