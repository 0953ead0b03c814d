//! `oubli mcp`: the Model Context Protocol server driven over stdio with raw JSON-RPC, the way
//! any MCP client speaks to it (initialize, tools/list, tools/call). The Python SDK drives the
//! same server in `engine/tests/mcp_client/` (run by `.ci/run`).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde_json::{Value, json};

struct Server {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
}

impl Server {
    fn start(path: &std::path::Path) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_oubli"))
            .arg("mcp")
            .arg(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn oubli mcp");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut s = Server {
            child,
            stdin,
            stdout,
            next_id: 1,
        };
        let init = s.request(
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "oubli-test", "version": "0"}}),
        );
        assert!(init["result"]["serverInfo"]["name"].as_str().is_some());
        s.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        s
    }

    fn send(&mut self, msg: Value) {
        writeln!(self.stdin, "{msg}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let mut line = String::new();
            assert!(
                self.stdout.read_line(&mut line).unwrap() > 0,
                "server closed"
            );
            let v: Value = serde_json::from_str(&line).expect("JSON line");
            if v["id"] == json!(id) {
                return v;
            }
        }
    }

    /// Calls a tool; returns (is_error, structured content or text).
    fn call(&mut self, name: &str, args: Value) -> (bool, Value) {
        let r = self.request("tools/call", json!({"name": name, "arguments": args}));
        let result = &r["result"];
        let is_error = result["isError"].as_bool().unwrap_or(false);
        if let Some(s) = result.get("structuredContent") {
            (is_error, s.clone())
        } else {
            (is_error, result["content"][0]["text"].clone())
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn tools_are_listed_with_schemas() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Server::start(&dir.path().join("m.oubli"));
    let r = s.request("tools/list", json!({}));
    let tools = r["result"]["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    for want in [
        "remember",
        "recall",
        "supersede",
        "release",
        "purge",
        "forget_user",
        "plan",
        "history",
        "verify_log",
    ] {
        assert!(names.contains(&want), "{want} missing from {names:?}");
    }
    let remember = tools.iter().find(|t| t["name"] == "remember").unwrap();
    let props = &remember["inputSchema"]["properties"];
    assert!(props.get("text").is_some() && props.get("user_id").is_some());
}

#[test]
fn remember_recall_supersede_purge_scoped_by_user() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.oubli");
    let mut s = Server::start(&path);

    let (err, ana) = s.call(
        "remember",
        json!({"text": "Ana's door code is 4417", "user_id": "ana", "key": "door"}),
    );
    assert!(!err, "{ana}");
    assert_eq!(ana["namespace"], "user:ana");
    let (err, _) = s.call(
        "remember",
        json!({"text": "Ben's door code is 8812", "user_id": "ben"}),
    );
    assert!(!err);

    // Recall is confined to the user.
    let (_, r) = s.call("recall", json!({"query": "door code", "user_id": "ana"}));
    let texts: Vec<&str> = r["memories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, vec!["Ana's door code is 4417"]);

    // Supersede by key, then the old code is gone from recall.
    let (err, sup) = s.call(
        "supersede",
        json!({"target": {"key": "door"}, "text": "Ana's door code is 9051", "user_id": "ana"}),
    );
    assert!(!err, "{sup}");
    let (_, r) = s.call("recall", json!({"query": "door code", "user_id": "ana"}));
    let joined = r.to_string();
    assert!(joined.contains("9051") && !joined.contains("4417"));

    // Another user cannot reach Ana's row by id.
    let new_id = sup["new_id"].as_u64().unwrap();
    let (err, msg) = s.call("purge", json!({"target": {"id": new_id}, "user_id": "ben"}));
    assert!(err);
    assert!(msg.as_str().unwrap().starts_with("unknown_row"), "{msg}");

    // A request that names nothing in the store is a typed error that changes nothing.
    let (err, _) = s.call(
        "release",
        json!({"target": {"query": "Ana's passport number"}, "user_id": "ben"}),
    );
    assert!(err);

    // The dry run names the rows; the purge erases them and returns a signed receipt.
    let (_, plan) = s.call(
        "plan",
        json!({"operation": "purge", "target": {"query": "Ana's door code"}, "user_id": "ana"}),
    );
    assert!(!plan["rows"].as_array().unwrap().is_empty());
    let (err, p) = s.call(
        "purge",
        json!({"target": {"query": "Ana's door code"}, "user_id": "ana"}),
    );
    assert!(!err, "{p}");
    assert_eq!(p["erased"].as_array().unwrap().len(), 2);
    let receipt = p["receipt"].as_str().unwrap().as_bytes().to_vec();
    let key_hex = p["public_key"].as_str().unwrap();
    let mut key = [0u8; 32];
    for (i, b) in key.iter_mut().enumerate() {
        *b = u8::from_str_radix(&key_hex[2 * i..2 * i + 2], 16).unwrap();
    }
    oubli::audit::receipt::SignedReceipt::verify_document(&receipt, Some(&key))
        .expect("the receipt verifies offline");

    let (_, r) = s.call("recall", json!({"query": "door code", "user_id": "ana"}));
    assert!(r["memories"].as_array().unwrap().is_empty());
    let (_, r) = s.call("recall", json!({"query": "door code", "user_id": "ben"}));
    assert!(r.to_string().contains("8812"), "Ben's row survives");
    let (err, v) = s.call("verify_log", json!({}));
    assert!(!err && v["ok"] == true);
}

/// `oubli mcp --http`: one streamable-HTTP exchange over a raw socket.
mod http {
    use std::io::{BufRead, BufReader, Read, Write};
    use std::net::TcpStream;
    use std::process::{Child, Command, Stdio};
    use std::time::Duration;

    struct HttpServer {
        child: Child,
        addr: String,
    }

    impl Drop for HttpServer {
        fn drop(&mut self) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }

    fn start(path: &std::path::Path) -> HttpServer {
        let mut child = Command::new(env!("CARGO_BIN_EXE_oubli"))
            .arg("mcp")
            .arg(path)
            .args(["--http", "127.0.0.1:0"])
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn oubli mcp --http");
        let mut line = String::new();
        BufReader::new(child.stderr.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .trim()
            .strip_prefix("listening on http://")
            .unwrap_or_else(|| panic!("unexpected first line: {line:?}"));
        let addr = url.strip_suffix("/mcp").unwrap().to_string();
        HttpServer { child, addr }
    }

    /// Posts one JSON-RPC message with `host` as the Host header; returns what the server
    /// sent until it closed the connection or went quiet for a second.
    fn post(server: &HttpServer, host: &str, body: &str) -> String {
        let mut s = TcpStream::connect(&server.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(1))).unwrap();
        write!(
            s,
            "POST /mcp HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n\
             Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut out = Vec::new();
        let mut buf = [0u8; 4096];
        loop {
            match s.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => out.extend_from_slice(&buf[..n]),
            }
            if String::from_utf8_lossy(&out).contains("serverInfo") {
                break;
            }
        }
        String::from_utf8_lossy(&out).into_owned()
    }

    const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"oubli-test","version":"0"}}}"#;

    #[test]
    fn initialize_over_streamable_http_names_the_server() {
        let dir = tempfile::tempdir().unwrap();
        let server = start(&dir.path().join("http.oubli"));
        let reply = post(&server, &server.addr.clone(), INITIALIZE);
        assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
        assert!(reply.contains("\"serverInfo\""), "{reply}");
    }

    #[test]
    fn a_foreign_host_header_is_refused() {
        // DNS rebinding: a page on evil.example resolving to 127.0.0.1 must not reach the store.
        let dir = tempfile::tempdir().unwrap();
        let server = start(&dir.path().join("http.oubli"));
        let reply = post(&server, "evil.example", INITIALIZE);
        assert!(!reply.starts_with("HTTP/1.1 200"), "{reply}");
        assert!(!reply.contains("serverInfo"), "{reply}");
    }
}

