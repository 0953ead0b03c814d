//! Names typed in lowercase: a subject where a name stands, never attribute evidence.

use super::{assert_no_match, live_texts, store_with};
use oubli::{Inscription, Target};

#[test]
fn a_name_written_in_lowercase_is_a_subject_not_an_attribute() {
    // The rows write "Kanya" as a name (and "kanya" only inside an e-mail address): in
    // "allergy for kanya" it says whose allergy, and no row states one.
    let (_t, s) = store_with(&[
        "Kanya Srisuk's e-mail is kanya.s@example.org.",
        "Kanya Srisuk lives in Chiang Mai.",
        "Kanya's blood type is O+.",
        "Lars has a peanut allergy.",
    ]);
    let before = live_texts(&s);
    for request in [
        "allergy for kanya",
        "kanya allergy",
        "the allergy of kanya srisuk",
    ] {
        assert_no_match(s.purge(Target::query(request)), request);
        assert_no_match(s.release(Target::query(request)), request);
    }
    assert_eq!(live_texts(&s), before);
    // Asked of the right attribute, the lowercase name still reaches that row alone.
    s.purge(Target::query("blood type for kanya")).unwrap();
    let mut left = before.clone();
    left.retain(|t| t != "Kanya's blood type is O+.");
    assert_eq!(live_texts(&s), left);
    // In a supersede's new text, the lowercase name is no evidence of which fact: the new
    // text states a medication, so the row with one is replaced, not the badge row.
    let (_t, s) = store_with(&[
        "Yuki Tanaka's current medication is metformin.",
        "Yuki's badge number is B-6189.",
        "Haruto Sato takes sertraline daily.",
    ]);
    let done = s
        .supersede(
            Target::query("yuki's prescription"),
            Inscription::new("yuki's medication is sertraline"),
        )
        .unwrap();
    assert_eq!(done.replaced, vec![1]);
}

#[test]
fn an_absent_name_written_in_lowercase_where_a_subject_stands_is_a_no_match() {
    // No row names Jonas, Chen Mei, Yosef, Rahul Verma or Gus: wherever a request puts a name
    // (possessor, before a colon, after a preposition at its end, opening a telegraphic
    // request), one typed in lowercase is a subject like a capitalized one.
    let (_t, s) = store_with(&[
        "Anna Weber's badge number is B-1938.",
        "Ben Okafor's social security number is 467-57-4944.",
        "Chloe Martin travels on passport LA4663261.",
        "Dmitri's blood type is O+.",
        "Emeka received an annual bonus of 8,000 EUR.",
    ]);
    let before = live_texts(&s);
    for request in [
        "the badge of jonas",
        "the badge number you have for jonas",
        "chen mei: social security number",
        "yosef passport",
        "change rahul verma's blood type",
        "gus' annual bonus",
    ] {
        assert_no_match(s.purge(Target::query(request)), request);
        assert_no_match(
            s.supersede(
                Target::query(request),
                Inscription::new("A value for someone else."),
            ),
            request,
        );
    }
    // The new text of a supersede may state the absent subject in lowercase too.
    assert_no_match(
        s.supersede(
            Target::query("the badge number"),
            Inscription::new("jonas's badge number is now B-7459."),
        ),
        "supersede",
    );
    assert_eq!(live_texts(&s), before);
    // The same slots with a person the store holds reach that person's row.
    s.purge(Target::query("the badge of anna")).unwrap();
    s.purge(Target::query("dmitri: blood type")).unwrap();
    assert_eq!(live_texts(&s).len(), before.len() - 2);
    assert!(
        live_texts(&s)
            .iter()
            .all(|t| !t.contains("B-1938") && !t.contains("O+")),
        "{:?}",
        live_texts(&s)
    );
}

#[test]
fn a_hyphenated_name_written_in_lowercase_is_one_subject() {
    // "jun" of "min-jun" is the rest of her name: it is no evidence of the attribute, and a
    // request for something the rows do not hold reaches none of them.
    let (_t, s) = store_with(&[
        "Min-jun Kim's social security number is 187-68-4531.",
        "Min-jun's driver's licence number is DL-782171.",
        "Min-jun Kim's current medication is levothyroxine.",
    ]);
    let before = live_texts(&s);
    for request in ["delete min-jun's religion", "min-jun bank account number"] {
        assert_no_match(s.purge(Target::query(request)), request);
    }
    assert_eq!(live_texts(&s), before);
    s.purge(Target::query("min-jun's medication")).unwrap();
    assert_eq!(live_texts(&s).len(), 2);
}

#[test]
fn a_lowercase_hyphenated_name_keeps_its_surname() {
    // "ji-woo choi" is one name of three words: "woo" is written in lowercase inside "Ji-woo"
    // and "jun" also abbreviates a month, yet both continue the name to the surname after them.
    // Rows about Ji-woo Park and Min-jun Kim are another person's.
    let (_t, s) = store_with(&[
        "Ji-woo Park's badge number is B-2991.",
        "Ji-woo Park earns 105,000 EUR a year.",
        "Min-jun Kim's tax ID is TIN 84-7556573.",
        "Die Reisepassnummer von Ji-woo ist XN2306774.",
    ]);
    let before = live_texts(&s);
    for request in [
        "ji-woo choi's badge number",
        "wipe ji-woo choi's old badge number",
        "min-jun lee's tax ID",
        "the tax ID of min-jun lee",
    ] {
        assert_no_match(s.purge(Target::query(request)), request);
        assert_no_match(s.release(Target::query(request)), request);
    }
    assert_eq!(live_texts(&s), before);
    // The name alone, or with the surname the rows write, still reaches its row.
    s.purge(Target::query("ji-woo park's badge number"))
        .unwrap();
    s.purge(Target::query("min-jun's tax ID")).unwrap();
    assert_eq!(live_texts(&s).len(), 2);
}

#[test]
fn a_lowercase_name_after_a_framing_verb_is_read_whole() {
    // "stop remembering olena bondar's card" opens its noun phrase after "remembering" as it
    // would after "forget": "olena bondar" is one name, which the store does not hold, so
    // Olena Kovalenko's card is another person's.
    let (_t, s) = store_with(&[
        "Olena Kovalenko's credit card number is 4111 1111 1111 8408",
        "Olena Kovalenko's birthday is 2 December 1969",
        "Sarah Miller takes levothyroxine daily",
    ]);
    let before = live_texts(&s);
    for request in [
        "can you stop remembering olena bondar's credit card number?",
        "stop keeping olena bondar's credit card number",
    ] {
        assert_no_match(s.purge(Target::query(request)), request);
        assert_no_match(s.release(Target::query(request)), request);
    }
    assert_eq!(live_texts(&s), before);
    // The name the rows write still reaches its row.
    s.purge(Target::query(
        "stop remembering olena kovalenko's credit card number",
    ))
    .unwrap();
    assert_eq!(live_texts(&s).len(), 2);
}
