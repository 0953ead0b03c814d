//! Phone numbers: the recogniser (grouped national or international numbers, not dates, card
//! or social-security shapes) and the equivalence of two numbers' digits.

use super::scan::{Found, Scan};
use crate::canon::IdKind;

impl Scan<'_> {
    pub(super) fn phone(&self, i: usize) -> Option<Found> {
        let digit = |k: usize| self.is(k, |c| c.is_ascii_digit());
        let mut j = i;
        let plus = self.c(j) == Some('+');
        if plus {
            j += 1;
        }
        if self.c(j) == Some('(') {
            j += 1;
        }
        if !digit(j) {
            return None;
        }
        let mut digits = String::with_capacity(16);
        let mut groups: Vec<usize> = vec![0];
        let mut seps = 0;
        let mut end = j;
        loop {
            if digit(j) {
                digits.push(self.v[j].c);
                if let Some(g) = groups.last_mut() {
                    *g += 1;
                }
                j += 1;
                end = j;
                if digits.len() > 15 {
                    return None;
                }
                continue;
            }
            // Up to two separator characters: one of " .-" and/or one paren.
            let mut k = j;
            let mut spaces = 0;
            let mut parens = 0;
            let mut others = 0;
            while k < j + 3 {
                match self.c(k) {
                    Some(' ') => spaces += 1,
                    Some('(' | ')') => parens += 1,
                    Some('.' | '-') => others += 1,
                    _ => break,
                }
                k += 1;
            }
            if k > j
                && spaces <= 1
                && parens <= 1
                && others <= 1
                && digit(k)
                && spaces + others <= 1
                || (k > j && parens == 1 && spaces + others <= 1 && digit(k))
            {
                seps += 1;
                groups.push(0);
                j = k;
                continue;
            }
            break;
        }
        if !(7..=15).contains(&digits.len()) || self.wc(end) {
            return None;
        }
        if self.is(end, |c| c == '.' || c == '-' || c == '/') && digit(end + 1) {
            return None;
        }
        let international = plus || digits.starts_with("00");
        if !international {
            let shape: &[usize] = &groups;
            let card_like = digits.len() >= 12 && shape[..shape.len() - 1].iter().all(|&g| g == 4);
            let date_like = matches!(shape, [4, 2, 2] | [2, 2, 4] | [1 | 2, 1 | 2, 4]);
            let ssn_like = matches!(shape, [3, 2, 4]);
            let bare = seps == 0 && !(digits.starts_with('0') && (10..=11).contains(&digits.len()));
            if card_like || date_like || ssn_like || bare || digits.len() > 12 {
                return None;
            }
        }
        let canonical = if international {
            format!("+{}", digits.strip_prefix("00").unwrap_or(&digits))
        } else {
            digits
        };
        Some((end, IdKind::Phone, canonical))
    }
}

/// Phone equivalence of two digit strings: equal after dropping an international "00", a 1-3
/// digit country code on one side only, and a national trunk "0" on one side only. The common
/// national number must have at least 8 digits when a rule was used.
pub(super) fn phone_equiv(a: &[u8], b: &[u8]) -> bool {
    let a = a.strip_prefix(b"00").unwrap_or(a);
    let b = b.strip_prefix(b"00").unwrap_or(b);
    if a == b {
        return true;
    }
    // (rest, used country code)
    // (start of the national number, length of a stripped country code)
    fn variants(x: &[u8], out: &mut [(usize, usize); 8]) -> usize {
        let mut n = 0;
        out[n] = (0, 0);
        n += 1;
        if x.first() == Some(&b'0') {
            out[n] = (1, 0);
            n += 1;
        } else {
            for k in 1..=3 {
                if x.len() > k {
                    out[n] = (k, k);
                    n += 1;
                    if x[k] == b'0' {
                        out[n] = (k + 1, k);
                        n += 1;
                    }
                }
            }
        }
        n
    }
    let mut va = [(0, 0); 8];
    let mut vb = [(0, 0); 8];
    let na = variants(a, &mut va);
    let nb = variants(b, &mut vb);
    for &(ka, cca) in &va[..na] {
        for &(kb, ccb) in &vb[..nb] {
            // A country code on both sides must be the same one.
            if cca > 0 && ccb > 0 && a[..cca] != b[..ccb] {
                continue;
            }
            let (ra, rb) = (&a[ka..], &b[kb..]);
            if ra.len() >= 8 && ra == rb {
                return true;
            }
        }
    }
    false
}
