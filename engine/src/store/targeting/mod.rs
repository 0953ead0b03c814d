//! Which rows a call acts on: by id, by natural key, or by query.
//!
//! Query targeting is lexical, canonical and deterministic (no model, no LLM):
//!
//! 1. The query is parsed ([`query`]): typed identifiers (e-mail, handle, IP, MAC, IBAN,
//!    hostname, URL), digit-bearing codes (phone, card, ticket and account numbers, written with
//!    any grouping), name runs, content words, polarity ("does not"), and fan-out words
//!    ("everything about").
//! 2. Candidates come from BM25 over the text and from the match keys of the text index
//!    (canonical codes, transliterations, spelling-variant keys; see [`crate::index::keys`]).
//! 3. Each candidate is verified and scored ([`score`]): every identifier must be present as a
//!    whole (`TXN-12345` never matches `TXN-123456`); a query that names someone only reaches rows
//!    naming them, in any script or spelling, and never a row naming someone else with a shared
//!    name ("Tom Hale" is not "Tom Haley"); coverage is the share of the query's evidence the row
//!    holds; polarity must agree.
//! 4. A call that acts on one row takes the best; one that may fan out, every row of the best
//!    coverage (or naming X, for "everything about X"). Rows covering under half the query never.
//! 5. Within a row of several clauses, the clauses that hold the evidence are the target: a
//!    purge or supersede then rewrites the row without them ([`crate::clause`]).
//!
//! Declared aliases ([`crate::Store::declare_alias`]) widen a query to every form of its group.
//!
//! Every resolution explains itself: [`TargetMatch`] lists what matched, what did not, the
//! clauses hit and why; [`crate::Plan`] lists the candidates rejected and why.

mod candidate;
mod clause_choice;
mod codes;
mod compound;
mod concept_contrast;
mod confidence;
mod consult;
mod foreign_relations;
pub(crate) mod framing;
mod glued_names;
mod lexical_negation;
mod lowercase_names;
pub(crate) mod meaning;
mod named_elsewhere;
mod names;
mod neighbours;
mod other_script;
mod period;
mod possession;
pub(crate) mod query;
mod row_view;
mod run_on;
pub(crate) mod score;
mod slot_match;
mod sphere;
mod supersede_fit;
mod target;
mod value_kind;
mod word_classes;
mod word_match;

use self::candidate::{Candidate, names_someone};
use self::clause_choice::choose_clauses;
use self::query::QueryShape;
use self::row_view::RowView;
use self::{score::RowScore, supersede_fit::drop_unfit_fallbacks};
use super::{Inner, alias};
use crate::error::{Error, NoMatch, Result};
use crate::row::{Row, RowId, validate_field};
pub use confidence::Confidence;
use target::in_scope;
pub(crate) use target::{Lookup, Policy, Resolution, Scope, Width};
pub use target::{Rejected, Target, TargetMatch};

/// Least coverage a row needs to be targeted by a query. Measured and kept at one half: a
/// third would reach narrative requests ("Lev quit swimming, so forget his pool schedule",
/// +8 tuning cases) but let 73 more generated absent-target requests act (the safety probe,
/// `benches/safety_probe`).
pub const MIN_COVERAGE: f64 = 0.5;
/// Candidates the new text of a supersede adds.
const HINT_CANDIDATES: usize = 64;
/// Candidates BM25 supplies to query targeting.
const CANDIDATES: usize = 512;

