//! Tests of the canonicalization module: every rule and example of the specification, and
//! properties (no panics, valid spans, idempotence, code matching robust to formatting).
//!
//! [`names`] holds the rules of words and names (folding, transliteration, chunks, name forms,
//! variant keys, readings), [`identifiers`] the typed identifiers and codes; this file the
//! helpers they share and the properties over arbitrary text.

mod identifiers;
mod names;

use super::*;
use proptest::prelude::*;

fn forms(t: &str) -> Vec<String> {
    chunks(t).into_iter().map(|c| c.form).collect()
}

/// Every chunk of `a` meets the chunk of `b` at the same position, and the counts agree.
fn names_meet(a: &str, b: &str) -> bool {
    let (ca, cb) = (chunks(a), chunks(b));
    ca.len() == cb.len() && ca.iter().zip(&cb).all(|(x, y)| same_name(x, y))
}

fn ids(t: &str) -> Vec<(IdKind, String)> {
    identifiers(t)
        .into_iter()
        .map(|i| (i.kind, i.canonical))
        .collect()
}

fn one(t: &str) -> (IdKind, String) {
    let v = ids(t);
    assert_eq!(v.len(), 1, "{t:?} -> {v:?}");
    v[0].clone()
}

// --- properties -------------------------------------------------------------------------------

fn messy() -> impl Strategy<Value = String> {
    let atoms = prop::sample::select(vec![
        "a",
        "Z",
        "é",
        "e\u{301}",
        "ß",
        "а",
        "Ж",
        "λ",
        "张",
        "김",
        "カ",
        "र",
        "्",
        "ि",
        "ा",
        "م",
        "ש",
        "ก",
        "1",
        "９",
        "٣",
        "-",
        "_",
        ".",
        "/",
        ":",
        "(",
        ")",
        "+",
        "#",
        "@",
        " ",
        "  ",
        ",",
        "\n",
        "\u{200B}",
        "\u{AD}",
        "\u{301}",
        "ﬁ",
        "ẞ",
        "İ",
        "x",
        "0",
        "TXN",
        "at",
        "dot",
        "[at]",
        // Thai words, function words and marks (cut into words by a dictionary).
        "คุณ",
        "ของ",
        "วิไล",
        "สมชาย",
        "\u{e31}",
        "\u{e4c}",
    ]);
    prop::collection::vec(atoms, 0..24).prop_map(|v| v.concat())
}

fn any_text() -> impl Strategy<Value = String> {
    prop_oneof![messy(), any::<String>(), "[ -~]{0,40}"]
}

