//! A supersede whose query and new text agree on which attribute they mean, over a subject that
//! holds only a sibling of it: another attribute of the same sphere of life ("bonus" beside
//! "salary", a driver's licence beside a licence plate). The sibling is never replaced, by its
//! words, by meaning or by relatedness; the same request where the attribute is held, or is
//! stated in other words of its sphere, still replaces it.

use super::*;

/// Asserts that superseding `query` with `new` over a fresh store of `facts` is a typed
/// no-match that leaves every row live, and that the plan rejects every row.
fn no_match(facts: &[&str], query: &str, new: &str) {
    let (_t, s) = store_with(facts);
    let target = Target::query(query);
    let plan = s
        .plan_with(Operation::Supersede, &target, Some(new))
        .unwrap();
    assert!(plan.rows.is_empty(), "{query}: {plan:?}");
    let err = s.supersede(target, Inscription::new(new)).err();
    assert!(matches!(err, Some(Error::NoMatch(_))), "{query}: {err:?}");
    assert_eq!(live_texts(&s).len(), facts.len(), "{query}");
}

/// Supersedes `query` with `new` over a fresh store of `facts` and returns the live texts.
fn after_supersede(facts: &[&str], query: &str, new: &str) -> Vec<String> {
    let (_t, s) = store_with(facts);
    s.supersede(Target::query(query), Inscription::new(new))
        .unwrap_or_else(|e| panic!("{query}: {e}"));
    live_texts(&s)
}

/// "lucía's annual salary" reaches "Lucía's annual bonus" by "annual", and the default
/// embedder puts the bonus closest in meaning; the query and the new text both say "salary",
/// and the row names a bonus, another attribute of employment.
#[test]
fn a_bonus_is_not_the_salary_both_texts_name() {
    let facts = [
        "Lucía Fernández's annual bonus is 16,000 EUR",
        "Lucía Fernández's work email is lfernandez@contoso.com",
        "Lucía Fernández's employee ID is E88010",
    ];
    no_match(
        &facts,
        "can you change lucía's annual salary?",
        "lucía's salary is now 62,000 USD",
    );
    no_match(
        &facts,
        "Lucía moved out last month; forget her old salary",
        "Lucía's salary is now 108,000 USD",
    );
    // Her bonus, asked as such, is replaced.
    let live = after_supersede(
        &facts,
        "Lucía's annual bonus",
        "Lucía Fernández's annual bonus is now 18,000 EUR",
    );
    assert!(live.iter().any(|t| t.contains("18,000")), "{live:?}");
    assert!(!live.iter().any(|t| t.contains("16,000")), "{live:?}");
}

/// "car registration" and "licence plate" name one attribute in other words; a driver's
/// licence shares their sphere (driving) and their word "licence", and is another document.
#[test]
fn a_driving_licence_is_not_the_licence_plate_both_texts_name() {
    no_match(
        &[
            "Chen Mei's driver's licence number is DL-898400",
            "Chen Mei's passport number is E12345678",
        ],
        "Chen Mei moved out last month; forget her old car registration",
        "Chen Mei's licence plate is now AB83 CDE",
    );
    let live = after_supersede(
        &[
            "Chen Mei's car registration is AB22 CDE",
            "Chen Mei's driver's licence number is DL-898400",
        ],
        "Chen Mei's old car registration",
        "Chen Mei's licence plate is now AB83 CDE",
    );
    assert!(live.iter().any(|t| t.contains("AB83 CDE")), "{live:?}");
    assert!(!live.iter().any(|t| t.contains("AB22 CDE")), "{live:?}");
    assert!(live.iter().any(|t| t.contains("DL-898400")), "{live:?}");
}

/// An attribute stated in other words of its sphere, naming no other attribute, is still the
/// one replaced: "office address" / "work address" over "Dmitri's office is located at ...".
#[test]
fn an_attribute_stated_in_other_words_of_its_sphere_is_still_replaced() {
    let live = after_supersede(
        &[
            "Dmitri Ivanov's office is located at Istiklal Cd. 88, Istanbul",
            "Dmitri Ivanov's home address is Tverskaya 10, Moscow",
            "Dmitri Ivanov's work email is divanov@contoso.com",
        ],
        "can you correct Dmitri Ivanov's office address?",
        "Dmitri Ivanov's work address is Dizengoff St 50, Tel Aviv",
    );
    assert!(live.iter().any(|t| t.contains("Dizengoff")), "{live:?}");
    assert!(!live.iter().any(|t| t.contains("Istiklal")), "{live:?}");
    assert!(live.iter().any(|t| t.contains("Tverskaya")), "{live:?}");
}

