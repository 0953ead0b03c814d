//! The change feed of a leader: one [`Frame`] per committed write transaction, captured inside
//! that transaction (so no transaction commits without its frame), handed to subscribers after
//! the commit and kept for [`crate::Store::changes_since`] until trimmed.
//!
//! The feed also tracks, for every row and alias group, which frames carried its content (row
//! record, payload, vector, provenance or note record; alias forms). When a frame holds a
//! `purge` event, its [`FeedEntry::overwrite`] lists the earlier frames that carried anything the
//! purge erased, so a transport can overwrite or remove exactly those messages. The frame of the
//! purge itself carries no erased byte: the erased rows appear in it as void records and
//! deletions, which name ids only.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use ed25519_dalek::SigningKey;
use redb::{ReadTransaction, ReadableTable, WriteTransaction};

use super::ReplicationError;
use super::frame::{Change, Frame, Key, REPLICATED_META, Table};
use crate::error::{Error, Result};
use crate::log::{Checkpoint, Event, EventKind};
use crate::row::Row;
use crate::storage::{self, Db};

/// A callback that receives every frame the leader commits, after the commit. It runs under the
/// store's write lock: it must not call back into the store (hand the entry to a channel).
pub type Subscriber = Box<dyn Fn(&FeedEntry) + Send + Sync>;

/// One frame of the feed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeedEntry {
    /// The frame.
    pub frame: Frame,
    /// Seqs of earlier frames (of this feed) that carried content this frame's purges erased:
    /// the messages a transport must overwrite or remove. Empty for a frame without a purge.
    pub overwrite: Vec<u64>,
}

/// What the feed knows a frame carried the content of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Carried {
    Row(u64),
    Alias(u64),
}

/// The state of a running feed.
pub(crate) struct FeedState {
    /// The head seq when the feed started: frames after it are captured.
    oldest: u64,
    entries: BTreeMap<u64, FeedEntry>,
    carriers: BTreeMap<Carried, BTreeSet<u64>>,
    subscribers: Vec<Subscriber>,
}

/// Where a store keeps its feed (shared by every open state of one store handle, so a scrub's
/// file rewrite keeps it).
pub(crate) type Slot = Arc<parking_lot::Mutex<Option<FeedState>>>;

impl FeedState {
    pub(crate) fn new(oldest: u64) -> FeedState {
        FeedState {
            oldest,
            entries: BTreeMap::new(),
            carriers: BTreeMap::new(),
            subscribers: Vec::new(),
        }
    }

    pub(crate) fn subscribe(&mut self, s: Subscriber) {
        self.subscribers.push(s);
    }

    /// The retained entries after `seq`.
    pub(crate) fn since(&self, seq: u64) -> std::result::Result<Vec<FeedEntry>, ReplicationError> {
        if seq < self.oldest {
            return Err(ReplicationError::NotRetained {
                requested: seq,
                oldest: self.oldest,
            });
        }
        Ok(self
            .entries
            .range(seq.saturating_add(1)..)
            .map(|(_, e)| e.clone())
            .collect())
    }

    /// Drops the retained entries up to `seq` (what every consumer has stored).
    pub(crate) fn trim(&mut self, seq: u64) {
        self.entries = self.entries.split_off(&seq.saturating_add(1));
        self.oldest = self.oldest.max(seq);
    }

