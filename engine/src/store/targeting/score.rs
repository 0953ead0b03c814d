//! How well one row (and each of its clauses) answers a targeting query, and why.

use std::collections::BTreeSet;
use std::ops::Range;

use super::query::{QWord, QueryShape, is_negated};
use super::value_kind::ValueKind;
use crate::canon::{self, Chunk, Identifier, Script};
use crate::clause::{self, Clause};
use crate::index::keys::{self, has_digit, name_like};
use crate::lexicon;

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
    fn clause_at(&self, span: &Range<usize>) -> Option<usize> {
        self.clauses
            .iter()
            .position(|c| c.span.start <= span.start && span.end <= c.span.end)
    }
}

/// Day and month names, which take plurals ("on Tuesdays").
pub(crate) fn is_calendar(w: &str) -> bool {
    const NAMES: &[&str] = &[
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ];
    NAMES.contains(&w)
}

/// True for a word that makes the date after it the bound of a period
/// ([`super::period::BOUND_WORDS`]: "before April", "since 2019").
pub(crate) fn is_bound_word(w: &str) -> bool {
    super::period::BOUND_WORDS.contains(&w)
}

/// The year a chunk states: four digits from 1900 to 2099.
pub(crate) fn year_of(form: &str) -> Option<u32> {
    let year: u32 = form
        .parse()
        .ok()
        .filter(|_| form.len() == 4 && form.bytes().all(|b| b.is_ascii_digit()))?;
    (1900..2100).contains(&year).then_some(year)
}

/// True if the query word `w` is a day or month name written as one ("May", not the verb
/// "may").
fn is_date_word(w: &QWord) -> bool {
    is_calendar(&w.stem) && (w.chunk.script != Script::Latin || w.chunk.capitalized)
}

/// Characters that join the parts of one token ("api-gateway", "1.4.2", "/srv/data").
const STRONG_JOINERS: &[char] = &['-', '.', '_', '/', ':', '+', '#'];

/// True if `span` of `text` neither starts nor ends inside a longer token: no strong joiner
/// with a letter or digit beyond it ("api:1.4" is not a token of "api:1.4.2").
pub(crate) fn whole_token(text: &str, span: &Range<usize>) -> bool {
    let before = &text[..span.start];
    let after = &text[span.end..];
    let mut b = before.chars().rev();
    let glued_before = matches!((b.next(), b.next()), (Some(j), Some(x)) if STRONG_JOINERS.contains(&j) && x.is_alphanumeric());
    let mut a = after.chars();
    let glued_after = matches!((a.next(), a.next()), (Some(j), Some(x)) if STRONG_JOINERS.contains(&j) && x.is_alphanumeric());
    !glued_before && !glued_after
}

/// One query word against one row chunk.
pub(crate) fn word_matches(w: &QWord, c: &Chunk) -> bool {
    if has_digit(c) {
        return false;
    }
    let both_names = w.name && name_like(c);
    if both_names {
        // Names are not plurals ("Andreas" is not "Andrea"), except calendar names.
        if c.form == w.chunk.form
            || (keys::stem(&c.form) == w.stem && is_calendar(&w.stem))
            || (w.plural_possessive && w.chunk.form.strip_suffix('s') == Some(c.form.as_str()))
        {
            return true;
        }
    } else if keys::stem(&c.form) == w.stem {
        return true;
    }
    if !w.name && w.stem.chars().count() >= 4 && lexicon::lemma(&c.form) == lexicon::lemma(&w.stem)
    {
        return true;
    }
    if (w.name || name_like(c))
        && (canon::same_name(&w.chunk, c) || canon::same_inflected_name(&w.chunk, c))
    {
        return true;
    }
    // A Han surname of the query written in Latin letters in the row ("佐藤" and "Sato").
    if c.script == Script::Latin
        && w.readings
            .iter()
            .any(|r| *r == c.form || canon::variant_key(r) == canon::variant_key(&c.form))
    {
        return true;
    }
    if w.name || name_like(c) {
        let ex = canon::exonyms(&c.form);
        if ex.iter().any(|e| keys::stem(e) == w.stem) {
            return true;
        }
        if canon::exonyms(&w.chunk.form).iter().any(|e| *e == c.form) {
            return true;
        }
    }
    false
}

