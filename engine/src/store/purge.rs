//! Purge: hard erasure of a target and its closure, with a signed receipt.
//!
//! 1. One write transaction resolves the target (rows at any depth but void), walks the closure
//!    (supersede chains both ways, derived rows and notes transitively), erases every row of it
//!    and appends one `purge` event carrying the rows' content commitments and the selector's.
//! 2. Unless deferred, [`Store::scrub`] removes every remaining byte from indexes and file; its
//!    event is the erasure completion point.
//! 3. The residual audit probes the store more broadly than the purge did (see [`super::audit`]).
//! 4. The receipt (salted commitments only) is signed with the store key and stored in the file;
//!    the opening (the salts) is returned to the caller for the data subject.
//!
//! Step 1 also stores a provisional signed receipt and the opening, sealed (see
//! [`super::pending`]), so a crash anywhere leaves no erasure or an erasure with its receipt and
//! opening. Step 2's erasure (its transaction also deletes the sealed opening once delivered)
//! and freeing commit run before the audit: the erasure point does not wait for it. Its `scrub`
//! event is appended with the final receipt of step 4, in one transaction, so a replica applies
//! both from one frame.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use oubli_audit::commitment;
use oubli_audit::receipt::{OPENING_FORMAT, RECEIPT_FORMAT, alias_commitments};
use oubli_audit::{
    CascadeEntry, ErasedRow, ErasurePoint, LogPoints, OpenedRow, Opening, ReceiptBody,
    ResidualSummary, SignedReceipt,
};
use redb::ReadableTable;
use serde::{Deserialize, Serialize};

use super::Store;
use super::audit::{AuditRequest, ControlRows, ResidualAudit};
use super::batch::Batch;
use super::ops::resolve_in;
use super::scrub::ScrubKind;
use super::targeting::{Scope, Target, Width};
use crate::error::{Error, Result};
use crate::log::{EventKind, Hash32, Transition};
use crate::row::{Kind, Row, RowId};
use crate::storage::{self, INCOMPLETE_PURGES, PENDING_OPENINGS, RECEIPTS};

pub use crate::canon::CANONICALIZER_VERSION;

/// What a purge did, with its signed receipt and the data subject's opening.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PurgeReport {
    /// Sequence number of the purge event (the purge id).
    pub seq: u64,
    /// Rows the target matched directly.
    pub targeted: Vec<RowId>,
    /// Rows erased through the closure, with how they were reached.
    pub cascade: Vec<CascadeEntry>,
    /// Every row erased, in id order.
    pub erased: Vec<RowId>,
    /// Sequence number of the scrub event after which no erased byte remains in the file, or
    /// `None` if scrubbing was deferred (see [`crate::StoreOptions::scrub_on_purge`]).
    pub completion_seq: Option<u64>,
    /// The residual audit run after the purge.
    pub audit: ResidualAudit,
    /// The signed receipt, also stored in the file.
    pub receipt: SignedReceipt,
    /// The opening: give it to the data subject. The store keeps a sealed copy only until the
    /// purge completes (or, if delivery failed, until [`Store::take_opening`] returns it).
    pub opening: Opening,
}

/// One erased row, while the purge still holds its content in memory.
struct ErasedContent {
    row: RowId,
    text: String,
    salt: [u8; 32],
}

impl Store {
    /// Erases what `target` names and its closure, and returns a signed receipt.
    ///
    /// The target's rows (at any depth but void), their supersede chains in both directions, and
    /// every row derived from any of them (notes too), transitively, lose their text, vector, key
    /// and metadata in one transaction logged as one `purge` event of salted commitments. Unless
    /// deferred ([`crate::StoreOptions::scrub_on_purge`]), [`Store::scrub`] then removes every
    /// remaining byte from indexes and file. A residual audit probes the store more broadly than
    /// the target did ([`Store::residual_audit`]). The receipt is stored in the file; the opening,
    /// which holds the salts, is returned only to the caller, for the data subject.
    ///
    /// Crash-atomic: the erasure commits together with a provisional signed receipt and the
    /// opening, sealed ([`Store::take_opening`] returns it after a crash). The completion step
    /// replaces the receipt with the final one and deletes the sealed opening, the returned
    /// [`PurgeReport`] being its delivery. Use [`Store::purge_delivering`] to hand the opening
    /// somewhere durable before the store lets go of it.
    #[tracing::instrument(name = "oubli::Store::purge", level = "debug", skip_all)]
    pub fn purge(&self, target: Target) -> Result<PurgeReport> {
        self.purge_delivering(target, |_| Ok(()))
    }

