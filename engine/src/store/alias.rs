//! The alias registry: surface forms that name the same person, account or identifier.
//!
//! Canonicalization already links the forms it can prove equal (case, diacritics, scripts,
//! spelling variants, identifier grouping; see [`crate::canon`]). The registry holds what no
//! rule can know: that "Bob", "Robert Smith", `bob.smith@example.org` and "+1 415 555 0132" are
//! one person. A targeting query that names any form of a group is also tried with every other
//! form, so a purge of "Robert Smith" reaches the row that only says `bob.smith@example.org`.
//!
//! Groups live in the store file, one record per group, with a salt: the `config` event that
//! records a declaration carries only a salted commitment of the forms. A purge whose query is
//! only a form of a group (a purge of the person, not of one fact about them) erases the group
//! too, and its receipt carries the forms' commitments.

use std::collections::BTreeSet;

use redb::ReadableTable;
use serde::{Deserialize, Serialize};

use super::Store;
use super::batch::Batch;
use super::targeting::query::QueryShape;
use crate::canon::{self, Chunk};
use crate::error::{Error, Result};
use crate::log::{EventKind, Hash32};
use crate::row::{MAX_FIELD_BYTES, validate_field};
use crate::storage::{self, ALIASES};

/// Most forms one group may hold.
pub const MAX_FORMS: usize = 64;
/// Most alternative queries an alias expansion produces.
const MAX_EXPANSIONS: usize = 32;

/// What an alias group names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AliasKind {
    /// A person (names, nicknames, handles).
    Person,
    /// An account (user names, account numbers, e-mail addresses).
    Account,
    /// An identifier with several spellings (ticket, device, document numbers).
    Identifier,
    /// Anything else (a place, a project).
    Other,
}

/// A set of surface forms that name one thing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AliasGroup {
    /// Group id, never reused.
    pub id: u64,
    /// Namespace the group belongs to.
    pub namespace: String,
    /// What the forms name.
    pub kind: AliasKind,
    /// The forms, in declaration order, without duplicates.
    pub forms: Vec<String>,
    /// Salt of the group's commitment in the log; erased with the group. It hides the forms
    /// from readers of the log, not from the store's owner.
    pub salt: [u8; 32],
}

impl AliasGroup {
    /// Salted commitment of the group's forms, as logged.
    pub(crate) fn commitment(&self) -> Hash32 {
        let mut h = blake3::Hasher::new_keyed(&self.salt);
        h.update(b"oubli-alias-v1");
        for f in &self.forms {
            h.update(&(f.len() as u64).to_le_bytes());
            h.update(f.as_bytes());
        }
        *h.finalize().as_bytes()
    }
}

fn same_chunk(a: &Chunk, b: &Chunk) -> bool {
    a.form == b.form || canon::same_name(a, b)
}

/// Byte spans of `query` where `form` occurs, whole chunks only, in any canonical spelling.
pub(crate) fn occurrences(query: &str, form: &str) -> Vec<std::ops::Range<usize>> {
    let q = canon::chunks(query);
    let f = canon::chunks(form);
    let mut out = Vec::new();
    if f.is_empty() {
        return out;
    }
    if let Some(code) = canon::code(form)
        && code.chars().any(|c| c.is_ascii_digit())
    {
        out.extend(canon::find_code(&q, &code));
    }
    for typed in canon::identifiers(form) {
        for qi in canon::identifiers(query) {
            if canon::same_identifier(&typed, &qi) {
                out.push(qi.span.clone());
            }
        }
    }
    if q.len() >= f.len() {
        for i in 0..=q.len() - f.len() {
            if f.iter().zip(&q[i..]).all(|(a, b)| same_chunk(a, b)) {
                out.push(q[i].span.start..q[i + f.len() - 1].span.end);
            }
        }
    }
    out.sort_by_key(|r| (r.start, r.end));
    out.dedup();
    out
}

/// The groups of `namespace` (all namespaces when `None`) that `query` names.
pub(crate) fn groups_named<'a>(
    query: &str,
    namespace: Option<&str>,
    groups: &'a [AliasGroup],
) -> Vec<(&'a AliasGroup, std::ops::Range<usize>)> {
    let mut out = Vec::new();
    for g in groups {
        if namespace.is_some_and(|ns| ns != g.namespace) {
            continue;
        }
        if let Some(span) = g
            .forms
            .iter()
            .flat_map(|f| occurrences(query, f))
            .max_by_key(|r| (r.end - r.start, std::cmp::Reverse(r.start)))
        {
            out.push((g, span));
        }
    }
    out
}

/// The query and its alias variants: the query first, then the query with each named form
/// replaced by each other form of its group.
pub(crate) fn expansions(
    query: &str,
    namespace: Option<&str>,
    groups: &[AliasGroup],
) -> Vec<QueryShape> {
    let mut texts = vec![query.to_owned()];
    let mut seen: BTreeSet<String> = texts.iter().cloned().collect();
    for (g, span) in groups_named(query, namespace, groups) {
        for f in &g.forms {
            if texts.len() >= MAX_EXPANSIONS {
                break;
            }
            let alt = format!("{}{}{}", &query[..span.start], f, &query[span.end..]);
            if seen.insert(alt.clone()) {
                texts.push(alt);
            }
        }
    }
    texts.iter().map(|t| QueryShape::parse(t)).collect()
}

/// True if `query` is nothing but a form of `group` (the purge of the entity itself).
pub(crate) fn names_only(query: &str, span: &std::ops::Range<usize>) -> bool {
    let rest = format!("{} {}", &query[..span.start], &query[span.end..]);
    QueryShape::parse(&rest).units() == 0
}

