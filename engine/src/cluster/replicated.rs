//! Replication wired into `oubli serve` (`--etcd ... --nats ...`): the node's
//! [`Replication`] hook (a [`Replicator`] per open tenant, writes answered once JetStream
//! acknowledged them, purges answered with their [`ErasureReport`]) and its [`Takeover`] hook
//! (a tenant this node acquires is restored from NATS into its data directory before any request
//! is served; a tenant it gives up is stopped and its file removed).
//!
//! - **Acquire** ([`Takeover::on_acquire`], after the etcd key is won, before the store opens):
//!   [`restore`] the tenant into a temporary file of the data directory (the newest snapshot,
//!   then every frame after it, each checked), [`promote`] it (completes purges left
//!   incomplete), then rename it over `DATA/<tenant>.oubli`. A tenant never replicated (NATS
//!   answers that the generations stream, or the tenant's entry in it, does not exist) starts
//!   empty; any other failure is an error, which the lease layer answers `503
//!   tenant_unavailable` (the next request tries again), never an empty or stale tenant.
//! - **Open** ([`Replication::opened`]): [`Replicator::start`] (a new generation, from a
//!   snapshot of the store) before any request uses the store; if it fails, the store is
//!   closed again and the request answered 503.
//! - **Write** ([`Replication::committed`]): the answer waits for [`Replicator::acknowledged`]
//!   of the store's head after the write (at most the `ack_timeout`); a purge's answer carries
//!   its [`ErasureReport`]. Not acknowledged in time, or the replicator stopped meanwhile (the
//!   tenant was released): `504 not_acknowledged`, outcome unknown.
//! - **Close** ([`Replication::closing`]): the replicator stops (frames already committed are
//!   published, within the `ack_timeout`).
//! - **Release** ([`Takeover::on_release`], after the store closed): the tenant's file is
//!   removed. A node's data directory is a cache of the cluster's streams: at start, a node
//!   removes the tenant files it left there (a file from before a crash may hold what a later
//!   purge on another node erased); the stream is the truth. It removes only what it can tell
//!   is its own copy: a store file signed with this deployment's key for the tenant its name
//!   says. Any other store file (a store from before replication, another deployment's, an
//!   unreadable one) stops the start with [`StreamError::Config`] naming the files, and nothing
//!   is removed: those files may be the only copy of someone's memory.
//!
//! Every tenant's store signs with the key derived from the deployment's signing secret
//! ([`SigningSecret::tenant_key`]), the same on every node, so the log continues across a
//! takeover and receipts verify with one public key.

use std::collections::HashMap;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use async_nats::jetstream::Context;
use parking_lot::Mutex;

use super::keys::SigningSecret;
use super::lease::{HookError, Takeover};
use super::stream::{self, ErasureReport, Replicator, StreamConfig, StreamError, promote, restore};
use crate::serve::error::ApiError;
use crate::serve::tenant::STORE_EXTENSION;
use crate::serve::{Committed, HookFuture, Replication, TenantId};
use crate::storage;
use crate::{Store, StoreOptions};

/// How a node replicates its tenants.
#[derive(Clone, Debug)]
pub struct ReplicationConfig {
    /// NATS server URLs (`nats://host:port`); the client fails over between them.
    pub nats: Vec<String>,
    /// The cluster name, replicas and timeouts of the tenants' streams.
    pub stream: StreamConfig,
    /// The node's data directory (the server's `--data-dir`).
    pub data_dir: PathBuf,
    /// The options restored stores are opened with (the server's store options; the signing
    /// key is set per tenant).
    pub store_options: StoreOptions,
    /// The deployment's signing secret.
    pub secret: SigningSecret,
}

/// A node's replication: the [`Replication`] and the [`Takeover`] of `oubli serve --nats`.
pub struct Replicated {
    js: Context,
    stream: StreamConfig,
    dir: PathBuf,
    base: StoreOptions,
    secret: SigningSecret,
    handle: tokio::runtime::Handle,
    runtime: Mutex<Option<tokio::runtime::Runtime>>,
    replicators: Mutex<HashMap<TenantId, Arc<Replicator>>>,
}

impl std::fmt::Debug for Replicated {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Replicated")
            .field("cluster", &self.stream.cluster)
            .field("dir", &self.dir)
            .field("tenants", &self.replicators.lock().len())
            .finish_non_exhaustive()
    }
}

