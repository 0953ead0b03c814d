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

/// Slots and the words that evoke them.
const SLOTS: &[(&str, &[&str])] = &[
    (
        "residence",
        &[
            "live",
            "lives",
            "living",
            "lived",
            "reside",
            "resides",
            "resident",
            "home",
            "house",
            "flat",
            "apartment",
            "address",
            "city",
            "town",
            "moved",
            "move",
            "relocated",
            "relocate",
            "based",
            "housing",
            "studio",
            "flatmate",
            "flatmates",
            "roommate",
            "neighbourhood",
            "neighborhood",
            "street",
            "rent",
            "rents",
            "tenant",
            "landlord",
            "lease",
            "hometown",
            "alone",
        ],
    ),
    (
        "employment",
        &[
            "work",
            "works",
            "working",
            "worked",
            "job",
            "employer",
            "employed",
            "employee",
            "company",
            "firm",
            "joined",
            "hired",
            "quit",
            "role",
            "position",
            "career",
            "office",
            "colleague",
            "teller",
            "engineer",
            "manager",
            "start-up",
            "startup",
            "contract",
            "occupation",
            "profession",
            "boss",
            "team",
            "salary",
            "wage",
            "wages",
            "earn",
            "earns",
            "earned",
            "earnings",
            "income",
            "promoted",
            "retired",
            "nurse",
            "paramedic",
            "doctor",
            "teacher",
            "lawyer",
            "developer",
            "programmer",
            "chef",
            "cook",
            "pilot",
            "accountant",
            "architect",
            "designer",
            "pharmacist",
            "electrician",
            "plumber",
            "carpenter",
            "mechanic",
            "driver",
            "cashier",
            "clerk",
            "consultant",
            "analyst",
            "scientist",
            "researcher",
            "professor",
            "lecturer",
            "journalist",
            "editor",
            "writer",
            "artist",
            "musician",
            "waiter",
            "waitress",
            "barista",
            "receptionist",
            "secretary",
            "assistant",
            "officer",
            "firefighter",
            "police",
            "soldier",
            "farmer",
            "vet",
            "veterinarian",
            "dentist",
            "surgeon",
            "therapist",
            "librarian",
            "translator",
            "freelancer",
            "intern",
            "director",
            "founder",
            "ceo",
            "cto",
        ],
    ),
    (
        "relationship",
        &[
            "single",
            "married",
            "engaged",
            "divorced",
            "partner",
            "wife",
            "husband",
            "girlfriend",
            "boyfriend",
            "dating",
            "relationship",
            "spouse",
            "fiance",
            "fiancee",
            "widowed",
            "separated",
        ],
    ),
    (
        "diet",
        &[
            "eat",
            "eats",
            "eating",
            "diet",
            "dietary",
            "vegetarian",
            "vegan",
            "pescatarian",
            "gluten",
            "coeliac",
            "celiac",
            "allergy",
            "allergic",
            "lactose",
            "dairy",
            "meat",
            "food",
            "bread",
            "restriction",
            "intolerance",
            "halal",
            "kosher",
            "keto",
            "nuts",
            "peanut",
        ],
    ),
    (
        "drink",
        &[
            "drink",
            "drinks",
            "coffee",
            "tea",
            "espresso",
            "latte",
            "caffeine",
            "alcohol",
            "wine",
            "beer",
            "juice",
            "decaf",
            "cappuccino",
            "flat white",
        ],
    ),
    (
        "dining",
        &[
            "restaurant",
            "eat out",
            "dinner",
            "lunch",
            "cafe",
            "bar",
            "tapas",
            "sushi",
            "takeaway",
            "go-to",
            "favourite",
            "favorite",
            "cuisine",
        ],
    ),
    (
        "health",
        &[
            "doctor",
            "gp",
            "physician",
            "surgery",
            "clinic",
            "practice",
            "hospital",
            "dentist",
            "medicine",
            "medication",
            "pill",
            "pills",
            "prescription",
            "prescribed",
            "dose",
            "hypertension",
            "blood",
            "pressure",
            "cardiologist",
            "condition",
            "diagnosis",
            "diagnosed",
            "treatment",
            "therapy",
            "registered",
            "eyesight",
            "lenses",
            "glasses",
            "contact lenses",
            "laser",
            "vision",
            "hearing",
        ],
    ),
    (
        "habit",
        &[
            "smoke",
            "smokes",
            "smoker",
            "smoking",
            "cigarette",
            "cigarettes",
            "vape",
            "nicotine",
            "quit",
        ],
    ),
    (
        "transport",
        &[
            "car",
            "drive",
            "drives",
            "driving",
            "vehicle",
            "bike",
            "bicycle",
            "e-bike",
            "cycle",
            "cycles",
            "cycling",
            "commute",
            "commutes",
            "commuting",
            "train",
            "bus",
            "tram",
            "metro",
            "travel",
            "travels",
            "get around",
            "ride",
            "rides",
            "scooter",
            "motorbike",
            "walks",
            "licence",
            "license",
        ],
    ),
    (
        "phone",
        &[
            "phone", "mobile", "cell", "number", "carrier", "provider", "network", "sim", "call",
            "calls", "ported",
        ],
    ),
    ("email", &["email", "e-mail", "mail", "inbox", "address"]),
    (
        "internet",
        &[
            "internet",
            "broadband",
            "isp",
            "fibre",
            "fiber",
            "wifi",
            "wi-fi",
            "router",
            "connection",
        ],
    ),
    (
        "insurance",
        &[
            "insurance",
            "insurer",
            "policy",
            "cover",
            "covers",
            "coverage",
            "premium",
            "renews",
            "renewal",
            "motor",
        ],
    ),
    (
        "bank",
        &[
            "bank", "account", "iban", "savings", "mortgage", "loan", "payment", "pays", "paid",
        ],
    ),
    // A payment card is not the account it draws on: its number is another attribute than the
    // account's IBAN.
    (
        "card",
        &["card", "credit", "debit", "payment", "pays", "paid"],
    ),
    (
        "hobby",
        &[
            "hobby",
            "hobbies",
            "paint",
            "paints",
            "painting",
            "watercolours",
            "watercolors",
            "draw",
            "climbing",
            "knit",
            "knitting",
            "garden",
            "gardening",
            "photography",
            "chess",
            "music",
            "guitar",
            "piano",
            "sing",
            "choir",
            "weekend",
            "pastime",
            "took up",
            "gave up",
        ],
    ),
    (
        "fitness",
        &[
            "gym",
            "fitness",
            "club",
            "trains",
            "training",
            "workout",
            "yoga",
            "pilates",
            "run",
            "runs",
            "running",
            "marathon",
            "swim",
            "swims",
            "swimming",
            "membership",
            "routine",
            "exercise",
            "km",
        ],
    ),
    (
        "sport",
        &[
            "football",
            "soccer",
            "team",
            "supports",
            "supporter",
            "fan",
            "allegiance",
            "club",
            "league",
            "match",
            "season",
            "ticket",
        ],
    ),
    (
        "media",
        &[
            "watch",
            "watches",
            "films",
            "film",
            "movies",
            "streaming",
            "subscription",
            "subscribed",
            "netflix",
            "series",
            "tv",
            "podcast",
            "listen",
            "listens",
            "music",
            "spotify",
        ],
    ),
    (
        "reading",
        &[
            "read",
            "reads",
            "reading",
            "book",
            "books",
            "author",
            "novel",
            "novels",
            "writer",
            "library",
            "devouring",
        ],
    ),
    (
        "language",
        &[
            "language",
            "native",
            "tongue",
            "speaks",
            "speak",
            "speaking",
            "grew up",
            "fluent",
            "bilingual",
            "dialect",
        ],
    ),
    (
        "time",
        &[
            "time zone",
            "timezone",
            "zone",
            "clock",
            "schedule",
            "time",
            "hours",
            "utc",
            "gmt",
            "pacific",
            "eastern",
            "central",
            "western",
        ],
    ),
    (
        "schedule",
        &[
            "schedule",
            "scheduled",
            "comes",
            "evenings",
            "mornings",
            "weekly",
            "monthly",
            "daily",
            "rota",
            "shift",
            "shifts",
            "moved",
            "cleaner",
            "cleaning",
            "crew",
            "appointment",
            "meeting",
            "meetings",
            "due",
            "deadline",
        ],
    ),
    (
        "contact",
        &[
            "contact",
            "contacted",
            "reach",
            "message",
            "messages",
            "messaging",
            "signal",
            "whatsapp",
            "telegram",
            "email",
            "phone",
            "preference",
            "prefers",
        ],
    ),
    (
        "pet",
        &[
            "pet", "dog", "cat", "puppy", "kitten", "rabbit", "parrot", "hamster", "vet",
        ],
    ),
    (
        "education",
        &[
            "school",
            "university",
            "college",
            "degree",
            "studies",
            "study",
            "student",
            "course",
            "class",
            "teacher",
            "graduated",
        ],
    ),
    ("age", &["age", "old", "born", "birthday", "years"]),
    (
        "browser",
        &[
            "browser", "chrome", "firefox", "safari", "edge", "brave", "opera",
        ],
    ),
    (
        "device",
        &[
            "laptop", "computer", "tablet", "device", "macbook", "pc", "monitor",
        ],
    ),
    (
        "password",
        &[
            "password",
            "passcode",
            "pin",
            "passphrase",
            "credentials",
            "login",
            "manager",
        ],
    ),
];

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
