//! What a mutating call acts on: the `OubliTarget` struct, its `OUBLI_TARGET_*` kinds, and
//! reading it into an engine target.

use std::ffi::c_char;

use oubli::Target;

use crate::convert::{cstr, opt_cstr};
use crate::errors::Failure;

/// `OubliTarget.kind`: one row by `id`.
pub const OUBLI_TARGET_ID: u32 = 1;
/// `OubliTarget.kind`: the live row holding `key` in namespace `ns` (NULL: "default").
pub const OUBLI_TARGET_KEY: u32 = 2;
/// `OubliTarget.kind`: the rows `query` describes (within namespace `ns` unless NULL).
pub const OUBLI_TARGET_QUERY: u32 = 3;

/// What a mutating call acts on. Build it with designated initializers:
/// `OubliTarget t = { .kind = OUBLI_TARGET_QUERY, .query = "Ana's door code" };`
#[repr(C)]
pub struct OubliTarget {
    /// `OUBLI_TARGET_ID`, `OUBLI_TARGET_KEY` or `OUBLI_TARGET_QUERY`.
    pub kind: u32,
    /// Row id, for `OUBLI_TARGET_ID`.
    pub id: u64,
    /// Namespace of the key, or the namespace a query is restricted to (NULL: none/default).
    pub ns: *const c_char,
    /// The key, for `OUBLI_TARGET_KEY`.
    pub key: *const c_char,
    /// The description, for `OUBLI_TARGET_QUERY`.
    pub query: *const c_char,
}

/// Reads a target.
///
/// # Safety
/// The strings in `t` follow the struct's documented contract.
pub(crate) unsafe fn read_target(t: &OubliTarget) -> Result<Target, Failure> {
    // SAFETY (all blocks below): the fields follow the documented contract.
    let ns = unsafe { opt_cstr(t.ns, "ns") }?;
    match t.kind {
        OUBLI_TARGET_ID => Ok(Target::id(t.id)),
        OUBLI_TARGET_KEY => Ok(Target::key(
            ns.unwrap_or(oubli::DEFAULT_NAMESPACE),
            unsafe { cstr(t.key, "key") }?,
        )),
        OUBLI_TARGET_QUERY => {
            let q = unsafe { cstr(t.query, "query") }?;
            Ok(match ns {
                Some(ns) => Target::query_in(ns, q),
                None => Target::query(q),
            })
        }
        k => Err(Failure::invalid(format!(
            "target kind {k} is not OUBLI_TARGET_ID, OUBLI_TARGET_KEY or OUBLI_TARGET_QUERY"
        ))),
    }
}
