//! The BM25 analyzer: how row texts and queries become index terms.
//!
//! One analyzer serves indexing and querying, so a query term matches exactly the row terms it
//! should. Steps:
//!
//! 1. **Split** ([`split`]): runs of letters and digits outside the CJK scripts are
//!    words; runs of Han, Hiragana, Katakana or Hangul characters, which are written without
//!    spaces, become overlapping character bigrams (a run of one character stays a unigram), so
//!    `北京大学` is indexed as `北京 京大 大学` and the query `北京` finds it.
//! 2. **Fold**: lower-case, then ASCII folding (`café` → `cafe`).
//! 3. **Stop words**: English (Lucene's list) and Russian (Snowball's) stop words are dropped.
//!    Other Latin-script languages cannot be told from English token by token, so they keep
//!    their stop words; BM25's IDF weighs them down anyway.
//! 4. **Stem** by script: the Snowball stemmers for English, Russian, Greek and Arabic each act
//!    only on letters of their own script, so chaining them stems every word in the stemmer of
//!    its script (`running` → `run`, `книги` → `книг`).
//!
//! Two analyzers compute these terms, and a property test holds them to the same output
//! (`the_analyzer_matches_the_full_chain`, against the chain as first written): [`analyzer`]
//! runs steps 2-4 as tantivy filters over the split, which suits a single text (a query, a hit);
//! [`indexing_analyzer`] ([`ScriptTokenizer`]) remembers the term of each distinct word it has
//! met, which suits many texts (tantivy's segment writers, the text tail, the residual audit's
//! control) and costs a third of the time per row on memories of common words (`cargo bench -p
//! oubli-bench --bench analyzer`).
//!
//! The analyzer has a version, [`ANALYZER_VERSION`], which is the name the tantivy schema gives
//! the text field's tokenizer and is therefore stored in the store's index metadata. An index
//! built by another version has another schema: a writable open rebuilds it from the rows, a
//! read-only open indexes in memory. The canonical match keys ([`super::keys`]) are analyzed
//! separately and are unchanged.

use std::borrow::Cow;
use std::collections::HashMap;

use frostem::Algorithm;
use tantivy::tokenizer::{
    AsciiFoldingFilter, Language, LowerCaser, RawTokenizer, StopWordFilter, TextAnalyzer, Token,
    TokenFilter, TokenStream, Tokenizer,
};

/// Version of the analyzer; the tokenizer name of the text field.
pub const ANALYZER_VERSION: &str = "oubli_text_v2";

/// True for characters of scripts written without spaces between words.
pub fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x4E00..=0x9FFF          // CJK unified ideographs
        | 0x3400..=0x4DBF        // extension A
        | 0x20000..=0x2EBEF      // extensions B-F
        | 0xF900..=0xFAFF        // compatibility ideographs
        | 0x3040..=0x309F        // Hiragana
        | 0x30A0..=0x30FF        // Katakana
        | 0x31F0..=0x31FF        // Katakana phonetic extensions
        | 0xFF66..=0xFF9F        // half-width Katakana
        | 0xAC00..=0xD7AF        // Hangul syllables
        | 0x1100..=0x11FF        // Hangul jamo
        | 0x3130..=0x318F) // Hangul compatibility jamo
}

/// The spans of `text`'s raw tokens (step 1 of the module documentation), as byte ranges, in
/// order, written to `out` (cleared first): words, and overlapping bigrams of CJK runs.
fn split_into(text: &str, out: &mut Vec<(usize, usize)>) {
    out.clear();
    // Byte offsets of the current CJK run's characters (a bigram ends where the character after
    // its second one starts).
    let mut run: Vec<usize> = Vec::new();
    let flush_run = |run: &mut Vec<usize>, end: usize, out: &mut Vec<(usize, usize)>| {
        match run.len() {
            0 => {}
            1 => out.push((run[0], end)),
            n => {
                for j in 0..n - 1 {
                    out.push((run[j], run.get(j + 2).copied().unwrap_or(end)));
                }
            }
        }
        run.clear();
    };
    let mut word: Option<usize> = None;
    for (at, c) in text.char_indices() {
        if is_cjk(c) {
            if let Some(from) = word.take() {
                out.push((from, at));
            }
            run.push(at);
        } else {
            flush_run(&mut run, at, out);
            if c.is_alphanumeric() {
                word.get_or_insert(at);
            } else if let Some(from) = word.take() {
                out.push((from, at));
            }
        }
    }
    flush_run(&mut run, text.len(), out);
    if let Some(from) = word {
        out.push((from, text.len()));
    }
}