impl Inner {
    /// Resolves `target` to rows. `hint` is the new text of a supersede, used to rank
    /// candidates and to choose the clause it replaces.
    pub(crate) fn resolve(
        &self,
        target: &Target,
        scope: Scope,
        width: Width,
        hint: Option<&str>,
        lookup: &Lookup<'_>,
    ) -> Result<Resolution> {
        let exact = |id| TargetMatch {
            id,
            coverage: 1.0,
            bm25: 0.0,
            matched: Vec::new(),
            missing: Vec::new(),
            clauses: Vec::new(),
            reasons: Vec::new(),
            rewrite: None,
            confidence: Confidence::High,
        };
        match target {
            Target::Id(id) => {
                let row = (lookup.fetch)(*id)?.ok_or(Error::UnknownRow(*id))?;
                if row.depth.is_void() {
                    return Err(Error::Purged(*id));
                }
                Ok(Resolution {
                    matches: vec![exact(*id)],
                    rejected: Vec::new(),
                    planner: None,
                })
            }
            Target::Key { namespace, key } => {
                validate_field("namespace", namespace)?;
                validate_field("key", key)?;
                let id = (lookup.key_holder)(namespace, key)?.ok_or_else(|| Error::UnknownKey {
                    namespace: namespace.clone(),
                    key: key.clone(),
                })?;
                Ok(Resolution {
                    matches: vec![exact(id)],
                    rejected: Vec::new(),
                    planner: None,
                })
            }
            Target::Query { namespace, text } => {
                let shapes = alias::expansions(text, namespace.as_deref(), lookup.aliases);
                if shapes[0].units() == 0 {
                    return Err(Error::InvalidArgument(format!(
                        "query {text:?} has no words to match"
                    )));
                }
                let hint_shape = hint.map(QueryShape::parse);
                let mut res = self.resolve_query(
                    &shapes,
                    namespace.as_deref(),
                    scope,
                    width,
                    hint_shape.as_ref(),
                    lookup,
                )?;
                // A supersede asked in another script than its new text (see `other_script`).
                if res.matches.is_empty()
                    && lookup.op == "supersede"
                    && let (Some(new), Some(new_shape)) = (hint, &hint_shape)
                    && let Some(by_new) = self.resolve_by_new_text(
                        text,
                        new,
                        new_shape,
                        namespace.as_deref(),
                        scope,
                        width,
                        lookup,
                    )?
                {
                    res = by_new;
                }
                if let Some(planner) = lookup.planner
                    && matches!(lookup.op, "supersede" | "release" | "purge")
                {
                    res = consult::consult(planner, lookup, text, hint, res)?;
                }
                confidence::apply_floor(&mut res, lookup.floor);
                if res.matches.is_empty() {
                    let mut candidates = res.rejected;
                    candidates.truncate(NoMatch::MAX_CANDIDATES);
                    return Err(Error::NoMatch(NoMatch {
                        query: target.describe(),
                        candidates,
                    }));
                }
                Ok(res)
            }
        }
    }

