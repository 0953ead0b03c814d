//! Three `nats-server`s with JetStream, clustered on loopback, each with its own store
//! directory, started and killed by the tests themselves.
#![allow(dead_code)]

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// One `nats-server` process.
pub struct Node {
    /// Its client port on 127.0.0.1.
    pub port: u16,
    /// Its JetStream store directory.
    pub store_dir: PathBuf,
    child: Option<Child>,
}

/// A cluster of `nats-server`s; every process is killed on drop.
pub struct Cluster {
    /// Holds the configuration files and the store directories.
    pub dir: tempfile::TempDir,
    /// The servers.
    pub nodes: Vec<Node>,
}

/// The `nats-server` binary, if installed.
pub fn nats_server() -> Option<PathBuf> {
    let out = Command::new("nats-server").arg("--version").output().ok()?;
    out.status.success().then(|| PathBuf::from("nats-server"))
}

/// `n` distinct free loopback ports: every listener is held until all are chosen, so that no
/// port is handed out twice.
fn free_ports(n: usize) -> Vec<u16> {
    let listeners: Vec<TcpListener> = (0..n)
        .map(|_| TcpListener::bind("127.0.0.1:0").expect("a free loopback port"))
        .collect();
    listeners
        .iter()
        .map(|l| l.local_addr().expect("a bound port").port())
        .collect()
}

impl Cluster {
    /// Starts `n` servers clustered together (a single server, without a cluster block, for
    /// `n == 1`) and waits until each accepts connections. A server that exits at start (a port
    /// another process took between its choice and the server's bind) makes it start the whole
    /// cluster again on new ports, up to three times in all.
    pub fn start(n: usize) -> Cluster {
        let mut failures = Vec::new();
        for _ in 0..3 {
            match Self::try_start(n) {
                Ok(c) => return c,
                Err(e) => {
                    eprintln!("nats-server cluster did not start, retrying: {e}");
                    failures.push(e);
                }
            }
        }
        panic!("nats-server cluster did not start: {failures:?}");
    }

    fn try_start(n: usize) -> Result<Cluster, String> {
        let dir = tempfile::tempdir().expect("temp dir");
        let chosen = free_ports(2 * n);
        let ports: Vec<(u16, u16)> = (0..n).map(|i| (chosen[2 * i], chosen[2 * i + 1])).collect();
        let mut nodes = Vec::new();
        for (i, (port, cport)) in ports.iter().enumerate() {
            let store_dir = dir.path().join(format!("n{i}"));
            std::fs::create_dir_all(&store_dir).unwrap();
            let mut conf = format!(
                "server_name: n{i}\nlisten: 127.0.0.1:{port}\n\
                 jetstream {{\n  store_dir: \"{}\"\n  max_mem: 64MB\n  max_file: 1GB\n}}\n",
                store_dir.display()
            );
            if n > 1 {
                let routes: Vec<String> = ports
                    .iter()
                    .map(|(_, c)| format!("nats-route://127.0.0.1:{c}"))
                    .collect();
                conf.push_str(&format!(
                    "cluster {{\n  name: oubli-test\n  listen: 127.0.0.1:{cport}\n  routes: [{}]\n}}\n",
                    routes.join(", ")
                ));
            }
            let conf_path = dir.path().join(format!("n{i}.conf"));
            std::fs::write(&conf_path, conf).unwrap();
            let log = std::fs::File::create(dir.path().join(format!("n{i}.log"))).unwrap();
            let child = Command::new("nats-server")
                .arg("-c")
                .arg(&conf_path)
                .stdout(Stdio::null())
                .stderr(log)
                .spawn()
                .expect("start nats-server");
            nodes.push(Node {
                port: *port,
                store_dir,
                child: Some(child),
            });
        }
        // On an early return the cluster is dropped, which kills every server started.
        let mut c = Cluster { dir, nodes };
        for i in 0..c.nodes.len() {
            let deadline = Instant::now() + Duration::from_secs(20);
            while std::net::TcpStream::connect(("127.0.0.1", c.nodes[i].port)).is_err() {
                let exited = c.nodes[i]
                    .child
                    .as_mut()
                    .and_then(|ch| ch.try_wait().ok().flatten());
                if let Some(status) = exited {
                    let log = std::fs::read_to_string(c.dir.path().join(format!("n{i}.log")))
                        .unwrap_or_default();
                    return Err(format!("server n{i} exited ({status}): {log}"));
                }
                if Instant::now() >= deadline {
                    return Err(format!("server n{i} did not accept connections in 20 s"));
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        // Another process on a chosen port would have answered for a server that then exited.
        std::thread::sleep(Duration::from_millis(200));
        for i in 0..c.nodes.len() {
            if let Some(Ok(Some(status))) = c.nodes[i].child.as_mut().map(|ch| ch.try_wait()) {
                let log = std::fs::read_to_string(c.dir.path().join(format!("n{i}.log")))
                    .unwrap_or_default();
                return Err(format!("server n{i} exited ({status}): {log}"));
            }
        }
        Ok(c)
    }

    /// Every server's client URL.
    pub fn urls(&self) -> Vec<String> {
        self.nodes
            .iter()
            .map(|n| format!("nats://127.0.0.1:{}", n.port))
            .collect()
    }

    /// Kills server `i` with SIGKILL (no clean shutdown, nothing flushed).
    pub fn kill(&mut self, i: usize) {
        if let Some(mut c) = self.nodes[i].child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        for i in 0..self.nodes.len() {
            self.kill(i);
        }
    }
}

/// Every file under `dir`, recursively.
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out
}

/// The files under `dir` whose raw bytes hold `needle`.
pub fn files_holding(dir: &Path, needle: &[u8]) -> Vec<PathBuf> {
    files_under(dir)
        .into_iter()
        .filter(|p| {
            std::fs::read(p)
                .map(|b| b.windows(needle.len()).any(|w| w == needle))
                .unwrap_or(false)
        })
        .collect()
}
