//! The CLI's shell conventions, driven as a user would: `-` reads standard input, a closed
//! pipe ends quietly, usage errors exit 2, one namespace flag, ISO 8601 times, text without
//! Rust debug syntax, stable JSON shapes, I/O errors that name their path.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Output, Stdio};

use common::*;
use serde_json::Value;

/// Runs with `input` on standard input.
fn oubli_stdin(args: &[&str], input: &str) -> Output {
    let mut child = oubli_bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run oubli");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn json(args: &[&str]) -> Value {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    serde_json::from_str(&ok(&all)).unwrap_or_else(|e| panic!("oubli {args:?}: not JSON: {e}"))
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Text that should never reach a person: Rust's debug rendering of options and vectors.
fn assert_no_debug_syntax(out: &str) {
    for artefact in ["Some(", "None", "#[", "[\"", "Level(", "Finite("] {
        assert!(!out.contains(artefact), "{artefact:?} in {out:?}");
    }
}

#[test]
fn dash_reads_standard_input() {
    let t = temp();
    let p = t.path.to_str().unwrap();
    ok(&["init", p]);
    let out = oubli_stdin(
        &["--json", "inscribe", p, "-", "--ns", "ops", "--key", "pw"],
        "The staging password is tulip-4417\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let rows = json(&["list", p]);
    assert_eq!(rows[0]["text"], "The staging password is tulip-4417");

    let out = oubli_stdin(
        &["supersede", p, "--key", "pw", "--ns", "ops", "-"],
        "The staging password is orchid-9051\r\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let rows = json(&["list", p]);
    assert_eq!(rows.as_array().unwrap().len(), 1);
    assert_eq!(rows[0]["text"], "The staging password is orchid-9051");

    let out = oubli_stdin(
        &["--json", "inscribe", p, "--file", "-"],
        "{\"text\": \"Jonas likes espresso\", \"namespace\": \"crm\"}\n{\"text\": \"Ana likes tea\"}\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let ids: Vec<u64> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(ids.len(), 2);

    // Empty standard input is an empty text: refused, nothing written.
    let out = oubli_stdin(&["inscribe", p, "-"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("text is empty"), "{}", stderr(&out));
    assert_eq!(json(&["list", p]).as_array().unwrap().len(), 3);
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let t = temp();
    let p = t.path.to_str().unwrap();
    ok(&["init", p]);
    // Far more output than a pipe buffers (64 KiB), so `list` is still writing when the
    // reader goes away.
    let rows = t.dir.path().join("rows.jsonl");
    let mut f = std::fs::File::create(&rows).unwrap();
    for i in 0..600 {
        writeln!(
            f,
            "{{\"text\": \"Row {i}: {} the end\"}}",
            "a long filler sentence about nothing in particular, ".repeat(4)
        )
        .unwrap();
    }
    drop(f);
    ok(&["inscribe", p, "--file", rows.to_str().unwrap()]);

    let mut child = oubli_bin()
        .args(["list", p])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read one line, as `head -n 1` does, then close the pipe.
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with("#1 "), "{first}");
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "stderr: {}", stderr(&out));
    assert!(stderr(&out).is_empty(), "stderr: {}", stderr(&out));

    // The same through a real shell pipeline, when there is one.
    if let Ok(sh) = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "'{}' list '{p}' | head -n 2 >/dev/null",
            env!("CARGO_BIN_EXE_oubli")
        ))
        .output()
    {
        assert!(
            !String::from_utf8_lossy(&sh.stderr).contains("panicked"),
            "{}",
            String::from_utf8_lossy(&sh.stderr)
        );
    }
}

#[test]
fn usage_errors_exit_2_and_runtime_errors_exit_1() {
    let t = temp();
    let p = t.path.to_str().unwrap();
    ok(&["init", p]);

    // Neither a text nor --file: a usage error that says what is missing.
    let out = oubli(&["inscribe", p]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("required") && err.contains("--file"), "{err}");
    assert!(!err.contains("not both"), "{err}");
    // Both: a usage error too.
    let out = oubli(&["inscribe", p, "hello", "--file", "rows.jsonl"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    // A malformed time is bad usage, with the accepted forms in the message.
    let out = oubli(&["inscribe", p, "hello", "--valid-until", "tomorrow"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("RFC 3339"), "{}", stderr(&out));
    // With --json, usage errors are JSON too.
    let out = oubli(&["--json", "recall", p]);
    assert_eq!(out.status.code(), Some(2));
    let e: Value = serde_json::from_slice(&out.stderr).unwrap();
    assert_eq!(e["code"], "usage");
    assert!(e["error"].as_str().unwrap().contains("QUERY"), "{e}");

    // Runtime errors: exit 1, stable message, a stable code in JSON.
    let out = oubli(&["release", p, "--id", "42"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stderr(&out).trim(), "oubli: no row with id 42");
    let out = oubli(&["--json", "release", p, "--id", "42"]);
    assert_eq!(out.status.code(), Some(1));
    let e: Value = serde_json::from_slice(&out.stderr).unwrap();
    assert_eq!(
        e,
        serde_json::json!({"error": "no row with id 42", "code": "unknown_row"})
    );
    assert_eq!(oubli(&["--version"]).status.code(), Some(0));
}

#[test]
fn one_namespace_flag_on_every_verb() {
    let t = temp();
    let p = t.path.to_str().unwrap();
    ok(&["init", p]);
    ok(&[
        "inscribe",
        p,
        "Ana's phone is 555-0101",
        "--ns",
        "ana",
        "--key",
        "phone",
    ]);
    ok(&[
        "inscribe",
        p,
        "Ben's phone is 555-0202",
        "--ns",
        "ben",
        "--key",
        "phone",
    ]);
    ok(&["alias", "add", p, "Ana", "Ana Lima", "--ns", "ana"]);
    assert_eq!(
        json(&["alias", "list", p, "--ns", "ana"])
            .as_array()
            .unwrap()
            .len(),
        1
    );
    assert_eq!(
        json(&["alias", "list", p, "--ns", "ben"])
            .as_array()
            .unwrap()
            .len(),
        0
    );
    assert_eq!(
        json(&["list", p, "--ns", "ben"]).as_array().unwrap().len(),
        1
    );
    assert_eq!(
        json(&["recall", p, "phone", "--ns", "ben"])
            .as_array()
            .unwrap()
            .len(),
        1
    );
    let plan = json(&[
        "plan", p, "--op", "release", "--key", "phone", "--ns", "ben",
    ]);
    assert_eq!(plan["rows"], serde_json::json!([2]));
    assert_eq!(
        json(&["pin", p, "--key", "phone", "--ns", "ana"]),
        serde_json::json!([1])
    );
    // `--in`, the old spelling, still works but is not advertised.
    assert_eq!(
        json(&["release", p, "--key", "phone", "--in", "ben"]),
        serde_json::json!([2])
    );
    for verb in [
        "release",
        "supersede",
        "purge",
        "plan",
        "list",
        "recall",
        "inscribe",
    ] {
        let help = ok(&[verb, "--help"]);
        assert!(help.contains("--ns"), "{verb}: {help}");
        assert!(!help.contains("--in "), "{verb}: {help}");
    }
}

#[test]
fn times_are_iso_8601_in_and_out() {
    let t = temp();
    let p = t.path.to_str().unwrap();
    ok(&["init", p]);
    ok(&[
        "inscribe",
        p,
        "Valid for a long time",
        "--valid-until",
        "2099-01-01T01:00:00+01:00",
    ]);
    ok(&[
        "inscribe",
        p,
        "Expired long ago",
        "--valid-until",
        "2000-01-01",
    ]);
    ok(&[
        "inscribe",
        p,
        "Epoch milliseconds still work",
        "--valid-until",
        "4070908800000",
    ]);
    ok(&["inscribe", p, "Good for a month", "--ttl", "P30D"]);
    let rows = json(&["list", p]);
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 3, "the expired row is not listed: {rows:?}");
    assert_eq!(rows[0]["valid_until"], 4_070_908_800_000i64);
    assert_eq!(rows[1]["valid_until"], 4_070_908_800_000i64);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    let ttl = rows[2]["valid_until"].as_i64().unwrap() - now;
    assert!((29 * 86_400_000..=30 * 86_400_000).contains(&ttl), "{ttl}");

    let text = ok(&["list", p]);
    assert!(text.contains("until=2099-01-01T00:00:00.000Z"), "{text}");
    let log = ok(&["log", p]);
    let first = log.lines().next().unwrap();
    let time = first.split_whitespace().nth(1).unwrap();
    assert!(
        time.len() == 24 && time.ends_with('Z') && time.as_bytes()[10] == b'T',
        "{first}"
    );

    // A JSONL valid_until may be text or a number.
    let jsonl = t.dir.path().join("rows.jsonl");
    std::fs::write(
        &jsonl,
        "{\"text\": \"from text\", \"valid_until\": \"2099-01-01T00:00:00Z\"}\n\
         {\"text\": \"from a number\", \"valid_until\": 4070908800000}\n",
    )
    .unwrap();
    let ids = json(&["inscribe", p, "--file", jsonl.to_str().unwrap()]);
    for id in ids.as_array().unwrap() {
        let h = json(&["history", p, &id.to_string()]);
        assert_eq!(h["chain"][0]["valid_until"], 4_070_908_800_000i64);
    }
    std::fs::write(&jsonl, "{\"text\": \"bad\", \"valid_until\": \"soon\"}\n").unwrap();
    let out = oubli(&["inscribe", p, "--file", jsonl.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("rows.jsonl:1: valid_until"),
        "{}",
        stderr(&out)
    );

    // As-of by time: before anything was written, nothing; now, everything.
    assert_eq!(
        json(&["list", p, "--as-of", "2001-01-01T00:00:00Z"]),
        serde_json::json!([])
    );
    // After every event and before the 2099 expiry, the long-valid row is there.
    let hits = json(&["recall", p, "valid", "--as-of", "2098-12-31T22:00:00-01:00"]);
    assert_eq!(hits[0]["row"]["text"], "Valid for a long time", "{hits}");
    assert_eq!(
        oubli(&["list", p, "--as-of", "2001-01-01", "--as-of-seq", "3"])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn text_output_has_no_debug_syntax_and_json_depths_one_shape() {
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
    ok(&[
        "inscribe",
        p,
        "Maria's email is maria@example.com",
        "--ns",
        "crm",
    ]);
    ok(&[
        "inscribe",
        p,
        "Maria prefers meetings after 10am",
        "--ns",
        "crm",
    ]);
    let mut all = String::new();
    let sup = ok(&[
        "supersede",
        p,
        "--key",
        "pw",
        "--ns",
        "ops",
        "The staging password is orchid-9051",
    ]);
    assert_eq!(sup.trim(), "#1 superseded by #4");
    all += &sup;
    let rel = ok(&["release", p, "--query", "Maria meetings", "--ns", "crm"]);
    assert_eq!(rel.trim(), "released #3");
    all += &rel;
    all += &ok(&["pin", p, "--id", "4"]);
    all += &ok(&["recall", p, "staging password", "--explain"]);
    all += &ok(&["list", p, "--include-submerged"]);
    all += &ok(&["history", p, "1"]);
    all += &ok(&["log", p]);
    all += &ok(&["sweep", p]);
    all += &ok(&[
        "plan",
        p,
        "--op",
        "purge",
        "--query",
        "Maria email",
        "--ns",
        "crm",
    ]);
    let dir = t.dir.path();
    let receipt = dir.join("r.json");
    let opening = dir.join("o.json");
    all += &ok(&[
        "purge",
        p,
        "--query",
        "Maria email",
        "--ns",
        "crm",
        "--receipt-out",
        receipt.to_str().unwrap(),
        "--opening-out",
        opening.to_str().unwrap(),
    ]);
    all += &ok(&["receipts", p]);
    all += &ok(&["alias", "add", p, "Maria", "Maria Keller", "--ns", "crm"]);
    all += &ok(&["alias", "list", p]);
    assert_no_debug_syntax(&all);
    assert!(
        all.contains("[person] ns=crm: Maria | Maria Keller"),
        "{all}"
    );

    // Every depth in JSON is {"state", "level"}, whatever the state.
    let rows = json(&["list", p, "--include-submerged"]);
    let mut states = Vec::new();
    for r in rows.as_array().unwrap() {
        let d = &r["depth"];
        assert!(d["state"].is_string(), "{d}");
        assert!(d["level"].is_number() || d["level"].is_null(), "{d}");
        assert_eq!(d.as_object().unwrap().len(), 2, "{d}");
        states.push(d["state"].as_str().unwrap().to_owned());
    }
    assert!(states.contains(&"pinned".to_owned()), "{states:?}");
    assert!(states.contains(&"submerged".to_owned()), "{states:?}");
    let log = json(&["log", p]);
    for e in log.as_array().unwrap() {
        for tr in e["transitions"].as_array().unwrap() {
            assert!(tr["after"]["state"].is_string(), "{tr}");
            assert!(
                tr["before"].is_null() || tr["before"]["state"].is_string(),
                "{tr}"
            );
        }
    }
    let pinned = json(&["history", p, "4"]);
    assert_eq!(
        pinned["chain"][1]["depth"],
        serde_json::json!({"state": "pinned", "level": null})
    );
}

#[test]
fn every_verb_honours_json_including_demo() {
    let t = temp();
    let out = ok(&["--json", "demo", t.path.to_str().unwrap()]);
    let v: Value = serde_json::from_str(&out).expect("demo --json prints one JSON document");
    assert_eq!(v["ok"], true);
    let steps: Vec<&str> = v["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["step"].as_str().unwrap())
        .collect();
    assert!(
        steps.contains(&"purge") && steps.contains(&"scan_file"),
        "{steps:?}"
    );
    assert_eq!(
        v["steps"].as_array().unwrap().last().unwrap()["found"]["Maria Keller"],
        false
    );

    let p = t.path.to_str().unwrap();
    let receipt = t.dir.path().join("copy.json");
    let purge_seq = v["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["step"] == "purge")
        .map(|s| s["purge_id"].to_string())
        .unwrap();
    let w = json(&["receipt", p, &purge_seq, "--out", receipt.to_str().unwrap()]);
    assert_eq!(w["receipt"], receipt.to_str().unwrap());
    for args in [
        vec!["key", "export", p],
        vec!["log", p, "--verify"],
        vec!["scrub", p],
        vec!["sweep", p],
        vec!["compact", p, "--budget", "400", "--dry-run"],
    ] {
        json(&args);
    }
}

#[test]
fn io_errors_name_their_path() {
    let t = temp();
    let p = t.path.to_str().unwrap();
    ok(&["init", p]);
    let missing = t.dir.path().join("no-such-dir").join("rows.jsonl");
    let out = oubli(&["inscribe", p, "--file", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains(missing.to_str().unwrap()),
        "{}",
        stderr(&out)
    );

    let nowhere = t.dir.path().join("no-such-dir").join("s.oubli");
    let out = oubli(&["init", nowhere.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains(nowhere.to_str().unwrap()),
        "{}",
        stderr(&out)
    );
    let out = oubli(&["list", nowhere.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains(nowhere.to_str().unwrap()),
        "{}",
        stderr(&out)
    );

    // An unwritable receipt path fails the purge before anything is erased.
    ok(&["inscribe", p, "Maria's email is maria@example.com"]);
    let bad = t.dir.path().join("no-such-dir").join("r.json");
    let out = oubli(&[
        "purge",
        p,
        "--id",
        "1",
        "--receipt-out",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains(bad.to_str().unwrap()),
        "{}",
        stderr(&out)
    );
    assert_eq!(json(&["list", p]).as_array().unwrap().len(), 1);
    assert!(file_contains(&t.path, b"maria@example.com"));
}

#[test]
fn typed_metadata_and_where_filters() {
    let t = temp();
    let p = t.path.to_str().unwrap();
    ok(&["init", p]);
    ok(&[
        "inscribe",
        p,
        "printer ticket one",
        "--meta",
        "team=core",
        "--meta",
        "priority:=3",
        "--meta",
        r#"tags:=["ops","hw"]"#,
        "--meta",
        "code=3",
    ]);
    ok(&[
        "inscribe",
        p,
        "printer ticket two",
        "--meta",
        "priority:=1.5",
        "--meta",
        "archived:=true",
    ]);
    let jsonl = t.dir.path().join("rows.jsonl");
    std::fs::write(
        &jsonl,
        r#"{"text": "printer ticket three", "metadata": {"priority": 2, "tags": ["hw"]}}"#,
    )
    .unwrap();
    ok(&["inscribe", p, "--file", jsonl.to_str().unwrap()]);

    // JSON output prints typed values as JSON values.
    let rows = json(&["list", p]);
    assert_eq!(
        rows[0]["metadata"],
        serde_json::json!({"team": "core", "priority": 3, "tags": ["ops", "hw"], "code": "3"})
    );
    assert_eq!(rows[1]["metadata"]["priority"], serde_json::json!(1.5));
    assert_eq!(rows[1]["metadata"]["archived"], serde_json::json!(true));

    let texts = |args: &[&str]| -> Vec<String> {
        json(args)
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                let r = r.get("row").unwrap_or(r);
                r["text"].as_str().unwrap().to_owned()
            })
            .collect()
    };
    let one = "printer ticket one";
    let two = "printer ticket two";
    let three = "printer ticket three";
    assert_eq!(texts(&["list", p, "--where", "priority>=2"]), [one, three]);
    assert_eq!(
        texts(&[
            "list",
            p,
            "--where",
            "priority>1.5",
            "--where",
            "priority<3"
        ]),
        [three]
    );
    assert_eq!(texts(&["list", p, "--where", "tags=hw"]), [one, three]);
    assert_eq!(texts(&["list", p, "--where", "team in [core, web]"]), [one]);
    assert_eq!(texts(&["list", p, "--where", "archived?"]), [two]);
    assert_eq!(
        texts(&["list", p, "--where", "!archived?", "--limit", "1"]),
        [one]
    );
    assert_eq!(texts(&["list", p, "--where", "code=\"3\""]), [one]);
    assert!(
        texts(&["list", p, "--where", "code=3"]).is_empty(),
        "3 is a number, not text"
    );
    assert_eq!(texts(&["list", p, "--filter", "code=3"]), [one]);
    assert_eq!(
        texts(&["list", p, "--where", r#"{"priority": {"$lt": 2}}"#]),
        [two]
    );
    assert_eq!(
        texts(&["recall", p, "printer", "--where", "tags=ops"]),
        [one]
    );

    // A malformed expression or value is a usage error (exit 2) that names the problem.
    for bad in [
        &["list", p, "--where", "priority"][..],
        &["list", p, "--where", "flag>true"],
        &["recall", p, "printer", "--where", "x in 3"],
        &["list", p, "--where", r#"{"x": {"$near": 1}}"#],
        &["inscribe", p, "x", "--meta", "n:=nope"],
        &["inscribe", p, "x", "--meta", "n:=[[1]]"],
    ] {
        let out = oubli(bad);
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains('"') || stderr(&out).contains(':'),
            "{}",
            stderr(&out)
        );
    }
    assert_eq!(
        json(&["list", p]).as_array().unwrap().len(),
        3,
        "nothing was written"
    );
}
