//! Crash safety: a purge and every write verb killed with SIGKILL at random points, then reopened:
//! nothing acknowledged is lost, nothing half-done is visible, and the purged bytes stay gone.

use super::*;

/// Kill -9 of `oubli purge` at many points: afterwards either nothing was erased, or the erasure
/// has its receipt in the store and its opening in the file asked for or pending in the store.
fn purge_crash_cycles(cycles: u64) {
    for cycle in 0..cycles {
        let t = temp();
        drop(crm_store(&t.path));
        let p = t.path.to_str().unwrap().to_string();
        let o = t.dir.path().join("o.json");
        let r = t.dir.path().join("r.json");
        let mut child = Command::new(env!("CARGO_BIN_EXE_oubli"))
            .args([
                "purge",
                &p,
                "--query",
                "Maria Keller",
                "--in",
                "crm",
                "--receipt-out",
                r.to_str().unwrap(),
                "--opening-out",
                o.to_str().unwrap(),
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Spread the kills over the purge's run (a debug purge of this store takes ~100-300 ms).
        std::thread::sleep(Duration::from_micros((cycle * 7919) % 300_000));
        let _ = child.kill();
        child.wait().unwrap();
        let s = Store::open(&t.path).unwrap();
        s.verify_log(None).unwrap();
        let erased = s
            .list(&ListQuery::default())
            .unwrap()
            .iter()
            .all(|row| !row.text.as_deref().unwrap_or("").contains("Maria"));
        let receipts = s.receipts().unwrap();
        if !erased {
            assert!(
                receipts.is_empty(),
                "cycle {cycle}: a receipt without an erasure"
            );
            continue;
        }
        assert_eq!(receipts.len(), 1, "cycle {cycle}: erased without a receipt");
        let (id, receipt) = &receipts[0];
        let delivered = std::fs::read(&o)
            .ok()
            .and_then(|b| Opening::parse(&b).ok())
            .is_some_and(|op| receipt.check_opening(&op).is_ok());
        let pending = s.pending_openings().unwrap().contains(id);
        assert!(
            delivered || pending,
            "cycle {cycle}: erased, but the opening is neither delivered nor pending"
        );
        if pending {
            let op = s.take_opening(*id, |_| Ok(())).unwrap();
            receipt.check_opening(&op).unwrap();
        }
    }
}

#[test]
fn purge_survives_kill_9_short() {
    purge_crash_cycles(12);
}

#[test]
#[ignore = "slow: run with --ignored (see docs/durability.md)"]
fn purge_survives_kill_9_long() {
    purge_crash_cycles(400);
}

/// What the all-verb crash harness saw.
#[derive(Debug, Default)]
struct CrashTally {
    /// Cycles per verb: inscribe, batch, supersede, purge, scrub.
    cycles: [u64; 5],
    /// Cycles whose command finished (acknowledged) before the kill.
    acknowledged: u64,
    /// Cycles whose command was killed mid-run.
    killed: u64,
    /// Killed cycles that had already applied their write (the rest left the store as before).
    applied_when_killed: u64,
}

const VERBS: [&str; 5] = ["inscribe", "batch", "supersede", "purge", "scrub"];

/// Kill -9 of `oubli` during each write verb (inscribe, a JSONL batch, supersede, purge, scrub),
/// at points spread over the command's run. After each kill, a writable open recovers the file
/// and then: the log, the signed checkpoints and every row verify (no corruption); the live rows
/// are exactly the state before the command or exactly the state after it (no half write), and
/// the state after it whenever the command had exited successfully (no lost acknowledged
/// write); an erasure always has its receipt and an opening delivered or pending; after a scrub
/// completes, no byte of the erased row is left in the file.
fn write_crash_cycles(cycles: u64) -> CrashTally {
    let mut tally = CrashTally::default();
    for cycle in 0..cycles {
        let verb = (cycle % 5) as usize;
        tally.cycles[verb] += 1;
        let t = temp();
        {
            let s = crm_store(&t.path);
            if verb == 4 {
                // Something erased but not yet scrubbed, for the scrub to rewrite.
                drop(s);
                let s = Store::open_with(&t.path, StoreOptions::default().scrub_on_purge(false))
                    .unwrap();
                s.purge(Target::key("crm", "jonas")).unwrap();
            }
        }
        let base = live_texts(&read_only(&t.path).unwrap());
        let p = t.path.to_str().unwrap().to_string();
        let o = t.dir.path().join("o.json");
        let r = t.dir.path().join("r.json");
        let jsonl = t.dir.path().join("batch.jsonl");
        std::fs::write(
            &jsonl,
            concat!(
                "{\"text\":\"Nadia's locker is number 31\",\"namespace\":\"crm\",\"key\":\"locker\"}\n",
                "{\"text\":\"The wifi password rotates every Friday\",\"namespace\":\"crm\"}\n",
                "{\"text\":\"Lukas prefers tea over coffee\",\"namespace\":\"crm\",\"metadata\":{\"src\":\"chat\"}}\n",
            ),
        )
        .unwrap();
        let new_texts: Vec<&str> = match verb {
            0 => vec!["Nadia's locker is number 31"],
            1 => vec![
                "Nadia's locker is number 31",
                "The wifi password rotates every Friday",
                "Lukas prefers tea over coffee",
            ],
            2 => vec!["The office plant needs water on Fridays"],
            _ => vec![],
        };
        let args: Vec<String> = match verb {
            0 => vec![
                "inscribe".into(),
                p.clone(),
                new_texts[0].into(),
                "--in".into(),
                "crm".into(),
                "--key".into(),
                "locker".into(),
            ],
            1 => vec![
                "inscribe".into(),
                p.clone(),
                "--file".into(),
                jsonl.to_str().unwrap().into(),
            ],
            2 => vec![
                "supersede".into(),
                p.clone(),
                "--key".into(),
                "plant".into(),
                "--in".into(),
                "crm".into(),
                new_texts[0].into(),
            ],
            3 => vec![
                "purge".into(),
                p.clone(),
                "--query".into(),
                "Maria Keller".into(),
                "--in".into(),
                "crm".into(),
                "--receipt-out".into(),
                r.to_str().unwrap().into(),
                "--opening-out".into(),
                o.to_str().unwrap().into(),
            ],
            _ => vec!["scrub".into(), p.clone()],
        };
        let mut child = Command::new(env!("CARGO_BIN_EXE_oubli"))
            .args(&args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Spread the kills over the command's run; a fifth of them land after it finished.
        std::thread::sleep(Duration::from_micros((cycle * 7919) % 250_000));
        let finished = child.try_wait().unwrap();
        let _ = child.kill();
        let status = child.wait().unwrap();
        let acknowledged = finished.is_some_and(|s| s.success());
        if finished.is_some() && !acknowledged {
            panic!(
                "cycle {cycle} ({}): the command failed: {status:?}",
                VERBS[verb]
            );
        }
        if acknowledged {
            tally.acknowledged += 1;
        } else {
            tally.killed += 1;
        }
        let s = Store::open(&t.path).unwrap();
        s.verify_log(None)
            .unwrap_or_else(|e| panic!("cycle {cycle} ({}): {e}", VERBS[verb]));
        let live = live_texts(&s);
        let after: Vec<String> = match verb {
            0 | 1 => {
                let mut v = base.clone();
                v.extend(new_texts.iter().map(|t| t.to_string()));
                v.sort();
                v
            }
            2 => {
                let mut v: Vec<String> = base
                    .iter()
                    .filter(|t| !t.contains("plant"))
                    .cloned()
                    .collect();
                v.push(new_texts[0].into());
                v.sort();
                v
            }
            3 => base
                .iter()
                .filter(|t| !t.contains("Maria"))
                .cloned()
                .collect(),
            _ => base.clone(),
        };
        let applied = live == after;
        assert!(
            applied || live == base,
            "cycle {cycle} ({}): a half write: {live:?}",
            VERBS[verb]
        );
        assert!(
            applied || !acknowledged,
            "cycle {cycle} ({}): an acknowledged write is lost",
            VERBS[verb]
        );
        if applied && !acknowledged && after != base {
            tally.applied_when_killed += 1;
        }
        let receipts = s.receipts().unwrap();
        let purges = if verb == 4 { 1 } else { 0 } + usize::from(verb == 3 && applied);
        assert_eq!(
            receipts.len(),
            purges,
            "cycle {cycle} ({}): receipts do not match the erasures",
            VERBS[verb]
        );
        if verb == 3 && applied {
            let (id, receipt) = &receipts[0];
            let delivered = std::fs::read(&o)
                .ok()
                .and_then(|b| Opening::parse(&b).ok())
                .is_some_and(|op| receipt.check_opening(&op).is_ok());
            let pending = s.pending_openings().unwrap().contains(id);
            assert!(
                delivered || pending,
                "cycle {cycle}: erased, but the opening is neither delivered nor pending"
            );
            if pending {
                let op = s.take_opening(*id, |_| Ok(())).unwrap();
                receipt.check_opening(&op).unwrap();
            }
        }
        if verb == 4 {
            s.scrub().unwrap();
            s.close().unwrap();
            assert!(
                !file_contains(&t.path, b"jonas.weber"),
                "cycle {cycle}: erased bytes survive a completed scrub"
            );
        }
    }
    tally
}

#[test]
fn every_write_verb_survives_kill_9_short() {
    let t = write_crash_cycles(20);
    eprintln!("{t:?}");
    assert_eq!(t.cycles, [4; 5]);
}

/// The long run: `cargo test -p oubli-db --release --test durability -- --ignored
/// every_write_verb_survives_kill_9_long --nocapture` (figures in docs/durability.md).
#[test]
#[ignore = "slow: run with --ignored (see docs/durability.md)"]
fn every_write_verb_survives_kill_9_long() {
    let t = write_crash_cycles(1000);
    eprintln!("{t:?}");
    assert_eq!(t.cycles, [200; 5]);
}
