//! oubli's patch (OUBLI-PATCH.md): a page redb returns to its allocator is overwritten with zeros,
//! so a deleted value leaves the file once the pages that held it are freed. redb frees the pages
//! a transaction replaced during the next durable commit (when no reader still needs them), so
//! a delete followed by one more commit (empty or not) leaves no byte of the value.

use std::sync::Arc;

use redb::backends::InMemoryBackend;
use redb::{Database, ReadableDatabase, ReadableTableMetadata, StorageBackend, TableDefinition};

const T: TableDefinition<u64, &[u8]> = TableDefinition::new("t");

fn secret(i: u64) -> Vec<u8> {
    format!("SECRET-{i:06}-the-quick-brown-fox-jumps-over-the-lazy-dog").into_bytes()
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

/// Fills a table over several commits and deletes every row matching `erased` in one more.
/// Returns the deleted values.
fn write_delete(db: &Database, rows: u64, big: bool, erased: impl Fn(u64) -> bool) -> Vec<Vec<u8>> {
    let value = |i: u64| {
        let mut v = secret(i);
        if big {
            // A value spanning several pages (a multi-page allocation of a higher order).
            v.resize(20_000, b'x');
            v.extend_from_slice(&secret(i));
        }
        v
    };
    // Several transactions, so the values' pages are copied and freed more than once.
    for chunk in (0..rows).collect::<Vec<_>>().chunks(7) {
        let tx = db.begin_write().unwrap();
        {
            let mut t = tx.open_table(T).unwrap();
            for &i in chunk {
                t.insert(i, value(i).as_slice()).unwrap();
            }
        }
        tx.commit().unwrap();
    }
    let tx = db.begin_write().unwrap();
    let mut gone = Vec::new();
    {
        let mut t = tx.open_table(T).unwrap();
        for i in (0..rows).filter(|&i| erased(i)) {
            t.remove(i).unwrap();
            gone.push(secret(i));
        }
    }
    tx.commit().unwrap();
    gone
}

fn empty_commit(db: &Database) {
    db.begin_write().unwrap().commit().unwrap();
}

fn check(bytes: &[u8], gone: &[Vec<u8>], rows: u64, erased: impl Fn(u64) -> bool) {
    for g in gone {
        assert!(!contains(bytes, g), "{} found", String::from_utf8_lossy(g));
    }
    // Never erase what was not asked: every kept value is still there.
    for i in (0..rows).filter(|&i| !erased(i)) {
        assert!(contains(bytes, &secret(i)), "kept row {i} lost");
    }
}

#[test]
fn deleted_values_leave_the_file_after_one_more_commit() {
    for big in [false, true] {
        let file = tempfile::NamedTempFile::new().unwrap();
        let db = Database::create(file.path()).unwrap();
        let erased = |i: u64| i % 3 == 1;
        let gone = write_delete(&db, 60, big, erased);
        // The pages the delete replaced belong to the previous committed state until the next
        // commit, which frees (and so zeroes) them.
        empty_commit(&db);
        check(&std::fs::read(file.path()).unwrap(), &gone, 60, erased);
        // Still readable, and the kept rows are intact through redb too.
        let tx = db.begin_read().unwrap();
        let t = tx.open_table(T).unwrap();
        assert!(t.get(0).unwrap().is_some());
        assert!(t.get(1).unwrap().is_none());
        drop(t);
        drop(tx);
        drop(db);
        let db = Database::open(file.path()).unwrap();
        let tx = db.begin_read().unwrap();
        assert_eq!(tx.open_table(T).unwrap().len().unwrap(), 40);
    }
}

#[test]
fn a_live_reader_defers_the_zeroing_until_it_ends() {
    let file = tempfile::NamedTempFile::new().unwrap();
    let db = Database::create(file.path()).unwrap();
    let tx = db.begin_write().unwrap();
    tx.open_table(T)
        .unwrap()
        .insert(5, secret(5).as_slice())
        .unwrap();
    tx.open_table(T)
        .unwrap()
        .insert(6, secret(6).as_slice())
        .unwrap();
    tx.commit().unwrap();
    let reader = db.begin_read().unwrap();
    let tx = db.begin_write().unwrap();
    tx.open_table(T).unwrap().remove(5).unwrap();
    tx.commit().unwrap();
    empty_commit(&db);
    // The reader's snapshot still holds the row: its pages must not be touched.
    assert_eq!(
        reader
            .open_table(T)
            .unwrap()
            .get(5)
            .unwrap()
            .unwrap()
            .value(),
        secret(5).as_slice()
    );
    drop(reader);
    empty_commit(&db);
    // Rows 5 and 6 were written; 5 is erased, 6 kept.
    check(&std::fs::read(file.path()).unwrap(), &[secret(5)], 7, |i| {
        i <= 5
    });
}

/// An in-memory backend whose bytes the test can read while redb uses it.
#[derive(Debug)]
struct Shared(Arc<InMemoryBackend>);

impl StorageBackend for Shared {
    fn len(&self) -> Result<u64, std::io::Error> {
        self.0.len()
    }
    fn read(&self, offset: u64, out: &mut [u8]) -> Result<(), std::io::Error> {
        self.0.read(offset, out)
    }
    fn set_len(&self, len: u64) -> Result<(), std::io::Error> {
        self.0.set_len(len)
    }
    fn sync_data(&self) -> Result<(), std::io::Error> {
        self.0.sync_data()
    }
    fn write(&self, offset: u64, data: &[u8]) -> Result<(), std::io::Error> {
        self.0.write(offset, data)
    }
}

#[test]
fn deleted_values_leave_the_in_memory_backend_too() {
    let mem = Arc::new(InMemoryBackend::new());
    let db = Database::builder()
        .create_with_backend(Shared(mem.clone()))
        .unwrap();
    let erased = |i: u64| i.is_multiple_of(2);
    let gone = write_delete(&db, 40, false, erased);
    empty_commit(&db);
    let mut bytes = vec![0; mem.len().unwrap() as usize];
    mem.read(0, &mut bytes).unwrap();
    check(&bytes, &gone, 40, erased);
}
