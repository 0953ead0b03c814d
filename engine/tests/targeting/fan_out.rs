//! Requests about everything of a subject in other languages than English: "borra todo sobre
//! Anna", "supprime tout ce qui concerne Mei", "lösche alles über Jonas". The quantifier alone
//! ("todos los teléfonos") asks for an attribute, not for everything.

use super::*;

#[test]
fn everything_about_someone_in_other_languages_reaches_every_row_about_them() {
    let facts = [
        "Anna Schmidt's phone number is +49 30 5555 0101",
        "Anna Schmidt lives in Leipzig",
        "Jonas Weber's phone number is +49 40 5555 0202",
        "Anna Schmidt is allergic to penicillin",
    ];
    for request in [
        "borra todo sobre Anna Schmidt",
        "supprime tout ce qui concerne Anna Schmidt",
        "lösche alles über Anna Schmidt",
    ] {
        let left = survivors_after_purge(&facts, request);
        assert_eq!(left, [facts[2]], "{request}");
    }
    // "todos los teléfonos de Anna", "todo sobre el teléfono de Anna" and "all of Anna's
    // phone numbers" ask for her phone, not for everything about her.
    for request in [
        "borra todos los teléfonos de Anna Schmidt",
        "borra todo sobre el teléfono de Anna Schmidt",
        "delete all of Anna Schmidt's phone numbers",
    ] {
        let left = survivors_after_purge(&facts, request);
        assert!(left.contains(&facts[1].to_owned()), "{request}: {left:?}");
        assert!(left.contains(&facts[3].to_owned()), "{request}: {left:?}");
    }
}
