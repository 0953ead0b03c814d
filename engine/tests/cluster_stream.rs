//! Replication through NATS JetStream (`oubli::cluster::stream`, feature `cluster`), against
//! three real `nats-server`s with JetStream, clustered on loopback and started by the test.
//! Skipped, with a message, when `nats-server` is not installed (CI installs it).
#![cfg(feature = "cluster")]

mod cluster_nats;
mod common;

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use cluster_nats::{Cluster, files_holding, nats_server};
use common::*;
use oubli::cluster::stream::{
    self, Replicator, StreamConfig, StreamError, TenantNames, promote, restore,
};
use oubli::replication::ReplicationError;
use oubli::{Inscription, ManualClock, Store, StoreOptions, Target};

const T0: i64 = 1_763_700_000_000;
const MARKER: &str = "ZQXJ-nats-marker-4471";
const MARKER_KEY: &str = "natskey-QQ19-vex";

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

fn opts(clock: &Arc<ManualClock>) -> StoreOptions {
    fixed(clock.clone()).durable(false)
}

/// Starts a replicator, retrying while the JetStream cluster elects its leaders.
async fn start(
    js: &async_nats::jetstream::Context,
    store: &Arc<Store>,
    tenant: &str,
    config: StreamConfig,
) -> Replicator {
    let deadline = Instant::now() + Duration::from_secs(90);
    loop {
        match Replicator::start(js.clone(), store.clone(), tenant, config.clone()).await {
            Ok(r) => return r,
            Err(e) if Instant::now() < deadline => {
                eprintln!("waiting for JetStream: {e}");
                tokio::time::sleep(Duration::from_millis(250)).await;
            }
            Err(e) => panic!("JetStream not ready: {e}"),
        }
    }
}

