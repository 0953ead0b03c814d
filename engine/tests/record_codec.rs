//! The record codecs of the store file: format 2 (postcard) round-trips every stored type, and
//! the hand-written format-1 reader ([`oubli::storage::format1`]) agrees with bincode 2 on
//! `fixtures/format1_records.jsonl`: values of every stored type drawn from the strategies
//! below, each with its bincode 2 (standard configuration) bytes, written once by bincode
//! before the engine dropped it (the generator, `generate_corpus`, is in the commit that added
//! the file).
use std::collections::BTreeMap;

use oubli::*;
use proptest::prelude::*;

fn int() -> impl Strategy<Value = u64> {
    prop_oneof![
        0..251u64,
        251..65_536u64,
        65_536..(1u64 << 32),
        any::<u64>()
    ]
}
fn sint() -> impl Strategy<Value = i64> {
    prop_oneof![-300..300i64, any::<i32>().prop_map(i64::from), any::<i64>()]
}
fn text() -> impl Strategy<Value = String> {
    prop_oneof![6 => "\\PC{0,20}", 1 => "\\PC{240,300}"]
}
fn short() -> impl Strategy<Value = String> {
    prop_oneof![6 => "\\PC{0,12}", 1 => "[a-z]{250,260}"]
}
fn float() -> impl Strategy<Value = f64> {
    prop_oneof![
        0.0..=1.0f64,
        any::<f64>().prop_filter("finite", |f| f.is_finite())
    ]
}
fn depth() -> impl Strategy<Value = Depth> {
    prop_oneof![
        Just(Depth::Pinned),
        Just(Depth::Void),
        float().prop_map(Depth::Level)
    ]
}
fn kind() -> impl Strategy<Value = Kind> {
    prop_oneof![Just(Kind::Source), Just(Kind::Derived), Just(Kind::Note)]
}
fn h32() -> impl Strategy<Value = [u8; 32]> {
    any::<[u8; 32]>()
}
fn decimal() -> impl Strategy<Value = Decimal> {
    ("-?[0-9]{1,20}(\\.[0-9]{1,8})?").prop_map(|s| Decimal::parse(&s).unwrap())
}
fn row() -> impl Strategy<Value = Row> {
    (
        (
            int(),
            short(),
            proptest::option::of(short()),
            proptest::option::of(text()),
            kind(),
        ),
        proptest::collection::btree_map(short(), short(), 0..6),
        (sint(), sint(), proptest::option::of(sint()), depth()),
        (
            proptest::collection::vec(int(), 0..5),
            proptest::option::of(int()),
            proptest::option::of(int()),
            int(),
        ),
    )
        .prop_map(
            |(
                (id, namespace, key, text, kind),
                metadata,
                (created_at, surfaced_at, valid_until, depth),
                (derived_from, superseded_by, supersedes, created_seq),
            )| Row {
                id,
                namespace,
                key,
                text,
                kind,
                metadata,
                created_at,
                surfaced_at,
                valid_until,
                depth,
                derived_from,
                superseded_by,
                supersedes,
                created_seq,
            },
        )
}
fn policy() -> impl Strategy<Value = DecayPolicy> {
    (
        proptest::option::of(sint()),
        proptest::option::of(sint()),
        float(),
    )
        .prop_map(|(half_life_ms, ttl_ms, floor)| DecayPolicy {
            half_life_ms,
            ttl_ms,
            floor,
        })
}
fn alias() -> impl Strategy<Value = AliasGroup> {
    (
        int(),
        short(),
        prop_oneof![
            Just(AliasKind::Person),
            Just(AliasKind::Account),
            Just(AliasKind::Identifier),
            Just(AliasKind::Other)
        ],
        proptest::collection::vec(short(), 0..5),
        h32(),
    )
        .prop_map(|(id, namespace, kind, forms, salt)| AliasGroup {
            id,
            namespace,
            kind,
            forms,
            salt,
        })
}
fn provenance() -> impl Strategy<Value = Provenance> {
    (
        proptest::collection::vec(
            (int(), int(), h32()).prop_map(|(id, version, commitment)| SourceRef {
                id,
                version,
                commitment,
            }),
            0..4,
        ),
        proptest::option::of(
            proptest::collection::vec(short(), 1..3).prop_map(Derivation::sum_of_products),
        ),
        proptest::option::of(decimal()),
        proptest::option::of(text()),
    )
        .prop_map(|(sources, derivation, claimed, template)| Provenance {
            sources,
            derivation,
            claimed,
            template,
        })
}
fn note() -> impl Strategy<Value = Note> {
    let check = (
        int(),
        short(),
        proptest::option::of(decimal()),
        proptest::option::of(decimal()),
        prop_oneof![
            Just(CheckStatus::Match),
            Just(CheckStatus::Mismatch),
            Just(CheckStatus::Unverifiable)
        ],
        proptest::collection::vec(int(), 0..3),
    )
        .prop_map(
            |(derived, derivation, claimed, recomputed, status, missing)| Check {
                derived,
                derivation,
                claimed,
                recomputed,
                status,
                missing,
            },
        );
    let line = (
        int(),
        prop_oneof![
            Just(LineKind::Determining),
            Just(LineKind::Other),
            Just(LineKind::Derived)
        ],
    )
        .prop_map(|(id, kind)| NoteLine { id, kind });
    (
        (
            proptest::option::of(int()),
            proptest::option::of(int()),
            text(),
            int(),
            any::<bool>(),
        ),
        (
            int(),
            int(),
            any::<bool>(),
            proptest::collection::vec(int(), 0..4),
            proptest::collection::vec(int(), 0..4),
            int(),
        ),
        (
            proptest::collection::vec(line, 0..4),
            proptest::collection::vec(check, 0..3),
            h32(),
            proptest::option::of(h32()),
        ),
    )
        .prop_map(
            |(
                (id, seq, text, budget, include_derived),
                (kept, total, complete, answer_determining, dropped, others_total),
                (lines, checks, digest, commitment),
            )| Note {
                id,
                seq,
                text,
                budget: budget as usize,
                include_derived,
                kept: kept as usize,
                total: total as usize,
                complete,
                answer_determining,
                dropped,
                others_total: others_total as usize,
                lines,
                certificate: Certificate { checks },
                digest,
                commitment,
            },
        )
}

