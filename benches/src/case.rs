//! Case formats and their parsing.
//!
//! Two shapes share one JSONL file format (one JSON object per line):
//!
//! - [`Case`]: the ForgetEval shape, accepted exactly as written elsewhere:
//!   `{"id", "category", "setup_facts", "mutations", "final_query", "must_contain",
//!   "must_not_contain"}`. Fields beyond these are ignored, so files that carry notes or
//!   provenance run unchanged.
//! - [`Scenario`]: oubli's richer shape for what a case cannot say (keys, namespaces,
//!   metadata, clock advances, several recalls, list checks, expected counts). A line is a
//!   scenario when it has a `"steps"` field; scenarios reject unknown fields.
//!
//! Parsing never panics: every problem is a [`CaseError`] that names the line.

use std::collections::{BTreeMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// One ForgetEval case: inscribe `setup_facts`, apply `mutations`, recall `final_query`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Case {
    /// Unique identifier of the case within its file set.
    pub id: String,
    /// Category (template family or adversarial category) the case is scored under.
    pub category: String,
    /// Facts inscribed in order into a fresh, empty store.
    pub setup_facts: Vec<String>,
    /// Control-plane calls applied in order after the setup.
    pub mutations: Vec<Mutation>,
    /// The query recalled once at the end (with k = 10 by default).
    pub final_query: String,
    /// Every entry must be a case-insensitive substring of the recalled texts.
    pub must_contain: Vec<String>,
    /// No entry may be a case-insensitive substring of the recalled texts.
    pub must_not_contain: Vec<String>,
}

/// One control-plane call of a [`Case`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
pub enum Mutation {
    /// Replace what `old_q` targets by the new text `new`.
    Supersede {
        /// Query naming the fact to replace.
        old_q: String,
        /// Text of the replacement fact.
        new: String,
    },
    /// Soft-forget what `q` targets.
    Release {
        /// Query naming what to release.
        q: String,
    },
    /// Hard-erase what `q` targets.
    Purge {
        /// Query naming what to erase.
        q: String,
    },
}

impl Mutation {
    /// The query this mutation targets.
    pub fn query(&self) -> &str {
        match self {
            Mutation::Supersede { old_q, .. } => old_q,
            Mutation::Release { q } | Mutation::Purge { q } => q,
        }
    }

    /// The operation name as written in the JSON (`supersede`, `release`, `purge`).
    pub fn op(&self) -> &'static str {
        match self {
            Mutation::Supersede { .. } => "supersede",
            Mutation::Release { .. } => "release",
            Mutation::Purge { .. } => "purge",
        }
    }
}

/// A row to inscribe in a [`Scenario`]: text plus optional namespace, natural key and metadata.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Row {
    /// The memory text.
    pub text: String,
    /// Namespace (user, tenant, agent); adapters use `"default"` when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// Natural key, unique within the namespace.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// Metadata, a string map (for example `{"cat": "todo"}`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub meta: BTreeMap<String, String>,
}

impl Row {
    /// A row with only a text.
    pub fn text(text: impl Into<String>) -> Self {
        Row {
            text: text.into(),
            ..Row::default()
        }
    }
}

/// What a scenario's control step targets.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum TargetSpec {
    /// Rows named by a natural-language or identifier query.
    Query(String),
    /// The row holding a natural key.
    Key {
        /// Namespace of the key; `"default"` when absent.
        #[serde(default)]
        namespace: Option<String>,
        /// The natural key.
        key: String,
    },
    /// The row an earlier `inscribe` step labelled.
    Label(String),
}

/// A recall made by a scenario, with its checks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecallStep {
    /// The query text.
    pub query: String,
    /// Number of results; the runner's k when absent.
    #[serde(default)]
    pub k: Option<usize>,
    /// Restrict to one namespace.
    #[serde(default)]
    pub namespace: Option<String>,
    /// Restrict to rows whose metadata holds every pair.
    #[serde(default)]
    pub meta: BTreeMap<String, String>,
    /// Every entry must be a case-insensitive substring of the texts joined by newlines.
    #[serde(default)]
    pub must_contain: Vec<String>,
    /// No entry may be a case-insensitive substring of the texts joined by newlines.
    #[serde(default)]
    pub must_not_contain: Vec<String>,
    /// Exact number of texts returned, when given.
    #[serde(default)]
    pub expect_count: Option<usize>,
}

