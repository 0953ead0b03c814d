//! Opening parsing: never panics; an accepted document is canonical.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(o) = oubli_audit::Opening::parse(data) {
        assert_eq!(o.to_document().unwrap(), data);
        let _ = o.digest();
    }
});
