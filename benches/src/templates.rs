//! The template suite: five families of forgetting, four sub-templates each, generated
//! deterministically from a seed.
//!
//! Families follow ForgetEval: supersession (the new fact wins, the old leaves top-k), decay (a
//! released, expired fact stays out), amnesia (forget everything about one entity while its
//! siblings survive), purge (hard erasure by identifier) and drift (a chain of supersedes where
//! only the latest state is recalled). Each case also carries `distractors` facts about other
//! people, and its setup facts are shuffled. The generator cycles through a family's four
//! sub-templates; with the defaults (seed 42, 4 distractors, 50 cases per sub-template) the
//! suite is 1000 cases.

use crate::case::{Case, Mutation};
use crate::rng::SplitMix64;
use crate::vocab::*;

/// The families and their sub-templates, in generation order.
pub const FAMILIES: [(&str, [&str; 4]); 5] = [
    ("supersession", ["job", "theme", "diet", "long_form"]),
    ("decay", ["otp", "hotel", "appointment", "wifi"]),
    ("amnesia", ["person", "project", "pet", "client"]),
    ("purge", ["email", "phone", "customer_id", "iban"]),
    ("drift", ["city", "title", "phone_model", "manager"]),
];

/// Generator settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TemplateConfig {
    /// PRNG seed.
    pub seed: u64,
    /// Distractor facts per case.
    pub distractors: usize,
    /// Cases per sub-template (20 sub-templates in all).
    pub per_subtemplate: usize,
}

impl Default for TemplateConfig {
    fn default() -> Self {
        TemplateConfig {
            seed: 42,
            distractors: 4,
            per_subtemplate: 50,
        }
    }
}

/// Generate the suite: families in order, each cycling through its sub-templates.
pub fn generate(config: &TemplateConfig) -> Vec<Case> {
    let mut rng = SplitMix64::new(config.seed);
    let mut cases = Vec::new();
    for (family, subs) in FAMILIES {
        for i in 0..subs.len() * config.per_subtemplate {
            let sub = subs[i % subs.len()];
            let mut ctx = Ctx {
                rng: &mut rng,
                first: Vec::new(),
                sur: Vec::new(),
            };
            let draft = build(&mut ctx, family, sub);
            let mut facts = draft.facts;
            for _ in 0..config.distractors {
                facts.push(ctx.distractor());
            }
            ctx.rng.shuffle(&mut facts);
            cases.push(Case {
                id: format!("tpl-{family}-{sub}-{:03}", i / subs.len()),
                category: family.to_string(),
                setup_facts: facts,
                mutations: draft.mutations,
                final_query: draft.final_query,
                must_contain: draft.must_contain,
                must_not_contain: draft.must_not_contain,
            });
        }
    }
    cases
}

/// One case before distractors and shuffling.
struct Draft {
    facts: Vec<String>,
    mutations: Vec<Mutation>,
    final_query: String,
    must_contain: Vec<String>,
    must_not_contain: Vec<String>,
}

/// Per-case drawing state: the names already used, so distractors stay about other people.
struct Ctx<'a> {
    rng: &'a mut SplitMix64,
    first: Vec<&'static str>,
    sur: Vec<&'static str>,
}

