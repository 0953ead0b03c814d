//! The kinds of value a fact states: a phone number, an amount of money, a date, a time...
//!
//! A supersede's new text restates an attribute with a new value, and the value it replaces is
//! of the same kind: "changed his contact phone number to +351 936 111 204" replaces the row
//! holding a phone number, "can spend up to 4,500 USD on the Kyoto trip" a row holding an
//! amount, "now departs Heathrow at 13:15" a row holding a time. When a supersede's words reach
//! no row (the query paraphrases the attribute: "the number the bank texts Rafael on"), the
//! kind of the new value is evidence the words are not (see `super::choose_by_value_kind`).
//!
//! Kinds are read from the text's structure, in any script: typed identifiers
//! ([`crate::canon::identifiers`]), currency symbols and codes beside digits, clock times,
//! numeric dates and the date words of calendars written with digits (年 月 日, 년 월 일),
//! percentages, and numbers with a unit. No kind is keyed to a particular attribute.

use std::collections::BTreeSet;

use super::query::{QWord, QueryShape};
use super::row_view::RowView;
use super::word_match::{is_calendar, word_matches};
use crate::canon::IdKind;
use crate::index::keys::has_digit;

/// What kind of value a text states.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum ValueKind {
    /// A phone number.
    Phone,
    /// An e-mail address.
    Email,
    /// A handle (`@name`).
    Handle,
    /// A bank account number (IBAN).
    Iban,
    /// A network address or name: IP, MAC, host name, URL.
    Network,
    /// Any other identifier-shaped token (a code, a reference, a password).
    Code,
    /// An amount of money.
    Money,
    /// A clock time.
    Time,
    /// A date, a day or a month.
    Date,
    /// A percentage.
    Percent,
    /// A number with a unit ("50 mg", "12 km").
    Quantity,
    /// A street address: a house number beside a street word ("12 Rue Gouraud",
    /// "45 Hamra Street", "Hauptstraße 5").
    Address,
}

impl ValueKind {
    /// True for kinds that name one attribute of a person or thing on their own (a phone
    /// number, an e-mail address, an IBAN): a subject rarely holds two of them, so a shared
    /// kind alone is evidence. The others (amounts, dates, codes...) are shared by many
    /// attributes and need words in common too.
    pub fn specific(self) -> bool {
        matches!(
            self,
            ValueKind::Phone
                | ValueKind::Email
                | ValueKind::Handle
                | ValueKind::Iban
                | ValueKind::Network
                | ValueKind::Address
        )
    }

    /// What a value of this kind is called, for a plan's reasons.
    pub fn noun(self) -> &'static str {
        match self {
            ValueKind::Phone => "phone number",
            ValueKind::Email => "e-mail address",
            ValueKind::Handle => "handle",
            ValueKind::Iban => "bank account number (IBAN)",
            ValueKind::Network => "network address",
            ValueKind::Code => "code",
            ValueKind::Money => "amount of money",
            ValueKind::Time => "time",
            ValueKind::Date => "date",
            ValueKind::Percent => "percentage",
            ValueKind::Quantity => "quantity",
            ValueKind::Address => "street address",
        }
    }

    /// The kind of value that an attribute concept names on its own ([`crate::concepts`]):
    /// a request for someone's phone, e-mail or address asks for the row stating a phone
    /// number, an e-mail address or a street address, whatever words the row says it with
    /// ("Το σταθερό ... 2310 445 678", "Jo's work e-mail is jo@...", "lived at 12 Rue
    /// Gouraud"). Only kinds that name one attribute ([`ValueKind::specific`]): an amount or a
    /// date is stated by many attributes.
    pub fn of_concept(concept: &str) -> Option<ValueKind> {
        match concept {
            "phone" => Some(ValueKind::Phone),
            "email" => Some(ValueKind::Email),
            "address" => Some(ValueKind::Address),
            _ => None,
        }
    }
}

