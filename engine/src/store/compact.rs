//! Source-first compaction: a note within a byte budget that keeps the recomputable sources,
//! drops re-derivable conclusions, and says how complete it is.
//!
//! 1. The scope's rows are read: live sources and derived rows (notes are never inputs).
//! 2. Answer-determining sources are the live heads of every source reachable by provenance from
//!    the scope's derived rows (stale or not: a stale conclusion is exactly what needs its source)
//!    and from the rows the scope's query matches (BM25).
//! 3. Candidate lines in order of preference: answer-determining sources, other sources, then, only
//!    when asked, fresh derived values labelled as derived. Whole rows only; ties by id.
//! 4. [`pack`] fills the budget greedily, with the header (and its completeness mark) counted
//!    inside the budget.
//! 5. The certificate recomputes every registered derivation in scope from the kept sources.
//! 6. The note is written as a `note` row (one `compact` event carrying its salted content
//!    commitment and the selection digest); the sources stay where they are.
//!
//! The output is a pure function of the rows' texts, ids and versions, the scope and the options,
//! so the same input gives the same bytes, and [`Store::replay_notes`] rebuilds every note from
//! its record and its sources and checks it against the log.

use std::collections::{BTreeMap, BTreeSet};

use redb::ReadableTable;
use serde::{Deserialize, Serialize};

use super::provenance::{Reader, live_head};
use super::recall::{Legs, RecallQuery};
use super::{Inner, Store};
use crate::depth::Depth;
use crate::derive::{Decimal, SourceRef};
use crate::error::{Error, Result};
use crate::log::{Event, EventKind, Hash32};
use crate::row::{Inscription, Kind, MAX_TEXT_BYTES, Row, RowId, validate_field};
use crate::storage::{self, EVENTS, NOTES, PAYLOADS, ROWS};

/// First words of every note's header.
pub const NOTE_HEADER: &str = "oubli note v1";
/// The word a note's header carries when it could not keep every answer-determining source.
pub const INCOMPLETE_MARK: &str = "INCOMPLETE";
/// At most this many dropped ids are spelled out in the note's text (all are in its record).
pub const MAX_LISTED_DROPPED: usize = 8;
/// Default number of query matches a scope's query contributes.
pub const DEFAULT_QUERY_K: usize = 100;

const DIGEST_CONTEXT: &str = "oubli 2026-11-21 note selection v1";

/// Which rows a compaction reads.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompactScope {
    /// Only rows of this namespace (answer-determining sources outside it are left out too).
    pub namespace: Option<String>,
    /// Only rows whose metadata has every one of these entries.
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

/// What a line of a note carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LineKind {
    /// An answer-determining source.
    Determining,
    /// Another source in scope.
    Other,
    /// A fresh derived value, labelled as derived.
    Derived,
}

/// One kept row, in the note's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NoteLine {
    /// The row.
    pub id: RowId,
    /// Why it is there.
    pub kind: LineKind,
}

/// Outcome of recomputing one registered derivation from the note's kept sources.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckStatus {
    /// The kept sources give the stated value.
    Match,
    /// The kept sources give another value: the stated value is wrong or stale.
    Mismatch,
    /// A source of the derivation is not in the note.
    Unverifiable,
}

/// One derivation checked by the certificate.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Check {
    /// The derived row.
    pub derived: RowId,
    /// The derivation, e.g. `sum(price*qty)`.
    pub derivation: String,
    /// Its stated value (left out when unverifiable).
    pub claimed: Option<Decimal>,
    /// The value the note's kept sources give.
    pub recomputed: Option<Decimal>,
    /// The verdict.
    pub status: CheckStatus,
    /// Sources of the derivation the note does not keep.
    pub missing: Vec<RowId>,
}

/// The write-time certificate of a note.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Certificate {
    /// One check per registered derivation in scope, by row id.
    pub checks: Vec<Check>,
}

impl Certificate {
    /// Derived rows whose stated value the kept sources contradict.
    pub fn mismatches(&self) -> Vec<RowId> {
        self.checks
            .iter()
            .filter(|c| c.status == CheckStatus::Mismatch)
            .map(|c| c.derived)
            .collect()
    }
}

