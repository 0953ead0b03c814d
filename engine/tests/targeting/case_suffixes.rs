//! Tamil and Bengali requests, whose nouns take their cases as suffixes: a name in one case
//! form meets the same name in another, and the words after a case-marked name are the
//! attribute and the request, not more of the name.

use super::*;

/// "Kavitha Murugan's allergy record, remove it" (genitive) over rows that write her name in
/// the dative ("Kavitha Murugan has a penicillin allergy"): her allergy row goes, her doctor
/// and another Kavitha's allergy stay.
#[test]
fn a_tamil_name_in_the_genitive_meets_its_dative_and_ends_the_name() {
    let facts: &[&str] = &[
        "கவிதா முருகனுக்கு பென்சிலின் ஒவ்வாமை உள்ளது.",
        "கவிதா முருகனின் மருத்துவர் டாக்டர் ராமன்.",
        "கவிதா ரவிக்கு ஆஸ்பிரின் ஒவ்வாமை உள்ளது.",
    ];
    let left = survivors_after_purge(facts, "கவிதா முருகனின் ஒவ்வாமை பதிவை நீக்கவும்");
    assert_eq!(
        left,
        [
            "கவிதா முருகனின் மருத்துவர் டாக்டர் ராமன்.",
            "கவிதா ரவிக்கு ஆஸ்பிரின் ஒவ்வாமை உள்ளது."
        ]
    );
}

/// A supersede in Tamil naming its subject in the genitive after a vowel ("பிரியாவின்",
/// Priya's) replaces her working days, not her languages or another pharmacist's shift.
#[test]
fn a_tamil_genitive_after_a_vowel_names_the_subject_of_a_supersede() {
    let (_t, s) = store_with(&[
        "பிரியா நடேசன் திங்கள் முதல் வெள்ளி வரை வேலை செய்கிறார்.",
        "பிரியா நடேசன் தமிழும் ஆங்கிலமும் பேசுவார்.",
        "கார்த்திக் சேகர் மாலை நேரத்தில் வேலை செய்கிறார்.",
    ]);
    let new = "பிரியா நடேசன் இனி சனி, ஞாயிறு மட்டுமே வேலை செய்வார்.";
    s.supersede(
        Target::query("பிரியாவின் வேலை நாட்கள் மாறிவிட்டன"),
        Inscription::new(new),
    )
    .expect("the row of her working days is found");
    let live = live_texts(&s);
    assert!(live.contains(&new.to_owned()));
    assert!(!live.iter().any(|t| t.contains("திங்கள் முதல் வெள்ளி")));
    assert!(live.iter().any(|t| t.contains("ஆங்கிலமும்")));
    assert!(live.iter().any(|t| t.contains("கார்த்திக்")));
}

/// A Tamil request about someone absent, in the genitive, is a typed no-match: the words after
/// the name are the attribute, and no row names the person.
#[test]
fn a_tamil_request_about_an_absent_person_erases_nothing() {
    let facts: &[&str] = &[
        "கவிதா முருகனுக்கு பென்சிலின் ஒவ்வாமை உள்ளது.",
        "ரவி சந்திரனுக்கு ஆஸ்துமா உள்ளது.",
    ];
    let (_t, s) = store_with(facts);
    let err = s
        .purge(Target::query("மீனா ராஜனின் ஒவ்வாமை பதிவை நீக்கவும்"))
        .expect_err("nobody named Meena Rajan is stored");
    assert!(matches!(err, Error::NoMatch(_)), "{err}");
    assert_eq!(live_texts(&s).len(), 2);
}
