//! The checks of the ledger suite. Each builds fresh stores in a temporary directory, runs
//! compaction and the reader, and reports what it saw; `benches/tests/ledger.rs` asserts on the
//! reports and `oubli-bench ledger` prints them.

use std::path::PathBuf;

use oubli::{
    CheckStatus, CompactOptions, CompactScope, Decimal, Derivation, Inscription, Kind, ListQuery,
    Note, RecallQuery, RowId, Store, Target,
};
use serde::Serialize;

use super::baseline::positional_note;
use super::generator::{
    Item, LedgerConfig, NAMESPACE, create_store, generate, subtotal_text, total,
};
use super::reader::{Outcome, read};

/// Budgets of the size sweep (bytes).
pub const CLIFF_BUDGETS: [usize; 2] = [300, 600];
/// Ledger sizes of the size sweep.
pub const CLIFF_SIZES: std::ops::RangeInclusive<usize> = 2..=32;
/// Budget of the decoy sweep (the paper's 420 characters).
pub const DECOY_BUDGET: usize = 420;
/// Decoy counts of the decoy sweep.
pub const DECOY_COUNTS: [usize; 7] = [0, 2, 4, 8, 12, 16, 32];

/// A scratch directory with numbered store files.
pub struct Scratch {
    dir: tempfile::TempDir,
    next: usize,
}

impl Scratch {
    /// A new scratch directory.
    pub fn new() -> oubli::Result<Scratch> {
        Ok(Scratch {
            dir: tempfile::tempdir()?,
            next: 0,
        })
    }

    /// A fresh store path.
    pub fn path(&mut self) -> PathBuf {
        self.next += 1;
        self.dir.path().join(format!("ledger-{}.oubli", self.next))
    }

    /// A fresh reproducible store.
    pub fn store(&mut self) -> oubli::Result<Store> {
        create_store(&self.path())
    }
}

/// The scope every check compacts: the ledger namespace.
pub fn scope() -> CompactScope {
    CompactScope::namespace(NAMESPACE)
}

/// A note over a loaded ledger.
pub fn compact(store: &Store, budget: usize, include_derived: bool) -> oubli::Result<Note> {
    store.compact(
        &scope(),
        &CompactOptions::new(budget).include_derived(include_derived),
    )
}

/// One check's verdict.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// Check name.
    pub name: &'static str,
    /// Whether every condition held.
    pub passed: bool,
    /// What failed (empty when passed), or a one-line summary.
    pub detail: String,
}

fn verdict(name: &'static str, failures: Vec<String>, summary: String) -> Verdict {
    Verdict {
        name,
        passed: failures.is_empty(),
        detail: if failures.is_empty() {
            summary
        } else {
            failures.join("; ")
        },
    }
}

/// The note keeps every answer-determining item and never the stale value, within budget, even
/// when derived values are allowed; the certificate flags the planted subtotal.
pub fn keeps_sources(seed: u64) -> oubli::Result<Verdict> {
    let mut scratch = Scratch::new()?;
    let store = scratch.store()?;
    let ledger = generate(LedgerConfig {
        seed,
        items: 6,
        decoys: 6,
    });
    let loaded = ledger.load(&store)?;
    let budget = 1200;
    let note = compact(&store, budget, true)?;
    let mut f = Vec::new();
    if note.bytes() > budget {
        f.push(format!("note is {} bytes, budget {budget}", note.bytes()));
    }
    if !note.complete || note.kept != ledger.items.len() || note.total != ledger.items.len() {
        f.push(format!(
            "kept {} of {} (N = {})",
            note.kept,
            note.total,
            ledger.items.len()
        ));
    }
    let mut det = loaded.items.clone();
    det.sort_unstable();
    if note.answer_determining != det {
        f.push("answer-determining set is not the items".into());
    }
    if note.text.contains(&subtotal_text(ledger.planted))
        || note.text.contains(&format!("${}", ledger.planted))
    {
        f.push("the note carries the stale subtotal".into());
    }
    if read(&note.text, &ledger.items) != Outcome::Answer(ledger.truth) {
        f.push(format!(
            "reader: {:?}, truth {}",
            read(&note.text, &ledger.items),
            ledger.truth
        ));
    }
    match note
        .certificate
        .checks
        .iter()
        .find(|c| c.derived == loaded.subtotal)
    {
        Some(c) if c.status == CheckStatus::Mismatch && c.recomputed == Some(ledger.truth) => {}
        other => f.push(format!(
            "certificate did not flag the planted subtotal: {other:?}"
        )),
    }
    let live = store.recall(&RecallQuery::new("order subtotal").namespace(NAMESPACE))?;
    if live.iter().any(|h| h.row.id == loaded.subtotal) {
        f.push("recall returned the stale subtotal as live".into());
    }
    Ok(verdict(
        "keeps every answer-determining item, never the stale value",
        f,
        format!("{} bytes of {budget}, k = N = {}", note.bytes(), note.kept),
    ))
}