    /// Records a committed frame, works out what it makes overwritable, and hands it out.
    pub(crate) fn publish(&mut self, frame: Frame, events: &[Event]) {
        let seq = frame.seq();
        let has_purge = events.iter().any(|e| e.kind == EventKind::Purge);
        let mut erased: BTreeSet<Carried> = BTreeSet::new();
        if has_purge {
            for e in events.iter().filter(|e| e.kind == EventKind::Purge) {
                erased.extend(e.transitions.iter().map(|t| Carried::Row(t.row)));
            }
            for c in frame.changes() {
                if let (Table::Aliases, Key::Id(g), None) = (c.table, &c.key, &c.value) {
                    erased.insert(Carried::Alias(*g));
                }
            }
        }
        let mut overwrite = BTreeSet::new();
        for c in &erased {
            if let Some(seqs) = self.carriers.remove(c) {
                overwrite.extend(seqs);
            }
        }
        for c in frame.changes() {
            if c.value.is_none() {
                continue;
            }
            let carried = match (c.table, &c.key) {
                (Table::Aliases, Key::Id(g)) => Some(Carried::Alias(*g)),
                (t, k) => k.row(t).map(Carried::Row),
            };
            if let Some(carried) = carried {
                let voided = events.iter().any(|e| {
                    e.transitions
                        .iter()
                        .any(|t| Carried::Row(t.row) == carried && t.after.is_void())
                });
                if !voided {
                    self.carriers.entry(carried).or_default().insert(seq);
                }
            }
        }
        overwrite.remove(&seq);
        let entry = FeedEntry {
            frame,
            overwrite: overwrite.into_iter().collect(),
        };
        for s in &self.subscribers {
            s(&entry);
        }
        self.entries.insert(seq, entry);
    }
}

/// A read of the replicated tables, as the last commit left them (`ReadTransaction`) or as the
/// transaction being captured holds them (`WriteTransaction`).
trait View {
    fn by_id(&self, table: Table, id: u64) -> Result<Option<Vec<u8>>>;
    fn all(&self, table: Table) -> Result<BTreeMap<Key, Vec<u8>>>;
    fn edges_from(&self, source: u64) -> Result<Vec<(u64, u64)>>;
    fn has_edge(&self, source: u64, derived: u64) -> Result<bool>;
    fn meta(&self, key: &str) -> Result<Option<Vec<u8>>>;
}

macro_rules! view_impl {
    ($ty:ty, $open:ident) => {
        impl View for $ty {
            fn by_id(&self, table: Table, id: u64) -> Result<Option<Vec<u8>>> {
                macro_rules! bytes {
                    ($def:expr) => {
                        match $open(self, $def)? {
                            Some(t) => t.get(id)?.map(|v| v.value().to_vec()),
                            None => None,
                        }
                    };
                }
                Ok(match table {
                    Table::Rows => bytes!(storage::ROWS),
                    Table::Payloads => bytes!(storage::PAYLOADS),
                    Table::Vectors => bytes!(storage::VECTORS),
                    Table::Provenance => bytes!(storage::PROVENANCE),
                    Table::Notes => bytes!(storage::NOTES),
                    Table::Aliases => bytes!(storage::ALIASES),
                    Table::Receipts => bytes!(storage::RECEIPTS),
                    Table::Stale => match $open(self, storage::STALE)? {
                        Some(t) => t.get(id)?.map(|v| v.value().to_le_bytes().to_vec()),
                        None => None,
                    },
                    Table::IncompletePurges => match $open(self, storage::INCOMPLETE_PURGES)? {
                        Some(t) => t.get(id)?.map(|_| Vec::new()),
                        None => None,
                    },
                    Table::Meta | Table::Derived | Table::Policies => {
                        return Err(Error::Storage(format!("{table:?} is not keyed by id")));
                    }
                })
            }

            fn all(&self, table: Table) -> Result<BTreeMap<Key, Vec<u8>>> {
                let mut out = BTreeMap::new();
                match table {
                    Table::Aliases => {
                        if let Some(t) = $open(self, storage::ALIASES)? {
                            for e in t.iter()? {
                                let (k, v) = e?;
                                out.insert(Key::Id(k.value()), v.value().to_vec());
                            }
                        }
                    }
                    Table::IncompletePurges => {
                        if let Some(t) = $open(self, storage::INCOMPLETE_PURGES)? {
                            for e in t.iter()? {
                                out.insert(Key::Id(e?.0.value()), Vec::new());
                            }
                        }
                    }
                    Table::Policies => {
                        if let Some(t) = $open(self, storage::POLICIES)? {
                            for e in t.iter()? {
                                let (k, v) = e?;
                                out.insert(Key::Name(k.value().to_owned()), v.value().to_vec());
                            }
                        }
                    }
                    other => {
                        return Err(Error::Storage(format!("{other:?} is not read whole")));
                    }
                }
                Ok(out)
            }

            fn edges_from(&self, source: u64) -> Result<Vec<(u64, u64)>> {
                let mut out = Vec::new();
                if let Some(t) = $open(self, storage::DERIVED)? {
                    for e in t.range((source, 0)..=(source, u64::MAX))? {
                        out.push(e?.0.value());
                    }
                }
                Ok(out)
            }

            fn has_edge(&self, source: u64, derived: u64) -> Result<bool> {
                Ok(match $open(self, storage::DERIVED)? {
                    Some(t) => t.get((source, derived))?.is_some(),
                    None => false,
                })
            }

            fn meta(&self, key: &str) -> Result<Option<Vec<u8>>> {
                Ok(match $open(self, storage::META)? {
                    Some(t) => t.get(key)?.map(|v| v.value().to_vec()),
                    None => None,
                })
            }
        }
    };
}

