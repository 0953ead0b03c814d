//! Identifier runs of a targeting query: digit-bearing codes ("B-56935", "4821"), tokens glued
//! from several parts ("github.com/acme/api", "api:1.4"), the path or host name a code sits in,
//! and years that bound a period rather than identify a row.

use super::query::QueryShape;
use super::row_view::RowView;
use crate::canon::{self, Chunk, Identifier};
use crate::index::keys::{self, concat, has_digit, name_like};

/// A run of query chunks joined by identifier separators that holds a digit: every digit chunk
/// in it must be found, whole, in a targeted row.
#[derive(Clone, Debug)]
pub(crate) struct CodeRun {
    /// Sub-runs `(a, b, code)` that contain a digit chunk, longest first.
    pub subruns: Vec<(usize, usize, String)>,
    /// Query chunk indexes of the digit chunks.
    pub digit_chunks: Vec<usize>,
    /// The code of the whole run, for explanations.
    pub display: String,
    /// The run is a year bounding a period ("before 2024", "since 2019"): evidence where a
    /// row holds it, never an identifier whose absence rules a row out (the row may state the
    /// period with another year: "until 2023").
    pub year: Option<YearBound>,
    /// Chunks `[a, b)` of the path, host or file name the code is part of, when its parts are
    /// glued by `/`, `\\`, `.`, `_`, `@` or `:` ("/cases/gil/N-400_draft.pdf").
    pub token: Option<(usize, usize)>,
    /// The code is itself written as an address: its parts are glued by `.`, `/`, `\\`, `_`,
    /// `@` or `:` ("github.com/acme/api", "/srv/data/2023"). Such a code is never found as
    /// part of a longer address ([`super::word_match::segment_of_address`]).
    pub address: bool,
}

/// A year inside a bound of the query's period ([`super::period::Bound`]): the bound decides
/// which rows it admits, the year is no identifier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct YearBound {
    /// The year.
    pub year: u32,
    /// The bound as written ("before March 2023").
    pub display: String,
}

/// Characters that glue the parts of one token ("api-gateway", "1.4", "cam-0412.home.lan").
const TOKEN_GLUE: &str = "-._/\\:+#@";

/// True if the text between two chunks glues them into one token ("api-gateway", "1.4").
pub(super) fn glued(text: &str, a: &Chunk, b: &Chunk) -> bool {
    let between = &text[a.span.end..b.span.start];
    !between.is_empty() && between.len() <= 2 && between.chars().all(|c| TOKEN_GLUE.contains(c))
}

/// True if `span` lies inside one of the identifiers `ids`.
pub(super) fn inside(span: &std::ops::Range<usize>, ids: &[Identifier]) -> bool {
    ids.iter()
        .any(|i| i.span.start <= span.start && span.end <= i.span.end)
}

