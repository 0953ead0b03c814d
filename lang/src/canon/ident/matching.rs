//! The query side: the canonical code of an identifier-like query string, whole-chunk matching
//! of a code in a text's chunks, and identifier equivalence.

use std::ops::Range;

use super::codes::code_of;
use super::identifiers;
use super::phone::phone_equiv;
use crate::canon::{Chunk, Gap, IdKind, Identifier, fold};

/// The canonical code of an identifier-like query string: folded, uppercase, every separator
/// removed ("TXN-4481" -> "TXN4481", "ab-CD-12-ef" -> "ABCD12EF", "+1 (415) 555-0132" ->
/// "14155550132"). Exception: three or more dotted digit groups (an IPv4 address, a version)
/// stay dotted, leading zeros dropped ("010.0.0.1" -> "10.0.0.1"), and [`find_code`] matches
/// them part by part, so "10.0.0.1" never meets "100.0.1". `None` if it has no digit and is not an e-mail / handle / hostname-like
/// token. Non-Latin letters are transliterated exactly as [`chunks`](crate::canon::chunks) does, so
/// `find_code(&chunks(t), &code(q)?)` compares like with like.
pub fn code(s: &str) -> Option<String> {
    let c = code_of(s);
    if c.is_empty() {
        return None;
    }
    // Dotted digit groups (IPv4 addresses, versions): kept dotted, matched part by part.
    let f = fold(s);
    let t = f.trim();
    let parts: Vec<&str> = t.split('.').collect();
    if parts.len() >= 3 && parts.iter().all(|p| is_digits(p)) {
        let parts: Vec<&str> = parts
            .iter()
            .map(|p| match p.trim_start_matches('0') {
                "" => "0",
                q => q,
            })
            .collect();
        return Some(parts.join("."));
    }
    if c.bytes().any(|b| b.is_ascii_digit()) {
        return Some(c);
    }
    let ids = identifiers(t);
    let whole = ids.len() == 1
        && matches!(
            ids[0].kind,
            IdKind::Email | IdKind::Handle | IdKind::Hostname | IdKind::Url
        );
    whole.then_some(c)
}

fn is_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// Whole-chunk code matching: byte spans of every place where a run of consecutive chunks of
/// `text`, joined only by `Gap::Joiner`, concatenates (uppercase) exactly to `code`. A match must
/// start and end on chunk boundaries: code "TXN12345" never matches inside "TXN-123456",
/// "12345" never inside "123456". Digit-only codes of at least 7 digits also match a run whose
/// digits equal the code after a phone-style normalization: leading "00" or "+" international
/// prefix, a 1-3 digit country code present on one side only, a national trunk "0" on one side
/// only ("+44 151 496 0142" ~ "0151 496 0142" ~ "1514960142"); the common national number must
/// then have at least 8 digits. Linear-ish, no allocation per start. Spans are sorted and
/// distinct (they may overlap when the text repeats part of the code).
pub fn find_code(text_chunks: &[Chunk], code: &str) -> Vec<Range<usize>> {
    if code.contains('.') {
        return find_dotted(text_chunks, code);
    }
    let code: Vec<u8> = code
        .bytes()
        .filter(u8::is_ascii_alphanumeric)
        .map(|b| b.to_ascii_uppercase())
        .collect();
    let mut out: Vec<Range<usize>> = Vec::new();
    if code.is_empty() {
        return out;
    }
    let phone = code.len() >= 7 && code.iter().all(u8::is_ascii_digit);
    let mut buf: Vec<u8> = Vec::with_capacity(code.len() + 8);
    let n = text_chunks.len();
    for i in 0..n {
        let mut pos = 0;
        for j in i..n {
            let ch = &text_chunks[j];
            if j > i && ch.gap != Some(Gap::Joiner) {
                break;
            }
            let f = ch.form.as_bytes();
            if f.is_empty()
                || pos + f.len() > code.len()
                || !f.eq_ignore_ascii_case(&code[pos..pos + f.len()])
            {
                break;
            }
            pos += f.len();
            if pos == code.len() {
                out.push(text_chunks[i].span.start..ch.span.end);
                break;
            }
        }
        let joined_digit = |k: usize| {
            k < n
                && k > 0
                && text_chunks[k].gap == Some(Gap::Joiner)
                && is_digits(&text_chunks[k].form)
                && is_digits(&text_chunks[k - 1].form)
        };
        if phone && is_digits(&text_chunks[i].form) && !joined_digit(i) {
            buf.clear();
            for j in i..n {
                let ch = &text_chunks[j];
                if (j > i && ch.gap != Some(Gap::Joiner)) || !is_digits(&ch.form) {
                    break;
                }
                buf.extend_from_slice(ch.form.as_bytes());
                if buf.len() > code.len() + 6 {
                    break;
                }
                if buf.len() >= 7 && buf != code && !joined_digit(j + 1) && phone_equiv(&code, &buf)
                {
                    out.push(text_chunks[i].span.start..ch.span.end);
                }
            }
        }
    }
    out.sort_by_key(|r| (r.start, r.end));
    out.dedup();
    out
}

/// Dotted-quad codes (what [`code`] gives for an IPv4 address): one chunk per part, numeric
/// equality, and the run may not continue with more dotted digits on either side.
fn find_dotted(text_chunks: &[Chunk], code: &str) -> Vec<Range<usize>> {
    let parts: Vec<&str> = code
        .split('.')
        .map(|p| p.trim().trim_start_matches('0'))
        .collect();
    let n = text_chunks.len();
    let mut out = Vec::new();
    if parts.is_empty() || parts.len() > n {
        return out;
    }
    let digit_join = |k: usize| {
        k > 0
            && k < n
            && text_chunks[k].gap == Some(Gap::Joiner)
            && is_digits(&text_chunks[k].form)
            && is_digits(&text_chunks[k - 1].form)
    };
    for i in 0..=n - parts.len() {
        let run = &text_chunks[i..i + parts.len()];
        let ok = run.iter().zip(&parts).enumerate().all(|(k, (c, p))| {
            is_digits(&c.form)
                && c.form.trim_start_matches('0') == *p
                && (k == 0 || c.gap == Some(Gap::Joiner))
        });
        if ok && !digit_join(i) && !digit_join(i + parts.len()) {
            out.push(run[0].span.start..run[parts.len() - 1].span.end);
        }
    }
    out
}

/// Identifier-equivalence of two typed identifiers (same kind and canonical equal; phones with
/// the country-code/trunk rule of [`find_code`]).
pub fn same_identifier(a: &Identifier, b: &Identifier) -> bool {
    if a.kind != b.kind {
        return false;
    }
    if a.canonical == b.canonical {
        return true;
    }
    if a.kind == IdKind::Phone {
        let da: Vec<u8> = a.canonical.bytes().filter(u8::is_ascii_digit).collect();
        let db: Vec<u8> = b.canonical.bytes().filter(u8::is_ascii_digit).collect();
        return phone_equiv(&da, &db);
    }
    false
}
