//! The other forms one name takes: its case forms in Greek, Russian and Ukrainian
//! ([`same_inflected_name`], [`inflected_forms`]), a romanization with or without the initial
//! glide ([`without_initial_glide`]), and the consonant skeletons an Arabic or Hebrew word may
//! stand for ([`abjad_skeletons`]); and whether two words are one name ([`same_name`]), an
//! abjad writing a name's final vowel ([`vowel_finals_agree`]).

use super::{Chunk, Script, hangul_variant_key, skeleton, variant_key};

/// Case endings of names in Greek, as [`transliterate`](super::transliterate) writes them, in pairs of forms of one
/// name: masculine nominative `-ος` and genitive `-ου` or accusative `-ο` (Γιώργος, Γιώργου),
/// `-ης` and `-η` (Γιάννης, Γιάννη; Ελένη, Ελένης), `-ας` and `-α` (Λουκάς, Λουκά; Ρένα, Ρένας).
const GREEK_CASE_PAIRS: &[(&str, &str)] = &[
    ("os", "ou"),
    ("os", "o"),
    ("ou", "o"),
    ("is", "i"),
    ("as", "a"),
];

/// Case endings of names in Russian and Ukrainian, as [`transliterate`](super::transliterate) writes them, in pairs of
/// forms of one name. Feminine `-а`/`-я` and its oblique cases (Лена, Лены, Лене, Лену, Леной;
/// Ніна, Ніни; Мария, Марии); masculine consonant stems and their dative and instrumental (Иван,
/// Ивану, Иваном; Соколов, Соколовым). Left out on purpose: a masculine genitive `-а` (Соколов,
/// Соколова), which is also the feminine nominative (Sokolova is another person), and `-ий`,
/// `-ия` (Евгений, Евгения).
const SLAVIC_CASE_PAIRS: &[(&str, &str)] = &[
    ("a", "y"),
    ("a", "i"),
    ("a", "e"),
    ("a", "u"),
    ("a", "oy"),
    ("a", "ey"),
    ("ya", "i"),
    ("ya", "e"),
    ("ya", "yu"),
    ("ya", "ey"),
    ("", "u"),
    ("", "om"),
    ("", "ym"),
    ("", "em"),
];

/// Case endings of names in Tamil and Bengali, whose nouns take their cases as suffixes, as
/// [`transliterate`](super::transliterate) writes them (the Devanagari reading rules, see
/// `translit`), each against the bare name. Tamil: dative `-ukku`/`-kku` (குமாருக்கு), genitive
/// `-in`, `-udaiya` (குமாரின்; `-vin`, `-yin`, `-vukku`, `-yukku` after a vowel: பிரியாவின்,
/// லட்சுமியின்), accusative `-ai`, locative `-il`, sociative `-odu`, `-idam`
/// ("with"), `-ukkana`/`-kkana` ("for": மயிலாப்பூருக்கான), and the oblique `-att-` of nouns in
/// `-am` (சுப்பிரமணியம், சுப்பிரமணியத்தின்). Bengali: genitive `-er`/`-r` (চ্যাটার্জির), objective
/// `-ke` (ঘোষকে), plural `-ra`, `-der`, locative `-e`/`-te`.
const BRAHMIC_CASE_PAIRS: &[(&str, &str)] = &[
    ("", "ukku"),
    ("", "kku"),
    ("", "in"),
    ("", "vin"),
    ("", "yin"),
    ("", "vukku"),
    ("", "yukku"),
    ("", "udaiya"),
    ("", "ai"),
    ("", "il"),
    ("", "odu"),
    ("", "idam"),
    ("", "ukkana"),
    ("", "kkana"),
    ("m", "ttin"),
    ("m", "ttukku"),
    ("m", "ttai"),
    ("m", "ttil"),
    ("", "er"),
    ("", "r"),
    ("", "ke"),
    ("", "ra"),
    ("", "der"),
    ("", "e"),
    ("", "te"),
];

/// Least letters a name keeps without its case ending for [`same_inflected_name`].
const MIN_INFLECTED_STEM: usize = 3;

