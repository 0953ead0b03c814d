//! How a store is opened: embedder, clock, keys, thresholds.

use std::sync::Arc;

use crate::clock::{Clock, SystemClock};
use crate::embed::Embedder;

/// Default number of vectors below which recall scans vectors exactly.
pub const DEFAULT_ANN_THRESHOLD: usize = 20_000;

/// Options for [`crate::Store::create_with`] and [`crate::Store::open_with`].
#[derive(Clone)]
pub struct StoreOptions {
    pub(crate) embedder: Arc<dyn Embedder>,
    /// The caller chose the embedder (else an existing store reopens with its built-in one).
    pub(crate) embedder_chosen: bool,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) seed: Option<[u8; 32]>,
    pub(crate) signing_key: Option<[u8; 32]>,
    pub(crate) read_only: bool,
    pub(crate) ann_threshold: usize,
    pub(crate) scrub_on_purge: bool,
    pub(crate) durable: bool,
    pub(crate) planner: Option<Arc<dyn crate::planner::Planner>>,
    pub(crate) replica: bool,
    pub(crate) vector_build_threads: usize,
    pub(crate) defer_vector_graph: bool,
    pub(crate) text_segment_docs: usize,
    pub(crate) min_confidence: crate::store::Confidence,
}

impl Default for StoreOptions {
    fn default() -> Self {
        StoreOptions {
            embedder: crate::embed::default_embedder(),
            embedder_chosen: false,
            clock: Arc::new(SystemClock),
            seed: None,
            signing_key: None,
            read_only: false,
            ann_threshold: DEFAULT_ANN_THRESHOLD,
            scrub_on_purge: true,
            durable: true,
            planner: None,
            replica: false,
            vector_build_threads: 1,
            defer_vector_graph: false,
            text_segment_docs: crate::index::text::SEGMENT_DOCS,
            min_confidence: crate::store::Confidence::Low,
        }
    }
}

impl std::fmt::Debug for StoreOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StoreOptions")
            .field("embedder", &self.embedder.id())
            .field("clock", &self.clock)
            .field("seeded", &self.seed.is_some())
            .field("external_key", &self.signing_key.is_some())
            .field("read_only", &self.read_only)
            .field("ann_threshold", &self.ann_threshold)
            .field("scrub_on_purge", &self.scrub_on_purge)
            .field("replica", &self.replica)
            .field("durable", &self.durable)
            .field("planner", &self.planner.is_some())
            .field("vector_build_threads", &self.vector_build_threads)
            .field("defer_vector_graph", &self.defer_vector_graph)
            .field("text_segment_docs", &self.text_segment_docs)
            .field("min_confidence", &self.min_confidence)
            .finish()
    }
}

impl StoreOptions {
    /// Uses `embedder` for texts inscribed without a vector and for queries. A store remembers
    /// its embedder's id and refuses to open with another.
    ///
    /// Without this call a new store uses the built-in [`crate::StaticEmbedder`], and an
    /// existing store created with a built-in embedder (static or hash) reopens with that one.
    pub fn embedder(mut self, embedder: Arc<dyn Embedder>) -> Self {
        self.embedder = embedder;
        self.embedder_chosen = true;
        self
    }

    /// Reads time from `clock` (a [`crate::ManualClock`] in tests and replays).
    pub fn clock(mut self, clock: Arc<dyn Clock>) -> Self {
        self.clock = clock;
        self
    }

    /// Draws salts from a stream seeded with `seed` instead of the operating system, so the same
    /// operations give byte-identical logs. For tests and reproducible benchmarks only: anyone
    /// who knows the seed can recompute the salts.
    pub fn deterministic_seed(mut self, seed: [u8; 32]) -> Self {
        self.seed = Some(seed);
        self
    }

    /// Signs with this ed25519 secret key. At creation, the file then keeps only the public key
    /// and every later writable open must supply the same key; without it, the store generates a
    /// key and keeps it in the file.
    pub fn signing_key(mut self, secret: [u8; 32]) -> Self {
        self.signing_key = Some(secret);
        self
    }

    /// Opens without a writer: every mutating call returns [`crate::Error::ReadOnly`]. The handle
    /// reads a private in-memory copy of the file, checked page by page, taken without a lock: it
    /// never blocks a writer in another process, needs no write permission, works on a store that
    /// was not closed cleanly (recovered in the copy only), and sees the state as of its open.
    pub fn read_only(mut self, yes: bool) -> Self {
        self.read_only = yes;
        self
    }

    /// The most rows a segment of the text index holds (at least 2; default
    /// [`crate::index::text::SEGMENT_DOCS`]). A purge rewrites every segment that held one of its
    /// rows, so this bounds a purge's text cost at any store size; a search visits every
    /// segment, so a store holds `rows / n` to `2 * rows / n` segments and a smaller cap makes
    /// recall slower on a large store (docs/performance.md, issue 16, thirteenth pass). It
    /// changes how rows are grouped into segments, never which rows a search finds or their
    /// scores. Segments larger than a new cap stay until erasures shrink them.
    pub fn text_segment_docs(mut self, n: usize) -> Self {
        self.text_segment_docs = n.max(2);
        self
    }

