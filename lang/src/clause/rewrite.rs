//! Rewriting a row without some of its clauses or phrases, keeping its separators and giving
//! kept clauses their subject back.

use super::{DETERMINERS, PRONOUNS, STOPS, Subject, clauses, has_verb, lower, words};

/// The text of `text` without the clauses at `remove` (indexes into [`clauses`]), with the
/// subject re-attached where a kept clause lost it. `None` if nothing would remain.
pub fn rewrite_without(text: &str, remove: &[usize]) -> Option<String> {
    let all = clauses(text);
    let mut sentences: Vec<String> = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (i, c) in all.iter().enumerate() {
        if remove.contains(&i) {
            continue;
        }
        let first_of_sentence = all
            .iter()
            .position(|o| o.sentence == c.sentence)
            .is_some_and(|p| p == i);
        let body = &text[c.span.clone()];
        match &mut current {
            Some((s, out)) if *s == c.sentence => {
                // Keep the separator that stood before this clause in the original.
                let prev_end = all[i - 1].span.end;
                out.push_str(&text[prev_end..c.span.start]);
                out.push_str(body);
            }
            _ => {
                if let Some((_, out)) = current.take() {
                    sentences.push(finish(out));
                }
                let body = if first_of_sentence {
                    body.to_owned()
                } else {
                    reattach(body, c.subject.as_ref())
                };
                current = Some((c.sentence, body));
            }
        }
    }
    if let Some((_, out)) = current.take() {
        sentences.push(finish(out));
    }
    if sentences.is_empty() {
        None
    } else {
        Some(sentences.join(" "))
    }
}

fn finish(joined: String) -> String {
    let mut s = joined.trim_end_matches([',', ';', ' ']).to_owned();
    if let Some(first) = s.chars().next()
        && first.is_lowercase()
    {
        let upper: String = first.to_uppercase().collect();
        s.replace_range(..first.len_utf8(), &upper);
    }
    if !s.ends_with(STOPS) {
        // Chinese and Japanese end a sentence with a full-width stop.
        let han_or_kana = s
            .chars()
            .next_back()
            .is_some_and(|c| matches!(c, '\u{3040}'..='\u{30ff}' | '\u{3400}'..='\u{9fff}'));
        s.push(if han_or_kana { '。' } else { '.' });
    }
    s
}

/// Prepositions that open the phrases [`phrase_without`] aligns.
const PREPOSITIONS: &[&str] = &[
    "on", "at", "in", "for", "from", "to", "by", "under", "with", "until", "before", "after",
    "near", "via",
];

/// Phrase-level supersede: when `new` restates the head of one-sentence `old` with a single
/// prepositional phrase ("The booking is at 20:00." against "The booking is for four people at
/// 19:30 under the name Ferreira."), `old` without the phrase that the new one replaces ("The
/// booking is for four people under the name Ferreira."). `None` when the two do not align.
pub fn phrase_without(old: &str, new: &str) -> Option<String> {
    let ow: Vec<&str> = old
        .trim()
        .trim_end_matches(['.', '!', '?'])
        .split(' ')
        .collect();
    let nw: Vec<&str> = new
        .trim()
        .trim_end_matches(['.', '!', '?'])
        .split(' ')
        .collect();
    let mut shared = ow
        .iter()
        .zip(&nw)
        .take_while(|(a, b)| a.eq_ignore_ascii_case(b))
        .count();
    // The shared head stops before a preposition: the phrases start there.
    while shared > 0 && PREPOSITIONS.contains(&lower(ow[shared - 1]).as_str()) {
        shared -= 1;
    }
    if shared < 2 || shared >= nw.len() || shared >= ow.len() {
        return None;
    }
    let is_prep = |w: &&str| PREPOSITIONS.contains(&lower(w).as_str());
    let rest_new = &nw[shared..];
    if !is_prep(&rest_new[0]) || rest_new[1..].iter().any(is_prep) {
        return None;
    }
    // Split the old remainder into phrases at prepositions.
    let rest_old = &ow[shared..];
    if !is_prep(&rest_old[0]) {
        return None;
    }
    let mut phrases: Vec<Vec<&str>> = Vec::new();
    for w in rest_old {
        if is_prep(w) || phrases.is_empty() {
            phrases.push(vec![w]);
        } else if let Some(p) = phrases.last_mut() {
            p.push(w);
        }
    }
    if phrases.len() < 2 {
        return None;
    }
    let key = lower(rest_new[0]);
    let hits: Vec<usize> = (0..phrases.len())
        .filter(|&i| lower(phrases[i][0]) == key)
        .collect();
    if hits.len() != 1 {
        return None;
    }
    let kept: Vec<&str> = ow[..shared]
        .iter()
        .copied()
        .chain(
            phrases
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != hits[0])
                .flat_map(|(_, p)| p.iter().copied()),
        )
        .collect();
    Some(finish(kept.join(" ")))
}

/// Gives a clause that lost its sentence's opening back its subject.
fn reattach(clause: &str, subject: Option<&Subject>) -> String {
    let Some(subject) = subject else {
        return clause.to_owned();
    };
    let first = words(clause).next().unwrap_or("");
    let lw = lower(first);
    // The first word need not open the clause (a quote or bracket may precede it): the rest
    // starts where that word ends in the clause.
    let first_end = clause.find(first).map_or(0, |at| at + first.len());
    let rest = clause[first_end..].to_owned();
    // A script without letter case shows no subject to re-attach to: the clause stays as
    // written ("他的客户经理是林晓").
    if first
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() && !c.is_uppercase() && !c.is_lowercase())
    {
        return clause.to_owned();
    }
    match lw.as_str() {
        "his" | "her" | "their" | "its" if subject.named => format!("{}'s{rest}", subject.name),
        "he" | "she" | "they" | "it" if subject.named => format!("{}{rest}", subject.name),
        _ if first.chars().next().is_some_and(char::is_uppercase) => clause.to_owned(),
        _ if DETERMINERS.contains(&lw.as_str()) || PRONOUNS.contains(&lw.as_str()) => {
            clause.to_owned()
        }
        _ if subject.possessive => format!("{}'s {clause}", subject.name),
        _ => match &subject.verb {
            Some(verb) if !has_verb(clause) => format!("{} {verb} {clause}", subject.name),
            _ if subject.named => format!("{} {clause}", subject.name),
            _ => clause.to_owned(),
        },
    }
}