/// True if two words are case forms of one name, where at least one is written in Greek or
/// Cyrillic, scripts whose names decline ("Ελένης" is "Eleni" in the genitive, "Миколи"
/// "Mykola", "Лены" "Лена"): with an ending of one pair of the script's case forms
/// (documented in `docs/canonicalization.md`) taken off each, the rests have the same
/// [`variant_key`] and keep at least three letters.
pub fn same_inflected_name(a: &Chunk, b: &Chunk) -> bool {
    inflected(a, b, false)
}

/// True if two words are case forms of one name spelled alike: [`same_inflected_name`] with
/// the rests equal, not only of one [`variant_key`] ("Ивана" and "Иван", not "Иванна").
pub fn same_inflected_spelling(a: &Chunk, b: &Chunk) -> bool {
    inflected(a, b, true)
}

fn inflected(a: &Chunk, b: &Chunk, strict: bool) -> bool {
    // Tamil and Bengali (read as `Script::Other`) suffix every case to the bare name.
    let (pairs, suffixing): (&[(&str, &str)], bool) = match (a.script, b.script) {
        (Script::Greek, _) | (_, Script::Greek) => (GREEK_CASE_PAIRS, false),
        (Script::Cyrillic, _) | (_, Script::Cyrillic) => (SLAVIC_CASE_PAIRS, false),
        (Script::Other, _) | (_, Script::Other) => (BRAHMIC_CASE_PAIRS, true),
        _ => return false,
    };
    if a.form == b.form || a.form.is_empty() || b.form.is_empty() {
        return false;
    }
    let stems_meet = |x: &str, y: &str| {
        x.len() >= MIN_INFLECTED_STEM
            && y.len() >= MIN_INFLECTED_STEM
            && (x == y || (!strict && variant_key(x) == variant_key(y)))
    };
    // A Latin text does not decline: it writes a Greek or Slavic name in the nominative
    // ("Nikos", never "Niko" for Νίκο or "Ivanu" for Ивану), so a Latin word meets only through
    // an ending a nominative may have. "niko" is then no more Νίκου (Nikos's genitive) than
    // it is "Nikos".
    let nominative: &[&str] = if std::ptr::eq(pairs, GREEK_CASE_PAIRS) {
        GREEK_NOMINATIVE
    } else {
        SLAVIC_NOMINATIVE
    };
    let oblique = |c: &Chunk, ending: &str| {
        c.script == Script::Latin && !suffixing && !nominative.contains(&ending)
    };
    let paired = pairs.iter().any(|&(e1, e2)| {
        [(a, b), (b, a)].iter().any(|(x, y)| {
            if oblique(x, e1) || oblique(y, e2) {
                return false;
            }
            match (strip_case(&x.form, e1), strip_case(&y.form, e2)) {
                (Some(sx), Some(sy)) => stems_meet(sx, sy),
                _ => false,
            }
        })
    });
    // Tamil and Bengali write every case as a suffix on the bare name, so two case forms of
    // one name meet through it: "ராஜேந்திரனின்" (genitive) and "ராஜேந்திரனுக்கு" (dative) are
    // both "ராஜேந்திரன்".
    paired
        || (suffixing && {
            let other = bare_forms(&b.form);
            bare_forms(&a.form)
                .iter()
                .any(|x| other.iter().any(|y| stems_meet(x, y)))
        })
}

/// The bare names a Tamil or Bengali word may be a case form of: the word with one ending of
/// [`BRAHMIC_CASE_PAIRS`] taken off (and the oblique stem's `-m` put back).
fn bare_forms(form: &str) -> Vec<String> {
    BRAHMIC_CASE_PAIRS
        .iter()
        .filter_map(|&(bare, ending)| {
            strip_case(form, ending)
                .filter(|stem| !ending.is_empty() && !stem.is_empty())
                .map(|stem| format!("{stem}{bare}"))
        })
        .collect()
}

/// The endings of [`GREEK_CASE_PAIRS`] a name may have in the nominative: a man's `-ος`,
/// `-ης`, `-ας` (Γιώργος, Γιάννης, Λουκάς) and a woman's `-η`, `-α` (Ελένη, Ρένα). `-ου` and
/// `-ο` are only ever genitive and accusative.
const GREEK_NOMINATIVE: &[&str] = &["os", "is", "as", "i", "a"];

