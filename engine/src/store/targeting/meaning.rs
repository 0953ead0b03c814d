//! Meaning where words fail: the store's embedder chooses between rows about the named
//! subject when a supersede's words cannot.
//!
//! "Who is in charge of Noa Friedman's care" shares no attribute word with "Dr. Eitan Shapiro
//! is the attending for Noa Friedman", and "Marta's heart specialist" none with "Marta
//! Lindqvist's cardiologist is Dr. Berg". The lexical path ([`super::score`]) then finds no
//! row, or several rows it cannot tell apart. A supersede also carries the new text, which
//! restates the attribute in other words. Among the rows that name the query's subject, a row
//! is chosen when two things hold. Every text is compared with the subject's names taken out:
//! every row of the pool names the subject, so the names say nothing about which row holds the
//! attribute, and left in they drown the attribute's few words (ten rows about one person all
//! look alike).
//!
//! 1. **It stands out.** Its name-less text is the closest to the query's and the new text's
//!    (each cosine scaled by the embedder's similarity range, 0 at unrelated and 1 at a clear
//!    match, the two summed; closer than a clear match scores above 1, so that rows past it
//!    still rank by closeness),
//!    by at least [`MIN_MARGIN`] over the next row.
//! 2. **It holds the attribute the new text restates.** It is the closest of the pool to the
//!    new text alone, and at least [`RELEVANT`] close. "Kenta earns 9M yen a year" relates to no
//!    row about Kenta's home or his cello, so "Kenta's salary" replaces neither.
//!
//! Otherwise nothing is chosen (a typed no-match with candidates, as before).
//!
//! Only supersede uses this: it keeps the old row in its history (a reversible change). A
//! purge, release or pin acts on words and identifiers only, so meaning never widens an
//! erasure. It embeds the name-less texts of at most [`MAX_POOL`] rows and of the two
//! request texts (stored vectors embed the full texts, names included). A better embedder (MiniLM
//! through `oubli.minilm()`) makes the choice better; with the hash embedder it is a fuzzy
//! lexical overlap.

use super::Rejected;
use super::query::QueryShape;
use crate::error::Result;
use crate::row::RowId;

/// Least lead of the chosen row over the next, in calibrated similarity summed over the query
/// and the new text (each cosine scaled so that unrelated is 0 and a clear match 1, so two clear
/// matches sum to 2). 0.1 is 5 % of that scale: a row must be clearly closer, not closer by
/// rounding. Chosen before measuring and not tuned to a case file.
pub(crate) const MIN_MARGIN: f64 = 0.1;

/// Least calibrated similarity (1 at a clear match) between a row and the new text, names taken out, for
/// the row to hold the attribute the new text restates: the recall threshold for "relevant
/// hits only" ([`crate::SUGGESTED_MIN_SCORE`]), not a value fitted here.
pub(crate) const RELEVANT: f64 = crate::store::SUGGESTED_MIN_SCORE;

/// Most rows about one subject meaning chooses between; a larger pool chooses nothing.
pub(crate) const MAX_POOL: usize = 32;

/// What the meaning step may read: the store's embedder.
pub(crate) struct Meaning<'a> {
    /// Embeds a text with the store's embedder.
    pub embed: &'a dyn Fn(&str) -> Result<Vec<f32>>,
    /// The embedder's `(unrelated, match)` cosines ([`crate::embed::Embedder::similarity_range`]).
    pub range: (f32, f32),
}

/// The outcome of a choice by meaning.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Choice {
    /// Index of the chosen row in the pool.
    pub index: usize,
    /// Its calibrated similarity (query + new text; 2 for two clear matches).
    pub similarity: f64,
    /// Its lead over the next row of the pool.
    pub margin: f64,
}

fn cosine(a: &[f32], b: &[f32]) -> f64 {
    let (mut dot, mut na, mut nb) = (0f64, 0f64, 0f64);
    for (x, y) in a.iter().zip(b) {
        let (x, y) = (f64::from(*x), f64::from(*y));
        dot += x * y;
        na += x * x;
        nb += y * y;
    }
    if na == 0.0 || nb == 0.0 {
        0.0
    } else {
        dot / (na.sqrt() * nb.sqrt())
    }
}

