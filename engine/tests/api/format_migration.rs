//! Format-1 files (records encoded with bincode 2) and format-2 files (postcard, string
//! metadata) open with this engine: a writable open migrates them to the current format in one
//! transaction, a read-only open migrates its private in-memory copy, and the event log,
//! checkpoints and receipts stay byte-identical (so do the row digests the log carries: string
//! metadata stays string metadata, which the independent verifier checks on the migrated file).
//!
//! `fixtures/format1.oubli` was written once by the format-1 engine (commit history: the test
//! `gen_format1` that made it), `fixtures/format2.oubli` by the format-2 engine with the same
//! history (the test `gen_format2`): rows with metadata and keys in four namespaces, a
//! supersede, a release, a registered derivation, a compaction note, alias groups, a decay
//! policy and a purge with its receipt. Both are signed with the test key `[7; 32]`.

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use common::temp;
use oubli::audit::store_check::check_store;
use oubli::storage::{self, CHECKPOINTS, EVENTS, META, RECEIPTS, VECTORS, meta};
use oubli::{
    Condition, DepthState, Error, HashEmbedder, Inscription, ListQuery, ManualClock, MetaValue, Op,
    RecallQuery, Scalar, Store, StoreOptions, Target,
};
use redb::{ReadableDatabase, ReadableTable, ReadableTableMetadata, TableDefinition};

/// A store file written by an older engine.
#[derive(Clone, Copy)]
struct Fixture {
    path: &'static str,
    format: u32,
    /// Head of the log when that engine closed the file.
    head_seq: u64,
    head_hash: &'static str,
}

const FORMAT1: Fixture = Fixture {
    path: concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/format1.oubli"),
    format: 1,
    head_seq: 17,
    head_hash: "091f0e8410ade348d0c80efe53087b653b124aa0f0ff6956daaa846eb3c4dc4c",
};

const FORMAT2: Fixture = Fixture {
    path: concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/format2.oubli"),
    format: 2,
    head_seq: 17,
    head_hash: "7fc860ca199e850ac6484c16f6081bc59c89faacb03373cfadd33951cc9e8a63",
};

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
fn copy(fx: Fixture) -> common::TempStore {
    let t = temp();
    std::fs::copy(fx.path, &t.path).unwrap();
    t
}

/// Checks what the older engine wrote, through the public API.
fn check_contents(s: &Store, fx: Fixture) {
    // Keys, supersede and metadata.
    let door = s.get_by_key("user:ana", "door").unwrap();
    assert_eq!(door.text.as_deref(), Some("Ana's door code is 9051"));
    assert_eq!(door.metadata["topic"], MetaValue::Str("home".into()));
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

    // String metadata stays string metadata, and string filters find it.
    assert!(
        all.iter()
            .all(|r| r.metadata.values().all(|v| matches!(v, MetaValue::Str(_))))
    );
    let shop = s.list(&ListQuery::default().filter("qty", "7")).unwrap();
    assert_eq!(shop.len(), 1);
    assert_eq!(shop[0].metadata["price"], MetaValue::Str("2".into()));

    // The log is the older engine's, unchanged, and verifies; a writable open may have
    // appended what `check_appended` allows after it.
    let (seq, head) = s.head().unwrap();
    assert!(seq >= fx.head_seq);
    let old_head = s.events(fx.head_seq + 1, fx.head_seq + 1).unwrap();
    match old_head.first() {
        Some(next) => assert_eq!(hex(&next.prev_hash), fx.head_hash),
        None => assert_eq!((seq, hex(&head).as_str()), (fx.head_seq, fx.head_hash)),
    }
    s.verify_log(None).unwrap();
}