/// True if `a` and `b` are the same form in some canonical spelling.
fn same_form(a: &str, b: &str) -> bool {
    let chunks = canon::chunks(a);
    let (Some(first), Some(last)) = (chunks.first(), chunks.last()) else {
        return false;
    };
    let whole = first.span.start..last.span.end;
    occurrences(a, b).contains(&whole) || a.trim() == b.trim()
}

/// Every group stored in `table`, in id order.
fn decode_all(table: &impl ReadableTable<u64, &'static [u8]>) -> Result<Vec<AliasGroup>> {
    let mut out = Vec::new();
    for e in table.iter()? {
        out.push(storage::decode(e?.1.value())?);
    }
    Ok(out)
}

impl Batch<'_> {
    /// Every alias group, as this transaction sees it.
    pub(crate) fn alias_groups(&self) -> Result<Vec<AliasGroup>> {
        decode_all(&self.tx.open_table(ALIASES)?)
    }

    /// Deletes a group (purge of the entity it names).
    pub(crate) fn delete_alias_group(&self, id: u64) -> Result<()> {
        self.tx.open_table(ALIASES)?.remove(id)?;
        Ok(())
    }
}

fn validate_forms(forms: &[&str]) -> Result<Vec<String>> {
    if forms.is_empty() {
        return Err(Error::InvalidArgument("an alias group needs a form".into()));
    }
    if forms.len() > MAX_FORMS {
        return Err(Error::InvalidArgument(format!(
            "an alias group holds at most {MAX_FORMS} forms, got {}",
            forms.len()
        )));
    }
    let mut out: Vec<String> = Vec::new();
    for f in forms {
        let f = f.trim();
        if f.is_empty() || f.len() > MAX_FIELD_BYTES {
            return Err(Error::InvalidArgument(format!(
                "alias form must be 1 to {MAX_FIELD_BYTES} bytes, got {} bytes",
                f.len()
            )));
        }
        if canon::chunks(f).is_empty() {
            return Err(Error::InvalidArgument(format!(
                "alias form {f:?} has no letters or digits"
            )));
        }
        if !out.iter().any(|o| o == f) {
            out.push(f.to_owned());
        }
    }
    Ok(out)
}

impl Store {
    /// Declares that `forms` name one person, account or identifier in `namespace`.
    ///
    /// A group that already shares a form (in any canonical spelling) with the new one absorbs
    /// it, so declarations compose: declaring {Bob, Robert Smith} and then {Robert Smith,
    /// bob@example.org} gives one group of three. Logged as a `config` event carrying a salted
    /// commitment of the forms. Returns the resulting group.
    #[tracing::instrument(name = "oubli::Store::declare_alias", level = "debug", skip_all)]
    pub fn declare_alias(
        &self,
        namespace: &str,
        kind: AliasKind,
        forms: &[&str],
    ) -> Result<AliasGroup> {
        validate_field("namespace", namespace)?;
        let forms = validate_forms(forms)?;
        self.write(|b| {
            let groups = b.alias_groups()?;
            let overlapping: Vec<&AliasGroup> = groups
                .iter()
                .filter(|g| g.namespace == namespace)
                .filter(|g| {
                    g.forms
                        .iter()
                        .any(|old| forms.iter().any(|new| same_form(new, old)))
                })
                .collect();
            let mut merged: Vec<String> = Vec::new();
            for f in overlapping
                .iter()
                .flat_map(|g| g.forms.iter())
                .chain(forms.iter())
            {
                if !merged.contains(f) {
                    merged.push(f.clone());
                }
            }
            if merged.len() > MAX_FORMS {
                return Err(Error::InvalidArgument(format!(
                    "the merged alias group would hold {} forms, more than {MAX_FORMS}",
                    merged.len()
                )));
            }
            let id = match overlapping.iter().map(|g| g.id).min() {
                Some(id) => id,
                None => groups.iter().map(|g| g.id + 1).max().unwrap_or(1),
            };
            for g in &overlapping {
                b.delete_alias_group(g.id)?;
            }
            let group = AliasGroup {
                id,
                namespace: namespace.to_owned(),
                kind,
                forms: merged,
                salt: b.salt(),
            };
            b.tx.open_table(ALIASES)?
                .insert(id, storage::encode(&group)?.as_slice())?;
            b.event(
                EventKind::Config,
                namespace,
                vec![],
                vec![group.commitment()],
            )?;
            Ok(group)
        })
    }

    /// Every alias group, in id order; only those of `namespace` when given.
    pub fn aliases(&self, namespace: Option<&str>) -> Result<Vec<AliasGroup>> {
        let all = self.read(|i| i.alias_groups())?;
        Ok(all
            .into_iter()
            .filter(|g| namespace.is_none_or(|ns| ns == g.namespace))
            .collect())
    }

    /// Removes an alias group (its rows are untouched). Logged as a `config` event.
    #[tracing::instrument(name = "oubli::Store::remove_alias", level = "debug", skip_all)]
    pub fn remove_alias(&self, id: u64) -> Result<()> {
        self.write(|b| {
            let group = b
                .alias_groups()?
                .into_iter()
                .find(|g| g.id == id)
                .ok_or_else(|| Error::InvalidArgument(format!("no alias group {id}")))?;
            b.delete_alias_group(id)?;
            b.event(
                EventKind::Config,
                &group.namespace,
                vec![],
                vec![group.commitment()],
            )?;
            Ok(())
        })
    }
}

impl super::Inner {
    /// Every alias group, from a fresh read transaction.
    pub(crate) fn alias_groups(&self) -> Result<Vec<AliasGroup>> {
        let tx = self.db.begin_read()?;
        match storage::open_read(&tx, ALIASES)? {
            Some(t) => decode_all(&t),
            None => Ok(Vec::new()),
        }
    }
}