/// A listing of live rows made by a scenario, with its checks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListStep {
    /// Restrict to one namespace.
    #[serde(default)]
    pub namespace: Option<String>,
    /// Restrict to rows whose metadata holds every pair.
    #[serde(default)]
    pub meta: BTreeMap<String, String>,
    /// Every entry must be a case-insensitive substring of the texts joined by newlines.
    #[serde(default)]
    pub must_contain: Vec<String>,
    /// No entry may be a case-insensitive substring of the texts joined by newlines.
    #[serde(default)]
    pub must_not_contain: Vec<String>,
    /// Exact number of rows listed, when given.
    #[serde(default)]
    pub expect_count: Option<usize>,
}

/// An inscription made by a scenario.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InscribeStep {
    /// The memory text.
    pub text: String,
    /// Namespace; `"default"` when absent.
    #[serde(default)]
    pub namespace: Option<String>,
    /// Natural key.
    #[serde(default)]
    pub key: Option<String>,
    /// Metadata.
    #[serde(default)]
    pub meta: BTreeMap<String, String>,
    /// Name for later `{"label": ...}` targets.
    #[serde(default)]
    pub label: Option<String>,
}

impl InscribeStep {
    /// The row this step inscribes.
    pub fn row(&self) -> Row {
        Row {
            text: self.text.clone(),
            namespace: self.namespace.clone(),
            key: self.key.clone(),
            meta: self.meta.clone(),
        }
    }
}

/// One step of a [`Scenario`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
pub enum Step {
    /// Inscribe a row; `label` names it for later `{"label": ...}` targets.
    Inscribe(InscribeStep),
    /// Advance the store's clock.
    Advance {
        /// Seconds to advance.
        seconds: u64,
    },
    /// Replace the target by a new row.
    Supersede {
        /// What to replace.
        target: TargetSpec,
        /// The replacement.
        new: Row,
        /// Exact number of rows replaced, when given.
        #[serde(default)]
        expect_affected: Option<usize>,
    },
    /// Soft-forget the target.
    Release {
        /// What to release.
        target: TargetSpec,
        /// Exact number of rows released, when given.
        #[serde(default)]
        expect_affected: Option<usize>,
    },
    /// Hard-erase the target.
    Purge {
        /// What to erase.
        target: TargetSpec,
        /// Exact number of rows erased, when given.
        #[serde(default)]
        expect_affected: Option<usize>,
    },
    /// Recall and check.
    Recall(RecallStep),
    /// List live rows and check.
    List(ListStep),
}

/// oubli's richer case: a sequence of steps run on a fresh, empty store.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Unique identifier.
    pub id: String,
    /// Category the scenario is scored under.
    pub category: String,
    /// Free-text description for readers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Steps, run in order.
    pub steps: Vec<Step>,
}

/// One line of a case file: a ForgetEval case or an oubli scenario.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    /// ForgetEval shape.
    Case(Case),
    /// oubli scenario shape.
    Scenario(Scenario),
}

impl Item {
    /// The item's identifier.
    pub fn id(&self) -> &str {
        match self {
            Item::Case(c) => &c.id,
            Item::Scenario(s) => &s.id,
        }
    }

    /// The item's category.
    pub fn category(&self) -> &str {
        match self {
            Item::Case(c) => &c.category,
            Item::Scenario(s) => &s.category,
        }
    }
}

/// What is wrong with one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineProblem {
    /// Not JSON, or JSON of the wrong shape (the message is serde's).
    Json(String),
    /// JSON, but not an object.
    NotAnObject,
    /// Well-formed but semantically invalid (empty id, empty query, ...).
    Invalid(String),
    /// The id was already used on an earlier line.
    DuplicateId(String),
}

impl fmt::Display for LineProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineProblem::Json(m) => write!(f, "malformed case: {m}"),
            LineProblem::NotAnObject => write!(f, "malformed case: a line must be a JSON object"),
            LineProblem::Invalid(m) => write!(f, "invalid case: {m}"),
            LineProblem::DuplicateId(id) => write!(f, "duplicate case id {id:?}"),
        }
    }
}

/// Why a case file could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum CaseError {
    /// The file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// One line is malformed or invalid.
    #[error("{origin}:{line}: {problem}")]
    Line {
        /// File path or other origin name.
        origin: String,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        problem: LineProblem,
    },
}

impl CaseError {
    /// The 1-based line number, when the error is about one line.
    pub fn line(&self) -> Option<usize> {
        match self {
            CaseError::Line { line, .. } => Some(*line),
            CaseError::Io { .. } => None,
        }
    }
}

