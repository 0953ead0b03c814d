//! What a targeting query asks for: identifiers, names, words, polarity and width.

use super::codes::{CodeRun, glued, inside};
use super::possession::{marks_possessor_at, possessive_after, possessive_suffix};
use super::word_classes::{
    asks_about_truth, is_fan_out, is_negated, is_negation, is_request_word, is_title, standalone,
};
use crate::canon::{self, Chunk, Gap, IdKind, Identifier};
use crate::index::keys::{self, has_digit, name_like};
use crate::text;

mod anchoring;

/// One content word of the query.
#[derive(Clone, Debug)]
pub(crate) struct QWord {
    /// Plural-folded, folded, transliterated form.
    pub stem: String,
    /// The chunk it came from.
    pub chunk: Chunk,
    /// True if it may name someone or something (capitalized or from a caseless script).
    pub name: bool,
    /// The chunk index in the query.
    pub pos: usize,
    /// The attribute concepts it names across languages ([`crate::concepts`]).
    pub concepts: Vec<&'static str>,
    /// True for a word naming the stored record ("entry", "status") in a query that describes
    /// its attribute otherwise: evidence where a row holds it, not missing where it does not.
    pub optional: bool,
    /// The word as the query writes it (in an unspaced script, the run it belongs to).
    pub written: String,
    /// For a Han character, the Japanese and Korean readings of the surname it is part of
    /// ("佐藤" -> "sato", [`canon::han_readings`]).
    pub readings: Vec<&'static str>,
    /// True for a word in `s` followed by an apostrophe and no letter, a plural possessive
    /// ("the Moreaus' address"): as a name it is also its singular ("the Moreau family").
    pub plural_possessive: bool,
    /// True for a word written in capitals ("VPN", "IBAN") that is no part of an identifier
    /// (no digits in the chunk before or after it, as in "34 ABC 300").
    pub acronym: bool,
}

/// Determiners: a word after one is a common noun ("the inspector's visit"), not a name.
pub(super) const DETERMINERS: &[&str] = &[
    "the", "a", "an", "our", "my", "your", "his", "her", "their", "its", "this", "that", "these",
    "those", "each", "every", "some", "any",
];

/// The readings of the runs of one or two Han chunks that hold chunk `pos` of `chunks`.
fn han_readings_of(text: &str, chunks: &[Chunk], pos: usize) -> Vec<&'static str> {
    let mut out = Vec::new();
    if chunks[pos].script != canon::Script::Han {
        return out;
    }
    for (a, b) in [(pos, pos), (pos.saturating_sub(1), pos), (pos, pos + 1)] {
        let (Some(first), Some(last)) = (chunks.get(a), chunks.get(b)) else {
            continue;
        };
        if chunks[a..=b].iter().any(|c| c.script != canon::Script::Han)
            || (a..b).any(|k| chunks[k].span.end != chunks[k + 1].span.start)
        {
            continue;
        }
        for r in canon::han_readings(&text[first.span.start..last.span.end]) {
            if !out.contains(&r) {
                out.push(r);
            }
        }
    }
    out
}

