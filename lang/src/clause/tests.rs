//! Clause splitting and rewriting.

use super::*;

fn texts(t: &str) -> Vec<&str> {
    clauses(t).into_iter().map(|c| &t[c.span]).collect()
}

#[test]
fn splits_coordinated_clauses() {
    assert_eq!(
        texts("Tom's bank PIN is 4821 and his locker number is 17."),
        ["Tom's bank PIN is 4821", "his locker number is 17"]
    );
    assert_eq!(
        texts("Lena lives in Hamburg and works at Airbus."),
        ["Lena lives in Hamburg", "works at Airbus"]
    );
    assert_eq!(
        texts("Kai has badge B-40112 and parking spot P-17."),
        ["Kai has badge B-40112", "parking spot P-17"]
    );
    assert_eq!(
        texts("Ana likes tea; Bo likes coffee"),
        ["Ana likes tea", "Bo likes coffee"]
    );
    // After a cut, ", and" before a clause still splits, however short the part before it.
    assert_eq!(
        texts("Dao Van Long speaks Thai and Lao, and his permit expires in May."),
        [
            "Dao Van Long speaks Thai",
            "Lao",
            "his permit expires in May"
        ]
    );
    // Persian and Urdu write "and" as a word of its own.
    assert_eq!(
        texts("سارا کریمی میز ۳۱۲ را رزرو کرده و لپ‌تاپش Dell XPS 13 است."),
        ["سارا کریمی میز ۳۱۲ را رزرو کرده", "لپ‌تاپش Dell XPS 13 است"]
    );
}

#[test]
fn a_caseless_sentence_has_no_subject_and_its_topic_ends_with_its_first_clause() {
    let t = "刘洋的笔记本电脑是联想 T14，他的停车位是 B2-117。";
    let cs = clauses(t);
    assert_eq!(cs.len(), 2);
    assert!(cs.iter().all(|c| c.subject.is_none()));
    assert!(
        cs[0].topic.end <= cs[0].span.end,
        "{:?}",
        &t[cs[0].topic.clone()]
    );
}

#[test]
fn a_leading_adverbial_is_no_clause() {
    for t in [
        "Until May 2022, Ines Duarte's parking permit was P-118.",
        "As of March 2024, Samir lived at 12 Rue Gouraud.",
        "Since 1 July, the brunch runs 11:00-15:00.",
    ] {
        assert_eq!(texts(t).len(), 1, "{t}: {:?}", texts(t));
    }
    // A clause with its own verb still splits off.
    assert_eq!(
        texts("Since 2020 she works at Acme, Tom moved to Oslo."),
        ["Since 2020 she works at Acme", "Tom moved to Oslo"]
    );
}

#[test]
fn keeps_noun_phrases_whole() {
    assert_eq!(
        texts("Salt and pepper are on the table."),
        ["Salt and pepper are on the table"]
    );
    assert_eq!(
        texts("Mia enjoys hiking and cycling."),
        ["Mia enjoys hiking and cycling"]
    );
    assert_eq!(
        texts("Mr. Lau is the landlord of unit 3B."),
        ["Mr. Lau is the landlord of unit 3B"]
    );
    assert_eq!(
        texts("The price is 9.50 euros."),
        ["The price is 9.50 euros"]
    );
}

#[test]
fn sentences_are_clauses() {
    assert_eq!(
        texts("Ivy moved to Oslo. She works at Statoil!"),
        ["Ivy moved to Oslo", "She works at Statoil"]
    );
}

#[test]
fn subjects_are_found() {
    let c = clauses("Tom's bank PIN is 4821 and his locker number is 17.");
    let s = c[1].subject.clone().unwrap();
    assert_eq!(s.name, "Tom");
    assert!(s.possessive);
    let topic = clauses("The user likes tea and reads novels.")[0]
        .subject
        .clone()
        .unwrap();
    assert!(!topic.named);
    assert_eq!(topic.name, "The user");
    assert_eq!(
        clauses("Mr. Lau Ka-ho is the landlord.")[0]
            .subject
            .clone()
            .unwrap()
            .name,
        "Lau Ka-ho"
    );
}

