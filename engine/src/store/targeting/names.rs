//! Where a query's name stands in a row, in every script: names written without spaces (Han,
//! Hangul, kana), names inside a kinship phrase ("Ana's mother"), abjad names under clitics, and
//! Latin names written with other vowels or particles.

use super::query::{QWord, QueryShape};
use super::row_view::RowView;
use crate::canon::{self, Chunk, Script};
use crate::index::keys::{self, has_digit};

/// Scripts with letter case, where a capital marks a name.
pub(crate) fn cased(s: Script) -> bool {
    matches!(s, Script::Latin | Script::Cyrillic | Script::Greek)
}

/// True if chunk `i` of `chunks` (of `text`) is written as part of a name: capitalized (or
/// from a caseless script), or the lowercase second half of a hyphenated given name ("Ji-su",
/// "Jun-seo", "Wei-ming"): a Latin chunk glued by a hyphen to a capitalized chunk of two
/// letters or more that does not start the text (where "Follow-up" is capitalized by grammar).
pub(crate) fn name_part(text: &str, chunks: &[Chunk], i: usize) -> bool {
    let c = &chunks[i];
    if c.capitalized {
        return true;
    }
    // A lowercase particle of a romanized Arabic name between two capitalized words
    // ("Muhammad Abd al-Rahman", "Khalid bin Salman").
    if c.script == Script::Latin
        && is_name_particle(&c.form)
        && i >= 1
        && chunks[i - 1].capitalized
        && chunks.get(i + 1).is_some_and(|n| n.capitalized)
        && [
            &text[chunks[i - 1].span.end..c.span.start],
            &text[c.span.end..chunks[i + 1].span.start],
        ]
        .iter()
        .all(|g| matches!(*g, " " | "-"))
    {
        return true;
    }
    let Some(prev) = i.checked_sub(1).map(|p| &chunks[p]) else {
        return false;
    };
    // The first word of a text is capitalized by grammar ("Long-term plans"): there, a
    // hyphenated part continues a name only when a possessive, another capitalized word or an
    // auxiliary verb follows it, a colon makes it the request's label, or nothing follows
    // ("Min-jun's allergies", "Min-jun Kim: allergy information", "Ji-woo has new
    // information", "Ji-woo: credit card", "Ji-woo").
    let named_after = || {
        super::possession::possessive_after(text, chunks, i)
            || text[c.span.end..].starts_with(':')
            || chunks.get(i + 1).is_none_or(|n| {
                text.get(c.span.end..n.span.start) == Some(" ")
                    && (n.capitalized || super::framing::is_auxiliary(&n.form))
            })
    };
    (i >= 2 || named_after())
        && prev.capitalized
        && prev.script == Script::Latin
        && c.script == Script::Latin
        && prev.form.chars().count() >= 2
        && &text[prev.span.end..c.span.start] == "-"
        && !has_digit(c)
        && !has_digit(prev)
        && !crate::text::is_stopword(&c.form)
}

