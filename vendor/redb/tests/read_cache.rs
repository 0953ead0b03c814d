//! oubli's patch 7 (OUBLI-PATCH.md): pages a thread reads inside `redb::without_read_cache` are
//! returned without entering the read cache, so a bulk scan neither keeps a second copy of what
//! it reads nor evicts what later reads need. Pages already cached are still served from it,
//! and caching resumes when the call returns; another thread caches as usual meanwhile. Counted
//! at the storage backend: a page served from the cache is no backend read.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use redb::backends::FileBackend;
use redb::{Database, ReadableDatabase, StorageBackend, TableDefinition};

const T: TableDefinition<u64, &[u8]> = TableDefinition::new("t");
const ROWS: u64 = 4_000;

/// A file backend counting the reads that reach it.
#[derive(Debug)]
struct Counting {
    inner: FileBackend,
    reads: Arc<AtomicU64>,
}

impl StorageBackend for Counting {
    fn len(&self) -> Result<u64, std::io::Error> {
        self.inner.len()
    }
    fn read(&self, offset: u64, out: &mut [u8]) -> Result<(), std::io::Error> {
        self.reads.fetch_add(1, Ordering::SeqCst);
        self.inner.read(offset, out)
    }
    fn set_len(&self, len: u64) -> Result<(), std::io::Error> {
        self.inner.set_len(len)
    }
    fn sync_data(&self) -> Result<(), std::io::Error> {
        self.inner.sync_data()
    }
    fn write(&self, offset: u64, data: &[u8]) -> Result<(), std::io::Error> {
        self.inner.write(offset, data)
    }
}

/// The sum of the first byte of the values of `rows`.
fn scan(db: &impl ReadableDatabase, rows: std::ops::Range<u64>) -> u64 {
    let tx = db.begin_read().unwrap();
    let t = tx.open_table(T).unwrap();
    t.range(rows)
        .unwrap()
        .map(|e| u64::from(e.unwrap().1.value()[0]))
        .sum()
}

fn expected(rows: std::ops::Range<u64>) -> u64 {
    rows.map(|i| i % 256).sum()
}

#[test]
fn a_scan_inside_the_call_caches_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.redb");
    {
        let db = Database::create(&path).unwrap();
        let tx = db.begin_write().unwrap();
        {
            let mut t = tx.open_table(T).unwrap();
            for i in 0..ROWS {
                t.insert(i, vec![i as u8; 1024].as_slice()).unwrap();
            }
        }
        tx.commit().unwrap();
    }
    let counter = Arc::new(AtomicU64::new(0));
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&path)
        .unwrap();
    // Read-only: its open reads no table page (a writable debug build walks every page).
    let db = Database::builder()
        .open_read_only_with_backend(Counting {
            inner: FileBackend::new(file).unwrap(),
            reads: counter.clone(),
        })
        .unwrap();
    let reads = || counter.load(Ordering::SeqCst);
    // The backend reads of a scan of `rows` (about 1,400 pages for the whole table).
    let scan_reads = |rows: std::ops::Range<u64>| {
        let r = reads();
        assert_eq!(scan(&db, rows.clone()), expected(rows));
        reads() - r
    };
    let (first, last) = (0..ROWS / 2, ROWS / 2..ROWS);

    // Inside the call (nested calls included), a scan reads every page from the file, and
    // again the second time: it cached none of them.
    let once = redb::without_read_cache(|| redb::without_read_cache(|| scan_reads(first.clone())));
    assert!(once >= ROWS / 8, "2 MB of values: {once} reads");
    let twice = redb::without_read_cache(|| scan_reads(first.clone()));
    assert!(twice + 4 >= once, "{once} then {twice}");

    // Outside it, the first scan caches what it reads; then a scan inside the call is served
    // from the cache.
    assert!(scan_reads(first.clone()) + 4 >= once);
    assert!(scan_reads(first.clone()) <= 4);
    assert!(redb::without_read_cache(|| scan_reads(first.clone())) <= 4);

    // Another thread scanning while this one is inside the call caches as usual.
    let other = redb::without_read_cache(|| {
        std::thread::scope(|s| s.spawn(|| scan_reads(last.clone())).join().unwrap())
    });
    assert!(other >= ROWS / 8);
    assert!(scan_reads(last.clone()) <= 4);
}