/// After compaction, superseding the wrong premise and recomputing gives the true value: the
/// planted subtotal recomputes to the truth; a corrected item price invalidates the subtotal,
/// which recomputes to the new truth, and so does the reader on a new note.
pub fn correction(seed: u64) -> oubli::Result<Verdict> {
    let mut scratch = Scratch::new()?;
    let store = scratch.store()?;
    let ledger = generate(LedgerConfig {
        seed,
        items: 5,
        decoys: 3,
    });
    let loaded = ledger.load(&store)?;
    let note = compact(&store, 1000, false)?;
    let mut f = Vec::new();
    if read(&note.text, &ledger.items) != Outcome::Answer(ledger.truth) {
        f.push("reader did not recompute the truth from the note".into());
    }
    // The planted subtotal is the wrong premise: recompute it.
    let fixed = store.recompute(loaded.subtotal)?;
    let value =
        |id: RowId| -> oubli::Result<Option<Decimal>> { Ok(store.check_derived(id)?.claimed) };
    if value(fixed.new_id)? != Some(ledger.truth) {
        f.push(format!(
            "recomputed subtotal {:?}, truth {}",
            value(fixed.new_id)?,
            ledger.truth
        ));
    }
    if !store.check_derived(fixed.new_id)?.fresh {
        f.push("recomputed subtotal is not fresh".into());
    }
    // A source premise corrected: the second item's price was wrong.
    let mut items = ledger.items.clone();
    items[1].price_cents += 100;
    let corrected = store.supersede(
        Target::id(loaded.items[1]),
        Inscription::new(items[1].text())
            .meta("price", items[1].price())
            .meta("qty", items[1].qty.to_string())
            .meta("role", "item"),
    )?;
    let new_truth = total(&items);
    if store.stale_since(fixed.new_id)?.is_none() {
        f.push("superseding a source did not mark the subtotal stale".into());
    }
    let hits = store.recall(&RecallQuery::new("order subtotal").namespace(NAMESPACE))?;
    if hits.iter().any(|h| h.row.kind == Kind::Derived) {
        f.push("recall returned a stale derived row as live".into());
    }
    let flagged = store.recall(
        &RecallQuery::new("order subtotal")
            .namespace(NAMESPACE)
            .include_stale(true),
    )?;
    if !flagged.iter().any(|h| h.row.id == fixed.new_id && h.stale) {
        f.push("include_stale did not return the subtotal flagged stale".into());
    }
    let again = store.recompute(fixed.new_id)?;
    if value(again.new_id)? != Some(new_truth) {
        f.push(format!(
            "after the correction: {:?}, truth {new_truth}",
            value(again.new_id)?
        ));
    }
    if !store
        .provenance(again.new_id)?
        .is_some_and(|p| p.sources.iter().any(|s| s.id == corrected.new_id))
    {
        f.push("recomputed subtotal does not name the corrected item".into());
    }
    let note2 = compact(&store, 1000, false)?;
    if read(&note2.text, &items) != Outcome::Answer(new_truth) {
        f.push("reader on the new note did not give the new truth".into());
    }
    Ok(verdict(
        "correctable after compaction",
        f,
        format!("{} -> {} -> {}", ledger.planted, ledger.truth, new_truth),
    ))
}

