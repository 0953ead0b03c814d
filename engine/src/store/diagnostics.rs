//! Measurements of the store itself, for benchmarks and capacity planning: where the file's
//! bytes go ([`Store::space_report`]) and how close the approximate vector leg comes to an exact
//! scan ([`Store::vector_probe`]). Neither changes anything.

use redb::{ReadableTable, ReadableTableMetadata, TableHandle};

use super::Store;
use super::recall::candidate_pool;
use crate::embed::dot;
use crate::error::{Error, Result};
use crate::row::RowId;
use crate::storage;

/// Space one redb table takes in the file (redb's own accounting, see [`SpaceReport`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableSpace {
    /// The table's name.
    pub name: String,
    /// Number of entries.
    pub entries: u64,
    /// Bytes of keys and values in leaf pages.
    pub stored_bytes: u64,
    /// Bytes of keys in branch pages and other B-tree metadata.
    pub metadata_bytes: u64,
    /// Bytes of the table's pages that hold nothing (unfilled page space).
    pub fragmented_bytes: u64,
    /// Leaf pages.
    pub leaf_pages: u64,
    /// Branch pages.
    pub branch_pages: u64,
}

impl TableSpace {
    /// Every byte the table's pages occupy: stored, metadata and fragmentation.
    pub fn total_bytes(&self) -> u64 {
        self.stored_bytes + self.metadata_bytes + self.fragmented_bytes
    }
}

/// Where the bytes of a store's file go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpaceReport {
    /// Length of the file (or of the in-memory image).
    pub file_bytes: u64,
    /// redb's page size.
    pub page_size: u64,
    /// Pages redb has allocated (the rest of the file is free or not yet used).
    pub allocated_pages: u64,
    /// One entry per table, in name order.
    pub tables: Vec<TableSpace>,
    /// The text index's files (tantivy's segment files and `meta.json`), with their sizes, in
    /// name order: what the `text_index_files` table holds.
    pub text_files: Vec<(String, u64)>,
    /// The text index's segments as the store searches them: each one's documents (deleted
    /// ones included), largest first. Their number is what a search visits; the largest is
    /// what a purge's rewrite of one segment costs (see
    /// [`crate::StoreOptions::text_segment_docs`]). Rows still in the in-memory tail are in no
    /// segment.
    pub text_segments: Vec<u32>,
}

/// The approximate vector leg's ranking of one query beside the exact ranking over the same
/// vectors ([`Store::vector_probe`]).
#[derive(Clone, Debug, PartialEq)]
pub struct VectorProbe {
    /// What recall's vector leg finds: its top `k` (row id, cosine), best first, ties broken by
    /// higher row id. Below the ANN threshold this is itself an exact scan.
    pub approximate: Vec<(RowId, f32)>,
    /// The top `k` of an exact scan over every stored vector, ordered the same way.
    pub exact: Vec<(RowId, f32)>,
}

impl VectorProbe {
    /// Recall@k: the share of the exact top `k` that the approximate leg found (1.0 when the
    /// exact top is empty). Both sides score with the same stored vectors and break ties the
    /// same way, so a leg that saw every exact neighbour reports them all.
    pub fn recall(&self) -> f64 {
        if self.exact.is_empty() {
            return 1.0;
        }
        let found = self
            .exact
            .iter()
            .filter(|(id, _)| self.approximate.iter().any(|(a, _)| a == id))
            .count();
        found as f64 / self.exact.len() as f64
    }

    /// Recall@k with ties counted as found (what ANN benchmarks call recall at a distance
    /// threshold): the share of the exact top `k` matched by approximate hits at least as
    /// similar as the exact `k`-th, within `1e-6`. Where many rows are as similar as the `k`-th
    /// (near-duplicate memories), which of them an exact scan keeps is only its tie rule, and
    /// [`VectorProbe::recall`] counts an equally similar row the approximate leg found instead
    /// as a miss. 1.0 when the exact top is empty.
    pub fn recall_with_ties(&self) -> f64 {
        let Some(&(_, kth)) = self.exact.last() else {
            return 1.0;
        };
        let found = self
            .approximate
            .iter()
            .filter(|(_, score)| *score >= kth - 1e-6)
            .count()
            .min(self.exact.len());
        found as f64 / self.exact.len() as f64
    }
}