/// Where `row` holds query word `w`: a chunk index (the first of a pair for place names in a
/// syllabic script, of a Han surname for its reading).
pub(crate) fn find_word(w: &QWord, row: &RowView<'_>) -> Option<usize> {
    find_name(w, row)
        .or_else(|| concept_hit(w, row))
        .or_else(|| kind_hit(w, row))
}

/// Where `row` states the value an attribute concept of query word `w` names on its own
/// ([`ValueKind::of_concept`]): "Jo's email address" and "Jo's work e-mail is jo@...",
/// "Aunt Rena's landline" and "Το σταθερό της θείας Ρένας είναι 2310 445 678", "Samir's March
/// address" and "As of March 2024, Samir lived at 12 Rue Gouraud".
fn kind_hit(w: &QWord, row: &RowView<'_>) -> Option<usize> {
    if w.name {
        return None;
    }
    w.concepts
        .iter()
        .filter_map(|c| ValueKind::of_concept(c))
        .find_map(|kind| super::value_kind::value_at(row, kind))
}

/// [`find_word`] by form only: names, spellings, readings and exonyms, not attribute concepts
/// (a word of a name run is present only as itself).
pub(crate) fn find_name(w: &QWord, row: &RowView<'_>) -> Option<usize> {
    row.chunks
        .iter()
        .position(|c| word_matches(w, c))
        .or_else(|| {
            row.chunks
                .windows(2)
                .position(|p| pair_matches(w, &p[0], &p[1]))
        })
        .or_else(|| {
            keys::han_readings(row.text, &row.chunks)
                .into_iter()
                .find(|(_, r)| {
                    *r == w.chunk.form || canon::variant_key(r) == canon::variant_key(&w.chunk.form)
                })
                .map(|(i, _)| i)
        })
}

/// Where `row` names, in another script, an attribute concept query word `w` names ("room" and
/// палата, 병실 and "room"; [`crate::concepts`]). Words of one script meet by their forms only.
fn concept_hit(w: &QWord, row: &RowView<'_>) -> Option<usize> {
    use crate::concepts;
    if w.concepts.is_empty() {
        return None;
    }
    let same_language = |s: Script| {
        s == w.chunk.script || (concepts::unspaced(s) && concepts::unspaced(w.chunk.script))
    };
    concepts::words(row.text, &row.chunks)
        .into_iter()
        .find(|(i, span, script)| {
            if same_language(*script) {
                // One abjad: the same form under different clitics ("החדר", "בחדר").
                return concepts::same_abjad_form(&w.written, &row.text[span.clone()], *script);
            }
            !has_digit(&row.chunks[*i])
                && concepts::concepts_of_word(
                    &row.text[span.clone()],
                    *script,
                    &row.chunks[*i].form,
                )
                .iter()
                .any(|k| w.concepts.contains(k))
        })
        .map(|(i, _, _)| i)
}

/// Place names written in a syllabic script take two chunks ("東京" is "dong" "jing").
fn pair_matches(w: &QWord, a: &Chunk, b: &Chunk) -> bool {
    if a.script == Script::Latin || a.script != b.script {
        return false;
    }
    [
        format!("{}{}", a.form, b.form),
        format!("{} {}", a.form, b.form),
    ]
    .iter()
    .any(|joined| {
        canon::exonyms(joined)
            .iter()
            .any(|e| keys::stem(e) == w.stem)
    })
}

/// Scripts with letter case, where a capital marks a name.
pub(crate) fn cased(s: Script) -> bool {
    matches!(s, Script::Latin | Script::Cyrillic | Script::Greek)
}

/// Characters that follow a name inside one unspaced Chinese word without being part of it:
/// particles, the copula, common prepositions and conjunctions, and the first characters of
/// titles (先生, 女士, 小姐, 老师, 医生, 教授, 经理).
const HAN_AFTER_NAME: &str = "的是在和与跟同及或了也都就还又说有住去来从对给被把将会要想喜爱已曾不没很这那之于为向让叫请用先女小老医教经总等们";

/// Hangul syllables that open a particle or a title after a name (의 은 는 이 가 을 를 에 와
/// 과 도 만 께 한 랑 하고 로 으로 씨 님 선생 교수 박사 ...).
const HANGUL_AFTER_NAME: &str = "의은는이가을를에와과도만께한랑하로으씨님선교박";

