//! The seeded ledger: line items with a price and a quantity, decoy items that no derived row
//! references, and a planted wrong subtotal.

use std::path::Path;
use std::sync::Arc;

use oubli::{Decimal, Derivation, Inscription, ManualClock, RowId, Store, StoreOptions};

use crate::rng::SplitMix64;

/// Colours; with [`GOODS`] they make 96 distinct item names.
const COLOURS: &[&str] = &[
    "amber", "blue", "coral", "green", "ivory", "lilac", "olive", "rust", "slate", "teal", "umber",
    "violet",
];
/// Goods, plural.
const GOODS: &[&str] = &[
    "notebooks",
    "pens",
    "folders",
    "mugs",
    "lamps",
    "cables",
    "towels",
    "candles",
];

/// Namespace every ledger is written to.
pub const NAMESPACE: &str = "ledger";

/// One line item (or decoy).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// Item name, unique within a ledger.
    pub name: String,
    /// Quantity bought (0 for a decoy).
    pub qty: u32,
    /// Unit price in cents.
    pub price_cents: u32,
    /// Extra words in the text (a unique marker, for the purge check).
    pub marker: Option<String>,
}

impl Item {
    /// Unit price as a decimal string, e.g. `4.25`.
    pub fn price(&self) -> String {
        format!("{}.{:02}", self.price_cents / 100, self.price_cents % 100)
    }

    /// The row text: `7 blue notebooks at $4.25 each`, or for a decoy
    /// `considered, not bought: blue notebooks at $4.25`.
    pub fn text(&self) -> String {
        let name = match &self.marker {
            Some(m) => format!("{m} {}", self.name),
            None => self.name.clone(),
        };
        if self.qty == 0 {
            format!("considered, not bought: {name} at ${}", self.price())
        } else {
            format!("{} {name} at ${} each", self.qty, self.price())
        }
    }

    /// price x qty, exactly.
    pub fn amount(&self) -> Decimal {
        Decimal::parse(&self.price())
            .and_then(|p| p.checked_mul(Decimal::from_int(i64::from(self.qty))))
            .unwrap_or(Decimal::ZERO)
    }

    fn inscription(&self, role: &str) -> Inscription {
        Inscription::new(self.text())
            .namespace(NAMESPACE)
            .meta("price", self.price())
            .meta("qty", self.qty.to_string())
            .meta("role", role)
    }
}

/// A generated ledger.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ledger {
    /// The items bought: the answer-determining source.
    pub items: Vec<Item>,
    /// Items considered but not bought; no derived row references them.
    pub decoys: Vec<Item>,
    /// The subtotal the ledger states: wrong by `planted_error`.
    pub planted: Decimal,
    /// The true subtotal, sum of price x qty over the items.
    pub truth: Decimal,
}

/// Generator parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LedgerConfig {
    /// Seed.
    pub seed: u64,
    /// Items bought (N).
    pub items: usize,
    /// Decoy items.
    pub decoys: usize,
}

/// Sums price x qty over items.
pub fn total(items: &[Item]) -> Decimal {
    items.iter().fold(Decimal::ZERO, |acc, i| {
        acc.checked_add(i.amount()).unwrap_or(acc)
    })
}

/// Generates a ledger: distinct names, prices 0.50 to 24.99, quantities 1 to 9, and a planted
/// subtotal that is off by one item's price times 1 to 3 units (the "pens come to $27" premise).
pub fn generate(cfg: LedgerConfig) -> Ledger {
    let mut rng = SplitMix64::new(cfg.seed ^ 0x1ed6_e7a1);
    let mut names: Vec<String> = COLOURS
        .iter()
        .flat_map(|c| GOODS.iter().map(move |g| format!("{c} {g}")))
        .collect();
    rng.shuffle(&mut names);
    let mut names = names.into_iter().cycle().enumerate().map(|(i, n)| {
        if i < COLOURS.len() * GOODS.len() {
            n
        } else {
            format!("{n} {}", i / (COLOURS.len() * GOODS.len()))
        }
    });
    let mut item = |qty: u32, rng: &mut SplitMix64| Item {
        name: names.next().unwrap_or_default(),
        qty,
        price_cents: rng.range(50, 2499) as u32,
        marker: None,
    };
    let items: Vec<Item> = (0..cfg.items)
        .map(|_| {
            let q = rng.range(1, 9) as u32;
            item(q, &mut rng)
        })
        .collect();
    let decoys: Vec<Item> = (0..cfg.decoys).map(|_| item(0, &mut rng)).collect();
    let truth = total(&items);
    let error = match items.first() {
        Some(first) => Decimal::parse(&first.price())
            .and_then(|p| p.checked_mul(Decimal::from_int(rng.range(1, 3) as i64)))
            .unwrap_or(Decimal::from_int(1)),
        None => Decimal::from_int(1),
    };
    let planted = truth.checked_add(error).unwrap_or(truth);
    Ledger {
        items,
        decoys,
        planted,
        truth,
    }
}

/// Where a ledger landed in a store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loaded {
    /// Row of each item, in ledger order.
    pub items: Vec<RowId>,
    /// Row of each decoy.
    pub decoys: Vec<RowId>,
    /// The planted subtotal (a derived row with a registered derivation, stale from birth).
    pub subtotal: RowId,
}

/// The text of the planted subtotal row.
pub fn subtotal_text(value: Decimal) -> String {
    format!("The order subtotal comes to ${value}")
}

/// Options for a reproducible ledger store: fixed clock, seed and key, not durable.
pub fn store_options() -> StoreOptions {
    StoreOptions::default()
        .clock(Arc::new(ManualClock::new(1_763_700_000_000)))
        .deterministic_seed([42; 32])
        .signing_key([7; 32])
        .durable(false)
}

/// Creates a reproducible store at `path`.
pub fn create_store(path: &Path) -> oubli::Result<Store> {
    Store::create_with(path, store_options())
}

impl Ledger {
    /// Writes the ledger: decoys and items interleaved (decoys first in each pair, so a note
    /// that keeps rows in id order meets decoys before items), then the planted subtotal as a
    /// derived row over the items with `sum(price*qty)` registered.
    pub fn load(&self, store: &Store) -> oubli::Result<Loaded> {
        let mut items = Vec::new();
        let mut decoys = Vec::new();
        let per_item = if self.items.is_empty() {
            0
        } else {
            self.decoys.len().div_ceil(self.items.len())
        };
        let mut d = self.decoys.iter();
        for it in &self.items {
            for dec in d.by_ref().take(per_item) {
                decoys.push(store.inscribe(dec.inscription("decoy"))?);
            }
            items.push(store.inscribe(it.inscription("item"))?);
        }
        for dec in d {
            decoys.push(store.inscribe(dec.inscription("decoy"))?);
        }
        let subtotal = store
            .inscribe_derived(
                Inscription::new(subtotal_text(self.planted))
                    .namespace(NAMESPACE)
                    .meta("value", self.planted.to_string())
                    .derived_from(items.iter().copied()),
                Derivation::sum_of_products(["price", "qty"]),
            )?
            .id;
        Ok(Loaded {
            items,
            decoys,
            subtotal,
        })
    }
}
