//! Purge receipts and openings.
//!
//! A **receipt** is a canonical JSON document signed by the store's ed25519 key. It names what a
//! purge erased by salted commitments only, the log positions around it, the point after which
//! no erased byte remained in the file, and the summary of the residual audit run after it.
//! An **opening** is a separate canonical JSON document for the data subject: the selector they
//! asked to erase and the salts of the erased rows' commitments. With it, anyone who already
//! knows some content can check that the receipt covers it; without it, the receipt reveals
//! nothing about the content. The receipt commits to the opening by digest, so a changed opening
//! fails verification even where no content is at hand.

use ed25519_dalek::{Signature, Signer, SigningKey, Verifier, VerifyingKey};
use serde::{Deserialize, Serialize};

use crate::canonical;
use crate::commitment;
use crate::error::{AuditError, Result};
use crate::event::Hash32;
use crate::hex::{h32, h32_opt, h32_vec, h64};
use crate::{Millis, RowId};

/// `format` of a receipt body.
pub const RECEIPT_FORMAT: &str = "oubli-receipt-v1";
/// `format` of an opening.
pub const OPENING_FORMAT: &str = "oubli-opening-v1";
const RECEIPT_DOMAIN: &[u8] = b"oubli receipt v1\n";
const OPENING_DIGEST_CONTEXT: &str = "oubli 2026-11-21 opening digest v1";

/// One erased row, by commitment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ErasedRow {
    /// The row id (ids are not content).
    pub row: RowId,
    /// Salted commitment to the row's full text.
    #[serde(with = "h32")]
    pub commitment: Hash32,
    /// Salted commitments to each distinct canonical word of the text, sorted.
    #[serde(with = "h32_vec")]
    pub fragments: Vec<Hash32>,
}

/// Why a row beyond the directly targeted ones was erased.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CascadeEntry {
    /// The row erased by cascade.
    pub row: RowId,
    /// `supersede` (same chain), `derived` (provenance), `note`, `clause_edit` or `alias`.
    pub via: String,
    /// The row it was reached from.
    pub from: RowId,
}

/// Log positions around the purge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LogPoints {
    /// Head seq before the purge.
    pub seq_before: u64,
    /// Head hash before the purge.
    #[serde(with = "h32")]
    pub head_before: Hash32,
    /// Seq of the purge event.
    pub purge_seq: u64,
    /// Hash of the purge event.
    #[serde(with = "h32")]
    pub purge_hash: Hash32,
}

/// The erasure completion point.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ErasurePoint {
    /// Seq of the scrub event after which no erased byte remained in the file; `None` if the
    /// scrub was deferred when the receipt was issued.
    pub completion_seq: Option<u64>,
    /// Hash of that event.
    #[serde(with = "h32_opt")]
    pub completion_hash: Option<Hash32>,
    /// How erasure was completed: `scrub-zero-v1` (the index segments that held the erased
    /// rows rewritten, freed pages overwritten with zeros in place) or `scrub-rewrite-v1`
    /// (indexes rebuilt, file rewritten into a fresh copy).
    pub method: String,
}

/// What the residual audit after the purge found (counts over every probe and channel).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResidualSummary {
    /// Results looked at per probe and channel (at least the production k).
    pub k: u64,
    /// Probe queries run.
    pub probes: u64,
    /// Recall channels probed.
    pub channels: Vec<String>,
    /// Hits restating an erased row (its identifying words all present).
    pub hits_gold: u64,
    /// Hits sharing several identifying words with an erased row.
    pub hits_reconstruction: u64,
    /// Hits that share only the object (an identifier or value) of an erased row.
    pub hits_object_only: u64,
    /// Times an erased row id itself came back (must be 0).
    pub erased_returned: u64,
    /// Whether results were compared with a control store built without the erased rows.
    pub control_compared: bool,
    /// Probes whose results differed from the control's.
    pub control_mismatches: u64,
    /// No gold or reconstruction hit, no erased id, no control mismatch.
    pub clean: bool,
}

/// The signed content of a receipt.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReceiptBody {
    /// [`RECEIPT_FORMAT`].
    pub format: String,
    /// The purge's id (its event's seq).
    pub purge_id: u64,
    /// The store's ed25519 public key.
    #[serde(with = "h32")]
    pub store_public_key: Hash32,
    /// Namespace of the erased rows (`*` when several).
    pub namespace: String,
    /// Salted commitment to the selector as given.
    #[serde(with = "h32")]
    pub selector_commitment: Hash32,
    /// Salted commitments to the canonical and alias forms of the selector.
    #[serde(with = "h32_vec")]
    pub alias_commitments: Vec<Hash32>,
    /// Every erased row.
    pub erased: Vec<ErasedRow>,
    /// Rows erased by cascade, with how they were reached.
    pub cascade: Vec<CascadeEntry>,
    /// Log positions.
    pub log: LogPoints,
    /// Erasure completion point.
    pub erasure: ErasurePoint,
    /// Residual audit summary.
    pub residual_audit: ResidualSummary,
    /// Digest of the opening handed to the data subject.
    #[serde(with = "h32")]
    pub opening_digest: Hash32,
    /// Version of the canonicalizer used for targeting and fragments.
    pub canonicalizer_version: String,
    /// Version of the engine that issued the receipt.
    pub engine_version: String,
    /// When the receipt was issued (ms since the Unix epoch).
    pub issued_at: Millis,
}

/// A receipt with its signature: the document a privacy officer verifies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignedReceipt {
    /// The signed content.
    pub body: ReceiptBody,
    /// ed25519 over `"oubli receipt v1\n" || canonical(body)`.
    #[serde(with = "h64")]
    pub signature: [u8; 64],
}

