//! Typed identifiers, identifier-like query codes and whole-chunk code matching.
//!
//! The scanner runs over the NFKC form of the text (full-width `＠` is `@`, dashes are `-`),
//! where every normalized character remembers the byte range of the original character it came
//! from, so identifier spans are always ranges of whole original characters.

use super::script::{is_ignorable, is_mark, nfkc_chars};
use super::{Chunk, Gap, IdKind, Identifier, chunks, fold};
use std::ops::Range;

/// Longest URL considered, in characters (longer ones are cut there).
const MAX_URL: usize = 2048;
/// Longest code compound considered, in characters (longer runs are not codes).
const MAX_CODE: usize = 256;

#[derive(Clone, Copy)]
struct N {
    c: char,
    s: usize,
    e: usize,
}

fn stream(text: &str) -> Vec<N> {
    let mut v = Vec::with_capacity(text.len());
    for (s, ch) in text.char_indices() {
        let e = s + ch.len_utf8();
        if is_ignorable(ch) {
            continue;
        }
        nfkc_chars(ch, |c| v.push(N { c, s, e }));
    }
    v
}

struct Scan<'a> {
    v: &'a [N],
}

type Found = (usize, IdKind, String);

impl Scan<'_> {
    fn c(&self, i: usize) -> Option<char> {
        self.v.get(i).map(|n| n.c)
    }
    fn lc(&self, i: usize) -> Option<char> {
        self.c(i).map(|c| c.to_lowercase().next().unwrap_or(c))
    }
    fn wc(&self, i: usize) -> bool {
        self.c(i).is_some_and(|c| c.is_alphanumeric() || is_mark(c))
    }
    fn is(&self, i: usize, f: impl Fn(char) -> bool) -> bool {
        self.c(i).is_some_and(f)
    }
    fn text(&self, r: Range<usize>) -> String {
        self.v[r].iter().map(|n| n.c).collect()
    }
    fn lit(&self, i: usize, lit: &str) -> Option<usize> {
        let mut j = i;
        for l in lit.chars() {
            if self.lc(j)? != l {
                return None;
            }
            j += 1;
        }
        Some(j)
    }
    fn spaces(&self, mut i: usize) -> usize {
        while self.c(i) == Some(' ') {
            i += 1;
        }
        i
    }

    // --- URL -----------------------------------------------------------------------------
    fn url(&self, i: usize) -> Option<Found> {
        let mut j = i;
        while j < i + 16 && self.is(j, |c| c.is_ascii_alphanumeric() || "+.-".contains(c)) {
            j += 1;
        }
        if j == i || !self.is(i, |c| c.is_ascii_alphabetic()) {
            return None;
        }
        let after = self.lit(j, "://")?;
        let scheme_end = j;
        let mut k = after;
        let (mut opens, mut closes) = (0usize, 0usize);
        while k - after < MAX_URL && self.is(k, |c| !c.is_whitespace() && !"<>\"'`".contains(c)) {
            opens += usize::from(self.v[k].c == '(');
            closes += usize::from(self.v[k].c == ')');
            k += 1;
        }
        // Trailing punctuation is the sentence's, and ')' only when unbalanced.
        while k > after {
            let c = self.v[k - 1].c;
            if ".,;:!?'\"]}".contains(c) || (c == ')' && closes > opens) {
                closes -= usize::from(c == ')');
                k -= 1;
            } else {
                break;
            }
        }
        if k == after {
            return None;
        }
        let scheme = self.text(i..scheme_end).to_lowercase();
        let rest = self.text(after..k);
        let split = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        let canonical = format!(
            "{scheme}://{}{}",
            rest[..split].to_lowercase(),
            &rest[split..]
        );
        Some((k, IdKind::Url, canonical))
    }

    // --- host names and e-mail -----------------------------------------------------------
    /// Dotted labels from `i` with an alphabetic TLD: (end, labels).
    fn host(&self, i: usize) -> Option<(usize, usize)> {
        let mut j = i;
        let mut labels = 0;
        let mut last_start = i;
        loop {
            let start = j;
            while (self.wc(j) || self.c(j) == Some('-')) && j - start <= 63 {
                j += 1;
            }
            if j - i > 253 || labels >= 127 {
                return None;
            }
            if j == start
                || j - start > 63
                || self.c(start) == Some('-')
                || self.c(j - 1) == Some('-')
            {
                if labels == 0 {
                    return None;
                }
                j = start - 1; // back before the dot
                break;
            }
            labels += 1;
            last_start = start;
            if self.c(j) == Some('.') && (self.wc(j + 1)) {
                j += 1;
                continue;
            }
            break;
        }
        if labels < 2 {
            return None;
        }
        let tld = &self.v[last_start..j];
        if tld.len() < 2 || !tld.iter().all(|n| n.c.is_alphabetic() || is_mark(n.c)) {
            return None;
        }
        Some((j, labels))
    }

    fn email_canonical(local: &str, domain: &str) -> String {
        let local = fold(local);
        let mut domain = fold(domain);
        let mut local = match local.find('+') {
            Some(p) if p > 0 => local[..p].to_string(),
            _ => local,
        };
        if domain == "googlemail.com" {
            domain = "gmail.com".into();
        }
        if domain == "gmail.com" {
            local.retain(|c| c != '.');
        }
        format!("{local}@{domain}")
    }

    fn local_char(c: char) -> bool {
        c.is_alphanumeric() || is_mark(c) || "._%+-".contains(c)
    }

    fn email(&self, i: usize) -> Option<Found> {
        if !self.wc(i) {
            return None;
        }
        let mut j = i;
        while j < i + 64 && self.is(j, Self::local_char) {
            j += 1;
        }
        if self.c(j) != Some('@') || self.c(j - 1) == Some('.') {
            return None;
        }
        let (end, _) = self.host(j + 1)?;
        if self.is(end, |c| {
            c.is_alphanumeric() || c == '@' || c == '-' || c == '_'
        }) {
            return None;
        }
        let canonical = Self::email_canonical(&self.text(i..j), &self.text(j + 1..end));
        Some((end, IdKind::Email, canonical))
    }

    /// `alice at example dot com`, `alice [at] example [dot] com`, `alice(at)example(dot)com`.
    fn obfuscated_email(&self, i: usize) -> Option<Found> {
        if !self.wc(i) {
            return None;
        }
        let mut j = i;
        while j < i + 64 && self.is(j, Self::local_char) && self.c(j) != Some('+') {
            j += 1;
        }
        let local_end = j;
        if local_end == i || self.c(local_end - 1) == Some('.') {
            return None;
        }
        let marker = |k: usize, word: &str| -> Option<usize> {
            let k0 = self.spaces(k);
            for (o, c) in [("[", "]"), ("(", ")"), ("{", "}"), ("<", ">")] {
                let inner = [word, if word == "at" { "@" } else { "." }];
                for w in inner {
                    if let Some(e) = self.lit(k0, o).and_then(|e| self.lit(self.spaces(e), w)) {
                        let e = self.spaces(e);
                        if let Some(e) = self.lit(e, c) {
                            return Some(self.spaces(e));
                        }
                    }
                }
            }
            // The bare word, with spaces on both sides.
            if k0 > k {
                let e = self.lit(k0, word)?;
                let e2 = self.spaces(e);
                if e2 > e {
                    return Some(e2);
                }
            }
            None
        };
        let mut k = marker(local_end, "at")?;
        let mut labels: Vec<Range<usize>> = Vec::new();
        loop {
            let start = k;
            while self.wc(k) || self.c(k) == Some('-') {
                k += 1;
                if k - start > 63 {
                    return None;
                }
            }
            if k == start {
                return None;
            }
            labels.push(start..k);
            if labels.len() >= 16 {
                break;
            }
            if self.c(k) == Some('.') && self.wc(k + 1) {
                k += 1;
                continue;
            }
            match marker(k, "dot") {
                Some(n) if self.wc(n) => k = n,
                _ => break,
            }
        }
        let tld = labels.last()?;
        if labels.len() < 2
            || tld.len() < 2
            || !self.v[tld.clone()].iter().all(|n| n.c.is_alphabetic())
            || self.is(tld.end, |c| c.is_alphanumeric() || c == '@')
        {
            return None;
        }
        let domain: Vec<String> = labels.iter().map(|r| self.text(r.clone())).collect();
        let canonical = Self::email_canonical(&self.text(i..local_end), &domain.join("."));
        Some((tld.end, IdKind::Email, canonical))
    }

    fn handle(&self, i: usize) -> Option<Found> {
        if self.c(i) != Some('@') {
            return None;
        }
        let mut j = i + 1;
        while j < i + 65 && (self.wc(j) || self.is(j, |c| c == '_' || c == '.')) {
            j += 1;
        }
        while j > i + 1 && self.c(j - 1) == Some('.') {
            j -= 1;
        }
        if j == i + 1 || self.c(j) == Some('@') || self.c(i + 1) == Some('.') {
            return None;
        }
        Some((
            j,
            IdKind::Handle,
            format!("@{}", fold(&self.text(i + 1..j))),
        ))
    }

    fn hostname(&self, i: usize) -> Option<Found> {
        if i > 0 && self.is(i - 1, |c| ".-_@".contains(c)) {
            return None;
        }
        let (end, _) = self.host(i)?;
        if self.is(end, |c| {
            c.is_alphanumeric() || c == '-' || c == '_' || c == '@'
        }) {
            return None;
        }
        Some((end, IdKind::Hostname, fold(&self.text(i..end))))
    }

    // --- IBAN, MAC, IP ---------------------------------------------------------------------
    fn iban(&self, i: usize) -> Option<Found> {
        let upper = self.is(i, |c| c.is_ascii_uppercase());
        if !(self.is(i, |c| c.is_ascii_alphabetic())
            && self.is(i + 1, |c| c.is_ascii_alphabetic())
            && self.is(i + 2, |c| c.is_ascii_digit())
            && self.is(i + 3, |c| c.is_ascii_digit()))
        {
            return None;
        }
        let ok = |c: char| {
            c.is_ascii_digit()
                || if upper {
                    c.is_ascii_uppercase()
                } else {
                    c.is_ascii_alphanumeric()
                }
        };
        // Collect alphanumerics with single spaces between groups, remember group ends.
        let mut chars: Vec<char> = Vec::with_capacity(34);
        let mut ends: Vec<(usize, usize)> = Vec::new(); // (stream end, chars len)
        let mut j = i;
        loop {
            while chars.len() < 34 && self.is(j, ok) {
                chars.push(self.v[j].c.to_ascii_uppercase());
                j += 1;
            }
            if self.wc(j) {
                break; // group runs into other letters: not a group end
            }
            ends.push((j, chars.len()));
            if chars.len() < 34 && self.c(j) == Some(' ') && self.is(j + 1, ok) {
                j += 1;
                continue;
            }
            break;
        }
        for &(end, len) in ends.iter().rev() {
            if (15..=34).contains(&len) && mod97(&chars[..len]) {
                return Some((end, IdKind::Iban, chars[..len].iter().collect()));
            }
        }
        // IBAN-shaped but invalid: a code, when written in groups of four.
        let &(end, len) = ends.last()?;
        if (15..=34).contains(&len) && ends.len() >= 4 {
            let canonical = chars[..len].iter().collect();
            return Some((end, IdKind::Code, canonical));
        }
        None
    }

    fn mac(&self, i: usize) -> Option<Found> {
        let hex = |k: usize| self.is(k, |c| c.is_ascii_hexdigit());
        let mut out = String::with_capacity(12);
        for sep in [':', '-'] {
            out.clear();
            let mut j = i;
            let mut ok = true;
            for g in 0..6 {
                if !(hex(j) && hex(j + 1)) {
                    ok = false;
                    break;
                }
                out.push(self.v[j].c.to_ascii_lowercase());
                out.push(self.v[j + 1].c.to_ascii_lowercase());
                j += 2;
                if g < 5 {
                    if self.c(j) != Some(sep) {
                        ok = false;
                        break;
                    }
                    j += 1;
                }
            }
            if ok && !self.wc(j) && !(self.c(j) == Some(sep) && hex(j + 1)) {
                return Some((j, IdKind::Mac, out));
            }
        }
        // Cisco form 001a.2b3c.4d5e.
        out.clear();
        let mut j = i;
        for g in 0..3 {
            for _ in 0..4 {
                if !hex(j) {
                    return None;
                }
                out.push(self.v[j].c.to_ascii_lowercase());
                j += 1;
            }
            if g < 2 {
                if self.c(j) != Some('.') {
                    return None;
                }
                j += 1;
            }
        }
        if self.wc(j) || (self.c(j) == Some('.') && self.wc(j + 1)) {
            return None;
        }
        Some((j, IdKind::Mac, out))
    }

    fn ipv6(&self, i: usize) -> Option<Found> {
        let mut j = i;
        while j < i + 45 && self.is(j, |c| c.is_ascii_hexdigit() || c == ':' || c == '.') {
            j += 1;
        }
        let mut end = j;
        while end > i {
            let cand = self.text(i..end);
            if cand.matches(':').count() >= 2
                && cand.chars().any(|c| c.is_ascii_hexdigit())
                && let Ok(a) = cand.parse::<std::net::Ipv6Addr>()
            {
                if self.wc(end) {
                    return None;
                }
                return Some((end, IdKind::Ipv6, a.to_string()));
            }
            if self.is(end - 1, |c| c == '.' || c == ':') {
                end -= 1;
            } else {
                break;
            }
        }
        None
    }

    fn ipv4(&self, i: usize) -> Option<Found> {
        if i > 0 && self.c(i - 1) == Some('.') {
            return None;
        }
        let mut j = i;
        let mut parts = [0u32; 4];
        for (p, part) in parts.iter_mut().enumerate() {
            let start = j;
            while j < start + 3 && self.is(j, |c| c.is_ascii_digit()) {
                *part = *part * 10 + self.v[j].c.to_digit(10).unwrap_or(0);
                j += 1;
            }
            if j == start || *part > 255 || self.is(j, |c| c.is_ascii_digit()) {
                return None;
            }
            if p < 3 {
                if self.c(j) != Some('.') {
                    return None;
                }
                j += 1;
            }
        }
        if self.wc(j) || (self.c(j) == Some('.') && self.is(j + 1, |c| c.is_ascii_digit())) {
            return None;
        }
        let canonical = format!("{}.{}.{}.{}", parts[0], parts[1], parts[2], parts[3]);
        Some((j, IdKind::Ipv4, canonical))
    }

    // --- phone ---------------------------------------------------------------------------
    fn phone(&self, i: usize) -> Option<Found> {
        let digit = |k: usize| self.is(k, |c| c.is_ascii_digit());
        let mut j = i;
        let plus = self.c(j) == Some('+');
        if plus {
            j += 1;
        }
        if self.c(j) == Some('(') {
            j += 1;
        }
        if !digit(j) {
            return None;
        }
        let mut digits = String::with_capacity(16);
        let mut groups: Vec<usize> = vec![0];
        let mut seps = 0;
        let mut end = j;
        loop {
            if digit(j) {
                digits.push(self.v[j].c);
                if let Some(g) = groups.last_mut() {
                    *g += 1;
                }
                j += 1;
                end = j;
                if digits.len() > 15 {
                    return None;
                }
                continue;
            }
            // Up to two separator characters: one of " .-" and/or one paren.
            let mut k = j;
            let mut spaces = 0;
            let mut parens = 0;
            let mut others = 0;
            while k < j + 3 {
                match self.c(k) {
                    Some(' ') => spaces += 1,
                    Some('(' | ')') => parens += 1,
                    Some('.' | '-') => others += 1,
                    _ => break,
                }
                k += 1;
            }
            if k > j
                && spaces <= 1
                && parens <= 1
                && others <= 1
                && digit(k)
                && spaces + others <= 1
                || (k > j && parens == 1 && spaces + others <= 1 && digit(k))
            {
                seps += 1;
                groups.push(0);
                j = k;
                continue;
            }
            break;
        }
        if !(7..=15).contains(&digits.len()) || self.wc(end) {
            return None;
        }
        if self.is(end, |c| c == '.' || c == '-' || c == '/') && digit(end + 1) {
            return None;
        }
        let international = plus || digits.starts_with("00");
        if !international {
            let shape: &[usize] = &groups;
            let card_like = digits.len() >= 12 && shape[..shape.len() - 1].iter().all(|&g| g == 4);
            let date_like = matches!(shape, [4, 2, 2] | [2, 2, 4] | [1 | 2, 1 | 2, 4]);
            let ssn_like = matches!(shape, [3, 2, 4]);
            let bare = seps == 0 && !(digits.starts_with('0') && (10..=11).contains(&digits.len()));
            if card_like || date_like || ssn_like || bare || digits.len() > 12 {
                return None;
            }
        }
        let canonical = if international {
            format!("+{}", digits.strip_prefix("00").unwrap_or(&digits))
        } else {
            digits
        };
        Some((end, IdKind::Phone, canonical))
    }

    // --- codes ---------------------------------------------------------------------------
    /// One compound: alphanumerics joined by single inner separators.
    fn compound(&self, i: usize) -> Option<Compound> {
        if !self.wc(i) {
            return None;
        }
        let mut c = Compound {
            end: i,
            ..Compound::default()
        };
        let mut j = i;
        let mut letters_after_digit = false;
        loop {
            if j - i > MAX_CODE {
                return None;
            }
            while self.wc(j) && j - i <= MAX_CODE {
                let ch = self.v[j].c;
                if ch.is_numeric() {
                    c.digits += 1;
                    if c.letters > 0 && !letters_after_digit {
                        c.letter_first = true;
                    }
                } else if ch.is_alphabetic() {
                    c.letters += 1;
                    c.lower |= ch.is_lowercase();
                    if c.digits > 0 {
                        letters_after_digit = true;
                    }
                    if c.digits == 0 {
                        c.letter_first = true;
                    }
                }
                if !is_mark(ch) {
                    c.alnum += 1;
                    c.last_digit = ch.is_numeric();
                }
                j += 1;
            }
            c.end = j;
            match self.c(j) {
                Some(s) if "-_./:#+".contains(s) && self.wc(j + 1) => {
                    c.seps += 1;
                    c.dots += usize::from(s == '.');
                    j += 1;
                }
                Some(',')
                    if self.is(j - 1, |x| x.is_ascii_digit())
                        && self.is(j + 1, |x| x.is_ascii_digit()) =>
                {
                    c.comma = true;
                    j += 1;
                }
                _ => break,
            }
        }
        c.suffix_unit =
            !c.letter_first && c.letters > 0 && c.seps == 0 && c.digits <= 4 && c.letters <= 3;
        Some(c)
    }

    fn code(&self, i: usize) -> Option<Found> {
        if i > 0
            && self.is(i - 1, |c| c == ',' || c == '.')
            && self.is(i.wrapping_sub(2), |c| c.is_ascii_digit())
        {
            return None;
        }
        let a = self.compound(i)?;
        let upper_word = |c: &Compound, n: Range<usize>| {
            c.digits == 0 && !c.lower && c.seps == 0 && n.contains(&c.letters)
        };
        let mut end;
        let mut total = a.clone();
        if upper_word(&a, 2..4) {
            // "LH 0454", "IE 6388047 V": a short uppercase prefix before a number.
            if self.c(a.end) != Some(' ') {
                return None;
            }
            let b = self.compound(a.end + 1)?;
            if b.digits < 3 || b.lower || b.comma {
                return None;
            }
            end = b.end;
            total.add(&b);
        } else if a.digits > 0
            && a.letters == 0
            && a.seps == 0
            && (2..=6).contains(&a.digits)
            && a.alnum < 5
        {
            // Digit groups: "4111 1111 1111 1111".
            end = a.end;
            while self.c(end) == Some(' ') {
                let Some(b) = self.compound(end + 1) else {
                    break;
                };
                if b.letters > 0 || b.seps > 0 || !(2..=6).contains(&b.digits) || b.comma {
                    break;
                }
                total.add(&b);
                end = b.end;
            }
            if total.digits < 7 {
                return None;
            }
            return Some((end, IdKind::Code, code_of(&self.text(i..end))));
        } else {
            // A decimal number ("3.14159") is not a code.
            let decimal = a.letters == 0 && a.dots == 1 && a.seps == 1;
            let long_enough = if a.letters > 0 {
                a.alnum >= 3
            } else {
                a.digits >= 5
            };
            let is_code = a.digits > 0 && !a.comma && !a.suffix_unit && !decimal && long_enough;
            if !is_code {
                return None;
            }
            end = a.end;
        }
        // Suffixes of plates, postcodes, VAT numbers.
        if self.c(end) == Some(' ')
            && let Some(d) = self.compound(end + 1)
        {
            let join = if upper_word(&d, 1..2) {
                total.last_digit
            } else if upper_word(&d, 3..4) {
                total.alnum <= 4 && total.last_digit && total.letter_first
            } else {
                d.alnum == 3
                    && !d.lower
                    && d.seps == 0
                    && d.digits == 1
                    && !d.letter_first
                    && (2..=4).contains(&total.alnum)
                    && total.letter_first
            };
            if join {
                end = d.end;
            }
        }
        Some((end, IdKind::Code, code_of(&self.text(i..end))))
    }
}

