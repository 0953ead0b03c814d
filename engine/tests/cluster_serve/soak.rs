//! The long soak of replicated serve (`#[ignore]`d): the deployment of `main.rs` for longer,
//! with many kills and purges. Its command and environment variables: docs/scale-out.md.

use super::*;

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The soak: `OUBLI_SOAK_SECS` (default 1800) of writes to `OUBLI_SOAK_TENANTS` tenants (default
/// 6) by `OUBLI_SOAK_CLIENTS` clients (default 4), with `OUBLI_SOAK_KILLS` (default 20) SIGKILLs
/// of a tenant's owner spread over it, each followed by a purge on another tenant and a restart
/// of the killed node on its own data directory. Reports lost acknowledged writes, logs that do
/// not verify, receipts that do not verify and residual purged bytes, and fails on any.
#[test]
#[ignore = "a long soak: see docs/scale-out.md"]
fn soak_replicated_serve() {
    let secs = env_u64("OUBLI_SOAK_SECS", 1800);
    let kills = env_u64("OUBLI_SOAK_KILLS", 20).max(1);
    let n_tenants = env_u64("OUBLI_SOAK_TENANTS", 6).clamp(1, 50) as usize;
    let clients = env_u64("OUBLI_SOAK_CLIENTS", 4).max(1) as usize;
    let names: Vec<String> = (0..n_tenants).map(|i| format!("soak{i}")).collect();
    let tenants: Vec<&str> = names.iter().map(String::as_str).collect();
    let Some(mut d) = Deployment::start("soak_replicated_serve", 3) else {
        return;
    };
    let started = Instant::now();
    eprintln!("soak: ready after {:?}", ready(&d, &tenants));
    let nodes = Arc::new(Mutex::new(d.live()));
    let load = Load::start(nodes.clone(), &tenants, clients);
    let period = Duration::from_secs(secs) / kills as u32;
    let mut purged = Vec::new();
    let mut purges_unknown = 0;
    let mut takeovers = Vec::new();
    for k in 0..kills as usize {
        let t0 = Instant::now();
        std::thread::sleep(period / 2);
        let live = d.live();
        let marker = format!("QXS{}-purge{k}-mark", std::process::id());
        match write_and_purge(&live, tenants[k % tenants.len()], &marker) {
            Some(p) => purged.push(p),
            None => purges_unknown += 1,
        }
        // Kill the owner of a tenant, chosen in turn.
        let target = tenants[(k + 1) % tenants.len()];
        let Some(victim) = d.owner(target) else {
            std::thread::sleep(period.saturating_sub(t0.elapsed()));
            continue;
        };
        d.kill(victim);
        let killed = Instant::now();
        *nodes.lock().unwrap() = d.live();
        let live = d.live();
        until_ok(Duration::from_secs(120), "takeover", || {
            call(
                &live,
                k,
                "POST",
                &format!("/t/{target}/recall"),
                &json!({"query": "tea", "user_id": "u1"}),
            )
        });
        takeovers.push(killed.elapsed());
        eprintln!(
            "soak: kill {}/{kills} (n{victim}, owner of {target}): served again after {:?}; {:?} elapsed",
            k + 1,
            killed.elapsed(),
            started.elapsed()
        );
        d.start_node(victim);
        *nodes.lock().unwrap() = d.live();
        std::thread::sleep(period.saturating_sub(t0.elapsed()));
    }
    let (acked, unacked) = load.finish();
    let live = d.live();
    let lost = lost_writes(&live, &acked);
    let (failed, keys) = chains(&live, &tenants);
    let bad = bad_receipts(&live, &purged, &keys);
    let left = residues(&d, &purged, Duration::from_secs(15));
    let max_takeover = takeovers.iter().max().copied().unwrap_or_default();
    let report = json!({
        "duration_s": started.elapsed().as_secs(),
        "kills": takeovers.len(),
        "max_takeover_ms": max_takeover.as_millis() as u64,
        "acknowledged_writes": acked.len(),
        "unacknowledged_writes": unacked,
        "lost_acknowledged_writes": lost.len(),
        "purges_acknowledged": purged.len(),
        "purges_unknown": purges_unknown,
        "chain_failures": failed.len(),
        "receipt_failures": bad.len(),
        "residual_purged_markers": left.len(),
    });
    eprintln!("soak report: {report}");
    if let Some(p) = purged.first() {
        eprintln!(
            "first purge's replication report: {}",
            p.answer["replication"]
        );
    }
    assert!(lost.is_empty(), "lost: {lost:?}");
    assert!(failed.is_empty(), "chains: {failed:?}");
    assert!(bad.is_empty(), "receipts: {bad:?}");
    assert!(left.is_empty(), "residues: {left:?}");
}
