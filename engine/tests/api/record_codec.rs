//! The record codecs of the store file: format 3 (postcard, typed metadata) round-trips every
//! stored type and the independent verifier's row reader agrees with it; the hand-written
//! format-1 reader ([`oubli::storage::format1`]) agrees with bincode 2 on
//! `fixtures/format1_records.jsonl`: values of every stored type drawn from the strategies
//! below, each with its bincode 2 (standard configuration) bytes, written once by bincode
//! before the engine dropped it (the generator, `generate_corpus`, is in the commit that added
//! the file); the format-2 row record ([`oubli::storage::migrate::RowFormat2`]) and the
//! verifier's format-2 reader agree with `fixtures/format2_rows.jsonl`, rows with their
//! postcard bytes written once by the format-2 engine (the generator, `generate_format2_corpus`,
//! is in the commit that added the file).
use std::collections::BTreeMap;

use oubli::audit::row_record::RowRecord;
use oubli::storage::migrate::RowFormat2;
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
        // The only levels the engine writes (depth deserialization refuses any other).
        (0.0..=1.0f64).prop_map(Depth::Level)
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
fn scalar() -> impl Strategy<Value = Scalar> {
    prop_oneof![
        short().prop_map(Scalar::Str),
        sint().prop_map(Scalar::Int),
        float().prop_map(Scalar::Float),
        any::<bool>().prop_map(Scalar::Bool),
    ]
}
fn meta_value() -> impl Strategy<Value = MetaValue> {
    prop_oneof![
        4 => scalar().prop_map(MetaValue::from),
        1 => proptest::collection::vec(scalar(), 0..5).prop_map(MetaValue::List),
    ]
}
/// A row of format 3 (typed metadata).
fn row() -> impl Strategy<Value = Row> {
    (
        row_format2(),
        proptest::collection::btree_map(short(), meta_value(), 0..6),
    )
        .prop_map(|(r, metadata)| Row {
            metadata,
            ..Row::from(r)
        })
}
/// A row record of formats 1 and 2 (string metadata).
fn row_format2() -> impl Strategy<Value = RowFormat2> {
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
            )| RowFormat2 {
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

const CORPUS: &str = include_str!("../fixtures/format1_records.jsonl");

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// Decodes `bytes` with the format-1 reader and checks its JSON form is the recorded one.
/// The format-1 reader gives the corpus value, or refuses the record when the value itself is
/// one the engine refuses to read (the corpus was drawn before depth levels outside `[0, 1]`
/// became a decoding error). Returns whether the record was accepted.
fn agrees<T: serde::de::DeserializeOwned + serde::Serialize>(bytes: &[u8], json: &str) -> bool {
    let decoded = oubli::storage::format1::decode::<T>(bytes);
    match serde_json::from_str::<T>(json) {
        Ok(_) => {
            let v = decoded.unwrap();
            assert_eq!(serde_json::to_string(&v).unwrap(), json);
            true
        }
        Err(_) => {
            assert!(decoded.is_err(), "the format-1 reader accepted {json}");
            false
        }
    }
}

#[test]
fn format1_reader_agrees_with_bincode_on_the_corpus() {
    let mut seen = BTreeMap::<String, (usize, usize)>::new();
    for line in CORPUS.lines() {
        let rec: serde_json::Value = serde_json::from_str(line).unwrap();
        let kind = rec["type"].as_str().unwrap();
        let json = rec["json"].as_str().unwrap();
        let bytes = unhex(rec["bincode"].as_str().unwrap());
        let accepted = match kind {
            "row" => agrees::<RowFormat2>(&bytes, json),
            "policy" => agrees::<DecayPolicy>(&bytes, json),
            "alias" => agrees::<AliasGroup>(&bytes, json),
            "provenance" => agrees::<Provenance>(&bytes, json),
            "note" => agrees::<Note>(&bytes, json),
            "payload" => {
                let p = oubli::storage::Payload::decode(&bytes).unwrap();
                assert_eq!(serde_json::to_string(&(&p.text, p.salt)).unwrap(), json);
                // The explicit payload encoding is byte for byte format 1's.
                assert_eq!(p.encode(), bytes);
                true
            }
            other => panic!("unknown record type {other}"),
        };
        // A record cut short or with a byte appended is refused, never misread.
        if !bytes.is_empty() {
            let cut = &bytes[..bytes.len() - 1];
            let longer = [bytes.as_slice(), &[0]].concat();
            for b in [cut, longer.as_slice()] {
                let r = match kind {
                    "row" => oubli::storage::format1::decode::<RowFormat2>(b).map(drop),
                    "note" => oubli::storage::format1::decode::<Note>(b).map(drop),
                    "payload" => oubli::storage::Payload::decode(b).map(drop),
                    _ => continue,
                };
                assert!(r.is_err(), "{kind}: a damaged record decoded");
            }
        }
        let counts = seen.entry(kind.to_owned()).or_default();
        counts.0 += usize::from(accepted);
        counts.1 += usize::from(!accepted);
    }
    eprintln!("(accepted, refused) per record type: {seen:?}");
    assert_eq!(seen.len(), 6, "{seen:?}");
    assert!(seen.values().all(|&(ok, _)| ok >= 80), "{seen:?}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn format3_round_trips_rows_and_the_verifier_reads_them(r in row()) {
        let bytes = oubli::storage::encode(&r).unwrap();
        prop_assert_eq!(oubli::storage::decode::<Row>(&bytes).unwrap(), r.clone());
        let rec = RowRecord::decode_format(&bytes, 3).unwrap();
        prop_assert_eq!(rec.id, r.id);
        prop_assert_eq!(&rec.namespace, &r.namespace);
        prop_assert_eq!(&rec.key, &r.key);
        prop_assert_eq!(&rec.text, &r.text);
        let meta: Vec<(String, oubli::audit::MetaValue)> =
            r.metadata.iter().map(|(k, v)| (k.clone(), v.to_audit())).collect();
        prop_assert_eq!(&rec.metadata, &meta);
        prop_assert_eq!(rec.created_seq, r.created_seq);
        prop_assert_eq!(&rec.derived_from, &r.derived_from);
        prop_assert_eq!((rec.superseded_by, rec.supersedes), (r.superseded_by, r.supersedes));
        prop_assert_eq!((rec.created_at, rec.surfaced_at, rec.valid_until), (r.created_at, r.surfaced_at, r.valid_until));
        // Cut short or lengthened, the record is refused by both readers.
        let cut = &bytes[..bytes.len() - 1];
        let longer = [bytes.as_slice(), &[0]].concat();
        for b in [cut, longer.as_slice()] {
            prop_assert!(oubli::storage::decode::<Row>(b).is_err());
            prop_assert!(RowRecord::decode_format(b, 3).is_err());
        }
    }

    #[test]
    fn format3_decoders_refuse_garbage_without_panicking(
        bytes in proptest::collection::vec(any::<u8>(), 0..200)
    ) {
        let engine = oubli::storage::decode::<Row>(&bytes);
        let verifier = RowRecord::decode_format(&bytes, 3);
        if let Err(e) = &engine {
            prop_assert!(matches!(e, Error::Corrupt(_)), "{e:?}");
        }
        // What the engine reads, the verifier reads the same way.
        if let Ok(r) = engine {
            let rec = verifier.unwrap();
            let meta: Vec<(String, oubli::audit::MetaValue)> =
                r.metadata.iter().map(|(k, v)| (k.clone(), v.to_audit())).collect();
            prop_assert_eq!(rec.metadata, meta);
        }
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

const FORMAT2_ROWS: &str = include_str!("../fixtures/format2_rows.jsonl");

#[test]
fn format2_rows_read_and_migrate_as_the_format2_engine_wrote_them() {
    let mut n = 0;
    let mut with_meta = 0;
    for line in FORMAT2_ROWS.lines() {
        let rec: serde_json::Value = serde_json::from_str(line).unwrap();
        let bytes = unhex(rec["postcard"].as_str().unwrap());
        let json = rec["json"].as_str().unwrap();
        if serde_json::from_str::<RowFormat2>(json).is_err() {
            // A depth level outside [0, 1] (drawn by the generator, never written by the
            // engine): now refused by the decoder, as corruption.
            assert!(
                oubli::storage::decode::<RowFormat2>(&bytes).is_err(),
                "{json}"
            );
            continue;
        }
        let old: RowFormat2 = oubli::storage::decode(&bytes).unwrap();
        assert_eq!(serde_json::to_string(&old).unwrap(), json);
        // The verifier's format-2 reader agrees.
        let audit = RowRecord::decode_format(&bytes, 2).unwrap();
        let strings: Vec<(String, oubli::audit::MetaValue)> = old
            .metadata
            .iter()
            .map(|(k, v)| (k.clone(), oubli::audit::MetaValue::Str(v.clone())))
            .collect();
        assert_eq!(audit.metadata, strings);
        // Migrated: every string stays a string, every other field is kept, and the JSON
        // form (strings print as strings) is the format-2 engine's.
        let new = Row::from(old.clone());
        assert!(
            new.metadata
                .values()
                .all(|v| matches!(v, MetaValue::Str(_)))
        );
        assert_eq!(serde_json::to_string(&new).unwrap(), json);
        let reencoded = oubli::storage::encode(&new).unwrap();
        assert_eq!(oubli::storage::decode::<Row>(&reencoded).unwrap(), new);
        if !old.metadata.is_empty() {
            with_meta += 1;
        }
        n += 1;
    }
    assert!(
        n >= 100 && with_meta >= 50,
        "{n} rows, {with_meta} with metadata"
    );
}

#[test]
fn non_finite_floats_in_a_record_are_corruption() {
    let r = Row {
        metadata: [("x".to_owned(), MetaValue::Float(1.5))].into(),
        ..plain_row(Depth::Level(1.0))
    };
    let bytes = oubli::storage::encode(&r).unwrap();
    let at = bytes
        .windows(8)
        .position(|w| w == 1.5f64.to_le_bytes())
        .unwrap();
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let mut b = bytes.clone();
        b[at..at + 8].copy_from_slice(&bad.to_le_bytes());
        assert!(matches!(
            oubli::storage::decode::<Row>(&b),
            Err(Error::Corrupt(_))
        ));
        assert!(RowRecord::decode_format(&b, 3).is_err());
    }
}

/// Found by the `record_decode` fuzz target: a row record whose depth level was NaN decoded,
/// giving a depth that compares with nothing. Levels the engine never writes (NaN, infinities,
/// outside `[0, 1]`) are corruption; both zeros still read back bit for bit.
#[test]
fn depth_levels_the_engine_never_writes_are_corruption() {
    let row = plain_row;
    for level in [
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        -0.5,
        1.5,
        f64::MAX,
    ] {
        let bytes = oubli::storage::encode(&row(Depth::Level(level))).unwrap();
        assert!(
            matches!(
                oubli::storage::decode::<Row>(&bytes),
                Err(Error::Corrupt(_))
            ),
            "{level}"
        );
    }
    for level in [0.0, -0.0, 0.5, 1.0] {
        let bytes = oubli::storage::encode(&row(Depth::Level(level))).unwrap();
        let back = oubli::storage::decode::<Row>(&bytes).unwrap();
        assert!(back.depth.identical(Depth::Level(level)), "{level}");
    }
}

/// A minimal row record with `depth` and no metadata.
fn plain_row(depth: Depth) -> Row {
    Row::from(RowFormat2 {
        id: 1,
        namespace: "n".into(),
        key: None,
        text: None,
        kind: Kind::Source,
        metadata: Default::default(),
        created_at: 0,
        surfaced_at: 0,
        valid_until: None,
        depth,
        derived_from: vec![],
        superseded_by: None,
        supersedes: None,
        created_seq: 1,
    })
}
