//! E-mail addresses (plain and obfuscated, `alice at example dot com`) and `@handles`.

use std::ops::Range;

use super::scan::{Found, Scan};
use crate::canon::script::is_mark;
use crate::canon::{IdKind, fold};

impl Scan<'_> {
    fn email_canonical(local: &str, domain: &str) -> String {
        let local = fold(local);
        let mut domain = fold(domain);
        let mut local = match local.find('+') {
            Some(p) if p > 0 => local[..p].to_string(),
            _ => local,
        };
        if domain == "googlemail.com" {
            domain = "gmail.com".into();
        }
        if domain == "gmail.com" {
            local.retain(|c| c != '.');
        }
        format!("{local}@{domain}")
    }

    fn local_char(c: char) -> bool {
        c.is_alphanumeric() || is_mark(c) || "._%+-".contains(c)
    }

    pub(super) fn email(&self, i: usize) -> Option<Found> {
        if !self.wc(i) {
            return None;
        }
        let mut j = i;
        while j < i + 64 && self.is(j, Self::local_char) {
            j += 1;
        }
        if self.c(j) != Some('@') || self.c(j - 1) == Some('.') {
            return None;
        }
        let (end, _) = self.host(j + 1)?;
        if self.is(end, |c| {
            c.is_alphanumeric() || c == '@' || c == '-' || c == '_'
        }) {
            return None;
        }
        let canonical = Self::email_canonical(&self.text(i..j), &self.text(j + 1..end));
        Some((end, IdKind::Email, canonical))
    }

    /// `alice at example dot com`, `alice [at] example [dot] com`, `alice(at)example(dot)com`.
    pub(super) fn obfuscated_email(&self, i: usize) -> Option<Found> {
        if !self.wc(i) {
            return None;
        }
        let mut j = i;
        while j < i + 64 && self.is(j, Self::local_char) && self.c(j) != Some('+') {
            j += 1;
        }
        let local_end = j;
        if local_end == i || self.c(local_end - 1) == Some('.') {
            return None;
        }
        let marker = |k: usize, word: &str| -> Option<usize> {
            let k0 = self.spaces(k);
            // The bracketed forms need an opening bracket at `k0`.
            let opens = matches!(self.c(k0), Some('[' | '(' | '{' | '<'));
            for (o, c) in [("[", "]"), ("(", ")"), ("{", "}"), ("<", ">")] {
                if !opens {
                    break;
                }
                let inner = [word, if word == "at" { "@" } else { "." }];
                for w in inner {
                    if let Some(e) = self.lit(k0, o).and_then(|e| self.lit(self.spaces(e), w)) {
                        let e = self.spaces(e);
                        if let Some(e) = self.lit(e, c) {
                            return Some(self.spaces(e));
                        }
                    }
                }
            }
            // The bare word, with spaces on both sides.
            if k0 > k {
                let e = self.lit(k0, word)?;
                let e2 = self.spaces(e);
                if e2 > e {
                    return Some(e2);
                }
            }
            None
        };
        let mut k = marker(local_end, "at")?;
        let mut labels: Vec<Range<usize>> = Vec::new();
        loop {
            let start = k;
            while self.wc(k) || self.c(k) == Some('-') {
                k += 1;
                if k - start > 63 {
                    return None;
                }
            }
            if k == start {
                return None;
            }
            labels.push(start..k);
            if labels.len() >= 16 {
                break;
            }
            if self.c(k) == Some('.') && self.wc(k + 1) {
                k += 1;
                continue;
            }
            match marker(k, "dot") {
                Some(n) if self.wc(n) => k = n,
                _ => break,
            }
        }
        let tld = labels.last()?;
        if labels.len() < 2
            || tld.len() < 2
            || !self.v[tld.clone()].iter().all(|n| n.c.is_alphabetic())
            || self.is(tld.end, |c| c.is_alphanumeric() || c == '@')
        {
            return None;
        }
        let domain: Vec<String> = labels.iter().map(|r| self.text(r.clone())).collect();
        let canonical = Self::email_canonical(&self.text(i..local_end), &domain.join("."));
        Some((tld.end, IdKind::Email, canonical))
    }

    pub(super) fn handle(&self, i: usize) -> Option<Found> {
        if self.c(i) != Some('@') {
            return None;
        }
        let mut j = i + 1;
        while j < i + 65 && (self.wc(j) || self.is(j, |c| c == '_' || c == '.')) {
            j += 1;
        }
        while j > i + 1 && self.c(j - 1) == Some('.') {
            j -= 1;
        }
        if j == i + 1 || self.c(j) == Some('@') || self.c(i + 1) == Some('.') {
            return None;
        }
        Some((
            j,
            IdKind::Handle,
            format!("@{}", fold(&self.text(i + 1..j))),
        ))
    }
}
