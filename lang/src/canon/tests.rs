//! Tests of the canonicalization module: every rule and example of the specification, and
//! properties (no panics, valid spans, idempotence, code matching robust to formatting).

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

// --- fold -------------------------------------------------------------------------------------

#[test]
fn fold_rules() {
    assert_eq!(fold("Straße"), "strasse");
    assert_eq!(fold("ẞ"), "ss");
    assert_eq!(
        fold("Æsir Øresund Đakovo Łódź"),
        "aesir oresund dakovo lodz"
    );
    assert_eq!(fold("Crème Brûlée"), "creme brulee");
    assert_eq!(fold("ＴＸＮ－４４８１"), "txn-4481");
    assert_eq!(fold("Al\u{200B}ice\u{AD}"), "alice");
    assert_eq!(fold("e\u{301}cole"), "ecole");
    assert_eq!(fold("ﬁle"), "file");
    assert_eq!(fold("İstanbul"), "istanbul");
    assert_eq!(fold("ΣΟΦΟΣ"), "σοφοσ");
    // Homoglyphs inside Latin words; whole Cyrillic words stay Cyrillic.
    assert_eq!(fold("\u{430}lice"), "alice");
    assert_eq!(fold("P\u{430}yP\u{430}l"), "paypal");
    assert_eq!(fold("Соловей"), "соловей");
    assert_eq!(fold("Дмитрий"), "дмитрий");
    assert_eq!(fold("٣٤"), "34");
}

#[test]
fn transliterate_rules() {
    assert_eq!(transliterate("张伟"), "zhang wei");
    assert_eq!(transliterate("김민준"), "gim min jun");
    assert_eq!(transliterate("カタカナ"), "katakana");
    assert_eq!(transliterate("राहुल"), "rahul");
    assert_eq!(transliterate("शर्मा"), "sharma");
    assert_eq!(transliterate("प्रिया"), "priya");
    assert_eq!(transliterate("गुप्ता"), "gupta");
    assert_eq!(transliterate("राजकुमार"), "rajkumar");
    assert_eq!(transliterate("कमल"), "kamal");
    assert_eq!(transliterate("नरेंद्र"), "narendra");
    assert_eq!(transliterate("Соловьёв"), "solov'yev");
    assert_eq!(transliterate("Горбачёв"), "gorbachev");
    assert_eq!(transliterate("Παπαδόπουλος"), "papadopoulos");
    assert_eq!(transliterate("Νίκος"), "nikos");
    assert_eq!(transliterate("Ευάγγελος"), "evangelos");
    assert_eq!(transliterate("Müller, Zoë"), "muller, zoe");
}

// --- chunks -----------------------------------------------------------------------------------

#[test]
fn chunk_spans_and_gaps() {
    let t = "Call TXN-4481, then Ｍüller.";
    let c = chunks(t);
    let f: Vec<&str> = c.iter().map(|c| c.form.as_str()).collect();
    assert_eq!(f, ["call", "txn", "4481", "then", "muller"]);
    assert_eq!(&t[c[4].span.clone()], "Ｍüller");
    assert_eq!(c[0].gap, None);
    assert_eq!(c[1].gap, Some(Gap::Joiner));
    assert_eq!(c[2].gap, Some(Gap::Joiner));
    assert_eq!(c[3].gap, Some(Gap::Break));
    assert!(c[0].capitalized && !c[3].capitalized && c[4].capitalized);
    assert!(!c[2].capitalized);
}

#[test]
fn chunk_gap_classes() {
    let gaps = |t: &str| chunks(t).iter().skip(1).map(|c| c.gap).collect::<Vec<_>>();
    let j = Some(Gap::Joiner);
    let b = Some(Gap::Break);
    assert_eq!(gaps("a b_c.d/e:f(g)h+i#j"), vec![j; 9]);
    assert_eq!(gaps("a, b; c! d? e\"f"), vec![b; 5]);
    assert_eq!(gaps("a - b"), vec![b]); // two space runs
    assert_eq!(gaps("end. Next"), vec![b]); // sentence end
    assert_eq!(gaps("a\n\nb"), vec![b]);
    assert_eq!(gaps("+1 (415) 555-0132"), vec![j; 3]);
}