#[derive(Clone, Default)]
struct Compound {
    end: usize,
    alnum: usize,
    digits: usize,
    letters: usize,
    seps: usize,
    dots: usize,
    lower: bool,
    comma: bool,
    letter_first: bool,
    last_digit: bool,
    suffix_unit: bool,
}

impl Compound {
    fn add(&mut self, o: &Compound) {
        self.alnum += o.alnum;
        self.digits += o.digits;
        self.letters += o.letters;
        self.seps += o.seps;
        self.last_digit = o.last_digit;
    }
}

/// ISO 13616 mod-97 check of an uppercase IBAN.
fn mod97(iban: &[char]) -> bool {
    if iban.len() < 5 {
        return false;
    }
    let mut r: u32 = 0;
    for &c in iban[4..].iter().chain(&iban[..4]) {
        let v = match c.to_digit(36) {
            Some(v) => v,
            None => return false,
        };
        r = if v >= 10 {
            (r * 100 + v) % 97
        } else {
            (r * 10 + v) % 97
        };
    }
    r == 1
}

/// Typed identifiers of `text`, in order, non-overlapping. Detection order at each position:
/// URL, e-mail, obfuscated e-mail, IBAN, MAC, IPv6, IPv4, phone, handle, host name, code. An
/// identifier starts only where no letter or digit precedes it.
pub fn identifiers(text: &str) -> Vec<Identifier> {
    let v = stream(text);
    let sc = Scan { v: &v };
    let mut out: Vec<Identifier> = Vec::new();
    let mut i = 0;
    while i < v.len() {
        if i == 0 || !sc.wc(i - 1) {
            let found = sc
                .url(i)
                .or_else(|| sc.email(i))
                .or_else(|| sc.obfuscated_email(i))
                .or_else(|| sc.iban(i))
                .or_else(|| sc.mac(i))
                .or_else(|| sc.ipv6(i))
                .or_else(|| sc.ipv4(i))
                .or_else(|| sc.phone(i))
                .or_else(|| sc.handle(i))
                .or_else(|| sc.hostname(i))
                .or_else(|| sc.code(i));
            if let Some((end, kind, canonical)) = found
                && end > i
            {
                let span = v[i].s..v[end - 1].e;
                if out.last().is_none_or(|l| l.span.end <= span.start) && !canonical.is_empty() {
                    out.push(Identifier {
                        kind,
                        canonical,
                        span,
                    });
                }
                i = end;
                continue;
            }
        }
        i += 1;
    }
    out
}