/// One point of the size sweep.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CliffPoint {
    /// Budget in bytes.
    pub budget: usize,
    /// Items in the ledger (N).
    pub n: usize,
    /// Items the note kept (k).
    pub kept: usize,
    /// The note's completeness flag.
    pub complete: bool,
    /// Note size.
    pub bytes: usize,
    /// The reader recomputed the truth.
    pub success: bool,
    /// The reader flagged the note as incomplete.
    pub flagged: bool,
}

/// The size sweep: N from 2 to 32 at each budget.
pub fn size_sweep(seed: u64) -> oubli::Result<Vec<CliffPoint>> {
    let mut scratch = Scratch::new()?;
    let mut out = Vec::new();
    for n in CLIFF_SIZES {
        let store = scratch.store()?;
        let ledger = generate(LedgerConfig {
            seed: seed.wrapping_add(n as u64),
            items: n,
            decoys: 0,
        });
        ledger.load(&store)?;
        for budget in CLIFF_BUDGETS {
            let note = store.compact(&scope(), &CompactOptions::new(budget).dry_run(true))?;
            let outcome = read(&note.text, &ledger.items);
            out.push(CliffPoint {
                budget,
                n,
                kept: note.kept,
                complete: note.complete,
                bytes: note.bytes(),
                success: outcome == Outcome::Answer(ledger.truth),
                flagged: outcome == Outcome::Flagged,
            });
        }
    }
    out.sort_by_key(|p| (p.budget, p.n));
    Ok(out)
}

/// The smallest N at which the note at `budget` first drops an item.
pub fn cliff(points: &[CliffPoint], budget: usize) -> Option<usize> {
    points
        .iter()
        .filter(|p| p.budget == budget && p.kept < p.n)
        .map(|p| p.n)
        .min()
}

/// Judges the size sweep: success iff k = N, complete iff k = N, every incomplete note flagged,
/// notes within budget, a cliff inside the range at every budget, moving right as it grows.
pub fn judge_sweep(points: &[CliffPoint]) -> Verdict {
    let mut f = Vec::new();
    for p in points {
        if p.success != (p.kept == p.n) {
            f.push(format!(
                "B={} N={}: success {} with k={}",
                p.budget, p.n, p.success, p.kept
            ));
        }
        if p.complete != (p.kept == p.n) {
            f.push(format!(
                "B={} N={}: complete {} with k={}",
                p.budget, p.n, p.complete, p.kept
            ));
        }
        if p.kept < p.n && !p.flagged {
            f.push(format!(
                "B={} N={}: incomplete note not flagged",
                p.budget, p.n
            ));
        }
        if p.bytes > p.budget {
            f.push(format!("B={} N={}: {} bytes", p.budget, p.n, p.bytes));
        }
    }
    let cliffs: Vec<Option<usize>> = CLIFF_BUDGETS.iter().map(|b| cliff(points, *b)).collect();
    for (b, c) in CLIFF_BUDGETS.iter().zip(&cliffs) {
        match c {
            None => f.push(format!("no cliff at B={b}")),
            Some(c) if *c <= *CLIFF_SIZES.start() => {
                f.push(format!("B={b}: cliff at the first size"))
            }
            Some(_) => {}
        }
    }
    if cliffs.windows(2).any(|w| w[0] >= w[1]) {
        f.push(format!(
            "the cliff does not move right with the budget: {cliffs:?}"
        ));
    }
    verdict(
        "size cliff: success iff k = N, complete iff k = N",
        f,
        CLIFF_BUDGETS
            .iter()
            .zip(&cliffs)
            .map(|(b, c)| format!("B={b}: first drop at N={}", c.unwrap_or(0)))
            .collect::<Vec<_>>()
            .join(", "),
    )
}

