//! The match-key index: where query targeting finds the rows that share a canonical match key
//! ([`super::keys`]) with its query.
//!
//! Each row's keys are stored as 32-bit hashes, one record per row in the [`MATCH_KEYS`] table
//! (`row id -> u32 little-endian hashes`), and inverted in memory the first time a forgetting
//! call looks a key up. Keeping them out of the tantivy index matters for erasure and for bulk
//! loads: almost every key is one row's own (its names, identifiers, codes), so in a tantivy
//! field they were most of a segment's term dictionary, which a purge rewrites and a batch
//! builds. Here a purge deletes one record, whose page the freeing commit zeroes, and a batch
//! appends one record per row.
//!
//! The table is derived data, with the text index's consistency rules (see [`super::text`]):
//! changes are staged in memory and written in the store's next write transaction
//! ([`KeyIndex::stage_into`]), a store re-indexes rows newer than the text index on open, and
//! the whole table is rebuilt whenever the text index is. Record 0 holds [`version_marker`], the
//! format and the canonicalizer version the keys were computed with: a store whose marker
//! differs rebuilds its text index, keys included, on open. No record key is ever anything but
//! a row id, so no B-tree separator holds a key hash.
//!
//! Ranking: a row's score is the sum, over the distinct query keys it holds, of the key's BM25
//! IDF, `ln(1 + (N - n + 0.5) / (n + 0.5))` for a key in `n` of the index's `N` rows. A row
//! holds each key once, so term frequency plays no part, and lengths are not normalized: keys
//! find candidates, which targeting then verifies against the row's text.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use parking_lot::Mutex;

use crate::error::{Error, Result};
use crate::row::RowId;
use crate::storage::{self, Db, MATCH_KEYS};

/// The format of the table's records; part of [`version_marker`].
const FORMAT: &str = "oubli-match-keys-v2";

/// The record key of the version marker (row ids start at 1).
const MARKER: u64 = 0;

/// Record 0 of the table: the record format and the canonicalizer version the keys follow.
pub fn version_marker() -> String {
    format!("{FORMAT} {}", crate::canon::CANONICALIZER_VERSION)
}

/// The stored form of a match key: MurmurHash3 (x86, 32 bits, seed 0) of its UTF-8 bytes. A
/// collision only adds candidates, which targeting verifies against their text: in a store of
/// ten million distinct keys, about one query key in 430 meets another key's rows. The hash is
/// not a secret (nor was format 1's truncated blake3: 32 bits of a short key are found by trying
/// keys either way); a purged row's record is deleted, and the freeing commit zeroes its page.
pub fn hash_key(key: &str) -> u32 {
    murmurhash32::murmurhash3_with_seed::<0>(key.as_bytes())
}

/// The hashes of the match keys of `text` ([`super::keys::row_keys`]), in key order.
pub fn row_key_hashes(text: &str) -> Vec<u32> {
    super::keys::row_keys(text)
        .iter()
        .map(|k| hash_key(k))
        .collect()
}

/// A row's record: its hashes, little-endian, in order.
pub fn encode(hashes: &[u32]) -> Vec<u8> {
    hashes.iter().flat_map(|h| h.to_le_bytes()).collect()
}

fn decode(id: RowId, bytes: &[u8]) -> Result<Arc<[u32]>> {
    if !bytes.len().is_multiple_of(4) {
        return Err(Error::Corrupt(format!(
            "match keys of row {id}: {} bytes, not a multiple of 4",
            bytes.len()
        )));
    }
    Ok(bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap_or_default()))
        .collect())
}

/// `hashes` without repeats (two keys of one row may share a 32-bit hash).
fn distinct(hashes: &[u32]) -> Vec<u32> {
    let mut d = hashes.to_vec();
    d.sort_unstable();
    d.dedup();
    d
}