/// Parse JSONL text; `origin` names the source in errors. Blank lines are skipped.
pub fn parse_jsonl(origin: &str, text: &str) -> Result<Vec<Item>, CaseError> {
    let mut items = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() {
            continue;
        }
        let err = |problem| CaseError::Line {
            origin: origin.to_string(),
            line,
            problem,
        };
        let item = parse_line(trimmed).map_err(err)?;
        if !seen.insert(item.id().to_string()) {
            return Err(err(LineProblem::DuplicateId(item.id().to_string())));
        }
        items.push(item);
    }
    Ok(items)
}

/// Read and parse one JSONL file.
pub fn load_file(path: &Path) -> Result<Vec<Item>, CaseError> {
    let text = std::fs::read_to_string(path).map_err(|source| CaseError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    parse_jsonl(&path.display().to_string(), &text)
}

/// Read several files in order; ids must be unique across all of them.
pub fn load_files(paths: &[PathBuf]) -> Result<Vec<Item>, CaseError> {
    let mut all: Vec<Item> = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    for path in paths {
        let text = std::fs::read_to_string(path).map_err(|source| CaseError::Io {
            path: path.clone(),
            source,
        })?;
        let origin = path.display().to_string();
        let items = parse_jsonl(&origin, &text)?;
        for item in items {
            if !seen.insert(item.id().to_string()) {
                let line = line_of_id(&text, item.id()).unwrap_or(0);
                return Err(CaseError::Line {
                    origin,
                    line,
                    problem: LineProblem::DuplicateId(item.id().to_string()),
                });
            }
            all.push(item);
        }
    }
    Ok(all)
}

/// Serialize cases as JSONL (one line each, trailing newline).
pub fn to_jsonl(cases: &[Case]) -> String {
    let mut out = String::new();
    for case in cases {
        // A Case holds only strings and vectors of strings: serialization cannot fail.
        out.push_str(&serde_json::to_string(case).unwrap_or_default());
        out.push('\n');
    }
    out
}

fn line_of_id(text: &str, id: &str) -> Option<usize> {
    let needle = serde_json::to_string(id).ok()?;
    text.lines()
        .position(|l| l.contains(&needle))
        .map(|i| i + 1)
}

fn parse_line(line: &str) -> Result<Item, LineProblem> {
    let value: serde_json::Value =
        serde_json::from_str(line).map_err(|e| LineProblem::Json(e.to_string()))?;
    let object = value.as_object().ok_or(LineProblem::NotAnObject)?;
    if object.contains_key("steps") {
        let scenario: Scenario =
            serde_json::from_value(value).map_err(|e| LineProblem::Json(e.to_string()))?;
        validate_scenario(&scenario)?;
        Ok(Item::Scenario(scenario))
    } else {
        let case: Case =
            serde_json::from_value(value).map_err(|e| LineProblem::Json(e.to_string()))?;
        validate_case(&case)?;
        Ok(Item::Case(case))
    }
}

fn invalid(message: impl Into<String>) -> LineProblem {
    LineProblem::Invalid(message.into())
}

fn non_empty(what: &str, value: &str) -> Result<(), LineProblem> {
    if value.trim().is_empty() {
        Err(invalid(format!("{what} is empty")))
    } else {
        Ok(())
    }
}

fn validate_checks(
    must_contain: &[String],
    must_not_contain: &[String],
) -> Result<(), LineProblem> {
    for s in must_contain {
        non_empty("a must_contain entry", s)?;
    }
    for s in must_not_contain {
        non_empty("a must_not_contain entry", s)?;
    }
    Ok(())
}

fn validate_case(case: &Case) -> Result<(), LineProblem> {
    non_empty("id", &case.id)?;
    non_empty("category", &case.category)?;
    non_empty("final_query", &case.final_query)?;
    for fact in &case.setup_facts {
        non_empty("a setup fact", fact)?;
    }
    for m in &case.mutations {
        non_empty(&format!("the query of a {} mutation", m.op()), m.query())?;
        if let Mutation::Supersede { new, .. } = m {
            non_empty("the new text of a supersede mutation", new)?;
        }
    }
    validate_checks(&case.must_contain, &case.must_not_contain)?;
    if case.must_contain.is_empty() && case.must_not_contain.is_empty() {
        return Err(invalid("must_contain and must_not_contain are both empty"));
    }
    Ok(())
}

fn validate_target(target: &TargetSpec, labels: &HashSet<&str>) -> Result<(), LineProblem> {
    match target {
        TargetSpec::Query(q) => non_empty("a target query", q),
        TargetSpec::Key { key, .. } => non_empty("a target key", key),
        TargetSpec::Label(l) if labels.contains(l.as_str()) => Ok(()),
        TargetSpec::Label(l) => Err(invalid(format!(
            "target label {l:?} is not defined by an earlier inscribe step"
        ))),
    }
}

fn validate_scenario(s: &Scenario) -> Result<(), LineProblem> {
    non_empty("id", &s.id)?;
    non_empty("category", &s.category)?;
    if s.steps.is_empty() {
        return Err(invalid("steps is empty"));
    }
    let mut labels: HashSet<&str> = HashSet::new();
    let mut checks = 0usize;
    for step in &s.steps {
        match step {
            Step::Inscribe(ins) => {
                non_empty("an inscribed text", &ins.text)?;
                if let Some(l) = &ins.label
                    && !labels.insert(l.as_str())
                {
                    return Err(invalid(format!("label {l:?} is defined twice")));
                }
            }
            Step::Advance { .. } => {}
            Step::Supersede { target, new, .. } => {
                validate_target(target, &labels)?;
                non_empty("the new text of a supersede step", &new.text)?;
            }
            Step::Release { target, .. } | Step::Purge { target, .. } => {
                validate_target(target, &labels)?;
            }
            Step::Recall(r) => {
                non_empty("a recall query", &r.query)?;
                if r.k == Some(0) {
                    return Err(invalid("a recall step has k = 0"));
                }
                validate_checks(&r.must_contain, &r.must_not_contain)?;
                checks += 1;
            }
            Step::List(l) => {
                validate_checks(&l.must_contain, &l.must_not_contain)?;
                checks += 1;
            }
        }
    }
    if checks == 0 {
        return Err(invalid("a scenario needs at least one recall or list step"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"{"id": "c1", "category": "purge", "setup_facts": ["Ann's email is ann@x.org", "Bo likes tea"], "mutations": [{"op": "purge", "q": "ann@x.org"}, {"op": "supersede", "old_q": "Bo likes", "new": "Bo likes coffee"}, {"op": "release", "q": "Bo"}], "final_query": "email", "must_contain": ["Bo"], "must_not_contain": ["ann@x.org"]}"#;

    #[test]
    fn parses_the_forgeteval_shape() {
        let items = parse_jsonl("t", &format!("{GOOD}\n\n")).unwrap();
        assert_eq!(items.len(), 1);
        let Item::Case(case) = &items[0] else {
            panic!("expected a case")
        };
        assert_eq!(case.id, "c1");
        assert_eq!(case.setup_facts.len(), 2);
        assert_eq!(
            case.mutations,
            vec![
                Mutation::Purge {
                    q: "ann@x.org".into()
                },
                Mutation::Supersede {
                    old_q: "Bo likes".into(),
                    new: "Bo likes coffee".into()
                },
                Mutation::Release { q: "Bo".into() },
            ]
        );
        assert_eq!(case.must_not_contain, vec!["ann@x.org".to_string()]);
    }

    #[test]
    fn ignores_unknown_top_level_fields_of_the_case_shape() {
        let line = GOOD.replacen('{', r#"{"provenance": "hand-crafted", "#, 1);
        assert!(parse_jsonl("t", &line).is_ok());
    }

    #[test]
    fn round_trips_through_to_jsonl() {
        let items = parse_jsonl("t", GOOD).unwrap();
        let Item::Case(case) = items[0].clone() else {
            panic!("expected a case")
        };
        let again = parse_jsonl("t", &to_jsonl(std::slice::from_ref(&case))).unwrap();
        assert_eq!(again, vec![Item::Case(case)]);
    }

    fn line_error(text: &str) -> (usize, LineProblem) {
        match parse_jsonl("f.jsonl", text) {
            Err(CaseError::Line { line, problem, .. }) => (line, problem),
            other => panic!("expected a line error, got {other:?}"),
        }
    }

    #[test]
    fn malformed_json_names_its_line() {
        let text = format!("{GOOD}\n\n{{\"id\": \"c2\", \"category\": ");
        let (line, problem) = line_error(&text);
        assert_eq!(line, 3);
        assert!(matches!(problem, LineProblem::Json(_)));
    }

    #[test]
    fn wrong_shapes_are_typed_errors() {
        assert_eq!(line_error("[1, 2]"), (1, LineProblem::NotAnObject));
        let (_, p) = line_error(&GOOD.replace("\"supersede\"", "\"forget\""));
        assert!(matches!(p, LineProblem::Json(m) if m.contains("forget")));
        let (_, p) = line_error(&GOOD.replace("\"old_q\"", "\"old_query\""));
        assert!(matches!(p, LineProblem::Json(_)));
        let (_, p) = line_error(&GOOD.replace("\"setup_facts\": [", "\"setup_facts\": [3, "));
        assert!(matches!(p, LineProblem::Json(_)));
        let (_, p) = line_error(&GOOD.replace("\"final_query\": \"email\"", "\"x\": 1"));
        assert!(matches!(p, LineProblem::Json(m) if m.contains("final_query")));
    }

    #[test]
    fn semantic_problems_are_typed_errors() {
        let (_, p) = line_error(&GOOD.replace("\"id\": \"c1\"", "\"id\": \" \""));
        assert_eq!(p, LineProblem::Invalid("id is empty".into()));
        let (_, p) = line_error(&GOOD.replace("\"q\": \"Bo\"", "\"q\": \"\""));
        assert!(matches!(p, LineProblem::Invalid(m) if m.contains("release")));
        let no_checks = GOOD
            .replace("[\"Bo\"]", "[]")
            .replace("[\"ann@x.org\"]", "[]");
        let (_, p) = line_error(&no_checks);
        assert!(matches!(p, LineProblem::Invalid(_)));
        let (line, p) = line_error(&format!("{GOOD}\n{GOOD}"));
        assert_eq!((line, p), (2, LineProblem::DuplicateId("c1".into())));
    }

    #[test]
    fn error_messages_carry_origin_and_line() {
        let err = parse_jsonl("bank.jsonl", "\n\nnot json").unwrap_err();
        assert_eq!(err.line(), Some(3));
        assert!(err.to_string().starts_with("bank.jsonl:3: malformed case"));
    }

    const SCENARIO: &str = r#"{"id": "s1", "category": "keys", "steps": [
        {"op": "inscribe", "text": "Ann's email is ann@x.org", "namespace": "u1", "key": "email", "meta": {"cat": "contact"}, "label": "a"},
        {"op": "advance", "seconds": 60},
        {"op": "supersede", "target": {"key": {"namespace": "u1", "key": "email"}}, "new": {"text": "Ann's email is ann@y.org", "key": "email", "namespace": "u1"}, "expect_affected": 1},
        {"op": "release", "target": {"query": "Ann"}},
        {"op": "purge", "target": {"label": "a"}},
        {"op": "recall", "query": "email", "k": 5, "namespace": "u1", "must_contain": ["ann@y.org"], "must_not_contain": ["ann@x.org"], "expect_count": 1},
        {"op": "list", "meta": {"cat": "contact"}, "expect_count": 1}
    ]}"#;

    #[test]
    fn parses_the_scenario_shape() {
        let one_line = SCENARIO.replace('\n', " ");
        let items = parse_jsonl("t", &one_line).unwrap();
        let Item::Scenario(s) = &items[0] else {
            panic!("expected a scenario")
        };
        assert_eq!(s.steps.len(), 7);
        assert!(matches!(&s.steps[0], Step::Inscribe(i)
            if i.key.as_deref() == Some("email") && i.meta["cat"] == "contact" && i.label.as_deref() == Some("a")));
        assert!(
            matches!(&s.steps[2], Step::Supersede { target: TargetSpec::Key { key, .. }, expect_affected: Some(1), .. } if key == "email")
        );
        assert!(
            matches!(&s.steps[5], Step::Recall(r) if r.k == Some(5) && r.expect_count == Some(1))
        );
    }

    #[test]
    fn scenario_problems_are_typed_errors() {
        let one_line = SCENARIO.replace('\n', " ");
        let (_, p) = line_error(&one_line.replace("\"label\": \"a\"}}", "\"label\": \"zz\"}}"));
        assert!(matches!(p, LineProblem::Invalid(m) if m.contains("zz")));
        let (_, p) = line_error(&one_line.replace("\"seconds\"", "\"minutes\""));
        assert!(matches!(p, LineProblem::Json(_)));
        let (_, p) = line_error(
            r#"{"id": "s", "category": "c", "steps": [{"op": "inscribe", "text": "x"}]}"#,
        );
        assert!(matches!(p, LineProblem::Invalid(m) if m.contains("recall or list")));
    }
}
