//! Tests of the canonicalization module.
