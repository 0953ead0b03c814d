//! etcd members and `oubli serve` nodes on loopback, started and killed (SIGKILL) by the cluster
//! tests themselves; a minimal HTTP/1.1 client. Every child process is killed on drop.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// The `etcd` binary on the PATH, if any.
pub fn etcd_binary() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join("etcd"))
        .find(|p| p.is_file())
}

/// `None` (and a message) when etcd is not installed.
pub fn etcd_or_skip(test: &str) -> Option<PathBuf> {
    let bin = etcd_binary();
    if bin.is_none() {
        eprintln!(
            "SKIPPED {test}: no `etcd` binary on the PATH (apt-get install etcd-server); \
             CI installs it"
        );
    }
    bin
}

pub fn free_port() -> u16 {
    free_ports(1)[0]
}

/// `n` distinct free loopback ports: every listener is held until all are chosen, so that no
/// port is handed out twice.
pub fn free_ports(n: usize) -> Vec<u16> {
    let listeners: Vec<TcpListener> = (0..n)
        .map(|_| TcpListener::bind("127.0.0.1:0").unwrap())
        .collect();
    listeners
        .iter()
        .map(|l| l.local_addr().unwrap().port())
        .collect()
}

/// A child process killed (SIGKILL) and reaped on drop.
pub struct Proc {
    child: Option<Child>,
    /// Its log file (standard output and error).
    pub log: PathBuf,
}

impl Proc {
    /// Kills it (SIGKILL) and reaps it.
    pub fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// The last 30 lines of its log.
    pub fn log_tail(&self) -> String {
        let s = std::fs::read_to_string(&self.log).unwrap_or_default();
        let lines: Vec<&str> = s.lines().collect();
        lines[lines.len().saturating_sub(30)..].join("\n")
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        self.kill();
    }
}

pub fn spawn(cmd: &mut Command, log: PathBuf) -> Proc {
    let file = std::fs::File::create(&log).unwrap();
    let child = cmd
        .stdin(Stdio::null())
        .stdout(file.try_clone().unwrap())
        .stderr(file)
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e}"));
    Proc {
        child: Some(child),
        log,
    }
}

/// An HTTP answer.
pub struct Reply {
    /// The HTTP status.
    pub status: u16,
    /// The status line and headers.
    pub head: String,
    /// The body.
    pub body: Vec<u8>,
}

impl Reply {
    /// The body as JSON (`Null` when it is not).
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }

    /// A header's value.
    pub fn header(&self, name: &str) -> Option<String> {
        self.head.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case(name).then(|| v.trim().to_owned())
        })
    }
}

/// One request on its own connection; `None` when nothing answers.
pub fn http(addr: SocketAddr, method: &str, path: &str, body: &str) -> Option<Reply> {
    let mut s = TcpStream::connect_timeout(&addr, Duration::from_secs(2)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(20))).ok()?;
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(head.as_bytes()).ok()?;
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).ok()?;
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let status = head.split_whitespace().nth(1)?.parse().ok()?;
    Some(Reply {
        status,
        head,
        body: raw[split + 4..].to_vec(),
    })
}

/// A POST with a JSON body.
pub fn post(addr: SocketAddr, path: &str, body: Value) -> Option<Reply> {
    http(addr, "POST", path, &body.to_string())
}