/// One point of the decoy sweep.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DecoyPoint {
    /// Decoys interleaved with the four items.
    pub decoys: usize,
    /// Items the source-first note kept.
    pub kept: usize,
    /// The reader recomputed the truth from the source-first note.
    pub source_first: bool,
    /// The reader recomputed the truth from the positional baseline's note.
    pub positional: bool,
}

/// The decoy sweep: four items, growing decoys, budget 420.
pub fn decoy_sweep(seed: u64) -> oubli::Result<Vec<DecoyPoint>> {
    let mut scratch = Scratch::new()?;
    let mut out = Vec::new();
    for d in DECOY_COUNTS {
        let store = scratch.store()?;
        let ledger = generate(LedgerConfig {
            seed: seed.wrapping_add(1000 + d as u64),
            items: 4,
            decoys: d,
        });
        ledger.load(&store)?;
        let note = store.compact(&scope(), &CompactOptions::new(DECOY_BUDGET).dry_run(true))?;
        let naive = positional_note(&store, DECOY_BUDGET)?;
        out.push(DecoyPoint {
            decoys: d,
            kept: note.kept,
            source_first: read(&note.text, &ledger.items) == Outcome::Answer(ledger.truth),
            positional: read(&naive, &ledger.items) == Outcome::Answer(ledger.truth),
        });
    }
    Ok(out)
}

/// Judges the decoy sweep: source-first always keeps the four items; the positional baseline
/// must fail somewhere (the test can fail) and succeed without decoys.
pub fn judge_decoys(points: &[DecoyPoint]) -> Verdict {
    let mut f = Vec::new();
    for p in points {
        if p.kept != 4 || !p.source_first {
            f.push(format!(
                "{} decoys crowded out an item (kept {})",
                p.decoys, p.kept
            ));
        }
    }
    if points.iter().all(|p| p.positional) {
        f.push("the positional baseline never failed: the check cannot fail".into());
    }
    if points.iter().any(|p| p.decoys == 0 && !p.positional) {
        f.push("the positional baseline fails even without decoys".into());
    }
    let first_fail = points.iter().find(|p| !p.positional).map(|p| p.decoys);
    verdict(
        "decoys never crowd out a referenced item",
        f,
        format!("positional baseline first fails at {first_fail:?} decoys"),
    )
}

/// Purging a source with a unique marker leaves it in no note, derived row or file byte.
pub fn purge_marker(seed: u64) -> oubli::Result<Verdict> {
    let mut scratch = Scratch::new()?;
    let path = scratch.path();
    let store = create_store(&path)?;
    let mut ledger = generate(LedgerConfig {
        seed,
        items: 5,
        decoys: 2,
    });
    let marker = format!("zq{seed:x}marker");
    ledger.items[2].marker = Some(marker.clone());
    let loaded = ledger.load(&store)?;
    let fixed = store.recompute(loaded.subtotal)?;
    let note = compact(&store, 2000, true)?;
    let mut f = Vec::new();
    if !note.text.contains(&marker) {
        f.push("the note did not carry the marked item".into());
    }
    let report = store.purge(Target::id(loaded.items[2]))?;
    let note_id = note.id.unwrap_or_default();
    for (what, id) in [
        ("note", note_id),
        ("recomputed subtotal", fixed.new_id),
        ("planted subtotal", loaded.subtotal),
    ] {
        if !report.erased.contains(&id) {
            f.push(format!("the receipt does not list the {what} #{id}"));
        }
    }
    let q = ListQuery {
        include_submerged: true,
        include_stale: true,
        include_expired: true,
        ..Default::default()
    };
    for row in store.list(&q)? {
        if row.text.as_deref().is_some_and(|t| t.contains(&marker)) {
            f.push(format!("row #{} still carries the marker", row.id));
        }
    }
    store.close()?;
    let bytes = std::fs::read(&path)?;
    for needle in [
        marker.as_bytes().to_vec(),
        marker.to_lowercase().into_bytes(),
    ] {
        if bytes.windows(needle.len()).any(|w| w == needle.as_slice()) {
            f.push("the marker is still in the file".into());
        }
    }
    Ok(verdict(
        "purge cascades into notes and derived rows, no byte left",
        f,
        format!(
            "{} rows erased, cascade {:?}",
            report.erased.len(),
            report
                .cascade
                .iter()
                .map(|c| (c.row, c.via.clone()))
                .collect::<Vec<_>>()
        ),
    ))
}

