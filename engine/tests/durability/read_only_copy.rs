//! A read-only handle's private copy of the file (`engine/src/storage/private_copy.rs`): a copy
//! of a cleanly closed file is checked page by page against the checksums before anything reads
//! it, and a copy of a file whose writer is live (and committing while it is copied) opens as
//! one of the writer's commits, whole.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::*;

/// A cleanly closed store (opened from the allocator state its close recorded, where only the
/// checksum walk stands between the copy and its readers) with one byte of a row's text changed:
/// a read-only open and the file's integrity check both report it as corrupt.
#[test]
fn a_changed_byte_in_a_closed_store_is_corrupt_to_a_read_only_open() {
    let t = temp();
    crm_store(&t.path).close().unwrap();
    let mut bytes = std::fs::read(&t.path).unwrap();
    let needle = b"maria.keller@example.com";
    let at = bytes
        .windows(needle.len())
        .position(|w| w == needle)
        .expect("the row's text is in the file");
    bytes[at] ^= 0x20;
    std::fs::write(&t.path, &bytes).unwrap();
    match read_only(&t.path) {
        Err(Error::Corrupt(_)) => {}
        Err(e) => panic!("a changed page gave {e}"),
        Ok(_) => panic!("a changed page opened"),
    }
    assert!(matches!(
        oubli::storage::check_file_integrity(&t.path),
        Err(Error::Corrupt(_))
    ));
    // The read-only open and the check wrote nothing.
    assert_eq!(std::fs::read(&t.path).unwrap(), bytes);
}

/// Read-only opens in a loop while a writer (this process, another thread) commits row after
/// row: the file's recovery flag is set all along (a live writer), so each copy is recovered in
/// memory; every open succeeds and reads a whole commit (the log, every row against its digest
/// and every page checksum verify), never fewer rows than an earlier open.
#[test]
fn read_only_opens_beside_a_committing_writer_read_whole_commits() {
    let t = temp();
    let w = Store::create(&t.path).unwrap();
    w.inscribe(Inscription::new("the first row")).unwrap();
    let done = Arc::new(AtomicBool::new(false));
    let flag = done.clone();
    let writer = std::thread::spawn(move || {
        for i in 0..150 {
            w.inscribe(Inscription::new(format!(
                "row {i}: Ana moved the meeting to room {i}"
            )))
            .unwrap();
        }
        flag.store(true, Ordering::SeqCst);
        w
    });
    let mut seen = 0;
    let mut opens = 0;
    while !done.load(Ordering::SeqCst) || opens < 3 {
        let r = read_only(&t.path).unwrap();
        r.verify_log(None).unwrap();
        let n = r.list(&ListQuery::default()).unwrap().len();
        assert!(
            n >= seen.max(1),
            "an open read {n} rows after one read {seen}"
        );
        seen = n;
        opens += 1;
    }
    let w = writer.join().unwrap();
    assert_eq!(w.list(&ListQuery::default()).unwrap().len(), 151);
    assert!(opens >= 3);
}
