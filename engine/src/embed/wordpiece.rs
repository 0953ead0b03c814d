//! BERT's uncased WordPiece tokenizer over a shipped vocabulary.
//!
//! Written by hand rather than taken from the `tokenizers` crate: the static embedder needs only
//! the uncased BERT pipeline (clean, split CJK ideographs, lower-case, strip accents, split on
//! whitespace and punctuation, greedy longest-match WordPiece), which is about a hundred lines,
//! while `tokenizers` would add a regex engine, serde models and a JSON loader to every build of
//! the engine. `bindings/minilm`'s tests check this tokenizer against `tokenizers` on the
//! model's own `tokenizer.json`.
//!
//! One known approximation: BERT splits on every Unicode punctuation character (categories P*);
//! without a category table this module treats ASCII punctuation and the general and CJK
//! punctuation blocks as punctuation, which covers the punctuation of ordinary text.

use std::collections::HashMap;

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

/// Words longer than this many characters become `[UNK]` (BERT's `max_input_chars_per_word`).
pub const MAX_WORD_CHARS: usize = 100;

/// One piece of a tokenized text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece<'a> {
    /// A vocabulary id.
    Known(u32),
    /// A whole word none of whose splits is in the vocabulary (BERT's `[UNK]`), with the word.
    Unknown(&'a str),
}

/// A WordPiece vocabulary: token text to id.
#[derive(Debug, Clone)]
pub struct WordPiece<'v> {
    ids: HashMap<&'v str, u32>,
}

fn is_cjk_ideograph(c: char) -> bool {
    matches!(c as u32,
        0x4E00..=0x9FFF
        | 0x3400..=0x4DBF
        | 0x20000..=0x2A6DF
        | 0x2A700..=0x2B73F
        | 0x2B740..=0x2B81F
        | 0x2B820..=0x2CEAF
        | 0xF900..=0xFAFF
        | 0x2F800..=0x2FA1F)
}

fn is_punctuation(c: char) -> bool {
    c.is_ascii_punctuation()
        || matches!(c as u32,
            0x00A1 | 0x00A7 | 0x00AB | 0x00B6 | 0x00B7 | 0x00BB | 0x00BF
            | 0x2010..=0x2027
            | 0x2030..=0x205E
            | 0x3001..=0x3003
            | 0x3008..=0x3011
            | 0x3014..=0x301F
            | 0xFF01..=0xFF03
            | 0xFF05..=0xFF0A
            | 0xFF0C..=0xFF0F
            | 0xFF1A | 0xFF1B | 0xFF1F | 0xFF20
            | 0xFF3B..=0xFF3D
            | 0xFF3F | 0xFF5B | 0xFF5D
            | 0xFF5F..=0xFF65)
}

fn is_control(c: char) -> bool {
    if c == '\t' || c == '\n' || c == '\r' {
        return false;
    }
    c.is_control() || matches!(c as u32, 0x200B..=0x200F | 0x202A..=0x202E | 0xFEFF)
}

/// BERT's basic tokenizer (uncased): the words and punctuation marks of `text`, lower-cased
/// and without accents, CJK ideographs one per word.
pub fn basic_tokens(text: &str) -> Vec<String> {
    let mut spaced = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c == '\0' || c == '\u{FFFD}' || is_control(c) {
            continue;
        }
        if is_cjk_ideograph(c) {
            spaced.push(' ');
            spaced.push(c);
            spaced.push(' ');
        } else if c.is_whitespace() {
            spaced.push(' ');
        } else {
            spaced.push(c);
        }
    }
    let mut out = Vec::new();
    for word in spaced.split(' ').filter(|w| !w.is_empty()) {
        let folded: String = word
            .to_lowercase()
            .nfd()
            .filter(|c| !is_combining_mark(*c))
            .collect();
        let mut cur = String::new();
        for c in folded.chars() {
            if is_punctuation(c) {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                out.push(c.to_string());
            } else {
                cur.push(c);
            }
        }
        if !cur.is_empty() {
            out.push(cur);
        }
    }
    out
}

