//! Tests of the kinds of value a text states and of the choice by them.

use super::*;

fn kinds(text: &str) -> Vec<ValueKind> {
    value_kinds(&RowView::new(text)).into_iter().collect()
}

#[test]
fn values_are_told_by_their_structure() {
    use ValueKind::*;
    assert!(kinds("Rafael Costa's mobile on file is +351 912 345 678.").contains(&Phone));
    assert_eq!(
        kinds("Siobhán Kelly's arranged overdraft is €500."),
        [Money]
    );
    assert_eq!(kinds("The Kyoto trip budget is 3,000 USD."), [Money]);
    assert_eq!(kinds("王磊的房贷月供是 8,600 元。"), [Money]);
    assert_eq!(kinds("The flight leaves at 09:40."), [Time]);
    assert_eq!(kinds("Η Σοφία κάνει μάθημα πιάνου στις 17:00."), [Time]);
    assert_eq!(kinds("Lena's visit is on 14 June."), [Date]);
    assert_eq!(kinds("The renewal is on 2026-10-01."), [Date]);
    assert_eq!(kinds("The renewal is on 01/10/2026."), [Date]);
    assert_eq!(kinds("Member number 1-84-22."), [Code]);
    assert_eq!(kinds("他的生日是 3 月 5 日。"), [Date]);
    assert_eq!(kinds("Metoprolol 50 mg once daily."), [Quantity]);
    assert_eq!(kinds("The discount is 15%."), [Percent]);
    assert!(kinds("Write to lena@example.org.").contains(&Email));
    assert!(kinds("Noa Friedman is recovering from an appendectomy.").is_empty());
    assert!(kinds("She has 3 children.").is_empty());
    assert!(kinds("The spare key is in room 3 in building B.").is_empty());
}

#[test]
fn street_addresses_are_a_house_number_beside_a_street_word() {
    let address = |t: &str| street_address(&RowView::new(t)).is_some();
    for t in [
        "As of March 2024, Samir Aoun lived at 12 Rue Gouraud, Beirut.",
        "Since September 2024, Samir Aoun lives at 45 Hamra Street, Beirut.",
        "The Moreau family lives at 5 Chemin des Vignes, Annecy.",
        "Anna wohnt in der Hauptstraße 5 in Köln.",
        "Office: Calle Mayor 12, Madrid.",
        "Her flat is at 7b Elm Road.",
    ] {
        assert!(address(t), "{t}");
        assert!(kinds(t).contains(&ValueKind::Address), "{t}");
    }
    for t in [
        "Patient Yosef Cohen is in room 12 on Ward B.",
        "The Mizrahi group booked table 12 for Friday.",
        "Dr. Ali Mansour is on pager 4471.",
        "Street food tour on 12 May.",
        "Ali lives on Ngong Road.",
        "Flight BA 117 leaves at 9, Terminal 5.",
    ] {
        assert!(!address(t), "{t}");
    }
}

#[test]
fn only_kinds_that_name_one_attribute_stand_for_a_concept() {
    assert_eq!(ValueKind::of_concept("phone"), Some(ValueKind::Phone));
    assert_eq!(ValueKind::of_concept("email"), Some(ValueKind::Email));
    assert_eq!(ValueKind::of_concept("address"), Some(ValueKind::Address));
    for c in [
        "salary", "birthday", "limit", "balance", "password", "flight",
    ] {
        assert_eq!(ValueKind::of_concept(c), None, "{c}");
    }
    // A street seen only by words is no evidence against another kind.
    let row = kinds("Amina's address is 14 Kingsway, Nairobi, since 2019.")
        .into_iter()
        .collect();
    let new = kinds("Amina moved to 3 Ngong Road, Nairobi.")
        .into_iter()
        .collect();
    assert!(!other_kind(&row, &new));
}

fn chosen(query: &str, new_text: &str, rows: &[&str]) -> Option<usize> {
    let q = QueryShape::parse(query);
    let h = QueryShape::parse(new_text);
    let views: Vec<RowView<'_>> = rows.iter().map(|r| RowView::new(r)).collect();
    let refs: Vec<&RowView<'_>> = views.iter().collect();
    choose(&q, &h, &refs)
}

