//! The integration tests of the engine's public API, one module per concern, built as one test
//! binary: one link instead of one per file, which is most of what `cargo test` writes to disk
//! and much of its build time. Run one concern with `cargo test -p oubli-db --test api erasure::`.
//!
//! The crash-consistency (`durability`), tamper, targeting, replication, serve and cluster suites
//! stay binaries of their own: they have long runs of their own (`--ignored`) or features. So does
//! `tracing_spans`: it installs a subscriber, and tracing caches per process whether anyone listens
//! to a span, so spans opened by the other tests' threads at the same time can hide its own.

#[path = "../common/mod.rs"]
mod common;

mod cli;
mod cli_conventions;
mod compaction;
mod diagnostics;
mod erasure;
mod erasure_incremental;
mod errors;
mod forget_user;
mod format_migration;
mod in_memory;
mod invariants;
mod key_index;
mod lifecycle;
mod log;
mod match_keys;
mod mcp;
mod metadata_filters;
mod over_deletion;
mod receipts;
mod record_codec;
mod relevance;
mod vector_graph;
mod write_path;