    /// Number of vectors newer than the ANN snapshot above which a new snapshot is built
    /// (default 20,000). It also sizes the snapshot's graph segments: a segment holds
    /// [`crate::index::vector::SEGMENT_THRESHOLDS`] thresholds' worth of vectors before the
    /// next one starts.
    pub fn ann_threshold(mut self, n: usize) -> Self {
        self.ann_threshold = n.max(1);
        self
    }

    /// Threads the vector graph (HNSW) is built on, in the background build and in a scrub or
    /// repair that rebuilds it (at least one; default one, so that the same operations give the
    /// same graph; [`crate::index::vector::default_build_threads`] is the machine's parallelism,
    /// at most 8). The graph holds the same rows and the same quantized vectors at the same log
    /// position on any thread count, and the log, the rows and every hash do not depend on it;
    /// with several threads the graph's links depend on the threads' timing, so two stores given
    /// the same operations can answer an approximate vector search with a different
    /// near-duplicate now and then (docs/performance.md, issue 16, ninth pass). With 1, the graph
    /// is the same bytes for the same operations, at the cost of the build's speed.
    pub fn vector_build_threads(mut self, n: usize) -> Self {
        self.vector_build_threads = n.max(1);
        self
    }

    /// Defers the vector graph's growth to [`crate::Store::build_vector_graph`] (default
    /// false). By default, once a store holds more than the ANN threshold of vectors, writes grow
    /// the graph (HNSW) in the background, and a write waits for a growth step that has fallen
    /// half a threshold behind, so that the exact scan of the vectors newer than the graph stays
    /// short: on two cores a sustained load then runs at the graph's pace (about 2,000 rows/s at
    /// 1M rows, docs/performance.md). Deferred, writes neither start nor wait for the graph:
    /// new vectors are scanned exactly by every recall (correct, but its cost grows with them)
    /// until `build_vector_graph` links them. For bulk loads: load deferred, then build once.
    /// The graph then changes only at those calls, so a store given the same operations holds
    /// the same graph at the same log position, as it does by default.
    pub fn defer_vector_graph(mut self, yes: bool) -> Self {
        self.defer_vector_graph = yes;
        self
    }

    /// Whether each commit waits for the disk (fsync; the default). With `false`, commits are
    /// atomic and visible at once but reach the disk only with a later durable commit or on
    /// close: a crash can lose the most recent writes, never corrupt the file. Scrub's rewrite of
    /// the file is always durable. For scratch stores, tests and bulk loads.
    pub fn durable(mut self, yes: bool) -> Self {
        self.durable = yes;
        self
    }

    /// Opens the store as a replica (default false): it appends events only by applying its
    /// leader's frames ([`crate::Store::apply_frame`]), refuses every write of its own with
    /// [`crate::replication::ReplicationError::Replica`], and completes no purge on open (the
    /// leader's completion arrives as a frame). A replica opens writable, so it needs the
    /// leader's signing key ([`StoreOptions::signing_key`]), which is also what lets it take over:
    /// reopened without this option, it is a leader.
    pub fn replica(mut self, yes: bool) -> Self {
        self.replica = yes;
        self
    }

    /// Whether `purge` runs [`crate::Store::scrub`] before returning (default true). Turn it off
    /// to batch many purges and scrub once; the receipt then records that erasure is pending.
    pub fn scrub_on_purge(mut self, yes: bool) -> Self {
        self.scrub_on_purge = yes;
        self
    }

    /// Consults `planner` when a supersede, release or purge targets rows by query (see
    /// [`crate::planner`]). The engine validates every plan and falls back to its deterministic
    /// resolution when a plan is malformed or invalid. Recall never calls the planner.
    pub fn planner(mut self, planner: Arc<dyn crate::planner::Planner>) -> Self {
        self.planner = Some(planner);
        self
    }

    /// The least [`crate::Confidence`] a query's match needs for a forgetting call (supersede,
    /// release, pin, resurface, purge) to act on it; a call whose every match is graded below
    /// is [`crate::Error::NoMatch`], and [`crate::Store::plan`] plans nothing, each with the
    /// rows set aside as candidates and why. Default [`crate::Confidence::Low`]: the call acts
    /// on the engine's best reading, and each plan grades it. `Medium` refuses a supersede
    /// whose request's words reached no row (the engine's fallbacks choose by the kind of the
    /// new value, by meaning or by relatedness); `High` acts only on rows holding every unit of
    /// the request's evidence. Targets by id or key are always `High`. The measured trade-off
    /// on the blind banks and the safety probe is in docs/conformance.md.
    pub fn min_confidence(mut self, floor: crate::Confidence) -> Self {
        self.min_confidence = floor;
        self
    }

    /// The planner and confidence floor query targeting resolves with.
    pub(crate) fn policy(&self) -> crate::store::Policy<'_> {
        crate::store::Policy {
            planner: self.planner.as_deref(),
            floor: self.min_confidence,
        }
    }
}