#[test]
fn forget_user_erases_one_user_with_one_receipt() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Server::start(&dir.path().join("m.oubli"));
    for (text, user, ns) in [
        ("Ana's door code is 4417", Some("ana"), None),
        ("Ana's notes: prefers tea", None, Some("user:ana:notes")),
        ("Ben's door code is 8812", Some("ben"), None),
    ] {
        let mut args = json!({"text": text});
        if let Some(u) = user {
            args["user_id"] = json!(u);
        }
        if let Some(n) = ns {
            args["namespace"] = json!(n);
        }
        let (err, v) = s.call("remember", args);
        assert!(!err, "{v}");
    }
    let (err, dry) = s.call("forget_user", json!({"user_id": "ana", "dry_run": true}));
    assert!(!err, "{dry}");
    assert_eq!(dry["rows"], json!([1, 2]));
    assert!(dry["purge"].is_null());
    let (err, r) = s.call("forget_user", json!({"user_id": "ana"}));
    assert!(!err, "{r}");
    assert_eq!(r["rows"], json!([1, 2]));
    let receipt = r["purge"]["receipt"].as_str().unwrap().as_bytes().to_vec();
    oubli::audit::receipt::SignedReceipt::verify_document(&receipt, None)
        .expect("the receipt verifies offline");
    let (err, msg) = s.call("forget_user", json!({"user_id": "ana"}));
    assert!(err);
    assert!(msg.as_str().unwrap().starts_with("no_match"), "{msg}");
    let (_, r) = s.call("recall", json!({"query": "door code", "user_id": "ben"}));
    assert!(r.to_string().contains("8812"), "Ben's row survives");
}

#[test]
fn remember_takes_typed_metadata_and_recall_a_filter() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.oubli");
    let mut s = Server::start(&path);
    for (text, meta) in [
        (
            "Printer jam on floor 2",
            json!({"priority": 3, "tags": ["hw", "ops"]}),
        ),
        (
            "Printer toner is low",
            json!({"priority": 1, "tags": ["hw"], "done": true}),
        ),
    ] {
        let (err, r) = s.call(
            "remember",
            json!({"text": text, "user_id": "ops", "metadata": meta}),
        );
        assert!(!err, "{r}");
    }
    let recall = |s: &mut Server, filter: Value| {
        s.call(
            "recall",
            json!({"query": "printer", "user_id": "ops", "filter": filter}),
        )
    };
    let (err, r) = recall(&mut s, json!({"priority": {"$gte": 2}}));
    assert!(!err, "{r}");
    let memories = r["memories"].as_array().unwrap();
    assert_eq!(memories.len(), 1);
    assert_eq!(memories[0]["text"], "Printer jam on floor 2");
    assert_eq!(
        memories[0]["metadata"],
        json!({"priority": 3, "tags": ["hw", "ops"]})
    );
    let (_, r) = recall(&mut s, json!({"tags": "hw", "done": {"$exists": false}}));
    assert_eq!(r["memories"].as_array().unwrap().len(), 1);
    // A bad filter or value is a tool error with its code, and changes nothing.
    let (err, r) = recall(&mut s, json!({"priority": {"$near": 1}}));
    assert!(err);
    assert!(r.as_str().unwrap().starts_with("invalid_argument"), "{r}");
    let (err, r) = s.call(
        "remember",
        json!({"text": "x", "user_id": "ops", "metadata": {"n": {"a": 1}}}),
    );
    assert!(err);
    assert!(r.as_str().unwrap().starts_with("invalid_field"), "{r}");
}
