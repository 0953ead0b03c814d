//! Salted commitments to erased content.
//!
//! A row's *content commitment* binds its full text; its *fragment commitments* bind each
//! distinct canonical word of it, so a data subject who knows only an identifier ("the e-mail
//! maria.keller@example.com") can check that an erased row contained it. Every commitment is
//! salted with the row's random 32-byte salt, which is erased with the row and handed only to the
//! data subject in the opening: without it, a commitment reveals nothing, even to brute force
//! over a small space such as phone numbers or PINs.

use unicode_normalization::UnicodeNormalization;

use crate::event::Hash32;

const CONTENT_CONTEXT: &str = "oubli 2026-11-21 content commitment v1";
const FRAGMENT_CONTEXT: &str = "oubli 2026-11-21 fragment commitment v1";

/// Version of the fragment canonicalization below; recorded in receipts.
pub const FRAGMENT_CANON_VERSION: &str = "oubli-fragments-v1";

/// blake3 derive-key (`oubli 2026-11-21 content commitment v1`) over `salt || utf8(text)`.
pub fn content(salt: &[u8; 32], text: &str) -> Hash32 {
    let mut h = blake3::Hasher::new_derive_key(CONTENT_CONTEXT);
    h.update(salt);
    h.update(text.as_bytes());
    *h.finalize().as_bytes()
}

/// blake3 derive-key (`oubli 2026-11-21 fragment commitment v1`) over `salt || utf8(word)`.
pub fn fragment(salt: &[u8; 32], word: &str) -> Hash32 {
    let mut h = blake3::Hasher::new_derive_key(FRAGMENT_CONTEXT);
    h.update(salt);
    h.update(word.as_bytes());
    *h.finalize().as_bytes()
}

/// The canonical words of a text: NFKC, lower case, maximal runs of alphanumeric characters,
/// deduplicated and sorted (so the commitments reveal no word order).
pub fn fragments(text: &str) -> Vec<String> {
    let norm: String = text.nfkc().flat_map(char::to_lowercase).collect();
    let mut words: Vec<String> = norm
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect();
    words.sort();
    words.dedup();
    words
}

/// The sorted fragment commitments of `text` under `salt`.
pub fn fragment_commitments(salt: &[u8; 32], text: &str) -> Vec<Hash32> {
    let mut out: Vec<Hash32> = fragments(text).iter().map(|w| fragment(salt, w)).collect();
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fragments_are_canonical() {
        assert_eq!(
            fragments("Maria's e-mail: MARIA.Keller@Example.com"),
            vec!["com", "e", "example", "keller", "mail", "maria", "s"]
        );
        let s = [1u8; 32];
        assert_ne!(content(&s, "a"), fragment(&s, "a"));
        assert_ne!(content(&s, "a"), content(&[2u8; 32], "a"));
    }
}
