//! Packing: which candidate lines fit the budget, with the header counted inside it.

use std::collections::BTreeSet;

use super::note::LineKind;
use super::text::header;
use crate::error::{Error, Result};
use crate::row::RowId;

/// A line a note may carry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Candidate {
    pub(crate) id: RowId,
    pub(crate) kind: LineKind,
    pub(crate) line: String,
}

/// The packing: which candidates are kept, and the header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Packed {
    pub(crate) kept: Vec<usize>,
    pub(crate) header: String,
}

/// Header of a selection of `cands` (indices into it).
fn header_of(
    cands: &[Candidate],
    sel: &[usize],
    others_total: usize,
    with_derived: bool,
) -> String {
    let kept: BTreeSet<usize> = sel.iter().copied().collect();
    let count = |kind| sel.iter().filter(|i| cands[**i].kind == kind).count();
    let n = cands
        .iter()
        .filter(|c| c.kind == LineKind::Determining)
        .count();
    let dropped: Vec<RowId> = cands
        .iter()
        .enumerate()
        .filter(|(i, c)| c.kind == LineKind::Determining && !kept.contains(i))
        .map(|(_, c)| c.id)
        .collect();
    header(
        count(LineKind::Determining),
        n,
        (count(LineKind::Other), others_total),
        with_derived.then(|| count(LineKind::Derived)),
        &dropped,
    )
}

/// Fills `budget` bytes greedily in candidate order (whole lines; a line that does not fit is
/// skipped and later, shorter ones are tried), with the header counted inside the budget. The
/// header depends on what was kept, so the packing repeats with the header's actual size
/// reserved until the two agree. Always `header.len() + kept lines <= budget`.
pub(crate) fn pack(
    cands: &[Candidate],
    budget: usize,
    others_total: usize,
    with_derived: bool,
) -> Result<Packed> {
    let empty = header_of(cands, &[], others_total, with_derived);
    let all: Vec<usize> = (0..cands.len()).collect();
    let mut reserve = header_of(cands, &all, others_total, with_derived).len();
    loop {
        let Some(avail) = budget.checked_sub(reserve) else {
            if empty.len() <= budget {
                return Ok(Packed {
                    kept: Vec::new(),
                    header: empty,
                });
            }
            return Err(Error::BudgetTooSmall {
                budget,
                needed: empty.len(),
            });
        };
        let mut used = 0usize;
        let mut sel = Vec::new();
        for (i, c) in cands.iter().enumerate() {
            if used + c.line.len() <= avail {
                used += c.line.len();
                sel.push(i);
            }
        }
        let h = header_of(cands, &sel, others_total, with_derived);
        if h.len() + used <= budget {
            return Ok(Packed {
                kept: sel,
                header: h,
            });
        }
        reserve = (reserve + 1).max(h.len());
    }
}

#[cfg(test)]
mod tests {
    use super::super::INCOMPLETE_MARK;
    use super::super::text::line;
    use super::*;
    use proptest::prelude::*;

    fn cands(lens: &[(usize, u8)]) -> Vec<Candidate> {
        lens.iter()
            .enumerate()
            .map(|(i, (len, kind))| {
                let kind = match kind % 3 {
                    0 => LineKind::Determining,
                    1 => LineKind::Other,
                    _ => LineKind::Derived,
                };
                let id = i as RowId + 1;
                let body = "x".repeat(*len);
                Candidate {
                    id,
                    kind,
                    line: line(id, kind, &body, None),
                }
            })
            .collect()
    }

    #[test]
    fn too_small_a_budget_is_a_typed_error() {
        let c = cands(&[(10, 0)]);
        assert!(matches!(
            pack(&c, 20, 0, false),
            Err(Error::BudgetTooSmall { budget: 20, .. })
        ));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// The note never exceeds its budget, k == N iff the header says complete, and the
        /// packing is a function of its input.
        #[test]
        fn pack_respects_budget_and_marks_completeness(
            lens in prop::collection::vec((0usize..120, 0u8..3), 0..40),
            budget in 0usize..2000,
        ) {
            let c = cands(&lens);
            let others = c.iter().filter(|c| c.kind == LineKind::Other).count();
            match pack(&c, budget, others, true) {
                Ok(p) => {
                    let size = p.header.len() + p.kept.iter().map(|i| c[*i].line.len()).sum::<usize>();
                    prop_assert!(size <= budget);
                    let n = c.iter().filter(|c| c.kind == LineKind::Determining).count();
                    let k = p.kept.iter().filter(|i| c[**i].kind == LineKind::Determining).count();
                    prop_assert_eq!(k == n, p.header.ends_with("; complete\n"));
                    prop_assert_eq!(k < n, p.header.contains(INCOMPLETE_MARK));
                    prop_assert_eq!(pack(&c, budget, others, true).unwrap(), p);
                }
                Err(Error::BudgetTooSmall { needed, .. }) => {
                    prop_assert!(needed > budget);
                    prop_assert_eq!(needed, header_of(&c, &[], others, true).len());
                }
                Err(e) => prop_assert!(false, "unexpected error {e}"),
            }
        }

        /// Lines are kept in order of preference: every kept answer-determining source comes
        /// before every kept other source, which comes before every kept derived value.
        #[test]
        fn kept_lines_follow_the_order_of_preference(
            lens in prop::collection::vec((1usize..60, 0u8..3), 1..30),
            budget in 150usize..1500,
        ) {
            let mut c = cands(&lens);
            c.sort_by_key(|c| (c.kind as u8, c.id));
            let others = c.iter().filter(|c| c.kind == LineKind::Other).count();
            if let Ok(p) = pack(&c, budget, others, true) {
                let tiers: Vec<u8> = p.kept.iter().map(|i| c[*i].kind as u8).collect();
                prop_assert!(tiers.windows(2).all(|w| w[0] <= w[1]));
            }
        }
    }
}
