//! A tantivy [`Directory`] whose files are rows of a redb table.
//!
//! Files tantivy writes (segment files, `meta.json`, `.managed.json`) and deletes are staged in
//! memory, where tantivy and the store's searches read them at once, and reach the redb table in
//! the store's next write transaction ([`RedbDirectory::stage_into`]): one redb commit, and one
//! fsync, per durable write, instead of a transaction per file. The index is derived data: a
//! crash loses at most the staged files, and the store re-indexes the rows newer than the
//! committed `meta.json` on open. The staged state is consistent because tantivy writes a commit's
//! segment files before its `meta.json` and deletes old files only after it, and staged changes
//! are written together, in order of staging, in one transaction. Tantivy must never touch the
//! directory while the caller holds a redb write transaction that it is not staging into (redb has
//! one writer): the store sequences this.
//!
//! Immutable segment files are cached in memory once read, like pages of an mmap.

use std::collections::{BTreeMap, HashMap};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use parking_lot::{Mutex, RwLock};
use tantivy::directory::error::{DeleteError, LockError, OpenReadError, OpenWriteError};
use tantivy::directory::{
    AntiCallToken, Directory, DirectoryLock, FileHandle, Lock, OwnedBytes, TerminatingWrite,
    WatchCallback, WatchCallbackList, WatchHandle, WritePtr,
};

use crate::storage::{Db, TEXT_INDEX_FILES};

/// A file change not yet in the redb table: new contents, or `None` for a deletion.
type Change = Option<OwnedBytes>;

/// The tantivy directory stored in the redb file.
#[derive(Clone)]
pub struct RedbDirectory {
    db: Arc<Db>,
    cache: Arc<RwLock<HashMap<PathBuf, OwnedBytes>>>,
    watchers: Arc<WatchCallbackList>,
    /// Changes staged for the next write transaction, by file name.
    staged: Arc<Mutex<BTreeMap<String, Change>>>,
}

/// The changes [`RedbDirectory::stage_into`] put into a transaction; hand them to
/// [`RedbDirectory::committed`] once it commits.
#[derive(Default)]
pub struct Staged(Vec<(String, Change)>);

impl Staged {
    /// True when nothing was staged.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

fn same(a: &Change, b: &Change) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => a.as_slice().as_ptr() == b.as_slice().as_ptr() && a.len() == b.len(),
        _ => false,
    }
}

impl std::fmt::Debug for RedbDirectory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RedbDirectory")
    }
}

