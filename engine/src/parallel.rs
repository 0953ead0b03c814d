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

/// Items below which [`map`] stays on the calling thread (spawning costs more than it saves).
pub const MIN_ITEMS_PER_THREAD: usize = 128;

/// Threads [`map`] uses at most: the machine's available parallelism, at most 8, unless
/// `with_threads` (tests) set another count for the calling thread.
pub fn max_threads() -> usize {
    let set = THREADS.with(Cell::get);
    if set > 0 {
        return set;
    }
    std::thread::available_parallelism()
        .map(NonZeroUsize::get)
        .unwrap_or(1)
        .min(8)
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

/// [`map`] for items that each cost milliseconds (a search, not a row): every item may get a
/// thread of its own, up to [`max_threads`].
pub fn map_costly<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    map_chunked(items, max_threads(), 1, f)
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
