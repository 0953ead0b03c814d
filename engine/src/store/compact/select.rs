//! Selection: the rows a scope reads, the answer-determining sources reachable from them, the
//! candidate lines in order of preference, and the note assembled from what fits.

use std::collections::BTreeSet;

use redb::ReadableTable;

use super::certificate::certify;
use super::note::{LineKind, Note, NoteLine, digest};
use super::pack::{Candidate, pack};
use super::text::{derived_label, line};
use super::{Built, CompactOptions, CompactScope, DEFAULT_QUERY_K};
use crate::error::{Error, Result};
use crate::metadata::{Condition, Op, Scalar};
use crate::row::{Kind, Row, RowId};
use crate::storage::{self, ROWS};
use crate::store::Store;
use crate::store::provenance::{Reader, live_head};
use crate::store::recall::{Legs, MAX_K, RecallQuery};

impl Store {
    pub(super) fn build_note(&self, scope: &CompactScope, opts: &CompactOptions) -> Result<Built> {
        let query_hits = match &scope.query {
            Some(q) => {
                let k = if scope.query_k == 0 {
                    DEFAULT_QUERY_K
                } else {
                    scope.query_k.min(MAX_K)
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
                    && scope.filters.iter().all(|(k, v)| {
                        Condition::new(k.clone(), Op::Eq(Scalar::Str(v.clone())))
                            .holds(&row.metadata)
                    })
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
            let certificate = certify(&r, &rows, &kept_set)?;
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
                certificate,
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
}
