//! Receipt parsing and verification: never panics; an accepted document is canonical.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(r) = oubli_audit::SignedReceipt::verify_document(data, None) {
        assert_eq!(r.to_document().unwrap(), data);
    }
    let _ = oubli_audit::canonical::from_document::<oubli_audit::SignedReceipt>(data, "receipt");
});