pub(super) fn code_of(s: &str) -> String {
    let mut out = String::new();
    for c in chunks(s) {
        out.push_str(&c.form.to_ascii_uppercase());
    }
    out
}

/// The canonical code of an identifier-like query string: folded, uppercase, every separator
/// removed ("TXN-4481" -> "TXN4481", "ab-CD-12-ef" -> "ABCD12EF", "+1 (415) 555-0132" ->
/// "14155550132"). Exception: three or more dotted digit groups (an IPv4 address, a version)
/// stay dotted, leading zeros dropped ("010.0.0.1" -> "10.0.0.1"), and [`find_code`] matches
/// them part by part, so "10.0.0.1" never meets "100.0.1". `None` if it has no digit and is not an e-mail / handle / hostname-like
/// token. Non-Latin letters are transliterated exactly as [`chunks`] does, so
/// `find_code(&chunks(t), &code(q)?)` compares like with like.
pub fn code(s: &str) -> Option<String> {
    let c = code_of(s);
    if c.is_empty() {
        return None;
    }
    // Dotted digit groups (IPv4 addresses, versions): kept dotted, matched part by part.
    let f = fold(s);
    let t = f.trim();
    let parts: Vec<&str> = t.split('.').collect();
    if parts.len() >= 3 && parts.iter().all(|p| is_digits(p)) {
        let parts: Vec<&str> = parts
            .iter()
            .map(|p| match p.trim_start_matches('0') {
                "" => "0",
                q => q,
            })
            .collect();
        return Some(parts.join("."));
    }
    if c.bytes().any(|b| b.is_ascii_digit()) {
        return Some(c);
    }
    let ids = identifiers(t);
    let whole = ids.len() == 1
        && matches!(
            ids[0].kind,
            IdKind::Email | IdKind::Handle | IdKind::Hostname | IdKind::Url
        );
    whole.then_some(c)
}

