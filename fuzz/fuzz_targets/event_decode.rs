//! Log entry decoding: never panics, and whatever decodes re-encodes to the same bytes.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(ev) = oubli_audit::Event::decode(data) {
        assert_eq!(ev.encode(), data);
    }
});
