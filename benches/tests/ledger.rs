//! The ledger suite of the conformance bank: source-first compaction with provenance, checked
//! without a model (see `benches/src/ledger` and `docs/compaction.md`).

use oubli_bench::ledger::checks::{self, CLIFF_BUDGETS, Verdict};

const SEED: u64 = 42;

fn assert_passed(v: Verdict) {
    assert!(v.passed, "{}: {}", v.name, v.detail);
}

#[test]
fn note_keeps_every_answer_determining_item_and_never_the_stale_value() {
    assert_passed(checks::keeps_sources(SEED).unwrap());
}

#[test]
fn correcting_the_premise_after_compaction_recomputes_the_truth() {
    assert_passed(checks::correction(SEED).unwrap());
}

#[test]
fn size_cliff_success_iff_complete_and_the_cliff_moves_with_the_budget() {
    let points = checks::size_sweep(SEED).unwrap();
    assert_eq!(points.len(), 31 * CLIFF_BUDGETS.len());
    assert_passed(checks::judge_sweep(&points));
}

#[test]
fn decoys_never_crowd_out_a_referenced_item_but_do_crowd_the_positional_baseline() {
    let points = checks::decoy_sweep(SEED).unwrap();
    assert_passed(checks::judge_decoys(&points));
}

#[test]
fn purging_a_marked_source_leaves_it_in_no_note_derived_row_or_file_byte() {
    assert_passed(checks::purge_marker(SEED).unwrap());
}

#[test]
fn running_ledger_loop_stays_correctable_then_flags() {
    let mut scratch = checks::Scratch::new().unwrap();
    let hops = checks::run_loop(&scratch.store().unwrap(), SEED).unwrap();
    assert_passed(checks::judge_loop(&hops));
}

#[test]
fn replaying_the_log_reproduces_the_note_hashes() {
    assert_passed(checks::replay(SEED).unwrap());
}

#[test]
fn other_seeds_hold_too() {
    for seed in [1, 7, 2026] {
        assert_passed(checks::keeps_sources(seed).unwrap());
        assert_passed(checks::judge_decoys(&checks::decoy_sweep(seed).unwrap()));
        let mut scratch = checks::Scratch::new().unwrap();
        let hops = checks::run_loop(&scratch.store().unwrap(), seed).unwrap();
        assert_passed(checks::judge_loop(&hops));
    }
}