fn is_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// Phone equivalence of two digit strings: equal after dropping an international "00", a 1-3
/// digit country code on one side only, and a national trunk "0" on one side only. The common
/// national number must have at least 8 digits when a rule was used.
pub(super) fn phone_equiv(a: &[u8], b: &[u8]) -> bool {
    let a = a.strip_prefix(b"00").unwrap_or(a);
    let b = b.strip_prefix(b"00").unwrap_or(b);
    if a == b {
        return true;
    }
    // (rest, used country code)
    // (start of the national number, length of a stripped country code)
    fn variants(x: &[u8], out: &mut [(usize, usize); 8]) -> usize {
        let mut n = 0;
        out[n] = (0, 0);
        n += 1;
        if x.first() == Some(&b'0') {
            out[n] = (1, 0);
            n += 1;
        } else {
            for k in 1..=3 {
                if x.len() > k {
                    out[n] = (k, k);
                    n += 1;
                    if x[k] == b'0' {
                        out[n] = (k + 1, k);
                        n += 1;
                    }
                }
            }
        }
        n
    }
    let mut va = [(0, 0); 8];
    let mut vb = [(0, 0); 8];
    let na = variants(a, &mut va);
    let nb = variants(b, &mut vb);
    for &(ka, cca) in &va[..na] {
        for &(kb, ccb) in &vb[..nb] {
            // A country code on both sides must be the same one.
            if cca > 0 && ccb > 0 && a[..cca] != b[..ccb] {
                continue;
            }
            let (ra, rb) = (&a[ka..], &b[kb..]);
            if ra.len() >= 8 && ra == rb {
                return true;
            }
        }
    }
    false
}

