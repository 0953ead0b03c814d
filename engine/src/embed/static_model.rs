//! The built-in semantic embedder: a static token table distilled from all-MiniLM-L6-v2.
//!
//! The table ships inside the crate (`engine/assets/minilm-static.bin`, loaded with
//! `include_bytes!`): no file lookup, no network. A text's vector is the mean of its WordPiece
//! tokens' rows, L2-normalized, so embedding a sentence costs a tokenization and a few hundred
//! multiply-adds per token. How the table was made (the model2vec recipe) and how to rebuild it:
//! `docs/embedder.md`.
//!
//! Words the vocabulary cannot spell at all (BERT's `[UNK]`: rare scripts, symbols) do not
//! vanish: each contributes a pseudo-random row derived from a hash of the word, as the hash
//! embedder does, so two texts sharing such a word still come out closer.
//!
//! Asset layout (all little-endian): magic `OUBLIST1`, `u32` vocabulary size `n`, `u32`
//! dimension `d`, `u32` byte length of the vocabulary, the vocabulary (one token per line, line
//! number = id), `n` `f32` row scales, then `n * d` `i8` values, row-major. Row `i` is
//! `scale[i] * values[i*d..(i+1)*d]`.

use std::sync::{Arc, OnceLock};

use super::Embedder;
use super::wordpiece::{Piece, WordPiece};
use crate::error::{Error, Result};

/// The distilled table, as shipped.
static ASSET: &[u8] = include_bytes!("../../assets/minilm-static.bin");
const MAGIC: &[u8; 8] = b"OUBLIST1";
/// The first 12 hex digits of the shipped table's BLAKE3 hash, part of the embedder's id. Pinned
/// here so that a process does not hash 8 MB before its first open (a test checks it against
/// the asset: a rebuilt table must update it).
const ASSET_DIGEST: &str = "69cd5c4dab33";

/// A static embedding table and its WordPiece vocabulary.
#[derive(Debug)]
pub struct StaticModel {
    /// The vocabulary, one token per line.
    vocab: &'static str,
    /// The tokenizer over `vocab`, built the first time it is needed (its hash map is most of
    /// what loading the table costs, which a caller choosing another embedder never needs).
    wordpiece: OnceLock<WordPiece<'static>>,
    dim: usize,
    scales: Vec<f32>,
    values: &'static [u8],
    /// Norm given to the hashed row of an unknown word: the median row norm, computed the first
    /// time an unknown word is met (a pass over the whole table).
    unknown_norm: OnceLock<f32>,
    id: String,
}

fn take<'a>(bytes: &mut &'a [u8], n: usize) -> Result<&'a [u8]> {
    if bytes.len() < n {
        return Err(Error::Embedder("static embedder table is truncated".into()));
    }
    let (head, tail) = bytes.split_at(n);
    *bytes = tail;
    Ok(head)
}