/// A parsed targeting query.
#[derive(Clone, Debug)]
pub(crate) struct QueryShape {
    /// The query as given.
    pub text: String,
    /// Content words (stopwords, titles and possessive fragments dropped).
    pub words: Vec<QWord>,
    /// Runs of name words (indexes into `words`) that are adjacent in the query.
    pub names: Vec<Vec<usize>>,
    /// Typed identifiers that must be present (e-mail, handle, IP, MAC, IBAN, hostname, URL).
    pub typed: Vec<Identifier>,
    /// Digit-bearing code runs that must be present.
    pub codes: Vec<CodeRun>,
    /// True if the query is negative.
    pub negated: bool,
    /// True if the query asks about a fact's truth rather than stating it ("whether Ahmed has a
    /// credit card", "Ahmad's smoking status", 能不能): rows of either polarity fit it.
    pub polarity_neutral: bool,
    /// True if the query asks for everything about its subject (a standalone "everything",
    /// "all", "any", ... ; not "all-hands").
    pub fan_out: bool,
    /// Per name run: true if the query marks it as a subject that must be present in a
    /// targeted row even when no row holds it: a possessive ("Priya's"), or a capitalized
    /// word of a cased script that is neither the query's first word nor an acronym. Unmarked
    /// runs no row holds ("the user's ISP") count as plain words.
    pub marked: Vec<bool>,
    /// Match keys to look candidates up with.
    pub keys: Vec<String>,
    /// The bounds the query puts on the period it asks about ("before March 2023").
    pub bounds: Vec<super::period::Bound>,
    /// True if the query asks for the earlier of two facts ("the old address",
    /// [`super::period::OLD_WORDS`]).
    pub old: bool,
    /// The relative the query asks about (the relation noun's chunk and form: "brother" in
    /// "Aisha's brother's standing order"; the English noun for another language's: "sister"
    /// for "сестры David"), set by [`QueryShape::anchored`] ([`super::names::query_relation`],
    /// [`super::foreign_relations::foreign_query_relation`]).
    pub relative: Option<(usize, String)>,
    /// Name runs a row must hold whole: a full name no row holds whole, whose given name the
    /// rows write as part of another full name ("Jonas Wolf" where rows say "Jonas Weber"
    /// and "Jonas' badge"), set by [`QueryShape::anchored`]
    /// ([`super::names::borne_by_another`]).
    pub whole_runs: Vec<Vec<usize>>,
}

/// Identifier kinds matched as typed wholes rather than as code runs.
fn typed_kind(k: IdKind) -> bool {
    !matches!(
        k,
        IdKind::Code | IdKind::Phone | IdKind::Hostname | IdKind::Url
    )
}

