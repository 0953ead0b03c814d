//! The JetStream names of a tenant (streams, subjects, buckets) and the generation records:
//! which generation is current, switching it (fenced by JetStream's expected sequence),
//! deleting one, and the secure erase of one message.

use async_nats::HeaderMap;
use async_nats::jetstream::stream::{Config as StreamSettings, StorageType, Stream};
use async_nats::jetstream::{self, Context};

use super::{Result, StreamConfig, StreamError, nats};
use crate::serve::TenantId;

/// The JetStream names of one tenant (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TenantNames {
    /// The tenant.
    pub tenant: TenantId,
    /// The cluster.
    pub cluster: String,
    /// The tenant id as one subject token (`_` written `_5f`, `.` written `_2e`).
    pub escaped: String,
    /// The stream that names each tenant's current generation (`OUBLI_GEN_<cluster>`).
    pub generations: String,
}

impl TenantNames {
    /// The names of `tenant` in `cluster` (checked as [`StreamConfig`] and [`TenantId`] check
    /// them).
    pub fn new(cluster: &str, tenant: &str) -> Result<TenantNames> {
        StreamConfig::new(cluster).check()?;
        let tenant = TenantId::parse(tenant).map_err(StreamError::Config)?;
        let mut escaped = String::new();
        for c in tenant.as_str().chars() {
            match c {
                '_' => escaped.push_str("_5f"),
                '.' => escaped.push_str("_2e"),
                c => escaped.push(c),
            }
        }
        Ok(TenantNames {
            cluster: cluster.to_owned(),
            generations: format!("OUBLI_GEN_{cluster}"),
            escaped,
            tenant,
        })
    }

    /// The stream of the tenant's frames in generation `g`.
    pub fn stream(&self, g: u64) -> String {
        format!("OUBLI_{}_{}_{g}", self.cluster, self.escaped)
    }

    /// The subject of the tenant's frames in generation `g`.
    pub fn subject(&self, g: u64) -> String {
        format!("oubli.{}.{}.{g}.frames", self.cluster, self.escaped)
    }

    /// The object-store bucket of the tenant's snapshot in generation `g`.
    pub fn bucket(&self, g: u64) -> String {
        format!("OUBLI_SNAP_{}_{}_{g}", self.cluster, self.escaped)
    }

    /// The subject of the message naming the tenant's current generation.
    pub fn generation_subject(&self) -> String {
        format!("oubli.{}.gen.{}", self.cluster, self.escaped)
    }

    /// The snapshot's object name in its bucket: the tenant id.
    pub fn object(&self) -> &str {
        self.tenant.as_str()
    }
}

/// The stream of the cluster's generations (one message per tenant, the last kept), created if
/// it does not exist. A key-value bucket would be the same thing, but the client's key-value
/// API needs a newer server than NATS 2.9.
pub(super) async fn generations(
    js: &Context,
    names: &TenantNames,
    replicas: usize,
) -> Result<Stream> {
    js.get_or_create_stream(StreamSettings {
        name: names.generations.clone(),
        subjects: vec![format!("oubli.{}.gen.*", names.cluster)],
        max_messages_per_subject: 1,
        num_replicas: replicas,
        storage: StorageType::File,
        ..Default::default()
    })
    .await
    .map_err(nats)
}

/// The tenant's current generation and the stream seq of the message naming it (`None`: the
/// tenant was never replicated).
pub(super) async fn current_generation(
    gens: &Stream,
    names: &TenantNames,
) -> Result<Option<(u64, u64)>> {
    let m = match gens
        .get_last_raw_message_by_subject(&names.generation_subject())
        .await
    {
        Ok(m) => m,
        Err(e) if e.kind() == jetstream::stream::LastRawMessageErrorKind::NoMessageFound => {
            return Ok(None);
        }
        Err(e) if is_not_found(&e) => return Ok(None),
        Err(e) => {
            let at = format!("{} last {}", names.generations, names.generation_subject());
            return Err(super::nats_at(&at, e));
        }
    };
    let g = std::str::from_utf8(&m.payload)
        .ok()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| StreamError::Nats(format!("generation of {} unreadable", names.object())))?;
    Ok(Some((g, m.sequence)))
}

