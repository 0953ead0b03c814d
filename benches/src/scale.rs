//! The scale suite: evidence held fixed while irrelevant sessions grow.
//!
//! Following scale-conditioned evaluation, each scale builds a fresh store holding the same
//! evidence facts and forgetting decoys plus `N` irrelevant sessions (half before the evidence,
//! half after), then applies the decoys' mutations. A scripted agent answers each probe by
//! recalling its formulations in order (a question, then keywords, then the most specific
//! phrasing), one recall per call, until the texts returned so far hold all the evidence.
//!
//! Reported per scale: Pass@B (evidence found within B recalls, B = 2 by default) with its
//! Wilson interval, the 90th-percentile number of recalls, the failure split (missed: never
//! found; over budget: found after more than B recalls), recall latency p50/p99, and
//! forgetting leaks: a superseded, released or purged decoy value that comes back in any recall
//! at that scale. The breakdown onset is the first scale whose Pass@B falls below 0.7.

use std::time::Instant;

use serde::Serialize;

use crate::adapter::{Adapter, AdapterError};
use crate::rng::SplitMix64;
use crate::runner::check_texts;
use crate::stats::{Proportion, quantile, wilson95};

/// Scale-suite settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ScaleConfig {
    /// Seed of the irrelevant-session generator.
    pub seed: u64,
    /// Irrelevant sessions per scale, in order.
    pub scales: Vec<usize>,
    /// Recall budget B.
    pub budget: usize,
    /// Results per recall.
    pub k: usize,
}

/// The default ladder: 0, 100, 200, 300 and 400 irrelevant sessions.
pub const DEFAULT_SCALES: [usize; 5] = [0, 100, 200, 300, 400];

/// The slow ladder documented for release builds.
pub const SLOW_SCALES: [usize; 2] = [1_000, 10_000];

/// Reliability threshold for the breakdown onset.
pub const ALPHA: f64 = 0.7;

impl Default for ScaleConfig {
    fn default() -> Self {
        ScaleConfig {
            seed: 42,
            scales: DEFAULT_SCALES.to_vec(),
            budget: 2,
            k: 10,
        }
    }
}

/// A question whose answer lives in fixed evidence facts.
#[derive(Debug, Clone, Copy)]
pub struct Probe {
    /// Stable id.
    pub id: &'static str,
    /// The evidence facts, inscribed at every scale.
    pub facts: &'static [&'static str],
    /// Formulations the agent tries in order, one recall each.
    pub formulations: &'static [&'static str],
    /// Strings the returned texts must hold.
    pub evidence: &'static [&'static str],
}

/// How a decoy is forgotten.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecoyKind {
    /// Replaced by a newer fact.
    Superseded,
    /// Released (soft-forgotten).
    Released,
    /// Purged (hard-erased).
    Purged,
}

/// A fact that is forgotten at every scale and must not come back.
#[derive(Debug, Clone, Copy)]
pub struct Decoy {
    /// Stable id.
    pub id: &'static str,
    /// How it is forgotten.
    pub kind: DecoyKind,
    /// The fact.
    pub fact: &'static str,
    /// The control query.
    pub query: &'static str,
    /// The replacement text (superseded decoys only).
    pub replacement: &'static str,
    /// A recall that looks for it.
    pub probe: &'static str,
    /// The value that must never be recalled again.
    pub forbidden: &'static str,
}