/// One hop of the running-ledger loop.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Hop {
    /// Hop number, from 1.
    pub hop: usize,
    /// Items so far (N).
    pub n: usize,
    /// Items the note kept.
    pub kept: usize,
    /// Note size.
    pub bytes: usize,
    /// The reader's outcome.
    pub outcome: String,
    /// The reader recomputed the true running total.
    pub correct: bool,
    /// The reader flagged the note.
    pub flagged: bool,
    /// Selection digest of the hop's note.
    pub digest: String,
}

/// Hops of the running-ledger loop.
pub const LOOP_HOPS: usize = 12;
/// Items added per hop.
pub const LOOP_ITEMS_PER_HOP: usize = 2;
/// Budget of every hop's note.
pub const LOOP_BUDGET: usize = 400;

/// The running-ledger loop on `store`: each hop adds items and a running total whose stated
/// value inherits the previous hop's (the hop-1 total carries the planted error, so the error
/// cascades through the conclusions), then compacts into the note keyed `running`, replacing
/// the previous hop's note.
pub fn run_loop(store: &Store, seed: u64) -> oubli::Result<Vec<Hop>> {
    let ledger = generate(LedgerConfig {
        seed,
        items: LOOP_HOPS * LOOP_ITEMS_PER_HOP,
        decoys: 0,
    });
    let mut ids: Vec<RowId> = Vec::new();
    let mut items: Vec<Item> = Vec::new();
    let mut claimed = Decimal::ZERO;
    let mut hops = Vec::new();
    for hop in 1..=LOOP_HOPS {
        let new = &ledger.items[(hop - 1) * LOOP_ITEMS_PER_HOP..hop * LOOP_ITEMS_PER_HOP];
        for it in new {
            let ins = Inscription::new(it.text())
                .namespace(NAMESPACE)
                .meta("price", it.price())
                .meta("qty", it.qty.to_string())
                .meta("role", "item");
            ids.push(store.inscribe(ins)?);
            items.push(it.clone());
        }
        claimed = claimed.checked_add(total(new)).and_then(|c| {
            if hop == 1 {
                c.checked_add(Decimal::from_int(9))
            } else {
                Ok(c)
            }
        })?;
        store.inscribe_derived(
            Inscription::new(format!("Running total after hop {hop}: ${{value}}"))
                .namespace(NAMESPACE)
                .meta("value", claimed.to_string())
                .derived_from(ids.iter().copied()),
            Derivation::sum_of_products(["price", "qty"]),
        )?;
        let note = store.compact(&scope(), &CompactOptions::new(LOOP_BUDGET).key("running"))?;
        let outcome = read(&note.text, &items);
        let truth = total(&items);
        hops.push(Hop {
            hop,
            n: items.len(),
            kept: note.kept,
            bytes: note.bytes(),
            correct: outcome == Outcome::Answer(truth),
            flagged: outcome == Outcome::Flagged,
            outcome: match outcome {
                Outcome::Answer(v) => format!("answer {v}"),
                Outcome::Flagged => "flagged".into(),
                Outcome::Abstain => "abstain".into(),
            },
            digest: note.digest.iter().map(|b| format!("{b:02x}")).collect(),
        });
    }
    Ok(hops)
}