/// True if the full name `run` of `q` (two words or more, in a cased script) is held whole by
/// no row of `views`, while either
/// - a row writes a word of it as part of another full name: "Jonas Wolf" where a row says
///   "Jonas Weber". The rows that write only "Jonas" are then about Jonas Weber as much as
///   anyone, and a request about Jonas Wolf, whom the store does not know, must not reach them;
/// - or the name is a given name and a family name (two parts; a hyphen joins one part, as in
///   "Ji-woo") and no row holds the family name at all: "Mehmet Kaya" where the rows say only
///   "Mehmet". Nothing in the store says its Mehmet is a Kaya, so the request names someone
///   the store may not know, and a row naming only "Mehmet" is a candidate, not a match.
pub(crate) fn borne_by_another(q: &QueryShape, run: &[usize], views: &[RowView<'_>]) -> bool {
    // Titles and kinship words before a name are not part of it ("Grandpa Boris").
    let run: Vec<usize> = run
        .iter()
        .copied()
        .filter(|&i| {
            let w = &q.words[i];
            !super::word_classes::is_title(&w.chunk.form)
                && !super::word_classes::is_kinship(&q.text[w.chunk.span.clone()])
        })
        .collect();
    if run.len() < 2 || !run.iter().all(|&i| cased(q.words[i].chunk.script)) {
        return false;
    }
    let matches = |i: usize, c: &Chunk| super::word_match::word_matches(&q.words[i], c);
    let held_whole = views
        .iter()
        .any(|v| run.iter().all(|&i| v.chunks.iter().any(|c| matches(i, c))));
    if held_whole {
        return false;
    }
    // The name's parts: words joined by a hyphen are one part ("Ji-woo").
    let glued = |a: usize, b: usize| {
        let (x, y) = (&q.words[a].chunk.span, &q.words[b].chunk.span);
        x.end <= y.start && &q.text[x.end..y.start] == "-"
    };
    let starts: Vec<usize> = (1..run.len())
        .filter(|&k| !glued(run[k - 1], run[k]))
        .collect();
    let family_unknown = starts.len() == 1 && {
        let (given, family) = run.split_at(starts[0]);
        // A word of the relation lexicon ("City" of "Mexico City") is no family name.
        let family_name = family
            .iter()
            .all(|&i| crate::lexicon::slots(&q.words[i].stem).is_empty());
        // Rows that hold the given name in another script may hold the family name in a form
        // the reading rules miss, and a lowercase hit is part of a value ("piyaphong.tk"):
        // only rows that write the given name as a name in a cased script show that the family
        // name is absent.
        let given_hits: Vec<&Chunk> = views
            .iter()
            .flat_map(|v| &v.chunks)
            .filter(|c| matches(given[0], c))
            .collect();
        let given_in_cased_rows =
            !given_hits.is_empty() && given_hits.iter().all(|c| cased(c.script) && c.capitalized);
        family_name
            && given_in_cased_rows
            && family
                .iter()
                .all(|&i| !views.iter().any(|v| v.chunks.iter().any(|c| matches(i, c))))
    };
    if family_unknown {
        return true;
    }
    // A chunk that continues a name: capitalized, spaced from it, not a title, a kinship
    // word or a word of the query.
    let continues = |v: &RowView<'_>, a: usize, b: usize| {
        let c = &v.chunks[b];
        let (lo, hi) = (a.min(b), a.max(b));
        name_part(v.text, &v.chunks, b)
            && c.capitalized
            && cased(c.script)
            && !has_digit(c)
            && !crate::text::is_stopword(&c.form)
            && !super::word_classes::is_title(&c.form)
            && !super::word_classes::is_kinship(&v.text[c.span.clone()])
            && !q
                .words
                .iter()
                .any(|w| super::word_match::word_matches(w, c))
            && v.text[v.chunks[lo].span.end..v.chunks[hi].span.start]
                .chars()
                .all(|ch| ch == ' ')
    };
    views.iter().any(|v| {
        (0..v.chunks.len()).any(|p| {
            run.iter().any(|&i| matches(i, &v.chunks[p]))
                && (p.checked_sub(1).is_some_and(|b| continues(v, p, b))
                    || (p + 1 < v.chunks.len() && continues(v, p, p + 1)))
        })
    })
}

/// Nouns that name a person by their relation to someone: family, household and the people
/// who serve or work with them. After a possessive ("Priya's husband", "Ahmad's father") they
/// make that other person the subject of what follows. In order: family ("husband" to
/// "niece"), the people someone lives or works with ("friend" to "tenant"), then the people
/// who serve them ("lawyer" on), whose names also qualify the service ("dentist appointment").
const RELATIONS: &[&str] = &[
    "husband",
    "wife",
    "spouse",
    "partner",
    "fiance",
    "fiancee",
    "girlfriend",
    "boyfriend",
    "son",
    "daughter",
    "child",
    "children",
    "kid",
    "kids",
    "baby",
    "stepson",
    "stepdaughter",
    "father",
    "mother",
    "dad",
    "mum",
    "mom",
    "parent",
    "parents",
    "stepfather",
    "stepmother",
    "brother",
    "sister",
    "sibling",
    "siblings",
    "twin",
    "grandmother",
    "grandfather",
    "grandma",
    "grandpa",
    "grandson",
    "granddaughter",
    "grandchild",
    "grandchildren",
    "uncle",
    "aunt",
    "cousin",
    "nephew",
    "niece",
    "friend",
    "flatmate",
    "roommate",
    "neighbour",
    "neighbor",
    "colleague",
    "boss",
    "manager",
    "assistant",
    "secretary",
    "employer",
    "landlord",
    "tenant",
    "lawyer",
    "accountant",
    "doctor",
    "dentist",
    "nurse",
    "carer",
    "caregiver",
    "nanny",
    "babysitter",
    "tutor",
    "teacher",
    "coach",
    "guardian",
    "sponsor",
    "advisor",
    "adviser",
];

