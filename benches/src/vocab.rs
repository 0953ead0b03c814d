//! Word pools for the generators: short proper nouns and values.
//!
//! Every value an expectation can name comes from these pools, and no value of any pool is a
//! case-insensitive substring of another (a unit test holds this), so a generated
//! `must_not_contain` never hides inside an unrelated text.

/// Given names.
pub const FIRST_NAMES: &[&str] = &[
    "Maren", "Tobias", "Ingrid", "Kwame", "Lucia", "Rafael", "Aiko", "Dmitri", "Noor", "Henrik",
    "Priya", "Mateo", "Sofia", "Yusuf", "Elena", "Jonas", "Amara", "Felix", "Leila", "Oskar",
    "Chiara", "Tariq", "Hanna", "Bruno", "Zanele", "Emil", "Farah", "Gustav", "Ines", "Kenji",
    "Lotte", "Nadia", "Pavel", "Rosa", "Samir", "Thea", "Viktor", "Wanda", "Ximena", "Yara",
    "Anouk", "Bastian", "Carmen", "Dario", "Esme", "Goran", "Hugo", "Ilse",
];

/// Family names.
pub const SURNAMES: &[&str] = &[
    "Okafor",
    "Lindqvist",
    "Moreau",
    "Tanaka",
    "Novak",
    "Haddad",
    "Kowalczyk",
    "Brennan",
    "Castillo",
    "Eriksen",
    "Fischer",
    "Gallo",
    "Horvat",
    "Iyer",
    "Jansen",
    "Kaplan",
    "Laine",
    "Mbeki",
    "Nakamura",
    "Ortega",
    "Petrov",
    "Quinn",
    "Rossi",
    "Sato",
    "Toivonen",
    "Umarov",
    "Varga",
    "Weber",
    "Yilmaz",
    "Zielinski",
    "Abara",
    "Bianchi",
    "Dubois",
    "Ekström",
    "Ferreira",
    "Grünewald",
    "Halvorsen",
    "Ivanova",
    "Jovanovic",
    "Achterberg",
];

/// Cities.
pub const CITIES: &[&str] = &[
    "Lyon", "Graz", "Porto", "Tallinn", "Kraków", "Bergen", "Utrecht", "Bilbao", "Ghent", "Turin",
    "Dundee", "Aarhus", "Bordeaux", "Leipzig", "Brno", "Galway", "Malmö", "Salzburg", "Valencia",
    "Zagreb", "Nantes", "Trieste", "Seville", "Kyoto", "Osaka", "Mombasa", "Accra", "Quito",
    "Hobart", "Halifax", "Tampere", "Cork",
];

/// Occupations.
pub const JOBS: &[&str] = &[
    "carpenter",
    "pharmacist",
    "translator",
    "paramedic",
    "architect",
    "sommelier",
    "locksmith",
    "geologist",
    "librarian",
    "welder",
    "veterinarian",
    "cartographer",
    "dietitian",
    "actuary",
    "glassblower",
    "midwife",
    "surveyor",
    "beekeeper",
    "choreographer",
    "electrician",
    "florist",
    "jeweller",
    "radiographer",
    "stonemason",
    "tailor",
    "upholsterer",
    "zookeeper",
    "barista",
    "optician",
    "plumber",
];

/// Editor colour themes.
pub const THEMES: &[&str] = &[
    "Solarized Dark",
    "Monokai",
    "Dracula",
    "Nord",
    "Gruvbox",
    "One Dark",
    "Tokyo Night",
    "Catppuccin",
    "Ayu Mirage",
    "Cobalt2",
    "Night Owl",
    "Everforest",
    "Palenight",
    "Rosé Pine",
    "Kanagawa",
    "GitHub Light",
];

/// Diets.
pub const DIETS: &[&str] = &[
    "vegan",
    "vegetarian",
    "pescatarian",
    "ketogenic",
    "paleo",
    "gluten-free",
    "low-FODMAP",
    "Mediterranean",
    "halal",
    "kosher",
    "carnivore",
    "lactose-free",
    "low-sodium",
    "flexitarian",
    "macrobiotic",
];

/// Allergens.
pub const ALLERGENS: &[&str] = &[
    "peanuts",
    "shellfish",
    "sesame",
    "penicillin",
    "latex",
    "kiwi",
    "mustard",
    "celery",
    "walnuts",
    "bee stings",
];

