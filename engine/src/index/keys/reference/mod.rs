//! Test-only reference: the match keys exactly as computed before the fourth pass of issue 16
//! (a verbatim copy of `index/keys.rs` and of `canon/` at that point). The optimized
//! [`super::row_keys`] and [`super::query_keys`] are compared with it by proptest.
#![allow(dead_code, unused_imports, clippy::all)]

mod canon;

use std::collections::BTreeSet;

use self::canon::{Chunk, Gap, Script};

/// Longest run of chunks whose concatenation is indexed as a code.
pub const MAX_CODE_CHUNKS: usize = 8;
/// Longest code indexed, in bytes.
pub const MAX_CODE_LEN: usize = 48;

/// Folds plurals and possessives so that "phones" meets "phone" and "companies" "company".
pub fn stem(w: &str) -> String {
    let n = w.chars().count();
    if n > 4 && w.ends_with("ies") {
        format!("{}y", &w[..w.len() - 3])
    } else if n > 3 && w.ends_with('s') && !w.ends_with("ss") && !w.ends_with("us") {
        w[..w.len() - 1].to_owned()
    } else {
        w.to_owned()
    }
}

/// True if a chunk may be part of a name: capitalized, or from a script without case.
pub fn name_like(c: &Chunk) -> bool {
    c.capitalized || c.script != Script::Latin
}

/// True if the chunk holds a digit.
pub fn has_digit(c: &Chunk) -> bool {
    c.form.chars().any(|ch| ch.is_ascii_digit())
}

/// Phone-style forms of a digit string of at least 7 digits: without leading zeros, and without
/// a 1 to 3 digit country code.
pub fn phone_forms(digits: &str) -> Vec<String> {
    let mut out = Vec::new();
    if digits.len() < 7 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return out;
    }
    let trimmed = digits.trim_start_matches('0');
    out.push(trimmed.to_owned());
    for cc in 1..=3 {
        if trimmed.len() >= cc + 7 {
            out.push(trimmed[cc..].to_owned());
        }
    }
    out
}

/// Runs of consecutive chunks joined by identifier separators: `(start, end)` exclusive.
pub fn joined_runs(chunks: &[Chunk]) -> Vec<(usize, usize)> {
    let mut runs = Vec::new();
    let mut start = 0;
    for i in 1..=chunks.len() {
        if i == chunks.len() || chunks[i].gap != Some(Gap::Joiner) {
            if start < i {
                runs.push((start, i));
            }
            start = i;
        }
    }
    runs
}

/// Upper-case concatenation of chunks `a..b`.
pub fn concat(chunks: &[Chunk], a: usize, b: usize) -> String {
    chunks[a..b]
        .iter()
        .map(|c| c.form.to_uppercase())
        .collect::<String>()
}

fn words_of(chunk: &Chunk, out: &mut BTreeSet<String>) {
    if has_digit(chunk) {
        return;
    }
    for part in chunk.form.split_whitespace() {
        out.insert(format!("w:{}", stem(part)));
        if name_like(chunk) {
            let v = canon::variant_key(part);
            if !v.is_empty() {
                out.insert(format!("v:{v}"));
            }
            let k = canon::skeleton(part);
            if k.len() >= 2 {
                out.insert(format!("k:{k}"));
            }
        }
    }
}

fn exonym_keys(chunks: &[Chunk], out: &mut BTreeSet<String>) {
    for (i, c) in chunks.iter().enumerate() {
        for e in canon::exonyms(&c.form) {
            out.insert(format!("x:{e}"));
        }
        // Syllabic scripts split a place name into one chunk per character: try pairs.
        if c.script != Script::Latin
            && let Some(n) = chunks.get(i + 1)
            && n.script == c.script
        {
            for joined in [
                format!("{}{}", c.form, n.form),
                format!("{} {}", c.form, n.form),
            ] {
                for e in canon::exonyms(&joined) {
                    out.insert(format!("x:{e}"));
                }
            }
        }
    }
}

fn code_keys(chunks: &[Chunk], out: &mut BTreeSet<String>) {
    for (start, end) in joined_runs(chunks) {
        for a in start..end {
            let mut code = String::new();
            let mut digit = false;
            for chunk in &chunks[a..end.min(a + MAX_CODE_CHUNKS)] {
                code.push_str(&chunk.form.to_uppercase());
                digit |= has_digit(chunk);
                if code.len() > MAX_CODE_LEN {
                    break;
                }
                if digit {
                    out.insert(format!("c:{code}"));
                    for p in phone_forms(&code) {
                        out.insert(format!("p:{p}"));
                    }
                }
            }
        }
    }
}

/// Japanese and Korean readings of runs of one or two Han chunks ("佐藤" -> "sato"), with the
/// index of the run's first chunk.
pub fn han_readings(text: &str, chunks: &[Chunk]) -> Vec<(usize, &'static str)> {
    let mut out = Vec::new();
    for i in 0..chunks.len() {
        for len in 1..=2 {
            let Some(last) = chunks.get(i + len - 1) else {
                break;
            };
            if chunks[i..i + len].iter().any(|c| c.script != Script::Han) {
                break;
            }
            for r in canon::han_readings(&text[chunks[i].span.start..last.span.end]) {
                out.push((i, *r));
            }
        }
    }
    out
}

/// Every match key of a row text, sorted and deduplicated.
pub fn row_keys(text: &str) -> Vec<String> {
    let chunks = canon::chunks(text);
    let mut out = BTreeSet::new();
    for c in &chunks {
        words_of(c, &mut out);
    }
    exonym_keys(&chunks, &mut out);
    for (_, reading) in han_readings(text, &chunks) {
        out.insert(format!("w:{reading}"));
        let v = canon::variant_key(reading);
        if !v.is_empty() {
            out.insert(format!("v:{v}"));
        }
    }
    code_keys(&chunks, &mut out);
    for id in canon::identifiers(text) {
        out.insert(format!("i:{:?}:{}", id.kind, id.canonical));
    }
    out.into_iter()
        .map(|k| k.replace(char::is_whitespace, "_"))
        .collect()
}

/// The keys a query looks up: the same families as [`row_keys`], so that any row the query can
/// match shares at least one key with it.
pub fn query_keys(text: &str) -> Vec<String> {
    let mut keys = row_keys(text);
    // A query name may be written in lower case ("zhang wei"): look its name keys up too.
    let chunks = canon::chunks(text);
    let mut extra = BTreeSet::new();
    for c in &chunks {
        if has_digit(c) {
            continue;
        }
        for part in c.form.split_whitespace() {
            let v = canon::variant_key(part);
            if !v.is_empty() {
                extra.insert(format!("v:{v}"));
            }
            let k = canon::skeleton(part);
            if k.len() >= 2 {
                extra.insert(format!("k:{k}"));
            }
            for e in canon::exonyms(part) {
                extra.insert(format!("w:{}", stem(e)));
            }
        }
    }
    keys.extend(
        extra
            .into_iter()
            .map(|k| k.replace(char::is_whitespace, "_")),
    );
    keys.sort();
    keys.dedup();
    keys
}
