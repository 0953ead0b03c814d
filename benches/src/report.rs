//! Reports: per-category tables, the JSON record of a run, and paired comparisons.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::runner::{CaseResult, Verdict};
use crate::scale::{ALPHA, DecoyKind, ScaleReport};
use crate::stats::{McNemar, McNemarMethod, Proportion, mcnemar, wilson95};

/// Tallies of one category (or of all categories).
#[derive(Debug, Clone, PartialEq)]
pub struct CategoryRow {
    /// Category name; `"all"` for the total.
    pub category: String,
    /// Items that passed.
    pub pass: u64,
    /// Items that failed.
    pub fail: u64,
    /// Items scored N/A.
    pub na: u64,
    /// Pass rate over scored (non-N/A) items, with its 95 % Wilson interval.
    pub rate: Proportion,
}

fn row(category: &str, pass: u64, fail: u64, na: u64) -> CategoryRow {
    CategoryRow {
        category: category.to_string(),
        pass,
        fail,
        na,
        rate: wilson95(pass, pass + fail),
    }
}

/// Per-category rows in category order, followed by an `all` row.
pub fn summarize(results: &[CaseResult]) -> Vec<CategoryRow> {
    let mut counts: BTreeMap<&str, [u64; 3]> = BTreeMap::new();
    for r in results {
        let c = counts.entry(r.category.as_str()).or_default();
        match r.verdict {
            Verdict::Pass => c[0] += 1,
            Verdict::Fail => c[1] += 1,
            Verdict::NotApplicable => c[2] += 1,
        }
    }
    let mut total = [0u64; 3];
    let mut rows: Vec<CategoryRow> = counts
        .into_iter()
        .map(|(cat, c)| {
            for i in 0..3 {
                total[i] += c[i];
            }
            row(cat, c[0], c[1], c[2])
        })
        .collect();
    rows.push(row("all", total[0], total[1], total[2]));
    rows
}

fn percent(x: f64) -> String {
    format!("{:.1}", x * 100.0)
}

/// The rows as a fixed-width text table (markdown-compatible).
pub fn format_table(rows: &[CategoryRow]) -> String {
    let width = rows
        .iter()
        .map(|r| r.category.len())
        .max()
        .unwrap_or(8)
        .max(8);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "| {:<width$} | {:>5} | {:>5} | {:>4} | {:>6} | {:>15} |",
        "category", "pass", "fail", "N/A", "rate %", "95 % Wilson"
    );
    let _ = writeln!(
        out,
        "|{}|------:|------:|-----:|-------:|----------------:|",
        "-".repeat(width + 2)
    );
    for r in rows {
        let rate = if r.pass + r.fail == 0 {
            "-".to_string()
        } else {
            percent(r.rate.rate)
        };
        let ci = if r.pass + r.fail == 0 {
            "-".to_string()
        } else {
            format!("[{}, {}]", percent(r.rate.low), percent(r.rate.high))
        };
        let _ = writeln!(
            out,
            "| {:<width$} | {:>5} | {:>5} | {:>4} | {:>6} | {:>15} |",
            r.category, r.pass, r.fail, r.na, rate, ci
        );
    }
    out
}

/// The JSON record of one run: settings and every item's verdict and recalled texts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunReport {
    /// Adapter name.
    pub adapter: String,
    /// Embedder used (adapter-specific; `"none"` when the store has none).
    pub embedder: String,
    /// Results per recall.
    pub k: usize,
    /// Case files run, in order.
    pub files: Vec<String>,
    /// One entry per item, in run order.
    pub results: Vec<CaseResult>,
}

/// Why a run report could not be written or read.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// File system error.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: std::path::PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// Not a run report.
    #[error("{}: not a run report: {source}", path.display())]
    Json {
        /// The file.
        path: std::path::PathBuf,
        /// The underlying error.
        source: serde_json::Error,
    },
}

impl RunReport {
    /// Write as pretty JSON.
    pub fn write(&self, path: &Path) -> Result<(), ReportError> {
        let text = serde_json::to_string_pretty(self).map_err(|source| ReportError::Json {
            path: path.to_path_buf(),
            source,
        })?;
        std::fs::write(path, text + "\n").map_err(|source| ReportError::Io {
            path: path.to_path_buf(),
            source,
        })
    }

