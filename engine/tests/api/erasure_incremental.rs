//! Incremental erasure: a purge reaches its erasure point without copying the file (only the
//! text segments and pages that held the erased bytes are rewritten, freed pages are zeroed by
//! the vendored redb), and the raw byte scan stays exactly as strict.

use crate::common;

use std::os::unix::fs::MetadataExt;

use common::*;
use oubli::index::key_index;
use oubli::{Inscription, Legs, RecallQuery, Store, StoreOptions, Target};
use proptest::prelude::*;

/// A text whose marker token occurs in no other row and in nothing the store writes itself.
/// Every third one is long (several kilobytes, several redb pages): the pages freed when it is
/// erased are then larger than what the following commits allocate, so they are not simply
/// reused and overwritten, and only zeroing removes them.
fn secret(n: usize) -> String {
    let head = format!("memo QZX{n:04}W about the spare key under pot {n} kept by Jq{n:04}v");
    if n.is_multiple_of(3) {
        // Few distinct words, so the residual audit's probes built from it stay cheap.
        format!("{head}{} end QZX{n:04}W", " lorem ipsum".repeat(400))
    } else {
        head
    }
}

fn marker(n: usize) -> String {
    format!("QZX{n:04}W")
}

fn bytes_contain(bytes: &[u8], needle: &[u8]) -> bool {
    bytes.windows(needle.len()).any(|w| w == needle)
}

/// Every needle an erased row could leave: the text's marker as stored, lower-cased as the
/// postings hold it, and its other rare token.
fn needles(n: usize) -> Vec<String> {
    vec![
        marker(n),
        marker(n).to_lowercase(),
        format!("jq{n:04}v"),
        format!("Jq{n:04}v"),
    ]
}

/// A long text of many distinct words: its postings fill whole text-index segment files, whose
/// pages are freed when the segment is rewritten and not all reused by the commits that follow.
fn wordy(n: usize) -> String {
    let words: String = (0..300).map(|i| format!(" w{n}y{i}z")).collect();
    format!("{}{words}", secret(n))
}

#[test]
fn purge_does_not_copy_the_file() {
    let t = temp();
    let s = Store::create(&t.path).unwrap();
    let ids: Vec<_> = (0..40)
        .map(|i| s.inscribe(Inscription::new(wordy(i))).unwrap())
        .collect();
    let inode = std::fs::metadata(&t.path).unwrap().ino();
    let r = s.purge(Target::id(ids[6])).unwrap();
    assert_eq!(r.receipt.body.erasure.method, "scrub-zero-v1");
    assert!(r.completion_seq.is_some());
    // The same file, rewritten in place: no copy was renamed over it.
    assert_eq!(std::fs::metadata(&t.path).unwrap().ino(), inode);
    let bytes = std::fs::read(&t.path).unwrap();
    for n in needles(6)
        .into_iter()
        .chain((0..300).map(|i| format!("w6y{i}z")))
    {
        assert!(!bytes_contain(&bytes, n.as_bytes()), "found {n:?}");
    }
    for i in (0..40).filter(|&i| i != 6) {
        assert!(bytes_contain(&bytes, marker(i).as_bytes()), "row {i} lost");
    }
    // The explicit compaction still copies the file, and loses nothing.
    s.scrub_compact().unwrap();
    assert_ne!(std::fs::metadata(&t.path).unwrap().ino(), inode);
    drop(s);
    let s = Store::open(&t.path).unwrap();
    s.verify_log(None).unwrap();
    assert_eq!(
        s.recall(&RecallQuery::new(marker(8)).k(1)).unwrap()[0]
            .row
            .text
            .as_deref(),
        Some(wordy(8).as_str())
    );
}

