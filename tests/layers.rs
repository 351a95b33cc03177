//! The library's layers run one way (DESIGN.md: rules <- knowledge <- search <- referee
//! <- engine <- gtp <- match <- main; the match runner speaks GTP to other engines): no
//! module's code names one on its own layer or above it (its unit tests may).

use std::path::Path;

/// Each top module of `src/` with its layer, lowest first.
const LAYERS: [(&str, u32); 11] = [
    ("rules", 0),
    ("knowledge", 1),
    ("sgf", 1),
    ("network", 2),
    ("search", 3),
    ("train", 5),
    ("referee", 4),
    ("bench", 4),
    ("engine", 5),
    ("gtp", 6),
    ("match_runner", 7),
];

fn layer(module: &str) -> u32 {
    LAYERS
        .iter()
        .find(|(name, _)| *name == module)
        .map(|&(_, layer)| layer)
        .unwrap_or_else(|| panic!("src/{module} has no layer in tests/layers.rs"))
}

/// The Rust files under `dir`.
fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source folder").flatten() {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn no_module_names_one_on_its_layer_or_above() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut wrong = Vec::new();
    for file in &files {
        let relative = file.strip_prefix(&src).expect("under src");
        let top = relative
            .iter()
            .next()
            .and_then(|t| t.to_str())
            .expect("a name");
        let own = top.trim_end_matches(".rs");
        if own == "main" || own == "lib" {
            continue;
        }
        let text = std::fs::read_to_string(file).expect("a source file");
        let code = text
            .split("#[cfg(test)]\nmod tests")
            .next()
            .unwrap_or_default();
        for (at, _) in code.match_indices("crate::") {
            let named: String = code[at + 7..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !named.is_empty() && named != own && layer(&named) >= layer(own) {
                wrong.push(format!("{}: crate::{named}", relative.display()));
            }
        }
    }
    assert!(layer("rules") < layer("engine"));
    assert!(
        wrong.is_empty(),
        "imports that run up or across: {wrong:#?}"
    );
}