const CORPUS: &str = include_str!("fixtures/format1_records.jsonl");

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// Decodes `bytes` with the format-1 reader and checks its JSON form is the recorded one.
fn agrees<T: serde::de::DeserializeOwned + serde::Serialize>(bytes: &[u8], json: &str) {
    let v: T = oubli::storage::format1::decode(bytes).unwrap();
    assert_eq!(serde_json::to_string(&v).unwrap(), json);
}

#[test]
fn format1_reader_agrees_with_bincode_on_the_corpus() {
    let mut seen = BTreeMap::<String, usize>::new();
    for line in CORPUS.lines() {
        let rec: serde_json::Value = serde_json::from_str(line).unwrap();
        let kind = rec["type"].as_str().unwrap();
        let json = rec["json"].as_str().unwrap();
        let bytes = unhex(rec["bincode"].as_str().unwrap());
        match kind {
            "row" => agrees::<Row>(&bytes, json),
            "policy" => agrees::<DecayPolicy>(&bytes, json),
            "alias" => agrees::<AliasGroup>(&bytes, json),
            "provenance" => agrees::<Provenance>(&bytes, json),
            "note" => agrees::<Note>(&bytes, json),
            "payload" => {
                let p = oubli::storage::Payload::decode(&bytes).unwrap();
                assert_eq!(serde_json::to_string(&(&p.text, p.salt)).unwrap(), json);
                // The explicit payload encoding is byte for byte format 1's.
                assert_eq!(p.encode(), bytes);
            }
            other => panic!("unknown record type {other}"),
        }
        // A record cut short or with a byte appended is refused, never misread.
        if !bytes.is_empty() {
            let cut = &bytes[..bytes.len() - 1];
            let longer = [bytes.as_slice(), &[0]].concat();
            for b in [cut, longer.as_slice()] {
                let r = match kind {
                    "row" => oubli::storage::format1::decode::<Row>(b).map(drop),
                    "note" => oubli::storage::format1::decode::<Note>(b).map(drop),
                    "payload" => oubli::storage::Payload::decode(b).map(drop),
                    _ => continue,
                };
                assert!(r.is_err(), "{kind}: a damaged record decoded");
            }
        }
        *seen.entry(kind.to_owned()).or_default() += 1;
    }
    assert_eq!(seen.len(), 6, "{seen:?}");
    assert!(seen.values().all(|&n| n >= 100), "{seen:?}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn format2_round_trips_rows(r in row()) {
        let bytes = oubli::storage::encode(&r).unwrap();
        prop_assert_eq!(oubli::storage::decode::<Row>(&bytes).unwrap(), r);
    }

    #[test]
    fn format2_round_trips_notes_provenance_aliases_policies(
        n in note(), p in provenance(), a in alias(), d in policy()
    ) {
        use oubli::storage::{decode, encode};
        prop_assert_eq!(decode::<Note>(&encode(&n).unwrap()).unwrap(), n);
        prop_assert_eq!(decode::<Provenance>(&encode(&p).unwrap()).unwrap(), p);
        prop_assert_eq!(decode::<AliasGroup>(&encode(&a).unwrap()).unwrap(), a);
        prop_assert_eq!(decode::<DecayPolicy>(&encode(&d).unwrap()).unwrap(), d);
    }

    #[test]
    fn format1_reader_refuses_garbage_without_panicking(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let _ = oubli::storage::format1::decode::<Row>(&bytes);
        let _ = oubli::storage::format1::decode::<Note>(&bytes);
        let _ = oubli::storage::format1::decode::<Provenance>(&bytes);
        let _ = oubli::storage::Payload::decode(&bytes);
    }
}

/// Writes `fixtures/format2_rows.jsonl` with the format-2 engine: rows drawn from [`row`],
/// each with its postcard bytes. Run once, before format 3.
#[test]
#[ignore]
fn generate_format2_corpus() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let mut out = String::new();
    for _ in 0..150 {
        let r = row().new_tree(&mut runner).unwrap().current();
        let bytes = oubli::storage::encode(&r).unwrap();
        let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        let line = serde_json::json!({"postcard": hex, "json": serde_json::to_string(&r).unwrap()});
        out.push_str(&line.to_string());
        out.push('\n');
    }
    std::fs::write(
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/format2_rows.jsonl"),
        out,
    )
    .unwrap();
}