fn open_committed<K: redb::Key + 'static, V: redb::Value + 'static>(
    tx: &ReadTransaction,
    def: redb::TableDefinition<K, V>,
) -> Result<Option<redb::ReadOnlyTable<K, V>>> {
    storage::open_read(tx, def)
}

fn open_pending<'t, K: redb::Key + 'static, V: redb::Value + 'static>(
    tx: &'t WriteTransaction,
    def: redb::TableDefinition<K, V>,
) -> Result<Option<redb::Table<'t, K, V>>> {
    Ok(Some(tx.open_table(def)?))
}

view_impl!(ReadTransaction, open_committed);
view_impl!(WriteTransaction, open_pending);

/// Builds the frame of the transaction `tx` is about to commit: its events after `from` (the
/// head before it), the checkpoint it wrote, and every replicated record it changed, found by
/// comparing `tx` with the last commit, record by record, over the records it can have touched:
/// those of the rows its events name (and their provenance edges), the receipts of its purges
/// and of purges left incomplete, the alias groups, decay policies and incomplete-purge marks
/// (read whole: they are small), and the replicated `meta` keys.
pub(crate) fn capture(
    db: &Db,
    tx: &WriteTransaction,
    from: u64,
    key: &SigningKey,
) -> Result<(Frame, Vec<Event>)> {
    let before = db.begin_read()?;
    let mut events = Vec::new();
    let mut event_bytes = Vec::new();
    let checkpoint;
    {
        let t = tx.open_table(storage::EVENTS)?;
        for e in t.range(from + 1..)? {
            let (_, v) = e?;
            event_bytes.push(v.value().to_vec());
            events.push(Event::decode(v.value())?);
        }
        let last = events
            .last()
            .map(|e| e.seq)
            .ok_or_else(|| Error::Storage("a captured transaction without events".into()))?;
        let cps = tx.open_table(storage::CHECKPOINTS)?;
        let cp = cps
            .get(last)?
            .ok_or_else(|| Error::Corrupt(format!("no checkpoint at {last}")))?;
        checkpoint = Checkpoint::decode(cp.value())?;
    }
    let mut changes = Vec::new();
    let mut diff = |table: Table, key: Key, old: Option<Vec<u8>>, new: Option<Vec<u8>>| {
        if old != new {
            changes.push(Change {
                table,
                key,
                value: new,
            });
        }
    };
    let rows: BTreeSet<u64> = events
        .iter()
        .flat_map(|e| e.transitions.iter().map(|t| t.row))
        .collect();
    for &id in &rows {
        for table in [
            Table::Rows,
            Table::Payloads,
            Table::Vectors,
            Table::Provenance,
            Table::Stale,
            Table::Notes,
        ] {
            diff(
                table,
                Key::Id(id),
                before.by_id(table, id)?,
                tx.by_id(table, id)?,
            );
        }
        let mut edges: BTreeSet<(u64, u64)> = BTreeSet::new();
        edges.extend(before.edges_from(id)?);
        edges.extend(tx.edges_from(id)?);
        for view in [&*before as &dyn View, tx as &dyn View] {
            if let Some(r) = view.by_id(Table::Rows, id)? {
                let row: Row = storage::decode(&r)?;
                edges.extend(row.derived_from.iter().map(|s| (*s, id)));
            }
        }
        for (s, d) in edges {
            let present =
                |v: &dyn View| -> Result<Option<Vec<u8>>> { Ok(v.has_edge(s, d)?.then(Vec::new)) };
            diff(
                Table::Derived,
                Key::Pair(s, d),
                present(&*before)?,
                present(tx)?,
            );
        }
    }
    for table in [Table::Aliases, Table::Policies, Table::IncompletePurges] {
        let old = before.all(table)?;
        let new = tx.all(table)?;
        let keys: BTreeSet<&Key> = old.keys().chain(new.keys()).collect();
        for k in keys {
            diff(table, k.clone(), old.get(k).cloned(), new.get(k).cloned());
        }
    }
    // Receipts are written by a purge (under its own event's seq) and by the completion of an
    // incomplete purge.
    let mut receipts: BTreeSet<u64> = events.iter().map(|e| e.seq).collect();
    for view in [&*before as &dyn View, tx as &dyn View] {
        for k in view.all(Table::IncompletePurges)?.into_keys() {
            if let Key::Id(id) = k {
                receipts.insert(id);
            }
        }
    }
    for id in receipts {
        diff(
            Table::Receipts,
            Key::Id(id),
            before.by_id(Table::Receipts, id)?,
            tx.by_id(Table::Receipts, id)?,
        );
    }
    for k in REPLICATED_META {
        diff(
            Table::Meta,
            Key::Name(k.to_owned()),
            before.meta(k)?,
            tx.meta(k)?,
        );
    }
    let frame = Frame::sign(key, event_bytes, checkpoint, changes)?;
    Ok((frame, events))
}

