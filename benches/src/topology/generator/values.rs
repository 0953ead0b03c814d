//! Identifier values: their shapes (prefixed numbers, insurance numbers, IBANs, card and phone
//! numbers, personnel numbers), valid check digits, the written forms of each value, near
//! misses, and the register that keeps every value of a database distinct.

use serde::Serialize;

use crate::rng::SplitMix64;

/// A value's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(super) enum Shape {
    /// PREFIX-digits ("MRN-4417229").
    Prefixed(&'static str, usize),
    /// A letter and nine digits in threes ("A 123 456 789").
    Insurance,
    /// A German IBAN with valid check digits.
    Iban,
    /// A Luhn-valid 16-digit card number.
    Card,
    /// A UK phone number in the range reserved for drama (020 7946 0000 to 0999).
    Phone,
    /// "P-dddd-ddd".
    Personnel,
}

/// A value and the forms it is written in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Value {
    /// Canonical written form ("DE89 3704 0044 0532 0130 00").
    pub canonical: String,
    /// Other written forms (other grouping, case, width), canonical first.
    pub forms: Vec<String>,
}

impl Value {
    /// Letters and digits only, lower case: the form every spelling shares.
    pub fn compact(&self) -> String {
        squash(&self.canonical)
    }
}

/// Letters and digits of `s` after canonical folding (case, width), lower case.
pub fn squash(s: &str) -> String {
    oubli::canon::fold(s)
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect()
}

fn digits(rng: &mut SplitMix64, n: usize) -> String {
    (0..n)
        .map(|_| char::from(b'0' + rng.below(10) as u8))
        .collect()
}

fn full_width(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '!'..='~' => char::from_u32(c as u32 - 0x21 + 0xFF01).unwrap_or(c),
            c => c,
        })
        .collect()
}

fn group(s: &str, sizes: &[usize], sep: &str) -> String {
    let mut out = Vec::new();
    let mut i = 0;
    for &n in sizes {
        if i >= s.len() {
            break;
        }
        let end = (i + n).min(s.len());
        out.push(&s[i..end]);
        i = end;
    }
    if i < s.len() {
        out.push(&s[i..]);
    }
    out.join(sep)
}

pub(super) fn iban_check(bban: &str) -> String {
    // ISO 13616: move "DE00" to the end, letters to numbers, 98 - (n mod 97).
    let rearranged = format!("{bban}DE00");
    let mut rem: u64 = 0;
    for c in rearranged.chars() {
        let v = c.to_digit(36).expect("alphanumeric");
        let s = v.to_string();
        for d in s.chars() {
            rem = (rem * 10 + d.to_digit(10).expect("digit") as u64) % 97;
        }
    }
    format!("{:02}", 98 - rem)
}

pub(super) fn luhn_complete(body: &str) -> String {
    let sum: u32 = body
        .chars()
        .rev()
        .enumerate()
        .map(|(i, c)| {
            let d = c.to_digit(10).expect("digit");
            if i % 2 == 0 {
                let x = d * 2;
                if x > 9 { x - 9 } else { x }
            } else {
                d
            }
        })
        .sum();
    format!("{body}{}", (10 - sum % 10) % 10)
}

/// Builds the value of `shape` from its digits.
fn value_from(shape: Shape, raw: &str) -> Value {
    let (canonical, mut forms) = match shape {
        Shape::Prefixed(p, _) => (
            format!("{p}-{raw}"),
            vec![
                format!("{p} {raw}"),
                format!("{}{raw}", p.to_lowercase()),
                full_width(&format!("{p}-{raw}")),
            ],
        ),
        Shape::Insurance => {
            let (l, d) = raw.split_at(1);
            (
                format!("{l} {}", group(d, &[3, 3, 3], " ")),
                vec![
                    format!("{l}{d}"),
                    format!("{l}-{}", group(d, &[3, 3, 3], "-")),
                    format!("{} {}", l.to_lowercase(), group(d, &[3, 3, 3], " ")),
                ],
            )
        }
        Shape::Iban => (
            group(raw, &[4, 4, 4, 4, 4], " "),
            vec![
                raw.to_string(),
                raw.to_lowercase(),
                group(raw, &[4, 4, 4, 4, 4], "-"),
            ],
        ),
        Shape::Card => (
            group(raw, &[4, 4, 4], " "),
            vec![raw.to_string(), group(raw, &[4, 4, 4], "-")],
        ),
        Shape::Phone => (
            format!("+44 20 7946 {raw}"),
            vec![
                format!("+44207946{raw}"),
                format!("+44-20-7946-{raw}"),
                format!("+44 (20) 7946 {raw}"),
            ],
        ),
        Shape::Personnel => (
            format!("P-{}-{}", &raw[..4], &raw[4..]),
            vec![format!("P {} {}", &raw[..4], &raw[4..]), format!("p{raw}")],
        ),
    };
    forms.insert(0, canonical.clone());
    Value { canonical, forms }
}

/// Draws the raw part of a value of `shape`.
pub(super) fn raw_value(rng: &mut SplitMix64, shape: Shape) -> String {
    match shape {
        Shape::Prefixed(_, n) => format!("{}{}", 1 + rng.below(9), digits(rng, n - 1)),
        Shape::Insurance => format!(
            "{}{}",
            char::from(b'A' + rng.below(26) as u8),
            digits(rng, 9)
        ),
        Shape::Iban => {
            let bban = format!("{}{}", digits(rng, 8), digits(rng, 10));
            format!("DE{}{bban}", iban_check(&bban))
        }
        Shape::Card => luhn_complete(&format!("4{}", digits(rng, 14))),
        Shape::Phone => format!("0{}", digits(rng, 3)),
        Shape::Personnel => format!("{}{}", 1 + rng.below(9), digits(rng, 6)),
    }
}

/// A near miss of `raw`: the same shape with its last digits changed (the same bank, the same
/// card issuer, the same phone block).
pub(super) fn near_miss(rng: &mut SplitMix64, shape: Shape, raw: &str) -> String {
    match shape {
        Shape::Iban => {
            let bban = &raw[4..];
            let bban = format!("{}{}", &bban[..14], digits(rng, 4));
            format!("DE{}{bban}", iban_check(&bban))
        }
        Shape::Card => luhn_complete(&format!("{}{}", &raw[..12], digits(rng, 3))),
        _ => {
            let keep = raw.len() - 2;
            format!("{}{}", &raw[..keep], digits(rng, 2))
        }
    }
}

/// Values already used in a database: no compact form may equal or contain another.
#[derive(Default)]
pub(super) struct Used(Vec<String>);

impl Used {
    pub(super) fn fresh(
        &mut self,
        rng: &mut SplitMix64,
        shape: Shape,
        draw: impl Fn(&mut SplitMix64) -> String,
    ) -> (String, Value) {
        loop {
            let raw = draw(rng);
            let v = value_from(shape, &raw);
            let c = v.compact();
            if self
                .0
                .iter()
                .all(|u| !u.contains(&c) && !c.contains(u.as_str()))
            {
                self.0.push(c);
                return (raw, v);
            }
        }
    }
}
