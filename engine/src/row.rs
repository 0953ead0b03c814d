//! Rows: the unit of memory, and the inscription that creates one.

use serde::{Deserialize, Serialize};

use crate::depth::Depth;
use crate::error::{Error, Result};
use crate::metadata::{MetaValue, Metadata};

/// A row's identifier. Assigned in increasing order and never reused, not even after a purge.
pub type RowId = u64;

/// Milliseconds since the Unix epoch (UTC).
pub type Millis = i64;

/// Largest text a row may hold, in bytes of UTF-8.
pub const MAX_TEXT_BYTES: usize = 64 * 1024;
/// Largest namespace, key, metadata key or metadata string value (also each string item of a
/// list value), in bytes.
pub const MAX_FIELD_BYTES: usize = 512;
/// Most metadata entries per row.
pub const MAX_METADATA_ENTRIES: usize = 64;
/// Most rows one row may name as its sources.
pub const MAX_SOURCES: usize = 1024;
/// Namespace used when a call names none.
pub const DEFAULT_NAMESPACE: &str = "default";

/// What a row is, for compaction and provenance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// An observed fact: recomputable evidence, kept first.
    #[default]
    Source,
    /// A conclusion computed from sources; re-derivable.
    Derived,
    /// A summary written by compaction.
    Note,
}

impl Kind {
    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Source => "source",
            Kind::Derived => "derived",
            Kind::Note => "note",
        }
    }

    /// Parses a lower-case name.
    pub fn parse(s: &str) -> Result<Kind> {
        match s {
            "source" => Ok(Kind::Source),
            "derived" => Ok(Kind::Derived),
            "note" => Ok(Kind::Note),
            other => Err(Error::InvalidField {
                what: "kind",
                reason: format!("{other:?} is not source, derived or note"),
            }),
        }
    }
}

/// A row as the store holds it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// Identifier, never reused.
    pub id: RowId,
    /// User, tenant or agent the row belongs to.
    pub namespace: String,
    /// Optional natural key, unique among the live rows of the namespace.
    pub key: Option<String>,
    /// The text; `None` once purged.
    pub text: Option<String>,
    /// Source, derived or note.
    pub kind: Kind,
    /// Typed metadata (strings, integers, floats, bools, lists), filterable in recall and
    /// list ([`crate::Filter`]).
    pub metadata: Metadata,
    /// When the row was inscribed.
    pub created_at: Millis,
    /// When the row last came to the surface (inscribed or resurfaced); decay counts from here.
    pub surfaced_at: Millis,
    /// When the row stops being valid; recall leaves it out from then on.
    pub valid_until: Option<Millis>,
    /// Forgetting state.
    pub depth: Depth,
    /// Rows this row was derived from.
    pub derived_from: Vec<RowId>,
    /// The row that replaced this one, if superseded.
    pub superseded_by: Option<RowId>,
    /// The row this one replaced, if it was written by a supersede.
    pub supersedes: Option<RowId>,
    /// Log sequence number of the event that created the row.
    pub created_seq: u64,
}

impl Row {
    /// True if the row has expired at `now`.
    pub fn is_expired(&self, now: Millis) -> bool {
        self.valid_until.is_some_and(|t| t <= now)
    }

    /// True if recall returns the row by default at `now`: live depth and not expired.
    pub fn is_recallable(&self, now: Millis) -> bool {
        self.depth.is_live() && !self.is_expired(now)
    }
}

/// Everything needed to inscribe one row. Build it with [`Inscription::new`] and the setters.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Inscription {
    /// The text (required, non-empty, at most [`MAX_TEXT_BYTES`]).
    pub text: String,
    /// Namespace; [`DEFAULT_NAMESPACE`] when `None`.
    pub namespace: Option<String>,
    /// Natural key.
    pub key: Option<String>,
    /// Kind; source by default.
    pub kind: Kind,
    /// Metadata.
    pub metadata: Metadata,
    /// Expiry time.
    pub valid_until: Option<Millis>,
    /// Source rows this row was derived from.
    pub derived_from: Vec<RowId>,
    /// A caller-supplied vector; the store's embedder is used when `None`.
    pub vector: Option<Vec<f32>>,
}

