//! Identifiers in targeting: matched across grouping, case and width, only whole, narrowed to
//! the named subject when several people share one, and values of a kind (phone, e-mail,
//! address) found by the value a row states.

use super::*;

#[test]
fn identifiers_match_across_grouping_case_and_width() {
    let cases: &[(&[&str], &str, &str, &str)] = &[
        (
            &[
                "Customer phone: +1 (415) 555-0132.",
                "Supplier phone: +1 (415) 555-0177.",
            ],
            "14155550132",
            "555-0132",
            "555-0177",
        ),
        (
            &[
                "Refunds go to GB29 NWBK 6016 1331 9268 19.",
                "Salary goes to GB94 BARC 1020 1530 0934 59.",
            ],
            "GB29NWBK60161331926819",
            "GB29",
            "GB94",
        ),
        (
            &[
                "Order ＴＸＮ－４４８１ was disputed.",
                "Order TXN-4482 was delivered.",
            ],
            "TXN-4481",
            "disputed",
            "delivered",
        ),
        (
            &[
                "The lab printer has MAC 00:1A:2B:3C:4D:5E.",
                "The lab camera has MAC 00:1A:2B:3C:4D:6F.",
            ],
            "001a.2b3c.4d5e",
            "printer",
            "camera",
        ),
        (
            &[
                "Contact: Maria.Lopez@Example.com for the lease.",
                "Contact: Pedro.Sanz@Example.com.",
            ],
            "maria.lopez@example.com",
            "lease",
            "Pedro",
        ),
    ];
    for (facts, query, gone, kept) in cases {
        let left = survivors_after_purge(facts, query).join("\n");
        assert!(
            !left.contains(gone),
            "{query}: {gone:?} survived in {left:?}"
        );
        assert!(left.contains(kept), "{query}: {kept:?} was lost: {left:?}");
    }
}

/// A number the request writes on its own is the same number inside a longer token (a host
/// name, a booking code) or zero-padded, never a number whose digits merely contain it, nor
/// one group of a number written in groups.
#[test]
fn a_number_is_found_inside_a_longer_token() {
    let cases: &[(&[&str], &str, &str, &[&str])] = &[
        (
            &[
                "The loading bay sensor reports to node-0387.plant.internal.",
                "The boiler sensor reports to node-0378.plant.internal.",
                "The roof sensor reports to node-1387.plant.internal.",
            ],
            "sensor 387, it was replaced",
            "node-0387",
            &["node-0378", "node-1387"],
        ),
        (
            &[
                "Priit's ferry ticket reference is TLN55821Q.",
                "Kadri's ferry ticket reference is TLN55812Q.",
            ],
            "ferry ticket 55821",
            "TLN55821Q",
            &["TLN55812Q"],
        ),
    ];
    for (facts, query, gone, kept) in cases {
        let left = survivors_after_purge(facts, query).join("\n");
        assert!(
            !left.contains(gone),
            "{query}: {gone:?} survived in {left:?}"
        );
        for k in *kept {
            assert!(left.contains(k), "{query}: {k:?} was lost: {left:?}");
        }
    }
    // One group of a grouped number is not the number.
    let left = survivors_after_purge(
        &[
            "Reception's line is 8-800-387-21-40.",
            "The sensor hub is node-7.",
        ],
        "sensor 387",
    );
    assert_eq!(left.len(), 2, "{left:?}");
}

#[test]
fn identifiers_match_only_whole() {
    let left = survivors_after_purge(
        &[
            "Refund TXN-12345 went to Marta.",
            "Charge TXN-123456 went to Oren.",
        ],
        "TXN-12345",
    );
    assert_eq!(left, ["Charge TXN-123456 went to Oren."]);
    let left = survivors_after_purge(
        &[
            "Contact alice@northwind.io about the renewal.",
            "Contact alice.smith@northwind.io about the invoice.",
        ],
        "alice@northwind.io",
    );
    assert_eq!(
        left,
        ["Contact alice.smith@northwind.io about the invoice."]
    );
    // An identifier found nowhere matches nothing, even if its letters match a word.
    let left = survivors_after_purge(&["Charge TXN-123456 went to Oren."], "TXN-12345");
    assert_eq!(left.len(), 1);
}