/// The code runs of a query of `text` (with its `chunks`, its typed identifiers `typed`, which
/// are matched as wholes, and the `bounds` of its period).
pub(super) fn code_runs(
    text: &str,
    chunks: &[Chunk],
    typed: &[Identifier],
    bounds: &[super::period::Bound],
) -> Vec<CodeRun> {
    let mut codes = Vec::new();
    // Tokens glued from several parts ("github.com/acme/api", "api:1.4", "acme.co") are
    // identifiers even without a digit: they match only whole.
    let mut i = 0;
    while i < chunks.len() {
        let mut j = i + 1;
        while j < chunks.len() && glued(text, &chunks[j - 1], &chunks[j]) {
            j += 1;
        }
        let covered = typed
            .iter()
            .any(|t| t.span.start <= chunks[i].span.start && chunks[j - 1].span.end <= t.span.end);
        let name_part = (i..j).any(|k| name_like(&chunks[k]));
        // Hyphenated words ("co-working") are words; dots, slashes and colons make a token.
        let token_glue = (i + 1..j).any(|k| {
            text[chunks[k - 1].span.end..chunks[k].span.start]
                .chars()
                .any(|c| "./\\:_@".contains(c))
        });
        if j - i >= 2
            && token_glue
            && !covered
            && !name_part
            && !(i..j).any(|k| has_digit(&chunks[k]))
        {
            codes.push(CodeRun {
                subruns: vec![(i, j, concat(chunks, i, j))],
                digit_chunks: (i..j).collect(),
                display: concat(chunks, i, j),
                year: None,
                token: None,
                address: true,
            });
        }
        i = j;
    }
    for (start, end) in keys::joined_runs(chunks) {
        let digit_chunks: Vec<usize> = (start..end)
            .filter(|&i| has_digit(&chunks[i]) && !inside(&chunks[i].span, typed))
            .collect();
        if digit_chunks.is_empty() {
            continue;
        }
        let mut subruns = Vec::new();
        for a in start..end {
            for b in a + 1..=end.min(a + keys::MAX_CODE_CHUNKS) {
                if digit_chunks.iter().any(|&d| a <= d && d < b) {
                    subruns.push((a, b, concat(chunks, a, b)));
                }
            }
        }
        subruns.sort_by(|x, y| (y.1 - y.0).cmp(&(x.1 - x.0)).then(x.0.cmp(&y.0)));
        let mut first = digit_chunks[0];
        let mut last = digit_chunks[digit_chunks.len() - 1];
        // The displayed identifier includes the parts glued to it ("B-56935").
        while first > start && glued(text, &chunks[first - 1], &chunks[first]) {
            first -= 1;
        }
        while last + 1 < end && glued(text, &chunks[last], &chunks[last + 1]) {
            last += 1;
        }
        let display = concat(chunks, first, last + 1);
        // A code inside a path, a host or a file name ("/clients/ko/I-589_draft.pdf",
        // "cam-0412.home.lan"): the whole token, kept so that `anchored` can prefer the
        // rows holding it whole.
        let token = (first + 1..=last)
            .any(|k| {
                text[chunks[k - 1].span.end..chunks[k].span.start]
                    .chars()
                    .any(|c| "/\\._@:".contains(c))
            })
            .then_some((first, last + 1));
        // A year after a word that makes it a bound ("before 2024", "until 2023") bounds
        // a period the row may state with another year.
        let year = bounds
            .iter()
            .find(|b| digit_chunks.iter().all(|d| b.chunks.contains(d)))
            .and_then(|b| {
                Some(YearBound {
                    year: b.at.year?,
                    display: b.display.clone(),
                })
            });
        codes.push(CodeRun {
            subruns,
            display,
            digit_chunks,
            year,
            address: token.is_some(),
            token,
        });
    }
    codes
}