/// Project-tracking tools.
pub const TOOLS: &[&str] = &[
    "Jira",
    "Linear",
    "Trello",
    "Asana",
    "YouTrack",
    "Shortcut",
    "Basecamp",
    "ClickUp",
    "Redmine",
    "Taiga",
    "monday.com",
    "Notion",
    "Pivotal Tracker",
    "Wrike",
];

/// Hotel names.
pub const HOTELS: &[&str] = &[
    "Alder",
    "Bellevue",
    "Carlton",
    "Driftwood",
    "Edelweiss",
    "Fairmont",
    "Granary",
    "Harbourside",
    "Ivy House",
    "Juniper",
    "Kestrel",
    "Larchmont",
    "Meridian",
    "Northgate",
    "Orchard",
    "Primrose",
    "Quayside",
    "Saffron",
    "Thistle",
];

/// Streets.
pub const STREETS: &[&str] = &[
    "Linden Avenue",
    "Mercer Street",
    "Wharf Lane",
    "Beacon Road",
    "Foundry Row",
    "Chapel Close",
    "Orchid Crescent",
    "Tanner Street",
    "Kiln Lane",
    "Rope Walk",
    "Sparrow Hill",
    "Copper Beech Drive",
    "Marlowe Terrace",
    "Weaver Court",
];

/// Medical appointments.
pub const APPOINTMENTS: &[&str] = &[
    "dentist",
    "physiotherapy",
    "eye test",
    "dermatology",
    "hearing test",
    "vaccination",
    "blood test",
    "orthodontist",
];

/// GP practices.
pub const CLINICS: &[&str] = &[
    "Brookside",
    "Hawthorn",
    "Millbrook",
    "Stonebridge",
    "Westcombe",
    "Ashgrove",
    "Fernhill",
    "Kingsmead",
];

/// Co-working venues.
pub const VENUES: &[&str] = &[
    "Lighthouse",
    "Atrium",
    "Dockside",
    "Greenhouse",
    "Mill Yard",
    "Boathouse",
    "Tannery",
    "Signal Box",
];

/// Words that start a guest password.
pub const PASSWORD_WORDS: &[&str] = &[
    "Maple", "Comet", "Pebble", "Tundra", "Lagoon", "Cinder", "Marble", "Zephyr",
];

/// Companies.
pub const COMPANIES: &[&str] = &[
    "Brightwater Labs",
    "Northwind Freight",
    "Helios Analytics",
    "Copperleaf Studio",
    "Bluefin Robotics",
    "Oakridge Insurance",
    "Quantix Systems",
    "Redwood Dental",
    "Silverline Logistics",
    "Tidewater Energy",
    "Vantage Foods",
    "Wildflower Media",
    "Ironbridge Capital",
    "Lumen Optics",
];

/// Project code names.
pub const CODENAMES: &[&str] = &[
    "Albatross",
    "Bluebird",
    "Cormorant",
    "Dunlin",
    "Egret",
    "Flamingo",
    "Gannet",
    "Heron",
    "Ibis",
    "Jacana",
    "Kingfisher",
    "Lapwing",
    "Magpie",
    "Nightjar",
    "Osprey",
    "Puffin",
    "Skylark",
];

/// Pet names.
pub const PET_NAMES: &[&str] = &[
    "Biscuit",
    "Pepper",
    "Mochi",
    "Waffles",
    "Clementine",
    "Pickle",
    "Nutmeg",
    "Bramble",
    "Toffee",
    "Marmalade",
    "Pretzel",
    "Ziggy",
    "Truffle",
    "Crumpet",
];

/// Pet medications.
pub const MEDICATIONS: &[&str] = &[
    "joint supplements",
    "thyroid tablets",
    "ear drops",
    "insulin injections",
    "heart pills",
    "eye ointment",
];

/// Pet foods.
pub const PET_FOODS: &[&str] = &[
    "salmon pâté",
    "dry kibble",
    "chicken broth",
    "tuna flakes",
    "rabbit stew",
    "duck jerky",
];

/// Email domains.
pub const EMAIL_DOMAINS: &[&str] = &[
    "mailbox.org",
    "fastmail.com",
    "proton.me",
    "posteo.de",
    "gmx.net",
    "outlook.com",
    "icloud.com",
    "zoho.eu",
];

/// Customer-id prefixes.
pub const CUSTOMER_PREFIXES: &[&str] = &["CUS-", "ACCT-", "CID ", "KD-"];

