//! oubli-bench: the forgetting benchmark of ForgetEval and the scale protocol of
//! scale-conditioned evaluation, run as oubli's conformance bank.
//!
//! A researcher's path through the crate: [`case`] reads case files, [`adapter`] is the
//! protocol a store implements, [`runner`] runs cases and scores them, [`report`] prints and
//! serializes results, [`stats`] holds the intervals and tests. [`templates`] generates the
//! template suite, [`adversarial`] loads and admits the hand-written adversarial layer,
//! [`scale`] runs the scale protocol, [`topology`] the deletion-topology suite, [`ratchet`] holds the list of known failures, [`recall_quality`] measures
//! recall@k per leg, [`serve_load`] the multi-tenant server's throughput and per-tenant cost.

pub mod adapter;
pub mod adversarial;
pub mod baseline;
pub mod case;
pub mod ledger;
pub mod oubli_adapter;
pub mod ratchet;
pub mod recall_quality;
pub mod report;
pub mod rng;
pub mod runner;
pub mod scale;
pub mod serve_load;
pub mod stats;
pub mod templates;
pub mod topology;
pub mod vocab;
