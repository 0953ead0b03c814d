//! The match-key index in the file (`index::key_index`): the keys a store wrote find their rows
//! after a reopen, writable or read-only; a purged row's record leaves the table; a table whose
//! version marker is stale or missing is rebuilt on open.

use crate::common;

use common::*;
use oubli::{Inscription, Operation, Store, StoreOptions, Target};
use redb::{ReadableDatabase, ReadableTable};

/// Rows about a person named in Cyrillic: a query naming him in Latin letters shares no word
/// with their text, so only the match keys (transliteration) find them.
const FACTS: [&str; 3] = [
    "Михаил Соловьёв's phone number is 555-0132.",
    "Anna Petrova's phone number is 555-0199.",
    "Михаил Соловьёв lives in Kazan.",
];

fn planned(s: &Store) -> Vec<u64> {
    s.plan(
        Operation::Purge,
        &Target::query("everything about Mikhail Solovyov"),
    )
    .unwrap()
    .rows
}

fn table_rows(path: &std::path::Path) -> Vec<u64> {
    let db = redb::Database::open(path).unwrap();
    let tx = db.begin_read().unwrap();
    let t = tx.open_table(oubli::storage::MATCH_KEYS).unwrap();
    t.iter().unwrap().map(|e| e.unwrap().0.value()).collect()
}

#[test]
fn keys_find_their_rows_after_a_reopen_and_leave_with_a_purge() {
    let t = temp();
    let s = Store::create(&t.path).unwrap();
    for f in FACTS {
        s.inscribe(Inscription::new(f)).unwrap();
    }
    assert_eq!(planned(&s), vec![1, 3]);
    s.close().unwrap();
    // Record 0 is the version marker, then one record per row.
    assert_eq!(table_rows(&t.path), vec![0, 1, 2, 3]);

    let ro = Store::open_with(&t.path, StoreOptions::default().read_only(true)).unwrap();
    assert_eq!(planned(&ro), vec![1, 3]);
    drop(ro);

    let s = Store::open(&t.path).unwrap();
    assert_eq!(planned(&s), vec![1, 3]);
    s.purge(Target::id(1)).unwrap();
    assert_eq!(planned(&s), vec![3]);
    s.close().unwrap();
    assert_eq!(table_rows(&t.path), vec![0, 2, 3]);
    let s = Store::open(&t.path).unwrap();
    assert_eq!(planned(&s), vec![3]);
}

#[test]
fn a_stale_or_missing_marker_rebuilds_the_keys_on_open() {
    for marker in [Some("oubli-match-keys-v0 older".as_bytes()), None] {
        let t = temp();
        let s = Store::create(&t.path).unwrap();
        for f in FACTS {
            s.inscribe(Inscription::new(f)).unwrap();
        }
        s.close().unwrap();
        {
            // Damage the table as an older engine would have left it: another marker (or none)
            // and a record that is not a row's keys.
            let db = redb::Database::open(&t.path).unwrap();
            let tx = db.begin_write().unwrap();
            {
                let mut tb = tx.open_table(oubli::storage::MATCH_KEYS).unwrap();
                match marker {
                    Some(m) => tb.insert(0, m).unwrap(),
                    None => tb.remove(0).unwrap(),
                };
                tb.insert(1, [0u8; 4].as_slice()).unwrap();
            }
            tx.commit().unwrap();
        }
        // Read-only: the rows are found through keys computed in memory.
        let ro = Store::open_with(&t.path, StoreOptions::default().read_only(true)).unwrap();
        assert_eq!(planned(&ro), vec![1, 3]);
        drop(ro);
        let s = Store::open(&t.path).unwrap();
        assert_eq!(planned(&s), vec![1, 3]);
        s.close().unwrap();
        assert_eq!(table_rows(&t.path), vec![0, 1, 2, 3]);
        let db = redb::Database::open(&t.path).unwrap();
        let tx = db.begin_read().unwrap();
        let tb = tx.open_table(oubli::storage::MATCH_KEYS).unwrap();
        assert_eq!(
            tb.get(0).unwrap().unwrap().value(),
            oubli::index::key_index::version_marker().as_bytes()
        );
        assert_eq!(
            tb.get(1).unwrap().unwrap().value().len(),
            4 * oubli::index::key_index::row_key_hashes(FACTS[0]).len()
        );
    }
}

/// Every row's record of a batch large enough to be indexed while its keys are computed on
/// other threads holds that row's own keys, as one-row writes leave them.
#[test]
fn a_large_batch_stores_each_rows_own_keys_as_one_row_writes_do() {
    let names = [
        "Михаил Соловьёв",
        "Anna Petrova",
        "张伟",
        "Zoë Müller",
        "Kenta Sato",
    ];
    let texts: Vec<String> = (0..300)
        .map(|i| {
            format!(
                "{} note {i}: ticket TK-{:05}, call +44 20 7946 {:04}",
                names[i % names.len()],
                i * 37 % 100_000,
                i
            )
        })
        .collect();
    let (batch, single) = (temp(), temp());
    let s = Store::create(&batch.path).unwrap();
    s.inscribe_batch(texts.iter().map(Inscription::new).collect())
        .unwrap();
    s.close().unwrap();
    let s = Store::create(&single.path).unwrap();
    for t in &texts {
        s.inscribe(Inscription::new(t)).unwrap();
    }
    s.close().unwrap();
    let records = |path: &std::path::Path| -> Vec<(u64, Vec<u8>)> {
        let db = redb::Database::open(path).unwrap();
        let tx = db.begin_read().unwrap();
        let t = tx.open_table(oubli::storage::MATCH_KEYS).unwrap();
        t.iter()
            .unwrap()
            .map(|e| {
                let (k, v) = e.unwrap();
                (k.value(), v.value().to_vec())
            })
            .collect()
    };
    let got = records(&batch.path);
    assert_eq!(got.len(), texts.len() + 1);
    for (i, t) in texts.iter().enumerate() {
        let want = oubli::index::key_index::encode(&oubli::index::key_index::row_key_hashes(t));
        assert_eq!(got[i + 1], (i as u64 + 1, want), "row {}", i + 1);
    }
    assert_eq!(got, records(&single.path));
}
