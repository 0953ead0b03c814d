//! `oubli serve`'s cluster options (feature `cluster`): etcd leases and placement, replication
//! through NATS JetStream (docs/scale-out.md, docs/replication.md).

use std::path::PathBuf;

use crate::{Error, Result};

/// `oubli serve`'s cluster options (feature `cluster`): with `--etcd`, this server is one node
/// of a cluster and serves only the tenants it holds a lease on (docs/scale-out.md).
#[derive(clap::Args, Debug)]
pub struct ClusterArgs {
    /// etcd endpoints, comma-separated (e.g. `http://127.0.0.1:2379,http://10.0.0.2:2379`).
    #[arg(long, value_name = "URLS", value_delimiter = ',', requires_all = ["node_id", "advertise"])]
    etcd: Vec<String>,
    /// This node's id, unique in the cluster (a-z, A-Z, 0-9, '-', '_', '.').
    #[arg(long, value_name = "ID", requires = "etcd")]
    node_id: Option<String>,
    /// The URL clients and other nodes reach this server at (redirects point there).
    #[arg(long, value_name = "URL", requires = "etcd")]
    advertise: Option<String>,
    /// The cluster's name: its keys live under /oubli/NAME/ in etcd.
    #[arg(long = "cluster", value_name = "NAME", default_value = crate::cluster::lease::DEFAULT_CLUSTER)]
    cluster_name: String,
    /// Lease time to live in seconds: a dead node's tenants are taken over within about this.
    #[arg(long, value_name = "N", default_value_t = crate::cluster::lease::DEFAULT_LEASE_TTL.as_secs())]
    lease_ttl_secs: u64,
    /// NATS servers with JetStream, comma-separated (e.g. `nats://10.0.0.1:4222,...`):
    /// replicate every tenant through them, answer writes once acknowledged, and restore a
    /// tenant from them on the node that takes it over. The data directory then becomes a
    /// cache: this deployment's tenant files left in it are removed at start (any other store
    /// file there stops the start, untouched).
    #[arg(long, value_name = "URLS", value_delimiter = ',', requires_all = ["etcd", "signing_secret"])]
    nats: Vec<String>,
    /// The deployment's signing secret (64 hex digits, mode 600), the same file on every node:
    /// each tenant's signing key is derived from it and the tenant id.
    #[arg(long, value_name = "FILE", requires = "nats")]
    signing_secret: Option<PathBuf>,
    /// Copies of each tenant's stream and snapshots in JetStream (1 for a single NATS server).
    #[arg(long, value_name = "N", default_value_t = 3)]
    nats_replicas: usize,
}

impl ClusterArgs {
    /// Makes `config` a cluster node when these options ask for one (`--etcd`), replicating
    /// its tenants with `--nats`.
    pub(super) fn apply(self, config: &mut crate::serve::ServeConfig) -> Result<()> {
        use crate::cluster::{keys, lease, replicated, stream};
        let (Some(node_id), Some(advertise)) = (self.node_id, self.advertise) else {
            return Ok(());
        };
        if self.etcd.is_empty() {
            return Ok(());
        }
        let mut cluster = lease::ClusterConfig::new(self.etcd, node_id, advertise);
        cluster.lease_ttl = std::time::Duration::from_secs(self.lease_ttl_secs);
        let mut replication = None;
        if let Some(secret) = self.signing_secret.filter(|_| !self.nats.is_empty()) {
            let r = replicated::Replicated::connect(replicated::ReplicationConfig {
                nats: self.nats,
                stream: stream::StreamConfig::new(self.cluster_name.clone())
                    .replicas(self.nats_replicas),
                data_dir: config.data_dir.clone(),
                store_options: config.store_options.clone(),
                secret: keys::SigningSecret::from_file(&secret)?,
            })
            .map_err(|e| Error::InvalidArgument(format!("replication: {e}")))?;
            cluster.takeover = r.clone();
            replication = Some(r);
        }
        cluster.cluster = self.cluster_name;
        let placement = lease::EtcdPlacement::connect(cluster)?;
        eprintln!(
            "node {} joined the cluster; serving the tenants it holds a lease on{}",
            placement.node_id(),
            if replication.is_some() {
                ", replicated through NATS JetStream"
            } else {
                ""
            }
        );
        config.placement = placement;
        if let Some(r) = replication {
            config.replication = r;
        }
        Ok(())
    }
}