/// A note written (or, on a dry run, built) by [`Store::compact`], with its completeness record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Note {
    /// The note row (`None` on a dry run).
    pub id: Option<RowId>,
    /// Seq of the `compact` event (`None` on a dry run).
    pub seq: Option<u64>,
    /// The note's text, header first.
    pub text: String,
    /// The budget it was built for.
    pub budget: usize,
    /// Whether fresh derived values were allowed.
    pub include_derived: bool,
    /// k: answer-determining sources kept.
    pub kept: usize,
    /// N: answer-determining sources in scope.
    pub total: usize,
    /// `kept == total`.
    pub complete: bool,
    /// Every answer-determining source, by id.
    pub answer_determining: Vec<RowId>,
    /// The answer-determining sources that did not fit.
    pub dropped: Vec<RowId>,
    /// Other sources in scope.
    pub others_total: usize,
    /// The kept rows in the note's order.
    pub lines: Vec<NoteLine>,
    /// Every registered derivation in scope, recomputed from the kept sources.
    pub certificate: Certificate,
    /// blake3 over the selection: budget, options, the answer-determining ids, every kept row's
    /// (id, version, salted commitment) in order, the dropped ids. Carried by the `compact` event.
    pub digest: Hash32,
    /// Salted content commitment of the text, as in the `compact` event (`None` on a dry run).
    pub commitment: Option<Hash32>,
}

impl Note {
    /// Size of the text in bytes.
    pub fn bytes(&self) -> usize {
        self.text.len()
    }
}

/// What [`Store::replay_notes`] found for one `compact` event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NoteReplay {
    /// The note row.
    pub note: RowId,
    /// The `compact` event.
    pub seq: u64,
    /// The note was purged since (nothing left to rebuild).
    pub purged: bool,
    /// Rebuilt text's salted commitment equals the event's.
    pub commitment_matches: bool,
    /// Rebuilt selection digest equals the event's.
    pub digest_matches: bool,
    /// The rebuilt digest.
    pub digest: Hash32,
}

/// The header line: counts and the completeness mark, newline included.
pub(crate) fn header(
    k: usize,
    n: usize,
    others: (usize, usize),
    derived: Option<usize>,
    dropped: &[RowId],
) -> String {
    let mut h = format!(
        "{NOTE_HEADER}: kept {k} of {n} answer-determining sources, {} of {} other sources",
        others.0, others.1
    );
    if let Some(d) = derived {
        h.push_str(&format!(", {d} derived values"));
    }
    if dropped.is_empty() {
        h.push_str("; complete\n");
    } else {
        h.push_str(&format!("; {INCOMPLETE_MARK}, missing"));
        for id in dropped.iter().take(MAX_LISTED_DROPPED) {
            h.push_str(&format!(" #{id}"));
        }
        if dropped.len() > MAX_LISTED_DROPPED {
            h.push_str(&format!(" (+{} more)", dropped.len() - MAX_LISTED_DROPPED));
        }
        h.push('\n');
    }
    h
}

/// A line a note may carry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Candidate {
    pub(crate) id: RowId,
    pub(crate) kind: LineKind,
    pub(crate) line: String,
}

/// The text of one kept row.
pub(crate) fn line(id: RowId, kind: LineKind, text: &str, derived_label: Option<&str>) -> String {
    match (kind, derived_label) {
        (LineKind::Derived, Some(label)) => format!("[derived #{id}, {label}] {text}\n"),
        (LineKind::Derived, None) => format!("[derived #{id}] {text}\n"),
        _ => format!("[#{id}] {text}\n"),
    }
}

/// The packing: which candidates are kept, and the header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Packed {
    pub(crate) kept: Vec<usize>,
    pub(crate) header: String,
}

/// Header of a selection of `cands` (indices into it).
fn header_of(
    cands: &[Candidate],
    sel: &[usize],
    others_total: usize,
    with_derived: bool,
) -> String {
    let kept: BTreeSet<usize> = sel.iter().copied().collect();
    let count = |kind| sel.iter().filter(|i| cands[**i].kind == kind).count();
    let n = cands
        .iter()
        .filter(|c| c.kind == LineKind::Determining)
        .count();
    let dropped: Vec<RowId> = cands
        .iter()
        .enumerate()
        .filter(|(i, c)| c.kind == LineKind::Determining && !kept.contains(i))
        .map(|(_, c)| c.id)
        .collect();
    header(
        count(LineKind::Determining),
        n,
        (count(LineKind::Other), others_total),
        with_derived.then(|| count(LineKind::Derived)),
        &dropped,
    )
}

