//! The seeded generator of fictitious fact databases: three domains, four topologies.
//!
//! Every database of one domain shares its people, facts and values (drawn from the seed and
//! the domain); the topology decides which rows state them. Every value is a personal
//! identifier unique to its fact (no value's compact form is contained in another's), so the
//! ground truth is decided by the value: see [`Row::states`] and `docs/conformance.md`.

use std::collections::BTreeSet;

use serde::Serialize;

use crate::rng::SplitMix64;

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

/// One first name: canonical spelling, spelling in another script or romanization (if any),
/// nickname, and whether the person is addressed as Mr or Ms.
struct First {
    latin: &'static str,
    other: &'static [&'static str],
    nickname: &'static str,
    male: bool,
}

/// One surname: canonical spelling and its other spellings.
struct Last {
    latin: &'static str,
    other: &'static [&'static str],
    /// The feminine form, where the language inflects surnames.
    feminine: Option<(&'static str, &'static [&'static str])>,
}

/// A culture: first names and surnames that go together.
struct Culture {
    firsts: &'static [First],
    lasts: &'static [Last],
}

const fn f(
    latin: &'static str,
    other: &'static [&'static str],
    nickname: &'static str,
    male: bool,
) -> First {
    First {
        latin,
        other,
        nickname,
        male,
    }
}

const CULTURES: [Culture; 3] = [
    Culture {
        firsts: &[
            f("Mikhail", &["Михаил", "Michail"], "Misha", true),
            f("Dmitry", &["Дмитрий", "Dmitrij"], "Dima", true),
            f("Olga", &["Ольга"], "Olya", false),
            f("Alexei", &["Алексей", "Aleksej"], "Lyosha", true),
        ],
        lasts: &[
            Last {
                latin: "Solovyov",
                other: &["Соловьёв", "Solowjow"],
                feminine: Some(("Solovyova", &["Соловьёва", "Solowjowa"])),
            },
            Last {
                latin: "Smirnov",
                other: &["Смирнов", "Smirnow"],
                feminine: Some(("Smirnova", &["Смирнова", "Smirnowa"])),
            },
            Last {
                latin: "Volkov",
                other: &["Волков", "Wolkow"],
                feminine: Some(("Volkova", &["Волкова", "Wolkowa"])),
            },
            Last {
                latin: "Orlov",
                other: &["Орлов", "Orlow"],
                feminine: Some(("Orlova", &["Орлова", "Orlowa"])),
            },
        ],
    },
    Culture {
        firsts: &[
            f("Nikos", &["Νίκος"], "Niko", true),
            f("Eleni", &["Ελένη"], "Lenio", false),
            f("Dimitris", &["Δημήτρης"], "Mitsos", true),
            f("Katerina", &["Κατερίνα"], "Katia", false),
        ],
        lasts: &[
            Last {
                latin: "Papadopoulos",
                other: &["Παπαδόπουλος"],
                feminine: Some(("Papadopoulou", &["Παπαδοπούλου"])),
            },
            Last {
                latin: "Nikolaidis",
                other: &["Νικολαΐδης"],
                feminine: Some(("Nikolaidou", &["Νικολαΐδου"])),
            },
            Last {
                latin: "Georgiou",
                other: &["Γεωργίου"],
                feminine: None,
            },
            Last {
                latin: "Alexiou",
                other: &["Αλεξίου"],
                feminine: None,
            },
        ],
    },
    Culture {
        firsts: &[
            f("Jürgen", &["Juergen", "Jurgen"], "Jojo", true),
            f("Zoë", &["Zoe"], "Zozo", false),
            f("José", &["Jose"], "Pepe", true),
            f("Anaïs", &["Anais"], "Nana", false),
        ],
        lasts: &[
            Last {
                latin: "Müller",
                other: &["Mueller", "Muller"],
                feminine: None,
            },
            Last {
                latin: "Schäfer",
                other: &["Schaefer"],
                feminine: None,
            },
            Last {
                latin: "Núñez",
                other: &["Nunez"],
                feminine: None,
            },
            Last {
                latin: "Lefèvre",
                other: &["Lefevre"],
                feminine: None,
            },
        ],
    },
];

/// Most people one database holds (distinct first names and surnames).
pub const MAX_PEOPLE: usize = 12;