/// Words that may stand between a possessive and a relation ("Priya's late husband").
const RELATION_MODIFIERS: &[&str] = &[
    "older", "younger", "elder", "eldest", "oldest", "youngest", "little", "big", "late", "ex",
    "former", "new", "step", "first", "second", "best", "old", "current", "previous",
];

/// If the name ending at chunk `end` of `row` (or running on from it: "Priya Singh") is a
/// possessive followed by a relation noun ("Priya's husband", "Ahmad's older brother"), the
/// index of that relation chunk.
pub(super) fn possessive_relation(row: &RowView<'_>, end: usize) -> Option<usize> {
    // The rest of the row's name first ("Priya" of the query, "Priya Singh's" in the row).
    let mut end = end;
    while let Some(next) = row.chunks.get(end + 1)
        && next.capitalized
        && cased(next.script)
        && row.text[row.chunks[end].span.end..next.span.start]
            .chars()
            .all(char::is_whitespace)
    {
        end += 1;
    }
    // "Priya's", or the bare apostrophe of a name ending in s ("Claire Dubois' assistant").
    let next = row.chunks.get(end + 1)?;
    let between = &row.text[row.chunks[end].span.end..next.span.start];
    let mut i = if next.form == "s" && matches!(between, "'" | "’") {
        end + 2
    } else if row.chunks[end].form.ends_with('s') && matches!(between.trim_end(), "'" | "’") {
        end + 1
    } else {
        return None;
    };
    if row
        .chunks
        .get(i)
        .is_some_and(|c| RELATION_MODIFIERS.contains(&c.form.as_str()))
    {
        i += 1;
    }
    let c = row.chunks.get(i)?;
    (RELATIONS.contains(&c.form.as_str()) && c.script == Script::Latin).then_some(i)
}

/// The chunk of a relation noun that makes the query ask about a relative of a person it
/// names: "Priya's (late) husband's e-mail", "the bonus of Yosef's sister", "Yuki son licence
/// plate", "the employee number of the mother of Maria Rossi", "his son's staff number". Only
/// when the relation is part of the description (not commentary) and the query asks
/// something of the relative besides the relation itself: "Sakura's manager" asks for the
/// relation, an attribute of Sakura.
pub(crate) fn query_relation(q: &QueryShape) -> Option<usize> {
    let chunks = canon::chunks(&q.text);
    let relation = |i: usize| {
        chunks.get(i).is_some_and(|c| {
            c.script == Script::Latin && !c.capitalized && RELATIONS.contains(&c.form.as_str())
        })
    };
    // The family words open the list; "friend" starts the others, "lawyer" the people who
    // serve someone.
    let among_first = |i: usize, until: &str| {
        chunks.get(i).is_some_and(|c| {
            RELATIONS
                .iter()
                .take_while(|w| **w != until)
                .any(|w| *w == c.form)
        })
    };
    let family = |i: usize| among_first(i, "friend");
    let personal = |i: usize| among_first(i, "lawyer");
    let view = RowView::new(&q.text);
    let of_name = |run: &Vec<usize>| -> Option<usize> {
        let (first, last) = (q.words[*run.first()?].pos, q.words[*run.last()?].pos);
        possessive_relation(&view, last)
            // Telegraphic ("Yuki son licence plate"): family words, or the people someone
            // lives or works with when the query names no one else ("Priya manager shoe
            // size"; "장서연's former Busan manager role" is a role at Busan). Not the people
            // who serve someone: "Nadia dentist appointment" is Nadia's appointment.
            .or_else(|| {
                (relation(last + 1)
                    && (family(last + 1) || (personal(last + 1) && q.names.len() == 1)))
                    .then_some(last + 1)
            })
            .or_else(|| {
                let of = first.checked_sub(1)?;
                let at = of.checked_sub(1)?;
                (chunks[of].form == "of" && relation(at)).then_some(at)
            })
    };
    let rel = q.names.iter().find_map(of_name).or_else(|| {
        // "Mehmet asked us to wipe his husband's anniversary": a possessive pronoun's relation.
        // The relation is itself a possessor there: "with her sister Mali" names the new
        // value, "change it to her mother" asks for the relation.
        (1..chunks.len()).find(|&i| {
            relation(i)
                && POSSESSIVE_PRONOUNS.contains(&chunks[i - 1].form.as_str())
                && chunks.get(i + 1).is_some_and(|c| {
                    c.form == "s" && matches!(&q.text[chunks[i].span.end..c.span.start], "'" | "’")
                })
        })
    })?;
    let counted = q.words.iter().any(|w| w.pos == rel);
    // An acronym the query does not mark as a name is asked of them too ("David's son's SSN").
    let asks_more = q.words.iter().enumerate().any(|(i, w)| {
        (!w.name || q.unmarked_acronym(i))
            && !w.optional
            && w.pos != rel
            && !super::word_classes::is_request_word(&w.stem)
    });
    (counted && asks_more).then_some(rel)
}

