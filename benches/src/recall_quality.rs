//! Recall quality: recall@k of a store's legs on a JSONL of {rows, queries, relevant ids}.
//!
//! A dataset file holds one **set** per line: `{"rows": [{"id": "...", "text": "..."}],
//! "queries": [{"text": "...", "relevant": ["id", ...]}]}`. Each set is inscribed into a fresh
//! store and each query recalled once; a query's recall@k is the share of its relevant ids in
//! the top k, and the report averages it over all queries. Any dataset in that shape can be
//! scored with `oubli-bench recall-quality --data FILE`.
//!
//! [`generate`] writes a synthetic dataset from templates with a fixed seed: personal memories
//! of several people (job, pet, home, allergy, hobby, car, trip, injury, instrument, phone),
//! each fact phrased one of several ways, plus chit-chat rows that name the same people; each
//! query asks about one person's fact in words that mostly differ from the fact's (a
//! paraphrase), so BM25 finds the person but not the fact, and vectors find the topic but not
//! the person. Names and values come from [`crate::vocab`].

use std::path::Path;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use oubli::{Embedder, Inscription, Legs, RecallQuery, Store, StoreOptions};

use crate::rng::SplitMix64;
use crate::vocab;

/// One row of a set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QRow {
    /// The dataset's id for the row.
    pub id: String,
    /// The row text.
    pub text: String,
}

/// One query and the ids of the rows that answer it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QQuery {
    /// The query text.
    pub text: String,
    /// Ids of the relevant rows.
    pub relevant: Vec<String>,
}

/// One store's worth of rows and its queries.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QSet {
    /// Rows to inscribe.
    pub rows: Vec<QRow>,
    /// Queries to recall.
    pub queries: Vec<QQuery>,
}

/// Reads a dataset (one [`QSet`] per non-empty line).
pub fn load(path: &Path) -> Result<Vec<QSet>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l).map_err(|e| format!("{}:{}: {e}", path.display(), i + 1))
        })
        .collect()
}

/// Queries about topics no generated row touches: their top scores show where a relevance
/// threshold must sit.
pub const ABSENT_TOPICS: &[&str] = &[
    "what is the weather forecast for the weekend",
    "how do I reset the router firmware",
    "recipe for a vegetarian lasagna",
    "who won the football world cup final",
    "explain quantum entanglement simply",
    "what is the exchange rate of the yen",
];

/// Mean recall@k per leg choice.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LegScores {
    /// Which legs ran.
    pub legs: String,
    /// Mean recall@1, @5, @10 over queries.
    pub recall_at: [(usize, f64); 3],
    /// Highest score of each query's top hit, averaged: how high scores run.
    pub mean_top_score: f64,
    /// The highest score any hit of an [`ABSENT_TOPICS`] query got, over all sets.
    pub absent_max_score: f64,
}

/// Recall@1/5/10 of BM25 only, vectors only and the fusion, for `sets`.
pub fn evaluate(sets: &[QSet], embedder: Arc<dyn Embedder>) -> Result<Vec<LegScores>, String> {
    const KS: [usize; 3] = [1, 5, 10];
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let legs = [
        ("bm25", Legs::Lexical),
        ("vector", Legs::Vector),
        ("fused", Legs::Hybrid),
    ];
    let mut sums = [[0f64; 3]; 3];
    let mut tops = [0f64; 3];
    let mut absent = [0f64; 3];
    let mut n = 0usize;
    for (si, set) in sets.iter().enumerate() {
        let (store, by_row) =
            load_set(&dir.path().join(format!("set-{si}.oubli")), set, &embedder)?;
        for q in &set.queries {
            if q.relevant.is_empty() {
                continue;
            }
            n += 1;
            for (li, (_, leg)) in legs.iter().enumerate() {
                let hits = store
                    .recall(&RecallQuery::new(&q.text).k(10).legs(*leg))
                    .map_err(|e| e.to_string())?;
                tops[li] += hits.first().map_or(0.0, |h| h.score);
                let found: Vec<&str> = hits
                    .iter()
                    .filter_map(|h| by_row.get(&h.row.id).copied())
                    .collect();
                for (ki, k) in KS.iter().enumerate() {
                    let got = q
                        .relevant
                        .iter()
                        .filter(|r| found.iter().take(*k).any(|f| f == r))
                        .count();
                    sums[li][ki] += got as f64 / q.relevant.len() as f64;
                }
            }
        }
        for q in ABSENT_TOPICS {
            for (li, (_, leg)) in legs.iter().enumerate() {
                let hits = store
                    .recall(&RecallQuery::new(*q).k(10).legs(*leg))
                    .map_err(|e| e.to_string())?;
                absent[li] = hits.iter().fold(absent[li], |m, h| m.max(h.score));
            }
        }
        store.close().map_err(|e| e.to_string())?;
    }
    let n = n.max(1) as f64;
    Ok(legs
        .iter()
        .enumerate()
        .map(|(li, (name, _))| LegScores {
            legs: name.to_string(),
            recall_at: [
                (KS[0], sums[li][0] / n),
                (KS[1], sums[li][1] / n),
                (KS[2], sums[li][2] / n),
            ],
            mean_top_score: tops[li] / n,
            absent_max_score: absent[li],
        })
        .collect())
}

