//! Salts and key material.
//!
//! Salts are drawn from a blake3 extendable-output stream keyed by a 32-byte seed. The seed comes
//! from the operating system unless the caller fixes it (tests, reproducible benchmarks), in which
//! case the same operations produce the same salts and so the same event hashes.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::{Error, Result};

/// A deterministic random byte stream seeded once. Drawing takes `&self` (the position is an
/// atomic counter), so that a write transaction draws salts while readers share the store; the
/// store's single writer makes the order of draws, and so the stream, deterministic.
#[derive(Debug)]
pub struct Entropy {
    seed: [u8; 32],
    counter: AtomicU64,
}

impl Entropy {
    /// Seeds from the operating system.
    pub fn from_os() -> Result<Self> {
        Ok(Self::from_seed(os_random()?))
    }

    /// Seeds from `seed`: same seed, same stream.
    pub fn from_seed(seed: [u8; 32]) -> Self {
        Entropy {
            seed,
            counter: AtomicU64::new(0),
        }
    }

    /// The next 32 random bytes.
    pub fn next32(&self) -> [u8; 32] {
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        self.at(n)
    }

    /// What the `n`-th following call to [`Entropy::next32`] will return (`n = 0`: the next),
    /// without drawing it: a batch computes its rows' salts on several threads, then draws them
    /// with [`Entropy::skip`] as it writes each row, so the stream ends where drawing them one by
    /// one would leave it.
    pub fn ahead32(&self, n: u64) -> [u8; 32] {
        self.at(self.counter.load(Ordering::Relaxed) + n)
    }

    /// Draws `n` values without computing them (see [`Entropy::ahead32`]).
    pub fn skip(&self, n: u64) {
        self.counter.fetch_add(n, Ordering::Relaxed);
    }

    /// The value at position `n` of the stream.
    fn at(&self, n: u64) -> [u8; 32] {
        let mut h = blake3::Hasher::new_keyed(&self.seed);
        h.update(b"oubli entropy v1");
        h.update(&n.to_le_bytes());
        *h.finalize().as_bytes()
    }
}

/// 32 bytes from the operating system's random source.
pub fn os_random() -> Result<[u8; 32]> {
    let mut out = [0u8; 32];
    getrandom::fill(&mut out).map_err(|e| Error::Io(std::io::Error::other(e.to_string())))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ahead_then_skip_gives_what_drawing_one_by_one_gives() {
        let drawn = Entropy::from_seed([5; 32]);
        let ahead = Entropy::from_seed([5; 32]);
        drawn.next32();
        ahead.next32();
        let expected: Vec<[u8; 32]> = (0..5).map(|_| drawn.next32()).collect();
        let peeked: Vec<[u8; 32]> = (0..5).map(|n| ahead.ahead32(n)).collect();
        assert_eq!(peeked, expected);
        ahead.skip(5);
        assert_eq!(ahead.next32(), drawn.next32());
    }
}
