//! The residual audit: after a purge, probe the store more broadly than the purge predicate did.
//!
//! An audit that reuses the deletion's own predicate is circular (seeds/003). This one builds
//! probes from the erased content itself and from the selector: the texts verbatim and perturbed
//! (case, separators, diacritics, full width), paraphrase templates (direct, question, cloze,
//! contextual), and the object alone (identifier-like words). It runs every probe through every
//! recall channel (BM25 only, vectors only, fused, fused with submerged and expired rows, and as of
//! the moment before the purge) at k of at least the production k, and classifies each hit
//! against each erased text:
//! - *gold-equivalent*: restates the erased row (all its objects, most of its other words);
//! - *reconstruction*: shares its objects and at least half its other words;
//! - *object only*: shares its objects but little else (a neighbour, not the fact).
//!
//! Optionally it compares each probe's per-leg top-k ids and scores with a control built from the
//! current rows' stored texts and vectors, i.e. one that never held the erased closure: the BM25
//! scores of an index of those texts ([`ControlText`]) and an exact vector scan (nothing is
//! embedded, no store is built).

use std::collections::{BTreeSet, HashMap};

use oubli_audit::ResidualSummary;
use serde::{Deserialize, Serialize};
use unicode_normalization::UnicodeNormalization;

use super::history::AsOf;
use super::recall::{Legs, RecallQuery};
use super::{Inner, Store};
use crate::error::Result;
use crate::index::exact::ExactMatrix;
use crate::index::text_control::ControlText;
use crate::row::RowId;
use crate::storage::{self, PAYLOADS, Payload, VECTORS};
use crate::text;

/// Live rows above which the audit skips the control store unless asked.
pub const CONTROL_MAX_ROWS: usize = 20_000;

/// What to audit.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditRequest {
    /// The erased contents (probes are derived from them).
    pub texts: Vec<String>,
    /// The selector the purge was given.
    pub selector: String,
    /// The erased row ids (must never come back).
    pub erased: Vec<RowId>,
    /// Probe the store as of this seq too (the head just before the purge).
    pub before_seq: Option<u64>,
    /// Hits per probe and channel (at least 10).
    pub k: usize,
    /// Compare with a control store: `None` compares when the store holds at most
    /// [`CONTROL_MAX_ROWS`](crate::CONTROL_MAX_ROWS) rows.
    pub control: Option<bool>,
}

/// How a hit relates to an erased text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HitClass {
    /// Restates the erased row.
    GoldEquivalent,
    /// Shares its objects and at least half its other words.
    Reconstruction,
    /// Shares its objects only.
    ObjectOnly,
    /// An erased row id came back.
    ErasedRow,
}

/// One notable hit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    /// The probe text.
    pub probe: String,
    /// The channel.
    pub channel: String,
    /// The row hit.
    pub row: RowId,
    /// Its class.
    pub class: HitClass,
}

/// The audit's result: the summary a receipt carries, and the findings behind it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResidualAudit {
    /// Counts, as signed into the receipt.
    pub summary: ResidualSummary,
    /// Every classified hit.
    pub findings: Vec<Finding>,
}

const CHANNELS: [&str; 5] = [
    "bm25",
    "vector",
    "fused",
    "fused_all_depths",
    "as_of_before",
];

/// Words that carry an identifier or a value: containing a digit, `@`, or internal punctuation
/// between alphanumerics ("TXN-12345", "a.b@c.com", "+49 30").
fn object_words(t: &str) -> Vec<String> {
    let mut out = Vec::new();
    for w in t.split_whitespace() {
        let w = w.trim_matches(|c: char| !c.is_alphanumeric());
        let has_digit = w.chars().any(|c| c.is_numeric());
        // Identifier punctuation between alphanumerics; apostrophes are possessives, not ids.
        let inner_punct = w.contains('@')
            || w.char_indices()
                .any(|(i, c)| "._-/:+#".contains(c) && i > 0 && i + c.len_utf8() < w.len());
        if !w.is_empty() && (has_digit || inner_punct) {
            out.push(w.to_owned());
        }
    }
    out
}

fn word_set(t: &str) -> BTreeSet<String> {
    text::tokens(t).into_iter().collect()
}

/// Classifies `hit` against the erased text `erased`.
pub fn classify(erased: &str, hit: &str) -> Option<HitClass> {
    ErasedWords::of(erased).classify(&word_set(hit))
}

/// An erased text's words as [`classify`] compares them: its objects (the words of its
/// identifier-like words) and its other content words. Computed once per erased text, so an
/// audit's cost per hit is the hit's own words.
struct ErasedWords {
    objects: BTreeSet<String>,
    others: BTreeSet<String>,
}

