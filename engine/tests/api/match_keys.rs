//! The match keys and the canonical forms they are built from, pinned.
//!
//! The keys of every row are persisted in the text index and compared with a query's keys at
//! query time; the canonicalizer is versioned ([`oubli::canon::CANONICALIZER_VERSION`]), so a
//! change of any output without a version change would silently split stored rows from new
//! queries. These digests were computed from the code before the match keys were optimized
//! (issue 16, fourth pass) and must not move unless the version does.
//!
//! Corpus: every string of every case file of `benches/cases` and of the eight authors of
//! `benches/blind/tuning` the digests were pinned over (setup facts, mutation queries, final queries, expectations), and a seeded generated corpus of
//! mixed-script strings (names in ten scripts, identifiers of every kind, digits of several
//! scripts, punctuation, case-changing letters such as `İ` and `ẞ`, marks, ignorables,
//! compatibility characters).

use std::path::{Path, PathBuf};

use oubli::canon;
use oubli::index::keys::{query_keys, row_keys};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn strings_of(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(a) => a.iter().for_each(|x| strings_of(x, out)),
        serde_json::Value::Object(o) => o.values().for_each(|x| strings_of(x, out)),
        _ => {}
    }
}

/// Every string of the case files, in file and line order.
fn case_texts() -> Vec<String> {
    let mut files = Vec::new();
    for e in std::fs::read_dir(repo().join("benches/cases")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "jsonl") {
            files.push(p);
        }
    }
    // The tuning authors the digests were pinned over: a new author's file must not move them.
    for author in ["a01", "a02", "a04", "a05", "a06", "a12", "a14", "a15"] {
        files.push(repo().join(format!("benches/blind/tuning/{author}.jsonl")));
    }
    files.sort();
    let mut out = Vec::new();
    for f in files {
        for line in std::fs::read_to_string(&f).unwrap().lines() {
            if line.trim().is_empty() {
                continue;
            }
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            strings_of(&v, &mut out);
        }
    }
    out
}

/// splitmix64: a fixed generator, so the corpus is the same on every platform and run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const PIECES: &[&str] = &[
    "Mikhail",
    "Solovyov",
    "Михаил",
    "Соловьёв",
    "Zhang Wei",
    "张伟",
    "佐藤",
    "金",
    "김민준",
    "Σωκράτης",
    "Αθήνα",
    "Μπαμπης",
    "محمد",
    "فاطمة",
    "יוסי כהן",
    "רבקה",
    "राहुल शर्मा",
    "राजकुमार",
    "すずき",
    "カタカナ",
    "สวัสดี",
    "Moskau",
    "Москва",
    "東京",
    "München",
    "Müller",
    "Gross",
    "Straße",
    "GROẞ",
    "İstanbul",
    "ıi",
    "Ǆemal",
    "ﬁle",
    "Ｔｘｎ４４８１",
    "TXN-4481",
    "txn 4481",
    "+1 (415) 555-0132",
    "0044 20 7946 0958",
    "14155550132",
    "alice@example.com",
    "аlice@example.com",
    "Bob.Smith+tag@gmail.com",
    "alice at example dot com",
    "carol [at] example [dot] org",
    "@Zoë_Ward",
    "https://Example.COM/Path?q=1#x",
    "www.example.co.uk.",
    "DE89 3704 0044 0532 0130 00",
    "GB82WEST12345698765432",
    "192.168.001.010",
    "2001:0db8:0000:0000:0000:ff00:0042:8329",
    "00:1A:2b:3C:4d:5E",
    "001a.2b3c.4d5e",
    "4111 1111 1111 1111",
    "LH 0454",
    "IE 6388047 V",
    "SW1A 1AA",
    "3.14159",
    "1,234,567",
    "2026-11-26",
    "12/03/2025",
    "123-45-6789",
    "¼",
    "½ cup",
    "x²",
    "Ⅻ",
    "١٢٣٤",
    "०१२३",
    "٣",
    "e\u{301}",
    "a\u{308}",
    "\u{200b}",
    "\u{ad}",
    "\u{feff}",
    "\u{200d}",
    "\u{fe0f}",
    "\u{202e}",
    "—",
    "–",
    "\u{a0}",
    "\u{3000}",
    "\t",
    "\n",
    "\n\n",
    " ",
    "  ",
    ".",
    ". ",
    ",",
    ";",
    "!",
    "?",
    "\"",
    "'",
    "(",
    ")",
    "-",
    "_",
    "/",
    ":",
    "+",
    "#",
    "@",
    "Dr.",
    "O'Brien",
    "Jean-Luc",
    "l'été",
    "Ærøskøbing",
    "Łódź",
    "Đorđe",
    "Djordje",
    "Tschechow",
    "Chekhov",
    "Schewtschenko",
    "companies",
    "phones",
    "status",
    "the",
    "The",
    "Sankt Peterburg",
    "den Haag",
    "Köln",
    "Zürich",
    "Ελλάδα",
    "ου",
    "Ευρώπη",
    "Κύπρος",
    "Ivanov",
    "Dmitriy",
    "Iouri",
    "Marcus",
    "x",
    "X1",
    "A",
    "Ab",
    "ab1",
    "AB-12",
    "v2.3.1",
    "#42",
    "ticket 987654",
    "note 17",
    "ref TK-04521",
    "ǅ",
    "ΐ",
    "ﷺ",
    "ﬀ",
    "㍿",
    "①",
    "⑴",
    "🙂",
    "🇩🇪",
    "Ꙁ",
    "ӏ",
    "ԁ",
    "ϲ",
    "ѕ",
    "ǉ",
    "ŉ",
    "ΐ",
    "İ̇",
    "ﬅ",
    "ŀ",
];

