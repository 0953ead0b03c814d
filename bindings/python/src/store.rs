//! `oubli.Store`: the store as a Python object. Every call releases the GIL while the engine
//! works, so threads sharing one store run concurrently (many readers, one writer).
//!
//! The class is defined here with opening, closing and its properties; its other methods live
//! by concept in the submodules (one `#[pymethods]` block each, with PyO3's
//! `multiple-pymethods` feature): `memory` (inscribe, get, recall, list), `forget`
//! (supersede, release, pin, resurface, purge, plan, scrub, decay), `audit` (history, events,
//! log verification, receipts) and `snapshot` (`Store.as_of` and `Snapshot`).

mod audit;
mod forget;
mod memory;
mod query;
mod snapshot;

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};

use oubli::{Store, StoreOptions, Target};

use crate::convert::{self, Utf8};
use crate::errors::to_py;

pub use snapshot::PySnapshot;

/// Runs `f` on the store with the GIL released and maps its error.
fn call<T: Send>(
    py: Python<'_>,
    store: &Arc<Store>,
    f: impl FnOnce(&Store) -> oubli::Result<T> + Send,
) -> PyResult<T> {
    py.detach(|| f(store)).map_err(to_py)
}

/// An oubli store: one file, opened in-process.
///
/// `Store(path)` opens the store at `path`, creating it if there is none (`create=True`
/// insists on a new file, `create=False` on an existing one). Use it as a context manager, or
/// call `close()`. One `Store` may be shared by many threads.
#[pyclass(frozen, name = "Store", module = "oubli")]
pub struct PyStore {
    pub(crate) inner: Arc<Store>,
    closed: AtomicBool,
}

impl PyStore {
    /// Reads the target of a mutating call (a `target` argument, or `key=` and `namespace=`)
    /// and runs `f` on it with the GIL released.
    fn on_target<T: Send>(
        &self,
        py: Python<'_>,
        target: Option<&Bound<'_, PyAny>>,
        key: Option<&Bound<'_, PyAny>>,
        namespace: Option<&Bound<'_, PyAny>>,
        f: impl FnOnce(&Store, Target) -> oubli::Result<T> + Send,
    ) -> PyResult<T> {
        let t = convert::target(target, key, namespace)?;
        call(py, &self.inner, |s| f(s, t))
    }
}

#[pymethods]
impl PyStore {
    #[new]
    #[pyo3(signature = (
        path, *, create = None, read_only = false, embedder = None, seed = None,
        signing_key = None, scrub_on_purge = true
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        path: PathBuf,
        create: Option<bool>,
        read_only: bool,
        embedder: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        signing_key: Option<&Bound<'_, PyAny>>,
        scrub_on_purge: bool,
    ) -> PyResult<Self> {
        let mut opts = StoreOptions::default()
            .embedder(crate::embed::resolve(embedder)?)
            .read_only(read_only)
            .scrub_on_purge(scrub_on_purge);
        if let Some(s) = convert::bytes32(seed, "seed")? {
            opts = opts.deterministic_seed(s);
        }
        if let Some(k) = convert::bytes32(signing_key, "signing_key")? {
            opts = opts.signing_key(k);
        }
        let store = py
            .detach(|| match create {
                Some(true) => Store::create_with(&path, opts),
                Some(false) => Store::open_with(&path, opts),
                None if read_only => Store::open_with(&path, opts),
                None => Store::open_or_create(&path, opts),
            })
            .map_err(to_py)?;
        Ok(PyStore {
            inner: Arc::new(store),
            closed: AtomicBool::new(false),
        })
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    #[pyo3(signature = (*_args))]
    fn __exit__(&self, py: Python<'_>, _args: &Bound<'_, PyTuple>) -> PyResult<bool> {
        self.close(py)?;
        Ok(false)
    }

    /// Closes the store. Later calls raise `StoreClosedError`; closing twice is fine.
    fn close(&self, py: Python<'_>) -> PyResult<()> {
        self.closed.store(true, Ordering::SeqCst);
        call(py, &self.inner, |s| s.close())
    }

    /// Whether `close()` was called.
    #[getter]
    fn closed(&self) -> bool {
        self.closed.load(Ordering::SeqCst)
    }

    /// The file the store lives in.
    #[getter]
    fn path(&self) -> PathBuf {
        self.inner.path().to_path_buf()
    }

    /// The store's ed25519 public key (32 bytes): give it to whoever verifies receipts.
    #[getter]
    fn public_key<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let k = call(py, &self.inner, |s| s.public_key())?;
        Ok(PyBytes::new(py, &k))
    }

    /// The identifier of the store's embedder.
    #[getter]
    fn embedder_id(&self) -> String {
        self.inner.embedder().id()
    }

    /// The store's vector dimension.
    #[getter]
    fn dim(&self) -> usize {
        self.inner.embedder().dim()
    }

    /// Embeds `text` with the store's embedder.
    fn embed(&self, py: Python<'_>, text: Utf8) -> PyResult<Vec<f32>> {
        let e = self.inner.embedder();
        py.detach(|| e.embed(&text.0)).map_err(to_py)
    }

    fn __repr__(&self) -> String {
        format!(
            "Store({:?}, closed={})",
            self.inner.path().display().to_string(),
            if self.closed() { "True" } else { "False" }
        )
    }
}
