//! Lexical negation: English words that state, by themselves, that something does not hold,
//! paired with the words they negate. "Priyanka declined the offer" says what "Priyanka did not
//! accept the offer" says; "Petro's divorce" what "Petro is no longer married". A request
//! written with one and a row written with the other ([`negates`]) are about the same fact.
//!
//! General language, in the way a thesaurus lists antonyms by negation (implicative verbs such
//! as "decline" and "refuse", "fail" and "forget", and the adjectives formed with "un-", "in-",
//! "dis-"). Each entry lists base forms; lookups fold inflection with [`super::lemma`], and the
//! irregular forms ("left", "lost", "quit") are listed as written. It names no entity.

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

/// True if `word` (a lowercase word, any inflection) is one of `list`'s words, by its form or
/// its [`super::lemma`].
fn listed(list: &[&str], word: &str) -> bool {
    let lemma = super::lemma(word);
    list.iter().any(|&w| w == word || super::lemma(w) == lemma)
}

/// True if `negating` states that `negated` does not hold ("declined" and "accept",
/// "divorce" and "married", "left" and "works"); both lowercase, any inflection.
pub fn negates(negating: &str, negated: &str) -> bool {
    NEGATIONS
        .iter()
        .any(|(neg, pos)| listed(neg, negating) && listed(pos, negated))
}

#[cfg(test)]
mod tests {
    use super::negates;

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
