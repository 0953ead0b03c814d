//! Embeddings: the [`Embedder`] trait, the default [`StaticEmbedder`] (a token table distilled
//! from all-MiniLM-L6-v2, see [`static_model`]) and the [`HashEmbedder`].

use std::sync::Arc;

use crate::error::{Error, Result};
use crate::text;

pub mod static_model;
pub mod wordpiece;

pub use static_model::StaticEmbedder;

/// Turns text into a fixed-length vector. Implementations must be deterministic: the same text
/// always gives the same vector.
pub trait Embedder: Send + Sync {
    /// A stable identifier recorded in the store; opening a store with another id fails.
    fn id(&self) -> String;
    /// Vector length.
    fn dim(&self) -> usize;
    /// Embeds one text.
    fn embed(&self, text: &str) -> Result<Vec<f32>>;
    /// Embeds many texts; override when batching is faster.
    fn embed_batch(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        texts.iter().map(|t| self.embed(t)).collect()
    }
    /// Calibration of cosine similarity into recall's relevance score: `(unrelated, match)`.
    /// A cosine at or below `unrelated` (typical of two texts on different topics) scores 0 in
    /// the vector leg, one at or above `match` (a clear paraphrase) scores 1, linear between.
    /// The default `(0.0, 1.0)` takes the cosine itself, clipped at 0.
    fn similarity_range(&self) -> (f32, f32) {
        (0.0, 1.0)
    }
    /// Builds what the first [`Embedder::embed`] would otherwise build (tables parsed on first
    /// use). A store calls it on a second thread while it opens, so that the first query does
    /// not pay for it; the default does nothing.
    fn warm_up(&self) {}
    /// True when the vector of a text is built from its words alone and embedding a short text
    /// takes microseconds (a token table, a hash of n-grams). Recall then measures the meaning
    /// a lexical candidate adds beyond the query words it holds by embedding what is left of
    /// both texts once those words are taken out (see `docs/recall.md`, "Fusion and scores");
    /// for other embedders it uses the whole texts' cosine. The default is `false`.
    fn embeds_words(&self) -> bool {
        false
    }
}

/// The embedder of a new store when none is chosen: the static MiniLM table.
pub fn default_embedder() -> Arc<dyn Embedder> {
    match StaticEmbedder::new() {
        Ok(e) => Arc::new(e),
        // The shipped table is checked by the tests; should it ever fail to parse, the store
        // still works with the hash embedder (and records that id).
        Err(_) => Arc::new(HashEmbedder::default()),
    }
}

/// The built-in embedder whose [`Embedder::id`] is `id`, if `id` names one: how a store created
/// with a built-in embedder reopens with it although the caller chose none.
pub fn builtin_for_id(id: &str) -> Option<Arc<dyn Embedder>> {
    if let Some(dim) = id.strip_prefix("oubli-hash-v1-") {
        let dim = dim.parse().ok()?;
        return HashEmbedder::new(dim)
            .ok()
            .map(|e| Arc::new(e) as Arc<dyn Embedder>);
    }
    let e = StaticEmbedder::new().ok()?;
    (e.id() == id).then(|| Arc::new(e) as Arc<dyn Embedder>)
}

/// The hash embedder (the default before the static table): feature hashing of words, word pairs and character trigrams into a
/// signed sparse-to-dense vector. Needs no model and no network.
///
/// Identifier-like tokens (containing digits, or long) weigh more than common words, stopwords
/// weigh little, so "TXN-12345" and a rare surname pull harder than "the" or "is". It captures
/// lexical and morphological similarity (shared words, shared stems through trigrams), not
/// meaning: pair it with a real model for paraphrase recall.
#[derive(Debug, Clone)]
pub struct HashEmbedder {
    dim: usize,
}

/// Dimension of [`HashEmbedder::default`].
pub const DEFAULT_DIM: usize = 384;

impl Default for HashEmbedder {
    fn default() -> Self {
        HashEmbedder { dim: DEFAULT_DIM }
    }
}

impl HashEmbedder {
    /// A hash embedder of `dim` dimensions (at least 16).
    pub fn new(dim: usize) -> Result<Self> {
        if !(16..=8192).contains(&dim) {
            return Err(Error::InvalidArgument(format!(
                "hash embedder dimension {dim} is outside 16..=8192"
            )));
        }
        Ok(HashEmbedder { dim })
    }

    fn add(&self, v: &mut [f32], feature: &[u8], weight: f32) {
        let h = blake3::hash(feature);
        let b = h.as_bytes();
        // Two hashed slots per feature lower the cost of collisions.
        for pair in [&b[0..8], &b[8..16]] {
            let x = u64::from_le_bytes(pair.try_into().expect("8 bytes"));
            let idx = (x % self.dim as u64) as usize;
            let sign = if (x >> 63) == 1 { -1.0 } else { 1.0 };
            v[idx] += sign * weight;
        }
    }
}