impl Inscription {
    /// A source row with this text in the default namespace.
    pub fn new(text: impl Into<String>) -> Self {
        Inscription {
            text: text.into(),
            ..Default::default()
        }
    }
    /// Sets the namespace.
    pub fn namespace(mut self, ns: impl Into<String>) -> Self {
        self.namespace = Some(ns.into());
        self
    }
    /// Sets the natural key.
    pub fn key(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
        self
    }
    /// Sets the kind.
    pub fn kind(mut self, kind: Kind) -> Self {
        self.kind = kind;
        self
    }
    /// Adds one metadata entry: a string, integer, float, bool or list ([`MetaValue`]).
    pub fn meta(mut self, k: impl Into<String>, v: impl Into<MetaValue>) -> Self {
        self.metadata.insert(k.into(), v.into());
        self
    }
    /// Sets the expiry time.
    pub fn valid_until(mut self, t: Millis) -> Self {
        self.valid_until = Some(t);
        self
    }
    /// Sets the provenance.
    pub fn derived_from(mut self, ids: impl IntoIterator<Item = RowId>) -> Self {
        self.derived_from = ids.into_iter().collect();
        self
    }
    /// Supplies the vector instead of embedding the text.
    pub fn vector(mut self, v: Vec<f32>) -> Self {
        self.vector = Some(v);
        self
    }

    /// The namespace this inscription lands in.
    pub fn namespace_or_default(&self) -> &str {
        self.namespace.as_deref().unwrap_or(DEFAULT_NAMESPACE)
    }

    /// Checks every field against the documented limits.
    pub fn validate(&self) -> Result<()> {
        validate_text(&self.text)?;
        validate_field("namespace", self.namespace_or_default())?;
        if let Some(k) = &self.key {
            validate_field("key", k)?;
        }
        if self.metadata.len() > MAX_METADATA_ENTRIES {
            return Err(Error::InvalidField {
                what: "metadata",
                reason: format!(
                    "{} entries, over the limit of {MAX_METADATA_ENTRIES}",
                    self.metadata.len()
                ),
            });
        }
        for (k, v) in &self.metadata {
            validate_field("metadata key", k)?;
            v.validate()?;
        }
        if self.derived_from.len() > MAX_SOURCES {
            return Err(Error::InvalidField {
                what: "derived_from",
                reason: format!("more than {MAX_SOURCES} sources"),
            });
        }
        Ok(())
    }
}

/// Rejects empty, whitespace-only, oversized or NUL-bearing text.
pub fn validate_text(text: &str) -> Result<()> {
    if text.len() > MAX_TEXT_BYTES {
        return Err(Error::TextTooLarge {
            len: text.len(),
            max: MAX_TEXT_BYTES,
        });
    }
    if text.trim().is_empty() {
        return Err(Error::EmptyText);
    }
    if text.contains('\0') {
        return Err(Error::InvalidField {
            what: "text",
            reason: "contains a NUL character".into(),
        });
    }
    Ok(())
}

/// Rejects empty, oversized or control-character-bearing names (namespaces, keys).
pub fn validate_field(what: &'static str, s: &str) -> Result<()> {
    if s.is_empty() {
        return Err(Error::InvalidField {
            what,
            reason: "is empty".into(),
        });
    }
    if s.len() > MAX_FIELD_BYTES {
        return Err(Error::InvalidField {
            what,
            reason: format!("{} bytes, over the limit of {MAX_FIELD_BYTES}", s.len()),
        });
    }
    if s.chars().any(char::is_control) {
        return Err(Error::InvalidField {
            what,
            reason: "contains a control character".into(),
        });
    }
    Ok(())
}
