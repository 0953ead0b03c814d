//! The scale suite: evidence held fixed while irrelevant sessions grow.
//!
//! Following scale-conditioned evaluation, each scale builds a fresh store holding the same
//! evidence facts and forgetting decoys plus `N` irrelevant sessions (half before the evidence,
//! half after), then applies the decoys' mutations. A scripted agent answers each probe by
//! recalling its formulations in order (a question, then keywords, then the most specific
//! phrasing), one recall per call, until the texts returned so far hold all the evidence.
//!
//! Reported per scale: Pass@B (evidence found within B recalls, B = 2 by default) with its
//! Wilson interval, the 90th-percentile number of recalls, the failure split (missed: never
//! found; over budget: found after more than B recalls), recall latency p50/p99, and
//! forgetting leaks: a superseded, released or purged decoy value that comes back in any recall
//! at that scale. The breakdown onset is the first scale whose Pass@B falls below 0.7.

use std::time::Instant;

use serde::Serialize;

use crate::adapter::{Adapter, AdapterError};
use crate::runner::check_texts;
use crate::stats::{Proportion, quantile, wilson95};

/// Scale-suite settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ScaleConfig {
    /// Seed of the irrelevant-session generator.
    pub seed: u64,
    /// Irrelevant sessions per scale, in order.
    pub scales: Vec<usize>,
    /// Recall budget B.
    pub budget: usize,
    /// Results per recall.
    pub k: usize,
}

/// The default ladder: 0, 100, 200, 300 and 400 irrelevant sessions.
pub const DEFAULT_SCALES: [usize; 5] = [0, 100, 200, 300, 400];

/// The slow ladder documented for release builds.
pub const SLOW_SCALES: [usize; 2] = [1_000, 10_000];

/// Reliability threshold for the breakdown onset.
pub const ALPHA: f64 = 0.7;

impl Default for ScaleConfig {
    fn default() -> Self {
        ScaleConfig {
            seed: 42,
            scales: DEFAULT_SCALES.to_vec(),
            budget: 2,
            k: 10,
        }
    }
}
mod evidence;
mod sessions;

pub use evidence::{DECOYS, Decoy, DecoyKind, PROBES, Probe};
pub use sessions::irrelevant_sessions;

/// One probe's outcome at one scale.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProbeOutcome {
    /// Probe id.
    pub id: &'static str,
    /// Recalls made (the last one found the evidence, or the formulations ran out).
    pub calls: usize,
    /// Whether the evidence was found at all.
    pub found: bool,
}

/// Everything measured at one scale.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScaleRow {
    /// Irrelevant sessions added.
    pub sessions: usize,
    /// Irrelevant facts inscribed.
    pub irrelevant_facts: usize,
    /// Per-probe outcomes, in probe order.
    pub probes: Vec<ProbeOutcome>,
    /// Pass@B over probes.
    pub pass_at_budget: Proportion,
    /// 90th-percentile recalls per probe.
    pub p90_calls: usize,
    /// Probes whose evidence was never returned.
    pub missed: usize,
    /// Probes whose evidence needed more than B recalls.
    pub over_budget: usize,
    /// Recall latency, median, in milliseconds.
    pub latency_p50_ms: f64,
    /// Recall latency, 99th percentile, in milliseconds.
    pub latency_p99_ms: f64,
    /// Ids of the decoys whose forbidden value came back, in decoy order.
    pub leaks: Vec<&'static str>,
}

impl ScaleRow {
    /// Leaks of one kind.
    pub fn leaks_of(&self, kind: DecoyKind) -> usize {
        self.leaks
            .iter()
            .filter(|id| DECOYS.iter().any(|d| d.id == **id && d.kind == kind))
            .count()
    }
}

/// The whole ladder.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScaleReport {
    /// Adapter name.
    pub adapter: String,
    /// Settings.
    pub config: ScaleConfig,
    /// One row per scale, in ladder order.
    pub rows: Vec<ScaleRow>,
}

impl ScaleReport {
    /// The first scale whose Pass@B is below [`ALPHA`], if any.
    pub fn breakdown_onset(&self) -> Option<usize> {
        self.rows
            .iter()
            .find(|r| r.pass_at_budget.rate < ALPHA)
            .map(|r| r.sessions)
    }