/// True if `row` states values, none of a kind `new_kinds` holds (dates and clock times count
/// as one kind: a visit moved from "at 10:30" to "21 June"). A supersede's new text of an
/// amount does not replace a row that holds only an account number.
///
/// Street addresses take no part: they are read from words ([`street_address`]) and a street
/// named without a street word ("14 Kingsway") is not seen, so a missing address kind is no
/// evidence of another attribute.
pub(crate) fn other_kind(row: &BTreeSet<ValueKind>, new_kinds: &BTreeSet<ValueKind>) -> bool {
    let group = |k: ValueKind| match k {
        ValueKind::Time => ValueKind::Date,
        k => k,
    };
    let told = |k: &&ValueKind| **k != ValueKind::Address;
    let new: BTreeSet<ValueKind> = new_kinds.iter().filter(told).map(|&k| group(k)).collect();
    let row: Vec<ValueKind> = row.iter().filter(told).copied().collect();
    !row.is_empty() && !new.is_empty() && row.iter().all(|&k| !new.contains(&group(k)))
}

/// Currency signs written beside an amount.
const CURRENCY_SIGNS: &[char] = &[
    '$', '€', '£', '¥', '₹', '₩', '₽', '฿', '₺', '₪', '₫', '₱', '₦', '₴', '₸', '₼', '₾', '₡', '₲',
    '₵', '₭', '₮', '¢', '﷼', '元', '円', '원',
];

/// ISO 4217 codes of the most traded currencies, and currency words written after an amount
/// (folded forms).
const CURRENCY_WORDS: &[&str] = &[
    "usd", "eur", "gbp", "jpy", "cny", "rmb", "inr", "krw", "rub", "chf", "cad", "aud", "nzd",
    "sek", "nok", "dkk", "pln", "czk", "huf", "try", "brl", "mxn", "zar", "sgd", "hkd", "thb",
    "idr", "myr", "php", "vnd", "aed", "sar", "ils", "egp", "ngn", "kes", "uah", "ron", "dollar",
    "dollars", "euro", "euros", "pound", "pounds", "yen", "yuan", "rupee", "rupees", "franc",
    "francs", "krona", "kronor", "krone", "kroner", "zloty", "lira", "dirham", "dirhams", "riyal",
    "riyals", "rand", "peso", "pesos", "real", "reais", "won", "baht", "dong", "ringgit", "rupiah",
    "shekel", "shekels", "naira", "hryvnia", "bucks", "rubl", "rubley", "rublei", "kuai",
];

/// Words that follow the digits of a date in calendars written with digits (Chinese, Japanese,
/// Korean: year, month, day), after folding.
const DATE_MARKS: &[char] = &['年', '月', '日', '号', '년', '월', '일'];

/// Units written after a number, besides currencies (folded forms). Not "in" (inches), which
/// is far more often the preposition ("room 3 in building B").
fn is_unit(w: &str) -> bool {
    const UNITS: &[&str] = &[
        "mg", "g", "kg", "mcg", "ml", "l", "cl", "km", "m", "cm", "mm", "mi", "ft", "lb", "lbs",
        "oz", "gb", "mb", "tb", "kb", "kw", "kwh", "w", "v", "hz", "mhz", "ghz", "mph", "kmh",
        "iu", "units", "tablets", "pills", "doses", "sqm", "m2", "hours", "hrs", "h", "minutes",
        "min", "mins", "days", "weeks", "months", "years", "nights",
    ];
    UNITS.contains(&w)
}

/// Words that name a street in an address (folded forms; German, Dutch and Scandinavian
/// street names also end with one: "Hauptstraße", "Kalverstraat").
const STREET_WORDS: &[&str] = &[
    "street",
    "road",
    "rd",
    "avenue",
    "ave",
    "boulevard",
    "blvd",
    "lane",
    "drive",
    "way",
    "place",
    "square",
    "court",
    "terrace",
    "crescent",
    "close",
    "highway",
    "parkway",
    "rue",
    "chemin",
    "allee",
    "impasse",
    "quai",
    "calle",
    "avenida",
    "carrera",
    "camino",
    "paseo",
    "plaza",
    "rua",
    "travessa",
    "largo",
    "via",
    "viale",
    "piazza",
    "corso",
    "vicolo",
    "strasse",
    "str",
    "weg",
    "gasse",
    "platz",
    "damm",
    "straat",
    "laan",
    "gracht",
    "plein",
    "gata",
    "gatan",
    "vej",
    "gade",
    "vei",
    "veien",
    "ulica",
    "ul",
    "utca",
    "sokak",
    "caddesi",
    "ulitsa",
    "prospekt",
    "pereulok",
    "vulytsia",
    "odos",
    "leoforos",
    "rehov",
    "derekh",
    "shari",
];

