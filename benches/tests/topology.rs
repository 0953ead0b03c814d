//! The deletion-topology suite on oubli: every target fact of the generated Base, Alias, Noise
//! and Collision databases (three domains) must be purged with closure precision and recall 1,
//! zero residual, every other row intact and findable, and a clean raw file. Today's failures
//! are held by the `[topology]` section of `benches/ratchet.txt`. The suite can fail: a wrong
//! query and a substring baseline are shown to.

use std::path::Path;

use oubli_bench::ratchet::Ratchet;
use oubli_bench::topology::{self, Domain, Purger, Topology, TopologyConfig, check_fact, generate};

/// The size `cargo test` runs: three target facts per domain and topology (36 purges).
const TEST_CONFIG: TopologyConfig = TopologyConfig { seed: 42, facts: 3 };

fn ratchet() -> Ratchet {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("ratchet.txt");
    let text = std::fs::read_to_string(path).expect("benches/ratchet.txt");
    Ratchet::parse(&text).unwrap_or_else(|e| panic!("benches/ratchet.txt: {e}"))
}

#[test]
fn topology_results_match_the_ratchet() {
    let report = topology::run(&TEST_CONFIG, Purger::Oubli, |_| {}).expect("topology run");
    assert_eq!(report.outcomes.len(), 36);
    for row in &report.rows {
        assert_eq!(row.facts, 9, "{:?}", row.topology);
    }
    // Every generated closure is non-empty and every database has rows outside it.
    for o in &report.outcomes {
        assert!(o.expected >= 1 && o.survivors >= 1, "{}", o.id);
    }
    let failures = report.failures();
    let check = ratchet().check("topology", &failures);
    assert!(
        check.holds(),
        "\n{}\n{}",
        report.table(),
        check.describe("topology")
    );
}

#[test]
fn a_wrong_query_fails_the_check() {
    let dir = tempfile::tempdir().unwrap();
    let db = generate(42, Domain::Finance, Topology::Noise, 3);
    let fact = db.targets[0];
    // A near-miss value of another person: the wrong rows go, the fact stays.
    let near = db
        .rows
        .iter()
        .find(|r| r.role == topology::generator::Role::NearMiss)
        .and_then(|r| r.keeps.clone())
        .expect("a near-miss row");
    let o = check_fact(&db, fact, Purger::OubliWith(&near), dir.path()).unwrap();
    assert!(!o.passed());
    assert!(o.true_positives < o.expected, "{o:?}");
    assert!(o.true_positives < o.erased, "{o:?}");
    assert!(!o.scan_hits.is_empty(), "{o:?}");
    assert!(o.value_probe_hits > 0, "{o:?}");
}

#[test]
fn a_substring_baseline_fails_on_aliases() {
    let dir = tempfile::tempdir().unwrap();
    let db = generate(42, Domain::Medical, Topology::Alias, 3);
    let outcomes: Vec<_> = db
        .targets
        .iter()
        .map(|&f| check_fact(&db, f, Purger::Substring, dir.path()).unwrap())
        .collect();
    let tp: usize = outcomes.iter().map(|o| o.true_positives).sum();
    let expected: usize = outcomes.iter().map(|o| o.expected).sum();
    assert!(tp < expected, "substring purge found every alias row");
    assert!(outcomes.iter().any(|o| !o.scan_hits.is_empty()));
}