/// The raw tokens of `text`: words and CJK bigrams with byte offsets and positions.
pub fn split(text: &str) -> Vec<Token> {
    let mut spans = Vec::new();
    split_into(text, &mut spans);
    spans
        .into_iter()
        .enumerate()
        .map(|(position, (from, to))| Token {
            offset_from: from,
            offset_to: to,
            position,
            text: text[from..to].to_string(),
            position_length: 1,
        })
        .collect()
}

/// Distinct raw tokens a [`ScriptTokenizer`] remembers before it starts over.
pub const MEMO_WORDS: usize = 1 << 16;

/// The text field's tokenizer: splits text into words and CJK bigrams (step 1 of the module
/// documentation) and turns each into its term by steps 2-4, which act on one token at a time.
///
/// An instance remembers the term of every distinct raw token it has analyzed (up to
/// [`MEMO_WORDS`], then it starts over), so a word met again costs one hash lookup instead of
/// case folding, a stop-word test and a stemmer run. Text is mostly common words, so an instance
/// that analyzes many rows (a tantivy segment writer, the text tail, the residual audit's
/// control) analyzes each word about once. The memo holds words of the texts its instance
/// analyzed and lives only as long as that instance: a clone starts empty, tantivy drops its
/// segment writers' instances at each commit, and the text tail replaces its instance whenever
/// a row is removed. For a single text (a query), [`analyzer`]'s plain chain is cheaper.
pub struct ScriptTokenizer {
    /// Raw token -> its term, or `None` for a stop word.
    memo: HashMap<String, Option<String>>,
    /// Steps 2-4 on one raw token.
    word: TextAnalyzer,
    /// The spans of the text being tokenized (reused between texts).
    spans: Vec<(usize, usize)>,
}

impl Default for ScriptTokenizer {
    fn default() -> Self {
        ScriptTokenizer {
            memo: HashMap::new(),
            word: word_analyzer(),
            spans: Vec::new(),
        }
    }
}

impl Clone for ScriptTokenizer {
    /// A tokenizer with an empty memo.
    fn clone(&self) -> Self {
        ScriptTokenizer::default()
    }
}

/// The token stream of [`ScriptTokenizer`].
pub struct ScriptStream<'a> {
    text: &'a str,
    spans: std::slice::Iter<'a, (usize, usize)>,
    position: usize,
    memo: &'a mut HashMap<String, Option<String>>,
    word: &'a mut TextAnalyzer,
    current: Token,
}

/// Steps 2-4 on the raw token `raw` with `word` ([`word_analyzer`]): its term, written to `out`,
/// or false for a stop word.
fn analyze_word(word: &mut TextAnalyzer, raw: &str, out: &mut String) -> bool {
    let mut stream = word.token_stream(raw);
    if !stream.advance() {
        return false;
    }
    out.clear();
    out.push_str(&stream.token().text);
    true
}

impl ScriptStream<'_> {
    /// Writes the term of the raw token `raw` to the current token's text, from the memo or by
    /// analysis; false for a stop word.
    fn term(&mut self, raw: &str) -> bool {
        let out = &mut self.current.text;
        let memo = &mut *self.memo;
        if let Some(term) = memo.get(raw) {
            return match term {
                Some(term) => {
                    out.clear();
                    out.push_str(term);
                    true
                }
                None => false,
            };
        }
        if memo.len() >= MEMO_WORDS {
            memo.clear();
        }
        let held = analyze_word(self.word, raw, out);
        memo.insert(raw.to_owned(), held.then(|| out.clone()));
        held
    }
}

impl TokenStream for ScriptStream<'_> {
    fn advance(&mut self) -> bool {
        while let Some(&(from, to)) = self.spans.next() {
            let position = self.position;
            self.position += 1;
            let text = self.text;
            if !self.term(&text[from..to]) {
                continue;
            }
            let t = &mut self.current;
            t.offset_from = from;
            t.offset_to = to;
            t.position = position;
            t.position_length = 1;
            return true;
        }
        false
    }

    fn token(&self) -> &Token {
        &self.current
    }

    fn token_mut(&mut self) -> &mut Token {
        &mut self.current
    }
}