/// True when the table in `db` holds keys of this version ([`version_marker`]): false when it
/// is absent, has no marker, or another one.
pub fn is_current(db: &Db) -> Result<bool> {
    let tx = db.begin_read()?;
    let Some(t) = storage::open_read(&tx, MATCH_KEYS)? else {
        return Ok(false);
    };
    Ok(t.get(MARKER)?
        .is_some_and(|v| v.value() == version_marker().as_bytes()))
}

/// A change to one row's record, not yet written.
struct Pending {
    /// Distinguishes successive changes of one row (see [`KeyIndex::committed`]).
    generation: u64,
    /// The row's hashes; `None`: the record is deleted.
    hashes: Option<Arc<[u32]>>,
}

/// One (key hash, row) pair of the inverted index, packed as `hash << 32 | row` so that sorted
/// pairs group by hash: 8 bytes a pair, for rows whose id fits 32 bits.
type Pair = u64;

fn pack(hash: u32, id: RowId) -> Option<Pair> {
    u32::try_from(id)
        .ok()
        .map(|row| (u64::from(hash) << 32) | u64::from(row))
}

fn pair_hash(p: Pair) -> u32 {
    (p >> 32) as u32
}

fn pair_row(p: Pair) -> RowId {
    p & u64::from(u32::MAX)
}

/// A level's pairs of `hash`: its run in the sorted level.
fn run(level: &[Pair], hash: u32) -> &[Pair] {
    let lo = u64::from(hash) << 32;
    let start = level.partition_point(|&p| p < lo);
    let len = level[start..].partition_point(|&p| pair_hash(p) == hash);
    &level[start..start + len]
}

/// Merges two sorted levels, leaving out the pairs in `removed` (and taking them out of it).
fn merge(a: &[Pair], b: &[Pair], removed: &mut HashSet<Pair>) -> Vec<Pair> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let p = if j == b.len() || (i < a.len() && a[i] <= b[j]) {
            i += 1;
            a[i - 1]
        } else {
            j += 1;
            b[j - 1]
        };
        if removed.is_empty() || !removed.remove(&p) {
            out.push(p);
        }
    }
    out
}

/// The inverted index: every (key hash, row) pair, in a compact form that holds a million-row
/// store's pairs (tens of millions) in 8 bytes each, where a map from each hash to its own list
/// of rows took several times that (almost every hash is one row's own).
///
/// The pairs live in two sorted levels and an unsorted tail of recent additions, a small
/// log-structured merge: an addition appends to the tail, and a lookup first sorts the tail
/// into the upper level, and that into the base once it outgrows an eighth of it, so a write
/// never pays for a merge and the merges' cost is amortized over the pairs they move. A
/// removal records the row's pairs in `removed`; they are skipped by lookups and dropped by
/// the next merge that meets them (a pair re-added before that is simply taken off `removed`).
/// Rows whose id does not fit 32 bits keep their pairs unpacked in `wide`.
#[derive(Default)]
struct Postings {
    base: Vec<Pair>,
    upper: Vec<Pair>,
    tail: Vec<Pair>,
    removed: HashSet<Pair>,
    wide: Vec<(u32, RowId)>,
}

impl Postings {
    /// Adds row `id`'s pairs; `hashes` are distinct, and the row holds none of them now.
    fn add(&mut self, id: RowId, hashes: &[u32]) {
        for &h in hashes {
            match pack(h, id) {
                Some(p) => {
                    if !self.removed.remove(&p) {
                        self.tail.push(p);
                    }
                }
                None => self.wide.push((h, id)),
            }
        }
    }

    /// Removes row `id`'s pairs; `hashes` are the ones it holds now.
    fn remove(&mut self, id: RowId, hashes: &[u32]) {
        for &h in hashes {
            match pack(h, id) {
                Some(p) => {
                    self.removed.insert(p);
                }
                None => self.wide.retain(|&w| w != (h, id)),
            }
        }
    }

