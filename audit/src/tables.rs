//! The redb tables of a store file that verification reads. The engine defines its tables from
//! these constants, so the names cannot drift apart.

use redb::TableDefinition;

/// Store-wide settings: `&str -> bytes` (see the engine's `storage::meta`).
pub const META: TableDefinition<&str, &[u8]> = TableDefinition::new("meta");
/// Row records (without their text): `row id -> record` (see [`crate::row_record`]).
pub const ROWS: TableDefinition<u64, &[u8]> = TableDefinition::new("rows");
/// Row content, deleted on purge: `row id -> payload`.
pub const PAYLOADS: TableDefinition<u64, &[u8]> = TableDefinition::new("payloads");
/// Row vectors, deleted on purge: `row id -> f32 LE`.
pub const VECTORS: TableDefinition<u64, &[u8]> = TableDefinition::new("vectors");
/// The event log: `seq -> canonical event encoding`.
pub const EVENTS: TableDefinition<u64, &[u8]> = TableDefinition::new("events");
/// Signed checkpoints: `seq -> 104 bytes`.
pub const CHECKPOINTS: TableDefinition<u64, &[u8]> = TableDefinition::new("checkpoints");
/// Purge receipts: `purge id -> receipt document bytes`.
pub const RECEIPTS: TableDefinition<u64, &[u8]> = TableDefinition::new("receipts");

/// `meta` key of the 32-byte public key.
pub const META_PUBLIC_KEY: &str = "public_key";
/// `meta` key of the head (u64 LE seq and 32-byte hash).
pub const META_HEAD: &str = "head";
/// `meta` key of the store format version (u32 LE).
pub const META_FORMAT: &str = "format";
/// `meta` key of the embedding dimension (u32 LE), which tells a vector record's encoding
/// ([`crate::vector::decode`]).
pub const META_DIM: &str = "dim";
