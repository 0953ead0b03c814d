//! Source-first compaction: a note within a byte budget that keeps the recomputable sources,
//! drops re-derivable conclusions, and says how complete it is.
//!
//! 1. The scope's rows are read: live sources and derived rows (notes are never inputs).
//! 2. Answer-determining sources are the live heads of every source reachable by provenance from
//!    the scope's derived rows (stale or not: a stale conclusion is exactly what needs its source)
//!    and from the rows the scope's query matches (BM25).
//! 3. Candidate lines in order of preference: answer-determining sources, other sources, then, only
//!    when asked, fresh derived values labelled as derived. Whole rows only; ties by id.
//! 4. [`pack`](pack::pack) fills the budget greedily, with the header (and its completeness mark)
//!    counted inside the budget.
//! 5. The certificate recomputes every registered derivation in scope from the kept sources.
//! 6. The note is written as a `note` row (one `compact` event carrying its salted content
//!    commitment and the selection digest); the sources stay where they are.
//!
//! The output is a pure function of the rows' texts, ids and versions, the scope and the options,
//! so the same input gives the same bytes, and [`Store::replay_notes`] rebuilds every note from
//! its record and its sources and checks it against the log.
//!
//! Layout: this file holds the scope, the options and [`Store::compact`]; [`select`] reads the
//! scope and assembles the note, [`pack`] fits lines into the budget, [`text`] renders the note's
//! text, [`certificate`] checks the derivations, [`note`] is the note's record (digest, write,
//! read back) and [`replay`] rebuilds notes from the log.

mod certificate;
mod note;
mod pack;
mod replay;
mod select;
mod text;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::Store;
use crate::error::{Error, Result};
use crate::row::{MAX_TEXT_BYTES, RowId, validate_field};

pub use certificate::{Certificate, Check, CheckStatus};
pub use note::{LineKind, Note, NoteLine};
pub use replay::NoteReplay;

/// First words of every note's header.
pub const NOTE_HEADER: &str = "oubli note v1";
/// The word a note's header carries when it could not keep every answer-determining source.
pub const INCOMPLETE_MARK: &str = "INCOMPLETE";
/// At most this many dropped ids are spelled out in the note's text (all are in its record).
pub const MAX_LISTED_DROPPED: usize = 8;
/// Default number of query matches a scope's query contributes.
pub const DEFAULT_QUERY_K: usize = 100;

/// Which rows a compaction reads.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompactScope {
    /// Only rows of this namespace (answer-determining sources outside it are left out too).
    pub namespace: Option<String>,
    /// Only rows whose metadata has every one of these entries (string equality; a list
    /// field: contains the string).
    pub filters: BTreeMap<String, String>,
    /// Exactly these rows, instead of every live row passing the filters.
    pub ids: Vec<RowId>,
    /// Rows this query matches (BM25) are answer-determining, and so are the sources of derived
    /// rows it matches.
    pub query: Option<String>,
    /// How many query matches count ([`DEFAULT_QUERY_K`] when 0).
    pub query_k: usize,
}

impl CompactScope {
    /// Every live row of a namespace.
    pub fn namespace(ns: impl Into<String>) -> Self {
        CompactScope {
            namespace: Some(ns.into()),
            ..Default::default()
        }
    }
    /// Exactly these rows.
    pub fn ids(ids: impl IntoIterator<Item = RowId>) -> Self {
        CompactScope {
            ids: ids.into_iter().collect(),
            ..Default::default()
        }
    }
    /// Adds a query whose matches are answer-determining.
    pub fn query(mut self, q: impl Into<String>) -> Self {
        self.query = Some(q.into());
        self
    }
    /// Adds a metadata equality filter.
    pub fn filter(mut self, k: impl Into<String>, v: impl Into<String>) -> Self {
        self.filters.insert(k.into(), v.into());
        self
    }
}

/// How a compaction writes its note.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompactOptions {
    /// Largest note, in bytes of UTF-8, header and completeness mark included.
    pub budget: usize,
    /// Also keep fresh derived values (labelled as derived), after every source.
    pub include_derived: bool,
    /// Refuse with [`Error::IncompleteNote`] instead of writing a note that misses an
    /// answer-determining source.
    pub strict: bool,
    /// Natural key of the note; a live note holding it is replaced (and submerges).
    pub key: Option<String>,
    /// Namespace of the note (the scope's, or the default namespace, when `None`).
    pub note_namespace: Option<String>,
    /// Build and return the note without writing it.
    pub dry_run: bool,
}

impl CompactOptions {
    /// A note of at most `budget` bytes.
    pub fn new(budget: usize) -> Self {
        CompactOptions {
            budget,
            include_derived: false,
            strict: false,
            key: None,
            note_namespace: None,
            dry_run: false,
        }
    }
    /// Also keeps fresh derived values.
    pub fn include_derived(mut self, yes: bool) -> Self {
        self.include_derived = yes;
        self
    }
    /// Refuses incomplete notes.
    pub fn strict(mut self, yes: bool) -> Self {
        self.strict = yes;
        self
    }
    /// Sets the note's key.
    pub fn key(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
        self
    }
    /// Sets the note's namespace.
    pub fn note_namespace(mut self, ns: impl Into<String>) -> Self {
        self.note_namespace = Some(ns.into());
        self
    }
    /// Builds without writing.
    pub fn dry_run(mut self, yes: bool) -> Self {
        self.dry_run = yes;
        self
    }
}

/// A note built by [`select`], not yet written, with what its write must find unchanged.
struct Built {
    note: Note,
    head: u64,
    namespace: String,
}

impl Store {
    /// Builds a source-first note of at most `opts.budget` bytes over `scope` and writes it as a
    /// `note` row (unless `opts.dry_run`). See the module documentation for the order of
    /// preference; [`Note`] records k of N, the dropped ids and the certificate. The note's text
    /// says `INCOMPLETE` and lists what is missing whenever k < N; with `opts.strict` the call
    /// fails with [`Error::IncompleteNote`] instead. The sources stay in the store.
    pub fn compact(&self, scope: &CompactScope, opts: &CompactOptions) -> Result<Note> {
        if opts.budget > MAX_TEXT_BYTES {
            return Err(Error::InvalidArgument(format!(
                "budget {} is over the largest row text ({MAX_TEXT_BYTES} bytes)",
                opts.budget
            )));
        }
        if let Some(ns) = &scope.namespace {
            validate_field("namespace", ns)?;
        }
        for ns in [&opts.note_namespace, &opts.key].into_iter().flatten() {
            validate_field("note namespace or key", ns)?;
        }
        for attempt in 0.. {
            let built = self.build_note(scope, opts)?;
            if opts.strict && !built.note.complete {
                return Err(Error::IncompleteNote {
                    kept: built.note.kept,
                    total: built.note.total,
                    dropped: built.note.dropped.clone(),
                });
            }
            if opts.dry_run {
                return Ok(built.note);
            }
            if let Some(note) = self.write_note(built, opts)? {
                return Ok(note);
            }
            if attempt >= 3 {
                break;
            }
        }
        Err(Error::InvalidArgument(
            "the store kept changing during compaction; try again".into(),
        ))
    }
}
