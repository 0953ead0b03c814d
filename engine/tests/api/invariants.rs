//! Property tests of the depth invariants: void is absorbing, decay is monotone, one transition
//! is one event, and replaying the log reproduces every depth and the live set.

use crate::common;

use std::collections::BTreeMap;

use common::*;
use oubli::{DecayPolicy, Depth, Error, EventKind, Inscription, ListQuery, Target};
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Op {
    Inscribe(u8),
    Supersede(u8, u8),
    Release(u8),
    Pin(u8),
    Resurface(u8),
    Purge(u8),
    Advance(u16),
    Sweep,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => any::<u8>().prop_map(Op::Inscribe),
        2 => (any::<u8>(), any::<u8>()).prop_map(|(a, b)| Op::Supersede(a, b)),
        2 => any::<u8>().prop_map(Op::Release),
        1 => any::<u8>().prop_map(Op::Pin),
        1 => any::<u8>().prop_map(Op::Resurface),
        1 => any::<u8>().prop_map(Op::Purge),
        2 => any::<u16>().prop_map(Op::Advance),
        2 => Just(Op::Sweep),
    ]
}

/// Orders depths so that "rising" has a meaning: void < 0 <= level <= 1 < pinned.
fn rank(d: Depth) -> f64 {
    match d {
        Depth::Void => -1.0,
        Depth::Level(x) => x,
        Depth::Pinned => 2.0,
    }
}

/// Errors a random op may legitimately get (and which must change nothing).
fn expected(e: &Error) -> bool {
    matches!(
        e,
        Error::Purged(_)
            | Error::InvalidTransition { .. }
            | Error::DuplicateKey { .. }
            | Error::NoMatch(_)
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

    #[test]
    fn depth_invariants_hold(ops in proptest::collection::vec(op(), 1..40)) {
        let t = temp();
        let (s, clock) = create_fixed(&t);
        s.set_decay_policy("default", Some(DecayPolicy {
            half_life_ms: Some(5_000),
            ..Default::default()
        })).unwrap();
        let mut ids: Vec<u64> = Vec::new();
        let mut voided: Vec<u64> = Vec::new();
        let pick = |ids: &Vec<u64>, i: u8| ids.get(i as usize % ids.len().max(1)).copied();
        for op in ops {
            let head = s.head().unwrap();
            let r: oubli::Result<()> = match op {
                Op::Inscribe(n) => s.inscribe(Inscription::new(format!("fact number {n} about topic {}", n % 7)))
                    .map(|id| ids.push(id)),
                Op::Supersede(a, n) => match pick(&ids, a) {
                    Some(id) => s.supersede(Target::id(id), Inscription::new(format!("revised fact {n}")))
                        .map(|r| ids.push(r.new_id)),
                    None => Ok(()),
                },
                Op::Release(a) => pick(&ids, a).map_or(Ok(()), |id| s.release(Target::id(id)).map(|_| ())),
                Op::Pin(a) => pick(&ids, a).map_or(Ok(()), |id| s.pin(Target::id(id)).map(|_| ())),
                Op::Resurface(a) => pick(&ids, a).map_or(Ok(()), |id| s.resurface(Target::id(id)).map(|_| ())),
                Op::Purge(a) => pick(&ids, a).map_or(Ok(()), |id| s.purge(Target::id(id)).map(|r| voided.extend(r.erased))),
                Op::Advance(ms) => { clock.advance(ms as i64 * 10); Ok(()) }
                Op::Sweep => s.sweep().map(|_| ()),
            };
            if let Err(e) = r {
                prop_assert!(expected(&e), "unexpected error {e:?}");
                prop_assert_eq!(s.head().unwrap(), head, "a failed call wrote to the log");
            }
            // Void is absorbing and leaves no text.
            for id in &voided {
                let row = s.get(*id).unwrap();
                prop_assert!(row.depth.is_void());
                prop_assert!(row.text.is_none() && row.key.is_none() && row.metadata.is_empty());
            }
        }
        let (head, _) = s.head().unwrap();
        let events = s.events(1, head).unwrap();
        // One transition, one event: each row's transitions chain exactly, and rises happen
        // only by pin or resurface.
        let mut replay: BTreeMap<u64, Depth> = BTreeMap::new();
        for ev in &events {
            for tr in &ev.transitions {
                let prev = replay.get(&tr.row).copied();
                prop_assert_eq!(prev, tr.before, "transition of row {} does not chain", tr.row);
                if let Some(b) = tr.before {
                    if rank(tr.after) > rank(b) {
                        prop_assert!(matches!(ev.kind, EventKind::Pin | EventKind::Resurface),
                            "depth rose in a {:?} event", ev.kind);
                    }
                    if matches!(ev.kind, EventKind::Decay | EventKind::Expire) {
                        prop_assert!(rank(tr.after) < rank(b), "decay must sink");
                    }
                }
                replay.insert(tr.row, tr.after);
            }
        }
        // Replay reproduces every row's depth and the live set, byte for byte.
        for (id, d) in &replay {
            let row = s.get(*id).unwrap();
            prop_assert_eq!(row.depth.encode(), d.encode(), "row {} depth differs from replay", id);
        }
        let live: Vec<u64> = s.list(&ListQuery { include_expired: true, ..Default::default() })
            .unwrap().into_iter().map(|r| r.id).collect();
        let replay_live: Vec<u64> = replay.iter().filter(|(_, d)| d.is_live()).map(|(id, _)| *id).collect();
        prop_assert_eq!(live, replay_live);
        prop_assert_eq!(replay.len(), ids.len());
        s.verify_log(None).unwrap();
    }
}
