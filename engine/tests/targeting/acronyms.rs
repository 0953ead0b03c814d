//! Acronyms in a request: an acronym the request does not mark as a subject ("VPN" in
//! "Rafael's VPN access") names the attribute as well as being a word a row must hold.

use super::*;

const RAFAEL: [&str; 5] = [
    "Rafael Ortiz's VPN profile is VPN-SALES-EU.",
    "Rafael Ortiz's laptop is a ThinkPad X1.",
    "Rafael Ortiz's desk is 4-118.",
    "Rafael Ortiz's SSN is 512-44-9081.",
    "Rafael Ortiz's manager is Dana Whitt.",
];

#[test]
fn an_acronym_after_the_subject_names_the_attribute() {
    // "access", "widened" and "audit" are in no row: the VPN row holds the attribute through
    // the acronym alone.
    let live = live_after_supersede(
        &RAFAEL,
        "Rafael's VPN access was widened for the audit",
        "Rafael Ortiz's VPN profile is VPN-SALES-ALL.",
        1,
    );
    assert!(!live.iter().any(|t| t.contains("VPN-SALES-EU")), "{live:?}");
    for kept in &RAFAEL[1..] {
        assert!(live.iter().any(|t| t == kept), "{kept} lost: {live:?}");
    }
}

#[test]
fn an_acronym_is_no_evidence_of_a_relative_or_an_absent_attribute() {
    let (_t, s) = store_with(&RAFAEL);
    // The SSN asked about is his son's: Rafael's own is not it.
    for op in [Operation::Purge, Operation::Release] {
        let plan = s
            .plan_with(op, &Target::query("Rafael's son's SSN"), None)
            .unwrap();
        assert!(plan.rows.is_empty(), "{op:?}: {plan:?}");
    }
    // No row holds a CRM acronym: nothing of Rafael's is the CRM password.
    let plan = s
        .plan_with(
            Operation::Release,
            &Target::query("Rafael's CRM password"),
            None,
        )
        .unwrap();
    assert!(plan.rows.is_empty(), "{plan:?}");
}
