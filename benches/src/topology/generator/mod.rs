//! The seeded generator of fictitious fact databases: three domains, four topologies.
//!
//! Every database of one domain shares its people, facts and values (drawn from the seed and
//! the domain); the topology decides which rows state them. Every value is a personal
//! identifier unique to its fact (no value's compact form is contained in another's), so the
//! ground truth is decided by the value: see [`Row::states`] and `docs/conformance.md`.
//!
//! Layout: this file holds the domains, the topologies, the database types and [`generate`];
//! `names` holds the people (name tables in three cultures and their spellings), `attributes`
//! each domain's fact attributes, `values` the identifier values and their written forms, and
//! `rows` the rows each topology writes for a fact.

mod attributes;
mod names;
mod rows;
mod values;

use std::collections::BTreeSet;

use serde::Serialize;

use crate::rng::SplitMix64;
use attributes::attributes;
use names::{people, provider};
use rows::{alias_rows, canonical_row, collision_rows, noise_rows};
use values::{Used, raw_value};

pub use attributes::Attribute;
pub use names::{MAX_PEOPLE, Person};
pub use values::{Value, squash};

/// A domain of facts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Domain {
    /// Patients: medical record, prescription and insurance numbers.
    Medical,
    /// Customers: IBAN, card and customer numbers.
    Finance,
    /// Employees: badge, phone and personnel numbers.
    Staff,
}

/// Every domain, in report order.
pub const DOMAINS: [Domain; 3] = [Domain::Medical, Domain::Finance, Domain::Staff];

impl Domain {
    /// The domain's name, as used in case ids.
    pub fn name(self) -> &'static str {
        match self {
            Domain::Medical => "medical",
            Domain::Finance => "finance",
            Domain::Staff => "staff",
        }
    }
}

/// A deletion topology (the paper's four database variants).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Topology {
    /// One plain row per fact.
    Base,
    /// Every fact only in aliased and perturbed forms (subject, relation and value), two rows
    /// per fact, no canonical row.
    Alias,
    /// Base plus, per fact, restatements (paraphrased subject, or no subject) that carry the
    /// value, and decoys (a near-miss value of another person, the subject and attribute
    /// without any value).
    Noise,
    /// Base plus, per fact, rows about the same subject with other objects: another
    /// attribute, a former value of the same attribute, and a two-clause row that states the
    /// fact and another object.
    Collision,
}

/// Every topology, in report order.
pub const TOPOLOGIES: [Topology; 4] = [
    Topology::Base,
    Topology::Alias,
    Topology::Noise,
    Topology::Collision,
];

impl Topology {
    /// The topology's name, as used in case ids.
    pub fn name(self) -> &'static str {
        match self {
            Topology::Base => "base",
            Topology::Alias => "alias",
            Topology::Noise => "noise",
            Topology::Collision => "collision",
        }
    }
}

/// What a row is, relative to the facts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The fact in canonical form.
    Canonical,
    /// The fact with aliased subject, relation and value forms.
    Aliased,
    /// The fact's value with a paraphrased subject (Noise).
    Restated,
    /// The fact's value with no subject named (Noise).
    Unattributed,
    /// Another person's near-miss value of the same attribute (Noise).
    NearMiss,
    /// The subject and attribute without any value (Noise).
    Mention,
    /// The same subject with another attribute and value (Collision).
    OtherObject,
    /// The same subject and attribute with a former value (Collision).
    FormerValue,
    /// Two clauses: the fact and another object of the same subject (Collision).
    Compound,
}

/// One row of a generated database.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Row {
    /// The text inscribed.
    pub text: String,
    /// What the row is.
    pub role: Role,
    /// The fact whose value the row carries, if any: the row is in that fact's closure.
    pub states: Option<usize>,
    /// The forms of that value the row writes (for the raw scan).
    pub written: Vec<String>,
    /// A value that must survive in the row (the other object of a compound row, or the
    /// row's own value when it states no fact).
    pub keeps: Option<String>,
    /// The row's own probe: its subject and attribute as written (and its surviving value).
    pub probe: String,
}

/// One fact: subject, attribute, value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Fact {
    /// Index of the subject in [`Database::people`].
    pub subject: usize,
    /// The attribute.
    pub attribute: Attribute,
    /// The value.
    pub value: Value,
    /// The purge query of this fact.
    pub query: String,
}

/// A generated database: people, facts, rows, alias declarations and target facts.
#[derive(Clone, Debug, Serialize)]
pub struct Database {
    /// Domain.
    pub domain: Domain,
    /// Topology.
    pub topology: Topology,
    /// People.
    pub people: Vec<Person>,
    /// Facts (three per person).
    pub facts: Vec<Fact>,
    /// Rows, in inscription order.
    pub rows: Vec<Row>,
    /// Facts to purge, one fresh store each.
    pub targets: Vec<usize>,
}

impl Database {
    /// The ground truth of fact `f`: indexes of the rows that state it.
    pub fn closure(&self, f: usize) -> BTreeSet<usize> {
        (0..self.rows.len())
            .filter(|&r| self.rows[r].states == Some(f))
            .collect()
    }

    /// The alias groups to declare: one per person.
    pub fn alias_groups(&self) -> Vec<Vec<String>> {
        self.people.iter().map(Person::alias_forms).collect()
    }
}

/// Most target facts per database.
pub const MAX_FACTS: usize = 3 * MAX_PEOPLE - 6;