/// The fixed evidence.
pub const PROBES: &[Probe] = &[
    Probe {
        id: "passport",
        facts: &["Priya Raman's passport expires on 12 October 2027."],
        formulations: &[
            "When does Priya's passport run out?",
            "Priya Raman passport expiry",
            "Priya Raman's passport expires on",
        ],
        evidence: &["12 October 2027"],
    },
    Probe {
        id: "allergy",
        facts: &["Tomasz Wróbel is severely allergic to hazelnuts and carries an EpiPen."],
        formulations: &[
            "Is there anything Tomasz can't eat?",
            "Tomasz Wróbel allergy",
            "Tomasz allergic EpiPen",
        ],
        evidence: &["hazelnuts"],
    },
    Probe {
        id: "school",
        facts: &["Aisha's daughter Zara attends Hillcrest Primary, class 3B."],
        formulations: &[
            "Which school does Aisha's kid go to?",
            "Zara school class",
            "Zara attends Hillcrest Primary",
        ],
        evidence: &["Hillcrest Primary", "3B"],
    },
    Probe {
        id: "car",
        facts: &["The family car is a blue Volvo XC40 with registration KP71 ZRW."],
        formulations: &[
            "What car do we drive?",
            "family car registration",
            "Volvo XC40 registration plate",
        ],
        evidence: &["KP71 ZRW"],
    },
    Probe {
        id: "anniversary",
        facts: &["Marco and Giulia's wedding anniversary is on 3 June; they married in Verona."],
        formulations: &[
            "When is Marco's anniversary?",
            "Marco Giulia wedding anniversary date",
            "wedding anniversary 3 June Verona",
        ],
        evidence: &["3 June"],
    },
    Probe {
        id: "insurance",
        facts: &["Home insurance is with Northfield Mutual, policy number NFM-558213."],
        formulations: &[
            "Who insures the house?",
            "home insurance policy number",
            "Northfield Mutual policy",
        ],
        evidence: &["NFM-558213"],
    },
    Probe {
        id: "doctor",
        facts: &["Dr. Ingeborg Salvesen at Fjordside Clinic is Lars's cardiologist."],
        formulations: &[
            "Who looks after Lars's heart?",
            "Lars cardiologist",
            "Lars cardiologist Fjordside Clinic",
        ],
        evidence: &["Ingeborg Salvesen"],
    },
    Probe {
        id: "flight",
        facts: &["Helga's return flight LH2217 leaves Lisbon at 18:40 on 9 May."],
        formulations: &[
            "When does Helga fly home?",
            "Helga return flight Lisbon",
            "LH2217 departure time",
        ],
        evidence: &["LH2217", "18:40"],
    },
    Probe {
        id: "landlord",
        facts: &["The landlord, Mr. Oyelaran, prefers rent reminders by text to 07700 900412."],
        formulations: &[
            "How do I reach the landlord?",
            "landlord Oyelaran phone",
            "landlord rent reminders text number",
        ],
        evidence: &["07700 900412"],
    },
    Probe {
        id: "bloodtype",
        facts: &["Keiko Arakawa's blood type is AB negative."],
        formulations: &[
            "What blood group is Keiko?",
            "Keiko Arakawa blood type",
            "Keiko blood type AB",
        ],
        evidence: &["AB negative"],
    },
    Probe {
        id: "locker",
        facts: &["Rohan keeps his climbing gear in storage unit 114 at Eastgate Self Storage."],
        formulations: &[
            "Where is Rohan's climbing gear?",
            "Rohan storage unit",
            "Eastgate Self Storage unit",
        ],
        evidence: &["unit 114"],
    },
    Probe {
        id: "vet",
        facts: &[
            "Ottilie's cat Mr. Whiskers is booked for a dental clean on 22 February at Larkspur Vets.",
        ],
        formulations: &[
            "When is the cat's vet visit?",
            "Mr. Whiskers dental clean",
            "Larkspur Vets booking Ottilie",
        ],
        evidence: &["22 February"],
    },
    Probe {
        id: "wifi_home",
        facts: &[
            "The home Wi-Fi network is called Nebula-5G and its password is quokka-lantern-88.",
        ],
        formulations: &[
            "What's the Wi-Fi password at home?",
            "home Wi-Fi password",
            "Nebula-5G password",
        ],
        evidence: &["quokka-lantern-88"],
    },
    Probe {
        id: "pension",
        facts: &["Beatriz's pension provider is Solace Retirement, member number SR-77102."],
        formulations: &[
            "Who runs Beatriz's pension?",
            "Beatriz pension provider member number",
            "Solace Retirement member number",
        ],
        evidence: &["SR-77102"],
    },
    Probe {
        id: "boiler",
        facts: &[
            "The boiler was last serviced by Kinsella Heating on 14 November; next service is due in November.",
        ],
        formulations: &[
            "When was the boiler serviced?",
            "boiler service Kinsella Heating",
            "boiler last serviced 14 November",
        ],
        evidence: &["Kinsella Heating", "14 November"],
    },
    Probe {
        id: "bookclub",
        facts: &[
            "The book club meets at Wendeline's flat on the first Thursday of each month; this month's book is The Remains of the Day.",
        ],
        formulations: &[
            "What are we reading for book club?",
            "book club this month's book",
            "book club Wendeline first Thursday",
        ],
        evidence: &["The Remains of the Day"],
    },
];