/// A fictitious person and the forms their name is written in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Person {
    /// Canonical full name ("Mikhail Solovyov").
    pub name: String,
    /// First name.
    pub first: String,
    /// Surname.
    pub last: String,
    /// Mr or Ms.
    pub title: String,
    /// His or her.
    pub pronoun: String,
    /// Declared nickname.
    pub nickname: String,
    /// Declared e-mail address.
    pub email: String,
    /// Forms canonicalization alone must link (other scripts, romanizations, folded
    /// diacritics, upper case, "Surname, First").
    pub spellings: Vec<String>,
}

impl Person {
    /// The alias group declared for this person: the canonical name, the nickname, the e-mail.
    pub fn alias_forms(&self) -> Vec<String> {
        vec![self.name.clone(), self.nickname.clone(), self.email.clone()]
    }

    /// Every aliased form a row or query may use instead of the canonical name.
    pub fn aliased_forms(&self) -> Vec<String> {
        let mut v = self.spellings.clone();
        v.push(self.nickname.clone());
        v.push(self.email.clone());
        v
    }
}

fn ascii_fold(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            'ä' | 'à' | 'á' => 'a',
            'ë' | 'è' | 'é' => 'e',
            'ï' | 'í' => 'i',
            'ö' | 'ó' => 'o',
            'ü' | 'ú' => 'u',
            'ñ' => 'n',
            c => c,
        })
        .collect()
}

fn people(rng: &mut SplitMix64, n: usize, provider: &str) -> Vec<Person> {
    let n = n.min(MAX_PEOPLE);
    let mut firsts: Vec<(usize, usize)> = Vec::new();
    let mut lasts: Vec<(usize, usize)> = Vec::new();
    for (ci, c) in CULTURES.iter().enumerate() {
        firsts.extend((0..c.firsts.len()).map(|i| (ci, i)));
        lasts.extend((0..c.lasts.len()).map(|i| (ci, i)));
    }
    rng.shuffle(&mut firsts);
    let mut out = Vec::new();
    let mut used_last = BTreeSet::new();
    for &(ci, fi) in firsts.iter().take(n) {
        let c = &CULTURES[ci];
        let first = &c.firsts[fi];
        let free: Vec<usize> = (0..c.lasts.len())
            .filter(|i| !used_last.contains(&(ci, *i)))
            .collect();
        let li = free[rng.index(free.len())];
        used_last.insert((ci, li));
        let last = &c.lasts[li];
        let (last_latin, last_other) = match (first.male, last.feminine) {
            (false, Some((l, o))) => (l, o),
            _ => (last.latin, last.other),
        };
        let name = format!("{} {}", first.latin, last_latin);
        let mut spellings = Vec::new();
        // The other script or romanization of both names, where there is one.
        for (f_other, l_other) in first.other.iter().zip(last_other.iter()) {
            spellings.push(format!("{f_other} {l_other}"));
        }
        let folded = ascii_fold(&name);
        if folded != name && !spellings.contains(&folded) {
            spellings.push(folded);
        }
        spellings.push(name.to_uppercase());
        spellings.push(format!("{}, {}", last_latin, first.latin));
        let local = ascii_fold(&format!("{}.{}", first.latin, last_latin)).to_lowercase();
        out.push(Person {
            first: first.latin.to_string(),
            last: last_latin.to_string(),
            title: if first.male { "Mr" } else { "Ms" }.to_string(),
            pronoun: if first.male { "his" } else { "her" }.to_string(),
            nickname: first.nickname.to_string(),
            email: format!("{local}@{provider}.example"),
            spellings,
            name,
        });
    }
    out
}

/// A value's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
enum Shape {
    /// PREFIX-digits ("MRN-4417229").
    Prefixed(&'static str, usize),
    /// A letter and nine digits in threes ("A 123 456 789").
    Insurance,
    /// A German IBAN with valid check digits.
    Iban,
    /// A Luhn-valid 16-digit card number.
    Card,
    /// A UK phone number in the range reserved for drama (020 7946 0000 to 0999).
    Phone,
    /// "P-dddd-ddd".
    Personnel,
}

/// An attribute of a domain.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Attribute {
    /// Canonical name ("prescription number").
    pub name: &'static str,
    /// Other ways people name it ("Rx", "script").
    pub aliases: &'static [&'static str],
    shape: Shape,
}

