//! The residual audit's BM25 control: the scores that a text index holding exactly the given
//! rows would give a known set of queries, computed from the rows without building that index.
//!
//! A purge's audit compares each probe's BM25 top k in the store with the top k over the rows
//! that remain (see `store::audit`): any trace of an erased row in the index's statistics shows
//! as a difference. Building a whole in-memory index for that analyzed and indexed every term of
//! every row, while only the probes' terms are ever looked up. Here each row is analyzed once
//! with the indexing analyzer: its token count (the field norm) is kept, and so is its frequency
//! of each probe term; every other token is counted and dropped.
//!
//! Scores are the text tail's ([`super::text_tail`]): tantivy's BM25 ([`Bm25Weight`], k1 = 1.2,
//! b = 0.75, field norms quantized by [`FieldNormReader::fieldnorm_to_id`]) on the statistics of
//! these rows alone (row count, total tokens, each term's document frequency), summed over the
//! query's distinct terms in the order the query gives them, as the index scores its tail.

use std::collections::HashMap;

use tantivy::fieldnorm::FieldNormReader;
use tantivy::query::Bm25Weight;
use tantivy::tokenizer::MAX_TOKEN_LEN;

use super::analyzer::indexing_analyzer;
use super::text::TextIndex;
use crate::row::RowId;

/// BM25 over a fixed set of rows for a fixed set of query texts (see the module docs).
pub struct ControlText {
    /// The rows, in the order given.
    ids: Vec<RowId>,
    /// Each row's token count.
    norms: Vec<u32>,
    total_tokens: u64,
    /// Each term of the query texts: (row index, term frequency) of the rows holding it, in row
    /// order.
    postings: HashMap<String, Vec<(u32, u32)>>,
}

impl ControlText {
    /// Counts `rows` (id, text) for the terms of `queries`: [`ControlText::search`] then answers
    /// any of these queries (a text with other terms scores as if they were in no row).
    pub fn build<'a>(
        rows: impl IntoIterator<Item = (RowId, &'a str)>,
        queries: &[String],
    ) -> ControlText {
        let mut postings: HashMap<String, Vec<(u32, u32)>> = HashMap::new();
        for q in queries {
            for t in TextIndex::analyze_text(q) {
                postings.entry(t).or_default();
            }
        }
        let mut analyzer = indexing_analyzer();
        let mut ids = Vec::new();
        let mut norms = Vec::new();
        let mut total_tokens = 0u64;
        for (id, text) in rows {
            let doc = ids.len() as u32;
            let mut tokens = 0u32;
            let mut stream = analyzer.token_stream(text);
            while let Some(tok) = stream.next() {
                // tantivy drops tokens longer than this, and does not count them.
                if tok.text.len() > MAX_TOKEN_LEN {
                    continue;
                }
                tokens += 1;
                if let Some(p) = postings.get_mut(tok.text.as_str()) {
                    match p.last_mut() {
                        Some((d, tf)) if *d == doc => *tf += 1,
                        _ => p.push((doc, 1)),
                    }
                }
            }
            ids.push(id);
            norms.push(tokens);
            total_tokens += u64::from(tokens);
        }
        ControlText {
            ids,
            norms,
            total_tokens,
            postings,
        }
    }

    /// Number of rows.
    pub fn num_docs(&self) -> u64 {
        self.ids.len() as u64
    }

    /// BM25 top `limit` rows for `text`, best first; ties broken by higher row id (as
    /// [`TextIndex::search`] ranks).
    pub fn search(&self, text: &str, limit: usize) -> Vec<(RowId, f32)> {
        let n = self.num_docs();
        if n == 0 || limit == 0 {
            return Vec::new();
        }
        let avg = self.total_tokens as f32 / n as f32;
        // One slot per row; every BM25 term score is positive, so 0 marks a row not matched.
        let mut scores = vec![0f32; self.ids.len()];
        let mut matched: Vec<u32> = Vec::new();
        for t in TextIndex::analyze_text(text) {
            let Some(rows) = self.postings.get(&t).filter(|p| !p.is_empty()) else {
                continue;
            };
            let weight = Bm25Weight::for_one_term_without_explain(rows.len() as u64, n, avg);
            for &(doc, tf) in rows {
                let norm = FieldNormReader::fieldnorm_to_id(self.norms[doc as usize]);
                let slot = &mut scores[doc as usize];
                if *slot == 0.0 {
                    matched.push(doc);
                }
                *slot += weight.score(norm, tf);
            }
        }
        let mut out: Vec<(RowId, f32)> = matched
            .into_iter()
            .map(|doc| (self.ids[doc as usize], scores[doc as usize]))
            .collect();
        let order = |a: &(RowId, f32), b: &(RowId, f32)| b.1.total_cmp(&a.1).then(b.0.cmp(&a.0));
        if out.len() > limit {
            out.select_nth_unstable_by(limit - 1, order);
            out.truncate(limit);
        }
        out.sort_unstable_by(order);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const WORDS: [&str; 10] = [
        "garden", "gardens", "Lisbon", "invoice", "the", "phone", "zq9", "rent", "doctor", "a",
    ];

    fn text_of(ix: &[usize]) -> String {
        ix.iter()
            .map(|&i| WORDS[i % WORDS.len()])
            .collect::<Vec<_>>()
            .join(" ")
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

        /// The control ranks as a text index holding exactly the same rows in its tail: the
        /// same ids in the same order, scores equal to rounding.
        #[test]
        fn the_control_ranks_as_an_index_of_the_same_rows(
            rows in prop::collection::vec(prop::collection::vec(0usize..10, 0..8), 1..60),
            queries in prop::collection::vec(prop::collection::vec(0usize..10, 1..4), 1..4),
            k in 1usize..20,
        ) {
            let rows: Vec<(RowId, String)> = rows
                .iter()
                .enumerate()
                .map(|(i, r)| (i as RowId + 1, text_of(r)))
                .collect();
            let queries: Vec<String> = queries.iter().map(|q| text_of(q)).collect();
            let control = ControlText::build(rows.iter().map(|(i, t)| (*i, t.as_str())), &queries);
            let mut index = TextIndex::in_memory(std::iter::empty(), 0).unwrap();
            index.set_tail_rows(usize::MAX);
            for (id, t) in &rows {
                index.add(*id, t).unwrap();
            }
            for q in &queries {
                let ours = control.search(q, k);
                let theirs = index.search(q, k).unwrap();
                prop_assert_eq!(
                    ours.iter().map(|h| h.0).collect::<Vec<_>>(),
                    theirs.iter().map(|h| h.0).collect::<Vec<_>>()
                );
                for (a, b) in ours.iter().zip(&theirs) {
                    prop_assert!((a.1 - b.1).abs() <= 1e-5 * b.1.abs().max(1.0));
                }
            }
            // A query of terms the control was not built for finds nothing.
            prop_assert!(control.search("unrelated", k).is_empty());
        }
    }
}