impl ErasedWords {
    fn of(erased: &str) -> Self {
        let objects: BTreeSet<String> = object_words(erased)
            .iter()
            .flat_map(|w| text::tokens(w))
            .collect();
        let others: BTreeSet<String> = text::content_tokens(erased)
            .into_iter()
            .filter(|w| !objects.contains(w))
            .collect();
        ErasedWords { objects, others }
    }

    /// The class of a hit whose words are `hit_words` ([`word_set`] of its text).
    fn classify(&self, hit_words: &BTreeSet<String>) -> Option<HitClass> {
        let share = |set: &BTreeSet<String>| {
            if set.is_empty() {
                1.0
            } else {
                set.iter().filter(|w| hit_words.contains(*w)).count() as f64 / set.len() as f64
            }
        };
        let (obj, oth) = (share(&self.objects), share(&self.others));
        if !self.objects.is_empty() {
            if obj < 1.0 {
                return None;
            }
            return Some(if oth >= 0.8 {
                HitClass::GoldEquivalent
            } else if oth >= 0.5 {
                HitClass::Reconstruction
            } else {
                HitClass::ObjectOnly
            });
        }
        if oth >= 0.8 {
            Some(HitClass::GoldEquivalent)
        } else if oth >= 0.6 {
            Some(HitClass::Reconstruction)
        } else {
            None
        }
    }
}

fn strip_diacritics(t: &str) -> String {
    t.nfkd()
        .filter(|c| !unicode_normalization::char::is_combining_mark(*c))
        .collect()
}

fn full_width(t: &str) -> String {
    t.chars()
        .map(|c| match c {
            '!'..='~' => char::from_u32(c as u32 - 0x21 + 0xFF01).unwrap_or(c),
            c => c,
        })
        .collect()
}

/// The probes for one erased text.
pub fn probes(erased: &str) -> Vec<String> {
    let mut out = vec![
        erased.to_owned(),
        erased.to_uppercase(),
        erased
            .chars()
            .map(|c| if "-._/".contains(c) { ' ' } else { c })
            .collect(),
        strip_diacritics(erased),
        full_width(erased),
    ];
    let content = text::content_tokens(erased);
    let subject: Vec<String> = content.iter().take(3).cloned().collect();
    if !subject.is_empty() {
        out.push(format!("What is {}?", subject.join(" ")));
        out.push(format!(
            "Tell me everything you know about {}",
            subject.join(" ")
        ));
    }
    if let Some(last) = content.last() {
        out.push(erased.replacen(last.as_str(), "___", 1));
    }
    out.push(format!(
        "Earlier in the conversation you mentioned: {erased}"
    ));
    out.extend(object_words(erased));
    let mut seen = BTreeSet::new();
    out.retain(|p| !p.trim().is_empty() && seen.insert(p.clone()));
    out
}

impl Store {
    /// Runs the residual audit: probes built from the erased content (verbatim, perturbed,
    /// paraphrased, the object alone) and the selector, through every recall channel (BM25,
    /// vectors, fused, all depths, as of before the purge) at k of at least 10, each hit classified
    /// as gold-equivalent, reconstruction, object-only or an erased row; optionally compared with
    /// a control store built from the current rows. See `docs/receipts.md`.
    pub fn residual_audit(&self, req: &AuditRequest) -> Result<ResidualAudit> {
        let probes = self.audit_probes(req)?;
        let control = self.read(|i| Control::for_request(req, i, &probes.texts))?;
        self.run_audit(req, probes, control)
    }

    /// The audit's probes and their query vectors, each probe embedded once: the audit's
    /// embedder calls grow with the probes, never with the rows. Needs no lock, so a purge
    /// computes them while its text segments are rewritten.
    pub(super) fn audit_probes(&self, req: &AuditRequest) -> Result<Probes> {
        let mut texts: Vec<String> = req.texts.iter().flat_map(|t| probes(t)).collect();
        if !req.selector.trim().is_empty() {
            texts.push(req.selector.clone());
        }
        let mut seen = BTreeSet::new();
        texts.retain(|p| seen.insert(p.clone()));
        let _span = tracing::debug_span!("oubli::audit::probe_vectors").entered();
        let vectors = self.probe_vectors(&texts)?;
        Ok(Probes { texts, vectors })
    }

