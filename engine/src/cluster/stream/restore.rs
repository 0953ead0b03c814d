//! The other node's side: [`restore`] rebuilds a tenant from its generation's snapshot and
//! the frames after it, each checked; [`promote`] makes the restored replica the leader.

use std::path::Path;
use std::sync::Arc;

use async_nats::jetstream::Context;
use async_nats::jetstream::object_store::ObjectStore;

use super::names::{TenantNames, current_generation, is_not_found, stream_not_found};
use super::{META_SEQ, Result, SEQ_HEADER, StreamError, nats_at};
use crate::replication::{Applied, Frame, ReplicationError};
use crate::{Store, StoreOptions};

/// A store rebuilt from the cluster by [`restore`]: a replica, at the head of the stream.
pub struct Restored {
    /// The store (opened with [`StoreOptions::replica`]); [`promote`] makes it a leader.
    pub store: Store,
    /// The generation it was restored from (0: the tenant was never replicated).
    pub generation: u64,
    /// The seq of the snapshot it started from (0: none, it started empty).
    pub snapshot_seq: u64,
    /// Frames applied after the snapshot.
    pub frames_applied: u64,
    /// Its head seq.
    pub head: u64,
}

/// Rebuilds `tenant` into a new store file at `dest` (which must not exist): downloads the
/// newest snapshot (or starts an empty store if there is none), opens it as a replica with
/// `opts` (which must carry the tenant's signing key and embedder), then applies every frame of
/// the stream after the snapshot's seq, in order. [`Store::apply_frame`] checks each one's
/// signatures, chain and digests; a missing frame is [`StreamError::Gap`], a refused one
/// [`StreamError::Chain`]. On error the partial file at `dest` is removed.
///
/// Run it when no leader publishes (a takeover): a leader that opens a new generation during a
/// restore deletes the one being read, which makes the restore fail typed (a missing stream or
/// a gap), never restore a wrong state; run it again then.
pub async fn restore(
    js: &Context,
    cluster: &str,
    tenant: &str,
    dest: &Path,
    opts: StoreOptions,
) -> Result<Restored> {
    let names = TenantNames::new(cluster, tenant)?;
    if dest.exists() {
        return Err(crate::Error::AlreadyExists(dest.to_path_buf()).into());
    }
    let r = restore_into(js, &names, dest, opts).await;
    if r.is_err() {
        let _ = std::fs::remove_file(dest);
    }
    r
}

