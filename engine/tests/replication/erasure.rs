//! Erasure across copies: a purge reaches every frame a replica applied and every snapshot, and
//! no purged byte (text or vector) is left in any of them.

use super::*;

const MARKERS: [&str; 3] = [
    "ZQXJ-marker-alpha-7781",
    "KVRP-marker-beta-0042",
    "Omega-marker-gamma-x5151w",
];

fn vector_bytes(text: &str) -> Vec<u8> {
    let e = StaticEmbedder::new().unwrap().embed(text).unwrap();
    let v = oubli::storage::stored_vector(&oubli::embed::check_vector(&e, e.len()).unwrap());
    oubli::storage::encode_vector(&v)[..64].to_vec()
}

/// The needles a purge of the marker rows must remove: the texts, the natural key, the alias
/// forms and the vectors' bytes.
fn needles(texts: &[String]) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = MARKERS.iter().map(|m| m.as_bytes().to_vec()).collect();
    out.push(b"secret-key-QQ19".to_vec());
    out.push(b"Marker Person Vexlund".to_vec());
    out.extend(texts.iter().map(|t| vector_bytes(t)));
    out
}

fn holds(bytes: &[u8], needle: &[u8]) -> bool {
    bytes.windows(needle.len()).any(|w| w == needle)
}

#[test]
fn a_purge_reaches_every_frame_replica_and_snapshot() {
    let t = temp();
    let (leader, replica, clock) = pair(&t);
    // A durable replica: every commit reaches the file, so the scan before the purge sees it.
    let replica_path = replica.path().to_path_buf();
    drop(replica);
    std::fs::remove_file(&replica_path).unwrap();
    let replica = Store::create_with(&replica_path, fixed(clock.clone()).replica(true)).unwrap();
    for i in 0..60 {
        leader
            .inscribe(Inscription::new(format!(
                "filler memory {i} about gardening"
            )))
            .unwrap();
    }
    let texts: Vec<String> = MARKERS
        .iter()
        .map(|m| format!("{m} belongs to Marker Person Vexlund"))
        .collect();
    let mut ids = Vec::new();
    ids.push(
        leader
            .inscribe(
                Inscription::new(&texts[0])
                    .namespace("user:vex")
                    .key("secret-key-QQ19"),
            )
            .unwrap(),
    );
    leader
        .declare_alias(
            "user:vex",
            AliasKind::Person,
            &["Marker Person Vexlund", "vex@example.com"],
        )
        .unwrap();
    ids.extend(
        leader
            .inscribe_batch(vec![
                Inscription::new(&texts[1])
                    .namespace("user:vex")
                    .meta("note", "marker row"),
                Inscription::new(&texts[2]).namespace("user:vex"),
            ])
            .unwrap(),
    );
    clock.advance(500);
    leader
        .inscribe(Inscription::new("between the markers and the purge"))
        .unwrap();
    let report = leader
        .purge(Target::query("Marker Person Vexlund"))
        .unwrap();
    for id in &ids {
        assert!(report.erased.contains(id), "{id} erased");
    }
    for i in 0..5 {
        leader
            .inscribe(Inscription::new(format!("later memory {i} about rain")))
            .unwrap();
    }
    let entries = leader.changes_since(0).unwrap();
    let purge_entry = entries
        .iter()
        .find(|e| {
            e.frame
                .events()
                .unwrap()
                .iter()
                .any(|ev| ev.kind == oubli::EventKind::Purge)
        })
        .unwrap();
    let needles = needles(&texts);
    // The frames the feed lists are exactly those that carried a needle (not vacuous: each
    // marker was in one), and the purge frame itself carries none.
    let carried: Vec<u64> = entries
        .iter()
        .filter(|e| {
            let b = e.frame.encode();
            needles.iter().any(|n| holds(&b, n))
        })
        .map(|e| e.frame.seq())
        .collect();
    assert!(!carried.is_empty());
    assert_eq!(purge_entry.overwrite, carried);
    let mut retained = Vec::new();
    for e in &entries {
        if !purge_entry.overwrite.contains(&e.frame.seq()) {
            retained.extend(e.frame.encode());
        }
    }
    for n in &needles {
        assert!(
            !holds(&retained, n),
            "{:?} in a retained frame",
            String::from_utf8_lossy(n)
        );
    }
    // The replica that applied the purge (and its scrub) holds none of it in its file; it held
    // the markers just before.
    let purge_at = entries
        .iter()
        .position(|e| e.frame.seq() == purge_entry.frame.seq())
        .unwrap();
    apply_all(&replica, &entries[..purge_at]);
    assert!(file_contains(replica.path(), MARKERS[0].as_bytes()));
    apply_all(&replica, &entries[purge_at..]);
    assert_eq!(
        replica.state_digests().unwrap(),
        leader.state_digests().unwrap()
    );
    let replica_path = replica.path().to_path_buf();
    drop(replica);
    // A snapshot after the purge, restored, plus the later frames.
    let snap = t.dir.path().join("after.oubli");
    let at = leader.snapshot_to(&snap).unwrap();
    leader
        .inscribe(Inscription::new("after the snapshot"))
        .unwrap();
    let restored = Store::open_with(&snap, replica_opts(clock.clone())).unwrap();
    for e in leader.changes_since(at).unwrap() {
        restored.apply_frame(&e.frame).unwrap();
    }
    assert_eq!(
        restored.state_digests().unwrap(),
        leader.state_digests().unwrap()
    );
    drop(restored);
    drop(leader);
    for path in [&t.path, &replica_path, &snap] {
        let bytes = std::fs::read(path).unwrap();
        for n in &needles {
            assert!(
                !holds(&bytes, n),
                "{:?} in {}",
                String::from_utf8_lossy(n),
                path.display()
            );
        }
    }
}