/// Endings of one-word street names ("Hauptstraße", "Bahnhofstrasse", "Kalverstraat").
const STREET_ENDINGS: &[&str] = &[
    "strasse", "straße", "gasse", "straat", "gatan", "vagen", "vej", "veien", "utca",
];

/// True if chunk form `w` names a street.
fn is_street_word(w: &str) -> bool {
    STREET_WORDS.contains(&w)
        || (w.chars().count() > 6 && STREET_ENDINGS.iter().any(|e| w.ends_with(e)))
}

/// True for a house number: up to five digits, optionally one letter ("12", "7b").
fn is_house_number(w: &str) -> bool {
    let digits = w.bytes().take_while(u8::is_ascii_digit).count();
    (1..=5).contains(&digits)
        && w.len() - digits <= 1
        && w[digits..].bytes().all(|b| b.is_ascii_alphabetic())
}

/// True if the text between two chunks is one word gap (spaces, a period after an
/// abbreviation, a hyphen), no clause break: "12 Rue", "ul. Marszałkowska 10".
fn same_phrase(between: &str) -> bool {
    between.len() <= 3 && !between.contains([',', ';', ':', '(', ')'])
}

/// True for a date written in digits: "2026-10-01", "01/10/2026", "1.10.26" (day and month
/// in range, so "1-84-22" is a code).
fn numeric_date(s: &str) -> bool {
    let Some(sep) = s.chars().find(|c| matches!(c, '-' | '/' | '.')) else {
        return false;
    };
    let parts: Vec<&str> = s.split(sep).collect();
    if parts.len() != 3
        || !parts
            .iter()
            .all(|p| !p.is_empty() && p.len() <= 4 && p.bytes().all(|b| b.is_ascii_digit()))
    {
        return false;
    }
    let n: Vec<u32> = parts.iter().map(|p| p.parse().unwrap_or(0)).collect();
    let day = |d: u32| (1..=31).contains(&d);
    let month = |m: u32| (1..=12).contains(&m);
    if parts[0].len() == 4 {
        month(n[1]) && day(n[2])
    } else {
        matches!(parts[2].len(), 2 | 4)
            && parts[0].len() <= 2
            && parts[1].len() <= 2
            && day(n[0])
            && day(n[1])
            && (month(n[0]) || month(n[1]))
    }
}

/// Country codes of the IBAN registry (ISO 13616).
const IBAN_COUNTRIES: &[&str] = &[
    "AD", "AE", "AL", "AT", "AZ", "BA", "BE", "BG", "BH", "BI", "BR", "BY", "CH", "CR", "CY", "CZ",
    "DE", "DJ", "DK", "DO", "EE", "EG", "ES", "FI", "FK", "FO", "FR", "GB", "GE", "GI", "GL", "GR",
    "GT", "HR", "HU", "IE", "IL", "IQ", "IS", "IT", "JO", "KW", "KZ", "LB", "LC", "LI", "LT", "LU",
    "LV", "LY", "MC", "MD", "ME", "MK", "MN", "MR", "MT", "MU", "NI", "NL", "NO", "OM", "PK", "PL",
    "PS", "PT", "QA", "RO", "RS", "RU", "SA", "SC", "SD", "SE", "SI", "SK", "SM", "SO", "ST", "SV",
    "TL", "TN", "TR", "UA", "VA", "VG", "XK", "YE",
];

/// True for a code written as an IBAN is (a registry country code, two check digits, then 11 to
/// 30 letters and digits) whose check digits fail ([`IdKind::Iban`] holds the valid ones). As
/// an identity it stays a code; as the kind of value a fact states, it is an account number:
/// "DE33 3704 0044 0532 1228 89" is someone's bank account whether or not its check digits
/// were typed right.
fn iban_shaped(canonical: &str) -> bool {
    let b = canonical.as_bytes();
    (15..=34).contains(&b.len())
        && canonical
            .get(..2)
            .is_some_and(|cc| IBAN_COUNTRIES.contains(&cc))
        && b[2..4].iter().all(u8::is_ascii_digit)
        && b[4..]
            .iter()
            .all(|c| c.is_ascii_digit() || c.is_ascii_uppercase())
}

