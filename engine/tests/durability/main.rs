//! Durability: purges atomic with their receipt and opening, scrubs that never lose the writer's
//! lock, read-only opens that work beside a writer and on crashed or unwritable files, damaged
//! derived indexes rebuilt, and a residual audit that compares like with like.
//!
//! The crash and tamper suites here are short versions; the long ones are `#[ignore]`d tests
//! run with `cargo test -p oubli-db --release --test durability -- --ignored` (see
//! `docs/durability.md`).

#[path = "../common/mod.rs"]
mod common;
mod crash;
mod read_only_copy;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use common::*;
use oubli::audit::{Opening, SignedReceipt};
use oubli::{Error, Inscription, ListQuery, Store, StoreOptions, Target};

fn read_only(path: &Path) -> oubli::Result<Store> {
    Store::open_with(path, StoreOptions::default().read_only(true))
}

fn crm_store(path: &Path) -> Store {
    let s = Store::create(path).unwrap();
    for (text, key) in [
        ("Maria Keller's email is maria.keller@example.com", "email"),
        ("Maria Keller's phone number is +49 30 5550 1188", "phone"),
        ("Jonas Weber's email is jonas.weber@example.com", "jonas"),
        ("The office plant needs water on Mondays", "plant"),
    ] {
        s.inscribe(Inscription::new(text).namespace("crm").key(key))
            .unwrap();
    }
    s
}