#[test]
fn chunk_scripts_and_syllables() {
    let c = chunks("张伟 김민준 Москва カタカナ");
    let f: Vec<&str> = c.iter().map(|c| c.form.as_str()).collect();
    assert_eq!(
        f,
        ["zhang", "wei", "gim", "min", "jun", "moskva", "katakana"]
    );
    assert_eq!(c[0].script, Script::Han);
    assert_eq!(c[2].script, Script::Hangul);
    assert_eq!(c[5].script, Script::Cyrillic);
    assert_eq!(c[6].script, Script::Kana);
    assert!(c.iter().all(|c| c.capitalized));
    assert_eq!(c[1].gap, Some(Gap::Joiner));
    let t = "张伟";
    assert_eq!(&t[c[1].span.clone()], "伟");
    // Homoglyph word stays one Latin chunk; mixed scripts split.
    let h = chunks("\u{430}lice");
    assert_eq!(h.len(), 1);
    assert_eq!(h[0].form, "alice");
    assert_eq!(h[0].script, Script::Latin);
    assert_eq!(forms("2024年"), ["2024", "nian"]);
}

// --- names ------------------------------------------------------------------------------------

#[test]
fn russian_names_meet_and_stay_apart() {
    let group = [
        "Михаил Соловьёв",
        "Mikhail Solovyov",
        "Michail Solowjow",
        "Mikhaïl Soloviev",
    ];
    for a in group {
        for b in group {
            assert!(names_meet(a, b), "{a} ~ {b}");
        }
    }
    for other in ["Михаил Соловей", "Mikhail Solovyeva"] {
        assert!(!names_meet("Mikhail Solovyov", other), "{other}");
        assert!(!names_meet("Михаил Соловьёв", other), "{other}");
    }
}

#[test]
fn name_variants_meet() {
    for (a, b) in [
        ("Juergen Mueller", "Jürgen Müller"),
        ("Ilse Gross", "Ilse Groß"),
        ("Åsa Ström", "Asa Strom"),
        ("Đorđe", "Djordje"),
        ("Şükrü Öztürk", "Sukru Ozturk"),
        ("Nguyễn Thị Lan", "Nguyen Thi Lan"),
        ("Дмитрий Иванов", "Dmitri Ivanov"),
        ("Dmitriy", "Dmitry"),
        ("Νίκος Παπαδόπουλος", "Nikos Papadopoulos"),
        ("Олена Шевченко", "Olena Shevchenko"),
        ("Јован Јовановић", "Jovan Jovanović"),
        ("张伟", "Zhang Wei"),
        ("김민준", "Kim Min-jun"),
        ("प्रिया शर्मा", "Priya Sharma"),
        ("राहुल गुप्ता", "Rahul Gupta"),
        ("Iouri", "Yuri"),
        ("Юрий", "Yuri"),
        ("Tschechow", "Chekhov"),
        ("Schewtschenko", "Shevchenko"),
        ("Alexandr", "Aleksandr"),
        ("Marcus", "Markus"),
    ] {
        assert!(names_meet(a, b), "{a} ~ {b}");
    }
}

#[test]
fn name_negatives_stay_apart() {
    for (a, b) in [
        ("Hale", "Haley"),
        ("Ann", "Anna"),
        ("Tom", "Tim"),
        ("Ivan", "Ivanov"),
        ("Solovyov", "Solovyeva"),
        ("Solovyov", "Соловей"),
        ("Mario", "Marie"),
        ("Mohammed", "Ahmed"),
    ] {
        assert!(!names_meet(a, b), "{a} !~ {b}");
    }
}

#[test]
fn abjad_skeletons() {
    for (a, b) in [
        ("محمد", "Mohammed"),
        ("محمد", "Muhammad"),
        ("יוסי כהן", "Yossi Cohen"),
        ("أحمد منصور", "Ahmed Mansour"),
        // A word-final ה / ة writes a vowel.
        ("فاطمة", "Fatima"),
        ("نادية سليمان", "Nadia Suleiman"),
        ("רבקה", "Rivka"),
        // A proclitic on the name: "(belonging) to Youssef", "and Mansour".
        ("بيوسف", "Youssef"),
        ("ومنصور", "Mansour"),
    ] {
        assert!(names_meet(a, b), "{a} ~ {b}");
    }
    assert!(!names_meet("محمد", "Ahmed"));
    // Never down to two consonants: بسام (Bassam) is not Sam, وليد (Walid) not Lyd.
    assert!(!names_meet("بسام", "Sam"));
    assert!(!names_meet("وليد", "Lyd"));
    assert!(!names_meet("بيوسف", "Yousra"));
    // The final h may drop on the abjad side only, and never below two letters.
    assert!(names_meet("فاطمة", "Fatimah"));
    assert!(!names_meet("سليمان", "Salma"));
    assert_eq!(super::abjad_skeletons("ftmh"), vec!["ftmh", "ftm"]);
    assert_eq!(super::abjad_skeletons("nh"), vec!["nh"]);
    assert_eq!(skeleton("mohammed"), "mhmd");
    assert_eq!(skeleton("cohen"), "khn");
    assert_eq!(skeleton("yossi"), "ys");
    assert_eq!(skeleton("mansour"), "mnsr");
    // Skeletons only count across an abjad.
    let (x, y) = (&chunks("Mansour")[0], &chunks("Mnsr")[0]);
    assert!(!same_name(x, y));
}

