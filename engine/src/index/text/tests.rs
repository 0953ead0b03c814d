//! Tests of the text index: segments, the tail, merges under the cap, pruned top-k.

use super::{TextIndex, merge_choice};
use proptest::prelude::*;

const WORDS: &[&str] = &[
    "alice",
    "bob",
    "paris",
    "coffee",
    "meeting",
    "tuesday",
    "runs",
    "running",
    "invoice",
    "TXN-12345",
    "alice@x.com",
    "blue",
    "the",
    "cat",
    "of",
    "北京大学",
];

fn text_of(ix: &[usize]) -> String {
    ix.iter()
        .map(|&i| WORDS[i % WORDS.len()])
        .collect::<Vec<_>>()
        .join(" ")
}

/// An empty in-memory index whose write path commits every `tail_rows` rows.
fn empty(tail_rows: usize) -> TextIndex {
    let mut t = TextIndex::in_memory(std::iter::empty(), 0).unwrap();
    t.set_tail_rows(tail_rows);
    t
}

/// Inscribes `rows` one write at a time, as the store's write path does.
fn load(t: &mut TextIndex, rows: &[String]) {
    load_batches(t, rows, 1);
}

/// Inscribes `rows` in writes of `batch` rows, as the store's write path does.
fn load_batches(t: &mut TextIndex, rows: &[String], batch: usize) {
    for (b, chunk) in rows.chunks(batch).enumerate() {
        t.expect_adds(chunk.len());
        for (i, text) in chunk.iter().enumerate() {
            t.add((b * batch + i) as u64 + 1, text).unwrap();
        }
        t.settle((b + 1) as u64).unwrap();
    }
}

/// The key ranking spelled out: every live row holding a query key, scored by the sum of the
/// IDFs of the distinct query keys it holds (in query order), over the live rows; best first,
/// ties to the higher row id.
fn reference_key_ranking(live: &[(u64, &str)], keys: &[String]) -> Vec<(u64, f32)> {
    let n = live.len() as f32;
    let row_keys: Vec<std::collections::BTreeSet<String>> = live
        .iter()
        .map(|(_, t)| crate::index::keys::row_keys(t).into_iter().collect())
        .collect();
    let mut distinct: Vec<&String> = Vec::new();
    for k in keys {
        if !distinct.contains(&k) {
            distinct.push(k);
        }
    }
    let mut scores = vec![None::<f32>; live.len()];
    for k in distinct {
        let df = row_keys.iter().filter(|r| r.contains(k)).count() as f32;
        let idf = (1.0 + ((n - df).max(0.0) + 0.5) / (df + 0.5)).ln();
        for (s, r) in scores.iter_mut().zip(&row_keys) {
            if r.contains(k) {
                *s = Some(s.unwrap_or(0.0) + idf);
            }
        }
    }
    let mut out: Vec<(u64, f32)> = live
        .iter()
        .zip(scores)
        .filter_map(|((id, _), s)| s.map(|s| (*id, s)))
        .collect();
    out.sort_by(|a, b| b.1.total_cmp(&a.1).then(b.0.cmp(&a.0)));
    out
}

