//! Function words and request words of the common languages written in Latin letters other
//! than English: Spanish, French, Portuguese, Italian, German and Turkish.
//!
//! A request in one of them ("olvida el correo personal de Wei", "oublie les médicaments de
//! Priya", "lösche die Telefonnummer von Anna", "Mehmet Yılmaz adlı kişinin ilaçları") holds
//! articles, prepositions and conjunctions a row in another language also holds ("el", "de",
//! "la"): counted as words of the attribute, they make a row about anything of the named person
//! look like evidence ("la prima de Ahmed" is not held by "L'anniversaire de Ahmed Hassan").
//! And its request verbs ("olvida", "supprime", "lösche") name no attribute.
//!
//! The lists are closed classes, folded as the canonicalizer folds words (lowercase, without
//! diacritics: "à" is "a", "lösche" is "losche"), and leave out every form that is also an
//! English content word or carries meaning in English requests: "no" (a negation), "son" (a
//! relative), "die", "sin", "fur", "andere", "jour", "mets", and "com" of host names.
//!
//! [`crate::function_words`] holds the lists of the languages written in other scripts; the
//! English stop words are in [`crate::text`].

/// Articles, contractions of a preposition and an article, prepositions, conjunctions,
/// pronouns and copulas, per language.
const GRAMMAR: &[&[&str]] = &[SPANISH, FRENCH, PORTUGUESE, ITALIAN, GERMAN, TURKISH];

const SPANISH: &[&str] = &[
    "el", "la", "los", "las", "un", "una", "unos", "unas", "del", "al", "de", "con", "para", "por",
    "y", "o", "que", "su", "sus", "es", "esta", "este", "mi", "mis", "lo",
];

const FRENCH: &[&str] = &[
    "le", "les", "une", "des", "du", "au", "aux", "et", "ou", "avec", "pour", "dans", "sur", "est",
    "sont", "sa", "ses", "leur", "leurs", "qui", "ce", "cette", "vous", "il", "elle",
];

const PORTUGUESE: &[&str] = &[
    "os", "as", "um", "uma", "da", "das", "dos", "em", "e", "seu", "sua", "seus", "suas",
];

const ITALIAN: &[&str] = &[
    "gli", "di", "della", "dello", "delle", "degli", "dei", "nel", "nella", "che", "per", "suo",
    "sua",
];

const GERMAN: &[&str] = &[
    "der", "das", "den", "dem", "des", "ein", "eine", "einen", "einem", "einer", "und", "oder",
    "von", "vom", "mit", "zu", "zum", "zur", "bei", "ist", "sind", "sein", "seine", "seinen",
    "ihr", "ihre", "ihren",
];

/// Turkish, with kişi ("person") as the frame "X adlı kişi(nin)" ("the person named X", "of
/// the person named X") writes it, and the words of "hakkında(ki) her şey(i)" ("everything
/// about") and "tüm", "bütün" ("all"): none of them names an attribute.
#[rustfmt::skip] // one word per line otherwise: "hakkindaki" is past rustfmt's short-element width
const TURKISH: &[&str] = &[
    "ve", "ile", "bir", "bu", "icin", "adli", "adinda", "isimli", "kisi", "kisinin", "kisiye",
    "kisiyi", "kisiden", "hakkinda", "hakkindaki", "sey", "seyi", "seyler", "seyleri", "tum",
    "butun",
];

/// Request verbs (imperatives and infinitives of forgetting, deleting, updating, changing and
/// correcting) and politeness words.
const REQUEST: &[&str] = &[
    // Spanish
    "olvida",
    "olvidar",
    "borra",
    "borrar",
    "elimina",
    "eliminar",
    "actualiza",
    "actualizar",
    "cambia",
    "cambiar",
    "corrige",
    "corregir",
    "favor",
    // French
    "oublie",
    "oublier",
    "supprime",
    "supprimer",
    "efface",
    "effacer",
    "modifie",
    "modifier",
    "changer",
    "corriger",
    "plait",
    // Portuguese
    "esquece",
    "esquecer",
    "apaga",
    "apagar",
    "exclui",
    "excluir",
    "atualiza",
    "atualizar",
    "altera",
    "alterar",
    // Italian
    "dimentica",
    "dimenticare",
    "cancella",
    "cancellare",
    "eliminare",
    "aggiorna",
    "aggiornare",
    "modifica",
    "modificare",
    "favore",
    // German
    "vergiss",
    "vergessen",
    "losche",
    "loschen",
    "entferne",
    "entfernen",
    "aktualisiere",
    "aktualisieren",
    "andern",
    "bitte",
    // Turkish
    "sil",
    "unut",
    "guncelle",
    "degistir",
    "lutfen",
];

/// True if `form` (a folded Latin word) is a function word or a request word of Spanish,
/// French, Portuguese, Italian, German or Turkish.
pub fn is_function_word(form: &str) -> bool {
    GRAMMAR.iter().any(|list| list.contains(&form)) || REQUEST.contains(&form)
}

#[cfg(test)]
mod tests {
    use super::is_function_word;

    #[test]
    fn grammar_and_request_words_of_other_languages() {
        for w in [
            "el",
            "de",
            "les",
            "von",
            "olvida",
            "supprime",
            "losche",
            "sil",
            "adli",
            "kisinin",
            "hakkindaki",
            "seyi",
        ] {
            assert!(is_function_word(w), "{w}");
        }
        // Words that carry meaning in English requests are not in the lists.
        for w in ["no", "son", "die", "phone", "salary", "jour", "andere"] {
            assert!(!is_function_word(w), "{w}");
        }
    }
}