#[test]
fn hangul_relaxation_only_against_hangul() {
    let kim = &chunks("Kim")[0];
    let gim_hangul = &chunks("김")[0];
    let gim_latin = &chunks("Gim")[0];
    assert!(same_name(kim, gim_hangul));
    assert!(!same_name(kim, gim_latin));
    assert_eq!(hangul_variant_key("geo"), variant_key("ko"));
}

#[test]
fn hangul_romanization_writes_final_consonants() {
    assert_eq!(forms("박곽옥앞닭"), ["bak", "gwak", "ok", "ap", "dak"]);
    assert_eq!(forms("김민준"), ["gim", "min", "jun"]);
    for latin in ["Pak", "Park", "Bak"] {
        assert!(same_name(&chunks(latin)[0], &chunks("박")[0]), "{latin}");
    }
    assert!(!same_name(&chunks("Pak")[0], &chunks("Bak")[0]));
}

/// The Brahmic scripts laid out like Devanagari are read by its rules: Bengali, Gurmukhi,
/// Gujarati and Oriya drop a word's last inherent vowel as Hindi does, Tamil, Telugu, Kannada and
/// Malayalam keep it; Bengali ya-phala is no "y", Tamil ச is "s", a Malayalam chillu is a bare
/// consonant.
#[test]
fn brahmic_scripts_read_by_the_devanagari_rules() {
    for (word, latin) in [
        ("সৌরভ", "saurabh"),
        ("ব্যানার্জি", "banarji"),
        ("ঘোষ", "ghosh"),
        ("সুমিত্রা", "sumitra"),
        ("ગોપાલ", "gopal"),
        ("ਸਿੰਘ", "singh"),
        ("செந்தில்", "sentil"),
        ("நடராஜன்", "natarajan"),
        ("குமார்", "kumar"),
        ("రమేష్", "ramesh"),
        ("ಸುರೇಶ್", "suresh"),
        ("രാജേഷ്", "rajesh"),
        ("ബാലൻ", "balan"),
    ] {
        assert_eq!(transliterate(word), latin, "{word}");
    }
}

#[test]
fn tamil_and_bengali_names_meet_their_cases() {
    let meet = |a: &str, b: &str| same_inflected_name(&chunks(a)[0], &chunks(b)[0]);
    for (a, b) in [
        ("குமாருக்கு", "Kumar"),
        ("குமாரின்", "Kumar"),
        ("குமாருக்கு", "குமார்"),
        ("ঘোষকে", "Ghosh"),
        ("ঘোষের", "ঘোষ"),
    ] {
        assert!(meet(a, b), "{a} ~ {b}");
        assert!(meet(b, a), "{b} ~ {a}");
    }
    // Another name, and a stem too short to be one.
    for (a, b) in [("குமாருக்கு", "Kamal"), ("ঘোষকে", "Bose"), ("রাকে", "Ra")]
    {
        assert!(!meet(a, b), "{a} / {b}");
    }
}

#[test]
fn declined_names_meet_their_other_cases() {
    let meet = |a: &str, b: &str| same_inflected_name(&chunks(a)[0], &chunks(b)[0]);
    for (a, b) in [
        ("Ελένης", "Ελένη"),
        ("Ελένης", "Eleni"),
        ("Γιώργου", "Giorgos"),
        ("Παπαδόπουλου", "Papadopoulos"),
        ("Ρένας", "Rena"),
        ("Лены", "Лена"),
        ("Миколи", "Mykola"),
        ("Ніни", "Nina"),
        ("Ивану", "Ivan"),
        ("Соколовым", "Sokolov"),
        ("Марию", "Мария"),
    ] {
        assert!(meet(a, b), "{a} ~ {b}");
        assert!(meet(b, a), "{b} ~ {a}");
    }
    // The genitive of a masculine surname is the feminine nominative: another person may bear
    // it. Nor do Евгений and Евгения meet, or names in scripts that do not decline.
    for (a, b) in [
        ("Соколова", "Sokolov"),
        ("Евгения", "Евгений"),
        ("Γιώργου", "Georgia"),
        ("Maria", "Mario"),
        ("Лена", "Лена"),
    ] {
        assert!(!meet(a, b), "{a} / {b}");
    }
    assert!(inflected_forms("eleni").contains(&"elenis".to_owned()));
}