/// Fills `budget` bytes greedily in candidate order (whole lines; a line that does not fit is
/// skipped and later, shorter ones are tried), with the header counted inside the budget. The
/// header depends on what was kept, so the packing repeats with the header's actual size
/// reserved until the two agree. Always `header.len() + kept lines <= budget`.
pub(crate) fn pack(
    cands: &[Candidate],
    budget: usize,
    others_total: usize,
    with_derived: bool,
) -> Result<Packed> {
    let empty = header_of(cands, &[], others_total, with_derived);
    let all: Vec<usize> = (0..cands.len()).collect();
    let mut reserve = header_of(cands, &all, others_total, with_derived).len();
    loop {
        let Some(avail) = budget.checked_sub(reserve) else {
            if empty.len() <= budget {
                return Ok(Packed {
                    kept: Vec::new(),
                    header: empty,
                });
            }
            return Err(Error::BudgetTooSmall {
                budget,
                needed: empty.len(),
            });
        };
        let mut used = 0usize;
        let mut sel = Vec::new();
        for (i, c) in cands.iter().enumerate() {
            if used + c.line.len() <= avail {
                used += c.line.len();
                sel.push(i);
            }
        }
        let h = header_of(cands, &sel, others_total, with_derived);
        if h.len() + used <= budget {
            return Ok(Packed {
                kept: sel,
                header: h,
            });
        }
        reserve = (reserve + 1).max(h.len());
    }
}

/// The selection digest (see [`Note::digest`]).
fn digest(
    budget: usize,
    include_derived: bool,
    determining: &[RowId],
    kept: &[(LineKind, SourceRef)],
    dropped: &[RowId],
) -> Hash32 {
    let mut h = blake3::Hasher::new_derive_key(DIGEST_CONTEXT);
    h.update(&(budget as u64).to_le_bytes());
    h.update(&[u8::from(include_derived)]);
    h.update(&(determining.len() as u64).to_le_bytes());
    for id in determining {
        h.update(&id.to_le_bytes());
    }
    h.update(&(kept.len() as u64).to_le_bytes());
    for (kind, r) in kept {
        h.update(&[match kind {
            LineKind::Determining => 1,
            LineKind::Other => 2,
            LineKind::Derived => 3,
        }]);
        h.update(&r.id.to_le_bytes());
        h.update(&r.version.to_le_bytes());
        h.update(&r.commitment);
    }
    h.update(&(dropped.len() as u64).to_le_bytes());
    for id in dropped {
        h.update(&id.to_le_bytes());
    }
    *h.finalize().as_bytes()
}

/// The derived label of a row: its derivation and sources, e.g. `sum(price*qty) of #3 #4`.
fn derived_label(r: &Reader<'_>, id: RowId) -> Result<Option<String>> {
    Ok(r.provenance(id)?.map(|p| {
        let ids: Vec<String> = p.sources.iter().map(|s| format!("#{}", s.id)).collect();
        match &p.derivation {
            Some(d) => format!("{} of {}", d.describe(), ids.join(" ")),
            None => format!("from {}", ids.join(" ")),
        }
    }))
}

/// Renders a note's text from its record and the rows it names.
fn render(r: &Reader<'_>, note: &Note) -> Result<String> {
    let count = |k| note.lines.iter().filter(|l| l.kind == k).count();
    let mut text = header(
        note.kept,
        note.total,
        (count(LineKind::Other), note.others_total),
        note.include_derived.then(|| count(LineKind::Derived)),
        &note.dropped,
    );
    for l in &note.lines {
        let row = r.row(l.id)?;
        let t = row.text.as_deref().ok_or(Error::Purged(l.id))?;
        let label = if l.kind == LineKind::Derived {
            derived_label(r, l.id)?
        } else {
            None
        };
        text.push_str(&line(l.id, l.kind, t, label.as_deref()));
    }
    Ok(text)
}