/// The number of digits of each code `view` states: identifier-shaped tokens that are neither a
/// date nor an account number ([`ValueKind::Code`]).
fn code_digits(view: &RowView<'_>) -> Vec<usize> {
    view.ids
        .iter()
        .filter(|id| {
            id.kind == IdKind::Code
                && !numeric_date(&view.text[id.span.clone()])
                && !iban_shaped(&id.canonical)
        })
        .map(|id| id.canonical.bytes().filter(u8::is_ascii_digit).count())
        .collect()
}

/// Fewest digits for a code's count of digits to be its format: "DL-151236", "348-46-9277" and
/// "TIN 60-6530376" are numbers of a fixed length; "Pomegranate#17", "Olea_Free" or a plate
/// "AB79 CDE" are not.
const FORMAT_DIGITS: usize = 4;

/// True if `row` states codes, the new text `new` states codes, and no code of the row could be
/// an earlier value of one of the new text's: both hold [`FORMAT_DIGITS`] digits or more and
/// their counts of digits differ by two or more. A new value of a numbered identifier keeps its
/// format (a passport number is replaced by a passport number of the same length), so a tax
/// number "TIN 60-6530376" does not replace a passport "DR8025316", nor a driving licence
/// "DL-474057" a social security number "348-46-9277". One digit of slack allows for a changed
/// check digit or series. Codes of fewer digits are left alone: a plate moves between formats
/// with its owner ("B-AS 2641" -> "AB89 CDE").
pub(crate) fn other_code_format(row: &RowView<'_>, new: &RowView<'_>) -> bool {
    let (r, n) = (code_digits(row), code_digits(new));
    if r.is_empty() || n.is_empty() {
        return false;
    }
    let alike = |a: usize, b: usize| a.abs_diff(b) <= 1 || a < FORMAT_DIGITS || b < FORMAT_DIGITS;
    !r.iter().any(|&a| n.iter().any(|&b| alike(a, b)))
}

/// The kinds of value `view`'s text states.
pub(crate) fn value_kinds(view: &RowView<'_>) -> BTreeSet<ValueKind> {
    let mut out = BTreeSet::new();
    for id in &view.ids {
        out.insert(match id.kind {
            IdKind::Phone => ValueKind::Phone,
            IdKind::Email => ValueKind::Email,
            IdKind::Handle => ValueKind::Handle,
            IdKind::Iban => ValueKind::Iban,
            IdKind::Ipv4 | IdKind::Ipv6 | IdKind::Mac | IdKind::Hostname | IdKind::Url => {
                ValueKind::Network
            }
            IdKind::Code if numeric_date(&view.text[id.span.clone()]) => ValueKind::Date,
            IdKind::Code if iban_shaped(&id.canonical) => ValueKind::Iban,
            IdKind::Code => ValueKind::Code,
        });
    }
    let text = view.text;
    let in_id = |pos: usize| view.ids.iter().any(|i| i.span.contains(&pos));
    let chunks = &view.chunks;
    if street_address(view).is_some() {
        out.insert(ValueKind::Address);
    }
    for (k, c) in chunks.iter().enumerate() {
        let digits = !c.form.is_empty() && c.form.bytes().all(|b| b.is_ascii_digit());
        if is_calendar(&c.form) {
            out.insert(ValueKind::Date);
        }
        if !digits || in_id(c.span.start) {
            continue;
        }
        let before = text[..c.span.start].trim_end_matches(' ');
        let after = &text[c.span.end..];
        let next_char = after.trim_start_matches(' ').chars().next();
        let prev_char = before.chars().next_back();
        if prev_char.is_some_and(|ch| CURRENCY_SIGNS.contains(&ch))
            || next_char.is_some_and(|ch| CURRENCY_SIGNS.contains(&ch))
        {
            out.insert(ValueKind::Money);
        }
        if next_char.is_some_and(|ch| DATE_MARKS.contains(&ch)) {
            out.insert(ValueKind::Date);
        }
        if next_char.is_some_and(|ch| ch == '%' || ch == '٪') {
            out.insert(ValueKind::Percent);
        }
        // Clock time: "17:00", "9.30 pm", "18h30".
        let next = chunks.get(k + 1);
        let joined_by = |sep: char| {
            next.is_some_and(|n| {
                text[c.span.end..n.span.start] == *sep.to_string()
                    && n.form.len() == 2
                    && n.form.bytes().all(|b| b.is_ascii_digit())
            })
        };
        if c.form.len() <= 2 && joined_by(':') {
            out.insert(ValueKind::Time);
        }
        if let Some(n) = next {
            let word = n.form.as_str();
            if matches!(word, "am" | "pm") {
                out.insert(ValueKind::Time);
            } else if CURRENCY_WORDS.contains(&word) {
                out.insert(ValueKind::Money);
            } else if is_unit(word) && n.span.start <= c.span.end + 1 {
                out.insert(ValueKind::Quantity);
            } else if c.form.len() <= 2 && word.len() == 2 && word.starts_with('h') {
                // "18h30"
                if word[1..].bytes().all(|b| b.is_ascii_digit()) {
                    out.insert(ValueKind::Time);
                }
            }
            if is_calendar(word) && c.form.len() <= 2 {
                out.insert(ValueKind::Date);
            }
        }
        if k > 0
            && CURRENCY_WORDS.contains(&chunks[k - 1].form.as_str())
            && chunks[k - 1].form.len() == 3
        {
            // "USD 4,500"
            out.insert(ValueKind::Money);
        }
        // Numeric dates: "2026-10-01", "01/10/2026", "1.10.2026".
        if let Some(d) = chunks.get(k + 2)
            && numeric_date(&text[c.span.start..d.span.end])
        {
            out.insert(ValueKind::Date);
        }
        // A year on its own: four digits from 1900 to 2099.
        if c.form.len() == 4
            && (c.form.starts_with("19") || c.form.starts_with("20"))
            && !before.ends_with([',', '.'])
        {
            out.insert(ValueKind::Date);
        }
    }
    out
}

