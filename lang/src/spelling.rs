//! British and American spellings of one English word: a request typed in one spelling names
//! the attribute a memory wrote in the other ("driver's license" and "driver's licence", "the
//! paediatrician" and "pediatrician", "favourite" and "favorite").
//!
//! Both words are brought to one key by the regular correspondences of the two spellings, and
//! meet when the keys are equal:
//!
//! | British | American | examples | applies to |
//! |---|---|---|---|
//! | `-ence` | `-ense` | licence, defence, offence | any word ending so |
//! | `-our` | `-or` | colour, favourite, neighbours | a base of at least three letters before `our` |
//! | `-ise`, `-yse` | `-ize`, `-yze` | organise, authorised, analyse | a base of at least four letters |
//! | `-tre`, `-bre` | `-ter`, `-ber` | centre, metres, fibre | a word of at least five letters, not after `m` ("timbre" is not "timber") |
//! | `-ogue` | `-og` | catalogue, dialogue | a base of at least four letters |
//! | `ae` | `e` | paediatrician, haemoglobin, anaemia | between two consonants, in a word of at least seven letters |
//!
//! Left out on purpose: `oe` and `e` ("poet" is not "pet"), a doubled `l` ("travelled" meets
//! "travel" through the engine's inflection rule), and single words ("cheque", "tyre", "grey").
//! The keys are never shown and never stored: they only say whether two words are one. Names
//! are not English words: the caller applies this to lowercase words only ("Michael" is not
//! "Michel").

/// True if `a` and `b` (lowercase words) are one English word in its British and American
/// spellings. Equal words are not variants of each other; a word only meets a word of nearly
/// its length (two letters more or less) that starts with the same letter, one of them
/// holding a British ending, so most pairs are told apart without
/// building a key.
pub fn spelling_variants(a: &str, b: &str) -> bool {
    if a == b || a.len().abs_diff(b.len()) > 2 || a.len() < 5 || b.len() < 5 {
        return false;
    }
    if a.as_bytes()[0] != b.as_bytes()[0] || !a.is_ascii() || !b.is_ascii() {
        return false;
    }
    // One of them must be written in a British spelling of the table.
    let british = |w: &str| {
        w.contains("enc")
            || w.contains("our")
            || w.contains("is")
            || w.contains("ys")
            || w.contains("tre")
            || w.contains("bre")
            || w.contains("ogue")
            || w.contains("ae")
    };
    if !british(a) && !british(b) {
        return false;
    }
    let (ka, kb) = (key(a), key(b));
    (ka != a || kb != b) && ka == kb
}

/// The American spelling of `word` by the correspondences of the module's table.
fn key(word: &str) -> String {
    let mut out = word.to_owned();
    // -ence -> -ense, -ences -> -enses.
    for (from, to) in [("ence", "ense"), ("ences", "enses")] {
        if let Some(stem) = word.strip_suffix(from) {
            out = format!("{stem}{to}");
        }
    }
    // -our -> -or before an ending: colour, colours, coloured, favourite, neighbourhood.
    if let Some(at) = word.find("our")
        && at >= 3
    {
        let rest = &word[at + 3..];
        if [
            "", "s", "ed", "ing", "ite", "ites", "able", "hood", "er", "ers",
        ]
        .contains(&rest)
        {
            out = format!("{}or{rest}", &word[..at]);
        }
    }
    // -ise/-yse -> -ize/-yze, with their inflections: organised, analyses, realising.
    for (from, to) in [("is", "iz"), ("ys", "yz")] {
        for tail in ["e", "es", "ed", "ing", "ation", "ations", "er", "ers"] {
            let ending = format!("{from}{tail}");
            if let Some(stem) = word.strip_suffix(ending.as_str())
                && stem.len() >= 4
            {
                out = format!("{stem}{to}{tail}");
            }
        }
    }
    // -tre/-bre -> -ter/-ber: centre, metres, fibre.
    for (from, to) in [("tre", "ter"), ("bre", "ber")] {
        for tail in ["", "s", "d"] {
            let ending = format!("{from}{tail}");
            if let Some(stem) = word.strip_suffix(ending.as_str())
                && word.len() >= 5
                && !stem.ends_with('m')
            {
                let tail = if tail == "d" { "ed" } else { tail };
                out = format!("{stem}{to}{tail}");
            }
        }
    }
    // -ogue -> -og: catalogue, dialogues.
    for (from, to) in [("ogue", "og"), ("ogues", "ogs")] {
        if let Some(stem) = word.strip_suffix(from)
            && stem.len() >= 4
        {
            out = format!("{stem}{to}");
        }
    }
    // ae -> e between consonants: paediatrician, haemoglobin, anaemia.
    if out.len() >= 7 {
        let b = out.as_bytes();
        let consonant = |c: u8| c.is_ascii_lowercase() && !b"aeiouy".contains(&c);
        if let Some(at) = (1..b.len().saturating_sub(2)).find(|&i| {
            b[i] == b'a' && b[i + 1] == b'e' && consonant(b[i - 1]) && consonant(b[i + 2])
        }) {
            out.remove(at);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn british_and_american_spellings_meet() {
        for (a, b) in [
            ("licence", "license"),
            ("licences", "licenses"),
            ("defence", "defense"),
            ("colour", "color"),
            ("favourite", "favorite"),
            ("neighbours", "neighbors"),
            ("organised", "organized"),
            ("authorise", "authorize"),
            ("analyse", "analyze"),
            ("centre", "center"),
            ("metres", "meters"),
            ("fibre", "fiber"),
            ("catalogue", "catalog"),
            ("paediatrician", "pediatrician"),
            ("haemoglobin", "hemoglobin"),
            ("anaemia", "anemia"),
        ] {
            assert!(spelling_variants(a, b), "{a} ~ {b}");
            assert!(spelling_variants(b, a), "{b} ~ {a}");
        }
    }

    #[test]
    fn other_words_do_not_meet() {
        for (a, b) in [
            // One word is not a variant of itself, and short words are left alone.
            ("license", "license"),
            ("four", "for"),
            ("hour", "hor"),
            ("poet", "pet"),
            // Different words with similar endings.
            ("licence", "licensed"),
            ("colour", "collar"),
            ("promise", "premise"),
            ("centre", "centred"),
            ("acre", "acer"),
            ("timbre", "timber"),
        ] {
            assert!(!spelling_variants(a, b), "{a} / {b}");
        }
    }
}