    /// The audit proper, from its probes and, when it compares, its control: the probes'
    /// searches, the classification of their hits and the comparison with the control. Its span
    /// (`oubli::Store::residual_audit`) leaves out the preparation ([`Self::audit_probes`],
    /// [`Control::for_request`]), which a purge runs while its text segments are rewritten.
    #[tracing::instrument(name = "oubli::Store::residual_audit", level = "debug", skip_all)]
    pub(super) fn run_audit(
        &self,
        req: &AuditRequest,
        probes: Probes,
        control: Option<Control>,
    ) -> Result<ResidualAudit> {
        let k = req.k.max(10);
        let Probes {
            texts: all_probes,
            vectors,
        } = probes;
        let erased: BTreeSet<RowId> = req.erased.iter().copied().collect();
        let erased_words: Vec<ErasedWords> = req.texts.iter().map(|t| ErasedWords::of(t)).collect();
        // A row comes back from many probes and channels: classify each text once. Keyed by
        // row id with the text it was classified on (a row seen as of before the purge may
        // read differently from its current version).
        let mut classes: HashMap<RowId, (String, Option<HitClass>)> = HashMap::new();
        let mut findings = Vec::new();
        let mut s = ResidualSummary {
            k: k as u64,
            probes: all_probes.len() as u64,
            channels: CHANNELS.iter().map(|c| c.to_string()).collect(),
            ..Default::default()
        };
        // Every probe through every channel: independent reads, run on several threads; the
        // hits are then classified in probe and channel order, as one thread would.
        let searches: Vec<(&String, &Option<Vec<f32>>, &str)> = all_probes
            .iter()
            .zip(&vectors)
            .flat_map(|(probe, vector)| CHANNELS.iter().map(move |c| (probe, vector, *c)))
            .collect();
        let search_span = tracing::debug_span!("oubli::audit::searches").entered();
        let results = crate::parallel::map_costly(&searches, |&(probe, vector, channel)| {
            let base = with_vector(RecallQuery::new(probe.clone()).k(k), vector);
            let q = match channel {
                "bm25" => base.legs(Legs::Lexical),
                "vector" => base.legs(Legs::Vector),
                "fused" => base,
                "fused_all_depths" => base.include_submerged(true).include_expired(true),
                _ => match req.before_seq {
                    Some(seq) => base.include_submerged(true).as_of(AsOf::Seq(seq)),
                    None => return Ok(None),
                },
            };
            match self.recall(&q) {
                Ok(h) => Ok(Some(h)),
                // A perturbed probe can be empty of words for one channel; not a finding.
                Err(crate::Error::EmptyText) => Ok(None),
                Err(e) => Err(e),
            }
        });
        drop(search_span);
        for (&(probe, _, channel), hits) in searches.iter().zip(results) {
            let Some(hits) = hits? else { continue };
            for h in hits {
                let class = if erased.contains(&h.row.id) {
                    Some(HitClass::ErasedRow)
                } else {
                    let t = h.row.text.as_deref().unwrap_or("");
                    match classes.get(&h.row.id) {
                        Some((seen, class)) if seen == t => *class,
                        _ => {
                            let words = word_set(t);
                            let class = erased_words
                                .iter()
                                .filter_map(|e| e.classify(&words))
                                .min_by_key(|c| *c as u8);
                            classes.insert(h.row.id, (t.to_owned(), class));
                            class
                        }
                    }
                };
                if let Some(class) = class {
                    match class {
                        HitClass::GoldEquivalent => s.hits_gold += 1,
                        HitClass::Reconstruction => s.hits_reconstruction += 1,
                        HitClass::ObjectOnly => s.hits_object_only += 1,
                        HitClass::ErasedRow => s.erased_returned += 1,
                    }
                    findings.push(Finding {
                        probe: probe.clone(),
                        channel: channel.into(),
                        row: h.row.id,
                        class,
                    });
                }
            }
        }
        if let Some(control) = control {
            let _span = tracing::debug_span!("oubli::audit::compare_with_control").entered();
            s.control_compared = true;
            s.control_mismatches = self.compare_with_control(&control, &all_probes, &vectors, k)?;
        }
        s.clean = s.hits_gold == 0
            && s.hits_reconstruction == 0
            && s.erased_returned == 0
            && s.control_mismatches == 0;
        Ok(ResidualAudit {
            summary: s,
            findings,
        })
    }

