//! Rows that name another attribute concept than the request: "Becker's home email" is not
//! the row "Tom Becker's home address is ...", "Ahmed Hassan的工资" (salary) not "Ahmed
//! Hassan's annual bonus is ...", however many of the request's other words the row holds.
//!
//! The attribute concepts ([`crate::concepts`]) name, in every language the table covers,
//! the attributes a personal-memory store holds. When a request names one or more of them and
//! a row names some too but none of the request's, the row states another attribute: a call
//! that acts on it would erase, release or overwrite what was not asked. A row that names no
//! concept ("Fatima has staff number E50564", "Kenta resides in a flat in Osaka") is left to
//! the other evidence: the table is not every attribute, and silence is no contrast.

use std::collections::BTreeSet;

use super::candidate::Candidate;
use super::query::QueryShape;
use crate::canon::Script;

/// How a word names a concept: by the concept's own name, or by any of its words.
#[derive(Clone, Copy)]
enum Naming {
    /// By the concept's name ("email", "salary", "passports") in English, by any of its forms
    /// in another script. The other English words of a concept (verbs such as "paid" or
    /// "works", neighbours such as "booking" or "officer") say that a text is about the
    /// attribute, not that it is about no other: they are no ground for a contrast.
    ByName,
    /// By any of the concept's words or forms ([`crate::concepts::concepts_of_word`]).
    Broadly,
}

/// The attribute concepts one word names (days of the week aside).
fn word_concepts(word: &str, script: Script, form: &str, naming: Naming) -> Vec<&'static str> {
    let found = match naming {
        Naming::Broadly => crate::concepts::concepts_of_word(word, script, form),
        Naming::ByName => crate::concepts::concepts_named_exactly(word, script, form),
    };
    let lower = form.to_lowercase();
    let singular = [
        Some(lower.as_str()),
        lower.strip_suffix("es"),
        lower.strip_suffix('s'),
    ];
    found
        .into_iter()
        .filter(|k| crate::concepts::is_attribute(k))
        .filter(|k| {
            matches!(naming, Naming::Broadly)
                || script != Script::Latin
                || singular.contains(&Some(*k))
        })
        .collect()
}

/// The concepts `text` names, skipping the words (of spaced scripts) at a chunk `skip` holds:
/// a run of an unspaced script starts with a name as often as not ("张伟的工资").
///
/// An address after a word naming the e-mail concept is the e-mail's ("her home email
/// address", "البريد الإلكتروني"): it names no street address.
fn text_concepts(text: &str, skip: &BTreeSet<usize>, naming: Naming) -> BTreeSet<&'static str> {
    let chunks = crate::canon::chunks(text);
    let words = crate::concepts::words(text, &chunks);
    let concepts = |k: usize, naming| {
        let (i, span, script) = &words[k];
        word_concepts(&text[span.clone()], *script, &chunks[*i].form, naming)
    };
    let mut out = BTreeSet::new();
    for (k, (i, _, script)) in words.iter().enumerate() {
        if !crate::concepts::unspaced(*script) && skip.contains(i) {
            continue;
        }
        for concept in concepts(k, naming) {
            // Read only for an address: the word before it is looked up again.
            let of_email = || k > 0 && concepts(k - 1, Naming::Broadly).contains(&"email");
            if concept != "address" || !of_email() {
                out.insert(concept);
            }
        }
    }
    out
}

/// What a request asks for: the attribute concepts its words name by name, and those they
/// name at all.
struct Wanted {
    named: BTreeSet<&'static str>,
    broad: BTreeSet<&'static str>,
}

impl Wanted {
    /// The concepts of the words of `q`, names aside.
    fn of(q: &QueryShape) -> Wanted {
        let names = q.words.iter().filter(|w| w.name).map(|w| w.pos).collect();
        // The attribute is asked in the first clause; what follows a break is a reason or a
        // plan ("..., she'll take a hotel transfer"), named by name it asks nothing.
        let first = q
            .text
            .find([',', ';', ':', '—', '–', '，', '；', '。'])
            .unwrap_or(q.text.len());
        Wanted {
            named: text_concepts(&q.text[..first], &names, Naming::ByName),
            broad: text_concepts(&q.text, &names, Naming::Broadly),
        }
    }

    /// Adds the concepts of the attribute a supersede's new text states ("Sarah's driver's
    /// licence number is ..."; not the words of its value).
    fn add_stated(&mut self, new: &QueryShape) {
        for i in super::supersede_fit::stated_attribute(new) {
            let c = &new.words[i].chunk;
            let word = &new.text[c.span.clone()];
            self.named
                .extend(word_concepts(word, c.script, &c.form, Naming::ByName));
            self.broad
                .extend(word_concepts(word, c.script, &c.form, Naming::Broadly));
        }
    }
}