/// The forgetting decoys, planted at every scale.
pub const DECOYS: &[Decoy] = &[
    Decoy {
        id: "gym-code",
        kind: DecoyKind::Superseded,
        fact: "Priya's gym locker combination is 4471.",
        query: "Priya gym locker combination",
        replacement: "Priya's gym locker combination is 9032.",
        probe: "Priya gym locker combination",
        forbidden: "4471",
    },
    Decoy {
        id: "work-email",
        kind: DecoyKind::Superseded,
        fact: "Lars's work email is lars.eng@fjordtech.no.",
        query: "Lars work email",
        replacement: "Lars's work email is lars.engebretsen@fjordtech.no.",
        probe: "What is Lars's work email?",
        forbidden: "lars.eng@",
    },
    Decoy {
        id: "router-pin",
        kind: DecoyKind::Superseded,
        fact: "The router admin PIN is 61-38-20.",
        query: "router admin PIN",
        replacement: "The router admin PIN was changed to 47-92-15.",
        probe: "router admin PIN",
        forbidden: "61-38-20",
    },
    Decoy {
        id: "dentist",
        kind: DecoyKind::Superseded,
        fact: "Keiko's dentist is Dr. Petrakis on Harbour Road.",
        query: "Keiko dentist",
        replacement: "Keiko's dentist is now Dr. Mwangi at the Quayside practice.",
        probe: "Who is Keiko's dentist?",
        forbidden: "Petrakis",
    },
    Decoy {
        id: "otp",
        kind: DecoyKind::Released,
        fact: "Rohan's bank one-time passcode is 582907.",
        query: "Rohan bank one-time passcode",
        replacement: "",
        probe: "Rohan bank passcode",
        forbidden: "582907",
    },
    Decoy {
        id: "door-code",
        kind: DecoyKind::Released,
        fact: "Temporary door code for the Elm Street rental is 2580 until Sunday.",
        query: "temporary door code Elm Street rental",
        replacement: "",
        probe: "Elm Street rental door code",
        forbidden: "2580",
    },
    Decoy {
        id: "parking",
        kind: DecoyKind::Released,
        fact: "Visitor parking permit VP-3319 is valid for this weekend only.",
        query: "visitor parking permit this weekend",
        replacement: "",
        probe: "visitor parking permit",
        forbidden: "VP-3319",
    },
    Decoy {
        id: "hotel",
        kind: DecoyKind::Released,
        fact: "Helga is staying at the Alfama Lodge in Lisbon until Friday.",
        query: "Helga staying at Alfama Lodge",
        replacement: "",
        probe: "Where is Helga staying?",
        forbidden: "Alfama Lodge",
    },
    Decoy {
        id: "ssn",
        kind: DecoyKind::Purged,
        fact: "Jonah Whitfield's national insurance number is QQ 12 34 56 C.",
        query: "QQ 12 34 56 C",
        replacement: "",
        probe: "Jonah Whitfield national insurance number",
        forbidden: "QQ 12 34 56 C",
    },
    Decoy {
        id: "card",
        kind: DecoyKind::Purged,
        fact: "Backup card for subscriptions ends in 7731, expiry 04/28.",
        query: "card ending 7731",
        replacement: "",
        probe: "backup card for subscriptions",
        forbidden: "7731",
    },
    Decoy {
        id: "ex-address",
        kind: DecoyKind::Purged,
        fact: "Former tenant Dana Kovacs forwarded her new address: 19 Ravel Street, Leeds.",
        query: "Dana Kovacs",
        replacement: "",
        probe: "Dana Kovacs new address",
        forbidden: "19 Ravel Street",
    },
    Decoy {
        id: "medical",
        kind: DecoyKind::Purged,
        fact: "Client Amadou Sy disclosed a diagnosis of type 1 diabetes during intake.",
        query: "Amadou Sy",
        replacement: "",
        probe: "Amadou Sy diagnosis",
        forbidden: "type 1 diabetes",
    },
];

