//! Names written as one word: syllables without spaces (Han, Hangul) and hyphenated given
//! names. A row holding half of such a name may still name someone else: where the row's name
//! runs on, inside its word, into another syllable than the query's next one (王芳 for 王磊,
//! 최현지 for 최현진), in Hangul begins with another syllable before the same given name
//! (김민준 for 이민준), or joins the query's first part to another by a hyphen ("Min-jun" for
//! "Min-junho"), the row names another person. Also where such a name ends: the particles and
//! titles written onto it ([`ends_unspaced_name`], [`is_hangul_particle`]).

use super::query::{QWord, QueryShape};
use super::row_view::RowView;
use super::word_match::word_matches;
use crate::canon::{self, Script};
use crate::index::keys::has_digit;

/// Characters that follow a name inside one unspaced Chinese word without being part of it:
/// particles, the copula, common prepositions and conjunctions, and the first characters of
/// titles (先生, 女士, 小姐, 老师, 医生, 教授, 经理).
const HAN_AFTER_NAME: &str = "的是在和与跟同及或了也都就还又说有住去来从对给被把将会要想喜爱已曾不没很这那之于为向让叫请用先女小老医教经总等们";

/// Hangul syllables that open a particle or a title after a name (의 은 는 이 가 을 를 에 와
/// 과 도 만 께 한 랑 하고 로 으로 씨 님 선생 교수 박사 ...).
const HANGUL_AFTER_NAME: &str = "의은는이가을를에와과도만께한랑하로으씨님선교박";

/// Hangul case particles a name is written with, glued to its last syllable (의 은 는 이 가 을
/// 를 에 와 과 도 만 께 랑): a subset of [`HANGUL_AFTER_NAME`] without the syllables that also
/// open a word of their own or a family name (박, 한, 선).
const HANGUL_PARTICLES: &str = "의은는이가을를에와과도만께랑";

/// True if `syllable` is one Hangul case particle ([`HANGUL_PARTICLES`]).
pub(super) fn is_hangul_particle(syllable: &str) -> bool {
    let mut cs = syllable.chars();
    matches!((cs.next(), cs.next()), (Some(c), None) if HANGUL_PARTICLES.contains(c))
}

/// If the name that ends at chunk `end` of `row` runs on, within one unspaced word of Han or
/// Hangul, into a syllable that is not a particle or title, the index of that chunk.
pub(super) fn continues_unspaced_name(row: &RowView<'_>, end: usize) -> Option<usize> {
    let (a, b) = (row.chunks.get(end)?, row.chunks.get(end + 1)?);
    if a.script != b.script || !matches!(a.script, Script::Han | Script::Hangul) {
        return None;
    }
    if a.span.end != b.span.start {
        return None;
    }
    let first = row.text[b.span.clone()].chars().next()?;
    let after = if a.script == Script::Han {
        HAN_AFTER_NAME
    } else {
        HANGUL_AFTER_NAME
    };
    (!after.contains(first)).then_some(end + 1)
}

/// True if `syllable` (a chunk of Han or Hangul) is a particle or the start of a title, which
/// ends a name written without spaces rather than continuing it.
pub(super) fn ends_unspaced_name(syllable: &str, script: Script) -> bool {
    let after = match script {
        Script::Han => HAN_AFTER_NAME,
        Script::Hangul => HANGUL_AFTER_NAME,
        _ => return false,
    };
    syllable.chars().next().is_some_and(|c| after.contains(c))
}

/// Why `row` names another person than a name run of `q` written without spaces, if it does.
/// `word_hit` holds where the row holds each query word.
pub(super) fn names_another(
    q: &QueryShape,
    row: &RowView<'_>,
    word_hit: &[Option<usize>],
) -> Option<String> {
    runs_on_elsewhere(q, row, word_hit)
        .or_else(|| begins_elsewhere(q, row, word_hit))
        .or_else(|| hyphenated_elsewhere(q, row))
}

/// Where `row` writes a name otherwise than the query, if it does at every place it writes the
/// query's word `w`: `instead(p)` gives, for the row's chunk `p` holding `w`, the span of
/// what the row writes there instead (`None` where the row writes it as the query does, or
/// cannot tell). `None` when the row never writes `w`, or writes it once as the query does.
fn written_otherwise_everywhere(
    row: &RowView<'_>,
    w: &QWord,
    instead: impl Fn(usize) -> Option<std::ops::Range<usize>>,
) -> Option<String> {
    let mut other = None;
    for (p, c) in row.chunks.iter().enumerate() {
        if !word_matches(w, c) {
            continue;
        }
        other = Some(instead(p)?);
    }
    other.map(|span| row.text[span].to_owned())
}

