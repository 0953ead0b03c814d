//! Placement and single-writer leases in etcd (feature `cluster`), on loopback only.
//!
//! Each test starts its own etcd (the `etcd` binary, Debian package `etcd-server`) on free
//! loopback ports in a temporary directory, and `oubli serve` nodes that share one data
//! directory (data movement between machines is the replication stream's part, not the
//! leases'). Without an `etcd` binary on the PATH the tests say so and pass without running.
#![cfg(feature = "cluster")]

mod cluster_etcd;

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use cluster_etcd::*;
use oubli::cluster::lease::{ClusterConfig, EtcdPlacement, HookError, Takeover};
use oubli::serve::{ServeConfig, Server, TenantId};
use serde_json::json;

/// The lease TTL of every node in these tests.
const TTL: Duration = Duration::from_secs(2);

fn inscribe(node: &Node, tenant: &str, text: &str) -> Reply {
    post(
        node.addr,
        &format!("/t/{tenant}/inscribe"),
        json!({"text": text, "user_id": "u1"}),
    )
    .unwrap_or_else(|| panic!("node {} did not answer", node.url))
}

fn recall(node: &Node, tenant: &str, query: &str) -> Reply {
    post(
        node.addr,
        &format!("/t/{tenant}/recall"),
        json!({"query": query, "user_id": "u1"}),
    )
    .unwrap_or_else(|| panic!("node {} did not answer", node.url))
}

