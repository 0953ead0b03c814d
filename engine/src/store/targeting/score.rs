//! How well one row (and each of its clauses) answers a targeting query, and why.

use std::collections::BTreeSet;
use std::ops::Range;

use super::query::QueryShape;
use super::row_view::{RowView, in_topic, leads_sentence};
use crate::canon::{self, Script};
use crate::index::keys::{self, has_digit};

use super::names::{
    abjad_run, cased, japanese_run, latin_skeleton_run, name_part, possessive_relation,
    syllable_run,
};
use super::word_match::{
    ends_path, find_lone_name, find_name, find_word, is_bound_word, is_date_word,
    segment_of_address, whole_token, word_matches,
};

/// The verdict on one row.
#[derive(Clone, Debug)]
pub(crate) struct RowScore {
    /// Share of the query's evidence units the row holds.
    pub coverage: f64,
    /// Query words (and identifiers) the row holds.
    pub matched: Vec<String>,
    /// Query words (and identifiers) the row lacks.
    pub missing: Vec<String>,
    /// Clauses holding evidence other than the sentence subject.
    pub evidence_clauses: BTreeSet<usize>,
    /// The evidence clauses that hold words of the query (not only its identifiers).
    pub word_clauses: BTreeSet<usize>,
    /// Clauses whose sentence topic holds attribute words of the query: the clause the
    /// attribute is stated in when no other clause holds evidence.
    pub topic_clauses: BTreeSet<usize>,
    /// True if the row's evidence clauses share the query's polarity.
    pub polarity_ok: bool,
    /// True if a matched name runs on into a capitalized word the query lacks ("New York" for
    /// "York"): the row may name someone or something else.
    pub longer_name: bool,
    /// True if a name the query writes in another script is read in the row only by dropping a
    /// long vowel the query's spelling lacks (花江 for "Hanako"): weaker evidence than an
    /// exact reading.
    pub inexact_reading: bool,
    /// True if a name of the query is held only in another spelling in the same script, other
    /// than Latin ("Иванна" for "Ивана"): weaker evidence than the spelling itself.
    pub variant_spelling: bool,
    /// Why the row may not be targeted at all, if so.
    pub veto: Option<String>,
    /// Units of the query's attribute evidence: its words outside name runs (request words
    /// such as "delete" aside) and its identifiers.
    pub attribute_units: usize,
    /// Of those, the ones the row holds.
    pub attribute_hits: usize,
    /// True if the query names someone or something and the row holds every name it gives (at
    /// least half of each name run): the row is about the query's subject.
    pub names_subject: bool,
    /// How the row holds the query's name runs, for a reading across rows
    /// ([`super::named_elsewhere`]).
    pub names: super::named_elsewhere::NameHolds,
    /// Reasons, for dry runs.
    pub reasons: Vec<String>,
}

impl RowScore {
    /// True if the row holds the request's attribute: some of its attribute evidence, or the
    /// request has none (it names only its subject).
    pub fn holds_attribute(&self) -> bool {
        self.attribute_units == 0 || self.attribute_hits > 0
    }
}

/// Scores `row` against each of `shapes` (a query and its alias expansions) and keeps the
/// best: one without a veto before one with, then the higher coverage.
pub(crate) fn best(shapes: &[QueryShape], row: &RowView<'_>) -> RowScore {
    shapes
        .iter()
        .map(|q| score(q, row))
        .max_by(|a, b| {
            a.veto
                .is_none()
                .cmp(&b.veto.is_none())
                .then(a.coverage.total_cmp(&b.coverage))
        })
        .unwrap_or_else(|| score(&QueryShape::parse(""), row))
}

