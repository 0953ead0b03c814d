//! Signed checkpoints: the store key's signature over the log head after each write transaction.

use ed25519_dalek::{Signature, Signer, SigningKey, Verifier, VerifyingKey};

use super::event::Hash32;
use crate::error::{AuditError as Error, Result};

/// Encoded length: u64 seq, 32-byte head hash, 64-byte signature.
pub const CHECKPOINT_LEN: usize = 8 + 32 + 64;

const CHECKPOINT_DOMAIN: &[u8] = b"oubli checkpoint v1";
const GENESIS_CONTEXT: &str = "oubli 2026-11-21 genesis v1";

/// The signed head of the log after a write transaction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    /// Sequence number of the last event the checkpoint covers.
    pub seq: u64,
    /// Hash of that event.
    pub head: Hash32,
    /// ed25519 signature over [`checkpoint_message`].
    pub signature: [u8; 64],
}

/// The bytes a checkpoint signs: `"oubli checkpoint v1" || seq (u64 LE) || head`.
pub fn checkpoint_message(seq: u64, head: &Hash32) -> Vec<u8> {
    let mut m = Vec::with_capacity(CHECKPOINT_DOMAIN.len() + 40);
    m.extend_from_slice(CHECKPOINT_DOMAIN);
    m.extend_from_slice(&seq.to_le_bytes());
    m.extend_from_slice(head);
    m
}

/// The `prev_hash` of the first event: binds the log to the store's public key.
pub fn genesis_hash(public_key: &[u8; 32]) -> Hash32 {
    let mut h = blake3::Hasher::new_derive_key(GENESIS_CONTEXT);
    h.update(public_key);
    *h.finalize().as_bytes()
}

impl Checkpoint {
    /// Signs the head.
    pub fn sign(key: &SigningKey, seq: u64, head: Hash32) -> Checkpoint {
        let signature = key.sign(&checkpoint_message(seq, &head)).to_bytes();
        Checkpoint {
            seq,
            head,
            signature,
        }
    }

    /// Checks the signature against `public_key`.
    pub fn verify(&self, public_key: &[u8; 32]) -> Result<()> {
        let key = VerifyingKey::from_bytes(public_key).map_err(|_| Error::LogTampered {
            seq: self.seq,
            reason: "public key is not a valid ed25519 point".into(),
        })?;
        key.verify(
            &checkpoint_message(self.seq, &self.head),
            &Signature::from_bytes(&self.signature),
        )
        .map_err(|_| Error::LogTampered {
            seq: self.seq,
            reason: "checkpoint signature does not verify".into(),
        })
    }

    /// Fixed-length encoding.
    pub fn encode(&self) -> [u8; CHECKPOINT_LEN] {
        let mut out = [0u8; CHECKPOINT_LEN];
        out[..8].copy_from_slice(&self.seq.to_le_bytes());
        out[8..40].copy_from_slice(&self.head);
        out[40..].copy_from_slice(&self.signature);
        out
    }

    /// Inverse of [`Checkpoint::encode`].
    pub fn decode(bytes: &[u8]) -> Result<Checkpoint> {
        if bytes.len() != CHECKPOINT_LEN {
            return Err(Error::Corrupt(format!(
                "checkpoint is {} bytes, expected {CHECKPOINT_LEN}",
                bytes.len()
            )));
        }
        Ok(Checkpoint {
            seq: u64::from_le_bytes(bytes[..8].try_into().expect("8 bytes")),
            head: bytes[8..40].try_into().expect("32 bytes"),
            signature: bytes[40..].try_into().expect("64 bytes"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sign_verify_and_tamper() {
        let key = SigningKey::from_bytes(&[7u8; 32]);
        let pk = key.verifying_key().to_bytes();
        let cp = Checkpoint::sign(&key, 42, [9u8; 32]);
        cp.verify(&pk).unwrap();
        let enc = cp.encode();
        assert_eq!(Checkpoint::decode(&enc).unwrap(), cp);
        for i in 0..CHECKPOINT_LEN {
            let mut bad = enc;
            bad[i] ^= 1;
            let d = Checkpoint::decode(&bad).unwrap();
            assert!(d.verify(&pk).is_err(), "flip at byte {i} verified");
        }
    }
}
