//! Loanwords across scripts: "penicillin" and பென்சிலின், "delivery" and டெலிவரி, "shift" and
//! شیفت, "VPN" and वीपीएन. Languages borrow the words of technology, medicine and trade and
//! write them in their own letters; transliterated back ([`super::chunks`]), the borrowed word
//! keeps its consonants and loses what the borrowing script cannot write: the voicing contrast
//! (Tamil writes "d" and "t" with one letter), "v" against "b" (Bengali ভ), "f" against "p",
//! the vowels (an abjad writes few of them), a post-vocalic "r" (Japanese ナンバー).
//!
//! [`loan_key`] keeps what survives: the word's consonants in classes of sounds a borrowing
//! script merges (labials, dental stops, velars, sibilants and affricates, nasals, l, r), in
//! order, without vowels, `h` or `y`, a doubled letter written once. Two words in different scripts are one
//! borrowed word when their keys are equal and hold at least [`MIN_CLASSES`](crate::canon::LOAN_MIN_CLASSES) consonants: a
//! shorter key ("phone" and "fine" are both labial + nasal) says nothing. An acronym is
//! borrowed letter by letter ("VPN" is "vi-pi-en"), so its key is that of its letter names
//! ([`spelled_acronym`]).
//!
//! This is a reading rule, not a table: it holds for any borrowed word of any language whose
//! letters [`super::chunks`] transliterates, and it cannot tell a borrowed word from a native
//! word with the same consonants. Callers compare attribute words only, across scripts only.

/// Least consonant classes a key needs for two words to be one borrowed word.
pub const MIN_CLASSES: usize = 3;

/// The class of a consonant letter (lowercase ASCII), or `None` for a vowel, `h`, `y` and
/// anything else.
fn class(c: char) -> Option<char> {
    Some(match c {
        'p' | 'b' | 'f' | 'v' | 'w' => 'P',
        't' | 'd' => 'T',
        'k' | 'g' | 'q' => 'K',
        's' | 'z' | 'j' | 'x' => 'S',
        'm' | 'n' => 'N',
        'l' => 'L',
        'r' => 'R',
        _ => return None,
    })
}

fn vowel(c: char) -> bool {
    matches!(c, 'a' | 'e' | 'i' | 'o' | 'u' | 'y')
}

/// The consonant-class key of a word already folded or transliterated to lowercase Latin
/// letters (a chunk's form): see the module docs. Letters other than `a`-`z` are skipped.
///
/// "penicillin" and "penchilin" (பென்சிலின்) are `PNSLN`; "delivery" and "telivari"
/// (டெலிவரி) `TLPR`; "shift" and "shyft" (شیفت) `SPT`.
pub fn loan_key(form: &str) -> String {
    let mut letters: Vec<char> = form.chars().filter(char::is_ascii_lowercase).collect();
    letters.dedup();
    let mut out = String::with_capacity(letters.len());
    let mut i = 0;
    while i < letters.len() {
        let c = letters[i];
        let next = letters.get(i + 1).copied();
        let (sound, step) = match (c, next) {
            // Digraphs: "ph" is f, "ch" and "sh" a sibilant, "ck" a k; "th", "kh", "gh",
            // "bh", "dh", "jh" are their stop.
            ('p', Some('h')) => (Some('P'), 2),
            ('c' | 's', Some('h')) => (Some('S'), 2),
            ('c', Some('k')) => (Some('K'), 2),
            ('t' | 'k' | 'g' | 'b' | 'd' | 'j', Some('h')) => (class(c), 2),
            // A soft "c" before e, i, y; a hard one elsewhere.
            ('c', Some('e' | 'i' | 'y')) => (Some('S'), 1),
            ('c', _) => (Some('K'), 1),
            // A post-vocalic "r" before a consonant or at the end: many borrowing scripts drop it
            // ("number" is ナンバー, "nanba").
            ('r', n) if i > 0 && vowel(letters[i - 1]) && n.is_none_or(|n| !vowel(n)) => (None, 1),
            _ => (class(c), 1),
        };
        out.extend(sound);
        i += step;
    }
    out
}

