//! Purge receipts: signed, canonical, revealing nothing without the opening, covering exactly
//! what was erased, and checkable against the store file offline.

use crate::common;

use common::*;
use oubli::audit::store_check::check_store;
use oubli::audit::{AuditError, Coverage, Opening, SignedReceipt};
use oubli::{Inscription, Kind, Store, StoreOptions, Target};
use proptest::prelude::*;

fn gdpr_store(t: &TempStore) -> Store {
    let (s, _) = create_fixed(t);
    s.inscribe(
        Inscription::new("Maria Keller's email is maria.keller@example.com").namespace("crm"),
    )
    .unwrap();
    s.inscribe(
        Inscription::new("Maria Keller's phone number is +49 30 5550 1188").namespace("crm"),
    )
    .unwrap();
    s.inscribe(Inscription::new("Jonas Weber's email is jonas.weber@example.com").namespace("crm"))
        .unwrap();
    s.inscribe(Inscription::new("Maria Kellerman owns the bakery on Elm street").namespace("crm"))
        .unwrap();
    s
}

#[test]
fn a_purge_returns_a_verifiable_receipt_and_opening() {
    let t = temp();
    let s = gdpr_store(&t);
    let pk = s.public_key().unwrap();
    let r = s.purge(Target::query_in("crm", "Maria Keller")).unwrap();
    assert_eq!(r.erased, vec![1, 2]);
    let doc = r.receipt.to_document().unwrap();
    // Stored in the file, byte for byte, and listable.
    assert_eq!(s.receipt_document(r.seq).unwrap(), doc);
    assert_eq!(s.receipts().unwrap().len(), 1);
    let receipt = SignedReceipt::verify_document(&doc, Some(&pk)).unwrap();
    assert_eq!(receipt.body.purge_id, r.seq);
    assert_eq!(receipt.body.engine_version, oubli::ENGINE_VERSION);
    assert!(receipt.body.residual_audit.clean, "{:?}", r.audit);
    assert!(receipt.body.residual_audit.control_compared);
    assert!(receipt.body.residual_audit.probes > 10);
    assert_eq!(receipt.body.erasure.completion_seq, r.completion_seq);

    // The receipt reveals no content: no plaintext, and commitments are salted.
    let text = String::from_utf8(doc.clone()).unwrap();
    // (Digits alone could occur inside hex; the phone number with its space cannot.)
    for needle in [
        "maria",
        "Maria",
        "5550 1188",
        "example.com",
        "Keller",
        "email",
    ] {
        assert!(!text.contains(needle), "receipt leaks {needle}");
    }

    // The data subject's opening proves coverage of what they know.
    let opening_doc = r.opening.to_document().unwrap();
    let opening = Opening::parse(&opening_doc).unwrap();
    receipt.check_opening(&opening).unwrap();
    assert_eq!(
        receipt
            .covers(&opening, "Maria Keller's email is maria.keller@example.com")
            .unwrap(),
        Coverage::FullText(1)
    );
    assert_eq!(
        receipt
            .covers(&opening, "maria.keller@example.com")
            .unwrap(),
        Coverage::Fragments(1)
    );
    assert_eq!(
        receipt.covers(&opening, "+49 30 5550 1188").unwrap(),
        Coverage::Fragments(2)
    );
    for other in [
        "jonas.weber@example.com",
        "+49 30 5550 1189",
        "Maria Kellerman",
    ] {
        assert!(
            matches!(
                receipt.covers(&opening, other),
                Err(AuditError::Mismatch(_))
            ),
            "{other}"
        );
    }

    // Offline check of the file: chain, purge event, completion point, no payloads, no bytes.
    drop(s);
    let rep = check_store(
        &t.path,
        &receipt,
        &doc,
        &["maria.keller@example.com".into(), "5550 1188".into()],
    )
    .unwrap();
    assert!(rep.receipt_stored);
    // The unrelated sibling and the near-namesake survive.
    let s = Store::open_with(&t.path, StoreOptions::default().signing_key([7; 32])).unwrap();
    assert!(s.get(3).unwrap().text.is_some());
    assert!(s.get(4).unwrap().text.is_some());
}

#[test]
fn a_small_secret_cannot_be_brute_forced_from_the_receipt() {
    let t = temp();
    let (s, _) = create_fixed(&t);
    s.inscribe(Inscription::new("4417").key("pin")).unwrap();
    let r = s.purge(Target::key("default", "pin")).unwrap();
    // Try every 4-digit PIN against every commitment with every salt an attacker could know
    // (none: the salt is only in the opening). Without the opening, no guess matches.
    let erased = &r.receipt.body.erased[0];
    let zero = [0u8; 32];
    for pin in 0..10_000 {
        let guess = format!("{pin:04}");
        assert_ne!(
            oubli::audit::commitment::content(&zero, &guess),
            erased.commitment
        );
    }
    // With the opening, the data subject confirms it.
    assert!(r.receipt.covers(&r.opening, "4417").is_ok());
    assert!(r.receipt.covers(&r.opening, "4418").is_err());
}

#[test]
fn the_receipt_lists_the_cascade() {
    let t = temp();
    let (s, _) = create_fixed(&t);
    let src = s
        .inscribe(Inscription::new("Invoice INV-2291 total is 480 EUR"))
        .unwrap();
    let sup = s
        .supersede(
            Target::id(src),
            Inscription::new("Invoice INV-2291 total is 520 EUR"),
        )
        .unwrap();
    let note = s
        .inscribe(
            Inscription::new("Q3 invoices sum to 520 EUR")
                .kind(Kind::Note)
                .derived_from([sup.new_id]),
        )
        .unwrap();
    let r = s.purge(Target::query("INV-2291")).unwrap();
    assert_eq!(r.erased, vec![src, sup.new_id, note]);
    let vias: Vec<(u64, &str)> = r
        .receipt
        .body
        .cascade
        .iter()
        .map(|c| (c.row, c.via.as_str()))
        .collect();
    assert!(vias.contains(&(note, "note")), "{vias:?}");
}

fn purged() -> (Vec<u8>, Vec<u8>, [u8; 32]) {
    let t = temp();
    let s = gdpr_store(&t);
    let r = s.purge(Target::query_in("crm", "Maria Keller")).unwrap();
    (
        r.receipt.to_document().unwrap(),
        r.opening.to_document().unwrap(),
        s.public_key().unwrap(),
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, .. ProptestConfig::default() })]

    /// Flipping, inserting or deleting any byte of a receipt or an opening is detected.
    #[test]
    fn tampering_is_detected(pos in any::<prop::sample::Index>(), byte in any::<u8>(), op in 0..3u8, which in 0..2u8) {
        static DOCS: std::sync::OnceLock<(Vec<u8>, Vec<u8>, [u8; 32])> = std::sync::OnceLock::new();
        let (receipt, opening, pk) = DOCS.get_or_init(purged);
        let target = if which == 0 { receipt } else { opening };
        let mut bad = target.clone();
        let i = pos.index(bad.len());
        match op {
            0 => { if bad[i] == byte { bad[i] ^= 0x01 } else { bad[i] = byte } }
            1 => bad.insert(i, byte),
            _ => { bad.remove(i); }
        }
        let result = (|| -> oubli::audit::Result<()> {
            let (r, o) = if which == 0 { (&bad, opening) } else { (receipt, &bad) };
            let r = SignedReceipt::verify_document(r, Some(pk))?;
            let o = Opening::parse(o)?;
            r.check_opening(&o)
        })();
        prop_assert!(result.is_err(), "undetected {op} at {i} in {}", if which == 0 { "receipt" } else { "opening" });
    }
}
