//! The rows each topology writes for a fact: the canonical row, aliased rows (Alias),
//! restatements and decoys (Noise), and rows about other objects of the same subject
//! (Collision).

use super::attributes::Attribute;
use super::names::Person;
use super::values::{Used, near_miss, raw_value};
use super::{Fact, Role, Row};
use crate::rng::SplitMix64;

pub(super) fn canonical_row(rng: &mut SplitMix64, fi: usize, fact: &Fact, p: &Person) -> Row {
    let (a, v) = (fact.attribute.name, &fact.value.canonical);
    let text = match rng.below(3) {
        0 => format!("{}'s {a} is {v}.", p.name),
        1 => format!("The {a} of {} is {v}.", p.name),
        _ => format!("{} gave {v} as {} {a}.", p.name, p.pronoun),
    };
    Row {
        text,
        role: Role::Canonical,
        states: Some(fi),
        written: vec![v.clone()],
        keeps: None,
        probe: format!("{} {a}", p.name),
    }
}

pub(super) fn alias_rows(rng: &mut SplitMix64, fi: usize, fact: &Fact, p: &Person) -> Vec<Row> {
    let forms = p.aliased_forms();
    let picked = rng.pick_distinct(&forms, 2, |_| true);
    let mut out = Vec::new();
    for (k, subject) in picked.into_iter().enumerate() {
        let rel = fact.attribute.aliases[k % fact.attribute.aliases.len()];
        let v = &fact.value.forms[1 + rng.index(fact.value.forms.len() - 1)];
        let text = match rng.below(3) {
            0 => format!("{subject}: {rel} {v}."),
            1 => format!("{rel} for {subject} is {v}."),
            _ => format!("{subject} uses {v} as {rel}."),
        };
        out.push(Row {
            text,
            role: Role::Aliased,
            states: Some(fi),
            written: vec![v.clone()],
            keeps: None,
            probe: format!("{subject} {rel}"),
        });
    }
    out
}

const EVENTS: [&str; 4] = [
    "was flagged for review",
    "was updated this morning",
    "came up in the quarterly check",
    "was read out over the phone",
];

pub(super) fn noise_rows(
    rng: &mut SplitMix64,
    fi: usize,
    fact: &Fact,
    raw: &str,
    people: &[Person],
    used: &mut Used,
) -> Vec<Row> {
    let p = &people[fact.subject];
    let a = fact.attribute.name;
    let v = &fact.value;
    let mut out = Vec::new();
    // The fact restated with a paraphrased subject: title and surname.
    let form = &v.forms[rng.index(v.forms.len())];
    out.push(Row {
        text: format!("For {} {}, the {a} on file is {form}.", p.title, p.last),
        role: Role::Restated,
        states: Some(fi),
        written: vec![form.clone()],
        keeps: None,
        probe: format!("{} {} {a}", p.title, p.last),
    });
    // The value with no subject named.
    let form = &v.forms[rng.index(v.forms.len())];
    let event = rng.pick(&EVENTS);
    let cap = capitalize(a);
    out.push(Row {
        text: format!("{cap} {form} {event}."),
        role: Role::Unattributed,
        states: Some(fi),
        written: vec![form.clone()],
        keeps: None,
        probe: format!("{a} {event}"),
    });
    // Another person's near-miss value of the same attribute.
    let others: Vec<&Person> = people.iter().filter(|o| o.name != p.name).collect();
    let o = rng.pick(&others);
    let shape = fact.attribute.shape;
    let (_, near) = used.fresh(rng, shape, |r| near_miss(r, shape, raw));
    out.push(Row {
        text: format!("{}'s {a} is {}.", o.name, near.canonical),
        role: Role::NearMiss,
        states: None,
        written: Vec::new(),
        keeps: Some(near.canonical.clone()),
        probe: format!("{} {a} {}", o.name, near.canonical),
    });
    // The subject and the attribute word, no value.
    out.push(Row {
        text: format!(
            "{} {} asked us to double-check the {a} we hold.",
            p.title, p.last
        ),
        role: Role::Mention,
        states: None,
        written: Vec::new(),
        keeps: None,
        probe: format!("{} {} double-check {a}", p.title, p.last),
    });
    out
}

pub(super) fn collision_rows(
    rng: &mut SplitMix64,
    fi: usize,
    fact: &Fact,
    raw: &str,
    p: &Person,
    extra: &Attribute,
    used: &mut Used,
) -> Vec<Row> {
    let a = fact.attribute.name;
    let mut out = Vec::new();
    let (_, other) = used.fresh(rng, extra.shape, |r| raw_value(r, extra.shape));
    out.push(Row {
        text: format!("{}'s {} is {}.", p.name, extra.name, other.canonical),
        role: Role::OtherObject,
        states: None,
        written: Vec::new(),
        keeps: Some(other.canonical.clone()),
        probe: format!("{} {} {}", p.name, extra.name, other.canonical),
    });
    let shape = fact.attribute.shape;
    let (_, former) = used.fresh(rng, shape, |r| near_miss(r, shape, raw));
    out.push(Row {
        text: format!("{}'s former {a} was {}.", p.name, former.canonical),
        role: Role::FormerValue,
        states: None,
        written: Vec::new(),
        keeps: Some(former.canonical.clone()),
        probe: format!("{} former {a} {}", p.name, former.canonical),
    });
    let (_, second) = used.fresh(rng, extra.shape, |r| raw_value(r, extra.shape));
    let form = &fact.value.forms[rng.index(fact.value.forms.len())];
    out.push(Row {
        text: format!(
            "{}'s {a} is {form}, and {} {} is {}.",
            p.name, p.pronoun, extra.name, second.canonical
        ),
        role: Role::Compound,
        states: Some(fi),
        written: vec![form.clone()],
        keeps: Some(second.canonical.clone()),
        probe: format!("{} {} {}", p.name, extra.name, second.canonical),
    });
    out
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
