//! Which clauses of a multi-clause row a call acts on: those holding the request's evidence;
//! when the request's words reach none (a supersede's paraphrase), those talking about the
//! attribute the request names, with the one the new text restates.

use std::collections::BTreeSet;

use super::query::QueryShape;
use super::row_view::RowView;
use super::score::RowScore;
use super::supersede_fit;
use super::word_match::word_matches;
use crate::index::keys::{has_digit, name_like};
use crate::lexicon;

/// The clauses of a multi-clause row that a call acts on: those holding evidence other than
/// the subject; else those whose sentence topic holds the request's attribute; else, for a
/// supersede, the clauses talking about the attribute slot the request's words name together
/// with the clause the new text restates. When that is no clause or every clause, the whole
/// row (empty).
pub(super) fn choose_clauses(
    s: &RowScore,
    query: &QueryShape,
    view: &RowView<'_>,
    hint: Option<&QueryShape>,
    restated_ids: bool,
) -> Vec<usize> {
    let n = view.clauses.len();
    if n < 2 {
        return Vec::new();
    }
    let mut hit: Vec<usize> = s.evidence_clauses.iter().copied().collect();
    // A supersede whose new text restates the request's identifiers ("... on 6E 2014" in both):
    // they are the context old and new share (the flight), not the value replaced, so a clause
    // holding only them is not the one the new text replaces when another clause holds the
    // request's words ("seat on 6E 2014 is 12C and his checked baggage allowance is 15 kg").
    if restated_ids {
        let words: Vec<usize> = hit
            .iter()
            .copied()
            .filter(|c| s.word_clauses.contains(c))
            .collect();
        if !words.is_empty() && words.len() < hit.len() {
            hit = words;
        }
    }
    // The attribute named only in the sentence's topic: the clause that states it ("the alarm
    // code" of "The alarm code is 8461 and the bins go out on Thursday").
    if hit.is_empty() {
        hit = s.topic_clauses.iter().copied().collect();
    }
    if hit.is_empty()
        && let Some(h) = hint
    {
        // The clause the new text restates: the one sharing most of its words, else the one
        // it resembles most (same attribute slot, similar words), when one stands out.
        let overlaps: Vec<usize> = (0..n).map(|c| overlap_with_clause(h, view, c)).collect();
        let best = overlaps.iter().copied().max().unwrap_or(0);
        let restated = if best > 0 && overlaps.iter().filter(|&&o| o == best).count() == 1 {
            overlaps.iter().position(|&o| o == best)
        } else {
            let aff: Vec<usize> = (0..n).map(|c| affinity_with_clause(h, view, c)).collect();
            let top = aff.iter().copied().max().unwrap_or(0);
            (top >= 30 && aff.iter().filter(|&&a| a == top).count() == 1)
                .then(|| aff.iter().position(|&a| a == top))
                .flatten()
        };
        // The clauses talking about the attribute the request's own words name ("where he's
        // based" and "lives in Chiang Mai") are replaced too, when the new text restates
        // another clause beside them ("... courier his tickets to the Khon Kaen address").
        let asked: Vec<usize> = (0..n)
            .filter(|&c| supersede_fit::clause_shares_slot(query, view, c))
            .collect();
        if asked.len() < n {
            hit = asked;
        }
        if let Some(c) = restated
            && !hit.contains(&c)
        {
            hit.push(c);
            hit.sort_unstable();
        }
    }
    if hit.is_empty() || hit.len() == n {
        Vec::new()
    } else {
        hit
    }
}

/// Content words of `text` shared with clause `c` of `row` (for choosing which clause a
/// supersede's new text replaces).
fn overlap_with_clause(new: &QueryShape, row: &RowView<'_>, c: usize) -> usize {
    let span = &row.clauses[c].span;
    new.words
        .iter()
        .filter(|w| !w.name)
        .filter(|w| {
            row.chunks
                .iter()
                .filter(|ch| span.start <= ch.span.start && ch.span.end <= span.end)
                .any(|ch| word_matches(w, ch))
        })
        .count()
}

/// How much the new text of a supersede resembles clause `c` beyond shared words: attribute
/// slots in common ([`crate::lexicon`]) and the best character-trigram overlap of a word pair
/// ("vegan" and "vegetarian"), scaled to 0..=100.
fn affinity_with_clause(new: &QueryShape, row: &RowView<'_>, c: usize) -> usize {
    let span = &row.clauses[c].span;
    let clause_words: Vec<&str> = row
        .chunks
        .iter()
        .filter(|ch| span.start <= ch.span.start && ch.span.end <= span.end)
        .filter(|ch| !has_digit(ch) && !name_like(ch))
        .map(|ch| ch.form.as_str())
        .collect();
    let new_words: Vec<&str> = new
        .words
        .iter()
        .filter(|w| !w.name)
        .map(|w| w.chunk.form.as_str())
        .collect();
    let wanted = lexicon::slots_of(new_words.iter().copied());
    let shared = lexicon::slots_of(clause_words.iter().copied())
        .into_iter()
        .filter(|s| wanted.contains(s))
        .count();
    let best = new_words
        .iter()
        .flat_map(|a| clause_words.iter().map(move |b| trigram_overlap(a, b)))
        .max()
        .unwrap_or(0);
    shared * 100 + best
}

/// Shared character trigrams of two words over the smaller set, in percent.
fn trigram_overlap(a: &str, b: &str) -> usize {
    let grams = |w: &str| -> BTreeSet<String> {
        let cs: Vec<char> = format!("^{w}$").chars().collect();
        cs.windows(3).map(|t| t.iter().collect()).collect()
    };
    let (ga, gb) = (grams(a), grams(b));
    let small = ga.len().min(gb.len());
    if small == 0 {
        return 0;
    }
    ga.intersection(&gb).count() * 99 / small
}
