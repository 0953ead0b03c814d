//! A row's text analyzed once for targeting: its chunks, identifiers and clauses, and where a
//! span stands in them (a sentence's topic, the names it opens with).

use std::ops::Range;

use super::word_classes::is_negated;
use crate::canon::{self, Chunk, Identifier};
use crate::clause::{self, Clause};

/// A row's text, analyzed once for scoring.
pub(crate) struct RowView<'a> {
    /// The text.
    pub text: &'a str,
    /// Its chunks.
    pub chunks: Vec<Chunk>,
    /// Its typed identifiers.
    pub ids: Vec<Identifier>,
    /// Its clauses.
    pub clauses: Vec<Clause>,
    /// Per clause: true if it is stated negatively.
    pub negated: Vec<bool>,
}

impl<'a> RowView<'a> {
    /// Analyzes `text`.
    pub fn new(text: &'a str) -> RowView<'a> {
        let clauses = clause::clauses(text);
        let negated = clauses
            .iter()
            .map(|c| is_negated(&text[c.span.clone()]))
            .collect();
        RowView {
            text,
            chunks: canon::chunks(text),
            ids: canon::identifiers(text),
            clauses,
            negated,
        }
    }

    /// Index of the clause holding byte `pos`, if any.
    pub(super) fn clause_at(&self, span: &Range<usize>) -> Option<usize> {
        self.clauses
            .iter()
            .position(|c| c.span.start <= span.start && span.end <= c.span.end)
    }
}

/// True if `span` of `row` lies in the topic of a sentence of several clauses (the words
/// before its first verb, within its first clause).
pub(super) fn in_topic(row: &RowView<'_>, span: &Range<usize>) -> bool {
    row.clauses.len() > 1
        && row
            .clauses
            .iter()
            .any(|cl| cl.topic.start <= span.start && span.end <= cl.topic.end)
}

/// True if chunk `p` of `row` belongs to the run of names its sentence starts with: it lies in
/// the first clause of its sentence, and every chunk before it in that clause is a name the
/// query gives (`names`, chunk indexes).
pub(super) fn leads_sentence(row: &RowView<'_>, p: usize, names: &[usize]) -> bool {
    let span = &row.chunks[p].span;
    let Some(clause) = row
        .clauses
        .iter()
        .find(|c| c.span.start <= span.start && span.end <= c.span.end)
    else {
        return false;
    };
    let first_of_sentence = row
        .clauses
        .iter()
        .filter(|c| c.sentence == clause.sentence)
        .all(|c| c.span.start >= clause.span.start);
    first_of_sentence
        && row.chunks[..p]
            .iter()
            .enumerate()
            .filter(|(_, c)| c.span.start >= clause.span.start)
            .all(|(i, _)| names.contains(&i))
}