#[test]
fn variant_key_rules() {
    assert_eq!(variant_key(""), "");
    assert_eq!(variant_key("Mikhail"), variant_key("Michail"));
    assert_eq!(variant_key("Solovyov"), "soloviev");
    assert_eq!(variant_key("solov'yev"), "soloviev");
    assert_eq!(variant_key("Philipp"), variant_key("Filip"));
    assert_eq!(variant_key("Wladimir"), variant_key("Vladimir"));
    assert_eq!(variant_key("Mueller"), variant_key("muller"));
    assert_eq!(variant_key("Goethe"), variant_key("gothe"));
    assert_eq!(variant_key("Jaeger"), variant_key("jager"));
    assert_eq!(variant_key("Dmitrij"), variant_key("dmitri"));
    assert_eq!(variant_key("Cecilia"), variant_key("sesilia"));
    assert_eq!(variant_key("Quentin"), variant_key("kentin"));
    assert_eq!(variant_key("Mack"), variant_key("mak"));
}

#[test]
fn han_readings_and_exonyms() {
    assert_eq!(han_readings("佐藤"), ["sato"]);
    assert!(han_readings("金").contains(&"kim"));
    assert!(han_readings("李").contains(&"lee"));
    assert!(han_readings("朴").contains(&"park"));
    assert!(han_readings("xyz").is_empty());
    for (a, b) in [
        ("Москва", "Moscow"),
        ("東京", "Tokyo"),
        ("北京", "Beijing"),
        ("Αθήνα", "Athens"),
        ("München", "Munich"),
        ("Wien", "Vienna"),
        ("Praha", "Prague"),
        ("Warszawa", "Warsaw"),
        ("Lisboa", "Lisbon"),
        ("Roma", "Rome"),
        ("Köln", "Cologne"),
        ("القاهرة", "Cairo"),
        ("الإسكندرية", "Alexandria"),
        ("ירושלים", "Jerusalem"),
        ("القدس", "Jerusalem"),
        ("กรุงเทพฯ", "Bangkok"),
        ("Sài Gòn", "Saigon"),
        ("मुंबई", "Bombay"),
        ("Харків", "Kharkov"),
        ("Ηράκλειο", "Heraklion"),
        ("부산", "Pusan"),
    ] {
        let g = exonyms(a);
        assert!(!g.is_empty() && std::ptr::eq(g, exonyms(b)), "{a} ~ {b}");
    }
    assert!(exonyms("Springfield").is_empty());
    assert!(exonyms("").is_empty());
}

// --- identifiers ------------------------------------------------------------------------------

#[test]
fn emails() {
    assert_eq!(
        one("mail Alice.Smith+news@Example.COM."),
        (IdKind::Email, "alice.smith@example.com".into())
    );
    assert_eq!(
        one("a.l.i.c.e+x@googlemail.com"),
        (IdKind::Email, "alice@gmail.com".into())
    );
    assert_eq!(
        one("alice at example dot com"),
        (IdKind::Email, "alice@example.com".into())
    );
    assert_eq!(
        one("alice [at] example [dot] com"),
        (IdKind::Email, "alice@example.com".into())
    );
    assert_eq!(
        one("alice(at)mail(dot)example(dot)org"),
        (IdKind::Email, "alice@mail.example.org".into())
    );
    assert_eq!(
        one("\u{430}lice＠example.com"),
        (IdKind::Email, "alice@example.com".into())
    );
}

