//! The deletion-topology suite: fictitious fact databases in three domains and the four
//! topologies of the LMLM forgetting audit (Base, Alias, Noise, Collision), generated from a
//! seed; every target fact is purged on a fresh store and checked.
//!
//! Per fact ([`check::check_fact`]): the rows the purge made void or rewrote must equal the
//! generator's ground truth (precision and recall 1); the residual audit must find no
//! gold-equivalent or reconstruction hit, no erased row and no control mismatch, and recall
//! probes of the fact must no longer return its value (together: zero residual); every row
//! outside the closure must keep its text and be found by its own probe, and a rewritten
//! two-clause row must keep its other clause; the closed file must hold no written form of the
//! value. See `docs/conformance.md`, "Deletion-topology suite".

pub mod check;
pub mod generator;

use std::fmt::Write as _;

use serde::Serialize;

pub use check::{FactOutcome, Purger, check_fact};
pub use generator::{DOMAINS, Database, Domain, MAX_FACTS, TOPOLOGIES, Topology, generate};

/// Suite settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TopologyConfig {
    /// Generator seed.
    pub seed: u64,
    /// Target facts per domain and topology (at most [`MAX_FACTS`]).
    pub facts: usize,
}

impl Default for TopologyConfig {
    fn default() -> Self {
        TopologyConfig {
            seed: 42,
            facts: 12,
        }
    }
}

/// Aggregates of one topology over the three domains.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TopologyRow {
    /// The topology.
    pub topology: Topology,
    /// Target facts purged.
    pub facts: usize,
    /// Rows in the ground-truth closures.
    pub expected_rows: usize,
    /// Rows the purges changed.
    pub erased_rows: usize,
    /// Closure precision: changed rows in the ground truth over changed rows (micro-averaged).
    pub precision: f64,
    /// Closure recall: ground-truth rows changed over ground-truth rows (micro-averaged).
    pub recall: f64,
    /// Facts with residual (audit or value probes) over facts.
    pub residual_rate: f64,
    /// Facts whose audit saw object-only hits (reported, not residual).
    pub object_only_facts: usize,
    /// Rows outside the closures checked.
    pub survivors: usize,
    /// Of those, unchanged and found by their own probe.
    pub survivors_found: usize,
    /// Facts whose raw scan found no form of the value.
    pub scan_clean: usize,
    /// Facts that passed every check.
    pub passed: usize,
}

/// A whole run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TopologyReport {
    /// Settings.
    pub config: TopologyConfig,
    /// Per topology, in [`TOPOLOGIES`] order.
    pub rows: Vec<TopologyRow>,
    /// Every fact's outcome.
    pub outcomes: Vec<FactOutcome>,
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 { 1.0 } else { a as f64 / b as f64 }
}

/// Aggregates outcomes of one topology.
pub fn aggregate(topology: Topology, outcomes: &[&FactOutcome]) -> TopologyRow {
    let sum = |f: fn(&FactOutcome) -> usize| outcomes.iter().map(|o| f(o)).sum::<usize>();
    let tp = sum(|o| o.true_positives);
    let expected = sum(|o| o.expected);
    let erased = sum(|o| o.erased);
    TopologyRow {
        topology,
        facts: outcomes.len(),
        expected_rows: expected,
        erased_rows: erased,
        precision: ratio(tp, erased),
        recall: ratio(tp, expected),
        residual_rate: ratio(
            outcomes.iter().filter(|o| o.residual()).count(),
            outcomes.len(),
        ),
        object_only_facts: outcomes.iter().filter(|o| o.hits_object_only > 0).count(),
        survivors: sum(|o| o.survivors),
        survivors_found: sum(|o| o.survivors_found),
        scan_clean: outcomes.iter().filter(|o| o.scan_hits.is_empty()).count(),
        passed: outcomes.iter().filter(|o| o.passed()).count(),
    }
}

/// Runs the suite: every domain and topology, every target fact on a fresh store, with
/// `purger`. `progress` is called after each fact.
pub fn run(
    config: &TopologyConfig,
    purger: Purger<'_>,
    mut progress: impl FnMut(&FactOutcome),
) -> Result<TopologyReport, oubli::Error> {
    let dir = tempfile::tempdir()?;
    let mut outcomes = Vec::new();
    for topology in TOPOLOGIES {
        for domain in DOMAINS {
            let db = generate(config.seed, domain, topology, config.facts);
            for &t in &db.targets {
                let o = check_fact(&db, t, purger, dir.path())?;
                progress(&o);
                outcomes.push(o);
            }
        }
    }
    let rows = TOPOLOGIES
        .iter()
        .map(|&t| {
            let mine: Vec<&FactOutcome> = outcomes
                .iter()
                .filter(|o| o.id.contains(&format!("-{}-", t.name())))
                .collect();
            aggregate(t, &mine)
        })
        .collect();
    Ok(TopologyReport {
        config: *config,
        rows,
        outcomes,
    })
}

impl TopologyReport {
    /// Failing facts as ratchet entries: (id, one-line reason).
    pub fn failures(&self) -> Vec<(String, String)> {
        self.outcomes
            .iter()
            .filter(|o| !o.passed())
            .map(|o| (o.id.clone(), o.problems.join("; ")))
            .collect()
    }

    /// The per-topology table.
    pub fn table(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{:<10} {:>5} {:>9} {:>6} {:>8} {:>14} {:>10} {:>7}",
            "topology",
            "facts",
            "precision",
            "recall",
            "residual",
            "survivors",
            "scan clean",
            "passed"
        );
        for r in &self.rows {
            let _ = writeln!(
                out,
                "{:<10} {:>5} {:>9.3} {:>6.3} {:>7.1}% {:>14} {:>10} {:>7}",
                r.topology.name(),
                r.facts,
                r.precision,
                r.recall,
                r.residual_rate * 100.0,
                format!("{}/{}", r.survivors_found, r.survivors),
                format!("{}/{}", r.scan_clean, r.facts),
                format!("{}/{}", r.passed, r.facts),
            );
        }
        out
    }
}
