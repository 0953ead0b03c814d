//! Statistics for reports: Wilson intervals, McNemar's test, nearest-rank quantiles.

/// The 0.975 quantile of the standard normal distribution (two-sided 95 %).
pub const Z_95: f64 = 1.959_963_984_540_054;

/// A proportion with its 95 % Wilson score interval.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Proportion {
    /// Successes.
    pub successes: u64,
    /// Trials.
    pub trials: u64,
    /// successes / trials (0 when there are no trials).
    pub rate: f64,
    /// Lower bound of the interval.
    pub low: f64,
    /// Upper bound of the interval.
    pub high: f64,
}

/// The Wilson score interval for `successes` out of `trials` at normal quantile `z`.
///
/// With no trials the interval is the whole of [0, 1].
pub fn wilson(successes: u64, trials: u64, z: f64) -> Proportion {
    if trials == 0 {
        return Proportion {
            successes,
            trials,
            rate: 0.0,
            low: 0.0,
            high: 1.0,
        };
    }
    let n = trials as f64;
    let p = successes as f64 / n;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Proportion {
        successes,
        trials,
        rate: p,
        low: if successes == 0 {
            0.0
        } else {
            (centre - half).max(0.0)
        },
        high: if successes >= trials {
            1.0
        } else {
            (centre + half).min(1.0)
        },
    }
}

/// The 95 % Wilson interval.
pub fn wilson95(successes: u64, trials: u64) -> Proportion {
    wilson(successes, trials, Z_95)
}

/// Which test McNemar's comparison used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum McNemarMethod {
    /// Exact two-sided binomial test on the discordant pairs (small counts).
    ExactBinomial,
    /// Chi-square with one degree of freedom and Edwards' continuity correction.
    ChiSquareCorrected,
}

/// The result of McNemar's test on paired verdicts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct McNemar {
    /// Pairs where only the first run passed.
    pub only_first: u64,
    /// Pairs where only the second run passed.
    pub only_second: u64,
    /// The chi-square statistic with continuity correction (reported for both methods).
    pub chi_square: f64,
    /// Two-sided p-value of the method used.
    pub p_value: f64,
    /// The method used.
    pub method: McNemarMethod,
}

/// Discordant totals below this use the exact binomial test.
pub const EXACT_BELOW: u64 = 25;

/// McNemar's test on `b` (only first passed) and `c` (only second passed) discordant pairs.
///
/// Exact binomial (p = 0.5) when `b + c < 25`, else chi-square with continuity correction.
pub fn mcnemar(b: u64, c: u64) -> McNemar {
    let n = b + c;
    let chi_square = if n == 0 {
        0.0
    } else {
        let d = (b as f64 - c as f64).abs() - 1.0;
        d.max(0.0).powi(2) / n as f64
    };
    let (p_value, method) = if n < EXACT_BELOW {
        (
            exact_binomial_two_sided(b.min(c), n),
            McNemarMethod::ExactBinomial,
        )
    } else {
        (
            chi_square_1df_p(chi_square),
            McNemarMethod::ChiSquareCorrected,
        )
    };
    McNemar {
        only_first: b,
        only_second: c,
        chi_square,
        p_value,
        method,
    }
}

/// Two-sided exact binomial p-value for `k` = min(b, c) out of `n` at p = 0.5.
pub fn exact_binomial_two_sided(k: u64, n: u64) -> f64 {
    if n == 0 {
        return 1.0;
    }
    // P(X <= k) for X ~ Bin(n, 1/2), with coefficients built in log space to stay finite.
    let mut log_coef = 0.0f64; // ln C(n, 0)
    let log_half_n = n as f64 * 0.5f64.ln();
    let mut tail = 0.0f64;
    for i in 0..=k {
        if i > 0 {
            log_coef += ((n - i + 1) as f64).ln() - (i as f64).ln();
        }
        tail += (log_coef + log_half_n).exp();
    }
    (2.0 * tail).min(1.0)
}

/// Upper-tail p-value of the chi-square distribution with one degree of freedom.
pub fn chi_square_1df_p(x: f64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    erfc((x / 2.0).sqrt())
}

/// Complementary error function (Numerical Recipes' Chebyshev fit, relative error < 1.2e-7).
pub fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