/// A row whose name runs on, inside its word, into another syllable than the query's next one
/// (王芳 for 王磊, 최현지 for 최현진), although half of the run matches.
fn runs_on_elsewhere(
    q: &QueryShape,
    row: &RowView<'_>,
    word_hit: &[Option<usize>],
) -> Option<String> {
    for run in &q.names {
        for pair in run.windows(2) {
            let (a, b) = (&q.words[pair[0]], &q.words[pair[1]]);
            let glued = a.chunk.script == b.chunk.script
                && matches!(a.chunk.script, Script::Han | Script::Hangul)
                && a.chunk.span.end == b.chunk.span.start
                && !ends_unspaced_name(&q.text[b.chunk.span.clone()], b.chunk.script);
            if !glued || word_hit[pair[0]].is_none() {
                continue;
            }
            let other = written_otherwise_everywhere(row, a, |p| {
                let n = continues_unspaced_name(row, p)?;
                (!word_matches(b, &row.chunks[n]))
                    .then(|| row.chunks[p].span.start..row.chunks[n].span.end)
            });
            if let Some(other) = other {
                return Some(format!("names {other:?}, not {:?}", q.run_text(pair)));
            }
        }
    }
    None
}

/// The mirror in Hangul, where a word holds nothing before a name (particles and titles
/// follow it): a row whose name begins, inside its word, with another syllable than the
/// query's names someone else, another family name before the same given name (김민준 for
/// 이민준): the query's first two syllables, where a run of three or more starts a word. Not in
/// Han, written without spaces between words, where the character before a name may end the
/// word before it.
fn begins_elsewhere(
    q: &QueryShape,
    row: &RowView<'_>,
    word_hit: &[Option<usize>],
) -> Option<String> {
    // A family name and a given name: three syllables or more, from the start of a word (a
    // caseless run of two, 배지, may be another word).
    for run in q.names.iter().filter(|run| run.len() >= 3) {
        let (a, b) = (&q.words[run[0]], &q.words[run[1]]);
        let word_start = q.text[..a.chunk.span.start]
            .chars()
            .next_back()
            .is_none_or(char::is_whitespace);
        let glued = a.chunk.script == Script::Hangul
            && b.chunk.script == Script::Hangul
            && a.chunk.span.end == b.chunk.span.start;
        if !word_start || !glued || word_hit[run[1]].is_none() {
            continue;
        }
        let other = written_otherwise_everywhere(row, b, |p| {
            let prev = &row.chunks[p.checked_sub(1)?];
            (prev.script == Script::Hangul
                && prev.span.end == row.chunks[p].span.start
                && !word_matches(a, prev))
            .then(|| prev.span.start..row.chunks[p].span.end)
        });
        if let Some(other) = other {
            return Some(format!("names {other:?}, not {:?}", q.run_text(&run[..2])));
        }
    }
    None
}

/// A hyphenated given name the row writes with a second part that the query's extends, or that
/// extends the query's: "Min-jun" for "Min-junho", "Anne-Mariette" for "Anne-Marie". Every
/// place the row writes the query's name word before a hyphen must join it so (a row writing
/// the first part alone, "Min's card", is left to the other evidence; so is another second
/// part, which may be another romanization of the same name: "Min-joon").
fn hyphenated_elsewhere(q: &QueryShape, row: &RowView<'_>) -> Option<String> {
    let qchunks = canon::chunks(&q.text);
    let extends = |a: &str, b: &str| a != b && (a.starts_with(b) || b.starts_with(a));
    let hyphen = |text: &str, a: &canon::Chunk, b: &canon::Chunk| {
        text.get(a.span.end..b.span.start) == Some("-") && !has_digit(a) && !has_digit(b)
    };
    for &i in q.names.iter().flatten() {
        let w = &q.words[i];
        let Some(next) = qchunks.get(w.pos + 1) else {
            continue;
        };
        if w.chunk.script != Script::Latin || !hyphen(&q.text, &w.chunk, next) {
            continue;
        }
        let other = written_otherwise_everywhere(row, w, |p| {
            let (c, n) = (&row.chunks[p], row.chunks.get(p + 1)?);
            (hyphen(row.text, c, n) && extends(&n.form, &next.form))
                .then_some(c.span.start..n.span.end)
        });
        if let Some(other) = other {
            let written = &q.text[w.chunk.span.start..next.span.end];
            return Some(format!("names {other:?}, not {written:?}"));
        }
    }
    None
}