/// One query's candidates with both legs' calibrated scores, for analysing fusion rules offline
/// (`oubli-bench recall-quality --candidates-out FILE`).
#[derive(Clone, Debug, Serialize)]
pub struct QueryCandidates {
    /// The query text.
    pub query: String,
    /// Dataset ids of the relevant rows.
    pub relevant: Vec<String>,
    /// Every row either leg ranks within its first [`CANDIDATE_DEPTH`] (each leg ranking every
    /// row of the set), in the order of the default recall.
    pub candidates: Vec<Candidate>,
}

/// How deep into each leg's ranking [`candidates`] reports rows.
pub const CANDIDATE_DEPTH: usize = 100;

/// A candidate row of one query (see [`QueryCandidates`]).
#[derive(Clone, Debug, Serialize)]
pub struct Candidate {
    /// Dataset id of the row.
    pub id: String,
    /// The store's id of the row (recall breaks score ties by the higher id).
    pub row: u64,
    /// Calibrated lexical score in [0, 1] (0 when BM25 did not match the row).
    pub lexical: f64,
    /// Lexical coverage in [0, 1] (the share of the query's IDF mass the row's terms hold).
    pub coverage: f64,
    /// Calibrated semantic score in [0, 1].
    pub semantic: f64,
    /// Rank in the BM25 leg over the whole set, if BM25 matched the row.
    pub bm25_rank: Option<usize>,
    /// Rank in the vector leg over the whole set.
    pub vector_rank: Option<usize>,
    /// The default recall's relevance for the row (computed with every row in both legs'
    /// pools, so it can differ from a k = 10 recall's for rows outside its pools).
    pub relevance: f64,
}

/// Recalls every query of `sets` with every row in both legs' candidate pools and returns the
/// rows either leg ranks within [`CANDIDATE_DEPTH`], with both legs' calibrated scores and
/// ranks. A k = 10 recall's pools are each leg's first 50 rows (`max(4k, 50)`), which the
/// ranks let an analysis rebuild.
pub fn candidates(
    sets: &[QSet],
    embedder: Arc<dyn Embedder>,
) -> Result<Vec<QueryCandidates>, String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for (si, set) in sets.iter().enumerate() {
        let (store, by_row) =
            load_set(&dir.path().join(format!("set-{si}.oubli")), set, &embedder)?;
        let all = set.rows.len().clamp(1, 10_000);
        for q in set.queries.iter().filter(|q| !q.relevant.is_empty()) {
            let hits = store
                .recall(&RecallQuery::new(&q.text).k(all))
                .map_err(|e| e.to_string())?;
            let within = |r: Option<usize>| r.is_some_and(|r| r <= CANDIDATE_DEPTH);
            let candidates = hits
                .iter()
                .filter(|h| within(h.explain.bm25_rank) || within(h.explain.vector_rank))
                .filter_map(|h| {
                    Some(Candidate {
                        id: by_row.get(&h.row.id)?.to_string(),
                        row: h.row.id,
                        lexical: h.explain.lexical,
                        coverage: h.explain.coverage,
                        semantic: h.explain.semantic,
                        bm25_rank: h.explain.bm25_rank,
                        vector_rank: h.explain.vector_rank,
                        relevance: h.explain.relevance,
                    })
                })
                .collect();
            out.push(QueryCandidates {
                query: q.text.clone(),
                relevant: q.relevant.clone(),
                candidates,
            });
        }
        store.close().map_err(|e| e.to_string())?;
    }
    Ok(out)
}

