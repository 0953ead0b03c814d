//! Recall with the built-in embedder and analyzer: calibrated scores, `min_score`, CJK lexical
//! recall, and stores made with the hash embedder reopening unchanged.

use std::sync::Arc;

use oubli::{
    Embedder, Error, HashEmbedder, Inscription, Legs, RecallQuery, SUGGESTED_MIN_SCORE, Store,
    StoreOptions,
};

fn store(dir: &tempfile::TempDir) -> Store {
    let s = Store::create(dir.path().join("r.oubli")).unwrap();
    let rows = [
        "The staging password is tulip-4417",
        "Ana adopted a rescue dog called Biscuit",
        "Marco moved to Lisbon last spring",
        "The quarterly budget review is on Friday",
        "Jonas is allergic to peanuts",
        "我在北京大学学习中文",
        "東京で寿司を食べました",
        "서울의 날씨는 맑습니다",
    ];
    s.inscribe_batch(rows.iter().map(|r| Inscription::new(*r)).collect())
        .unwrap();
    s
}

#[test]
fn scores_are_in_unit_range_and_explain_keeps_raw_leg_scores() {
    let dir = tempfile::tempdir().unwrap();
    let s = store(&dir);
    let hits = s.recall(&RecallQuery::new("staging password")).unwrap();
    assert!(hits[0].row.text.as_deref().unwrap().contains("tulip"));
    for h in &hits {
        assert!((0.0..=1.0).contains(&h.score), "{}", h.score);
        assert!((0.0..=1.0).contains(&h.explain.lexical));
        assert!((0.0..=1.0).contains(&h.explain.semantic));
    }
    let e = &hits[0].explain;
    assert!(e.bm25_score.unwrap() > 0.0 && e.vector_score.is_some());
    assert!(hits[0].score >= SUGGESTED_MIN_SCORE);
}

#[test]
fn an_absent_topic_scores_low_and_min_score_filters_it() {
    let dir = tempfile::tempdir().unwrap();
    let s = store(&dir);
    let q = RecallQuery::new("what will the weather be like tomorrow afternoon");
    let all = s.recall(&q).unwrap();
    assert!(
        !all.is_empty(),
        "without a threshold recall returns its k best"
    );
    let relevant = s.recall(&q.clone().min_score(SUGGESTED_MIN_SCORE)).unwrap();
    assert!(
        relevant.is_empty(),
        "{:?}",
        relevant.iter().map(|h| h.score).collect::<Vec<_>>()
    );
    // Every returned hit passes the threshold.
    let hits = s
        .recall(&RecallQuery::new("Ana's dog").min_score(0.2))
        .unwrap();
    assert!(hits.iter().all(|h| h.score >= 0.2));
    assert!(hits[0].row.text.as_deref().unwrap().contains("Biscuit"));
    assert!(matches!(
        s.recall(&RecallQuery::new("x").min_score(1.5)),
        Err(Error::InvalidArgument(_))
    ));
}

#[test]
fn chinese_japanese_and_korean_rows_are_found_lexically() {
    let dir = tempfile::tempdir().unwrap();
    let s = store(&dir);
    for (q, want) in [("北京", "北京"), ("寿司", "寿司"), ("날씨", "날씨")] {
        let hits = s.recall(&RecallQuery::new(q).legs(Legs::Lexical)).unwrap();
        assert!(
            hits.first()
                .is_some_and(|h| h.row.text.as_deref().unwrap().contains(want)),
            "{q}"
        );
    }
}

#[test]
fn a_store_made_with_the_hash_embedder_reopens_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("h.oubli");
    let hash: Arc<dyn Embedder> = Arc::new(HashEmbedder::default());
    {
        let s = Store::create_with(&path, StoreOptions::default().embedder(hash.clone())).unwrap();
        s.inscribe(Inscription::new("Marco moved to Lisbon"))
            .unwrap();
    }
    let s = Store::open(&path).unwrap();
    assert_eq!(s.embedder().id(), hash.id());
    assert_eq!(s.recall(&RecallQuery::new("Lisbon")).unwrap().len(), 1);
    drop(s);
    // An explicit, different embedder is still refused.
    let other: Arc<dyn Embedder> = Arc::new(HashEmbedder::new(64).unwrap());
    assert!(matches!(
        Store::open_with(&path, StoreOptions::default().embedder(other)),
        Err(Error::EmbedderMismatch { .. })
    ));
    // New stores get the static table.
    let s = Store::create(dir.path().join("n.oubli")).unwrap();
    assert!(s.embedder().id().starts_with("oubli-minilm-static-v1-256:"));
}