/// Possessive pronouns before a relation noun ("his husband's", "her son's").
const POSSESSIVE_PRONOUNS: &[&str] = &["his", "her", "their", "my", "our", "your"];

/// Where `row` writes the query's name `run` (Latin) as consecutive words of an abjad whose
/// joined consonant skeleton is the run's joined skeleton: "Abdullah" is عبد الله, "Al-Zahrani"
/// is الزهراني, "Muhammad Abdullah" is محمد عبد الله. The first of those chunks.
pub(super) fn abjad_run(q: &QueryShape, run: &[usize], row: &RowView<'_>) -> Option<usize> {
    if run
        .iter()
        .any(|&i| q.words[i].chunk.script != Script::Latin)
    {
        return None;
    }
    let joined: String = run
        .iter()
        .map(|&i| q.words[i].chunk.form.as_str())
        .collect();
    let want = canon::skeleton(&joined);
    if want.len() < 3 {
        return None;
    }
    let abjad = |c: &Chunk| matches!(c.script, Script::Arabic | Script::Hebrew);
    let n = row.chunks.len();
    for start in 0..n {
        let mut form = String::new();
        for end in start..n.min(start + run.len() + 2) {
            let c = &row.chunks[end];
            if !abjad(c) || (end > start && c.gap != Some(canon::Gap::Joiner)) {
                break;
            }
            form.push_str(&c.form);
            let got = canon::abjad_skeletons(&form);
            let last = &q.words[run[run.len() - 1]].chunk;
            if got.contains(&want) && canon::vowel_finals_agree(last, c) {
                return Some(start);
            }
            if got.iter().all(|g| g.len() > want.len()) {
                break;
            }
        }
    }
    None
}

/// A Japanese name the query and the row write in different scripts, read through kanji
/// readings ([`canon::japanese::reads_as`]): for each word of the name `run` the row now holds,
/// its index in the run and the row chunk where it is. A run written in kanji ("田中美咲") is
/// read whole or as two names (surname and given name) against the row's Latin words; a run
/// written in Latin letters ("Misaki Tanaka") word by word against kanji runs of the row (each
/// word a different run of up to four characters; the chunk given is the run's last). The flag
/// is true if every piece reads exactly ([`canon::japanese::reads_exactly`]), no long vowel
/// the Latin spelling lacks dropped.
pub(crate) fn japanese_run(
    q: &QueryShape,
    run: &[usize],
    row: &RowView<'_>,
) -> (Vec<(usize, usize)>, bool) {
    use canon::japanese::{MAX_NAME_KANJI, reads_as, reads_exactly};
    let words: Vec<&QWord> = run.iter().map(|&i| &q.words[i]).collect();
    let contiguous = words
        .windows(2)
        .all(|p| p[0].chunk.span.end == p[1].chunk.span.start);
    if words.iter().all(|w| w.chunk.script == Script::Han) && contiguous {
        let han = &q.text[words[0].chunk.span.start..words[words.len() - 1].chunk.span.end];
        let latin: Vec<usize> = (0..row.chunks.len())
            .filter(|&p| row.chunks[p].script == Script::Latin && row.chunks[p].capitalized)
            .collect();
        // The row's word reading the piece, an exact reading first; and whether it is exact.
        let find = |piece: &str, not: Option<usize>| {
            let word = |p: usize| &row.text[row.chunks[p].span.clone()];
            let candidates = || latin.iter().copied().filter(move |&p| Some(p) != not);
            candidates()
                .find(|&p| reads_exactly(piece, word(p)))
                .map(|p| (p, true))
                .or_else(|| {
                    candidates()
                        .find(|&p| reads_as(piece, word(p)))
                        .map(|p| (p, false))
                })
        };
        let bounds: Vec<usize> = words.iter().map(|w| w.chunk.span.start).collect();
        if let Some((p, exact)) = find(han, None) {
            return ((0..run.len()).map(|k| (k, p)).collect(), exact);
        }
        for k in 1..words.len() {
            let split = bounds[k] - bounds[0];
            let (a, b) = han.split_at(split);
            if let Some((pa, ea)) = find(a, None)
                && let Some((pb, eb)) = find(b, Some(pa))
            {
                let at = (0..run.len())
                    .map(|j| (j, if j < k { pa } else { pb }))
                    .collect();
                return (at, ea && eb);
            }
        }
        return (Vec::new(), false);
    }
    if !words.iter().all(|w| w.chunk.script == Script::Latin) {
        return (Vec::new(), false);
    }
    let mut exact = true;
    let mut out = Vec::new();
    let mut taken: Vec<(usize, usize)> = Vec::new();
    for (k, w) in words.iter().enumerate() {
        let raw = &q.text[w.chunk.span.clone()];
        'search: for a in 0..row.chunks.len() {
            for len in 1..=MAX_NAME_KANJI {
                let b = a + len;
                if b > row.chunks.len()
                    || row.chunks[a..b].iter().any(|c| c.script != Script::Han)
                    || (a..b - 1).any(|j| row.chunks[j].span.end != row.chunks[j + 1].span.start)
                {
                    break;
                }
                if taken.iter().any(|&(x, y)| a < y && x < b) {
                    continue;
                }
                let piece = &row.text[row.chunks[a].span.start..row.chunks[b - 1].span.end];
                if reads_as(piece, raw)
                    && !(run.len() == 1 && super::word_match::inside_han_word(row, &(a..b)))
                {
                    exact &= reads_exactly(piece, raw);
                    taken.push((a, b));
                    // Where the name ends: what follows it tells a longer name.
                    out.push((k, b - 1));
                    break 'search;
                }
            }
        }
    }
    (out, exact)
}