fn read_u32(bytes: &mut &[u8]) -> Result<u32> {
    let b = take(bytes, 4)?;
    Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

impl StaticModel {
    /// Parses a table in the asset layout (see the module documentation).
    pub fn parse(bytes: &'static [u8]) -> Result<StaticModel> {
        Self::parse_with_digest(bytes, &blake3::hash(bytes).to_hex()[..12])
    }

    /// [`Self::parse`], with the first 12 hex digits of the table's BLAKE3 hash given.
    fn parse_with_digest(bytes: &'static [u8], digest: &str) -> Result<StaticModel> {
        let mut rest = bytes;
        if take(&mut rest, 8)? != MAGIC {
            return Err(Error::Embedder(
                "static embedder table has a bad magic".into(),
            ));
        }
        let n = read_u32(&mut rest)? as usize;
        let dim = read_u32(&mut rest)? as usize;
        let vocab_len = read_u32(&mut rest)? as usize;
        let vocab = std::str::from_utf8(take(&mut rest, vocab_len)?)
            .map_err(|_| Error::Embedder("static embedder vocabulary is not UTF-8".into()))?;
        if n == 0 || vocab.lines().count() != n || dim == 0 || dim > 8192 {
            return Err(Error::Embedder(
                "static embedder table: vocabulary size or dimension is inconsistent".into(),
            ));
        }
        let scales: Vec<f32> = take(&mut rest, 4 * n)?
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let raw = take(&mut rest, n * dim)?;
        if !rest.is_empty() || scales.iter().any(|s| !s.is_finite()) {
            return Err(Error::Embedder(
                "static embedder table has trailing bytes or bad scales".into(),
            ));
        }
        // The values stay in the asset's bytes; each is read back as an i8 when used.
        let values: &'static [u8] = raw;
        Ok(StaticModel {
            vocab,
            wordpiece: OnceLock::new(),
            dim,
            scales,
            values,
            unknown_norm: OnceLock::new(),
            id: format!("oubli-minilm-static-v1-{dim}:{digest}"),
        })
    }

    /// The median of the table's row norms (at least 1e-6).
    fn unknown_norm(&self) -> f32 {
        *self.unknown_norm.get_or_init(|| {
            let dim = self.dim;
            let mut norms: Vec<f32> = (0..self.scales.len())
                .map(|i| {
                    let row = &self.values[i * dim..(i + 1) * dim];
                    self.scales[i]
                        * row
                            .iter()
                            .map(|v| (*v as i8 as f32).powi(2))
                            .sum::<f32>()
                            .sqrt()
                })
                .collect();
            norms.sort_by(f32::total_cmp);
            norms[norms.len() / 2].max(1e-6)
        })
    }

    /// The table shipped in the crate, parsed once per process.
    pub fn builtin() -> Result<Arc<StaticModel>> {
        static MODEL: OnceLock<std::result::Result<Arc<StaticModel>, String>> = OnceLock::new();
        MODEL
            .get_or_init(|| {
                StaticModel::parse_with_digest(ASSET, ASSET_DIGEST)
                    .map(Arc::new)
                    .map_err(|e| e.to_string())
            })
            .clone()
            .map_err(Error::Embedder)
    }

    /// The tokenizer over the table's vocabulary.
    pub fn wordpiece(&self) -> &WordPiece<'static> {
        self.wordpiece.get_or_init(|| WordPiece::new(self.vocab))
    }

    fn add_row(&self, acc: &mut [f32], id: u32) {
        let i = id as usize;
        let s = self.scales[i];
        let row = &self.values[i * self.dim..(i + 1) * self.dim];
        for (a, v) in acc.iter_mut().zip(row) {
            *a += s * (*v as i8) as f32;
        }
    }

    fn add_hashed(&self, acc: &mut [f32], word: &str) {
        let mut xof = blake3::Hasher::new();
        xof.update(b"oubli-static-unk:");
        xof.update(word.as_bytes());
        let mut reader = xof.finalize_xof();
        let mut bytes = vec![0u8; self.dim];
        reader.fill(&mut bytes);
        // Uniform values in [-1, 1) have an expected square of 1/3 per dimension.
        let scale = self.unknown_norm() / (self.dim as f32 / 3.0).sqrt();
        for (a, b) in acc.iter_mut().zip(bytes) {
            *a += scale * ((b as f32 - 127.5) / 128.0);
        }
    }
}

/// The default embedder: the static MiniLM table ([`StaticModel::builtin`]).
#[derive(Debug, Clone)]
pub struct StaticEmbedder {
    model: Arc<StaticModel>,
}

impl StaticEmbedder {
    /// The built-in table. Fails only if the shipped asset is damaged.
    pub fn new() -> Result<StaticEmbedder> {
        Ok(StaticEmbedder {
            model: StaticModel::builtin()?,
        })
    }

    /// The underlying table.
    pub fn model(&self) -> &StaticModel {
        &self.model
    }
}

impl Embedder for StaticEmbedder {
    fn id(&self) -> String {
        self.model.id.clone()
    }

    fn dim(&self) -> usize {
        self.model.dim
    }

    fn warm_up(&self) {
        self.model.wordpiece();
    }

    fn embeds_words(&self) -> bool {
        true
    }

