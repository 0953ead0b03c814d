//! Format-1 files (records encoded with bincode 2) open with this engine: a writable open
//! migrates them to the current format in one transaction, a read-only open migrates its private
//! in-memory copy, and the event log, checkpoints and receipts stay byte-identical.
//!
//! `fixtures/format1.oubli` was written once by the format-1 engine (commit history: the test
//! `gen_format1` that made it): rows with metadata and keys in four namespaces, a supersede, a
//! release, a registered derivation, a compaction note, alias groups, a decay policy and a purge
//! with its receipt. It is signed with the test key `[7; 32]`.

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use common::temp;
use oubli::storage::{self, CHECKPOINTS, EVENTS, META, RECEIPTS, meta};
use oubli::{
    DepthState, Error, HashEmbedder, Inscription, ListQuery, ManualClock, RecallQuery, Store,
    StoreOptions, Target,
};
use redb::{ReadableDatabase, ReadableTable, TableDefinition};

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/format1.oubli");

/// Head of the fixture's log when the format-1 engine closed it.
const HEAD_SEQ: u64 = 17;
const HEAD_HASH: &str = "091f0e8410ade348d0c80efe53087b653b124aa0f0ff6956daaa846eb3c4dc4c";

fn opts(read_only: bool) -> StoreOptions {
    StoreOptions::default()
        .clock(Arc::new(ManualClock::new(1_763_700_100_000)))
        .embedder(Arc::new(HashEmbedder::new(64).unwrap()))
        .signing_key([7; 32])
        .read_only(read_only)
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Every record of a `u64 -> bytes` table, read straight from the file.
fn raw_table(path: &Path, def: TableDefinition<u64, &[u8]>) -> BTreeMap<u64, Vec<u8>> {
    let db = redb::Database::open(path).unwrap();
    let tx = db.begin_read().unwrap();
    let t = tx.open_table(def).unwrap();
    t.iter()
        .unwrap()
        .map(|e| {
            let (k, v) = e.unwrap();
            (k.value(), v.value().to_vec())
        })
        .collect()
}

fn format_of(path: &Path) -> u32 {
    let db = redb::Database::open(path).unwrap();
    let tx = db.begin_read().unwrap();
    let t = tx.open_table(META).unwrap();
    let v = t.get(meta::FORMAT).unwrap().unwrap();
    u32::from_le_bytes(v.value().try_into().unwrap())
}

/// A private copy of the fixture.
fn copy() -> common::TempStore {
    let t = temp();
    std::fs::copy(FIXTURE, &t.path).unwrap();
    t
}

/// Checks what the format-1 engine wrote, through the public API.
fn check_contents(s: &Store) {
    // Keys, supersede and metadata.
    let door = s.get_by_key("user:ana", "door").unwrap();
    assert_eq!(door.text.as_deref(), Some("Ana's door code is 9051"));
    assert_eq!(door.metadata["topic"], "home");
    let old = s.get(door.supersedes.unwrap()).unwrap();
    assert_eq!(old.text.as_deref(), Some("Ana's door code is 4417"));
    assert_eq!(old.superseded_by, Some(door.id));
    assert_eq!(old.depth.state(), DepthState::Submerged);
    assert_eq!(old.metadata["n"], "3");
    let history = s.history(old.id).unwrap();
    assert_eq!(history.chain.len(), 2);
    assert!(history.events.len() >= 2);

    // Release, expiry.
    let all = s
        .list(&ListQuery {
            include_submerged: true,
            include_expired: true,
            include_stale: true,
            ..ListQuery::default()
        })
        .unwrap();
    let parked = all
        .iter()
        .find(|r| r.text.as_deref() == Some("Bob parks on level 3"))
        .unwrap();
    assert_eq!(parked.depth.state(), DepthState::Submerged);
    let locker = all
        .iter()
        .find(|r| r.text.as_deref() == Some("Bob's locker is number 12"))
        .unwrap();
    assert_eq!(locker.valid_until, Some(1_763_800_000_000));
    assert_eq!(locker.metadata["topic"], "work");

    // The purge: text gone, receipt kept and verifiable.
    let receipts = s.receipts().unwrap();
    assert_eq!(receipts.len(), 1);
    let (purge_id, receipt) = &receipts[0];
    let erased: Vec<u64> = receipt.body.erased.iter().map(|e| e.row).collect();
    assert!(!erased.is_empty());
    for id in &erased {
        let r = s.get(*id).unwrap();
        assert_eq!(r.text, None);
        assert_eq!(r.depth.state(), DepthState::Void);
    }
    let doc = s.receipt_document(*purge_id).unwrap();
    oubli::audit::receipt::SignedReceipt::verify_document(&doc, Some(&s.public_key().unwrap()))
        .unwrap();
    assert!(
        !all.iter()
            .any(|r| r.text.as_deref().is_some_and(|t| t.contains("X1234567")))
    );

    // Derivation, provenance, compaction note.
    let total = all
        .iter()
        .find(|r| r.text.as_deref() == Some("The subtotal is $27.5"))
        .unwrap();
    let p = s.provenance(total.id).unwrap().unwrap();
    assert_eq!(p.sources.len(), 2);
    assert!(p.derivation.is_some());
    let note_row = all.iter().find(|r| r.kind == oubli::Kind::Note).unwrap();
    let note = s.note(note_row.id).unwrap();
    assert!(note.complete);
    assert!(note.text.starts_with(oubli::NOTE_HEADER));

    // Aliases and decay policy.
    let groups = s.aliases(None).unwrap();
    assert!(groups.iter().any(|g| g.forms == ["Bob", "Robert Smith"]));
    assert!(groups.iter().any(|g| g.forms == ["Ana", "Ana Lima"]));
    let policy = s.decay_policy("user:bob").unwrap().unwrap();
    assert_eq!(policy.half_life_ms, Some(86_400_000));

    // Recall still finds rows through both indexes.
    let hits = s
        .recall(&RecallQuery::new("green tea").namespace("user:ana"))
        .unwrap();
    assert_eq!(hits[0].row.text.as_deref(), Some("Ana likes green tea"));

    // The log is the format-1 engine's, unchanged.
    let (seq, head) = s.head().unwrap();
    assert_eq!((seq, hex(&head).as_str()), (HEAD_SEQ, HEAD_HASH));
    s.verify_log(None).unwrap();
}

#[test]
fn writable_open_migrates_a_format1_file_and_keeps_its_log() {
    let t = copy();
    assert_eq!(format_of(&t.path), 1);
    let events = raw_table(&t.path, EVENTS);
    let checkpoints = raw_table(&t.path, CHECKPOINTS);
    let receipts = raw_table(&t.path, RECEIPTS);
    {
        let s = Store::open_with(&t.path, opts(false)).unwrap();
        check_contents(&s);
        s.verify_file().unwrap();
        s.close().unwrap();
    }
    assert_eq!(format_of(&t.path), storage::FORMAT_VERSION);
    assert_eq!(raw_table(&t.path, EVENTS), events);
    assert_eq!(raw_table(&t.path, CHECKPOINTS), checkpoints);
    assert_eq!(raw_table(&t.path, RECEIPTS), receipts);

    // The migrated file reopens (no second migration) and takes new writes.
    let s = Store::open_with(&t.path, opts(false)).unwrap();
    check_contents(&s);
    let id = s
        .inscribe(Inscription::new("Ana moved to Porto").namespace("user:ana"))
        .unwrap();
    s.release(Target::id(id)).unwrap();
    s.verify_log(None).unwrap();
    s.verify_file().unwrap();
}

#[test]
fn read_only_open_reads_a_format1_file_without_changing_it() {
    let t = copy();
    let before = std::fs::read(&t.path).unwrap();
    let s = Store::open_with(&t.path, opts(true)).unwrap();
    check_contents(&s);
    assert!(matches!(
        s.inscribe(Inscription::new("nope")),
        Err(Error::ReadOnly)
    ));
    drop(s);
    assert_eq!(std::fs::read(&t.path).unwrap(), before);
    assert_eq!(format_of(&t.path), 1);
}

#[test]
fn a_newer_format_is_refused() {
    let t = copy();
    {
        let db = redb::Database::open(&t.path).unwrap();
        let tx = db.begin_write().unwrap();
        tx.open_table(META)
            .unwrap()
            .insert(meta::FORMAT, 99u32.to_le_bytes().as_slice())
            .unwrap();
        tx.commit().unwrap();
    }
    for read_only in [false, true] {
        assert!(matches!(
            Store::open_with(&t.path, opts(read_only)),
            Err(Error::UnsupportedVersion { found: 99, .. })
        ));
    }
}
