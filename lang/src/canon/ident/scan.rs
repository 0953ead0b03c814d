//! The scanner's input: the NFKC character stream of a text, each character with the byte range
//! of the original character it came from, and the cursor primitives every recogniser uses.

use std::ops::Range;

use crate::canon::IdKind;
use crate::canon::script::{is_ignorable, is_mark, nfkc_chars};

/// One normalized character and the byte range (`s..e`) of the original character.
#[derive(Clone, Copy)]
pub(super) struct N {
    pub(super) c: char,
    pub(super) s: usize,
    pub(super) e: usize,
}

/// The normalized stream of `text` (ignorable characters dropped).
pub(super) fn stream(text: &str) -> Vec<N> {
    let mut v = Vec::with_capacity(text.len());
    for (s, ch) in text.char_indices() {
        let e = s + ch.len_utf8();
        if is_ignorable(ch) {
            continue;
        }
        nfkc_chars(ch, |c| v.push(N { c, s, e }));
    }
    v
}

/// A cursor over a normalized stream; the recognisers are its methods, one file per family.
pub(super) struct Scan<'a> {
    pub(super) v: &'a [N],
}

/// A recognised identifier: end position in the stream, kind, canonical form.
pub(super) type Found = (usize, IdKind, String);

impl Scan<'_> {
    pub(super) fn c(&self, i: usize) -> Option<char> {
        self.v.get(i).map(|n| n.c)
    }
    pub(super) fn lc(&self, i: usize) -> Option<char> {
        self.c(i).map(|c| {
            if c.is_ascii() {
                c.to_ascii_lowercase()
            } else {
                c.to_lowercase().next().unwrap_or(c)
            }
        })
    }
    pub(super) fn wc(&self, i: usize) -> bool {
        self.c(i).is_some_and(|c| c.is_alphanumeric() || is_mark(c))
    }
    pub(super) fn is(&self, i: usize, f: impl Fn(char) -> bool) -> bool {
        self.c(i).is_some_and(f)
    }
    pub(super) fn text(&self, r: Range<usize>) -> String {
        self.v[r].iter().map(|n| n.c).collect()
    }
    pub(super) fn lit(&self, i: usize, lit: &str) -> Option<usize> {
        let mut j = i;
        for l in lit.chars() {
            if self.lc(j)? != l {
                return None;
            }
            j += 1;
        }
        Some(j)
    }
    pub(super) fn spaces(&self, mut i: usize) -> usize {
        while self.c(i) == Some(' ') {
            i += 1;
        }
        i
    }
}