#[test]
fn a_store_whose_free_pages_may_hold_old_bytes_is_compacted_by_its_next_scrub() {
    let t = temp();
    let s = Store::create(&t.path).unwrap();
    let ids: Vec<_> = (0..20)
        .map(|i| s.inscribe(Inscription::new(secret(i))).unwrap())
        .collect();
    drop(s);
    // As a store written before the vendored redb zeroed freed pages: no marker.
    {
        let db = redb::Database::open(&t.path).unwrap();
        let tx = db.begin_write().unwrap();
        tx.open_table(redb::TableDefinition::<&str, &[u8]>::new("meta"))
            .unwrap()
            .remove("free_pages_zeroed")
            .unwrap();
        tx.commit().unwrap();
    }
    let s = Store::open(&t.path).unwrap();
    let inode = std::fs::metadata(&t.path).unwrap().ino();
    let r = s.purge(Target::id(ids[3])).unwrap();
    assert_eq!(r.receipt.body.erasure.method, "scrub-rewrite-v1");
    assert_ne!(std::fs::metadata(&t.path).unwrap().ino(), inode);
    // The copy carries the marker: the next purge is incremental.
    let r = s.purge(Target::id(ids[4])).unwrap();
    assert_eq!(r.receipt.body.erasure.method, "scrub-zero-v1");
    drop(s);
    let bytes = std::fs::read(&t.path).unwrap();
    for n in needles(3).into_iter().chain(needles(4)) {
        assert!(!bytes_contain(&bytes, n.as_bytes()), "found {n:?}");
    }
}

#[derive(Clone, Debug)]
enum Op {
    Inscribe,
    /// Purge the live row at this index (modulo the live count).
    Purge(usize),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![3 => Just(Op::Inscribe), 2 => (0..64usize).prop_map(Op::Purge)]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, .. ProptestConfig::default() })]

    /// Random inscriptions and purges, in a file and in memory: afterwards a raw byte scan
    /// finds no purged text, and every live row is still in the bytes and recalled.
    #[test]
    fn purged_text_leaves_the_bytes_and_live_rows_stay(
        base in 5..60usize,
        ops in proptest::collection::vec(op(), 1..14),
        in_memory in any::<bool>(),
    ) {
        let t = temp();
        let s = if in_memory {
            Store::in_memory(StoreOptions::default()).unwrap()
        } else {
            Store::create(&t.path).unwrap()
        };
        let mut live: Vec<(usize, u64)> = Vec::new();
        let mut purged: Vec<usize> = Vec::new();
        let first: Vec<Inscription> = (0..base).map(|n| Inscription::new(secret(n))).collect();
        for (n, id) in s.inscribe_batch(first).unwrap().into_iter().enumerate() {
            live.push((n, id));
        }
        let mut next = base;
        for op in ops {
            match op {
                Op::Inscribe => {
                    live.push((next, s.inscribe(Inscription::new(secret(next))).unwrap()));
                    next += 1;
                }
                Op::Purge(i) if !live.is_empty() => {
                    let (n, id) = live.remove(i % live.len());
                    let r = s.purge(Target::id(id)).unwrap();
                    prop_assert_eq!(r.erased, vec![id]);
                    purged.push(n);
                }
                Op::Purge(_) => {}
            }
        }
        let bytes = if in_memory {
            s.memory_image().unwrap().unwrap()
        } else {
            std::fs::read(&t.path).unwrap()
        };
        for &n in &purged {
            for needle in needles(n) {
                prop_assert!(!bytes_contain(&bytes, needle.as_bytes()), "found {:?}", needle);
            }
            // The row's match-key record (its keys' hashes) leaves the bytes too.
            let record = key_index::encode(&key_index::row_key_hashes(&secret(n)));
            prop_assert!(!bytes_contain(&bytes, &record), "found the match keys of {}", n);
        }
        for &(n, id) in &live {
            prop_assert!(bytes_contain(&bytes, marker(n).as_bytes()), "row {} lost", n);
            // By its marker, which no other row holds (BM25: a long row's vector is mostly its
            // padding, so the fused ranking could put a short neighbour first).
            let hits = s.recall(&RecallQuery::new(marker(n)).k(3).legs(Legs::Lexical)).unwrap();
            prop_assert_eq!(hits.first().map(|h| h.row.id), Some(id), "{} not recalled", n);
        }
    }
}

