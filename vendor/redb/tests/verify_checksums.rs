//! oubli's patch 9 (OUBLI-PATCH.md): `Database::verify_committed_checksums` checks every page of
//! the committed state against its checksum and changes nothing. A clean file verifies; a byte
//! changed in a committed page fails it, repairs nothing (it fails again), and
//! `check_integrity`, which the caller then runs, reports the file.

use redb::{Database, ReadableDatabase, ReadableTableMetadata, TableDefinition};

const T: TableDefinition<u64, &[u8]> = TableDefinition::new("t");
const MARK: &[u8] = b"verify-committed-checksums-mark";

fn build(path: &std::path::Path) {
    let db = Database::create(path).unwrap();
    let tx = db.begin_write().unwrap();
    {
        let mut t = tx.open_table(T).unwrap();
        for i in 0..2_000u64 {
            let mut v = vec![u8::try_from(i % 251).unwrap(); 100];
            if i == 1_000 {
                v.extend_from_slice(MARK);
            }
            t.insert(i, v.as_slice()).unwrap();
        }
    }
    tx.commit().unwrap();
}

#[test]
fn a_clean_file_verifies_and_a_changed_page_does_not() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.redb");
    build(&path);
    let before = std::fs::read(&path).unwrap();
    {
        let db = Database::open(&path).unwrap();
        assert!(db.verify_committed_checksums().unwrap());
        // Everything still reads after the walk.
        let tx = db.begin_read().unwrap();
        assert_eq!(tx.open_table(T).unwrap().len().unwrap(), 2_000);
    }
    let mut bytes = before.clone();
    let at = bytes
        .windows(MARK.len())
        .position(|w| w == MARK)
        .expect("the value is in the file");
    bytes[at] ^= 0x01;
    std::fs::write(&path, &bytes).unwrap();
    let mut db = Database::open(&path).unwrap();
    assert!(!db.verify_committed_checksums().unwrap());
    // The walk repaired nothing: it fails again, and the full check reports the file.
    assert!(!db.verify_committed_checksums().unwrap());
    assert!(db.check_integrity().is_err());
}