/// Generates the database of `domain` and `topology` with `facts` target facts (at most
/// [`MAX_FACTS`]): people, facts and values depend only on the seed, the domain and the number
/// of facts, so the four topologies of a domain hold the same facts.
pub fn generate(seed: u64, domain: Domain, topology: Topology, facts: usize) -> Database {
    let facts_wanted = facts.clamp(1, MAX_FACTS);
    let salt = (domain as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut rng = SplitMix64::new(seed ^ salt);
    // Two more people than the targets need, so every database has non-target subjects.
    let n_people = facts_wanted.div_ceil(3) + 2;
    let people = people(&mut rng, n_people, provider(domain));
    let (attrs, extra) = attributes(domain);
    let mut used = Used::default();
    let mut all_facts = Vec::new();
    let mut raws = Vec::new();
    for (pi, _) in people.iter().enumerate() {
        for a in &attrs {
            let (raw, value) = used.fresh(&mut rng, a.shape, |r| raw_value(r, a.shape));
            raws.push(raw);
            all_facts.push(Fact {
                subject: pi,
                attribute: a.clone(),
                value,
                query: String::new(),
            });
        }
    }
    // Targets: a shuffled choice over all facts; queries rotate over three styles.
    let mut order: Vec<usize> = (0..all_facts.len()).collect();
    rng.shuffle(&mut order);
    let targets: Vec<usize> = order.into_iter().take(facts_wanted).collect();
    for (i, &t) in targets.iter().enumerate() {
        let fact = &all_facts[t];
        let p = &people[fact.subject];
        let v = &fact.value;
        all_facts[t].query = match i % 3 {
            0 => format!("{}'s {} {}", p.name, fact.attribute.name, v.canonical),
            1 => v.forms[1 + rng.index(v.forms.len() - 1)].clone(),
            _ => {
                let forms = [p.nickname.clone(), p.spellings[0].clone()];
                format!(
                    "{}'s {} {}",
                    rng.pick(&forms),
                    fact.attribute.name,
                    v.canonical
                )
            }
        };
    }
    // The topology's rows, from a stream of its own so topologies stay independent.
    let mut rr =
        SplitMix64::new(seed ^ salt ^ (topology as u64 + 1).wrapping_mul(0xBF58_476D_1CE4_E5B9));
    let mut rows = Vec::new();
    for (fi, fact) in all_facts.iter().enumerate() {
        if topology != Topology::Alias {
            rows.push(canonical_row(&mut rr, fi, fact, &people[fact.subject]));
        }
        match topology {
            Topology::Base => {}
            Topology::Alias => {
                rows.extend(alias_rows(&mut rr, fi, fact, &people[fact.subject]));
            }
            Topology::Noise => {
                rows.extend(noise_rows(&mut rr, fi, fact, &raws[fi], &people, &mut used));
            }
            Topology::Collision => {
                rows.extend(collision_rows(
                    &mut rr,
                    fi,
                    fact,
                    &raws[fi],
                    &people[fact.subject],
                    &extra,
                    &mut used,
                ));
            }
        }
    }
    rr.shuffle(&mut rows);
    Database {
        domain,
        topology,
        people,
        facts: all_facts,
        rows,
        targets,
    }
}

#[cfg(test)]
mod tests {
    use super::values::{iban_check, luhn_complete};
    use super::*;

    #[test]
    fn generation_is_deterministic_and_topologies_share_facts() {
        let a = generate(7, Domain::Finance, Topology::Noise, 9);
        let b = generate(7, Domain::Finance, Topology::Noise, 9);
        assert_eq!(a.rows, b.rows);
        assert_eq!(a.targets.len(), 9);
        let base = generate(7, Domain::Finance, Topology::Base, 9);
        assert_eq!(base.facts, a.facts);
        assert_eq!(base.rows.len(), base.facts.len());
        for t in &a.targets {
            assert!(!a.facts[*t].query.is_empty());
        }
    }

    #[test]
    fn values_are_valid_and_unique() {
        assert_eq!(iban_check("370400440532013000"), "89");
        assert_eq!(luhn_complete("453201511283036"), "4532015112830366");
        for d in DOMAINS {
            for t in TOPOLOGIES {
                let db = generate(3, d, t, MAX_FACTS);
                let compact: Vec<String> = db.facts.iter().map(|f| f.value.compact()).collect();
                for (i, c) in compact.iter().enumerate() {
                    for (j, o) in compact.iter().enumerate() {
                        assert!(i == j || !o.contains(c.as_str()), "{c} in {o}");
                    }
                }
                for f in &db.facts {
                    for form in &f.value.forms {
                        assert_eq!(squash(form), f.value.compact(), "{form}");
                    }
                }
            }
        }
    }

    #[test]
    fn every_row_of_a_closure_writes_its_value_and_no_other_row_does() {
        for d in DOMAINS {
            for t in TOPOLOGIES {
                let db = generate(11, d, t, 12);
                for (fi, fact) in db.facts.iter().enumerate() {
                    let c = fact.value.compact();
                    for (ri, row) in db.rows.iter().enumerate() {
                        let holds = squash(&row.text).contains(&c);
                        assert_eq!(holds, db.closure(fi).contains(&ri), "{}", row.text);
                    }
                }
                if t == Topology::Alias {
                    assert!(db.rows.iter().all(|r| r.role == Role::Aliased));
                }
            }
        }
    }
}