fn generated_texts(n: usize) -> Vec<String> {
    let mut rng = Rng(0x6f75_626c_6964_6231);
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let parts = 1 + rng.below(12);
        let mut s = String::new();
        for _ in 0..parts {
            match rng.below(10) {
                // A random code point of the first planes (surrogates skipped).
                0 => {
                    let cp = match rng.below(3) {
                        0 => rng.below(0x250) as u32,
                        1 => rng.below(0x3000) as u32,
                        _ => rng.below(0x1_0000) as u32,
                    };
                    s.extend(char::from_u32(cp));
                }
                // A random ASCII run.
                1 => {
                    for _ in 0..1 + rng.below(8) {
                        s.push((0x20 + rng.below(0x5f) as u8) as char);
                    }
                }
                // A separator.
                2 => s.push_str([" ", " ", ", ", ". ", "-", "\n"][rng.below(6)]),
                _ => s.push_str(PIECES[rng.below(PIECES.len())]),
            }
        }
        out.push(s);
    }
    out
}

/// blake3 of each text's outputs, in corpus order, with lengths so no two sequences collide.
fn digest<T: std::fmt::Debug>(texts: &[String], f: impl Fn(&str) -> T) -> String {
    let mut h = blake3::Hasher::new();
    for t in texts {
        let out = format!("{:?}", f(t));
        h.update(&(t.len() as u64).to_le_bytes());
        h.update(t.as_bytes());
        h.update(&(out.len() as u64).to_le_bytes());
        h.update(out.as_bytes());
    }
    h.finalize().to_hex().to_string()
}

fn corpus() -> Vec<String> {
    let mut texts = case_texts();
    assert!(texts.len() > 1_000, "case files not found: {}", texts.len());
    texts.extend(generated_texts(6_000));
    texts
}

#[test]
fn canonicalizer_version_is_the_pinned_one() {
    // The digests below belong to this version: a new version re-pins them.
    assert_eq!(canon::CANONICALIZER_VERSION, "oubli-canon-18");
}

#[test]
fn match_keys_are_unchanged() {
    let texts = corpus();
    assert_eq!(
        digest(&texts, row_keys),
        "ce7242f1a94ddb9ef36277f33ed2482a79dd3a8ef0eda47975acd98fa193a477"
    );
    assert_eq!(
        digest(&texts, query_keys),
        "91612e5e380d2bab2a2a9dc2a3294e85ecb4a721b96245c22f2a43eeb4257bd5"
    );
}

#[test]
fn canonical_forms_are_unchanged() {
    let texts = corpus();
    // The chunks as the canonicalizer writes them (form, span, script, case, gap); what a chunk
    // says of its last letter (`vowel_final`) is no canonical form and has its own tests.
    struct Form(canon::Chunk);
    impl std::fmt::Debug for Form {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.debug_struct("Chunk")
                .field("form", &self.0.form)
                .field("span", &self.0.span)
                .field("script", &self.0.script)
                .field("capitalized", &self.0.capitalized)
                .field("gap", &self.0.gap)
                .finish()
        }
    }
    let chunk_forms = |t: &str| canon::chunks(t).into_iter().map(Form).collect::<Vec<_>>();
    assert_eq!(
        format!("{:?}", canon::chunks("Ali")[0]),
        "Chunk { form: \"ali\", span: 0..3, script: Latin, capitalized: true, gap: None, vowel_final: true }"
    );
    assert_eq!(
        digest(&texts, chunk_forms),
        "f6a7a6025ad1a1c3a9b9f5a3c42ed0e3f90477e6ccba3d1a7eaf1e1b710e0d41"
    );
    assert_eq!(
        digest(&texts, canon::identifiers),
        "44b555d45630df544ee62b1e01b6a45d7c0078d3b0ec503c5f3b42e2472329d8"
    );
    assert_eq!(
        digest(&texts, canon::fold),
        "445712aababb0294f60f8455f6952dfaf44a5c423ca3f86b895b5722d51de3c8"
    );
    assert_eq!(
        digest(&texts, canon::transliterate),
        "e975830798d5a58d7a0e1a20b360899505150f34a12cc08701d876b296f056ec"
    );
}
