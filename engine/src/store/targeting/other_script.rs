//! A supersede whose request is written in another script than its new text: "адреса дідуся
//! Миколи в Харкові" with "Grandpa Mykola moved to Lviv and lives on Zelena Street." over rows in
//! English. Across scripts the request's words reach the rows only through transliteration,
//! which loses inflections (a genitive, a locative) and every word that is not a name; the new
//! text restates the same subject and attribute in the rows' own words. When the request
//! chooses no row, the new text is read as the request (see `Inner::resolve`), under every
//! check a request gets, and the row it chooses must also hold the name the new text starts
//! with: read as its own request, the new text's names are its values, so a new text about
//! someone the store does not hold ("Aunt Lesia moved to Kyiv") could otherwise choose a row
//! about someone else by its other words.

use super::query::{QWord, QueryShape};
use super::row_view::RowView;
use super::word_match::word_matches;
use super::{Lookup, Resolution, Scope, Width};
use crate::canon::{self, Script};
use crate::error::Result;
use crate::store::{Inner, alias};

impl Inner {
    /// The rows a supersede's new text chooses when read as its request, if the request `text`
    /// is written in another script than `new` ([`written_in_another_script`]) and every row
    /// chosen holds the name the new text starts with ([`holds_the_new_subject`]); else `None`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn resolve_by_new_text(
        &self,
        text: &str,
        new: &str,
        new_shape: &QueryShape,
        namespace: Option<&str>,
        scope: Scope,
        width: Width,
        lookup: &Lookup<'_>,
    ) -> Result<Option<Resolution>> {
        if !written_in_another_script(text, new) {
            return Ok(None);
        }
        let restated = alias::expansions(new, namespace, lookup.aliases);
        let mut by_new =
            self.resolve_query(&restated, namespace, scope, width, Some(new_shape), lookup)?;
        if by_new.matches.is_empty() {
            return Ok(None);
        }
        for m in &by_new.matches {
            let row = (lookup.fetch)(m.id)?;
            let text = row.as_ref().and_then(|r| r.text.as_deref());
            if !text.is_some_and(|t| holds_the_new_subject(new_shape, t)) {
                return Ok(None);
            }
        }
        // The request's own words did not reach the row: at most a medium grade.
        for m in &mut by_new.matches {
            m.reasons.push(REASON.to_owned());
            m.confidence = m.confidence.min(super::Confidence::Medium);
        }
        Ok(Some(by_new))
    }
}

/// The reason a row chosen by the new text gives.
const REASON: &str =
    "chosen by the new text: the request is written in another script than the new text";

/// The scripts `text`'s letters are written in (digits belong to no script).
fn scripts(text: &str) -> Vec<Script> {
    let mut out = Vec::new();
    for c in canon::chunks(text) {
        let has_letter = text
            .get(c.span.clone())
            .is_some_and(|s| s.chars().any(char::is_alphabetic));
        if has_letter && !out.contains(&c.script) {
            out.push(c.script);
        }
    }
    out
}

/// True when both texts hold letters and no script of `new`'s letters is one of `query`'s. A
/// new text that writes a name in a script of the request ("安妮's bonus is 10,000 EUR" for
/// "把安妮的奖金改一下", "Omar Khalil's new bonus ..." for "อัปเดตโบนัสของOmar Khalil") does not
/// count: its name is read no better than the request's, and the rest of it could then choose
/// a row alone.
fn written_in_another_script(query: &str, new: &str) -> bool {
    let (asked, restated) = (scripts(query), scripts(new));
    !asked.is_empty() && !restated.is_empty() && restated.iter().all(|s| !asked.contains(s))
}

/// True when `row_text` holds the name the new text starts with: every word of its first run
/// of name words in a script with letter case ("Grandpa Mykola"), the first word of it in a
/// caseless script, where every word may be a name.
fn holds_the_new_subject(new: &QueryShape, row_text: &str) -> bool {
    let Some(run) = new.names.first() else {
        return false;
    };
    let words: Vec<&QWord> = run.iter().filter_map(|&i| new.words.get(i)).collect();
    let cased = words.first().is_some_and(|w| {
        matches!(
            w.chunk.script,
            Script::Latin | Script::Cyrillic | Script::Greek
        )
    });
    let need = if cased {
        &words[..]
    } else {
        &words[..words.len().min(1)]
    };
    let row = RowView::new(row_text);
    !need.is_empty()
        && need
            .iter()
            .all(|w| row.chunks.iter().any(|c| word_matches(w, c)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_count_letters_not_digits() {
        assert_eq!(scripts("Manoj Kumar 31"), [Script::Latin]);
        assert_eq!(
            scripts("मनोज 2-305 VPN"),
            [Script::Devanagari, Script::Latin]
        );
        assert!(scripts("2048 / 31").is_empty());
        assert!(written_in_another_script(
            "адреса дідуся Миколи в Харкові",
            "Grandpa Mykola moved to Lviv in 2024."
        ));
        // A name in a script of the request, the rest in another: not another script.
        assert!(!written_in_another_script(
            "把安妮的奖金改一下",
            "安妮's bonus is 10,000 EUR"
        ));
        assert!(!written_in_another_script(
            "онови премію Rahul Verma",
            "Rahul Verma's bonus is 17,000 EUR"
        ));
    }

    #[test]
    fn the_new_subject_is_the_first_name_run() {
        let new = QueryShape::parse("Grandpa Mykola moved to Lviv and lives on Zelena Street.");
        assert!(holds_the_new_subject(
            &new,
            "Grandpa Mykola lives in Kharkiv."
        ));
        assert!(!holds_the_new_subject(
            &new,
            "Grandma Olena lives in Lviv on Zelena Street."
        ));
    }
}
