//! Derived indexes: the tantivy text index and the vector index. Both are rebuildable from the
//! row, payload and vector tables, and both live inside the store's one redb file.

pub mod analyzer;
pub mod directory;
pub mod exact;
pub mod key_index;
pub mod keys;
pub mod text;
pub mod text_control;
pub mod text_tail;
pub mod vector;
pub mod vector_build;
pub mod vector_layout;
pub mod vector_segment;