/// The events a writable open of an older store appends after its log: exactly one `config`
/// event committing to this engine's canonicalizer (the fixtures were written with an older
/// one, and targeting from then on follows the new rules), touching no row.
fn check_appended(before: &BTreeMap<u64, Vec<u8>>, after: &BTreeMap<u64, Vec<u8>>, s: &Store) {
    let old_len = before.len() as u64;
    for (seq, bytes) in before {
        assert_eq!(after.get(seq), Some(bytes), "event {seq} changed");
    }
    assert_eq!(after.len() as u64, old_len + 1, "one event appended");
    let e = &s.events(old_len + 1, old_len + 1).unwrap()[0];
    assert_eq!(e.kind, oubli::EventKind::Config);
    assert!(e.transitions.is_empty() && e.digests.is_empty());
    let version = format!("oubli-canonicalizer:{}", oubli::CANONICALIZER_VERSION);
    assert_eq!(
        e.commitments,
        vec![*blake3::hash(version.as_bytes()).as_bytes()]
    );
}

fn writable_open_migrates_and_keeps_the_log(fx: Fixture) {
    let t = copy(fx);
    assert_eq!(format_of(&t.path), fx.format);
    let events = raw_table(&t.path, EVENTS);
    let checkpoints = raw_table(&t.path, CHECKPOINTS);
    let receipts = raw_table(&t.path, RECEIPTS);
    let vectors = raw_table(&t.path, VECTORS);
    // The older engines wrote single-precision vectors (64 dimensions here).
    assert!(!vectors.is_empty() && vectors.values().all(|v| v.len() == 4 * 64));
    {
        let s = Store::open_with(&t.path, opts(false)).unwrap();
        check_contents(&s, fx);
        s.verify_file().unwrap();
        s.close().unwrap();
    }
    assert_eq!(format_of(&t.path), storage::FORMAT_VERSION);
    {
        let s = Store::open_with(&t.path, opts(true)).unwrap();
        check_appended(&events, &raw_table(&t.path, EVENTS), &s);
    }
    // The old checkpoints are kept as they were (the appended event may add its own).
    let now = raw_table(&t.path, CHECKPOINTS);
    assert!(checkpoints.iter().all(|(seq, c)| now.get(seq) == Some(c)));
    assert!(
        now.keys()
            .all(|seq| checkpoints.contains_key(seq) || *seq > fx.head_seq)
    );
    assert_eq!(raw_table(&t.path, RECEIPTS), receipts);

    // The independent verifier checks the migrated file against the old receipt: every live
    // row's fields still hash to the digest the old log carries.
    let (receipt, doc) = {
        let s = Store::open_with(&t.path, opts(true)).unwrap();
        let (id, r) = s.receipts().unwrap().remove(0);
        (r, s.receipt_document(id).unwrap())
    };
    check_store(&t.path, &receipt, &doc, &["X1234567".into()]).unwrap();

    // The migrated file reopens (no second migration) and takes new writes, typed ones too.
    let s = Store::open_with(&t.path, opts(false)).unwrap();
    check_contents(&s, fx);
    let id = s
        .inscribe(Inscription::new("Ana moved to Porto").namespace("user:ana"))
        .unwrap();
    s.release(Target::id(id)).unwrap();
    let typed = s
        .inscribe(
            Inscription::new("Ana's flat has 3 rooms")
                .namespace("user:ana")
                .meta("rooms", 3)
                .meta("area", 71.5)
                .meta("rented", true)
                .meta("tags", vec!["home", "porto"]),
        )
        .unwrap();
    s.inscribe(
        Inscription::new("Ana's old IBAN is PT50 0002 0123")
            .namespace("user:ana")
            .key("iban"),
    )
    .unwrap();
    let report = s.purge(Target::key("user:ana", "iban")).unwrap();
    s.verify_log(None).unwrap();
    s.verify_file().unwrap();
    let found = s
        .list(&ListQuery::default().matching(Condition::new("rooms", Op::Gte(Scalar::Int(2)))))
        .unwrap();
    assert_eq!(found.iter().map(|r| r.id).collect::<Vec<_>>(), vec![typed]);
    let doc = s.receipt_document(report.seq).unwrap();
    let receipt = s
        .receipts()
        .unwrap()
        .into_iter()
        .find(|(id, _)| *id == report.seq)
        .unwrap()
        .1;
    s.close().unwrap();
    // The old vector records are kept as written (the log's row digests commit to them); the
    // new rows' are half precision (format 4), and the verifier checks both kinds.
    let now = raw_table(&t.path, VECTORS);
    assert!(vectors.iter().all(|(id, v)| now.get(id) == Some(v)));
    assert_eq!(now[&typed].len(), 2 * 64);
    let rep = check_store(&t.path, &receipt, &doc, &["PT50 0002 0123".into()]).unwrap();
    // Format-1 events carry no row digests; from format 2 on, every old single-precision row
    // and the new half-precision ones are checked against theirs.
    let old_digested = if fx.format >= 2 { vectors.len() } else { 0 };
    assert!(rep.rows_digest_checked as usize > old_digested);
}