impl Meaning<'_> {
    /// `cos` scaled so that the embedder's unrelated cosine is 0 and its clear match 1. Not
    /// capped at 1: an embedder whose texts all sit close together (a script its vocabulary
    /// barely covers) puts every row past its match cosine, and a cap would tie them all.
    fn calibrated(&self, cos: f64) -> f64 {
        let (lo, hi) = (f64::from(self.range.0), f64::from(self.range.1));
        ((cos - lo) / (hi - lo).max(1e-6)).max(0.0)
    }

    /// The row of `pool` (ids and texts) closest in meaning to `query` and `new_text`, if it
    /// passes both tests of this module (`Ok(Err(sims))` with every row's similarity when it
    /// does not). `strip` takes the subject's names out of a text. A pool of fewer than two
    /// rows chooses nothing: a lone row about the subject that lacks the attribute is no
    /// evidence that the attribute was stored.
    ///
    /// `rivals` are texts of rows that name the subject but may not be chosen (rows about one
    /// of the subject's relations, "Amira's brother is at Hillcrest Secondary"): the chosen row
    /// must stand out from them too, and they count toward the two rows a choice needs.
    pub fn choose(
        &self,
        query: &str,
        new_text: &str,
        pool: &[(RowId, &str)],
        rivals: &[&str],
        strip: &dyn Fn(&str) -> String,
    ) -> Result<std::result::Result<Choice, Vec<f64>>> {
        let all = pool.len() + rivals.len();
        if pool.is_empty() || !(2..=MAX_POOL).contains(&all) {
            return Ok(Err(Vec::new()));
        }
        // Every row of the pool names the subject, so the names say nothing about which row
        // holds the attribute: compare the texts with the subject's names taken out.
        let q_attr = (self.embed)(&strip(query))?;
        let new_attr = (self.embed)(&strip(new_text))?;
        let mut sims = Vec::with_capacity(all);
        let mut attr = Vec::with_capacity(all);
        for text in pool.iter().map(|(_, t)| *t).chain(rivals.iter().copied()) {
            let v = (self.embed)(&strip(text))?;
            let to_new = self.calibrated(cosine(&v, &new_attr));
            sims.push(self.calibrated(cosine(&v, &q_attr)) + to_new);
            attr.push(to_new);
        }
        let mut order: Vec<usize> = (0..all).collect();
        // Highest first; equal similarities keep pool order (deterministic).
        order.sort_by(|&a, &b| sims[b].total_cmp(&sims[a]).then(a.cmp(&b)));
        let (best, next) = (order[0], order[1]);
        let margin = sims[best] - sims[next];
        let leads = (0..all).all(|i| i == best || attr[i] < attr[best]);
        if best >= pool.len() || margin < MIN_MARGIN || attr[best] < RELEVANT || !leads {
            sims.truncate(pool.len());
            return Ok(Err(sims));
        }
        Ok(Ok(Choice {
            index: best,
            similarity: sims[best],
            margin,
        }))
    }
}

