//! The Brahmic scripts other than Devanagari, read by the Devanagari rules of
//! [`super::translit`]: [`brahmic`].

/// The Brahmic scripts whose Unicode blocks follow Devanagari's layout (the ISCII order: each
/// letter, vowel sign and virama at the offset of its Devanagari counterpart), with whether their
/// languages drop the inherent vowel as Hindi does (the Indo-Aryan ones) or keep it (the
/// Dravidian ones: Tamil "நடராஜன்" is "natarajan", not "natrajn").
const BRAHMIC_BLOCKS: [(u32, bool); 8] = [
    (0x980, true),  // Bengali
    (0xA00, true),  // Gurmukhi
    (0xA80, true),  // Gujarati
    (0xB00, true),  // Oriya
    (0xB80, false), // Tamil
    (0xC00, false), // Telugu
    (0xC80, false), // Kannada
    (0xD00, false), // Malayalam
];

/// One word of a Brahmic script other than Devanagari, read by the Devanagari rules: each
/// character is taken as its Devanagari counterpart, with the reading rules the scripts differ
/// by. `None` when the word mixes blocks or holds no letter of these blocks.
///
/// - Bengali: a consonant's "ya-phala" (virama + য) lengthens or colours the vowel and is not a
///   "y" ("ব্যানার্জি" is Banerjee), and ৎ is a bare "t".
/// - Tamil: ச is "s" (Senthil, Sakthivel, Selvi; "ch" only doubled, as in "ச்ச").
/// - Gurmukhi: tippi (ੰ) is the nasal anusvara writes; addak (ੱ), which doubles the next
///   consonant, adds no letter.
/// - Malayalam: the chillu letters are consonants without a vowel (ൻ is न्).
/// - Length marks (Bengali ৗ, Tamil ௗ, Malayalam ൗ) and Malayalam's dot reph add no sound.
pub(super) fn brahmic(w: &str) -> Option<String> {
    let block = w
        .chars()
        .map(|c| c as u32)
        .find(|u| (0x980..0xD80).contains(u))?;
    let &(base, indo_aryan) = BRAHMIC_BLOCKS
        .iter()
        .find(|(b, _)| (*b..b + 0x80).contains(&block))?;
    let chars: Vec<char> = w.chars().collect();
    let mut out = String::with_capacity(w.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let u = c as u32;
        i += 1;
        if !(base..base + 0x80).contains(&u) {
            if u >= 0x900 && !c.is_ascii() && !super::script::is_mark(c) {
                // A letter of another block: not one word of one script.
                return None;
            }
            out.push(c);
            continue;
        }
        let v = match (base, c) {
            (0x980, '্') if i > 1 && chars.get(i) == Some(&'য') => {
                i += 1;
                continue;
            }
            (0x980, 'ৎ') => "त्",
            (0xB80, 'ச')
                if chars.get(i) != Some(&'்') && chars.get(i.wrapping_sub(2)) != Some(&'்') =>
            {
                "स"
            }
            (0xD00, 'ൺ') => "ण्",
            (0xD00, 'ൻ') => "न्",
            (0xD00, 'ർ') => "र्",
            (0xD00, 'ൽ') => "ल्",
            (0xD00, 'ൾ') => "ळ्",
            (0xD00, 'ൿ') => "क्",
            (0xA00, 'ੰ') => "ं",
            (0x980, 'ৗ') | (0xA00, 'ੱ') | (0xB80, 'ௗ') | (0xD00, 'ൗ' | 'ൎ') => continue,
            _ => {
                if let Some(d) = char::from_u32(0x900 + (u - base)) {
                    out.push(d);
                }
                continue;
            }
        };
        out.push_str(v);
    }
    Some(super::translit::devanagari_with(&out, indo_aryan))
}