/// One probe's outcome at one scale.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProbeOutcome {
    /// Probe id.
    pub id: &'static str,
    /// Recalls made (the last one found the evidence, or the formulations ran out).
    pub calls: usize,
    /// Whether the evidence was found at all.
    pub found: bool,
}

/// Everything measured at one scale.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScaleRow {
    /// Irrelevant sessions added.
    pub sessions: usize,
    /// Irrelevant facts inscribed.
    pub irrelevant_facts: usize,
    /// Per-probe outcomes, in probe order.
    pub probes: Vec<ProbeOutcome>,
    /// Pass@B over probes.
    pub pass_at_budget: Proportion,
    /// 90th-percentile recalls per probe.
    pub p90_calls: usize,
    /// Probes whose evidence was never returned.
    pub missed: usize,
    /// Probes whose evidence needed more than B recalls.
    pub over_budget: usize,
    /// Recall latency, median, in milliseconds.
    pub latency_p50_ms: f64,
    /// Recall latency, 99th percentile, in milliseconds.
    pub latency_p99_ms: f64,
    /// Ids of the decoys whose forbidden value came back, in decoy order.
    pub leaks: Vec<&'static str>,
}

impl ScaleRow {
    /// Leaks of one kind.
    pub fn leaks_of(&self, kind: DecoyKind) -> usize {
        self.leaks
            .iter()
            .filter(|id| DECOYS.iter().any(|d| d.id == **id && d.kind == kind))
            .count()
    }
}

/// The whole ladder.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScaleReport {
    /// Adapter name.
    pub adapter: String,
    /// Settings.
    pub config: ScaleConfig,
    /// One row per scale, in ladder order.
    pub rows: Vec<ScaleRow>,
}

impl ScaleReport {
    /// The first scale whose Pass@B is below [`ALPHA`], if any.
    pub fn breakdown_onset(&self) -> Option<usize> {
        self.rows
            .iter()
            .find(|r| r.pass_at_budget.rate < ALPHA)
            .map(|r| r.sessions)
    }

    /// Every failure as (id, one-line reason), for the ratchet.
    pub fn failures(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for row in &self.rows {
            for p in &row.probes {
                if !p.found {
                    out.push((
                        format!("scale-{}-{}", row.sessions, p.id),
                        format!("evidence missed after {} recalls", p.calls),
                    ));
                } else if p.calls > self.config.budget {
                    out.push((
                        format!("scale-{}-{}", row.sessions, p.id),
                        format!("over budget: evidence found at recall {}", p.calls),
                    ));
                }
            }
            for id in &row.leaks {
                let forbidden = DECOYS
                    .iter()
                    .find(|d| d.id == *id)
                    .map_or("", |d| d.forbidden);
                out.push((
                    format!("scale-{}-leak-{id}", row.sessions),
                    format!("forgotten value {forbidden:?} recalled"),
                ));
            }
        }
        out
    }
}

