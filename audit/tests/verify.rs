//! `oubli-audit` against fixtures written by the engine
//! (`cargo run -p oubli-db --example audit_fixture -- audit/tests/fixtures`): a store after a GDPR
//! purge of "Maria Keller", its receipt and its opening.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use oubli_audit::store_check::check_store;
use oubli_audit::{Coverage, Opening, SignedReceipt, hex, tables};
use redb::ReadableTable;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn audit(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_oubli-audit"))
        .args(args)
        .output()
        .unwrap()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn the_fixture_receipt_verifies_end_to_end() {
    let pk = std::fs::read_to_string(fixture("pubkey.hex")).unwrap();
    let out = audit(&[
        "verify",
        s(&fixture("receipt.json")),
        "--pubkey",
        pk.trim(),
        "--opening",
        s(&fixture("opening.json")),
        "--content",
        "maria.keller@example.com",
        "--content",
        "+49 30 5550 1188",
        "--store",
        s(&fixture("store.oubli")),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("covered"));
    assert!(stdout.ends_with("verified\n"));
}

#[test]
fn failures_have_clear_exit_codes() {
    let r = fixture("receipt.json");
    // Another key: 3.
    let other = hex::encode(&[1u8; 32]);
    assert_eq!(
        audit(&["verify", s(&r), "--pubkey", &other]).status.code(),
        Some(3)
    );
    // Content the receipt does not cover: 3.
    let out = audit(&[
        "verify",
        s(&r),
        "--opening",
        s(&fixture("opening.json")),
        "--content",
        "jonas.weber@example.com",
    ]);
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not covered"));
    // A tampered receipt: 3.
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    let mut bytes = std::fs::read(&r).unwrap();
    let i = bytes.iter().position(|b| *b == b'"').unwrap() + 1;
    bytes.insert(i, b' ');
    std::fs::write(&bad, &bytes).unwrap();
    assert_eq!(audit(&["verify", s(&bad)]).status.code(), Some(3));
    // Unreadable input: 4. Bad usage: 2.
    assert_eq!(
        audit(&["verify", "/nonexistent/receipt.json"])
            .status
            .code(),
        Some(4)
    );
    assert_eq!(audit(&["verify"]).status.code(), Some(2));
    assert_eq!(
        audit(&["verify", s(&r), "--content", "x"]).status.code(),
        Some(2)
    );
}

#[test]
fn the_store_check_catches_leftovers() {
    let doc = std::fs::read(fixture("receipt.json")).unwrap();
    let receipt = SignedReceipt::verify_document(&doc, None).unwrap();
    let opening = Opening::parse(&std::fs::read(fixture("opening.json")).unwrap()).unwrap();
    assert_eq!(
        receipt
            .covers(&opening, "Maria Keller's email is maria.keller@example.com")
            .unwrap(),
        Coverage::FullText(receipt.body.erased[0].row)
    );
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("s.oubli");
    std::fs::copy(fixture("store.oubli"), &copy).unwrap();
    check_store(&copy, &receipt, &doc, &["maria.keller@example.com".into()]).unwrap();
    // A payload of an erased row reappears.
    {
        let db = redb::Database::open(&copy).unwrap();
        let tx = db.begin_write().unwrap();
        tx.open_table(tables::PAYLOADS)
            .unwrap()
            .insert(receipt.body.erased[0].row, b"x".as_slice())
            .unwrap();
        tx.commit().unwrap();
    }
    assert!(check_store(&copy, &receipt, &doc, &[]).is_err());
    // The erased text is in the file's bytes.
    std::fs::copy(fixture("store.oubli"), &copy).unwrap();
    {
        let db = redb::Database::open(&copy).unwrap();
        let tx = db.begin_write().unwrap();
        tx.open_table(tables::META)
            .unwrap()
            .insert("note", b"maria.keller@example.com".as_slice())
            .unwrap();
        tx.commit().unwrap();
    }
    assert!(check_store(&copy, &receipt, &doc, &["maria.keller@example.com".into()]).is_err());
    // A log event is changed.
    std::fs::copy(fixture("store.oubli"), &copy).unwrap();
    {
        let db = redb::Database::open(&copy).unwrap();
        let tx = db.begin_write().unwrap();
        {
            let mut t = tx.open_table(tables::EVENTS).unwrap();
            let mut v = t.get(1).unwrap().unwrap().value().to_vec();
            v[10] ^= 1;
            t.insert(1, v.as_slice()).unwrap();
        }
        tx.commit().unwrap();
    }
    assert!(check_store(&copy, &receipt, &doc, &[]).is_err());
}