    fn resolve_query(
        &self,
        shapes: &[QueryShape],
        namespace: Option<&str>,
        scope: Scope,
        width: Width,
        hint: Option<&QueryShape>,
        lookup: &Lookup<'_>,
    ) -> Result<Resolution> {
        // Candidates: BM25 over the text, and the canonical match keys.
        let mut bm25: std::collections::BTreeMap<RowId, f32> = std::collections::BTreeMap::new();
        for shape in shapes {
            for (id, s) in self.text.search(&shape.text, CANDIDATES)? {
                let e = bm25.entry(id).or_insert(0.0);
                *e = e.max(s);
            }
            for (id, _) in self.text.lookup_keys(&shape.keys, CANDIDATES)? {
                bm25.entry(id).or_insert(0.0);
            }
        }
        if let Some(h) = hint {
            for (id, _) in self.text.search(&h.text, HINT_CANDIDATES)? {
                bm25.entry(id).or_insert(0.0);
            }
        }
        let mut weak = Vec::new();
        let mut rows = Vec::new();
        // Superseded versions a supersede may follow to their current version.
        let mut replaced = Vec::new();
        for (id, bm) in bm25 {
            let Some(row) = (lookup.fetch)(id)? else {
                continue;
            };
            if width == Width::One
                && scope == Scope::Live
                && row.superseded_by.is_some()
                && row.text.is_some()
                && namespace.is_none_or(|ns| ns == row.namespace)
            {
                replaced.push((row, bm));
                continue;
            }
            if !in_scope(&row, scope)
                || namespace.is_some_and(|ns| ns != row.namespace)
                || row.text.is_none()
            {
                continue;
            }
            rows.push((row, bm));
        }
        let views: Vec<RowView<'_>> = rows
            .iter()
            .map(|(r, _)| RowView::new(r.text.as_deref().unwrap_or_default()))
            .collect();
        let new_view = hint.map(|h| RowView::new(&h.text));
        let shapes: Vec<QueryShape> = shapes
            .iter()
            .map(|q| q.anchored(&views, new_view.as_ref()))
            .collect();
        // The new text's names, as the query reads them and as a name written in lowercase
        // reads ("priya's phone number is ...").
        let hint = hint.map(|h| {
            let mut h = h.with_names_of(&shapes[0]);
            lowercase_names::mark(&mut h, &views, None);
            h
        });
        let hint = hint.as_ref();
        let restated_ids = hint.is_some_and(|h| supersede_fit::restates_identifiers(&shapes[0], h));
        let mut scored = Vec::new();
        let mut rejected = Vec::new();
        // Rows about the query's named subject (no veto), for a choice by meaning.
        let mut about_subject: Vec<(Row, RowScore, f32)> = Vec::new();
        // Rows naming the subject that a veto keeps from being chosen (about one of its
        // relations, say): rivals a choice by meaning must stand out from.
        let mut rivals: Vec<&str> = Vec::new();
        let mut bests: Vec<RowScore> = views.iter().map(|v| score::best(&shapes, v)).collect();
        named_elsewhere::veto_partial_mentions(&mut bests);
        named_elsewhere::veto_masculine_genitives(&shapes[0], &views, &mut bests);
        for (((row, bm), view), best) in rows.iter().zip(&views).zip(bests) {
            let (id, bm) = (row.id, *bm);
            if let Some(reason) = &best.veto {
                if best.names_subject {
                    rivals.push(row.text.as_deref().unwrap_or_default());
                }
                rejected.push(Rejected {
                    id,
                    coverage: best.coverage,
                    reason: reason.clone(),
                });
                continue;
            }
            // Never a sibling of the attribute a supersede's texts agree on, by any evidence.
            let sibling = hint.and_then(|h| supersede_fit::sibling_of_agreed(&shapes[0], h, view));
            if let Some(reason) = sibling.filter(|_| width == Width::One) {
                let coverage = best.coverage;
                rejected.push(Rejected {
                    id,
                    coverage,
                    reason,
                });
                continue;
            }
            if best.names_subject {
                about_subject.push((row.clone(), best.clone(), bm));
            }
            // "Everything about X" reaches every row naming X, and identifiers decide: a purge
            // or release of "Smirnov's IBAN DE76 ..." reaches every row holding that IBAN,
            // however little else of the query it holds.
            let fan_to_names =
                shapes[0].fan_out && width == Width::All && !shapes[0].names.is_empty();
            let by_identifier = width == Width::All && shapes[0].has_strong_identifier();
            // The row must hold the request's attribute, unless the request is subject-wide
            // ("everything about X") or an identifier decides: "Kenta's salary" never reaches
            // "Kenta lives in Osaka".
            // For a supersede, the new text restates the attribute: words of it the row holds
            // are evidence too ("Sofia Mela is now head chef" for "who leads the kitchen").
            // Not when the query and the new text agree on an attribute word the row lacks
            // ("Tom's number plate" / "Tom's licence plate is now ..." over "Tom's driver's
            // licence number"): the new text's other words then name another attribute.
            let attribute_ok = best.holds_attribute()
                || fan_to_names
                || by_identifier
                || (width == Width::One
                    && hint.is_some_and(|h| {
                        supersede_fit::hint_attribute_hits(h, view) > 0
                            && !supersede_fit::agreed_attribute_missing(&shapes[0], h, view)
                    }));
            if (best.coverage < MIN_COVERAGE && !fan_to_names && !by_identifier) || !attribute_ok {
                // Only a row that holds some of the query's attribute itself, or talks about
                // the same attribute slot, may be chosen by relatedness: a row that shares
                // only the subject's name (or nothing) is no evidence.
                if let Some(h) = hint.filter(|_| {
                    best.attribute_hits > 0 || supersede_fit::shares_slot(&shapes[0], view)
                }) {
                    let rel = supersede_fit::relatedness(&shapes[0], h, view);
                    weak.push((row.clone(), best.clone(), bm, rel));
                }
                rejected.push(Rejected {
                    id,
                    coverage: best.coverage,
                    reason: if attribute_ok {
                        format!(
                            "covers {:.2} of the query, below {MIN_COVERAGE}",
                            best.coverage
                        )
                    } else {
                        format!(
                            "holds none of the attribute the query asks for ({})",
                            best.missing.join(", ")
                        )
                    },
                });
                continue;
            }
            let hint_overlap = hint.map_or(0, |h| supersede_fit::relatedness(&shapes[0], h, view));
            let hint_pairs = hint.map_or(0, |h| supersede_fit::shared_pairs(&h.text, view.text));
            let clauses = choose_clauses(&best, &shapes[0], view, hint, restated_ids);
            scored.push(Candidate {
                row: row.clone(),
                score: best,
                bm25: bm,
                hint_overlap,
                hint_pairs,
                clauses,
                by_fallback: false,
            });
        }
        // Polarity and exact names break ties between rows of equal coverage: "is not on the
        // board" prefers the negative row, "York" the row that does not say "New York".
        // Not when identifiers decide: every row holding them goes.
        let by_identifier = width == Width::All && shapes[0].has_strong_identifier();
        // An identifier shared by several people ("Chai's place on booking KX82PL", "Mehmet's
        // coverage under GP-7712": some rows holding it name someone else) decides only among
        // the rows about the subject the request names, when some are. An identifier only the
        // subject's rows and rows naming nobody hold ("MRN 2467493 was flagged") is the
        // subject's own and reaches them all, as does a request for everything about its
        // subject.
        let for_someone_else = |c: &Candidate| {
            !c.score.names_subject
                && names_someone(&RowView::new(c.row.text.as_deref().unwrap_or_default()))
        };
        if by_identifier
            && !shapes[0].fan_out
            && !shapes[0].names.is_empty()
            && scored.iter().any(|c| c.score.names_subject)
            && scored.iter().any(for_someone_else)
        {
            scored.retain(|c| {
                let elsewhere = !c.score.names_subject;
                if elsewhere {
                    rejected.push(Rejected {
                        id: c.row.id,
                        coverage: c.score.coverage,
                        reason: "holds the identifier, but for someone other than the query's \
                                 subject"
                            .into(),
                    });
                }
                !elsewhere
            });
        }
        if !by_identifier {
            candidate::drop_worse_of_tied(&mut scored, &mut rejected);
        }
        scored.sort_by(|a, b| {
            b.score
                .coverage
                .total_cmp(&a.score.coverage)
                .then(b.score.polarity_ok.cmp(&a.score.polarity_ok))
                .then(b.hint_overlap.cmp(&a.hint_overlap))
                .then(b.hint_pairs.cmp(&a.hint_pairs))
                .then(b.row.created_seq.cmp(&a.row.created_seq))
                .then(b.bm25.total_cmp(&a.bm25))
                .then(b.row.id.cmp(&a.row.id))
        });
        // A supersede whose query matches an older version better than any live row ("Luca's
        // password manager" after "Luca's password manager is 1Password." was superseded by
        // "Luca moved to KeePassXC.") replaces that version's current one: the latest state of
        // the fact, so a chain A -> B -> A ends at A.
        if width == Width::One && scored.iter().all(|c| c.score.coverage < 1.0) {
            let live_best = scored.first().map_or(0.0, |c| c.score.coverage);
            let mut best_old: Option<(f64, &Row)> = None;
            for (old, _) in &replaced {
                let view = RowView::new(old.text.as_deref().unwrap_or_default());
                let sc = score::score(&shapes[0], &view);
                if sc.veto.is_none()
                    && sc.holds_attribute()
                    && sc.coverage >= MIN_COVERAGE
                    && sc.coverage > live_best
                    && best_old.is_none_or(|(c, _)| sc.coverage > c)
                {
                    best_old = Some((sc.coverage, old));
                }
            }
            if let Some((coverage, old)) = best_old
                && let Some(head) = target::current_version(old, lookup)?
                && !scored.iter().any(|c| c.row.id == head.id)
                && head.text.is_some()
            {
                let text = head.text.clone().unwrap_or_default();
                let view = RowView::new(&text);
                let mut sc = score::score(&shapes[0], &view);
                sc.coverage = coverage;
                sc.veto = None;
                sc.reasons.push(format!(
                    "current version of row {}, which the query matches",
                    old.id
                ));
                let clauses = choose_clauses(&sc, &shapes[0], &view, hint, restated_ids);
                scored.insert(
                    0,
                    Candidate {
                        row: head,
                        score: sc,
                        bm25: 0.0,
                        hint_overlap: 0,
                        hint_pairs: 0,
                        clauses,
                        by_fallback: false,
                    },
                );
            }
        }
        // A supersede's new value replaces a value of its kind: a row holding only values of
        // other kinds (an IBAN for a new overdraft limit) is not it ([`value_kind::other_kind`]).
        let new_kinds = match hint {
            Some(h) if width == Width::One => value_kind::value_kinds(&RowView::new(&h.text)),
            _ => Default::default(),
        };
        supersede_fit::drop_other_kinds(&mut scored, &mut rejected, &new_kinds);
        concept_contrast::drop_other_concepts(&shapes[0], None, &mut scored, &mut rejected);
        // The request and its new text name the same attribute and no row about the subject
        // holds it: nothing is chosen for it by kind, meaning or relatedness below.
        let absent_attribute = match hint {
            Some(h) if scored.is_empty() && width == Width::One => {
                fn view(r: &Row) -> RowView<'_> {
                    RowView::new(r.text.as_deref().unwrap_or_default())
                }
                let pool: Vec<RowView<'_>> = if shapes[0].names.is_empty() {
                    rows.iter().map(|(r, _)| view(r)).collect()
                } else {
                    about_subject.iter().map(|(r, _, _)| view(r)).collect()
                };
                supersede_fit::named_attribute_absent(&shapes[0], h, &pool)
            }
            _ => None,
        };
        if let Some(word) = &absent_attribute {
            for r in &mut rejected {
                r.reason.push_str(&format!(
                    "; the query and the new text both name {word:?}, which no row about the subject holds"
                ));
            }
        }
        let words_chose = !scored.is_empty();
        // A row a fallback below chose, with the clauses the call acts on.
        let chosen = |row, score, bm, rel| {
            Candidate::chosen(row, score, bm, rel, &shapes[0], hint, restated_ids)
        };
        // A supersede whose words reach no row, of a subject the store holds rows about: the
        // row holding a value of a kind the new text states that names one attribute on its
        // own, a phone number, an e-mail or street address, an IBAN ([`value_kind`]).
        if scored.is_empty()
            && width == Width::One
            && absent_attribute.is_none()
            && let Some(h) = hint
        {
            let pool: Vec<RowView<'_>> = about_subject
                .iter()
                .map(|(r, _, _)| RowView::new(r.text.as_deref().unwrap_or_default()))
                .collect();
            let refs: Vec<&RowView<'_>> = pool.iter().collect();
            if let Some(i) = value_kind::choose(&shapes[0], h, &refs) {
                let (row, mut score, bm) = about_subject[i].clone();
                rejected.retain(|r| r.id != row.id);
                score
                    .reasons
                    .push("holds a value of the kind the new text states".into());
                scored.push(chosen(row, score, bm, 0));
            }
        }
        // A supersede whose words reach no row, of a subject the store holds several rows
        // about: the row closest in meaning to the query and the new text, when one stands
        // out ([`meaning`]).
        if scored.is_empty()
            && width == Width::One
            && absent_attribute.is_none()
            && let (Some(h), Some(m)) = (hint, lookup.meaning)
        {
            let pool: Vec<(RowId, &str)> = about_subject
                .iter()
                .map(|(r, _, _)| (r.id, r.text.as_deref().unwrap_or_default()))
                .collect();
            let strip = |t: &str| meaning::without_names(&shapes[0], t);
            match m.choose(&shapes[0].text, &h.text, &pool, &rivals, &strip)? {
                Err(sims) => meaning::explain_no_choice(&mut rejected, &pool, &sims),
                Ok(choice) => {
                    let (row, mut score, bm) = about_subject[choice.index].clone();
                    rejected.retain(|r| r.id != row.id);
                    score.reasons.push(format!(
                    "closest in meaning to the query and the new text ({:.2}, {:.2} ahead of the next row)",
                    choice.similarity, choice.margin
                ));
                    scored.push(chosen(row, score, bm, 0));
                }
            }
        }
        // A supersede whose query no row covers ("Kenta's home city" for "Kenta resides in a
        // flat in Osaka") replaces the row that relates most to its query and new text, when
        // exactly one does and the query's names (if any) are in it.
        if scored.is_empty() && width == Width::One && absent_attribute.is_none() {
            // A name the request did not read as one, which the new text states as its
            // possessor ("さくら's medication is ..."), is the subject: only its rows relate.
            if let Some(who) = hint.and_then(|h| possession::unread_possessor(&shapes[0], &h.text))
            {
                weak.retain(|w| w.0.text.as_deref().is_some_and(|t| t.contains(who)));
            }
            let top = weak.iter().map(|w| w.3).max().unwrap_or(0);
            let at_top: Vec<_> = weak.iter().filter(|w| w.3 == top).collect();
            if top >= 1 && at_top.len() == 1 {
                let (row, mut score, bm, rel) = at_top[0].clone();
                rejected.retain(|r| r.id != row.id);
                score
                    .reasons
                    .push(format!("relates to the query and the new text ({rel})"));
                scored.push(chosen(row, score, bm, rel));
            }
        }
        // Nor is a row chosen by meaning or relatedness.
        supersede_fit::drop_other_kinds(&mut scored, &mut rejected, &new_kinds);
        if !words_chose && let Some(h) = hint {
            drop_unfit_fallbacks(&shapes[0], h, &new_kinds, &mut scored, &mut rejected);
        }
        if width == Width::One
            && let Some(h) = hint
        {
            supersede_fit::drop_unlike_the_new_text(&shapes[0], h, &mut scored, &mut rejected);
        }
        // A single-row call never guesses: when the best rows tie on every piece of evidence
        // (coverage, polarity, relatedness to the new text), recency is no reason to pick one,
        // and the call matches nothing, with the tied rows as candidates.
        if width == Width::One && scored.len() >= 2 {
            let mut meaning_note: Option<Vec<f64>> = None;
            let key = |c: &Candidate| {
                (
                    c.score.coverage,
                    c.score.polarity_ok,
                    c.hint_overlap,
                    c.hint_pairs,
                )
            };
            let top = key(&scored[0]);
            let tied: Vec<RowId> = scored
                .iter()
                .filter(|c| key(c) == top)
                .map(|c| c.row.id)
                .collect();
            // Meaning may still tell tied rows apart (a supersede only).
            let by_meaning = match (hint, lookup.meaning) {
                (Some(h), Some(m)) if tied.len() >= 2 => {
                    let pool: Vec<(RowId, &str)> = scored
                        .iter()
                        .filter(|c| tied.contains(&c.row.id))
                        .map(|c| (c.row.id, c.row.text.as_deref().unwrap_or_default()))
                        .collect();
                    let strip = |t: &str| meaning::without_names(&shapes[0], t);
                    match m.choose(&shapes[0].text, &h.text, &pool, &[], &strip)? {
                        Ok(c) => Some((tied[c.index], c)),
                        Err(sims) => {
                            meaning_note = Some(sims);
                            None
                        }
                    }
                }
                _ => None,
            };
            if let Some((chosen, choice)) = by_meaning {
                let mut kept = Vec::new();
                for mut c in scored.drain(..) {
                    if c.row.id == chosen {
                        c.score.reasons.push(format!(
                            "ties with other rows on the words; closest in meaning to the query and the new text ({:.2}, {:.2} ahead)",
                            choice.similarity, choice.margin
                        ));
                        kept.push(c);
                    } else {
                        rejected.push(Rejected {
                            id: c.row.id,
                            coverage: c.score.coverage,
                            reason: if tied.contains(&c.row.id) {
                                format!("ties on the words with #{chosen}, further in meaning")
                            } else {
                                "a better match was targeted".into()
                            },
                        });
                    }
                }
                scored = kept;
            } else if tied.len() >= 2 {
                let mut meaning_of = std::collections::BTreeMap::new();
                if let Some(sims) = &meaning_note {
                    meaning_of.extend(tied.iter().copied().zip(sims.iter().copied()));
                }
                for c in scored.drain(..) {
                    let reason = if let Some(sim) = meaning_of.get(&c.row.id) {
                        format!(
                            "ties with other rows on the evidence, and in meaning ({sim:.2}, none {} ahead): ambiguous, nothing chosen",
                            meaning::MIN_MARGIN
                        )
                    } else if tied.contains(&c.row.id) {
                        let others: Vec<String> = tied
                            .iter()
                            .filter(|&&t| t != c.row.id)
                            .map(|t| format!("#{t}"))
                            .collect();
                        format!(
                            "ties with {} on the evidence: ambiguous, nothing chosen",
                            others.join(", ")
                        )
                    } else {
                        "a better match was ambiguous".into()
                    };
                    rejected.push(Rejected {
                        id: c.row.id,
                        coverage: c.score.coverage,
                        reason,
                    });
                }
            }
        }
        let fan = shapes[0].fan_out && width == Width::All;
        let keep = match width {
            Width::One => scored.len().min(1),
            Width::All if fan || shapes[0].has_strong_identifier() => scored.len(),
            Width::All => {
                let best = scored.first().map(|c| c.score.coverage);
                scored
                    .iter()
                    .take_while(|c| Some(c.score.coverage) == best)
                    .count()
            }
        };
        for c in scored.drain(keep..) {
            rejected.push(Rejected {
                id: c.row.id,
                coverage: c.score.coverage,
                reason: "a better match was targeted".into(),
            });
        }
        let matches = scored.into_iter().map(Candidate::into_match).collect();
        rejected.sort_by(|a, b| b.coverage.total_cmp(&a.coverage).then(a.id.cmp(&b.id)));
        Ok(Resolution {
            matches,
            rejected,
            planner: None,
        })
    }
}