/// `text` without the words that match a name of the query, and the rest of the name each of
/// them is part of ("Weber" of "Anna Weber" for a query naming "Anna"; capitalized words of a
/// cased script glued to it by white space or a hyphen), with a possessive "'s" after them: what
/// it says about its subject's attribute.
pub(crate) fn without_names(q: &QueryShape, text: &str) -> String {
    let names: Vec<&super::query::QWord> = q.names.iter().flatten().map(|&i| &q.words[i]).collect();
    let chunks = crate::canon::chunks(text);
    let mut drop: Vec<bool> = chunks
        .iter()
        .map(|c| names.iter().any(|w| super::word_match::word_matches(w, c)))
        .collect();
    // The rest of each name: capitalized neighbours glued by white space or a hyphen.
    let name_word = |i: usize| {
        let c = &chunks[i];
        c.capitalized && super::names::cased(c.script) && !crate::index::keys::has_digit(c)
    };
    let glued = |a: usize, b: usize| {
        text[chunks[a].span.end..chunks[b].span.start]
            .chars()
            .all(|ch| ch == ' ' || ch == '-')
    };
    for _ in 0..2 {
        for i in 0..chunks.len() {
            if drop[i] {
                continue;
            }
            let left = i > 0 && drop[i - 1] && glued(i - 1, i);
            let right = i + 1 < chunks.len() && drop[i + 1] && glued(i, i + 1);
            if (left || right) && name_word(i) {
                drop[i] = true;
            }
        }
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (c, gone) in chunks.iter().zip(&drop) {
        if !gone || c.span.start < at {
            continue;
        }
        out.push_str(&text[at..c.span.start]);
        at = c.span.end;
        // "Kenta's" -> "": the possessive goes with the name.
        for suffix in ["'s", "’s", "'"] {
            if text[at..].starts_with(suffix) {
                at += suffix.len();
                break;
            }
        }
    }
    out.push_str(&text[at..]);
    out
}

/// Notes on the pool's rejected rows why meaning did not choose: each row's similarity, none
/// [`MIN_MARGIN`] ahead of the next.
pub(super) fn explain_no_choice(rejected: &mut [Rejected], pool: &[(RowId, &str)], sims: &[f64]) {
    for ((id, _), sim) in pool.iter().zip(sims) {
        if let Some(r) = rejected.iter_mut().find(|r| r.id == *id) {
            r.reason.push_str(&format!(
                "; in meaning {sim:.2}, no row {} ahead of the next",
                MIN_MARGIN
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meaning_over(embed: &dyn Fn(&str) -> Result<Vec<f32>>) -> Meaning<'_> {
        Meaning {
            embed,
            range: (0.0, 1.0),
        }
    }

    #[test]
    fn the_clearly_closest_row_is_chosen_and_a_near_tie_is_not() {
        // Axis 0: "care team"; axis 1: "room"; axis 2: "diet".
        let embed = |t: &str| -> Result<Vec<f32>> {
            Ok(if t.contains("care") {
                vec![1.0, 0.0, 0.0]
            } else if t.contains("room") {
                vec![0.0, 1.0, 0.0]
            } else if t.contains("diet") {
                vec![0.0, 0.0, 1.0]
            } else {
                vec![0.9, 0.1, 0.0]
            })
        };
        let m = meaning_over(&embed);
        let keep = |t: &str| t.to_string();
        let pool = [(2, "room"), (1, "care team"), (3, "diet")];
        let c = m.choose(
            "who is in charge of her care",
            "new care",
            &pool,
            &[],
            &keep,
        );
        assert_eq!(c.unwrap().map(|c| c.index), Ok(1));
        // Two rows in the same direction: no choice, and both similarities shown.
        let sims = m
            .choose("care", "new", &[(1, "care"), (4, "care plan")], &[], &keep)
            .unwrap()
            .unwrap_err();
        assert_eq!(sims.len(), 2);
        assert!((sims[0] - sims[1]).abs() < MIN_MARGIN);
        // One row is never chosen by meaning alone.
        assert!(
            m.choose("care", "new", &[(1, "care")], &[], &keep)
                .unwrap()
                .is_err()
        );
    }

    #[test]
    fn rows_closer_than_a_clear_match_still_rank_by_closeness() {
        // An embedder whose texts all sit close together (a script its vocabulary barely
        // covers): every cosine is past its "match" end (0.5 here), yet one row is much closer.
        let embed = |t: &str| -> Result<Vec<f32>> {
            Ok(match t {
                "grandmother" => vec![1.0, 0.55, 0.0],
                "daycare" | "new daycare" | "after school" => vec![1.0, 0.0, 0.0],
                _ => vec![1.0, 0.9, 0.9],
            })
        };
        let m = Meaning {
            embed: &embed,
            range: (0.0, 0.5),
        };
        let keep = |t: &str| t.to_string();
        let pool = [(1, "grandmother"), (2, "case number")];
        let c = m
            .choose("after school", "new daycare", &pool, &[], &keep)
            .unwrap();
        // Capped at the match end, both rows would score 2.0 and tie.
        assert_eq!(c.map(|c| c.index), Ok(0));
    }

    #[test]
    fn the_subjects_names_do_not_count() {
        // With the name left in, "Ana" would pull the query toward the row that repeats it.
        let embed = |t: &str| -> Result<Vec<f32>> {
            let mut v = vec![0.0, 0.0, 0.0];
            if t.contains("Ana") {
                v[0] += 1.0;
            }
            if t.contains("boss") || t.contains("reports") {
                v[1] += 1.0;
            }
            if t.contains("office") {
                v[2] += 1.0;
            }
            Ok(v)
        };
        let m = meaning_over(&embed);
        let strip = |t: &str| t.replace("Ana", "");
        let pool = [(1, "Ana Ana works in the office"), (2, "Ana reports to Bo")];
        let c = m
            .choose("Ana's boss", "Ana's new boss is Cy", &pool, &[], &strip)
            .unwrap();
        assert_eq!(c.map(|c| c.index), Ok(1));
    }

    #[test]
    fn a_row_that_does_not_hold_the_restated_attribute_is_not_chosen() {
        // The query leans toward row 1, but the new text relates to neither row (its
        // attribute was never stored).
        let embed = |t: &str| -> Result<Vec<f32>> {
            Ok(match t.trim() {
                "earns" => vec![0.0, 0.0, 1.0],
                "home" => vec![1.0, 0.0, 0.0],
                "cello" => vec![0.0, 1.0, 0.0],
                _ => vec![1.0, 0.0, 0.1],
            })
        };
        let m = meaning_over(&embed);
        let strip = |t: &str| t.replace("Kenta", "");
        let pool = [(1, "Kenta home"), (2, "Kenta cello")];
        let r = m
            .choose("Kenta salary", "Kenta earns", &pool, &[], &strip)
            .unwrap();
        assert!(r.is_err(), "{r:?}");
        // An embedder error is an error, not a choice.
        let failing =
            |_: &str| -> Result<Vec<f32>> { Err(crate::error::Error::Embedder("down".into())) };
        assert!(
            meaning_over(&failing)
                .choose("Kenta salary", "Kenta earns", &pool, &[], &strip)
                .is_err()
        );
    }
}
