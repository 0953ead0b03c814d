//! Row digests: a keyed hash of every field of a row a reader gets back, carried in the event
//! that last changed the row, so that verification detects any change to returned data.
//!
//! The digest is salted with the row's content salt (erased with the row on purge, like the
//! content commitment's), so once a row is purged its digest reveals nothing about it. Depth is
//! not part of it: the log's transitions give every row's depth already.
//!
//! Encoding (all integers little endian), hashed with blake3 in derive-key mode under the context
//! `oubli 2026-11-23 row digest v1`, after the 32 salt bytes:
//!
//! ```text
//! u8  version: 1 when every metadata value is a string, else 2
//! u64 row id
//! str namespace                 (str = u32 length, then UTF-8 bytes)
//! opt str key                   (opt = u8 0 absent / 1 present, then the value)
//! str text
//! u8  kind (1 source, 2 derived, 3 note)
//! u32 metadata entry count, then per entry in increasing byte order of the keys:
//!     str key, u32 value length, value bytes: version 1, the string's UTF-8 bytes;
//!     version 2, the typed bytes of crate::MetaValue::typed_bytes (a type tag, then the value)
//! i64 created_at, i64 surfaced_at (milliseconds)
//! opt i64 valid_until
//! u32 count, then u64 per row the row was derived from (in stored order)
//! opt u64 superseded_by
//! opt u64 supersedes
//! u64 created_seq
//! u32 vector length, then each component's f32 bits (u32)
//! ```
//!
//! Version 2 exists for typed metadata (store format 3); a row whose metadata holds only strings
//! keeps version 1, so its digest is the one written before typed metadata existed.

use crate::event::Hash32;
use crate::meta_value::MetaValue;
use crate::{Millis, RowId};

/// Version byte of the encoding above when every metadata value is a string.
pub const ROW_DIGEST_VERSION: u8 = 1;
/// Version byte of the encoding above when some metadata value is typed (not a string).
pub const ROW_DIGEST_VERSION_TYPED: u8 = 2;

const ROW_DIGEST_CONTEXT: &str = "oubli 2026-11-23 row digest v1";

/// The fields of a live row that a digest binds (everything a reader gets back but its depth).
#[derive(Clone, Debug, PartialEq)]
pub struct RowFields<'a> {
    /// Row id.
    pub id: RowId,
    /// Namespace.
    pub namespace: &'a str,
    /// Natural key.
    pub key: Option<&'a str>,
    /// Text.
    pub text: &'a str,
    /// Kind code: 1 source, 2 derived, 3 note.
    pub kind: u8,
    /// Metadata entries: key and value. Sorted by key when encoded.
    pub metadata: Vec<(&'a str, MetaValue)>,
    /// Creation time.
    pub created_at: Millis,
    /// Last time the row came to the surface.
    pub surfaced_at: Millis,
    /// Expiry.
    pub valid_until: Option<Millis>,
    /// Rows this row was derived from.
    pub derived_from: &'a [RowId],
    /// The row that replaced this one.
    pub superseded_by: Option<RowId>,
    /// The row this one replaced.
    pub supersedes: Option<RowId>,
    /// Seq of the creating event.
    pub created_seq: u64,
    /// The row's vector.
    pub vector: &'a [f32],
}