/// Words the generated stores below draw their rows from: people, topics and fillers.
const WORDS: &[&str] = &[
    "ana", "marco", "jonas", "priya", "dog", "cat", "lisbon", "berlin", "peanuts", "guitar",
    "password", "budget", "meeting", "friday", "garden", "tomatoes", "train", "invoice", "dentist",
    "coffee",
];

fn generated_store(rows: &[Vec<usize>]) -> Store {
    let s = Store::in_memory(StoreOptions::default().deterministic_seed([3; 32])).unwrap();
    let texts: Vec<Inscription> = rows
        .iter()
        .map(|r| {
            let words: Vec<&str> = r.iter().map(|i| WORDS[*i]).collect();
            Inscription::new(words.join(" "))
        })
        .collect();
    s.inscribe_batch(texts).unwrap();
    s
}

#[test]
fn hybrid_relevance_weighs_coverage_and_semantic_equally() {
    let dir = tempfile::tempdir().unwrap();
    let s = store(&dir);
    let hits = s
        .recall(&RecallQuery::new("Jonas allergic peanuts shellfish"))
        .unwrap();
    let e = &hits[0].explain;
    assert!(hits[0].row.text.as_deref().unwrap().contains("peanuts"));
    // "shellfish" is in no row: the row holds three of four terms, less than the whole query.
    assert!(e.coverage > 0.5 && e.coverage < 1.0, "{}", e.coverage);
    for h in &hits {
        let e = &h.explain;
        assert!((0.0..=1.0).contains(&e.coverage));
        let want = oubli::LEXICAL_WEIGHT * e.coverage + (1.0 - oubli::LEXICAL_WEIGHT) * e.semantic;
        assert!((e.relevance - want).abs() < 1e-12, "{e:?}");
        // Rows only the vector leg returned count no lexical evidence.
        if e.bm25_rank.is_none() {
            assert_eq!(e.coverage, 0.0);
        }
    }
    // A row holding every query term covers it entirely.
    let hits = s.recall(&RecallQuery::new("Marco Lisbon")).unwrap();
    assert_eq!(hits[0].explain.coverage, 1.0);
    assert!(hits[0].row.text.as_deref().unwrap().contains("Lisbon"));
    // A lexical-only recall keeps BM25's calibrated score.
    for h in s
        .recall(&RecallQuery::new("Marco Lisbon").legs(Legs::Lexical))
        .unwrap()
    {
        assert_eq!(h.score, h.explain.lexical * h.explain.depth_weight);
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]

    /// The fused order never puts a row below one it is at least as good as on both kinds of
    /// evidence the fusion weighs (so a row first on both coverage and semantic is first), and
    /// a query none of whose words is in any row ranks exactly as the vector leg alone.
    #[test]
    fn fusion_respects_both_legs(
        rows in proptest::collection::vec(
            proptest::collection::vec(0..WORDS.len(), 1..6), 2..24),
        query in proptest::collection::vec(0..WORDS.len(), 1..4),
    ) {
        let s = generated_store(&rows);
        let q: Vec<&str> = query.iter().map(|i| WORDS[*i]).collect();
        let hits = s.recall(&RecallQuery::new(q.join(" ")).k(50)).unwrap();
        for (i, a) in hits.iter().enumerate() {
            for b in &hits[i + 1..] {
                let (ea, eb) = (&a.explain, &b.explain);
                let dominated = eb.coverage >= ea.coverage
                    && eb.semantic >= ea.semantic
                    && (eb.coverage > ea.coverage || eb.semantic > ea.semantic);
                proptest::prop_assert!(!dominated, "{ea:?} above {eb:?}");
            }
        }
        // Words in no row: the lexical leg finds nothing, and the fusion ranks as the vector
        // leg alone (its scores stay weighted: no row holds any of the query's information).
        let absent = "zebrafish quokka axolotl";
        let fused = s.recall(&RecallQuery::new(absent).k(50)).unwrap();
        let vector = s.recall(&RecallQuery::new(absent).k(50).legs(Legs::Vector)).unwrap();
        let ids = |h: &[oubli::Hit]| h.iter().map(|h| h.row.id).collect::<Vec<_>>();
        proptest::prop_assert_eq!(ids(&fused), ids(&vector));
        for (f, v) in fused.iter().zip(&vector) {
            proptest::prop_assert_eq!(f.explain.coverage, 0.0);
            proptest::prop_assert_eq!(f.score, (1.0 - oubli::LEXICAL_WEIGHT) * v.score);
        }
    }
}

