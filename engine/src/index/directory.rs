//! A tantivy [`Directory`] whose files are rows of a redb table.
//!
//! Each file tantivy writes becomes one value of [`TEXT_INDEX_FILES`], written in its own redb
//! transaction when tantivy finishes the file. Segment files are written with
//! [`Durability::None`]; the atomic files (`meta.json`, `.managed.json`) with
//! [`Durability::Immediate`], which makes every earlier non-durable write durable too, so a
//! tantivy commit is durable exactly when its `meta.json` is. Tantivy must never commit while the
//! caller holds a redb write transaction (redb has one writer): the store sequences this.
//!
//! Immutable segment files are cached in memory once read, like pages of an mmap.

use std::collections::HashMap;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use parking_lot::RwLock;
use redb::Durability;
use tantivy::directory::error::{DeleteError, LockError, OpenReadError, OpenWriteError};
use tantivy::directory::{
    AntiCallToken, Directory, DirectoryLock, FileHandle, Lock, OwnedBytes, TerminatingWrite,
    WatchCallback, WatchCallbackList, WatchHandle, WritePtr,
};

use crate::storage::{Db, TEXT_INDEX_FILES};

/// The tantivy directory stored in the redb file.
#[derive(Clone)]
pub struct RedbDirectory {
    db: Arc<Db>,
    cache: Arc<RwLock<HashMap<PathBuf, OwnedBytes>>>,
    watchers: Arc<WatchCallbackList>,
    /// Whether `meta.json` writes wait for the disk (see `StoreOptions::durable`).
    durable: bool,
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
    pub fn new(db: Arc<Db>, durable: bool) -> Self {
        RedbDirectory {
            db,
            cache: Arc::default(),
            watchers: Arc::default(),
            durable,
        }
    }

    fn read(&self, path: &Path) -> io::Result<Option<Vec<u8>>> {
        let tx = self.db.begin_read().map_err(io_err)?;
        let table = match tx.open_table(TEXT_INDEX_FILES) {
            Ok(t) => t,
            Err(redb::TableError::TableDoesNotExist(_)) => return Ok(None),
            Err(e) => return Err(io_err(e)),
        };
        let v = table.get(key(path).as_str()).map_err(io_err)?;
        Ok(v.map(|v| v.value().to_vec()))
    }

    fn write(&self, path: &Path, data: &[u8], durability: Durability) -> io::Result<()> {
        let mut tx = self.db.begin_write().map_err(io_err)?;
        tx.set_durability(durability).map_err(io_err)?;
        {
            let mut table = tx.open_table(TEXT_INDEX_FILES).map_err(io_err)?;
            table.insert(key(path).as_str(), data).map_err(io_err)?;
        }
        tx.commit().map_err(io_err)
    }

    /// Deletes every file of the index (used when an index of an older layout is replaced).
    pub fn delete_all(&self) -> crate::error::Result<()> {
        self.clear_cache();
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
        self.cache.write().remove(path);
        let wrap = |e: io::Error| DeleteError::IoError {
            io_error: Arc::new(e),
            filepath: path.to_path_buf(),
        };
        let mut tx = self.db.begin_write().map_err(|e| wrap(io_err(e)))?;
        tx.set_durability(Durability::None)
            .map_err(|e| wrap(io_err(e)))?;
        let existed = {
            let mut table = tx
                .open_table(TEXT_INDEX_FILES)
                .map_err(|e| wrap(io_err(e)))?;
            table
                .remove(key(path).as_str())
                .map_err(|e| wrap(io_err(e)))?
                .is_some()
        };
        tx.commit().map_err(|e| wrap(io_err(e)))?;
        if existed {
            Ok(())
        } else {
            Err(DeleteError::FileDoesNotExist(path.to_path_buf()))
        }
    }

    fn exists(&self, path: &Path) -> Result<bool, OpenReadError> {
        if self.cache.read().contains_key(path) {
            return Ok(true);
        }
        Ok(self
            .read(path)
            .map_err(|e| OpenReadError::wrap_io_error(e, path.to_path_buf()))?
            .is_some())
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
        let d = if self.durable {
            Durability::Immediate
        } else {
            Durability::None
        };
        self.write(path, data, d)?;
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
        let data = std::mem::take(&mut self.data);
        self.dir.write(&self.path, &data, Durability::None)?;
        self.dir
            .cache
            .write()
            .insert(self.path.clone(), OwnedBytes::new(data));
        Ok(())
    }
}
