//! Pending openings: how a purge stays atomic with its receipt and opening.
//!
//! A purge commits, in one redb transaction, the erasure, its `purge` event, a provisional signed
//! receipt, the opening sealed for the caller ([`crate::storage::PENDING_OPENINGS`]) and an
//! incomplete-purge mark ([`crate::storage::INCOMPLETE_PURGES`]). A crash at any point therefore
//! leaves either no erasure, or an erasure whose receipt and opening are in the file.
//!
//! The opening is sealed (blake3 keyed stream and tag) with a key derived from the store's
//! signing key, so the file's bytes never hold the selector or the salts in the clear. The seal
//! protects against someone who reads the file without the key; a store that keeps its own key in
//! the file (the default) gives whoever holds the whole file the key too. That is the trade-off
//! of retrievability: a pending opening lets its holder test guesses of the erased content, as
//! the opening itself does. It is deleted as soon as the caller has it (before the scrub
//! of the same purge, so no byte of it is left), or when fetched with [`Store::take_opening`],
//! exactly once.

use oubli_audit::Opening;
use redb::ReadableTable;

use super::Store;
use crate::error::{Error, Result};
use crate::storage::{self, INCOMPLETE_PURGES, PENDING_OPENINGS};

const SEAL_CONTEXT: &str = "oubli 2026-11-23 pending opening seal v1";
const NONCE_LEN: usize = 32;
const TAG_LEN: usize = 32;

fn seal_key(signing_secret: &[u8; 32]) -> [u8; 32] {
    blake3::derive_key(SEAL_CONTEXT, signing_secret)
}

fn keystream_xor(key: &[u8; 32], nonce: &[u8], data: &mut [u8]) {
    let mut h = blake3::Hasher::new_keyed(key);
    h.update(b"stream\0");
    h.update(nonce);
    let mut xof = h.finalize_xof();
    let mut block = [0u8; 64];
    for chunk in data.chunks_mut(64) {
        xof.fill(&mut block);
        for (d, k) in chunk.iter_mut().zip(block.iter()) {
            *d ^= k;
        }
    }
}

fn tag(key: &[u8; 32], nonce: &[u8], ct: &[u8]) -> [u8; 32] {
    let mut h = blake3::Hasher::new_keyed(key);
    h.update(b"tag\0\0\0\0");
    h.update(nonce);
    h.update(ct);
    *h.finalize().as_bytes()
}

/// Seals `plain` under the key derived from `signing_secret`: `nonce || tag || ciphertext`.
pub(crate) fn seal(signing_secret: &[u8; 32], nonce: [u8; 32], plain: &[u8]) -> Vec<u8> {
    let key = seal_key(signing_secret);
    let mut ct = plain.to_vec();
    keystream_xor(&key, &nonce, &mut ct);
    let t = tag(&key, &nonce, &ct);
    let mut out = Vec::with_capacity(NONCE_LEN + TAG_LEN + ct.len());
    out.extend_from_slice(&nonce);
    out.extend_from_slice(&t);
    out.extend_from_slice(&ct);
    out
}

/// Opens a record made by [`seal`]; a changed byte or another key is [`Error::Corrupt`].
pub(crate) fn unseal(signing_secret: &[u8; 32], sealed: &[u8]) -> Result<Vec<u8>> {
    if sealed.len() < NONCE_LEN + TAG_LEN {
        return Err(Error::Corrupt("sealed opening is truncated".into()));
    }
    let key = seal_key(signing_secret);
    let (nonce, rest) = sealed.split_at(NONCE_LEN);
    let (t, ct) = rest.split_at(TAG_LEN);
    if tag(&key, nonce, ct).as_slice() != t {
        return Err(Error::Corrupt(
            "sealed opening fails its tag (changed, or another key)".into(),
        ));
    }
    let mut plain = ct.to_vec();
    keystream_xor(&key, nonce, &mut plain);
    Ok(plain)
}

/// Appends the `receipt` event that records a final receipt written in `b` where no `scrub`
/// event does: it binds the log to the receipt `document`, and gives the transaction the event
/// that makes it a replication frame (a replica gets the receipt and the cleared incomplete
/// mark from it).
pub(crate) fn log_receipt(b: &mut super::batch::Batch<'_>, document: &[u8]) -> Result<u64> {
    b.event(
        crate::log::EventKind::Receipt,
        "*",
        Vec::new(),
        vec![oubli_audit::event::receipt_commitment(document)],
    )
}

impl Store {
    /// Purge ids whose opening is still held in the file (sealed) because the caller never
    /// received it: a crash, or a delivery that failed (for example an unwritable
    /// `--opening-out`). Fetch each with [`Store::take_opening`].
    pub fn pending_openings(&self) -> Result<Vec<u64>> {
        self.read(|i| {
            let tx = i.db.begin_read()?;
            let mut out = Vec::new();
            if let Some(t) = storage::open_read(&tx, PENDING_OPENINGS)? {
                for e in t.iter()? {
                    out.push(e?.0.value());
                }
            }
            Ok(out)
        })
    }

    /// Purge ids whose completion (scrub, residual audit, final receipt) never committed, for
    /// example after a crash: their stored receipt is the provisional one issued with the
    /// erasure. A writable open completes them ([`Store::complete_purges`]).
    pub fn incomplete_purges(&self) -> Result<Vec<u64>> {
        self.read(|i| {
            let tx = i.db.begin_read()?;
            let mut out = Vec::new();
            if let Some(t) = storage::open_read(&tx, INCOMPLETE_PURGES)? {
                for e in t.iter()? {
                    out.push(e?.0.value());
                }
            }
            Ok(out)
        })
    }

