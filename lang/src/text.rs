//! Text analysis shared by the embedder and query targeting: normalization, tokens, stopwords.
//!
//! This is deliberately small and deterministic: plain Unicode word segmentation with NFKC and
//! lower-casing, used by the embedder and BM25. Identifier-aware canonicalization (e-mail,
//! phone, IBAN, transliteration, name variants) for targeting is [`crate::canon`].

use unicode_normalization::UnicodeNormalization;

/// NFKC, then lower case.
pub fn normalize(text: &str) -> String {
    text.nfkc().flat_map(char::to_lowercase).collect()
}

/// Word tokens of normalized text: maximal runs of alphanumeric characters. Apostrophes inside a
/// word are dropped so that "user's" and "users" meet.
pub fn tokens(text: &str) -> Vec<String> {
    let norm = normalize(text);
    let mut out = Vec::new();
    let mut cur = String::new();
    let chars: Vec<char> = norm.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_alphanumeric() {
            cur.push(c);
        } else if (c == '\'' || c == '’')
            && !cur.is_empty()
            && chars.get(i + 1).is_some_and(|n| n.is_alphanumeric())
        {
            // keep joining: "user's" -> "users"
        } else if !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// True for function words and query filler that carry no identity ("the", "about", "what").
pub fn is_stopword(token: &str) -> bool {
    STOPWORDS.binary_search(&token).is_ok()
}

/// Tokens that are not stopwords.
pub fn content_tokens(text: &str) -> Vec<String> {
    tokens(text)
        .into_iter()
        .filter(|t| !is_stopword(t))
        .collect()
}

/// Sorted list of English stopwords and query filler.
const STOPWORDS: &[&str] = &[
    "a",
    "about",
    "all",
    "also",
    "am",
    "an",
    "and",
    "any",
    "anything",
    "are",
    "as",
    "at",
    "be",
    "been",
    "being",
    "but",
    "by",
    "can",
    "could",
    "did",
    "do",
    "does",
    "doing",
    "everything",
    "for",
    "from",
    "had",
    "has",
    "have",
    "having",
    "he",
    "her",
    "here",
    "hers",
    "him",
    "his",
    "how",
    "i",
    "if",
    "in",
    "into",
    "is",
    "it",
    "its",
    "me",
    "my",
    "of",
    "on",
    "or",
    "our",
    "ours",
    "she",
    "so",
    "some",
    "than",
    "that",
    "the",
    "their",
    "theirs",
    "them",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "to",
    "us",
    "was",
    "we",
    "were",
    "what",
    "when",
    "where",
    "which",
    "who",
    "whom",
    "whose",
    "why",
    "will",
    "with",
    "would",
    "you",
    "your",
    "yours",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stopwords_sorted() {
        assert!(STOPWORDS.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn tokenizes() {
        assert_eq!(
            tokens("Alice's ＰＩＮ is 4417; e-mail ALICE@x.com"),
            vec![
                "alices", "pin", "is", "4417", "e", "mail", "alice", "x", "com"
            ]
        );
        assert_eq!(content_tokens("what is the pin"), vec!["pin"]);
    }
}