    /// Compares each probe's per-leg top-k (ids and scores) with a control built from the
    /// current rows, i.e. one that never held the erased closure, and counts the probes and legs
    /// that differ:
    /// - BM25: the store's text index against the scores an index of the current rows' texts
    ///   would give ([`ControlText`], same analyzer and scoring). A deleted document that still
    ///   weighs on the statistics (document count, average length, document frequencies) or an
    ///   erased row that still matches changes the scores or the ids.
    /// - vectors: the store's vector index (exact tail and approximate snapshot, re-scored with
    ///   the stored vectors) against an exact scan of the stored vectors.
    ///
    /// Both legs hold every row whatever its depth, so the control needs no depths. Built from
    /// stored texts and vectors: nothing is embedded, and no store, log or file is made.
    fn compare_with_control(
        &self,
        control: &Control,
        probes: &[String],
        vectors: &[Option<Vec<f32>>],
        k: usize,
    ) -> Result<u64> {
        let Control {
            dim,
            vectors: control_vectors,
            text: control,
        } = control;
        let dim = *dim;
        let key = |hits: Vec<(RowId, f32)>| -> Vec<(RowId, i64)> {
            let mut v: Vec<(RowId, i64)> = hits
                .into_iter()
                .map(|(id, score)| (id, (score as f64 * 1e4).round() as i64))
                .collect();
            v.sort();
            v
        };
        // Each probe's comparison is independent of the others': several threads, summed.
        let pairs: Vec<(&String, &Option<Vec<f32>>)> = probes.iter().zip(vectors).collect();
        let per_probe = crate::parallel::map_costly(&pairs, |&(p, vector)| -> Result<u64> {
            let mut mismatches = 0;
            let ours = self.read(|i| i.text.search(p, k))?;
            if key(ours) != key(control.search(p, k)) {
                mismatches += 1;
            }
            let Some(v) = vector else {
                return Ok(mismatches);
            };
            let q = crate::embed::check_vector(v, dim)?;
            let ours = self.read(|i| {
                let tx = i.db.begin_read()?;
                let vec_t = storage::open_read(&tx, VECTORS)?;
                let stored = |id: RowId| storage::read_vector(vec_t.as_ref(), id, dim);
                i.vectors.search(&q, k, &stored)
            })?;
            if key(ours) != key(control_vectors.top(&q, k)) {
                mismatches += 1;
            }
            Ok(mismatches)
        });
        per_probe.into_iter().sum()
    }
}

impl Store {
    /// The query vector of each probe, embedded once: `None` for a probe recall rejects before
    /// embedding (no words), which then fails in recall exactly as it would without a vector.
    fn probe_vectors(&self, probes: &[String]) -> Result<Vec<Option<Vec<f32>>>> {
        // The embedder's output as is: recall checks and normalizes it, exactly as it does the
        // vector it embeds itself.
        probes
            .iter()
            .map(|p| {
                if crate::row::validate_text(p).is_err() {
                    return Ok(None);
                }
                self.opts.embedder.embed(p).map(Some)
            })
            .collect()
    }
}

/// `q` with the probe's precomputed vector, when it has one.
fn with_vector(q: RecallQuery, vector: &Option<Vec<f32>>) -> RecallQuery {
    match vector {
        Some(v) => q.vector(v.clone()),
        None => q,
    }
}

/// The audit's probes: the texts and, for each, its query vector (`None` for a probe recall
/// rejects before embedding).
pub(super) struct Probes {
    texts: Vec<String>,
    vectors: Vec<Option<Vec<f32>>>,
}

impl Probes {
    /// The probe texts.
    pub(super) fn texts(&self) -> &[String] {
        &self.texts
    }
}

/// The audit's control: the current rows' stored vectors, and their texts counted for BM25 over
/// the probes' terms, from the rows as they are once the erasure committed (it reads the rows,
/// not the indexes).
pub(super) struct Control {
    dim: usize,
    vectors: StoredVectors,
    text: ControlText,
}

/// The stored vectors of the rows that have one, scanned exactly: each score is bit-identical
/// to [`crate::embed::dot`] of the query and the stored vector.
struct StoredVectors {
    /// The rows, in id order: row `i` of `matrix` is `ids[i]`'s vector.
    ids: Vec<RowId>,
    matrix: ExactMatrix,
}

impl StoredVectors {
    /// The `k` rows whose vectors score highest against `q`, best first, ties to the higher id.
    fn top(&self, q: &[f32], k: usize) -> Vec<(RowId, f32)> {
        let mut exact: Vec<(RowId, f32)> = self
            .ids
            .iter()
            .copied()
            .zip(self.matrix.scores(q))
            .collect();
        exact.sort_by(|a, b| b.1.total_cmp(&a.1).then(b.0.cmp(&a.0)));
        exact.truncate(k);
        exact
    }
}

impl Control {
    /// The control `req` asks for, for the probes `probes`: `None` when it compares without one
    /// (by default, above [`CONTROL_MAX_ROWS`] live rows).
    pub(super) fn for_request(
        req: &AuditRequest,
        i: &Inner,
        probes: &[String],
    ) -> Result<Option<Control>> {
        Ok(ControlRows::read(req, i)?.map(|rows| rows.into_control(probes)))
    }
}

