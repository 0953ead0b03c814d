//! The server's placement and replication hooks: a request for a tenant placed elsewhere is
//! refused or redirected before any store opens, and every store is opened, confirmed and closed
//! through the replication hook.

use super::*;

struct Fixed;

impl Placement for Fixed {
    fn place<'a>(&'a self, tenant: &'a TenantId) -> PlaceFuture<'a> {
        Box::pin(async move { self.decide(tenant) })
    }

    fn may_write(&self, tenant: &TenantId) -> bool {
        tenant.as_str() != "fenced"
    }
}

impl Fixed {
    fn decide(&self, tenant: &TenantId) -> Decision {
        match tenant.as_str() {
            "blocked" => Decision::Refuse {
                reason: "draining".into(),
            },
            "moved" => Decision::Redirect {
                location: "http://10.0.0.7:8766/".into(),
            },
            "between-owners" => Decision::Unavailable {
                reason: "lease lost".into(),
            },
            _ => Decision::Serve,
        }
    }
}

#[test]
fn the_placement_hook_refuses_or_redirects_before_any_store_opens() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path(), |c| c.placement = Arc::new(Fixed));
    let a = server.addr();
    let r = post(a, "/t/blocked/recall", None, json!({"query": "x"}));
    assert_eq!(r.expect(421)["code"], "tenant_refused");
    let r = post(a, "/t/moved/recall", None, json!({"query": "x"}));
    assert_eq!(r.expect(307)["code"], "tenant_moved");
    assert_eq!(
        r.header("location").as_deref(),
        Some("http://10.0.0.7:8766/t/moved/recall")
    );
    let r = post(a, "/t/between-owners/recall", None, json!({"query": "x"}));
    assert_eq!(r.expect(503)["code"], "tenant_unavailable");
    assert_eq!(r.header("retry-after").as_deref(), Some("1"));
    // Placed here, but the fencing check before the store is touched says no.
    let r = post(a, "/t/fenced/inscribe", None, json!({"text": "x"}));
    assert_eq!(r.expect(503)["code"], "tenant_unavailable");
    assert_eq!(server.registry().stats().opened, 0);
    assert!(!dir.path().join("fenced.oubli").exists());
    post(a, "/t/here/recall", None, json!({"query": "x"})).expect(200);
    server.stop().unwrap();
}

/// A replication hook that records its calls, signs with a fixed key, and fails when told to.
#[derive(Default)]
struct Recording {
    calls: std::sync::Mutex<Vec<String>>,
    fail_open: std::sync::atomic::AtomicBool,
    fail_ack: std::sync::atomic::AtomicBool,
}

impl Recording {
    fn log(&self, s: String) {
        self.calls.lock().unwrap().push(s);
    }
}

impl Replication for Recording {
    fn store_options(
        &self,
        tenant: &TenantId,
        base: &StoreOptions,
    ) -> Result<StoreOptions, ApiError> {
        self.log(format!("options {tenant}"));
        Ok(base.clone().signing_key([9; 32]))
    }

    fn opened<'a>(
        &'a self,
        tenant: &'a TenantId,
        store: &'a Arc<oubli::Store>,
    ) -> HookFuture<'a, Result<(), ApiError>> {
        Box::pin(async move {
            self.log(format!("opened {tenant} head={}", store.head().unwrap().0));
            if self.fail_open.load(Ordering::SeqCst) {
                return Err(ApiError::unavailable(tenant, "no stream"));
            }
            Ok(())
        })
    }

    fn closing<'a>(&'a self, tenant: &'a TenantId) -> HookFuture<'a, ()> {
        Box::pin(async move { self.log(format!("closing {tenant}")) })
    }

    fn committed<'a>(
        &'a self,
        tenant: &'a TenantId,
        store: &'a Arc<oubli::Store>,
        head: u64,
        purge: Option<u64>,
    ) -> HookFuture<'a, Result<Committed, ApiError>> {
        Box::pin(async move {
            assert_eq!(store.head().unwrap().0, head);
            self.log(format!("committed {tenant} purge={}", purge.is_some()));
            if self.fail_ack.load(Ordering::SeqCst) {
                return Err(ApiError::not_acknowledged(tenant, "test"));
            }
            Ok(Committed {
                replicated: true,
                report: purge.map(|seq| json!({ "purge_frame": seq })),
            })
        })
    }
}

#[test]
fn the_replication_hook_opens_confirms_and_closes_every_store() {
    let dir = tempfile::tempdir().unwrap();
    let hook = Arc::new(Recording::default());
    let server = start(dir.path(), |c| c.replication = hook.clone());
    let a = server.addr();
    let calls = || hook.calls.lock().unwrap().clone();

    // The store opens with the hook's options, the hook sees it open before the write, and
    // the write is answered after the hook confirmed it; a read is not confirmed.
    post(
        a,
        "/t/acme/inscribe",
        None,
        json!({"text": "Ana likes tea", "key": "k"}),
    )
    .expect(200);
    post(a, "/t/acme/recall", None, json!({"query": "tea"})).expect(200);
    assert_eq!(
        calls(),
        vec![
            "options acme",
            "opened acme head=0",
            "committed acme purge=false"
        ]
    );
    let pk = get(a, "/t/acme/key", None).expect(200);
    let expected = ed25519_dalek::SigningKey::from_bytes(&[9; 32]).verifying_key();
    let hex: String = expected
        .as_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(pk["public_key"], hex.as_str());

    // A purge's answer carries the hook's report, for the purge event's seq.
    let r = post(a, "/t/acme/purge", None, json!({"target": {"key": "k"}})).expect(200);
    assert_eq!(r["replication"]["purge_frame"], r["purge_id"]);
    assert_eq!(calls().last().unwrap(), "committed acme purge=true");

    // Not confirmed: 504, outcome unknown (the write committed here).
    hook.fail_ack.store(true, Ordering::SeqCst);
    let r = post(a, "/t/acme/inscribe", None, json!({"text": "unconfirmed"}));
    assert_eq!(r.expect(504)["code"], "not_acknowledged");
    hook.fail_ack.store(false, Ordering::SeqCst);

    // The hook refuses a store once open: 503, and the store is closed again.
    hook.fail_open.store(true, Ordering::SeqCst);
    let r = post(a, "/t/beta/inscribe", None, json!({"text": "never"}));
    assert_eq!(r.expect(503)["code"], "tenant_unavailable");
    assert!(!server.registry().is_open(&tenant("beta")));
    assert_eq!(server.registry().stats().open, 1);
    hook.fail_open.store(false, Ordering::SeqCst);
    post(a, "/t/beta/recall", None, json!({"query": "x"})).expect(200);

    // Closing runs the hook first.
    server.stop().unwrap();
    let c = calls();
    assert!(c.contains(&"closing acme".to_owned()), "{c:?}");
    assert!(c.contains(&"closing beta".to_owned()), "{c:?}");
}