fn texts(r: &Reply) -> Vec<String> {
    r.json()["memories"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|m| m["text"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn one_owner_per_tenant_others_redirect_and_a_dead_owners_tenant_moves() {
    let Some(bin) =
        etcd_or_skip("one_owner_per_tenant_others_redirect_and_a_dead_owners_tenant_moves")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let mut etcd = Etcd::start(&bin, dir.path(), 3);
    let eps = etcd.endpoints();
    let mut nodes: Vec<Node> = ["n1", "n2", "n3"]
        .iter()
        .map(|id| Node::start(dir.path(), &data, &eps, id, TTL, &[]))
        .collect();

    // The first request, to n1, places tenant acme on n1.
    let r = inscribe(&nodes[0], "acme", "Ada prefers tea in the morning");
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));

    // Exactly one owner: the other nodes send the client to n1, with the request's path.
    for other in &nodes[1..] {
        let r = recall(other, "acme", "tea");
        assert_eq!(r.status, 307, "{}", String::from_utf8_lossy(&r.body));
        assert_eq!(r.json()["code"], "tenant_moved");
        assert_eq!(
            r.header("location"),
            Some(format!("{}/t/acme/recall", nodes[0].url))
        );
        // Nothing was opened or written by a node that redirects.
        let r = inscribe(other, "acme", "never written");
        assert_eq!(r.status, 307);
    }
    let r = recall(&nodes[0], "acme", "tea");
    assert_eq!(r.status, 200);
    assert_eq!(texts(&r), vec!["Ada prefers tea in the morning".to_owned()]);
    // In etcd: one key, naming n1.
    let (record, _) = etcd.owner(0, "acme").expect("acme's key");
    assert_eq!(record, json!({"node": "n1", "url": nodes[0].url}));

    // Another tenant, first asked of n2, lives on n2.
    assert_eq!(inscribe(&nodes[1], "beta", "Bob likes trains").status, 200);
    let r = recall(&nodes[0], "beta", "trains");
    assert_eq!(r.status, 307);
    assert_eq!(
        r.header("location"),
        Some(format!("{}/t/beta/recall", nodes[1].url))
    );

    // n1 crashes (SIGKILL: no release, its lease simply stops being kept alive). Within the
    // TTL and a margin, n2 serves acme, with the row written before the crash.
    nodes[0].proc.kill();
    let killed = Instant::now();
    let r = within(TTL + Duration::from_secs(6), "n2 takes acme over", || {
        let r = recall(&nodes[1], "acme", "tea");
        (r.status == 200).then_some(r)
    });
    let took = killed.elapsed();
    eprintln!("acme moved from the killed n1 to n2 after {took:?} (lease TTL {TTL:?})");
    assert_eq!(texts(&r), vec!["Ada prefers tea in the morning".to_owned()]);
    assert_eq!(inscribe(&nodes[1], "acme", "Ada moved to Lyon").status, 200);
    // n3 now sends acme's clients to n2.
    let r = within(Duration::from_secs(5), "n3 redirects acme to n2", || {
        let r = recall(&nodes[2], "acme", "Lyon");
        (r.status == 307).then_some(r)
    });
    assert_eq!(
        r.header("location"),
        Some(format!("{}/t/acme/recall", nodes[1].url))
    );

    // One etcd member of three dies, the leader: placement keeps working on the other two.
    // The leases stay alive (n2 keeps acme, under the same key, well past a TTL), and a new
    // tenant is placed.
    let (record, acquired) = etcd.owner(0, "acme").expect("acme's key");
    assert_eq!(record["node"], "n2");
    let leader = etcd.leader();
    etcd.members[leader].kill();
    let alive = (leader + 1) % 3;
    let r = within(Duration::from_secs(10), "n3 places gamma", || {
        let r = inscribe(&nodes[2], "gamma", "Grace writes compilers");
        (r.status == 200).then_some(r)
    });
    assert_eq!(r.status, 200);
    let r = within(Duration::from_secs(5), "n2 redirects gamma to n3", || {
        let r = recall(&nodes[1], "gamma", "compilers");
        (r.status == 307).then_some(r)
    });
    assert_eq!(
        r.header("location"),
        Some(format!("{}/t/gamma/recall", nodes[2].url))
    );
    std::thread::sleep(TTL * 2);
    // Up to 15 s for the surviving members to answer (an election on a loaded machine), then
    // the key must be there: its absence would mean n2 lost acme.
    let (record, still) = within(
        Duration::from_secs(15),
        "a surviving etcd member answers for acme's key",
        || etcd.owner_read(alive, "acme"),
    )
    .expect("acme's key is gone: n2 lost acme while an etcd member was down");
    assert_eq!(record["node"], "n2");
    assert_eq!(
        still, acquired,
        "n2 lost acme while an etcd member was down"
    );
    // If n2's local lease deadline passed during the election, n2 stopped serving its tenants
    // (fencing) and adopts each again on its next request; until an etcd call of that adoption
    // reaches a surviving member, the answer is 503 `tenant_unavailable` ("retry shortly"), so
    // the client retries, as these tests do after every failure they inject.
    let serves = |tenant: &str, query: &str| {
        within(
            Duration::from_secs(10),
            "n2 serves its tenants again",
            || {
                let r = recall(&nodes[1], tenant, query);
                match r.status {
                    200 => Some(r),
                    503 if r.json()["code"] == "tenant_unavailable" => None,
                    _ => panic!("{}: {}", r.status, String::from_utf8_lossy(&r.body)),
                }
            },
        )
    };
    let r = serves("acme", "Lyon");
    assert!(texts(&r).contains(&"Ada moved to Lyon".to_owned()));
    serves("beta", "trains");
    for n in &mut nodes {
        n.proc.kill();
    }
}

/// Records the takeover hook's calls, and fails `on_acquire` for tenant `refused`.
#[derive(Default)]
struct Recorder {
    calls: Mutex<Vec<String>>,
    data: PathBuf,
}

impl Takeover for Recorder {
    fn on_acquire(&self, tenant: &TenantId) -> Result<(), HookError> {
        // Called before the store is opened: a restore may still write the file.
        let opened = tenant.store_path(&self.data).exists();
        self.calls
            .lock()
            .unwrap()
            .push(format!("acquire {tenant} opened={opened}"));
        if tenant.as_str() == "refused" {
            return Err("the restore failed".into());
        }
        Ok(())
    }

    fn on_release(&self, tenant: &TenantId) {
        self.calls.lock().unwrap().push(format!("release {tenant}"));
    }
}

fn in_process(
    etcd: &Etcd,
    data: &Path,
    id: &str,
    hook: Arc<Recorder>,
) -> (Server, Arc<EtcdPlacement>, String) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    let url = format!("http://{addr}");
    let mut c = ClusterConfig::new(etcd.clients.clone(), id, url.clone());
    c.cluster = "hooks".into();
    c.lease_ttl = TTL;
    c.takeover = hook;
    let placement = EtcdPlacement::connect(c).unwrap();
    let mut config = ServeConfig::new(data, addr);
    config.placement = Arc::clone(&placement) as _;
    (Server::start(config).unwrap(), placement, url)
}

