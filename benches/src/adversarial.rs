//! The adversarial layer: loading the checked-in case files and the structural admission check.
//!
//! The ten categories are ForgetEval's. Their cases live in `benches/cases/<category>.jsonl`,
//! in the ForgetEval shape so that other runners read them unchanged.
//!
//! Admission is structural: it needs no store and no judge. Facts are the setup facts and the
//! `new` texts of supersedes. A case is admitted iff
//!
//! 1. it has at least one mutation;
//! 2. no `must_not_contain` is a substring of a `must_contain` (case-insensitive);
//! 3. every `must_not_contain` occurs in some fact (otherwise it tests nothing);
//! 4. no `must_not_contain` occurs in a fact that no later mutation can remove, that is in the
//!    `new` text of a supersede that is the last mutation (it would survive);
//! 5. every `must_contain` lives in a fact that can survive: a fact free of every
//!    `must_not_contain`, or, for a partial edit, a fact where an occurrence of it lies outside
//!    every `must_not_contain` occurrence (the case is then flagged as needing a partial-edit
//!    primitive, like ForgetEval's compound facts).

use std::fmt;
use std::path::{Path, PathBuf};

use crate::case::{Case, CaseError, Item, Mutation, load_files};

/// The ten adversarial categories, in report order.
pub const CATEGORIES: [&str; 10] = [
    "substring_trap",
    "prefix_collision",
    "paraphrase_supersession",
    "negation_trap",
    "temporal_qualifier",
    "shared_attribute",
    "compound_fact",
    "identifier_obfuscation",
    "cross_lingual_identifier",
    "recursive_supersession",
];

/// The directory holding the checked-in case files (`benches/cases`).
pub fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("cases")
}

/// The adversarial case files, one per category, in category order.
pub fn files(dir: &Path) -> Vec<PathBuf> {
    CATEGORIES
        .iter()
        .map(|c| dir.join(format!("{c}.jsonl")))
        .collect()
}

/// Load every adversarial case from `dir`.
pub fn load(dir: &Path) -> Result<Vec<Item>, CaseError> {
    load_files(&files(dir))
}

/// Why a case is not admitted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rejection {
    /// The case has no mutation: it tests recall, not forgetting.
    NoMutation,
    /// A forbidden string is inside an expected one: the case cannot pass.
    ForbiddenInsideExpected {
        /// The must_not_contain entry.
        forbidden: String,
        /// The must_contain entry that holds it.
        expected: String,
    },
    /// A forbidden string occurs in no fact: it tests nothing.
    ForbiddenNowhere(String),
    /// A forbidden string is in the text of the last supersede, which survives.
    ForbiddenSurvives(String),
    /// An expected string lives in no fact that can survive.
    ExpectedUnsupported(String),
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rejection::NoMutation => write!(f, "no mutation"),
            Rejection::ForbiddenInsideExpected {
                forbidden,
                expected,
            } => write!(
                f,
                "must_not_contain {forbidden:?} is inside must_contain {expected:?}"
            ),
            Rejection::ForbiddenNowhere(s) => {
                write!(f, "must_not_contain {s:?} occurs in no fact")
            }
            Rejection::ForbiddenSurvives(s) => write!(
                f,
                "must_not_contain {s:?} is in the final supersede's new text, which survives"
            ),
            Rejection::ExpectedUnsupported(s) => {
                write!(f, "must_contain {s:?} lives in no fact that can survive")
            }
        }
    }
}

/// An admitted case's flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Admission {
    /// Some `must_contain` survives only if the store edits a compound fact in place.
    pub needs_partial_edit: bool,
}

/// Byte ranges of every occurrence of `needle` in `hay` (both already lower-cased).
fn occurrences(hay: &str, needle: &str) -> Vec<(usize, usize)> {
    hay.match_indices(needle)
        .map(|(i, m)| (i, i + m.len()))
        .collect()
}

