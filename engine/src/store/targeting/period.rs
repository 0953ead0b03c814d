//! Periods: the time a request bounds ("the address from before March 2023", "the pre-July
//! brunch hours", "Esther's doctor before 2024") and the times a row states ("Until February
//! 2023, ...", "Since 1 July ...", "... in 2021").
//!
//! A request that bounds a period asks for the fact that held in it, so a row is a candidate
//! only if one of the times it states falls inside every bound of the request:
//!
//! | request | row states | admitted when |
//! |---|---|---|
//! | before / prior to / pre- Q | until D | D <= Q |
//! | | since / from D, or a bare date D | D < Q |
//! | until / till Q | any | D <= Q |
//! | after Q | since / from D | D >= Q |
//! | | until D, or a bare date D | D > Q |
//! | since Q | any | D >= Q |
//! | from Q ("the salary figure from 2024") | any | D = Q |
//!
//! Dates compare field by field, year then month then day, over the fields both sides give: a
//! request "before April" compares months only, so "Until March 2024" is inside and "Since
//! April 2024" is not. A row stating no time comparable with the bound is not known to be
//! about the period and is left alone (a miss is better than a wrong erasure).
//!
//! Requests also ask for the earlier of two facts without a date: "the old address", "her
//! former doctor", "the previous tariff" ([`OLD_WORDS`]). Such a request is not about a row
//! whose every stated time opens a period that is still running ("Since April 2024, ...").

use std::cmp::Ordering;

use crate::canon::Chunk;

/// Words that make the date after them the bound of a period in a request.
pub(crate) const BOUND_WORDS: &[&str] = &[
    "before", "after", "until", "till", "since", "from", "prior", "pre",
];

/// Words that ask for the earlier of two facts ("the old address").
pub(crate) const OLD_WORDS: &[&str] = &["old", "former", "previous", "earlier", "past", "ex"];

/// Month names and their usual abbreviations, in calendar order.
const MONTHS: &[&[&str]] = &[
    &["january", "jan"],
    &["february", "feb"],
    &["march", "mar"],
    &["april", "apr"],
    &["may"],
    &["june", "jun"],
    &["july", "jul"],
    &["august", "aug"],
    &["september", "sep", "sept"],
    &["october", "oct"],
    &["november", "nov"],
    &["december", "dec"],
];

/// A point in time as a text gives it: any of year, month and day.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Moment {
    /// Year, 1900 to 2099.
    pub year: Option<u32>,
    /// Month, 1 to 12.
    pub month: Option<u32>,
    /// Day of the month, 1 to 31.
    pub day: Option<u32>,
}

impl Moment {
    /// Compares field by field over the fields both give; `None` if they share none.
    fn compare(&self, other: &Moment) -> Option<Ordering> {
        let mut compared = false;
        for (a, b) in [
            (self.year, other.year),
            (self.month, other.month),
            (self.day, other.day),
        ] {
            if let (Some(a), Some(b)) = (a, b) {
                compared = true;
                match a.cmp(&b) {
                    Ordering::Equal => {}
                    unequal => return Some(unequal),
                }
            } else if compared {
                break;
            }
        }
        compared.then_some(Ordering::Equal)
    }
}

/// How a request bounds its period.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BoundKind {
    /// "before", "prior to", "pre-": strictly earlier.
    Before,
    /// "until", "till": up to and including.
    Until,
    /// "after": strictly later.
    After,
    /// "since": from then on.
    Since,
    /// "from" in a request names the time a fact is from ("the salary figure from 2024",
    /// "Noor's piano times from 2023"), not a period opening then: the same date.
    At,
}

/// A bound of a request's period.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Bound {
    /// The kind of bound.
    pub kind: BoundKind,
    /// The date it bounds at.
    pub at: Moment,
    /// Query chunk indexes the bound spans (the bound word and the date), which are no
    /// evidence of the attribute.
    pub chunks: std::ops::Range<usize>,
    /// The bound as written, for explanations.
    pub display: String,
}

