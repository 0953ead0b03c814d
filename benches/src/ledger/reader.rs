//! The deterministic reader: it answers with the recomputed subtotal only when every
//! answer-determining item is in the note verbatim, flags when the note says it is incomplete,
//! and abstains otherwise. It never sees the store, only the note's text.

use oubli::{Decimal, INCOMPLETE_MARK};

use super::generator::Item;

/// What the reader does with a note.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The subtotal recomputed from the items found in the note.
    Answer(Decimal),
    /// The note says it is incomplete: the reader reports the gap instead of answering.
    Flagged,
    /// An item is missing and the note does not say so: the reader declines.
    Abstain,
}

/// The texts of a note's row lines (`[#12] text` or `[derived #9, ...] text`), prefix removed.
pub fn lines(note: &str) -> Vec<&str> {
    note.lines()
        .filter(|l| l.starts_with("[#"))
        .filter_map(|l| l.split_once("] ").map(|(_, t)| t))
        .collect()
}

/// Parses `7 blue notebooks at $4.25 each` into price x qty.
fn amount(line: &str) -> Option<Decimal> {
    let qty = line.split(' ').next()?.parse::<i64>().ok()?;
    let price = line.rsplit_once(" at $")?.1.strip_suffix(" each")?;
    Decimal::parse(price)
        .ok()?
        .checked_mul(Decimal::from_int(qty))
        .ok()
}

/// Reads a note against the items that determine the answer.
pub fn read(note: &str, items: &[Item]) -> Outcome {
    if note.contains(INCOMPLETE_MARK) {
        return Outcome::Flagged;
    }
    let present = lines(note);
    let mut sum = Decimal::ZERO;
    for it in items {
        let text = it.text();
        let Some(found) = present.iter().find(|l| **l == text) else {
            return Outcome::Abstain;
        };
        let Some(a) = amount(found) else {
            return Outcome::Abstain;
        };
        sum = match sum.checked_add(a) {
            Ok(s) => s,
            Err(_) => return Outcome::Abstain,
        };
    }
    Outcome::Answer(sum)
}