#[test]
fn handles_phones_ibans() {
    assert_eq!(one("ping @Zoë_Ward."), (IdKind::Handle, "@zoe_ward".into()));
    assert_eq!(
        one("+1 (415) 555-0132"),
        (IdKind::Phone, "+14155550132".into())
    );
    assert_eq!(
        one("call 0151 496 0142 now"),
        (IdKind::Phone, "01514960142".into())
    );
    assert_eq!(
        one("0044 151 496 0142"),
        (IdKind::Phone, "+441514960142".into())
    );
    assert_eq!(one("415.555.0132"), (IdKind::Phone, "4155550132".into()));
    assert_eq!(
        one("GB82 WEST 1234 5698 7654 32"),
        (IdKind::Iban, "GB82WEST12345698765432".into())
    );
    assert_eq!(
        one("DE89370400440532013000"),
        (IdKind::Iban, "DE89370400440532013000".into())
    );
    // Invalid check digits: a code.
    assert_eq!(
        one("GB00 WEST 1234 5698 7654 32"),
        (IdKind::Code, "GB00WEST12345698765432".into())
    );
}

#[test]
fn network_identifiers() {
    assert_eq!(
        one("host 010.000.000.001 up"),
        (IdKind::Ipv4, "10.0.0.1".into())
    );
    assert_ne!(one("10.0.0.1").1, one("100.0.1.0").1);
    assert_eq!(
        one("2001:0DB8:0000:0000:0000:0000:0000:0001"),
        (IdKind::Ipv6, "2001:db8::1".into())
    );
    assert_eq!(one("::1"), (IdKind::Ipv6, "::1".into()));
    assert_eq!(
        one("00:1A:2B:3C:4D:5E"),
        (IdKind::Mac, "001a2b3c4d5e".into())
    );
    assert_eq!(
        one("00-1a-2b-3c-4d-5e"),
        (IdKind::Mac, "001a2b3c4d5e".into())
    );
    assert_eq!(one("001a.2b3c.4d5e"), (IdKind::Mac, "001a2b3c4d5e".into()));
    assert_eq!(
        one("see API.Example.com."),
        (IdKind::Hostname, "api.example.com".into())
    );
    assert_eq!(
        one("(https://API.Example.com/Path?q=A)"),
        (IdKind::Url, "https://api.example.com/Path?q=A".into())
    );
    let a = identifiers("example.com");
    let b = identifiers("api.example.com");
    assert!(!same_identifier(&a[0], &b[0]));
}

#[test]
fn codes() {
    for (t, c) in [
        ("TXN-4481", "TXN4481"),
        ("ref SUP_10293.", "SUP10293"),
        ("M/2024/0571", "M20240571"),
        ("CLM.2023.00981", "CLM202300981"),
        ("0xAbC1f00d", "0XABC1F00D"),
        (
            "550e8400-e29b-41d4-a716-446655440000",
            "550E8400E29B41D4A716446655440000",
        ),
        ("3A:5F:11:22:33:44:55:66:77:88", "3A5F112233445566778 8"),
        ("plate AB12 CDE", "AB12CDE"),
        ("flight LH 0454", "LH0454"),
        ("VAT IE 6388047 V", "IE6388047V"),
        ("SW1A 1AA", "SW1A1AA"),
        ("4111 1111 1111 1111", "4111111111111111"),
        ("123-45-6789", "123456789"),
        ("ISBN 978-3-16-148410-0", "9783161484100"),
    ] {
        let c = c.replace(' ', "");
        assert_eq!(one(t), (IdKind::Code, c), "{t}");
    }
    // Not codes: plain words, short numbers, ordinals, amounts, decimals.
    for t in [
        "hello world",
        "on the 3rd at 10am",
        "42 cats",
        "1,234.56",
        "3.14159",
        "In 2024 I went",
    ] {
        assert!(ids(t).is_empty(), "{t}: {:?}", ids(t));
    }
}

#[test]
fn code_function() {
    assert_eq!(code("TXN-4481").as_deref(), Some("TXN4481"));
    assert_eq!(code("ab-CD-12-ef").as_deref(), Some("ABCD12EF"));
    assert_eq!(code("+1 (415) 555-0132").as_deref(), Some("14155550132"));
    assert_eq!(code("ＴＸＮ４４８１").as_deref(), Some("TXN4481"));
    assert_eq!(
        code("alice@example.com").as_deref(),
        Some("ALICEEXAMPLECOM")
    );
    assert_eq!(code("@zoe").as_deref(), Some("ZOE"));
    assert_eq!(code("example.com").as_deref(), Some("EXAMPLECOM"));
    assert_eq!(code("door code"), None);
    assert_eq!(code(""), None);
}