impl QueryShape {
    /// Parses `text`.
    pub fn parse(text: &str) -> QueryShape {
        let chunks = canon::chunks(text);
        let concept_words = crate::concepts::words(text, &chunks);
        let typed: Vec<Identifier> = canon::identifiers(text)
            .into_iter()
            .filter(|i| typed_kind(i.kind))
            .collect();
        // Commentary ("..., it was entered by mistake") and words naming the record ("the entry
        // saying ...") are no evidence the target must hold (see `framing`).
        let framing = super::framing::frame(text, &chunks);
        let description = framing.description_text(text, &chunks);
        let polarity_neutral = asks_about_truth(&description);
        let negated = !polarity_neutral && is_negated(&description);
        let fan_out = chunks.iter().enumerate().any(|(i, c)| {
            framing.in_description(i)
                && (is_fan_out(&c.form) && standalone(text, &c.span)
                    || super::word_classes::foreign_fan_out(&chunks, i))
        });

        // In scripts without letter case, grammar and request words ("من", "的", "की") and
        // attribute words ("حساسية", "電話") are told from names by lists, not by capitals.
        let grammar = crate::function_words::spans(text, &chunks);
        let caseless_concepts = crate::concepts::caseless_forms(text, &chunks);
        let attribute_forms: Vec<std::ops::Range<usize>> =
            caseless_concepts.iter().map(|(_, s)| s.clone()).collect();
        // What follows a Tamil or Bengali noun phrase its case suffix ends (a possessor's
        // genitive, a dative): the attribute and the request, not more of the name.
        let after_case = crate::case_suffix::after_case_marked_noun(text, &chunks);

        // Bounds of a period ("before March 2023") qualify the attribute; their words and
        // numbers are no evidence of it (see `period`).
        let bounds = super::period::bounds(text, &chunks);
        let in_bound = |pos: usize| bounds.iter().any(|b| b.chunks.contains(&pos));
        let mut old = false;
        let mut words = Vec::new();
        for (pos, c) in chunks.iter().enumerate() {
            if in_bound(pos) {
                continue;
            }
            if c.script == canon::Script::Latin
                && super::period::OLD_WORDS.contains(&c.form.as_str())
                && !framing.set_aside(pos, c)
            {
                old = true;
                continue;
            }
            let glued_to_digits =
                (pos > 0 && has_digit(&chunks[pos - 1]) && glued(text, &chunks[pos - 1], c))
                    || (pos + 1 < chunks.len()
                        && has_digit(&chunks[pos + 1])
                        && glued(text, c, &chunks[pos + 1]));
            if inside(&c.span, &typed) || has_digit(c) || glued_to_digits {
                continue;
            }
            let possessive_s = c.form == "s"
                && pos > 0
                && text[chunks[pos - 1].span.end..c.span.start]
                    .chars()
                    .all(|ch| ch == '\'' || ch == '’');
            if possessive_s || c.form.is_empty() || framing.set_aside(pos, c) {
                continue;
            }
            // "the Gold status record": a word naming the record is evidence where the row
            // holds it, and no missing evidence where it does not.
            let optional = framing.drop_reference_words
                && super::framing::is_reference_word(&c.form)
                && !name_like(c);
            let lower = c.form.as_str();
            // The English lists apply to English words only: "you" is also 由 read in Chinese,
            // "i" the Korean surname 이.
            let latin = c.script == canon::Script::Latin;
            if latin
                && (text::is_stopword(lower)
                    || (crate::latin_function_words::is_function_word(lower)
                        && !c.capitalized
                        && standalone(text, &c.span))
                    || lower == "whether"
                    || is_negation(lower)
                    || (is_fan_out(lower) && standalone(text, &c.span))
                    || is_title(lower))
            {
                continue;
            }
            if !latin && crate::function_words::covers(&grammar, c) {
                continue;
            }
            let stem = keys::stem(lower);
            // "Delete Priya's number": a capitalized request word names nobody; nor does a word
            // of a caseless script that names an attribute.
            // In a script with letter case (Latin, Cyrillic, Greek) a name is capitalized: "η
            // Σοφία έχει πιάνο" names Σοφία only.
            let may_name = c.capitalized || !super::names::cased(c.script);
            let name = (may_name || super::names::name_part(text, &chunks, pos))
                && !(latin && is_request_word(&stem))
                && !after_case.contains(&pos)
                && (super::names::cased(c.script)
                    || !crate::function_words::covers(&attribute_forms, c));
            // The word as written (for an unspaced script, the run of syllables it belongs to).
            let (first, span, script) = concept_words
                .iter()
                .rev()
                .find(|w| w.1.start <= c.span.start)
                .cloned()
                .unwrap_or((pos, c.span.clone(), c.script));
            // A capitalized day name is no name: it names its day in every language.
            let concepts = if name
                && c.script == canon::Script::Latin
                && !super::word_match::is_calendar(&stem)
            {
                Vec::new()
            } else if crate::concepts::unspaced(c.script) {
                // In a run without spaces, only the syllables of the attribute word name it:
                // "佐藤" in "佐藤さんの電話番号" names a person, "電話" the phone.
                let mut ks: Vec<&'static str> = Vec::new();
                // A Thai chunk is a word (cut at its function words), and holds the form
                // with the prefixes of its class ("การแพ้", the allergy, holds "แพ้").
                let thai = c.script == canon::Script::Thai;
                for (k, s) in &caseless_concepts {
                    let inside = s.start <= c.span.start && c.span.end <= s.end;
                    let holds = thai && c.span.start <= s.start && s.end <= c.span.end;
                    if (inside || holds) && !ks.contains(k) {
                        ks.push(k);
                    }
                }
                ks
            } else {
                crate::concepts::concepts_of_word(&text[span.clone()], script, &chunks[first].form)
            };
            words.push(QWord {
                stem,
                chunk: c.clone(),
                name,
                pos,
                concepts,
                optional,
                written: text[span].to_owned(),
                acronym: acronym(&text[c.span.clone()])
                    && ![pos.wrapping_sub(1), pos + 1].iter().any(|&j| {
                        chunks
                            .get(j)
                            .is_some_and(|n| n.form.chars().any(|ch| ch.is_numeric()))
                    }),
                readings: han_readings_of(text, &chunks, pos),
                plural_possessive: c.form.len() > 3 && c.form.ends_with('s') && {
                    let mut after = text[c.span.end..].chars();
                    matches!(after.next(), Some('\'' | '’'))
                        && !after.next().is_some_and(char::is_alphanumeric)
                },
            });
        }
        // The first word of a query is capitalized by grammar, not because it is a name, when
        // the next word is not a name either ("Project Atlas" stays a name run).
        // A phrase of a script written without spaces glued before a name in a cased script
        // ("ลบเลขบัญชีธนาคารของCarmen") is no part of the name.
        // An acronym the lexicon knows as an attribute ("Davis IBAN", "Kim SSN"), or one that
        // modifies a generic head after it ("Tailspin Toys VAT number", "Ana NHS number"), is a
        // run of its own: it would otherwise stand for part of the name it joins.
        let attribute_acronym = |w: &QWord| {
            super::framing::attribute_acronym(text, &w.chunk)
                || acronym_of_three(&text[w.chunk.span.clone()])
                || acronym(&text[w.chunk.span.clone()])
                    && chunks.get(w.pos + 1).is_some_and(|n| {
                        !n.capitalized
                            && text.get(w.chunk.span.end..n.span.start) == Some(" ")
                            && crate::lexicon::is_generic_head(&n.form)
                    })
        };
        let mut names: Vec<Vec<usize>> = Vec::new();
        for (i, w) in words.iter().enumerate() {
            if !w.name {
                continue;
            }
            match names.last_mut() {
                Some(run)
                    if words[*run.last().expect("runs are not empty")].pos + 1 == w.pos
                        && chunks[w.pos].gap == Some(Gap::Joiner)
                        // A colon joins identifiers, never a name ("Wei: SSN" is a label).
                        && !text[words[*run.last().expect("runs are not empty")].chunk.span.end
                            ..w.chunk.span.start]
                            .contains(':')
                        && !attribute_acronym(w)
                        && !attribute_acronym(&words[*run.last().expect("runs are not empty")])
                        && !unspaced_before_cased(
                            &words[*run.last().expect("runs are not empty")].chunk,
                            &w.chunk,
                        ) =>
                {
                    run.push(i)
                }
                _ => names.push(vec![i]),
            }
        }

        // A name opening commentary the description refers back to ("Ananya moved out last
        // month; forget her old tax ID"): the request's subject, though capitalized where a
        // sentence starts. Only before a finite verb ("moved", "has", "asks"), and not a word the
        // lexicon knows as an attribute ("Passport expired ...").
        let refers_back = !framing.in_description(0)
            && chunks.iter().enumerate().any(|(i, c)| {
                framing.in_description(i) && ["his", "her", "their"].contains(&c.form.as_str())
            });
        let antecedent = |w: &QWord| {
            let verb_next = || {
                chunks.get(w.pos + 1).is_some_and(|n| {
                    !n.capitalized
                        && (n.form.ends_with("ed")
                            || n.form.ends_with('s')
                            || super::framing::is_auxiliary(&n.form))
                })
            };
            w.pos == 0
                && refers_back
                && verb_next()
                && w.concepts.is_empty()
                && crate::lexicon::slots(&w.chunk.form).is_empty()
                && !crate::text::is_stopword(&w.chunk.form)
        };
        let marked = names
            .iter()
            .map(|run| {
                let last = &words[*run.last().expect("runs are not empty")];
                let possessive = possessive_after(text, &chunks, last.pos);
                // A run that heads the request as a label ("Kan: employee ID", "Ji-woo: credit
                // card") is capitalized as a name, not by grammar.
                let label = words[run[0]].pos == 0 && text[last.chunk.span.end..].starts_with(':');
                let cased_name = run.iter().any(|&i| {
                    let w = &words[i];
                    let raw = &text[w.chunk.span.clone()];
                    let mut letters = raw.chars().filter(|c| c.is_alphabetic());
                    let first_upper = letters.next().is_some_and(char::is_uppercase);
                    // Day and month names qualify a fact; they name no subject.
                    let calendar = super::word_match::is_calendar(&w.stem);
                    (w.pos > 0 || label || antecedent(w))
                        && first_upper
                        && !acronym(raw)
                        && !calendar
                });
                // A run in a script without letter case is marked as a name by the grammar of
                // possession (王磊的, 鈴木さんの, 김민준의, राम का, של שרה, ของสมชาย, "the e-mail
                // of 王磊"). Dropped when no row holds it, it would turn a request about someone
                // absent into one about everyone's phone.
                let caseless = run
                    .iter()
                    .all(|&i| !super::names::cased(words[i].chunk.script));
                let first = &words[run[0]];
                let caseless_marked =
                    caseless && marks_possessor_at(text, &first.chunk, &last.chunk);
                // So is a caseless run inside a request written in a cased script ("王磊
                // employer", "שרה phone number"): there it can only be a name.
                let embedded = caseless
                    && words.iter().any(|w| !w.name)
                    && words
                        .iter()
                        .filter(|w| !w.name)
                        .all(|w| super::names::cased(w.chunk.script));
                possessive || cased_name || caseless_marked || embedded
            })
            .collect();

        // "All of Mara's phone numbers" asks for every phone number, not everything about her:
        // a request that names an attribute the lexicon knows is no request for everything.
        let fan_out = fan_out
            && !words.iter().any(|w| {
                !w.name
                    && !super::framing::is_reference_word(&w.chunk.form)
                    && (!w.concepts.is_empty() || !crate::lexicon::slots(&w.chunk.form).is_empty())
            });
        let codes = super::codes::code_runs(text, &chunks, &typed, &bounds);

        let keys = keys::query_keys(text)
            .into_iter()
            .filter(|k| {
                k.strip_prefix("w:")
                    .is_none_or(|w| !text::is_stopword(w) && !is_negation(w))
            })
            .collect();
        QueryShape {
            text: text.to_owned(),
            words,
            names,
            typed,
            codes,
            negated,
            polarity_neutral,
            fan_out,
            marked,
            keys,
            bounds,
            old,
            relative: None,
            whole_runs: Vec::new(),
        }
    }

