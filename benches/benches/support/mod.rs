//! Synthetic memories for the performance benches: varied, deterministic, realistic in length.

const PEOPLE: &[&str] = &[
    "Ana", "Ben", "Chidi", "Dana", "Emeka", "Fatima", "Goran", "Hana", "Ivan", "Jia", "Kofi",
    "Lena", "Mateo", "Nadia", "Omar", "Priya", "Quinn", "Rosa", "Sven", "Tariq", "Uma", "Viktor",
];
const TOPICS: &[&str] = &[
    "prefers window seats on long flights",
    "is allergic to shellfish",
    "moved to a new apartment near the river",
    "asked to be reminded about the dentist",
    "uses the staging cluster for load tests",
    "owes the team lunch after the release",
    "is learning Portuguese on weekday mornings",
    "booked the conference room for the quarterly review",
    "changed the billing address on the account",
    "likes oat milk in coffee",
    "runs the on-call rotation in March",
    "reported a bug in the export feature",
];

/// The `i`-th synthetic memory.
pub fn memory_text(i: u64) -> String {
    let mut x = i.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03;
    x ^= x >> 31;
    let p = PEOPLE[(x % PEOPLE.len() as u64) as usize];
    let t = TOPICS[((x >> 8) % TOPICS.len() as u64) as usize];
    format!("{p} {t} (note {i}, ref TK-{:05})", (x >> 20) % 100_000)
}