impl Tokenizer for ScriptTokenizer {
    type TokenStream<'a> = ScriptStream<'a>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> ScriptStream<'a> {
        split_into(text, &mut self.spans);
        ScriptStream {
            text,
            spans: self.spans.iter(),
            position: 0,
            memo: &mut self.memo,
            word: &mut self.word,
            current: Token::default(),
        }
    }
}

/// The analyzer of the text field, version [`ANALYZER_VERSION`], for a few texts (a query, the
/// hits of a recall): [`SplitTokenizer`] and steps 2-4 as filters over its stream, without memo.
/// Its terms are [`indexing_analyzer`]'s (proptest `the_analyzer_matches_the_full_chain`).
pub fn analyzer() -> TextAnalyzer {
    static ANALYZER: std::sync::OnceLock<TextAnalyzer> = std::sync::OnceLock::new();
    ANALYZER
        .get_or_init(|| with_filters(SplitTokenizer::default()))
        .clone()
}

/// `tokenizer` followed by steps 2-4 of the module documentation.
fn with_filters<T: Tokenizer>(tokenizer: T) -> TextAnalyzer {
    let mut b = TextAnalyzer::builder(tokenizer)
        .filter(LowerCaser)
        .filter(AsciiFoldingFilter)
        .dynamic();
    for lang in [Language::English, Language::Russian] {
        if let Some(stop) = StopWordFilter::new(lang) {
            b = b.filter_dynamic(stop);
        }
    }
    b.filter_dynamic(ScriptStemmer).build()
}

/// Step 1 of the module documentation alone: the raw tokens of a text, for the filters of
/// [`analyzer`].
#[derive(Clone, Default)]
pub struct SplitTokenizer {
    /// The spans of the text being tokenized (reused between texts).
    spans: Vec<(usize, usize)>,
}

/// The token stream of [`SplitTokenizer`].
pub struct SplitStream<'a> {
    text: &'a str,
    spans: std::iter::Enumerate<std::slice::Iter<'a, (usize, usize)>>,
    current: Token,
}

impl TokenStream for SplitStream<'_> {
    fn advance(&mut self) -> bool {
        let Some((position, &(from, to))) = self.spans.next() else {
            return false;
        };
        let t = &mut self.current;
        t.text.clear();
        t.text.push_str(&self.text[from..to]);
        t.offset_from = from;
        t.offset_to = to;
        t.position = position;
        t.position_length = 1;
        true
    }

    fn token(&self) -> &Token {
        &self.current
    }

    fn token_mut(&mut self) -> &mut Token {
        &mut self.current
    }
}

impl Tokenizer for SplitTokenizer {
    type TokenStream<'a> = SplitStream<'a>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> SplitStream<'a> {
        split_into(text, &mut self.spans);
        SplitStream {
            text,
            spans: self.spans.iter().enumerate(),
            current: Token::default(),
        }
    }
}

/// The same analyzer for many texts (indexing): a [`ScriptTokenizer`] that remembers each
/// word's term. Its terms are [`analyzer`]'s.
pub fn indexing_analyzer() -> TextAnalyzer {
    TextAnalyzer::from(ScriptTokenizer::default())
}

/// Steps 2-4 of the module documentation on one raw token (the whole input), built once per
/// process.
fn word_analyzer() -> TextAnalyzer {
    static WORD: std::sync::OnceLock<TextAnalyzer> = std::sync::OnceLock::new();
    WORD.get_or_init(|| with_filters(RawTokenizer::default()))
        .clone()
}

/// The stemmers of step 4, in the order they are chained.
const STEMMERS: [Algorithm; 4] = [
    Algorithm::English,
    Algorithm::Russian,
    Algorithm::Greek,
    Algorithm::Arabic,
];

/// Step 4 of the module documentation as one filter: the Snowball stemmers for English,
/// Russian, Greek and Arabic chained in that order, except that an ASCII token goes through the
/// English stemmer only. The Russian, Greek and Arabic stemmers act only on letters of their own script and leave an
/// ASCII token as it is, so the terms are the chain's (proptest
/// `the_analyzer_matches_the_full_chain`); skipping them saves most of the indexing thread's
/// stemming time on Latin text.
#[derive(Clone, Copy, Default)]
pub struct ScriptStemmer;