#[test]
fn a_shared_identifier_reaches_only_the_named_subjects_row() {
    let facts = [
        "Lucia Ferri is on group booking GRP-40917.",
        "Marco Ferri is on group booking GRP-40917.",
        "Group booking GRP-40917 flies Rome to Lisbon on 2 May.",
    ];
    let left = survivors_after_purge(&facts, "Marco's seat on booking GRP-40917, he cancelled");
    assert_eq!(left, vec![facts[0].to_owned(), facts[2].to_owned()]);
    // Everything about a subject still reaches every row carrying the identifier it lists.
    let (_t, s) = store_with(&[
        "Ana Lima's e-mail is ana.lima@example.org.",
        "Login ana.lima@example.org was locked.",
    ]);
    s.purge(Target::query(
        "everything about Ana Lima (ana.lima@example.org)",
    ))
    .unwrap();
    assert!(live_texts(&s).is_empty(), "{:?}", live_texts(&s));
}

/// An identifier's capitalized part ("ACME" of "ACME-TRV-22") is no subject the rows must name:
/// only the named subject's row goes, not the other holders' rows.
#[test]
fn a_capitalized_part_of_an_identifier_is_no_subject() {
    let facts = [
        "Jin Park's flights are billed to corporate account ACME-TRV-22.",
        "Mateo Rossi's flights are billed to corporate account ACME-TRV-22.",
        "Corporate account ACME-TRV-22 has a monthly limit of $40,000.",
    ];
    let left = survivors_after_purge(&facts, "billing for Mateo Rossi on ACME-TRV-22");
    assert_eq!(left, vec![facts[0].to_owned(), facts[2].to_owned()]);
}

#[test]
fn a_phone_an_e_mail_or_an_address_is_found_by_the_value_the_row_states() {
    let rows: &[&str] = &[
        "Jo Tanaka's work e-mail is jo@meridian-hr.com.",
        "Kojo Ansah's work e-mail is kojo@meridian-hr.com.",
        "Jo Tanaka is a sourcing lead in the Osaka office.",
    ];
    let left = survivors_after_purge(rows, "Jo Tanaka's email address");
    assert!(!left.iter().any(|t| t.contains(" jo@")), "{left:?}");
    assert_eq!(left.len(), 2, "{left:?}");

    let rows: &[&str] = &[
        "As of March 2024, Samir Aoun lived at 12 Rue Gouraud, Beirut.",
        "Since September 2024, Samir Aoun lives at 45 Hamra Street, Beirut.",
        "Samir Aoun's cardiologist is Dr. Nadine Karam.",
    ];
    let left = survivors_after_purge(rows, "Samir's March address");
    assert!(!left.iter().any(|t| t.contains("Gouraud")), "{left:?}");
    assert_eq!(left.len(), 2, "{left:?}");

    // Kinds that many attributes state never stand for one: no salary is stored.
    let rows: &[&str] = &["Kenta's rent is 800 EUR a month.", "Kenta lives in Osaka."];
    let (_t, s) = store_with(rows);
    assert!(matches!(
        s.purge(Target::query("Kenta's salary")),
        Err(Error::NoMatch(_))
    ));
    assert_eq!(live_texts(&s).len(), 2);
    // Nor does an address reach a phone number.
    let rows: &[&str] = &["Lea Roth's phone is +49 30 1234567."];
    let (_t, s) = store_with(rows);
    assert!(matches!(
        s.purge(Target::query("Lea Roth's home address")),
        Err(Error::NoMatch(_))
    ));
    assert_eq!(live_texts(&s).len(), 1);
}

/// A supersede's request may state the new value ("the new number is 7700-9040"): an
/// identifier no row holds and the new text holds is that value, not evidence the old row must
/// hold. One that neither holds still rules every row out.
#[test]
fn an_identifier_a_supersede_query_shares_only_with_its_new_text_is_the_new_value() {
    let facts = [
        "Iwona Lis's laptop is a Latitude 7440 and her badge number is 5100-2231.",
        "Iwona Lis parks in space B-14.",
        "Tomasz Wrona's badge number is 5100-2232.",
    ];
    let (_t, s) = store_with(&facts);
    let new = "Iwona Lis's badge number is now 5100-7788.";
    let done = s
        .supersede(
            Target::query("Iwona's badge was replaced; the new number is 5100-7788"),
            Inscription::new(new),
        )
        .unwrap();
    assert_eq!(done.edited.len() + done.replaced.len(), 1, "{done:?}");
    let left = live_texts(&s);
    assert!(left.iter().any(|t| t.contains("Latitude 7440")), "{left:?}");
    assert!(!left.iter().any(|t| t.contains("5100-2231")), "{left:?}");
    assert!(left.iter().any(|t| t.contains("5100-2232")), "{left:?}");
    // An identifier neither the rows nor the new text hold is still required.
    let (_t, s) = store_with(&facts);
    let r = s.supersede(
        Target::query("Iwona's badge 5100-9999"),
        Inscription::new(new),
    );
    assert!(matches!(r, Err(oubli::Error::NoMatch(_))), "{r:?}");
}