impl From<ReplicationError> for Error {
    fn from(e: ReplicationError) -> Error {
        Error::Replication(e)
    }
}

impl crate::store::Store {
    /// Starts this store's change feed (a no-op if it runs already): from now on every committed
    /// write transaction yields a [`Frame`], handed to the subscribers and kept for
    /// [`crate::Store::changes_since`]. Returns the seq the feed starts after (the head now): a
    /// replica takes a snapshot at or after it ([`crate::Store::snapshot_to`]) and applies the
    /// frames that follow. Needs the signing key (a writable store).
    pub fn start_feed(&self) -> Result<u64> {
        self.read(|inner| {
            if inner.signing.is_none() {
                return Err(Error::ReadOnly);
            }
            let mut slot = inner.feed.lock();
            let state = slot.get_or_insert_with(|| FeedState::new(inner.head_seq));
            Ok(state.oldest)
        })
    }

    /// Stops the change feed and drops what it kept.
    pub fn stop_feed(&self) -> Result<()> {
        self.read(|inner| {
            inner.feed.lock().take();
            Ok(())
        })
    }

    /// Calls `subscriber` with every frame committed from now on, after its commit (see
    /// [`Subscriber`]). Fails with [`ReplicationError::NoFeed`] if no feed runs.
    pub fn subscribe(&self, subscriber: Subscriber) -> Result<()> {
        self.read(|inner| {
            let mut slot = inner.feed.lock();
            let state = slot.as_mut().ok_or(ReplicationError::NoFeed)?;
            state.subscribe(subscriber);
            Ok(())
        })
    }

    /// The frames committed after `seq`, in order, from what the feed keeps.
    /// [`ReplicationError::NotRetained`] if the feed started, or was trimmed, after `seq`.
    pub fn changes_since(&self, seq: u64) -> Result<Vec<FeedEntry>> {
        self.read(|inner| {
            let slot = inner.feed.lock();
            let state = slot.as_ref().ok_or(ReplicationError::NoFeed)?;
            Ok(state.since(seq)?)
        })
    }

    /// Lets the feed drop the frames up to `seq` (every consumer has stored them). What it
    /// knows about which frames carried which rows is kept, so a later purge still lists them.
    pub fn trim_feed(&self, seq: u64) -> Result<()> {
        self.read(|inner| {
            let mut slot = inner.feed.lock();
            let state = slot.as_mut().ok_or(ReplicationError::NoFeed)?;
            state.trim(seq);
            Ok(())
        })
    }
}
