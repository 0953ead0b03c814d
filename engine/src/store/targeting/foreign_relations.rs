//! Relatives named in other languages: "забудь номер телефона сестры David" asks about
//! David's sister, "olvida el cumpleaños de la hermana de Ivan" about Ivan's sister,
//! "删除Yosef Cohen的哥哥的家庭住址" about Yosef Cohen's elder brother. The English forms
//! ("Priya's husband's e-mail") are read by [`super::names::query_relation`]; this module reads
//! the same construction in the languages whose grammar writes it differently, and gives the
//! English relation noun it names, so that a row is checked for the relative in either
//! language.
//!
//! The table is general language: the family nouns of each language, in the case forms the
//! construction uses (Russian and Ukrainian genitive before the name, "REL de NAME" in the
//! Romance languages, "REL von NAME" in German, "NAME的REL" in Chinese). It names no entity.

use super::query::QueryShape;
use super::row_view::RowView;
use crate::canon::{self, Script};

/// Family nouns of other languages, each with the English noun it translates: Latin letters as
/// chunks fold them (lowercase, no diacritics), other scripts as written, lowercase.
const FOREIGN_RELATIONS: &[(&str, &str)] = &[
    // Russian (nominative and genitive).
    ("жена", "wife"),
    ("жены", "wife"),
    ("муж", "husband"),
    ("мужа", "husband"),
    ("сестра", "sister"),
    ("сестры", "sister"),
    ("брат", "brother"),
    ("брата", "brother"),
    ("отец", "father"),
    ("отца", "father"),
    ("мать", "mother"),
    ("матери", "mother"),
    ("сын", "son"),
    ("сына", "son"),
    ("дочь", "daughter"),
    ("дочери", "daughter"),
    ("бабушка", "grandmother"),
    ("бабушки", "grandmother"),
    ("дедушка", "grandfather"),
    ("дедушки", "grandfather"),
    // Ukrainian.
    ("дружина", "wife"),
    ("дружини", "wife"),
    ("чоловік", "husband"),
    ("чоловіка", "husband"),
    ("сестри", "sister"),
    ("батько", "father"),
    ("батька", "father"),
    ("мати", "mother"),
    ("матері", "mother"),
    ("син", "son"),
    ("сина", "son"),
    ("донька", "daughter"),
    ("доньки", "daughter"),
    // Spanish.
    ("hermana", "sister"),
    ("hermano", "brother"),
    ("padre", "father"),
    ("madre", "mother"),
    ("esposa", "wife"),
    ("esposo", "husband"),
    ("marido", "husband"),
    ("hijo", "son"),
    ("hija", "daughter"),
    ("abuela", "grandmother"),
    ("abuelo", "grandfather"),
    // French.
    ("soeur", "sister"),
    ("frere", "brother"),
    ("pere", "father"),
    ("mere", "mother"),
    ("femme", "wife"),
    ("epouse", "wife"),
    ("mari", "husband"),
    ("epoux", "husband"),
    ("fils", "son"),
    ("fille", "daughter"),
    // Italian, Portuguese.
    ("sorella", "sister"),
    ("fratello", "brother"),
    ("moglie", "wife"),
    ("marito", "husband"),
    ("figlio", "son"),
    ("figlia", "daughter"),
    ("irma", "sister"),
    ("irmao", "brother"),
    ("pai", "father"),
    ("mae", "mother"),
    ("filho", "son"),
    ("filha", "daughter"),
    // German.
    ("schwester", "sister"),
    ("bruder", "brother"),
    ("vater", "father"),
    ("mutter", "mother"),
    ("ehefrau", "wife"),
    ("ehemann", "husband"),
    ("sohn", "son"),
    ("tochter", "daughter"),
    // Chinese.
    ("哥哥", "brother"),
    ("弟弟", "brother"),
    ("姐姐", "sister"),
    ("妹妹", "sister"),
    ("妻子", "wife"),
    ("老婆", "wife"),
    ("丈夫", "husband"),
    ("老公", "husband"),
    ("父亲", "father"),
    ("父親", "father"),
    ("爸爸", "father"),
    ("母亲", "mother"),
    ("母親", "mother"),
    ("妈妈", "mother"),
    ("媽媽", "mother"),
    ("儿子", "son"),
    ("兒子", "son"),
    ("女儿", "daughter"),
    ("女兒", "daughter"),
];

