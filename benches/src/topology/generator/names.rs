//! The people of a database: first names and surnames of three cultures, with their other
//! scripts, romanizations, nicknames and feminine forms, and the spellings a person is
//! written in.

use std::collections::BTreeSet;

use serde::Serialize;

use super::Domain;
use crate::rng::SplitMix64;

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

pub(super) fn people(rng: &mut SplitMix64, n: usize, provider: &str) -> Vec<Person> {
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

/// The e-mail provider of a domain's people.
pub(super) fn provider(d: Domain) -> &'static str {
    match d {
        Domain::Medical => "clinic-mail",
        Domain::Finance => "kestrelbank",
        Domain::Staff => "northwind-staff",
    }
}