#[test]
fn rewrites_reattach_the_subject() {
    let t = "Tom's bank PIN is 4821 and his locker number is 17.";
    assert_eq!(
        rewrite_without(t, &[0]).unwrap(),
        "Tom's locker number is 17."
    );
    assert_eq!(rewrite_without(t, &[1]).unwrap(), "Tom's bank PIN is 4821.");
    assert_eq!(rewrite_without(t, &[0, 1]), None);
    let t = "Lena lives in Hamburg and works at Airbus.";
    assert_eq!(rewrite_without(t, &[0]).unwrap(), "Lena works at Airbus.");
    let t = "Kai has badge B-40112 and parking spot P-17.";
    assert_eq!(
        rewrite_without(t, &[0]).unwrap(),
        "Kai has parking spot P-17."
    );
    let t = "Ivy moved to Oslo. She works at Statoil.";
    assert_eq!(rewrite_without(t, &[0]).unwrap(), "She works at Statoil.");
}

#[test]
fn coordinated_predicates_and_lists_split() {
    let t = "Kwame is vegetarian and allergic to sesame.";
    assert_eq!(texts(t), ["Kwame is vegetarian", "allergic to sesame"]);
    assert_eq!(
        rewrite_without(t, &[0]).unwrap(),
        "Kwame is allergic to sesame."
    );
    let t = "Patient record: Jana Novak, blood type A+, allergic to latex.";
    assert_eq!(texts(t).len(), 3);
    assert_eq!(
        rewrite_without(t, &[2]).unwrap(),
        "Patient record: Jana Novak, blood type A+."
    );
    let t = "Darius is 34, lives in Leeds and is a nurse.";
    assert_eq!(
        rewrite_without(t, &[2]).unwrap(),
        "Darius is 34, lives in Leeds."
    );
    let t = "The user prefers window seats and vegetarian meals on flights.";
    assert_eq!(
        rewrite_without(t, &[0]).unwrap(),
        "The user prefers vegetarian meals on flights."
    );
    let t = "Quinn takes metformin in the morning and atorvastatin at night.";
    assert_eq!(
        rewrite_without(t, &[0]).unwrap(),
        "Quinn takes atorvastatin at night."
    );
}

#[test]
fn phrases_align_with_a_restated_head() {
    assert_eq!(
        phrase_without(
            "The booking is for four people at 19:30 under the name Ferreira.",
            "The booking is at 20:00."
        )
        .unwrap(),
        "The booking is for four people under the name Ferreira."
    );
    assert_eq!(
        phrase_without(
            "The meeting is on Thursday at 3pm in room Orion.",
            "The meeting is on Friday."
        )
        .unwrap(),
        "The meeting is at 3pm in room Orion."
    );
    assert_eq!(
        phrase_without("Ana lives in Oslo.", "Ana lives in Rome."),
        None
    );
    assert_eq!(
        phrase_without("The gym opens at 6.", "The pool opens at 7."),
        None
    );
}

#[test]
fn topics_are_the_words_before_the_verb() {
    let t = "The server hostname is atlas-01 and its IP is 10.4.2.17.";
    let c = clauses(t);
    assert_eq!(&t[c[0].topic.clone()], "The server hostname");
}

#[test]
fn odd_input_never_panics() {
    for t in [
        "",
        ".",
        "and",
        " and and ",
        "é. ß; ,",
        "İ and İ and ǅ",
        "a.b.c",
        "...!!",
    ] {
        let cs = clauses(t);
        for c in &cs {
            assert!(t.is_char_boundary(c.span.start) && t.is_char_boundary(c.span.end));
        }
        let _ = rewrite_without(t, &[0]);
    }
}

#[test]
fn a_clause_opening_with_a_curly_quote_rewrites() {
    let t = "Mina said: “her flat is in Leeds” and “her car is a Fiat”.";
    let n = clauses(t).len();
    for i in 0..n {
        let _ = rewrite_without(t, &[i]);
    }
    let t = "Tom's PIN is 4821 and “his locker is 17”.";
    let out = rewrite_without(t, &[0]).expect("a clause remains");
    assert!(out.contains("locker is 17"), "{out}");
}