/// If the name that ends at chunk `end` of `row` runs on, within one unspaced word of Han or
/// Hangul, into a syllable that is not a particle or title, the index of that chunk.
fn continues_unspaced_name(row: &RowView<'_>, end: usize) -> Option<usize> {
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
    i >= 2
        && prev.capitalized
        && prev.script == Script::Latin
        && c.script == Script::Latin
        && prev.form.chars().count() >= 2
        && &text[prev.span.end..c.span.start] == "-"
        && !has_digit(c)
        && !has_digit(prev)
        && !crate::text::is_stopword(&c.form)
}

/// Nouns that name a person by their relation to someone: family, household and the people
/// who serve or work with them. After a possessive ("Priya's husband", "Ahmad's father") they
/// make that other person the subject of what follows.
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
    "former", "new", "step", "first", "second", "best",
];

/// If the name ending at chunk `end` of `row` (or running on from it: "Priya Singh") is a
/// possessive followed by a relation noun ("Priya's husband", "Ahmad's older brother"), the
/// index of that relation chunk.
fn possessive_relation(row: &RowView<'_>, end: usize) -> Option<usize> {
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
    let s = row.chunks.get(end + 1)?;
    let between = &row.text[row.chunks[end].span.end..s.span.start];
    if s.form != "s" || !matches!(between, "'" | "’") {
        return None;
    }
    let mut i = end + 2;
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

/// Where `row` writes the query's name `run` (Latin) as consecutive words of an abjad whose
/// joined consonant skeleton is the run's joined skeleton: "Abdullah" is عبد الله, "Al-Zahrani"
/// is الزهراني, "Muhammad Abdullah" is محمد عبد الله. The first of those chunks.
fn abjad_run(q: &QueryShape, run: &[usize], row: &RowView<'_>) -> Option<usize> {
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
            if got.contains(&want) {
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
                if reads_as(piece, raw) {
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
fn syllable_run(
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
fn latin_skeleton_run(q: &QueryShape, run: &[usize], row: &RowView<'_>) -> Option<usize> {
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

/// The verdict on one row.
#[derive(Clone, Debug)]
pub(crate) struct RowScore {
    /// Share of the query's evidence units the row holds.
    pub coverage: f64,
    /// Query words (and identifiers) the row holds.
    pub matched: Vec<String>,
    /// Query words (and identifiers) the row lacks.
    pub missing: Vec<String>,
    /// Clauses holding evidence other than the sentence subject.
    pub evidence_clauses: BTreeSet<usize>,
    /// Clauses whose sentence topic holds attribute words of the query: the clause the
    /// attribute is stated in when no other clause holds evidence.
    pub topic_clauses: BTreeSet<usize>,
    /// True if the row's evidence clauses share the query's polarity.
    pub polarity_ok: bool,
    /// True if a matched name runs on into a capitalized word the query lacks ("New York" for
    /// "York"): the row may name someone or something else.
    pub longer_name: bool,
    /// True if a name the query writes in another script is read in the row only by dropping a
    /// long vowel the query's spelling lacks (花江 for "Hanako"): weaker evidence than an
    /// exact reading.
    pub inexact_reading: bool,
    /// Why the row may not be targeted at all, if so.
    pub veto: Option<String>,
    /// Units of the query's attribute evidence: its words outside name runs (request words
    /// such as "delete" aside) and its identifiers.
    pub attribute_units: usize,
    /// Of those, the ones the row holds.
    pub attribute_hits: usize,
    /// True if the query names someone or something and the row holds every name it gives (at
    /// least half of each name run): the row is about the query's subject.
    pub names_subject: bool,
    /// Reasons, for dry runs.
    pub reasons: Vec<String>,
}

impl RowScore {
    /// True if the row holds the request's attribute: some of its attribute evidence, or the
    /// request has none (it names only its subject).
    pub fn holds_attribute(&self) -> bool {
        self.attribute_units == 0 || self.attribute_hits > 0
    }
}

/// Scores `row` against `q`.
pub(crate) fn score(q: &QueryShape, row: &RowView<'_>) -> RowScore {
    let mut matched = Vec::new();
    let mut missing = Vec::new();
    let mut reasons = Vec::new();
    let mut evidence: BTreeSet<usize> = BTreeSet::new();
    let mut hit_units = 0usize;
    let mut veto = None;

    // Identifiers decide.
    let mut identifiers_ok = true;
    // Query chunks that are part of an identifier found in the row ("B" of "B 85602" when the
    // row writes "b85602"): the words among them are matched by it.
    let mut code_parts: BTreeSet<usize> = BTreeSet::new();
    for id in &q.typed {
        // The typed form, or else the same characters as a whole code ("001a.2b3c.4d5e" and
        // "00:1A:2B:3C:4D:5E" when the row's form was not recognised as a MAC).
        let span = row
            .ids
            .iter()
            .find(|r| canon::same_identifier(id, r))
            .map(|r| r.span.clone())
            .or_else(|| {
                let code = canon::code(&q.text[id.span.clone()])?;
                canon::find_code(&row.chunks, &code)
                    .into_iter()
                    .find(|r| whole_token(row.text, r))
            });
        match span {
            Some(span) => {
                hit_units += 1;
                matched.push(id.canonical.clone());
                reasons.push(format!("{:?} {} present", id.kind, id.canonical));
                evidence.extend(row.clause_at(&span));
            }
            None => {
                identifiers_ok = false;
                missing.push(id.canonical.clone());
            }
        }
    }
    // The period the query bounds ("before March 2023"): the row must state a time inside
    // every bound; a row stating none is not known to be about the period and is ruled out
    // too (a miss is better than a wrong erasure). See `period`.
    if !q.bounds.is_empty() || q.old {
        let periods = super::period::periods(&row.chunks);
        for b in &q.bounds {
            if periods.iter().any(|p| b.admits(p)) {
                hit_units += 1;
                matched.push(b.display.clone());
            } else if veto.is_none() {
                veto = Some(format!("states no time {}", b.display));
            }
        }
        // "The old address" is not the one a row states as running since a date.
        if q.old
            && !periods.is_empty()
            && periods
                .iter()
                .all(|p| p.kind == super::period::PeriodKind::Start)
            && veto.is_none()
        {
            veto = Some("states a period that is still running, not an old one".to_owned());
        }
    }
    for run in &q.codes {
        if run.year.is_some() {
            continue;
        }
        let mut covered: BTreeSet<usize> = BTreeSet::new();
        let mut spans = Vec::new();
        let mut found_runs: Vec<(usize, usize)> = Vec::new();
        for (a, b, code) in &run.subruns {
            if run.digit_chunks.iter().all(|d| covered.contains(d)) {
                break;
            }
            if !run
                .digit_chunks
                .iter()
                .any(|d| a <= d && d < b && !covered.contains(d))
            {
                continue;
            }
            let found: Vec<Range<usize>> = canon::find_code(&row.chunks, code)
                .into_iter()
                .filter(|r| whole_token(row.text, r))
                .collect();
            if !found.is_empty() {
                found_runs.push((*a, *b));
                covered.extend(run.digit_chunks.iter().filter(|&&d| *a <= d && d < *b));
                spans.extend(found);
            }
        }
        if run.digit_chunks.iter().all(|d| covered.contains(d)) {
            code_parts.extend(found_runs.iter().flat_map(|&(a, b)| a..b));
            hit_units += 1;
            matched.push(run.display.clone());
            reasons.push(format!("identifier {} present as a whole", run.display));
            for s in &spans {
                evidence.extend(row.clause_at(s));
            }
        } else {
            identifiers_ok = false;
            missing.push(run.display.clone());
        }
    }
    if !identifiers_ok {
        veto = Some(format!("identifier {} not in the row", missing.join(", ")));
    }

    // Words: which query words the row holds, and where.
    let subject_words: BTreeSet<String> = row
        .clauses
        .iter()
        .filter_map(|c| c.subject.as_ref())
        .flat_map(|s| canon::chunks(&s.name))
        .map(|c| c.form)
        .collect();
    let mut word_hit: Vec<Option<usize>> = vec![None; q.words.len()];
    // Clauses whose sentence topic holds an attribute word of the query ("the alarm code" in
    // "The alarm code is 8461 and the bins go out on Thursday").
    let mut topic_evidence: BTreeSet<usize> = BTreeSet::new();
    // Identifiers are attribute evidence: "Tom's 4821" is about the PIN.
    // A bounded period qualifies the attribute, as a day or month name does.
    let mut attribute_units = q.typed.len() + q.codes.iter().filter(|c| c.year.is_none()).count();
    let mut attribute_hits = attribute_units - missing.len();
    // Optional words the row holds join the units it is measured against.
    let mut optional_hits = 0usize;
    for (wi, w) in q.words.iter().enumerate() {
        // Day and month names qualify the attribute ("the appointment in August"); alone they
        // are no evidence of it.
        let attribute = !q.in_name_run(wi)
            && !super::query::is_request_word(&w.stem)
            && !is_date_word(w)
            && !is_bound_word(&w.stem);
        if w.optional {
            if find_word(w, row).is_some() || code_parts.contains(&w.pos) {
                optional_hits += 1;
                hit_units += 1;
                attribute_units += usize::from(attribute);
                attribute_hits += usize::from(attribute);
                matched.push(w.stem.clone());
            }
            continue;
        }
        attribute_units += usize::from(attribute);
        if code_parts.contains(&w.pos) {
            hit_units += 1;
            attribute_hits += usize::from(attribute);
            matched.push(w.stem.clone());
            continue;
        }
        let found = if q.in_name_run(wi) {
            find_name(w, row)
        } else {
            find_word(w, row)
        };
        match found {
            Some(p) => {
                word_hit[wi] = Some(p);
                hit_units += 1;
                attribute_hits += usize::from(attribute);
                matched.push(w.stem.clone());
                let c = &row.chunks[p];
                let in_topic = row
                    .clauses
                    .iter()
                    .any(|cl| cl.topic.start <= c.span.start && c.span.end <= cl.topic.end);
                let is_subject = in_topic
                    || subject_words
                        .iter()
                        .any(|s| s == &c.form || keys::stem(s) == w.stem);
                if !is_subject {
                    evidence.extend(row.clause_at(&c.span));
                } else if in_topic && attribute && !q.in_name_run(wi) {
                    topic_evidence.extend(row.clause_at(&c.span));
                }
            }
            None => missing.push(w.stem.clone()),
        }
    }

    // The days and months the query fixes ("Karan's December leave"; not those that only
    // bound a period: "the address from before April"): a row holding none of them is about
    // another time. ("Sipho's Friday closing for the Sunday one" fixes either.)
    let fixed_dates: Vec<usize> = (0..q.words.len())
        .filter(|&i| is_date_word(&q.words[i]))
        .collect();
    if veto.is_none()
        && !fixed_dates.is_empty()
        && fixed_dates
            .iter()
            .all(|&i| word_hit[i].is_none() && !code_parts.contains(&q.words[i].pos))
    {
        let days: Vec<&str> = fixed_dates
            .iter()
            .map(|&i| &q.text[q.words[i].chunk.span.clone()])
            .collect();
        veto = Some(format!("is not about {}", days.join(" or ")));
    }

    // A name the row writes in an abjad with another word division ("Abdullah" / عبد الله,
    // "Al-Zahrani" / الزهراني): the whole run is held when consecutive words of the row have
    // the run's joined consonant skeleton.
    // Runs held as a whole by another word division or script: their words' positions are
    // not one chunk each, so the next-chunk checks below do not apply.
    let mut held_whole: BTreeSet<usize> = BTreeSet::new();
    let mut inexact_reading = false;
    for (ri, run) in q.names.iter().enumerate() {
        if run.iter().all(|&i| word_hit[i].is_some()) {
            continue;
        }
        let held: Vec<(usize, usize)> =
            match abjad_run(q, run, row).or_else(|| latin_skeleton_run(q, run, row)) {
                Some(at) => (0..run.len()).map(|k| (k, at)).collect(),
                None => {
                    let (at, exact) = japanese_run(q, run, row);
                    inexact_reading |= !at.is_empty() && !exact;
                    if at.is_empty() {
                        syllable_run(q, run, &word_hit, row)
                    } else {
                        at
                    }
                }
            };
        if !held.is_empty() {
            held_whole.insert(ri);
        }
        for (k, at) in held {
            let i = run[k];
            if word_hit[i].is_none() {
                word_hit[i] = Some(at);
                hit_units += 1;
                let stem = &q.words[i].stem;
                matched.push(stem.clone());
                if let Some(k) = missing.iter().position(|m| m == stem) {
                    missing.remove(k);
                }
            }
        }
    }

    // Names: a query that names someone targets rows that name them, and never rows naming
    // someone else with a shared first or last name ("Tom Hale" is not "Tom Haley").
    // A compound attribute is told by its modifier: "passport number" is not the "phone
    // number" a row holds, "work phone" not its "home phone". When the row holds the head of
    // the query's compound but not its modifier, and the head there carries a modifier of its
    // own, the row states another attribute.
    if veto.is_none() && !q.has_identifiers() {
        let adjacent = |a: &QWord, b: &QWord| {
            a.pos + 1 == b.pos
                && b.chunk.gap == Some(canon::Gap::Joiner)
                && q.text[a.chunk.span.end..b.chunk.span.start]
                    .chars()
                    .all(char::is_whitespace)
        };
        for (k, pair) in q.words.windows(2).enumerate() {
            let (m, h) = (&pair[0], &pair[1]);
            // Only a two-word compound that ends its phrase: "passport number", not "taking
            // new" in "taking new patients".
            let ends_phrase = q.words.get(k + 2).is_none_or(|n| !adjacent(h, n));
            let starts_phrase = k == 0 || !adjacent(&q.words[k - 1], m);
            if !adjacent(m, h)
                || !ends_phrase
                || !starts_phrase
                || m.name
                || h.name
                || find_word(m, row).is_some()
            {
                continue;
            }
            let contrast = row.chunks.iter().enumerate().find_map(|(p, c)| {
                let prev = row.chunks.get(p.checked_sub(1)?)?;
                let modifier = c.gap == Some(canon::Gap::Joiner)
                    && prev.form.chars().count() >= 2
                    && row.text[prev.span.end..c.span.start]
                        .chars()
                        .all(char::is_whitespace)
                    && !has_digit(prev)
                    && !name_like(prev)
                    && !crate::text::is_stopword(&prev.form)
                    && !super::query::is_negated(&prev.form);
                (word_matches(h, c) && modifier)
                    .then(|| row.text[prev.span.start..c.span.end].to_owned())
            });
            if let Some(phrase) = contrast {
                veto = Some(format!(
                    "states {phrase:?}, not {:?}",
                    &q.text[m.chunk.span.start..h.chunk.span.end]
                ));
                break;
            }
        }
    }

    // A name run is present when the row holds at least half of it ("Maria Garcia" for "Maria
    // Garcia Lopez"), or all of it where the row writes it in a script without capitals:
    // there nothing tells a surname from the next word, so "Yael" of "Yael Levi" (יעל לוי) is
    // no mention of "Yael Mizrahi", nor 王 of 王建国 one of "Wang Jianhua". For Han that holds
    // where the row's characters were read as Chinese (their own reading matched); a Japanese
    // surname matched through the reading table ("Sato" for 佐藤) keeps the half rule, since
    // given names have no such table. Only for a run the query writes in a cased script, where
    // capitals tell its name words, or in Han or kana, where the run is one word; in another
    // caseless query a run may hold other words.
    let run_present = |run: &Vec<usize>| {
        let hits: Vec<(usize, usize)> = run
            .iter()
            .filter_map(|&i| word_hit[i].map(|p| (i, p)))
            .collect();
        let cased_query = run.iter().all(|&i| cased(q.words[i].chunk.script));
        let uncased = cased_query
            && hits.iter().any(|&(_, p)| match row.chunks[p].script {
                Script::Arabic
                | Script::Hebrew
                | Script::Thai
                | Script::Devanagari
                | Script::Hangul
                | Script::Other => true,
                // Read as Chinese, or as a Japanese name: given names are read too
                // ([`japanese_run`]), so "Misaki Tanaka" is not 田中健太.
                Script::Han => true,
                _ => false,
            });
        // A run of Han or kana in the query is one word written without spaces: where a row
        // writes it in Latin letters, its characters the row lacks are the rest of the name
        // ("恵子" of "佐藤恵子" is the given name; "Hiroshi Sato" holds only the surname).
        let unspaced_query = run
            .iter()
            .all(|&i| matches!(q.words[i].chunk.script, Script::Han | Script::Kana))
            && hits
                .iter()
                .any(|&(_, p)| row.chunks[p].script == Script::Latin);
        let need = if uncased || unspaced_query {
            run.len()
        } else {
            run.len().div_ceil(2)
        };
        !hits.is_empty() && hits.len() >= need
    };
    let names_subject = !q.names.is_empty() && q.names.iter().all(run_present);
    // Every subject the query names must be in the row (at least half of each name run).
    if !q.names.is_empty() && !q.has_identifiers() {
        let absent: Vec<String> = q
            .names
            .iter()
            .filter(|run| !run_present(run))
            .map(|run| {
                let (a, b) = (&q.words[run[0]], &q.words[*run.last().expect("not empty")]);
                q.text[a.chunk.span.start..b.chunk.span.end].to_owned()
            })
            .collect();
        if !absent.is_empty() && veto.is_none() {
            veto = Some(format!("does not name {}", absent.join(", ")));
        }
    }
    for (ri, run) in q.names.iter().enumerate() {
        if held_whole.contains(&ri) {
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
                if joined
                    && (latin && name_part(row.text, &row.chunks, rn as usize) || unspaced)
                    && !super::query::is_title(&rc.form)
                    && !(dr < 0 && super::query::is_kinship(&row.text[rc.span.clone()]))
                    && !has_digit(rc)
                    && !word_matches(qw, rc)
                    && veto.is_none()
                {
                    veto = Some(format!(
                        "names {:?}, not {:?}",
                        &row.text[rc.span.clone()],
                        &q.text[qw.chunk.span.clone()]
                    ));
                }
            }
        }
    }

    let mut longer_name = false;
    for run in &q.names {
        let (Some(&first), Some(&last)) = (run.first(), run.last()) else {
            continue;
        };
        // The part of the run the row holds ("Boris" of "Grandpa Boris").
        let hits: Vec<usize> = run.iter().filter_map(|&i| word_hit[i]).collect();
        let (Some(&lo), Some(&hi)) = (hits.iter().min(), hits.iter().max()) else {
            continue;
        };
        let before = lo.checked_sub(1);
        let after = (hi + 1 < row.chunks.len()).then_some(hi + 1);
        let extends = |i: usize, joined: bool| {
            let c = &row.chunks[i];
            joined
                && name_part(row.text, &row.chunks, i)
                && cased(c.script)
                && !has_digit(c)
                && !crate::text::is_stopword(&c.form)
                && !super::query::is_title(&c.form)
                && !super::query::is_kinship(&row.text[c.span.clone()])
                && !q.words.iter().any(|w| word_matches(w, c))
        };
        // Only white space may stand between the parts of one name ("Zoe Lefevre: Rx" is two
        // things).
        let spaced = |a: usize, b: usize| {
            row.text[row.chunks[a].span.end..row.chunks[b].span.start]
                .chars()
                .all(char::is_whitespace)
        };
        if before.is_some_and(|i| extends(i, spaced(i, lo)))
            || after.is_some_and(|i| extends(i, spaced(hi, i)))
        {
            longer_name = true;
        }
        // The rules below read the row around the whole run: both its ends must be held.
        if word_hit[first].is_none() || word_hit[last].is_none() {
            continue;
        }
        // A hyphen glues a given name together: "Zhang Wei" is not "Zhang Wei-Ming".
        let full_name = run.len() >= 2 && word_hit[first] != word_hit[last];
        if let Some(i) = after
            && full_name
            && veto.is_none()
            && &row.text[row.chunks[hi].span.end..row.chunks[i].span.start] == "-"
            && extends(i, true)
        {
            let c = &row.chunks[i];
            veto = Some(format!(
                "names {:?}, not {:?}",
                &row.text[row.chunks[lo].span.start..c.span.end],
                &q.text[q.words[first].chunk.span.start..q.words[last].chunk.span.end]
            ));
        }
        // "Priya's husband's e-mail" is the husband's, not Priya's: a row where the query's
        // subject is only the possessor of a relation the query does not name states a fact
        // about someone else. ("Everything about Priya" still reaches it, and so does a row
        // of several clauses, where another clause may be about Priya herself.)
        if let Some(r) = possessive_relation(row, hi)
            && row.clauses.len() <= 1
            && veto.is_none()
            && !q.fan_out
            && !q.words.iter().any(|w| word_matches(w, &row.chunks[r]))
        {
            veto = Some(format!(
                "is about {:?}, not {:?}",
                &row.text[row.chunks[lo].span.start..row.chunks[r].span.end],
                &q.text[q.words[first].chunk.span.start..q.words[last].chunk.span.end]
            ));
        }
        // In scripts written without spaces between words (Han, Hangul), a name the row
        // writes on past the query's full name is someone else's: "Zhang Wei" is not 张伟明.
        if let Some(next) = continues_unspaced_name(row, hi) {
            longer_name = true;
            if full_name && veto.is_none() {
                veto = Some(format!(
                    "names {:?}, not {:?}",
                    &row.text[row.chunks[lo].span.start..row.chunks[next].span.end],
                    &q.text[q.words[first].chunk.span.start..q.words[last].chunk.span.end]
                ));
            }
        }
    }
    let units = (q.units() + optional_hits).max(1);
    let coverage = hit_units as f64 / units as f64;
    let polarity_ok = if q.polarity_neutral {
        true
    } else if evidence.is_empty() {
        row.negated.iter().any(|&n| n) == q.negated
    } else {
        evidence.iter().all(|&c| row.negated[c] == q.negated)
    };
    if !q.polarity_neutral && q.negated != row.negated.iter().any(|&n| n) {
        reasons.push(if q.negated {
            "query is negative, row is not".into()
        } else {
            "row is negative, query is not".into()
        });
    }
    RowScore {
        coverage,
        matched,
        missing,
        evidence_clauses: evidence,
        topic_clauses: topic_evidence,
        polarity_ok,
        longer_name,
        inexact_reading,
        veto,
        attribute_units,
        attribute_hits,
        names_subject,
        reasons,
    }
}

/// Words of a supersede's new text (names aside, four letters or more, request words aside)
/// that `row` holds: evidence that the row states the attribute the new text restates.
pub(crate) fn hint_attribute_hits(hint: &QueryShape, row: &RowView<'_>) -> usize {
    hint.words
        .iter()
        .filter(|w| !w.name && w.stem.chars().count() >= 4)
        .filter(|w| !super::query::is_request_word(&w.stem))
        .filter(|w| row.chunks.iter().any(|c| word_matches(w, c)))
        .count()
}

/// Content words of `text` shared with clause `c` of `row` (for choosing which clause a
/// supersede's new text replaces).
pub(crate) fn overlap_with_clause(new: &QueryShape, row: &RowView<'_>, c: usize) -> usize {
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
pub(crate) fn affinity_with_clause(new: &QueryShape, row: &RowView<'_>, c: usize) -> usize {
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

/// How closely `row` relates to a supersede's query and new text when no row covers the query:
/// query words it holds, new-text words it holds, and attribute slots it shares with either
/// ([`crate::lexicon`]). Names are left out: they anchor, they do not relate.
pub(crate) fn relatedness(q: &QueryShape, hint: &QueryShape, row: &RowView<'_>) -> usize {
    let row_words: Vec<&str> = row
        .chunks
        .iter()
        .filter(|c| !has_digit(c) && !name_like(c))
        .map(|c| c.form.as_str())
        .collect();
    let holds = |w: &QWord| row.chunks.iter().any(|c| word_matches(w, c));
    let query_hits = q.words.iter().filter(|w| !w.name && holds(w)).count();
    let hint_hits = hint.words.iter().filter(|w| !w.name && holds(w)).count();
    let wanted = lexicon::slots_of(
        q.words
            .iter()
            .chain(hint.words.iter())
            .filter(|w| !w.name)
            .map(|w| w.chunk.form.as_str()),
    );
    let shared = lexicon::slots_of(row_words)
        .into_iter()
        .filter(|s| wanted.contains(s))
        .count();
    2 * query_hits + hint_hits + shared
}

/// True if the query's own words (names aside) talk about an attribute slot the row also
/// talks about ("when the motor policy is due" and "car insurance renews").
pub(crate) fn shares_slot(q: &QueryShape, row: &RowView<'_>) -> bool {
    let wanted = lexicon::slots_of(
        q.words
            .iter()
            .filter(|w| !w.name)
            .map(|w| w.chunk.form.as_str()),
    );
    let have = lexicon::slots_of(
        row.chunks
            .iter()
            .filter(|c| !has_digit(c) && !name_like(c))
            .map(|c| c.form.as_str()),
    );
    wanted.iter().any(|s| have.contains(s))
}

/// Adjacent word pairs `a` and `b` share (stopwords included: "the meeting is").
pub(crate) fn shared_pairs(a: &str, b: &str) -> usize {
    let pairs = |t: &str| -> BTreeSet<(String, String)> {
        let toks = crate::text::tokens(t);
        toks.windows(2)
            .map(|w| (w[0].clone(), w[1].clone()))
            .collect()
    };
    pairs(a).intersection(&pairs(b)).count()
}