    /// Completes every purge whose completion step never committed (a crash between the
    /// erasure and the final receipt): scrubs (unless scrubbing is deferred), reruns the residual
    /// audit with the probes still available (the selector, from the pending opening; the erased
    /// texts themselves are gone), and replaces the provisional receipt with a final one. Runs on
    /// every writable open. Returns the purge ids completed.
    #[tracing::instrument(name = "oubli::Store::complete_purges", level = "debug", skip_all)]
    pub fn complete_purges(&self) -> Result<Vec<u64>> {
        let ids = self.incomplete_purges()?;
        if ids.is_empty() {
            return Ok(ids);
        }
        let completion = if self.opts.scrub_on_purge {
            let (seq, kind) = self.scrub_as_needed()?;
            Some((seq, self.head()?.1, kind.method()))
        } else {
            None
        };
        for id in &ids {
            let doc = self.receipt_document(*id)?;
            let provisional = oubli_audit::SignedReceipt::verify_document(&doc, None)?;
            let selector = self
                .peek_opening(*id)?
                .map(|o| o.selector)
                .unwrap_or_default();
            let mut body = provisional.body;
            let edited: Vec<u64> = body
                .cascade
                .iter()
                .filter(|c| c.via == "clause_edit")
                .map(|c| c.row)
                .collect();
            let audit = self.residual_audit(&super::AuditRequest {
                texts: Vec::new(),
                selector,
                erased: body
                    .erased
                    .iter()
                    .map(|r| r.row)
                    .filter(|r| !edited.contains(r))
                    .collect(),
                before_seq: Some(body.log.seq_before),
                k: 20,
                control: None,
            })?;
            body.erasure.completion_seq = completion.map(|c| c.0);
            body.erasure.completion_hash = completion.map(|c| c.1);
            if let Some(c) = completion {
                body.erasure.method = c.2.into();
            }
            body.residual_audit = audit.summary;
            body.issued_at = self.now();
            self.write(|b| {
                let key = b.inner().signing.as_ref().ok_or(Error::ReadOnly)?;
                let doc = oubli_audit::SignedReceipt::sign(body, key)?.to_document()?;
                b.tx.open_table(storage::RECEIPTS)?
                    .insert(*id, doc.as_slice())?;
                b.tx.open_table(INCOMPLETE_PURGES)?.remove(*id)?;
                log_receipt(b, &doc)?;
                Ok(())
            })?;
        }
        Ok(ids)
    }

    /// Reads the pending opening of purge `id` without removing it.
    pub(crate) fn peek_opening(&self, id: u64) -> Result<Option<Opening>> {
        self.read(|i| {
            let key = i.signing.as_ref().ok_or(Error::ReadOnly)?;
            let tx = i.db.begin_read()?;
            let Some(t) = storage::open_read(&tx, PENDING_OPENINGS)? else {
                return Ok(None);
            };
            let Some(v) = t.get(id)? else { return Ok(None) };
            let plain = unseal(&key.to_bytes(), v.value())?;
            Ok(Some(Opening::parse(&plain)?))
        })
    }

    /// Hands the pending opening of purge `id` to `deliver` (which writes it where the data
    /// subject gets it) and, once `deliver` succeeds, deletes it from the file: an opening is
    /// returned exactly once. If `deliver` fails the opening stays pending and its error is
    /// returned. [`Error::InvalidArgument`] if no opening of that purge is pending (it was
    /// delivered already, or there is no such purge). Needs a writable handle.
    ///
    /// The deleted record's pages are overwritten at the next [`Store::scrub`].
    #[tracing::instrument(name = "oubli::Store::take_opening", level = "debug", skip_all)]
    pub fn take_opening(
        &self,
        id: u64,
        deliver: impl FnOnce(&Opening) -> Result<()>,
    ) -> Result<Opening> {
        let opening = self.peek_opening(id)?.ok_or_else(|| {
            Error::InvalidArgument(format!(
                "no opening of purge {id} is pending (it was delivered, or there is no such purge)"
            ))
        })?;
        deliver(&opening)?;
        let guard = self.inner.write();
        let inner = guard.as_ref().ok_or(Error::Closed)?;
        let tx = inner.db.begin_write()?;
        tx.open_table(PENDING_OPENINGS)?.remove(id)?;
        tx.commit()?;
        Ok(opening)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seal_round_trips_and_detects_every_flip() {
        let secret = [5u8; 32];
        let plain = b"{\"selector\":\"Maria Keller\"}".to_vec();
        let sealed = seal(&secret, [9u8; 32], &plain);
        assert_eq!(unseal(&secret, &sealed).unwrap(), plain);
        assert!(
            !sealed.windows(5).any(|w| w == b"Maria"),
            "the sealed record holds the selector in the clear"
        );
        for i in 0..sealed.len() {
            let mut bad = sealed.clone();
            bad[i] ^= 0x01;
            assert!(unseal(&secret, &bad).is_err(), "flip at {i} unsealed");
        }
        assert!(unseal(&[6u8; 32], &sealed).is_err());
        assert!(unseal(&secret, &sealed[..40]).is_err());
    }
}
