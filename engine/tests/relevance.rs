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
