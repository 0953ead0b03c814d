//! URLs and host names (dotted labels with an alphabetic top-level domain).

use super::scan::{Found, Scan};
use crate::canon::script::is_mark;
use crate::canon::{IdKind, fold};

/// Longest URL considered, in characters (longer ones are cut there).
const MAX_URL: usize = 2048;

impl Scan<'_> {
    pub(super) fn url(&self, i: usize) -> Option<Found> {
        let mut j = i;
        while j < i + 16 && self.is(j, |c| c.is_ascii_alphanumeric() || "+.-".contains(c)) {
            j += 1;
        }
        if j == i || !self.is(i, |c| c.is_ascii_alphabetic()) {
            return None;
        }
        let after = self.lit(j, "://")?;
        let scheme_end = j;
        let mut k = after;
        let (mut opens, mut closes) = (0usize, 0usize);
        while k - after < MAX_URL && self.is(k, |c| !c.is_whitespace() && !"<>\"'`".contains(c)) {
            opens += usize::from(self.v[k].c == '(');
            closes += usize::from(self.v[k].c == ')');
            k += 1;
        }
        // Trailing punctuation is the sentence's, and ')' only when unbalanced.
        while k > after {
            let c = self.v[k - 1].c;
            if ".,;:!?'\"]}".contains(c) || (c == ')' && closes > opens) {
                closes -= usize::from(c == ')');
                k -= 1;
            } else {
                break;
            }
        }
        if k == after {
            return None;
        }
        let scheme = self.text(i..scheme_end).to_lowercase();
        let rest = self.text(after..k);
        let split = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        let canonical = format!(
            "{scheme}://{}{}",
            rest[..split].to_lowercase(),
            &rest[split..]
        );
        Some((k, IdKind::Url, canonical))
    }

    // --- host names and e-mail -----------------------------------------------------------
    /// Dotted labels from `i` with an alphabetic TLD: (end, labels).
    pub(super) fn host(&self, i: usize) -> Option<(usize, usize)> {
        let mut j = i;
        let mut labels = 0;
        let mut last_start = i;
        loop {
            let start = j;
            while (self.wc(j) || self.c(j) == Some('-')) && j - start <= 63 {
                j += 1;
            }
            if j - i > 253 || labels >= 127 {
                return None;
            }
            if j == start
                || j - start > 63
                || self.c(start) == Some('-')
                || self.c(j - 1) == Some('-')
            {
                if labels == 0 {
                    return None;
                }
                j = start - 1; // back before the dot
                break;
            }
            labels += 1;
            last_start = start;
            if self.c(j) == Some('.') && (self.wc(j + 1)) {
                j += 1;
                continue;
            }
            break;
        }
        if labels < 2 {
            return None;
        }
        let tld = &self.v[last_start..j];
        if tld.len() < 2 || !tld.iter().all(|n| n.c.is_alphabetic() || is_mark(n.c)) {
            return None;
        }
        Some((j, labels))
    }

    pub(super) fn hostname(&self, i: usize) -> Option<Found> {
        if i > 0 && self.is(i - 1, |c| ".-_@".contains(c)) {
            return None;
        }
        let (end, _) = self.host(i)?;
        if self.is(end, |c| {
            c.is_alphanumeric() || c == '-' || c == '_' || c == '@'
        }) {
            return None;
        }
        Some((end, IdKind::Hostname, fold(&self.text(i..end))))
    }
}
