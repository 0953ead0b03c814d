//! Spelling-variant keys and consonant skeletons (rules documented in the module docs of
//! [`crate::canon`]).

/// One pass of the variant rules over lowercase ASCII letters: `w` in, the result in `out`
/// (cleared first), `tmp` a scratch buffer. The five steps alternate between `out` and `tmp`, so
/// a key costs three buffers however many passes it takes.
fn pass(w: &[u8], out: &mut Vec<u8>, tmp: &mut Vec<u8>) {
    // 1. Collapse doubled letters: w -> out.
    out.clear();
    for &c in w {
        if out.last() != Some(&c) {
            out.push(c);
        }
    }
    // 2. Consonant digraphs, longest first: out -> tmp.
    tmp.clear();
    let a = &*out;
    let mut i = 0;
    while i < a.len() {
        let rest = &a[i..];
        let (o, used): (&[u8], usize) = if rest.starts_with(b"tsch") {
            (b"h", 4)
        } else if rest.starts_with(b"sch") {
            (b"sh", 3)
        } else if rest.starts_with(b"tch") {
            (b"h", 3)
        } else if rest.starts_with(b"ch") || rest.starts_with(b"kh") {
            (b"h", 2)
        } else if rest.starts_with(b"ck") || rest.starts_with(b"qu") {
            (b"k", 2)
        } else if rest.starts_with(b"ph") {
            (b"f", 2)
        } else if rest.starts_with(b"th") {
            (b"t", 2)
        } else if rest.starts_with(b"dj") {
            (b"d", 2)
        } else {
            (&rest[..1], 1)
        };
        tmp.extend_from_slice(o);
        i += used;
    }
    // 3. Single letters: tmp -> out.
    out.clear();
    for (i, &x) in tmp.iter().enumerate() {
        match x {
            b'c' => out.push(if matches!(tmp.get(i + 1), Some(b'e' | b'i' | b'y')) {
                b's'
            } else {
                b'k'
            }),
            b'q' => out.push(b'k'),
            b'w' => out.push(b'v'),
            b'x' => out.extend_from_slice(b"ks"),
            b'j' | b'y' => out.push(b'i'),
            x => out.push(x),
        }
    }
    // 4. Vowel digraphs: ou -> u, ue -> u, oe -> o, ae -> a: out -> tmp.
    tmp.clear();
    let c = &*out;
    let mut i = 0;
    while i < c.len() {
        match (c[i], c.get(i + 1)) {
            (b'o', Some(b'u')) | (b'u', Some(b'e')) => {
                tmp.push(b'u');
                i += 2;
            }
            (b'o', Some(b'e')) => {
                tmp.push(b'o');
                i += 2;
            }
            (b'a', Some(b'e')) => {
                tmp.push(b'a');
                i += 2;
            }
            (x, _) => {
                tmp.push(x);
                i += 1;
            }
        }
    }
    // 5. Collapse again (tmp -> out), then i + (o|e) + consonant -> ie.
    out.clear();
    for &x in tmp.iter() {
        if out.last() != Some(&x) {
            out.push(x);
        }
    }
    let vowel = |x: u8| matches!(x, b'a' | b'e' | b'i' | b'o' | b'u');
    for i in 0..out.len().saturating_sub(2) {
        if out[i] == b'i' && matches!(out[i + 1], b'o' | b'e') && !vowel(out[i + 2]) {
            out[i + 1] = b'e';
        }
    }
}