const TOPICS: &[(&str, &[&str])] = &[
    (
        "cooking",
        &[
            "User asked how long to rest a {meat} roast; the assistant suggested {n} minutes under foil.",
            "User is batch-cooking {dish} for the week and wanted a cheaper swap for {ingredient}.",
            "User's {dish} came out too salty, so the assistant suggested adding {ingredient} and a splash of water.",
            "User wants to try a {cuisine} recipe that uses {ingredient} this weekend.",
        ],
    ),
    (
        "travel",
        &[
            "User compared night trains to the coast and preferred the {time} departure.",
            "User asked what to pack for {n} days of hiking in {season} weather.",
            "User wondered whether a {cuisine} food tour is worth booking in advance.",
            "User's layover is {n} minutes and they asked whether that is enough to change terminals.",
        ],
    ),
    (
        "fitness",
        &[
            "User ran {n} kilometres this morning and asked how to pace the last stretch.",
            "User wants a {n}-minute mobility routine for stiff shoulders after {hobby}.",
            "User asked whether to stretch before or after {hobby} sessions.",
            "User is building up to {n} push-ups and logged a new personal best.",
        ],
    ),
    (
        "coding",
        &[
            "User was debugging a {lang} {error} and fixed it by {fix}.",
            "User asked how to structure tests for a small {lang} command-line tool.",
            "User hit a {error} after upgrading dependencies and decided on {fix}.",
            "User is learning {lang} and asked for {n} small practice projects.",
        ],
    ),
    (
        "garden",
        &[
            "User's {plant} leaves are turning yellow; the assistant suggested watering less in {season}.",
            "User asked when to sow {plant} seeds and how deep to plant them.",
            "User wants companion plants for {plant} in a small balcony planter.",
            "User moved the {plant} to a sunnier window and asked how often to feed it.",
        ],
    ),
    (
        "media",
        &[
            "User finished a {genre} series and asked for something similar but shorter.",
            "User is looking for a {genre} podcast to listen to during {hobby}.",
            "User asked for {n} {genre} films suitable for a rainy {season} evening.",
            "User argued that the {genre} sequel was better than the original.",
        ],
    ),
    (
        "home",
        &[
            "User's {appliance} makes a rattling noise and they asked whether it is safe to use.",
            "User asked how to descale the {appliance} without harsh chemicals.",
            "User is repainting the hallway and compared {n} shades of grey.",
            "User wants to reduce the energy bill and asked whether the {appliance} uses much power.",
        ],
    ),
    (
        "money",
        &[
            "User set a monthly budget of {n} euros for eating out.",
            "User asked whether to pay off a small loan early or keep saving for {goal}.",
            "User is saving for {goal} and wants to put aside a fixed amount each payday.",
            "User asked how to split shared {goal} costs fairly with flatmates.",
        ],
    ),
];

const SLOTS: &[(&str, &[&str])] = &[
    ("meat", &["lamb", "pork", "beef", "venison", "duck"]),
    (
        "dish",
        &[
            "lentil soup",
            "chilli",
            "risotto",
            "curry",
            "stew",
            "frittata",
        ],
    ),
    (
        "ingredient",
        &[
            "pine nuts",
            "saffron",
            "crème fraîche",
            "tahini",
            "capers",
            "miso",
        ],
    ),
    (
        "cuisine",
        &["Georgian", "Peruvian", "Ethiopian", "Sichuan", "Basque"],
    ),
    ("time", &["early evening", "late night", "mid-afternoon"]),
    ("season", &["spring", "summer", "autumn", "winter"]),
    (
        "hobby",
        &[
            "bouldering",
            "rowing",
            "yoga",
            "cycling",
            "tennis",
            "swimming",
        ],
    ),
    ("lang", &["Rust", "Python", "Go", "TypeScript", "Kotlin"]),
    (
        "error",
        &[
            "borrow-checker error",
            "null pointer exception",
            "race condition",
            "memory leak",
            "timeout",
        ],
    ),
    (
        "fix",
        &[
            "adding a retry",
            "cloning the value",
            "pinning a version",
            "adding a lock",
            "rewriting the loop",
        ],
    ),
    (
        "plant",
        &[
            "basil",
            "tomato",
            "monstera",
            "lavender",
            "fern",
            "chilli pepper",
        ],
    ),
    (
        "genre",
        &["sci-fi", "crime", "comedy", "documentary", "fantasy"],
    ),
    (
        "appliance",
        &[
            "dishwasher",
            "kettle",
            "washing machine",
            "fridge",
            "dehumidifier",
        ],
    ),
    (
        "goal",
        &[
            "a bicycle",
            "a holiday",
            "a new laptop",
            "a sofa",
            "concert tickets",
        ],
    ),
];

fn fill(template: &str, rng: &mut SplitMix64) -> String {
    // Each "{slot}" takes a value from SLOTS; "{n}" takes a small number.
    let mut parts = template.split('{');
    let mut out = parts.next().unwrap_or_default().to_string();
    for part in parts {
        let (slot, literal) = part.split_once('}').unwrap_or((part, ""));
        match SLOTS.iter().find(|(name, _)| *name == slot) {
            Some((_, values)) => out.push_str(*rng.pick(values)),
            None => out.push_str(&rng.range(2, 95).to_string()),
        }
        out.push_str(literal);
    }
    out
}