/// How a row states a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PeriodKind {
    /// "since D", "from D", "starting D": a period that opens at D.
    Start,
    /// "until D", "till D", "through D": a period that ends at D.
    End,
    /// A bare date: the fact is about D.
    Point,
}

/// A time a row states.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Period {
    /// How the row states it.
    pub kind: PeriodKind,
    /// The date.
    pub at: Moment,
}

impl Bound {
    /// True if a row stating `period` is about a time inside this bound (table in the module
    /// documentation).
    pub fn admits(&self, period: &Period) -> bool {
        let Some(order) = period.at.compare(&self.at) else {
            return false;
        };
        use Ordering::{Equal, Greater, Less};
        match (self.kind, period.kind) {
            (BoundKind::Before, PeriodKind::End) => order != Greater,
            (BoundKind::Before, _) => order == Less,
            (BoundKind::Until, _) => order != Greater,
            (BoundKind::After, PeriodKind::Start) => order != Less,
            (BoundKind::After, _) => order == Greater,
            (BoundKind::Since, _) => matches!(order, Greater | Equal),
            (BoundKind::At, _) => order == Equal,
        }
    }
}

fn month_of(c: &Chunk) -> Option<u32> {
    // "may" and "march" are also a verb: as months they are capitalized.
    if matches!(c.form.as_str(), "may" | "mar" | "march") && !c.capitalized {
        return None;
    }
    MONTHS
        .iter()
        .position(|names| names.contains(&c.form.as_str()))
        .map(|i| i as u32 + 1)
}

fn day_of(c: &Chunk) -> Option<u32> {
    let digits = c.form.trim_end_matches(['s', 't', 'n', 'd', 'r', 'h']);
    let suffix = &c.form[digits.len()..];
    if !matches!(suffix, "" | "st" | "nd" | "rd" | "th")
        || digits.is_empty()
        || digits.len() > 2
        || !digits.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let day: u32 = digits.parse().ok()?;
    (1..=31).contains(&day).then_some(day)
}

fn year_of(c: &Chunk) -> Option<u32> {
    super::word_match::year_of(&c.form)
}

/// The date written from chunk `i` on ("30 June 2024", "March 2023", "July", "2025", "June
/// 30, 2024"), and the index after it.
pub(crate) fn moment_at(chunks: &[Chunk], i: usize) -> Option<(Moment, usize)> {
    let c = chunks.get(i)?;
    let mut m = Moment::default();
    let mut j;
    if let Some(day) = day_of(c)
        && let Some(month) = chunks.get(i + 1).and_then(month_of)
    {
        m.day = Some(day);
        m.month = Some(month);
        j = i + 2;
    } else if let Some(month) = month_of(c) {
        m.month = Some(month);
        j = i + 1;
        if let Some(day) = chunks.get(j).and_then(day_of) {
            m.day = Some(day);
            j += 1;
        }
    } else if let Some(year) = year_of(c) {
        m.year = Some(year);
        return Some((m, i + 1));
    } else {
        return None;
    }
    if let Some(year) = chunks.get(j).and_then(year_of) {
        m.year = Some(year);
        j += 1;
    }
    Some((m, j))
}

/// The bounds a request puts on its period: a bound word, possibly after another ("from
/// before April"), or "prior to", then a date.
pub(crate) fn bounds(text: &str, chunks: &[Chunk]) -> Vec<Bound> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < chunks.len() {
        let Some(word) = BOUND_WORDS.iter().find(|w| **w == chunks[i].form) else {
            i += 1;
            continue;
        };
        let mut kind = match *word {
            "before" | "prior" | "pre" => BoundKind::Before,
            "until" | "till" => BoundKind::Until,
            "after" => BoundKind::After,
            "since" => BoundKind::Since,
            _ => BoundKind::At,
        };
        let start = i;
        let mut j = i + 1;
        // "from before April": the last bound word says which bound; "prior to".
        while let Some(next) = chunks.get(j) {
            match next.form.as_str() {
                "before" | "prior" | "pre" => kind = BoundKind::Before,
                "until" | "till" => kind = BoundKind::Until,
                "after" => kind = BoundKind::After,
                "to" if chunks[j - 1].form == "prior" => {}
                _ => break,
            }
            j += 1;
        }
        match moment_at(chunks, j) {
            Some((at, end)) => {
                out.push(Bound {
                    kind,
                    at,
                    chunks: start..end,
                    display: text[chunks[start].span.start..chunks[end - 1].span.end].to_owned(),
                });
                i = end;
            }
            None => i = j,
        }
    }
    out
}

