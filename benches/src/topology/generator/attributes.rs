//! The vocabulary of each domain: the three fact attributes and the extra attribute collision
//! rows use, with their other names and value shapes.

use serde::Serialize;

use super::Domain;
use super::values::Shape;

/// An attribute of a domain.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Attribute {
    /// Canonical name ("prescription number").
    pub name: &'static str,
    /// Other ways people name it ("Rx", "script").
    pub aliases: &'static [&'static str],
    pub(super) shape: Shape,
}

const fn attr(name: &'static str, aliases: &'static [&'static str], shape: Shape) -> Attribute {
    Attribute {
        name,
        aliases,
        shape,
    }
}

/// The three fact attributes of a domain, and the extra attribute collision rows use.
pub(super) fn attributes(d: Domain) -> ([Attribute; 3], Attribute) {
    match d {
        Domain::Medical => (
            [
                attr(
                    "medical record number",
                    &["chart number", "hospital number"],
                    Shape::Prefixed("MRN", 7),
                ),
                attr(
                    "prescription number",
                    &["Rx number", "script number"],
                    Shape::Prefixed("RX", 6),
                ),
                attr(
                    "health insurance number",
                    &["insurance ID", "insurance card number"],
                    Shape::Insurance,
                ),
            ],
            attr(
                "appointment reference",
                &["booking reference"],
                Shape::Prefixed("APT", 6),
            ),
        ),
        Domain::Finance => (
            [
                attr(
                    "IBAN",
                    &["bank account", "account for transfers"],
                    Shape::Iban,
                ),
                attr("card number", &["credit card", "Visa card"], Shape::Card),
                attr(
                    "customer number",
                    &["client number", "customer ID"],
                    Shape::Prefixed("CN", 8),
                ),
            ],
            attr(
                "savings account number",
                &["savings account"],
                Shape::Prefixed("SA", 8),
            ),
        ),
        Domain::Staff => (
            [
                attr(
                    "badge number",
                    &["access badge", "door pass"],
                    Shape::Prefixed("B", 5),
                ),
                attr("phone number", &["mobile", "direct line"], Shape::Phone),
                attr(
                    "personnel number",
                    &["staff number", "employee ID"],
                    Shape::Personnel,
                ),
            ],
            attr("locker number", &["locker"], Shape::Prefixed("L", 4)),
        ),
    }
}