/// Creates a store at `path` holding `set`'s rows; returns it with the map from row id to the
/// dataset's id.
fn load_set<'a>(
    path: &Path,
    set: &'a QSet,
    embedder: &Arc<dyn Embedder>,
) -> Result<(Store, std::collections::HashMap<u64, &'a str>), String> {
    let store = Store::create_with(
        path,
        StoreOptions::default()
            .embedder(embedder.clone())
            .durable(false)
            .deterministic_seed([7; 32]),
    )
    .map_err(|e| e.to_string())?;
    let ins: Vec<Inscription> = set.rows.iter().map(|r| Inscription::new(&r.text)).collect();
    let ids = store.inscribe_batch(ins).map_err(|e| e.to_string())?;
    let by_row = ids
        .iter()
        .zip(&set.rows)
        .map(|(id, r)| (*id, r.id.as_str()))
        .collect();
    Ok((store, by_row))
}

/// Formats the scores as a table.
pub fn format(scores: &[LegScores], queries: usize) -> String {
    let mut out = format!(
        "{:<8} {:>9} {:>9} {:>9} {:>10} {:>12}   ({queries} queries)\n",
        "legs", "recall@1", "recall@5", "recall@10", "top score", "absent max"
    );
    for s in scores {
        out.push_str(&format!(
            "{:<8} {:>8.1}% {:>8.1}% {:>8.1}% {:>10.3} {:>12.3}\n",
            s.legs,
            100.0 * s.recall_at[0].1,
            100.0 * s.recall_at[1].1,
            100.0 * s.recall_at[2].1,
            s.mean_top_score,
            s.absent_max_score
        ));
    }
    out
}

fn pick<'a>(rng: &mut SplitMix64, xs: &[&'a str]) -> &'a str {
    xs[rng.below(xs.len() as u64) as usize]
}

/// A fact topic: ways to state it (with `{p}` the person, `{a}` `{b}` values) and ways to ask
/// for it that avoid the statement's content words.
struct Topic {
    facts: &'static [&'static str],
    asks: &'static [&'static str],
    a: &'static [&'static str],
    b: &'static [&'static str],
}

const ANIMALS: &[&str] = &["dog", "cat", "parrot", "rabbit", "tortoise", "hamster"];
const COLOURS: &[&str] = &["red", "blue", "silver", "black", "green", "white"];
const CARS: &[&str] = &[
    "Volvo estate",
    "Toyota hatchback",
    "Ford pickup",
    "Tesla sedan",
];
const HOBBIES: &[&str] = &[
    "climbing at the bouldering gym",
    "baking sourdough bread",
    "birdwatching by the lake",
    "restoring old bicycles",
    "painting watercolour landscapes",
    "playing chess online",
];
const BONES: &[&str] = &["wrist", "ankle", "collarbone", "left arm"];
const SPORTS: &[&str] = &["skiing", "cycling", "playing football", "running"];
const PHONES: &[&str] = &["an iPhone", "a Pixel", "a Samsung Galaxy", "a Fairphone"];

const TOPICS: &[Topic] = &[
    Topic {
        facts: &[
            "{p} works as a {a} at {b}.",
            "{p} got hired by {b} as a {a}.",
            "{p}'s new position at {b} is {a}.",
        ],
        asks: &[
            "what is {p}'s occupation",
            "where is {p} employed",
            "what does {p} do for a living",
        ],
        a: vocab::JOBS,
        b: vocab::COMPANIES,
    },
    Topic {
        facts: &[
            "{p} has a {a} named {b}.",
            "{p} adopted a {a} called {b} from the shelter.",
        ],
        asks: &["does {p} own any animals", "tell me about {p}'s pet"],
        a: ANIMALS,
        b: vocab::PET_NAMES,
    },
    Topic {
        facts: &["{p} moved to {a} last {b}.", "{p} relocated to {a} in {b}."],
        asks: &["where does {p} live now", "which town is {p}'s home"],
        a: vocab::CITIES,
        b: vocab::MONTHS,
    },
    Topic {
        facts: &[
            "{p} is allergic to {a}.",
            "{p} gets a bad reaction from {a}.",
        ],
        asks: &[
            "what food must {p} avoid",
            "any dietary restrictions for {p}",
        ],
        a: vocab::ALLERGENS,
        b: &[""],
    },
    Topic {
        facts: &["{p} spends weekends {a}.", "{p} loves {a}."],
        asks: &["what does {p} do for fun", "{p}'s leisure activities"],
        a: HOBBIES,
        b: &[""],
    },
    Topic {
        facts: &["{p} drives a {b} {a}.", "{p} bought a {b} {a} last year."],
        asks: &["what vehicle does {p} have", "what is {p}'s automobile"],
        a: CARS,
        b: COLOURS,
    },
    Topic {
        facts: &[
            "{p} is flying to {a} in {b} for a conference.",
            "{p} booked a trip to {a} for {b}.",
        ],
        asks: &["when is {p} travelling", "where is {p}'s journey headed"],
        a: vocab::CITIES,
        b: vocab::MONTHS,
    },
    Topic {
        facts: &[
            "{p} broke a {a} while {b}.",
            "{p} fractured the {a} {b} last winter.",
        ],
        asks: &["how did {p} get injured", "what accident did {p} have"],
        a: BONES,
        b: SPORTS,
    },
    Topic {
        facts: &["{p} plays the {a} in a band.", "{p} takes {a} lessons."],
        asks: &[
            "which musical instrument does {p} practise",
            "is {p} a musician",
        ],
        a: vocab::INSTRUMENTS,
        b: &[""],
    },
    Topic {
        facts: &["{p} uses {a} as a work phone.", "{p} switched to {a}."],
        asks: &[
            "what mobile does {p} carry",
            "which smartphone brand is {p} on",
        ],
        a: PHONES,
        b: &[""],
    },
];

