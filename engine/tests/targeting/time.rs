//! Time in requests: dates that fix or bound the period a request is about, periods bounded by
//! before, after or since, and day names across languages.

use super::*;

#[test]
fn dates_in_a_request_fix_or_bound_the_time_it_is_about() {
    // A month the request fixes: rows about another month (or none) are not its subject.
    let facts = [
        "Lena Berg is on leave from 3 to 7 November.",
        "Lena Berg's leave approver is Tom Hale.",
    ];
    let left = survivors_after_purge(&facts, "Lena Berg's December leave");
    assert_eq!(left, facts);
    let left = survivors_after_purge(&facts, "Lena Berg's November leave");
    assert_eq!(left, [facts[1]]);
    // A year that bounds a period: "before 2024" is the row that ends in 2023, not the one
    // that starts in 2024, although only the latter writes "2024".
    let facts = [
        "Until 2023, Esther Klein's GP was Dr. Moshe Weiss.",
        "From January 2024, Esther Klein's GP is Dr. Tal Amir.",
        "Esther Klein has hypothyroidism.",
        // No year at all: not known to be about the period, so not released.
        "Esther Klein's GP practice is in Haifa.",
    ];
    let (_t, s) = store_with(&facts);
    let plan = s
        .plan(
            Operation::Release,
            &Target::query("Esther Klein's GP before 2024"),
        )
        .unwrap();
    assert_eq!(plan.rows, vec![1], "{plan:?}");
}

#[test]
fn a_day_named_in_english_is_the_day_a_row_names_in_another_language() {
    let facts = [
        "김하늘의 치과 예약은 화요일입니다.",
        "김하늘의 안과 예약은 토요일입니다.",
    ];
    let left = survivors_after_purge(&facts, "Kim Haneul's Saturday appointment");
    assert_eq!(left, vec![facts[0].to_owned()]);
    // A day no row names erases nothing.
    let left = survivors_after_purge(&facts, "Kim Haneul's Friday appointment");
    assert_eq!(left.len(), 2, "{left:?}");
}

#[test]
fn a_bounded_period_reaches_the_row_stated_inside_it() {
    let facts = [
        "Until May 2022, Ines Duarte's parking permit was P-118.",
        "Since June 2022, Ines Duarte's parking permit is P-240.",
        "Ines Duarte's locker is 31.",
    ];
    let left = survivors_after_purge(&facts, "Ines Duarte's parking permit from before June 2022");
    assert_eq!(left, vec![facts[1].to_owned(), facts[2].to_owned()]);
    // No row states a time inside the bound: nothing is erased.
    let left = survivors_after_purge(&facts, "Ines Duarte's parking permit before 2020");
    assert_eq!(left.len(), 3, "{left:?}");
    // "Old" is never the period still running.
    let left = survivors_after_purge(&facts, "Ines Duarte's old parking permit");
    assert_eq!(left, vec![facts[1].to_owned(), facts[2].to_owned()]);
}

/// A month before a recurring thing says which of them ("the August rent reminder"): the
/// reminder for September is not it, though it was sent in August.
#[test]
fn a_month_naming_which_of_a_recurring_thing_is_not_a_date_in_another() {
    let facts = [
        "The August rent reminder was sent on 25 July.",
        "The user wants reminders fifteen minutes before meetings.",
        "The September rent reminder was sent on 25 August.",
        "The Monday standup moved to 9:30.",
        "The Friday standup is cancelled this week.",
    ];
    let (_t, s) = store_with(&facts);
    for (query, row) in [("August rent reminder", 1), ("the Friday standup", 5)] {
        for op in [Operation::Release, Operation::Purge] {
            let plan = s.plan_with(op, &Target::query(query), None).unwrap();
            assert_eq!(plan.rows, vec![row], "{query} {op:?}: {plan:?}");
        }
    }
}
