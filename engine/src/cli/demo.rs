//! `oubli demo`: the README's first command. A short end-to-end run on a fresh store with the
//! built-in embedder: inscribe, recall, supersede, release, purge, verify the log, and scan the
//! file's bytes for what was purged.

use std::path::PathBuf;

use serde_json::{Value, json};

use super::output::{ids, opt};
use crate::{Inscription, RecallQuery, Result, Store, Target};

/// Where the tour reports: text lines for people, or one JSON document at the end.
struct Report {
    json: bool,
    steps: Vec<Value>,
}

impl Report {
    /// A line of text (nothing in JSON mode).
    fn say(&self, line: std::fmt::Arguments<'_>) -> Result<()> {
        if !self.json {
            outln!("{line}");
        }
        Ok(())
    }

    /// Records a step for the JSON document.
    fn step(&mut self, name: &str, detail: Value) {
        let mut v = json!({ "step": name });
        if let (Some(o), Value::Object(d)) = (v.as_object_mut(), detail) {
            o.extend(d);
        }
        self.steps.push(v);
    }

    fn show(&mut self, store: &Store, query: &str) -> Result<Vec<String>> {
        let hits = store.recall(&RecallQuery::new(query).k(3))?;
        self.say(format_args!("  recall \"{query}\""))?;
        let mut texts = Vec::new();
        let mut found = Vec::new();
        for h in hits {
            let t = h.row.text.unwrap_or_default();
            self.say(format_args!("    {:.4}  #{:<3} {}", h.score, h.row.id, t))?;
            found.push(json!({ "id": h.row.id, "score": h.score, "text": t }));
            texts.push(t);
        }
        self.step("recall", json!({ "query": query, "hits": found }));
        Ok(texts)
    }
}

/// Runs the tour. Returns an error if any step does not behave as the product promises. With
/// `json`, prints one JSON document (`ok`, `path`, `events`, `steps`) instead of the text.
pub fn run(path: Option<PathBuf>, json: bool) -> Result<()> {
    let tmp;
    let path = match path {
        Some(p) => p,
        None => {
            tmp = std::env::temp_dir().join(format!("oubli-demo-{}", std::process::id()));
            std::fs::create_dir_all(&tmp).map_err(|e| super::at_path(&tmp, e.into()))?;
            tmp.join("demo.oubli")
        }
    };
    let _ = std::fs::remove_file(&path);
    let mut out = Report {
        json,
        steps: Vec::new(),
    };
    let store = Store::create(&path).map_err(|e| super::at_path(&path, e))?;
    out.say(format_args!("1. inscribe into {}", path.display()))?;
    let facts = [
        ("The staging database password is tulip-4417", "ops"),
        ("The VPN gateway is vpn.example.internal", "ops"),
        ("Maria Keller's email is maria.keller@example.com", "crm"),
        ("Maria Keller's phone number is +49 30 5550 1188", "crm"),
        ("Maria Keller prefers meetings after 10am", "crm"),
        ("Jonas Weber's email is jonas.weber@example.com", "crm"),
        ("The quarterly report is due on the 15th", "ops"),
    ];
    let mut rows = Vec::new();
    for (text, ns) in facts {
        let id = store.inscribe(Inscription::new(text).namespace(ns))?;
        out.say(format_args!("    #{id:<3} [{ns}] {text}"))?;
        rows.push(json!({ "id": id, "ns": ns, "text": text }));
    }
    out.step("inscribe", json!({ "rows": rows }));

    out.say(format_args!("2. recall"))?;
    out.show(&store, "staging database password")?;

    out.say(format_args!("3. supersede: the password was rotated"))?;
    let s = store.supersede(
        Target::query("staging database password"),
        Inscription::new("The staging database password is orchid-9051"),
    )?;
    out.say(format_args!(
        "    {} submerged, #{} is current",
        ids(&s.replaced),
        s.new_id
    ))?;
    out.step(
        "supersede",
        json!({ "replaced": s.replaced, "new_id": s.new_id }),
    );
    let after = out.show(&store, "staging database password")?.join("\n");
    check(
        after.contains("orchid-9051") && !after.contains("tulip-4417"),
        "rotated password",
    )?;

    out.say(format_args!(
        "4. release: forget the meeting preference (soft, kept in history)"
    ))?;
    let r = store.release(Target::query("Maria Keller meetings"))?;
    out.say(format_args!("    released {}", ids(&r)))?;
    out.step("release", json!({ "released": r }));

    out.say(format_args!(
        "5. purge: Maria Keller asks for erasure of her contact data (GDPR art. 17)"
    ))?;
    let p = store.purge(Target::query_in("crm", "Maria Keller"))?;
    out.say(format_args!(
        "    erased {}; erasure complete at log seq {}",
        ids(&p.erased),
        opt(p.completion_seq)
    ))?;
    out.step(
        "purge",
        json!({ "purge_id": p.seq, "erased": p.erased, "completion_seq": p.completion_seq,
                "residual_audit_clean": p.audit.summary.clean }),
    );
    let left = out.show(&store, "Maria Keller email phone")?.join("\n");
    check(!left.contains("Maria"), "purged rows stay out of recall")?;
    let jonas = out.show(&store, "Jonas Weber email")?.join("\n");
    check(
        jonas.contains("jonas.weber@example.com"),
        "siblings survive the purge",
    )?;

    out.say(format_args!("6. verify the signed, hash-chained log"))?;
    let report = store.verify_log(None)?;
    let head = super::hex(&report.head_hash);
    out.say(format_args!(
        "    {} events, {} signed checkpoints, head {}",
        report.events,
        report.checkpoints,
        &head[..16]
    ))?;
    out.step(
        "verify_log",
        json!({ "events": report.events, "checkpoints": report.checkpoints, "head_hash": head }),
    );
    drop(store);

    out.say(format_args!(
        "7. scan the file's raw bytes for what was purged"
    ))?;
    let bytes = std::fs::read(&path).map_err(|e| super::at_path(&path, e.into()))?;
    let mut scan = serde_json::Map::new();
    for needle in [
        "maria.keller@example.com",
        "5550 1188",
        "Maria Keller",
        "tulip-4417",
    ] {
        let found = bytes.windows(needle.len()).any(|w| w == needle.as_bytes());
        // The superseded password is kept (submerged) on purpose: supersede is not erasure.
        let kept = needle == "tulip-4417";
        out.say(format_args!(
            "    {needle:<28} {}",
            match (found, kept) {
                (true, true) => "present (superseded in step 3, not purged)",
                (true, false) => "FOUND",
                (false, _) => "absent",
            }
        ))?;
        scan.insert(needle.into(), Value::Bool(found));
        if !kept {
            check(!found, "purged bytes are gone from the file")?;
        }
    }
    out.step("scan_file", json!({ "found": scan }));
    if json {
        super::print_json(&json!({
            "ok": true, "events": report.events, "path": path, "steps": out.steps,
        }))?;
    } else {
        outln!("demo ok: store kept at {}", path.display());
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