/// Why `row` states another attribute than `wanted`: the request names an attribute concept
/// by name, the row names one by name too, and no word of the row names any of the request's
/// concepts, even broadly ("earns" for a salary). `None` otherwise.
fn contrast(wanted: &Wanted, row: &str) -> Option<String> {
    if wanted.named.is_empty() {
        return None;
    }
    let none = BTreeSet::new();
    let held = text_concepts(row, &none, Naming::ByName);
    if held.is_empty() {
        return None;
    }
    let broad = text_concepts(row, &none, Naming::Broadly);
    if broad.iter().any(|k| wanted.broad.contains(k)) {
        return None;
    }
    let list = |s: &BTreeSet<&'static str>| s.iter().copied().collect::<Vec<_>>().join(", ");
    Some(format!(
        "names another attribute ({}) than the request ({})",
        list(&held),
        list(&wanted.named)
    ))
}

/// Drops the candidates that name another attribute concept than the request, and records
/// each with its reason. For a supersede's fallback choice (`new` given: its words reached no
/// row), the attribute the new text states counts as asked too. Nothing is dropped for a
/// request that names an identifier (the identifier decides) or reaches everything about its
/// subject.
pub(super) fn drop_other_concepts(
    q: &QueryShape,
    new: Option<&QueryShape>,
    scored: &mut Vec<Candidate>,
    rejected: &mut Vec<super::Rejected>,
) {
    if q.has_identifiers() || q.fan_out {
        return;
    }
    let mut wanted = Wanted::of(q);
    if let Some(new) = new {
        wanted.add_stated(new);
    }
    if wanted.named.is_empty() {
        return;
    }
    super::supersede_fit::drop_candidates(scored, rejected, |row| contrast(&wanted, row.text));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contrasts(query: &str, row: &str) -> bool {
        contrast(&Wanted::of(&QueryShape::parse(query)), row).is_some()
    }

    #[test]
    fn a_row_naming_only_other_attributes_contrasts() {
        assert!(contrasts(
            "the home email of Prof. Becker",
            "Tom Becker's home address is MG Road 14, Bengaluru"
        ));
        assert!(contrasts(
            "Ahmed Hassan的工资",
            "Ahmed Hassan's annual bonus is 4,000 EUR"
        ));
        assert!(contrasts(
            "sarah's driving licence",
            "Sarah Miller travels on passport PN7985098"
        ));
    }

    #[test]
    fn a_row_sharing_a_concept_or_naming_none_does_not() {
        // The same concept in other words, or in another language.
        assert!(!contrasts(
            "Ahmed Hassan's salary",
            "Ahmed Hassan earns 124,000 EUR a year"
        ));
        assert!(!contrasts(
            "Min-jun's phone",
            "김민준의 전화번호는 010-1234-5678입니다"
        ));
        // A row naming several concepts, one of them the request's.
        assert!(!contrasts(
            "Tom's address",
            "Tom's home address is 5 Mill Lane and his email is tom@contoso.com"
        ));
        // But an e-mail address is an e-mail: it names no street address.
        assert!(contrasts(
            "Tom's address",
            "Tom's office email address is tom@contoso.com"
        ));
        // Verbs and neighbours of a concept ("paid", "works", "booking", "office") are no
        // ground for a contrast.
        assert!(!contrasts(
            "the rate Tomasz has paid since January 2025",
            "From 1 January 2025, Tomasz Nowak's mortgage rate tracks WIBOR plus 2.1%."
        ));
        assert!(!contrasts(
            "where Bùi Thị Ngọc works from",
            "Bùi Thị Ngọc is based in the Hanoi office."
        ));
        assert!(!contrasts(
            "ศิริพร's airport transfer booking in Phuket",
            "ศิริพร ใจดี's Phuket hotel is Katathani and her airport transfer is with a taxi."
        ));
        // A row naming another attribute by name and the request's broadly, in a clause of
        // its own ("earns" for a salary), or by a day ("Thursday lunches").
        assert!(!contrasts(
            "Tùng's monthly salary",
            "Phùng Thanh Tùng earns 45,000,000 VND a month and his badge number is HN-2041."
        ));
        assert!(!contrasts(
            "Yael Ben-David's nut allergy",
            "Yael Ben-David (regular, Thursday lunches) is allergic to tree nuts."
        ));
        assert!(!contrasts(
            "Suda's car rental, she'll take a hotel transfer",
            "Suda's flight is FD 3203 at 07:15, and her car rental is with Hertz."
        ));
        assert!(!contrasts(
            "Min-jun Lee's e-mail address",
            "Min-jun Lee's email is minjun@example.com"
        ));
        // No concept on one side: no contrast.
        assert!(!contrasts(
            "Fatima's access badge",
            "Fatima has staff number E50564"
        ));
        assert!(!contrasts(
            "Kenta's home city",
            "Kenta's phone number is +81 90 1234 5678"
        ));
    }
}
