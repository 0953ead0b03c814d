//! Running cases and scenarios against an adapter, and scoring them.
//!
//! Every item runs on a fresh, empty store ([`Adapter::reset`]). A case inscribes its setup
//! facts in order, applies its mutations in order and recalls `final_query` with k results; it
//! passes iff every `must_contain` is a case-insensitive substring of the recalled texts joined
//! by newlines and no `must_not_contain` is. A method the store does not provide makes the item
//! N/A; any other store error makes it fail.

use std::collections::HashMap;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::adapter::{
    Adapter, AdapterError, DEFAULT_NAMESPACE, ListRequest, RecallRequest, RowId, Target,
};
use crate::case::{Case, Item, Mutation, Scenario, Step, TargetSpec};

/// The default number of results a case recalls.
pub const DEFAULT_K: usize = 10;

/// The outcome of one item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Every check held.
    Pass,
    /// A check failed or the store returned an error.
    Fail,
    /// The store does not provide a method the item needs.
    #[serde(rename = "na")]
    NotApplicable,
}

/// One recall (or listing) an item made, with what came back.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecallRecord {
    /// The query; `"<list>"` for a listing.
    pub query: String,
    /// The returned texts, in order.
    pub texts: Vec<String>,
}

/// The scored result of one item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CaseResult {
    /// Item id.
    pub id: String,
    /// Item category.
    pub category: String,
    /// Verdict.
    pub verdict: Verdict,
    /// Why it failed or is N/A (empty on a pass).
    pub reasons: Vec<String>,
    /// Every recall and listing the item made.
    pub recalls: Vec<RecallRecord>,
    /// Wall time for the item, in milliseconds.
    pub elapsed_ms: f64,
}

impl CaseResult {
    /// The reasons as one line.
    pub fn reason_line(&self) -> String {
        self.reasons.join("; ")
    }
}

/// Which expected strings are missing from, and which forbidden ones leak into, `texts`.
pub fn check_texts(
    texts: &[String],
    must_contain: &[String],
    must_not_contain: &[String],
) -> (Vec<String>, Vec<String>) {
    let blob = texts.join("\n").to_lowercase();
    let missing = must_contain
        .iter()
        .filter(|s| !blob.contains(&s.to_lowercase()))
        .cloned()
        .collect();
    let leaked = must_not_contain
        .iter()
        .filter(|s| blob.contains(&s.to_lowercase()))
        .cloned()
        .collect();
    (missing, leaked)
}

fn describe(missing: &[String], leaked: &[String], reasons: &mut Vec<String>, context: &str) {
    for m in missing {
        reasons.push(format!("{context}missing {m:?}"));
    }
    for l in leaked {
        reasons.push(format!("{context}leaked {l:?}"));
    }
}

/// Accumulates what an item did until its verdict is known.
struct Trace {
    reasons: Vec<String>,
    recalls: Vec<RecallRecord>,
}

/// The reason an item stopped early.
enum Stop {
    NotApplicable(String),
    Error(String),
}

impl From<AdapterError> for Stop {
    fn from(e: AdapterError) -> Self {
        match e {
            AdapterError::NotProvided(_) => Stop::NotApplicable(e.to_string()),
            AdapterError::Store(_) => Stop::Error(e.to_string()),
        }
    }
}

/// Run one item on a fresh store and score it.
pub fn run_item(adapter: &mut dyn Adapter, item: &Item, k: usize) -> CaseResult {
    let start = Instant::now();
    let mut trace = Trace {
        reasons: Vec::new(),
        recalls: Vec::new(),
    };
    let outcome = adapter
        .reset()
        .map_err(Stop::from)
        .and_then(|()| match item {
            Item::Case(case) => run_case(adapter, case, k, &mut trace),
            Item::Scenario(s) => run_scenario(adapter, s, k, &mut trace),
        });
    let verdict = match outcome {
        Ok(()) if trace.reasons.is_empty() => Verdict::Pass,
        Ok(()) => Verdict::Fail,
        Err(Stop::NotApplicable(reason)) => {
            trace.reasons.push(reason);
            Verdict::NotApplicable
        }
        Err(Stop::Error(reason)) => {
            trace.reasons.push(reason);
            Verdict::Fail
        }
    };
    CaseResult {
        id: item.id().to_string(),
        category: item.category().to_string(),
        verdict,
        reasons: trace.reasons,
        recalls: trace.recalls,
        elapsed_ms: start.elapsed().as_secs_f64() * 1e3,
    }
}

/// Run every item in order; `on_done` sees each result as it is scored (progress reporting).
pub fn run_items(
    adapter: &mut dyn Adapter,
    items: &[Item],
    k: usize,
    mut on_done: impl FnMut(&CaseResult),
) -> Vec<CaseResult> {
    items
        .iter()
        .map(|item| {
            let result = run_item(adapter, item, k);
            on_done(&result);
            result
        })
        .collect()
}