/// Restores tenant `acme` of cluster `test` with a server down: a stream whose leader was on it
/// elects another within seconds, and a restore meanwhile fails with a typed error, leaving no
/// file; it is retried until it succeeds (at most 30 s).
async fn restore_retrying(
    js: &async_nats::jetstream::Context,
    dest: &Path,
    clock: &Arc<ManualClock>,
) -> stream::Restored {
    let deadline = Instant::now() + Duration::from_secs(90);
    loop {
        match restore(js, "test", "acme", dest, opts(clock)).await {
            Ok(r) => return r,
            Err(e) if Instant::now() < deadline => {
                assert!(!dest.exists(), "a failed restore left {}", dest.display());
                eprintln!("restore with a server down: {e}");
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
            Err(e) => panic!("restore with a server down: {e}"),
        }
    }
}

/// The account's file storage usage as JetStream counts it against `max_file`, and what the
/// streams of tenant `acme` at generation `g` and the generations stream hold (every replica),
/// once the two agree or after 15 s; `None` if the account has other streams. A replicator that
/// leaves usage behind (NATS 2.9 does not subtract a filtered purge, such as an object store's
/// replacement of an object) makes a busy cluster reach its limit and stall.
async fn accounted_and_held(js: &async_nats::jetstream::Context, g: u64) -> Option<(u64, u64)> {
    let names = [
        "OUBLI_GEN_test".to_owned(),
        format!("OUBLI_test_acme_{g}"),
        format!("OBJ_OUBLI_SNAP_test_acme_{g}"),
    ];
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        // The raw answer: async-nats 0.51's `query_account` expects fields NATS 2.9 omits.
        let account: serde_json::Value = js.request("INFO", &serde_json::json!({})).await.unwrap();
        let accounted = account["storage"].as_u64().expect("the account's storage");
        if account["streams"].as_u64() != Some(names.len() as u64) {
            return None;
        }
        let mut held = 0;
        for name in &names {
            let mut stream = js.get_stream(name).await.unwrap();
            let info = stream.info().await.unwrap();
            held += info.state.bytes * info.config.num_replicas as u64;
        }
        if accounted == held || Instant::now() >= deadline {
            eprintln!(
                "accounted {accounted} B, held {held} B, after {:?}",
                Instant::now() + Duration::from_secs(15) - deadline
            );
            return Some((accounted, held));
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

fn holds(path: &Path, needle: &str) -> bool {
    file_contains(path, needle.as_bytes())
}

#[test]
fn frames_snapshots_restore_and_erasure_across_three_nats_servers() {
    if nats_server().is_none() {
        eprintln!("SKIPPED: nats-server is not installed (apt-get install nats-server)");
        return;
    }
    let mut cluster = Cluster::start(3);
    let rt = runtime();
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::new(T0));
    let leader = Arc::new(Store::create_with(dir.path().join("acme.oubli"), opts(&clock)).unwrap());
    rt.block_on(async {
        let js = stream::connect(&cluster.urls(), Duration::from_secs(5))
            .await
            .unwrap();
        let config = StreamConfig::new("test").snapshot_every(8);
        let rep = start(&js, &leader, "acme", config).await;
        assert_eq!(rep.names().stream(1), "OUBLI_test_acme_1");
        assert_eq!(rep.progress().generation, 1);

        for i in 0..12 {
            rep.write(move |s| {
                s.inscribe(Inscription::new(format!("filler memory {i} about tea")))
            })
            .await
            .unwrap();
        }
        rep.write(|s| {
            s.inscribe(
                Inscription::new(format!("{MARKER} is the locker code of Vexlund"))
                    .namespace("user:vex")
                    .key(MARKER_KEY),
            )
        })
        .await
        .unwrap();
        // 15 frames: the snapshot after the 8th is the last before the purge.
        for i in 0..2 {
            rep.write(move |s| {
                s.inscribe(Inscription::new(format!("later memory {i} about rain")))
            })
            .await
            .unwrap();
        }
        let head = leader.head().unwrap().0;
        assert!(rep.progress().acked >= head);

        // A restore before the purge reproduces the leader, and the marker is in the cluster.
        let before = dir.path().join("before.oubli");
        let r = restore(&js, "test", "acme", &before, opts(&clock))
            .await
            .unwrap();
        assert!(r.snapshot_seq > 0, "a periodic snapshot was uploaded");
        assert!(
            r.frames_applied > 0,
            "frames after the snapshot came from the stream"
        );
        assert_eq!(r.head, head);
        assert_eq!(
            r.store.state_digests().unwrap(),
            leader.state_digests().unwrap()
        );
        drop(r);
        std::fs::remove_file(&before).unwrap();
        let holding: Vec<_> = cluster
            .nodes
            .iter()
            .flat_map(|n| files_holding(&n.store_dir, MARKER.as_bytes()))
            .collect();
        assert!(
            !holding.is_empty(),
            "the marker reached the NATS servers' files"
        );

        // The periodic snapshot after the 8th frame opened generation 2.
        let before_purge = rep.progress().generation;
        assert!(before_purge >= 2, "a periodic snapshot opens a generation");
        assert!(js.get_stream("OUBLI_test_acme_1").await.is_err());

        // The purge: its erasure reaches the stream messages and the snapshot.
        let (purge, erasure) = rep
            .purge(Target::key("user:vex", MARKER_KEY))
            .await
            .unwrap();
        assert_eq!(purge.erased.len(), 1);
        assert!(!erasure.frames.is_empty(), "{erasure:?}");
        assert!(erasure.snapshot.seq >= purge.seq);
        assert_eq!(erasure.snapshot.generation, before_purge + 1);
        assert_eq!(erasure.retired, vec![before_purge]);
        // The marker's frame was still in the stream (after the last periodic snapshot): it was
        // securely erased, then its whole generation deleted.
        assert!(erasure.frames.iter().any(|f| f.erased), "{erasure:?}");
        for g in 1..=before_purge {
            assert!(js.get_stream(format!("OUBLI_test_acme_{g}")).await.is_err());
            assert!(
                js.get_stream(format!("OBJ_OUBLI_SNAP_test_acme_{g}"))
                    .await
                    .is_err()
            );
        }
        for i in 0..3 {
            rep.write(move |s| s.inscribe(Inscription::new(format!("after the purge {i}"))))
                .await
                .unwrap();
        }
        let after = dir.path().join("after.oubli");
        let r = restore(&js, "test", "acme", &after, opts(&clock))
            .await
            .unwrap();
        assert_eq!(r.head, leader.head().unwrap().0);
        assert_eq!(
            r.store.state_digests().unwrap(),
            leader.state_digests().unwrap()
        );
        drop(r);
        // Every byte every server keeps: each removes a deleted stream's files when it applies
        // the deletion its cluster agreed on, within moments of the acknowledgement.
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let found: Vec<_> = [MARKER, MARKER_KEY]
                .iter()
                .flat_map(|needle| {
                    cluster
                        .nodes
                        .iter()
                        .flat_map(|n| files_holding(&n.store_dir, needle.as_bytes()))
                })
                .collect();
            if found.is_empty() {
                break;
            }
            assert!(Instant::now() < deadline, "purged bytes still in {found:?}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        for needle in [MARKER, MARKER_KEY] {
            assert!(!holds(&after, needle), "{needle} in the restored file");
        }
        // Nothing the replicator did is still counted against the servers' storage limit.
        let g = rep.progress().generation;
        let (accounted, held) = accounted_and_held(&js, g)
            .await
            .expect("only the generations stream and acme's current generation");
        assert_eq!(
            accounted, held,
            "the account's storage usage is not what its streams hold"
        );

        // One server of three killed (SIGKILL): the stream keeps its quorum.
        cluster.kill(2);
        for i in 0..4 {
            rep.write(move |s| s.inscribe(Inscription::new(format!("with two servers {i}"))))
                .await
                .unwrap();
        }
        let degraded = dir.path().join("degraded.oubli");
        let r = restore_retrying(&js, &degraded, &clock).await;
        assert_eq!(r.head, leader.head().unwrap().0);
        assert_eq!(
            r.store.state_digests().unwrap(),
            leader.state_digests().unwrap()
        );
        rep.stop().await.unwrap();

        // Takeover: the restored replica becomes the leader and writes, its log verifying.
        let pk = leader.public_key().unwrap();
        let promoted = promote(r.store, opts(&clock)).unwrap();
        promoted
            .inscribe(Inscription::new("written by the new leader"))
            .unwrap();
        promoted.verify_log(Some(pk)).unwrap();
        let promoted = Arc::new(promoted);
        let rep2 = start(&js, &promoted, "acme", StreamConfig::new("test")).await;
        rep2.write(|s| s.inscribe(Inscription::new("replicated by the new leader")))
            .await
            .unwrap();
        let again = dir.path().join("again.oubli");
        let r = restore_retrying(&js, &again, &clock).await;
        assert_eq!(
            r.store.state_digests().unwrap(),
            promoted.state_digests().unwrap()
        );
        rep2.stop().await.unwrap();
    });
}

#[test]
fn restore_reports_gaps_and_foreign_messages_as_typed_errors() {
    if nats_server().is_none() {
        eprintln!("SKIPPED: nats-server is not installed (apt-get install nats-server)");
        return;
    }
    let mut cluster = Cluster::start(1);
    let rt = runtime();
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::new(T0));
    let leader = Arc::new(Store::create_with(dir.path().join("gap.oubli"), opts(&clock)).unwrap());
    rt.block_on(async {
        let js = stream::connect(&cluster.urls(), Duration::from_secs(5))
            .await
            .unwrap();
        let config = StreamConfig::single_server("solo").snapshot_every(0);
        let rep = start(&js, &leader, "gap.tenant_1", config).await;
        let names = TenantNames::new("solo", "gap.tenant_1").unwrap();
        assert_eq!(names.stream(1), "OUBLI_solo_gap_2etenant_5f1_1");
        assert_eq!(names.subject(1), "oubli.solo.gap_2etenant_5f1.1.frames");
        for i in 0..5 {
            rep.write(move |s| s.inscribe(Inscription::new(format!("memory {i}"))))
                .await
                .unwrap();
        }
        rep.stop().await.unwrap();
        let ok = dir.path().join("ok.oubli");
        let r = restore(&js, "solo", "gap.tenant_1", &ok, opts(&clock))
            .await
            .unwrap();
        assert_eq!(r.frames_applied, 5);
        assert_eq!(
            r.store.state_digests().unwrap(),
            leader.state_digests().unwrap()
        );
        drop(r);

        let stream = js.get_stream(names.stream(1)).await.unwrap();
        let last = stream.get_info().await.unwrap().state.last_sequence;
        // A message missing in the middle: a gap, and no file left behind.
        stream.delete_message(last - 2).await.unwrap();
        let gap = dir.path().join("gap-restore.oubli");
        let e = restore(&js, "solo", "gap.tenant_1", &gap, opts(&clock))
            .await
            .err()
            .unwrap();
        assert!(matches!(e, StreamError::Gap { .. }), "{e}");
        assert!(!gap.exists());

        // A message that is not a frame: refused, typed.
        stream.purge().await.unwrap();
        let head = leader.head().unwrap().0;
        let mut headers = async_nats::HeaderMap::new();
        headers.insert(stream::SEQ_HEADER, (head + 1).to_string().as_str());
        js.publish_with_headers(names.subject(1), headers, "not a frame".into())
            .await
            .unwrap()
            .await
            .unwrap();
        let junk = dir.path().join("junk-restore.oubli");
        let e = restore(&js, "solo", "gap.tenant_1", &junk, opts(&clock))
            .await
            .err()
            .unwrap();
        assert!(
            matches!(
                e,
                StreamError::Chain {
                    source: ReplicationError::Malformed(_),
                    ..
                }
            ),
            "{e}"
        );
        assert!(!junk.exists());
        // A frame signed by another store's key, at the seq the restore needs next.
        stream.purge().await.unwrap();
        let foreign = Store::create_with(
            dir.path().join("foreign.oubli"),
            opts(&clock).signing_key([9; 32]),
        )
        .unwrap();
        foreign.start_feed().unwrap();
        while foreign.head().unwrap().0 <= head {
            foreign
                .inscribe(Inscription::new("a foreign write"))
                .unwrap();
        }
        let frame = foreign.changes_since(0).unwrap().pop().unwrap().frame;
        let mut headers = async_nats::HeaderMap::new();
        headers.insert(stream::SEQ_HEADER, frame.seq().to_string().as_str());
        js.publish_with_headers(names.subject(1), headers, frame.encode().into())
            .await
            .unwrap()
            .await
            .unwrap();
        let bad = dir.path().join("foreign-restore.oubli");
        let e = restore(&js, "solo", "gap.tenant_1", &bad, opts(&clock))
            .await
            .err()
            .unwrap();
        assert!(
            matches!(
                e,
                StreamError::Chain {
                    source: ReplicationError::ForeignKey,
                    ..
                }
            ),
            "{e}"
        );
        assert!(!bad.exists());
        // Bad names are typed errors before anything is sent.
        assert!(matches!(
            TenantNames::new("Bad Cluster", "acme"),
            Err(StreamError::Config(_))
        ));
        assert!(matches!(
            TenantNames::new("ok", "../etc"),
            Err(StreamError::Config(_))
        ));
        // A server that does not answer is an error, never a tenant that was never replicated:
        // a restore must not hand back an empty store for a tenant whose data it could not read.
        cluster.kill(0);
        let unreachable = dir.path().join("unreachable-restore.oubli");
        let e = restore(&js, "solo", "gap.tenant_1", &unreachable, opts(&clock))
            .await
            .err()
            .expect("a restore from a dead server fails");
        assert!(matches!(e, StreamError::Nats(_)), "{e}");
        assert!(!unreachable.exists());
    });
}