const fn attr(name: &'static str, aliases: &'static [&'static str], shape: Shape) -> Attribute {
    Attribute {
        name,
        aliases,
        shape,
    }
}

/// The three fact attributes of a domain, and the extra attribute collision rows use.
fn attributes(d: Domain) -> ([Attribute; 3], Attribute) {
    match d {
        Domain::Medical => (
            [
                attr(
                    "medical record number",
                    &["chart number", "hospital number"],
                    Shape::Prefixed("MRN", 7),
                ),
                attr(
                    "prescription number",
                    &["Rx number", "script number"],
                    Shape::Prefixed("RX", 6),
                ),
                attr(
                    "health insurance number",
                    &["insurance ID", "insurance card number"],
                    Shape::Insurance,
                ),
            ],
            attr(
                "appointment reference",
                &["booking reference"],
                Shape::Prefixed("APT", 6),
            ),
        ),
        Domain::Finance => (
            [
                attr(
                    "IBAN",
                    &["bank account", "account for transfers"],
                    Shape::Iban,
                ),
                attr("card number", &["credit card", "Visa card"], Shape::Card),
                attr(
                    "customer number",
                    &["client number", "customer ID"],
                    Shape::Prefixed("CN", 8),
                ),
            ],
            attr(
                "savings account number",
                &["savings account"],
                Shape::Prefixed("SA", 8),
            ),
        ),
        Domain::Staff => (
            [
                attr(
                    "badge number",
                    &["access badge", "door pass"],
                    Shape::Prefixed("B", 5),
                ),
                attr("phone number", &["mobile", "direct line"], Shape::Phone),
                attr(
                    "personnel number",
                    &["staff number", "employee ID"],
                    Shape::Personnel,
                ),
            ],
            attr("locker number", &["locker"], Shape::Prefixed("L", 4)),
        ),
    }
}

/// A value and the forms it is written in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Value {
    /// Canonical written form ("DE89 3704 0044 0532 0130 00").
    pub canonical: String,
    /// Other written forms (other grouping, case, width), canonical first.
    pub forms: Vec<String>,
}

impl Value {
    /// Letters and digits only, lower case: the form every spelling shares.
    pub fn compact(&self) -> String {
        squash(&self.canonical)
    }
}

/// Letters and digits of `s` after canonical folding (case, width), lower case.
pub fn squash(s: &str) -> String {
    oubli::canon::fold(s)
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect()
}

fn digits(rng: &mut SplitMix64, n: usize) -> String {
    (0..n)
        .map(|_| char::from(b'0' + rng.below(10) as u8))
        .collect()
}

fn full_width(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '!'..='~' => char::from_u32(c as u32 - 0x21 + 0xFF01).unwrap_or(c),
            c => c,
        })
        .collect()
}

fn group(s: &str, sizes: &[usize], sep: &str) -> String {
    let mut out = Vec::new();
    let mut i = 0;
    for &n in sizes {
        if i >= s.len() {
            break;
        }
        let end = (i + n).min(s.len());
        out.push(&s[i..end]);
        i = end;
    }
    if i < s.len() {
        out.push(&s[i..]);
    }
    out.join(sep)
}

fn iban_check(bban: &str) -> String {
    // ISO 13616: move "DE00" to the end, letters to numbers, 98 - (n mod 97).
    let rearranged = format!("{bban}DE00");
    let mut rem: u64 = 0;
    for c in rearranged.chars() {
        let v = c.to_digit(36).expect("alphanumeric");
        let s = v.to_string();
        for d in s.chars() {
            rem = (rem * 10 + d.to_digit(10).expect("digit") as u64) % 97;
        }
    }
    format!("{:02}", 98 - rem)
}

fn luhn_complete(body: &str) -> String {
    let sum: u32 = body
        .chars()
        .rev()
        .enumerate()
        .map(|(i, c)| {
            let d = c.to_digit(10).expect("digit");
            if i % 2 == 0 {
                let x = d * 2;
                if x > 9 { x - 9 } else { x }
            } else {
                d
            }
        })
        .sum();
    format!("{body}{}", (10 - sum % 10) % 10)
}