fn token_weight(tok: &str) -> f32 {
    if text::is_stopword(tok) {
        return 0.15;
    }
    let n = tok.chars().count() as f32;
    let has_digit = tok.chars().any(|c| c.is_numeric());
    let base = 1.0 + (n.min(12.0) / 6.0);
    if has_digit { base * 1.6 } else { base }
}

impl Embedder for HashEmbedder {
    fn id(&self) -> String {
        format!("oubli-hash-v1-{}", self.dim)
    }

    fn dim(&self) -> usize {
        self.dim
    }

    fn similarity_range(&self) -> (f32, f32) {
        (0.0, 0.8)
    }

    fn embeds_words(&self) -> bool {
        true
    }

    fn embed(&self, input: &str) -> Result<Vec<f32>> {
        let mut v = vec![0f32; self.dim];
        let toks = text::tokens(input);
        for (i, tok) in toks.iter().enumerate() {
            let w = token_weight(tok);
            let mut f = Vec::with_capacity(tok.len() + 2);
            f.extend_from_slice(b"w:");
            f.extend_from_slice(tok.as_bytes());
            self.add(&mut v, &f, w);
            // Character trigrams over the padded word give morphology (supplier/suppliers).
            let chars: Vec<char> = format!("^{tok}$").chars().collect();
            if chars.len() > 4 {
                let n = (chars.len() - 2) as f32;
                for tri in chars.windows(3) {
                    let s: String = tri.iter().collect();
                    self.add(&mut v, format!("t:{s}").as_bytes(), 0.5 * w / n.sqrt());
                }
            }
            if let Some(next) = toks.get(i + 1) {
                let w2 = 0.5 * w.min(token_weight(next));
                self.add(&mut v, format!("b:{tok} {next}").as_bytes(), w2);
            }
        }
        let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        if norm > 0.0 {
            v.iter_mut().for_each(|x| *x /= norm);
        } else {
            // Text with no alphanumeric token still needs a usable, deterministic vector.
            self.add(&mut v, b"empty", 1.0);
            let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
            v.iter_mut().for_each(|x| *x /= norm);
        }
        Ok(v)
    }

    /// Each text's vector depends on that text alone: computed on several threads, in order.
    fn embed_batch(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        crate::parallel::map(texts, |t| self.embed(t))
            .into_iter()
            .collect()
    }
}

/// Checks a vector for the store: right length, finite, not all zero. Returns it L2-normalized.
pub fn check_vector(v: &[f32], dim: usize) -> Result<Vec<f32>> {
    if v.len() != dim {
        return Err(Error::DimensionMismatch {
            expected: dim,
            got: v.len(),
        });
    }
    if v.iter().any(|x| !x.is_finite()) {
        return Err(Error::InvalidVector("contains NaN or infinity"));
    }
    let norm = v
        .iter()
        .map(|x| (*x as f64) * (*x as f64))
        .sum::<f64>()
        .sqrt();
    if norm == 0.0 || !norm.is_finite() {
        return Err(Error::InvalidVector("has zero length"));
    }
    Ok(v.iter().map(|x| (*x as f64 / norm) as f32).collect())
}

/// Dot product; vectors in the store are unit length, so this is cosine similarity.
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_unit_length() {
        let e = HashEmbedder::default();
        let a = e.embed("Alice's PIN is 4417").unwrap();
        assert_eq!(a, e.embed("Alice's PIN is 4417").unwrap());
        let n: f32 = a.iter().map(|x| x * x).sum();
        assert!((n - 1.0).abs() < 1e-4);
    }

    #[test]
    fn shared_identifiers_are_closer_than_shared_filler() {
        let e = HashEmbedder::default();
        let q = e.embed("what is the code for TXN-88213").unwrap();
        let hit = e.embed("refund issued on TXN-88213 yesterday").unwrap();
        let miss = e.embed("what is the weather for the weekend").unwrap();
        assert!(dot(&q, &hit) > dot(&q, &miss));
    }

    #[test]
    fn rejects_bad_vectors() {
        assert!(matches!(
            check_vector(&[1.0, 2.0], 3),
            Err(Error::DimensionMismatch { .. })
        ));
        assert!(check_vector(&[f32::NAN, 1.0], 2).is_err());
        assert!(check_vector(&[0.0, 0.0], 2).is_err());
        let v = check_vector(&[3.0, 4.0], 2).unwrap();
        assert!((v[0] - 0.6).abs() < 1e-6);
    }
}
