//! Never erase what was not asked: a forgetting call by query acts only on rows whose evidence
//! covers the request (every subject it names, and its attribute), and otherwise returns a
//! typed no-match that lists the nearest candidates (issue 11, "Safety first").

mod absent_attributes;
mod absent_subjects;
mod lowercase_names;
mod names_in_scripts;
mod relatives;
mod rough_text;
mod supersede;

use crate::common;

pub(super) use common::{live_texts, store_with};
use oubli::Error;
use proptest::prelude::*;

const PHONES: &[&str] = &[
    "Anna's phone number is +49 151 2345 6789.",
    "Ben's phone number is 0161 496 0018.",
    "The user's phone number is 415 555 0132.",
    "Anna lives in Leipzig.",
];

fn assert_no_match(r: Result<impl std::fmt::Debug, Error>, what: &str) -> oubli::error::NoMatch {
    match r {
        Err(Error::NoMatch(none)) => none,
        other => panic!("{what}: expected a no-match, got {other:?}"),
    }
}

/// People the generated stores hold, and people they never hold: no shared name parts in
/// cased scripts (where a row may name someone by the given name alone); in Han and Hangul the
/// same surname or the same first syllables (王芳 and 王磊, 김민수 and 김민호), where a name is one
/// word and half of it names nobody; in Hebrew and Arabic the same family name (שרה כהן and רחל
/// כהן), where nothing tells a surname and a request's name must be held whole.
const PRESENT: &[&str] = &[
    "Anna Weber",
    "Ben Okafor",
    "Chloe Martin",
    "Dmitri Volkov",
    "Emeka Obi",
    "王芳",
    "최현지",
    "김민수",
    "שרה כהן",
    "محمد علي",
];
const ABSENT: &[&str] = &[
    "Priya Raman",
    "Kenta Sato",
    "Zanele Khumalo",
    "Oskar Lindqvist",
    "王磊",
    "최현진",
    "김민호",
    "רחל כהן",
    "حسن علي",
];
const ATTRIBUTES: &[(&str, &str)] = &[
    ("phone number", "is 0151 2345 678"),
    ("home address", "is 12 Harbour Road"),
    ("employer", "is Northwind Traders"),
    ("blood type", "is A negative"),
    ("email address", "is on file with support"),
    ("salary", "is 64,000 euros"),
    ("gym locker", "is number 17"),
];

fn fact() -> impl Strategy<Value = String> {
    (0..PRESENT.len(), 0..ATTRIBUTES.len(), 0..3usize).prop_map(|(p, a, form)| {
        let name = PRESENT[p];
        let first = name.split(' ').next().unwrap();
        let (attr, value) = ATTRIBUTES[a];
        match form {
            0 => format!("{name}'s {attr} {value}."),
            1 => format!("{first}'s {attr} {value}."),
            _ => format!("The user's {attr} {value}."),
        }
    })
}