/// Country codes and IBAN country letters used for identifiers.
pub const PHONE_CODES: &[&str] = &["+44", "+49", "+33", "+31", "+46", "+39", "+34", "+353"];

/// IBAN country prefixes.
pub const IBAN_COUNTRIES: &[&str] = &["DE", "FR", "ES", "IT", "BE", "AT", "FI", "PT"];

/// Job titles.
pub const TITLES: &[&str] = &[
    "Product Analyst",
    "Engineering Manager",
    "Staff Engineer",
    "Head of Data",
    "Design Lead",
    "Principal Engineer",
    "Delivery Manager",
    "Research Scientist",
    "Chief of Staff",
    "Solutions Consultant",
    "QA Lead",
    "Technical Writer",
    "Data Steward",
    "Scrum Master",
];

/// Phone models.
pub const PHONE_MODELS: &[&str] = &[
    "Pixel 8",
    "iPhone 15",
    "Galaxy S23",
    "Fairphone 5",
    "Xperia 10",
    "Nokia X30",
    "OnePlus 12",
    "Moto G84",
];

/// Month names.
pub const MONTHS: &[&str] = &[
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// Instruments (distractors only).
pub const INSTRUMENTS: &[&str] = &[
    "cello",
    "oboe",
    "trombone",
    "harp",
    "bassoon",
    "viola",
    "ukulele",
    "accordion",
];

/// Board games (distractors only).
pub const GAMES: &[&str] = &[
    "Catan",
    "Carcassonne",
    "Azul",
    "Wingspan",
    "Ticket to Ride",
    "Pandemic",
    "Splendor",
];

/// Races (distractors only).
pub const RACES: &[&str] = &[
    "half marathon",
    "triathlon",
    "10K trail run",
    "cycling sportive",
    "open-water swim",
];

/// Collectibles (distractors only).
pub const COLLECTIBLES: &[&str] = &[
    "vintage postcards",
    "vinyl records",
    "enamel pins",
    "fountain pens",
    "antique maps",
];

/// Volunteering places (distractors only).
pub const VOLUNTEER_PLACES: &[&str] = &[
    "food bank",
    "animal shelter",
    "community garden",
    "repair café",
    "public library",
];

/// Languages being learned (distractors only).
pub const LANGUAGES: &[&str] = &[
    "Portuguese",
    "Korean",
    "Swahili",
    "Icelandic",
    "Tagalog",
    "Welsh",
];

/// Teas (distractors only).
pub const TEAS: &[&str] = &[
    "Earl Grey",
    "sencha",
    "rooibos",
    "oolong",
    "masala chai",
    "lapsang souchong",
];

/// Every pool whose values may appear in an expectation or a distractor.
pub const ALL_POOLS: &[&[&str]] = &[
    FIRST_NAMES,
    SURNAMES,
    CITIES,
    JOBS,
    THEMES,
    DIETS,
    ALLERGENS,
    TOOLS,
    HOTELS,
    STREETS,
    APPOINTMENTS,
    CLINICS,
    VENUES,
    PASSWORD_WORDS,
    COMPANIES,
    CODENAMES,
    PET_NAMES,
    MEDICATIONS,
    PET_FOODS,
    TITLES,
    PHONE_MODELS,
    INSTRUMENTS,
    GAMES,
    RACES,
    COLLECTIBLES,
    VOLUNTEER_PLACES,
    LANGUAGES,
    TEAS,
];

/// Fold the letters with diacritics that the pools use to ASCII (for e-mail local parts).
pub fn ascii_fold(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            'ö' | 'ó' => 'o',
            'ü' => 'u',
            'é' => 'e',
            'å' | 'ä' | 'á' => 'a',
            other => other,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_pool_value_hides_inside_another() {
        let all: Vec<String> = ALL_POOLS
            .iter()
            .flat_map(|p| p.iter())
            .map(|s| s.to_lowercase())
            .collect();
        for (i, a) in all.iter().enumerate() {
            for (j, b) in all.iter().enumerate() {
                assert!(i == j || !b.contains(a.as_str()), "{a:?} is inside {b:?}");
            }
        }
    }

    #[test]
    fn folding_removes_the_pools_diacritics() {
        for v in FIRST_NAMES.iter().chain(SURNAMES) {
            assert!(ascii_fold(v).is_ascii(), "{v}");
        }
        assert_eq!(ascii_fold("Ekström"), "Ekstrom");
    }
}