impl Store {
    /// Where the bytes of the store's file go: redb's accounting of every table (entries,
    /// stored, metadata and fragmented bytes, pages) and the size of every text index file.
    /// Reads the last committed state; text index files still staged in memory are not in it.
    pub fn space_report(&self) -> Result<SpaceReport> {
        self.read(|i| {
            let file_bytes = match i.db.memory_image() {
                Some(m) => m.len()?,
                None if self.path.as_os_str().is_empty() => 0,
                None => std::fs::metadata(&self.path)?.len(),
            };
            let tx = i.db.begin_read()?;
            let mut tables = Vec::new();
            for handle in tx.list_tables()? {
                let t = tx.open_untyped_table(handle)?;
                let s = t.stats()?;
                tables.push(TableSpace {
                    name: t.name().to_owned(),
                    entries: t.len()?,
                    stored_bytes: s.stored_bytes(),
                    metadata_bytes: s.metadata_bytes(),
                    fragmented_bytes: s.fragmented_bytes(),
                    leaf_pages: s.leaf_pages(),
                    branch_pages: s.branch_pages(),
                });
            }
            tables.sort_by(|a, b| a.name.cmp(&b.name));
            let mut text_files = Vec::new();
            if let Some(t) = storage::open_read(&tx, storage::TEXT_INDEX_FILES)? {
                for e in t.iter()? {
                    let (k, v) = e?;
                    text_files.push((k.value().to_owned(), v.value().len() as u64));
                }
            }
            let (page_size, allocated_pages) = match i.db.begin_write() {
                // Only a write transaction reports allocation; it is dropped, never committed.
                Ok(w) => {
                    let s = w.stats()?;
                    w.abort()?;
                    (s.page_size() as u64, s.allocated_pages())
                }
                Err(Error::ReadOnly) => (0, 0),
                Err(e) => return Err(e),
            };
            let mut text_segments = i.text.segment_sizes();
            text_segments.sort_unstable_by(|a, b| b.cmp(a));
            Ok(SpaceReport {
                file_bytes,
                page_size,
                allocated_pages,
                tables,
                text_files,
                text_segments,
            })
        })
    }

    /// The vector leg's own top `k` for `query` (a vector of the store's dimension, as the
    /// embedder gives), beside the exact top `k` over every stored vector: what recall@k of the
    /// approximate index is measured from ([`VectorProbe::recall`]). The leg is asked for the
    /// candidate pool recall asks it for at this `k`, then cut to `k`. No filter applies (every
    /// stored vector is a live row's).
    pub fn vector_probe(&self, query: &[f32], k: usize) -> Result<VectorProbe> {
        self.read(|i| {
            if query.len() != i.dim {
                return Err(Error::DimensionMismatch {
                    expected: i.dim,
                    got: query.len(),
                });
            }
            if query.iter().any(|x| !x.is_finite()) {
                return Err(Error::InvalidArgument("query vector is not finite".into()));
            }
            let tx = i.db.begin_read()?;
            let vec_t = storage::open_read(&tx, storage::VECTORS)?;
            let dim = i.dim;
            let stored = |id: RowId| storage::read_vector(vec_t.as_ref(), id, dim);
            let mut approximate = i.vectors.search(query, candidate_pool(k), &stored)?;
            approximate.truncate(k);
            let mut exact: Vec<(RowId, f32)> = Vec::new();
            if let Some(t) = &vec_t {
                for e in t.iter()? {
                    let (id, v) = e?;
                    exact.push((
                        id.value(),
                        dot(query, &storage::decode_vector(v.value(), dim)?),
                    ));
                }
            }
            exact.sort_by(|a, b| b.1.total_cmp(&a.1).then(b.0.cmp(&a.0)));
            exact.truncate(k);
            Ok(VectorProbe { approximate, exact })
        })
    }
}
