//! Irrelevant sessions for the scale suite: varied synthetic chat-like facts, deterministic in
//! a seed.

use crate::rng::SplitMix64;

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
            Some((_, values)) => out.push_str(rng.pick::<&str>(values)),
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
                    let template = rng.pick::<&str>(templates);
                    let text = fill(template, &mut rng);
                    format!("[session {session}, {topic}, turn {}] {text}", i + 1)
                })
                .collect()
        })
        .collect()
}
