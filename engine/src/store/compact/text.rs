//! The note's text: the header with its counts and completeness mark, one line per kept row,
//! and the rendering of a note's text back from its record.

use super::note::{LineKind, Note};
use super::{INCOMPLETE_MARK, MAX_LISTED_DROPPED, NOTE_HEADER};
use crate::error::{Error, Result};
use crate::row::RowId;
use crate::store::provenance::Reader;

/// The header line: counts and the completeness mark, newline included.
pub(crate) fn header(
    k: usize,
    n: usize,
    others: (usize, usize),
    derived: Option<usize>,
    dropped: &[RowId],
) -> String {
    let mut h = format!(
        "{NOTE_HEADER}: kept {k} of {n} answer-determining sources, {} of {} other sources",
        others.0, others.1
    );
    if let Some(d) = derived {
        h.push_str(&format!(", {d} derived values"));
    }
    if dropped.is_empty() {
        h.push_str("; complete\n");
    } else {
        h.push_str(&format!("; {INCOMPLETE_MARK}, missing"));
        for id in dropped.iter().take(MAX_LISTED_DROPPED) {
            h.push_str(&format!(" #{id}"));
        }
        if dropped.len() > MAX_LISTED_DROPPED {
            h.push_str(&format!(" (+{} more)", dropped.len() - MAX_LISTED_DROPPED));
        }
        h.push('\n');
    }
    h
}

/// The text of one kept row.
pub(crate) fn line(id: RowId, kind: LineKind, text: &str, derived_label: Option<&str>) -> String {
    match (kind, derived_label) {
        (LineKind::Derived, Some(label)) => format!("[derived #{id}, {label}] {text}\n"),
        (LineKind::Derived, None) => format!("[derived #{id}] {text}\n"),
        _ => format!("[#{id}] {text}\n"),
    }
}

/// The derived label of a row: its derivation and sources, e.g. `sum(price*qty) of #3 #4`.
pub(super) fn derived_label(r: &Reader<'_>, id: RowId) -> Result<Option<String>> {
    Ok(r.provenance(id)?.map(|p| {
        let ids: Vec<String> = p.sources.iter().map(|s| format!("#{}", s.id)).collect();
        match &p.derivation {
            Some(d) => format!("{} of {}", d.describe(), ids.join(" ")),
            None => format!("from {}", ids.join(" ")),
        }
    }))
}

/// Renders a note's text from its record and the rows it names.
pub(super) fn render(r: &Reader<'_>, note: &Note) -> Result<String> {
    let count = |k| note.lines.iter().filter(|l| l.kind == k).count();
    let mut text = header(
        note.kept,
        note.total,
        (count(LineKind::Other), note.others_total),
        note.include_derived.then(|| count(LineKind::Derived)),
        &note.dropped,
    );
    for l in &note.lines {
        let row = r.row(l.id)?;
        let t = row.text.as_deref().ok_or(Error::Purged(l.id))?;
        let label = if l.kind == LineKind::Derived {
            derived_label(r, l.id)?
        } else {
            None
        };
        text.push_str(&line(l.id, l.kind, t, label.as_deref()));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_says_incomplete_and_lists_what_is_missing() {
        let h = header(2, 4, (0, 3), None, &[5, 9]);
        assert_eq!(
            h,
            "oubli note v1: kept 2 of 4 answer-determining sources, 0 of 3 other sources; \
             INCOMPLETE, missing #5 #9\n"
        );
        let many: Vec<RowId> = (1..=10).collect();
        assert!(header(0, 10, (0, 0), None, &many).ends_with("#8 (+2 more)\n"));
        assert!(header(3, 3, (1, 1), Some(0), &[]).ends_with("; complete\n"));
    }
}