    /// True if name run `run` qualifies the noun of a possessor: the noun after it carries
    /// the possessive ("the Porto lab's door code", "the Austin branch's phone"), or it stands
    /// after "of" ("the alarm code of the Izmir branch"). Such a name says whose fact it is, as
    /// a possessor does, so it is no new value.
    fn qualifies_a_possessor(&self, run: &[usize]) -> bool {
        let (Some(&first), Some(&last)) = (run.first(), run.last()) else {
            return false;
        };
        let (a, b) = (&self.words[first], &self.words[last]);
        let chunks = canon::chunks(&self.text);
        // One or two lowercase words after the run, the last of them a possessor.
        let head = (1..=2).any(|k| {
            let nouns = chunks.get(b.pos + 1..=b.pos + k).unwrap_or_default();
            !nouns.is_empty()
                && nouns
                    .iter()
                    .all(|c| !c.capitalized && !text::is_stopword(&c.form) && !has_digit(c))
                && possessive_suffix(&self.text, nouns[nouns.len() - 1].span.end)
        });
        // "of" before the run, with a determiner between or not.
        let before: Vec<&str> = chunks
            .get(a.pos.saturating_sub(2)..a.pos)
            .unwrap_or_default()
            .iter()
            .map(|c| c.form.as_str())
            .collect();
        let after_of = match before.as_slice() {
            [.., "of"] => true,
            ["of", det] => ["the", "a", "an", "our", "my", "their"].contains(det),
            _ => false,
        };
        head || after_of
    }