/// Names generation `g` as the tenant's current one, if the message naming it is still the one
/// at stream seq `revision` (0: none): JetStream refuses the publish otherwise, and that is
/// [`StreamError::Fenced`]. Returns the new message's seq.
pub(super) async fn switch_generation(
    js: &Context,
    names: &TenantNames,
    g: u64,
    revision: u64,
) -> Result<u64> {
    let mut headers = HeaderMap::new();
    headers.insert(
        "Nats-Expected-Last-Subject-Sequence",
        revision.to_string().as_str(),
    );
    let ack = js
        .publish_with_headers(
            names.generation_subject(),
            headers,
            g.to_string().into_bytes().into(),
        )
        .await
        .map_err(nats)?
        .await;
    match ack {
        Ok(a) => Ok(a.sequence),
        Err(e) => {
            let text = e.to_string();
            if text.contains("10071") || text.to_ascii_lowercase().contains("wrong last") {
                Err(StreamError::Fenced {
                    stream: names.generations.clone(),
                })
            } else {
                Err(nats(text))
            }
        }
    }
}

/// Deletes generation `g` of the tenant: its stream and its snapshot bucket. Every server of
/// the stream removes their directories, the stream's consensus log among them. Returns whether
/// anything was there.
pub(super) async fn delete_generation(js: &Context, names: &TenantNames, g: u64) -> Result<bool> {
    let mut found = false;
    for stream in [names.stream(g), format!("OBJ_{}", names.bucket(g))] {
        match js.delete_stream(&stream).await {
            Ok(_) => found = true,
            Err(e) if e.to_string().to_ascii_lowercase().contains("not found") => {}
            Err(e) => return Err(nats(e)),
        }
    }
    Ok(found)
}

/// What a secure erase of one message found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Erased {
    /// The server overwrote the message's bytes and removed it.
    Now,
    /// No such message (erased or removed before).
    Absent,
}

/// Removes message `seq` of `stream` with JetStream's secure erase: the servers overwrite its
/// bytes in the stream's message blocks before removing it (not in the stream's consensus log:
/// see the module docs).
pub(super) async fn erase(js: &Context, stream: &str, seq: u64) -> Result<Erased> {
    let reply: serde_json::Value = js
        .request(
            format!("STREAM.MSG.DELETE.{stream}"),
            &serde_json::json!({ "seq": seq, "no_erase": false }),
        )
        .await
        .map_err(nats)?;
    if reply.get("success").and_then(|v| v.as_bool()) == Some(true) {
        return Ok(Erased::Now);
    }
    let err = reply.get("error").cloned().unwrap_or_default();
    let text = err
        .get("description")
        .and_then(|v| v.as_str())
        .unwrap_or_default()
        .to_ascii_lowercase();
    if text.contains("not found") || text.contains("no message") {
        return Ok(Erased::Absent);
    }
    Err(StreamError::Nats(format!(
        "erasing message {seq} of {stream}: {err}"
    )))
}

pub(super) fn stream_not_found(e: &jetstream::context::GetStreamError) -> bool {
    matches!(e.kind(), jetstream::context::GetStreamErrorKind::JetStream(j)
        if j.error_code() == jetstream::ErrorCode::STREAM_NOT_FOUND)
}

pub(super) fn is_not_found(e: &jetstream::stream::RawMessageError) -> bool {
    use jetstream::stream::RawMessageErrorKind as K;
    match e.kind() {
        K::NoMessageFound => true,
        K::JetStream(j) => j.error_code() == jetstream::ErrorCode::NO_MESSAGE_FOUND,
        _ => false,
    }
}