/// The words that join a relation to the person it belongs to in the Romance languages and
/// German ("la hermana de Ivan", "la sœur du client", "die Schwester von David").
const OF: &[&str] = &["de", "di", "du", "da", "do", "des", "del", "von"];

/// The English noun of a foreign family noun (one chunk, or a two-character Han word).
fn english_of(form: &str) -> Option<&'static str> {
    FOREIGN_RELATIONS
        .iter()
        .find(|(f, _)| *f == form)
        .map(|(_, en)| *en)
}

/// The chunk of a foreign family noun that makes the query ask about a relative of a person
/// it names, with the English noun: a Cyrillic noun just before the name ("сестры David"), a
/// Romance or German noun before "de"/"von" and the name ("hermana de Ivan"), or a Chinese
/// noun after the name and 的 ("Yosef Cohen的哥哥"). Only when the query asks something of the
/// relative besides the relation itself, as for English ([`super::names::query_relation`]).
pub(super) fn foreign_query_relation(q: &QueryShape) -> Option<(usize, &'static str)> {
    let chunks = canon::chunks(&q.text);
    let at = |i: usize| chunks.get(i);
    let found = q.names.iter().find_map(|run| {
        let first = q.words[*run.first()?].pos;
        let last = q.words[*run.last()?].pos;
        // "сестры David", "жены Fatima".
        let cyrillic = first.checked_sub(1).and_then(|r| {
            let c = at(r)?;
            (c.script == Script::Cyrillic)
                .then(|| english_of(&q.text.get(c.span.clone())?.to_lowercase()))
                .flatten()
                .map(|en| (r, en))
        });
        // "la hermana de Ivan", "la sœur de la cliente" is not a name: the name follows "de".
        let romance = first.checked_sub(2).and_then(|r| {
            let (c, of) = (at(r)?, at(r + 1)?);
            (c.script == Script::Latin && !c.capitalized && OF.contains(&of.form.as_str()))
                .then(|| english_of(&c.form))
                .flatten()
                .map(|en| (r, en))
        });
        // "Yosef Cohen的哥哥", "陈梅的哥哥".
        let han = at(last + 1).filter(|c| q.text.get(c.span.clone()) == Some("的"));
        let han = han.and_then(|_| {
            let (a, b) = (at(last + 2)?, at(last + 3)?);
            let word = q.text.get(a.span.start..b.span.end)?;
            english_of(word).map(|en| (last + 2, en))
        });
        cyrillic.or(romance).or(han)
    })?;
    let (rel, _) = found;
    let counted = q.words.iter().any(|w| w.pos == rel);
    let asks_more = q.words.iter().any(|w| {
        !w.name
            && !w.optional
            && w.pos != rel
            && w.pos != rel + 1
            && !super::word_classes::is_request_word(&w.stem)
            && english_of(&w.chunk.form).is_none()
            && english_of(&w.written.to_lowercase()).is_none()
    });
    (counted && asks_more).then_some(found)
}

/// True if `row` names the relation `english` in English or in one of the languages above.
pub(super) fn row_names_relation(row: &RowView<'_>, english: &str) -> bool {
    let wanted = crate::index::keys::stem(english);
    row.chunks.iter().enumerate().any(|(i, c)| {
        let written = row
            .text
            .get(c.span.clone())
            .unwrap_or_default()
            .to_lowercase();
        crate::index::keys::stem(&c.form) == wanted
            || english_of(&c.form) == Some(english)
            || english_of(&written) == Some(english)
            || row.chunks.get(i + 1).is_some_and(|d| {
                row.text.get(c.span.start..d.span.end).and_then(english_of) == Some(english)
            })
    })
}
