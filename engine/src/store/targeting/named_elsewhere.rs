//! A name the store writes in full elsewhere: a row that holds only part of a query's name
//! ("Carmen's birthday" for "Carmen López's birthday") is about the person the store names
//! with that part wherever it writes the name in full ("Carmen García's phone number"), not
//! about the person the query names, when no row names that person in full.
//!
//! Each row is scored on its own ([`super::score`]), and on its own a row holding half of a
//! name run is evidence of it ("Maria Garcia" for "Maria Garcia Lopez"). Across the rows, the
//! store may show who that half belongs to: the rule here reads the scores of every candidate
//! row together and vetoes the partial mentions that the store's full mentions contradict.
//!
//! Also here, how a row spells a name ([`variant_spelling`]): a row that meets a name only as
//! a spelling variant in the name's own script loses a tie to one that spells it exactly.

use std::collections::{BTreeMap, BTreeSet};

use super::query::QueryShape;
use super::row_view::RowView;
use super::score::RowScore;
use crate::canon::{self, Script};
use crate::index::keys;

/// How one row holds the query's name runs, for the store-wide reading.
#[derive(Debug, Clone, Default)]
pub(crate) struct NameHolds {
    /// Runs (by their text in the query) the row holds whole.
    pub whole: Vec<String>,
    /// Runs the row holds only in part, with the positions in the run of the words it holds.
    pub partial: Vec<(String, Vec<usize>)>,
    /// Runs whose word at the given position the row writes next to another name than the
    /// query's ("Carmen García" for the "Carmen" of "Carmen López").
    pub other: Vec<(String, usize)>,
}

impl NameHolds {
    /// How a row holds each name run of `q`: `word_hit` is the row chunk each query word
    /// matched, `held_whole` the runs read whole across scripts, `present` whether a run is
    /// present at all (at least half of it, or all where the script demands it).
    pub(crate) fn of(
        q: &QueryShape,
        word_hit: &[Option<usize>],
        held_whole: &BTreeSet<usize>,
        present: &dyn Fn(&Vec<usize>) -> bool,
    ) -> NameHolds {
        let mut names = NameHolds::default();
        for (ri, run) in q.names.iter().enumerate() {
            let held: Vec<usize> = (0..run.len())
                .filter(|&k| word_hit[run[k]].is_some())
                .collect();
            if held.len() == run.len() || held_whole.contains(&ri) {
                names.whole.push(q.run_text(run).to_owned());
            } else if present(run) {
                names.partial.push((q.run_text(run).to_owned(), held));
            }
        }
        names
    }
}

/// True if the row holds a name word of `q` only in another spelling of it in the same script,
/// other than Latin ("Иванна" for "Ивана", "سامية" for "سامي"): weaker evidence than the
/// spelling itself or one of its case forms ("Иван" for the genitive "Ивана"). In its own
/// script a name has one spelling; Latin letters transliterate it many ways ("Solovyov",
/// "Solowjow"). Runs read whole across scripts (`held_whole`) are left out.
pub(crate) fn variant_spelling(
    q: &QueryShape,
    row: &RowView<'_>,
    word_hit: &[Option<usize>],
    held_whole: &BTreeSet<usize>,
) -> bool {
    q.names.iter().enumerate().any(|(ri, run)| {
        !held_whole.contains(&ri)
            && run.iter().any(|&i| {
                let w = &q.words[i];
                word_hit[i].is_some_and(|p| {
                    let c = &row.chunks[p];
                    c.script == w.chunk.script
                        && c.script != Script::Latin
                        && c.form != w.chunk.form
                        && keys::stem(&c.form) != w.stem
                        && !canon::same_inflected_spelling(&w.chunk, c)
                        && !canon::masculine_genitive(&c.form, &w.chunk.form)
                        && !canon::masculine_genitive(&w.chunk.form, &c.form)
                })
            })
    })
}

/// Vetoes every row in `scores` that holds only part of a name run of the query when the
/// store names someone else with that part: some row writes each held word next to another
/// name than the query's, and no row holds the whole run. A row already vetoed is left as it
/// is; the others are untouched.
pub(crate) fn veto_partial_mentions(scores: &mut [RowScore]) {
    let whole: BTreeSet<String> = scores
        .iter()
        .flat_map(|s| s.names.whole.iter().cloned())
        .collect();
    let mut other: BTreeMap<String, BTreeSet<usize>> = BTreeMap::new();
    for s in scores.iter() {
        for (run, k) in &s.names.other {
            other.entry(run.clone()).or_default().insert(*k);
        }
    }
    if other.is_empty() {
        return;
    }
    for s in scores.iter_mut().filter(|s| s.veto.is_none()) {
        let contradicted = s.names.partial.iter().find(|(run, held)| {
            !whole.contains(run)
                && other
                    .get(run)
                    .is_some_and(|ks| !held.is_empty() && held.iter().all(|k| ks.contains(k)))
        });
        if let Some((run, _)) = contradicted {
            s.veto = Some(format!(
                "holds only part of {run:?}, which the store writes with another name elsewhere, \
                 and no row names {run:?} in full"
            ));
        }
    }
}

/// A woman's name that is also a man's genitive: Russian and Ukrainian decline "Иван" to
/// "Ивана" and "Иванов" to "Иванова", which are also a woman's name in the nominative. A
/// request naming "Ivana" or "Mrs. Ivanova" meets "Особиста пошта Івана" (Ivan's mail) letter
/// for letter. Read across the store: when the store names the man elsewhere ("Ivan Petrenko",
/// "Иванов"), and never writes the request's form in Latin letters, a row that holds the
/// request's name only as that Cyrillic word, and no other word of its name run, is about him.
pub(crate) fn veto_masculine_genitives(
    q: &QueryShape,
    views: &[RowView<'_>],
    scores: &mut [RowScore],
) {
    for run in &q.names {
        for &i in run {
            let w = &q.words[i];
            if w.chunk.script != Script::Latin {
                continue;
            }
            let form = w.chunk.form.as_str();
            let chunks = || views.iter().flat_map(|v| v.chunks.iter());
            // Only a form some row writes in Cyrillic can be read as a genitive there.
            if !form.ends_with('a')
                || !chunks().any(|c| c.script == Script::Cyrillic && c.form == form)
            {
                continue;
            }
            let man_named = chunks().any(|c| {
                keys::name_like(c)
                    && matches!(c.script, Script::Latin | Script::Cyrillic)
                    && canon::masculine_genitive_of_spelling(&c.form, form)
            });
            let written_latin = chunks().any(|c| c.script == Script::Latin && c.form == form);
            if !man_named || written_latin {
                continue;
            }
            for (v, s) in views.iter().zip(scores.iter_mut()) {
                let as_genitive = v
                    .chunks
                    .iter()
                    .any(|c| c.script == Script::Cyrillic && c.form == form);
                let otherwise = v.chunks.iter().any(|c| {
                    run.iter().any(|&k| {
                        (k != i || c.script != Script::Cyrillic)
                            && super::word_match::word_matches(&q.words[k], c)
                    })
                });
                if s.veto.is_none() && as_genitive && !otherwise {
                    s.veto = Some(format!(
                        "writes {:?} as the genitive of a man the store names elsewhere",
                        w.written
                    ));
                }
            }
        }
    }
}