impl RowFields<'_> {
    /// The encoding in the module docs.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(128 + self.text.len() + 4 * self.vector.len());
        let str_ = |out: &mut Vec<u8>, s: &[u8]| {
            out.extend_from_slice(&(s.len() as u32).to_le_bytes());
            out.extend_from_slice(s);
        };
        let typed = self
            .metadata
            .iter()
            .any(|(_, v)| !matches!(v, MetaValue::Str(_)));
        out.push(if typed {
            ROW_DIGEST_VERSION_TYPED
        } else {
            ROW_DIGEST_VERSION
        });
        out.extend_from_slice(&self.id.to_le_bytes());
        str_(&mut out, self.namespace.as_bytes());
        match self.key {
            None => out.push(0),
            Some(k) => {
                out.push(1);
                str_(&mut out, k.as_bytes());
            }
        }
        str_(&mut out, self.text.as_bytes());
        out.push(self.kind);
        let mut meta: Vec<&(&str, MetaValue)> = self.metadata.iter().collect();
        meta.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        out.extend_from_slice(&(meta.len() as u32).to_le_bytes());
        for (k, v) in meta {
            str_(&mut out, k.as_bytes());
            match (typed, v) {
                (false, MetaValue::Str(s)) => str_(&mut out, s.as_bytes()),
                _ => str_(&mut out, &v.typed_bytes()),
            }
        }
        out.extend_from_slice(&self.created_at.to_le_bytes());
        out.extend_from_slice(&self.surfaced_at.to_le_bytes());
        opt_u64(&mut out, self.valid_until.map(|v| v as u64));
        out.extend_from_slice(&(self.derived_from.len() as u32).to_le_bytes());
        for d in self.derived_from {
            out.extend_from_slice(&d.to_le_bytes());
        }
        opt_u64(&mut out, self.superseded_by);
        opt_u64(&mut out, self.supersedes);
        out.extend_from_slice(&self.created_seq.to_le_bytes());
        out.extend_from_slice(&(self.vector.len() as u32).to_le_bytes());
        for x in self.vector {
            out.extend_from_slice(&x.to_bits().to_le_bytes());
        }
        out
    }

    /// The row digest: blake3 derive-key (`oubli 2026-11-23 row digest v1`) over
    /// `salt || encode()`.
    pub fn digest(&self, salt: &[u8; 32]) -> Hash32 {
        let mut h = blake3::Hasher::new_derive_key(ROW_DIGEST_CONTEXT);
        h.update(salt);
        h.update(&self.encode());
        *h.finalize().as_bytes()
    }
}

