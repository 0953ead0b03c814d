//! Writes the fixtures `oubli-audit`'s tests verify: a small deterministic store after a GDPR
//! purge, its receipt and its opening.
//!
//! `cargo run -p oubli-db --example audit_fixture -- audit/tests/fixtures`

use std::sync::Arc;

use oubli::{Inscription, ManualClock, Store, StoreOptions, Target};

fn main() -> oubli::Result<()> {
    let dir = std::path::PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "audit/tests/fixtures".into()),
    );
    std::fs::create_dir_all(&dir)?;
    let path = dir.join("store.oubli");
    let _ = std::fs::remove_file(&path);
    let opts = StoreOptions::default()
        .clock(Arc::new(ManualClock::new(1_763_700_000_000)))
        .deterministic_seed([42; 32])
        .signing_key([7; 32]);
    let s = Store::create_with(&path, opts)?;
    for t in [
        "Maria Keller's email is maria.keller@example.com",
        "Maria Keller's phone number is +49 30 5550 1188",
        "Jonas Weber's email is jonas.weber@example.com",
        "The quarterly report is due on the 15th",
    ] {
        s.inscribe(Inscription::new(t).namespace("crm"))?;
    }
    let r = s.purge(Target::query_in("crm", "Maria Keller"))?;
    std::fs::write(dir.join("receipt.json"), r.receipt.to_document()?)?;
    std::fs::write(dir.join("opening.json"), r.opening.to_document()?)?;
    std::fs::write(
        dir.join("pubkey.hex"),
        oubli::audit::hex::encode(&s.public_key()?),
    )?;
    println!("wrote fixtures to {}", dir.display());
    Ok(())
}