#[test]
fn writable_open_migrates_a_format1_file_and_keeps_its_log() {
    writable_open_migrates_and_keeps_the_log(FORMAT1);
}

#[test]
fn writable_open_migrates_a_format2_file_and_keeps_its_log() {
    writable_open_migrates_and_keeps_the_log(FORMAT2);
}

#[test]
fn read_only_open_reads_older_files_without_changing_them() {
    for fx in [FORMAT1, FORMAT2] {
        let t = copy(fx);
        let before = std::fs::read(&t.path).unwrap();
        let s = Store::open_with(&t.path, opts(true)).unwrap();
        check_contents(&s, fx);
        assert!(matches!(
            s.inscribe(Inscription::new("nope")),
            Err(Error::ReadOnly)
        ));
        drop(s);
        assert_eq!(std::fs::read(&t.path).unwrap(), before);
        assert_eq!(format_of(&t.path), fx.format);
    }
}

#[test]
fn a_newer_format_is_refused() {
    let t = copy(FORMAT2);
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

/// A format-4 file kept its natural keys in one `keys` table, and an empty
/// `keys_rebuild_due` meant "rebuild them all". Made here from a format-5 store by moving its
/// shards back into that table: a writable open moves them into their shards again, so keyed
/// reads, the duplicate-key check and keyed purges work as before, the single table is gone,
/// the pending rebuild covers every shard, and the file verifies.
#[test]
fn writable_open_moves_a_format4_key_table_into_shards() {
    let t = temp();
    {
        let s = Store::create_with(&t.path, opts(false)).unwrap();
        for i in 0..40 {
            s.inscribe(
                Inscription::new(format!("locker {i} code is 77{i:02}"))
                    .key(format!("locker-{i}"))
                    .namespace(if i % 2 == 0 { "user:ana" } else { "user:ben" }),
            )
            .unwrap();
        }
    }
    const LEGACY: TableDefinition<(&str, &str), u64> = TableDefinition::new("keys");
    {
        let db = redb::Database::open(&t.path).unwrap();
        let tx = db.begin_write().unwrap();
        let mut all = Vec::new();
        for def in storage::KEY_TABLES {
            {
                let shard = tx.open_table(def).unwrap();
                for e in shard.iter().unwrap() {
                    let (k, v) = e.unwrap();
                    let (ns, key) = k.value();
                    all.push((ns.to_owned(), key.to_owned(), v.value()));
                }
            }
            tx.delete_table(def).unwrap();
        }
        assert_eq!(all.len(), 40);
        {
            let mut legacy = tx.open_table(LEGACY).unwrap();
            for (ns, key, id) in &all {
                legacy.insert((ns.as_str(), key.as_str()), id).unwrap();
            }
            let mut m = tx.open_table(META).unwrap();
            m.insert(meta::FORMAT, 4u32.to_le_bytes().as_slice())
                .unwrap();
            m.insert(meta::KEYS_REBUILD_DUE, [].as_slice()).unwrap();
        }
        tx.commit().unwrap();
    }
    let s = Store::open_with(&t.path, opts(false)).unwrap();
    assert_eq!(
        s.get_by_key("user:ben", "locker-7")
            .unwrap()
            .text
            .as_deref(),
        Some("locker 7 code is 7707")
    );
    assert!(matches!(
        s.inscribe(
            Inscription::new("again")
                .key("locker-4")
                .namespace("user:ana")
        ),
        Err(oubli::Error::DuplicateKey { .. })
    ));
    s.purge(Target::key("user:ana", "locker-10")).unwrap();
    assert!(s.get_by_key("user:ana", "locker-10").is_err());
    s.verify_file().unwrap();
    drop(s);
    assert_eq!(format_of(&t.path), storage::FORMAT_VERSION);
    let db = redb::Database::open(&t.path).unwrap();
    let tx = db.begin_read().unwrap();
    assert!(
        tx.open_table(LEGACY).is_err(),
        "the single key table is gone"
    );
    let m = tx.open_table(META).unwrap();
    assert!(m.get(meta::KEYS_REBUILD_DUE).unwrap().is_none());
    let keys: usize = storage::KEY_TABLES
        .iter()
        .map(|d| tx.open_table(*d).unwrap().len().unwrap() as usize)
        .sum();
    assert_eq!(keys, 39);
}

/// A store of format 5 kept its vector graph as one blob, described by `snapshot_len`: format 6
/// reads it as its first segment, then grows the graph in segments.
#[test]
fn a_format5_vector_graph_is_the_first_segment_of_format6() {
    let t = temp();
    let opts = || {
        StoreOptions::default()
            .ann_threshold(64)
            .embedder(Arc::new(HashEmbedder::new(64).unwrap()))
    };
    let text = |i: usize| format!("segment row {i} word{} other{}", i % 17, i / 17);
    let add = |s: &Store, from: usize, to: usize| {
        for start in (from..to).step_by(40) {
            let batch = (start..to.min(start + 40))
                .map(|i| Inscription::new(text(i)))
                .collect();
            s.inscribe_batch(batch).unwrap();
        }
    };
    let s = Store::create_with(&t.path, opts()).unwrap();
    add(&s, 0, 200);
    drop(s);
    // Rewritten as format 5 wrote it: one graph, its length under `snapshot_len`.
    {
        let db = redb::Database::open(&t.path).unwrap();
        let tx = db.begin_write().unwrap();
        {
            let mut m = tx.open_table(META).unwrap();
            let list = m
                .remove(meta::SNAPSHOT_SEGMENTS)
                .unwrap()
                .map(|v| v.value().to_vec())
                .unwrap();
            assert_eq!(list.len(), 16, "one segment");
            m.insert(meta::SNAPSHOT_LEN, &list[8..16]).unwrap();
            m.insert(meta::FORMAT, 5u32.to_le_bytes().as_slice())
                .unwrap();
        }
        tx.commit().unwrap();
    }
    let found = |s: &Store, i: usize| {
        let q = RecallQuery::new(text(i)).k(5).legs(oubli::Legs::Vector);
        s.recall(&q)
            .unwrap()
            .iter()
            .any(|h| h.row.text.as_deref() == Some(text(i).as_str()))
    };
    let s = Store::open_with(&t.path, opts()).unwrap();
    assert!(found(&s, 3) && found(&s, 150));
    // Past a segment's size (five thresholds), the graph grows into a second one.
    add(&s, 200, 900);
    drop(s);
    assert_eq!(format_of(&t.path), storage::FORMAT_VERSION);
    {
        let db = redb::Database::open(&t.path).unwrap();
        let tx = db.begin_read().unwrap();
        let m = tx.open_table(META).unwrap();
        assert!(m.get(meta::SNAPSHOT_LEN).unwrap().is_none());
        let list = m.get(meta::SNAPSHOT_SEGMENTS).unwrap().unwrap();
        assert!(list.value().len() >= 32, "two segments or more");
    }
    let s = Store::open_with(&t.path, opts()).unwrap();
    for i in [3, 150, 420, 899] {
        assert!(found(&s, i), "row {i}");
    }
    s.verify_file().unwrap();
}
