//! The tamper suite: single-bit flips at deterministic pseudo-random offsets of a store file.
//! After each flip, either verification fails (or the open fails) with a typed error, or every
//! verification passes and what a reader gets back (recall, list, receipts) is unchanged. Never
//! a panic, never a silently wrong answer.
//!
//! Three kinds of flips:
//! - raw flips anywhere in the file (four in five on a non-zero byte: most of a small file is
//!   free space);
//! - raw flips aimed at the bytes of the fields a reader gets back: keys, metadata, texts,
//!   namespaces and vector components, found in the file by their values;
//! - flips *through the storage engine* (a byte of a row record, payload or vector changed and
//!   written back, so every page checksum is recomputed, as a deliberate editor would): only the
//!   log's row digests can catch these.
//!
//! The default run flips 150 + 60 + 150 bytes; the long run (`cargo test -p oubli-db --release
//! --test tamper -- --ignored`) flips 2,000 + 500 + 1,000 (see `docs/durability.md`).

mod common;

use std::path::Path;

use common::*;
use oubli::{Inscription, ListQuery, RecallQuery, Store, StoreOptions, Target};

const QUERIES: [&str; 5] = [
    "Maria Keller email",
    "door code",
    "coffee",
    "Porto sister",
    "printer jammed floor",
];

fn build(path: &Path) {
    let (s, _) = create_fixed(&TempStore {
        dir: tempfile::tempdir().unwrap(),
        path: path.to_path_buf(),
    });
    let ins = |t: &str, ns: &str, key: Option<&str>| {
        let mut i = Inscription::new(t).namespace(ns).meta("source", "chat");
        if let Some(k) = key {
            i = i.key(k);
        }
        s.inscribe(i).unwrap()
    };
    ins(
        "Maria Keller's email is maria.keller@example.com",
        "crm",
        Some("email"),
    );
    let code = ins("Ana's door code is 4417", "user:ana", Some("door"));
    ins("Ben likes black coffee", "user:ben", None);
    ins("Ana's sister lives in Porto", "user:ana", None);
    ins("The printer on floor two is jammed", "ops", None);
    ins("Jonas Weber's phone is +49 30 1234", "crm", Some("phone"));
    s.supersede(
        Target::id(code),
        Inscription::new("Ana's door code is 9051"),
    )
    .unwrap();
    s.release(Target::query_in("user:ben", "coffee")).unwrap();
    s.purge(Target::key("crm", "phone")).unwrap();
}

/// Everything a reader gets back, rendered comparably.
fn observe(s: &Store) -> oubli::Result<String> {
    let mut out = String::new();
    for q in QUERIES {
        for h in s.recall(&RecallQuery::new(q).k(10).include_submerged(true))? {
            out.push_str(&format!("{q}|{:?}|{}\n", h.row, h.score));
        }
    }
    for r in s.list(&ListQuery {
        include_submerged: true,
        ..Default::default()
    })? {
        out.push_str(&format!("list|{r:?}\n"));
    }
    for (id, r) in s.receipts()? {
        out.push_str(&format!(
            "receipt|{id}|{}\n",
            r.to_document().map_err(oubli::Error::from)?.len()
        ));
    }
    Ok(out)
}

fn read_only(path: &Path) -> oubli::Result<Store> {
    Store::open_with(path, StoreOptions::default().read_only(true))
}

#[derive(Debug, Default)]
struct Tally {
    detected: u64,
    harmless: u64,
    /// Where the harmless flips judged by `judge` were (to see which fields they hit).
    harmless_at: Vec<(usize, u8)>,
    silent_wrong: Vec<(usize, u8)>,
    panics: Vec<(usize, u8)>,
}

fn flip_suite(flips: u64, seed: u64) -> Tally {
    let t = temp();
    build(&t.path);
    let original = std::fs::read(&t.path).unwrap();
    let baseline = {
        let s = read_only(&t.path).unwrap();
        s.verify_log(None).unwrap();
        observe(&s).unwrap()
    };
    let copy = t.dir.path().join("flipped.oubli");
    let mut x = seed | 1;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    // Most of a small file is free or zeroed space; aim most flips at bytes that hold something.
    let used: Vec<usize> = (0..original.len()).filter(|&i| original[i] != 0).collect();
    let mut tally = Tally::default();
    for n in 0..flips {
        let offset = if n % 5 == 0 {
            (next() % original.len() as u64) as usize
        } else {
            used[(next() % used.len() as u64) as usize]
        };
        let bit = 1u8 << (next() % 8);
        let mut bytes = original.clone();
        bytes[offset] ^= bit;
        std::fs::write(&copy, &bytes).unwrap();
        let outcome = std::panic::catch_unwind(|| -> oubli::Result<bool> {
            let s = read_only(&copy)?;
            s.verify_log(None)?;
            Ok(observe(&s)? == baseline)
        });
        match outcome {
            Err(_) => tally.panics.push((offset, bit)),
            Ok(Err(_)) => tally.detected += 1,
            Ok(Ok(true)) => tally.harmless += 1,
            Ok(Ok(false)) => tally.silent_wrong.push((offset, bit)),
        }
    }
    tally
}

