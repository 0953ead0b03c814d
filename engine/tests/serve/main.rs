//! `oubli serve`: many tenant stores over HTTP/JSON. Each test starts a server on loopback
//! (port 0) in-process and speaks plain HTTP/1.1 to it.

#![cfg(feature = "cli")]

mod hooks;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use oubli::StoreOptions;
use oubli::audit::receipt::SignedReceipt;
use oubli::serve::error::ApiError;
use oubli::serve::{
    Committed, Decision, HookFuture, PlaceFuture, Placement, Replication, ServeConfig, Server,
    TenantId, Tokens,
};
use serde_json::{Value, json};

/// An HTTP answer.
struct Reply {
    status: u16,
    head: String,
    body: Vec<u8>,
}

impl Reply {
    fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "{} is not JSON ({e}): {}",
                self.status,
                String::from_utf8_lossy(&self.body)
            )
        })
    }

    fn header(&self, name: &str) -> Option<String> {
        self.head.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case(name).then(|| v.trim().to_owned())
        })
    }

    /// Asserts the status and returns the JSON body.
    fn expect(&self, status: u16) -> Value {
        assert_eq!(
            self.status,
            status,
            "body: {}",
            String::from_utf8_lossy(&self.body)
        );
        self.json()
    }
}

/// One request on its own connection.
fn http(addr: SocketAddr, method: &str, path: &str, token: Option<&str>, body: &[u8]) -> Reply {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    // The server may answer (413) and close before reading all of an oversized body.
    let _ = s.write_all(body);
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("an HTTP answer");
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    Reply {
        status,
        head,
        body: raw[split + 4..].to_vec(),
    }
}

fn post(addr: SocketAddr, path: &str, token: Option<&str>, body: Value) -> Reply {
    http(addr, "POST", path, token, body.to_string().as_bytes())
}

fn get(addr: SocketAddr, path: &str, token: Option<&str>) -> Reply {
    http(addr, "GET", path, token, b"")
}

fn start(dir: &Path, tune: impl FnOnce(&mut ServeConfig)) -> Server {
    let mut c = ServeConfig::new(dir.join("data"), "127.0.0.1:0".parse().unwrap());
    tune(&mut c);
    Server::start(c).unwrap()
}

fn tenant(s: &str) -> TenantId {
    TenantId::parse(s).unwrap()
}

fn contains(path: &Path, needle: &[u8]) -> bool {
    let bytes = std::fs::read(path).unwrap();
    bytes.windows(needle.len()).any(|w| w == needle)
}