/// `count` irrelevant sessions of 4 to 8 chat-like facts each, deterministic in `seed`.
pub fn irrelevant_sessions(seed: u64, count: usize) -> Vec<Vec<String>> {
    let mut rng = SplitMix64::new(seed);
    (0..count)
        .map(|session| {
            let (topic, templates) = rng.pick(TOPICS);
            let facts = rng.range(4, 8) as usize;
            (0..facts)
                .map(|i| {
                    let template: &str = *rng.pick(templates);
                    let text = fill(template, &mut rng);
                    format!("[session {session}, {topic}, turn {}] {text}", i + 1)
                })
                .collect()
        })
        .collect()
}

fn inscribe_all(
    adapter: &mut dyn Adapter,
    sessions: &[Vec<String>],
) -> Result<usize, AdapterError> {
    let mut n = 0;
    for fact in sessions.iter().flatten() {
        adapter.inscribe(fact)?;
        n += 1;
    }
    Ok(n)
}

fn forget(adapter: &mut dyn Adapter, decoy: &Decoy) -> Result<(), AdapterError> {
    match decoy.kind {
        DecoyKind::Superseded => adapter
            .supersede(decoy.query, decoy.replacement)
            .map(|_| ()),
        DecoyKind::Released => adapter.release(decoy.query).map(|_| ()),
        DecoyKind::Purged => adapter.purge(decoy.query).map(|_| ()),
    }
}

fn ms(micros: u128) -> f64 {
    micros as f64 / 1000.0
}

/// Build and measure one scale on a fresh store.
pub fn run_scale(
    adapter: &mut dyn Adapter,
    config: &ScaleConfig,
    sessions: usize,
) -> Result<ScaleRow, AdapterError> {
    adapter.reset()?;
    let all = irrelevant_sessions(config.seed, sessions);
    let (before, after) = all.split_at(sessions / 2);
    let mut irrelevant_facts = inscribe_all(adapter, before)?;
    for fact in PROBES.iter().flat_map(|p| p.facts.iter()) {
        adapter.inscribe(fact)?;
    }
    for decoy in DECOYS {
        adapter.inscribe(decoy.fact)?;
    }
    irrelevant_facts += inscribe_all(adapter, after)?;
    for decoy in DECOYS {
        forget(adapter, decoy)?;
    }

    let forbidden: Vec<String> = DECOYS.iter().map(|d| d.forbidden.to_string()).collect();
    let mut leaked = vec![false; DECOYS.len()];
    let mut latencies: Vec<u128> = Vec::new();
    let mut recall = |adapter: &mut dyn Adapter, q: &str| -> Result<Vec<String>, AdapterError> {
        let start = Instant::now();
        let texts = adapter.recall_texts(q, config.k)?;
        latencies.push(start.elapsed().as_micros());
        let (_, hits) = check_texts(&texts, &[], &forbidden);
        for (i, d) in DECOYS.iter().enumerate() {
            leaked[i] |= hits.iter().any(|h| h == d.forbidden);
        }
        Ok(texts)
    };

    let mut probes = Vec::new();
    for probe in PROBES {
        let evidence: Vec<String> = probe.evidence.iter().map(|s| s.to_string()).collect();
        let mut seen: Vec<String> = Vec::new();
        let mut outcome = ProbeOutcome {
            id: probe.id,
            calls: 0,
            found: false,
        };
        for q in probe.formulations {
            seen.extend(recall(adapter, q)?);
            outcome.calls += 1;
            if check_texts(&seen, &evidence, &[]).0.is_empty() {
                outcome.found = true;
                break;
            }
        }
        probes.push(outcome);
    }
    for decoy in DECOYS {
        recall(adapter, decoy.probe)?;
    }

    let passed = probes
        .iter()
        .filter(|p| p.found && p.calls <= config.budget)
        .count();
    let calls: Vec<usize> = probes.iter().map(|p| p.calls).collect();
    Ok(ScaleRow {
        sessions,
        irrelevant_facts,
        pass_at_budget: wilson95(passed as u64, probes.len() as u64),
        p90_calls: quantile(&calls, 0.9).unwrap_or(0),
        missed: probes.iter().filter(|p| !p.found).count(),
        over_budget: probes
            .iter()
            .filter(|p| p.found && p.calls > config.budget)
            .count(),
        latency_p50_ms: ms(quantile(&latencies, 0.5).unwrap_or(0)),
        latency_p99_ms: ms(quantile(&latencies, 0.99).unwrap_or(0)),
        leaks: DECOYS
            .iter()
            .zip(&leaked)
            .filter(|(_, l)| **l)
            .map(|(d, _)| d.id)
            .collect(),
        probes,
    })
}

