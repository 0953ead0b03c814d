//! Decay policies: rows sink with age (half-life) or leave after a time to live, and rows whose
//! `valid_until` has passed submerge.
//!
//! Decay is applied by [`Store::sweep`], never silently at read time, so that every depth change
//! is one logged event and replaying the log reproduces every depth. Between sweeps, recall still
//! leaves out rows whose `valid_until` has passed (a read-time filter, no depth change).
//! Depths are quantized down to multiples of 1/256 so that a sweep writes an event only when a
//! row has sunk by a visible step. Decay is monotone: a sweep never raises a depth.

use redb::ReadableTable;
use serde::{Deserialize, Serialize};

use super::Store;
use crate::depth::Depth;
use crate::error::{Error, Result};
use crate::log::EventKind;
use crate::row::{Millis, Row, RowId, validate_field};
use crate::storage::{self, POLICIES, ROWS};

/// How rows of a namespace age.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct DecayPolicy {
    /// Depth halves every `half_life_ms` since the row surfaced.
    pub half_life_ms: Option<Millis>,
    /// Rows older than this submerge.
    pub ttl_ms: Option<Millis>,
    /// A row that sinks below this depth submerges (default 0.05).
    pub floor: f64,
}

impl Default for DecayPolicy {
    fn default() -> Self {
        DecayPolicy {
            half_life_ms: None,
            ttl_ms: None,
            floor: 0.05,
        }
    }
}

impl DecayPolicy {
    fn validate(&self) -> Result<()> {
        let bad = |m: &str| Err(Error::InvalidArgument(format!("decay policy: {m}")));
        if self.half_life_ms.is_some_and(|h| h <= 0) {
            return bad("half-life must be positive");
        }
        if self.ttl_ms.is_some_and(|t| t <= 0) {
            return bad("ttl must be positive");
        }
        if !(0.0..1.0).contains(&self.floor) {
            return bad("floor must be in [0, 1)");
        }
        Ok(())
    }

    /// The depth this policy gives a row of `age` ms that is now at `current` (never higher).
    pub fn depth_for(&self, current: Depth, age: Millis) -> Depth {
        let Depth::Level(cur) = current else {
            return current;
        };
        if cur <= 0.0 {
            return current;
        }
        if self.ttl_ms.is_some_and(|ttl| age >= ttl) {
            return Depth::SUBMERGED;
        }
        let Some(h) = self.half_life_ms else {
            return current;
        };
        let raw = 0.5f64.powf(age.max(0) as f64 / h as f64);
        let q = (raw * 256.0).floor() / 256.0;
        let d = if q < self.floor { 0.0 } else { q };
        Depth::level(d.min(cur))
    }
}

/// What a sweep changed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SweepReport {
    /// Rows whose depth sank.
    pub decayed: Vec<RowId>,
    /// Rows submerged because their validity or time to live ended.
    pub expired: Vec<RowId>,
}

impl Store {
    /// Sets (or with `None` clears) the decay policy of `namespace`. Logged as a `config` event.
    #[tracing::instrument(name = "oubli::Store::set_decay_policy", level = "debug", skip_all)]
    pub fn set_decay_policy(&self, namespace: &str, policy: Option<DecayPolicy>) -> Result<()> {
        validate_field("namespace", namespace)?;
        if let Some(p) = &policy {
            p.validate()?;
        }
        self.write(|b| {
            let mut t = b.tx.open_table(POLICIES)?;
            let desc = match &policy {
                Some(p) => {
                    t.insert(namespace, storage::encode(p)?.as_slice())?;
                    format!(
                        "decay-policy {namespace} {}",
                        serde_json::to_string(p).unwrap_or_default()
                    )
                }
                None => {
                    t.remove(namespace)?;
                    format!("decay-policy {namespace} none")
                }
            };
            drop(t);
            let c = *blake3::hash(desc.as_bytes()).as_bytes();
            b.event(EventKind::Config, namespace, vec![], vec![c])?;
            Ok(())
        })
    }

    /// The decay policy of `namespace`, if any.
    pub fn decay_policy(&self, namespace: &str) -> Result<Option<DecayPolicy>> {
        self.read(|i| {
            let tx = i.db.begin_read()?;
            match storage::open_read(&tx, POLICIES)? {
                Some(t) => t
                    .get(namespace)?
                    .map(|v| storage::decode(v.value()))
                    .transpose(),
                None => Ok(None),
            }
        })
    }

    /// Applies decay policies and validity at the clock's current time: one event per row whose
    /// depth changes. Pinned rows never change.
    #[tracing::instrument(name = "oubli::Store::sweep", level = "debug", skip_all)]
    pub fn sweep(&self) -> Result<SweepReport> {
        self.write(|b| {
            let now = b.now;
            let policies: Vec<(String, DecayPolicy)> = {
                let t = b.tx.open_table(POLICIES)?;
                let mut v = Vec::new();
                for e in t.iter()? {
                    let (k, val) = e?;
                    v.push((k.value().to_owned(), storage::decode(val.value())?));
                }
                v
            };
            let rows: Vec<Row> = {
                let t = b.tx.open_table(ROWS)?;
                let mut v = Vec::new();
                for e in t.iter()? {
                    let row: Row = storage::decode(e?.1.value())?;
                    if row.depth.is_live() && row.depth != Depth::Pinned {
                        v.push(row);
                    }
                }
                v
            };
            let mut report = SweepReport::default();
            for mut row in rows {
                let policy = policies
                    .iter()
                    .find(|(ns, _)| *ns == row.namespace)
                    .map(|(_, p)| *p);
                let expired_now = row.is_expired(now);
                let (new, kind) = if expired_now {
                    (Depth::SUBMERGED, EventKind::Expire)
                } else if let Some(p) = policy {
                    let d = p.depth_for(row.depth, now - row.surfaced_at);
                    let kind = if p.ttl_ms.is_some_and(|t| now - row.surfaced_at >= t) {
                        EventKind::Expire
                    } else {
                        EventKind::Decay
                    };
                    (d, kind)
                } else {
                    continue;
                };
                if new == row.depth {
                    continue;
                }
                let t = b.set_depth(&mut row, new)?;
                b.put_row(&row)?;
                b.event(kind, &row.namespace, vec![t], vec![])?;
                if kind == EventKind::Expire {
                    report.expired.push(row.id);
                } else {
                    report.decayed.push(row.id);
                }
            }
            Ok(report)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_life_halves_and_floors() {
        let p = DecayPolicy {
            half_life_ms: Some(1000),
            ..Default::default()
        };
        assert_eq!(p.depth_for(Depth::SURFACE, 0), Depth::SURFACE);
        assert_eq!(p.depth_for(Depth::SURFACE, 1000), Depth::level(0.5));
        assert_eq!(p.depth_for(Depth::SURFACE, 10_000), Depth::SUBMERGED);
        // never rises
        assert_eq!(p.depth_for(Depth::level(0.25), 0), Depth::level(0.25));
        assert_eq!(p.depth_for(Depth::Pinned, 10_000), Depth::Pinned);
    }
}