impl<'v> WordPiece<'v> {
    /// A tokenizer over `vocab`, one token per line, the line number being the id.
    pub fn new(vocab: &'v str) -> WordPiece<'v> {
        let mut ids = HashMap::with_capacity(32 * 1024);
        for (i, tok) in vocab.lines().enumerate() {
            // The first occurrence wins, as in BERT's vocabulary loader.
            ids.entry(tok).or_insert(i as u32);
        }
        WordPiece { ids }
    }

    /// Number of distinct tokens.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// True when the vocabulary is empty.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// The id of a token, if it is in the vocabulary.
    pub fn id(&self, token: &str) -> Option<u32> {
        self.ids.get(token).copied()
    }

    /// The WordPiece split of one basic token into `out`: its pieces, or one `Unknown`.
    pub fn split_word<'w>(&self, word: &'w str, buf: &mut String, out: &mut Vec<Piece<'w>>) {
        let chars: Vec<(usize, char)> = word.char_indices().collect();
        if chars.len() > MAX_WORD_CHARS {
            out.push(Piece::Unknown(word));
            return;
        }
        let mark = out.len();
        let mut start = 0;
        while start < chars.len() {
            let mut end = chars.len();
            let mut found = None;
            while start < end {
                let from = chars[start].0;
                let to = chars.get(end).map_or(word.len(), |c| c.0);
                buf.clear();
                if start > 0 {
                    buf.push_str("##");
                }
                buf.push_str(&word[from..to]);
                if let Some(id) = self.id(buf) {
                    found = Some(id);
                    break;
                }
                end -= 1;
            }
            match found {
                Some(id) => {
                    out.push(Piece::Known(id));
                    start = end;
                }
                None => {
                    out.truncate(mark);
                    out.push(Piece::Unknown(word));
                    return;
                }
            }
        }
    }

    /// The pieces of `text` (no `[CLS]`/`[SEP]`), calling `f` on each with the basic token it
    /// came from.
    pub fn for_each_piece(&self, text: &str, mut f: impl FnMut(Piece<'_>)) {
        let mut buf = String::new();
        for word in basic_tokens(text) {
            let mut pieces = Vec::new();
            self.split_word(&word, &mut buf, &mut pieces);
            for p in &pieces {
                f(*p);
            }
        }
    }

    /// The ids of `text` as BERT would give them (no `[CLS]`/`[SEP]`), `unk` for unknown words.
    pub fn encode(&self, text: &str, unk: u32) -> Vec<u32> {
        let mut out = Vec::new();
        self.for_each_piece(text, |p| {
            out.push(match p {
                Piece::Known(id) => id,
                Piece::Unknown(_) => unk,
            })
        });
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const VOCAB: &str = "[PAD]\n[UNK]\nthe\nun\n##aff\n##able\nrunning\n##s\n,\n!\n中\n文\ncafe\n";

    #[test]
    fn greedy_longest_match_first() {
        let wp = WordPiece::new(VOCAB);
        assert_eq!(wp.encode("unaffable", 1), vec![3, 4, 5]);
        assert_eq!(wp.encode("The runnings!", 1), vec![2, 6, 7, 9]);
    }

    #[test]
    fn unknown_words_stay_whole() {
        let wp = WordPiece::new(VOCAB);
        let mut got = Vec::new();
        wp.for_each_piece("the unxyz", |p| got.push(format!("{p:?}")));
        assert_eq!(got, vec!["Known(2)", "Unknown(\"unxyz\")"]);
    }

    #[test]
    fn basic_tokenizer_folds_and_splits() {
        assert_eq!(
            basic_tokens("Café, 中文!\u{200B}"),
            vec!["cafe", ",", "中", "文", "!"]
        );
        let wp = WordPiece::new(VOCAB);
        assert_eq!(wp.encode("CAFÉ 中文", 1), vec![12, 10, 11]);
    }

    #[test]
    fn overlong_words_are_unknown() {
        let wp = WordPiece::new(VOCAB);
        let long = "a".repeat(MAX_WORD_CHARS + 1);
        assert_eq!(wp.encode(&long, 1), vec![1]);
    }
}