async fn restore_into(
    js: &Context,
    names: &TenantNames,
    dest: &Path,
    opts: StoreOptions,
) -> Result<Restored> {
    let opts = opts.replica(true);
    // Only a cluster that answers "no such stream" has never replicated a tenant: any other
    // failure (no responders, a timeout while a stream leader is elected) is an error, never
    // an empty tenant.
    let generation = match js.get_stream(&names.generations).await {
        Ok(gens) => current_generation(&gens, names).await?.map(|(g, _)| g),
        Err(e) if stream_not_found(&e) => None,
        Err(e) => return Err(nats_at(&names.generations, e)),
    };
    let snapshot_seq = match generation {
        Some(g) => {
            let bucket = js
                .get_object_store(names.bucket(g))
                .await
                .map_err(|e| StreamError::Snapshot(format!("generation {g}: {e}")))?;
            Some(download_snapshot(&bucket, names, dest).await?)
        }
        None => None,
    };
    let dest_buf = dest.to_path_buf();
    let store = Arc::new(
        tokio::task::spawn_blocking(move || match snapshot_seq {
            Some(_) => Store::open_with(&dest_buf, opts),
            None => Store::create_with(&dest_buf, opts),
        })
        .await
        .map_err(|e| StreamError::Snapshot(e.to_string()))??,
    );
    let snapshot_seq = snapshot_seq.unwrap_or(0);
    let mut head = store.head()?.0;
    if head != snapshot_seq {
        return Err(StreamError::Snapshot(format!(
            "the snapshot says seq {snapshot_seq}, its file stands at {head}"
        )));
    }
    let mut frames_applied = 0;
    if let Some(g) = generation {
        let name = names.stream(g);
        let mut stream = js.get_stream(&name).await.map_err(|e| nats_at(&name, e))?;
        let state = stream
            .info()
            .await
            .map_err(|e| nats_at(&format!("{name} info"), e))?
            .state
            .clone();
        for s in state.first_sequence.max(1)..=state.last_sequence {
            let m = match stream.get_raw_message(s).await {
                Ok(m) => m,
                Err(e) if is_not_found(&e) => continue,
                Err(e) => return Err(nats_at(&format!("{name} message {s}"), e)),
            };
            let not_a_frame = |reason: &str| StreamError::NotAFrame {
                stream_seq: s,
                reason: reason.to_owned(),
            };
            let seq: u64 = m
                .headers
                .get(SEQ_HEADER)
                .and_then(|v| v.as_str().parse().ok())
                .ok_or_else(|| not_a_frame("no Oubli-Seq header"))?;
            if seq <= head {
                continue;
            }
            let frame = Frame::decode(&m.payload).map_err(|source| StreamError::Chain {
                stream_seq: s,
                source,
            })?;
            if frame.seq() != seq {
                return Err(not_a_frame("Oubli-Seq does not match the frame"));
            }
            let st = store.clone();
            let applied = tokio::task::spawn_blocking(move || st.apply_frame(&frame))
                .await
                .map_err(|e| StreamError::Nats(e.to_string()))?;
            match applied {
                Ok(Applied::Applied { seq }) => {
                    head = seq;
                    frames_applied += 1;
                }
                Ok(Applied::Duplicate { .. }) => {}
                Err(crate::Error::Replication(ReplicationError::Gap { expected, found })) => {
                    return Err(StreamError::Gap {
                        stream_seq: s,
                        expected,
                        found,
                    });
                }
                Err(crate::Error::Replication(source)) => {
                    return Err(StreamError::Chain {
                        stream_seq: s,
                        source,
                    });
                }
                Err(e) => return Err(e.into()),
            }
        }
    }
    let store = Arc::try_unwrap(store).map_err(|_| StreamError::Stopped)?;
    Ok(Restored {
        store,
        generation: generation.unwrap_or(0),
        snapshot_seq,
        frames_applied,
        head,
    })
}

/// Downloads the tenant's snapshot from its generation's bucket into `dest`.
async fn download_snapshot(bucket: &ObjectStore, names: &TenantNames, dest: &Path) -> Result<u64> {
    let info = bucket
        .info(names.object())
        .await
        .map_err(|e| StreamError::Snapshot(e.to_string()))?;
    let seq: u64 = info
        .metadata
        .get(META_SEQ)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| StreamError::Snapshot("the snapshot object has no oubli-seq".into()))?;
    let mut object = bucket
        .get(names.object())
        .await
        .map_err(|e| StreamError::Snapshot(e.to_string()))?;
    let io = |source| StreamError::Io {
        path: dest.to_path_buf(),
        source,
    };
    let mut file = tokio::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(dest)
        .await
        .map_err(io)?;
    // The object store's reader checks the SHA-256 digest at the end.
    tokio::io::copy(&mut object, &mut file).await.map_err(io)?;
    file.sync_all().await.map_err(io)?;
    Ok(seq)
}

/// Makes a restored replica the tenant's leader: closes it and reopens its file without
/// [`StoreOptions::replica`] (with `opts`, which carry the tenant's signing key). The store then
/// completes any purge left incomplete, as a leader does on open, and signs its own checkpoints
/// with the same key; [`Store::verify_log`] holds across the handover.
pub fn promote(restored: Store, opts: StoreOptions) -> Result<Store> {
    let path = restored.path().to_path_buf();
    restored.close()?;
    drop(restored);
    Ok(Store::open_with(path, opts.replica(false))?)
}