impl Replicated {
    /// Checks the settings, removes the tenant files left in the data directory (see the module
    /// docs), and connects to NATS on the node's own runtime (two threads, so that a server
    /// saturated with requests cannot delay publishing). The connection is retried in the
    /// background: NATS need not be up yet.
    pub fn connect(config: ReplicationConfig) -> Result<Arc<Replicated>, StreamError> {
        config.stream.check()?;
        if config.nats.is_empty() || config.nats.iter().any(|u| u.trim().is_empty()) {
            return Err(StreamError::Config(
                "at least one NATS server URL is needed, none empty".into(),
            ));
        }
        std::fs::create_dir_all(&config.data_dir).map_err(|source| StreamError::Io {
            path: config.data_dir.clone(),
            source,
        })?;
        let removed = remove_tenant_files(&config.data_dir, &config.secret)?;
        if removed > 0 {
            tracing::info!(
                removed,
                dir = %config.data_dir.display(),
                "removed tenant files left from before: the stream is the truth"
            );
        }
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .thread_name("oubli-replication")
            .build()
            .map_err(|source| StreamError::Io {
                path: config.data_dir.clone(),
                source,
            })?;
        let timeout = config.stream.request_timeout;
        let js = runtime.block_on(stream::connect(&config.nats, timeout))?;
        Ok(Arc::new(Replicated {
            js,
            stream: config.stream,
            dir: config.data_dir,
            base: config.store_options,
            secret: config.secret,
            handle: runtime.handle().clone(),
            runtime: Mutex::new(Some(runtime)),
            replicators: Mutex::new(HashMap::new()),
        }))
    }

    /// The options `tenant`'s store opens with: the node's, with the tenant's signing key.
    pub fn store_options_for(&self, tenant: &TenantId) -> StoreOptions {
        self.base
            .clone()
            .signing_key(self.secret.tenant_key(tenant))
    }

    /// The replicator of `tenant`, while its store is open on this node.
    pub fn replicator(&self, tenant: &TenantId) -> Option<Arc<Replicator>> {
        self.replicators.lock().get(tenant).cloned()
    }

    /// Runs `f` on the node's runtime and waits for it (from a blocking thread).
    fn block_on<T: Send + 'static>(
        &self,
        f: impl Future<Output = T> + Send + 'static,
    ) -> Result<T, HookError> {
        let (tx, rx) = std::sync::mpsc::channel();
        self.handle.spawn(async move {
            let _ = tx.send(f.await);
        });
        rx.recv()
            .map_err(|_| "the replication runtime stopped".into())
    }

    /// The restore of `tenant` into the data directory (see the module docs).
    fn take_over(&self, tenant: &TenantId) -> Result<(), HookError> {
        let dest = tenant.store_path(&self.dir);
        let tmp = self.dir.join(format!(".{tenant}+restore"));
        remove_if_present(&tmp)?;
        let opts = self.store_options_for(tenant);
        let (js, cluster, t, at, o) = (
            self.js.clone(),
            self.stream.cluster.clone(),
            tenant.as_str().to_owned(),
            tmp.clone(),
            opts.clone(),
        );
        let restored = self.block_on(async move { restore(&js, &cluster, &t, &at, o).await })??;
        let (generation, snapshot_seq, frames, head) = (
            restored.generation,
            restored.snapshot_seq,
            restored.frames_applied,
            restored.head,
        );
        let promoted = promote(restored.store, opts).and_then(|s| Ok(s.close()?));
        if let Err(e) = promoted {
            let _ = std::fs::remove_file(&tmp);
            return Err(e.into());
        }
        std::fs::rename(&tmp, &dest)?;
        sync_dir(&self.dir);
        tracing::info!(
            tenant = %tenant,
            generation,
            snapshot_seq,
            frames,
            head,
            "tenant restored from the stream"
        );
        Ok(())
    }
}

impl Drop for Replicated {
    fn drop(&mut self) {
        if let Some(rt) = self.runtime.lock().take() {
            // Never blocks, so dropping inside another runtime is fine.
            rt.shutdown_background();
        }
    }
}

impl Takeover for Replicated {
    fn on_acquire(&self, tenant: &TenantId) -> Result<(), HookError> {
        self.take_over(tenant).inspect_err(
            |e| tracing::warn!(tenant = %tenant, error = %e, "cannot restore the tenant"),
        )
    }

    fn on_release(&self, tenant: &TenantId) {
        // The registry closed the store (and stopped its replicator) before this call.
        if let Some(rep) = self.replicators.lock().remove(tenant) {
            let _ = self.block_on(async move { rep.shutdown().await });
        }
        let path = tenant.store_path(&self.dir);
        if let Err(e) = remove_if_present(&path) {
            tracing::warn!(tenant = %tenant, error = %e, "cannot remove a released tenant's file");
        }
    }
}

impl Replication for Replicated {
    fn store_options(
        &self,
        tenant: &TenantId,
        base: &StoreOptions,
    ) -> Result<StoreOptions, ApiError> {
        Ok(base.clone().signing_key(self.secret.tenant_key(tenant)))
    }