/// Polls `cond` for up to 10 s.
fn eventually(what: &str, mut cond: impl FnMut() -> bool) {
    let until = Instant::now() + Duration::from_secs(10);
    while !cond() {
        assert!(Instant::now() < until, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn tenants_are_opened_on_first_use_and_never_see_each_other() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path(), |_| {});
    let a = server.addr();
    let data = dir.path().join("data");
    assert_eq!(server.registry().stats().open, 0);
    assert_eq!(std::fs::read_dir(&data).unwrap().count(), 0);

    let r = post(
        a,
        "/t/acme/inscribe",
        None,
        json!({"text": "Ana's door code is 4417", "user_id": "ana", "metadata": {"topic": "home"}}),
    )
    .expect(200);
    assert_eq!(r["namespace"], "user:ana");
    assert!(r["id"].as_u64().is_some());
    assert!(data.join("acme.oubli").exists());
    assert!(!data.join("beta.oubli").exists());
    assert!(server.registry().is_open(&tenant("acme")));

    let q = json!({"query": "door code", "user_id": "ana"});
    let beta = post(a, "/t/beta/recall", None, q.clone()).expect(200);
    assert_eq!(beta["memories"], json!([]));
    let acme = post(a, "/t/acme/recall", None, q).expect(200);
    assert_eq!(acme["memories"][0]["text"], "Ana's door code is 4417");

    // Filters and min_score as the library has them.
    let off = post(
        a,
        "/t/acme/recall",
        None,
        json!({"query": "door code", "user_id": "ana", "filter": {"topic": "work"}}),
    )
    .expect(200);
    assert_eq!(off["memories"], json!([]));
    let strict = post(
        a,
        "/t/acme/recall",
        None,
        // "garage" is in no row: no row holds the whole query, so none reaches 1.
        json!({"query": "door code garage", "user_id": "ana", "min_score": 1.0}),
    )
    .expect(200);
    assert_eq!(strict["memories"], json!([]));
    assert_eq!(server.registry().stats().opened, 2);
    server.stop().unwrap();
}

#[test]
fn tokens_are_checked_per_tenant_and_per_deployment() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tokens");
    let beta_hash = blake3::hash(b"beta-token-0123456789abcdef").to_hex();
    std::fs::write(
        &file,
        format!(
            "# deployment\n* deploy-token-0123456789abcdef\nacme acme-token-0123456789abcdef\nbeta blake3:{beta_hash}\n"
        ),
    )
    .unwrap();
    let tokens = Tokens::from_file(&file).unwrap();
    let server = start(dir.path(), |c| c.tokens = Some(tokens));
    let a = server.addr();
    let body = json!({"query": "anything"});

    let none = post(a, "/t/acme/recall", None, body.clone());
    assert_eq!(none.expect(401)["code"], "unauthorized");
    assert_eq!(none.header("www-authenticate").as_deref(), Some("Bearer"));
    let wrong = post(
        a,
        "/t/acme/recall",
        Some("deploy-token-0123456789abcdeX"),
        body.clone(),
    );
    assert_eq!(wrong.expect(401)["code"], "unauthorized");
    let other = post(
        a,
        "/t/beta/recall",
        Some("acme-token-0123456789abcdef"),
        body.clone(),
    );
    assert_eq!(other.expect(403)["code"], "forbidden");
    // Refused requests opened nothing.
    assert_eq!(server.registry().stats().opened, 0);

    post(
        a,
        "/t/acme/recall",
        Some("acme-token-0123456789abcdef"),
        body.clone(),
    )
    .expect(200);
    post(
        a,
        "/t/beta/recall",
        Some("beta-token-0123456789abcdef"),
        body.clone(),
    )
    .expect(200);
    for t in ["acme", "beta", "gamma"] {
        post(
            a,
            &format!("/t/{t}/recall"),
            Some("deploy-token-0123456789abcdef"),
            body.clone(),
        )
        .expect(200);
    }
    assert_eq!(get(a, "/healthz", None).expect(200)["ok"], true);
    server.stop().unwrap();
}

#[test]
fn idle_stores_close_and_reopen_with_their_rows() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path(), |c| c.idle = Duration::from_millis(100));
    let a = server.addr();
    let acme = tenant("acme");
    post(
        a,
        "/t/acme/inscribe",
        None,
        json!({"text": "The boiler is serviced in May"}),
    )
    .expect(200);
    eventually("the idle store to close", || {
        !server.registry().is_open(&acme)
    });
    assert_eq!(server.registry().stats().closed, 1);
    let r = post(a, "/t/acme/recall", None, json!({"query": "boiler"})).expect(200);
    assert_eq!(r["memories"][0]["text"], "The boiler is serviced in May");
    assert_eq!(server.registry().stats().opened, 2);
    server.stop().unwrap();
}

#[test]
fn max_open_closes_the_least_recently_used_store() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path(), |c| c.max_open = 2);
    let a = server.addr();
    let reg = server.registry();
    for t in ["a1", "b2", "c3"] {
        post(
            a,
            &format!("/t/{t}/inscribe"),
            None,
            json!({"text": format!("row of {t}")}),
        )
        .expect(200);
        assert!(reg.stats().open <= 2);
    }
    assert!(!reg.is_open(&tenant("a1")));
    assert!(reg.is_open(&tenant("b2")) && reg.is_open(&tenant("c3")));
    // a1 again: b2 is now the least recently used.
    let r = post(a, "/t/a1/recall", None, json!({"query": "row of a1"})).expect(200);
    assert_eq!(r["memories"][0]["text"], "row of a1");
    assert!(!reg.is_open(&tenant("b2")));
    assert!(reg.is_open(&tenant("a1")) && reg.is_open(&tenant("c3")));
    assert_eq!(reg.stats().closed, 2);
    server.stop().unwrap();
}