/// The digest of a note record, from the current versions of the rows it keeps.
fn digest_of(r: &Reader<'_>, note: &Note) -> Result<Hash32> {
    let kept = note
        .lines
        .iter()
        .map(|l| Ok((l.kind, r.source_ref(l.id)?.ok_or(Error::Purged(l.id))?)))
        .collect::<Result<Vec<_>>>()?;
    Ok(digest(
        note.budget,
        note.include_derived,
        &note.answer_determining,
        &kept,
        &note.dropped,
    ))
}

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

    fn build_note(&self, scope: &CompactScope, opts: &CompactOptions) -> Result<Built> {
        let query_hits = match &scope.query {
            Some(q) => {
                let k = if scope.query_k == 0 {
                    DEFAULT_QUERY_K
                } else {
                    scope.query_k.min(super::recall::MAX_K)
                };
                let mut rq = RecallQuery::new(q.clone()).k(k).legs(Legs::Lexical);
                rq.namespace = scope.namespace.clone();
                rq.include_stale = true;
                self.recall(&rq)?.into_iter().map(|h| h.row.id).collect()
            }
            None => Vec::new(),
        };
        let now = self.now();
        self.read(|inner| {
            let tx = inner.db.begin_read()?;
            let r = Reader { tx: &tx };
            let in_scope = |row: &Row| {
                row.depth.is_live()
                    && !row.is_expired(now)
                    && matches!(row.kind, Kind::Source | Kind::Derived)
                    && scope
                        .namespace
                        .as_ref()
                        .is_none_or(|ns| *ns == row.namespace)
                    && scope
                        .filters
                        .iter()
                        .all(|(k, v)| row.metadata.get(k) == Some(v))
            };
            let mut rows: Vec<Row> = Vec::new();
            if scope.ids.is_empty() {
                if let Some(t) = storage::open_read(&tx, ROWS)? {
                    for e in t.iter()? {
                        let (k, v) = e?;
                        let rec: Row = storage::decode(v.value())?;
                        if in_scope(&rec) {
                            rows.push(r.row(k.value())?);
                        }
                    }
                }
            } else {
                let ids: BTreeSet<RowId> = scope.ids.iter().copied().collect();
                for id in ids {
                    let row = r.row(id)?;
                    if row.depth.is_void() {
                        return Err(Error::Purged(id));
                    }
                    if in_scope(&row) {
                        rows.push(row);
                    }
                }
            }
            let fetch = |id| r.row(id);
            // Answer-determining: live heads of sources reachable by provenance.
            let mut determining: BTreeSet<RowId> = BTreeSet::new();
            let walk = |start: RowId, determining: &mut BTreeSet<RowId>| -> Result<()> {
                let mut stack = vec![start];
                let mut seen = BTreeSet::new();
                while let Some(id) = stack.pop() {
                    if !seen.insert(id) {
                        continue;
                    }
                    let Some(p) = r.provenance(id)? else { continue };
                    for s in p.sources {
                        let Some(head) = live_head(&fetch, s.id)? else {
                            continue;
                        };
                        if scope
                            .namespace
                            .as_ref()
                            .is_some_and(|ns| *ns != head.namespace)
                        {
                            continue;
                        }
                        match head.kind {
                            Kind::Derived => stack.push(head.id),
                            Kind::Source | Kind::Note => {
                                determining.insert(head.id);
                            }
                        }
                    }
                }
                Ok(())
            };
            for row in rows.iter().filter(|r| r.kind == Kind::Derived) {
                walk(row.id, &mut determining)?;
            }
            for id in &query_hits {
                let row = r.row(*id)?;
                match row.kind {
                    Kind::Source if row.depth.is_live() => {
                        determining.insert(row.id);
                    }
                    Kind::Derived => walk(row.id, &mut determining)?,
                    _ => {}
                }
            }
            // Candidates in order of preference.
            let mut cands = Vec::new();
            for id in &determining {
                let row = r.row(*id)?;
                let text = row.text.as_deref().ok_or(Error::Purged(*id))?;
                cands.push(Candidate {
                    id: *id,
                    kind: LineKind::Determining,
                    line: line(*id, LineKind::Determining, text, None),
                });
            }
            let others: Vec<&Row> = rows
                .iter()
                .filter(|r| r.kind == Kind::Source && !determining.contains(&r.id))
                .collect();
            for row in &others {
                let text = row.text.as_deref().ok_or(Error::Purged(row.id))?;
                cands.push(Candidate {
                    id: row.id,
                    kind: LineKind::Other,
                    line: line(row.id, LineKind::Other, text, None),
                });
            }
            if opts.include_derived {
                for row in rows.iter().filter(|r| r.kind == Kind::Derived) {
                    if !r.check(row.id)?.fresh {
                        continue;
                    }
                    let text = row.text.as_deref().ok_or(Error::Purged(row.id))?;
                    let label = derived_label(&r, row.id)?;
                    cands.push(Candidate {
                        id: row.id,
                        kind: LineKind::Derived,
                        line: line(row.id, LineKind::Derived, text, label.as_deref()),
                    });
                }
            }
            let packed = pack(&cands, opts.budget, others.len(), opts.include_derived)?;
            let kept_set: BTreeSet<RowId> = packed.kept.iter().map(|i| cands[*i].id).collect();
            let answer_determining: Vec<RowId> = determining.iter().copied().collect();
            let dropped: Vec<RowId> = answer_determining
                .iter()
                .filter(|id| !kept_set.contains(id))
                .copied()
                .collect();
            let lines: Vec<NoteLine> = packed
                .kept
                .iter()
                .map(|i| NoteLine {
                    id: cands[*i].id,
                    kind: cands[*i].kind,
                })
                .collect();
            let mut text = packed.header;
            for i in &packed.kept {
                text.push_str(&cands[*i].line);
            }
            // The certificate: every registered derivation in scope, from the kept sources.
            let mut checks = Vec::new();
            for row in rows.iter().filter(|r| r.kind == Kind::Derived) {
                let Some(p) = r.provenance(row.id)? else {
                    continue;
                };
                let Some(d) = &p.derivation else { continue };
                let mut heads = Vec::new();
                let mut missing = Vec::new();
                for s in &p.sources {
                    match live_head(&fetch, s.id)? {
                        Some(h) if kept_set.contains(&h.id) => heads.push(h),
                        Some(h) => missing.push(h.id),
                        None => missing.push(s.id),
                    }
                }
                let (claimed, recomputed, status) = if missing.is_empty() {
                    let v = d.evaluate(heads.iter().map(|h| (h.id, &h.metadata))).ok();
                    let status = match (p.claimed, v) {
                        (Some(c), Some(v)) if c == v => CheckStatus::Match,
                        (_, Some(_)) => CheckStatus::Mismatch,
                        _ => CheckStatus::Unverifiable,
                    };
                    (p.claimed, v, status)
                } else {
                    (None, None, CheckStatus::Unverifiable)
                };
                checks.push(Check {
                    derived: row.id,
                    derivation: d.describe(),
                    claimed,
                    recomputed,
                    status,
                    missing,
                });
            }
            let kept_refs = lines
                .iter()
                .map(|l| Ok((l.kind, r.source_ref(l.id)?.ok_or(Error::Purged(l.id))?)))
                .collect::<Result<Vec<_>>>()?;
            let digest = digest(
                opts.budget,
                opts.include_derived,
                &answer_determining,
                &kept_refs,
                &dropped,
            );
            let k = answer_determining.len() - dropped.len();
            let note = Note {
                id: None,
                seq: None,
                text,
                budget: opts.budget,
                include_derived: opts.include_derived,
                kept: k,
                total: answer_determining.len(),
                complete: dropped.is_empty(),
                answer_determining,
                dropped,
                others_total: others.len(),
                lines,
                certificate: Certificate { checks },
                digest,
                commitment: None,
            };
            let namespace = opts
                .note_namespace
                .clone()
                .or_else(|| scope.namespace.clone())
                .unwrap_or_else(|| crate::row::DEFAULT_NAMESPACE.to_owned());
            Ok(Built {
                note,
                head: inner.head_seq,
                namespace,
            })
        })
    }

    /// Writes a built note; `None` if the store changed since it was built.
    fn write_note(&self, built: Built, opts: &CompactOptions) -> Result<Option<Note>> {
        let Built {
            mut note,
            head,
            namespace,
        } = built;
        let mut ins = Inscription::new(note.text.clone())
            .namespace(namespace.clone())
            .kind(Kind::Note)
            .derived_from(note.lines.iter().map(|l| l.id))
            .meta("oubli.note.kept", note.kept.to_string())
            .meta("oubli.note.total", note.total.to_string())
            .meta("oubli.note.complete", note.complete.to_string())
            .meta("oubli.note.budget", note.budget.to_string())
            .meta(
                "oubli.note.certificate",
                if note.certificate.mismatches().is_empty() {
                    "ok"
                } else {
                    "mismatch"
                },
            );
        ins.key = opts.key.clone();
        let (ins, v) = self.prepare(ins)?;
        self.write(|b| {
            if b.head().0 != head {
                return Ok(None);
            }
            let mut transitions = Vec::new();
            let mut replaced = None;
            if let Some(key) = &opts.key
                && let Some(holder) = b.key_holder(&namespace, key)?
            {
                let mut old = b.row(holder)?;
                if old.kind != Kind::Note {
                    return Err(Error::DuplicateKey {
                        namespace: namespace.clone(),
                        key: key.clone(),
                        holder,
                    });
                }
                transitions.push(b.set_depth(&mut old, Depth::SUBMERGED)?);
                replaced = Some(old);
            }
            let (row, t, c) = b.create_row(ins, v, replaced.as_ref().map(|o| o.id))?;
            transitions.push(t);
            if let Some(mut old) = replaced.take() {
                old.superseded_by = Some(row.id);
                b.put_row(&old)?;
                replaced = Some(old);
            }
            let seq = b.event(
                EventKind::Compact,
                &namespace,
                transitions,
                vec![c, note.digest],
            )?;
            if let Some(old) = &replaced {
                b.invalidate_dependents(&[old.id])?;
            }
            note.id = Some(row.id);
            note.seq = Some(seq);
            note.commitment = Some(c);
            let mut record = note.clone();
            record.text = String::new();
            b.tx.open_table(NOTES)?
                .insert(row.id, storage::encode(&record)?.as_slice())?;
            Ok(Some(note))
        })
    }

    /// The note record of a note row, with its text.
    pub fn note(&self, id: RowId) -> Result<Note> {
        self.read(|i| {
            let tx = i.db.begin_read()?;
            let row = Inner::read_row(&tx, id)?.ok_or(Error::UnknownRow(id))?;
            if row.depth.is_void() {
                return Err(Error::Purged(id));
            }
            let rec = storage::open_read(&tx, NOTES)?
                .and_then(|t| t.get(id).ok().flatten().map(|v| v.value().to_vec()))
                .ok_or_else(|| {
                    Error::InvalidArgument(format!("row {id} is not a compaction note"))
                })?;
            let mut note: Note = storage::decode(&rec)?;
            note.text = row.text.unwrap_or_default();
            Ok(note)
        })
    }

    /// Replays every `compact` event of the log over the payloads: rebuilds each note's text
    /// from its record and the rows it keeps, and checks the text's salted commitment and the
    /// selection digest against the ones the event carries. Purged notes are reported as such.
    pub fn replay_notes(&self) -> Result<Vec<NoteReplay>> {
        self.read(|i| {
            let tx = i.db.begin_read()?;
            let r = Reader { tx: &tx };
            let mut out = Vec::new();
            let Some(events) = storage::open_read(&tx, EVENTS)? else {
                return Ok(out);
            };
            let notes = storage::open_read(&tx, NOTES)?;
            let payloads = storage::open_read(&tx, PAYLOADS)?;
            for e in events.iter()? {
                let (seq, v) = e?;
                let ev = Event::decode(v.value())?;
                if ev.kind != EventKind::Compact {
                    continue;
                }
                let Some(created) = ev.transitions.iter().find(|t| t.before.is_none()) else {
                    return Err(Error::Corrupt(format!(
                        "compact event {} creates no row",
                        seq.value()
                    )));
                };
                let (Some(commitment), Some(logged_digest)) =
                    (ev.commitments.first(), ev.commitments.get(1))
                else {
                    return Err(Error::Corrupt(format!(
                        "compact event {} lacks its commitments",
                        seq.value()
                    )));
                };
                let id = created.row;
                let row = r.row(id)?;
                let rec = notes
                    .as_ref()
                    .and_then(|t| t.get(id).ok().flatten().map(|v| v.value().to_vec()));
                let (false, Some(rec)) = (row.depth.is_void(), rec) else {
                    out.push(NoteReplay {
                        note: id,
                        seq: seq.value(),
                        purged: true,
                        commitment_matches: false,
                        digest_matches: false,
                        digest: [0; 32],
                    });
                    continue;
                };
                let note: Note = storage::decode(&rec)?;
                let text = render(&r, &note)?;
                let salt = payloads
                    .as_ref()
                    .and_then(|t| t.get(id).ok().flatten())
                    .map(|p| storage::decode::<storage::Payload>(p.value()))
                    .transpose()?
                    .ok_or(Error::Purged(id))?
                    .salt;
                let digest = digest_of(&r, &note)?;
                out.push(NoteReplay {
                    note: id,
                    seq: seq.value(),
                    purged: false,
                    commitment_matches: storage::commitment(&salt, &text) == *commitment,
                    digest_matches: digest == *logged_digest,
                    digest,
                });
            }
            Ok(out)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn cands(lens: &[(usize, u8)]) -> Vec<Candidate> {
        lens.iter()
            .enumerate()
            .map(|(i, (len, kind))| {
                let kind = match kind % 3 {
                    0 => LineKind::Determining,
                    1 => LineKind::Other,
                    _ => LineKind::Derived,
                };
                let id = i as RowId + 1;
                let body = "x".repeat(*len);
                Candidate {
                    id,
                    kind,
                    line: line(id, kind, &body, None),
                }
            })
            .collect()
    }

    #[test]
    fn header_says_incomplete_and_lists_what_is_missing() {
        let h = header(2, 4, (0, 3), None, &[5, 9]);
        assert_eq!(
            h,
            "oubli note v1: kept 2 of 4 answer-determining sources, 0 of 3 other sources; \
             INCOMPLETE, missing #5 #9\n"
        );
        let many: Vec<RowId> = (1..=10).collect();
        assert!(header(0, 10, (0, 0), None, &many).ends_with("#8 (+2 more)\n"));
        assert!(header(3, 3, (1, 1), Some(0), &[]).ends_with("; complete\n"));
    }

    #[test]
    fn too_small_a_budget_is_a_typed_error() {
        let c = cands(&[(10, 0)]);
        assert!(matches!(
            pack(&c, 20, 0, false),
            Err(Error::BudgetTooSmall { budget: 20, .. })
        ));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// The note never exceeds its budget, k == N iff the header says complete, and the
        /// packing is a function of its input.
        #[test]
        fn pack_respects_budget_and_marks_completeness(
            lens in prop::collection::vec((0usize..120, 0u8..3), 0..40),
            budget in 0usize..2000,
        ) {
            let c = cands(&lens);
            let others = c.iter().filter(|c| c.kind == LineKind::Other).count();
            match pack(&c, budget, others, true) {
                Ok(p) => {
                    let size = p.header.len() + p.kept.iter().map(|i| c[*i].line.len()).sum::<usize>();
                    prop_assert!(size <= budget);
                    let n = c.iter().filter(|c| c.kind == LineKind::Determining).count();
                    let k = p.kept.iter().filter(|i| c[**i].kind == LineKind::Determining).count();
                    prop_assert_eq!(k == n, p.header.ends_with("; complete\n"));
                    prop_assert_eq!(k < n, p.header.contains(INCOMPLETE_MARK));
                    prop_assert_eq!(pack(&c, budget, others, true).unwrap(), p);
                }
                Err(Error::BudgetTooSmall { needed, .. }) => {
                    prop_assert!(needed > budget);
                    prop_assert_eq!(needed, header_of(&c, &[], others, true).len());
                }
                Err(e) => prop_assert!(false, "unexpected error {e}"),
            }
        }

        /// Lines are kept in order of preference: every kept answer-determining source comes
        /// before every kept other source, which comes before every kept derived value.
        #[test]
        fn kept_lines_follow_the_order_of_preference(
            lens in prop::collection::vec((1usize..60, 0u8..3), 1..30),
            budget in 150usize..1500,
        ) {
            let mut c = cands(&lens);
            c.sort_by_key(|c| (c.kind as u8, c.id));
            let others = c.iter().filter(|c| c.kind == LineKind::Other).count();
            if let Ok(p) = pack(&c, budget, others, true) {
                let tiers: Vec<u8> = p.kept.iter().map(|i| c[*i].kind as u8).collect();
                prop_assert!(tiers.windows(2).all(|w| w[0] <= w[1]));
            }
        }
    }
}