    fn opened<'a>(
        &'a self,
        tenant: &'a TenantId,
        store: &'a Arc<Store>,
    ) -> HookFuture<'a, Result<(), ApiError>> {
        Box::pin(async move {
            let (js, s, t, cfg) = (
                self.js.clone(),
                Arc::clone(store),
                tenant.as_str().to_owned(),
                self.stream.clone(),
            );
            let started = self
                .handle
                .spawn(async move { Replicator::start(js, s, &t, cfg).await })
                .await
                .map_err(|e| ApiError::internal(format!("starting its replication failed: {e}")))?;
            match started {
                Ok(rep) => {
                    let old = self
                        .replicators
                        .lock()
                        .insert(tenant.clone(), Arc::new(rep));
                    if let Some(old) = old {
                        self.handle.spawn(async move {
                            let _ = old.shutdown().await;
                        });
                    }
                    Ok(())
                }
                Err(e) => {
                    tracing::warn!(tenant = %tenant, error = %e, "cannot start replicating");
                    Err(ApiError::unavailable(
                        tenant,
                        &format!("cannot start its replication: {e}"),
                    ))
                }
            }
        })
    }

    fn closing<'a>(&'a self, tenant: &'a TenantId) -> HookFuture<'a, ()> {
        Box::pin(async move {
            let rep = self.replicators.lock().remove(tenant);
            if let Some(rep) = rep {
                let stopped = self.handle.spawn(async move { rep.shutdown().await }).await;
                if let Ok(Err(e)) = stopped {
                    tracing::warn!(tenant = %tenant, error = %e, "replicator stopped with an error");
                }
            }
        })
    }

    fn committed<'a>(
        &'a self,
        tenant: &'a TenantId,
        store: &'a Arc<Store>,
        head: u64,
        purge: Option<u64>,
    ) -> HookFuture<'a, Result<Committed, ApiError>> {
        Box::pin(async move {
            // The replicator of this very store: a store closed and opened again since the
            // write has a new replicator, whose stream may not hold the write.
            let rep = self
                .replicator(tenant)
                .filter(|r| Arc::ptr_eq(r.store(), store))
                .ok_or_else(|| {
                    ApiError::not_acknowledged(tenant, "its replicator stopped before")
                })?;
            rep.acknowledged(head)
                .await
                .map_err(|e| ApiError::not_acknowledged(tenant, &e.to_string()))?;
            let report = match purge {
                None => None,
                Some(seq) => {
                    let erasure: ErasureReport = rep.erasure(seq).ok_or_else(|| {
                        ApiError::not_acknowledged(tenant, "no erasure report for the purge")
                    })?;
                    Some(serde_json::to_value(&erasure).map_err(|e| {
                        ApiError::internal(format!("cannot encode the erasure report: {e}"))
                    })?)
                }
            };
            Ok(Committed {
                replicated: true,
                report,
            })
        })
    }
}

fn remove_if_present(path: &Path) -> std::io::Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// Removes the files this deployment's nodes leave in a data directory: every temporary snapshot
/// or restore file (`.<tenant>+...`) and every tenant store file (`<tenant>.oubli`) signed with
/// the deployment's key for that tenant ([`SigningSecret::tenant_key`]); returns how many.
///
/// A store file it cannot tell is its own (signed with another key, not a store, unreadable, or
/// named for no valid tenant) is never removed: the start stops with [`StreamError::Config`]
/// naming every such file, and nothing at all is removed.
fn remove_tenant_files(dir: &Path, secret: &SigningSecret) -> Result<usize, StreamError> {
    let io = |source| StreamError::Io {
        path: dir.to_path_buf(),
        source,
    };
    let mut ours = Vec::new();
    let mut foreign = Vec::new();
    for e in std::fs::read_dir(dir).map_err(io)? {
        let e = e.map_err(io)?;
        if !e.file_type().map_err(io)?.is_file() {
            continue;
        }
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') && name.contains('+') {
            ours.push(e.path());
        } else if let Some(stem) = name.strip_suffix(&format!(".{STORE_EXTENSION}")) {
            match replica_of_this_deployment(&e.path(), stem, secret) {
                Ok(()) => ours.push(e.path()),
                Err(why) => foreign.push(format!("{name} ({why})")),
            }
        }
    }
    if !foreign.is_empty() {
        foreign.sort();
        return Err(StreamError::Config(format!(
            "{}: {} store file(s) this deployment did not write: {}. A replicated node's data \
             directory holds only its copies of the cluster's tenants, which it removes at start; \
             these files were left untouched. Move them out of the directory (serving a store from \
             before replication in the cluster is not supported yet)",
            dir.display(),
            foreign.len(),
            foreign.join(", ")
        )));
    }
    for path in &ours {
        std::fs::remove_file(path).map_err(|source| StreamError::Io {
            path: path.clone(),
            source,
        })?;
    }
    sync_dir(dir);
    Ok(ours.len())
}

