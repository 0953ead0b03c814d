//! Thai function words cut out of a run of Thai letters. Thai is written without spaces
//! between the words of a phrase: a space ends a phrase or a name, and the rest is glued, a
//! name to the honorific before it ("คุณวิไล", Khun Wilai) or to the preposition ("...ของสมชาย",
//! ... of Somchai). A run is cut into words by ICU4X's dictionary segmenter (the dictionary of
//! the Unicode Consortium's ICU, which browsers and operating systems use for line breaking),
//! and the cuts kept are those beside a listed function word, pronoun or honorific
//! ([`crate::function_words`]): the name after "คุณ" or "ของ" becomes a chunk of its own.
//!
//! Every other cut is undone. A name the dictionary does not hold comes out in the pieces its
//! syllables or its parts make ("มาลีวรรณ", Maliwan, is "มาลี" + "วรรณ"), and a cut there would
//! make another person's name ("มาลี", Mali) a word of it; a name cut into pieces would also no
//! longer meet its Latin spelling whole ("แก้วกล้า" and "Kaewkla").

use std::ops::Range;

use icu_segmenter::WordSegmenter;
use icu_segmenter::options::WordBreakInvariantOptions;

use super::{Piece, Script, Unit};

/// Pushes the piece of `units` onto `out`, cut into words when it is a run of Thai letters.
pub(super) fn push_piece(us: &[Unit], units: Range<usize>, script: Script, out: &mut Vec<Piece>) {
    if script == Script::Thai && units.len() > 1 {
        let mut run = String::new();
        // The byte offset in `run` at which each unit starts.
        let mut starts = Vec::with_capacity(units.len());
        for u in &us[units.clone()] {
            starts.push(run.len());
            run.push(u.ch);
        }
        // The dictionary's words, as byte ranges of `run` that start and end at units.
        let mut words: Vec<Range<usize>> = Vec::new();
        let mut from = 0;
        for at in
            WordSegmenter::new_dictionary(WordBreakInvariantOptions::default()).segment_str(&run)
        {
            // A unit is one character: a break falls between units.
            if at > from && (at == run.len() || starts.binary_search(&at).is_ok()) {
                words.push(from..at);
                from = at;
            }
        }
        let listed = |r: &Range<usize>| crate::function_words::thai_function_word(&run[r.clone()]);
        let mut start = units.start;
        for pair in words.windows(2) {
            if !(listed(&pair[0]) || listed(&pair[1])) {
                continue;
            }
            let Ok(i) = starts.binary_search(&pair[1].start) else {
                continue;
            };
            let k = units.start + i;
            if k > start {
                out.push(Piece {
                    units: start..k,
                    script,
                    homoglyph: false,
                });
                start = k;
            }
        }
        out.push(Piece {
            units: start..units.end,
            script,
            homoglyph: false,
        });
        return;
    }
    out.push(Piece {
        units,
        script,
        homoglyph: false,
    });
}
