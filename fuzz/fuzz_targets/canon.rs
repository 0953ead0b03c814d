//! The canonicalization module (`oubli::canon`): chunks, identifiers, code matching, folding and
//! variant keys never panic on any UTF-8, spans are ordered char-boundary ranges of the input,
//! `fold` and `variant_key` are idempotent, and a code is found in the text it came from.
#![no_main]
use libfuzzer_sys::fuzz_target;
use oubli::canon;

fn check_span(s: &str, r: &std::ops::Range<usize>, last: &mut usize) {
    assert!(r.start < r.end && r.end <= s.len());
    assert!(s.is_char_boundary(r.start) && s.is_char_boundary(r.end));
    assert!(r.start >= *last);
    *last = r.end;
}

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    let chunks = canon::chunks(s);
    let mut last = 0;
    for c in &chunks {
        check_span(s, &c.span, &mut last);
        let k = canon::variant_key(&c.form);
        assert_eq!(canon::variant_key(&k), k);
        let _ = canon::skeleton(&c.form);
    }
    let mut last = 0;
    for id in canon::identifiers(s) {
        check_span(s, &id.span, &mut last);
    }
    let f = canon::fold(s);
    assert_eq!(canon::fold(&f), f);
    let _ = canon::transliterate(s);
    if let Some(code) = canon::code(s) {
        let starts: Vec<usize> = chunks.iter().map(|c| c.span.start).collect();
        let ends: Vec<usize> = chunks.iter().map(|c| c.span.end).collect();
        for r in canon::find_code(&chunks, &code) {
            assert!(starts.contains(&r.start) && ends.contains(&r.end));
        }
    }
    // Codes of each chunk pair are found where they came from.
    for w in chunks.windows(2).take(64) {
        let q = format!("{}{}", w[0].form, w[1].form);
        if w[1].gap == Some(canon::Gap::Joiner) && q.bytes().any(|b| b.is_ascii_digit()) {
            assert!(!canon::find_code(&chunks, &q).is_empty());
        }
    }
});
