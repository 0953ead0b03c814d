//! Generates engine/tests/fixtures/format2.oubli with the format-2 (postcard) code. Run once.
use std::sync::Arc;
use oubli::*;

#[test]
#[ignore]
fn generate() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/format2.oubli");
    let _ = std::fs::remove_file(&path);
    let clock = Arc::new(ManualClock::new(1_763_700_000_000));
    let opts = StoreOptions::default()
        .clock(clock.clone())
        .embedder(Arc::new(HashEmbedder::new(64).unwrap()))
        .deterministic_seed([42; 32])
        .signing_key([7; 32]);
    let s = Store::create_with(&path, opts).unwrap();
    let a = s.inscribe(Inscription::new("Ana's door code is 4417").namespace("user:ana").key("door").meta("topic", "home").meta("n", "3")).unwrap();
    clock.advance(1000);
    s.inscribe(Inscription::new("Ana likes green tea").namespace("user:ana").meta("topic", "food")).unwrap();
    s.inscribe(Inscription::new("7 pens at $2 each").namespace("shop").meta("price", "2").meta("qty", "7")).unwrap();
    s.inscribe(Inscription::new("3 mugs at $4.50 each").namespace("shop").meta("price", "4.50").meta("qty", "3")).unwrap();
    let total = s.inscribe_derived(Inscription::new("The subtotal is ${value}").namespace("shop").derived_from([3, 4]), Derivation::sum_of_products(["price", "qty"])).unwrap();
    clock.advance(1000);
    s.supersede(Target::key("user:ana", "door"), Inscription::new("Ana's door code is 9051").namespace("user:ana").key("door").meta("topic", "home")).unwrap();
    s.inscribe(Inscription::new("Bob's locker is number 12").namespace("user:bob").meta("topic", "work").valid_until(1_763_800_000_000)).unwrap();
    s.inscribe(Inscription::new("Bob parks on level 3").namespace("user:bob")).unwrap();
    s.release(Target::query("Bob parks on level 3")).unwrap();
    s.declare_alias("user:bob", AliasKind::Person, &["Bob", "Robert Smith"]).unwrap();
    s.declare_alias("user:ana", AliasKind::Person, &["Ana", "Ana Lima"]).unwrap();
    s.set_decay_policy("user:bob", Some(DecayPolicy { half_life_ms: Some(86_400_000), ttl_ms: None, floor: 0.05 })).unwrap();
    s.compact(&CompactScope::namespace("shop"), &CompactOptions::new(400).include_derived(true)).unwrap();
    clock.advance(1000);
    s.inscribe(Inscription::new("Carla's passport number is X1234567").namespace("user:carla").key("passport")).unwrap();
    s.declare_alias("user:carla", AliasKind::Person, &["Carla", "Carla Diaz"]).unwrap();
    let r = s.purge(Target::key("user:carla", "passport")).unwrap();
    eprintln!("purge seq {} erased {:?} total {} a {}", r.seq, r.erased, total.id, a);
    let (seq, head) = s.head().unwrap();
    eprintln!("head {seq} {}", head.iter().map(|b| format!("{b:02x}")).collect::<String>());
    s.verify_log(None).unwrap();
    s.close().unwrap();
}