impl Ctx<'_> {
    fn one(&mut self, pool: &'static [&'static str]) -> &'static str {
        self.rng.pick::<&str>(pool)
    }

    fn distinct(&mut self, pool: &'static [&'static str], n: usize) -> Vec<&'static str> {
        self.rng
            .pick_distinct(pool, n, |_| true)
            .into_iter()
            .copied()
            .collect()
    }

    fn first_name(&mut self) -> &'static str {
        let used = self.first.clone();
        let name = *self
            .rng
            .pick_distinct(FIRST_NAMES, 1, |n| !used.contains(n))[0];
        self.first.push(name);
        name
    }

    fn surname(&mut self) -> &'static str {
        let used = self.sur.clone();
        let name = *self.rng.pick_distinct(SURNAMES, 1, |n| !used.contains(n))[0];
        self.sur.push(name);
        name
    }

    fn person(&mut self) -> String {
        let f = self.first_name();
        let s = self.surname();
        format!("{f} {s}")
    }

    fn digits(&mut self, n: usize) -> String {
        (0..n)
            .map(|_| char::from(b'0' + self.rng.below(10) as u8))
            .collect()
    }

    fn date(&mut self) -> String {
        let day = self.rng.range(1, 28);
        format!("{day} {}", self.one(MONTHS))
    }

    fn distractor(&mut self) -> String {
        let who = self.person();
        match self.rng.below(7) {
            0 => format!(
                "{who} plays the {} in a community orchestra.",
                self.one(INSTRUMENTS)
            ),
            1 => format!("{who}'s favourite board game is {}.", self.one(GAMES)),
            2 => format!("{who} is training for a {} this spring.", self.one(RACES)),
            3 => format!("{who} collects {}.", self.one(COLLECTIBLES)),
            4 => format!(
                "{who} volunteers at the {} on Saturdays.",
                self.one(VOLUNTEER_PLACES)
            ),
            5 => format!("{who} is learning {} on the commute.", self.one(LANGUAGES)),
            _ => format!("{who} drinks {} every afternoon.", self.one(TEAS)),
        }
    }
}

fn s(x: &str) -> String {
    x.to_string()
}

fn supersede(old_q: String, new: String) -> Mutation {
    Mutation::Supersede { old_q, new }
}

fn release(q: String) -> Mutation {
    Mutation::Release { q }
}

fn purge(q: String) -> Mutation {
    Mutation::Purge { q }
}

