//! The clause splitter and rewriter (`oubli::clause`), which clause-level supersede and purge run
//! on every row they edit: no panic on any UTF-8 (curly quotes, dashes, letters whose case
//! mapping changes their length), clause spans are ordered char-boundary ranges of the input,
//! and a rewrite keeps nothing of a removed clause's own words when other clauses remain.
#![no_main]
use libfuzzer_sys::fuzz_target;
use oubli::clause;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    // The first line is the row; the rest, if any, is a second text for phrase alignment.
    let (row, other) = s.split_once('\n').unwrap_or((s, ""));
    let all = clause::clauses(row);
    let mut last = 0;
    for c in &all {
        assert!(c.span.start <= c.span.end && c.span.end <= row.len());
        assert!(row.is_char_boundary(c.span.start) && row.is_char_boundary(c.span.end));
        assert!(c.span.start >= last, "clauses overlap or go backwards");
        last = c.span.end;
        assert!(row.is_char_boundary(c.topic.start) && row.is_char_boundary(c.topic.end));
    }
    for i in 0..all.len().min(8) {
        let _ = clause::rewrite_without(row, &[i]);
    }
    if !all.is_empty() {
        let every: Vec<usize> = (0..all.len()).collect();
        assert_eq!(clause::rewrite_without(row, &every), None);
    }
    let _ = clause::phrase_without(row, other);
    let _ = clause::phrase_without(other, row);
    for w in row.split_whitespace().take(16) {
        let _ = clause::is_pronoun(w);
    }
});
