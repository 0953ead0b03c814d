//! Targeting cost per forgetting call: `Store::plan` / `Store::plan_with` (the dry run of a
//! purge, release or supersede by description, which is the targeting step of the real call)
//! over a store of N rows of personal facts, dense per person (N / 2,400 facts each: phone,
//! e-mail, address, passport, bonus...), with the default embedder.
//!
//! The requests are of four kinds, a quarter each, drawn deterministically:
//! - present: a person the store holds and an attribute it holds for them;
//! - absent attribute: a person it holds and an attribute it holds for nobody;
//! - absent person: a name it never holds;
//! - supersede: a present request with its new text (`plan_with`).
//!
//! Prints p50 / p95 / p99 / mean milliseconds per call for each kind and how many calls
//! matched a row.
//!
//! Run: `cargo bench -p oubli-bench --bench targeting`. `OUBLI_TARGETING_ROWS=10000,100000`
//! sets the sizes (default 10000), `OUBLI_TARGETING_REQUESTS` the requests per kind (default
//! 100).

use std::time::Instant;

use oubli::{Inscription, Operation, Store, Target};

const GIVEN: &[&str] = &[
    "Anna", "Ben", "Chidi", "Dana", "Emeka", "Fatima", "Goran", "Hana", "Ivan", "Jia", "Kofi",
    "Lena", "Mateo", "Nadia", "Omar", "Priya", "Quinn", "Rosa", "Sven", "Tariq", "Uma", "Viktor",
    "Wen", "Yosef", "Zeynep", "Aiko", "Bruno", "Carmen", "Dmitri", "Elif", "Farid", "Greta",
    "Hugo", "Ines", "Jonas", "Kenta", "Lucia", "Marek", "Noor", "Olga",
];
const FAMILY: &[&str] = &[
    "Schmidt",
    "Okafor",
    "Cohen",
    "Tanaka",
    "Rossi",
    "Petrenko",
    "Sharma",
    "Garcia",
    "Nowak",
    "Haddad",
    "Kim",
    "Silva",
    "Dubois",
    "Larsen",
    "Yilmaz",
    "Murphy",
    "Novak",
    "Costa",
    "Berg",
    "Moreau",
    "Papadopoulos",
    "Ivanova",
    "Karimi",
    "Mensah",
    "Fischer",
    "Sato",
    "Ortiz",
    "Lindqvist",
    "Horvat",
    "Chen",
    "Ali",
    "Weber",
    "Mazur",
    "Santos",
    "Kowalski",
    "Bauer",
    "Rahman",
    "Nair",
    "Ahmed",
    "Vargas",
    "Keller",
    "Hoffmann",
    "Abe",
    "Lopez",
    "Jensen",
    "Popescu",
    "Farouk",
    "Quispe",
    "Tran",
    "Nguyen",
    "Mwangi",
    "Osei",
    "Demir",
    "Aydin",
    "Bianchi",
    "Ricci",
    "Gruber",
    "Svoboda",
    "Dvorak",
    "Varga",
];

/// An attribute: how a request names it, and the row stating it for person `p` and row `i`.
type Attribute = (&'static str, fn(&str, u64) -> String);

const ATTRIBUTES: &[Attribute] = &[
    ("phone number", |p, i| {
        format!("{p}'s phone number is +44 7700 9{:05}", i % 100_000)
    }),
    ("work email", |p, i| {
        let user = p.to_lowercase().replace(' ', ".");
        format!("{p}'s work email is {user}{}@contoso.com", i % 97)
    }),
    ("home address", |p, i| {
        format!("{p} lives at {} Baker Street, London", 1 + i % 220)
    }),
    ("passport number", |p, i| {
        format!("{p}'s passport number is X{:07}", i % 10_000_000)
    }),
    ("annual bonus", |p, i| {
        format!("{p}'s annual bonus is {},000 EUR", 1 + i % 40)
    }),
    ("blood type", |p, i| {
        format!(
            "{p}'s blood type is {}",
            ["A+", "B-", "O+", "AB+"][(i % 4) as usize]
        )
    }),
    ("allergy", |p, i| {
        format!(
            "{p} is allergic to {}",
            ["peanuts", "penicillin", "shellfish", "latex"][(i % 4) as usize]
        )
    }),
    ("car registration", |p, i| {
        format!("{p}'s car registration is AB{:02} CDE", i % 100)
    }),
];

/// Attributes the store holds for nobody.
const ABSENT: &[&str] = &["religion", "shoe size", "tax ID", "wedding anniversary"];

/// People the store holds: `GIVEN` x `FAMILY`.
fn person(k: usize) -> String {
    format!(
        "{} {}",
        GIVEN[k % GIVEN.len()],
        FAMILY[(k / GIVEN.len()) % FAMILY.len()]
    )
}

/// A deterministic pseudo-random stream.
fn next(x: &mut u64) -> u64 {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    *x
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn main() {
    let sizes: Vec<usize> = std::env::var("OUBLI_TARGETING_ROWS")
        .unwrap_or_else(|_| "10000".into())
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect();
    let requests: usize = std::env::var("OUBLI_TARGETING_REQUESTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100);
    let people = GIVEN.len() * FAMILY.len();
    println!("| rows | request | calls | matched | p50 ms | p95 ms | p99 ms | mean ms |");
    println!("|---:|---|---:|---:|---:|---:|---:|---:|");
    for n in sizes {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::create(dir.path().join("targeting.oubli")).unwrap();
        let rows: Vec<Inscription> = (0..n as u64)
            .map(|i| {
                let p = person(i as usize % people);
                let (_, text) = ATTRIBUTES[(i as usize / people) % ATTRIBUTES.len()];
                Inscription::new(text(&p, i))
            })
            .collect();
        for chunk in rows.chunks(5_000) {
            store.inscribe_batch(chunk.to_vec()).unwrap();
        }
        // Attributes every person holds: the first n / people of `ATTRIBUTES`.
        let held = (n / people).clamp(1, ATTRIBUTES.len());
        let mut x = 0x9E37_79B9_7F4A_7C15u64 ^ n as u64;
        let kinds = ["present", "absent attribute", "absent person", "supersede"];
        for kind in kinds {
            let mut times = Vec::with_capacity(requests);
            let mut matched = 0;
            for _ in 0..requests {
                let p = person(next(&mut x) as usize % people.min(n));
                let (attr, text) = ATTRIBUTES[next(&mut x) as usize % held];
                let (query, new) = match kind {
                    "present" => (format!("{p}'s {attr}"), None),
                    "absent attribute" => {
                        let a = ABSENT[next(&mut x) as usize % ABSENT.len()];
                        (format!("{p}'s {a}"), None)
                    }
                    "absent person" => (format!("Zoltan Quorra's {attr}"), None),
                    _ => (format!("update {p}'s {attr}"), Some(text(&p, next(&mut x)))),
                };
                let op = if new.is_some() {
                    Operation::Supersede
                } else {
                    Operation::Purge
                };
                let t = Instant::now();
                let plan = store
                    .plan_with(op, &Target::query(query), new.as_deref())
                    .unwrap();
                times.push(t.elapsed().as_secs_f64() * 1e3);
                matched += usize::from(!plan.rows.is_empty());
            }
            let mean = times.iter().sum::<f64>() / times.len() as f64;
            times.sort_by(f64::total_cmp);
            println!(
                "| {n} | {kind} | {requests} | {matched} | {:.2} | {:.2} | {:.2} | {mean:.2} |",
                percentile(&times, 0.5),
                percentile(&times, 0.95),
                percentile(&times, 0.99),
            );
        }
        store.close().unwrap();
    }
}