/// A man's name the query or the row writes in the Russian or Ukrainian genitive ("Івана
/// Бондаря" for Іван Бондар, "Ираклия Церетели" for ირაკლი წერეთელი or Ираклий Церетели;
/// "Дмитрия Соколова" for "Dmitry Sokolov"): the row chunks of the whole `run`, in order and
/// side by side, when each query word is the row's word ([`super::word_match::word_matches`])
/// or the one is the other's masculine genitive ([`canon::masculine_genitive`],
/// [`canon::masculine_genitive_of_spelling`]) and at least one is the genitive. Pairs of (index in the
/// run, row chunk); empty unless the whole run is held. One word never suffices: "Петрова" is
/// also Anna Petrova, another person than Ivan Petrov.
pub(super) fn genitive_run(
    q: &QueryShape,
    run: &[usize],
    row: &RowView<'_>,
) -> Vec<(usize, usize)> {
    if run.len() < 2 {
        return Vec::new();
    }
    // The query writes the genitive, or the row does (of a name the query writes in Cyrillic or
    // Latin letters: "Dmitry Sokolov" and "Дмитрия Соколова").
    let query_cyrillic = run
        .iter()
        .all(|&i| q.words[i].chunk.script == Script::Cyrillic);
    let query_cased = run
        .iter()
        .all(|&i| matches!(q.words[i].chunk.script, Script::Cyrillic | Script::Latin));
    if !query_cased {
        return Vec::new();
    }
    let n = row.chunks.len();
    for start in 0..n.saturating_sub(run.len() - 1) {
        let mut genitive = false;
        let held = run.iter().enumerate().all(|(k, &i)| {
            let (w, c) = (&q.words[i], &row.chunks[start + k]);
            let spaced = k == 0
                || row.text[row.chunks[start + k - 1].span.end..c.span.start]
                    .chars()
                    .all(char::is_whitespace);
            if !spaced || !keys::name_like(c) {
                return false;
            }
            if super::word_match::word_matches(w, c) {
                return true;
            }
            let g = (query_cyrillic && canon::masculine_genitive(&c.form, &w.chunk.form))
                || (c.script == Script::Cyrillic
                    && canon::masculine_genitive_of_spelling(&w.chunk.form, &c.form));
            genitive |= g;
            g
        });
        if held && genitive {
            return (0..run.len()).map(|k| (k, start + k)).collect();
        }
    }
    Vec::new()
}

/// Most syllables one romanized word of a name stands for in Hangul or Han ("Minjun" 민준,
/// "Xiaoming" 小明; three for a rare three-syllable given name).
const MAX_NAME_SYLLABLES: usize = 3;

