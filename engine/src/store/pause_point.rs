//! Test-only pause points: places in a write where a test can stop one store's writer (a thread
//! of its own) to check what readers see meanwhile.

use std::path::{Path, PathBuf};

use parking_lot::Mutex;

/// What a test runs at a pause point: typically, signal the test and wait for its go-ahead.
pub(crate) type Hook = Box<dyn FnOnce() + Send>;

/// One named place in the code: hooks registered for a store's path, each run once, by the
/// first write of that store to reach the place. Tests of other stores (other paths) running
/// at the same time are not affected.
pub(crate) struct PausePoint(Mutex<Vec<(PathBuf, Hook)>>);

impl PausePoint {
    /// A pause point with no hook.
    pub(crate) const fn new() -> PausePoint {
        PausePoint(Mutex::new(Vec::new()))
    }

    /// Registers `hook` for the store at `path`.
    pub(crate) fn set(&self, path: &Path, hook: Hook) {
        self.0.lock().push((path.to_path_buf(), hook));
    }

    /// Called by the code under test: runs (and removes) the first hook registered for `path`.
    pub(crate) fn reach(&self, path: &Path) {
        let hook = {
            let mut hooks = self.0.lock();
            let i = hooks.iter().position(|(p, _)| p == path);
            i.map(|i| hooks.remove(i).1)
        };
        if let Some(h) = hook {
            h();
        }
    }
}
