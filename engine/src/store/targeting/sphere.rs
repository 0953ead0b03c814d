//! Spheres of life: a contact detail or an address belongs to someone's home or to their work.
//!
//! A request for a "home address" is not about "Mehmet's office is located at ...", nor one for
//! an "office address" about "Elena lives at ...", nor "l'e-mail personnel de Ivan" about his
//! work e-mail. Where the row writes the attribute's own word, the compound rule reads the
//! row's modifier ([`super::compound::modifier_contrast`]); this module judges the rows that
//! state only a value and the sphere around it, in any of the languages listed below.
//!
//! The word lists are general language, per sphere: the modifiers ("home", "private",
//! "personal"; "work", "office", "business"), the nouns and the verbs of dwelling and of the
//! workplace ("lives at", "the office"), in English, the common Latin-script languages (French,
//! Spanish, Portuguese, Italian, German, Dutch, Turkish, folded as the canonicalizer folds them)
//! and the scripts the concept lexicon covers ([`crate::concepts`]). They name no entity.
//! Matching follows the concept lexicon: a Latin word is matched whole, a Cyrillic, Greek or
//! Devanagari form starts a word (the forms are stems), an Arabic or Hebrew form is found inside
//! a word (clitics attach), and a form of a script written without spaces inside a run.

use std::sync::OnceLock;

use super::query::QueryShape;
use super::row_view::RowView;
use super::word_match::{concept_hit, find_name};
use crate::canon::{self, Script};
use crate::concepts;

/// The home sphere: modifiers, nouns, and the verbs of dwelling.
const HOME: &[&str] = &[
    // English.
    "home",
    "private",
    "personal",
    "residential",
    "residence",
    "house",
    "live",
    "lives",
    "lived",
    "living",
    "reside",
    "resides",
    "resided",
    "residing",
    // French, Spanish, Portuguese, Italian.
    "prive",
    "privee",
    "personnel",
    "personnelle",
    "domicile",
    "habite",
    "maison",
    "privado",
    "privada",
    "particular",
    "domicilio",
    "vive",
    "pessoal",
    "residencial",
    "privato",
    "privata",
    "personale",
    "abita",
    // German, Dutch.
    "privat",
    "privatadresse",
    "personlich",
    "wohnt",
    "wohnadresse",
    "zuhause",
    "thuis",
    "woont",
    "persoonlijk",
    // Turkish.
    "kisisel",
    "yasiyor",
    "oturuyor",
    // Russian, Ukrainian.
    "домашн",
    "личн",
    "живёт",
    "живет",
    "проживает",
    "особист",
    "мешкає",
    "живе",
    // Greek.
    "προσωπικ",
    "σπιτ",
    "κατοικ",
    "μένει",
    // Hebrew, Arabic, Persian, Urdu.
    "אישי",
    "מגורים",
    "הבית",
    "מתגורר",
    "شخصي",
    "منزل",
    "سكن",
    "يعيش",
    "تعيش",
    "خانه",
    "شخصی",
    "سکونت",
    "ذاتی",
    "گھر",
    // Chinese, Japanese, Korean.
    "家庭",
    "住宅",
    "私人",
    "个人",
    "個人",
    "自宅",
    "私用",
    "居住",
    "住在",
    "개인",
    "자택",
    "거주",
    // Hindi, Thai.
    "घर",
    "निजी",
    "व्यक्तिगत",
    "बบ้าน",
    "บ้าน",
    "ส่วนตัว",
    "อาศัย",
];

/// The work sphere: modifiers, nouns, and the verbs of working.
const WORK: &[&str] = &[
    // English.
    "work",
    "works",
    "worked",
    "working",
    "office",
    "business",
    "professional",
    "corporate",
    "workplace",
    // French, Spanish, Portuguese, Italian.
    "travail",
    "bureau",
    "professionnel",
    "professionnelle",
    "trabajo",
    "oficina",
    "laboral",
    "profesional",
    "trabalho",
    "escritorio",
    "lavoro",
    "ufficio",
    // German, Dutch.
    "arbeit",
    "dienstlich",
    "buro",
    "geschaftlich",
    "werk",
    "kantoor",
    "zakelijk",
    // Turkish.
    "isyeri",
    "ofis",
    "kurumsal",
    // Russian, Ukrainian.
    "рабоч",
    "служебн",
    "офис",
    "робоч",
    "службов",
    // Greek.
    "εργασ",
    "γραφει",
    "γραφεί",
    "επαγγελματικ",
    // Hebrew, Arabic, Persian, Urdu.
    "עבודה",
    "משרד",
    "العمل",
    "مكتب",
    "کاری",
    "اداره",
    "دفتر",
    // Chinese, Japanese, Korean.
    "工作",
    "办公",
    "辦公",
    "公司",
    "会社",
    "勤務",
    "職場",
    "单位",
    "單位",
    "회사",
    "직장",
    "업무",
    "사무실",
    // Hindi, Thai.
    "दफ़्तर",
    "दफ्तर",
    "ऑफिस",
    "कार्यालय",
    "ที่ทำงาน",
    "สำนักงาน",
    "บริษัท",
];

