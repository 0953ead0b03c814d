//! Lexical negation: English words that state, by themselves, that something does not hold,
//! paired with the words they negate. "Priyanka declined the offer" says what "Priyanka did not
//! accept the offer" says; "Petro's divorce" what "Petro is no longer married". A request
//! written with one and a row written with the other ([`negates`]) are about the same fact.
//!
//! General language, in the way a thesaurus lists antonyms by negation (implicative verbs such
//! as "decline" and "refuse", "fail" and "forget", and the adjectives formed with "un-", "in-",
//! "dis-"). Each entry lists base forms; lookups fold inflection with [`super::lemma`], and the
//! irregular forms ("left", "lost", "quit") are listed as written. It names no entity.

use std::collections::HashSet;
use std::sync::OnceLock;

/// Groups of (words negating, words negated).
const NEGATIONS: &[(&[&str], &[&str])] = &[
    // Not accepting what was offered or asked.
    (
        &["decline", "refuse", "reject", "rejection", "refusal"],
        &[
            "accept",
            "acceptance",
            "agree",
            "approve",
            "approval",
            "take",
            "taking",
            "took",
            "taken",
        ],
    ),
    // Not granting what was asked.
    (
        &[
            "deny",
            "denied",
            "denial",
            "revoke",
            "revocation",
            "withdraw",
            "withdrawn",
            "withdrew",
        ],
        &[
            "approve", "approval", "grant", "granted", "allow", "permit", "valid",
        ],
    ),
    // Not allowing.
    (
        &[
            "forbid",
            "forbidden",
            "ban",
            "banned",
            "prohibit",
            "disallow",
            "bar",
            "barred",
        ],
        &[
            "allow",
            "allowed",
            "permit",
            "permitted",
            "authorize",
            "authorise",
            "authorized",
        ],
    ),
    // No longer working somewhere, or a member.
    (
        &[
            "leave",
            "left",
            "quit",
            "resign",
            "resignation",
            "retire",
            "retired",
            "fired",
            "dismiss",
            "laid",
        ],
        &[
            "work",
            "works",
            "employ",
            "employed",
            "employee",
            "member",
            "membership",
            "staff",
        ],
    ),
    // No longer married.
    (
        &["divorce", "divorced", "separated", "widowed"],
        &[
            "married", "marry", "marriage", "wed", "wife", "husband", "spouse",
        ],
    ),
    // No longer taking or using something.
    (
        &[
            "stop",
            "stopped",
            "discontinue",
            "quit",
            "cease",
            "ceased",
            "avoid",
        ],
        &[
            "take", "takes", "taking", "took", "use", "uses", "using", "used", "eat", "eating",
            "drink", "smoke", "continue",
        ],
    ),
    // No longer having something.
    (
        &["lose", "lost", "lack", "lacks", "lacking"],
        &[
            "have", "has", "having", "had", "own", "owns", "hold", "holds", "keep",
        ],
    ),
    // Not passing.
    (&["fail", "failed", "failing"], &["pass", "passed"]),
    // Not attending.
    (
        &["miss", "missed", "skip", "skipped", "absent", "absence"],
        &[
            "attend",
            "attended",
            "attendance",
            "present",
            "come",
            "coming",
            "came",
        ],
    ),
    // Not liking.
    (
        &["dislike", "hate", "detest"],
        &[
            "like", "likes", "liking", "enjoy", "enjoys", "love", "loves",
        ],
    ),
    // Not eligible, not valid, not open, not active.
    (
        &["ineligible", "disqualified"],
        &["eligible", "qualify", "qualified"],
    ),
    (
        &["expire", "expired", "lapse", "lapsed", "invalid", "void"],
        &["valid", "active", "current"],
    ),
    (&["closed", "shut"], &["open"]),
    (&["unpaid", "outstanding", "overdue"], &["paid", "settled"]),
    (&["unavailable"], &["available"]),
    (
        &["unemployed", "jobless"],
        &["employed", "work", "works", "job"],
    ),
    (&["unvaccinated"], &["vaccinated"]),
    (&["uninsured"], &["insured", "covered"]),
    (
        &[
            "disable",
            "disabled",
            "deactivate",
            "deactivated",
            "suspend",
            "suspended",
        ],
        &["enable", "enabled", "active", "activate", "activated"],
    ),
    (
        &["disagree", "oppose", "object", "objection"],
        &["agree", "support"],
    ),
];

