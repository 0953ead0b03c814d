//! The language layer of oubli, usable on its own: pure, deterministic functions from text to
//! comparable pieces, with no storage and no model.
//!
//! - [`canon`]: canonicalization of identifiers and names across obfuscation, formatting and
//!   scripts (fold, transliterate, chunks, typed identifiers, name variants), versioned by
//!   [`canon::CANONICALIZER_VERSION`].
//! - [`text`]: normalization, word tokens and stop words, shared by the embedder and BM25.
//! - [`clause`]: the clauses of a row and how to rewrite it without some of them.
//! - [`lexicon`], [`concepts`], [`function_words`], [`latin_function_words`], [`derivation`],
//!   [`case_suffix`], [`spelling`]: small general-language resources (attribute slots,
//!   cross-lingual attribute concepts, grammar and request words of many languages, English
//!   nouns and the words they derive from, noun phrases a case suffix ends, British and
//!   American spellings) that request targeting reads.
//!
//! The engine (`oubli-db`) re-exports every module under the same name, so `oubli::canon` and
//! `oubli_lang::canon` are one module.
//!
//! ```
//! use oubli_lang::canon;
//! // A Cyrillic homoglyph and full-width digits fold away.
//! assert_eq!(canon::code("ТХN-４４８１"), canon::code("txn 4481"));
//! ```

pub mod canon;
pub mod case_suffix;
pub mod clause;
pub mod concepts;
pub mod derivation;
pub mod function_words;
pub mod latin_function_words;
pub mod lexicon;
pub mod spelling;
pub mod text;
