//! `oubli serve --etcd ... --nats ...` end to end (feature `cluster`), on loopback: three etcd
//! members, three `nats-server`s (JetStream, R3) and three `oubli serve` nodes, each with its
//! own data directory. Clients write to several tenants under load; the owner of a tenant is
//! killed (SIGKILL); its tenants are restored from the stream on another node; every
//! acknowledged write is there afterwards, logs and receipts verify with the same key, and a
//! purge issued before the kill left no byte of the purged text in any node's data directory
//! nor in any NATS server's store directory.
//!
//! `replicated_serve_survives_a_kill_with_no_acknowledged_write_lost` runs in CI (skipped with a
//! message when `etcd` or `nats-server` is missing). `soak_replicated_serve` is the long soak
//! (`#[ignore]`d): see docs/scale-out.md for its command and its environment variables.
#![cfg(feature = "cluster")]

#[path = "../cluster_etcd/mod.rs"]
mod cluster_etcd;
#[path = "../cluster_nats/mod.rs"]
mod cluster_nats;
mod soak;

use std::collections::{BTreeMap, BTreeSet};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use cluster_etcd::{Etcd, Node, Reply, etcd_binary, http};
use serde_json::{Value, json};

/// The lease TTL of every node.
const TTL: Duration = Duration::from_secs(2);

/// A deployment: etcd, NATS and `oubli serve` nodes, each node with its own data directory.
struct Deployment {
    dir: tempfile::TempDir,
    etcd: Etcd,
    nats: cluster_nats::Cluster,
    /// Node `i` is `n{i}`; `None` while killed.
    nodes: Vec<Option<Node>>,
    data: Vec<PathBuf>,
    secret: PathBuf,
}

impl Deployment {
    /// Starts everything, or says why not and returns `None` (a binary is missing).
    fn start(test: &str, n: usize) -> Option<Deployment> {
        let Some(etcd_bin) = etcd_binary() else {
            eprintln!("SKIPPED {test}: no `etcd` on the PATH (apt-get install etcd-server)");
            return None;
        };
        if cluster_nats::nats_server().is_none() {
            eprintln!("SKIPPED {test}: no `nats-server` (apt-get install nats-server)");
            return None;
        }
        let dir = tempfile::tempdir().unwrap();
        let etcd = Etcd::start(&etcd_bin, dir.path(), 3);
        let nats = cluster_nats::Cluster::start(3);
        // The deployment's signing secret: the same file for every node, private.
        let secret = dir.path().join("signing-secret");
        let bytes: Vec<u8> = (0..32u8)
            .map(|i| i.wrapping_mul(37) ^ (std::process::id() as u8))
            .collect();
        std::fs::write(&secret, hex(&bytes)).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o600)).unwrap();
        }
        let data = (0..n)
            .map(|i| dir.path().join(format!("data-n{i}")))
            .collect();
        let mut d = Deployment {
            dir,
            etcd,
            nats,
            nodes: (0..n).map(|_| None).collect(),
            data,
            secret,
        };
        for i in 0..n {
            d.start_node(i);
        }
        Some(d)
    }

    /// Starts (or restarts, on its own data directory) node `i`.
    fn start_node(&mut self, i: usize) {
        let extra = vec![
            "--nats".to_owned(),
            self.nats.urls().join(","),
            "--signing-secret".to_owned(),
            self.secret.display().to_string(),
        ];
        self.nodes[i] = Some(Node::start(
            self.dir.path(),
            &self.data[i],
            &self.etcd.endpoints(),
            &format!("n{i}"),
            TTL,
            &extra,
        ));
    }

    /// Kills node `i` with SIGKILL.
    fn kill(&mut self, i: usize) {
        if let Some(mut n) = self.nodes[i].take() {
            n.proc.kill();
        }
    }

    fn live(&self) -> Vec<SocketAddr> {
        self.nodes.iter().flatten().map(|n| n.addr).collect()
    }

    /// The index of the node owning `tenant` in etcd, if any.
    fn owner(&self, tenant: &str) -> Option<usize> {
        let (record, _) = (0..3).find_map(|m| self.etcd.owner(m, tenant))?;
        record["node"].as_str()?.strip_prefix('n')?.parse().ok()
    }

    /// Every directory whose raw bytes must hold no purged text: the nodes' data directories
    /// and the NATS servers' store directories.
    fn scanned_dirs(&self) -> Vec<PathBuf> {
        let mut v = self.data.clone();
        v.extend(self.nats.nodes.iter().map(|n| n.store_dir.clone()));
        v
    }

    /// The files under the scanned directories holding `needle`.
    fn holding(&self, needle: &str) -> Vec<PathBuf> {
        self.scanned_dirs()
            .iter()
            .flat_map(|d| cluster_nats::files_holding(d, needle.as_bytes()))
            .collect()
    }
}