/// One side of a [`NEGATIONS`] pair: its words, and their [`super::lemma`]s.
struct Side {
    forms: HashSet<&'static str>,
    lemmas: HashSet<String>,
}

impl Side {
    fn new(words: &[&'static str]) -> Side {
        Side {
            forms: words.iter().copied().collect(),
            lemmas: words.iter().map(|w| super::lemma(w)).collect(),
        }
    }

    /// True if `word`, whose lemma is `lemma`, is one of this side's words by its form or its
    /// lemma.
    fn holds(&self, word: &str, lemma: &str) -> bool {
        self.forms.contains(word) || self.lemmas.contains(lemma)
    }
}

/// [`NEGATIONS`] with each side's lemmas computed once (targeting asks for every pair of a
/// row's and a request's words).
fn sides() -> &'static [(Side, Side)] {
    static SIDES: OnceLock<Vec<(Side, Side)>> = OnceLock::new();
    SIDES.get_or_init(|| {
        NEGATIONS
            .iter()
            .map(|(neg, pos)| (Side::new(neg), Side::new(pos)))
            .collect()
    })
}

/// True if `negating` states that `negated` does not hold ("declined" and "accept",
/// "divorce" and "married", "left" and "works"); both lowercase, any inflection.
pub fn negates(negating: &str, negated: &str) -> bool {
    let negating_lemma = super::lemma(negating);
    let mut negated_lemma = None;
    sides().iter().any(|(neg, pos)| {
        neg.holds(negating, &negating_lemma)
            && pos.holds(
                negated,
                negated_lemma.get_or_insert_with(|| super::lemma(negated)),
            )
    })
}

#[cfg(test)]
mod tests {
    use super::{NEGATIONS, negates};

    /// The definition [`negates`] computes with its lemmas precomputed: a word is one of a
    /// list's words by its form or its lemma.
    fn negates_by_definition(negating: &str, negated: &str) -> bool {
        let listed = |list: &[&str], word: &str| {
            let lemma = crate::lexicon::lemma(word);
            list.iter()
                .any(|&w| w == word || crate::lexicon::lemma(w) == lemma)
        };
        NEGATIONS
            .iter()
            .any(|(neg, pos)| listed(neg, negating) && listed(pos, negated))
    }

    #[test]
    fn every_pair_of_listed_words_and_their_inflections_reads_as_defined() {
        let mut words: Vec<String> = Vec::new();
        for (neg, pos) in NEGATIONS {
            for w in neg.iter().chain(pos.iter()) {
                for suffix in ["", "s", "ed", "ing", "er", "es", "d"] {
                    words.push(format!("{w}{suffix}"));
                }
            }
        }
        words.extend(["", "a", "offer", "phone", "left", "ΑΘΗΝΑ", "İstanbul"].map(String::from));
        for a in &words {
            for b in &words {
                assert_eq!(negates(a, b), negates_by_definition(a, b), "{a} {b}");
            }
        }
    }

    #[test]
    fn lexical_negations_meet_the_words_they_negate() {
        for (a, b) in [
            ("declining", "accept"),
            ("declined", "accepted"),
            ("left", "works"),
            ("divorce", "married"),
            ("stopped", "taking"),
            ("lost", "has"),
            ("expired", "valid"),
        ] {
            assert!(negates(a, b), "{a} {b}");
        }
        for (a, b) in [
            ("accept", "declined"),
            ("declined", "married"),
            ("works", "left"),
            ("offer", "accept"),
        ] {
            assert!(!negates(a, b), "{a} {b}");
        }
    }
}