impl TokenFilter for ScriptStemmer {
    type Tokenizer<T: Tokenizer> = ScriptStemmerFilter<T>;

    fn transform<T: Tokenizer>(self, tokenizer: T) -> ScriptStemmerFilter<T> {
        ScriptStemmerFilter { inner: tokenizer }
    }
}

/// The tokenizer [`ScriptStemmer`] wraps around the steps before it.
#[derive(Clone)]
pub struct ScriptStemmerFilter<T> {
    inner: T,
}

impl<T: Tokenizer> Tokenizer for ScriptStemmerFilter<T> {
    type TokenStream<'a> = ScriptStemmerStream<T::TokenStream<'a>>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> Self::TokenStream<'a> {
        ScriptStemmerStream {
            tail: self.inner.token_stream(text),
            stemmers: STEMMERS.map(frostem::Stemmer::new),
        }
    }
}

/// The token stream of [`ScriptStemmerFilter`].
pub struct ScriptStemmerStream<S> {
    tail: S,
    stemmers: [frostem::Stemmer; 4],
}

impl<S: TokenStream> TokenStream for ScriptStemmerStream<S> {
    fn advance(&mut self) -> bool {
        if !self.tail.advance() {
            return false;
        }
        let token = self.tail.token_mut();
        let n = if token.text.is_ascii() {
            1
        } else {
            STEMMERS.len()
        };
        for stemmer in &self.stemmers[..n] {
            if let Cow::Owned(stemmed) = stemmer.stem(&token.text) {
                token.text = stemmed;
            }
        }
        true
    }

    fn token(&self) -> &Token {
        self.tail.token()
    }

    fn token_mut(&mut self) -> &mut Token {
        self.tail.token_mut()
    }
}