#[test]
fn the_new_value_kind_chooses_the_row_it_replaces() {
    let rows = [
        "Rafael Costa's customer number is PT-7781203.",
        "Rafael Costa's mobile on file is +351 912 345 678.",
        "Rafael Costa's branch is Avenida da Boavista, Porto.",
    ];
    let new = "Rafael Costa changed his contact phone number to +351 936 111 204.";
    assert_eq!(
        chosen("the number the bank texts Rafael on", new, &rows),
        Some(1)
    );
    // An amount, a date or a code is stated by many attributes: the kind alone chooses
    // nothing, whatever words the row shares ("Priya's new badge number is B-8641" is not
    // her employee number).
    let rows = [
        "Hamid Karimi's travel budget for the Kyoto trip is 3,000 USD.",
        "Hamid Karimi's Kyoto trip runs from 1 to 8 April.",
        "Hamid Karimi's Seoul trip budget is 2,200 USD.",
    ];
    let new = "Hamid Karimi can spend up to 4,500 USD on the Kyoto trip.";
    assert_eq!(chosen("Hamid's spending cap", new, &rows), None);
    let rows = [
        "Priya's employee number is E-20931.",
        "Priya lives in Pune.",
    ];
    let new = "Priya's new badge number is B-8641.";
    assert_eq!(chosen("Priya's badge", new, &rows), None);
    // An amount sharing no word with the request is no evidence: "Kenta's salary" is not
    // his rent.
    let rows = ["Kenta pays 90,000 yen rent.", "Kenta lives in Osaka."];
    let new = "Kenta earns 9,000,000 yen a year.";
    assert_eq!(chosen("Kenta's salary", new, &rows), None);
    // Two rows holding the kind, neither sharing more words: no choice.
    let rows = [
        "Mustafa takes metoprolol 50 mg once daily.",
        "Mustafa takes apixaban 5 mg twice daily.",
    ];
    let new = "Mustafa's beta blocker was changed to bisoprolol 5 mg.";
    assert_eq!(chosen("Mustafa's beta blocker", new, &rows), None);
    // A lone row: only when it restates most of the new text.
    let rows = ["Rafael Costa's mobile on file is +351 912 345 678."];
    let new = "Rafael Costa's mobile on file is now +351 936 111 204.";
    assert_eq!(
        chosen("the number the bank texts Rafael on", new, &rows),
        Some(0)
    );
    let new = "Rafael Costa changed his contact phone number to +351 936 111 204.";
    assert_eq!(
        chosen("the number the bank texts Rafael on", new, &rows),
        None
    );
    let rows = ["Kenta's rent is 90,000 yen."];
    let new = "Kenta's salary is 9,000,000 yen a year.";
    assert_eq!(chosen("Kenta's salary", new, &rows), None);
    // A new text without a value chooses nothing.
    assert_eq!(
        chosen("Rafael's branch", "Rafael Costa banks online now.", &rows),
        None
    );
}

#[test]
fn the_rest_of_the_subjects_name_is_no_shared_word() {
    // The query says "Lucia", the new text "Lucia Ferrante": the surname every row
    // repeats says nothing about which row holds the attribute, and the date in the new
    // text (when she joined) is no evidence for the only row holding a date.
    let rows = [
        "Lucia Ferrante flies to Lisbon on 12 May.",
        "Lucia Ferrante plays the cello.",
    ];
    let new = "Lucia Ferrante joined the Boulder Loft climbing club in June.";
    assert_eq!(chosen("Lucia changed her climbing gym", new, &rows), None);
    // Between two rows holding the kind, a word of the attribute still counts; the
    // surname both repeat does not.
    let rows = [
        "Lucia Ferrante's climbing club can be reached on +39 02 555 0101.",
        "Lucia Ferrante's mobile is +39 333 555 0199.",
    ];
    let new = "Lucia Ferrante's climbing club can now be reached on +39 02 555 0142.";
    assert_eq!(chosen("Lucia's gym contact", new, &rows), Some(0));
}

#[test]
fn an_iban_with_failing_check_digits_is_an_account_number() {
    assert_eq!(
        kinds("Mehmet's bank account (IBAN) is DE33 3704 0044 0532 1228 89"),
        [ValueKind::Iban]
    );
    assert_eq!(
        kinds("The VAT number of Litware is DE680402774"),
        [ValueKind::Code]
    );
    assert_eq!(kinds("card 4111 1111 1111 6879"), [ValueKind::Code]);
}

#[test]
fn numbered_codes_keep_their_format() {
    let other = |row: &str, new: &str| other_code_format(&RowView::new(row), &RowView::new(new));
    // Lengths two or more digits apart, both numbered.
    assert!(other(
        "Noa's tax ID is TIN 60-6530376",
        "passport DR8025316"
    ));
    assert!(other("SSN 348-46-9277", "licence DL-474057"));
    // The same format, one digit of slack, or a code of few digits.
    assert!(!other("passport XDA019384", "passport XDB552017"));
    assert!(!other("badge E50564", "badge B-9324"));
    assert!(!other("plate B-AS 2641", "plate AB89 CDE"));
    assert!(!other("no code here", "passport DR8025316"));
    // Any of a row's codes may be the earlier value.
    assert!(!other(
        "TIN 60-6530376 and passport DR7711204",
        "passport DR8025316"
    ));
}