    /// Sorts the tail into the upper level, and that into the base once it outgrows an eighth
    /// of it.
    fn settle(&mut self) {
        if !self.tail.is_empty() {
            let mut tail = std::mem::take(&mut self.tail);
            tail.sort_unstable();
            self.upper = merge(&self.upper, &tail, &mut self.removed);
        }
        if self.upper.len() > self.base.len() / 8 || self.removed.len() > self.base.len() / 8 {
            let upper = std::mem::take(&mut self.upper);
            self.base = merge(&self.base, &upper, &mut self.removed);
        }
    }

    /// The live rows holding `hash`, ascending within each level.
    fn rows_of(&self, hash: u32, out: &mut Vec<RowId>) {
        debug_assert!(self.tail.is_empty(), "settle before reading");
        for level in [&self.base, &self.upper] {
            for &p in run(level, hash) {
                if self.removed.is_empty() || !self.removed.contains(&p) {
                    out.push(pair_row(p));
                }
            }
        }
        out.extend(self.wide.iter().filter(|w| w.0 == hash).map(|w| w.1));
    }
}

/// What [`KeyIndex::stage_into`] wrote into a transaction; hand it to
/// [`KeyIndex::committed`] once that transaction commits.
#[derive(Debug, Default)]
pub struct StagedKeys {
    reset: bool,
    written: Vec<(RowId, u64)>,
}

/// The match-key index of one store (see the module docs).
pub struct KeyIndex {
    /// The store file; `None` for an index that lives in memory only.
    db: Option<Arc<Db>>,
    /// The table's committed records are void (the index is being rebuilt): reads ignore them,
    /// and the next staging deletes the table and writes the version marker.
    reset: bool,
    /// Changes not yet written, by row.
    pending: BTreeMap<RowId, Pending>,
    next_generation: u64,
    /// The inverted index, built on the first lookup and kept in step after that.
    postings: Mutex<Option<Postings>>,
}

impl KeyIndex {
    /// The index of the table in `db`. With `reset`, the table's records are ignored and
    /// replaced at the next staging (a rebuild follows).
    pub fn open(db: Arc<Db>, reset: bool) -> KeyIndex {
        KeyIndex {
            db: Some(db),
            reset,
            pending: BTreeMap::new(),
            next_generation: 0,
            postings: Mutex::new(None),
        }
    }

    /// An index held in memory only (a read-only handle's catch-up, a throwaway index).
    pub fn in_memory() -> KeyIndex {
        KeyIndex {
            db: None,
            reset: false,
            pending: BTreeMap::new(),
            next_generation: 0,
            postings: Mutex::new(Some(Postings::default())),
        }
    }

    fn stage(&mut self, id: RowId, hashes: Option<Arc<[u32]>>) {
        self.next_generation += 1;
        self.pending.insert(
            id,
            Pending {
                generation: self.next_generation,
                hashes,
            },
        );
    }

    /// Indexes row `id` under `hashes` ([`row_key_hashes`]); the row must not be in the index
    /// (remove it first when replacing).
    pub fn add(&mut self, id: RowId, hashes: Vec<u32>) {
        let hashes: Arc<[u32]> = hashes.into();
        if let Some(p) = self.postings.get_mut().as_mut() {
            p.add(id, &distinct(&hashes));
        }
        self.stage(id, Some(hashes));
    }

    /// Drops row `id` from the index; its record leaves the table at the next staging.
    pub fn remove(&mut self, id: RowId) -> Result<()> {
        if self.postings.get_mut().is_some()
            && let Some(old) = self.current(id)?
            && let Some(p) = self.postings.get_mut().as_mut()
        {
            p.remove(id, &distinct(&old));
        }
        self.stage(id, None);
        Ok(())
    }

    /// Empties the index: the table is replaced at the next staging by the rows added after
    /// this.
    pub fn reset(&mut self) {
        self.reset = self.db.is_some();
        self.pending.clear();
        *self.postings.get_mut() = Some(Postings::default());
    }