/// In a store holding a vector graph, a hybrid recall runs its two legs' first searches on two
/// threads: each hit's raw leg scores are still those of the same leg run alone, and the same
/// query gives the same hits every time.
#[test]
fn the_legs_of_a_recall_over_a_graph_score_as_each_leg_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.oubli");
    let opts = || {
        StoreOptions::default()
            .ann_threshold(64)
            .deterministic_seed([5; 32])
    };
    let s = Store::create_with(&path, opts()).unwrap();
    for batch in 0..6 {
        let rows: Vec<Inscription> = (0..50)
            .map(|i| {
                let j = batch * 50 + i;
                Inscription::new(format!(
                    "{} {} {} note {j}",
                    WORDS[j % WORDS.len()],
                    WORDS[(j / 3) % WORDS.len()],
                    WORDS[(j / 7) % WORDS.len()]
                ))
            })
            .collect();
        s.inscribe_batch(rows).unwrap();
    }
    // Closing installs a pending graph build: the reopened store searches a graph.
    drop(s);
    let s = Store::open_with(&path, opts()).unwrap();
    for query in [
        "ana dog lisbon",
        "budget meeting friday note 17",
        "coffee guitar",
    ] {
        let hybrid = s.recall(&RecallQuery::new(query).k(40)).unwrap();
        assert_eq!(hybrid, s.recall(&RecallQuery::new(query).k(40)).unwrap());
        let alone = |legs: Legs| {
            // Every row (300): a hybrid hit may sit low in one leg alone.
            s.recall(&RecallQuery::new(query).k(300).legs(legs))
                .unwrap()
                .into_iter()
                .map(|h| (h.row.id, h.explain))
                .collect::<std::collections::HashMap<_, _>>()
        };
        let (lexical, vector) = (alone(Legs::Lexical), alone(Legs::Vector));
        assert!(hybrid.iter().any(|h| h.explain.bm25_rank.is_some()));
        assert!(hybrid.iter().any(|h| h.explain.vector_rank.is_some()));
        for h in &hybrid {
            if h.explain.bm25_rank.is_some() {
                assert_eq!(
                    h.explain.bm25_score, lexical[&h.row.id].bm25_score,
                    "{query}"
                );
            }
            if h.explain.vector_rank.is_some() {
                assert_eq!(
                    h.explain.vector_score, vector[&h.row.id].vector_score,
                    "{query}"
                );
            }
        }
    }
}

/// Rows that all name the query's person hold the same share of the query's words; the row that
/// answers it is the one whose other words mean what the rest of the query asks. With the
/// built-in embedder, the semantic evidence of such rows is judged on what they say beyond the
/// shared words (the name), which a bag-of-words vector would otherwise count a second time:
/// with the whole texts' cosine, the short chit-chat rows came first for most of these queries.
#[test]
fn rows_naming_the_querys_subject_are_told_apart_by_what_else_they_say() {
    let s = Store::in_memory(StoreOptions::default().deterministic_seed([5; 32])).unwrap();
    let rows = [
        "Marguerite Okafor sent the slides for the Thursday review.",
        "Marguerite Okafor will be late to the standup again.",
        "Marguerite Okafor asked whether the parking permit was renewed.",
        "Marguerite Okafor works as a pharmacist at the Linden Street clinic.",
        "Marguerite Okafor liked the idea of a team picnic.",
        "Marguerite Okafor forwarded the minutes to everyone.",
        "Tomasz Berg is a carpenter in Gdansk.",
        "Ines Duarte teaches chemistry at a secondary school.",
    ];
    s.inscribe_batch(rows.iter().map(|r| Inscription::new(*r)).collect())
        .unwrap();
    for (query, answer) in [
        (
            "what medicine does Marguerite Okafor dispense",
            "pharmacist",
        ),
        ("Marguerite Okafor profession", "pharmacist"),
        ("Marguerite Okafor presentation deck", "slides"),
        ("Marguerite Okafor outdoor lunch with colleagues", "picnic"),
        ("Marguerite Okafor car", "parking"),
    ] {
        let hits = s.recall(&RecallQuery::new(query).k(3)).unwrap();
        let top = hits[0].row.text.as_deref().unwrap();
        assert!(top.contains(answer), "{query:?}: {top:?} first");
        let e = &hits[0].explain;
        // The name is part of the query's words: the row holds part of the query, and its
        // semantic evidence counts that part as matched.
        assert!(e.coverage > 0.0 && e.coverage < 1.0, "{e:?}");
        assert!(e.semantic >= e.coverage, "{e:?}");
    }
    // A row holding every query term has nothing of the query left to match: it ranks first,
    // with relevance 1, above rows whose rest is close to nothing.
    let hits = s
        .recall(&RecallQuery::new("Marguerite Okafor pharmacist").k(3))
        .unwrap();
    assert!(hits[0].row.text.as_deref().unwrap().contains("pharmacist"));
    assert_eq!(hits[0].explain.coverage, 1.0);
    assert_eq!(hits[0].explain.relevance, 1.0);
    assert!(hits[1].explain.relevance < 1.0);
}
