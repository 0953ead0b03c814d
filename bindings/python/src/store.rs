//! `oubli.Store`: the store as a Python object. Every call releases the GIL while the engine
//! works, so threads sharing one store run concurrently (many readers, one writer).
//!
//! The class is defined here with opening, closing and its properties; its other methods live
//! by concept in the submodules (one `#[pymethods]` block each, with PyO3's
//! `multiple-pymethods` feature): `memory` (inscribe, get, recall, list), `forget`
//! (supersede, release, pin, resurface, purge, plan, scrub, decay), `scoping` (forget_user,
//! aliases), `audit` (history, events,
//! log verification, receipts) and `snapshot` (`Store.as_of` and `Snapshot`).

mod audit;
mod compaction;
mod forget;
mod memory;
mod query;
mod scoping;
mod snapshot;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};

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

/// The options a `Store(...)` call opens with; two calls share one engine handle only when
/// these agree (see [`OpenOptions::admits`]).
#[derive(Clone, PartialEq, Eq)]
struct OpenOptions {
    read_only: bool,
    scrub_on_purge: bool,
    defer_vector_graph: bool,
    /// Threads the vector graph is built on (`StoreOptions::vector_build_threads`).
    vector_build_threads: usize,
    /// The embedder asked for; `None` asks for the store's own. Once a file is open, the
    /// registry records the id of the embedder it was opened with.
    embedder_id: Option<String>,
    seed: Option<[u8; 32]>,
    signing_key: Option<[u8; 32]>,
    /// A planner callable was given: such a file is never shared (the callable is this
    /// `Store`'s own).
    planner: bool,
    /// The least confidence a forgetting call's match needs ([`oubli::Confidence`]).
    min_confidence: oubli::Confidence,
}

impl OpenOptions {
    /// Whether a file opened with `self` may serve a call asking for `wanted`: the same
    /// options, and the same embedder unless `wanted` leaves the choice to the store.
    fn admits(&self, wanted: &OpenOptions) -> bool {
        !self.planner
            && !wanted.planner
            && self.read_only == wanted.read_only
            && self.scrub_on_purge == wanted.scrub_on_purge
            && self.defer_vector_graph == wanted.defer_vector_graph
            && self.vector_build_threads == wanted.vector_build_threads
            && self.min_confidence == wanted.min_confidence
            && self.seed == wanted.seed
            && self.signing_key == wanted.signing_key
            && (wanted.embedder_id.is_none() || wanted.embedder_id == self.embedder_id)
    }
}

/// One file opened in this process: the engine store, how many open `Store` objects use it,
/// and the options it was opened with.
struct OpenFile {
    path: PathBuf,
    store: Weak<Store>,
    handles: Arc<AtomicUsize>,
    options: OpenOptions,
}

/// Every file opened by this process, so that a second `Store(path)` on the same file shares
/// the first one's engine handle instead of failing on the file lock.
static OPEN_FILES: Mutex<Vec<OpenFile>> = Mutex::new(Vec::new());

/// The path a file is registered under: canonical when the file (or its folder) exists.
fn registry_path(path: &Path) -> PathBuf {
    if let Ok(p) = std::fs::canonicalize(path) {
        return p;
    }
    match (path.parent(), path.file_name()) {
        (Some(dir), Some(name)) => std::fs::canonicalize(if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        })
        .map_or_else(|_| path.to_path_buf(), |d| d.join(name)),
        _ => path.to_path_buf(),
    }
}

/// An oubli store: one file, opened in-process.
///
/// `Store(path)` opens the store at `path`, creating it if there is none (`create=True`
/// insists on a new file, `create=False` on an existing one). Use it as a context manager, or
/// call `close()`. One `Store` may be shared by many threads.
///
/// Opening a file that this process already has open returns a `Store` that shares the same
/// engine handle, when the options (`read_only`, `embedder`, `seed`, `signing_key`,
/// `scrub_on_purge`) are the same; each `Store` object is closed on its own, and the file is
/// closed with the last one. Different options raise `LockedError` (code `locked`) saying so.
///
/// The path `":memory:"` makes a new store that never touches disk (as in SQLite): the same
/// log, receipts, purge and recall, no durability, gone when closed; every such `Store` is a
/// separate store. For tests and evaluation harnesses.
#[pyclass(frozen, name = "Store", module = "oubli_db")]
pub struct PyStore {
    pub(crate) inner: Arc<Store>,
    closed: AtomicBool,
    /// Open `Store` objects sharing `inner` (this one included until it is closed).
    handles: Arc<AtomicUsize>,
}

