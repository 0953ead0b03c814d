//! Han characters read in Cantonese and spelled as Hong Kong and Macau write names in Latin
//! letters: 陳志明 is "Chan Chi Ming", 梁永健 "Leung Wing Kin", 黃家豪 "Wong Ka Ho". The
//! per-character transliteration of [`super::chunks`] reads Han in Mandarin (pinyin: "chen zhi
//! ming"), which such a spelling never meets.
//!
//! The readings are the Jyutping of each character from the rime-cantonese dictionary
//! (`lang/data/cantonese.txt`, CC BY 4.0: every reading given 3 % or more of a character's
//! uses). A reading is spelled by the rules of the Hong Kong government's romanization, which
//! follow the sound and not the letters of Jyutping: the unaspirated initials b d g z are p t k
//! ch (or ts), j is y, aa is a, oeng is eung, eoi is ui, ou is o, yu is u or yu, yun is uen.
//! Several spellings of one reading are given where names use several ("Tsang" and "Chang",
//! "Lee" and "Li"); [`super::variant_key`] then absorbs the rest.

use std::collections::HashMap;
use std::sync::OnceLock;

/// The readings file: a header of `#` lines, then one character per line with its readings.
const READINGS: &str = include_str!("../../data/cantonese.txt");

/// A character's Hong Kong spellings and their distinct variant keys ([`super::variant_key`]).
struct Spelled {
    spellings: Vec<String>,
    keys: Vec<String>,
}

/// The Hong Kong spellings of each character's readings, built once.
fn table() -> &'static HashMap<char, Spelled> {
    static TABLE: OnceLock<HashMap<char, Spelled>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut m = HashMap::new();
        for line in READINGS.lines().filter(|l| !l.starts_with('#')) {
            let mut parts = line.split(' ');
            let mut chars = parts.next().unwrap_or_default().chars();
            let (Some(c), None) = (chars.next(), chars.next()) else {
                continue;
            };
            let mut spellings: Vec<String> = Vec::new();
            for reading in parts {
                for s in spell(reading) {
                    if !spellings.contains(&s) {
                        spellings.push(s);
                    }
                }
            }
            let mut keys: Vec<String> = Vec::new();
            for k in spellings.iter().map(|s| super::variant_key(s)) {
                if !k.is_empty() && !keys.contains(&k) {
                    keys.push(k);
                }
            }
            m.insert(c, Spelled { spellings, keys });
        }
        m
    })
}

/// The Hong Kong spellings of Han character `c` read in Cantonese (empty for any other
/// character).
pub fn spellings(c: char) -> &'static [String] {
    table().get(&c).map_or(&[], |s| s.spellings.as_slice())
}

/// The distinct variant keys of the Hong Kong spellings of `c`: what a row's match keys hold for the
/// character (a query's name word gives its own variant key).
pub fn variant_keys(c: char) -> &'static [String] {
    table().get(&c).map_or(&[], |s| s.keys.as_slice())
}

/// Initials of Jyutping, longest first, with their spellings.
const INITIALS: &[(&str, &[&str])] = &[
    ("gw", &["kw"]),
    ("kw", &["kw"]),
    ("ng", &["ng"]),
    ("b", &["p"]),
    ("p", &["p"]),
    ("m", &["m"]),
    ("f", &["f"]),
    ("d", &["t"]),
    ("t", &["t"]),
    ("n", &["n"]),
    ("l", &["l"]),
    ("g", &["k"]),
    ("k", &["k"]),
    ("h", &["h"]),
    ("w", &["w"]),
    ("z", &["ch", "ts"]),
    ("c", &["ch", "ts"]),
    ("s", &["s", "sh"]),
    ("j", &["y"]),
];

/// Finals of Jyutping with their spellings; a final not listed is written as it is.
const FINALS: &[(&str, &[&str])] = &[
    ("aa", &["a"]),
    ("aai", &["ai"]),
    ("aau", &["au"]),
    ("aam", &["am"]),
    ("aan", &["an"]),
    ("aang", &["ang"]),
    ("aap", &["ap"]),
    ("aat", &["at"]),
    ("aak", &["ak"]),
    ("ei", &["ei", "ee", "i"]),
    ("i", &["i", "z", "ze"]),
    ("ou", &["o", "ou"]),
    ("u", &["u", "oo"]),
    ("ui", &["ui", "ooi"]),
    ("un", &["un", "oon"]),
    ("oe", &["oe", "eu"]),
    ("oeng", &["eung"]),
    ("oek", &["euk"]),
    ("eoi", &["ui", "eui"]),
    ("eon", &["un", "eun"]),
    ("eot", &["ut"]),
    ("yu", &["u", "yu", "ue"]),
    ("yun", &["uen", "un", "yun"]),
    ("yut", &["ut", "uet"]),
];

/// The spellings of one toneless Jyutping syllable.
fn spell(reading: &str) -> Vec<String> {
    let (initial, rest): (&[&str], &str) = INITIALS
        .iter()
        .find_map(|(i, s)| {
            // A syllable that is only "m" or "ng" has no initial (吳 "ng" is "Ng").
            reading
                .strip_prefix(i)
                .filter(|r| !r.is_empty())
                .map(|r| (*s, r))
        })
        .unwrap_or((&[""], reading));
    // j before yu is one sound, written y once: 余 "jyu" is "Yu", 袁 "jyun" "Yuen".
    let glide = initial == ["y"] && rest.starts_with("yu");
    let initial: &[&str] = if glide { &[""] } else { initial };
    let as_written = [rest];
    let finals: &[&str] = FINALS
        .iter()
        .find(|(f, _)| *f == rest)
        .map_or(&as_written[..], |(_, s)| s);
    let mut out = Vec::new();
    for i in initial {
        for f in finals {
            let s = if glide && !f.starts_with('y') {
                format!("y{f}")
            } else {
                format!("{i}{f}")
            };
            if !out.contains(&s) {
                out.push(s);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hong_kong_spellings_of_common_names() {
        for (c, name) in [
            ('陳', "chan"),
            ('志', "chi"),
            ('明', "ming"),
            ('梁', "leung"),
            ('永', "wing"),
            ('健', "kin"),
            ('黃', "wong"),
            ('家', "ka"),
            ('豪', "ho"),
            ('曾', "tsang"),
            ('吳', "ng"),
            ('余', "yu"),
            ('袁', "yuen"),
            ('李', "lee"),
            ('張', "cheung"),
            ('徐', "tsui"),
        ] {
            assert!(
                spellings(c).iter().any(|s| s == name),
                "{c}: {:?}",
                spellings(c)
            );
        }
        assert!(spellings('a').is_empty());
        // Every line of the file is one character and its readings.
        assert!(table().len() > 20_000);
    }
}