    /// The hashes row `id` is indexed under now: its pending change, else its record.
    fn current(&self, id: RowId) -> Result<Option<Arc<[u32]>>> {
        if let Some(p) = self.pending.get(&id) {
            return Ok(p.hashes.clone());
        }
        let Some(db) = self.db.as_ref().filter(|_| !self.reset) else {
            return Ok(None);
        };
        let tx = db.begin_read()?;
        let Some(t) = storage::open_read(&tx, MATCH_KEYS)? else {
            return Ok(None);
        };
        t.get(id)?.map(|v| decode(id, v.value())).transpose()
    }

    /// True when changes wait for a write transaction.
    pub fn has_staged(&self) -> bool {
        self.db.is_some() && (self.reset || !self.pending.is_empty())
    }

    /// Writes the pending changes into `tx` (the store's write transaction), in row order; they
    /// stay pending until [`KeyIndex::committed`] hears that `tx` committed.
    pub fn stage_into(&self, tx: &redb::WriteTransaction) -> Result<StagedKeys> {
        if !self.has_staged() {
            return Ok(StagedKeys::default());
        }
        if self.reset {
            // Deleting the table frees every page of the old records (zeroed by the freeing
            // commit), instead of leaving them to record-by-record deletes.
            tx.delete_table(MATCH_KEYS)?;
        }
        let mut t = tx.open_table(MATCH_KEYS)?;
        if self.reset {
            t.insert(MARKER, version_marker().as_bytes())?;
        }
        let mut written = Vec::with_capacity(self.pending.len());
        for (id, p) in &self.pending {
            match &p.hashes {
                Some(h) => {
                    t.insert(*id, encode(h).as_slice())?;
                }
                None => {
                    t.remove(*id)?;
                }
            }
            written.push((*id, p.generation));
        }
        Ok(StagedKeys {
            reset: self.reset,
            written,
        })
    }

    /// Forgets the changes `staged`'s transaction committed (a row changed again since stays
    /// pending).
    pub fn committed(&mut self, staged: StagedKeys) {
        if staged.reset {
            self.reset = false;
        }
        for (id, generation) in staged.written {
            if self
                .pending
                .get(&id)
                .is_some_and(|p| p.generation == generation)
            {
                self.pending.remove(&id);
            }
        }
    }

    /// The inverted index of the committed records with the pending changes over them. The
    /// records are read past redb's read cache (the postings are their copy).
    fn load(&self) -> Result<Postings> {
        let mut postings = Postings::default();
        for (id, hashes) in redb::without_read_cache(|| self.rows())? {
            postings.add(id, &distinct(&hashes));
        }
        postings.base = std::mem::take(&mut postings.tail);
        postings.base.sort_unstable();
        Ok(postings)
    }

    /// The top `limit` rows sharing a key with `keys` (match keys as [`super::keys`] writes
    /// them), best first (ties to the higher row id), scored as the module docs say over an
    /// index of `rows` rows.
    pub fn lookup(&self, keys: &[String], rows: u64, limit: usize) -> Result<Vec<(RowId, f32)>> {
        if keys.is_empty() || limit == 0 {
            return Ok(Vec::new());
        }
        let mut guard = self.postings.lock();
        if guard.is_none() {
            *guard = Some(self.load()?);
        }
        let Some(postings) = guard.as_mut() else {
            return Ok(Vec::new());
        };
        postings.settle();
        let n = rows as f32;
        let mut seen = HashSet::with_capacity(keys.len());
        let mut scores: HashMap<RowId, f32> = HashMap::new();
        let mut ids = Vec::new();
        for k in keys {
            let h = hash_key(k);
            if !seen.insert(h) {
                continue;
            }
            ids.clear();
            postings.rows_of(h, &mut ids);
            if ids.is_empty() {
                continue;
            }
            let df = ids.len() as f32;
            let idf = (1.0 + ((n - df).max(0.0) + 0.5) / (df + 0.5)).ln();
            for id in &ids {
                *scores.entry(*id).or_insert(0.0) += idf;
            }
        }
        let mut out: Vec<(RowId, f32)> = scores.into_iter().collect();
        let order = |a: &(RowId, f32), b: &(RowId, f32)| b.1.total_cmp(&a.1).then(b.0.cmp(&a.0));
        if out.len() > limit {
            out.select_nth_unstable_by(limit - 1, order);
            out.truncate(limit);
        }
        out.sort_unstable_by(order);
        Ok(out)
    }