    /// Every failure as (id, one-line reason), for the ratchet.
    pub fn failures(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for row in &self.rows {
            for p in &row.probes {
                if !p.found {
                    out.push((
                        format!("scale-{}-{}", row.sessions, p.id),
                        format!("evidence missed after {} recalls", p.calls),
                    ));
                } else if p.calls > self.config.budget {
                    out.push((
                        format!("scale-{}-{}", row.sessions, p.id),
                        format!("over budget: evidence found at recall {}", p.calls),
                    ));
                }
            }
            for id in &row.leaks {
                let forbidden = DECOYS
                    .iter()
                    .find(|d| d.id == *id)
                    .map_or("", |d| d.forbidden);
                out.push((
                    format!("scale-{}-leak-{id}", row.sessions),
                    format!("forgotten value {forbidden:?} recalled"),
                ));
            }
        }
        out
    }
}

/// Inscribe sessions, one batch per session; returns the number of facts.
fn inscribe_all(
    adapter: &mut dyn Adapter,
    sessions: &[Vec<String>],
) -> Result<usize, AdapterError> {
    let mut n = 0;
    for session in sessions {
        n += adapter.inscribe_batch(session)?.len();
    }
    Ok(n)
}

fn forget(adapter: &mut dyn Adapter, decoy: &Decoy) -> Result<(), AdapterError> {
    match decoy.kind {
        DecoyKind::Superseded => adapter
            .supersede(decoy.query, decoy.replacement)
            .map(|_| ()),
        DecoyKind::Released => adapter.release(decoy.query).map(|_| ()),
        DecoyKind::Purged => adapter.purge(decoy.query).map(|_| ()),
    }
}

fn ms(micros: u128) -> f64 {
    micros as f64 / 1000.0
}

/// Build and measure one scale on a fresh store.
pub fn run_scale(
    adapter: &mut dyn Adapter,
    config: &ScaleConfig,
    sessions: usize,
) -> Result<ScaleRow, AdapterError> {
    adapter.reset()?;
    let all = irrelevant_sessions(config.seed, sessions);
    let (before, after) = all.split_at(sessions / 2);
    let mut irrelevant_facts = inscribe_all(adapter, before)?;
    for fact in PROBES.iter().flat_map(|p| p.facts.iter()) {
        adapter.inscribe(fact)?;
    }
    for decoy in DECOYS {
        adapter.inscribe(decoy.fact)?;
    }
    irrelevant_facts += inscribe_all(adapter, after)?;
    for decoy in DECOYS {
        forget(adapter, decoy)?;
    }

    let forbidden: Vec<String> = DECOYS.iter().map(|d| d.forbidden.to_string()).collect();
    let mut leaked = vec![false; DECOYS.len()];
    let mut latencies: Vec<u128> = Vec::new();
    let mut recall = |adapter: &mut dyn Adapter, q: &str| -> Result<Vec<String>, AdapterError> {
        let start = Instant::now();
        let texts = adapter.recall_texts(q, config.k)?;
        latencies.push(start.elapsed().as_micros());
        let (_, hits) = check_texts(&texts, &[], &forbidden);
        for (i, d) in DECOYS.iter().enumerate() {
            leaked[i] |= hits.iter().any(|h| h == d.forbidden);
        }
        Ok(texts)
    };

    let mut probes = Vec::new();
    for probe in PROBES {
        let evidence: Vec<String> = probe.evidence.iter().map(|s| s.to_string()).collect();
        let mut seen: Vec<String> = Vec::new();
        let mut outcome = ProbeOutcome {
            id: probe.id,
            calls: 0,
            found: false,
        };
        for q in probe.formulations {
            seen.extend(recall(adapter, q)?);
            outcome.calls += 1;
            if check_texts(&seen, &evidence, &[]).0.is_empty() {
                outcome.found = true;
                break;
            }
        }
        probes.push(outcome);
    }
    for decoy in DECOYS {
        recall(adapter, decoy.probe)?;
    }

    let passed = probes
        .iter()
        .filter(|p| p.found && p.calls <= config.budget)
        .count();
    let calls: Vec<usize> = probes.iter().map(|p| p.calls).collect();
    Ok(ScaleRow {
        sessions,
        irrelevant_facts,
        pass_at_budget: wilson95(passed as u64, probes.len() as u64),
        p90_calls: quantile(&calls, 0.9).unwrap_or(0),
        missed: probes.iter().filter(|p| !p.found).count(),
        over_budget: probes
            .iter()
            .filter(|p| p.found && p.calls > config.budget)
            .count(),
        latency_p50_ms: ms(quantile(&latencies, 0.5).unwrap_or(0)),
        latency_p99_ms: ms(quantile(&latencies, 0.99).unwrap_or(0)),
        leaks: DECOYS
            .iter()
            .zip(&leaked)
            .filter(|(_, l)| **l)
            .map(|(d, _)| d.id)
            .collect(),
        probes,
    })
}

