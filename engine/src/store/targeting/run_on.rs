//! Query name runs in a script without letter case that run on into the attribute they ask
//! about ("অনির্বাণ বোসের ইনসুলিনের ডোজ", Anirban Bose's insulin dose): [`caseless_run_on`].

use std::collections::BTreeSet;

use super::query::QueryShape;
use super::row_view::{RowView, leads_sentence};
use super::word_match::find_name;
use crate::canon::Script;

/// How a query's caseless name runs run on into the attribute against one row (see
/// [`super::score::score`]).
#[derive(Default)]
pub(super) struct CaselessRunOn {
    /// The run's words the row lacks after the last word it holds: attribute words it lacks.
    pub tail: BTreeSet<usize>,
    /// The run's words the row holds past the name its sentence starts with: attribute words
    /// it holds.
    pub held_attribute: BTreeSet<usize>,
}

/// The [`CaselessRunOn`] of `q` against `row`: for each name run of two words or more in a
/// script without case, when the row holds some of its words, starting its sentence, and lacks
/// the words after them. A run whose unheld words lie between held ones (an attribute read as a
/// name, held elsewhere in the row) is left as it is.
pub(super) fn caseless_run_on(q: &QueryShape, row: &RowView<'_>) -> CaselessRunOn {
    let caseless = |i: &usize| {
        !matches!(
            q.words[*i].chunk.script,
            Script::Latin | Script::Cyrillic | Script::Greek
        )
    };
    let mut out = CaselessRunOn::default();
    for run in &q.names {
        if run.len() < 2 || !run.iter().all(caseless) {
            continue;
        }
        let held: Vec<(usize, usize)> = run
            .iter()
            .filter_map(|&i| find_name(&q.words[i], row).map(|p| (i, p)))
            .collect();
        let Some(&(last_held, _)) = held.last() else {
            continue;
        };
        let positions: Vec<usize> = held.iter().map(|&(_, p)| p).collect();
        let leading: Vec<usize> = held
            .iter()
            .filter(|&&(_, p)| leads_sentence(row, p, &positions))
            .map(|&(i, _)| i)
            .collect();
        let tail: Vec<usize> = run.iter().copied().filter(|&i| i > last_held).collect();
        let between = run
            .iter()
            .any(|&i| i < last_held && !held.iter().any(|&(h, _)| h == i));
        if leading.is_empty() || tail.is_empty() || between {
            continue;
        }
        out.tail.extend(tail);
        out.held_attribute.extend(
            held.iter()
                .map(|&(i, _)| i)
                .filter(|i| !leading.contains(i)),
        );
    }
    out
}
