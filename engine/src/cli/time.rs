//! Times and durations on the command line: ISO 8601 / RFC 3339 in, ISO 8601 out.
//!
//! Accepted times: an RFC 3339 date-time with an offset (`2026-11-23T14:05:00Z`,
//! `2026-11-23T15:05:00.250+01:00`), a date alone (`2026-11-23`, midnight UTC), or an integer
//! count of milliseconds since the Unix epoch (`1763906700000`). A date-time without an offset
//! is refused: it names no single instant. Accepted durations: ISO 8601 `PnW` or
//! `PnDTnHnMn.nS` (years and months are refused: their length varies). Times print as
//! `YYYY-MM-DDTHH:MM:SS.mmmZ`.

use crate::row::Millis;

const MS_PER_DAY: i64 = 86_400_000;

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date of a day count since 1970-01-01 (inverse of [`days_from_civil`]).
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = if z >= 0 { z } else { z - 146_096 } / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

fn days_in_month(y: i64, m: i64) -> i64 {
    match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Formats milliseconds since the Unix epoch as `YYYY-MM-DDTHH:MM:SS.mmmZ`.
pub fn format_time(ms: Millis) -> String {
    let days = ms.div_euclid(MS_PER_DAY);
    let rem = ms.rem_euclid(MS_PER_DAY);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}Z",
        rem / 3_600_000,
        rem / 60_000 % 60,
        rem / 1000 % 60,
        rem % 1000
    )
}

/// Reads exactly `n` ASCII digits at `*i`.
fn digits(s: &[u8], i: &mut usize, n: usize) -> Option<i64> {
    let part = s.get(*i..*i + n)?;
    if !part.iter().all(u8::is_ascii_digit) {
        return None;
    }
    *i += n;
    Some(part.iter().fold(0, |a, b| a * 10 + i64::from(b - b'0')))
}

fn expect(s: &[u8], i: &mut usize, c: u8) -> Option<()> {
    (s.get(*i) == Some(&c)).then(|| *i += 1)
}

/// Parses a time: RFC 3339 date-time with offset, a date (midnight UTC), or epoch
/// milliseconds. The error says what is accepted.
pub fn parse_time(s: &str) -> Result<Millis, String> {
    let t = s.trim();
    let bad = || {
        format!(
            "invalid time {s:?}: expected RFC 3339 (2026-11-23T14:05:00Z, \
             2026-11-23T15:05:00+01:00), a date (2026-11-23) or milliseconds since the epoch"
        )
    };
    if !t.is_empty()
        && t.strip_prefix('-')
            .unwrap_or(t)
            .bytes()
            .all(|b| b.is_ascii_digit())
    {
        return t.parse::<Millis>().map_err(|_| bad());
    }
    let b = t.as_bytes();
    let mut i = 0;
    let date = (|| {
        let y = digits(b, &mut i, 4)?;
        expect(b, &mut i, b'-')?;
        let m = digits(b, &mut i, 2)?;
        expect(b, &mut i, b'-')?;
        let d = digits(b, &mut i, 2)?;
        ((1..=12).contains(&m) && (1..=days_in_month(y, m)).contains(&d)).then_some((y, m, d))
    })()
    .ok_or_else(bad)?;
    let day_ms = days_from_civil(date.0, date.1, date.2) * MS_PER_DAY;
    if i == b.len() {
        return Ok(day_ms);
    }
    if !matches!(b[i], b'T' | b't' | b' ') {
        return Err(bad());
    }
    i += 1;
    let clock = (|| {
        let h = digits(b, &mut i, 2)?;
        expect(b, &mut i, b':')?;
        let min = digits(b, &mut i, 2)?;
        let mut sec = 0;
        let mut frac_ms = 0;
        if expect(b, &mut i, b':').is_some() {
            sec = digits(b, &mut i, 2)?;
            if expect(b, &mut i, b'.').is_some() || expect(b, &mut i, b',').is_some() {
                let start = i;
                while b.get(i).is_some_and(u8::is_ascii_digit) {
                    i += 1;
                }
                if i == start {
                    return None;
                }
                // Milliseconds: the first three digits, padded; finer digits are dropped.
                let mut ms = 0;
                for k in 0..3 {
                    ms = ms * 10
                        + b.get(start + k)
                            .filter(|_| start + k < i)
                            .map_or(0, |c| i64::from(c - b'0'));
                }
                frac_ms = ms;
            }
        }
        (h < 24 && min < 60 && sec <= 60).then_some(((h * 60 + min) * 60 + sec) * 1000 + frac_ms)
    })()
    .ok_or_else(bad)?;
    let offset_ms = match b.get(i) {
        Some(b'Z' | b'z') if i + 1 == b.len() => 0,
        Some(&sign @ (b'+' | b'-')) => {
            i += 1;
            let oh = digits(b, &mut i, 2).ok_or_else(bad)?;
            expect(b, &mut i, b':');
            let om = if i == b.len() {
                0
            } else {
                digits(b, &mut i, 2).ok_or_else(bad)?
            };
            if i != b.len() || oh > 23 || om > 59 {
                return Err(bad());
            }
            let off = (oh * 60 + om) * 60_000;
            if sign == b'+' { off } else { -off }
        }
        None => {
            return Err(format!(
                "invalid time {s:?}: add Z or an offset (+01:00); a local time names no single instant"
            ));
        }
        _ => return Err(bad()),
    };
    Ok(day_ms + clock - offset_ms)
}