    /// [`Store::purge`], handing the opening to `deliver` (for example, writing it to a file)
    /// right after the erasure commits and before the store deletes its sealed copy. If
    /// `deliver` fails, the purge still completes (scrub, audit, final receipt), the opening stays
    /// pending in the file for [`Store::take_opening`], and `deliver`'s error is returned.
    #[tracing::instrument(name = "oubli::Store::purge_delivering", level = "debug", skip_all)]
    pub fn purge_delivering(
        &self,
        target: Target,
        deliver: impl FnOnce(&Opening) -> Result<()>,
    ) -> Result<PurgeReport> {
        let selector = match &target {
            Target::Query { text, .. } => text.clone(),
            other => {
                serde_json::to_string(other).map_err(|e| Error::InvalidArgument(e.to_string()))?
            }
        };
        let embedder = self.opts.embedder.clone();
        let policy = self.opts.policy();
        self.purge_with(
            |b| erase(b, &target, &selector, embedder.as_ref(), policy),
            deliver,
        )
    }

    /// The purge pipeline over any way of choosing rows: `erase` runs inside the erasure
    /// transaction (see [`erase_selection`]); the provisional receipt, the sealed opening, the
    /// delivery and the completion step are those of every purge.
    pub(super) fn purge_with(
        &self,
        erase: impl FnOnce(&mut Batch<'_>) -> Result<Erasure>,
        deliver: impl FnOnce(&Opening) -> Result<()>,
    ) -> Result<PurgeReport> {
        let public_key = self.public_key()?;
        let issued_at = self.now();
        // Phase 1: the erasure, a provisional receipt and the sealed opening, in one transaction.
        let erasure_span = tracing::debug_span!("oubli::Store::purge_erasure").entered();
        let (erasure, opening) = self.write(|b| {
            let e = erase(b)?;
            let opening = opening_of(&e);
            let body = receipt_body(
                &e,
                &opening,
                public_key,
                None,
                ResidualSummary::default(),
                issued_at,
            )?;
            let key = b.inner().signing.clone().ok_or(Error::ReadOnly)?;
            let doc = SignedReceipt::sign(body, &key)?.to_document()?;
            let nonce = b.salt();
            let sealed = super::pending::seal(&key.to_bytes(), nonce, &opening.to_document()?);
            b.tx.open_table(RECEIPTS)?.insert(e.seq, doc.as_slice())?;
            b.tx.open_table(PENDING_OPENINGS)?
                .insert(e.seq, sealed.as_slice())?;
            b.tx.open_table(INCOMPLETE_PURGES)?.insert(e.seq, ())?;
            Ok((e, opening))
        })?;
        drop(erasure_span);
        let delivery = deliver(&opening);
        let report = self.complete_purge(erasure, opening, delivery.is_ok())?;
        delivery.map(|()| report)
    }

    /// The completion step of a purge whose erasure committed. First the erasure point (unless
    /// the scrub is deferred): the text segments that held the erased rows are rewritten (readers
    /// proceed meanwhile, and the audit's probes are embedded), then one transaction erases from
    /// the vector snapshot and the `keys` table and deletes the sealed opening if it was
    /// delivered, and one more durable commit frees, and so zeroes, every page the erasure
    /// replaced. Then the residual audit of the store as the erasure left it, and one
    /// transaction with the `scrub` event and the final receipt in place of the provisional one.
    /// A crash between the two leaves the purge marked incomplete: the next writable open scrubs
    /// again, audits and writes the receipt ([`Store::complete_purges`]), in the same order.
    fn complete_purge(&self, e: Erasure, opening: Opening, delivered: bool) -> Result<PurgeReport> {
        let request = AuditRequest {
            texts: e.erased.iter().map(|x| x.text.clone()).collect(),
            selector: opening.selector.clone(),
            erased: e
                .erased
                .iter()
                .map(|x| x.row)
                .filter(|r| {
                    !e.cascade
                        .iter()
                        .any(|c| c.row == *r && c.via == "clause_edit")
                })
                .collect(),
            before_seq: Some(e.head_before.0),
            k: 20,
            control: None,
        };
        // The audit's probes are embedded and the control's rows read (as the erasure left them)
        // while the text segments are rewritten; no read transaction outlives the rewrite, so
        // none keeps the freeing commit from zeroing a page the erasure replaced.
        let prepare = |i: &super::Inner| {
            let _span = tracing::debug_span!("oubli::Store::prepare_audit").entered();
            Ok((
                self.audit_probes(&request)?,
                ControlRows::read(&request, i)?,
            ))
        };
        let (scrub, probes, control) = if self.opts.scrub_on_purge {
            let (kind, (probes, rows)) = self.erase_text_letting_readers(prepare)?;
            let texts = probes.texts().to_vec();
            // The control's counting, which reads nothing from the store, runs beside the
            // erasure point's commits.
            std::thread::scope(|scope| -> Result<_> {
                let counting = rows.map(|r| scope.spawn(move || r.into_control(&texts)));
                self.reach_erasure_point(&e, kind, delivered)?;
                let control = match counting {
                    Some(h) => Some(
                        h.join()
                            .map_err(|_| Error::Storage("the audit's control panicked".into()))?,
                    ),
                    None => None,
                };
                Ok((Some(kind), probes, control))
            })?
        } else {
            let (probes, rows) = self.read(prepare)?;
            let control = rows.map(|r| r.into_control(probes.texts()));
            (None, probes, control)
        };
        let audit = self.run_audit(&request, probes, control)?;
        let public_key = self.public_key()?;
        let issued_at = self.now();
        let _span = tracing::debug_span!("oubli::Store::purge_receipt").entered();
        let (completion, receipt) = self.write(|b| {
            // The scrub event: the erasure it records is complete (its freeing commit is past).
            let completion = match scrub {
                Some(kind) => {
                    let seq = b.event(crate::log::EventKind::Scrub, "*", vec![], vec![])?;
                    Some((seq, b.head().1, kind.method()))
                }
                None => None,
            };
            let body = receipt_body(
                &e,
                &opening,
                public_key,
                completion,
                audit.summary.clone(),
                issued_at,
            )?;
            let key = b.inner().signing.as_ref().ok_or(Error::ReadOnly)?;
            let receipt = SignedReceipt::sign(body, key)?;
            let document = receipt.to_document()?;
            b.tx.open_table(RECEIPTS)?
                .insert(e.seq, document.as_slice())?;
            b.tx.open_table(INCOMPLETE_PURGES)?.remove(e.seq)?;
            if completion.is_none() {
                if delivered {
                    b.tx.open_table(PENDING_OPENINGS)?.remove(e.seq)?;
                }
                // No scrub event records this transaction: a `receipt` event does, so that it
                // is logged and replicated like every other write.
                super::pending::log_receipt(b, &document)?;
            }
            Ok((completion, receipt))
        })?;
        Ok(PurgeReport {
            seq: e.seq,
            erased: receipt.body.erased.iter().map(|r| r.row).collect(),
            targeted: e.targeted,
            cascade: e.cascade,
            completion_seq: completion.map(|c| c.0),
            audit,
            receipt,
            opening,
        })
    }

    /// The erasure point of purge `e`, once its text segments are rewritten: one transaction that
    /// erases from the vector snapshot and the `keys` table (the scrub's own part) and deletes
    /// the sealed opening if it was `delivered`, then the freeing commit. It appends no event:
    /// the `scrub` event that records it goes with the final receipt (a replica applies both
    /// from that transaction's frame).
    fn reach_erasure_point(
        &self,
        e: &Erasure,
        kind: super::scrub::ScrubKind,
        delivered: bool,
    ) -> Result<()> {
        let _span = tracing::debug_span!("oubli::Store::purge_completion").entered();
        let mut guard = self.inner.write();
        let inner = guard.as_mut().ok_or(Error::Closed)?;
        inner.write(self.now(), self.opts.ann_threshold, |b| {
            super::scrub::scrub_indexes(b, kind)?;
            if delivered {
                b.tx.open_table(PENDING_OPENINGS)?.remove(e.seq)?;
            }
            Ok(())
        })?;
        // The segments' deletes are committed and rewritten already; rows still in the tail
        // stay there (it is never written to the file).
        inner.text.settle(inner.head_seq)?;
        self.finish_erasure(&mut guard, kind)
    }

    /// Every receipt stored in the file, by purge id.
    #[tracing::instrument(name = "oubli::Store::receipts", level = "debug", skip_all)]
    pub fn receipts(&self) -> Result<Vec<(u64, SignedReceipt)>> {
        self.read(|i| {
            let tx = i.db.begin_read()?;
            let mut out = Vec::new();
            if let Some(t) = storage::open_read(&tx, RECEIPTS)? {
                for e in t.iter()? {
                    let (k, v) = e?;
                    out.push((
                        k.value(),
                        SignedReceipt::verify_document(v.value(), Some(&i.public_key))?,
                    ));
                }
            }
            Ok(out)
        })
    }

    /// The stored receipt document of purge `id`, byte for byte.
    pub fn receipt_document(&self, id: u64) -> Result<Vec<u8>> {
        self.read(|i| {
            let tx = i.db.begin_read()?;
            storage::open_read(&tx, RECEIPTS)?
                .and_then(|t| t.get(id).ok().flatten().map(|v| v.value().to_vec()))
                .ok_or_else(|| Error::InvalidArgument(format!("no receipt for purge {id}")))
        })
    }
}

/// The purge closure of `start`: supersede chains both ways and derived rows (notes too),
/// transitively; rows already void are left out. Returns rows in id order, each with how it was
/// reached (`None` for the start rows).
pub(super) fn closure(
    start: &[RowId],
    row: &dyn Fn(RowId) -> Result<Row>,
    children: &dyn Fn(RowId) -> Result<Vec<RowId>>,
) -> Result<Vec<(RowId, Option<CascadeEntry>)>> {
    let mut seen: BTreeMap<RowId, (bool, Option<CascadeEntry>)> = BTreeMap::new();
    let mut queue: VecDeque<(RowId, Option<CascadeEntry>)> =
        start.iter().map(|id| (*id, None)).collect();
    while let Some((id, via)) = queue.pop_front() {
        if seen.contains_key(&id) {
            continue;
        }
        let r = row(id)?;
        seen.insert(id, (r.depth.is_void(), via));
        let link = |to: RowId, how: &str| {
            (
                to,
                Some(CascadeEntry {
                    row: to,
                    via: how.into(),
                    from: id,
                }),
            )
        };
        queue.extend(r.superseded_by.map(|n| link(n, "supersede")));
        queue.extend(r.supersedes.map(|n| link(n, "supersede")));
        for c in children(id)? {
            let how = if row(c)?.kind == Kind::Note {
                "note"
            } else {
                "derived"
            };
            queue.push_back(link(c, how));
        }
    }
    Ok(seen
        .into_iter()
        .filter(|(_, (void, _))| !void)
        .map(|(id, (_, via))| (id, via))
        .collect())
}

/// What the purge transaction did, for the receipt.
pub(super) struct Erasure {
    seq: u64,
    selector: String,
    purge_hash: Hash32,
    head_before: (u64, Hash32),
    targeted: Vec<RowId>,
    cascade: Vec<CascadeEntry>,
    erased: Vec<ErasedContent>,
    selector_salt: [u8; 32],
    namespace: String,
    alias_forms: Vec<String>,
}

/// The purge transaction: resolves `target`, erases its closure, rewrites the rows whose
/// clauses it targets, erases the alias group of a purged entity, and logs one `purge` event.
fn erase(
    b: &mut Batch<'_>,
    target: &Target,
    selector: &str,
    embedder: &dyn crate::embed::Embedder,
    policy: super::targeting::Policy<'_>,
) -> Result<Erasure> {
    let matches = resolve_in(b, target, Scope::NotVoid, Width::All, None, "purge", policy)?.matches;
    // A purge of the entity itself (the query is only a form of an alias group)
    // erases the group: its forms are personal data too.
    let mut alias_groups = Vec::new();
    if let Target::Query { text, namespace } = target {
        let groups = b.alias_groups()?;
        for (g, span) in super::alias::groups_named(text, namespace.as_deref(), &groups) {
            if super::alias::names_only(text, &span) {
                alias_groups.push(g.id);
            }
        }
    }
    let selection = Selection::of_matches(&matches, alias_groups);
    erase_selection(b, selection, selector, embedder, &|_| false)
}

/// What a purge erases before its closure is walked.
pub(super) struct Selection {
    /// Rows the selector matched directly, whole or in part.
    pub(super) targeted: Vec<RowId>,
    /// Rows erased whole.
    pub(super) whole: Vec<RowId>,
    /// Rows of which some clauses are erased: row, clause indexes, planner's rewrite.
    pub(super) edits: Vec<(RowId, Vec<usize>, Option<String>)>,
    /// Alias groups erased with the rows (their forms are committed in the receipt).
    pub(super) alias_groups: Vec<u64>,
}

impl Selection {
    /// The selection of resolved target matches: rows without clauses go whole.
    pub(super) fn of_matches(matches: &[super::TargetMatch], alias_groups: Vec<u64>) -> Self {
        Selection {
            targeted: matches.iter().map(|m| m.id).collect(),
            whole: matches
                .iter()
                .filter(|m| m.clauses.is_empty())
                .map(|m| m.id)
                .collect(),
            edits: matches
                .iter()
                .filter(|m| !m.clauses.is_empty())
                .map(|m| (m.id, m.clauses.clone(), m.rewrite.clone()))
                .collect(),
            alias_groups,
        }
    }
}

/// Erases `sel` and its closure (supersede chains, derived rows, notes) except the rows `spare`
/// keeps, rewrites the rows whose clauses it names, deletes its alias groups, and logs one
/// `purge` event.
pub(super) fn erase_selection(
    b: &mut Batch<'_>,
    sel: Selection,
    selector: &str,
    embedder: &dyn crate::embed::Embedder,
    spare: &dyn Fn(&Row) -> bool,
) -> Result<Erasure> {
    let head_before = b.head();
    let Selection {
        targeted,
        whole,
        edits,
        alias_groups,
    } = sel;
    // Rows derived from an edited row carried the erased clause: they go whole.
    let mut start = whole.clone();
    let mut derived_of_edits = Vec::new();
    for (id, _, _) in &edits {
        for c in b.derived_from(*id)? {
            derived_of_edits.push(CascadeEntry {
                row: c,
                via: "derived".into(),
                from: *id,
            });
            start.push(c);
        }
    }
    let reached = closure(&start, &|id| b.row(id), &|id| b.derived_from(id))?;
    let mut kept = Vec::new();
    for (id, via) in reached {
        if !spare(&b.row(id)?) {
            kept.push((id, via));
        }
    }
    let mut reached = kept;
    for (id, via) in reached.iter_mut() {
        if via.is_none()
            && let Some(d) = derived_of_edits.iter().find(|d| d.row == *id)
        {
            *via = Some(d.clone());
        }
    }
    let mut edited: Vec<(RowId, Vec<usize>, Option<String>)> = Vec::new();
    for e in edits {
        if !reached.iter().any(|(r, _)| *r == e.0) && !spare(&b.row(e.0)?) {
            edited.push(e);
        }
    }
    let mut commitments = Vec::new();
    let mut erased: Vec<(ErasedContent, Transition)> = Vec::new();
    let mut namespaces = BTreeSet::new();
    let mut cascade = Vec::new();
    for (id, via) in &reached {
        let mut row = b.row(*id)?;
        namespaces.insert(row.namespace.clone());
        let (t, payload) = b.erase_row(&mut row)?;
        commitments.push(commitment::content(&payload.salt, &payload.text));
        let content = ErasedContent {
            row: *id,
            text: payload.text,
            salt: payload.salt,
        };
        erased.push((content, t));
        if let Some(c) = via {
            cascade.push(c.clone());
        }
    }
    for (id, clauses, rewrite) in &edited {
        let mut row = b.row(*id)?;
        namespaces.insert(row.namespace.clone());
        let text = row.text.clone().unwrap_or_default();
        let all = crate::clause::clauses(&text);
        let removed: Vec<&str> = clauses
            .iter()
            .filter_map(|&c| all.get(c).map(|c| &text[c.span.clone()]))
            .collect();
        let removed = removed.join(" ");
        let Some(kept) = rewrite
            .clone()
            .or_else(|| crate::clause::rewrite_without(&text, clauses))
        else {
            continue;
        };
        let v = super::ops::embed_checked(embedder, &kept, b.inner().dim)?;
        let rw = b.rewrite_row(&mut row, kept, v)?;
        let salt = b.salt();
        commitments.push(commitment::content(&salt, &removed));
        // The kept text's commitment too: the log commits to every text a row holds.
        commitments.push(rw.commitment);
        let content = ErasedContent {
            row: *id,
            text: removed,
            salt,
        };
        erased.push((content, rw.transition));
        cascade.push(CascadeEntry {
            row: *id,
            via: "clause_edit".into(),
            from: *id,
        });
    }
    let mut alias_forms = Vec::new();
    for g in b.alias_groups()? {
        if alias_groups.contains(&g.id) {
            b.delete_alias_group(g.id)?;
            alias_forms.extend(g.forms.iter().cloned());
        }
    }
    let selector_salt = b.salt();
    commitments.push(commitment::content(&selector_salt, selector));
    for f in &alias_forms {
        commitments.push(commitment::content(&selector_salt, f));
    }
    let namespace = if namespaces.len() == 1 {
        namespaces.into_iter().next().expect("one namespace")
    } else {
        "*".to_owned()
    };

    erased.sort_by_key(|(e, _)| e.row);
    let (erased, transitions): (Vec<ErasedContent>, Vec<Transition>) = erased.into_iter().unzip();
    let seq = b.event(EventKind::Purge, &namespace, transitions, commitments)?;
    Ok(Erasure {
        seq,
        selector: selector.to_owned(),
        purge_hash: b.head().1,
        head_before,
        targeted,
        cascade,
        erased,
        selector_salt,
        namespace,
        alias_forms,
    })
}

/// The data subject's opening of an erasure.
fn opening_of(e: &Erasure) -> Opening {
    Opening {
        format: OPENING_FORMAT.into(),
        purge_id: e.seq,
        selector: e.selector.clone(),
        selector_salt: e.selector_salt,
        rows: e
            .erased
            .iter()
            .map(|x| OpenedRow {
                row: x.row,
                salt: x.salt,
            })
            .collect(),
    }
}

/// The receipt body of an erasure: provisional (no completion point, audit not run) when the
/// erasure commits, final once the purge completes.
fn receipt_body(
    e: &Erasure,
    opening: &Opening,
    store_public_key: [u8; 32],
    completion: Option<(u64, Hash32, &str)>,
    residual_audit: ResidualSummary,
    issued_at: crate::row::Millis,
) -> Result<ReceiptBody> {
    Ok(ReceiptBody {
        format: RECEIPT_FORMAT.into(),
        purge_id: e.seq,
        store_public_key,
        namespace: e.namespace.clone(),
        selector_commitment: commitment::content(&e.selector_salt, &e.selector),
        alias_commitments: {
            let mut c = alias_commitments(&e.selector_salt, &e.selector);
            c.extend(
                e.alias_forms
                    .iter()
                    .map(|f| commitment::content(&e.selector_salt, f)),
            );
            c
        },
        erased: e
            .erased
            .iter()
            .map(|x| ErasedRow {
                row: x.row,
                commitment: commitment::content(&x.salt, &x.text),
                fragments: commitment::fragment_commitments(&x.salt, &x.text),
            })
            .collect(),
        cascade: e.cascade.clone(),
        log: LogPoints {
            seq_before: e.head_before.0,
            head_before: e.head_before.1,
            purge_seq: e.seq,
            purge_hash: e.purge_hash,
        },
        erasure: ErasurePoint {
            completion_seq: completion.map(|c| c.0),
            completion_hash: completion.map(|c| c.1),
            method: completion
                .map_or(ScrubKind::Incremental.method(), |c| c.2)
                .into(),
        },
        residual_audit,
        opening_digest: opening.digest()?,
        canonicalizer_version: CANONICALIZER_VERSION.into(),
        engine_version: crate::ENGINE_VERSION.into(),
        issued_at,
    })
}

/// Exposed for [`super::ops`]'s dry run.
pub(super) fn closure_ids(
    start: &[RowId],
    row: &dyn Fn(RowId) -> Result<Row>,
    children: &dyn Fn(RowId) -> Result<Vec<RowId>>,
) -> Result<Vec<RowId>> {
    Ok(closure(start, row, children)?
        .into_iter()
        .map(|(id, _)| id)
        .collect())
}
