//! `oubli demo`: the README's first command. A short end-to-end run on a fresh store with the
//! built-in embedder: inscribe, recall, supersede, release, purge, verify the log, and scan the
//! file's bytes for what was purged.

use std::path::PathBuf;

use crate::{Inscription, RecallQuery, Result, Store, Target};

fn show(store: &Store, query: &str) -> Result<Vec<String>> {
    let hits = store.recall(&RecallQuery::new(query).k(3))?;
    println!("  recall {query:?}");
    let mut texts = Vec::new();
    for h in hits {
        let t = h.row.text.unwrap_or_default();
        println!("    {:.4}  #{:<3} {}", h.score, h.row.id, t);
        texts.push(t);
    }
    Ok(texts)
}

/// Runs the tour. Returns an error if any step does not behave as the product promises.
pub fn run(path: Option<PathBuf>, json: bool) -> Result<()> {
    let tmp;
    let path = match path {
        Some(p) => p,
        None => {
            tmp = std::env::temp_dir().join(format!("oubli-demo-{}", std::process::id()));
            std::fs::create_dir_all(&tmp)?;
            tmp.join("demo.oubli")
        }
    };
    let _ = std::fs::remove_file(&path);
    let store = Store::create(&path)?;
    println!("1. inscribe into {}", path.display());
    let facts = [
        ("The staging database password is tulip-4417", "ops"),
        ("The VPN gateway is vpn.example.internal", "ops"),
        ("Maria Keller's email is maria.keller@example.com", "crm"),
        ("Maria Keller's phone number is +49 30 5550 1188", "crm"),
        ("Maria Keller prefers meetings after 10am", "crm"),
        ("Jonas Weber's email is jonas.weber@example.com", "crm"),
        ("The quarterly report is due on the 15th", "ops"),
    ];
    for (text, ns) in facts {
        let id = store.inscribe(Inscription::new(text).namespace(ns))?;
        println!("    #{id:<3} [{ns}] {text}");
    }

    println!("2. recall");
    show(&store, "staging database password")?;

    println!("3. supersede: the password was rotated");
    let s = store.supersede(
        Target::query("staging database password"),
        Inscription::new("The staging database password is orchid-9051"),
    )?;
    println!("    #{:?} submerged, #{} is current", s.replaced, s.new_id);
    let after = show(&store, "staging database password")?.join("\n");
    check(
        after.contains("orchid-9051") && !after.contains("tulip-4417"),
        "rotated password",
    )?;

    println!("4. release: forget the meeting preference (soft, kept in history)");
    let r = store.release(Target::query("Maria Keller meetings"))?;
    println!("    released {r:?}");

    println!("5. purge: Maria Keller asks for erasure of her contact data (GDPR art. 17)");
    let p = store.purge(Target::query_in("crm", "Maria Keller"))?;
    println!(
        "    erased {:?}; erasure complete at log seq {:?}",
        p.erased, p.completion_seq
    );
    let left = show(&store, "Maria Keller email phone")?.join("\n");
    check(!left.contains("Maria"), "purged rows stay out of recall")?;
    let jonas = show(&store, "Jonas Weber email")?.join("\n");
    check(
        jonas.contains("jonas.weber@example.com"),
        "siblings survive the purge",
    )?;

    println!("6. verify the signed, hash-chained log");
    let report = store.verify_log(None)?;
    println!(
        "    {} events, {} signed checkpoints, head {}",
        report.events,
        report.checkpoints,
        report
            .head_hash
            .iter()
            .take(8)
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    );
    drop(store);

    println!("7. scan the file's raw bytes for what was purged");
    let bytes = std::fs::read(&path)?;
    for needle in [
        "maria.keller@example.com",
        "5550 1188",
        "Maria Keller",
        "tulip-4417",
    ] {
        let found = bytes.windows(needle.len()).any(|w| w == needle.as_bytes());
        println!(
            "    {needle:<28} {}",
            if found { "FOUND" } else { "absent" }
        );
        // The superseded password is kept (submerged) on purpose; the purged data is not.
        if needle != "tulip-4417" {
            check(!found, "purged bytes are gone from the file")?;
        }
    }
    if json {
        println!(
            "{}",
            serde_json::json!({ "ok": true, "events": report.events, "path": path })
        );
    } else {
        println!("demo ok: store kept at {}", path.display());
    }
    Ok(())
}

fn check(ok: bool, what: &str) -> Result<()> {
    if ok {
        Ok(())
    } else {
        Err(crate::Error::InvalidArgument(format!(
            "demo check failed: {what}"
        )))
    }
}