/// "pay" and "salary" name one attribute, a wedding anniversary is not a birthday: the bonus
/// row and the birth date are siblings of the attribute both texts name.
#[test]
fn pay_is_the_salary_and_an_anniversary_is_not_a_birthday() {
    let facts = [
        "Elena Markou received a bonus of 14,000 EUR this year",
        "Elena Markou was born on 16 February 1990",
        "Elena Markou's phone number is +30 210 555 0101",
    ];
    no_match(
        &facts,
        "change elena's pay",
        "elena's salary is now 116,000 EUR",
    );
    no_match(
        &facts,
        "Elena has complained about privacy; drop the wedding anniversary we have on file for her",
        "Elena's wedding anniversary is 21 March 1997",
    );
}

#[test]
fn a_compound_of_the_sphere_with_a_generic_head_is_another_attribute() {
    // "blood type" and "employee ID" share a sphere of life with a medication and a driver's
    // licence, but each names an attribute of its own: no row about the subject holds the
    // attribute both texts name, so nothing is replaced by relatedness or meaning.
    no_match(
        &[
            "Wei's blood type is AB+",
            "Wei's office is located at Hauptstraße 5, 10115 Berlin",
            "Wei's mobile: +7 916 506-62-20",
        ],
        "correct Wei's old medication",
        "Wei's new medication is lisinopril",
    );
    no_match(
        &[
            "Lucía Fernández's employee ID is E88010",
            "Lucía lives at Istiklal Cd. 88, Istanbul",
            "Nikos Papadopoulos' badge number is B-6668",
        ],
        "Dr. Fernández's driver's licence number",
        "Dr. Fernández's new driver's licence number is DL-772169",
    );
}

#[test]
fn a_row_already_holding_the_new_value_is_the_fact_a_supersede_restates() {
    // The medication is stated by a verb the attribute's words do not cover ("takes"), and
    // the new text restates its value: that row is replaced, not the blood type's.
    let facts = [
        "Min-jun Kim takes sertraline daily",
        "Min-jun Kim's blood type is A+",
        "Min-jun Kim's shoe size is EU 38",
    ];
    let live = after_supersede(
        &facts,
        "correct Min-jun's prescription",
        "Min-jun Kim's medication is sertraline",
    );
    assert!(!live.iter().any(|t| t == facts[0]), "{live:?}");
    assert!(live.iter().any(|t| t == facts[1]), "{live:?}");
    assert!(live.iter().any(|t| t == facts[2]), "{live:?}");
}

#[test]
fn a_word_naming_another_attribute_inside_the_compound_makes_it_another_attribute() {
    // "office email address" writes "office" and "address", but it is an e-mail address.
    let facts = [
        "David's office email address is dokafor@fabrikam.de",
        "David's driver's licence number is DL-724716",
    ];
    let (_t, s) = store_with(&facts);
    let r = s.purge(Target::query("the office address you have for David"));
    assert!(matches!(r, Err(Error::NoMatch(_))), "{r:?}");
    assert_eq!(live_texts(&s), facts);
    no_match(
        &facts,
        "please change the office address you have for David",
        "David's work address is now MG Road 14, Bengaluru",
    );
    // The office address itself is found, and a word of the asked attribute's own concept
    // between the two ("home mobile phone" for "home phone") is the same attribute.
    let held = [
        "David's office address is Baker Street 12, London",
        "David's home mobile phone is +44 7700 900789",
        "David's office email address is dokafor@fabrikam.de",
    ];
    let (_t, s) = store_with(&held);
    s.purge(Target::query("the office address you have for David"))
        .unwrap();
    s.purge(Target::query("David's home phone")).unwrap();
    assert_eq!(live_texts(&s), held[2..]);
}

/// Turkish frames a name as "X adlı kişi" (the person named X): "kişinin" (of the person) is no
/// word of the attribute, so "Mehmet Yılmaz adlı kişinin ilaçları" (his medications) never
/// reaches the row about his allergy that frames him the same way, and a request for his
/// allergy still does.
#[test]
fn the_turkish_frame_of_a_named_person_names_no_attribute() {
    let facts = [
        "Mehmet Yılmaz adlı kişinin yer fıstığı alerjisi var",
        "Niloufar Karimi's annual bonus is 15,000 EUR",
    ];
    no_match(
        &facts,
        "Mehmet Yılmaz adlı kişinin ilaçları",
        "Mehmet Yılmaz's medication is sertraline",
    );
    let left = after_supersede(
        &facts,
        "Mehmet Yılmaz adlı kişinin alerjisi",
        "Mehmet Yılmaz adlı kişinin penisilin alerjisi var",
    );
    assert!(left.iter().any(|t| t.contains("penisilin")), "{left:?}");
    assert!(!left.iter().any(|t| t.contains("fıstığı")), "{left:?}");
}