/// A Korean or Chinese name the query writes in Latin letters with one word for several
/// syllables ("Gim Minjun" and 김민준, "Pak Chihun" and 박지훈, "Wang Xiaoming" and 王小明):
/// for each Latin word of the name `run` that no single chunk of the row holds, the last of two
/// or three consecutive, unspaced Hangul or Han syllables of the row whose joined romanization
/// is that word (Hangul by [`canon::hangul_variant_key`], which relaxes the differences between
/// Revised Romanization, McCune-Reischauer and popular spellings; Han by its reading through
/// [`canon::variant_key`]). Pairs of (index in the run, row chunk).
pub(super) fn syllable_run(
    q: &QueryShape,
    run: &[usize],
    word_hit: &[Option<usize>],
    row: &RowView<'_>,
) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (k, &i) in run.iter().enumerate() {
        let w = &q.words[i];
        if word_hit[i].is_some() || w.chunk.script != Script::Latin || w.chunk.form.len() < 4 {
            continue;
        }
        let n = row.chunks.len();
        'search: for a in 0..n {
            let script = row.chunks[a].script;
            if !matches!(script, Script::Hangul | Script::Han) {
                continue;
            }
            let mut joined = row.chunks[a].form.clone();
            for b in a + 1..n.min(a + MAX_NAME_SYLLABLES) {
                let (prev, c) = (&row.chunks[b - 1], &row.chunks[b]);
                if c.script != script || prev.span.end != c.span.start {
                    break;
                }
                joined.push_str(&c.form);
                let meets = if script == Script::Hangul {
                    let (x, y) = (
                        canon::hangul_variant_key(&joined),
                        canon::hangul_variant_key(&w.chunk.form),
                    );
                    x == y || canon::without_initial_glide(&x) == canon::without_initial_glide(&y)
                } else {
                    canon::variant_key(&joined) == canon::variant_key(&w.chunk.form)
                };
                if meets {
                    out.push((k, b));
                    break 'search;
                }
            }
        }
    }
    out
}

/// Least consonants a Latin name run's joined skeleton needs to be compared whole against
/// another Latin spelling: below that, names that differ only in vowels ("Salma Khalil",
/// "Salim Khalil") would meet.
const LATIN_SKELETON_MIN: usize = 8;

/// Where `row` writes the query's Latin name `run` in another Latin spelling with another
/// word division: Arabic names romanized differently ("Abdelrahman El Khoury" and
/// "Abdul-Rahman Al-Khouri", "Muhammad Abd al-Rahman" and "Mohammed Abdel-Rahman") have the
/// same joined consonant skeleton. Only for runs of two words or more whose skeleton has at
/// least [`LATIN_SKELETON_MIN`] consonants, against consecutive capitalized or hyphen-joined
/// Latin words of the row. The first of those chunks.
pub(super) fn latin_skeleton_run(
    q: &QueryShape,
    run: &[usize],
    row: &RowView<'_>,
) -> Option<usize> {
    if run.len() < 2
        || run
            .iter()
            .any(|&i| q.words[i].chunk.script != Script::Latin)
    {
        return None;
    }
    let joined: String = run
        .iter()
        .map(|&i| q.words[i].chunk.form.as_str())
        .collect();
    let want = canon::skeleton(&joined);
    if want.len() < LATIN_SKELETON_MIN {
        return None;
    }
    let n = row.chunks.len();
    for start in 0..n {
        let mut form = String::new();
        for end in start..n.min(start + run.len() + 3) {
            let c = &row.chunks[end];
            let glued = end == start || c.gap == Some(canon::Gap::Joiner);
            if c.script != Script::Latin
                || !glued
                || has_digit(c)
                || !(name_part(row.text, &row.chunks, end)
                    || (end > start && is_name_particle(&c.form)))
            {
                break;
            }
            form.push_str(&c.form);
            let got = canon::skeleton(&form);
            if got == want {
                return Some(start);
            }
            if got.len() > want.len() {
                break;
            }
        }
    }
    None
}

/// Lowercase particles inside romanized Arabic names ("al", "el", "bin", "abu"). Only forms that
/// are not also English words: the assimilated articles "as", "at", "ad", "ar" would make
/// "Lena at Acme" one name.
fn is_name_particle(form: &str) -> bool {
    matches!(
        form,
        "al" | "el" | "ul" | "bin" | "ibn" | "bint" | "abu" | "abd"
    )
}

/// True if name run `run` of `q` is written as an attribute word of the lexicon ("Wi-Fi",
/// "IBAN"): capitalized, yet naming what is asked, not whose.
pub(super) fn written_as_attribute(q: &QueryShape, run: &[usize]) -> bool {
    let written = q.run_text(run);
    !written.is_empty() && !crate::lexicon::slots(written).is_empty()
}
