//! The depth scalar: one number that holds a row's forgetting state.
//!
//! | depth        | state      | recalled?                          |
//! |--------------|------------|------------------------------------|
//! | `+inf`       | pinned     | yes, never decays                  |
//! | `1.0`        | surface    | yes                                |
//! | `(0, 1)`     | sinking    | yes, weighted by depth             |
//! | `0`          | submerged  | only when asked (history, as-of)   |
//! | void         | erased     | never: text, vector, postings gone |
//!
//! Void is absorbing: no transition leaves it. Depth only rises through an explicit pin or
//! resurface event.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A row's forgetting state. See the [module docs](self).
///
/// Deserialization accepts only what the engine writes: a level in `[0, 1]`. NaN, infinities
/// and levels outside the range are an error, so a damaged record never yields a depth that
/// compares with nothing.
#[derive(Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "StoredDepth")]
pub enum Depth {
    /// Pinned: depth `+inf`, never decays.
    Pinned,
    /// Surface, sinking or submerged: a finite depth in `[0, 1]`.
    Level(f64),
    /// Erased: text, vector and postings are gone.
    Void,
}

/// The wire form of [`Depth`] (same variants in the same order, so every serde format encodes
/// both alike), checked by `TryFrom` before it becomes a `Depth`.
#[derive(Deserialize)]
#[serde(rename = "Depth")]
enum StoredDepth {
    Pinned,
    Level(f64),
    Void,
}

impl TryFrom<StoredDepth> for Depth {
    type Error = String;

    fn try_from(d: StoredDepth) -> Result<Depth, String> {
        match d {
            StoredDepth::Pinned => Ok(Depth::Pinned),
            StoredDepth::Void => Ok(Depth::Void),
            StoredDepth::Level(l) if (0.0..=1.0).contains(&l) => Ok(Depth::Level(l)),
            StoredDepth::Level(l) => Err(format!("depth level {l} is outside [0, 1]")),
        }
    }
}

/// The coarse state a depth falls into.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DepthState {
    /// `+inf`.
    Pinned,
    /// `1.0`.
    Surface,
    /// `(0, 1)`.
    Sinking,
    /// `0`.
    Submerged,
    /// Erased.
    Void,
}

impl DepthState {
    /// Lower-case name, as printed by the CLI and written in docs.
    pub fn name(self) -> &'static str {
        match self {
            DepthState::Pinned => "pinned",
            DepthState::Surface => "surface",
            DepthState::Sinking => "sinking",
            DepthState::Submerged => "submerged",
            DepthState::Void => "void",
        }
    }
}

impl Depth {
    /// A fresh row.
    pub const SURFACE: Depth = Depth::Level(1.0);
    /// A released or superseded row.
    pub const SUBMERGED: Depth = Depth::Level(0.0);

    /// A sinking depth, clamped into `[0, 1]`; non-finite input submerges.
    pub fn level(d: f64) -> Depth {
        if d.is_finite() {
            Depth::Level(d.clamp(0.0, 1.0))
        } else {
            Depth::SUBMERGED
        }
    }

    /// The coarse state.
    pub fn state(self) -> DepthState {
        match self {
            Depth::Pinned => DepthState::Pinned,
            Depth::Void => DepthState::Void,
            Depth::Level(d) if d >= 1.0 => DepthState::Surface,
            Depth::Level(d) if d <= 0.0 => DepthState::Submerged,
            Depth::Level(_) => DepthState::Sinking,
        }
    }

    /// True for pinned, surface and sinking rows: the rows recall returns by default.
    pub fn is_live(self) -> bool {
        matches!(
            self.state(),
            DepthState::Pinned | DepthState::Surface | DepthState::Sinking
        )
    }

    /// True once purged.
    pub fn is_void(self) -> bool {
        matches!(self, Depth::Void)
    }

    /// The factor recall multiplies a row's fused score by: 1 for pinned and surface rows, the
    /// depth for sinking rows, a small floor for submerged rows (only seen when asked), 0 for void.
    pub fn recall_weight(self) -> f64 {
        match self {
            Depth::Pinned => 1.0,
            Depth::Void => 0.0,
            Depth::Level(d) => d.max(SUBMERGED_WEIGHT),
        }
    }

    /// Depth as an `f64`: `+inf` for pinned, `NaN` for void.
    pub fn as_f64(self) -> f64 {
        match self {
            Depth::Pinned => f64::INFINITY,
            Depth::Level(d) => d,
            Depth::Void => f64::NAN,
        }
    }