#[test]
fn case_mapping_that_changes_lengths_keeps_offsets() {
    // "İ" lower-cases to three bytes, "ẞ" to two: byte offsets of the lowered text differ.
    let t = "İlkay's ẞtreet pass is 4471 and his locker is 17, and the Straße is long.";
    for c in clauses(t) {
        assert!(t.is_char_boundary(c.span.start) && t.is_char_boundary(c.span.end));
    }
    assert_eq!(texts(t).len(), 3, "{:?}", texts(t));
    let _ = rewrite_without(t, &[0]);
}

mod unicode {
    use super::*;
    use proptest::prelude::*;

    /// Text built from pieces that stress the splitter: separators, quotes and dashes, and
    /// letters whose case mapping changes their length.
    fn text() -> impl Strategy<Value = String> {
        let piece = prop_oneof![
            Just("İ".to_owned()),
            Just("ẞ".to_owned()),
            Just("ß".to_owned()),
            Just("ﬁ".to_owned()),
            Just("Σ".to_owned()),
            Just("“".to_owned()),
            Just("”".to_owned()),
            Just("’s ".to_owned()),
            Just("—".to_owned()),
            Just(" and ".to_owned()),
            Just(", ".to_owned()),
            Just("; ".to_owned()),
            Just(". ".to_owned()),
            Just(" he ".to_owned()),
            Just(" his ".to_owned()),
            Just(" is ".to_owned()),
            Just("Tom".to_owned()),
            Just("张伟".to_owned()),
            Just("e\u{301}".to_owned()),
            "[a-zA-Z ]{1,6}",
            any::<char>().prop_map(String::from),
        ];
        proptest::collection::vec(piece, 0..24).prop_map(|v| v.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

        /// Splitting and rewriting never panic, and every clause span lies on char boundaries
        /// of the original text, in order.
        #[test]
        fn splitting_and_rewriting_never_panic(t in text(), pick in any::<u64>()) {
            let cs = clauses(&t);
            let mut last = 0;
            for c in &cs {
                prop_assert!(t.is_char_boundary(c.span.start) && t.is_char_boundary(c.span.end));
                prop_assert!(c.span.start <= c.span.end && c.span.end <= t.len());
                prop_assert!(c.span.start >= last);
                prop_assert!(t.is_char_boundary(c.topic.start) && t.is_char_boundary(c.topic.end));
                last = c.span.end;
            }
            if !cs.is_empty() {
                let remove: Vec<usize> =
                    (0..cs.len()).filter(|i| pick >> (i % 64) & 1 == 1).collect();
                let _ = rewrite_without(&t, &remove);
            }
            let _ = phrase_without(&t, "The booking is at 20:00.");
            let _ = phrase_without("The booking is for four at 19:30.", &t);
        }
    }
}

#[test]
fn conjunctions_of_other_languages_split_clauses_and_not_pairs() {
    assert_eq!(
        texts("Ο Γιώργος είναι αλλεργικός στην πενικιλίνη και παίζει μπάσκετ στον Άρη."),
        [
            "Ο Γιώργος είναι αλλεργικός στην πενικιλίνη",
            "παίζει μπάσκετ στον Άρη"
        ]
    );
    assert_eq!(
        texts("Марина живёт в Казани и работает в банке."),
        ["Марина живёт в Казани", "работает в банке"]
    );
    assert_eq!(
        texts("موعد حسن في العيادة يوم الثلاثاء، وهو يتناول الدواء عند الحاجة."),
        [
            "موعد حسن في العيادة يوم الثلاثاء",
            "هو يتناول الدواء عند الحاجة"
        ]
    );
    // Pairs of nouns and short sides stay whole; a capital letter is no conjunction.
    for t in [
        "Ο Γιώργος τρώει μήλα και πορτοκάλια.",
        "Лена и Марина дружат.",
        "Lena takes Vitamin E daily with breakfast.",
    ] {
        assert_eq!(texts(t).len(), 1, "{t}: {:?}", texts(t));
    }
}

#[test]
fn the_conjunction_written_onto_a_word_splits_two_values() {
    // Hebrew and Arabic write "and" onto the next word: between two values it opens a clause.
    assert_eq!(
        texts("שרה לוי גרה ברחוב הרצל 15 בתל אביב ומספר הטלפון שלה 054-3321876."),
        [
            "שרה לוי גרה ברחוב הרצל 15 בתל אביב",
            "מספר הטלפון שלה 054-3321876"
        ]
    );
    assert_eq!(
        texts("يسكن أحمد في شارع الملك 12 ورقم هاتفه 0551 234 889."),
        ["يسكن أحمد في شارع الملك 12", "رقم هاتفه 0551 234 889"]
    );
    // A word that merely starts with the letter, or a side without a value, stays whole.
    for t in [
        "לשרה לוי יש ויזה לארצות הברית עד 2027.",
        "שרה לוי גרה בתל אביב ומטפלת בבנה הצעיר.",
        "أحمد يعمل في وزارة المالية منذ 2019.",
    ] {
        assert_eq!(texts(t).len(), 1, "{t}: {:?}", texts(t));
    }
}

#[test]
fn full_width_punctuation_splits_chinese_and_japanese() {
    assert_eq!(
        texts("吴刚的信用卡额度是 3 万元，他的客户经理是林晓。"),
        ["吴刚的信用卡额度是 3 万元", "他的客户经理是林晓"]
    );
    assert_eq!(
        texts("田中さんは東京に住んでいる。趣味は釣りです。").len(),
        2
    );
    // A short side is no clause: "今天，..." keeps its opening adverb.
    assert_eq!(texts("今天，王磊去了银行。").len(), 1);
    // Nor is a leading time adverbial ("from March 2023 on").
    for t in [
        "2023年3月起，陈静的工资卡是尾号 5521 的借记卡。",
        "2024年9月，陈静换了工作单位。",
        "4月から、田中さんは大阪支社に勤務している。",
    ] {
        assert_eq!(texts(t).len(), 1, "{t}: {:?}", texts(t));
    }
    // The rewrite keeps the full-width stop and adds no subject to a caseless clause.
    assert_eq!(
        rewrite_without("吴刚的信用卡额度是 3 万元，他的客户经理是林晓。", &[1]).as_deref(),
        Some("吴刚的信用卡额度是 3 万元。")
    );
    assert_eq!(
        rewrite_without("吴刚的信用卡额度是 3 万元，他的客户经理是林晓。", &[0]).as_deref(),
        Some("他的客户经理是林晓。")
    );
    assert_eq!(
        rewrite_without(
            "Ο Γιώργος είναι αλλεργικός στην πενικιλίνη και παίζει μπάσκετ στον Άρη.",
            &[0]
        )
        .as_deref(),
        Some("Ο Γιώργος παίζει μπάσκετ στον Άρη.")
    );
}

#[test]
fn a_pronoun_of_another_cased_language_opens_a_clause_after_a_comma() {
    assert_eq!(
        texts("Олег живёт в Казани, его машина — серая Лада."),
        ["Олег живёт в Казани", "его машина — серая Лада"]
    );
    assert_eq!(
        texts("Marie habite à Lyon, sa voiture est rouge."),
        ["Marie habite à Lyon", "sa voiture est rouge"]
    );
    // A preposition that is also a Polish pronoun ("on") does not.
    assert_eq!(
        texts("Ben visits the clinic, on Fridays"),
        ["Ben visits the clinic, on Fridays"]
    );
}

#[test]
fn names_coordinated_as_the_subject_are_no_clause() {
    assert_eq!(
        texts("Omar Haddad and Lea Brun share the corner office."),
        ["Omar Haddad and Lea Brun share the corner office"]
    );
    // A clause after them still splits.
    assert_eq!(
        texts("Omar Haddad and Lea Brun share an office and Lea has the window desk."),
        [
            "Omar Haddad and Lea Brun share an office",
            "Lea has the window desk"
        ]
    );
}

#[test]
fn a_clock_times_pm_ends_no_sentence_before_a_lowercase_word() {
    assert_eq!(
        texts("Sami sees the dentist at 9:15 a.m. and Noor at 2:40 p.m."),
        ["Sami sees the dentist at 9:15 a.m", "Noor at 2:40 p.m"]
    );
    let c = clauses("The class starts at 9 a.m. Ben drives.");
    assert_eq!(c.iter().map(|c| c.sentence).collect::<Vec<_>>(), [0, 1]);
}