/// The endings of [`SLAVIC_CASE_PAIRS`] a name may have in the nominative: the first of each
/// pair (Лена, Мария, Иван).
const SLAVIC_NOMINATIVE: &[&str] = &["a", "ya", ""];

/// A man's name in the genitive, as [`transliterate`](super::transliterate) writes Russian and
/// Ukrainian: a consonant stem takes `-а` (Иван, Ивана; Соколов, Соколова), a soft one `-я`
/// (Бондар, Бондаря; Игорь, Игоря), `-ий` and `-й` become `-ия` and `-я` (Ираклий, Ираклия;
/// Андрей, Андрея). Kept apart from [`SLAVIC_CASE_PAIRS`]: one word in `-а` is also a woman's
/// nominative (Соколова, Ивана), so this form is read only across a whole name
/// ([`masculine_genitive`]).
const MASCULINE_GENITIVE: &[(&str, &str)] = &[("", "a"), ("", "ya"), ("iy", "iya"), ("y", "ya")];

/// True if `genitive` is the masculine genitive of the name word `nominative` (both folded and
/// transliterated forms), keeping at least three letters of stem: a consonant stem and `-a`
/// (`ivan`, `ivana`), a soft stem and `-ya` (`bondar`, `bondarya`), `-iy` and `-y` becoming
/// `-iya` and `-ya` (`irakliy`, `irakliya`; `andrey`, `andreya`).
/// The caller must require it of a whole name of two words or more: alone, "petrova" is as much
/// Anna Petrova as Ivan Petrov's.
pub fn masculine_genitive(nominative: &str, genitive: &str) -> bool {
    MASCULINE_GENITIVE.iter().any(|&(nom, genitive_ending)| {
        nominative
            .strip_suffix(nom)
            .filter(|stem| stem.len() >= MIN_INFLECTED_STEM)
            .zip(genitive.strip_suffix(genitive_ending))
            // The stems exactly: a variant key would make "Ivanna" (another woman) "Ivan"'s.
            .is_some_and(|(a, b)| a == b)
    })
}

/// True if `genitive` is the masculine genitive ([`masculine_genitive`]) of the name word
/// `spelling` as a Latin text spells it: as transliterated, or with the English "-y" for
/// "-ий" after a consonant ("Dmitry" for Дмитрий, whose genitive is Дмитрия; "Vasily",
/// "Anatoly", "Georgy").
pub fn masculine_genitive_of_spelling(spelling: &str, genitive: &str) -> bool {
    masculine_genitive(spelling, genitive)
        || spelling
            .strip_suffix('y')
            .filter(|stem| {
                stem.ends_with(|c: char| c.is_ascii_alphabetic() && !"aeiouy".contains(c))
            })
            .is_some_and(|stem| masculine_genitive(&format!("{stem}iy"), genitive))
}

/// `form` without the case ending `ending`. A `y` after a vowel writes й, part of the stem
/// ("Евгений" is "yevgeniy"), not the ending ы (nor `ym` the ending ым).
fn strip_case<'a>(form: &'a str, ending: &str) -> Option<&'a str> {
    let stem = form.strip_suffix(ending)?;
    let after_vowel = stem.ends_with(['a', 'e', 'i', 'o', 'u', 'y']);
    (!(matches!(ending, "y" | "ym") && after_vowel)).then_some(stem)
}

/// The forms a name word may take in the other cases of Greek, Russian or Ukrainian
/// ([`same_inflected_name`]): what a query looks up so that a row declining the name is a
/// candidate.
pub fn inflected_forms(form: &str) -> Vec<String> {
    let mut out = Vec::new();
    // The nominative of a man's name in the genitive, so that the row is a candidate; whether
    // it is the same person is decided over the whole name ([`masculine_genitive`]).
    for &(nom, genitive_ending) in MASCULINE_GENITIVE {
        if let Some(stem) = form.strip_suffix(genitive_ending)
            && stem.len() >= MIN_INFLECTED_STEM
        {
            let alt = format!("{stem}{nom}");
            if alt != form && !out.contains(&alt) {
                out.push(alt);
            }
        }
    }
    for &(e1, e2) in GREEK_CASE_PAIRS
        .iter()
        .chain(SLAVIC_CASE_PAIRS)
        .chain(BRAHMIC_CASE_PAIRS)
    {
        for (from, to) in [(e1, e2), (e2, e1)] {
            if let Some(stem) = strip_case(form, from)
                && stem.len() >= MIN_INFLECTED_STEM
            {
                let alt = format!("{stem}{to}");
                if alt != form && !out.contains(&alt) {
                    out.push(alt);
                }
            }
        }
    }
    out
}