/// A code inside a path, a share or a file name is that whole token when a row holds it whole:
/// purging one file then never reaches a file whose name extends it, nor a row holding only the
/// code inside it. When no row holds the token whole, the code inside it is what a row may write
/// on its own (a host name embedding a device number).
#[test]
fn a_code_inside_a_path_matches_only_the_whole_path() {
    let facts = [
        "Marta Gil's first draft is at /cases/gil/N-400_draft.pdf.",
        "Marta Gil's reviewed draft is at /cases/gil/N-400_draft_v2.pdf.",
        "Marta Gil's N-400 is due on 1 March.",
    ];
    let left = survivors_after_purge(&facts, "purge /cases/gil/N-400_draft.pdf, it is outdated");
    assert_eq!(left.len(), 2, "{left:?}");
    assert!(!left.iter().any(|t| t.contains("first draft")), "{left:?}");
    // A Windows share is one token too: "hydro" is not "hydro-archive".
    let facts = [
        r"The share \\nas2\team\hydro is backed up at 01:00.",
        r"The share \\nas2\team\hydro-archive is backed up on Sundays.",
    ];
    let left = survivors_after_purge(&facts, r"the backup of \\nas2\team\hydro");
    assert_eq!(left.len(), 1, "{left:?}");
    assert!(left[0].contains("hydro-archive"), "{left:?}");
    // No row holds the host name whole: the number inside it is the camera a row names alone.
    let facts = [
        "Camera 0412 watches the nursery.",
        "Camera 0421 watches the front door.",
    ];
    let left = survivors_after_purge(&facts, "the nursery feed from cam-0412.home.lan");
    assert_eq!(left, ["Camera 0421 watches the front door."], "{left:?}");
}

#[test]
fn a_code_is_found_as_a_segment_of_the_address_a_row_writes_it_in() {
    // "0231" is the asset number in the host name; "0213" and "ward7" are other printers.
    let left = survivors_after_purge(
        &[
            "The ward 6 corridor printer is printer-ward6-0231.shaare.local.",
            "The ward 7 corridor printer is printer-ward7-0232.shaare.local.",
            "The ward 6 nurse station printer is printer-ward6-0213.shaare.local.",
        ],
        "the ward 6 printer with asset number 0231",
    );
    assert_eq!(left.len(), 2);
    assert!(!left.join("\n").contains("0231"));
    let left = survivors_after_purge(
        &[
            "Kitchen printer kp07.kyma.lan prints the hot-line tickets.",
            "Kitchen printer kp08.kyma.lan prints the pastry tickets.",
        ],
        "kitchen printer KP-07",
    );
    assert_eq!(
        left,
        ["Kitchen printer kp08.kyma.lan prints the pastry tickets."]
    );
    // A code that continues into a segment of digits is another code, and an address is
    // never found inside a longer one.
    for (facts, query) in [
        (
            &[
                "Version notes are at docs/api-1.4.2.html.",
                "Budget sheet is budget.xlsx.",
            ][..],
            "api 1.4",
        ),
        (
            &[
                "Scans are in files/B-5693-2.pdf.",
                "The lift is serviced in spring.",
            ][..],
            "B-5693",
        ),
        (
            &[
                "The repo github.com/acme/api-gateway hosts the edge proxy.",
                "The lift is serviced in spring.",
            ][..],
            "github.com/acme/api",
        ),
    ] {
        assert_eq!(survivors_after_purge(facts, query).len(), 2, "{query}");
    }
}

/// A file name names the file a row writes at the end of a longer path, and no other file
/// whose name merely contains it.
#[test]
fn a_file_name_is_the_file_at_the_end_of_a_path() {
    let facts: &[&str] = &[
        "The draft itinerary is /itineraries/2025/tanaka_kyoto.pdf.",
        "The current itinerary is /itineraries/2025/tanaka_kyoto_v2.pdf.",
        "The archived copy is /archive/old_tanaka_kyoto.pdf and stays.",
    ];
    let left = survivors_after_purge(facts, "the draft file tanaka_kyoto.pdf");
    assert_eq!(
        left,
        [
            "The current itinerary is /itineraries/2025/tanaka_kyoto_v2.pdf.",
            "The archived copy is /archive/old_tanaka_kyoto.pdf and stays."
        ]
    );
    // A file no row holds is a no-match.
    let left = survivors_after_purge(facts, "the draft file tanaka_osaka.pdf");
    assert_eq!(left.len(), 3, "{left:?}");
}