/// A row's natural key is erased with it: B-tree separators in live branch pages may hold a
/// copy of a deleted key, so the scrub after a purge of a keyed row rebuilds the keys table
/// (its old pages freed and zeroed), without copying the file.
#[test]
fn a_purged_rows_key_leaves_the_file() {
    let t = temp();
    let s = Store::create(&t.path).unwrap();
    for i in 0..400 {
        s.inscribe(
            Inscription::new(wordy(i))
                .namespace("user:ana")
                .key(format!("kQv{i:04}-contact")),
        )
        .unwrap();
    }
    let id = s.get_by_key("user:ana", "kQv0207-contact").unwrap().id;
    let r = s.purge(Target::id(id)).unwrap();
    assert_eq!(r.receipt.body.erasure.method, "scrub-zero-v1");
    let bytes = std::fs::read(&t.path).unwrap();
    assert!(!bytes_contain(&bytes, b"kQv0207-contact"));
    // Every other key is still there and still finds its row.
    for i in (0..400).filter(|i| *i != 207) {
        let key = format!("kQv{i:04}-contact");
        assert!(bytes_contain(&bytes, key.as_bytes()), "{key} lost");
        assert!(s.get_by_key("user:ana", &key).is_ok(), "{key} not found");
    }
    assert!(s.get_by_key("user:ana", "kQv0207-contact").is_err());
    // Keys at the edges of the table's leaves, purged one after the other, leave it as well.
    for i in [0, 1, 2, 100, 101, 399] {
        let key = format!("kQv{i:04}-contact");
        let id = s.get_by_key("user:ana", &key).unwrap().id;
        s.purge(Target::id(id)).unwrap();
        let bytes = std::fs::read(&t.path).unwrap();
        assert!(
            !bytes_contain(&bytes, key.as_bytes()),
            "{key} left in the file"
        );
    }
    s.close().unwrap();
    let s = Store::open(&t.path).unwrap();
    assert!(s.get_by_key("user:ana", "kQv0208-contact").is_ok());
    s.verify_log(None).unwrap();
}

/// The same with 700 keys in one shard of the key table (about ten leaf pages): each purged key
/// leaves the file, and the others, in that shard and elsewhere, stay and find their rows.
#[test]
fn a_purged_key_leaves_a_large_shard() {
    let t = temp();
    let s = Store::create(&t.path).unwrap();
    let shard = oubli::storage::key_shard("user:ana", "kQv00000-contact-address");
    let same: Vec<String> = (0..)
        .map(|i| format!("kQv{i:05}-contact-address"))
        .filter(|k| oubli::storage::key_shard("user:ana", k) == shard)
        .take(700)
        .collect();
    let rows: Vec<Inscription> = same
        .iter()
        .enumerate()
        .map(|(i, k)| {
            Inscription::new(wordy(i))
                .namespace("user:ana")
                .key(k.clone())
        })
        .chain((0..50).map(|i| {
            Inscription::new(wordy(1000 + i))
                .namespace("user:ben")
                .key(format!("other-{i}"))
        }))
        .collect();
    s.inscribe_batch(rows).unwrap();
    let purged: Vec<usize> = vec![0, 1, 63, 64, 65, 200, 350, 351, 500, 698, 699];
    for &i in &purged {
        let id = s.get_by_key("user:ana", &same[i]).unwrap().id;
        s.purge(Target::id(id)).unwrap();
        let bytes = std::fs::read(&t.path).unwrap();
        assert!(
            !bytes_contain(&bytes, same[i].as_bytes()),
            "{} left in the file",
            same[i]
        );
    }
    let bytes = std::fs::read(&t.path).unwrap();
    for (i, k) in same.iter().enumerate().filter(|(i, _)| !purged.contains(i)) {
        assert!(bytes_contain(&bytes, k.as_bytes()), "{k} lost");
        assert!(s.get_by_key("user:ana", k).is_ok(), "{k} ({i}) not found");
    }
    for i in 0..50 {
        assert!(s.get_by_key("user:ben", &format!("other-{i}")).is_ok());
    }
    s.verify_file().unwrap();
}