fn check_spans(text: &str, spans: impl Iterator<Item = Range<usize>>) {
    let mut last = 0;
    for s in spans {
        assert!(s.start < s.end && s.end <= text.len(), "{s:?} in {text:?}");
        assert!(text.is_char_boundary(s.start) && text.is_char_boundary(s.end));
        assert!(s.start >= last, "overlap at {s:?} in {text:?}");
        last = s.end;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn never_panics_and_spans_valid(t in any_text()) {
        let c = chunks(&t);
        check_spans(&t, c.iter().map(|c| c.span.clone()));
        prop_assert!(c.iter().all(|c| !c.form.is_empty()
            && c.form.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())));
        prop_assert!(c.first().is_none_or(|c| c.gap.is_none()));
        prop_assert!(c.iter().skip(1).all(|c| c.gap.is_some()));
        check_spans(&t, identifiers(&t).into_iter().map(|i| i.span));
        let _ = transliterate(&t);
        prop_assert!(transliterate(&t).is_ascii());
        for w in &c {
            let _ = skeleton(&w.form);
            let _ = exonyms(&w.form);
        }
        if let Some(k) = code(&t) {
            for r in find_code(&c, &k) {
                prop_assert!(t.is_char_boundary(r.start) && t.is_char_boundary(r.end));
            }
        }
    }


    #[test]
    fn variant_key_idempotent(w in prop_oneof!["[a-z]{0,16}", "[a-zA-Z' ]{0,16}", any::<String>()]) {
        let k = variant_key(&w);
        prop_assert_eq!(variant_key(&k), k.clone());
        prop_assert!(k.bytes().all(|b| b.is_ascii_lowercase()));
        let h = hangul_variant_key(&w);
        prop_assert_eq!(hangul_variant_key(&h), h);
    }

    #[test]
    fn find_code_on_chunk_boundaries(t in any_text(), q in "[A-Za-z0-9]{1,8}") {
        let c = chunks(&t);
        let starts: Vec<usize> = c.iter().map(|c| c.span.start).collect();
        let ends: Vec<usize> = c.iter().map(|c| c.span.end).collect();
        for r in find_code(&c, &q) {
            prop_assert!(starts.contains(&r.start) && ends.contains(&r.end));
        }
    }

    #[test]
    fn code_found_across_formatting(
        parts in prop::collection::vec("[A-Za-z]{1,4}|[0-9]{1,5}", 1..5),
        seps in prop::collection::vec(prop::sample::select(vec!["", "-", " ", "_", ".", "/"]), 5),
        upper in any::<bool>(),
        wide in any::<bool>(),
    ) {
        // Chunks of the original: parts glued where letters meet letters or digits meet digits.
        let plain = parts.join("-");
        let Some(k) = code(&plain) else { return Ok(()) };
        let mut t = String::from("ref ");
        for (i, p) in parts.iter().enumerate() {
            if i > 0 {
                let s = seps[i % seps.len()];
                // Keep chunk boundaries: never glue two parts of the same class.
                let same = p.as_bytes()[0].is_ascii_digit()
                    == parts[i - 1].as_bytes()[0].is_ascii_digit();
                t.push_str(if s.is_empty() && same { "-" } else { s });
            }
            let p = if upper { p.to_uppercase() } else { p.to_lowercase() };
            if wide {
                t.extend(p.chars().map(|c| char::from_u32(c as u32 + 0xFEE0).unwrap_or(c)));
            } else {
                t.push_str(&p);
            }
        }
        t.push_str(" ok");
        prop_assert!(!find_code(&chunks(&t), &k).is_empty(), "{} not in {}", k, t);
    }
}

#[test]
fn pathological_inputs_stay_linear() {
    let cases = [
        "a.".repeat(40_000),
        "1.".repeat(40_000),
        format!("http://{}", ")".repeat(40_000)),
        "a-".repeat(40_000),
        "@a".repeat(40_000),
        "1 ".repeat(40_000),
        "x at y dot ".repeat(8_000),
        "ab".repeat(40_000),
        "е".repeat(40_000),
        "張".repeat(20_000),
    ];
    let start = std::time::Instant::now();
    for t in &cases {
        let c = chunks(t);
        let _ = identifiers(t);
        let _ = fold(t);
        let _ = find_code(&c, "A1B2C3D4");
        let _ = find_code(&c, "1111111111");
    }
    // Generous bound: quadratic behaviour on these inputs takes minutes.
    assert!(start.elapsed() < std::time::Duration::from_secs(60));
}

// Folding twice gives what folding once gave: `fold` is the fixed point of one folding pass
// (see its docs). Before canonicalizer 3 it was one pass, and a fresh CI run found rare inputs
// where a second pass changed the text again (a compatibility form of a mark, an NFKC expansion
// holding a separator, a dropped character that had kept two scripts apart).
proptest! {
    #![proptest_config(ProptestConfig { cases: 2048, ..ProptestConfig::default() })]

    #[test]
    fn fold_idempotent(t in any_text()) {
        let f = fold(&t);
        prop_assert_eq!(fold(&f), f);
    }
}

#[test]
fn fold_is_a_fixed_point_where_one_pass_is_not() {
    // The halfwidth voiced sound mark is a separator; its NFKC form, a combining mark, is not.
    let t = "a\u{ff9e}b";
    let once = fold_pass(t);
    assert_ne!(fold_pass(&once), once, "one pass is not idempotent here");
    let f = fold(t);
    assert_eq!(fold(&f), f);
    assert_eq!(f, fold_pass(&once));
}
