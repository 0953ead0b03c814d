//! The canonicalizer (normalization, tokens, fragments, probe generation): never panics on any
//! UTF-8, and is idempotent where it promises to be.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else { return };
    let n = oubli::text::normalize(s);
    let _ = oubli::text::tokens(s);
    let _ = oubli::text::content_tokens(s);
    let f = oubli_audit::commitment::fragments(s);
    // Fragments of the joined fragments are the fragments.
    assert_eq!(oubli_audit::commitment::fragments(&f.join(" ")), f);
    let _ = n;
    for p in oubli::residual::probes(s) {
        let _ = oubli::residual::classify(s, &p);
    }
});