/// Whole-chunk code matching: byte spans of every place where a run of consecutive chunks of
/// `text`, joined only by `Gap::Joiner`, concatenates (uppercase) exactly to `code`. A match must
/// start and end on chunk boundaries: code "TXN12345" never matches inside "TXN-123456",
/// "12345" never inside "123456". Digit-only codes of at least 7 digits also match a run whose
/// digits equal the code after a phone-style normalization: leading "00" or "+" international
/// prefix, a 1-3 digit country code present on one side only, a national trunk "0" on one side
/// only ("+44 151 496 0142" ~ "0151 496 0142" ~ "1514960142"); the common national number must
/// then have at least 8 digits. Linear-ish, no allocation per start. Spans are sorted and
/// distinct (they may overlap when the text repeats part of the code).
pub fn find_code(text_chunks: &[Chunk], code: &str) -> Vec<Range<usize>> {
    if code.contains('.') {
        return find_dotted(text_chunks, code);
    }
    let code: Vec<u8> = code
        .bytes()
        .filter(u8::is_ascii_alphanumeric)
        .map(|b| b.to_ascii_uppercase())
        .collect();
    let mut out: Vec<Range<usize>> = Vec::new();
    if code.is_empty() {
        return out;
    }
    let phone = code.len() >= 7 && code.iter().all(u8::is_ascii_digit);
    let mut buf: Vec<u8> = Vec::with_capacity(code.len() + 8);
    let n = text_chunks.len();
    for i in 0..n {
        let mut pos = 0;
        for j in i..n {
            let ch = &text_chunks[j];
            if j > i && ch.gap != Some(Gap::Joiner) {
                break;
            }
            let f = ch.form.as_bytes();
            if f.is_empty()
                || pos + f.len() > code.len()
                || !f.eq_ignore_ascii_case(&code[pos..pos + f.len()])
            {
                break;
            }
            pos += f.len();
            if pos == code.len() {
                out.push(text_chunks[i].span.start..ch.span.end);
                break;
            }
        }
        let joined_digit = |k: usize| {
            k < n
                && k > 0
                && text_chunks[k].gap == Some(Gap::Joiner)
                && is_digits(&text_chunks[k].form)
                && is_digits(&text_chunks[k - 1].form)
        };
        if phone && is_digits(&text_chunks[i].form) && !joined_digit(i) {
            buf.clear();
            for j in i..n {
                let ch = &text_chunks[j];
                if (j > i && ch.gap != Some(Gap::Joiner)) || !is_digits(&ch.form) {
                    break;
                }
                buf.extend_from_slice(ch.form.as_bytes());
                if buf.len() > code.len() + 6 {
                    break;
                }
                if buf.len() >= 7 && buf != code && !joined_digit(j + 1) && phone_equiv(&code, &buf)
                {
                    out.push(text_chunks[i].span.start..ch.span.end);
                }
            }
        }
    }
    out.sort_by_key(|r| (r.start, r.end));
    out.dedup();
    out
}