/// Offsets of every occurrence of the bytes of returned fields in the file: keys, metadata keys
/// and values, namespaces, texts, and the vector records.
fn field_offsets(path: &Path, bytes: &[u8]) -> Vec<usize> {
    use redb::{ReadableDatabase, ReadableTable};
    let mut needles: Vec<Vec<u8>> = ["email", "door", "source", "chat", "user:ana", "crm", "ops"]
        .iter()
        .map(|s| s.as_bytes().to_vec())
        .collect();
    needles.push(b"Ana's sister lives in Porto".to_vec());
    needles.push(b"The printer on floor two is jammed".to_vec());
    {
        let db = redb::Database::open(path).unwrap();
        let tx = db.begin_read().unwrap();
        let vectors = tx.open_table(oubli::storage::VECTORS).unwrap();
        for e in vectors.iter().unwrap() {
            needles.push(e.unwrap().1.value().to_vec());
        }
    }
    let mut out = Vec::new();
    for n in &needles {
        for (i, w) in bytes.windows(n.len()).enumerate() {
            if w == n.as_slice() {
                out.extend(i..i + n.len());
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    assert!(out.len() > 1000, "few field bytes found: {}", out.len());
    out
}

/// Raw flips at the bytes of returned fields (see [`field_offsets`]).
fn field_flip_suite(flips: u64, seed: u64) -> Tally {
    let t = temp();
    build(&t.path);
    let original = std::fs::read(&t.path).unwrap();
    let offsets = field_offsets(&t.path, &original);
    let baseline = observe(&read_only(&t.path).unwrap()).unwrap();
    let copy = t.dir.path().join("flipped.oubli");
    let mut rng = XorShift(seed | 1);
    let mut tally = Tally::default();
    for _ in 0..flips {
        let offset = offsets[(rng.next() % offsets.len() as u64) as usize];
        let bit = 1u8 << (rng.next() % 8);
        let mut bytes = original.clone();
        bytes[offset] ^= bit;
        std::fs::write(&copy, &bytes).unwrap();
        judge(&copy, &baseline, (offset, bit), &mut tally);
    }
    tally
}

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Opens `path` read-only, verifies it and compares what a reader gets back with `baseline`.
fn judge(path: &Path, baseline: &str, at: (usize, u8), tally: &mut Tally) {
    let outcome = std::panic::catch_unwind(|| -> oubli::Result<bool> {
        let s = read_only(path)?;
        s.verify_log(None)?;
        Ok(observe(&s)? == baseline)
    });
    match outcome {
        Err(_) => tally.panics.push(at),
        Ok(Err(_)) => tally.detected += 1,
        Ok(Ok(true)) => {
            tally.harmless += 1;
            tally.harmless_at.push(at);
        }
        Ok(Ok(false)) => tally.silent_wrong.push(at),
    }
}

/// Flips one bit of one record of the rows, payloads or vectors table *through redb* (so the
/// page checksums are recomputed), then judges the result. The reported position is (table *
/// 1,000,000 + record id * 10,000 + byte offset in the record, bit mask).
fn engine_flip_suite(flips: u64, seed: u64) -> Tally {
    use redb::{ReadableDatabase, ReadableTable};
    let t = temp();
    build(&t.path);
    let baseline = observe(&read_only(&t.path).unwrap()).unwrap();
    let tables = [
        oubli::storage::ROWS,
        oubli::storage::PAYLOADS,
        oubli::storage::VECTORS,
    ];
    // Every (table, id, length) record there is to flip.
    let mut records = Vec::new();
    {
        let db = redb::Database::open(&t.path).unwrap();
        let tx = db.begin_read().unwrap();
        for (ti, def) in tables.iter().enumerate() {
            let table = tx.open_table(*def).unwrap();
            for e in table.iter().unwrap() {
                let (k, v) = e.unwrap();
                records.push((ti, k.value(), v.value().len()));
            }
        }
    }
    let copy = t.dir.path().join("edited.oubli");
    let mut rng = XorShift(seed | 1);
    let mut tally = Tally::default();
    for _ in 0..flips {
        let (ti, id, len) = records[(rng.next() % records.len() as u64) as usize];
        let at = (rng.next() % len as u64) as usize;
        let bit = (rng.next() % 8) as u8;
        std::fs::copy(&t.path, &copy).unwrap();
        {
            let db = redb::Database::open(&copy).unwrap();
            let tx = db.begin_write().unwrap();
            {
                let mut table = tx.open_table(tables[ti]).unwrap();
                let mut value = table.get(id).unwrap().unwrap().value().to_vec();
                value[at] ^= 1 << bit;
                table.insert(id, value.as_slice()).unwrap();
            }
            tx.commit().unwrap();
        }
        judge(
            &copy,
            &baseline,
            (ti * 1_000_000 + id as usize * 10_000 + at, 1 << bit),
            &mut tally,
        );
    }
    tally
}

fn assert_clean(t: &Tally) {
    assert!(
        t.panics.is_empty(),
        "panics at (offset, bit) {:?}",
        t.panics
    );
    assert!(
        t.silent_wrong.is_empty(),
        "silently wrong answers at (offset, bit) {:?}",
        t.silent_wrong
    );
}

#[test]
fn flipped_bits_are_detected_or_harmless() {
    let t = flip_suite(150, 0x5eed_0001);
    eprintln!("{t:?}");
    assert_clean(&t);
    assert!(t.detected > 0);
}

#[test]
fn flipped_field_bytes_are_detected_or_harmless() {
    let t = field_flip_suite(60, 0x5eed_0003);
    eprintln!("{t:?}");
    assert_clean(&t);
    assert!(t.detected > 0);
}

#[test]
fn records_edited_through_the_storage_engine_are_detected_or_harmless() {
    let t = engine_flip_suite(150, 0x5eed_0004);
    eprintln!("{t:?}");
    assert_clean(&t);
    assert!(t.detected > 100, "{t:?}");
}

#[test]
#[ignore = "slow: run with --ignored (see docs/durability.md)"]
fn flipped_bits_are_detected_or_harmless_long() {
    let t = flip_suite(2000, 0x5eed_0002);
    eprintln!("raw: {t:?}");
    assert_clean(&t);
    let t = field_flip_suite(500, 0x5eed_0005);
    eprintln!("field bytes: {t:?}");
    assert_clean(&t);
    let t = engine_flip_suite(1000, 0x5eed_0006);
    eprintln!("through the storage engine: {t:?}");
    assert_clean(&t);
}

/// Flips confined to the bytes that hold row content: the text, namespace and depth of a row
/// changed in place (checksums recomputed by the storage engine, as a deliberate editor would)
/// fail verification.
#[test]
fn deliberate_edits_of_rows_fail_verification() {
    use redb::ReadableTable;
    let t = temp();
    build(&t.path);
    let edit = |f: &dyn Fn(&mut oubli::Row, &mut oubli::storage::Payload)| {
        let copy = t.dir.path().join("edited.oubli");
        std::fs::copy(&t.path, &copy).unwrap();
        {
            let db = redb::Database::open(&copy).unwrap();
            let tx = db.begin_write().unwrap();
            {
                let mut rows = tx.open_table(oubli::storage::ROWS).unwrap();
                let mut payloads = tx.open_table(oubli::storage::PAYLOADS).unwrap();
                let mut row: oubli::Row =
                    oubli::storage::decode(rows.get(1).unwrap().unwrap().value()).unwrap();
                let mut p =
                    oubli::storage::Payload::decode(payloads.get(1).unwrap().unwrap().value())
                        .unwrap();
                f(&mut row, &mut p);
                rows.insert(1, oubli::storage::encode(&row).unwrap().as_slice())
                    .unwrap();
                payloads.insert(1, p.encode().as_slice()).unwrap();
            }
            tx.commit().unwrap();
        }
        let s = read_only(&copy).unwrap();
        s.verify_log(None)
    };
    assert!(edit(&|_, p| p.text = p.text.replace("maria", "mario")).is_err());
    assert!(edit(&|r, _| r.namespace = "crn".into()).is_err());
    assert!(edit(&|r, _| r.depth = oubli::Depth::SUBMERGED).is_err());
    // Fields the log did not commit to before row digests: key, kind, metadata, times, links.
    assert!(edit(&|r, _| r.key = Some("mail".into())).is_err());
    assert!(edit(&|r, _| r.kind = oubli::Kind::Derived).is_err());
    assert!(
        edit(&|r, _| {
            r.metadata.insert("source".into(), "email".into());
        })
        .is_err()
    );
    assert!(edit(&|r, _| r.surfaced_at += 1).is_err());
    assert!(edit(&|r, _| r.valid_until = Some(0)).is_err());
    assert!(edit(&|r, _| r.superseded_by = Some(2)).is_err());
    assert!(edit(&|_, p| p.salt[0] ^= 1).is_err());
    // The same edit path without a change verifies.
    edit(&|_, _| {}).unwrap();
}

/// Stores that went through clause-level edits (a clause purged, a clause superseded, a clause
/// released) verify: the log commits to every text and field the rows hold afterwards.
#[test]
fn clause_edits_and_clause_purges_verify() {
    let t = temp();
    let (s, _) = create_fixed(&t);
    s.inscribe(Inscription::new(
        "Tom's bank PIN is 4821 and his locker number is 17.",
    ))
    .unwrap();
    s.inscribe(Inscription::new("Lena lives in Hamburg and works at Airbus.").meta("src", "chat"))
        .unwrap();
    s.inscribe(Inscription::new("Omar drives a red van and plays the cello.").key("omar"))
        .unwrap();
    s.inscribe(Inscription::new("The router sits in the hallway cupboard."))
        .unwrap();
    let report = s.purge(Target::query("Tom's bank PIN 4821")).unwrap();
    assert!(report.cascade.iter().any(|c| c.via == "clause_edit"));
    s.verify_log(None).unwrap();
    let out = s
        .supersede(
            Target::query("where Lena lives"),
            Inscription::new("Lena lives in Bremen."),
        )
        .unwrap();
    assert_eq!(out.edited.len(), 1);
    s.verify_log(None).unwrap();
    s.release(Target::query("Omar plays the cello")).unwrap();
    s.verify_log(None).unwrap();
    s.close().unwrap();
    let r = read_only(&t.path).unwrap();
    r.verify_log(None).unwrap();
}

/// `oubli-audit verify --store` (`check_store`) recomputes the row digests too: a row's key,
/// kind, metadata or vector edited through redb fails it; the untouched file passes.
#[test]
fn the_offline_audit_checks_row_digests() {
    use oubli::audit::store_check::check_store;
    use redb::ReadableTable;
    let t = temp();
    build(&t.path);
    let (receipt, doc) = {
        let s = read_only(&t.path).unwrap();
        let (_, r) = s.receipts().unwrap().remove(0);
        let doc = r.to_document().unwrap();
        (r, doc)
    };
    let report = check_store(&t.path, &receipt, &doc, &[]).unwrap();
    assert!(report.rows_digest_checked >= 6, "{report:?}");
    let edit = |table: redb::TableDefinition<u64, &[u8]>, f: &dyn Fn(&mut Vec<u8>)| {
        let copy = t.dir.path().join("audited.oubli");
        std::fs::copy(&t.path, &copy).unwrap();
        {
            let db = redb::Database::open(&copy).unwrap();
            let tx = db.begin_write().unwrap();
            {
                let mut tab = tx.open_table(table).unwrap();
                let mut v = tab.get(1).unwrap().unwrap().value().to_vec();
                f(&mut v);
                tab.insert(1, v.as_slice()).unwrap();
            }
            tx.commit().unwrap();
        }
        check_store(&copy, &receipt, &doc, &[])
    };
    // A component of the vector.
    assert!(edit(oubli::storage::VECTORS, &|v| v[3] ^= 0x01).is_err());
    // The key, through the engine's codec.
    let rekey = |v: &mut Vec<u8>| {
        let mut row: oubli::Row = oubli::storage::decode(v).unwrap();
        row.key = Some("mail".into());
        *v = oubli::storage::encode(&row).unwrap();
    };
    assert!(edit(oubli::storage::ROWS, &rekey).is_err());
    let meta = |v: &mut Vec<u8>| {
        let mut row: oubli::Row = oubli::storage::decode(v).unwrap();
        row.metadata.insert("source".into(), "mail".into());
        *v = oubli::storage::encode(&row).unwrap();
    };
    assert!(edit(oubli::storage::ROWS, &meta).is_err());
    let kind = |v: &mut Vec<u8>| {
        let mut row: oubli::Row = oubli::storage::decode(v).unwrap();
        row.kind = oubli::Kind::Note;
        *v = oubli::storage::encode(&row).unwrap();
    };
    assert!(edit(oubli::storage::ROWS, &kind).is_err());
    // The same path without a change passes.
    edit(oubli::storage::ROWS, &|_| {}).unwrap();
}