#[test]
fn find_code_whole_chunks() {
    let t = "Refund TXN-4481 and txn 4481; not TXN-123456 or 123456.";
    let c = chunks(t);
    let m = find_code(&c, "TXN4481");
    let got: Vec<&str> = m.iter().map(|r| &t[r.clone()]).collect();
    assert_eq!(got, ["TXN-4481", "txn 4481"]);
    assert!(find_code(&c, "TXN12345").is_empty());
    assert!(find_code(&c, "12345").is_empty());
    // A Break gap stops a match.
    assert!(find_code(&chunks("TXN, 4481"), "TXN4481").is_empty());
    // IPs never match by concatenation of a different split.
    let ip = chunks("10.0.0.1");
    assert!(find_code(&ip, &code("100.0.1").unwrap_or_default()).is_empty());
}

#[test]
fn find_code_phone_rule() {
    let code = code("+44 151 496 0142").unwrap_or_default();
    for t in [
        "+44 151 496 0142",
        "0151 496 0142",
        "1514960142",
        "0044 151 496 0142",
        "+44 (0)151 496 0142",
    ] {
        assert!(!find_code(&chunks(t), &code).is_empty(), "{t}");
    }
    let national = super::code("0151 496 0142").unwrap_or_default();
    assert!(!find_code(&chunks("+44 151 496 0142"), &national).is_empty());
    assert!(find_code(&chunks("+44 151 496 0143"), &code).is_empty());
    // Two different country codes do not meet.
    assert!(find_code(&chunks("+33 151 496 0142"), &code).is_empty());
    let a = identifiers("+44 151 496 0142");
    let b = identifiers("tel 0151 496 0142");
    assert!(same_identifier(&a[0], &b[0]));
}

// --- properties -------------------------------------------------------------------------------

fn messy() -> impl Strategy<Value = String> {
    let atoms = prop::sample::select(vec![
        "a", "Z", "é", "e\u{301}", "ß", "а", "Ж", "λ", "张", "김", "カ", "र", "्", "ि", "ा", "م",
        "ש", "ก", "1", "９", "٣", "-", "_", ".", "/", ":", "(", ")", "+", "#", "@", " ", "  ", ",",
        "\n", "\u{200B}", "\u{AD}", "\u{301}", "ﬁ", "ẞ", "İ", "x", "0", "TXN", "at", "dot", "[at]",
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
fn dotted_codes_match_part_by_part() {
    assert_eq!(code("010.0.0.1").as_deref(), Some("10.0.0.1"));
    let t = "from 10.0.0.1 and 10.0.0.15 and 1.10.0.0.1";
    let c = chunks(t);
    let m: Vec<&str> = find_code(&c, "10.0.0.1")
        .iter()
        .map(|r| &t[r.clone()])
        .collect();
    assert_eq!(m, ["10.0.0.1"]);
}

#[test]
fn prose_identifiers() {
    let t = "On 3 May, Ana (ana.k@Example.org, +351 912 345 678) paid 1,250.00 EUR for order \
             ORD-2024-0571 from api.shop.example.com; see https://shop.example.com/o/571. \
             She is 34 and lives at 12 Rua Augusta.";
    let got = ids(t);
    assert_eq!(
        got,
        vec![
            (IdKind::Email, "ana.k@example.org".to_string()),
            (IdKind::Phone, "+351912345678".to_string()),
            (IdKind::Code, "ORD20240571".to_string()),
            (IdKind::Hostname, "api.shop.example.com".to_string()),
            (IdKind::Url, "https://shop.example.com/o/571".to_string()),
        ]
    );
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

#[test]
fn thai_reads_syllable_by_syllable() {
    for (thai, latin) in [
        ("สมชาย", "somchai"),
        ("แก้วกล้า", "kaewkla"),
        ("ธาราทิพย์", "tharathip"),
        ("พงษ์พันธ์", "phongphan"),
        ("วิไล", "wilai"),
        ("วงศ์ไทย", "wongthai"),
        ("เชียงใหม่", "chiangmai"),
        ("ประเสริฐ", "prasert"),
        ("กรุงเทพ", "krungthep"),
        ("ภูเก็ต", "phuket"),
        ("สบาย", "sabai"),
        ("หญิง", "ying"),
        ("เมือง", "mueang"),
        ("ศรีสุข", "srisuk"),
        ("จันทร์", "chan"),
    ] {
        assert_eq!(transliterate(thai), latin, "{thai}");
    }
}

proptest! {
    /// Any Thai text romanizes without a panic, to lowercase ASCII.
    #[test]
    fn thai_never_panics(s in "[\u{0E01}-\u{0E5B}]{0,24}") {
        let t = transliterate(&s);
        prop_assert!(t.is_ascii());
    }
}