    /// True if name run `n` is followed by a coordinator ("and", "&", "und", "et", "y", "e",
    /// "и", "і") and then by the next name run: "Reza and Noa's shared bonus".
    fn coordinated_with_next_name(&self, n: usize) -> bool {
        let (Some(run), Some(next)) = (self.names.get(n), self.names.get(n + 1)) else {
            return false;
        };
        let (Some(&last), Some(&first)) = (run.last(), next.first()) else {
            return false;
        };
        let gap = self
            .text
            .get(self.words[last].chunk.span.end..self.words[first].chunk.span.start)
            .unwrap_or_default()
            .trim()
            .to_lowercase();
        ["and", "&", "und", "et", "y", "e", "и", "і"].contains(&gap.as_str())
    }

    /// Number of evidence units every row is measured against: words (optional ones aside)
    /// plus identifier constraints.
    pub fn units(&self) -> usize {
        self.words.iter().filter(|w| !w.optional).count()
            + self.typed.len()
            + self.codes.iter().filter(|c| c.year.is_none()).count()
            + self.bounds.len()
    }

    /// True if the query has identifiers: they decide, names and words only rank. A year
    /// bounding a period is no identifier.
    pub fn has_identifiers(&self) -> bool {
        !self.typed.is_empty() || self.codes.iter().any(|c| c.year.is_none())
    }

