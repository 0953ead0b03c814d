//! Words borrowed across scripts, and Thai names read to their last syllable. A request in
//! English names an attribute a row writes as a loanword in its own script ("penicillin" and
//! பென்சிலின், "VPN" and वीपीएन); a borrowed word that only names a kind of value ("नंबर",
//! number) is no attribute on its own; a Thai name ending in a syllable of its own (นภาพร,
//! "Napaporn") reaches the row that writes it in Thai.

use super::*;

#[test]
fn an_english_attribute_reaches_its_loanword_in_another_script() {
    let facts = [
        "அருண் குமாருக்கு பென்சிலின் ஒவ்வாமை உள்ளது.",
        "அருண் குமாரின் மருத்துவர் டாக்டர் மீனா.",
        "ராஜா குமாருக்கு பென்சிலின் ஒவ்வாமை உள்ளது.",
        "राजेश कुमार की वीपीएन पहुँच 30 जून को समाप्त होगी।",
        "राजेश कुमार का डेस्क 4-210 है।",
    ];
    // Tamil writes "penicillin" பென்சிலின்; only Arun Kumar's row holds it for him.
    let left = survivors_after_purge(&facts, "Arun Kumar's penicillin allergy");
    assert_eq!(left.len(), 4, "{left:?}");
    assert!(!left.contains(&facts[0].to_owned()), "{left:?}");
    // An acronym is borrowed letter by letter: वीपीएन is "vi-pi-en".
    let left = survivors_after_purge(&facts, "Rajesh Kumar's VPN access");
    assert_eq!(left.len(), 4, "{left:?}");
    assert!(!left.iter().any(|t| t.contains("वीपीएन")), "{left:?}");
}

#[test]
fn a_borrowed_word_naming_a_kind_of_value_is_no_attribute() {
    // "नंबर" is "number": Marek's driving licence number is not his social security number.
    let facts = [
        "Marek Nowak's social security number is 348-46-9277.",
        "Marek Nowak's birthday is 16 September 1981.",
    ];
    let (_t, s) = store_with(&facts);
    let err = s
        .purge(Target::query("Marek Nowak का ड्राइविंग लाइसेंस नंबर हटा दो"))
        .err();
    assert!(matches!(err, Some(Error::NoMatch(_))), "{err:?}");
    assert_eq!(live_texts(&s).len(), 2);
}

#[test]
fn a_thai_name_ending_in_a_syllable_of_its_own_meets_its_latin_spelling() {
    let facts = [
        "นภาพร ศรีสุข's parking permit is P-4410.",
        "ณัฐพล ศรีสุข's parking permit is P-4417.",
    ];
    let left = survivors_after_purge(&facts, "Napaporn Srisuk's parking permit");
    assert_eq!(left, [facts[1]], "{left:?}");
}