/// One erased row's salt.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpenedRow {
    /// The row.
    pub row: RowId,
    /// Salt of its commitments.
    #[serde(with = "h32")]
    pub salt: [u8; 32],
}

/// The data subject's opening of a receipt.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Opening {
    /// [`OPENING_FORMAT`].
    pub format: String,
    /// The purge it opens.
    pub purge_id: u64,
    /// The selector as given to the purge.
    pub selector: String,
    /// Salt of the selector and alias commitments.
    #[serde(with = "h32")]
    pub selector_salt: [u8; 32],
    /// Salts of the erased rows, in row order.
    pub rows: Vec<OpenedRow>,
}

/// How a content was found covered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Coverage {
    /// The content is the full text of this erased row.
    FullText(RowId),
    /// Every canonical word of the content was a word of this erased row.
    Fragments(RowId),
}

fn message(body: &ReceiptBody) -> Result<Vec<u8>> {
    let mut m = RECEIPT_DOMAIN.to_vec();
    m.extend(canonical::to_vec(body)?);
    Ok(m)
}

impl Opening {
    /// The digest a receipt carries: blake3 derive-key (`oubli 2026-11-21 opening digest v1`)
    /// over the opening's canonical bytes (without the newline).
    pub fn digest(&self) -> Result<Hash32> {
        let mut h = blake3::Hasher::new_derive_key(OPENING_DIGEST_CONTEXT);
        h.update(&canonical::to_vec(self)?);
        Ok(*h.finalize().as_bytes())
    }

    /// The document bytes.
    pub fn to_document(&self) -> Result<Vec<u8>> {
        canonical::to_document(self)
    }

    /// Parses a document, insisting on canonical form.
    pub fn parse(bytes: &[u8]) -> Result<Opening> {
        let o: Opening = canonical::from_document(bytes, "opening")?;
        if o.format != OPENING_FORMAT {
            return Err(AuditError::Corrupt(format!(
                "opening format {:?}",
                o.format
            )));
        }
        Ok(o)
    }
}

/// The selector's alias commitments: each canonical word of it, salted with the selector salt.
pub fn alias_commitments(salt: &[u8; 32], selector: &str) -> Vec<Hash32> {
    commitment::fragment_commitments(salt, selector)
}

impl SignedReceipt {
    /// Signs `body` with the store key.
    pub fn sign(body: ReceiptBody, key: &SigningKey) -> Result<SignedReceipt> {
        let signature = key.sign(&message(&body)?).to_bytes();
        Ok(SignedReceipt { body, signature })
    }

    /// The document bytes: canonical JSON and a newline.
    pub fn to_document(&self) -> Result<Vec<u8>> {
        canonical::to_document(self)
    }

    /// Parses a receipt document, insisting on canonical form, and verifies its signature under
    /// its own public key and, when given, that this key is `expected_key`.
    pub fn verify_document(bytes: &[u8], expected_key: Option<&[u8; 32]>) -> Result<SignedReceipt> {
        let r: SignedReceipt = canonical::from_document(bytes, "receipt")?;
        if r.body.format != RECEIPT_FORMAT {
            return Err(AuditError::Corrupt(format!(
                "receipt format {:?}",
                r.body.format
            )));
        }
        if let Some(k) = expected_key
            && *k != r.body.store_public_key
        {
            return Err(AuditError::BadSignature(
                "receipt was issued by another store key".into(),
            ));
        }
        let key = VerifyingKey::from_bytes(&r.body.store_public_key)
            .map_err(|_| AuditError::BadSignature("public key is not a valid point".into()))?;
        key.verify(&message(&r.body)?, &Signature::from_bytes(&r.signature))
            .map_err(|_| AuditError::BadSignature("receipt signature".into()))?;
        Ok(r)
    }

    /// Checks an opening against this receipt: same purge, digest as committed, selector
    /// commitment opens, and it opens exactly the erased rows.
    pub fn check_opening(&self, o: &Opening) -> Result<()> {
        let b = &self.body;
        if o.purge_id != b.purge_id {
            return Err(AuditError::Mismatch(format!(
                "opening is for purge {}, receipt for {}",
                o.purge_id, b.purge_id
            )));
        }
        if o.digest()? != b.opening_digest {
            return Err(AuditError::Mismatch(
                "opening digest differs from the receipt's".into(),
            ));
        }
        if commitment::content(&o.selector_salt, &o.selector) != b.selector_commitment {
            return Err(AuditError::Mismatch(
                "selector does not open its commitment".into(),
            ));
        }
        let opened: Vec<RowId> = o.rows.iter().map(|r| r.row).collect();
        let erased: Vec<RowId> = b.erased.iter().map(|r| r.row).collect();
        if opened != erased {
            return Err(AuditError::Mismatch(
                "opening names other rows than the receipt".into(),
            ));
        }
        Ok(())
    }

    /// Whether `content` is covered by this receipt, given a checked opening.
    pub fn covers(&self, o: &Opening, content: &str) -> Result<Coverage> {
        self.check_opening(o)?;
        let words = commitment::fragments(content);
        for (opened, erased) in o.rows.iter().zip(&self.body.erased) {
            if commitment::content(&opened.salt, content) == erased.commitment {
                return Ok(Coverage::FullText(erased.row));
            }
            if !words.is_empty()
                && words.iter().all(|w| {
                    erased
                        .fragments
                        .binary_search(&commitment::fragment(&opened.salt, w))
                        .is_ok()
                })
            {
                return Ok(Coverage::Fragments(erased.row));
            }
        }
        Err(AuditError::Mismatch(
            "the content is not covered by this receipt".into(),
        ))
    }
}
