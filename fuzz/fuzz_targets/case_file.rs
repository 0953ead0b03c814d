//! Case-file parsing (ForgetEval JSONL and the scenario format): never panics; errors carry a
//! line number.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else { return };
    let _ = oubli_bench::case::parse_jsonl("fuzz", s);
});