/// Run the whole ladder; `on_scale` sees each row as it is measured.
pub fn run(
    adapter: &mut dyn Adapter,
    config: &ScaleConfig,
    mut on_scale: impl FnMut(&ScaleRow),
) -> Result<ScaleReport, AdapterError> {
    let mut rows = Vec::new();
    for &sessions in &config.scales {
        let row = run_scale(adapter, config, sessions)?;
        on_scale(&row);
        rows.push(row);
    }
    Ok(ScaleReport {
        adapter: adapter.name().to_string(),
        config: config.clone(),
        rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::baseline::NaiveAdapter;

    #[test]
    fn sessions_are_deterministic_varied_and_sized() {
        let a = irrelevant_sessions(42, 50);
        assert_eq!(a, irrelevant_sessions(42, 50));
        assert_ne!(a, irrelevant_sessions(43, 50));
        assert!(a.iter().all(|s| (4..=8).contains(&s.len())));
        let mut distinct: Vec<&String> = a.iter().flatten().collect();
        distinct.sort();
        distinct.dedup();
        assert!(distinct.len() > 200, "{}", distinct.len());
        assert!(a.iter().flatten().all(|t| !t.contains('{')));
    }

    #[test]
    fn irrelevant_sessions_hold_no_evidence_and_no_decoy_value() {
        let texts: Vec<String> = irrelevant_sessions(42, 1_000)
            .into_iter()
            .flatten()
            .collect();
        let mut needles: Vec<String> = PROBES
            .iter()
            .flat_map(|p| p.evidence.iter().map(|s| s.to_string()))
            .collect();
        needles.extend(DECOYS.iter().map(|d| d.forbidden.to_string()));
        let (_, found) = check_texts(&texts, &[], &needles);
        assert!(found.is_empty(), "{found:?}");
    }

    #[test]
    fn evidence_and_decoys_are_consistent() {
        for p in PROBES {
            let facts: Vec<String> = p.facts.iter().map(|s| s.to_string()).collect();
            assert!(check_texts(&facts, &[], &[]).0.is_empty());
            let (missing, _) = check_texts(
                &facts,
                &p.evidence.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
                &[],
            );
            assert!(missing.is_empty(), "{}: {missing:?}", p.id);
        }
        for d in DECOYS {
            assert!(d.fact.contains(d.forbidden), "{}", d.id);
            assert!(!d.replacement.contains(d.forbidden), "{}", d.id);
            assert_eq!(
                d.kind == DecoyKind::Superseded,
                !d.replacement.is_empty(),
                "{}",
                d.id
            );
        }
    }

    #[test]
    fn baseline_ladder_reports_every_measure() {
        let config = ScaleConfig {
            scales: vec![0, 20],
            ..ScaleConfig::default()
        };
        let report = run(&mut NaiveAdapter::new(), &config, |_| {}).unwrap();
        assert_eq!(report.rows.len(), 2);
        let r0 = &report.rows[0];
        assert_eq!(r0.irrelevant_facts, 0);
        assert_eq!(r0.probes.len(), PROBES.len());
        assert!(report.rows[1].irrelevant_facts >= 80);
        for row in &report.rows {
            let failed = row.probes.len() - row.pass_at_budget.successes as usize;
            assert_eq!(failed, row.missed + row.over_budget);
            assert!(row.p90_calls >= 1 && row.p90_calls <= 3);
            assert!(row.latency_p50_ms <= row.latency_p99_ms);
        }
        // The naive store deletes every row that contains "Dana Kovacs", so that purge holds.
        assert!(!r0.leaks.contains(&"ex-address"));
        let failures = report.failures();
        assert_eq!(
            failures
                .iter()
                .filter(|(id, _)| id.contains("-leak-"))
                .count(),
            report.rows.iter().map(|r| r.leaks.len()).sum::<usize>()
        );
    }
}