/// Dotted-quad codes (what [`code`] gives for an IPv4 address): one chunk per part, numeric
/// equality, and the run may not continue with more dotted digits on either side.
fn find_dotted(text_chunks: &[Chunk], code: &str) -> Vec<Range<usize>> {
    let parts: Vec<&str> = code
        .split('.')
        .map(|p| p.trim().trim_start_matches('0'))
        .collect();
    let n = text_chunks.len();
    let mut out = Vec::new();
    if parts.is_empty() || parts.len() > n {
        return out;
    }
    let digit_join = |k: usize| {
        k > 0
            && k < n
            && text_chunks[k].gap == Some(Gap::Joiner)
            && is_digits(&text_chunks[k].form)
            && is_digits(&text_chunks[k - 1].form)
    };
    for i in 0..=n - parts.len() {
        let run = &text_chunks[i..i + parts.len()];
        let ok = run.iter().zip(&parts).enumerate().all(|(k, (c, p))| {
            is_digits(&c.form)
                && c.form.trim_start_matches('0') == *p
                && (k == 0 || c.gap == Some(Gap::Joiner))
        });
        if ok && !digit_join(i) && !digit_join(i + parts.len()) {
            out.push(run[0].span.start..run[parts.len() - 1].span.end);
        }
    }
    out
}

/// Identifier-equivalence of two typed identifiers (same kind and canonical equal; phones with
/// the country-code/trunk rule of [`find_code`]).
pub fn same_identifier(a: &Identifier, b: &Identifier) -> bool {
    if a.kind != b.kind {
        return false;
    }
    if a.canonical == b.canonical {
        return true;
    }
    if a.kind == IdKind::Phone {
        let da: Vec<u8> = a.canonical.bytes().filter(u8::is_ascii_digit).collect();
        let db: Vec<u8> = b.canonical.bytes().filter(u8::is_ascii_digit).collect();
        return phone_equiv(&da, &db);
    }
    false
}