/// The times a row states, with how it states each.
pub(crate) fn periods(chunks: &[Chunk]) -> Vec<Period> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < chunks.len() {
        let Some((at, end)) = moment_at(chunks, i) else {
            i += 1;
            continue;
        };
        let before = |k: usize| i.checked_sub(k).map(|p| chunks[p].form.as_str());
        let kind = match (before(2), before(1)) {
            (_, Some("until" | "till" | "through" | "before" | "pre" | "prior")) => PeriodKind::End,
            (Some("prior"), Some("to")) => PeriodKind::End,
            (_, Some("since" | "from" | "starting" | "effective" | "beginning" | "after")) => {
                PeriodKind::Start
            }
            _ => PeriodKind::Point,
        };
        out.push(Period { kind, at });
        i = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canon::chunks;

    fn admitted(request: &str, row: &str) -> bool {
        let q = chunks(request);
        let bs = bounds(request, &q);
        assert!(!bs.is_empty(), "no bound in {request:?}");
        let ps = periods(&chunks(row));
        bs.iter().all(|b| ps.iter().any(|p| b.admits(p)))
    }

    #[test]
    fn bounds_admit_the_periods_inside_them() {
        let q = "the old address from before March 2023";
        assert!(admitted(
            q,
            "Until February 2023 she lived at 21 Sejong-daero."
        ));
        assert!(!admitted(q, "Since March 2023 she lives at 7 Teheran-ro."));
        assert!(!admitted(q, "She lives at 7 Teheran-ro."));
        let q = "the pre-July brunch hours";
        assert!(admitted(q, "Until 30 June, brunch runs 10:00-14:00."));
        assert!(!admitted(q, "From 1 July, brunch runs 11:00-15:00."));
        let q = "the Moreaus' address from before April";
        assert!(admitted(
            q,
            "Until March 2024, the Moreau family lived in Lyon."
        ));
        assert!(!admitted(
            q,
            "Since April 2024, the Moreau family lives in Annecy."
        ));
        let q = "her doctor before 2024";
        assert!(admitted(q, "Until 2023, her GP was Dr. Weiss."));
        assert!(!admitted(q, "From January 2024, her GP is Dr. Amir."));
        let q = "the hours until 30 September";
        assert!(admitted(
            q,
            "Until 30 September, the branch opened at 8:30."
        ));
        assert!(!admitted(q, "From 1 October, the branch opens at 9:00."));
        let q = "Noor's piano times from 2023";
        assert!(admitted(
            q,
            "During the 2023 school year, lessons were on Mondays."
        ));
        assert!(!admitted(
            q,
            "From September 2024, lessons are on Wednesdays."
        ));
        let q = "his salary since 2025";
        assert!(admitted(q, "His salary from 2025 is 128 million won."));
        assert!(!admitted(q, "His salary in 2024 was 120 million won."));
        let q = "the tariff after June";
        assert!(admitted(q, "From 1 July the tariff is 7.96."));
        assert!(!admitted(q, "Until 30 April the tariff was 7.99."));
    }

    #[test]
    fn dates_parse_in_the_usual_orders() {
        let m = |t: &str| moment_at(&chunks(t), 0).map(|(m, _)| m);
        let d = |year, month, day| Some(Moment { year, month, day });
        assert_eq!(m("30 June 2024"), d(Some(2024), Some(6), Some(30)));
        assert_eq!(m("June 30th, 2024"), d(Some(2024), Some(6), Some(30)));
        assert_eq!(m("March 2023"), d(Some(2023), Some(3), None));
        assert_eq!(m("2025"), d(Some(2025), None, None));
        assert_eq!(m("may"), None);
        assert_eq!(m("42 June"), None);
    }
}