/// A variant key without the glide that some romanizations write before an initial `e`:
/// Russian and Ukrainian Е, Є at the start of a word are `ye` in BGN/PCGN and most English
/// texts, `e` in ISO 9, passports and most other languages ("Yekaterina" and "Ekaterina",
/// "Yevgeny" and "Evgeny"). Variant keys write the glide as `i`.
pub fn without_initial_glide(key: &str) -> &str {
    match key.strip_prefix('i') {
        Some(rest) if rest.starts_with('e') => rest,
        _ => key,
    }
}

/// The consonant skeletons an abjad word (as [`transliterate`](super::transliterate) writes it) may stand for:
/// - its [`skeleton`];
/// - its skeleton reading every `h` after a consonant as a letter of its own: the
///   transliteration writes some single letters with two (ش `sh`, خ `kh`, ذ `dh`), so `zh` may
///   be ز followed by ه ("الزهراني" is "Al-Zahrani", not "Al-Zrani");
/// - each of those without a final `h` when it has three letters or more, because a word-final
///   ה, ه or ة writes a vowel ("Rivka" רבקה, "Fatima" فاطمة, "Nadia" نادية);
/// - each of those without an initial `l` when the word starts with one and keeps two
///   consonants after it: the Arabic article ال is written attached ("الزهراني" is
///   "Zahrani" with its article, as in "Al-Zahrani").
pub fn abjad_skeletons(form: &str) -> Vec<String> {
    let mut out = vec![skeleton(form)];
    let mut literal = String::with_capacity(form.len() + 4);
    let mut prev: Option<char> = None;
    for c in form.chars() {
        if c == 'h' && prev.is_some_and(|p| p.is_ascii_alphabetic() && !"aeiouh".contains(p)) {
            literal.push('a');
        }
        literal.push(c);
        prev = Some(c);
    }
    out.push(skeleton(&literal));
    for i in 0..out.len() {
        if out[i].len() >= 3
            && let Some(t) = out[i].strip_suffix('h')
        {
            out.push(t.to_owned());
        }
    }
    if form.starts_with('l') {
        for i in 0..out.len() {
            if let Some(t) = out[i].strip_prefix('l')
                && t.len() >= 2
            {
                out.push(t.to_owned());
            }
        }
    }
    // A one-letter proclitic written onto the word: Arabic بـ "with, of" and وـ "and"
    // ("الخاص بيوسف", belonging to Youssef), Hebrew ב "in" and ו "and" (لـ and the article
    // are taken off above; فـ "so" is left alone, as many names start with ف). Only skeletons
    // of three consonants or more count for the rest: a two-letter rest matches too many names
    // (بسام, Bassam, is not Sam).
    if let Some(rest) = form.strip_prefix(['b', 'w', 'v'])
        && rest.chars().count() >= 3
    {
        out.extend(abjad_skeletons(rest).into_iter().filter(|s| s.len() >= 3));
    }
    let mut seen = Vec::with_capacity(out.len());
    for s in out {
        if !seen.contains(&s) {
            seen.push(s);
        }
    }
    seen
}

/// See [`Chunk::vowel_final`]: `original` is the word as written, `form` its folded form.
pub(super) fn ends_in_vowel_letter(original: &str, script: Script, form: &str) -> bool {
    match script {
        Script::Arabic | Script::Hebrew => original
            .chars()
            .rev()
            // Vowel points and cantillation (Hebrew), harakat and the superscript alef
            // (Arabic) are marks over the last letter, not letters.
            .find(|&c| {
                !matches!(c, '\u{0591}'..='\u{05C7}' | '\u{0610}'..='\u{061A}'
                    | '\u{064B}'..='\u{065F}' | '\u{0670}' | '\u{06D6}'..='\u{06ED}')
                    && c.is_alphabetic()
            })
            .is_some_and(|c| "אהויעاىيوةهءأإآؤئعیےہۃۀە".contains(c)),
        _ => form.ends_with(['a', 'i', 'o', 'u', 'y']),
    }
}

