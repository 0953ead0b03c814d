//! Names in their other forms, and names a request leaves unread: a Latin text writes a Greek
//! or Slavic name in the nominative, a woman's name may be a man's genitive, a hyphenated name
//! opening a request is one name, and a hiragana or Arabic possessor is the subject the new text
//! restates.

use super::*;

/// A Latin text writes a Greek name in the nominative: "niko" is not Νίκου, the genitive of
/// Νίκος (Nikos), any more than it is "Nikos" in Latin letters. "Nikos" still reaches the row.
#[test]
fn a_latin_name_meets_a_greek_one_only_in_the_nominative() {
    let facts: &[&str] = &[
        "Η διεύθυνση κατοικίας του Νίκου Παπαδόπουλου είναι Ermou 33, Athens",
        "Τα γενέθλια του Νίκου είναι στις 15.11.1964",
        "Nikos Papadopoulos's work email is npapadopoulos@contoso.com",
    ];
    for request in ["residential address for niko", "drop niko's birth date"] {
        let left = survivors_after_purge(facts, request);
        assert_eq!(left.len(), 3, "{request}: {left:?}");
    }
    let left = survivors_after_purge(facts, "Nikos's birthday");
    assert_eq!(left.len(), 2, "{left:?}");
    assert!(!left.iter().any(|t| t.contains("γενέθλια")), "{left:?}");
}

/// A Japanese given name written in hiragana (さくら) reads as grammar in the request, so the
/// request seems to name nobody; the new text names her as its possessor. A row about someone
/// else's medication is not hers, however related its words.
#[test]
fn a_name_the_new_text_states_as_possessor_is_required_of_a_fallback() {
    let facts: &[&str] = &[
        "Yuki Tanaka's shoe size is EU 42",
        "Somchai Saetang has staff number E10690",
        "Somchai's current medication is metformin",
    ];
    let (query, new) = (
        "さくらの服用薬を更新してください",
        "さくら's medication is lisinopril",
    );
    assert!(supersede_rows(facts, query, new).is_empty());
    // With her row in the store, the same request replaces it.
    let mut with_her = facts.to_vec();
    with_her.push("さくら's current medication is amlodipine");
    assert_eq!(supersede_rows(&with_her, query, new), vec![4]);
}

/// An Arabic request marks its possessor by no particle: "رقم هاتف محمود حسن" is Mahmoud
/// Hassan's phone number, and the new text restates him after the same words. He is the
/// subject, not the new value, so Ahmed Hassan's number is not replaced; "حدّث" (update) is a
/// request word with its vowel point.
#[test]
fn an_arabic_possessor_restated_after_the_same_attribute_is_the_subject() {
    let facts: &[&str] = &[
        "رقم هاتف أحمد حسن هو +1 415 555 6980",
        "Ahmed Hassan's wife is Sarah",
        "Ahmed Hassan earns 86,000 EUR a year",
    ];
    let query = "حدّث رقم هاتف محمود حسن";
    let new = "رقم هاتف محمود حسن هو +44 7700 900918";
    assert!(supersede_rows(facts, query, new).is_empty());
    // His own number is replaced.
    let mut with_him = facts.to_vec();
    with_him.push("رقم هاتف محمود حسن هو +20 10 5555 0101");
    assert_eq!(supersede_rows(&with_him, query, new), vec![4]);
}

/// The rows a supersede of `query` with `new` would change in a fresh store of `facts`.
fn supersede_rows(facts: &[&str], query: &str, new: &str) -> Vec<u64> {
    let (_t, s) = store_with(facts);
    s.plan_with(Operation::Supersede, &Target::query(query), Some(new))
        .unwrap()
        .rows
}

/// "Ivana" and "Mrs. Ivanova" are also the genitives of Ivan and Ivanov: "Особиста пошта
/// Івана" is Ivan's mail. In a store that names Ivan and Dmitri Ivanov elsewhere and no woman
/// called Ivana or Ivanova, a request for her reaches none of their rows; the men's own names
/// still do.
#[test]
fn a_womans_name_that_is_a_mans_genitive_does_not_reach_his_rows() {
    let facts: &[&str] = &[
        "Ivan Petrenko's office email address is ipetrenko@contoso.com",
        "Особиста пошта Івана: ivan.petrenko36@mail.ru",
        "Dmitri Ivanov's phone number is +7 495 555 0101",
        "Номер паспорта Дмитрия Иванова: PT2005234",
    ];
    for (op, request) in [
        (Operation::Purge, "erase the personal email of Ivana"),
        (Operation::Release, "Mrs. Ivanova: passport details"),
    ] {
        let (_t, s) = store_with(facts);
        let plan = s.plan_with(op, &Target::query(request), None).unwrap();
        assert!(plan.rows.is_empty(), "{request}: {plan:?}");
    }
    let left = survivors_after_purge(facts, "Dmitri Ivanov's passport number");
    assert_eq!(left.len(), 3, "{left:?}");
    assert!(!left.iter().any(|t| t.contains("PT2005234")), "{left:?}");
}

/// A hyphenated given name opening a request ("Min-jun passport number") is capitalized by
/// grammar only in its first half: its lowercase half is part of the name the rows write, not
/// a word of the attribute every row about Min-jun holds.
#[test]
fn a_hyphenated_name_opening_a_request_is_one_name() {
    let facts: &[&str] = &[
        "Min-jun's credit card number is 4111 1111 1111 6517",
        "Min-jun Kim's birthday is 1 August 2002",
        "Min-jun Kim's annual bonus is 12,000 EUR",
        "Carmen is Min-jun Kim's husband",
    ];
    for request in ["Min-jun passport number", "Min-jun date of birth"] {
        let (_t, s) = store_with(facts);
        let plan = s
            .plan_with(Operation::Purge, &Target::query(request), None)
            .unwrap();
        assert!(
            !plan.rows.iter().any(|r| [1, 3, 4].contains(r)),
            "{request}: {plan:?}"
        );
    }
    let left = survivors_after_purge(facts, "Min-jun birthday");
    assert_eq!(left.len(), 3, "{left:?}");
    assert!(!left.iter().any(|t| t.contains("1 August")), "{left:?}");
}