/// Run the whole ladder; `on_scale` sees each row as it is measured.
pub fn run(
    adapter: &mut dyn Adapter,
    config: &ScaleConfig,
    mut on_scale: impl FnMut(&ScaleRow),
) -> Result<ScaleReport, AdapterError> {
    let mut rows = Vec::new();
    for &sessions in &config.scales {
        let row = run_scale(adapter, config, sessions)?;
        on_scale(&row);
        rows.push(row);
    }
    Ok(ScaleReport {
        adapter: adapter.name().to_string(),
        config: config.clone(),
        rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::baseline::NaiveAdapter;

    #[test]
    fn sessions_are_deterministic_varied_and_sized() {
        let a = irrelevant_sessions(42, 50);
        assert_eq!(a, irrelevant_sessions(42, 50));
        assert_ne!(a, irrelevant_sessions(43, 50));
        assert!(a.iter().all(|s| (4..=8).contains(&s.len())));
        let mut distinct: Vec<&String> = a.iter().flatten().collect();
        distinct.sort();
        distinct.dedup();
        assert!(distinct.len() > 200, "{}", distinct.len());
        assert!(a.iter().flatten().all(|t| !t.contains('{')));
    }

    #[test]
    fn irrelevant_sessions_hold_no_evidence_and_no_decoy_value() {
        let texts: Vec<String> = irrelevant_sessions(42, 1_000)
            .into_iter()
            .flatten()
            .collect();
        let mut needles: Vec<String> = PROBES
            .iter()
            .flat_map(|p| p.evidence.iter().map(|s| s.to_string()))
            .collect();
        needles.extend(DECOYS.iter().map(|d| d.forbidden.to_string()));
        let (_, found) = check_texts(&texts, &[], &needles);
        assert!(found.is_empty(), "{found:?}");
    }

    #[test]
    fn evidence_and_decoys_are_consistent() {
        for p in PROBES {
            let facts: Vec<String> = p.facts.iter().map(|s| s.to_string()).collect();
            assert!(check_texts(&facts, &[], &[]).0.is_empty());
            let (missing, _) = check_texts(
                &facts,
                &p.evidence.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
                &[],
            );
            assert!(missing.is_empty(), "{}: {missing:?}", p.id);
        }
        for d in DECOYS {
            assert!(d.fact.contains(d.forbidden), "{}", d.id);
            assert!(!d.replacement.contains(d.forbidden), "{}", d.id);
            assert_eq!(
                d.kind == DecoyKind::Superseded,
                !d.replacement.is_empty(),
                "{}",
                d.id
            );
        }
    }

    #[test]
    fn baseline_ladder_reports_every_measure() {
        let config = ScaleConfig {
            scales: vec![0, 20],
            ..ScaleConfig::default()
        };
        let report = run(&mut NaiveAdapter::new(), &config, |_| {}).unwrap();
        assert_eq!(report.rows.len(), 2);
        let r0 = &report.rows[0];
        assert_eq!(r0.irrelevant_facts, 0);
        assert_eq!(r0.probes.len(), PROBES.len());
        assert!(report.rows[1].irrelevant_facts >= 80);
        for row in &report.rows {
            let failed = row.probes.len() - row.pass_at_budget.successes as usize;
            assert_eq!(failed, row.missed + row.over_budget);
            assert!(row.p90_calls >= 1 && row.p90_calls <= 3);
            assert!(row.latency_p50_ms <= row.latency_p99_ms);
        }
        // The naive store deletes every row that contains "Dana Kovacs", so that purge holds.
        assert!(!r0.leaks.contains(&"ex-address"));
        let failures = report.failures();
        assert_eq!(
            failures
                .iter()
                .filter(|(id, _)| id.contains("-leak-"))
                .count(),
            report.rows.iter().map(|r| r.leaks.len()).sum::<usize>()
        );
    }
}