/// Polls `f` every 50 ms until it returns `Some`, for at most `limit`.
pub fn within<T>(limit: Duration, what: &str, mut f: impl FnMut() -> Option<T>) -> T {
    let until = Instant::now() + limit;
    loop {
        if let Some(v) = f() {
            return v;
        }
        assert!(Instant::now() < until, "not within {limit:?}: {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// An etcd cluster of `n` members on loopback.
pub struct Etcd {
    /// The members.
    pub members: Vec<Proc>,
    /// Their client URLs.
    pub clients: Vec<String>,
}

impl Etcd {
    /// Starts `n` members in `dir` and waits until each is healthy.
    pub fn start(bin: &Path, dir: &Path, n: usize) -> Etcd {
        let ports = free_ports(2 * n);
        let (clients, peers) = (ports[..n].to_vec(), ports[n..].to_vec());
        let initial: Vec<String> = (0..n)
            .map(|i| format!("e{i}=http://127.0.0.1:{}", peers[i]))
            .collect();
        let token = format!("oubli-test-{}-{}", std::process::id(), clients[0]);
        let members = (0..n)
            .map(|i| {
                let client = format!("http://127.0.0.1:{}", clients[i]);
                let peer = format!("http://127.0.0.1:{}", peers[i]);
                spawn(
                    Command::new(bin)
                        .arg("--name")
                        .arg(format!("e{i}"))
                        .arg("--data-dir")
                        .arg(dir.join(format!("etcd-{i}")))
                        .args(["--listen-client-urls", &client])
                        .args(["--advertise-client-urls", &client])
                        .args(["--listen-peer-urls", &peer])
                        .args(["--initial-advertise-peer-urls", &peer])
                        .args(["--initial-cluster", &initial.join(",")])
                        .args(["--initial-cluster-state", "new"])
                        .args(["--initial-cluster-token", &token])
                        .args(["--heartbeat-interval", "50", "--election-timeout", "500"]),
                    dir.join(format!("etcd-{i}.log")),
                )
            })
            .collect();
        let etcd = Etcd {
            members,
            clients: clients
                .iter()
                .map(|p| format!("http://127.0.0.1:{p}"))
                .collect(),
        };
        for (i, p) in clients.iter().enumerate() {
            let addr: SocketAddr = format!("127.0.0.1:{p}").parse().unwrap();
            let healthy = (|| {
                let until = Instant::now() + Duration::from_secs(30);
                while Instant::now() < until {
                    if let Some(r) = http(addr, "GET", "/health", "")
                        && r.status == 200
                        && r.json()["health"] == "true"
                    {
                        return true;
                    }
                    std::thread::sleep(Duration::from_millis(100));
                }
                false
            })();
            assert!(
                healthy,
                "etcd member e{i} did not become healthy:\n{}",
                etcd.members[i].log_tail()
            );
        }
        etcd
    }

    /// The client URLs, comma-separated (`--etcd`).
    pub fn endpoints(&self) -> String {
        self.clients.join(",")
    }

    /// A JSON call to etcd's HTTP gateway on member `i`.
    pub fn call(&self, i: usize, path: &str, body: Value) -> Option<Value> {
        let addr: SocketAddr = self.clients[i].trim_start_matches("http://").parse().ok()?;
        let r = post(addr, path, body)?;
        (r.status == 200).then(|| r.json())
    }

    /// The index of the member that leads now.
    pub fn leader(&self) -> usize {
        within(Duration::from_secs(10), "an etcd leader", || {
            let status = self.call(0, "/v3/maintenance/status", json!({}))?;
            let leader = status["leader"].as_str()?.to_owned();
            (0..self.clients.len()).find(|&i| {
                self.call(i, "/v3/maintenance/status", json!({}))
                    .is_some_and(|s| s["header"]["member_id"].as_str() == Some(&leader))
            })
        })
    }

    /// Tenant `t`'s key in cluster `test` as member `i` sees it: the owner record and the
    /// key's create revision; `None` when nobody owns it.
    pub fn owner(&self, i: usize, t: &str) -> Option<(Value, String)> {
        self.owner_read(i, t).flatten()
    }

    /// [`Self::owner`], telling the two ways it can be `None` apart: `None` when member `i` did
    /// not answer (down, or no leader yet), `Some(None)` when it answered that nobody owns `t`.
    pub fn owner_read(&self, i: usize, t: &str) -> Option<Option<(Value, String)>> {
        let key = b64(format!("/oubli/test/tenants/{t}").as_bytes());
        let r = self.call(i, "/v3/kv/range", json!({ "key": key }))?;
        Some(Self::owner_record(&r))
    }

    fn owner_record(r: &Value) -> Option<(Value, String)> {
        let kv = r["kvs"].as_array()?.first()?.clone();
        let value = unb64(kv["value"].as_str()?);
        Some((
            serde_json::from_slice(&value).ok()?,
            kv["create_revision"].as_str()?.to_owned(),
        ))
    }
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Base64 (etcd's JSON gateway encodes keys and values so).
pub fn b64(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | (u32::from(*b) << (16 - 8 * i)));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(B64[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The bytes of base64 text.
pub fn unb64(s: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let (mut n, mut bits) = (0u32, 0);
    for c in s.bytes().filter(|&c| c != b'=') {
        let Some(v) = B64.iter().position(|&b| b == c) else {
            continue;
        };
        n = (n << 6) | v as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((n >> bits) as u8);
        }
    }
    out
}

/// An `oubli serve` node run as a child process (the real command, killed with SIGKILL to
/// simulate a crash).
pub struct Node {
    /// The process.
    pub proc: Proc,
    /// Where it listens.
    pub addr: SocketAddr,
    /// Its advertised URL.
    pub url: String,
}

impl Node {
    /// Starts `oubli serve` as node `id` of cluster `test` (lease TTL `ttl`, data directory
    /// `data`, log in `dir`), with `extra` arguments, and waits until it answers `/healthz`.
    pub fn start(
        dir: &Path,
        data: &Path,
        etcd: &str,
        id: &str,
        ttl: Duration,
        extra: &[String],
    ) -> Node {
        let port = free_port();
        let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
        let url = format!("http://{addr}");
        let log = (0..)
            .map(|n| dir.join(format!("{id}-{n}.log")))
            .find(|p| !p.exists())
            .unwrap();
        let proc = spawn(
            Command::new(env!("CARGO_BIN_EXE_oubli"))
                .arg("serve")
                .arg("--data-dir")
                .arg(data)
                .args(["--listen", &addr.to_string()])
                .args(["--etcd", etcd, "--node-id", id, "--advertise", &url])
                .args(["--cluster", "test"])
                .args(["--lease-ttl-secs", &ttl.as_secs().to_string()])
                .args(extra),
            log,
        );
        let node = Node { proc, addr, url };
        let up = (|| {
            let until = Instant::now() + Duration::from_secs(30);
            while Instant::now() < until {
                if http(addr, "GET", "/healthz", "").is_some_and(|r| r.status == 200) {
                    return true;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            false
        })();
        assert!(up, "node {id} did not start:\n{}", node.proc.log_tail());
        node
    }
}
