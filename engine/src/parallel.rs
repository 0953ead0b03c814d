//! Order-preserving parallel map for per-row work whose result depends on the row alone.
//!
//! A batch write computes some things for each row that need nothing but the row (its vector
//! from a built-in embedder, its canonical match keys). [`map`] computes them on several threads
//! and returns them in input order, so the caller applies them exactly as a sequential loop
//! would: the same inputs give the same results, events and files on any thread count. Work that
//! depends on what came before (ids, salts, the hash chain, redb inserts) stays sequential in the
//! caller.

use std::cell::Cell;
use std::num::NonZeroUsize;
use std::sync::OnceLock;

/// Items below which [`map`] stays on the calling thread (spawning costs more than it saves).
pub const MIN_ITEMS_PER_THREAD: usize = 128;

/// Threads [`map`] uses at most: the machine's available parallelism, at most 8, unless
/// `with_threads` (tests) set another count for the calling thread.
pub fn max_threads() -> usize {
    let set = THREADS.with(Cell::get);
    if set > 0 {
        return set;
    }
    available_threads()
}

/// The machine's available parallelism, at most 8, read once per process (the standard
/// library reads the cgroup quota files on every call, which costs more than a small batch's
/// work).
pub fn available_threads() -> usize {
    static AVAILABLE: OnceLock<usize> = OnceLock::new();
    *AVAILABLE.get_or_init(|| {
        std::thread::available_parallelism()
            .map(NonZeroUsize::get)
            .unwrap_or(1)
            .min(8)
    })
}

thread_local! {
    /// The thread count `with_threads` set for this thread (0: the default).
    static THREADS: Cell<usize> = const { Cell::new(0) };
}

/// Runs `f` with every [`map`] it makes on the calling thread using at most `threads` threads
/// (at least one): the determinism tests write the same rows on one thread and on several and
/// compare the logs.
#[cfg(test)]
pub fn with_threads<R>(threads: usize, f: impl FnOnce() -> R) -> R {
    let before = THREADS.with(|t| t.replace(threads.max(1)));
    let r = f();
    THREADS.with(|t| t.set(before));
    r
}

/// `items.iter().map(f).collect()`, computed on up to [`max_threads`] threads in contiguous
/// chunks of at least [`MIN_ITEMS_PER_THREAD`] items; the output is in input order whatever the
/// thread count. `f` must depend on its item only for the result to be deterministic.
pub fn map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    map_with(items, max_threads(), f)
}

/// [`map`] on at most `threads` threads (at least one).
pub fn map_with<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    map_chunked(items, threads, MIN_ITEMS_PER_THREAD, f)
}

/// Estimated work below which [`map_costly`] keeps the rest of its items on the calling thread:
/// a thread costs tens of microseconds to start and join, so splitting less would only slow the
/// map down.
const SPLIT_WORTH_NANOS: u128 = 500_000;

/// [`map`] for items that may each cost milliseconds (a search in a large store, not a row):
/// every item may get a thread of its own, up to [`max_threads`]. The first item runs on the
/// calling thread and is timed; when the rest would take less than [`SPLIT_WORTH_NANOS`] at
/// that pace (a search in a small store), they stay on the calling thread too. Only the thread
/// count depends on the timing, never the output.
pub fn map_costly<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = max_threads();
    let Some((first, rest)) = items.split_first() else {
        return Vec::new();
    };
    if threads == 1 || rest.is_empty() {
        return items.iter().map(f).collect();
    }
    let start = std::time::Instant::now();
    let mut out = Vec::with_capacity(items.len());
    out.push(f(first));
    let estimate = start
        .elapsed()
        .as_nanos()
        .saturating_mul(rest.len() as u128);
    if estimate < SPLIT_WORTH_NANOS {
        out.extend(rest.iter().map(&f));
    } else {
        out.extend(map_chunked(rest, threads, 1, &f));
    }
    out
}

/// [`map`] on at most `threads` threads, each given at least `min_per_thread` items.
fn map_chunked<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    min_per_thread: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let threads = threads
        .max(1)
        .min(items.len().div_ceil(min_per_thread.max(1)).max(1));
    if threads == 1 {
        return items.iter().map(f).collect();
    }
    let chunk = items.len().div_ceil(threads);
    let f = &f;
    std::thread::scope(|s| {
        let mut chunks = items.chunks(chunk);
        // The calling thread takes the first chunk itself.
        let first = chunks.next().unwrap_or(&[]);
        let handles: Vec<_> = chunks
            .map(|c| s.spawn(move || c.iter().map(f).collect::<Vec<R>>()))
            .collect();
        let mut out: Vec<R> = first.iter().map(f).collect();
        out.reserve(items.len() - out.len());
        for h in handles {
            match h.join() {
                Ok(part) => out.extend(part),
                // A panic in `f` is the caller's panic, as in a sequential loop.
                Err(p) => std::panic::resume_unwind(p),
            }
        }
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn same_output_in_input_order_on_any_thread_count(
            items in proptest::collection::vec(any::<u32>(), 0..1200),
            threads in 1usize..9,
        ) {
            let seq: Vec<u64> = items.iter().map(|&x| u64::from(x) * 3 + 1).collect();
            let par = map_with(&items, threads, |&x| u64::from(x) * 3 + 1);
            prop_assert_eq!(&seq, &par);
            let costly = with_threads(threads, || map_costly(&items, |&x| u64::from(x) * 3 + 1));
            prop_assert_eq!(seq, costly);
        }
    }
}