/// Judges the loop: every hop is correct or flagged (never a wrong answer or a silent gap),
/// correct exactly while the source fits, with a horizon inside the run.
pub fn judge_loop(hops: &[Hop]) -> Verdict {
    let mut f = Vec::new();
    for h in hops {
        if !(h.correct || h.flagged) {
            f.push(format!("hop {}: {}", h.hop, h.outcome));
        }
        if h.correct != (h.kept == h.n) {
            f.push(format!(
                "hop {}: correct {} with k={} of {}",
                h.hop, h.correct, h.kept, h.n
            ));
        }
        if h.bytes > LOOP_BUDGET {
            f.push(format!("hop {}: {} bytes", h.hop, h.bytes));
        }
    }
    let horizon = hops.iter().take_while(|h| h.correct).count();
    if horizon == 0 || horizon == hops.len() {
        f.push(format!(
            "no horizon inside the run (correct for {horizon} hops)"
        ));
    }
    if hops.iter().skip(horizon).any(|h| h.correct) {
        f.push("correct again after the horizon".into());
    }
    verdict(
        "running-ledger loop: correctable while the source fits, flagged after",
        f,
        format!(
            "correct for hops 1..={horizon}, flagged from hop {}",
            horizon + 1
        ),
    )
}

/// Replaying the log reproduces the same note hashes: every `compact` event's note rebuilds
/// from its record and sources to the logged commitment and digest, and the same operations on
/// a second store give the same notes and the same log head.
pub fn replay(seed: u64) -> oubli::Result<Verdict> {
    let mut scratch = Scratch::new()?;
    let a = scratch.store()?;
    let b = scratch.store()?;
    let hops_a = run_loop(&a, seed)?;
    let hops_b = run_loop(&b, seed)?;
    let mut f = Vec::new();
    let replayed = a.replay_notes()?;
    if replayed.len() != hops_a.len() {
        f.push(format!(
            "{} compact events for {} hops",
            replayed.len(),
            hops_a.len()
        ));
    }
    for (r, h) in replayed.iter().zip(&hops_a) {
        let hex: String = r.digest.iter().map(|b| format!("{b:02x}")).collect();
        if !r.commitment_matches || !r.digest_matches || hex != h.digest {
            f.push(format!("note #{} (seq {}) does not replay", r.note, r.seq));
        }
    }
    if hops_a != hops_b {
        f.push("the same operations gave different notes".into());
    }
    if a.head()? != b.head()? {
        f.push("the same operations gave different logs".into());
    }
    a.verify_log(None)?;
    Ok(verdict(
        "replaying the log reproduces the note hashes",
        f,
        format!("{} notes replayed", replayed.len()),
    ))
}

/// Everything the suite measured, for the CLI and its JSON report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SuiteReport {
    /// The seed.
    pub seed: u64,
    /// One verdict per check.
    pub verdicts: Vec<Verdict>,
    /// The size sweep.
    pub size_sweep: Vec<CliffPoint>,
    /// The decoy sweep.
    pub decoy_sweep: Vec<DecoyPoint>,
    /// The running-ledger loop.
    pub hops: Vec<Hop>,
}

impl SuiteReport {
    /// True if every check passed.
    pub fn passed(&self) -> bool {
        self.verdicts.iter().all(|v| v.passed)
    }
}

/// Runs every check of the suite.
pub fn run_all(seed: u64) -> oubli::Result<SuiteReport> {
    let size_sweep = size_sweep(seed)?;
    let decoy_sweep = decoy_sweep(seed)?;
    let mut scratch = Scratch::new()?;
    let hops = run_loop(&scratch.store()?, seed)?;
    let verdicts = vec![
        keeps_sources(seed)?,
        correction(seed)?,
        judge_sweep(&size_sweep),
        judge_decoys(&decoy_sweep),
        purge_marker(seed)?,
        judge_loop(&hops),
        replay(seed)?,
    ];
    Ok(SuiteReport {
        seed,
        verdicts,
        size_sweep,
        decoy_sweep,
        hops,
    })
}
