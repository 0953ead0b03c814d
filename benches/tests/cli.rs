//! The command-line tool, driven as a user would.

use std::path::Path;
use std::process::{Command, Output};

fn bench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_oubli-bench"))
        .args(args)
        .output()
        .expect("run oubli-bench")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn generate_is_deterministic_and_runs() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.jsonl");
    let b = dir.path().join("b.jsonl");
    for path in [&a, &b] {
        let out = bench(&[
            "generate",
            "--seed",
            "42",
            "--distractors",
            "4",
            "--out",
            path.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    let first = std::fs::read_to_string(&a).unwrap();
    assert_eq!(first, std::fs::read_to_string(&b).unwrap());
    assert_eq!(first.lines().count(), 1000);
    let small = bench(&["generate", "--seed", "7", "--per-subtemplate", "1"]);
    assert_eq!(text(&small.stdout).lines().count(), 20);
}

#[test]
fn malformed_input_is_a_typed_error_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.jsonl");
    let good = r#"{"id":"a","category":"c","setup_facts":["x"],"mutations":[],"final_query":"x","must_contain":["x"],"must_not_contain":[]}"#;
    std::fs::write(&path, format!("{good}\n{{\"id\": \"b\", oops\n")).unwrap();
    let out = bench(&["run", "--adapter", "baseline", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("bad.jsonl:2: malformed case"), "{err}");
}

#[test]
fn run_writes_json_and_compare_tests_two_runs() {
    let dir = tempfile::tempdir().unwrap();
    let cases = Path::new(env!("CARGO_MANIFEST_DIR")).join("cases/prefix_collision.jsonl");
    let a = dir.path().join("a.json");
    let out = bench(&[
        "run",
        "--adapter",
        "baseline",
        cases.to_str().unwrap(),
        "--json",
        a.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let table = text(&out.stdout);
    assert!(table.contains("| prefix_collision"), "{table}");
    assert!(table.contains("95 % Wilson"), "{table}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&a).unwrap()).unwrap();
    let first = &report["results"][0];
    assert!(
        first["verdict"].is_string() && first["recalls"][0]["texts"].is_array(),
        "{first}"
    );

    let cmp = bench(&["compare", a.to_str().unwrap(), a.to_str().unwrap()]);
    assert!(cmp.status.success(), "{}", text(&cmp.stderr));
    assert!(
        text(&cmp.stdout).contains("p = 1.0000"),
        "{}",
        text(&cmp.stdout)
    );
}

#[test]
fn admit_rejects_a_case_that_cannot_pass() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.jsonl");
    std::fs::write(
        &path,
        r#"{"id":"t","category":"prefix_collision","setup_facts":["TXN-123 refunded","TXN-1234 charged"],"mutations":[{"op":"purge","q":"TXN-123"}],"final_query":"refunds","must_contain":["TXN-1234"],"must_not_contain":["TXN-123"]}"#,
    )
    .unwrap();
    let out = bench(&["admit", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).contains("is inside must_contain"),
        "{}",
        text(&out.stdout)
    );
}