/// Sets aside the identifiers of a supersede's query that are the new value, not evidence of
/// the old row. Like a name, an identifier may be the new value: "Nikolai's badge was reissued;
/// the new number is 7700-9040", "Burak's VPN user name changed, now burak.polat", "seat
/// changed to 9C". One that no row holds and the new text holds is that value, unless the
/// request names it as the object of its verb ([`object_of_request`]: "replace the badge
/// B-3671").
pub(super) fn drop_new_values(q: &mut QueryShape, views: &[RowView<'_>], new: &RowView<'_>) {
    let holds_code =
        |v: &RowView<'_>, run: &CodeRun| !canon::find_code(&v.chunks, &run.display).is_empty();
    let chunks = canon::chunks(&q.text);
    // A request that is nothing but one identifier ("34 ABC 993") names what it acts on: it
    // has no other word to find a row by, and a value alone states nothing new.
    let bare = |t: &str| -> String {
        t.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect()
    };
    let whole = bare(&q.text);
    if q.codes.iter().any(|r| bare(&r.display) == whole)
        || q.typed
            .iter()
            .any(|id| bare(&q.text[id.span.clone()]) == whole)
    {
        return;
    }
    let object = |at: usize| object_of_request(&chunks, at) || topic_of_request(&chunks, at);
    q.codes.retain(|run| {
        run.year.is_some()
            || !holds_code(new, run)
            || views.iter().any(|v| holds_code(v, run))
            || run
                .digit_chunks
                .first()
                .and_then(|&d| chunks.get(d))
                .is_some_and(|c| object(c.span.start))
    });
    let holds_id =
        |v: &RowView<'_>, id: &Identifier| v.ids.iter().any(|r| canon::same_identifier(id, r));
    q.typed.retain(|id| {
        !holds_id(new, id) || views.iter().any(|v| holds_id(v, id)) || object(id.span.start)
    });
}

/// True if the identifier starting at byte `at` opens the request (nothing but a determiner
/// before it): it is what the request is about ("34 KLM 300 belongs to a driver who left,
/// please update it"), not the value it states. Only the opening position is read this way: in
/// a verb-final language the new value comes before the verb ("सीट बदलकर 9C कर दो").
pub(super) fn topic_of_request(chunks: &[Chunk], at: usize) -> bool {
    chunks
        .iter()
        .take_while(|c| c.span.end <= at)
        .all(|c| super::query::DETERMINERS.contains(&c.form.as_str()))
}

/// Words between a request verb and an identifier that make the identifier the new value a
/// supersede states ("change Ana's seat to 9C", "update the badge, the new number is
/// 7700-9040", "now burak.polat").
const NEW_VALUE_CUES: &[&str] = &[
    "to", "into", "now", "new", "newly", "again", "back", "is", "are", "becomes", "became",
];

/// True if the request of query chunks `chunks` names the identifier starting at byte `at` as
/// the object of its verb: a request verb ("replace", "change", "update", "correct";
/// [`super::word_classes::is_request_word`]) stands before it, and no word between them marks
/// a new value ([`NEW_VALUE_CUES`]). "Replace the badge B-3671" acts on badge B-3671, even
/// when the new text restates it ("The badge B-3671 is no longer valid"): a store where no
/// row holds it holds no such badge.
pub(super) fn object_of_request(chunks: &[Chunk], at: usize) -> bool {
    let before: Vec<&Chunk> = chunks.iter().filter(|c| c.span.end <= at).collect();
    let Some(verb) = before
        .iter()
        .rposition(|c| c.form != "please" && super::word_classes::is_request_word(&c.form))
    else {
        return false;
    };
    !before[verb + 1..]
        .iter()
        .any(|c| NEW_VALUE_CUES.contains(&c.form.as_str()))
}

/// Byte spans where `text` writes the number `code` (ASCII digits, at least three of them
/// significant) inside a longer token or zero-padded: a maximal run of digits whose value,
/// leading zeros aside, is the code's, and which is glued to a letter or an identifier joiner
/// on one side at least, or starts with a zero ("cam-0412.home.lan" and "LIS89123X" hold 412
/// and 89123; "cam-1412" and "LIS89124X" do not). A run that is one group of a number written
/// in groups ("123-45-67", "75 4412093") is not the number: the whole-chunk matching of
/// [`canon::find_code`] reads those.
pub(super) fn embedded_number(text: &str, code: &str) -> Vec<std::ops::Range<usize>> {
    let significant = code.trim_start_matches('0');
    if !code.bytes().all(|b| b.is_ascii_digit()) || significant.len() < 3 {
        return Vec::new();
    }
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let run = &text[start..i];
        if run.trim_start_matches('0') != significant {
            continue;
        }
        // The character next to the run on each side, and the one beyond it.
        let mut before = text[..start].chars().rev();
        let (b1, b2) = (before.next(), before.next());
        let mut after = text[i..].chars();
        let (a1, a2) = (after.next(), after.next());
        let joiner = |c: char| TOKEN_GLUE.contains(c);
        let grouped = |next: Option<char>, beyond: Option<char>| {
            next.is_some_and(|c| joiner(c) || c == ' ')
                && beyond.is_some_and(|c| c.is_ascii_digit())
        };
        if grouped(b1, b2) || grouped(a1, a2) {
            continue;
        }
        let glued = |next: Option<char>, beyond: Option<char>| match next {
            Some(c) if c.is_alphabetic() => true,
            Some(c) if joiner(c) => beyond.is_some_and(char::is_alphanumeric),
            _ => false,
        };
        if glued(b1, b2) || glued(a1, a2) || run.starts_with('0') {
            out.push(start..i);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::embedded_number;
    use proptest::prelude::*;

    fn held<'a>(text: &'a str, code: &str) -> Vec<&'a str> {
        embedded_number(text, code)
            .into_iter()
            .map(|r| &text[r])
            .collect()
    }

    #[test]
    fn numbers_inside_tokens_and_zero_padded() {
        assert_eq!(held("reachable at cam-0412.home.lan", "412"), ["0412"]);
        assert_eq!(held("code LIS89123X", "89123"), ["89123"]);
        assert_eq!(held("box 0412", "412"), ["0412"]);
        assert!(held("at cam-1412.home.lan", "412").is_empty());
        assert!(held("code LIS89124X", "89123").is_empty());
        // Groups of a grouped number, a bare number (whole-chunk matching reads it), and
        // numbers with fewer than three significant digits.
        assert!(held("call 123-45-67", "123").is_empty());
        assert!(held("passport 75 4412093", "75").is_empty());
        assert!(held("room 412 is free", "412").is_empty());
        assert!(held("flat B12", "12").is_empty());
    }

    proptest! {
        /// Every span is a whole run of digits of the text whose value is the code's.
        #[test]
        fn spans_are_whole_digit_runs_of_the_code(text in "\\PC{0,40}", code in "[0-9]{1,7}") {
            for r in embedded_number(&text, &code) {
                let run = &text[r.clone()];
                prop_assert!(run.bytes().all(|b| b.is_ascii_digit()));
                prop_assert_eq!(run.trim_start_matches('0'), code.trim_start_matches('0'));
                prop_assert!(!text[..r.start].ends_with(|c: char| c.is_ascii_digit()));
                prop_assert!(!text[r.end..].starts_with(|c: char| c.is_ascii_digit()));
            }
        }
    }
}