/// Every form with its sphere (0 home, 1 work) and script, parsed once.
fn forms() -> &'static [(usize, Script, &'static str)] {
    static FORMS: OnceLock<Vec<(usize, Script, &'static str)>> = OnceLock::new();
    FORMS.get_or_init(|| {
        let mut v = Vec::new();
        for (sphere, list) in [HOME, WORK].into_iter().enumerate() {
            for f in list {
                if let Some(c) = canon::chunks(f).first() {
                    v.push((sphere, c.script, *f));
                }
            }
        }
        v
    })
}

/// The spheres one word names, as a bit set (1 home, 2 work): `word` as written (for an
/// unspaced script, the run it belongs to), `script` its script, `form` its folded form.
fn spheres_of_word(word: &str, script: Script, form: &str) -> u8 {
    let word = word.to_lowercase();
    let mut found = 0u8;
    for &(sphere, fs, f) in forms() {
        let same = fs == script || (concepts::unspaced(fs) && concepts::unspaced(script));
        let hit = same
            && match script {
                Script::Latin => form == f,
                Script::Cyrillic | Script::Greek | Script::Devanagari => word.starts_with(f),
                _ => word.contains(f),
            };
        if hit {
            found |= 1 << sphere;
        }
    }
    found
}

/// The spheres a text's words name, each with the chunk index of its word.
fn spheres_in(text: &str, chunks: &[canon::Chunk]) -> Vec<(u8, usize)> {
    concepts::words(text, chunks)
        .into_iter()
        .filter_map(|(i, span, script)| {
            let found = spheres_of_word(&text[span], script, &chunks[i].form);
            (found != 0).then_some((found, i))
        })
        .collect()
}

/// The spheres a text's words name, as a bit set (1 home, 2 work).
fn spheres_of(text: &str, chunks: &[canon::Chunk]) -> u8 {
    spheres_in(text, chunks)
        .iter()
        .fold(0, |all, &(s, _)| all | s)
}

/// Nouns after "personal" or "private" that name a person's data as a whole, not an attribute
/// of their home ("personal data", "private details").
const DATA_HEADS: &[&str] = &[
    "data",
    "details",
    "information",
    "info",
    "records",
    "record",
    "file",
    "files",
    "everything",
];

/// Chunks between a row's word of the request's attribute and a sphere word that places that
/// attribute ("office email address", "adresse e-mail professionnelle", "dirección del
/// trabajo"); one further away may place another fact of the row ("..., near her office").
const NEAR: usize = 2;

/// Why `row` places its fact in another sphere of life than the request `q` asks about, if it
/// does: the request names one sphere and no other, and the row holds a word of the other
/// sphere and none of the request's, either with none of the request's other words (in any
/// language) or beside one of them ("Chen Mei's office email address" for "the home street
/// address", "Ahmed's work address" for "домашний адрес Ahmed").
///
/// A subject-wide request ("erase all of Anna's personal data") and one for someone's
/// "personal data", "private details" or "personal information" ([`DATA_HEADS`]) name no
/// sphere: they ask for every fact about the person.
pub(super) fn sphere_contrast(q: &QueryShape, row: &RowView<'_>) -> Option<String> {
    if q.fan_out {
        return None;
    }
    let chunks = canon::chunks(&q.text);
    let personal_data = chunks.windows(2).any(|p| {
        DATA_HEADS.contains(&p[1].form.as_str())
            && spheres_of_word(&p[0].form, p[0].script, &p[0].form) == 1
    });
    let asked = spheres_of(&q.text, &chunks);
    if personal_data || (asked != 1 && asked != 2) {
        return None;
    }
    let held = spheres_in(row.text, &row.chunks);
    if held.iter().any(|&(s, _)| s & asked != 0) || held.is_empty() {
        return None;
    }
    let sphere_word =
        |w: &super::query::QWord| spheres_of_word(&w.written, w.chunk.script, &w.chunk.form) != 0;
    let attribute_at: Vec<usize> = q
        .words
        .iter()
        .filter(|w| !w.name && !sphere_word(w))
        .filter_map(|w| find_name(w, row).or_else(|| concept_hit(w, row)))
        .collect();
    let placed = attribute_at.is_empty()
        || held
            .iter()
            .any(|&(_, at)| attribute_at.iter().any(|&p| p.abs_diff(at) <= NEAR));
    if !placed {
        return None;
    }
    let (asked, other) = if asked == 1 {
        ("home", "work")
    } else {
        ("work", "home")
    };
    Some(format!(
        "states a {other} sphere, not the {asked} one the query asks for"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spheres(text: &str) -> u8 {
        spheres_of(text, &canon::chunks(text))
    }

    #[test]
    fn spheres_in_several_languages() {
        for home in [
            "Elena Markou lives at Ermou 33",
            "Noa Levi habite au 200 Nanjing Road",
            "David Okafor adlı kişinin kişisel e-postası",
            "удали домашний адрес",
            "Το προσωπικό email του Νίκου",
            "האימייל האישי של יוסף",
            "آدرس خانه نیلوفر",
            "李伟的个人邮箱",
            "김민수의 개인 이메일",
        ] {
            assert_eq!(spheres(home), 1, "{home}");
        }
        for work in [
            "Mehmet's office is located at MG Road 14",
            "la dirección del trabajo de Priya",
            "ενημέρωσε το email εργασίας της Έλενας",
            "рабочая почта",
            "Reza Ahmadi का दफ़्तर वाला ईमेल",
            "王芳的工作邮箱",
        ] {
            assert_eq!(spheres(work), 2, "{work}");
        }
        for neither in [
            "Anna's phone number is 0151",
            "номер телефона",
            "Kenta's salary",
        ] {
            assert_eq!(spheres(neither), 0, "{neither}");
        }
    }
}
