//! The node's lease over time: granting it, keeping it alive, the fencing deadline at which
//! the node stops serving, giving tenants back, and the watch that keeps the owner cache.

use super::*;

impl Shared {
    /// Obtains a new lease (at start, and after the previous one was lost).
    pub(super) async fn grant(&self) -> Result<(), LeaseError> {
        let mut client = self.client.clone();
        let sent = Instant::now();
        let resp = timed(client.lease_grant(self.ttl.as_secs() as i64, None)).await?;
        let ttl = Duration::from_secs(resp.ttl().max(0) as u64);
        let mut state = self.state.lock();
        state.lease = LeaseState {
            id: resp.id(),
            valid_until: sent + ttl - margin(ttl),
            live: true,
        };
        // Tenants of an earlier lease were released when it was lost.
        state.mine.clear();
        drop(state);
        tracing::info!(node = %self.node.node, lease = resp.id(), ?ttl, "lease granted");
        Ok(())
    }

    /// Loads every tenant key into the cache; returns the revision it reflects. Gives up
    /// this node's tenants whose keys are no longer attached to its lease.
    pub(super) async fn load(self: &Arc<Self>) -> Result<i64, LeaseError> {
        let mut client = self.client.clone();
        let resp =
            timed(client.get(self.prefix.clone(), Some(GetOptions::new().with_prefix()))).await?;
        let revision = resp.header().map_or(0, |h| h.revision());
        let mut owners = HashMap::new();
        for kv in resp.kvs() {
            if let (Some(t), Some(o)) = (self.tenant_of(kv.key()), parse_owner(kv)) {
                owners.insert(t, o);
            }
        }
        // Held tenants whose key this snapshot (newer than their acquisition) no longer shows
        // attached to this node's lease.
        let lost: Vec<TenantId> = {
            let state = self.state.lock();
            state
                .mine
                .iter()
                .filter(|(t, acquired)| {
                    **acquired < revision
                        && owners.get(t.as_str()).is_none_or(|o| {
                            o.lease != state.lease.id || o.record.node != self.node.node
                        })
                })
                .map(|(t, _)| t.clone())
                .collect()
        };
        *self.owners.lock() = owners;
        for t in lost {
            self.release(&t, None).await;
        }
        Ok(revision)
    }

    pub(super) fn tenant_of(&self, key: &[u8]) -> Option<String> {
        std::str::from_utf8(key)
            .ok()?
            .strip_prefix(&self.prefix)
            .map(str::to_owned)
    }

    /// Keeps the lease alive; on loss, stops serving and obtains a new lease.
    pub(super) async fn keep_alive_loop(self: Arc<Self>) {
        let interval = (self.ttl / 3).max(Duration::from_millis(300));
        while !self.stopping.load(Ordering::Acquire) {
            let lease = self.state.lock().lease;
            if !lease.valid() {
                self.lose_lease(lease.id).await;
                continue;
            }
            let mut client = self.client.clone();
            // No wait outlasts the lease: at its deadline the loop comes back to the top and
            // stops every tenant.
            let opened = tokio::time::timeout(
                lease.left().min(CALL_TIMEOUT),
                client.lease_keep_alive(lease.id),
            )
            .await;
            let (mut keeper, mut stream) = match opened {
                Ok(Ok(s)) => s,
                _ => {
                    tracing::warn!(lease = lease.id, "keep-alive stream failed; retrying");
                    let pause = RETRY_PAUSE.min(self.state.lock().lease.left());
                    tokio::time::sleep(pause).await;
                    continue;
                }
            };
            loop {
                if self.stopping.load(Ordering::Acquire) {
                    return;
                }
                let sent = Instant::now();
                let answer = async {
                    keeper.keep_alive().await?;
                    stream.message().await
                };
                let wait = interval.min(self.state.lock().lease.left());
                match tokio::time::timeout(wait, answer).await {
                    Ok(Ok(Some(r))) if r.ttl() > 0 => {
                        let ttl = Duration::from_secs(r.ttl() as u64);
                        let mut state = self.state.lock();
                        let l = &mut state.lease;
                        if l.live && l.id == lease.id {
                            l.valid_until = sent + ttl - margin(ttl);
                        }
                    }
                    Ok(Ok(Some(_))) => {
                        // TTL 0: etcd says the lease expired.
                        tracing::warn!(lease = lease.id, "etcd says the lease expired");
                        self.state.lock().lease.live = false;
                        break;
                    }
                    Ok(Ok(None)) | Ok(Err(_)) | Err(_) => {
                        tracing::warn!(lease = lease.id, "keep-alive failed; reconnecting");
                        break;
                    }
                }
                let now = Instant::now();
                let left = self.state.lock().lease.left();
                if left.is_zero() {
                    break;
                }
                tokio::time::sleep((sent + interval).saturating_duration_since(now).min(left))
                    .await;
            }
            let left = self.state.lock().lease.left();
            tokio::time::sleep(RETRY_PAUSE.min(left)).await;
        }
    }