fn run_case(
    adapter: &mut dyn Adapter,
    case: &Case,
    k: usize,
    trace: &mut Trace,
) -> Result<(), Stop> {
    for fact in &case.setup_facts {
        adapter.inscribe(fact)?;
    }
    for m in &case.mutations {
        match m {
            Mutation::Supersede { old_q, new } => adapter.supersede(old_q, new).map(|_| ())?,
            Mutation::Release { q } => adapter.release(q).map(|_| ())?,
            Mutation::Purge { q } => adapter.purge(q).map(|_| ())?,
        }
    }
    let texts = adapter.recall_texts(&case.final_query, k)?;
    let (missing, leaked) = check_texts(&texts, &case.must_contain, &case.must_not_contain);
    describe(&missing, &leaked, &mut trace.reasons, "");
    trace.recalls.push(RecallRecord {
        query: case.final_query.clone(),
        texts,
    });
    Ok(())
}

fn resolve(target: &TargetSpec, labels: &HashMap<String, RowId>) -> Target {
    match target {
        TargetSpec::Query(q) => Target::Query(q.clone()),
        TargetSpec::Key { namespace, key } => Target::Key {
            namespace: namespace
                .clone()
                .unwrap_or_else(|| DEFAULT_NAMESPACE.to_string()),
            key: key.clone(),
        },
        // The parser guarantees labels are defined before use; an unknown one cannot match.
        TargetSpec::Label(l) => Target::Id(labels.get(l).copied().unwrap_or(RowId::MAX)),
    }
}

fn check_affected(step: usize, op: &str, expected: Option<usize>, got: usize, trace: &mut Trace) {
    if let Some(want) = expected
        && want != got
    {
        trace.reasons.push(format!(
            "step {step}: {op} affected {got} rows, expected {want}"
        ));
    }
}

fn check_count(step: usize, expected: Option<usize>, got: usize, trace: &mut Trace) {
    if let Some(want) = expected
        && want != got
    {
        trace.reasons.push(format!(
            "step {step}: {got} texts returned, expected {want}"
        ));
    }
}

