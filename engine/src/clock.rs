//! Time sources. The store reads time only through a [`Clock`], so tests and replays can fix it.

use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::row::Millis;

/// A source of wall-clock time in milliseconds since the Unix epoch.
pub trait Clock: Send + Sync + std::fmt::Debug {
    /// The current time.
    fn now(&self) -> Millis;
}

/// The operating system's clock.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Millis {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_millis() as Millis)
            .unwrap_or(0)
    }
}

/// A clock that moves only when told to: for tests, replays and benchmarks.
#[derive(Debug, Default)]
pub struct ManualClock(AtomicI64);

impl ManualClock {
    /// A clock that reads `start`.
    pub fn new(start: Millis) -> Self {
        ManualClock(AtomicI64::new(start))
    }
    /// Sets the time.
    pub fn set(&self, t: Millis) {
        self.0.store(t, Ordering::SeqCst);
    }
    /// The time it reads now.
    pub fn now_ms(&self) -> Millis {
        self.0.load(Ordering::SeqCst)
    }
    /// Moves the time forward by `ms`.
    pub fn advance(&self, ms: Millis) {
        self.0.fetch_add(ms, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Millis {
        self.0.load(Ordering::SeqCst)
    }
}
