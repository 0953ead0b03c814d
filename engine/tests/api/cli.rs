//! The `oubli` binary, driven as a user would.

use crate::common;

use common::*;

#[test]
fn a_session_from_the_shell() {
    let t = temp();
    let p = t.path.to_str().unwrap();
    ok(&["init", p]);
    ok(&[
        "inscribe",
        p,
        "The staging password is tulip-4417",
        "--ns",
        "ops",
        "--key",
        "pw",
    ]);
    let jsonl = t.dir.path().join("rows.jsonl");
    std::fs::write(
        &jsonl,
        "{\"text\": \"Maria's email is maria@example.com\", \"namespace\": \"crm\"}\n\
         \n\
         {\"text\": \"Jonas likes espresso\", \"namespace\": \"crm\", \"metadata\": {\"cat\": \"likes\"}}\n",
    )
    .unwrap();
    let out = ok(&["--json", "inscribe", p, "--file", jsonl.to_str().unwrap()]);
    let ids: Vec<u64> = serde_json::from_str(&out).unwrap();
    assert_eq!(ids, vec![2, 3]);

    let out = ok(&["--json", "recall", p, "staging password", "--k", "2"]);
    let hits: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(hits[0]["row"]["text"], "The staging password is tulip-4417");

    ok(&[
        "supersede",
        p,
        "--key",
        "pw",
        "--in",
        "ops",
        "The staging password is orchid-9051",
    ]);
    let out = ok(&["recall", p, "staging password", "--k", "1"]);
    assert!(out.contains("orchid-9051") && !out.contains("tulip"));

    let out = ok(&["--json", "purge", p, "--query", "Maria email", "--dry-run"]);
    let m: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(m["matches"][0]["id"], 2);
    assert_eq!(m["rows"], serde_json::json!([2]));
    let receipt = t.dir.path().join("r.json");
    let opening = t.dir.path().join("o.json");
    let out = ok(&[
        "--json",
        "purge",
        p,
        "--query",
        "Maria email",
        "--receipt-out",
        receipt.to_str().unwrap(),
        "--opening-out",
        opening.to_str().unwrap(),
    ]);
    let r: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(r["erased"], serde_json::json!([2]));
    assert_eq!(r["residual_audit"]["clean"], true);
    let id = r["purge_id"].as_u64().unwrap().to_string();
    assert_eq!(
        std::fs::read(&receipt).unwrap(),
        ok(&["receipt", p, &id]).into_bytes()
    );
    assert!(ok(&["receipts", p]).contains("clean"));
    ok(&[
        "audit",
        "purge",
        p,
        &id,
        "--content",
        "Maria's email is maria@example.com",
    ]);
    oubli::audit::SignedReceipt::verify_document(&std::fs::read(&receipt).unwrap(), None).unwrap();

    let out = ok(&["--json", "list", p, "--filter", "cat=likes"]);
    let rows: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(rows.as_array().unwrap().len(), 1);

    let out = ok(&["log", p, "--verify"]);
    // 3 inscribes, a supersede, a purge and its scrub.
    assert!(out.starts_with("log verified: 6 events"), "{out}");
    let pk = ok(&["key", "export", p]);
    ok(&["log", p, "--verify", "--pubkey", pk.trim()]);
    let bad = oubli(&["log", p, "--verify", "--pubkey", &"ab".repeat(32)]);
    assert_eq!(bad.status.code(), Some(1));
    let out = ok(&["history", p, "1"]);
    assert!(out.contains("supersede"));
    assert!(!file_contains(&t.path, b"maria@example.com"));
}

#[test]
fn bad_input_fails_cleanly() {
    let t = temp();
    let p = t.path.to_str().unwrap();
    ok(&["init", p]);
    let jsonl = t.dir.path().join("bad.jsonl");
    std::fs::write(&jsonl, "{\"text\": \"fine\"}\n{\"text\": \"\"}\n").unwrap();
    let out = oubli(&["inscribe", p, "--file", jsonl.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.jsonl:2"), "{err}");
    // Nothing from the file was written.
    let out = ok(&["--json", "list", p]);
    assert_eq!(out.trim(), "[]");
    // Usage errors exit 2; store errors exit 1.
    assert_eq!(oubli(&["recall"]).status.code(), Some(2));
    assert_eq!(oubli(&["release", p]).status.code(), Some(2));
    assert_eq!(oubli(&["release", p, "--id", "42"]).status.code(), Some(1));
    assert_eq!(oubli(&["init", p]).status.code(), Some(1));
}

#[test]
fn demo_runs() {
    let t = temp();
    let out = ok(&["demo", t.path.to_str().unwrap()]);
    assert!(out.contains("demo ok"));
}

#[test]
fn compact_from_the_shell() {
    let t = temp();
    let p = t.path.to_str().unwrap();
    ok(&["init", p]);
    for (text, price, qty) in [
        ("7 pens at $2 each", "2", "7"),
        ("3 mugs at $4.50 each", "4.50", "3"),
    ] {
        let price = format!("price={price}");
        let qty = format!("qty={qty}");
        ok(&[
            "inscribe", p, text, "--ns", "shop", "--meta", &price, "--meta", &qty,
        ]);
    }
    let out = ok(&[
        "compact",
        p,
        "--ns",
        "shop",
        "--budget",
        "300",
        "--query",
        "pens mugs",
    ]);
    assert!(out.starts_with("oubli note v1: kept 2 of 2"), "{out}");
    let out = ok(&[
        "--json",
        "compact",
        p,
        "--ns",
        "shop",
        "--budget",
        "130",
        "--query",
        "pens mugs",
        "--dry-run",
    ]);
    let note: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(note["complete"], false);
    assert!(note["text"].as_str().unwrap().contains("INCOMPLETE"));
    let refused = oubli(&[
        "compact",
        p,
        "--ns",
        "shop",
        "--budget",
        "130",
        "--query",
        "pens mugs",
        "--strict",
    ]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("strict compaction refused"));
    let out = ok(&["compact", p, "--replay"]);
    assert!(out.contains(" ok digest "), "{out}");
    assert_eq!(
        oubli(&["compact", p]).status.code(),
        Some(2),
        "--budget is required"
    );
    let bad = oubli(&["recompute", p, "1"]);
    assert_eq!(bad.status.code(), Some(1));
}