/// The names of the Latin letters as a borrowing language spells them, in lowercase Latin:
/// how an acronym is read out ("VPN" is "vi-pi-en", वीपीएन).
fn letter_name(c: char) -> &'static str {
    match c {
        'a' => "e",
        'b' => "bi",
        'c' => "si",
        'd' => "di",
        'e' => "i",
        'f' => "ef",
        'g' => "ji",
        'h' => "ech",
        'i' => "ai",
        'j' => "je",
        'k' => "ke",
        'l' => "el",
        'm' => "em",
        'n' => "en",
        'o' => "o",
        'p' => "pi",
        'q' => "kyu",
        'r' => "ar",
        's' => "es",
        't' => "ti",
        'u' => "yu",
        'v' => "vi",
        'w' => "dablyu",
        'x' => "eks",
        'y' => "wai",
        'z' => "zed",
        _ => "",
    }
}

/// The letters of an acronym read out one by one ("vpn" -> "vipien"), for a word written in
/// capitals of two to six Latin letters; `None` for any other word.
pub fn spelled_acronym(written: &str) -> Option<String> {
    let n = written.chars().count();
    if !(2..=6).contains(&n) || !written.chars().all(|c| c.is_ascii_uppercase()) {
        return None;
    }
    Some(
        written
            .chars()
            .map(|c| letter_name(c.to_ascii_lowercase()))
            .collect(),
    )
}

/// The keys a Latin word (its folded form `latin`, as `written`) gives a borrowed form of it: its
/// own [`loan_key`], and for an acronym in capitals that of its letter names. Keys of fewer
/// than [`MIN_CLASSES`](crate::canon::LOAN_MIN_CLASSES) classes are left out: they meet nothing.
pub fn loan_keys_of(latin: &str, written: &str) -> Vec<String> {
    let mut keys = vec![loan_key(latin)];
    if let Some(spelled) = spelled_acronym(written) {
        keys.push(loan_key(&spelled));
    }
    keys.retain(|k| k.len() >= MIN_CLASSES);
    keys.dedup();
    keys
}

/// True if the transliterated form `other` of a word in another script is the borrowed form of
/// the Latin word `latin` (its folded form, or `written` as an acronym): its [`loan_key`] is
/// one of [`loan_keys_of`] the Latin word. The keys must be equal, not one a prefix of the
/// other: an inflected borrowed word meets its source only when its ending leaves no consonant
/// in the key ("bhijiter", a Bengali genitive of "visit", ends in a post-vocalic r).
pub fn borrowed(latin: &str, written: &str, other: &str) -> bool {
    loan_keys_of(latin, written).contains(&loan_key(other))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn borrowed_words_keep_their_consonants() {
        assert_eq!(loan_key("penicillin"), "PNSLN");
        assert_eq!(loan_key("penchilin"), "PNSLN");
        for (latin, other) in [
            ("penicillin", "penchilin"),
            ("delivery", "telivari"),
            ("shift", "shyft"),
            ("oncall", "ankl"),
            ("password", "pasuwado"),
            ("passport", "pasport"),
            // The Bengali genitive "-er" ends in a post-vocalic r, which the key drops.
            ("visit", "bhijiter"),
        ] {
            assert!(borrowed(latin, latin, other), "{latin} {other}");
        }
        assert!(borrowed("vpn", "VPN", "vipien"));
    }

    #[test]
    fn short_keys_and_other_words_are_not_borrowings() {
        // Two classes only: "phone" could be "fine" or "fun".
        assert!(!borrowed("phone", "phone", "fon"));
        assert!(!borrowed("home", "home", "hom"));
        assert!(!borrowed("dollar", "dollar", "dolar"));
        assert!(!borrowed("allergy", "allergy", "ovvamai"));
        assert!(!borrowed("insurance", "insurance", "kappittu"));
        // An acronym of lowercase letters is a word.
        assert_eq!(spelled_acronym("vpn"), None);
        assert_eq!(spelled_acronym("VPN").as_deref(), Some("vipien"));
    }
}