#[test]
fn purge_over_http_scrubs_the_tenant_file_and_returns_a_verifiable_receipt() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path(), |_| {});
    let a = server.addr();
    let file = dir.path().join("data").join("acme.oubli");
    let secret = "Priya's passport number is QZ7-PASSPORT-8812";
    post(
        a,
        "/t/acme/inscribe",
        None,
        json!({"text": secret, "user_id": "priya"}),
    )
    .expect(200);
    post(
        a,
        "/t/acme/inscribe",
        None,
        json!({"text": "Priya likes green tea", "user_id": "priya"}),
    )
    .expect(200);
    assert!(contains(&file, b"QZ7-PASSPORT-8812"));
    let target = json!({"target": {"query": "Priya's passport number"}, "user_id": "priya"});

    let plan = post(
        a,
        "/t/acme/plan",
        None,
        json!({"operation": "purge", "target": {"query": "Priya's passport number"}, "user_id": "priya"}),
    )
    .expect(200);
    assert_eq!(plan["rows"].as_array().unwrap().len(), 1);

    let p = post(a, "/t/acme/purge", None, target).expect(200);
    let erased = p["erased"].as_array().unwrap();
    assert_eq!(erased.len(), 1);
    let receipt = p["receipt"].as_str().unwrap();
    let key_hex = p["public_key"].as_str().unwrap();
    let key: [u8; 32] = (0..32)
        .map(|i| u8::from_str_radix(&key_hex[2 * i..2 * i + 2], 16).unwrap())
        .collect::<Vec<_>>()
        .try_into()
        .unwrap();
    let verified = SignedReceipt::verify_document(receipt.as_bytes(), Some(&key)).unwrap();
    assert_eq!(verified.body.purge_id, p["purge_id"].as_u64().unwrap());
    assert!(!contains(&file, b"QZ7-PASSPORT-8812"));

    // The stored receipt is the same document, byte for byte.
    let id = p["purge_id"].as_u64().unwrap();
    let listed = get(a, "/t/acme/receipts", None).expect(200);
    assert_eq!(listed["receipts"][0]["purge_id"], id);
    let doc = get(a, &format!("/t/acme/receipts/{id}"), None);
    assert_eq!(doc.status, 200);
    assert_eq!(doc.body, receipt.as_bytes());

    // A forgetting request that matches nothing changes nothing and says what was near.
    let miss = post(
        a,
        "/t/acme/purge",
        None,
        json!({"target": {"query": "Priya's shoe size"}, "user_id": "priya"}),
    );
    let m = miss.expect(404);
    assert_eq!(m["code"], "no_match");
    assert_eq!(m["query"], "Priya's shoe size");
    assert!(m["candidates"].is_array());
    let tea = post(
        a,
        "/t/acme/recall",
        None,
        json!({"query": "green tea", "user_id": "priya"}),
    )
    .expect(200);
    assert_eq!(tea["memories"][0]["text"], "Priya likes green tea");

    assert_eq!(get(a, "/t/acme/verify", None).expect(200)["ok"], true);
    let ev = get(a, "/t/acme/events?from=1&to=3", None).expect(200);
    assert_eq!(ev["events"].as_array().unwrap().len(), 3);
    assert!(ev["head"].as_u64().unwrap() >= 3);
    server.stop().unwrap();
    assert!(!contains(&file, b"QZ7-PASSPORT-8812"));
}

#[test]
fn the_other_verbs_answer_as_the_library_does() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path(), |_| {});
    let a = server.addr();
    let b = post(
        a,
        "/t/acme/inscribe/batch",
        None,
        json!({"memories": [
            {"text": "Ana lives in Lisbon", "key": "city", "user_id": "ana"},
            {"text": "Ana's dog is called Rex", "user_id": "ana"}
        ]}),
    )
    .expect(200);
    let ids: Vec<u64> = b["memories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_u64().unwrap())
        .collect();
    assert_eq!(ids.len(), 2);

    let s = post(
        a,
        "/t/acme/supersede",
        None,
        json!({"target": {"key": "city"}, "text": "Ana lives in Porto", "user_id": "ana"}),
    )
    .expect(200);
    assert_eq!(s["replaced"], json!([ids[0]]));
    let pinned = post(
        a,
        "/t/acme/pin",
        None,
        json!({"target": {"id": ids[1]}, "user_id": "ana"}),
    )
    .expect(200);
    assert_eq!(pinned["pinned"], json!([ids[1]]));
    // A target by id outside the scope's namespace is not found.
    let foreign = post(
        a,
        "/t/acme/release",
        None,
        json!({"target": {"id": ids[1]}, "user_id": "bob"}),
    );
    assert_eq!(foreign.expect(404)["code"], "unknown_row");
    let released = post(
        a,
        "/t/acme/release",
        None,
        json!({"target": {"id": ids[1]}, "user_id": "ana"}),
    )
    .expect(200);
    assert_eq!(released["released"], json!([ids[1]]));

    let h = post(
        a,
        "/t/acme/history",
        None,
        json!({"id": s["new_id"], "user_id": "ana"}),
    )
    .expect(200);
    assert_eq!(h["chain"].as_array().unwrap().len(), 2);

    let policy = json!({"namespace": "user:ana", "policy": {"half_life_ms": 1000, "ttl_ms": null, "floor": 0.05}});
    post(a, "/t/acme/decay", None, policy.clone()).expect(200);
    let bad = json!({"namespace": "user:ana", "policy": {"half_life_ms": -1, "floor": 0.05}});
    assert_eq!(
        post(a, "/t/acme/decay", None, bad).expect(400)["code"],
        "invalid_argument"
    );
    let sw = post(a, "/t/acme/sweep", None, json!({})).expect(200);
    assert!(sw["decayed"].is_array());

    let fu = post(
        a,
        "/t/acme/forget-user",
        None,
        json!({"user_id": "ana", "dry_run": true}),
    )
    .expect(200);
    assert!(!fu["rows"].as_array().unwrap().is_empty());
    assert!(fu["purge"].is_null());
    let k = get(a, "/t/acme/key", None).expect(200);
    assert_eq!(k["public_key"].as_str().unwrap().len(), 64);
    server.stop().unwrap();
}