/// "the door code" and "the entry code" name the attribute by their modifier: a row stating
/// the Wi-Fi password, or another code, is not it, though the password and the code are both
/// secrets and "code" alone is a word any of them may use. Without the rule, relatedness or
/// meaning chose the Wi-Fi row.
#[test]
fn a_code_is_told_by_its_modifier_not_by_the_kind_of_value() {
    let office = [
        "Ivan Petrenko's office email address is ipetrenko@contoso.com",
        "The Wi-Fi password at the Osaka office is sunflower-42",
        "Jonas' employee ID is E18928",
    ];
    no_match(
        &office,
        "the Osaka office's door code",
        "The door code of the Osaka office is 6968#",
    );
    let branch = [
        "The Wi-Fi password at the Osaka branch is orchid#2024",
        "The Osaka branch is located at Leopoldstraße 3, Munich",
        "Olena Kovalenko is Somchai's manager",
    ];
    no_match(
        &branch,
        "the Osaka branch entry code",
        "The entry code of the Osaka branch is 9287#",
    );
    let warehouse = [
        "The door code for the Thessaloniki warehouse is 5585#",
        "The Thessaloniki warehouse is located at Gangnam-daero 396, Seoul",
        "Niloufar Karimi's employee ID is E91329",
    ];
    no_match(
        &warehouse,
        "The Thessaloniki warehouse alarm code",
        "The alarm code of the Thessaloniki warehouse is 8926#",
    );
    // The code the texts name is replaced where it is held.
    let live = after_supersede(
        &warehouse,
        "The Thessaloniki warehouse door code",
        "The door code of the Thessaloniki warehouse is 8926#",
    );
    assert!(live.iter().any(|t| t.contains("8926#")), "{live:?}");
    assert!(!live.iter().any(|t| t.contains("5585#")), "{live:?}");
}

/// "driver's license" and "licence plate": one word in its American and British spellings,
/// so the licence the row holds is the plate's, not a driving licence. Read as a request, the
/// new text says so too when the request is written in another language.
#[test]
fn a_license_in_either_spelling_is_not_the_licence_plate() {
    let facts = [
        "Niloufar Karimi's phone number is +1 415 555 5587",
        "Niloufar Karimi drives a car with licence plate B-AS 2093",
        "Niloufar Karimi's personal email is niloufar.karimi67@mail.ru",
    ];
    no_match(
        &facts,
        "niloufar's driver's license number",
        "niloufar's driver's licence number is DL-252363",
    );
    no_match(
        &facts,
        "把Niloufar的驾照号码改一下",
        "Niloufar's new driver's licence number is DL-898441",
    );
}

/// An e-mail address is an e-mail, not an address: "Fatima Zahra's address" does not reach her
/// home e-mail address, nor "the email address of Ahmed Hassan" his street address written in
/// Arabic (عنوان, address).
#[test]
fn an_email_address_is_not_an_address() {
    let facts = [
        "Fatima Zahra's home email address is fatima.zahra57@yahoo.co.jp",
        "Noa Levi's son is Fatima Zahra",
        "عنوان منزل أحمد حسن هو Hauptstraße 5, 10115 Berlin",
        "Ahmed Hassan's wife is Sarah",
    ];
    let (_t, s) = store_with(&facts);
    for (op, query) in [
        (Operation::Purge, "Fatima Zahra's address"),
        (Operation::Release, "the email address of Ahmed Hassan"),
    ] {
        let plan = s.plan_with(op, &Target::query(query), None).unwrap();
        assert!(plan.rows.is_empty(), "{query}: {plan:?}");
    }
    // The e-mail itself is still reached.
    let plan = s
        .plan_with(
            Operation::Purge,
            &Target::query("Fatima Zahra's email address"),
            None,
        )
        .unwrap();
    assert_eq!(plan.rows, vec![1], "{plan:?}");
}

/// "hakkındaki her şeyi" ("everything about") names no attribute in Turkish: the request is
/// about its subject alone. And a word naming a kind of value is no modifier: a "number plate"
/// is the licence plate the row holds.
#[test]
fn words_that_name_no_attribute_leave_the_subject_or_its_attribute() {
    let facts = [
        "Min-jun's office is located at Gangnam-daero 396, Seoul",
        "Ji-woo drives a car with licence plate B-AS 9736",
        "Ji-woo Park's annual bonus is 6,000 EUR",
    ];
    let (_t, s) = store_with(&facts);
    let plan = s
        .plan_with(
            Operation::Purge,
            &Target::query("Min-jun hakkındaki her şeyi sil"),
            None,
        )
        .unwrap();
    assert_eq!(plan.rows, vec![1], "{plan:?}");
    let live = after_supersede(
        &facts,
        "Ji-woo number plate",
        "Ji-woo's licence plate is AB48 CDE",
    );
    assert!(live.iter().any(|t| t.contains("AB48 CDE")), "{live:?}");
    assert!(!live.iter().any(|t| t.contains("B-AS 9736")), "{live:?}");
}
