//! The naive baseline must fail a meaningful share of the bank: proof that the bank can fail.

use oubli_bench::adversarial;
use oubli_bench::baseline::NaiveAdapter;
use oubli_bench::case::Item;
use oubli_bench::report::summarize;
use oubli_bench::runner::{DEFAULT_K, Verdict, run_items};
use oubli_bench::scale::{self, ScaleConfig};
use oubli_bench::templates::{TemplateConfig, generate};

fn rate(rows: &[oubli_bench::report::CategoryRow], category: &str) -> f64 {
    rows.iter()
        .find(|r| r.category == category)
        .map(|r| r.rate.rate)
        .unwrap_or_else(|| panic!("no category {category}"))
}

#[test]
fn baseline_fails_most_of_the_adversarial_layer() {
    let items = adversarial::load(&adversarial::cases_dir()).expect("adversarial case files");
    let results = run_items(&mut NaiveAdapter::new(), &items, DEFAULT_K, |_| {});
    assert!(results.iter().all(|r| r.verdict != Verdict::NotApplicable));
    let rows = summarize(&results);
    assert!(
        rate(&rows, "all") < 0.5,
        "baseline passes {:.3}",
        rate(&rows, "all")
    );
    // Substring deletion over-deletes, cannot canonicalize and cannot edit one clause.
    for category in [
        "substring_trap",
        "prefix_collision",
        "compound_fact",
        "identifier_obfuscation",
        "cross_lingual_identifier",
        "paraphrase_supersession",
    ] {
        assert!(
            rate(&rows, category) <= 0.3,
            "{category}: {:.3}",
            rate(&rows, category)
        );
    }
}

#[test]
fn baseline_fails_part_of_the_template_suite() {
    let items: Vec<Item> = generate(&TemplateConfig::default())
        .into_iter()
        .map(Item::Case)
        .collect();
    let results = run_items(&mut NaiveAdapter::new(), &items, DEFAULT_K, |_| {});
    let rows = summarize(&results);
    let all = rate(&rows, "all");
    assert!(all < 0.95, "baseline passes {all:.3} of the template suite");
    assert!(
        all > 0.5,
        "the template suite is not meant to be adversarial: {all:.3}"
    );
}

#[test]
fn baseline_leaks_a_purged_decoy_at_every_scale() {
    let config = ScaleConfig {
        scales: vec![0, 50],
        ..ScaleConfig::default()
    };
    let report = scale::run(&mut NaiveAdapter::new(), &config, |_| {}).expect("scale run");
    for row in &report.rows {
        // "card ending 7731" is neither a substring of the card's fact nor are all its words.
        assert!(row.leaks.contains(&"card"), "{:?}", row.leaks);
    }
    assert!(
        report
            .failures()
            .iter()
            .any(|(id, _)| id == "scale-50-leak-card")
    );
}