/// Builds the value of `shape` from its digits.
fn value_from(shape: Shape, raw: &str) -> Value {
    let (canonical, mut forms) = match shape {
        Shape::Prefixed(p, _) => (
            format!("{p}-{raw}"),
            vec![
                format!("{p} {raw}"),
                format!("{}{raw}", p.to_lowercase()),
                full_width(&format!("{p}-{raw}")),
            ],
        ),
        Shape::Insurance => {
            let (l, d) = raw.split_at(1);
            (
                format!("{l} {}", group(d, &[3, 3, 3], " ")),
                vec![
                    format!("{l}{d}"),
                    format!("{l}-{}", group(d, &[3, 3, 3], "-")),
                    format!("{} {}", l.to_lowercase(), group(d, &[3, 3, 3], " ")),
                ],
            )
        }
        Shape::Iban => (
            group(raw, &[4, 4, 4, 4, 4], " "),
            vec![
                raw.to_string(),
                raw.to_lowercase(),
                group(raw, &[4, 4, 4, 4, 4], "-"),
            ],
        ),
        Shape::Card => (
            group(raw, &[4, 4, 4], " "),
            vec![raw.to_string(), group(raw, &[4, 4, 4], "-")],
        ),
        Shape::Phone => (
            format!("+44 20 7946 {raw}"),
            vec![
                format!("+44207946{raw}"),
                format!("+44-20-7946-{raw}"),
                format!("+44 (20) 7946 {raw}"),
            ],
        ),
        Shape::Personnel => (
            format!("P-{}-{}", &raw[..4], &raw[4..]),
            vec![format!("P {} {}", &raw[..4], &raw[4..]), format!("p{raw}")],
        ),
    };
    forms.insert(0, canonical.clone());
    Value { canonical, forms }
}

/// Draws the raw part of a value of `shape`.
fn raw_value(rng: &mut SplitMix64, shape: Shape) -> String {
    match shape {
        Shape::Prefixed(_, n) => format!("{}{}", 1 + rng.below(9), digits(rng, n - 1)),
        Shape::Insurance => format!(
            "{}{}",
            char::from(b'A' + rng.below(26) as u8),
            digits(rng, 9)
        ),
        Shape::Iban => {
            let bban = format!("{}{}", digits(rng, 8), digits(rng, 10));
            format!("DE{}{bban}", iban_check(&bban))
        }
        Shape::Card => luhn_complete(&format!("4{}", digits(rng, 14))),
        Shape::Phone => format!("0{}", digits(rng, 3)),
        Shape::Personnel => format!("{}{}", 1 + rng.below(9), digits(rng, 6)),
    }
}

/// A near miss of `raw`: the same shape with its last digits changed (the same bank, the same
/// card issuer, the same phone block).
fn near_miss(rng: &mut SplitMix64, shape: Shape, raw: &str) -> String {
    match shape {
        Shape::Iban => {
            let bban = &raw[4..];
            let bban = format!("{}{}", &bban[..14], digits(rng, 4));
            format!("DE{}{bban}", iban_check(&bban))
        }
        Shape::Card => luhn_complete(&format!("{}{}", &raw[..12], digits(rng, 3))),
        _ => {
            let keep = raw.len() - 2;
            format!("{}{}", &raw[..keep], digits(rng, 2))
        }
    }
}

/// Values already used in a database: no compact form may equal or contain another.
#[derive(Default)]
struct Used(Vec<String>);

impl Used {
    fn fresh(
        &mut self,
        rng: &mut SplitMix64,
        shape: Shape,
        draw: impl Fn(&mut SplitMix64) -> String,
    ) -> (String, Value) {
        loop {
            let raw = draw(rng);
            let v = value_from(shape, &raw);
            let c = v.compact();
            if self
                .0
                .iter()
                .all(|u| !u.contains(&c) && !c.contains(u.as_str()))
            {
                self.0.push(c);
                return (raw, v);
            }
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

fn provider(d: Domain) -> &'static str {
    match d {
        Domain::Medical => "clinic-mail",
        Domain::Finance => "kestrelbank",
        Domain::Staff => "northwind-staff",
    }
}

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

fn canonical_row(rng: &mut SplitMix64, fi: usize, fact: &Fact, p: &Person) -> Row {
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

fn alias_rows(rng: &mut SplitMix64, fi: usize, fact: &Fact, p: &Person) -> Vec<Row> {
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

fn noise_rows(
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

fn collision_rows(
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

#[cfg(test)]
mod tests {
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
