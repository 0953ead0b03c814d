//! Deciding who serves a tenant, and acquiring it: the local decision from the node's own
//! tenants and the watched owner keys, and the etcd transaction "create if absent" under this
//! node's lease, followed by the takeover hook.

use super::*;

impl Shared {
    pub(super) fn key(&self, tenant: &TenantId) -> String {
        format!("{}{tenant}", self.prefix)
    }

    /// The decision when no etcd call is needed; `None` when the tenant must be acquired.
    pub(super) fn decide_locally(&self, tenant: &TenantId) -> Option<Decision> {
        let lease = {
            let state = self.state.lock();
            if !state.lease.valid() {
                return Some(Decision::Unavailable {
                    reason: "this node holds no valid etcd lease".into(),
                });
            }
            if state.mine.contains_key(tenant) {
                return Some(Decision::Serve);
            }
            state.lease
        };
        let owner = self.owners.lock().get(tenant.as_str()).cloned()?;
        if owner.record == self.node && owner.lease == lease.id {
            // Attached to this node's lease but not taken over (another request of this node
            // is taking it over, or an acquisition's answer was lost): the acquisition path
            // adopts it, one request at a time.
            return None;
        }
        Some(self.decide_for_owner(&owner, lease.id))
    }

    /// The decision when `owner` holds the tenant's key and this node has not acquired it.
    pub(super) fn decide_for_owner(&self, owner: &Owner, my_lease: i64) -> Decision {
        if owner.record.node != self.node.node {
            Decision::Redirect {
                location: owner.record.url.clone(),
            }
        } else if owner.lease == my_lease {
            // Ours, being taken over or given back by another request of this node.
            Decision::Unavailable {
                reason: "this node is taking it over".into(),
            }
        } else {
            // Held under an earlier lease of this node (a restart within the old lease's TTL,
            // or a lease lost and replaced): it frees itself when that lease ends.
            Decision::Unavailable {
                reason: "held under an earlier lease of this node until that lease ends".into(),
            }
        }
    }

    /// Acquires `tenant` (nobody owned it as far as the cache knew).
    pub(super) async fn acquire(self: &Arc<Self>, tenant: &TenantId) -> Decision {
        let gate = Arc::clone(self.acquiring.lock().entry(tenant.clone()).or_default());
        let decision = {
            let _turn = gate.lock().await;
            // Another request may have acquired it while this one waited.
            match self.decide_locally(tenant) {
                Some(d) => d,
                None => self.acquire_now(tenant).await,
            }
        };
        let mut acquiring = self.acquiring.lock();
        if Arc::strong_count(&gate) == 2 {
            acquiring.remove(tenant);
        }
        decision
    }

    pub(super) async fn acquire_now(self: &Arc<Self>, tenant: &TenantId) -> Decision {
        let lease = self.state.lock().lease;
        let key = self.key(tenant);
        let value = match serde_json::to_vec(&self.node) {
            Ok(v) => v,
            Err(e) => {
                return Decision::Unavailable {
                    reason: format!("cannot encode the owner record: {e}"),
                };
            }
        };
        let txn = Txn::new()
            .when([Compare::create_revision(key.clone(), CompareOp::Equal, 0)])
            .and_then([TxnOp::put(
                key.clone(),
                value,
                Some(PutOptions::new().with_lease(lease.id)),
            )])
            .or_else([TxnOp::get(key.clone(), None)]);
        let mut client = self.client.clone();
        let resp = match timed(client.txn(txn)).await {
            Ok(r) => r,
            Err(e) => {
                return Decision::Unavailable {
                    reason: format!("cannot acquire it: {e}"),
                };
            }
        };
        let mut revision = resp.header().map_or(0, |h| h.revision());
        if !resp.succeeded() {
            let owner = resp.op_responses().into_iter().find_map(|r| match r {
                TxnOpResponse::Get(g) => g
                    .kvs()
                    .first()
                    .and_then(|kv| Some((parse_owner(kv)?, kv.create_revision()))),
                _ => None,
            });
            match owner {
                // Already attached to this node's lease (an earlier acquisition whose answer
                // was lost, or whose hook failed and whose key could not be given back):
                // adopt it.
                Some((o, created)) if o.record == self.node && o.lease == lease.id => {
                    revision = created;
                }
                Some((o, _)) => {
                    self.owners
                        .lock()
                        .insert(tenant.as_str().to_owned(), o.clone());
                    return self.decide_for_owner(&o, lease.id);
                }
                // Deleted between the compare and the get (its owner's lease just expired).
                None => {
                    return Decision::Unavailable {
                        reason: "its owner is changing".into(),
                    };
                }
            }
        }
        self.owners.lock().insert(
            tenant.as_str().to_owned(),
            Owner {
                record: self.node.clone(),
                lease: lease.id,
            },
        );
        let hook = Arc::clone(&self.takeover);
        let t = tenant.clone();
        let hooked =
            tokio::task::spawn_blocking(move || hook.on_acquire(&t).map_err(|e| e.to_string()))
                .await
                .unwrap_or_else(|e| Err(format!("the hook did not finish: {e}")));
        if let Err(e) = hooked {
            tracing::warn!(tenant = %tenant, error = %e, "on_acquire failed; giving the tenant back");
            self.give_back(tenant, lease.id).await;
            return Decision::Unavailable {
                reason: format!("taking it over failed: {e}"),
            };
        }
        // The lease may have been lost while the hook ran: then the key is gone or going.
        let mut state = self.state.lock();
        if state.lease.valid() && state.lease.id == lease.id {
            state.mine.insert(tenant.clone(), revision);
            tracing::info!(tenant = %tenant, node = %self.node.node, "tenant acquired");
            Decision::Serve
        } else {
            Decision::Unavailable {
                reason: "this node lost its lease while taking it over".into(),
            }
        }
    }

    /// Deletes `tenant`'s key if it is still attached to `lease`.
    pub(super) async fn give_back(&self, tenant: &TenantId, lease: i64) {
        let key = self.key(tenant);
        let txn = Txn::new()
            .when([Compare::lease(key.clone(), CompareOp::Equal, lease)])
            .and_then([TxnOp::delete(key, None)]);
        let mut client = self.client.clone();
        if let Err(e) = timed(client.txn(txn)).await {
            // Not fatal: the key goes with the lease at the latest.
            tracing::warn!(tenant = %tenant, error = %e, "cannot give the tenant back");
        }
    }
}
