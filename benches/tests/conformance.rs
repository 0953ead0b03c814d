//! oubli's conformance bank: the template suite must pass in full; adversarial, scenario and
//! scale results are held by the ratchet in `benches/ratchet.txt`.

use std::path::Path;

use oubli_bench::adversarial::{self, CATEGORIES, admit};
use oubli_bench::case::{Item, load_file};
use oubli_bench::oubli_adapter::OubliAdapter;
use oubli_bench::ratchet::Ratchet;
use oubli_bench::runner::{CaseResult, DEFAULT_K, Verdict, run_items};
use oubli_bench::scale::{self, ScaleConfig};
use oubli_bench::templates::{TemplateConfig, generate};

fn manifest(path: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

fn ratchet() -> Ratchet {
    let text = std::fs::read_to_string(manifest("ratchet.txt")).expect("benches/ratchet.txt");
    Ratchet::parse(&text).unwrap_or_else(|e| panic!("benches/ratchet.txt: {e}"))
}

fn failures(results: &[CaseResult]) -> Vec<(String, String)> {
    results
        .iter()
        .filter(|r| r.verdict != Verdict::Pass)
        .map(|r| (r.id.clone(), r.reason_line()))
        .collect()
}

fn on_oubli(items: &[Item]) -> Vec<CaseResult> {
    let mut adapter = OubliAdapter::new().expect("temporary directory");
    run_items(&mut adapter, items, DEFAULT_K, |_| {})
}

#[test]
fn template_suite_passes_in_full_on_oubli() {
    let items: Vec<Item> = generate(&TemplateConfig::default())
        .into_iter()
        .map(Item::Case)
        .collect();
    assert_eq!(items.len(), 1000);
    let failed = failures(&on_oubli(&items));
    let listing: Vec<String> = failed
        .iter()
        .map(|(id, why)| format!("{id}: {why}"))
        .collect();
    assert!(
        failed.is_empty(),
        "{} of 1000 template cases fail on oubli:\n{}",
        failed.len(),
        listing.join("\n")
    );
}

#[test]
fn adversarial_results_match_the_ratchet() {
    let items = adversarial::load(&adversarial::cases_dir()).expect("adversarial case files");
    for category in CATEGORIES {
        let n = items.iter().filter(|i| i.category() == category).count();
        assert!(n >= 40, "{category} has {n} cases");
    }
    for item in &items {
        let Item::Case(case) = item else {
            panic!("{} is not in the ForgetEval shape", item.id())
        };
        if let Err(problems) = admit(case) {
            panic!("{} is not admitted: {problems:?}", case.id);
        }
    }
    let check = ratchet().check("adversarial", &failures(&on_oubli(&items)));
    assert!(check.holds(), "\n{}", check.describe("adversarial"));
}

#[test]
fn scenario_results_match_the_ratchet() {
    let items = load_file(&manifest("scenarios/oubli.jsonl")).expect("scenario file");
    assert!(items.iter().all(|i| matches!(i, Item::Scenario(_))));
    let results = on_oubli(&items);
    assert!(results.iter().all(|r| r.verdict != Verdict::NotApplicable));
    let check = ratchet().check("scenarios", &failures(&results));
    assert!(check.holds(), "\n{}", check.describe("scenarios"));
}

#[test]
fn scale_results_match_the_ratchet() {
    let mut adapter = OubliAdapter::new().expect("temporary directory");
    let report = scale::run(&mut adapter, &ScaleConfig::default(), |_| {}).expect("scale run");
    let sessions: Vec<usize> = report.rows.iter().map(|r| r.sessions).collect();
    assert_eq!(sessions, vec![0, 100, 200, 300, 400]);
    for row in &report.rows {
        assert_eq!(row.probes.len(), scale::PROBES.len());
        assert!(row.latency_p50_ms <= row.latency_p99_ms);
    }
    let check = ratchet().check("scale", &report.failures());
    assert!(check.holds(), "\n{}", check.describe("scale"));
}
