//! Typed identifiers, identifier-like query codes and whole-chunk code matching.
//!
//! The scanner runs over the NFKC form of the text (full-width `＠` is `@`, dashes are `-`),
//! where every normalized character remembers the byte range of the original character it came
//! from, so identifier spans are always ranges of whole original characters.
//!
//! Layout: [`scan`] is the normalized character stream and its cursor primitives; one file per
//! family of recognisers ([`host`]: URLs and host names, [`email`]: e-mail addresses and handles,
//! [`iban`], [`net`]: MAC and IP addresses, [`phone`], [`codes`]: other identifier-shaped
//! tokens); [`matching`] is the query side ([`code()`], [`find_code`], [`same_identifier`]).
//! [`identifiers`] below tries the recognisers in order at every position.

mod codes;
mod email;
mod host;
mod iban;
mod matching;
mod net;
mod phone;
mod scan;

use super::Identifier;
use scan::{Scan, stream};

pub use matching::{code, find_code, same_identifier};

/// Typed identifiers of `text`, in order, non-overlapping. Detection order at each position:
/// URL, e-mail, obfuscated e-mail, IBAN, MAC, IPv6, IPv4, phone, handle, host name, code. An
/// identifier starts only where no letter or digit precedes it.
pub fn identifiers(text: &str) -> Vec<Identifier> {
    let v = stream(text);
    let sc = Scan { v: &v };
    let mut out: Vec<Identifier> = Vec::new();
    let mut i = 0;
    while i < v.len() {
        if i == 0 || !sc.wc(i - 1) {
            let found = sc
                .url(i)
                .or_else(|| sc.email(i))
                .or_else(|| sc.obfuscated_email(i))
                .or_else(|| sc.iban(i))
                .or_else(|| sc.mac(i))
                .or_else(|| sc.ipv6(i))
                .or_else(|| sc.ipv4(i))
                .or_else(|| sc.phone(i))
                .or_else(|| sc.handle(i))
                .or_else(|| sc.hostname(i))
                .or_else(|| sc.code(i));
            if let Some((end, kind, canonical)) = found
                && end > i
            {
                let span = v[i].s..v[end - 1].e;
                if out.last().is_none_or(|l| l.span.end <= span.start) && !canonical.is_empty() {
                    out.push(Identifier {
                        kind,
                        canonical,
                        span,
                    });
                }
                i = end;
                continue;
            }
        }
        i += 1;
    }
    out
}
