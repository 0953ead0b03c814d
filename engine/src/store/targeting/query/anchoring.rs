//! What a query means against the store's rows ([`QueryShape::anchored`]): which of its name
//! runs are subjects a targeted row must hold, which is a supersede's new value, which are plain
//! words, and the relative it asks about.

use super::QueryShape;
use crate::canon;
use crate::store::targeting::{
    self,
    possession::{marks_possessor_at, possessive_suffix, subject_of},
};

impl QueryShape {
    /// The query without the name runs that no row in `views` holds even in part: a capitalized
    /// word nobody in the store is called ("the user's ISP") cannot anchor the query to a
    /// person, so it only counts as a word. A run of Han syllables is one word: a row holds it
    /// only whole.
    /// Runs the query marks as subjects ([`QueryShape::marked`]) stay: a request about
    /// someone the store does not know must match nothing, not everyone else's rows.
    ///
    /// A supersede's query may name its new value ("Wilai now likes flying Bangkok Airways
    /// best", "replaced her emergency contact with her sister Mali"): a run that no row holds
    /// whole and that `new_text` (the supersede's new text) holds whole is that value, not a
    /// subject, when another run of the query, held whole by a row, names the subject; so is
    /// an identifier that no row holds and the new text does ("the new number is
    /// 7700-9040").
    /// True if name run `run`, in a script without letter case, follows a word naming an
    /// attribute ("هاتف", phone) that `new` (a supersede's new text) also writes right before
    /// it: "حدّث رقم هاتف محمود حسن" / "رقم هاتف محمود حسن هو ...". Where no particle marks
    /// the possessor (an Arabic construct), the run standing after the same attribute in
    /// both texts is whose attribute it is, not the new value.
    fn after_same_attribute(&self, run: &[usize], new: &targeting::row_view::RowView<'_>) -> bool {
        let first = &self.words[run[0]];
        if targeting::names::cased(first.chunk.script) {
            return false;
        }
        let Some(before) = self
            .words
            .iter()
            .find(|w| w.pos + 1 == first.pos && !w.name && !w.concepts.is_empty())
        else {
            return false;
        };
        (1..new.chunks.len()).any(|p| {
            targeting::word_match::word_matches(first, &new.chunks[p])
                && targeting::word_match::word_matches(before, &new.chunks[p - 1])
        })
    }