    /// The lease `old` is lost, or its local deadline passed: stop serving every tenant, then
    /// find out from etcd whether it really ended (retrying until etcd answers).
    ///
    /// - Still alive in etcd (the deadline passed during a leader election, which extends
    ///   every lease, or a slow network): keep it. Its keys never left it, so no other node
    ///   can have taken its tenants; each is adopted again on its next request (the adoption
    ///   path of [`Shared::acquire_now`], with its `on_acquire` hook). Revoking it would move
    ///   every tenant of the node for a pause etcd itself tolerated.
    /// - Ended (or etcd does not know it): get a new lease and revoke the old one, which frees
    ///   its keys at once if etcd has not expired it yet.
    pub(super) async fn lose_lease(self: &Arc<Self>, old: i64) {
        let tenants: Vec<TenantId> = {
            let mut state = self.state.lock();
            state.lease.live = false;
            state.mine.keys().cloned().collect()
        };
        tracing::warn!(lease = old, node = %self.node.node, "lease deadline passed: stopping every tenant");
        for t in tenants {
            self.release(&t, None).await;
        }
        while !self.stopping.load(Ordering::Acquire) {
            match self.renew_once(old).await {
                Ok(true) => {
                    tracing::info!(lease = old, node = %self.node.node, "lease still alive in etcd: kept");
                    return;
                }
                Ok(false) => {}
                Err(e) => {
                    tracing::warn!(error = %e, "cannot reach etcd about the lease; retrying");
                    tokio::time::sleep(RETRY_PAUSE).await;
                    continue;
                }
            }
            match self.grant().await {
                Ok(()) => {
                    let mut client = self.client.clone();
                    let _ = timed(client.lease_revoke(old)).await;
                    return;
                }
                Err(e) => {
                    tracing::warn!(error = %e, "cannot obtain a new lease; retrying");
                    tokio::time::sleep(RETRY_PAUSE).await;
                }
            }
        }
    }

    /// One keep-alive of lease `id` outside the keep-alive stream. `Ok(true)` when etcd
    /// restarted its TTL: the lease is made this node's live lease again, with a new local
    /// deadline (no tenants: they were released). `Ok(false)` when etcd says it ended.
    async fn renew_once(&self, id: i64) -> Result<bool, LeaseError> {
        let mut client = self.client.clone();
        let sent = Instant::now();
        let answer = timed(async {
            let (mut keeper, mut stream) = client.lease_keep_alive(id).await?;
            keeper.keep_alive().await?;
            stream.message().await
        })
        .await?;
        let ttl = match answer {
            Some(r) if r.ttl() > 0 => Duration::from_secs(r.ttl() as u64),
            Some(_) => return Ok(false),
            None => return Err(LeaseError::Etcd("the keep-alive stream closed".into())),
        };
        let mut state = self.state.lock();
        state.lease = LeaseState {
            id,
            valid_until: sent + ttl - margin(ttl),
            live: true,
        };
        state.mine.clear();
        Ok(true)
    }

    /// Stops serving `tenant`: out of `mine` (so the fencing check fails from now on), its
    /// store closed, then the on_release hook. With `deleted_at`, only if the tenant was
    /// acquired before that revision (an old key's deletion does not release a new hold).
    pub(super) async fn release(self: &Arc<Self>, tenant: &TenantId, deleted_at: Option<i64>) {
        {
            let mut state = self.state.lock();
            match state.mine.get(tenant) {
                Some(&acquired) if deleted_at.is_none_or(|d| d > acquired) => {
                    state.mine.remove(tenant);
                }
                _ => return,
            }
        }
        if let Some(registry) = self.registry.get().and_then(Weak::upgrade) {
            registry.close_tenant(tenant).await;
        }
        let hook = Arc::clone(&self.takeover);
        let t = tenant.clone();
        let _ = tokio::task::spawn_blocking(move || hook.on_release(&t)).await;
        tracing::info!(tenant = %tenant, node = %self.node.node, "tenant released");
    }

    /// Follows every change of the tenant keys; reloads everything when the watch breaks.
    pub(super) async fn watch_loop(self: Arc<Self>, mut revision: i64) {
        while !self.stopping.load(Ordering::Acquire) {
            let mut client = self.client.clone();
            let options = WatchOptions::new()
                .with_prefix()
                .with_start_revision(revision + 1);
            match timed(client.watch(self.prefix.clone(), Some(options))).await {
                Ok(mut stream) => loop {
                    match stream.message().await {
                        Ok(Some(resp)) if !resp.canceled() => {
                            for ev in resp.events() {
                                self.apply(ev).await;
                            }
                        }
                        _ => break,
                    }
                },
                Err(e) => tracing::warn!(error = %e, "watch failed; reloading"),
            }
            if self.stopping.load(Ordering::Acquire) {
                return;
            }
            tokio::time::sleep(RETRY_PAUSE).await;
            match self.load().await {
                Ok(r) => revision = r,
                Err(e) => tracing::warn!(error = %e, "cannot reload the placement"),
            }
        }
    }

    pub(super) async fn apply(self: &Arc<Self>, ev: &etcd_client::Event) {
        let Some(kv) = ev.kv() else { return };
        let Some(t) = self.tenant_of(kv.key()) else {
            return;
        };
        match ev.event_type() {
            EventType::Put => {
                if let Some(o) = parse_owner(kv) {
                    self.owners.lock().insert(t, o);
                }
            }
            EventType::Delete => {
                self.owners.lock().remove(&t);
                if let Ok(id) = TenantId::parse(&t) {
                    // Our key vanished: our lease expired in etcd, or someone deleted it.
                    self.release(&id, Some(kv.mod_revision())).await;
                }
            }
        }
    }

    /// Graceful stop (stores already closed): give every tenant up and revoke the lease, so
    /// that other nodes take them at once instead of after the TTL.
    pub(super) async fn resign(self: &Arc<Self>) {
        self.stopping.store(true, Ordering::Release);
        let (id, live, tenants) = {
            let mut state = self.state.lock();
            let r = (state.lease.id, state.lease.live);
            state.lease.live = false;
            (r.0, r.1, state.mine.keys().cloned().collect::<Vec<_>>())
        };
        for t in tenants {
            self.release(&t, None).await;
        }
        if live {
            let mut client = self.client.clone();
            if let Err(e) = timed(client.lease_revoke(id)).await {
                tracing::warn!(error = %e, "cannot revoke the lease; it expires by itself");
            }
        }
    }
}