#[test]
fn bad_requests_get_typed_errors_and_touch_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path(), |c| c.max_body = 1024);
    let a = server.addr();
    let data = dir.path().join("data");

    let r = http(a, "POST", "/t/acme/inscribe", None, b"{not json");
    assert_eq!(r.expect(400)["code"], "invalid_json");
    let r = post(a, "/t/acme/inscribe", None, json!({"text": 5}));
    assert_eq!(r.expect(422)["code"], "invalid_request");
    let r = post(a, "/t/acme/inscribe", None, json!({"text": "   "}));
    assert_eq!(r.expect(400)["code"], "empty_text");
    let big = json!({"text": "x".repeat(8 * 1024)}).to_string();
    let r = http(a, "POST", "/t/acme/inscribe", None, big.as_bytes());
    assert_eq!(r.expect(413)["code"], "body_too_large");
    let r = post(
        a,
        "/t/acme/purge",
        None,
        json!({"target": {"id": 1, "query": "both"}}),
    );
    assert_eq!(r.expect(400)["code"], "invalid_argument");
    let r = post(
        a,
        "/t/acme/plan",
        None,
        json!({"operation": "explode", "target": {"id": 1}}),
    );
    assert_eq!(r.expect(400)["code"], "invalid_argument");
    let r = get(a, "/t/acme/events?from=x", None);
    assert_eq!(r.expect(400)["code"], "invalid_argument");
    let r = get(a, "/t/acme/receipts/99", None);
    assert_eq!(r.status / 100, 4, "{}", String::from_utf8_lossy(&r.body));

    let long = "x".repeat(65);
    for bad in [
        "Acme",
        "..",
        "..%2Fetc",
        "a%2Fb",
        "%2E%2E",
        "-a",
        "a%00b",
        long.as_str(),
    ] {
        let r = post(
            a,
            &format!("/t/{bad}/inscribe"),
            None,
            json!({"text": "hello"}),
        );
        assert_eq!(r.expect(400)["code"], "invalid_tenant", "{bad}");
    }
    let r = post(a, "/nowhere", None, json!({}));
    assert_eq!(r.expect(404)["code"], "unknown_route");
    let r = get(a, "/t/acme/inscribe", None);
    assert_eq!(r.expect(405)["code"], "method_not_allowed");

    // Only the one valid tenant's file exists, inside the data directory.
    let files: Vec<String> = std::fs::read_dir(&data)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(files, vec!["acme.oubli".to_owned()]);
    assert!(!dir.path().join("etc.oubli").exists());
    server.stop().unwrap();
}

#[test]
fn the_serve_command_listens_and_refuses_a_public_address_without_tokens() {
    let dir = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_oubli");
    let out = std::process::Command::new(bin)
        .args(["serve", "--listen", "0.0.0.0:0", "--data-dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--tokens"));

    let mut child = std::process::Command::new(bin)
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--idle-secs",
            "60",
            "--data-dir",
        ])
        .arg(dir.path())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stderr.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr: SocketAddr = line
        .trim()
        .strip_prefix("listening on http://")
        .unwrap_or_else(|| panic!("{line}"))
        .parse()
        .unwrap();
    post(
        addr,
        "/t/cli/inscribe",
        None,
        json!({"text": "served by the CLI"}),
    )
    .expect(200);
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(dir.path().join("cli.oubli").exists());
}
