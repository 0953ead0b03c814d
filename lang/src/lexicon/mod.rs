//! A small relation lexicon: which attribute of a person or thing a word talks about.
//!
//! "Kenta's home city" and "Kenta resides in a flat in Osaka" share no word, yet both are about
//! where Kenta lives. A supersede must find the row it replaces from such a paraphrase without a
//! model. This lexicon maps common English words to the *slot* they describe (residence,
//! employer, diet, commute, ...), so targeting can tell that a query and a row talk about the
//! same attribute. It is a generic linguistic resource in the spirit of WordNet's domain labels,
//! hand-written for the attributes personal-memory stores hold; it names no entity.
//!
//! Lookups fold inflection crudely with [`lemma`] ("smokes", "smoker", "smoking" -> "smok").

use std::collections::BTreeMap;
use std::sync::OnceLock;

mod negations;
mod slots;

pub use negations::negates;

use slots::SLOTS;

/// Words that name a kind of value rather than an attribute: the head of "phone number",
/// "passport number", "maiden name", "start date", "door code", "blood type". Alone they say
/// nothing of which attribute a text states.
const GENERIC_HEADS: &[&str] = &[
    "number", "numbers", "no", "nr", "name", "names", "date", "dates", "code", "codes", "id",
    "ids", "type", "types", "kind",
];

/// True if `word` (folded) names only a kind of value: "number", "name", "date", "code", "id",
/// "type", "kind" and their plurals.
pub fn is_generic_head(word: &str) -> bool {
    GENERIC_HEADS.contains(&word)
}

/// Crude inflection folding for lookups: drops "ing", "ed", "er", "es", "s" when a stem of at
/// least four letters remains, and a final "e" ("smokes", "smoker", "smoking", "smoke" -> "smok").
pub fn lemma(word: &str) -> String {
    let w = word.to_lowercase();
    // A noun in "-eer" keeps it: the "er" is no agent suffix ("volunteers", "volunteering"
    // and "volunteer" are one word, "engineer" is not "engine", nor "career" "care").
    for suffix in ["", "s", "ing", "ed"] {
        if let Some(stem) = w.strip_suffix(suffix)
            && stem.ends_with("eer")
            && stem.chars().count() >= 5
        {
            return stem.to_owned();
        }
    }
    for suffix in ["ing", "ers", "ed", "er", "es", "s"] {
        if let Some(stem) = w.strip_suffix(suffix)
            && stem.chars().count() >= 4
        {
            // "smoker" -> "smok", but "career" -> "care", not "car": the folded stem keeps four
            // letters, or it meets unrelated short words.
            let trimmed = stem.trim_end_matches('e');
            return if trimmed.chars().count() >= 4 {
                trimmed
            } else {
                stem
            }
            .to_owned();
        }
    }
    if w.chars().count() > 4 {
        w.trim_end_matches('e').to_owned()
    } else {
        w
    }
}

fn table() -> &'static BTreeMap<String, Vec<&'static str>> {
    static TABLE: OnceLock<BTreeMap<String, Vec<&'static str>>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t: BTreeMap<String, Vec<&'static str>> = BTreeMap::new();
        for (slot, words) in SLOTS {
            for w in *words {
                for key in [w.to_string(), lemma(w)] {
                    let e = t.entry(key).or_default();
                    if !e.contains(slot) {
                        e.push(slot);
                    }
                }
            }
        }
        t
    })
}

/// The slots a word evokes (empty for words the lexicon does not know).
pub fn slots(word: &str) -> Vec<&'static str> {
    let t = table();
    let w = word.to_lowercase();
    let mut out: Vec<&'static str> = Vec::new();
    for key in [w.clone(), lemma(&w)] {
        if let Some(s) = t.get(&key) {
            for slot in s {
                if !out.contains(slot) {
                    out.push(slot);
                }
            }
        }
    }
    out
}

/// The slots evoked by any word of `words`, and by any two adjacent words ("time zone").
pub fn slots_of<'a>(words: impl IntoIterator<Item = &'a str>) -> Vec<&'static str> {
    let words: Vec<&str> = words.into_iter().collect();
    let mut out: Vec<&'static str> = Vec::new();
    let mut add = |s: Vec<&'static str>| {
        for slot in s {
            if !out.contains(&slot) {
                out.push(slot);
            }
        }
    };
    for (i, w) in words.iter().enumerate() {
        add(slots(w));
        if let Some(n) = words.get(i + 1) {
            add(slots(&format!("{w} {n}")));
        }
    }
    out.sort_unstable();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inflections_meet() {
        assert_eq!(lemma("smokes"), lemma("smoker"));
        assert_eq!(lemma("smoking"), lemma("smokes"));
        assert_eq!(lemma("cleaning"), lemma("cleaner"));
        assert_eq!(lemma("tea"), "tea");
        assert_ne!(lemma("career"), lemma("car"));
        assert_ne!(lemma("career"), lemma("care"));
        assert_eq!(lemma("volunteers"), lemma("volunteering"));
        assert_eq!(lemma("volunteer"), lemma("volunteered"));
        assert_ne!(lemma("engineer"), lemma("engine"));
        assert_eq!(lemma("engineers"), lemma("engineering"));
        assert_eq!(slots("career"), ["employment"]);
        assert!(!slots("car").contains(&"employment"));
    }

    #[test]
    fn paraphrases_share_a_slot() {
        let q = slots_of(["home", "city"]);
        let r = slots_of(["resides", "flat", "osaka"]);
        assert!(q.iter().any(|s| r.contains(s)));
        assert!(slots_of(["time", "zone"]).contains(&"time"));
        assert!(slots("favourite").contains(&"dining"));
        assert!(slots("zebra").is_empty());
    }
}