    /// This shape (a supersede's new text) with the words that `query` (anchored) reads as
    /// names marked as names too: "yuki's medication is sertraline" for "yuki's prescription"
    /// says whose medication, and "yuki" is no evidence of which fact a row of Yuki's states.
    pub(crate) fn with_names_of(&self, query: &QueryShape) -> QueryShape {
        let mut out = self.clone();
        let named: Vec<&str> = query
            .names
            .iter()
            .flatten()
            .map(|&i| query.words[i].stem.as_str())
            .collect();
        for w in &mut out.words {
            if named.contains(&w.stem.as_str()) {
                w.name = true;
            }
        }
        out
    }

    /// True if the query names no person: it has no name run, or only acronyms, which are
    /// capitalized as words ("the SSN", "employee ID"), not as names.
    pub(crate) fn names_nobody(&self) -> bool {
        self.names.iter().all(|run| {
            run.iter().all(|&i| {
                let original = &self.text[self.words[i].chunk.span.clone()];
                original.chars().count() <= 5 && original.chars().all(|c| c.is_ascii_uppercase())
            })
        })
    }

    /// The query's text from the first to the last of `run`'s words (indexes into
    /// [`QueryShape::words`]), as written: "Ji-woo Choi" for that name run. Empty for an empty
    /// run.
    pub(crate) fn run_text(&self, run: &[usize]) -> &str {
        let span = |i: Option<&usize>| i.and_then(|&i| self.words.get(i)).map(|w| &w.chunk.span);
        match (span(run.first()), span(run.last())) {
            (Some(a), Some(b)) => self.text.get(a.start..b.end).unwrap_or(""),
            _ => "",
        }
    }

    /// True if `words[i]` belongs to a name run (a subject, not the attribute).
    pub(crate) fn in_name_run(&self, i: usize) -> bool {
        self.names.iter().any(|run| run.contains(&i))
    }

    /// True if word `i` is an acronym the query does not mark as a subject (no possessive, not
    /// capitalized as a name): "VPN" in "Elif's VPN access", "POS" in "Marina's POS system". A
    /// row still needs it as a name when some row holds it, and the row that does holds the
    /// attribute it names.
    pub(crate) fn unmarked_acronym(&self, i: usize) -> bool {
        self.names.iter().zip(&self.marked).any(|(run, &marked)| {
            !marked && run[..] == [i] && self.words.get(i).is_some_and(|w| w.acronym)
        })
    }

    /// True if word `i` is written inside a token that holds a digit ("ACME" in "ACME-TRV-22",
    /// "KST" in "KST-LT5521"): part of an identifier, not a word of its own.
    pub(crate) fn in_code_token(&self, i: usize) -> bool {
        let Some(w) = self.words.get(i) else {
            return false;
        };
        let span = &w.chunk.span;
        let (Some(before), Some(after)) = (self.text.get(..span.start), self.text.get(span.end..))
        else {
            return false;
        };
        // Whitespace of any width (an ideographic space is three bytes) bounds the token.
        let start = before
            .char_indices()
            .rev()
            .find(|(_, c)| c.is_whitespace())
            .map_or(0, |(p, c)| p + c.len_utf8());
        let end = after
            .find(char::is_whitespace)
            .map_or(self.text.len(), |p| span.end + p);
        self.text[start..end].chars().any(|c| c.is_ascii_digit())
    }

    /// True if the query holds an identifier specific enough to decide on its own: a typed one,
    /// or a code of at least six characters with a digit, or five digits in a row (not a time,
    /// a price or a room number).
    pub fn has_strong_identifier(&self) -> bool {
        let digits = |s: &str| s.chars().filter(char::is_ascii_digit).count();
        !self.typed.is_empty()
            || self.codes.iter().any(|c| {
                (c.display.len() >= 6 && digits(&c.display) > 0) || digits(&c.display) >= 5
            })
    }
}

/// True if `a`, of a script written without spaces (Thai, Han, kana), is glued to `b`, a word
/// of a cased script: a phrase before a name ("ของCarmen"), not part of it.
fn unspaced_before_cased(a: &Chunk, b: &Chunk) -> bool {
    crate::concepts::unspaced(a.script)
        && super::names::cased(b.script)
        && a.span.end == b.span.start
}