/// Parses an ISO 8601 duration (`P30D`, `PT12H`, `P1DT2H30M`, `PT1.5S`, `P2W`) into
/// milliseconds. Years and months are refused (their length varies).
pub fn parse_duration(s: &str) -> Result<Millis, String> {
    let bad = |why: &str| format!("invalid duration {s:?}: {why}");
    let t = s.trim();
    let body = t
        .strip_prefix(['P', 'p'])
        .ok_or_else(|| bad("expected ISO 8601 such as P30D, PT12H or P1DT2H30M"))?;
    if body.is_empty() || body.eq_ignore_ascii_case("T") {
        return Err(bad("no amount"));
    }
    let mut total: f64 = 0.0;
    let mut in_time = false;
    let mut num = String::new();
    let mut units = 0;
    let mut units_before_t = 0;
    for c in body.chars() {
        match c.to_ascii_uppercase() {
            'T' if !in_time && num.is_empty() => {
                in_time = true;
                units_before_t = units;
            }
            d if d.is_ascii_digit() || d == '.' || d == ',' => {
                num.push(if d == ',' { '.' } else { d })
            }
            u => {
                let n: f64 = num
                    .parse()
                    .map_err(|_| bad("expected a number before each unit"))?;
                num.clear();
                let unit_ms = match (in_time, u) {
                    (false, 'W') => 7.0 * 86_400_000.0,
                    (false, 'D') => 86_400_000.0,
                    (false, 'Y' | 'M') => {
                        return Err(bad(
                            "years and months have no fixed length; use days or weeks",
                        ));
                    }
                    (true, 'H') => 3_600_000.0,
                    (true, 'M') => 60_000.0,
                    (true, 'S') => 1000.0,
                    _ => return Err(bad("unknown unit")),
                };
                total += n * unit_ms;
                units += 1;
            }
        }
    }
    if !num.is_empty() || units == 0 {
        return Err(bad("a number without a unit"));
    }
    if in_time && units == units_before_t {
        return Err(bad("nothing after T"));
    }
    if !total.is_finite() || total > Millis::MAX as f64 {
        return Err(bad("too long"));
    }
    Ok(total.round() as Millis)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn known_instants() {
        assert_eq!(parse_time("1970-01-01T00:00:00Z"), Ok(0));
        assert_eq!(parse_time("1970-01-01"), Ok(0));
        assert_eq!(
            parse_time("2026-11-23T14:05:00.250Z"),
            Ok(1_795_442_700_250)
        );
        assert_eq!(
            parse_time("2026-11-23T15:05:00.250+01:00"),
            parse_time("2026-11-23T14:05:00.250Z")
        );
        assert_eq!(
            parse_time("2026-11-23 14:05:00-0130"),
            parse_time("2026-11-23T15:35:00Z")
        );
        assert_eq!(parse_time("1763906700000"), Ok(1_763_906_700_000));
        assert_eq!(format_time(1_795_442_700_250), "2026-11-23T14:05:00.250Z");
        assert_eq!(format_time(-1), "1969-12-31T23:59:59.999Z");
        assert_eq!(
            parse_time("2024-02-29T00:00:00.123456Z"),
            Ok(1_709_164_800_123)
        );
    }

    #[test]
    fn refused_times() {
        for s in [
            "",
            "yesterday",
            "2026-13-01",
            "2026-02-29",
            "2026-11-23T14:05",
            "2026-11-23T25:00Z",
            "2026-11-23T14:05:00+01:00x",
            "2026-11-23T14:05:00.Z",
        ] {
            assert!(parse_time(s).is_err(), "{s:?} should be refused");
        }
        assert!(
            parse_time("2026-11-23T14:05")
                .unwrap_err()
                .contains("offset")
        );
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("P30D"), Ok(30 * 86_400_000));
        assert_eq!(parse_duration("PT12H"), Ok(12 * 3_600_000));
        assert_eq!(parse_duration("P1DT2H30M"), Ok(86_400_000 + 9_000_000));
        assert_eq!(parse_duration("PT1.5S"), Ok(1500));
        assert_eq!(parse_duration("P2W"), Ok(14 * 86_400_000));
        for s in ["", "P", "PT", "30D", "P1M", "P1Y", "P1DT", "PT5", "P1H"] {
            assert!(parse_duration(s).is_err(), "{s:?} should be refused");
        }
    }

    proptest! {
        #[test]
        fn format_then_parse_is_identity(ms in -62_135_596_800_000i64..253_402_300_799_999i64) {
            prop_assert_eq!(parse_time(&format_time(ms)), Ok(ms));
        }
    }
}