/// What the control is built from, read from the store: every row's text and stored vector.
/// Turning it into a [`Control`] reads nothing more, so it may run on another thread while the
/// store goes on.
pub(super) struct ControlRows {
    dim: usize,
    texts: Vec<(RowId, String)>,
    vectors: StoredVectors,
}

impl ControlRows {
    /// The rows of the control `req` asks for: `None` when it compares without one (by
    /// default, above [`CONTROL_MAX_ROWS`] live rows).
    pub(super) fn read(req: &AuditRequest, i: &Inner) -> Result<Option<ControlRows>> {
        if !req.control.unwrap_or(i.vectors.len() <= CONTROL_MAX_ROWS) {
            return Ok(None);
        }
        let _span = tracing::debug_span!("oubli::audit::control_rows").entered();
        let (texts, vectors) = control_rows(i)?;
        Ok(Some(ControlRows {
            dim: i.dim,
            texts,
            vectors,
        }))
    }

    /// The control, for the probes `probes`: the rows' texts counted for the probes' terms.
    pub(super) fn into_control(self, probes: &[String]) -> Control {
        let _span = tracing::debug_span!("oubli::audit::control_text").entered();
        let text = ControlText::build(self.texts.iter().map(|(id, t)| (*id, t.as_str())), probes);
        Control {
            dim: self.dim,
            vectors: self.vectors,
            text,
        }
    }
}

/// Every row with text (the rows the text index holds), in id order, and those of them that have
/// a stored vector, with their vectors: the two tables are read side by side in key order.
fn control_rows(i: &Inner) -> Result<(Vec<(RowId, String)>, StoredVectors)> {
    use redb::ReadableTable;
    let mut texts = Vec::new();
    let mut stored = StoredVectors {
        ids: Vec::new(),
        matrix: ExactMatrix::new(i.dim),
    };
    let tx = i.db.begin_read()?;
    let Some(payloads) = storage::open_read(&tx, PAYLOADS)? else {
        return Ok((texts, stored));
    };
    let vectors = storage::open_read(&tx, VECTORS)?;
    let mut vectors = match &vectors {
        Some(t) => Some(t.iter()?.peekable()),
        None => None,
    };
    for e in payloads.iter()? {
        let (k, v) = e?;
        let id = k.value();
        texts.push((id, Payload::decode(v.value())?.text));
        let Some(vs) = vectors.as_mut() else { continue };
        // Skip the vectors of rows without text, up to this row's.
        while let Some(Ok((vk, _))) = vs.peek() {
            if vk.value() >= id {
                break;
            }
            vs.next();
        }
        let found = match vs.peek() {
            Some(Ok((vk, _))) => vk.value() == id,
            Some(Err(_)) => true,
            None => false,
        };
        if found {
            let (_, record) = vs.next().expect("peeked")?;
            if !stored.matrix.push_half_record(record.value()) {
                stored
                    .matrix
                    .push(&storage::decode_vector(record.value(), i.dim)?);
            }
            stored.ids.push(id);
        }
    }
    Ok((texts, stored))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_by_objects_and_words() {
        let e = "Maria Keller's email is maria.keller@example.com";
        assert_eq!(classify(e, e), Some(HitClass::GoldEquivalent));
        assert_eq!(
            classify(e, "Write to maria.keller@example.com about Keller's email"),
            Some(HitClass::GoldEquivalent)
        );
        assert_eq!(
            classify(e, "maria.keller@example.com bounced"),
            Some(HitClass::ObjectOnly)
        );
        assert_eq!(
            classify(e, "Jonas Weber's email is jonas.weber@example.com"),
            None
        );
        assert_eq!(
            classify("Ana likes green tea", "Ana likes green tea a lot"),
            Some(HitClass::GoldEquivalent)
        );
        assert_eq!(
            classify("Ana likes green tea", "Ben likes black coffee"),
            None
        );
    }

    #[test]
    fn probes_cover_perturbations_and_templates() {
        let p = probes("Café TXN-12345 refund");
        assert!(p.contains(&"Cafe TXN-12345 refund".to_string()));
        assert!(p.contains(&"CAFÉ TXN-12345 REFUND".to_string()));
        assert!(p.contains(&"Café TXN 12345 refund".to_string()));
        assert!(p.contains(&"TXN-12345".to_string()));
        assert!(p.iter().any(|x| x.starts_with("What is")));
        assert!(p.iter().any(|x| x.contains("___")));
        assert!(p.iter().any(|x| x.contains('Ｔ')));
    }
}
