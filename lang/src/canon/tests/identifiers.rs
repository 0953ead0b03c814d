//! Typed identifiers (e-mail, phone, IBAN, network) and codes, in prose and alone.

use super::*;

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
fn values_glued_to_unspaced_words_are_found() {
    // Chinese, Japanese and Thai write no space between words, and Korean attaches its
    // particles: the value stands between letters of another script.
    assert_eq!(
        ids("Anna Schmidtの電話番号は+7 916 493-83-28です"),
        vec![(IdKind::Phone, "+79164938328".to_string())]
    );
    assert_eq!(
        ids("เบอร์โทรของสมชายคือ081-234-5678ครับ"),
        vec![(IdKind::Phone, "0812345678".to_string())]
    );
    assert_eq!(
        ids("연락처는 010-1234-5678입니다"),
        vec![(IdKind::Phone, "01012345678".to_string())]
    );
    assert_eq!(
        ids("邮箱是li.wei@example.com，谢谢"),
        vec![(IdKind::Email, "li.wei@example.com".to_string())]
    );
    // The spans cover the value alone.
    let t = "口座はDE89 3704 0044 0532 0130 00です";
    let found = identifiers(t);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(&t[found[0].span.clone()], "DE89 3704 0044 0532 0130 00");
    assert_eq!(found[0].kind, IdKind::Iban);
    // Letters and digits of one script still make one code.
    assert_eq!(
        one("order ORD-2024-0571"),
        (IdKind::Code, "ORD20240571".into())
    );
}
#[test]
fn digits_glued_to_kana_or_thai_are_a_chunk_of_their_own() {
    let jp = "Anna Schmidtの電話番号は+7 916 493-83-28です";
    let f = forms(jp);
    assert_eq!(f[f.len() - 2..], ["28", "desu"], "{f:?}");
    assert_eq!(find_code(&chunks(jp), "+79164938328"), vec![31..46]);
    let th = "เบอร์โทรของสมชายคือ081-234-5678ครับ";
    let f = forms(th);
    let at = f
        .iter()
        .position(|x| x == "081")
        .expect("the number's first group");
    assert_eq!(f[at..at + 3], ["081", "234", "5678"], "{f:?}");
    assert_eq!(find_code(&chunks(th), "0812345678"), vec![57..69]);
    // Digits still join the letters of a spaced script ("A3", "6E").
    assert_eq!(forms("flight 6E 2014"), ["flight", "6e", "2014"]);
}