const CHATTER: &[&str] = &[
    "{p} said thanks for the help yesterday.",
    "Had a quick call with {p} about the schedule.",
    "{p} will join the meeting a bit late.",
    "{p} shared the slides from the review.",
    "Remind {p} to send the invoice.",
    "{p} liked the idea of a team lunch.",
    "{p} is out of office until Monday.",
    "{p} asked for the notes from the workshop.",
];

fn fill(t: &str, p: &str, a: &str, b: &str) -> String {
    t.replace("{p}", p).replace("{a}", a).replace("{b}", b)
}

/// A synthetic dataset: `sets` sets of `people` people, each with every topic's fact and
/// `chatter` chit-chat rows, and one query per fact.
pub fn generate(seed: u64, sets: usize, people: usize, chatter: usize) -> Vec<QSet> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::with_capacity(sets);
    for _ in 0..sets {
        let mut names: Vec<String> = Vec::new();
        while names.len() < people {
            let n = format!(
                "{} {}",
                pick(&mut rng, vocab::FIRST_NAMES),
                pick(&mut rng, vocab::SURNAMES)
            );
            if !names.contains(&n) {
                names.push(n);
            }
        }
        let mut rows = Vec::new();
        let mut queries = Vec::new();
        for (pi, p) in names.iter().enumerate() {
            for (ti, topic) in TOPICS.iter().enumerate() {
                let id = format!("p{pi}-t{ti}");
                let text = fill(
                    pick(&mut rng, topic.facts),
                    p,
                    pick(&mut rng, topic.a),
                    pick(&mut rng, topic.b),
                );
                rows.push(QRow {
                    id: id.clone(),
                    text,
                });
                queries.push(QQuery {
                    text: fill(pick(&mut rng, topic.asks), p, "", ""),
                    relevant: vec![id],
                });
            }
            for ci in 0..chatter {
                rows.push(QRow {
                    id: format!("p{pi}-c{ci}"),
                    text: fill(pick(&mut rng, CHATTER), p, "", ""),
                });
            }
        }
        // Inscription order must not give the answer away.
        for i in (1..rows.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            rows.swap(i, j);
        }
        out.push(QSet { rows, queries });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generation_is_deterministic_and_queries_point_at_rows() {
        let a = generate(7, 2, 3, 2);
        assert_eq!(a, generate(7, 2, 3, 2));
        assert_ne!(a, generate(8, 2, 3, 2));
        for set in &a {
            assert_eq!(set.rows.len(), 3 * (TOPICS.len() + 2));
            for q in &set.queries {
                assert!(
                    q.relevant
                        .iter()
                        .all(|r| set.rows.iter().any(|x| &x.id == r))
                );
            }
        }
    }

    #[test]
    fn evaluation_finds_exact_restatements() {
        // A query equal to a row's text is found first by every leg.
        let set = QSet {
            rows: vec![
                QRow {
                    id: "a".into(),
                    text: "Nadia keeps bees on the roof".into(),
                },
                QRow {
                    id: "b".into(),
                    text: "The quarterly report is due Friday".into(),
                },
            ],
            queries: vec![QQuery {
                text: "Nadia keeps bees on the roof".into(),
                relevant: vec!["a".into()],
            }],
        };
        let e: Arc<dyn Embedder> = Arc::new(oubli::HashEmbedder::default());
        let scores = evaluate(&[set], e).unwrap();
        for s in scores {
            assert_eq!(s.recall_at[0].1, 1.0, "{}", s.legs);
        }
    }
}