    /// True when `self` and `other` are the same depth bit for bit (a level of `-0.0` is not
    /// `+0.0` here, though both encode alike): how verification compares a stored depth with
    /// the log's, so that no returned byte can differ from what the log gives.
    pub fn identical(self, other: Depth) -> bool {
        match (self, other) {
            (Depth::Level(a), Depth::Level(b)) => a.to_bits() == b.to_bits(),
            _ => self.encode() == other.encode(),
        }
    }

    /// The same depth with a level of `-0.0` written as `+0.0` (what the log's encoding gives
    /// back): the form rows are stored in.
    pub fn canonical(self) -> Depth {
        match self {
            // `+ 0.0` turns -0.0 into +0.0 and leaves every other level as it is.
            Depth::Level(d) => Depth::Level(d + 0.0),
            d => d,
        }
    }

    /// Canonical 9-byte encoding used in the event log: a tag byte (1 level, 2 pinned, 3 void)
    /// and the IEEE-754 bits of the level, little endian (zero for pinned and void).
    pub fn encode(self) -> [u8; 9] {
        let mut out = [0u8; 9];
        match self {
            Depth::Level(d) => {
                out[0] = 1;
                // Normalize -0.0 so that equal depths always encode to equal bytes.
                let d = if d == 0.0 { 0.0 } else { d };
                out[1..].copy_from_slice(&d.to_bits().to_le_bytes());
            }
            Depth::Pinned => out[0] = 2,
            Depth::Void => out[0] = 3,
        }
        out
    }

    /// Inverse of [`Depth::encode`]; `None` for any other byte pattern.
    pub fn decode(bytes: &[u8; 9]) -> Option<Depth> {
        let mut bits = [0u8; 8];
        bits.copy_from_slice(&bytes[1..]);
        let level = f64::from_bits(u64::from_le_bytes(bits));
        match bytes[0] {
            1 if (0.0..=1.0).contains(&level) && !(level == 0.0 && level.is_sign_negative()) => {
                Some(Depth::Level(level))
            }
            2 if bits == [0; 8] => Some(Depth::Pinned),
            3 if bits == [0; 8] => Some(Depth::Void),
            _ => None,
        }
    }
}

/// Weight of a submerged row when a caller asks for submerged rows.
pub const SUBMERGED_WEIGHT: f64 = 0.05;

impl fmt::Debug for Depth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Depth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Depth::Pinned => f.write_str("+inf"),
            Depth::Void => f.write_str("void"),
            Depth::Level(d) => write!(f, "{d}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states() {
        assert_eq!(Depth::Pinned.state(), DepthState::Pinned);
        assert_eq!(Depth::SURFACE.state(), DepthState::Surface);
        assert_eq!(Depth::level(0.5).state(), DepthState::Sinking);
        assert_eq!(Depth::SUBMERGED.state(), DepthState::Submerged);
        assert_eq!(Depth::Void.state(), DepthState::Void);
        assert!(!Depth::SUBMERGED.is_live());
        assert!(Depth::level(0.01).is_live());
    }

    #[test]
    fn deserialization_refuses_levels_the_engine_never_writes() {
        for d in [
            Depth::Pinned,
            Depth::Void,
            Depth::SURFACE,
            Depth::level(0.25),
        ] {
            let json = serde_json::to_string(&d).unwrap();
            let back: Depth = serde_json::from_str(&json).unwrap();
            assert!(back.identical(d), "{json}");
        }
        // Negative zero is kept bit for bit: verification tells it from +0.0.
        let zero: Depth = serde_json::from_str(r#"{"Level":-0.0}"#).unwrap();
        assert!(zero.identical(Depth::Level(-0.0)));
        for bad in [
            r#"{"Level":1.5}"#,
            r#"{"Level":-0.25}"#,
            r#"{"Level":1e308}"#,
        ] {
            assert!(serde_json::from_str::<Depth>(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn encoding_round_trips_and_rejects_garbage() {
        for d in [
            Depth::Pinned,
            Depth::Void,
            Depth::SURFACE,
            Depth::level(0.25),
            Depth::SUBMERGED,
        ] {
            assert_eq!(Depth::decode(&d.encode()), Some(d));
        }
        let mut bad = Depth::SURFACE.encode();
        bad[0] = 9;
        assert_eq!(Depth::decode(&bad), None);
        let mut nan = [0u8; 9];
        nan[0] = 1;
        nan[1..].copy_from_slice(&f64::NAN.to_bits().to_le_bytes());
        assert_eq!(Depth::decode(&nan), None);
        assert_eq!(Depth::level(-0.0).encode(), Depth::SUBMERGED.encode());
        assert!(!Depth::level(-0.0).identical(Depth::SUBMERGED));
        assert!(Depth::level(-0.0).canonical().identical(Depth::SUBMERGED));
    }
}