    /// Every indexed row's hashes, in row order: the committed records with the pending changes
    /// over them (what the inverted index is built from).
    pub fn rows(&self) -> Result<BTreeMap<RowId, Arc<[u32]>>> {
        let mut out = BTreeMap::new();
        if let Some(db) = self.db.as_ref().filter(|_| !self.reset) {
            let tx = db.begin_read()?;
            if let Some(t) = storage::open_read(&tx, MATCH_KEYS)? {
                for e in t.range(MARKER + 1..)? {
                    let (k, v) = e?;
                    out.insert(k.value(), decode(k.value(), v.value())?);
                }
            }
        }
        for (id, p) in &self.pending {
            match &p.hashes {
                Some(h) => {
                    out.insert(*id, h.clone());
                }
                None => {
                    out.remove(id);
                }
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| (*w).to_owned()).collect()
    }

    fn hashes(words: &[&str]) -> Vec<u32> {
        words.iter().map(|w| hash_key(w)).collect()
    }

    /// The stored hash is MurmurHash3 x86 32-bit with seed 0 (published reference values): a
    /// store written on one machine is read on any other.
    #[test]
    fn a_key_hash_is_murmurhash3_x86_32_with_seed_0() {
        assert_eq!(hash_key(""), 0);
        assert_eq!(hash_key("hello"), 0x248b_fa47);
        assert_eq!(
            hash_key("The quick brown fox jumps over the lazy dog"),
            0x2e4f_f723
        );
    }

    #[test]
    fn rarer_keys_rank_first_and_ties_go_to_the_higher_row() {
        let mut ix = KeyIndex::in_memory();
        ix.add(1, hashes(&["w:phone", "w:anna"]));
        ix.add(2, hashes(&["w:phone", "w:ben"]));
        ix.add(3, hashes(&["w:phone", "w:ben", "c:4155550132"]));
        ix.add(4, hashes(&["w:phone"]));
        let got = ix
            .lookup(&keys(&["w:phone", "c:4155550132"]), 4, 10)
            .unwrap();
        let ids: Vec<RowId> = got.iter().map(|(id, _)| *id).collect();
        assert_eq!(ids, vec![3, 4, 2, 1]);
        assert_eq!(ix.lookup(&keys(&["w:phone"]), 4, 2).unwrap().len(), 2);
        assert!(ix.lookup(&keys(&["w:nobody"]), 4, 10).unwrap().is_empty());
        // A key listed twice counts once.
        let twice = ix.lookup(&keys(&["w:ben", "w:ben"]), 4, 10).unwrap();
        let once = ix.lookup(&keys(&["w:ben"]), 4, 10).unwrap();
        assert_eq!(twice, once);
    }

    #[test]
    fn a_removed_row_is_found_by_no_key() {
        let mut ix = KeyIndex::in_memory();
        ix.add(1, hashes(&["w:anna", "v:an"]));
        ix.add(2, hashes(&["w:ben"]));
        ix.remove(1).unwrap();
        assert!(
            ix.lookup(&keys(&["w:anna", "v:an"]), 1, 10)
                .unwrap()
                .is_empty()
        );
        assert_eq!(
            ix.rows().unwrap().keys().copied().collect::<Vec<_>>(),
            vec![2]
        );
    }

    /// An operation on the index in [`the_index_is_a_map_from_rows_to_their_keys`].
    #[derive(Debug, Clone)]
    enum Op {
        /// Index row `.0` (re-index it, when it is there) under keys drawn from a small set.
        Add(u64, Vec<u8>),
        Remove(u64),
        /// Look up these keys (settles the index's levels).
        Lookup(Vec<u8>),
    }

    fn op() -> impl proptest::strategy::Strategy<Value = Op> {
        use proptest::prelude::*;
        let key_set = || prop::collection::vec(0u8..24, 0..6);
        prop_oneof![
            4 => (1u64..40, key_set()).prop_map(|(r, k)| Op::Add(r, k)),
            2 => (1u64..40).prop_map(Op::Remove),
            1 => key_set().prop_map(Op::Lookup),
        ]
    }

    fn key_names(ks: &[u8]) -> Vec<String> {
        ks.iter().map(|k| format!("w:k{k}")).collect()
    }

    /// The ranking the module docs define, computed from the rows' keys directly.
    fn reference(model: &BTreeMap<u64, Vec<u8>>, query: &[u8], limit: usize) -> Vec<(RowId, f32)> {
        let n = model.len() as f32;
        // Each distinct key once, in the query's order (the order the scores are summed in).
        let mut q = query.to_vec();
        let mut seen = HashSet::new();
        q.retain(|k| seen.insert(*k));
        let mut scores: BTreeMap<RowId, f32> = BTreeMap::new();
        for k in q {
            let holders: Vec<u64> = model
                .iter()
                .filter(|(_, ks)| ks.contains(&k))
                .map(|(id, _)| *id)
                .collect();
            let df = holders.len() as f32;
            let idf = (1.0 + ((n - df).max(0.0) + 0.5) / (df + 0.5)).ln();
            for id in holders {
                *scores.entry(id).or_insert(0.0) += idf;
            }
        }
        let mut out: Vec<(RowId, f32)> = scores.into_iter().collect();
        out.sort_by(|a, b| b.1.total_cmp(&a.1).then(b.0.cmp(&a.0)));
        out.truncate(limit);
        out
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

        /// Whatever the order of additions, re-indexings, removals and lookups (which move
        /// pairs between the index's levels), a lookup ranks exactly as the reference over the
        /// rows' current keys, and a wide row id (past 32 bits) is found like any other.
        #[test]
        fn the_index_is_a_map_from_rows_to_their_keys(
            ops in proptest::collection::vec(op(), 1..120),
            limit in 1usize..12,
        ) {
            let mut ix = KeyIndex::in_memory();
            let mut model: BTreeMap<u64, Vec<u8>> = BTreeMap::new();
            let wide = u64::from(u32::MAX) + 7;
            for op in ops {
                match op {
                    Op::Add(r, ks) => {
                        let r = if r == 39 { wide } else { r };
                        if model.contains_key(&r) {
                            ix.remove(r).unwrap();
                        }
                        ix.add(r, ks.iter().map(|k| hash_key(&format!("w:k{k}"))).collect());
                        model.insert(r, ks);
                    }
                    Op::Remove(r) => {
                        ix.remove(r).unwrap();
                        model.remove(&r);
                    }
                    Op::Lookup(q) => {
                        let got = ix.lookup(&key_names(&q), model.len() as u64, limit).unwrap();
                        proptest::prop_assert_eq!(got, reference(&model, &q, limit));
                    }
                }
            }
            let all: Vec<u8> = (0..24).collect();
            let got = ix.lookup(&key_names(&all), model.len() as u64, 64).unwrap();
            proptest::prop_assert_eq!(got, reference(&model, &all, 64));
        }
    }

    #[test]
    fn records_are_whole_multiples_of_four_bytes() {
        assert!(decode(5, &[0u8; 6]).is_err());
        let h = hashes(&["a", "b"]);
        assert_eq!(&*decode(5, &encode(&h)).unwrap(), &h[..]);
    }
}
