//! The documented relevance threshold (`SUGGESTED_MIN_SCORE`) on the scale suite's irrelevant
//! sessions: queries about topics those sessions never touch get no hit at or above it, while
//! a query that restates a stored memory does. Default store options (the built-in static
//! embedder), as a new user gets them.

use oubli::{Inscription, RecallQuery, SUGGESTED_MIN_SCORE, Store, StoreOptions};
use oubli_bench::scale::irrelevant_sessions;

/// Topics outside the sessions' eight (cooking, travel, fitness, coding, garden, media, home,
/// money), phrased as an agent would ask.
const ABSENT: &[&str] = &[
    "what is the boiling point of liquid nitrogen",
    "who painted the ceiling of the Sistine Chapel",
    "how far is Jupiter from the Sun",
    "which court hears appeals against a parking fine",
    "what is the dosage of ibuprofen for a child",
    "when was the printing press invented",
    "how many moons does Neptune have",
    "what does a notary public certify",
];

#[test]
fn absent_topics_score_below_the_suggested_threshold_and_present_ones_above() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::create_with(
        dir.path().join("sessions.oubli"),
        StoreOptions::default().durable(false),
    )
    .unwrap();
    let rows: Vec<String> = irrelevant_sessions(11, 150).into_iter().flatten().collect();
    assert!(rows.len() >= 300, "{} rows", rows.len());
    store
        .inscribe_batch(rows.iter().map(Inscription::new).collect())
        .unwrap();

    for q in ABSENT {
        let hits = store.recall(&RecallQuery::new(*q).k(10)).unwrap();
        let top = hits.first().map_or(0.0, |h| h.score);
        assert!(
            top < SUGGESTED_MIN_SCORE,
            "{q:?} scored {top:.3} on {:?}",
            hits[0].row.text
        );
        let kept = store
            .recall(&RecallQuery::new(*q).min_score(SUGGESTED_MIN_SCORE))
            .unwrap();
        assert!(kept.is_empty(), "{q:?} kept {} hits", kept.len());
    }

    // A query restating stored memories finds them above the threshold.
    for row in rows.iter().step_by(rows.len() / 8) {
        let kept = store
            .recall(&RecallQuery::new(row).min_score(SUGGESTED_MIN_SCORE))
            .unwrap();
        assert!(
            kept.iter()
                .any(|h| h.row.text.as_deref() == Some(row.as_str())),
            "{row:?} not kept"
        );
    }
}