    /// Joins to a name run the lowercase half a hyphen glues after it ("jun" of "Min-jun
    /// passport number") when a row writes the pair as a name ("Min-jun Kim's birthday ..."):
    /// at the start of a request only grammar capitalizes the first half, so the parse leaves
    /// the half out, and it would count as a word of the attribute every row about Min-jun
    /// holds.
    fn join_hyphenated_halves(&mut self, views: &[targeting::row_view::RowView<'_>]) {
        use targeting::word_match::word_matches;
        for n in 0..self.names.len() {
            while let Some(&last) = self.names[n].last()
                && let Some(next) = self.words.get(last + 1)
            {
                let a = &self.words[last];
                let glued = a.pos + 1 == next.pos
                    && self.text.get(a.chunk.span.end..next.chunk.span.start) == Some("-");
                let written_so = views.iter().any(|v| {
                    v.chunks.windows(2).any(|p| {
                        p[0].capitalized
                            && v.text.get(p[0].span.end..p[1].span.start) == Some("-")
                            && word_matches(a, &p[0])
                            && word_matches(next, &p[1])
                    })
                });
                if next.name || !glued || next.chunk.capitalized || !written_so {
                    break;
                }
                self.words[last + 1].name = true;
                self.names[n].push(last + 1);
            }
        }
    }

    pub(crate) fn anchored(
        &self,
        views: &[targeting::row_view::RowView<'_>],
        new_text: Option<&targeting::row_view::RowView<'_>>,
    ) -> QueryShape {
        let mut q = self.clone();
        let held = |i: usize, v: &targeting::row_view::RowView<'_>| {
            targeting::word_match::find_name(&self.words[i], v).is_some()
        };
        // Per run: held by some row in part, held whole by one row, held whole by the new text.
        let seen: Vec<(bool, bool, bool)> = self
            .names
            .iter()
            .map(|run| {
                let part = run.iter().any(|&i| views.iter().any(|v| held(i, v)));
                let whole = views.iter().any(|v| run.iter().all(|&i| held(i, v)));
                let in_new = new_text.is_some_and(|v| run.iter().all(|&i| held(i, v)));
                (part, whole, in_new)
            })
            .collect();
        let keep: Vec<bool> = self
            .names
            .iter()
            .zip(&self.marked)
            .enumerate()
            .map(|(n, (run, &marked))| {
                // Day and month names qualify a fact ("the address from before April"); unless
                // the query marks them as a subject ("April's phone"), they are words.
                let calendar = run
                    .iter()
                    .all(|&i| targeting::word_match::is_calendar(&self.words[i].stem));
                // A run of Han syllables the query does not mark as a name is one word written
                // without spaces: a row holds it only whole ("能不能在境外用" is not held by a
                // row that writes 在 or 用 somewhere).
                let han = run
                    .iter()
                    .all(|&i| self.words[i].chunk.script == canon::Script::Han);
                let in_rows = if han && !marked && run.len() > 1 {
                    views.iter().any(|v| {
                        (0..v.chunks.len().saturating_sub(run.len() - 1)).any(|p| {
                            run.iter().enumerate().all(|(k, &i)| {
                                targeting::word_match::word_matches(
                                    &self.words[i],
                                    &v.chunks[p + k],
                                )
                            })
                        })
                    })
                } else {
                    seen[n].0
                };
                // The new value: a run the new text holds whole and no row does, in a query
                // that another run, held whole by a row, anchors to its subject ("Wilai now
                // flies Bangkok Airways"). Without that anchor the run is the new value only
                // when neither the query nor the new text makes it the subject ("desk booking
                // moved to Robin"): "Priya's phone number" restated as "Priya's phone number
                // is ..." in a store without Priya is a no-match, not Anna's phone.
                let possessor = {
                    let (a, b) = (&self.words[run[0]], &self.words[run[run.len() - 1]]);
                    possessive_suffix(&self.text, b.chunk.span.end)
                        || marks_possessor_at(&self.text, &a.chunk, &b.chunk)
                        || self.qualifies_a_possessor(run)
                };
                // A capitalized attribute word ("Wi-Fi") anchors no subject.
                let anchored_elsewhere = seen.iter().enumerate().any(|(m, &(_, whole, _))| {
                    m != n && whole && !targeting::names::written_as_attribute(self, &self.names[m])
                });
                // A run the new text marks as a possessor is no new value, anchored or not:
                // "David Okafor and Sarah Miller's shared bonus is ..." is about both of them.
                // (A run the new text begins with may be the new value: "Chen Jie holds the
                // storage pager".)
                let subject_of_new = new_text.is_some_and(|v| {
                    subject_of(&self.words, run, v, false) || self.after_same_attribute(run, v)
                });
                // Nor is a run the query coordinates with another name ("Emre Kaya and Ahmed's
                // shared social security number"): a joint request names both.
                let coordinated = self.coordinated_with_next_name(n)
                    || n.checked_sub(1)
                        .is_some_and(|m| self.coordinated_with_next_name(m));
                // The first word of a request is capitalized by grammar, but when nothing
                // else in it is a name, an unknown first word is its subject: "Priya phone
                // number" in a store without Priya is a no-match, not Anna's phone.
                // So is one coordinated with the name after it ("Reza and Noa's shared
                // bonus", "Emre Kaya & Haruto Sato badge number"): a joint request names both.
                let initial = self.words[run[0]].pos == 0
                    && run
                        .iter()
                        .all(|&i| targeting::names::cased(self.words[i].chunk.script));
                // A capitalized attribute word ("Wi-Fi", "IBAN") is no other name: "Haifa
                // warehouse Wi-Fi password" names Haifa.
                let other_names = self
                    .names
                    .iter()
                    .enumerate()
                    .any(|(m, r)| m != n && !targeting::names::written_as_attribute(self, r));
                let only_initial = initial && (!other_names || self.coordinated_with_next_name(n));
                // Nor is that first word, when it is the only name, the new value ("Thessaloniki
                // lab Wi-Fi password" / "The Wi-Fi password of the Thessaloniki lab is ...").
                let new_value = seen[n].2
                    && !seen[n].1
                    && !subject_of_new
                    && !coordinated
                    && !only_initial
                    && (anchored_elsewhere || !possessor);
                !new_value
                    && (marked
                        || !calendar && (in_rows || only_initial)
                        || !calendar
                            && views.iter().any(|v| {
                                !targeting::names::japanese_run(self, run, v).0.is_empty()
                            }))
            })
            .collect();
        let mut k = keep.iter();
        q.names.retain(|_| *k.next().expect("one flag per run"));
        let mut k = keep.iter();
        q.marked.retain(|_| *k.next().expect("one flag per run"));
        q.join_hyphenated_halves(views);
        // Names written in lowercase ("jonas' blood type", "allergy for kanya").
        targeting::lowercase_names::mark(&mut q, views, new_text);
        // A code inside a path or a file name is that whole token when some row holds it whole:
        // "/cases/gil/N-400_draft.pdf" is then neither "N-400_draft_v2.pdf" nor the "N-400"
        // another row names. When no row holds the whole token, the code inside it may still
        // be what a row writes on its own ("cam-0412.home.lan" and "Camera 0412").
        for run in &mut q.codes {
            let Some((a, b)) = run.token else { continue };
            let held_whole = views.iter().any(|v| {
                canon::find_code(&v.chunks, &run.display)
                    .iter()
                    .any(|r| targeting::word_match::whole_token(v.text, r))
            });
            if held_whole {
                run.subruns.retain(|(x, y, _)| *x <= a && b <= *y);
                if run.subruns.is_empty() {
                    run.subruns.push((a, b, run.display.clone()));
                }
            }
        }
        if let Some(new) = new_text {
            targeting::codes::drop_new_values(&mut q, views, new);
        }
        q.whole_runs = q
            .names
            .iter()
            .filter(|run| targeting::names::borne_by_another(&q, run, views))
            .cloned()
            .collect();
        q.relative = targeting::names::query_relation(&q)
            .map(|r| {
                let form = canon::chunks(&q.text)
                    .get(r)
                    .map(|c| c.form.clone())
                    .unwrap_or_default();
                (r, form)
            })
            .or_else(|| {
                targeting::foreign_relations::foreign_query_relation(&q)
                    .map(|(r, english)| (r, english.to_owned()))
            });
        q
    }
}
