//! The ledger suite: source-first compaction, tested without a model (after Kwon 2026,
//! "Reclaim Evaluation", `../shared/seeds/004`).
//!
//! A seeded [`generator`] writes a ledger of line items (price and quantity, as row metadata),
//! decoy items that no derived row references, and a planted wrong subtotal registered as
//! `sum(price*qty)` over the items. The [`reader`] is the paper's deterministic fake: it answers
//! with the recomputed subtotal only when every answer-determining item is in the note verbatim,
//! flags a note that says it is incomplete, and abstains otherwise. [`baseline`] is the
//! positional note that proves the decoy check can fail. [`checks`] holds the checks the
//! conformance bank asserts (`benches/tests/ledger.rs`) and `oubli-bench ledger` prints.

pub mod baseline;
pub mod checks;
pub mod generator;
pub mod reader;

pub use checks::{CliffPoint, DecoyPoint, Hop, SuiteReport, Verdict, run_all};
pub use generator::{Item, Ledger, LedgerConfig, generate};
pub use reader::{Outcome, read};