    /// Read a report written by [`RunReport::write`].
    pub fn read(path: &Path) -> Result<Self, ReportError> {
        let text = std::fs::read_to_string(path).map_err(|source| ReportError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        serde_json::from_str(&text).map_err(|source| ReportError::Json {
            path: path.to_path_buf(),
            source,
        })
    }
}

/// A paired comparison of two runs over the items they share.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// Items scored (pass or fail) in both runs.
    pub paired: u64,
    /// Items both runs passed.
    pub both_pass: u64,
    /// Items both runs failed.
    pub both_fail: u64,
    /// Items present in both but N/A in at least one (left out of the test).
    pub skipped_na: u64,
    /// Items present in only one run.
    pub unmatched: u64,
    /// McNemar's test on the discordant pairs (first-only passes vs second-only passes).
    pub test: McNemar,
    /// Ids of items only the first run passed, in id order.
    pub first_only: Vec<String>,
    /// Ids of items only the second run passed, in id order.
    pub second_only: Vec<String>,
}

/// Pair two runs by item id and test whether their pass rates differ.
pub fn compare(a: &RunReport, b: &RunReport) -> Comparison {
    let b_by_id: BTreeMap<&str, Verdict> = b
        .results
        .iter()
        .map(|r| (r.id.as_str(), r.verdict))
        .collect();
    let a_ids: BTreeMap<&str, Verdict> = a
        .results
        .iter()
        .map(|r| (r.id.as_str(), r.verdict))
        .collect();
    let mut cmp = Comparison {
        paired: 0,
        both_pass: 0,
        both_fail: 0,
        skipped_na: 0,
        unmatched: 0,
        test: mcnemar(0, 0),
        first_only: Vec::new(),
        second_only: Vec::new(),
    };
    for (id, va) in &a_ids {
        let Some(vb) = b_by_id.get(id) else {
            cmp.unmatched += 1;
            continue;
        };
        match (va, vb) {
            (Verdict::NotApplicable, _) | (_, Verdict::NotApplicable) => cmp.skipped_na += 1,
            (Verdict::Pass, Verdict::Pass) => cmp.both_pass += 1,
            (Verdict::Fail, Verdict::Fail) => cmp.both_fail += 1,
            (Verdict::Pass, Verdict::Fail) => cmp.first_only.push(id.to_string()),
            (Verdict::Fail, Verdict::Pass) => cmp.second_only.push(id.to_string()),
        }
    }
    cmp.unmatched += b_by_id.keys().filter(|id| !a_ids.contains_key(*id)).count() as u64;
    cmp.paired =
        cmp.both_pass + cmp.both_fail + cmp.first_only.len() as u64 + cmp.second_only.len() as u64;
    cmp.test = mcnemar(cmp.first_only.len() as u64, cmp.second_only.len() as u64);
    cmp
}

/// The comparison as text, naming the two runs.
pub fn format_comparison(first: &str, second: &str, c: &Comparison) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "paired items: {} (N/A in either run: {}, unmatched ids: {})",
        c.paired, c.skipped_na, c.unmatched
    );
    let _ = writeln!(
        out,
        "both pass: {}   both fail: {}",
        c.both_pass, c.both_fail
    );
    let _ = writeln!(
        out,
        "only {first} passes: {}   only {second} passes: {}",
        c.first_only.len(),
        c.second_only.len()
    );
    let method = match c.test.method {
        McNemarMethod::ExactBinomial => "exact binomial (discordant < 25)",
        McNemarMethod::ChiSquareCorrected => "chi-square, 1 df, continuity-corrected",
    };
    let p = if c.test.p_value < 1e-4 {
        format!("{:.2e}", c.test.p_value)
    } else {
        format!("{:.4}", c.test.p_value)
    };
    let _ = writeln!(
        out,
        "McNemar: chi2 = {:.3} (corrected), p = {p} [{method}]",
        c.test.chi_square
    );
    let verdict = if c.test.p_value < 0.05 {
        "the runs differ at the 5 % level"
    } else {
        "no significant difference at the 5 % level"
    };
    let _ = writeln!(out, "{verdict}");
    out
}