/// True for a word written in capitals, three letters or more ("SSN", "NHS", "IBAN"): an
/// acronym, which a name joins only as initials of two ("AJ Smith").
fn acronym_of_three(raw: &str) -> bool {
    acronym(raw) && raw.chars().filter(|c| c.is_alphabetic()).count() >= 3
}

/// True for a word written in capitals, two letters or more ("IBAN", "VAT", "HR").
fn acronym(raw: &str) -> bool {
    let letters: Vec<char> = raw.chars().filter(|c| c.is_alphabetic()).collect();
    letters.len() >= 2 && letters.iter().all(|c| c.is_uppercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_inside_a_token_with_digits_is_part_of_an_identifier() {
        let at = |q: &QueryShape, form: &str| {
            let i = q.words.iter().position(|w| w.chunk.form == form);
            let forms: Vec<&str> = q.words.iter().map(|w| w.chunk.form.as_str()).collect();
            q.in_code_token(i.unwrap_or_else(|| panic!("{form} not in {forms:?}")))
        };
        let q = QueryShape::parse("billing for Mateo Rossi on ACME-TRV-22");
        assert!(at(&q, "acme"));
        assert!(!at(&q, "mateo") && !at(&q, "rossi"));
        // Whitespace of several bytes bounds a token too.
        let q = QueryShape::parse("billing for Mateo\u{3000}Rossi\u{3000}on\u{3000}ACME-TRV-22");
        assert!(at(&q, "acme"));
        assert!(!at(&q, "mateo") && !at(&q, "rossi"));
    }

    proptest::proptest! {
        #[test]
        fn in_code_token_never_panics(t in proptest::prelude::any::<String>()) {
            let q = QueryShape::parse(&t);
            for i in 0..=q.words.len() {
                q.in_code_token(i);
            }
        }
    }

    #[test]
    fn questions_of_truth_are_polarity_neutral() {
        for q in [
            "whether Ahmed has a credit card",
            "Ahmad's smoking status",
            "does Lena eat meat or not",
            "张强的信用卡能不能在境外用",
            "他有没有车",
        ] {
            let shape = QueryShape::parse(q);
            assert!(shape.polarity_neutral && !shape.negated, "{q}");
        }
        for q in [
            "Ahmed does not have a credit card",
            "他不吃肉",
            "if it rains, Lena stays",
        ] {
            assert!(!asks_about_truth(q), "{q}");
        }
        assert!(QueryShape::parse("Ahmed does not have a credit card").negated);
    }

    #[test]
    fn arabic_name_particles_join_a_name_and_english_words_do_not() {
        let q = QueryShape::parse("Muhammad Abd al-Rahman's certificate");
        assert_eq!(q.names, [vec![0, 1, 2, 3]], "{:?}", q.words);
        for text in ["Lena at Acme's badge", "Omar as Director's salary"] {
            let q = QueryShape::parse(text);
            assert!(
                q.names.iter().all(|run| run.len() == 1),
                "{text}: {:?}",
                q.names
            );
        }
    }

    #[test]
    fn a_han_run_no_row_holds_whole_is_no_name() {
        let q = QueryShape::parse("李明的护照能不能在境外用");
        assert_eq!(q.names.len(), 2, "{:?}", q.names);
        // The row writes 在 and 用, not the run: only 李明 stays a name.
        let views = [super::super::row_view::RowView::new(
            "李明的护照在抽屉里，用完放回。",
        )];
        let a = q.anchored(&views, None);
        assert_eq!(a.names.len(), 1, "{:?}", a.names);
        assert_eq!(q.words[a.names[0][0]].chunk.form, "li");
    }

    #[test]
    fn queries_split_into_evidence() {
        let q = QueryShape::parse("Tom's bank PIN 4821");
        let stems: Vec<&str> = q.words.iter().map(|w| w.stem.as_str()).collect();
        assert_eq!(stems, ["tom", "bank", "pin"]);
        assert_eq!(q.codes.len(), 1);
        assert!(q.codes[0].subruns.iter().any(|s| s.2 == "4821"));
        let q = QueryShape::parse("everything about Hannah");
        assert!(q.fan_out);
        assert_eq!(q.names.len(), 1);
        let q = QueryShape::parse("alice@northwind.io");
        assert_eq!(q.typed.len(), 1);
        assert!(q.words.is_empty(), "{:?}", q.words);
    }
}