#[test]
fn a_value_glued_to_an_unspaced_script_is_erased_by_its_identifier() {
    // Chinese, Japanese and Thai write no space between words and Korean attaches particles:
    // an erasure by phone number or e-mail must still reach the row.
    let facts = [
        "Anna Schmidtの電話番号は+7 916 493-83-28です",
        "เบอร์โทรของสมชายคือ081-234-5678ครับ",
        "민준의 전화번호는 010-4321-8765입니다",
        "李伟的邮箱是li.wei@example.com，谢谢",
        "Anna Schmidt likes green tea; her phone is +7 916 493-83-29",
    ];
    for (query, gone) in [
        ("+7 916 493-83-28", "です"),
        ("0812345678", "ครับ"),
        ("010 4321 8765", "입니다"),
        ("li.wei@example.com", "谢谢"),
    ] {
        let left = survivors_after_purge(&facts, query);
        assert_eq!(left.len(), facts.len() - 1, "{query}: {left:?}");
        assert!(!left.iter().any(|t| t.contains(gone)), "{query}: {left:?}");
    }
}

#[test]
fn a_request_that_is_one_identifier_names_what_it_acts_on() {
    // The request is nothing but a plate; the new text restates it. It is the plate to act
    // on, not a new value: a store holding another plate one digit apart has no such row.
    let facts = [
        "Somchai Saetang drives a car with licence plate 34 ABC 992 and his home address is Baker Street 12, London",
        "Yuki Tanaka's car registration is AB18 CDE",
    ];
    let new = "The car registration 34 ABC 993 is no longer valid";
    let (_t, s) = store_with(&facts);
    let r = s.supersede(Target::query("34 ABC 993"), Inscription::new(new));
    assert!(matches!(r, Err(Error::NoMatch(_))), "{r:?}");
    assert_eq!(live_texts(&s), facts);
    // Where the plate is held, that row's clause is the one replaced.
    let held = [
        "Somchai Saetang's car has licence plate 34 ABC 993",
        facts[1],
    ];
    let (_t, s) = store_with(&held);
    let done = s
        .supersede(Target::query("34 ABC 993"), Inscription::new(new))
        .unwrap();
    assert_eq!(done.replaced, vec![1], "{done:?}");
    assert!(live_texts(&s).iter().any(|t| t == facts[1]));
}

#[test]
fn an_identifier_opening_the_request_is_its_topic_not_a_new_value() {
    // "34 KLM 300 belongs to a driver who left": the plate is what the request is about. The
    // new text restates it, but no row holds it, so there is nothing to supersede: the van's
    // plate one digit apart is another plate.
    let facts = [
        "Rafael Ortiz drives a van with plate 34 KLM 305.",
        "Rafael Ortiz's desk is 4-118.",
    ];
    let (_t, s) = store_with(&facts);
    let query = "34 KLM 300 belongs to a driver who left, please update it";
    let r = s.supersede(
        Target::query(query),
        Inscription::new("The plate 34 KLM 300 is no longer in use."),
    );
    assert!(matches!(r, Err(Error::NoMatch(_))), "{r:?}");
    assert_eq!(live_texts(&s), facts);
    // After a request verb the identifier is the new value, as before.
    let done = s
        .supersede(
            Target::query("change Rafael's van plate to 34 KLM 300"),
            Inscription::new("Rafael Ortiz drives a van with plate 34 KLM 300."),
        )
        .unwrap();
    assert_eq!(done.replaced, vec![1], "{done:?}");
}

#[test]
fn an_identifier_the_new_text_restates_is_context_not_the_clause_replaced() {
    // The flight LO281 is in both texts: it is what the old and the new seat share. The clause
    // the request's words reach ("booked seat 14C") is replaced; the meal on that flight stays.
    let t = temp();
    let (s, _) = create_fixed(&t);
    let id = s
        .inscribe(Inscription::new(
            "Marek Nowak booked seat 14C and requested a kosher meal on LO281 to Toronto.",
        ))
        .unwrap();
    let out = s
        .supersede(
            Target::query("Marek's seat on LO281"),
            Inscription::new("Marek Nowak is now in seat 2A on LO281."),
        )
        .unwrap();
    assert_eq!(out.edited, [id], "{out:?}");
    let live = live_texts(&s);
    assert!(live.iter().any(|t| t.contains("kosher meal")), "{live:?}");
    assert!(!live.iter().any(|t| t.contains("14C")), "{live:?}");
    // When the new text does not restate the identifier, it is evidence of its clause as
    // before: the old phone number chooses the clause that holds it.
    let (_t2, s) = store_with(&["Ines Vidal's phone is +34 611 200 300 and her locker is B7."]);
    let plan = s
        .plan_with(
            Operation::Supersede,
            &Target::query("Ines's number +34 611 200 300"),
            Some("Ines Vidal's phone is now +34 699 100 100."),
        )
        .unwrap();
    assert_eq!(plan.matches[0].clauses, vec![0], "{plan:?}");
}
