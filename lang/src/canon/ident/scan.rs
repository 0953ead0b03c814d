//! The scanner's input: the NFKC character stream of a text, each character with the byte range
//! of the original character it came from, and the cursor primitives every recogniser uses.

use std::ops::Range;

use crate::canon::IdKind;
use crate::canon::script::{is_ignorable, is_mark, nfkc_chars, script_of};
use crate::canon::{Script, unspaced_letter};

/// One normalized character and the byte range (`s..e`) of the original character.
#[derive(Clone, Copy)]
pub(super) struct N {
    pub(super) c: char,
    pub(super) s: usize,
    pub(super) e: usize,
}

/// The normalized stream of `text` (ignorable characters dropped).
///
/// Scripts written without spaces between words (Chinese, Japanese, Thai) and Korean, whose
/// particles attach to the word before them, glue a value to the words around it:
/// "電話番号は+7 916 493-83-28です", "เบอร์ 081-234-5678ครับ", "010-1234-5678입니다". Where a
/// letter of such a script meets any other character but a space, the stream holds a space
/// of no width (its byte range is empty, at the boundary), so every recogniser sees the value
/// standing alone, as it would in a spaced script, and no span ever covers it.
pub(super) fn stream(text: &str) -> Vec<N> {
    let mut v: Vec<N> = Vec::with_capacity(text.len());
    for (s, ch) in text.char_indices() {
        let e = s + ch.len_utf8();
        if is_ignorable(ch) {
            continue;
        }
        nfkc_chars(ch, |c| {
            if let Some(prev) = v.last()
                && glued_across_scripts(prev.c, c)
            {
                v.push(N { c: ' ', s, e: s });
            }
            v.push(N { c, s, e });
        });
    }
    v
}

/// The unspaced family of a letter ([`crate::canon::unspaced_letter`]): Chinese and Japanese
/// are one (kanji and kana mix in a word), Korean another, Thai a third. `None` for every
/// other character.
fn unspaced_family(c: char) -> Option<u8> {
    if !unspaced_letter(c) {
        return None;
    }
    Some(match script_of(c) {
        Script::Hangul => 1,
        Script::Thai => 2,
        _ => 0,
    })
}

/// True where a letter of an unspaced script meets a character of a value in another script
/// (a letter, a digit or a sign such as `+` or `(`): a boundary no space marks.
fn glued_across_scripts(a: char, b: char) -> bool {
    if a.is_whitespace() || b.is_whitespace() || is_mark(b) {
        return false;
    }
    let (fa, fb) = (unspaced_family(a), unspaced_family(b));
    (fa.is_some() || fb.is_some()) && fa != fb
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