/// Run the structural admission check on one case.
pub fn admit(case: &Case) -> Result<Admission, Vec<Rejection>> {
    let mut problems = Vec::new();
    if case.mutations.is_empty() {
        problems.push(Rejection::NoMutation);
    }
    let lower = |v: &[String]| v.iter().map(|s| s.to_lowercase()).collect::<Vec<_>>();
    let expected = lower(&case.must_contain);
    let forbidden = lower(&case.must_not_contain);

    // Facts, lower-cased, each with whether a later mutation can still remove it.
    let mut facts: Vec<(String, bool)> = case
        .setup_facts
        .iter()
        .map(|f| (f.to_lowercase(), !case.mutations.is_empty()))
        .collect();
    let last = case.mutations.len().saturating_sub(1);
    for (i, m) in case.mutations.iter().enumerate() {
        if let Mutation::Supersede { new, .. } = m {
            facts.push((new.to_lowercase(), i < last));
        }
    }

    for (fi, f) in forbidden.iter().enumerate() {
        let original = &case.must_not_contain[fi];
        for (ei, e) in expected.iter().enumerate() {
            if e.contains(f.as_str()) {
                problems.push(Rejection::ForbiddenInsideExpected {
                    forbidden: original.clone(),
                    expected: case.must_contain[ei].clone(),
                });
            }
        }
        if !facts.iter().any(|(text, _)| text.contains(f.as_str())) {
            problems.push(Rejection::ForbiddenNowhere(original.clone()));
        }
        if facts
            .iter()
            .any(|(text, removable)| !removable && text.contains(f.as_str()))
        {
            problems.push(Rejection::ForbiddenSurvives(original.clone()));
        }
    }

    let mut admission = Admission::default();
    for (ei, e) in expected.iter().enumerate() {
        let clean = facts.iter().any(|(text, _)| {
            text.contains(e.as_str()) && !forbidden.iter().any(|f| text.contains(f.as_str()))
        });
        if clean {
            continue;
        }
        let edited = facts.iter().any(|(text, _)| {
            let blocked: Vec<(usize, usize)> = forbidden
                .iter()
                .flat_map(|f| occurrences(text, f))
                .collect();
            occurrences(text, e)
                .iter()
                .any(|&(s, t)| blocked.iter().all(|&(bs, bt)| t <= bs || s >= bt))
        });
        if edited {
            admission.needs_partial_edit = true;
        } else {
            problems.push(Rejection::ExpectedUnsupported(
                case.must_contain[ei].clone(),
            ));
        }
    }

    if problems.is_empty() {
        Ok(admission)
    } else {
        Err(problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(facts: &[&str], mutations: Vec<Mutation>, mc: &[&str], mnc: &[&str]) -> Case {
        let v = |x: &[&str]| x.iter().map(|s| s.to_string()).collect();
        Case {
            id: "t".into(),
            category: "c".into(),
            setup_facts: v(facts),
            mutations,
            final_query: "q".into(),
            must_contain: v(mc),
            must_not_contain: v(mnc),
        }
    }

    fn sup(old: &str, new: &str) -> Mutation {
        Mutation::Supersede {
            old_q: old.into(),
            new: new.into(),
        }
    }

    fn purge(q: &str) -> Mutation {
        Mutation::Purge { q: q.into() }
    }

    #[test]
    fn admits_a_plain_case() {
        let c = case(
            &["Ann uses Chrome", "Bo uses Safari"],
            vec![sup("Ann browser", "Ann uses Brave")],
            &["brave", "Safari"],
            &["Chrome"],
        );
        assert_eq!(admit(&c), Ok(Admission::default()));
    }

    #[test]
    fn recursive_chains_may_return_to_an_earlier_value() {
        let c = case(
            &["Ann uses Chrome"],
            vec![
                sup("Ann browser", "Ann uses Brave"),
                sup("Ann browser", "Ann uses Chrome again"),
            ],
            &["Chrome"],
            &["Brave"],
        );
        assert_eq!(admit(&c), Ok(Admission::default()));
    }

    #[test]
    fn flags_compound_facts_that_need_a_partial_edit() {
        let c = case(
            &["Ann lives in Paris and works at Acme"],
            vec![sup("Ann lives in", "Ann lives in Rome")],
            &["Rome", "Acme"],
            &["Paris"],
        );
        assert_eq!(
            admit(&c),
            Ok(Admission {
                needs_partial_edit: true
            })
        );
    }

    #[test]
    fn rejects_each_structural_problem() {
        let c = case(&["Ann: TXN-123"], vec![], &["TXN-1234"], &["TXN-123"]);
        let problems = admit(&c).unwrap_err();
        assert!(problems.contains(&Rejection::NoMutation));
        assert!(problems.contains(&Rejection::ForbiddenInsideExpected {
            forbidden: "TXN-123".into(),
            expected: "TXN-1234".into()
        }));
        assert!(problems.contains(&Rejection::ExpectedUnsupported("TXN-1234".into())));

        let c = case(&["Ann: a"], vec![purge("Ann")], &["a"], &["zebra"]);
        assert_eq!(
            admit(&c),
            Err(vec![Rejection::ForbiddenNowhere("zebra".into())])
        );

        let c = case(
            &["Ann uses Chrome"],
            vec![sup("Ann browser", "Ann uses Chrome, not Brave")],
            &["Chrome"],
            &["brave"],
        );
        assert_eq!(
            admit(&c),
            Err(vec![Rejection::ForbiddenSurvives("brave".into())])
        );

        let c = case(
            &["card 4111 ends 1111"],
            vec![purge("4111")],
            &["ends"],
            &["card 4111 ends"],
        );
        assert_eq!(
            admit(&c),
            Err(vec![Rejection::ExpectedUnsupported("ends".into())])
        );
    }

    #[test]
    fn every_template_case_is_admitted() {
        use crate::templates::{TemplateConfig, generate};
        for c in generate(&TemplateConfig::default()) {
            let a = admit(&c).unwrap_or_else(|p| panic!("{}: {p:?}", c.id));
            assert!(!a.needs_partial_edit, "{}", c.id);
        }
    }
}