/// The chunk of `view` where a street address starts (its house number or street word), if
/// the text states one: a house number followed by a street word within four words of the
/// same phrase ("12 Rue Gouraud", "45 Hamra Street"), or a street word followed by a house
/// number within two ("Hauptstraße 5", "Calle Mayor 12", "ul. Marszałkowska 10").
pub(crate) fn street_address(view: &RowView<'_>) -> Option<usize> {
    let chunks = &view.chunks;
    let in_id = |pos: usize| view.ids.iter().any(|i| i.span.contains(&pos));
    let joined = |a: usize, b: usize| {
        (a..b).all(|i| same_phrase(&view.text[chunks[i].span.end..chunks[i + 1].span.start]))
    };
    for (k, c) in chunks.iter().enumerate() {
        if is_house_number(&c.form) && !in_id(c.span.start) {
            let ahead = (k + 1..chunks.len().min(k + 5))
                .find(|&j| is_street_word(&chunks[j].form) && joined(k, j));
            if ahead.is_some() {
                return Some(k);
            }
        }
        if is_street_word(&c.form) {
            let number = (k + 1..chunks.len().min(k + 3)).find(|&j| {
                is_house_number(&chunks[j].form) && !in_id(chunks[j].span.start) && joined(k, j)
            });
            // "Rue 12 de Mayo" aside, a street word right before a number names the street.
            if number.is_some() {
                return Some(k);
            }
        }
    }
    None
}

/// Where `view` states a value of `kind` that names one attribute on its own: the first chunk
/// of the identifier or address.
pub(crate) fn value_at(view: &RowView<'_>, kind: ValueKind) -> Option<usize> {
    if kind == ValueKind::Address {
        return street_address(view);
    }
    let id = view.ids.iter().find(|id| {
        matches!(
            (kind, id.kind),
            (ValueKind::Phone, IdKind::Phone)
                | (ValueKind::Email, IdKind::Email)
                | (ValueKind::Handle, IdKind::Handle)
                | (ValueKind::Iban, IdKind::Iban)
        )
    })?;
    view.chunks
        .iter()
        .position(|c| c.span.start >= id.span.start && c.span.start < id.span.end)
}