/// The variant key; see [`crate::canon::variant_key`].
pub(crate) fn key(word: &str) -> String {
    // Targeting compares each word of a request with every word of hundreds of rows, and most
    // of those words recur: the keys of the words met last are kept per thread, in a table of
    // `SLOTS` entries indexed by a hash of the word (a pure function's results, so the cache
    // changes no answer). Each entry is its own pair of boxes pointed at from a plain vector,
    // so a leak checker sees a thread's table as reachable until the thread ends.
    const SLOTS: usize = 1024;
    type Slot = Option<(Box<str>, Box<str>)>;
    thread_local! {
        static KEYS: std::cell::RefCell<Vec<Slot>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let slot = (super::fnv1a(word) % SLOTS as u64) as usize;
    // `try_with`: a thread tearing down its locals computes without the table.
    let cached = KEYS.try_with(|c| match c.borrow().get(slot) {
        Some(Some((w, k))) if **w == *word => Some(k.to_string()),
        _ => None,
    });
    if let Ok(Some(k)) = cached {
        return k;
    }
    let k = compute_key(word);
    let _ = KEYS.try_with(|c| {
        let mut c = c.borrow_mut();
        if c.is_empty() {
            c.resize_with(SLOTS, || None);
        }
        c[slot] = Some((word.into(), k.as_str().into()));
    });
    k
}

/// [`key`] without the cache.
fn compute_key(word: &str) -> String {
    let mut w: Vec<u8> = word
        .bytes()
        .filter(u8::is_ascii_alphabetic)
        .map(|b| b.to_ascii_lowercase())
        .collect();
    if w.is_empty() {
        return String::new();
    }
    let mut next: Vec<u8> = Vec::with_capacity(w.len() * 2 + 4);
    let mut tmp: Vec<u8> = Vec::with_capacity(w.len() * 2 + 4);
    // The rules shrink the word or stabilise after a few passes; the bound is a safety net.
    for _ in 0..32 {
        pass(&w, &mut next, &mut tmp);
        if next == w {
            break;
        }
        std::mem::swap(&mut w, &mut next);
    }
    String::from_utf8(w).unwrap_or_default()
}

/// Revised Romanization vs McCune-Reischauer / popular spellings of Korean, applied to a
/// Hangul-derived syllable (or a word compared against one) before the variant key: initial
/// g->k, d->t, b->p, j->ch, r->l; eo->o, eu->u anywhere; and the popular "oo" for the vowel u
/// ("Soo-jin" for 수진, RR "Su-jin"; "Ji-woo" for 지우, RR "Ji-u"), whose "w" before it is no
/// sound of its own (RR writes 우 "u" and never "wu").
pub(crate) fn hangul_relax(word: &str) -> String {
    let w = word.to_ascii_lowercase();
    let mut s = String::with_capacity(w.len() + 1);
    let body = if let Some(r) = w.strip_prefix('g') {
        s.push('k');
        r
    } else if let Some(r) = w.strip_prefix('d') {
        s.push('t');
        r
    } else if let Some(r) = w.strip_prefix('b') {
        s.push('p');
        r
    } else if let Some(r) = w.strip_prefix('r') {
        s.push('l');
        r
    } else if let Some(r) = w.strip_prefix("ch") {
        s.push_str("ch");
        r
    } else if let Some(r) = w.strip_prefix('j') {
        s.push_str("ch");
        r
    } else {
        &w
    };
    // Korean has no syllable-final r: popular spellings write one after a vowel for its length
    // ("Park" for 박, RR "Bak"); it goes before a consonant or at the end of the word.
    let bytes = body.as_bytes();
    let mut kept = String::with_capacity(body.len());
    for (i, &b) in bytes.iter().enumerate() {
        let after_vowel = i > 0 && b"aeiou".contains(&bytes[i - 1]);
        let before_vowel = bytes.get(i + 1).is_some_and(|n| b"aeiouwy".contains(n));
        if b == b'r' && after_vowel && !before_vowel {
            continue;
        }
        kept.push(b as char);
    }
    s.push_str(
        &kept
            .replace("eo", "o")
            .replace("eu", "u")
            .replace("oo", "u")
            .replace("wu", "u"),
    );
    s
}

/// Consonant skeleton; see [`crate::canon::skeleton`].
pub(crate) fn skeleton(word: &str) -> String {
    let w: Vec<u8> = word
        .bytes()
        .filter(u8::is_ascii_alphabetic)
        .map(|b| b.to_ascii_lowercase())
        .collect();
    let mut out: Vec<u8> = Vec::with_capacity(w.len());
    let mut i = 0;
    while i < w.len() {
        let (c, used) = match (w[i], w.get(i + 1)) {
            (b'k' | b'c', Some(b'h')) => (b'k', 2),
            (b's', Some(b'h')) => (b's', 2),
            (b't', Some(b'h')) => (b't', 2),
            (b'd', Some(b'h')) => (b'd', 2),
            (b'g', Some(b'h')) => (b'g', 2),
            (b'p', Some(b'h')) => (b'f', 2),
            (b'z', Some(b'h')) => (b'z', 2),
            (b'c' | b'q', _) => (b'k', 1),
            (x, _) => (x, 1),
        };
        let skip = match c {
            b'a' | b'e' | b'i' | b'o' | b'u' => true,
            b'w' | b'v' | b'y' => i > 0,
            _ => false,
        };
        if !skip && out.last() != Some(&c) {
            out.push(c);
        }
        i += used;
    }
    String::from_utf8(out).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::{compute_key, key};
    use proptest::prelude::*;

    proptest! {
        /// The cached key is the computed key, whatever was asked before (words whose slots
        /// collide included: 300 words share 1,024 slots).
        #[test]
        fn the_cache_changes_no_key(words in prop::collection::vec("[a-zA-Z' -]{0,12}", 1..300)) {
            for w in words.iter().chain(words.iter().rev()) {
                prop_assert_eq!(key(w), compute_key(w));
            }
        }
    }
}
