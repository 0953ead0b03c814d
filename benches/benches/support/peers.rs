//! The memories and queries of `benches/peers/peers.py`, shared by the `recall` and `hnsw`
//! benches: memories of 60-120 bytes from eight templates over small word lists, so that
//! thousands of rows are near-duplicates of each other, and queries "person word word" that sit
//! far from every row, between several templates' clusters.

const PEOPLE: &[&str] = &[
    "Ana", "Ben", "Chloe", "Dmitri", "Esther", "Farid", "Grace", "Hiro", "Ines", "Jonas", "Kofi",
    "Lena", "Mateo", "Nadia", "Omar", "Priya", "Quentin", "Rosa", "Sven", "Tariq",
];
const TOPICS: &[&str] = &[
    "prefers {a} coffee in the morning and tea after {b}",
    "booked a trip to {c} for the {a} conference next {m}",
    "asked the assistant to remind them about the {a} invoice on {m} {d}",
    "is allergic to {a} and avoids restaurants that cook with {b}",
    "moved the {a} meeting with the {b} team to {m} {d}",
    "keeps the spare key for the {a} flat with a neighbour in {c}",
    "wants a {a} plan for {b} training three times a week",
    "changed the {a} password for the {b} account on {m} {d}",
];
const WORDS: &[&str] = &[
    "oat",
    "green",
    "sales",
    "design",
    "garden",
    "budget",
    "shellfish",
    "peanut",
    "kiwi",
    "quarterly",
    "spring",
    "running",
    "rowing",
    "staging",
    "billing",
    "travel",
    "family",
    "winter",
    "legal",
    "research",
    "cycling",
    "archive",
    "mobile",
    "cloud",
];
const CITIES: &[&str] = &[
    "Lisbon", "Tallinn", "Osaka", "Nairobi", "Quito", "Turin", "Malmo", "Hanoi",
];
const MONTHS: &[&str] = &["January", "March", "May", "July", "September", "November"];

/// A small deterministic generator (splitmix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[(self.next() % xs.len() as u64) as usize]
    }
}

/// The first `n` memories, each ending in its own `(note i)`.
pub fn memories(n: usize) -> Vec<String> {
    let mut r = Rng(7);
    (0..n)
        .map(|i| {
            let t = r
                .pick(TOPICS)
                .replace("{a}", r.pick(WORDS))
                .replace("{b}", r.pick(WORDS))
                .replace("{c}", r.pick(CITIES))
                .replace("{m}", r.pick(MONTHS))
                .replace("{d}", &(1 + r.next() % 28).to_string());
            format!("{} {t} (note {i})", r.pick(PEOPLE))
        })
        .collect()
}

/// `n` queries "person word word".
pub fn queries(n: usize) -> Vec<String> {
    let mut r = Rng(8);
    (0..n)
        .map(|_| format!("{} {} {}", r.pick(PEOPLE), r.pick(WORDS), r.pick(WORDS)))
        .collect()
}
