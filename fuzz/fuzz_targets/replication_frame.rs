//! Replication frame decoding, verification and application: never panics, and never applies.
#![no_main]
use std::sync::{Arc, OnceLock};

use libfuzzer_sys::fuzz_target;
use oubli::replication::Frame;
use oubli::{HashEmbedder, ManualClock, Store, StoreOptions};

/// An in-memory replica with an empty log, made once.
fn replica() -> &'static Store {
    static R: OnceLock<Store> = OnceLock::new();
    R.get_or_init(|| {
        let opts = StoreOptions::default()
            .embedder(Arc::new(HashEmbedder::new(16).unwrap()))
            .clock(Arc::new(ManualClock::new(1_763_700_000_000)))
            .deterministic_seed([1; 32])
            .signing_key([7; 32])
            .replica(true);
        Store::in_memory(opts).unwrap()
    })
}

fuzz_target!(|data: &[u8]| {
    if let Ok(frame) = Frame::decode(data) {
        assert_eq!(frame.encode(), data);
        let _ = frame.verify(&[7u8; 32]);
    }
    // No key but the leader's signs a frame this replica accepts: nothing applies.
    assert!(replica().apply_frame_bytes(data).is_err());
    assert_eq!(replica().head().unwrap().0, 0);
});