/// Nearest-rank quantile: the smallest value v with P(X <= v) >= p. `None` when empty.
pub fn quantile<T: Copy + Ord>(values: &[T], p: f64) -> Option<T> {
    if values.is_empty() {
        return None;
    }
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    let n = sorted.len();
    let rank = (p * n as f64).ceil() as usize;
    Some(sorted[rank.clamp(1, n) - 1])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn wilson_matches_newcombe_1998() {
        // Newcombe, Statistics in Medicine 17 (1998), table II, method 3 (score, z = 1.96).
        for (s, n, low, high) in [
            (81, 263, 0.2553, 0.3662),
            (15, 148, 0.0624, 0.1605),
            (0, 20, 0.0, 0.1611),
            (1, 29, 0.0061, 0.1718),
            (8, 10, 0.4902, 0.9433),
        ] {
            let p = wilson(s, n, 1.96);
            assert!(
                close(p.low, low, 6e-5) && close(p.high, high, 6e-5),
                "{s}/{n}: {p:?}"
            );
        }
    }

    #[test]
    fn wilson_edges() {
        // 0/38 at the exact 95 % quantile: [0, 9.2 %], as ForgetEval reports for Lethe.
        let p = wilson95(0, 38);
        assert!(p.low == 0.0 && close(p.high * 100.0, 9.18, 0.01), "{p:?}");
        let p = wilson95(10, 10);
        assert_eq!(p.high, 1.0);
        assert!(close(p.low, 0.7225, 1e-4));
        let p = wilson95(0, 0);
        assert_eq!((p.low, p.high), (0.0, 1.0));
    }

    #[test]
    fn mcnemar_matches_the_paper_example() {
        // ForgetEval: 5 vs 3 discordant, chi2 = 0.125 with continuity correction, p = 0.724.
        let m = mcnemar(5, 3);
        assert!(close(m.chi_square, 0.125, 1e-12));
        assert!(close(chi_square_1df_p(m.chi_square), 0.724, 5e-4));
        // Small counts use the exact test: 2 * (1 + 8 + 28 + 56) / 256.
        assert_eq!(m.method, McNemarMethod::ExactBinomial);
        assert!(close(m.p_value, 186.0 / 256.0, 1e-12));
    }

    #[test]
    fn mcnemar_exact_and_chi_square_known_values() {
        // 0 vs 6: exact p = 2 / 64.
        assert!(close(mcnemar(0, 6).p_value, 2.0 / 64.0, 1e-12));
        // 1 vs 9: exact p = 2 * (1 + 10) / 1024.
        assert!(close(mcnemar(1, 9).p_value, 22.0 / 1024.0, 1e-12));
        // 30 vs 10: chi2 = 19^2 / 40 = 9.025, p = 0.002663 (chi-square, 1 df).
        let m = mcnemar(30, 10);
        assert_eq!(m.method, McNemarMethod::ChiSquareCorrected);
        assert!(close(m.chi_square, 9.025, 1e-12));
        assert!(close(m.p_value, 0.002_663, 2e-6), "{}", m.p_value);
        assert_eq!(mcnemar(0, 0).p_value, 1.0);
        assert_eq!(mcnemar(7, 7).p_value, 1.0);
    }

    #[test]
    fn erfc_known_values() {
        assert!(close(erfc(0.0), 1.0, 1e-7));
        assert!(close(erfc(0.25), 0.723_673_609_8, 1e-7));
        assert!(close(erfc(1.0), 0.157_299_207_1, 1e-7));
        assert!(close(erfc(-1.0), 1.842_700_792_9, 1e-7));
        // chi2 = 3.841459 is the 95 % critical value.
        assert!(close(chi_square_1df_p(3.841_459), 0.05, 1e-6));
    }

    #[test]
    fn nearest_rank_quantiles() {
        let v = [1u32, 1, 1, 1, 1, 1, 1, 1, 1, 3];
        assert_eq!(quantile(&v, 0.9), Some(1));
        assert_eq!(quantile(&v, 0.91), Some(3));
        assert_eq!(quantile(&[5u32, 2, 9], 0.5), Some(5));
        assert_eq!(quantile(&[4u32], 0.99), Some(4));
        assert_eq!(quantile::<u32>(&[], 0.5), None);
    }
}
