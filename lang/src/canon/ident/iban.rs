//! IBANs: mod-97 valid account numbers, written whole or in groups of four.

use super::scan::{Found, Scan};
use crate::canon::IdKind;

impl Scan<'_> {
    pub(super) fn iban(&self, i: usize) -> Option<Found> {
        let upper = self.is(i, |c| c.is_ascii_uppercase());
        if !(self.is(i, |c| c.is_ascii_alphabetic())
            && self.is(i + 1, |c| c.is_ascii_alphabetic())
            && self.is(i + 2, |c| c.is_ascii_digit())
            && self.is(i + 3, |c| c.is_ascii_digit()))
        {
            return None;
        }
        let ok = |c: char| {
            c.is_ascii_digit()
                || if upper {
                    c.is_ascii_uppercase()
                } else {
                    c.is_ascii_alphanumeric()
                }
        };
        // Collect alphanumerics with single spaces between groups, remember group ends.
        let mut chars: Vec<char> = Vec::with_capacity(34);
        let mut ends: Vec<(usize, usize)> = Vec::new(); // (stream end, chars len)
        let mut j = i;
        loop {
            while chars.len() < 34 && self.is(j, ok) {
                chars.push(self.v[j].c.to_ascii_uppercase());
                j += 1;
            }
            if self.wc(j) {
                break; // group runs into other letters: not a group end
            }
            ends.push((j, chars.len()));
            if chars.len() < 34 && self.c(j) == Some(' ') && self.is(j + 1, ok) {
                j += 1;
                continue;
            }
            break;
        }
        for &(end, len) in ends.iter().rev() {
            if (15..=34).contains(&len) && mod97(&chars[..len]) {
                return Some((end, IdKind::Iban, chars[..len].iter().collect()));
            }
        }
        // IBAN-shaped but invalid: a code, when written in groups of four.
        let &(end, len) = ends.last()?;
        if (15..=34).contains(&len) && ends.len() >= 4 {
            let canonical = chars[..len].iter().collect();
            return Some((end, IdKind::Code, canonical));
        }
        None
    }
}

/// ISO 13616 mod-97 check of an uppercase IBAN.
fn mod97(iban: &[char]) -> bool {
    if iban.len() < 5 {
        return false;
    }
    let mut r: u32 = 0;
    for &c in iban[4..].iter().chain(&iban[..4]) {
        let v = match c.to_digit(36) {
            Some(v) => v,
            None => return false,
        };
        r = if v >= 10 {
            (r * 100 + v) % 97
        } else {
            (r * 10 + v) % 97
        };
    }
    r == 1
}
