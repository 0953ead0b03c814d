//! English nouns derived from a verb or another noun, and the word they derive from: a request
//! names an attribute by its noun ("Priya's membership", "Ekaterina's employment status", "the
//! referral from the clinic", "his departure time") where a memory states it with the word it
//! derives from ("Priya is a member of ...", "is employed as a recruiter", "was referred from
//! ...", "departs at 08:10").
//!
//! The rules are the productive suffixes of English word formation, each with the form the
//! base must take in the other text:
//!
//! | suffix | examples | the other word |
//! |---|---|---|
//! | `-ship` | membership, ownership, partnership | the noun itself, or its plural |
//! | `-ment` | employment, appointment, retirement | the verb with `-ed` or `-ing` |
//! | `-al` after `r`, `v`, `w`, `s` | referral, removal, renewal, refusal | the verb with `-ed` or `-ing` |
//! | `-ion` | relocation, promotion, location | the verb with `-ed` or `-ing` |
//! | `-ure` | departure, enclosure | the verb with `-s`, `-ed` or `-ing` |
//! | `-ance`, `-ence` | attendance, residence, preference | the verb with `-s`, `-ed` or `-ing` |
//!
//! The verb must be written as a verb (inflected), not as a bare word: the base of a `-ment`
//! noun is often a noun too ("statement" and "state", "placement" and "place"), and a bare or
//! plural noun is no evidence of the derived attribute ("the United States" says nothing of a
//! bank statement). Adjectives in `-al` of other endings ("personal", "dental", "medical") are
//! not derived this way. Every base keeps at least five letters: shorter ones meet unrelated
//! words ("station" is not "stated", nor "posture" "posted").

use crate::lexicon::lemma;

/// How the other text must write the base of a derived noun.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Base {
    /// A noun: the base itself or its plural ("member", "members").
    Noun,
    /// A verb in `-ed` or `-ing` ("employed", "referring").
    Verb,
    /// A verb in `-s`, `-ed` or `-ing` ("departs", "resides", "preferred").
    VerbOrThirdPerson,
}

/// Suffixes of derived nouns, the letters to put back on the base ("ure" of "departure" leaves
/// "depart"; "ence" of "residence" leaves "resid", which meets "resides" through [`lemma`]),
/// and how the base must be written.
const SUFFIXES: &[(&str, Base)] = &[
    ("ship", Base::Noun),
    ("ment", Base::Verb),
    ("ral", Base::Verb),
    ("val", Base::Verb),
    ("wal", Base::Verb),
    ("sal", Base::Verb),
    ("ion", Base::Verb),
    ("ure", Base::VerbOrThirdPerson),
    ("ance", Base::VerbOrThirdPerson),
    ("ence", Base::VerbOrThirdPerson),
];

/// Least letters of a base.
const MIN_BASE: usize = 5;

/// True if `derived` (a lowercase English noun such as "membership", "employment", "referral")
/// is derived from the word `other` writes (lowercase): "member", "employed", "referred".
/// Both words are folded forms; a word never derives from itself.
pub fn derived_from(derived: &str, other: &str) -> bool {
    if derived == other || !derived.is_ascii() || !other.is_ascii() {
        return false;
    }
    SUFFIXES.iter().any(|&(suffix, base)| {
        let Some(stem) = derived.strip_suffix(suffix) else {
            return false;
        };
        // "-ral", "-val", "-wal", "-sal" keep their consonant on the base: "referral" is
        // "referr", "removal" "remov".
        let stem = match suffix {
            "ral" | "val" | "wal" | "sal" => &derived[..stem.len() + 1],
            _ => stem,
        };
        if stem.len() < MIN_BASE {
            return false;
        }
        match base {
            Base::Noun => other == stem || other.strip_suffix('s') == Some(stem),
            Base::Verb => verb_of(other, &["ed", "ing"], stem),
            Base::VerbOrThirdPerson => verb_of(other, &["ed", "ing", "es", "s"], stem),
        }
    })
}

/// True if `word` is written with one of `endings` and its [`lemma`] is `stem`'s, allowing a
/// doubled final consonant ("referred" and "referr", "cancelled" and "cancel").
fn verb_of(word: &str, endings: &[&str], stem: &str) -> bool {
    if !endings.iter().any(|e| word.ends_with(e)) {
        return false;
    }
    let (a, b) = (lemma(word), lemma(stem));
    let undouble = |s: &str| -> String {
        let bytes = s.as_bytes();
        let n = bytes.len();
        if n >= 2 && bytes[n - 1] == bytes[n - 2] && !b"aeiou".contains(&bytes[n - 1]) {
            s[..n - 1].to_owned()
        } else {
            s.to_owned()
        }
    };
    a == b || undouble(&a) == undouble(&b) || undouble(&a) == stem || a == undouble(stem)
}

#[cfg(test)]
mod tests {
    use super::derived_from;

    #[test]
    fn nouns_meet_the_words_they_derive_from() {
        for (noun, other) in [
            ("membership", "member"),
            ("membership", "members"),
            ("partnership", "partner"),
            ("employment", "employed"),
            ("retirement", "retired"),
            ("appointment", "appointed"),
            ("referral", "referred"),
            ("removal", "removed"),
            ("renewal", "renewed"),
            ("refusal", "refused"),
            ("relocation", "relocated"),
            ("location", "located"),
            ("promotion", "promoted"),
            ("departure", "departs"),
            ("attendance", "attends"),
            ("residence", "resides"),
            ("preference", "prefers"),
            ("preference", "preferred"),
            ("insurance", "insured"),
        ] {
            assert!(derived_from(noun, other), "{noun} / {other}");
        }
    }

    #[test]
    fn nouns_and_adjectives_of_other_meaning_do_not() {
        for (noun, other) in [
            // A bare or plural noun is no evidence of a -ment noun.
            ("statement", "state"),
            ("statement", "states"),
            ("placement", "place"),
            // Adjectives in -al of other endings are not derived nouns.
            ("personal", "person"),
            ("dental", "dent"),
            ("medical", "medic"),
            // Too short a base.
            ("payment", "paid"),
            ("shipment", "shipped"),
            ("station", "stated"),
            ("posture", "posted"),
            // A word never derives from itself, nor from an unrelated one.
            ("membership", "membership"),
            ("employment", "employer"),
        ] {
            assert!(!derived_from(noun, other), "{noun} / {other}");
        }
    }
}