/// `Ok` when the store file at `path` is this deployment's copy of the tenant `stem` names: it
/// signs with the key the deployment's secret derives for that tenant. Otherwise, why not. Reads
/// a private copy of the file ([`storage::open_in_memory`]); the file is not written.
fn replica_of_this_deployment(
    path: &Path,
    stem: &str,
    secret: &SigningSecret,
) -> Result<(), String> {
    use redb::ReadableDatabase;
    let tenant = TenantId::parse(stem).map_err(|_| "not a tenant name".to_string())?;
    let expected = ed25519_dalek::SigningKey::from_bytes(&secret.tenant_key(&tenant))
        .verifying_key()
        .to_bytes();
    let unreadable = |e: crate::Error| format!("unreadable: {e}");
    let db = storage::open_in_memory(path).map_err(unreadable)?;
    let tx = db.begin_read().map_err(|e| unreadable(e.into()))?;
    let key = storage::open_read(&tx, storage::META)
        .map_err(unreadable)?
        .ok_or_else(|| "not an oubli store".to_string())?
        .get(storage::meta::PUBLIC_KEY)
        .map_err(|e| unreadable(e.into()))?
        .map(|v| v.value().to_vec());
    match key {
        Some(k) if k == expected => Ok(()),
        Some(_) => Err("signed with another key".into()),
        None => Err("not an oubli store".into()),
    }
}

/// Makes a directory's entries durable (renames, removals); best effort.
fn sync_dir(dir: &Path) {
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secret() -> SigningSecret {
        SigningSecret::from_bytes([7; 32])
    }

    /// A store at `dir/<name>`, signed with `key` (its own random key when `None`).
    fn store_file(dir: &Path, name: &str, key: Option<[u8; 32]>) {
        let mut opts = StoreOptions::default();
        if let Some(k) = key {
            opts = opts.signing_key(k);
        }
        let s = Store::create_with(dir.join(name), opts).unwrap();
        s.close().unwrap();
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut left: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        left
    }

    #[test]
    fn leftover_copies_of_this_deployment_are_removed_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let acme = TenantId::parse("acme").unwrap();
        store_file(dir.path(), "acme.oubli", Some(secret().tenant_key(&acme)));
        for f in [".acme+snapshot-0011", ".beta+restore", "notes.txt"] {
            std::fs::write(dir.path().join(f), b"x").unwrap();
        }
        std::fs::create_dir(dir.path().join("sub.oubli")).unwrap();
        assert_eq!(remove_tenant_files(dir.path(), &secret()).unwrap(), 3);
        assert_eq!(names(dir.path()), vec!["notes.txt", "sub.oubli"]);
    }

    #[test]
    fn a_store_this_deployment_did_not_write_stops_the_start_and_nothing_is_removed() {
        let beta = TenantId::parse("beta").unwrap();
        let other = SigningSecret::from_bytes([9; 32]);
        /// What a case puts at its file name.
        enum Content {
            /// A store signed with this key (its own random key when `None`).
            Store(Option<[u8; 32]>),
            /// These bytes.
            Bytes(&'static [u8]),
        }
        let acme_key = secret().tenant_key(&TenantId::parse("acme").unwrap());
        let cases = [
            ("own.oubli", Content::Store(None), "signed with another key"),
            (
                "beta.oubli",
                Content::Store(Some(other.tenant_key(&beta))),
                "signed with another key",
            ),
            // acme's copy under beta's name: a file renamed by hand is not beta's copy.
            (
                "beta.oubli",
                Content::Store(Some(acme_key)),
                "signed with another key",
            ),
            ("gamma.oubli", Content::Bytes(b"not a store"), "unreadable"),
            (
                "Not A Tenant.oubli",
                Content::Bytes(b"x"),
                "not a tenant name",
            ),
        ];
        for (name, content, why) in cases {
            let dir = tempfile::tempdir().unwrap();
            match content {
                Content::Bytes(b) => std::fs::write(dir.path().join(name), b).unwrap(),
                Content::Store(key) => store_file(dir.path(), name, key),
            }
            std::fs::write(dir.path().join(".acme+restore"), b"x").unwrap();
            let before = names(dir.path());
            let err = remove_tenant_files(dir.path(), &secret()).unwrap_err();
            let msg = err.to_string();
            assert!(matches!(err, StreamError::Config(_)), "{name}: {msg}");
            assert!(msg.contains(name) && msg.contains(why), "{name}: {msg}");
            assert_eq!(names(dir.path()), before, "{name}: nothing may be removed");
        }
    }
}