/// On a failing test, keeps every process's log (etcd members, NATS servers, `oubli serve`
/// nodes) in `$TMPDIR/oubli-cluster-logs-<pid>` and says where: the deployment's directories are
/// removed when it drops, and a failure is rarely understood without them.
impl Drop for Deployment {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            return;
        }
        let kept = std::env::temp_dir().join(format!("oubli-cluster-logs-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&kept);
        for dir in [self.dir.path(), self.nats.dir.path()] {
            for f in cluster_nats::files_under(dir) {
                if f.extension().is_some_and(|e| e == "log") {
                    let name = f
                        .strip_prefix(dir)
                        .unwrap_or(&f)
                        .to_string_lossy()
                        .replace('/', "_");
                    let _ = std::fs::copy(&f, kept.join(name));
                }
            }
        }
        eprintln!("the deployment's logs are kept in {}", kept.display());
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

/// One request to `tenant` through any live node (the `k`-th, cyclically), following
/// redirects to the owner; `None` when no node answered.
fn call(d: &[SocketAddr], k: usize, method: &str, path: &str, body: &Value) -> Option<Reply> {
    if d.is_empty() {
        return None;
    }
    let mut addr = d[k % d.len()];
    let mut path = path.to_owned();
    for _ in 0..4 {
        let r = http(addr, method, &path, &body.to_string())?;
        if r.status != 307 {
            return Some(r);
        }
        let loc = r.header("location")?;
        let rest = loc.strip_prefix("http://")?;
        let slash = rest.find('/')?;
        addr = rest[..slash].parse().ok()?;
        path = rest[slash..].to_owned();
    }
    None
}

/// Retries `f` until it answers 200, for at most `limit`; the answer and the time it took.
fn until_ok(limit: Duration, what: &str, f: impl FnMut() -> Option<Reply>) -> (Reply, Duration) {
    until_status(limit, what, &[200], f)
}

/// Retries `f` until it answers one of `statuses`, for at most `limit`.
fn until_status(
    limit: Duration,
    what: &str,
    statuses: &[u16],
    mut f: impl FnMut() -> Option<Reply>,
) -> (Reply, Duration) {
    let start = Instant::now();
    loop {
        let last = match f() {
            Some(r) if statuses.contains(&r.status) => return (r, start.elapsed()),
            Some(r) => format!("{} {}", r.status, String::from_utf8_lossy(&r.body)),
            None => "no answer".to_owned(),
        };
        assert!(
            start.elapsed() < limit,
            "{what}: not within {limit:?}; last: {last}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// An acknowledged write.
#[derive(Clone, Debug)]
struct Acked {
    tenant: String,
    id: u64,
    text: String,
}

/// Client threads writing to the tenants until stopped; they keep every acknowledged write.
struct Load {
    stop: Arc<AtomicBool>,
    acked: Arc<Mutex<Vec<Acked>>>,
    unacked: Arc<AtomicU64>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl Load {
    fn start(nodes: Arc<Mutex<Vec<SocketAddr>>>, tenants: &[&str], clients: usize) -> Load {
        let stop = Arc::new(AtomicBool::new(false));
        let acked = Arc::new(Mutex::new(Vec::new()));
        let unacked = Arc::new(AtomicU64::new(0));
        let tenants: Vec<String> = tenants.iter().map(|t| t.to_string()).collect();
        let threads = (0..clients)
            .map(|c| {
                let (stop, acked, unacked, nodes, tenants) = (
                    stop.clone(),
                    acked.clone(),
                    unacked.clone(),
                    nodes.clone(),
                    tenants.clone(),
                );
                std::thread::spawn(move || {
                    let mut n = 0usize;
                    while !stop.load(Ordering::Relaxed) {
                        let tenant = &tenants[(c + n) % tenants.len()];
                        let text = format!("client{c} wrote note{n} about tea");
                        let live = nodes.lock().unwrap().clone();
                        let r = call(
                            &live,
                            c + n,
                            "POST",
                            &format!("/t/{tenant}/inscribe"),
                            &json!({"text": text, "user_id": "u1"}),
                        );
                        match r {
                            Some(r) if r.status == 200 => {
                                let id = r.json()["id"].as_u64().expect("an id");
                                acked.lock().unwrap().push(Acked {
                                    tenant: tenant.clone(),
                                    id,
                                    text,
                                });
                            }
                            _ => {
                                unacked.fetch_add(1, Ordering::Relaxed);
                                std::thread::sleep(Duration::from_millis(50));
                            }
                        }
                        n += 1;
                    }
                })
            })
            .collect();
        Load {
            stop,
            acked,
            unacked,
            threads,
        }
    }

    fn finish(self) -> (Vec<Acked>, u64) {
        self.stop.store(true, Ordering::Relaxed);
        for t in self.threads {
            t.join().unwrap();
        }
        let acked = self.acked.lock().unwrap().clone();
        (acked, self.unacked.load(Ordering::Relaxed))
    }
}

/// The acknowledged writes missing from the cluster now (each asked of its tenant's owner, by
/// four threads: a soak acknowledges hundreds of thousands).
fn lost_writes(nodes: &[SocketAddr], acked: &[Acked]) -> Vec<Acked> {
    let lost = |(k, a): &(usize, &Acked)| {
        // A missing row (404) is an answer, not a reason to retry.
        let (r, _) = until_status(Duration::from_secs(60), "history", &[200, 404], || {
            call(
                nodes,
                *k,
                "POST",
                &format!("/t/{}/history", a.tenant),
                &json!({"id": a.id, "user_id": "u1"}),
            )
        });
        let chain = r.json()["chain"].clone();
        !chain
            .as_array()
            .is_some_and(|c| c.iter().any(|m| m["text"] == a.text.as_str()))
    };
    let all: Vec<(usize, &Acked)> = acked.iter().enumerate().collect();
    let chunk = all.len().div_ceil(4).max(1);
    std::thread::scope(|s| {
        let workers: Vec<_> = all
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    part.iter()
                        .filter(|x| lost(x))
                        .map(|(_, a)| (*a).clone())
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    })
}

/// Tenants whose log does not verify (hash chain and signatures), and each tenant's key.
fn chains(nodes: &[SocketAddr], tenants: &[&str]) -> (Vec<String>, BTreeMap<String, String>) {
    let mut failed = Vec::new();
    let mut keys = BTreeMap::new();
    for (k, t) in tenants.iter().enumerate() {
        let (r, _) = until_ok(Duration::from_secs(60), "verify", || {
            call(nodes, k, "GET", &format!("/t/{t}/verify"), &json!({}))
        });
        if r.json()["ok"] != true {
            failed.push(format!("{t}: {}", r.json()["report"]));
        }
        let (r, _) = until_ok(Duration::from_secs(60), "key", || {
            call(nodes, k, "GET", &format!("/t/{t}/key"), &json!({}))
        });
        keys.insert(
            t.to_string(),
            r.json()["public_key"].as_str().unwrap().to_owned(),
        );
    }
    (failed, keys)
}

/// A purge issued through the cluster and acknowledged: its marker text, receipt and key.
struct Purged {
    tenant: String,
    marker: String,
    purge_id: u64,
    receipt: String,
    public_key: String,
    answer: Value,
}

/// Writes `marker` to `tenant` and purges it; `None` when either was not acknowledged (its
/// outcome is then unknown, and it is not counted).
fn write_and_purge(nodes: &[SocketAddr], tenant: &str, marker: &str) -> Option<Purged> {
    let key = format!("key-{marker}");
    let r = call(
        nodes,
        0,
        "POST",
        &format!("/t/{tenant}/inscribe"),
        &json!({"text": format!("{marker} is the locker code"), "key": key, "user_id": "u1"}),
    )?;
    if r.status != 200 {
        return None;
    }
    let r = call(
        nodes,
        0,
        "POST",
        &format!("/t/{tenant}/purge"),
        &json!({"target": {"key": key}, "user_id": "u1"}),
    )?;
    if r.status != 200 {
        eprintln!(
            "purge of {marker} not acknowledged: {} {}",
            r.status,
            String::from_utf8_lossy(&r.body)
        );
        return None;
    }
    let a = r.json();
    Some(Purged {
        tenant: tenant.to_owned(),
        marker: marker.to_owned(),
        purge_id: a["purge_id"].as_u64().unwrap(),
        receipt: a["receipt"].as_str().unwrap().to_owned(),
        public_key: a["public_key"].as_str().unwrap().to_owned(),
        answer: a,
    })
}

/// Receipts that do not verify with their tenant's current public key (fetched from the
/// tenant's owner, byte for byte as stored).
fn bad_receipts(
    nodes: &[SocketAddr],
    purged: &[Purged],
    keys: &BTreeMap<String, String>,
) -> Vec<String> {
    let mut bad = Vec::new();
    for (k, p) in purged.iter().enumerate() {
        let key: [u8; 32] = unhex(&keys[&p.tenant]).try_into().unwrap();
        if p.public_key != keys[&p.tenant] {
            bad.push(format!("{}: the tenant's key changed", p.marker));
        }
        let (r, _) = until_ok(Duration::from_secs(60), "receipt", || {
            call(
                nodes,
                k,
                "GET",
                &format!("/t/{}/receipts/{}", p.tenant, p.purge_id),
                &json!({}),
            )
        });
        for doc in [p.receipt.as_bytes(), &r.body[..]] {
            if let Err(e) = oubli::audit::receipt::SignedReceipt::verify_document(doc, Some(&key)) {
                bad.push(format!("{}: {e}", p.marker));
            }
        }
    }
    bad
}

/// Residual bytes of purged markers, polled for `wait` (servers remove a deleted stream's
/// files as they apply the deletion).
fn residues(d: &Deployment, purged: &[Purged], wait: Duration) -> Vec<(String, Vec<PathBuf>)> {
    let until = Instant::now() + wait;
    loop {
        let left: Vec<(String, Vec<PathBuf>)> = purged
            .iter()
            .map(|p| (p.marker.clone(), d.holding(&p.marker)))
            .filter(|(_, f)| !f.is_empty())
            .collect();
        if left.is_empty() || Instant::now() >= until {
            return left;
        }
        std::thread::sleep(Duration::from_millis(250));
    }
}

/// Waits until every tenant answers a write (JetStream elects its stream leaders first: that
/// took up to 57 s in earlier runs on this machine), and returns how long it took.
fn ready(d: &Deployment, tenants: &[&str]) -> Duration {
    let start = Instant::now();
    for (k, t) in tenants.iter().enumerate() {
        until_ok(Duration::from_secs(120), "the first write", || {
            call(
                &d.live(),
                k,
                "POST",
                &format!("/t/{t}/inscribe"),
                &json!({"text": format!("{t} opened"), "user_id": "u1"}),
            )
        });
    }
    start.elapsed()
}

const TENANTS: [&str; 4] = ["acme", "beta", "gamma.io", "delta_2"];

#[test]
fn replicated_serve_survives_a_kill_with_no_acknowledged_write_lost() {
    let started = Instant::now();
    let Some(mut d) = Deployment::start(
        "replicated_serve_survives_a_kill_with_no_acknowledged_write_lost",
        3,
    ) else {
        return;
    };
    let took = ready(&d, &TENANTS);
    eprintln!("every tenant answered a write after {took:?}");
    let victim = d.owner("acme").expect("acme has an owner");
    let victims: Vec<&str> = TENANTS
        .iter()
        .copied()
        .filter(|t| d.owner(t) == Some(victim))
        .collect();

    let nodes = Arc::new(Mutex::new(d.live()));
    let load = Load::start(nodes.clone(), &TENANTS, 3);
    std::thread::sleep(Duration::from_secs(3));

    // A purge on the victim's tenant, before the kill. The marker reached the NATS servers'
    // files first (so that the scan below can fail).
    let marker = format!("QXV{}-purged-locker", std::process::id());
    let live = d.live();
    let r = call(
        &live,
        0,
        "POST",
        "/t/acme/inscribe",
        &json!({"text": format!("{marker} is the locker code"), "key": "locker", "user_id": "u1"}),
    )
    .unwrap();
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let in_nats: usize = d
        .nats
        .nodes
        .iter()
        .map(|n| cluster_nats::files_holding(&n.store_dir, marker.as_bytes()).len())
        .sum();
    assert!(
        in_nats > 0,
        "the acknowledged write is in no NATS server's files"
    );
    let r = call(
        &live,
        0,
        "POST",
        "/t/acme/purge",
        &json!({"target": {"key": "locker"}, "user_id": "u1"}),
    )
    .unwrap();
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let a = r.json();
    let erasure = &a["replication"];
    assert!(
        erasure["purge_frame"].as_u64().unwrap() >= a["purge_id"].as_u64().unwrap(),
        "{a}"
    );
    assert!(!erasure["retired"].as_array().unwrap().is_empty(), "{a}");
    assert!(
        erasure["snapshot"]["generation"].as_u64().unwrap() >= 2,
        "{a}"
    );
    assert!(
        erasure["frames"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["erased"] == true),
        "the frame holding the marker was erased from the stream: {a}"
    );
    let purged = vec![Purged {
        tenant: "acme".into(),
        marker: marker.clone(),
        purge_id: a["purge_id"].as_u64().unwrap(),
        receipt: a["receipt"].as_str().unwrap().to_owned(),
        public_key: a["public_key"].as_str().unwrap().to_owned(),
        answer: a.clone(),
    }];

    // SIGKILL the owner, under load. Its tenants are served by another node within the lease
    // TTL plus the restore from the stream.
    std::thread::sleep(Duration::from_secs(2));
    d.kill(victim);
    let killed = Instant::now();
    *nodes.lock().unwrap() = d.live();
    let live = d.live();
    for t in &victims {
        until_ok(Duration::from_secs(60), "takeover", || {
            call(
                &live,
                0,
                "POST",
                &format!("/t/{t}/recall"),
                &json!({"query": "tea", "user_id": "u1"}),
            )
        });
        eprintln!(
            "{t} served again {:?} after the SIGKILL of its owner n{victim} (lease TTL {TTL:?})",
            killed.elapsed()
        );
        assert_ne!(d.owner(t), Some(victim));
    }
    assert!(
        killed.elapsed() < TTL + Duration::from_secs(30),
        "the takeover took {:?}",
        killed.elapsed()
    );
    std::thread::sleep(Duration::from_secs(3));
    let (acked, unacked) = load.finish();
    let per_tenant: BTreeSet<&str> = acked.iter().map(|a| a.tenant.as_str()).collect();
    eprintln!(
        "{} writes acknowledged ({} tenants), {unacked} not (refused or unknown)",
        acked.len(),
        per_tenant.len()
    );
    assert!(acked.len() > 20, "too little load to mean anything");

    let lost = lost_writes(&live, &acked);
    assert!(lost.is_empty(), "acknowledged writes lost: {lost:?}");
    let (failed, keys) = chains(&live, &TENANTS);
    assert!(failed.is_empty(), "logs that do not verify: {failed:?}");
    let bad = bad_receipts(&live, &purged, &keys);
    assert!(bad.is_empty(), "receipts: {bad:?}");
    let left = residues(&d, &purged, Duration::from_secs(10));
    assert!(left.is_empty(), "purged bytes left: {left:?}");
    // The purged row is gone on the new owner too.
    let r = call(
        &live,
        0,
        "POST",
        "/t/acme/recall",
        &json!({"query": marker, "user_id": "u1"}),
    )
    .unwrap();
    assert!(!String::from_utf8_lossy(&r.body).contains(&marker));
    eprintln!("cluster_serve test took {:?}", started.elapsed());
}
