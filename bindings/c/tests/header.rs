//! `include/oubli.h` is generated from this crate by cbindgen. This test regenerates it and
//! fails if the checked-in header differs; with `OUBLI_BLESS_HEADER=1` it rewrites the header.

use std::path::Path;

#[test]
fn header_is_up_to_date() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(dir.join("cbindgen.toml")).expect("cbindgen.toml");
    let bindings = cbindgen::Builder::new()
        .with_config(config)
        .with_src(dir.join("src/lib.rs"))
        .generate()
        .expect("cbindgen generates the header");
    let mut generated = Vec::new();
    bindings.write(&mut generated);
    let path = dir.join("include/oubli.h");
    if std::env::var_os("OUBLI_BLESS_HEADER").is_some() {
        std::fs::write(&path, &generated).expect("write include/oubli.h");
        return;
    }
    let current = std::fs::read(&path).unwrap_or_default();
    assert!(
        current == generated,
        "include/oubli.h is out of date: regenerate it with \
         `OUBLI_BLESS_HEADER=1 cargo test -p oubli-c --test header`"
    );
}