fn key(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

fn io_err(e: impl std::fmt::Display) -> io::Error {
    io::Error::other(e.to_string())
}

impl RedbDirectory {
    /// A directory over `db`'s [`TEXT_INDEX_FILES`] table.
    pub fn new(db: Arc<Db>) -> Self {
        RedbDirectory {
            db,
            cache: Arc::default(),
            watchers: Arc::default(),
            staged: Arc::default(),
        }
    }

    /// A file's bytes: staged, or read from the table past redb's read cache (the directory
    /// keeps its own copy of every file it opens, so redb's would be a second one).
    fn read(&self, path: &Path) -> io::Result<Option<Vec<u8>>> {
        redb::without_read_cache(|| self.read_file(path))
    }

    fn read_file(&self, path: &Path) -> io::Result<Option<Vec<u8>>> {
        if let Some(change) = self.staged.lock().get(&key(path)) {
            return Ok(change.as_ref().map(|b| b.as_slice().to_vec()));
        }
        let tx = self.db.begin_read().map_err(io_err)?;
        let table = match tx.open_table(TEXT_INDEX_FILES) {
            Ok(t) => t,
            Err(redb::TableError::TableDoesNotExist(_)) => return Ok(None),
            Err(e) => return Err(io_err(e)),
        };
        let v = table.get(key(path).as_str()).map_err(io_err)?;
        Ok(v.map(|v| v.value().to_vec()))
    }

    /// Whether `path` exists (staged, cached or in the table), without copying its contents.
    fn contains(&self, path: &Path) -> io::Result<bool> {
        if let Some(change) = self.staged.lock().get(&key(path)) {
            return Ok(change.is_some());
        }
        if self.cache.read().contains_key(path) {
            return Ok(true);
        }
        let tx = self.db.begin_read().map_err(io_err)?;
        let table = match tx.open_table(TEXT_INDEX_FILES) {
            Ok(t) => t,
            Err(redb::TableError::TableDoesNotExist(_)) => return Ok(false),
            Err(e) => return Err(io_err(e)),
        };
        Ok(table.get(key(path).as_str()).map_err(io_err)?.is_some())
    }

    fn stage(&self, path: &Path, change: Change) {
        self.staged.lock().insert(key(path), change);
    }

    /// Writes every staged change into `tx` (the store's write transaction), in file-name
    /// order. The changes stay staged until [`RedbDirectory::committed`] is told `tx` committed,
    /// so a transaction that is dropped loses nothing.
    pub fn stage_into(&self, tx: &redb::WriteTransaction) -> crate::error::Result<Staged> {
        let staged: Vec<(String, Change)> = self
            .staged
            .lock()
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        if staged.is_empty() {
            return Ok(Staged::default());
        }
        let mut table = tx.open_table(TEXT_INDEX_FILES)?;
        for (k, change) in &staged {
            match change {
                Some(bytes) => {
                    table.insert(k.as_str(), bytes.as_slice())?;
                }
                None => {
                    table.remove(k.as_str())?;
                }
            }
        }
        Ok(Staged(staged))
    }

    /// Forgets the staged changes that `staged`'s transaction committed (a change staged again
    /// since stays staged).
    pub fn committed(&self, staged: Staged) {
        let mut pending = self.staged.lock();
        for (k, change) in staged.0 {
            if pending.get(&k).is_some_and(|now| same(now, &change)) {
                pending.remove(&k);
            }
        }
    }

    /// True when changes wait for a write transaction.
    pub fn has_staged(&self) -> bool {
        !self.staged.lock().is_empty()
    }

    /// Deletes every file of the index (used when an index of an older layout is replaced).
    pub fn delete_all(&self) -> crate::error::Result<()> {
        self.clear_cache();
        self.staged.lock().clear();
        let tx = self.db.begin_write()?;
        {
            let mut table = tx.open_table(TEXT_INDEX_FILES)?;
            table.retain(|_, _| false)?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Drops every cached file (used after the index is rebuilt).
    pub fn clear_cache(&self) {
        self.cache.write().clear();
    }
}

fn is_atomic(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.ends_with(".json"))
}

impl Directory for RedbDirectory {
    fn get_file_handle(&self, path: &Path) -> Result<Arc<dyn FileHandle>, OpenReadError> {
        if let Some(bytes) = self.cache.read().get(path) {
            return Ok(Arc::new(bytes.clone()));
        }
        let bytes = self
            .read(path)
            .map_err(|e| OpenReadError::wrap_io_error(e, path.to_path_buf()))?
            .ok_or_else(|| OpenReadError::FileDoesNotExist(path.to_path_buf()))?;
        let owned = OwnedBytes::new(bytes);
        if !is_atomic(path) {
            self.cache.write().insert(path.to_path_buf(), owned.clone());
        }
        Ok(Arc::new(owned))
    }

    fn delete(&self, path: &Path) -> Result<(), DeleteError> {
        let existed = self.contains(path).map_err(|e| DeleteError::IoError {
            io_error: Arc::new(e),
            filepath: path.to_path_buf(),
        })?;
        self.cache.write().remove(path);
        if !existed {
            return Err(DeleteError::FileDoesNotExist(path.to_path_buf()));
        }
        self.stage(path, None);
        Ok(())
    }

    fn exists(&self, path: &Path) -> Result<bool, OpenReadError> {
        self.contains(path)
            .map_err(|e| OpenReadError::wrap_io_error(e, path.to_path_buf()))
    }

    fn open_write(&self, path: &Path) -> Result<WritePtr, OpenWriteError> {
        let exists = self
            .exists(path)
            .map_err(|e| OpenWriteError::wrap_io_error(io_err(e), path.to_path_buf()))?;
        if exists {
            return Err(OpenWriteError::FileAlreadyExists(path.to_path_buf()));
        }
        Ok(BufWriter::new(Box::new(FileWriter {
            dir: self.clone(),
            path: path.to_path_buf(),
            data: Vec::new(),
        })))
    }

    fn atomic_read(&self, path: &Path) -> Result<Vec<u8>, OpenReadError> {
        self.read(path)
            .map_err(|e| OpenReadError::wrap_io_error(e, path.to_path_buf()))?
            .ok_or_else(|| OpenReadError::FileDoesNotExist(path.to_path_buf()))
    }

    fn atomic_write(&self, path: &Path, data: &[u8]) -> io::Result<()> {
        self.stage(path, Some(OwnedBytes::new(data.to_vec())));
        if path == Path::new("meta.json") {
            drop(self.watchers.broadcast());
        }
        Ok(())
    }

    fn sync_directory(&self) -> io::Result<()> {
        Ok(())
    }

    fn acquire_lock(&self, _lock: &Lock) -> Result<DirectoryLock, LockError> {
        // The redb file lock already excludes other processes, and the store owns the only
        // writer in this one: an in-memory token is all tantivy needs.
        Ok(DirectoryLock::from(Box::new(())))
    }

    fn watch(&self, watch_callback: WatchCallback) -> tantivy::Result<WatchHandle> {
        Ok(self.watchers.subscribe(watch_callback))
    }
}

/// Buffers one file and stores it when tantivy terminates the write.
struct FileWriter {
    dir: RedbDirectory,
    path: PathBuf,
    data: Vec<u8>,
}

impl Write for FileWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.data.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl TerminatingWrite for FileWriter {
    fn terminate_ref(&mut self, _: AntiCallToken) -> io::Result<()> {
        let data = OwnedBytes::new(std::mem::take(&mut self.data));
        self.dir.stage(&self.path, Some(data.clone()));
        self.dir.cache.write().insert(self.path.clone(), data);
        Ok(())
    }
}