/// The scale ladder as a text table, with the breakdown onset.
pub fn format_scale(report: &ScaleReport) -> String {
    let b = report.config.budget;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "| sessions | facts | Pass@{b} % |   95 % Wilson | P90R | missed | over budget | p50 ms | p99 ms | leaks sup/rel/pur |"
    );
    let _ = writeln!(
        out,
        "|---------:|------:|--------:|--------------:|-----:|-------:|------------:|-------:|-------:|------------------:|"
    );
    for r in &report.rows {
        let p = &r.pass_at_budget;
        let _ = writeln!(
            out,
            "| {:>8} | {:>5} | {:>7} | {:>13} | {:>4} | {:>6} | {:>11} | {:>6.2} | {:>6.2} | {:>17} |",
            r.sessions,
            r.irrelevant_facts,
            percent(p.rate),
            format!("[{}, {}]", percent(p.low), percent(p.high)),
            r.p90_calls,
            r.missed,
            r.over_budget,
            r.latency_p50_ms,
            r.latency_p99_ms,
            format!(
                "{}/{}/{}",
                r.leaks_of(DecoyKind::Superseded),
                r.leaks_of(DecoyKind::Released),
                r.leaks_of(DecoyKind::Purged)
            ),
        );
    }
    let last = report.rows.last().map_or(0, |r| r.sessions);
    let onset = match report.breakdown_onset() {
        Some(s) => format!("{s} sessions"),
        None => format!("> {last} sessions (no breakdown)"),
    };
    let _ = writeln!(out, "breakdown onset (first Pass@{b} < {ALPHA}): {onset}");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(id: &str, category: &str, verdict: Verdict) -> CaseResult {
        CaseResult {
            id: id.into(),
            category: category.into(),
            verdict,
            reasons: Vec::new(),
            recalls: Vec::new(),
            elapsed_ms: 0.0,
        }
    }

    #[test]
    fn summarize_counts_per_category_and_total() {
        let results = vec![
            result("1", "purge", Verdict::Pass),
            result("2", "purge", Verdict::Fail),
            result("3", "decay", Verdict::NotApplicable),
            result("4", "purge", Verdict::Pass),
        ];
        let rows = summarize(&results);
        assert_eq!(rows.len(), 3);
        assert_eq!(
            (rows[0].category.as_str(), rows[0].na, rows[0].rate.trials),
            ("decay", 1, 0)
        );
        assert_eq!((rows[1].pass, rows[1].fail), (2, 1));
        assert_eq!(
            (
                rows[2].category.as_str(),
                rows[2].pass,
                rows[2].fail,
                rows[2].na
            ),
            ("all", 2, 1, 1)
        );
        let table = format_table(&rows);
        assert!(
            table.contains("| purge    |     2 |     1 |    0 |   66.7 |"),
            "{table}"
        );
        assert!(
            table.contains("| decay    |     0 |     0 |    1 |      - |"),
            "{table}"
        );
    }

    #[test]
    fn compare_pairs_by_id_and_skips_na() {
        let run = |vs: &[(&str, Verdict)]| RunReport {
            adapter: "x".into(),
            embedder: "none".into(),
            k: 10,
            files: Vec::new(),
            results: vs.iter().map(|(id, v)| result(id, "c", *v)).collect(),
        };
        let a = run(&[
            ("a", Verdict::Pass),
            ("b", Verdict::Pass),
            ("c", Verdict::Fail),
            ("d", Verdict::NotApplicable),
            ("e", Verdict::Pass),
        ]);
        let b = run(&[
            ("b", Verdict::Fail),
            ("a", Verdict::Pass),
            ("c", Verdict::Pass),
            ("d", Verdict::Pass),
            ("f", Verdict::Pass),
        ]);
        let c = compare(&a, &b);
        assert_eq!(
            (
                c.paired,
                c.both_pass,
                c.both_fail,
                c.skipped_na,
                c.unmatched
            ),
            (3, 1, 0, 1, 2)
        );
        assert_eq!(c.first_only, vec!["b".to_string()]);
        assert_eq!(c.second_only, vec!["c".to_string()]);
        assert_eq!(c.test.p_value, 1.0);
        let text = format_comparison("A", "B", &c);
        assert!(
            text.contains("only A passes: 1   only B passes: 1"),
            "{text}"
        );
    }

    #[test]
    fn scale_table_shows_every_measure() {
        use crate::baseline::NaiveAdapter;
        use crate::scale::{ScaleConfig, run};
        let config = ScaleConfig {
            scales: vec![0, 10],
            ..ScaleConfig::default()
        };
        let report = run(&mut NaiveAdapter::new(), &config, |_| {}).unwrap();
        let text = format_scale(&report);
        assert!(text.contains("Pass@2 %"), "{text}");
        assert_eq!(text.lines().count(), 5, "{text}");
        assert!(
            text.contains("breakdown onset (first Pass@2 < 0.7)"),
            "{text}"
        );
    }

    #[test]
    fn reports_round_trip_and_bad_files_are_errors() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.json");
        let report = RunReport {
            adapter: "baseline".into(),
            embedder: "none".into(),
            k: 10,
            files: vec!["a.jsonl".into()],
            results: vec![result("1", "c", Verdict::NotApplicable)],
        };
        report.write(&path).unwrap();
        assert_eq!(RunReport::read(&path).unwrap(), report);
        std::fs::write(&path, "{}").unwrap();
        assert!(matches!(
            RunReport::read(&path),
            Err(ReportError::Json { .. })
        ));
        assert!(matches!(
            RunReport::read(&dir.path().join("none.json")),
            Err(ReportError::Io { .. })
        ));
    }
}
