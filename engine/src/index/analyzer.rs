//! The BM25 analyzer: how row texts and queries become index terms.
//!
//! One analyzer serves indexing and querying, so a query term matches exactly the row terms it
//! should. Steps:
//!
//! 1. **Split** ([`ScriptTokenizer`]): runs of letters and digits outside the CJK scripts are
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
//! The analyzer has a version, [`ANALYZER_VERSION`], which is the name the tantivy schema gives
//! the text field's tokenizer and is therefore stored in the store's index metadata. An index
//! built by another version has another schema: a writable open rebuilds it from the rows, a
//! read-only open indexes in memory. The canonical match keys ([`super::keys`]) are analyzed
//! separately and are unchanged.

use std::borrow::Cow;

use frostem::Algorithm;
use tantivy::tokenizer::{
    AsciiFoldingFilter, Language, LowerCaser, StopWordFilter, TextAnalyzer, Token, TokenFilter,
    TokenStream, Tokenizer,
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

/// Splits text into words and CJK bigrams (step 1 of the module documentation).
#[derive(Clone, Default)]
pub struct ScriptTokenizer;

/// The token stream [`ScriptTokenizer`] hands to the filters: owns its tokens.
pub struct OwnedStream {
    tokens: std::vec::IntoIter<Token>,
    current: Token,
}

impl TokenStream for OwnedStream {
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

/// The raw tokens of `text`: words and CJK bigrams with byte offsets and positions.
pub fn split(text: &str) -> Vec<Token> {
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

impl Tokenizer for ScriptTokenizer {
    type TokenStream<'a> = OwnedStream;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> OwnedStream {
        OwnedStream {
            tokens: split(text).into_iter(),
            current: Token::default(),
        }
    }
}

/// The analyzer of the text field, version [`ANALYZER_VERSION`] (built once per process).
pub fn analyzer() -> TextAnalyzer {
    static ANALYZER: std::sync::OnceLock<TextAnalyzer> = std::sync::OnceLock::new();
    ANALYZER.get_or_init(build).clone()
}

fn build() -> TextAnalyzer {
    let mut b = TextAnalyzer::builder(ScriptTokenizer)
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

/// The stemmers of step 4, in the order they are chained.
const STEMMERS: [Algorithm; 4] = [
    Algorithm::English,
    Algorithm::Russian,
    Algorithm::Greek,
    Algorithm::Arabic,
];

/// Step 4 of the module documentation as one filter: the Snowball stemmers for English,
/// Russian, Greek and Arabic chained in that order, except that an ASCII token goes through the English stemmer only.
/// The Russian, Greek and Arabic stemmers act only on letters of their own script and leave an
/// ASCII token as it is, so the terms are the chain's (proptest
/// `script_stemmer_matches_the_full_chain`); skipping them saves most of the indexing thread's
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

    /// The analyzer as first written: the four stemmers chained on every token.
    fn full_chain() -> TextAnalyzer {
        let mut b = TextAnalyzer::builder(ScriptTokenizer)
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
        fn script_stemmer_matches_the_full_chain(
            latin in "[a-zA-Z0-9 ]{0,80}",
            any in "\\PC{0,40}",
            mixed in "[a-zA-Zа-яёΑ-Ωα-ωء-ي ]{0,60}",
        ) {
            for text in [&latin, &any, &mixed] {
                proptest::prop_assert_eq!(terms_with(full_chain(), text), terms(text));
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