impl Drop for PyStore {
    fn drop(&mut self) {
        if !self.closed.swap(true, Ordering::SeqCst) {
            self.handles.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

impl PyStore {
    /// The engine store, or `StoreClosedError` once this object was closed (even when another
    /// `Store` object still holds the file open).
    pub(crate) fn store(&self) -> PyResult<&Arc<Store>> {
        if self.closed.load(Ordering::SeqCst) {
            return Err(to_py(oubli::Error::Closed));
        }
        Ok(&self.inner)
    }

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
        call(py, self.store()?, |s| f(s, t))
    }
}

/// The path that makes an in-memory store.
const MEMORY_PATH: &str = ":memory:";

#[pymethods]
impl PyStore {
    #[new]
    #[pyo3(signature = (
        path, *, create = None, read_only = false, embedder = None, seed = None,
        signing_key = None, scrub_on_purge = true, planner = None, defer_vector_graph = false,
        min_confidence = "low", vector_build_threads = 1
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
        planner: Option<&Bound<'_, PyAny>>,
        defer_vector_graph: bool,
        min_confidence: &str,
        vector_build_threads: usize,
    ) -> PyResult<Self> {
        if vector_build_threads == 0 {
            return Err(to_py(oubli::Error::InvalidArgument(
                "vector_build_threads must be at least 1".into(),
            )));
        }
        let min_confidence: oubli::Confidence = min_confidence
            .parse()
            .map_err(|e: String| to_py(oubli::Error::InvalidArgument(e)))?;
        let embedder = crate::embed::resolve(embedder)?;
        let planner = planner.map(crate::planner::PyPlanner::new).transpose()?;
        let wanted = OpenOptions {
            read_only,
            scrub_on_purge,
            defer_vector_graph,
            vector_build_threads,
            embedder_id: embedder.as_ref().map(|e| e.id()),
            seed: convert::bytes32(seed, "seed")?,
            signing_key: convert::bytes32(signing_key, "signing_key")?,
            planner: planner.is_some(),
            min_confidence,
        };
        let mut opts = StoreOptions::default()
            .read_only(read_only)
            .scrub_on_purge(scrub_on_purge)
            .defer_vector_graph(defer_vector_graph)
            .vector_build_threads(vector_build_threads)
            .min_confidence(min_confidence);
        if let Some(e) = embedder {
            opts = opts.embedder(e);
        }
        if let Some(s) = wanted.seed {
            opts = opts.deterministic_seed(s);
        }
        if let Some(k) = wanted.signing_key {
            opts = opts.signing_key(k);
        }
        if let Some(p) = planner {
            opts = opts.planner(Arc::new(p));
        }
        if path.as_os_str() == MEMORY_PATH {
            // As in SQLite: a new store that never touches disk, private to this object.
            if create == Some(false) {
                return Err(to_py(oubli::Error::InvalidArgument(
                    "\":memory:\" makes a new store; create=False cannot open one".into(),
                )));
            }
            let store = py.detach(|| Store::in_memory(opts)).map_err(to_py)?;
            return Ok(PyStore {
                inner: Arc::new(store),
                closed: AtomicBool::new(false),
                handles: Arc::new(AtomicUsize::new(1)),
            });
        }
        let key = registry_path(&path);
        py.detach(|| {
            // Held across the open: two threads opening one file end up sharing it.
            let mut open = OPEN_FILES.lock().unwrap_or_else(|p| p.into_inner());
            open.retain(|f| f.store.strong_count() > 0 && f.handles.load(Ordering::SeqCst) > 0);
            if let Some(f) = open.iter().find(|f| f.path == key) {
                if create == Some(true) {
                    return Err(oubli::Error::AlreadyExists(path.clone()).into());
                }
                if !f.options.admits(&wanted) {
                    return Err(LockedInProcess(path.clone()).into());
                }
                if let Some(store) = f.store.upgrade() {
                    f.handles.fetch_add(1, Ordering::SeqCst);
                    return Ok(PyStore {
                        inner: store,
                        closed: AtomicBool::new(false),
                        handles: f.handles.clone(),
                    });
                }
            }
            let store = match create {
                Some(true) => Store::create_with(&path, opts),
                Some(false) => Store::open_with(&path, opts),
                None if read_only => Store::open_with(&path, opts),
                None => Store::open_or_create(&path, opts),
            }?;
            let inner = Arc::new(store);
            let handles = Arc::new(AtomicUsize::new(1));
            open.push(OpenFile {
                path: registry_path(&path),
                store: Arc::downgrade(&inner),
                handles: handles.clone(),
                options: OpenOptions {
                    embedder_id: Some(inner.embedder().id()),
                    ..wanted
                },
            });
            Ok(PyStore {
                inner,
                closed: AtomicBool::new(false),
                handles,
            })
        })
        .map_err(|e: OpenError| e.into_py())
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    #[pyo3(signature = (*_args))]
    fn __exit__(&self, py: Python<'_>, _args: &Bound<'_, PyTuple>) -> PyResult<bool> {
        self.close(py)?;
        Ok(false)
    }

    /// Closes the store. Later calls raise `StoreClosedError`; closing twice is fine. When
    /// other `Store` objects of this process share the file, it stays open for them.
    fn close(&self, py: Python<'_>) -> PyResult<()> {
        if self.closed.swap(true, Ordering::SeqCst) {
            return Ok(());
        }
        if self.handles.fetch_sub(1, Ordering::SeqCst) == 1 {
            call(py, &self.inner, |s| s.close())?;
        }
        Ok(())
    }

    /// Whether `close()` was called.
    #[getter]
    fn closed(&self) -> bool {
        self.closed.load(Ordering::SeqCst)
    }

    /// The file the store lives in (`":memory:"` for an in-memory store).
    #[getter]
    fn path(&self) -> PathBuf {
        if self.inner.is_in_memory() {
            return PathBuf::from(MEMORY_PATH);
        }
        self.inner.path().to_path_buf()
    }

    /// True for a store opened with the path `":memory:"`.
    #[getter]
    fn in_memory(&self) -> bool {
        self.inner.is_in_memory()
    }

    /// Every byte of an in-memory store's image (what a raw byte scan of its erasure reads);
    /// `None` for a store in a file (read the file instead).
    fn memory_image<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyBytes>>> {
        let image = call(py, self.store()?, |s| s.memory_image())?;
        Ok(image.map(|b| PyBytes::new(py, &b)))
    }

    /// The store's ed25519 public key (32 bytes): give it to whoever verifies receipts.
    #[getter]
    fn public_key<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let k = call(py, self.store()?, |s| s.public_key())?;
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
            "Store({}, closed={})",
            crate::types::py_str(&self.inner.path().display().to_string()),
            if self.closed() { "True" } else { "False" }
        )
    }
}

/// A second `Store(path)` in this process with options different from the open one's.
struct LockedInProcess(PathBuf);

/// Why opening failed: an engine error, or the file is open here with other options.
enum OpenError {
    Engine(oubli::Error),
    LockedInProcess(PathBuf),
}

impl From<oubli::Error> for OpenError {
    fn from(e: oubli::Error) -> Self {
        OpenError::Engine(e)
    }
}

impl From<LockedInProcess> for OpenError {
    fn from(l: LockedInProcess) -> Self {
        OpenError::LockedInProcess(l.0)
    }
}

impl OpenError {
    fn into_py(self) -> PyErr {
        match self {
            OpenError::Engine(e) => to_py(e),
            OpenError::LockedInProcess(p) => Python::attach(|py| {
                crate::errors::raise(
                    py,
                    "LockedError",
                    "locked",
                    &format!(
                        "the store at {} is already open in this process with other options \
                         (read_only, embedder, seed, signing_key, scrub_on_purge, \
                         defer_vector_graph or vector_build_threads); open it \
                         with the same options to share it, or close the other Store first",
                        p.display()
                    ),
                    &[],
                )
            }),
        }
    }
}
