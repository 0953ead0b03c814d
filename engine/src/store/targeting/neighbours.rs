//! The neighbour veto of name matching: a row that holds part of a query's name run next to a
//! name of its own that is not the query's next word names someone else ("Elena Markou" for
//! "Elena Nikolaou", 김지호 for "Kim Ji-su", "Ahmed Hassan" for "محمود حسن"), although half of
//! the run matches.

use std::collections::BTreeSet;

use super::names::{cased, name_part};
use super::query::QueryShape;
use super::row_view::RowView;
use super::word_match::word_matches;
use crate::canon::{self, Script};
use crate::index::keys::has_digit;

/// The reason `row` names someone other than a name run of `q` (not one of `held_whole`, the
/// runs the row holds whole) next to the run's words it holds (`word_hit`: the row chunk each
/// query word matched), if it does, with the run's index in `q.names` and the position in the
/// run of the word the row writes next to another name.
pub(super) fn neighbour_veto(
    q: &QueryShape,
    row: &RowView<'_>,
    word_hit: &[Option<usize>],
    held_whole: &BTreeSet<usize>,
) -> Option<(usize, usize, String)> {
    for (ri, run) in q.names.iter().enumerate() {
        if held_whole.contains(&ri) || written_whole(q, run, row) {
            continue;
        }
        for (k, &wi) in run.iter().enumerate() {
            let Some(rp) = word_hit[wi] else { continue };
            for (dq, dr) in [(1isize, 1isize), (-1, -1)] {
                let qn = k as isize + dq;
                let rn = rp as isize + dr;
                if qn < 0 || qn as usize >= run.len() || rn < 0 || rn as usize >= row.chunks.len() {
                    continue;
                }
                let qw = &q.words[run[qn as usize]];
                let rc = &row.chunks[rn as usize];
                let joined = if dr > 0 {
                    rc.gap == Some(canon::Gap::Joiner)
                } else {
                    row.chunks[rp].gap == Some(canon::Gap::Joiner)
                };
                let latin = cased(rc.script) && cased(qw.chunk.script);
                // A Hangul name is one unspaced word of syllables, one romanized syllable each.
                // Where the query romanizes two syllables of one name as one word ("Ji-su"),
                // the row's syllable next to the matched one must be the query's next
                // syllable: "Kim Ji-su" is not 김지호. (Words the query spaces apart may span
                // several syllables, and Han readings are not one syllable per character in
                // every language: "Sato Takeru" is 佐藤健, so Han rows are left out.)
                let (lo, hi) = (rp.min(rn as usize), rp.max(rn as usize));
                let (qa, qb) = if dq > 0 {
                    (&q.words[wi].chunk, &qw.chunk)
                } else {
                    (&qw.chunk, &q.words[wi].chunk)
                };
                let one_query_word = qa.span.end <= qb.span.start
                    && matches!(&q.text[qa.span.end..qb.span.start], "" | "-");
                let unspaced = one_query_word
                    && qa.script == Script::Latin
                    && qb.script == Script::Latin
                    && rc.script == Script::Hangul
                    && row.chunks[rp].script == rc.script
                    && row.chunks[lo].span.end == row.chunks[hi].span.start;
                // A query name written in an abjad (Arabic, Hebrew) against a row that writes the
                // name in a cased script: "محمود حسن" is not "Ahmed Hassan", although half of
                // the run matches.
                // (The Arabic article a row writes with a hyphen, "Al-" of "Al-Zahrani", is part
                // of the word the query writes as one, "الزهراني".)
                let caseless_against_cased =
                    matches!(qw.chunk.script, Script::Arabic | Script::Hebrew)
                        && cased(rc.script)
                        && !(ARABIC_ARTICLES.contains(&rc.form.as_str())
                            && row.text[rc.span.end..].starts_with(['-', ' ']))
                        && !NAME_PARTICLES.contains(&rc.form.as_str())
                        && !canon::same_name(&qw.chunk, rc);
                if joined
                    && ((latin || caseless_against_cased)
                        && name_part(row.text, &row.chunks, rn as usize)
                        || unspaced)
                    && !super::word_classes::is_title(&rc.form)
                    && !crate::text::is_stopword(&rc.form)
                    && !(dr < 0 && super::word_classes::is_kinship(&row.text[rc.span.clone()]))
                    && !has_digit(rc)
                    && !word_matches(qw, rc)
                    // (The neighbour held as that query word, as a name in the genitive is.)
                    && word_hit[run[qn as usize]] != Some(rn as usize)
                {
                    let reason = format!(
                        "names {:?}, not {:?}",
                        &row.text[rc.span.clone()],
                        &q.text[qw.chunk.span.clone()]
                    );
                    return Some((ri, k, reason));
                }
            }
        }
    }

    None
}

/// The Arabic article as romanizations write it before a hyphen or a space ("Al-Zahrani",
/// "El Amrani"), assimilated to a sun letter ("Ash-Shami", "Ad-Din", "Ar-Rashid").
const ARABIC_ARTICLES: &[&str] = &[
    "al", "el", "ul", "ad", "ar", "as", "ash", "at", "az", "an", "ath", "adh",
];

/// The particles of Arabic and Hebrew names ("son of", "father of", "servant of": "Ben-Haim",
/// "Bin Laden", "Abu Bakr", "Abdel Nasser"), which a query writes as words of their own or
/// joined to the name; they tell no two people apart.
const NAME_PARTICLES: &[&str] = &["ben", "bin", "ibn", "bint", "bat", "abu", "abd", "abdel"];

/// True if `row` writes the whole name `run` of `q` somewhere, its words side by side and in
/// order: then a neighbour elsewhere ("Мати Оксани Коваленко, Галина Коваленко, ...", Oksana's
/// mother Halyna) names a relative beside the person, not someone else instead.
fn written_whole(q: &QueryShape, run: &[usize], row: &RowView<'_>) -> bool {
    run.len() >= 2
        && (0..row.chunks.len().saturating_sub(run.len() - 1)).any(|s| {
            run.iter().enumerate().all(|(k, &i)| {
                let c = &row.chunks[s + k];
                let spaced = k == 0
                    || row.text[row.chunks[s + k - 1].span.end..c.span.start]
                        .chars()
                        .all(char::is_whitespace);
                spaced && word_matches(&q.words[i], c)
            })
        })
}
