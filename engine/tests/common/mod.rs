//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::Arc;

use oubli::{ManualClock, Store, StoreOptions};

/// A temporary directory and a store path inside it.
pub struct TempStore {
    /// Removed on drop.
    pub dir: tempfile::TempDir,
    /// The store file inside `dir`.
    pub path: PathBuf,
}

/// A fresh temporary store path.
pub fn temp() -> TempStore {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.oubli");
    TempStore { dir, path }
}

/// Options with a fixed clock, seed and key: byte-reproducible stores.
pub fn fixed(clock: Arc<ManualClock>) -> StoreOptions {
    StoreOptions::default()
        .clock(clock)
        .deterministic_seed([42; 32])
        .signing_key([7; 32])
}

/// Creates a byte-reproducible store and returns its clock.
pub fn create_fixed(t: &TempStore) -> (Store, Arc<ManualClock>) {
    let clock = Arc::new(ManualClock::new(1_763_700_000_000));
    let s = Store::create_with(&t.path, fixed(clock.clone())).unwrap();
    (s, clock)
}

/// The texts of recall hits.
pub fn texts(hits: &[oubli::Hit]) -> Vec<String> {
    hits.iter()
        .map(|h| h.row.text.clone().unwrap_or_default())
        .collect()
}

/// True if `needle` occurs anywhere in the file's raw bytes.
pub fn file_contains(path: &std::path::Path, needle: &[u8]) -> bool {
    let bytes = std::fs::read(path).unwrap();
    bytes.windows(needle.len()).any(|w| w == needle)
}

/// True if `needle` occurs in the file's raw bytes as a whole token: not preceded or followed by
/// an ASCII letter or digit. A short number such as a PIN occurs by chance inside the hex digests
/// of receipts and hashes; as a token of its own it would be the erased text.
pub fn file_contains_token(path: &std::path::Path, needle: &[u8]) -> bool {
    let bytes = std::fs::read(path).unwrap();
    let n = needle.len();
    (0..bytes.len().saturating_sub(n - 1)).any(|i| {
        &bytes[i..i + n] == needle
            && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric())
            && bytes.get(i + n).is_none_or(|b| !b.is_ascii_alphanumeric())
    })
}

/// The `oubli` binary of this package, ready for arguments.
pub fn oubli_bin() -> std::process::Command {
    std::process::Command::new(env!("CARGO_BIN_EXE_oubli"))
}

/// Runs the `oubli` binary with `args` and returns what it did.
pub fn oubli(args: &[&str]) -> std::process::Output {
    oubli_bin().args(args).output().expect("run oubli")
}

/// Runs the `oubli` binary, asserts success and returns its standard output.
pub fn ok(args: &[&str]) -> String {
    let out = oubli(args);
    assert!(
        out.status.success(),
        "oubli {args:?} failed ({:?}): {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// The texts of the store's live rows, sorted.
pub fn live_texts(s: &Store) -> Vec<String> {
    let mut v: Vec<String> = s
        .list(&oubli::ListQuery::default())
        .unwrap()
        .into_iter()
        .filter_map(|r| r.text)
        .collect();
    v.sort();
    v
}

/// A fresh store (fixed clock) holding `facts`, one row each, in order.
pub fn store_with(facts: &[&str]) -> (TempStore, Store) {
    let t = temp();
    let (s, _) = create_fixed(&t);
    for f in facts {
        s.inscribe(oubli::Inscription::new(*f)).unwrap();
    }
    (t, s)
}
