//! The ratchet: the checked-in list of every case the store fails today.
//!
//! Format (`benches/ratchet.txt`): sections headed `[adversarial]` and `[scale]`; in each, one
//! failing id per line followed by whitespace and a one-line reason. `#` starts a comment line;
//! blank lines are ignored. A check fails on any failure not listed (a regression) and on any
//! listed id that now passes (an improvement to record by deleting the line), so the list can
//! only shrink.

use std::collections::BTreeMap;
use std::fmt::Write as _;

/// A parsed ratchet file: section name to (id to reason).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Ratchet {
    sections: BTreeMap<String, BTreeMap<String, String>>,
}

/// A malformed ratchet line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("ratchet line {line}: {message}")]
pub struct RatchetError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// The difference between the listed failures and today's.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RatchetCheck {
    /// Failures not listed: (id, reason).
    pub new_failures: Vec<(String, String)>,
    /// Listed ids that now pass.
    pub now_passing: Vec<String>,
}

impl RatchetCheck {
    /// True when today's failures are exactly the listed ones.
    pub fn holds(&self) -> bool {
        self.new_failures.is_empty() && self.now_passing.is_empty()
    }

    /// A readable account of what changed.
    pub fn describe(&self, section: &str) -> String {
        let mut out = String::new();
        for (id, reason) in &self.new_failures {
            let _ = writeln!(
                out,
                "[{section}] new failure (fix it, or list it): {id}  {reason}"
            );
        }
        for id in &self.now_passing {
            let _ = writeln!(out, "[{section}] now passes (delete its line): {id}");
        }
        out
    }
}

impl Ratchet {
    /// Parse the text of a ratchet file.
    pub fn parse(text: &str) -> Result<Self, RatchetError> {
        let mut ratchet = Ratchet::default();
        let mut current: Option<String> = None;
        for (index, raw) in text.lines().enumerate() {
            let line = index + 1;
            let trimmed = raw.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            if let Some(name) = trimmed.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
                ratchet.sections.entry(name.to_string()).or_default();
                current = Some(name.to_string());
                continue;
            }
            let Some(section) = &current else {
                return Err(RatchetError {
                    line,
                    message: "entry before any [section] header".into(),
                });
            };
            let (id, reason) = trimmed
                .split_once(char::is_whitespace)
                .map(|(i, r)| (i, r.trim()))
                .unwrap_or((trimmed, ""));
            if reason.is_empty() {
                return Err(RatchetError {
                    line,
                    message: format!("{id} has no reason"),
                });
            }
            let entries = ratchet.sections.entry(section.clone()).or_default();
            if entries.insert(id.to_string(), reason.to_string()).is_some() {
                return Err(RatchetError {
                    line,
                    message: format!("{id} is listed twice"),
                });
            }
        }
        Ok(ratchet)
    }

    /// The entries of one section (empty when absent).
    pub fn section(&self, name: &str) -> BTreeMap<String, String> {
        self.sections.get(name).cloned().unwrap_or_default()
    }

    /// Compare today's failures in `section` with the listed ones.
    pub fn check(&self, section: &str, failures: &[(String, String)]) -> RatchetCheck {
        let listed = self.section(section);
        let mut check = RatchetCheck::default();
        for (id, reason) in failures {
            if !listed.contains_key(id) {
                check.new_failures.push((id.clone(), reason.clone()));
            }
        }
        for id in listed.keys() {
            if !failures.iter().any(|(f, _)| f == id) {
                check.now_passing.push(id.clone());
            }
        }
        check
    }

    /// Render failures as the lines of one section.
    pub fn render_section(section: &str, failures: &[(String, String)]) -> String {
        let mut sorted = failures.to_vec();
        sorted.sort();
        let width = sorted.iter().map(|(id, _)| id.len()).max().unwrap_or(0);
        let mut out = format!("[{section}]\n");
        for (id, reason) in sorted {
            let _ = writeln!(out, "{id:<width$}  {reason}");
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "# known failures\n[adversarial]\nadv-a   missing \"x\"\nadv-b leaked \"y\"\n\n[scale]\nscale-400-q1  missed\n";

    #[test]
    fn parses_sections_ids_and_reasons() {
        let r = Ratchet::parse(TEXT).unwrap();
        let adv = r.section("adversarial");
        assert_eq!(adv.len(), 2);
        assert_eq!(adv["adv-a"], "missing \"x\"");
        assert_eq!(r.section("scale")["scale-400-q1"], "missed");
        assert!(r.section("nothing").is_empty());
    }

    #[test]
    fn malformed_lines_are_errors_with_line_numbers() {
        let e = Ratchet::parse("adv-a reason").unwrap_err();
        assert_eq!(e.line, 1);
        let e = Ratchet::parse("[s]\n\nadv-a").unwrap_err();
        assert_eq!((e.line, e.message.as_str()), (3, "adv-a has no reason"));
        let e = Ratchet::parse("[s]\na r\na r").unwrap_err();
        assert_eq!(e.line, 3);
    }

    #[test]
    fn check_catches_regressions_and_improvements() {
        let r = Ratchet::parse(TEXT).unwrap();
        let same = vec![
            ("adv-b".to_string(), "x".to_string()),
            ("adv-a".to_string(), "y".to_string()),
        ];
        assert!(r.check("adversarial", &same).holds());
        let changed = vec![
            ("adv-a".to_string(), "y".to_string()),
            ("adv-c".to_string(), "new".to_string()),
        ];
        let c = r.check("adversarial", &changed);
        assert!(!c.holds());
        assert_eq!(
            c.new_failures,
            vec![("adv-c".to_string(), "new".to_string())]
        );
        assert_eq!(c.now_passing, vec!["adv-b".to_string()]);
        assert!(
            c.describe("adversarial")
                .contains("now passes (delete its line): adv-b")
        );
    }

    #[test]
    fn rendered_sections_parse_back() {
        let failures = vec![
            ("b".to_string(), "two words".to_string()),
            ("a".to_string(), "one".to_string()),
        ];
        let text = Ratchet::render_section("scale", &failures);
        assert!(text.starts_with("[scale]\na  one\n"));
        let r = Ratchet::parse(&text).unwrap();
        assert!(r.check("scale", &failures).holds());
    }
}
