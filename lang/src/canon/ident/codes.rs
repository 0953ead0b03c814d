//! Codes: any other identifier-shaped token (letters and digits joined by inner separators,
//! digit groups, short uppercase prefixes and suffixes), canonicalised by [`code_of`].

use std::ops::Range;

use super::scan::{Found, Scan};
use crate::canon::script::is_mark;
use crate::canon::{IdKind, chunks};

/// Longest code compound considered, in characters (longer runs are not codes).
const MAX_CODE: usize = 256;

impl Scan<'_> {
    /// One compound: alphanumerics joined by single inner separators.
    fn compound(&self, i: usize) -> Option<Compound> {
        if !self.wc(i) {
            return None;
        }
        let mut c = Compound {
            end: i,
            ..Compound::default()
        };
        let mut j = i;
        let mut letters_after_digit = false;
        loop {
            if j - i > MAX_CODE {
                return None;
            }
            while self.wc(j) && j - i <= MAX_CODE {
                let ch = self.v[j].c;
                if ch.is_numeric() {
                    c.digits += 1;
                    if c.letters > 0 && !letters_after_digit {
                        c.letter_first = true;
                    }
                } else if ch.is_alphabetic() {
                    c.letters += 1;
                    c.lower |= ch.is_lowercase();
                    if c.digits > 0 {
                        letters_after_digit = true;
                    }
                    if c.digits == 0 {
                        c.letter_first = true;
                    }
                }
                if !is_mark(ch) {
                    c.alnum += 1;
                    c.last_digit = ch.is_numeric();
                }
                j += 1;
            }
            c.end = j;
            match self.c(j) {
                Some(s) if "-_./:#+".contains(s) && self.wc(j + 1) => {
                    c.seps += 1;
                    c.dots += usize::from(s == '.');
                    j += 1;
                }
                Some(',')
                    if self.is(j - 1, |x| x.is_ascii_digit())
                        && self.is(j + 1, |x| x.is_ascii_digit()) =>
                {
                    c.comma = true;
                    j += 1;
                }
                _ => break,
            }
        }
        c.suffix_unit =
            !c.letter_first && c.letters > 0 && c.seps == 0 && c.digits <= 4 && c.letters <= 3;
        Some(c)
    }

    pub(super) fn code(&self, i: usize) -> Option<Found> {
        if i > 0
            && self.is(i - 1, |c| c == ',' || c == '.')
            && self.is(i.wrapping_sub(2), |c| c.is_ascii_digit())
        {
            return None;
        }
        let a = self.compound(i)?;
        let upper_word = |c: &Compound, n: Range<usize>| {
            c.digits == 0 && !c.lower && c.seps == 0 && n.contains(&c.letters)
        };
        let mut end;
        let mut total = a.clone();
        if upper_word(&a, 2..4) {
            // "LH 0454", "IE 6388047 V": a short uppercase prefix before a number.
            if self.c(a.end) != Some(' ') {
                return None;
            }
            let b = self.compound(a.end + 1)?;
            if b.digits < 3 || b.lower || b.comma {
                return None;
            }
            end = b.end;
            total.add(&b);
        } else if a.digits > 0
            && a.letters == 0
            && a.seps == 0
            && (2..=6).contains(&a.digits)
            && a.alnum < 5
        {
            // Digit groups: "4111 1111 1111 1111".
            end = a.end;
            while self.c(end) == Some(' ') {
                let Some(b) = self.compound(end + 1) else {
                    break;
                };
                if b.letters > 0 || b.seps > 0 || !(2..=6).contains(&b.digits) || b.comma {
                    break;
                }
                total.add(&b);
                end = b.end;
            }
            if total.digits < 7 {
                return None;
            }
            return Some((end, IdKind::Code, code_of(&self.text(i..end))));
        } else {
            // A decimal number ("3.14159") is not a code.
            let decimal = a.letters == 0 && a.dots == 1 && a.seps == 1;
            let long_enough = if a.letters > 0 {
                a.alnum >= 3
            } else {
                a.digits >= 5
            };
            let is_code = a.digits > 0 && !a.comma && !a.suffix_unit && !decimal && long_enough;
            if !is_code {
                return None;
            }
            end = a.end;
        }
        // Suffixes of plates, postcodes, VAT numbers.
        if self.c(end) == Some(' ')
            && let Some(d) = self.compound(end + 1)
        {
            let join = if upper_word(&d, 1..2) {
                total.last_digit
            } else if upper_word(&d, 3..4) {
                total.alnum <= 4 && total.last_digit && total.letter_first
            } else {
                d.alnum == 3
                    && !d.lower
                    && d.seps == 0
                    && d.digits == 1
                    && !d.letter_first
                    && (2..=4).contains(&total.alnum)
                    && total.letter_first
            };
            if join {
                end = d.end;
            }
        }
        Some((end, IdKind::Code, code_of(&self.text(i..end))))
    }
}

#[derive(Clone, Default)]
struct Compound {
    end: usize,
    alnum: usize,
    digits: usize,
    letters: usize,
    seps: usize,
    dots: usize,
    lower: bool,
    comma: bool,
    letter_first: bool,
    last_digit: bool,
    suffix_unit: bool,
}

impl Compound {
    fn add(&mut self, o: &Compound) {
        self.alnum += o.alnum;
        self.digits += o.digits;
        self.letters += o.letters;
        self.seps += o.seps;
        self.last_digit = o.last_digit;
    }
}

/// The canonical form of a code: its chunks, uppercase, separators removed.
pub(super) fn code_of(s: &str) -> String {
    // ASCII chunks are the ASCII alphanumerics of the text, lowercased: upper-cased again and
    // concatenated, they are the alphanumerics upper-cased.
    if s.is_ascii() {
        return s
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_uppercase())
            .collect();
    }
    let mut out = String::new();
    for c in chunks(s) {
        out.push_str(&c.form.to_ascii_uppercase());
    }
    out
}