fn opt_u64(out: &mut Vec<u8>, v: Option<u64>) {
    match v {
        None => out.push(0),
        Some(v) => {
            out.push(1);
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn str_(s: &str) -> MetaValue {
        MetaValue::Str(s.to_owned())
    }

    fn sample() -> RowFields<'static> {
        RowFields {
            id: 3,
            namespace: "user:ana",
            key: Some("door"),
            text: "Ana's door code is 4417",
            kind: 1,
            metadata: vec![("source", str_("chat")), ("a", str_("1"))],
            created_at: 1_763_700_000_000,
            surfaced_at: 1_763_700_000_000,
            valid_until: None,
            derived_from: &[],
            superseded_by: Some(4),
            supersedes: None,
            created_seq: 3,
            vector: &[1.0, -0.5],
        }
    }

    /// Golden vector: pins the encoding and the digest (stored in signed logs).
    #[test]
    fn golden_vector() {
        let hex = |b: &[u8]| b.iter().map(|b| format!("{b:02x}")).collect::<String>();
        assert_eq!(
            hex(&sample().encode()),
            concat!(
                "01",                                             // version
                "0300000000000000",                               // id 3
                "08000000757365723a616e61",                       // "user:ana"
                "0104000000646f6f72",                             // key "door"
                "17000000",                                       // text: 23 bytes
                "416e61277320646f6f7220636f64652069732034343137", // "Ana's door code is 4417"
                "01",                                             // kind source
                "02000000",                                       // 2 metadata entries
                "0100000061",                                     // "a"
                "0100000031",                                     // -> "1"
                "06000000736f757263650400000063686174",           // "source" -> "chat"
                "0045b6a49a010000",                               // created_at
                "0045b6a49a010000",                               // surfaced_at
                "00",                                             // valid_until absent
                "00000000",                                       // derived_from: none
                "010400000000000000",                             // superseded_by 4
                "00",                                             // supersedes absent
                "0300000000000000",                               // created_seq 3
                "02000000",                                       // 2 components
                "0000803f",                                       // 1.0
                "000000bf",                                       // -0.5
            )
        );
        assert_eq!(hex(&sample().digest(&[7u8; 32])), GOLDEN_DIGEST);
    }

    /// Golden vector of version 2: typed metadata values carry a type tag.
    #[test]
    fn golden_vector_typed() {
        let hex = |b: &[u8]| b.iter().map(|b| format!("{b:02x}")).collect::<String>();
        let mut v = sample();
        v.metadata = vec![
            ("s", str_("x")),
            ("i", MetaValue::Int(-2)),
            ("f", MetaValue::Float(0.5)),
            ("b", MetaValue::Bool(true)),
            ("l", MetaValue::List(vec![str_("ab"), MetaValue::Int(1)])),
        ];
        let enc = hex(&v.encode());
        assert!(enc.starts_with("02"), "{enc}");
        let meta = concat!(
            "05000000", // 5 entries, sorted by key
            "0100000062",
            "02000000",
            "0301", // "b" -> bool true
            "0100000066",
            "09000000",
            "02000000000000e03f", // "f" -> float 0.5
            "0100000069",
            "09000000",
            "01feffffffffffffff", // "i" -> int -2
            "010000006c",
            "15000000",
            "0402000000", // "l" -> list of 2:
            "00020000006162",
            "010100000000000000", //   "ab", 1
            "0100000073",
            "02000000",
            "0078", // "s" -> string "x"
        );
        assert!(enc.contains(meta), "{enc}");
        assert_eq!(hex(&v.digest(&[7u8; 32])), GOLDEN_DIGEST_TYPED);
    }

    const GOLDEN_DIGEST_TYPED: &str =
        "e2861414eaa0815ccb8779748f7fbd97b44e3081d67968937774c384cf820945";

    #[test]
    fn typed_values_never_digest_like_strings() {
        let s = [9u8; 32];
        let with = |m: MetaValue| {
            let mut v = sample();
            v.metadata = vec![("a", m)];
            v.digest(&s)
        };
        let all = [
            with(str_("1")),
            with(MetaValue::Int(1)),
            with(MetaValue::Float(1.0)),
            with(MetaValue::Bool(true)),
            with(MetaValue::List(vec![str_("1")])),
            with(MetaValue::List(vec![MetaValue::Int(1)])),
            with(MetaValue::List(vec![])),
            with(str_("")),
        ];
        for i in 0..all.len() {
            for j in i + 1..all.len() {
                assert_ne!(all[i], all[j], "{i} and {j}");
            }
        }
    }

    const GOLDEN_DIGEST: &str = "c80590509d4ae1473cfa8565c327360cf20ed4fadb4e6a733d2c29670825d018";

    #[test]
    fn every_field_changes_the_digest() {
        let s = [9u8; 32];
        let base = sample().digest(&s);
        let mut variants = Vec::new();
        let mut v = sample();
        v.id = 4;
        variants.push(v);
        let mut v = sample();
        v.namespace = "user:anb";
        variants.push(v);
        let mut v = sample();
        v.key = None;
        variants.push(v);
        let mut v = sample();
        v.text = "Ana's door code is 4418";
        variants.push(v);
        let mut v = sample();
        v.kind = 2;
        variants.push(v);
        let mut v = sample();
        v.metadata = vec![("source", str_("chaT")), ("a", str_("1"))];
        variants.push(v);
        let mut v = sample();
        v.surfaced_at += 1;
        variants.push(v);
        let mut v = sample();
        v.valid_until = Some(0);
        variants.push(v);
        let mut v = sample();
        v.derived_from = &[1];
        variants.push(v);
        let mut v = sample();
        v.superseded_by = None;
        variants.push(v);
        let mut v = sample();
        v.vector = &[1.0, -0.5000001];
        variants.push(v);
        for v in variants {
            assert_ne!(v.digest(&s), base, "{v:?}");
        }
        assert_ne!(sample().digest(&[8u8; 32]), base);
    }
}