/// The row of `pool` a supersede's new text (`hint`) replaces by the kind of its value, when
/// the words chose none: the rows holding a value of a kind the new text states that names
/// one attribute on its own ([`ValueKind::specific`]: a phone number, an e-mail or street
/// address, an IBAN); of those, the one sharing the most words with the query (counted twice)
/// and the new text, the subject's own names aside (with the rest of the name the new text
/// writes). A lone row must restate most of the new text's words. A tie chooses nothing.
/// Amounts, dates and codes choose nothing: many attributes state them, and a guess between
/// them overwrote facts the request never named ("Priya's new badge number" over her employee
/// number).
pub(crate) fn choose(q: &QueryShape, hint: &QueryShape, pool: &[&RowView<'_>]) -> Option<usize> {
    let wanted = value_kinds(&RowView::new(&hint.text));
    if wanted.is_empty() || pool.is_empty() {
        return None;
    }
    let mut subject: BTreeSet<&str> = q
        .names
        .iter()
        .flatten()
        .map(|&i| q.words[i].stem.as_str())
        .collect();
    // The rest of the subject's name as the new text writes it ("Niran" asked, "Niran
    // Chaiyaporn moved ..."): every row about the subject repeats it, so it says nothing about
    // the attribute either.
    let rest: Vec<&str> = hint
        .names
        .iter()
        .filter(|run| {
            run.iter()
                .any(|&i| subject.contains(hint.words[i].stem.as_str()))
        })
        .flatten()
        .map(|&i| hint.words[i].stem.as_str())
        .collect();
    subject.extend(rest);
    let words: Vec<(&QWord, usize)> = q
        .words
        .iter()
        .map(|w| (w, 2))
        .chain(hint.words.iter().map(|w| (w, 1)))
        .filter(|(w, _)| !subject.contains(w.stem.as_str()) && !has_digit(&w.chunk))
        // Words of the value itself ("yen", "June") say nothing about the attribute.
        .filter(|(w, _)| {
            let f = w.chunk.form.as_str();
            !CURRENCY_WORDS.contains(&f) && !is_unit(f) && !is_calendar(f)
        })
        .collect();
    // The attribute words the query names of its own ("PIN" in "Anna's PIN code", "religion"
    // in "Priya: religion"): a row holding none of them, nor a word of their slots, is not
    // what the query asks for, whatever the kind of its value. The kind decides for a query
    // that names no attribute ("update Yosef's number") or names it in the row's words.
    let named: Vec<&QWord> = q
        .words
        .iter()
        .filter(|w| super::supersede_fit::is_attribute_word(w))
        .filter(|w| !subject.contains(w.stem.as_str()) && !has_digit(&w.chunk))
        .collect();
    let names_another = |row: &RowView<'_>| {
        !named.is_empty()
            && named.iter().all(|w| {
                super::word_match::find_word(w, row).is_none()
                    && !super::slot_match::shares_slot_of_word(w, row)
            })
    };
    let mut best: Option<(usize, usize, bool)> = None; // (index, shared, specific)
    let mut tied = false;
    for (i, row) in pool.iter().enumerate() {
        let have = value_kinds(row);
        let common: Vec<ValueKind> = have.intersection(&wanted).copied().collect();
        if common.is_empty() || names_another(row) {
            continue;
        }
        let specific = common.iter().any(|k| k.specific());
        let mut seen = BTreeSet::new();
        let shared: usize = words
            .iter()
            .filter(|(w, _)| row.chunks.iter().any(|c| word_matches(w, c)))
            .filter(|(w, _)| seen.insert(w.stem.as_str()))
            .map(|(_, weight)| weight)
            .sum();
        // Amounts, dates and codes are stated by many attributes: only a kind that names one
        // attribute on its own is evidence.
        if !specific {
            continue;
        }
        // A lone row about the subject is evidence only when it restates most of the new
        // text around the value (the same flight, moved to another number): otherwise the
        // attribute may never have been stored.
        if pool.len() == 1 {
            let of_hint: Vec<&&QWord> = words
                .iter()
                .filter(|(_, weight)| *weight == 1)
                .map(|(w, _)| w)
                .collect();
            let restated = of_hint
                .iter()
                .filter(|w| row.chunks.iter().any(|c| word_matches(w, c)))
                .count();
            if restated < 2 || 2 * restated < of_hint.len() {
                continue;
            }
        }
        match best {
            Some((_, s, _)) if s > shared => {}
            Some((_, s, _)) if s == shared => tied = true,
            _ => {
                best = Some((i, shared, specific));
                tied = false;
            }
        }
    }
    best.filter(|_| !tied).map(|(i, _, _)| i)
}

#[cfg(test)]
mod tests;