/// False when one word is written in an abjad and the other, vocalized, ends in a vowel the
/// abjad word does not write ([`Chunk::vowel_final`]): "Yosefa" is not יוסף, "Ahmedou" is not
/// أحمد (a final vowel is written: "Rivka" רבקה, "Ali" علي, "Musa" موسى).
pub fn vowel_finals_agree(a: &Chunk, b: &Chunk) -> bool {
    let abjad = |s: Script| matches!(s, Script::Arabic | Script::Hebrew);
    match (abjad(a.script), abjad(b.script)) {
        (true, false) => a.vowel_final || !b.vowel_final,
        (false, true) => b.vowel_final || !a.vowel_final,
        _ => true,
    }
}

/// Variant key of a Thai name's romanization, or of a Latin word compared against one. Thai
/// names are written in Latin letters both with and without the "h" of an aspirated stop
/// ("Suphaphon", "Supaporn": พ, ภ, ผ are "ph" in the RTGS, "p" in many names), and with the
/// "r" of the letter ร where the RTGS reads its final sound, "n" ("Supaporn" for สุภาพร,
/// "Sunthorn" for สุนทร). The key drops both differences, then takes the [`variant_key`].
pub fn thai_variant_key(word: &str) -> String {
    let relaxed = word
        .replace("ph", "p")
        .replace("th", "t")
        .replace("kh", "k")
        .replace("rn", "n");
    variant_key(&relaxed)
}

/// True if two words denote the same name: equal forms, equal variant keys, or (when either
/// side's script is Arabic or Hebrew) equal skeletons of length >= 2. When either side is
/// Hangul, the keys are [`hangul_variant_key`]s; a Thai word and a word of another script
/// also meet by their [`thai_variant_key`]s.
pub fn same_name(a: &Chunk, b: &Chunk) -> bool {
    if a.form.is_empty() || b.form.is_empty() {
        return false;
    }
    if a.form == b.form {
        return true;
    }
    let (ka, kb) = if a.script == Script::Hangul || b.script == Script::Hangul {
        (hangul_variant_key(&a.form), hangul_variant_key(&b.form))
    } else {
        (variant_key(&a.form), variant_key(&b.form))
    };
    if !ka.is_empty() && (ka == kb || without_initial_glide(&ka) == without_initial_glide(&kb)) {
        return true;
    }
    if (a.script == Script::Thai || b.script == Script::Thai) && a.script != b.script {
        let (ta, tb) = (thai_variant_key(&a.form), thai_variant_key(&b.form));
        if !ta.is_empty() && ta == tb {
            return true;
        }
    }
    let abjad = |s: Script| matches!(s, Script::Arabic | Script::Hebrew);
    if abjad(a.script) || abjad(b.script) {
        if !vowel_finals_agree(a, b) {
            return false;
        }
        let forms = |c: &Chunk| {
            if abjad(c.script) {
                abjad_skeletons(&c.form)
            } else {
                vec![skeleton(&c.form)]
            }
        };
        let sb = forms(b);
        return forms(a).iter().any(|sa| sa.len() >= 2 && sb.contains(sa));
    }
    false
}

#[cfg(test)]
mod tests {
    use super::masculine_genitive;

    #[test]
    fn masculine_genitives_of_russian_and_ukrainian_names() {
        for (nominative, genitive) in [
            ("ivan", "ivana"),
            ("bondar", "bondarya"),
            ("irakliy", "irakliya"),
            ("andrey", "andreya"),
            ("sokolov", "sokolova"),
        ] {
            assert!(
                masculine_genitive(nominative, genitive),
                "{nominative} {genitive}"
            );
        }
        // Not the other way round, and not another name.
        assert!(!masculine_genitive("ivana", "ivan"));
        assert!(!masculine_genitive("ivan", "ivanna"));
        assert!(!masculine_genitive("olga", "olgi"));
        assert!(super::masculine_genitive_of_spelling("dmitry", "dmitriya"));
        assert!(super::masculine_genitive_of_spelling("sokolov", "sokolova"));
        assert!(super::masculine_genitive_of_spelling("vasily", "vasiliya"));
        assert!(!super::masculine_genitive_of_spelling("dmitriya", "dmitry"));
    }
}
