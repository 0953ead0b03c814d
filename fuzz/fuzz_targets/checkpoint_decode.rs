//! Checkpoint decoding and verification: never panics.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(cp) = oubli_audit::Checkpoint::decode(data) {
        assert_eq!(&cp.encode()[..], data);
        let _ = cp.verify(&[7u8; 32]);
    }
});