#[test]
fn takeover_hooks_fencing_on_lease_loss_and_graceful_handover() {
    let Some(bin) = etcd_or_skip("takeover_hooks_fencing_on_lease_loss_and_graceful_handover")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let mut etcd = Etcd::start(&bin, dir.path(), 1);
    let hook_a = Arc::new(Recorder {
        data: data.clone(),
        ..Recorder::default()
    });
    let (a, placement_a, _) = in_process(&etcd, &data, "a", Arc::clone(&hook_a));
    let acme = TenantId::parse("acme").unwrap();

    // on_acquire runs once, before the store exists; then the tenant is served.
    let r = post(
        a.addr(),
        "/t/acme/inscribe",
        json!({"text": "kept across owners"}),
    )
    .unwrap();
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    post(a.addr(), "/t/acme/recall", json!({"query": "kept"})).unwrap();
    assert_eq!(
        *hook_a.calls.lock().unwrap(),
        vec!["acquire acme opened=false".to_owned()]
    );
    assert_eq!(placement_a.owned(), vec![acme.clone()]);

    // A failing on_acquire: 503, nothing opened, the tenant given back (the next request
    // acquires, and fails, again instead of finding it held).
    for _ in 0..2 {
        let r = post(a.addr(), "/t/refused/recall", json!({"query": "x"})).unwrap();
        assert_eq!(r.status, 503);
        assert_eq!(r.json()["code"], "tenant_unavailable");
    }
    assert!(!data.join("refused.oubli").exists());
    assert_eq!(
        hook_a
            .calls
            .lock()
            .unwrap()
            .iter()
            .filter(|c| c.starts_with("acquire refused"))
            .count(),
        2
    );

    // Graceful stop: stores closed, on_release called, the lease revoked, so another node
    // takes the tenant at once instead of after the TTL.
    a.stop().unwrap();
    assert!(
        hook_a
            .calls
            .lock()
            .unwrap()
            .contains(&"release acme".to_owned())
    );
    drop(placement_a);
    let hook_b = Arc::new(Recorder {
        data: data.clone(),
        ..Recorder::default()
    });
    let (b, placement_b, _) = in_process(&etcd, &data, "b", Arc::clone(&hook_b));
    let handover = Instant::now();
    let r = post(b.addr(), "/t/acme/recall", json!({"query": "kept"})).unwrap();
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert!(
        handover.elapsed() < TTL,
        "a graceful handover waits for no TTL"
    );
    assert_eq!(r.json()["memories"][0]["text"], "kept across owners");
    assert!(b.registry().is_open(&acme));

    // etcd goes away entirely: b cannot renew its lease, so within the TTL it stops
    // serving: requests answer 503, the store is closed and on_release called.
    etcd.members[0].kill();
    let lost = Instant::now();
    within(TTL + Duration::from_secs(2), "b stops serving acme", || {
        let r = post(b.addr(), "/t/acme/recall", json!({"query": "kept"})).unwrap();
        (r.status == 503 && r.json()["code"] == "tenant_unavailable").then_some(())
    });
    eprintln!("b stopped serving {:?} after losing etcd", lost.elapsed());
    assert!(lost.elapsed() <= TTL, "served past the lease's TTL");
    within(Duration::from_secs(2), "acme's store is closed", || {
        (!b.registry().is_open(&acme)).then_some(())
    });
    assert!(!placement_b.has_lease());
    assert!(placement_b.owned().is_empty());
    assert!(
        hook_b
            .calls
            .lock()
            .unwrap()
            .contains(&"release acme".to_owned())
    );
    b.stop().unwrap();
}