/// The analyzed terms of `text`, in order, with repeats.
pub fn terms(text: &str) -> Vec<String> {
    let mut a = analyzer();
    let mut stream = a.token_stream(text);
    let mut out = Vec::new();
    while let Some(t) = stream.next() {
        out.push(t.text.clone());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_is_stemmed_and_stop_words_dropped() {
        assert_eq!(
            terms("The suppliers were running late"),
            vec!["supplier", "were", "run", "late"]
        );
        assert_eq!(terms("Café DÉJÀ vu"), vec!["cafe", "deja", "vu"]);
    }

    #[test]
    fn cjk_runs_become_bigrams() {
        assert_eq!(
            terms("我在北京大学"),
            vec!["我在", "在北", "北京", "京大", "大学"]
        );
        assert_eq!(terms("東京"), vec!["東京"]);
        assert_eq!(terms("猫"), vec!["猫"]);
        // Japanese kana and Korean hangul too; latin words next to CJK stay words.
        assert_eq!(terms("iPhone手机"), vec!["iphon", "手机"]);
        assert_eq!(terms("서울 날씨"), vec!["서울", "날씨"]);
        assert_eq!(terms("カタカナ"), vec!["カタ", "タカ", "カナ"]);
    }

    /// Step 1 as first written: a vector of the text's characters, one `String` per token.
    fn reference_split(text: &str) -> Vec<Token> {
        let mut out: Vec<Token> = Vec::new();
        let mut position = 0usize;
        let mut push = |from: usize, to: usize, out: &mut Vec<Token>| {
            out.push(Token {
                offset_from: from,
                offset_to: to,
                position,
                text: text[from..to].to_string(),
                position_length: 1,
            });
            position += 1;
        };
        let chars: Vec<(usize, char)> = text.char_indices().collect();
        let end_of = |i: usize| chars.get(i).map_or(text.len(), |c| c.0);
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i].1;
            if is_cjk(c) {
                let start = i;
                while i < chars.len() && is_cjk(chars[i].1) {
                    i += 1;
                }
                if i - start == 1 {
                    push(chars[start].0, end_of(start + 1), &mut out);
                } else {
                    for (j, &(at, _)) in chars.iter().enumerate().take(i - 1).skip(start) {
                        push(at, end_of(j + 2), &mut out);
                    }
                }
            } else if c.is_alphanumeric() {
                let start = i;
                while i < chars.len() && chars[i].1.is_alphanumeric() && !is_cjk(chars[i].1) {
                    i += 1;
                }
                push(chars[start].0, end_of(i), &mut out);
            } else {
                i += 1;
            }
        }
        out
    }

    /// A tokenizer emitting [`reference_split`]'s tokens.
    #[derive(Clone)]
    struct ReferenceSplit;

    struct ReferenceStream {
        tokens: std::vec::IntoIter<Token>,
        current: Token,
    }

    impl TokenStream for ReferenceStream {
        fn advance(&mut self) -> bool {
            match self.tokens.next() {
                Some(t) => {
                    self.current = t;
                    true
                }
                None => false,
            }
        }

        fn token(&self) -> &Token {
            &self.current
        }

        fn token_mut(&mut self) -> &mut Token {
            &mut self.current
        }
    }

    impl Tokenizer for ReferenceSplit {
        type TokenStream<'a> = ReferenceStream;

        fn token_stream<'a>(&'a mut self, text: &'a str) -> ReferenceStream {
            ReferenceStream {
                tokens: reference_split(text).into_iter(),
                current: Token::default(),
            }
        }
    }

    /// The analyzer as first written: the reference split, then the filters over the whole
    /// stream, the four stemmers chained on every token.
    fn full_chain() -> TextAnalyzer {
        let mut b = TextAnalyzer::builder(ReferenceSplit)
            .filter(LowerCaser)
            .filter(AsciiFoldingFilter)
            .dynamic();
        for lang in [Language::English, Language::Russian] {
            if let Some(stop) = StopWordFilter::new(lang) {
                b = b.filter_dynamic(stop);
            }
        }
        for lang in [
            Language::English,
            Language::Russian,
            Language::Greek,
            Language::Arabic,
        ] {
            b = b.filter_dynamic(tantivy::tokenizer::Stemmer::new(lang));
        }
        b.build()
    }

    /// Every token of `text` under `a`: term, offsets and position.
    fn tokens_with(a: &mut TextAnalyzer, text: &str) -> Vec<(String, usize, usize, usize)> {
        let mut stream = a.token_stream(text);
        let mut out = Vec::new();
        while let Some(t) = stream.next() {
            out.push((t.text.clone(), t.offset_from, t.offset_to, t.position));
        }
        out
    }

    fn terms_with(mut a: TextAnalyzer, text: &str) -> Vec<String> {
        let mut stream = a.token_stream(text);
        let mut out = Vec::new();
        while let Some(t) = stream.next() {
            out.push(t.text.clone());
        }
        out
    }

    proptest::proptest! {
        #[test]
        fn the_analyzer_matches_the_full_chain(
            latin in "[a-zA-Z0-9 ]{0,80}",
            any in "\\PC{0,40}",
            mixed in "[a-zA-Zа-яёΑ-Ωα-ωء-ي ]{0,60}",
        ) {
            for text in [&latin, &any, &mixed] {
                let (ours, first) = (split(text), reference_split(text));
                let key = |t: &Token| (t.text.clone(), t.offset_from, t.offset_to, t.position);
                proptest::prop_assert_eq!(
                    ours.iter().map(key).collect::<Vec<_>>(),
                    first.iter().map(key).collect::<Vec<_>>()
                );
            }
            // One analyzer for all three texts, twice: the second pass reads its memo.
            let mut memo = indexing_analyzer();
            for text in [&latin, &any, &mixed, &latin, &any, &mixed] {
                proptest::prop_assert_eq!(terms_with(full_chain(), text), terms(text));
                proptest::prop_assert_eq!(
                    tokens_with(&mut full_chain(), text),
                    tokens_with(&mut memo, text)
                );
            }
        }
    }

    #[test]
    fn script_stemmer_matches_the_full_chain_on_words_with_suffixes() {
        let text = "generalizations running happily agreed relational conditional \
                    hopefulness formalize electricity adjustable irritant replacement \
                    communism activate angulariti homologous effective bowdlerize \
                    книги журналы καλημέρα ανθρώπους المكتبات والكتاب café naïve";
        assert_eq!(terms_with(full_chain(), text), terms(text));
    }

    #[test]
    fn each_script_gets_its_own_stemmer() {
        let ru = terms("книги и журналы");
        assert_eq!(ru, vec!["книг", "журнал"]);
        // Identifiers and numbers pass through.
        assert_eq!(terms("TXN-88213 at 4417"), vec!["txn", "88213", "4417"]);
    }
}