/// Scores `row` against `q`.
pub(crate) fn score(q: &QueryShape, row: &RowView<'_>) -> RowScore {
    let mut matched = Vec::new();
    let mut missing = Vec::new();
    let mut reasons = Vec::new();
    let mut evidence: BTreeSet<usize> = BTreeSet::new();
    let mut word_clauses: BTreeSet<usize> = BTreeSet::new();
    let mut hit_units = 0usize;
    let mut veto = None;

    // Identifiers decide.
    let mut identifiers_ok = true;
    // Query chunks that are part of an identifier found in the row ("B" of "B 85602" when the
    // row writes "b85602"): the words among them are matched by it.
    let mut code_parts: BTreeSet<usize> = BTreeSet::new();
    for id in &q.typed {
        // The typed form, or else the same characters as a whole code ("001a.2b3c.4d5e" and
        // "00:1A:2B:3C:4D:5E" when the row's form was not recognised as a MAC).
        let span = row
            .ids
            .iter()
            .find(|r| canon::same_identifier(id, r))
            .map(|r| r.span.clone())
            .or_else(|| {
                let code = canon::code(&q.text[id.span.clone()])?;
                canon::find_code(&row.chunks, &code)
                    .into_iter()
                    .find(|r| whole_token(row.text, r))
            });
        match span {
            Some(span) => {
                hit_units += 1;
                matched.push(id.canonical.clone());
                reasons.push(format!("{:?} {} present", id.kind, id.canonical));
                if !in_topic(row, &span) {
                    evidence.extend(row.clause_at(&span));
                }
            }
            None => {
                identifiers_ok = false;
                missing.push(id.canonical.clone());
            }
        }
    }
    // The period the query bounds ("before March 2023"): the row must state a time inside
    // every bound; a row stating none is not known to be about the period and is ruled out
    // too (a miss is better than a wrong erasure). See `period`.
    if !q.bounds.is_empty() || q.old {
        let periods = super::period::periods(&row.chunks);
        for b in &q.bounds {
            if periods.iter().any(|p| b.admits(p)) {
                hit_units += 1;
                matched.push(b.display.clone());
            } else if veto.is_none() {
                veto = Some(format!("states no time {}", b.display));
            }
        }
        // "The old address" is not the one a row states as running since a date.
        if q.old
            && !periods.is_empty()
            && periods
                .iter()
                .all(|p| p.kind == super::period::PeriodKind::Start)
            && veto.is_none()
        {
            veto = Some("states a period that is still running, not an old one".to_owned());
        }
    }
    for run in &q.codes {
        if run.year.is_some() {
            continue;
        }
        let mut covered: BTreeSet<usize> = BTreeSet::new();
        let mut spans = Vec::new();
        let mut found_runs: Vec<(usize, usize)> = Vec::new();
        for (a, b, code) in &run.subruns {
            if run.digit_chunks.iter().all(|d| covered.contains(d)) {
                break;
            }
            if !run
                .digit_chunks
                .iter()
                .any(|d| a <= d && d < b && !covered.contains(d))
            {
                continue;
            }
            let mut found: Vec<Range<usize>> = canon::find_code(&row.chunks, code)
                .into_iter()
                .filter(|r| {
                    whole_token(row.text, r)
                        || (!run.address && segment_of_address(row.text, r))
                        || (run.address && ends_path(row.text, r))
                })
                .collect();
            // A number the query writes on its own (not a part of "DKT-4471-A") is also
            // found inside a longer token.
            if found.is_empty() && !run.address && run.display.bytes().all(|c| c.is_ascii_digit()) {
                found = super::codes::embedded_number(row.text, code);
            }
            if !found.is_empty() {
                found_runs.push((*a, *b));
                covered.extend(run.digit_chunks.iter().filter(|&&d| *a <= d && d < *b));
                spans.extend(found);
            }
        }
        if run.digit_chunks.iter().all(|d| covered.contains(d)) {
            code_parts.extend(found_runs.iter().flat_map(|&(a, b)| a..b));
            hit_units += 1;
            matched.push(run.display.clone());
            reasons.push(format!("identifier {} present as a whole", run.display));
            // An identifier in the sentence's topic names what the sentence is about ("Room
            // 214 has a broken call bell and is assigned to Felix Wagner"), not which clause.
            for s in spans.iter().filter(|s| !in_topic(row, s)) {
                evidence.extend(row.clause_at(s));
            }
        } else {
            identifiers_ok = false;
            missing.push(run.display.clone());
        }
    }
    if !identifiers_ok {
        veto = Some(format!("identifier {} not in the row", missing.join(", ")));
    }

    // Words: which query words the row holds, and where.
    let subject_words: BTreeSet<String> = row
        .clauses
        .iter()
        .filter_map(|c| c.subject.as_ref())
        .flat_map(|s| canon::chunks(&s.name))
        .map(|c| c.form)
        .collect();
    let mut word_hit: Vec<Option<usize>> = vec![None; q.words.len()];
    // In a script without letter case, a run read as a name may run on into the attribute
    // ("অনির্বাণ বোসের ইনসুলিনের ডোজ", Anirban Bose's insulin dose): when the row's sentence
    // starts with some of the run's words and the row lacks the words after them, those are
    // attribute words the row does not hold, never a name it may do without; the run's words
    // the row holds past its leading name are attribute words it holds.
    let run_on = super::run_on::caseless_run_on(q, row);
    // Chunks where the row holds a word of the query's names.
    let mut name_hits: Vec<usize> = Vec::new();
    // Clauses whose sentence topic holds an attribute word of the query ("the alarm code" in
    // "The alarm code is 8461 and the bins go out on Thursday").
    let mut topic_evidence: BTreeSet<usize> = BTreeSet::new();
    // Identifiers are attribute evidence: "Tom's 4821" is about the PIN.
    // A bounded period qualifies the attribute, as a day or month name does.
    let mut attribute_units = q.typed.len() + q.codes.iter().filter(|c| c.year.is_none()).count();
    let mut attribute_hits = attribute_units - missing.len();
    // Optional words the row holds join the units it is measured against.
    let mut optional_hits = 0usize;
    // Attribute words that name only a kind of value ("number", "name", "date"): units and hits.
    let (mut generic_units, mut generic_hits) = (0usize, 0usize);
    // Clauses whose polarity a lexical negation matched ("declining" and "did not accept").
    let mut lexical_polarity: BTreeSet<usize> = BTreeSet::new();
    for (wi, w) in q.words.iter().enumerate() {
        // Day and month names qualify the attribute ("the appointment in August"); alone they
        // are no evidence of it.
        let attribute = (!q.in_name_run(wi) || q.unmarked_acronym(wi))
            && !super::word_classes::is_request_word(&w.stem)
            && !is_date_word(w)
            && !is_bound_word(&w.stem);
        if w.optional {
            if find_word(w, row).is_some() || code_parts.contains(&w.pos) {
                optional_hits += 1;
                hit_units += 1;
                attribute_units += usize::from(attribute);
                attribute_hits += usize::from(attribute);
                matched.push(w.stem.clone());
            }
            continue;
        }
        attribute_units += usize::from(attribute);
        let mut generic = attribute && crate::lexicon::is_generic_head(&w.chunk.form);
        generic_units += usize::from(generic);
        if code_parts.contains(&w.pos) {
            hit_units += 1;
            attribute_hits += usize::from(attribute);
            matched.push(w.stem.clone());
            continue;
        }
        let found = if q.names.iter().any(|run| run[..] == [wi]) {
            find_lone_name(w, row)
        } else if q.in_name_run(wi) {
            find_name(w, row)
        } else {
            find_word(w, row).or_else(|| {
                super::lexical_negation::negation_hit(w, q.negated, row).inspect(|&p| {
                    reasons.push(format!("{:?} read as a negation the row states", w.stem));
                    lexical_polarity.extend(row.clause_at(&row.chunks[p].span));
                })
            })
        };
        match found {
            Some(p) => {
                // A word borrowed from a Latin word of the row names what that word names
                // ("नंबर" is "number").
                if attribute && !generic && w.chunk.script != Script::Latin {
                    let c = &row.chunks[p];
                    generic = c.script == Script::Latin && crate::lexicon::is_generic_head(&c.form);
                    generic_units += usize::from(generic);
                }
                word_hit[wi] = Some(p);
                hit_units += 1;
                let run_on_attribute = run_on.held_attribute.contains(&wi);
                attribute_units += usize::from(run_on_attribute);
                attribute_hits += usize::from(attribute || run_on_attribute);
                generic_hits += usize::from(generic);
                matched.push(w.stem.clone());
                let c = &row.chunks[p];
                let in_topic = row
                    .clauses
                    .iter()
                    .any(|cl| cl.topic.start <= c.span.start && c.span.end <= cl.topic.end);
                let is_subject = in_topic
                    || subject_words
                        .iter()
                        .any(|s| s == &c.form || keys::stem(s) == w.stem);
                if !is_subject && q.in_name_run(wi) {
                    // Decided below, once every name the row holds is known.
                    name_hits.push(p);
                } else if !is_subject {
                    evidence.extend(row.clause_at(&c.span));
                    word_clauses.extend(row.clause_at(&c.span));
                } else if in_topic && attribute && !q.in_name_run(wi) {
                    topic_evidence.extend(row.clause_at(&c.span));
                }
            }
            None => {
                attribute_units += usize::from(run_on.tail.contains(&wi));
                missing.push(w.stem.clone());
            }
        }
    }

    // A name the row's sentence starts with is the sentence's subject, whatever the script
    // ("黄丽的笔记本电脑是…，她的停车位是 P3-018", "رضا احمدی میز ۴۰۷ را … و لپ‌تاپش …"): it
    // says which row, not which of the sentence's clauses. A name elsewhere is evidence of the
    // clause that holds it ("... and her brother Piotr's is ...").
    for &p in &name_hits {
        if !leads_sentence(row, p, &name_hits) {
            evidence.extend(row.clause_at(&row.chunks[p].span));
            word_clauses.extend(row.clause_at(&row.chunks[p].span));
        }
    }

    // The common noun a subject's name runs into in both texts ("the Haifa datacenter") is
    // part of the subject, not evidence of an attribute naming a kind of value ("door code").
    let heads = super::compound::subject_heads(q, row, &word_hit);
    if heads > 0 && attribute_units > heads && attribute_hits >= heads {
        attribute_units -= heads;
        attribute_hits -= heads;
    }

    // A word that names only a kind of value says nothing of which attribute: "Anna's phone
    // number" is not held by "Anna's gym locker is number 17". When the request names its
    // attribute otherwise too, a row holding only such words does not hold it.
    if attribute_hits > 0 && attribute_hits == generic_hits && attribute_units > generic_units {
        attribute_hits = 0;
        reasons.push("holds only words naming a kind of value (number, name, date, ...)".into());
    }

    // The days and months the query fixes ("Karan's December leave"; not those that only
    // bound a period: "the address from before April"): a row holding none of them is about
    // another time. ("Sipho's Friday closing for the Sunday one" fixes either.)
    let fixed_dates: Vec<usize> = (0..q.words.len())
        .filter(|&i| is_date_word(&q.words[i]))
        .collect();
    if veto.is_none()
        && !fixed_dates.is_empty()
        && fixed_dates
            .iter()
            .all(|&i| word_hit[i].is_none() && !code_parts.contains(&q.words[i].pos))
    {
        let days: Vec<&str> = fixed_dates
            .iter()
            .map(|&i| &q.text[q.words[i].chunk.span.clone()])
            .collect();
        veto = Some(format!("is not about {}", days.join(" or ")));
    }

    // A name the row writes in an abjad with another word division ("Abdullah" / عبد الله,
    // "Al-Zahrani" / الزهراني): the whole run is held when consecutive words of the row have
    // the run's joined consonant skeleton.
    // Runs held as a whole by another word division or script: their words' positions are
    // not one chunk each, so the next-chunk checks below do not apply.
    let mut held_whole: BTreeSet<usize> = BTreeSet::new();
    let mut inexact_reading = false;
    for (ri, run) in q.names.iter().enumerate() {
        if run.iter().all(|&i| word_hit[i].is_some()) {
            continue;
        }
        let held: Vec<(usize, usize)> =
            match abjad_run(q, run, row).or_else(|| latin_skeleton_run(q, run, row)) {
                Some(at) => (0..run.len()).map(|k| (k, at)).collect(),
                None => {
                    let (at, exact) = japanese_run(q, run, row);
                    inexact_reading |= !at.is_empty() && !exact;
                    if at.is_empty() {
                        syllable_run(q, run, &word_hit, row)
                    } else {
                        at
                    }
                }
            };
        // A man's name in the genitive is held word by word: the checks below apply to it.
        let held = if held.is_empty() {
            super::names::genitive_run(q, run, row)
        } else {
            held_whole.insert(ri);
            held
        };
        for (k, at) in held {
            let i = run[k];
            if word_hit[i].is_none() {
                word_hit[i] = Some(at);
                hit_units += 1;
                let stem = &q.words[i].stem;
                matched.push(stem.clone());
                if let Some(k) = missing.iter().position(|m| m == stem) {
                    missing.remove(k);
                }
            }
        }
    }

    // Names: a query that names someone targets rows that name them, and never rows naming
    // someone else with a shared first or last name ("Tom Hale" is not "Tom Haley").
    // A compound attribute is told by its modifier ("passport number" is not "phone number").
    if veto.is_none() && !q.has_identifiers() {
        veto = super::compound::modifier_contrast(q, row)
            .or_else(|| super::compound::head_as_modifier(q, row))
            .or_else(|| super::compound::modifier_of_another_head(q, row))
            .or_else(|| super::sphere::sphere_contrast(q, row))
            .or_else(|| super::compound::named_head_contrast(q, row))
            .or_else(|| super::compound::interposed_head_contrast(q, row));
    }

    // A name run is present when the row holds at least half of it ("Maria Garcia" for "Maria
    // Garcia Lopez"), or all of it where the row writes it in a script without capitals:
    // there nothing tells a surname from the next word, so "Yael" of "Yael Levi" (יעל לוי) is
    // no mention of "Yael Mizrahi", nor 王 of 王建国 one of "Wang Jianhua". For Han that holds
    // where the row's characters were read as Chinese (their own reading matched); a Japanese
    // surname matched through the reading table ("Sato" for 佐藤) keeps the half rule, since
    // given names have no such table. Only for a run the query writes in a cased script, where
    // capitals tell its name words, or in Han or kana, where the run is one word; in another
    // caseless query a run may hold other words.
    let run_present = |run: &Vec<usize>| {
        let hits: Vec<(usize, usize)> = run
            .iter()
            .filter_map(|&i| word_hit[i].map(|p| (i, p)))
            .collect();
        let cased_query = run.iter().all(|&i| cased(q.words[i].chunk.script));
        let uncased = cased_query
            && hits.iter().any(|&(_, p)| match row.chunks[p].script {
                Script::Arabic
                | Script::Hebrew
                | Script::Thai
                | Script::Devanagari
                | Script::Hangul
                | Script::Other => true,
                // Read as Chinese, or as a Japanese name: given names are read too
                // ([`japanese_run`]), so "Misaki Tanaka" is not 田中健太.
                Script::Han => true,
                _ => false,
            });
        // A run of Han, kana or Hangul in the query is one word written without spaces: where
        // a row writes it in Latin letters, its characters the row lacks are the rest of the
        // name ("恵子" of "佐藤恵子" is the given name; "Hiroshi Sato" holds only the surname;
        // "Ji-woo Park" is not 박지원).
        let unspaced_query = run.iter().all(|&i| {
            matches!(
                q.words[i].chunk.script,
                Script::Han | Script::Kana | Script::Hangul
            )
        }) && hits
            .iter()
            .any(|&(_, p)| row.chunks[p].script == Script::Latin);
        // A run the query writes in a script without capitals and marks as a name (a
        // possessor: של שרה לוי, राम शर्मा का, 王磊的) is a whole name: "שרה כהן" holds only
        // the given name of "שרה לוי".
        let marked_caseless = run.iter().all(|&i| !cased(q.words[i].chunk.script))
            && q.names
                .iter()
                .position(|r| r == run)
                .is_some_and(|ri| q.marked[ri]);
        // A Hangul run ends with the particles glued to the name ("박지원의"): the name is
        // the syllables before them.
        let particles = run
            .iter()
            .rev()
            .take_while(|&&i| {
                q.words[i].chunk.script == Script::Hangul
                    && super::glued_names::is_hangul_particle(
                        &q.text[q.words[i].chunk.span.clone()],
                    )
            })
            .count();
        let need = if uncased || unspaced_query || marked_caseless || q.whole_runs.contains(run) {
            (run.len() - particles).max(1)
        } else {
            run.len().div_ceil(2)
        };
        !hits.is_empty() && hits.len() >= need
    };
    // A capitalized part of an identifier ("ACME" of "ACME-TRV-22") names no subject.
    let subject_runs: Vec<&Vec<usize>> = q
        .names
        .iter()
        .filter(|run| !run.iter().all(|&i| q.in_code_token(i)))
        .collect();
    let names_subject = !subject_runs.is_empty() && subject_runs.into_iter().all(run_present);
    // Every subject the query names must be in the row (at least half of each name run).
    if !q.names.is_empty() && !q.has_identifiers() {
        let absent: Vec<String> = q
            .names
            .iter()
            .filter(|run| !run_present(run))
            .map(|run| q.run_text(run).to_owned())
            .collect();
        if !absent.is_empty() && veto.is_none() {
            veto = Some(format!("does not name {}", absent.join(", ")));
        }
    }
    let variant_spelling = super::named_elsewhere::variant_spelling(q, row, &word_hit, &held_whole);
    let mut names = super::named_elsewhere::NameHolds::of(q, &word_hit, &held_whole, &run_present);
    if let Some((ri, k, reason)) = super::neighbours::neighbour_veto(q, row, &word_hit, &held_whole)
    {
        names.other.push((q.run_text(&q.names[ri]).to_owned(), k));
        veto = veto.or(Some(reason));
    }

    // A name written as one word (Han and Hangul syllables, a hyphenated given name):
    // [`super::glued_names`].
    if veto.is_none() {
        veto = super::glued_names::names_another(q, row, &word_hit);
    }

    let mut longer_name = false;
    for run in &q.names {
        let (Some(&first), Some(&last)) = (run.first(), run.last()) else {
            continue;
        };
        // The part of the run the row holds ("Boris" of "Grandpa Boris").
        let hits: Vec<usize> = run.iter().filter_map(|&i| word_hit[i]).collect();
        let (Some(&lo), Some(&hi)) = (hits.iter().min(), hits.iter().max()) else {
            continue;
        };
        let before = lo.checked_sub(1);
        let after = (hi + 1 < row.chunks.len()).then_some(hi + 1);
        let extends = |i: usize, joined: bool| {
            let c = &row.chunks[i];
            joined
                && name_part(row.text, &row.chunks, i)
                && cased(c.script)
                && !has_digit(c)
                && !crate::text::is_stopword(&c.form)
                && !super::word_classes::is_title(&c.form)
                && !super::word_classes::is_kinship(&row.text[c.span.clone()])
                && !q.words.iter().any(|w| word_matches(w, c))
        };
        // Only white space may stand between the parts of one name ("Zoe Lefevre: Rx" is two
        // things).
        let spaced = |a: usize, b: usize| {
            row.text[row.chunks[a].span.end..row.chunks[b].span.start]
                .chars()
                .all(char::is_whitespace)
        };
        if before.is_some_and(|i| extends(i, spaced(i, lo)))
            || after.is_some_and(|i| extends(i, spaced(hi, i)))
        {
            longer_name = true;
        }
        // The rules below read the row around the whole run: both its ends must be held.
        if word_hit[first].is_none() || word_hit[last].is_none() {
            continue;
        }
        // A hyphen glues a given name together: "Zhang Wei" is not "Zhang Wei-Ming".
        let full_name = run.len() >= 2 && word_hit[first] != word_hit[last];
        if let Some(i) = after
            && full_name
            && veto.is_none()
            && &row.text[row.chunks[hi].span.end..row.chunks[i].span.start] == "-"
            && extends(i, true)
        {
            let c = &row.chunks[i];
            veto = Some(format!(
                "names {:?}, not {:?}",
                &row.text[row.chunks[lo].span.start..c.span.end],
                q.run_text(run)
            ));
        }
        // So does it a single given name: "Ji" is not "Ji-woo", "Wei" not "Wei-Ming", when the
        // query writes the name alone.
        if let Some(i) = after
            && run.len() == 1
            && veto.is_none()
            && row.chunks[hi].capitalized
            && cased(row.chunks[hi].script)
            && &row.text[row.chunks[hi].span.end..row.chunks[i].span.start] == "-"
            && !q.text[q.words[last].chunk.span.end..].starts_with('-')
            && row.chunks[i].form.chars().all(char::is_alphabetic)
            && (row.chunks[i].capitalized || row.chunks[i].form.chars().count() <= 4)
            && !crate::text::is_stopword(&row.chunks[i].form)
            && !q.words.iter().any(|w| word_matches(w, &row.chunks[i]))
        {
            veto = Some(format!(
                "names {:?}, not {:?}",
                &row.text[row.chunks[lo].span.start..row.chunks[i].span.end],
                q.run_text(run)
            ));
        }
        // "Priya's husband's e-mail" is the husband's, not Priya's: a row where the query's
        // subject is only the possessor of a relation the query does not name states a fact
        // about someone else. ("Everything about Priya" still reaches it, and so does a row
        // of several clauses, where another clause may be about Priya herself.)
        if let Some(r) = possessive_relation(row, hi)
            && row.clauses.len() <= 1
            && veto.is_none()
            && !q.fan_out
            && !q.words.iter().any(|w| word_matches(w, &row.chunks[r]))
            && !q.relative.as_ref().is_some_and(|(_, relation)| {
                keys::stem(relation) == keys::stem(&row.chunks[r].form)
            })
        {
            veto = Some(format!(
                "is about {:?}, not {:?}",
                &row.text[row.chunks[lo].span.start..row.chunks[r].span.end],
                q.run_text(run)
            ));
        }
        // In scripts written without spaces between words (Han, Hangul), a name the row
        // writes on past the query's full name is someone else's: "Zhang Wei" is not 张伟明.
        // Not where it runs on into the query's own next word: then the run was no whole
        // name (储蓄 of 储蓄账户, "savings account", where 账户 is the query's next word too).
        let next_in_query = q.words.iter().find(|w| w.pos == q.words[last].pos + 1);
        if let Some(next) = super::glued_names::continues_unspaced_name(row, hi)
            && !next_in_query.is_some_and(|w| word_matches(w, &row.chunks[next]))
        {
            longer_name = true;
            if full_name && veto.is_none() {
                veto = Some(format!(
                    "names {:?}, not {:?}",
                    &row.text[row.chunks[lo].span.start..row.chunks[next].span.end],
                    q.run_text(run)
                ));
            }
        }
    }
    // The mirror of the rule above: "the standing order Aisha's brother set up", "Priya's
    // husband's e-mail", "his son's staff number" ask about the brother, the husband, the son
    // ([`query_relation`]). A row that names no such relative is about someone else ("Aisha's
    // council tax is paid by standing order"); one that names the relative must also hold
    // what is asked of them ("Kanya's husband is Claire" is no allergy of his).
    if veto.is_none()
        && let Some((r, relation)) = &q.relative
    {
        let names_relative = super::foreign_relations::row_names_relation(row, relation);
        let asked_of_them = q.words.iter().enumerate().any(|(i, w)| {
            (!w.name || q.unmarked_acronym(i))
                && w.pos != *r
                && !w.optional
                && word_hit[i].is_some()
        });
        if !names_relative {
            veto = Some(format!("does not name the {relation} the query asks about"));
        } else if !asked_of_them {
            veto = Some(format!(
                "names the {relation}, but nothing the query asks of them"
            ));
        }
    }
    let units = (q.units() + optional_hits).max(1);
    let coverage = hit_units as f64 / units as f64;
    let polarity_ok = if q.polarity_neutral {
        true
    } else if evidence.is_empty() {
        row.negated.iter().any(|&n| n) == q.negated
    } else {
        evidence
            .iter()
            .all(|&c| row.negated[c] == q.negated || lexical_polarity.contains(&c))
    };
    if !q.polarity_neutral
        && q.negated != row.negated.iter().any(|&n| n)
        && lexical_polarity.is_empty()
    {
        reasons.push(if q.negated {
            "query is negative, row is not".into()
        } else {
            "row is negative, query is not".into()
        });
    }
    RowScore {
        coverage,
        matched,
        missing,
        evidence_clauses: evidence,
        word_clauses,
        topic_clauses: topic_evidence,
        polarity_ok,
        longer_name,
        inexact_reading,
        variant_spelling,
        veto,
        attribute_units,
        attribute_hits,
        names_subject,
        names,
        reasons,
    }
}