    fn embed(&self, text: &str) -> Result<Vec<f32>> {
        let m = &self.model;
        let mut v = vec![0f32; m.dim];
        let mut count = 0usize;
        m.wordpiece().for_each_piece(text, |p| {
            match p {
                Piece::Known(id) => m.add_row(&mut v, id),
                Piece::Unknown(word) => m.add_hashed(&mut v, word),
            }
            count += 1;
        });
        if count == 0 {
            // Text with no token still needs a usable, deterministic vector.
            m.add_hashed(&mut v, "");
        }
        let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        if norm > 0.0 && norm.is_finite() {
            v.iter_mut().for_each(|x| *x /= norm);
            Ok(v)
        } else {
            // Tokens whose rows cancel exactly: fall back to the hashed row of the text.
            let mut v = vec![0f32; m.dim];
            m.add_hashed(&mut v, text);
            let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-12);
            v.iter_mut().for_each(|x| *x /= norm);
            Ok(v)
        }
    }

    /// Each text's vector depends on that text alone: computed on several threads, in order.
    fn embed_batch(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        crate::parallel::map(texts, |t| self.embed(t))
            .into_iter()
            .collect()
    }

    fn similarity_range(&self) -> (f32, f32) {
        STATIC_SIMILARITY_RANGE
    }
}

/// Cosine of unrelated texts and of a clear match for [`StaticEmbedder`] (see
/// [`Embedder::similarity_range`]). A prior, not yet checked by `oubli-bench recall-quality`
/// (see `docs/recall.md`).
pub const STATIC_SIMILARITY_RANGE: (f32, f32) = (0.25, 0.85);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::embed::dot;

    fn e() -> StaticEmbedder {
        StaticEmbedder::new().unwrap()
    }

    /// The pinned digest is the shipped table's: the embedder id (which every store records and
    /// checks at open) is the same as `parse` computes from the bytes.
    #[test]
    fn pinned_digest_is_the_assets_hash() {
        assert_eq!(ASSET_DIGEST, &blake3::hash(ASSET).to_hex()[..12]);
        let parsed = StaticModel::parse(ASSET).unwrap();
        assert_eq!(parsed.id, StaticModel::builtin().unwrap().id);
        // The median row norm an unknown word gets is positive and the same on every call.
        let norm = parsed.unknown_norm();
        assert!(norm > 1e-6 && norm.is_finite());
        assert_eq!(norm.to_bits(), parsed.unknown_norm().to_bits());
    }

    #[test]
    fn deterministic_unit_vectors_of_the_table_dimension() {
        let e = e();
        let a = e.embed("Alice's PIN is 4417").unwrap();
        assert_eq!(a, e.embed("Alice's PIN is 4417").unwrap());
        assert_eq!(a.len(), e.dim());
        let n: f32 = a.iter().map(|x| x * x).sum();
        assert!((n - 1.0).abs() < 1e-4);
        assert!(e.embed("").unwrap().iter().all(|x| x.is_finite()));
        assert!(e.embed("   ").unwrap().iter().any(|x| *x != 0.0));
    }

    #[test]
    fn paraphrases_are_closer_than_unrelated_text() {
        let e = e();
        let q = e.embed("what car does she drive").unwrap();
        let hit = e.embed("her vehicle is a red sedan").unwrap();
        let miss = e
            .embed("the quarterly budget meeting moved to friday")
            .unwrap();
        assert!(dot(&q, &hit) > dot(&q, &miss));
        let q = e.embed("is it going to rain tomorrow").unwrap();
        let hit = e.embed("the weather forecast predicts showers").unwrap();
        let miss = e.embed("the staging password is hunter2").unwrap();
        assert!(dot(&q, &hit) > dot(&q, &miss));
    }

    #[test]
    fn unknown_words_still_pull_texts_together() {
        let e = e();
        // Characters outside BERT's vocabulary become [UNK]; their hashed rows still match.
        let a = e.embed("𓀀𓀁 meeting").unwrap();
        let b = e.embed("𓀀𓀁 report").unwrap();
        let c = e.embed("𓂀𓂁 report").unwrap();
        assert!(dot(&a, &b) > dot(&a, &c));
        assert_ne!(e.embed("𓀀𓀁").unwrap(), e.embed("𓂀𓂁").unwrap());
    }

    #[test]
    fn a_damaged_table_is_a_typed_error() {
        assert!(matches!(
            StaticModel::parse(b"OUBLIST1\x01"),
            Err(Error::Embedder(_))
        ));
        assert!(matches!(
            StaticModel::parse(b"NOTATABLE"),
            Err(Error::Embedder(_))
        ));
    }
}