fn build(c: &mut Ctx<'_>, family: &str, sub: &str) -> Draft {
    match (family, sub) {
        ("supersession", "job") => {
            let p = c.person();
            let j = c.distinct(JOBS, 2);
            Draft {
                facts: vec![format!("{p} works as a {}.", j[0])],
                mutations: vec![supersede(
                    format!("{p} works as"),
                    format!("{p} works as a {} now.", j[1]),
                )],
                final_query: format!("What does {p} work as?"),
                must_contain: vec![s(j[1])],
                must_not_contain: vec![s(j[0])],
            }
        }
        ("supersession", "theme") => {
            let p = c.person();
            let t = c.distinct(THEMES, 2);
            Draft {
                facts: vec![format!(
                    "{p} uses the {} colour theme in the code editor.",
                    t[0]
                )],
                mutations: vec![supersede(
                    format!("{p} editor colour theme"),
                    format!("{p} switched the code editor to the {} colour theme.", t[1]),
                )],
                final_query: format!("Which colour theme does {p} use in the editor?"),
                must_contain: vec![s(t[1])],
                must_not_contain: vec![s(t[0])],
            }
        }
        ("supersession", "diet") => {
            let p = c.person();
            let d = c.distinct(DIETS, 2);
            let allergen = c.one(ALLERGENS);
            Draft {
                facts: vec![
                    format!("{p} follows a {} diet.", d[0]),
                    format!("{p} is allergic to {allergen}."),
                ],
                mutations: vec![supersede(
                    format!("{p} diet"),
                    format!("{p} follows a {} diet now.", d[1]),
                )],
                final_query: format!("What should we cook for {p}: diet and allergies?"),
                must_contain: vec![s(d[1]), s(allergen)],
                must_not_contain: vec![s(d[0])],
            }
        }
        ("supersession", "long_form") => {
            let p = c.person();
            let t = c.distinct(TOOLS, 2);
            let city = c.one(CITIES);
            Draft {
                facts: vec![format!(
                    "During the offsite in {city}, {p} argued at length that the whole team should standardise on {} for project tracking, because the current mix of spreadsheets and email threads keeps losing tickets.",
                    t[0]
                )],
                mutations: vec![supersede(
                    format!("{p} project tracking tool for the team"),
                    format!(
                        "After a trial month, {p} now wants the team to standardise on {} for project tracking instead.",
                        t[1]
                    ),
                )],
                final_query: format!("Which project tracking tool does {p} want the team to use?"),
                must_contain: vec![s(t[1])],
                must_not_contain: vec![s(t[0])],
            }
        }
        ("decay", "otp") => {
            let first = c.first_name();
            let sur = c.surname();
            let p = format!("{first} {sur}");
            let code = c.digits(6);
            let user =
                format!("{}.{}{}", ascii_fold(first), ascii_fold(sur), c.digits(2)).to_lowercase();
            Draft {
                facts: vec![
                    format!("{p}'s one-time sign-in code is {code}."),
                    format!("{p}'s account username is {user}."),
                ],
                mutations: vec![release(format!("{p} one-time sign-in code"))],
                final_query: format!("{p} sign-in details"),
                must_contain: vec![user],
                must_not_contain: vec![code],
            }
        }
        ("decay", "hotel") => {
            let p = c.person();
            let hotel = c.one(HOTELS);
            let street = c.one(STREETS);
            Draft {
                facts: vec![
                    format!(
                        "Until the renovation is finished, {p} is staying at the {hotel} Hotel."
                    ),
                    format!("{p}'s home address is on {street}."),
                ],
                mutations: vec![release(format!("{p} staying at hotel during renovation"))],
                final_query: format!("Where is {p} staying?"),
                must_contain: vec![s(street)],
                must_not_contain: vec![s(hotel)],
            }
        }
        ("decay", "appointment") => {
            let p = c.person();
            let appt = c.one(APPOINTMENTS);
            let date = c.date();
            let clinic = c.one(CLINICS);
            Draft {
                facts: vec![
                    format!("{p} has a {appt} appointment on {date} at 9:30."),
                    format!("{p} is registered with the {clinic} practice."),
                ],
                mutations: vec![release(format!("{p} {appt} appointment on {date}"))],
                final_query: format!("{p} appointments and medical practice"),
                must_contain: vec![s(clinic)],
                must_not_contain: vec![date],
            }
        }
        ("decay", "wifi") => {
            let venue = c.one(VENUES);
            let password = format!("{}!{}", c.one(PASSWORD_WORDS), c.digits(4));
            let ssid = format!("{}-Staff-{}", venue.replace(' ', ""), c.digits(2));
            Draft {
                facts: vec![
                    format!(
                        "This week's guest Wi-Fi password at the {venue} co-working space is {password}."
                    ),
                    format!("The staff network at the {venue} co-working space is called {ssid}."),
                ],
                mutations: vec![release(format!(
                    "guest Wi-Fi password at the {venue} co-working space"
                ))],
                final_query: format!("Wi-Fi at the {venue} co-working space"),
                must_contain: vec![ssid],
                must_not_contain: vec![password],
            }
        }
        ("amnesia", "person") => {
            let sur = c.surname();
            let a = format!("{} {sur}", c.first_name());
            let b = format!("{} {sur}", c.first_name());
            let city = c.distinct(CITIES, 2);
            let co = c.distinct(COMPANIES, 2);
            Draft {
                facts: vec![
                    format!("{a} lives in {}.", city[0]),
                    format!("{a} works at {}.", co[0]),
                    format!("{b} lives in {}.", city[1]),
                    format!("{b} works at {}.", co[1]),
                ],
                mutations: vec![release(a.clone())],
                final_query: format!("Where do the {sur} family live and work?"),
                must_contain: vec![s(city[1]), s(co[1])],
                must_not_contain: vec![s(city[0]), s(co[0])],
            }
        }
        ("amnesia", "project") => {
            let code = c.distinct(CODENAMES, 2);
            let lead = [c.person(), c.person()];
            let date = [c.date(), c.date()];
            Draft {
                facts: vec![
                    format!("Project {} ships on {}.", code[0], date[0]),
                    format!("Project {} is led by {}.", code[0], lead[0]),
                    format!("Project {} ships on {}.", code[1], date[1]),
                    format!("Project {} is led by {}.", code[1], lead[1]),
                ],
                mutations: vec![release(format!("Project {}", code[0]))],
                final_query: s("Which projects are running, who leads them and when do they ship?"),
                must_contain: vec![s(code[1]), lead[1].clone()],
                must_not_contain: vec![s(code[0]), lead[0].clone()],
            }
        }
        ("amnesia", "pet") => {
            let p = c.person();
            let pet = c.distinct(PET_NAMES, 2);
            let medication = c.one(MEDICATIONS);
            let food = c.one(PET_FOODS);
            Draft {
                facts: vec![
                    format!("{p}'s dog is called {}.", pet[0]),
                    format!("{} needs {medication} twice a day.", pet[0]),
                    format!("{p}'s cat is called {}.", pet[1]),
                    format!("{} only eats {food}.", pet[1]),
                ],
                mutations: vec![release(s(pet[0]))],
                final_query: format!("What do {p}'s pets need?"),
                must_contain: vec![s(pet[1]), s(food)],
                must_not_contain: vec![s(pet[0]), s(medication)],
            }
        }
        ("amnesia", "client") => {
            let co = c.distinct(COMPANIES, 2);
            let city = c.distinct(CITIES, 2);
            let manager = [c.person(), c.person()];
            Draft {
                facts: vec![
                    format!("{} is a client based in {}.", co[0], city[0]),
                    format!("The account manager for {} is {}.", co[0], manager[0]),
                    format!("{} is a client based in {}.", co[1], city[1]),
                    format!("The account manager for {} is {}.", co[1], manager[1]),
                ],
                mutations: vec![release(s(co[0]))],
                final_query: s("Which clients do we have and who manages each account?"),
                must_contain: vec![s(co[1]), manager[1].clone()],
                must_not_contain: vec![s(co[0]), manager[0].clone(), s(city[0])],
            }
        }
        ("purge", "email") => {
            let mut emails = Vec::new();
            let mut people = Vec::new();
            let domains = c.distinct(EMAIL_DOMAINS, 2);
            for domain in domains {
                let f = c.first_name();
                let sn = c.surname();
                people.push(format!("{f} {sn}"));
                emails
                    .push(format!("{}.{}@{domain}", ascii_fold(f), ascii_fold(sn)).to_lowercase());
            }
            Draft {
                facts: vec![
                    format!("{}'s contact email is {}.", people[0], emails[0]),
                    format!("{}'s contact email is {}.", people[1], emails[1]),
                ],
                mutations: vec![purge(emails[0].clone())],
                final_query: s("Which contact email addresses do we have?"),
                must_contain: vec![emails[1].clone()],
                must_not_contain: vec![emails[0].clone()],
            }
        }
        ("purge", "phone") => {
            let p = [c.person(), c.person()];
            let mut phones = Vec::new();
            for _ in 0..2 {
                let code = c.one(PHONE_CODES);
                phones.push(format!(
                    "{code} {} {} {}",
                    c.digits(3),
                    c.digits(3),
                    c.digits(4)
                ));
            }
            Draft {
                facts: vec![
                    format!("Call {} on {} about deliveries.", p[0], phones[0]),
                    format!("{}'s phone number is {}.", p[1], phones[1]),
                ],
                mutations: vec![purge(phones[0].clone())],
                final_query: s("Which phone numbers do we have on file?"),
                must_contain: vec![phones[1].clone()],
                must_not_contain: vec![phones[0].clone()],
            }
        }
        ("purge", "customer_id") => {
            let p = [c.person(), c.person()];
            let prefix = c.one(CUSTOMER_PREFIXES);
            let ids = [
                format!("{prefix}{}", c.digits(6)),
                format!("{prefix}{}", c.digits(6)),
            ];
            Draft {
                facts: vec![
                    format!("Customer {} ({}) asked for invoices by post.", ids[0], p[0]),
                    format!("Customer {} ({}) prefers invoices by email.", ids[1], p[1]),
                ],
                mutations: vec![purge(ids[0].clone())],
                final_query: s("How do our customers want their invoices?"),
                must_contain: vec![ids[1].clone()],
                must_not_contain: vec![ids[0].clone(), p[0].clone()],
            }
        }
        ("purge", "iban") => {
            let p = [c.person(), c.person()];
            let mut ibans = Vec::new();
            for _ in 0..2 {
                let country = c.one(IBAN_COUNTRIES);
                ibans.push(format!(
                    "{country}{} {} {} {} {}",
                    c.digits(2),
                    c.digits(4),
                    c.digits(4),
                    c.digits(4),
                    c.digits(4)
                ));
            }
            Draft {
                facts: vec![
                    format!("Refunds for {} go to IBAN {}.", p[0], ibans[0]),
                    format!("Refunds for {} go to IBAN {}.", p[1], ibans[1]),
                ],
                mutations: vec![purge(ibans[0].clone())],
                final_query: s("Which IBANs do refunds go to?"),
                must_contain: vec![ibans[1].clone()],
                must_not_contain: vec![ibans[0].clone()],
            }
        }
        ("drift", "city") => {
            let p = c.person();
            let city = c.distinct(CITIES, 3);
            Draft {
                facts: vec![format!("{p} lives in {}.", city[0])],
                mutations: vec![
                    supersede(
                        format!("{p} lives in"),
                        format!("{p} lives in {} now.", city[1]),
                    ),
                    supersede(
                        format!("{p} lives in"),
                        format!("{p} lives in {} now.", city[2]),
                    ),
                ],
                final_query: format!("Where does {p} live?"),
                must_contain: vec![s(city[2])],
                must_not_contain: vec![s(city[0]), s(city[1])],
            }
        }
        ("drift", "title") => {
            let p = c.person();
            let t = c.distinct(TITLES, 4);
            let mutations = t[1..]
                .iter()
                .map(|title| {
                    supersede(
                        format!("{p} job title"),
                        format!("{p}'s job title is {title}."),
                    )
                })
                .collect();
            Draft {
                facts: vec![format!("{p}'s job title is {}.", t[0])],
                mutations,
                final_query: format!("What is {p}'s job title?"),
                must_contain: vec![s(t[3])],
                must_not_contain: vec![s(t[0]), s(t[1]), s(t[2])],
            }
        }
        ("drift", "phone_model") => {
            let p = c.person();
            let m = c.distinct(PHONE_MODELS, 3);
            Draft {
                facts: vec![format!("{p} uses a {} as their work phone.", m[0])],
                mutations: vec![
                    supersede(
                        format!("{p} work phone"),
                        format!("{p} switched their work phone to a {}.", m[1]),
                    ),
                    supersede(
                        format!("{p} work phone"),
                        format!("{p} switched their work phone to a {}.", m[2]),
                    ),
                ],
                final_query: format!("Which work phone does {p} have?"),
                must_contain: vec![s(m[2])],
                must_not_contain: vec![s(m[0]), s(m[1])],
            }
        }
        ("drift", "manager") => {
            let p = c.person();
            let m = [c.person(), c.person(), c.person()];
            Draft {
                facts: vec![format!("{p} reports to {}.", m[0])],
                mutations: vec![
                    supersede(
                        format!("{p} reports to"),
                        format!("{p} reports to {} after the reorganisation.", m[1]),
                    ),
                    supersede(
                        format!("{p} reports to"),
                        format!("{p} reports to {} since the merger.", m[2]),
                    ),
                ],
                final_query: format!("Who does {p} report to?"),
                must_contain: vec![m[2].clone()],
                must_not_contain: vec![m[0].clone(), m[1].clone()],
            }
        }
        _ => unreachable!("FAMILIES and build() list the same sub-templates"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_suite_is_1000_cases_200_per_family_with_unique_ids() {
        let cases = generate(&TemplateConfig::default());
        assert_eq!(cases.len(), 1000);
        for (family, _) in FAMILIES {
            assert_eq!(cases.iter().filter(|c| c.category == family).count(), 200);
        }
        let mut ids: Vec<&str> = cases.iter().map(|c| c.id.as_str()).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), 1000);
        assert_eq!(cases[0].id, "tpl-supersession-job-000");
        assert_eq!(cases[1].id, "tpl-supersession-theme-000");
    }

    #[test]
    fn generation_is_deterministic_and_seed_dependent() {
        let a = generate(&TemplateConfig::default());
        let b = generate(&TemplateConfig::default());
        assert_eq!(a, b);
        let c = generate(&TemplateConfig {
            seed: 43,
            ..TemplateConfig::default()
        });
        assert_ne!(a, c);
    }

    #[test]
    fn distractors_are_added_and_about_other_people() {
        let cfg = TemplateConfig {
            distractors: 4,
            per_subtemplate: 2,
            ..TemplateConfig::default()
        };
        let zero = generate(&TemplateConfig {
            distractors: 0,
            ..cfg
        });
        let four = generate(&cfg);
        assert_eq!(zero.len(), 40);
        for (z, f) in zero.iter().zip(&four) {
            assert_eq!(f.setup_facts.len(), z.setup_facts.len() + 4);
        }
    }
}
