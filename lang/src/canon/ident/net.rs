//! Network addresses: MAC (colon, dash and Cisco dotted forms), IPv6 and IPv4.

use super::scan::{Found, Scan};
use crate::canon::IdKind;

impl Scan<'_> {
    pub(super) fn mac(&self, i: usize) -> Option<Found> {
        let hex = |k: usize| self.is(k, |c| c.is_ascii_hexdigit());
        // Every form starts with two hex digits.
        if !(hex(i) && hex(i + 1)) {
            return None;
        }
        let mut out = String::with_capacity(12);
        for sep in [':', '-'] {
            out.clear();
            let mut j = i;
            let mut ok = true;
            for g in 0..6 {
                if !(hex(j) && hex(j + 1)) {
                    ok = false;
                    break;
                }
                out.push(self.v[j].c.to_ascii_lowercase());
                out.push(self.v[j + 1].c.to_ascii_lowercase());
                j += 2;
                if g < 5 {
                    if self.c(j) != Some(sep) {
                        ok = false;
                        break;
                    }
                    j += 1;
                }
            }
            if ok && !self.wc(j) && !(self.c(j) == Some(sep) && hex(j + 1)) {
                return Some((j, IdKind::Mac, out));
            }
        }
        // Cisco form 001a.2b3c.4d5e.
        out.clear();
        let mut j = i;
        for g in 0..3 {
            for _ in 0..4 {
                if !hex(j) {
                    return None;
                }
                out.push(self.v[j].c.to_ascii_lowercase());
                j += 1;
            }
            if g < 2 {
                if self.c(j) != Some('.') {
                    return None;
                }
                j += 1;
            }
        }
        if self.wc(j) || (self.c(j) == Some('.') && self.wc(j + 1)) {
            return None;
        }
        Some((j, IdKind::Mac, out))
    }

    pub(super) fn ipv6(&self, i: usize) -> Option<Found> {
        let mut j = i;
        while j < i + 45 && self.is(j, |c| c.is_ascii_hexdigit() || c == ':' || c == '.') {
            j += 1;
        }
        let mut end = j;
        while end > i {
            // Only a candidate with two colons and a hex digit is parsed (and built).
            let span = &self.v[i..end];
            if span.iter().filter(|n| n.c == ':').count() >= 2
                && span.iter().any(|n| n.c.is_ascii_hexdigit())
                && let Ok(a) = self.text(i..end).parse::<std::net::Ipv6Addr>()
            {
                if self.wc(end) {
                    return None;
                }
                return Some((end, IdKind::Ipv6, a.to_string()));
            }
            if self.is(end - 1, |c| c == '.' || c == ':') {
                end -= 1;
            } else {
                break;
            }
        }
        None
    }

    pub(super) fn ipv4(&self, i: usize) -> Option<Found> {
        if i > 0 && self.c(i - 1) == Some('.') {
            return None;
        }
        let mut j = i;
        let mut parts = [0u32; 4];
        for (p, part) in parts.iter_mut().enumerate() {
            let start = j;
            while j < start + 3 && self.is(j, |c| c.is_ascii_digit()) {
                *part = *part * 10 + self.v[j].c.to_digit(10).unwrap_or(0);
                j += 1;
            }
            if j == start || *part > 255 || self.is(j, |c| c.is_ascii_digit()) {
                return None;
            }
            if p < 3 {
                if self.c(j) != Some('.') {
                    return None;
                }
                j += 1;
            }
        }
        if self.wc(j) || (self.c(j) == Some('.') && self.is(j + 1, |c| c.is_ascii_digit())) {
            return None;
        }
        let canonical = format!("{}.{}.{}.{}", parts[0], parts[1], parts[2], parts[3]);
        Some((j, IdKind::Ipv4, canonical))
    }
}