/// The reproduction: an output path that cannot be written is refused before anything
/// is erased, with an error naming it.
#[test]
fn an_unwritable_receipt_path_is_refused_before_anything_is_erased() {
    let t = temp();
    let p = t.path.to_str().unwrap();
    ok(&["init", p]);
    ok(&[
        "inscribe",
        p,
        "Ana prefers green tea",
        "--ns",
        "user:ana",
        "--key",
        "pref",
    ]);
    let opening = t.dir.path().join("o.json");
    let out = oubli(&[
        "purge",
        p,
        "--key",
        "pref",
        "--in",
        "user:ana",
        "--receipt-out",
        "/nonexistent/r.json",
        "--opening-out",
        opening.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("/nonexistent/r.json"), "{err}");
    assert!(ok(&["list", p]).contains("Ana prefers green tea"));
    assert!(!opening.exists());
    let s = read_only(&t.path).unwrap();
    assert!(s.receipts().unwrap().is_empty());
}

#[test]
fn a_purge_writes_receipt_and_opening_files_that_verify() {
    let t = temp();
    let p = t.path.to_str().unwrap();
    ok(&["init", p]);
    ok(&[
        "inscribe",
        p,
        "Ana prefers green tea",
        "--ns",
        "user:ana",
        "--key",
        "pref",
    ]);
    let r = t.dir.path().join("r.json");
    let o = t.dir.path().join("o.json");
    ok(&[
        "purge",
        p,
        "--key",
        "pref",
        "--in",
        "user:ana",
        "--receipt-out",
        r.to_str().unwrap(),
        "--opening-out",
        o.to_str().unwrap(),
    ]);
    let receipt = SignedReceipt::verify_document(&std::fs::read(&r).unwrap(), None).unwrap();
    let opening = Opening::parse(&std::fs::read(&o).unwrap()).unwrap();
    receipt.check_opening(&opening).unwrap();
    assert!(receipt.body.erasure.completion_seq.is_some());
    let s = read_only(&t.path).unwrap();
    assert!(s.pending_openings().unwrap().is_empty());
    assert!(s.incomplete_purges().unwrap().is_empty());
    // The final receipt is the one stored.
    assert_eq!(
        s.receipt_document(receipt.body.purge_id).unwrap(),
        std::fs::read(&r).unwrap()
    );
}

/// A delivery that fails after the erasure committed: the purge completes, the caller gets the
/// delivery's error, and the opening is retrievable exactly once, from the API or the CLI.
#[test]
fn an_undelivered_opening_stays_retrievable_exactly_once() {
    let t = temp();
    let s = crm_store(&t.path);
    let err = s
        .purge_delivering(Target::query_in("crm", "Maria Keller"), |_| {
            Err(Error::Io(std::io::Error::other("disk full")))
        })
        .unwrap_err();
    assert!(matches!(err, Error::Io(_)), "{err}");
    // Erased, with a final receipt.
    let receipts = s.receipts().unwrap();
    assert_eq!(receipts.len(), 1);
    let (id, receipt) = &receipts[0];
    assert_eq!(receipt.body.erased.len(), 2);
    assert!(receipt.body.erasure.completion_seq.is_some());
    assert!(receipt.body.residual_audit.clean, "{receipt:?}");
    assert_eq!(s.pending_openings().unwrap(), vec![*id]);
    assert!(s.incomplete_purges().unwrap().is_empty());
    s.verify_log(None).unwrap();
    drop(s);
    // Sealed: neither the selector nor any erased text is in the file's bytes.
    for needle in ["Maria Keller", "maria.keller@example.com", "5550 1188"] {
        assert!(
            !file_contains(&t.path, needle.as_bytes()),
            "{needle} in file"
        );
    }
    // The CLI re-emits it once.
    let o = t.dir.path().join("late-opening.json");
    let p = t.path.to_str().unwrap();
    let id_s = id.to_string();
    ok(&["receipt", p, &id_s, "--opening-out", o.to_str().unwrap()]);
    let opening = Opening::parse(&std::fs::read(&o).unwrap()).unwrap();
    receipt.check_opening(&opening).unwrap();
    assert_eq!(opening.selector, "Maria Keller");
    let again = oubli(&["receipt", p, &id_s, "--opening-out", o.to_str().unwrap()]);
    assert_eq!(again.status.code(), Some(1));
    let s = Store::open(&t.path).unwrap();
    assert!(s.pending_openings().unwrap().is_empty());
    assert!(matches!(
        s.take_opening(*id, |_| Ok(())),
        Err(Error::InvalidArgument(_))
    ));
    s.verify_log(None).unwrap();
}

#[test]
fn take_opening_keeps_the_opening_when_delivery_fails() {
    let t = temp();
    let s = crm_store(&t.path);
    let _ = s.purge_delivering(Target::query_in("crm", "office plant"), |_| {
        Err(Error::Io(std::io::Error::other("no")))
    });
    let id = s.pending_openings().unwrap()[0];
    assert!(
        s.take_opening(id, |_| Err(Error::Io(std::io::Error::other("still no"))))
            .is_err()
    );
    assert_eq!(s.pending_openings().unwrap(), vec![id]);
    let o = s.take_opening(id, |_| Ok(())).unwrap();
    assert_eq!(o.purge_id, id);
    assert!(s.pending_openings().unwrap().is_empty());
}

/// Waits until the writer process has opened the store: opening for writing marks the file's
/// header (the mark a crash leaves behind), so the bytes change. Reads only, never locks.
fn wait_opened(path: &Path, before: &[u8], child: &mut Child) {
    for _ in 0..4000 {
        if std::fs::read(path).unwrap() != before {
            return;
        }
        if let Ok(Some(status)) = child.try_wait() {
            panic!("writer exited early: {status}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    panic!("the writer never opened the store");
}

/// A store whose writer process was killed while it had the store open: not closed cleanly.
fn crashed_store(t: &TempStore) {
    let s = crm_store(&t.path);
    s.release(Target::key("crm", "plant")).unwrap();
    drop(s);
    let before = std::fs::read(&t.path).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_oubli"))
        .args(["mcp", t.path.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_opened(&t.path, &before, &mut child);
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn read_only_opens_read_a_crashed_store_without_changing_it() {
    let t = temp();
    crashed_store(&t);
    let before = std::fs::read(&t.path).unwrap();
    let s = read_only(&t.path).unwrap();
    s.verify_log(None).unwrap();
    assert_eq!(s.list(&ListQuery::default()).unwrap().len(), 3);
    drop(s);
    let p = t.path.to_str().unwrap();
    ok(&["log", p, "--verify"]);
    ok(&["key", "export", p]);
    ok(&["receipts", p]);
    assert!(ok(&["recall", p, "Maria Keller email"]).contains("maria.keller@example.com"));
    assert!(ok(&["list", p]).contains("jonas.weber"));
    ok(&["history", p, "1"]);
    ok(&["plan", p, "--op", "purge", "--query", "Maria Keller"]);
    assert_eq!(
        std::fs::read(&t.path).unwrap(),
        before,
        "a read-only open wrote"
    );
    // A writable open recovers the file; everything still verifies.
    let s = Store::open(&t.path).unwrap();
    s.verify_log(None).unwrap();
}

#[test]
fn read_verbs_work_on_a_file_without_write_permission() {
    let t = temp();
    drop(crm_store(&t.path));
    let p = t.path.to_str().unwrap();
    let mut perms = std::fs::metadata(&t.path).unwrap().permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(&t.path, perms).unwrap();
    ok(&["log", p, "--verify"]);
    ok(&["key", "export", p]);
    ok(&["receipts", p]);
    assert!(ok(&["recall", p, "Jonas email"]).contains("jonas.weber"));
    assert!(ok(&["list", p]).contains("office plant"));
    ok(&["history", p, "2"]);
    ok(&[
        "plan", p, "--op", "release", "--key", "plant", "--in", "crm",
    ]);
}

/// Readers in other processes work while this process holds the store open for writing, and a
/// writer in another process works while this process holds a read-only handle.
#[test]
fn readers_and_one_writer_share_the_file_across_processes() {
    let t = temp();
    let s = crm_store(&t.path);
    let p = t.path.to_str().unwrap();
    assert!(ok(&["recall", p, "Maria phone"]).contains("5550 1188"));
    ok(&["list", p]);
    ok(&["log", p, "--verify"]);
    ok(&["key", "export", p]);
    // Another process cannot write meanwhile.
    let w = oubli(&["inscribe", p, "a second writer"]);
    assert_eq!(w.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&w.stderr).contains("already open for writing"));
    // Readers opened later see this writer's later commits.
    s.inscribe(Inscription::new("Ben likes black coffee").namespace("crm"))
        .unwrap();
    assert!(ok(&["recall", p, "Ben coffee"]).contains("black coffee"));
    drop(s);
    // A read-only handle never blocks a writer in another process; it keeps reading the state
    // as of its open.
    let r = read_only(&t.path).unwrap();
    ok(&["inscribe", p, "written beside a reader", "--ns", "crm"]);
    assert_eq!(r.list(&ListQuery::default()).unwrap().len(), 5);
    assert_eq!(
        read_only(&t.path)
            .unwrap()
            .list(&ListQuery::default())
            .unwrap()
            .len(),
        6
    );
}

/// Opens in another thread (read-only and writable) and in other processes (every CLI read
/// verb: recall, list, history, log --verify, receipts, plan, key export), in a loop, never make
/// a purge fail, and every one of them succeeds while this process writes and purges.
#[test]
fn concurrent_opens_never_break_a_purge() {
    let t = temp();
    let s = Store::create(&t.path).unwrap();
    let n = 6;
    for i in 0..n {
        s.inscribe(
            Inscription::new(format!("secret number {i} is kiwi-{i}{i}7")).key(format!("k{i}")),
        )
        .unwrap();
    }
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let path = t.path.clone();
    let flag = stop.clone();
    let opener = std::thread::spawn(move || {
        let mut opened = 0u32;
        while !flag.load(std::sync::atomic::Ordering::Relaxed) {
            match read_only(&path) {
                Ok(r) => {
                    r.public_key().unwrap();
                    opened += 1;
                }
                Err(e) => panic!("read-only open failed beside a purge: {e}"),
            }
            match Store::open(&path) {
                Err(Error::Locked(_)) => {}
                other => panic!("a second writer got {other:?}"),
            }
            // Every CLI read verb, in another process, while this process writes and purges.
            let p = path.to_str().unwrap();
            let verbs: [&[&str]; 7] = [
                &["recall", p, "secret number kiwi"],
                &["list", p],
                &["history", p, "1"],
                &["log", p, "--verify"],
                &["receipts", p],
                &["plan", p, "--op", "purge", "--query", "secret number 5"],
                &["key", "export", p],
            ];
            let args = verbs[opened as usize % verbs.len()];
            let out = oubli(args);
            assert!(
                out.status.success(),
                "{args:?} beside a purging writer: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        opened
    });
    for i in 0..n {
        let r = s.purge(Target::key("default", format!("k{i}"))).unwrap();
        assert!(r.completion_seq.is_some());
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    assert!(opener.join().unwrap() > 0);
    assert!(!Path::new(&format!("{}.scrub-tmp", t.path.display())).exists());
    s.verify_log(None).unwrap();
    assert_eq!(s.receipts().unwrap().len(), n);
    for i in 0..n {
        assert!(!file_contains(&t.path, format!("kiwi-{i}{i}7").as_bytes()));
    }
}

/// The residual audit of a purge of an unrelated row is clean although the store holds
/// superseded, released and stale rows.
#[test]
fn the_audit_compares_like_with_like() {
    let t = temp();
    let s = Store::create(&t.path).unwrap();
    let a = s
        .inscribe(Inscription::new("Ana's door code is 4417").namespace("u"))
        .unwrap();
    s.supersede(Target::id(a), Inscription::new("Ana's door code is 9051"))
        .unwrap();
    let dog = s
        .inscribe(Inscription::new("Ana walks the dog at seven").namespace("u"))
        .unwrap();
    s.release(Target::id(dog)).unwrap();
    s.inscribe(Inscription::new("Ana's sister lives in Porto").namespace("u"))
        .unwrap();
    s.inscribe(Inscription::new("The printer on floor two is jammed").namespace("u"))
        .unwrap();
    let r = s.purge(Target::query_in("u", "printer floor two")).unwrap();
    assert_eq!(r.audit.summary.control_mismatches, 0, "{:?}", r.audit);
    assert!(r.audit.summary.clean, "{:?}", r.audit);
    s.verify_log(None).unwrap();
}

/// The derived indexes are not trusted: a damaged text index file or vector snapshot is rebuilt
/// from the rows, and verification never needs them.
#[test]
fn a_damaged_text_index_is_rebuilt_from_the_rows() {
    let t = temp();
    drop(crm_store(&t.path));
    {
        let db = redb::Database::open(&t.path).unwrap();
        let tx = db.begin_write().unwrap();
        {
            let mut files = tx.open_table(oubli::storage::TEXT_INDEX_FILES).unwrap();
            let names: Vec<String> = {
                use redb::ReadableTable;
                files
                    .iter()
                    .unwrap()
                    .map(|e| e.unwrap().0.value().to_string())
                    .collect()
            };
            for n in names {
                let garbage = vec![0x5a_u8; 64];
                files.insert(n.as_str(), garbage.as_slice()).unwrap();
            }
        }
        tx.commit().unwrap();
    }
    // Read-only: rebuilt in memory, the file untouched.
    let before = std::fs::read(&t.path).unwrap();
    let r = read_only(&t.path).unwrap();
    r.verify_log(None).unwrap();
    let hits = r
        .recall(&oubli::RecallQuery::new("Jonas Weber email"))
        .unwrap();
    assert!(texts(&hits)[0].contains("jonas.weber"));
    drop(r);
    assert_eq!(std::fs::read(&t.path).unwrap(), before);
    // Writable: rebuilt in the file.
    let s = Store::open(&t.path).unwrap();
    let hits = s
        .recall(&oubli::RecallQuery::new("office plant water"))
        .unwrap();
    assert!(texts(&hits)[0].contains("plant"));
    s.verify_log(None).unwrap();
    drop(s);
    let r = read_only(&t.path).unwrap();
    let hits = r.recall(&oubli::RecallQuery::new("Maria phone")).unwrap();
    assert!(texts(&hits)[0].contains("5550 1188"));
}

/// Overwrites every text index file and every vector snapshot chunk of the store at `path`.
fn damage_indexes(path: &Path) {
    use redb::ReadableTable;
    let db = redb::Database::open(path).unwrap();
    let tx = db.begin_write().unwrap();
    {
        let mut files = tx.open_table(oubli::storage::TEXT_INDEX_FILES).unwrap();
        let names: Vec<String> = files
            .iter()
            .unwrap()
            .map(|e| e.unwrap().0.value().to_string())
            .collect();
        assert!(!names.is_empty());
        for n in names {
            files.insert(n.as_str(), [0x5a_u8; 64].as_slice()).unwrap();
        }
        let mut snap = tx.open_table(oubli::storage::VECTOR_SNAPSHOT).unwrap();
        let chunks: Vec<u64> = snap.iter().unwrap().map(|e| e.unwrap().0.value()).collect();
        assert!(!chunks.is_empty(), "the fixture has a vector snapshot");
        for c in chunks {
            snap.insert(c, [0xa5_u8; 256].as_slice()).unwrap();
        }
    }
    tx.commit().unwrap();
}

/// Every command works on a store whose derived indexes are damaged: the read verbs (which
/// rebuild them in memory), `log --verify` (which never reads them), and `oubli repair`, which
/// rebuilds both from the rows and says what it found; a second repair finds them sound.
#[test]
fn repair_rebuilds_damaged_indexes_and_every_command_works_meanwhile() {
    let t = temp();
    {
        let s = Store::create_with(&t.path, StoreOptions::default().ann_threshold(2)).unwrap();
        for (text, key) in [
            ("Maria Keller's email is maria.keller@example.com", "email"),
            ("Jonas Weber's email is jonas.weber@example.com", "jonas"),
            ("The office plant needs water on Mondays", "plant"),
            ("Ana's sister lives in Porto", "sister"),
        ] {
            s.inscribe(Inscription::new(text).namespace("crm").key(key))
                .unwrap();
        }
        s.close().unwrap();
    }
    damage_indexes(&t.path);
    let p = t.path.to_str().unwrap();
    assert!(ok(&["recall", p, "Maria Keller email"]).contains("maria.keller"));
    assert!(ok(&["list", p]).contains("plant"));
    ok(&["log", p, "--verify"]);
    ok(&["history", p, "1"]);
    ok(&["receipts", p]);
    ok(&["key", "export", p]);
    let report: serde_json::Value = serde_json::from_str(&ok(&["--json", "repair", p])).unwrap();
    assert!(
        !report["text_damaged"].as_array().unwrap().is_empty(),
        "{report}"
    );
    assert_eq!(report["snapshot_damaged"], true, "{report}");
    assert_eq!(report["text_rows"], 4);
    assert_eq!(report["vectors"], 4);
    let again: serde_json::Value = serde_json::from_str(&ok(&["--json", "repair", p])).unwrap();
    assert!(
        again["text_damaged"].as_array().unwrap().is_empty(),
        "{again}"
    );
    assert_eq!(again["snapshot_damaged"], false, "{again}");
    assert!(ok(&["recall", p, "Jonas email"]).contains("jonas.weber"));
    ok(&["log", p, "--verify"]);
    // Writes work after the repair, and the repair wrote no event.
    ok(&["inscribe", p, "Lukas prefers tea", "--in", "crm"]);
    let s = read_only(&t.path).unwrap();
    s.verify_log(None).unwrap();
    assert_eq!(s.head().unwrap().0, 5);
}

#[test]
fn a_reader_sees_the_writers_last_write_while_its_index_files_are_staged() {
    let t = temp();
    let w = Store::create(&t.path).unwrap();
    w.inscribe(Inscription::new("first row about green tea"))
        .unwrap();
    w.inscribe(Inscription::new("zebra crossing permit renewed"))
        .unwrap();
    // The writer is still open: the text index files of its last write are staged, not in the
    // file. The reader re-indexes that write's rows in its own copy.
    let r = Store::open_with(&t.path, StoreOptions::default().read_only(true)).unwrap();
    let hits = r
        .recall(&oubli::RecallQuery::new("zebra permit").legs(oubli::Legs::Lexical))
        .unwrap();
    assert_eq!(
        texts(&hits),
        vec!["zebra crossing permit renewed".to_string()]
    );
    // The file was not written by the reader.
    drop(r);
    w.inscribe(Inscription::new("a third row")).unwrap();
    w.verify_file().unwrap();
}