fn assert_same(a: &[(u64, f32)], b: &[(u64, f32)]) {
    let by_id = |v: &[(u64, f32)]| {
        let mut v = v.to_vec();
        v.sort_by_key(|x| x.0);
        v
    };
    let (sa, sb) = (by_id(a), by_id(b));
    assert_eq!(
        sa.iter().map(|x| x.0).collect::<Vec<_>>(),
        sb.iter().map(|x| x.0).collect::<Vec<_>>()
    );
    for (x, y) in sa.iter().zip(&sb) {
        assert!(
            (x.1 - y.1).abs() <= 1e-5 * x.1.abs().max(1.0),
            "{x:?} vs {y:?}"
        );
    }
    // The ranking agrees wherever the scores are apart by more than float rounding.
    for (x, y) in a.iter().zip(b) {
        if x.0 != y.0 {
            assert!(
                (x.1 - y.1).abs() <= 1e-5 * x.1.abs().max(1.0),
                "{a:?}\n{b:?}"
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// `holds_terms` flags exactly the terms the analyzed text holds, in the order given,
    /// repeated terms included.
    #[test]
    fn holds_terms_flags_the_terms_the_text_holds(
        row in prop::collection::vec(0usize..64, 0..12),
        query in prop::collection::vec(0usize..64, 0..8),
    ) {
        let t = empty(8);
        let text = text_of(&row);
        let held_terms = t.analyze(&text);
        let mut terms: Vec<String> = t.analyze(&text_of(&query));
        // A term asked twice is flagged twice.
        if let Some(first) = terms.first().cloned() {
            terms.push(first);
        }
        let refs: Vec<&str> = terms.iter().map(String::as_str).collect();
        let expected: Vec<bool> = terms.iter().map(|q| held_terms.contains(q)).collect();
        prop_assert_eq!(t.holds_terms(&text, &refs), expected);
    }

    /// The top k is the first k of the full ranking, ids and scores alike, ties to the
    /// higher row id: pruning (block-max WAND) never drops a document that belongs in it,
    /// across segments of several sizes, with deleted documents; and the key lookup's top k is
    /// the head of the reference key ranking ([`reference_key_ranking`]).
    #[test]
    fn the_top_k_is_the_head_of_the_full_ranking(
        rows in prop::collection::vec(prop::collection::vec(0usize..12, 1..6), 1..300),
        query in prop::collection::vec(0usize..12, 1..5),
        removed in prop::collection::vec(0usize..300, 0..20),
        cap in 2usize..200,
        batch in 1usize..64,
    ) {
        let rows: Vec<String> = rows.iter().map(|r| text_of(r)).collect();
        let mut t = empty(3);
        t.set_segment_docs(cap);
        load_batches(&mut t, &rows, batch);
        for r in removed.iter().filter(|&&r| r < rows.len()) {
            t.remove(*r as u64 + 1).unwrap();
        }
        t.commit(rows.len() as u64 + 1).unwrap();
        let q = text_of(&query);
        let keys = crate::index::keys::row_keys(&q);
        let all = rows.len() + 1;
        let full = (t.search(&q, all).unwrap(), t.lookup_keys(&keys, all).unwrap());
        // Unpruned, the ranking is a full scan's, scores bit for bit.
        prop_assert_eq!(&full.0, &t.full_scan(&t.analyze(&q)).unwrap());
        let live: Vec<(u64, &str)> = rows
            .iter()
            .enumerate()
            .filter(|(i, _)| !removed.contains(i))
            .map(|(i, r)| (i as u64 + 1, r.as_str()))
            .collect();
        prop_assert_eq!(&full.1, &reference_key_ranking(&live, &keys));
        for k in [1, 2, 3, 5, 10, 40] {
            let k = k.min(all);
            prop_assert_eq!(&t.search(&q, k).unwrap()[..], &full.0[..k.min(full.0.len())]);
            prop_assert_eq!(
                &t.lookup_keys(&keys, k).unwrap()[..],
                &full.1[..k.min(full.1.len())]
            );
        }
    }

    /// A row scores the same in the tail as in a segment: the same rows loaded with
    /// different tail sizes (every row its own segment, a few segments plus a tail, all in
    /// the tail) rank the same with the same scores, for text search, key lookup and the
    /// full-match score.
    #[test]
    fn tail_and_segments_score_alike(
        rows in prop::collection::vec(prop::collection::vec(0usize..64, 1..9), 1..40),
        query in prop::collection::vec(0usize..64, 1..4),
        small in 2usize..6,
    ) {
        let rows: Vec<String> = rows.iter().map(|r| text_of(r)).collect();
        let q = text_of(&query);
        let keys = crate::index::keys::row_keys(&q);
        let mut results = Vec::new();
        // (tail size, rows per write)
        // (tail size, rows per write, segment cap): the last two split batches and merges
        // at a cap of a few documents.
        for (n, batch, cap) in [
            (1, 1, super::SEGMENT_DOCS),
            (small, 1, super::SEGMENT_DOCS),
            (1_000_000, 1, super::SEGMENT_DOCS),
            (small + 1, small, super::SEGMENT_DOCS),
            (small + 1, small, 2),
            (1, 1, 3),
        ] {
            let mut t = empty(n);
            t.set_segment_docs(cap);
            load_batches(&mut t, &rows, batch);
            prop_assert!(t.segment_sizes().iter().all(|&d| d as usize <= cap.max(2)));
            let all = rows.len() + 1;
            results.push((
                t.search(&q, all).unwrap(),
                t.lookup_keys(&keys, all).unwrap(),
                t.full_match_score(&q).unwrap(),
                t.num_docs(),
                t.tail_len(),
            ));
        }
        // The last load left every row in the tail, the first none.
        prop_assert_eq!(results[0].4, 0);
        prop_assert_eq!(results[2].4, rows.len());
        for r in &results[1..] {
            assert_same(&results[0].0, &r.0);
            assert_same(&results[0].1, &r.1);
            prop_assert!((results[0].2 - r.2).abs() <= 1e-5 * results[0].2.max(1.0));
            prop_assert_eq!(results[0].3, r.3);
        }
    }
}

#[test]
fn a_row_removed_from_the_tail_leaves_no_trace() {
    let rows: Vec<String> = [
        "alice met bob in paris",
        "coffee with alice",
        "invoice TXN-12345",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let mut with = empty(1000);
    load(&mut with, &rows);
    with.add(9, "alice secret zanzibar").unwrap();
    with.settle(4).unwrap();
    assert_eq!(with.search("zanzibar", 10).unwrap().len(), 1);
    with.remove(9).unwrap();
    with.settle(5).unwrap();
    let mut without = empty(1000);
    load(&mut without, &rows);
    assert_eq!(with.num_docs(), without.num_docs());
    for q in ["alice", "zanzibar secret", "coffee paris"] {
        assert_eq!(
            with.search(q, 10).unwrap(),
            without.search(q, 10).unwrap(),
            "{q}"
        );
        assert_eq!(
            with.full_match_score(q).unwrap(),
            without.full_match_score(q).unwrap()
        );
    }
    // Nothing was written to a segment on the way.
    assert_eq!(with.tail_len(), 3);
    assert_eq!(with.indexed_seq(), 0);
}

#[test]
fn removing_a_row_in_a_segment_commits_at_once() {
    let mut t = empty(2);
    load(
        &mut t,
        &[
            "alice in paris".into(),
            "bob in paris".into(),
            "carol".into(),
        ],
    );
    assert_eq!((t.tail_len(), t.indexed_seq()), (1, 2));
    t.remove(1).unwrap();
    assert!(t.settle(4).unwrap());
    assert_eq!((t.tail_len(), t.indexed_seq(), t.num_docs()), (0, 4, 2));
    assert!(t.search("alice", 10).unwrap().is_empty());
}

#[test]
fn merges_the_lowest_tier_holding_two_never_the_whole_index() {
    let no_cap = usize::MAX;
    // A 10k-row base segment and one-row commits: only the small ones merge, once there
    // are more than MAX_SEGMENTS mergeable segments.
    let mut docs = vec![10_000];
    docs.extend([1; 11]);
    assert!(merge_choice(&docs, no_cap).is_empty());
    docs.push(1);
    assert_eq!(
        merge_choice(&docs, no_cap),
        vec![(1..13).collect::<Vec<_>>()]
    );
    // The base joins a merge only beside another segment of its tier.
    let mut docs = vec![10_000, 9_000, 100, 600];
    docs.extend([40_000; 9]);
    assert_eq!(merge_choice(&docs, no_cap), vec![vec![0, 1]]);
    docs[1] = 600;
    assert_eq!(merge_choice(&docs, no_cap), vec![vec![1, 3]]);
}

#[test]
fn merges_stop_at_the_segment_cap() {
    // Segments above half the cap are full: 20 of them never merge.
    assert!(merge_choice(&[3_000; 20], 4_096).is_empty());
    // 13 segments of 1,000 pack into groups of at most 4,096 documents; a lone leftover
    // stays.
    let groups = merge_choice(&[1_000; 13], 4_096);
    assert_eq!(
        groups,
        vec![vec![0, 1, 2, 3], vec![4, 5, 6, 7], vec![8, 9, 10, 11]]
    );
}

proptest! {
    /// A merge never makes a segment above the cap, merges only segments of at most half of
    /// it, of one tier, each at most once, two or more at a time.
    #[test]
    fn merge_groups_respect_the_cap(
        docs in prop::collection::vec(1u32..20_000, 0..40),
        cap in 2usize..50_000,
    ) {
        let groups = merge_choice(&docs, cap);
        let mut seen = std::collections::HashSet::new();
        for g in &groups {
            prop_assert!(g.len() >= 2);
            prop_assert!(g.iter().map(|&i| docs[i] as usize).sum::<usize>() <= cap);
            let tier = docs[g[0]].ilog(8);
            for &i in g {
                prop_assert!(docs[i] as usize <= cap / 2);
                prop_assert_eq!(docs[i].ilog(8), tier);
                prop_assert!(seen.insert(i));
            }
        }
        let mergeable = docs.iter().filter(|&&n| n as usize <= cap / 2).count();
        if mergeable <= super::MAX_SEGMENTS {
            prop_assert!(groups.is_empty());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Blanking the spans of some terms leaves a text of the same length whose analysis is the
    /// original's without those terms (what recall embeds as a row's rest), and the spans say
    /// exactly which of the terms the text holds.
    #[test]
    fn blanking_a_terms_spans_takes_exactly_that_term_out(
        words in prop::collection::vec(0usize..WORDS.len(), 0..12),
        taken in prop::collection::vec(0usize..WORDS.len(), 0..4),
    ) {
        let text = text_of(&words);
        let taken_terms: Vec<String> = taken
            .iter()
            .flat_map(|&i| TextIndex::analyze_text(WORDS[i]))
            .collect();
        let terms: Vec<&str> = taken_terms.iter().map(String::as_str).collect();
        let spans = TextIndex::term_spans(&text, &terms);
        let mut held = vec![false; terms.len()];
        for (i, r) in &spans {
            held[*i] = true;
            prop_assert!(text.get(r.clone()).is_some());
        }
        let index = TextIndex::in_memory(std::iter::empty(), 0).unwrap();
        let holds = index.holds_terms(&text, &terms);
        // A term listed twice: the spans name its first index, `holds_terms` flags both.
        for (i, t) in terms.iter().enumerate() {
            let first = terms.iter().position(|u| u == t).unwrap();
            prop_assert_eq!(held[first], holds[i]);
        }
        let rest = TextIndex::blank_spans(&text, spans.iter().map(|(_, r)| r));
        prop_assert_eq!(rest.len(), text.len());
        let want: Vec<String> = TextIndex::analyze_text(&text)
            .into_iter()
            .filter(|t| !terms.contains(&t.as_str()))
            .collect();
        prop_assert_eq!(TextIndex::analyze_text(&rest), want);
    }
}