fn run_scenario(
    adapter: &mut dyn Adapter,
    scenario: &Scenario,
    k: usize,
    trace: &mut Trace,
) -> Result<(), Stop> {
    let mut labels: HashMap<String, RowId> = HashMap::new();
    for (index, step) in scenario.steps.iter().enumerate() {
        let n = index + 1;
        match step {
            Step::Inscribe(ins) => {
                let id = adapter.inscribe_row(&ins.row())?;
                if let Some(l) = &ins.label {
                    labels.insert(l.clone(), id);
                }
            }
            Step::Advance { seconds } => adapter.advance_clock(*seconds)?,
            Step::Supersede {
                target,
                new,
                expect_affected,
            } => {
                let got = adapter.supersede_target(&resolve(target, &labels), new)?;
                check_affected(n, "supersede", *expect_affected, got, trace);
            }
            Step::Release {
                target,
                expect_affected,
            } => {
                let got = adapter.release_target(&resolve(target, &labels))?;
                check_affected(n, "release", *expect_affected, got, trace);
            }
            Step::Purge {
                target,
                expect_affected,
            } => {
                let got = adapter.purge_target(&resolve(target, &labels))?;
                check_affected(n, "purge", *expect_affected, got, trace);
            }
            Step::Recall(r) => {
                let texts = adapter.recall_filtered(&RecallRequest {
                    query: r.query.clone(),
                    k: r.k.unwrap_or(k),
                    namespace: r.namespace.clone(),
                    meta: r.meta.clone(),
                })?;
                let (missing, leaked) = check_texts(&texts, &r.must_contain, &r.must_not_contain);
                describe(
                    &missing,
                    &leaked,
                    &mut trace.reasons,
                    &format!("step {n}: "),
                );
                check_count(n, r.expect_count, texts.len(), trace);
                trace.recalls.push(RecallRecord {
                    query: r.query.clone(),
                    texts,
                });
            }
            Step::List(l) => {
                let texts = adapter.list_texts(&ListRequest {
                    namespace: l.namespace.clone(),
                    meta: l.meta.clone(),
                })?;
                let (missing, leaked) = check_texts(&texts, &l.must_contain, &l.must_not_contain);
                describe(
                    &missing,
                    &leaked,
                    &mut trace.reasons,
                    &format!("step {n}: "),
                );
                check_count(n, l.expect_count, texts.len(), trace);
                trace.recalls.push(RecallRecord {
                    query: "<list>".to_string(),
                    texts,
                });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::baseline::NaiveAdapter;
    use crate::case::parse_jsonl;

    fn run(line: &str) -> CaseResult {
        let items = parse_jsonl("t", line).unwrap();
        run_item(&mut NaiveAdapter::new(), &items[0], DEFAULT_K)
    }

    #[test]
    fn checks_are_case_insensitive_over_the_joined_texts() {
        let texts = vec!["Ann lives in LYON".to_string(), "Bo".to_string()];
        let (missing, leaked) = check_texts(
            &texts,
            &["lyon".into(), "ann".into(), "zed".into()],
            &["BO".into(), "paris".into(), "lyon\nbo".into()],
        );
        assert_eq!(missing, vec!["zed".to_string()]);
        assert_eq!(leaked, vec!["BO".to_string(), "lyon\nbo".to_string()]);
    }

    #[test]
    fn a_case_passes_and_fails_on_its_checks() {
        let pass = run(
            r#"{"id":"a","category":"c","setup_facts":["Ann works as a nurse","Bo works as a pilot"],"mutations":[{"op":"supersede","old_q":"Ann works as a nurse","new":"Ann works as a chef"}],"final_query":"Ann job","must_contain":["chef","pilot"],"must_not_contain":["nurse"]}"#,
        );
        assert_eq!(pass.verdict, Verdict::Pass, "{:?}", pass.reasons);
        assert_eq!(pass.recalls[0].texts.len(), 2);
        // The naive store's LIKE purge takes TXN-1234 along with TXN-123.
        let fail = run(
            r#"{"id":"b","category":"c","setup_facts":["Refund TXN-123 approved","Refund TXN-1234 pending"],"mutations":[{"op":"purge","q":"TXN-123"}],"final_query":"refund","must_contain":["TXN-1234"],"must_not_contain":["TXN-123 "]}"#,
        );
        assert_eq!(fail.verdict, Verdict::Fail);
        assert_eq!(fail.reasons, vec!["missing \"TXN-1234\"".to_string()]);
    }

    #[test]
    fn scenario_steps_counts_and_na() {
        let ok = run(
            r#"{"id":"s","category":"c","steps":[{"op":"inscribe","text":"Ann: tea","key":"drink","label":"x"},{"op":"inscribe","text":"todo: call Bo","meta":{"cat":"todo"}},{"op":"supersede","target":{"key":{"key":"drink"}},"new":{"text":"Ann: coffee","key":"drink"},"expect_affected":1},{"op":"purge","target":{"query":"call Bo"},"expect_affected":1},{"op":"recall","query":"Ann","must_contain":["coffee"],"must_not_contain":["tea"],"expect_count":1},{"op":"list","meta":{"cat":"todo"},"expect_count":0}]}"#,
        );
        assert_eq!(ok.verdict, Verdict::Pass, "{:?}", ok.reasons);
        assert_eq!(ok.recalls.len(), 2);
        let wrong_count = run(
            r#"{"id":"s","category":"c","steps":[{"op":"inscribe","text":"a b"},{"op":"inscribe","text":"a c"},{"op":"release","target":{"query":"a"},"expect_affected":1},{"op":"list","expect_count":1}]}"#,
        );
        assert_eq!(wrong_count.verdict, Verdict::Fail);
        assert_eq!(
            wrong_count.reasons,
            vec![
                "step 3: release affected 2 rows, expected 1".to_string(),
                "step 4: 0 texts returned, expected 1".to_string()
            ]
        );
        let na = run(
            r#"{"id":"s","category":"c","steps":[{"op":"inscribe","text":"otp 123"},{"op":"advance","seconds":60},{"op":"list","must_not_contain":["123"]}]}"#,
        );
        assert_eq!(na.verdict, Verdict::NotApplicable);
        assert!(na.reasons[0].contains("advance_clock"));
    }

    /// A store with only the three mandatory methods.
    struct RecallOnly(Vec<String>);

    impl Adapter for RecallOnly {
        fn name(&self) -> &str {
            "recall-only"
        }
        fn reset(&mut self) -> Result<(), AdapterError> {
            self.0.clear();
            Ok(())
        }
        fn inscribe(&mut self, text: &str) -> Result<RowId, AdapterError> {
            self.0.push(text.to_string());
            Ok(self.0.len() as RowId)
        }
        fn recall_texts(&mut self, _q: &str, k: usize) -> Result<Vec<String>, AdapterError> {
            Ok(self.0.iter().take(k).cloned().collect())
        }
    }

    #[test]
    fn missing_control_methods_are_na_and_store_errors_fail() {
        let items = parse_jsonl(
            "t",
            r#"{"id":"a","category":"c","setup_facts":["x"],"mutations":[{"op":"purge","q":"x"}],"final_query":"x","must_contain":[],"must_not_contain":["x"]}"#,
        )
        .unwrap();
        let r = run_item(&mut RecallOnly(Vec::new()), &items[0], 10);
        assert_eq!(r.verdict, Verdict::NotApplicable);
        assert_eq!(
            r.reasons,
            vec!["purge is not provided by this store".to_string()]
        );

        struct Broken;
        impl Adapter for Broken {
            fn name(&self) -> &str {
                "broken"
            }
            fn reset(&mut self) -> Result<(), AdapterError> {
                Err(AdapterError::Store("disk full".into()))
            }
            fn inscribe(&mut self, _: &str) -> Result<RowId, AdapterError> {
                Ok(0)
            }
            fn recall_texts(&mut self, _: &str, _: usize) -> Result<Vec<String>, AdapterError> {
                Ok(Vec::new())
            }
        }
        let r = run_item(&mut Broken, &items[0], 10);
        assert_eq!(r.verdict, Verdict::Fail);
        assert_eq!(r.reasons, vec!["store error: disk full".to_string()]);
    }
}
