//! Runs every `gtp-tests/*.tst` file in-process, in the gogui-regress format: a numbered
//! command followed by `#? [regex]` must answer something the regex matches in full
//! (`[!regex]`: must not match; a `*` after the brackets marks a known failure, which
//! must still fail). Each file gets a fresh engine with a fixed seed and a small budget.

use regex_lite::Regex;
use std::io::Cursor;
use yeoul::engine::{Engine, EngineConfig, Level};
use yeoul::rules::{BoardSize, Ruleset};

struct Expectation {
    id: u64,
    pattern: String,
    negated: bool,
    known_failure: bool,
}

/// The commands to send and the expectations on numbered ones.
fn parse_tst(text: &str) -> (String, Vec<Expectation>) {
    let mut input = String::new();
    let mut expectations = Vec::new();
    let mut last_id = None;
    for line in text.lines() {
        let trimmed = line.trim();
        if let Some(rest) = trimmed.strip_prefix("#?") {
            let rest = rest.trim();
            let known_failure = rest.ends_with('*');
            let body = rest.trim_end_matches('*');
            let inner = body
                .strip_prefix('[')
                .and_then(|b| b.strip_suffix(']'))
                .expect("#? [pattern]");
            let (negated, pattern) = match inner.strip_prefix('!') {
                Some(p) => (true, p.to_string()),
                None => (false, inner.to_string()),
            };
            let id = last_id.expect("#? follows a numbered command");
            expectations.push(Expectation {
                id,
                pattern,
                negated,
                known_failure,
            });
        } else if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        } else {
            last_id = trimmed
                .split_whitespace()
                .next()
                .and_then(|w| w.parse().ok());
            input.push_str(trimmed);
            input.push('\n');
        }
    }
    (input, expectations)
}

/// Responses by id (`None` for commands without one), in order.
fn run(input: &str) -> Vec<(Option<u64>, bool, String)> {
    let config = EngineConfig {
        level: Level::NORMAL,
        threads: 1,
        playouts: Some(2_000),
        seed: 7,
        ..EngineConfig::default()
    };
    let engine = Engine::new(BoardSize::NINETEEN, Ruleset::Chinese, config);
    let mut out = Vec::new();
    yeoul::gtp::run(engine, Cursor::new(input.as_bytes().to_vec()), &mut out);
    let text = String::from_utf8(out).expect("UTF-8");
    text.split_terminator("\n\n")
        .map(|response| {
            let ok = response.starts_with('=');
            let (head, body) = response[1..]
                .split_once(' ')
                .expect("a space after the marker");
            (head.parse().ok(), ok, body.to_string())
        })
        .collect()
}

#[test]
fn every_regression_file_passes() {
    let mut files: Vec<_> = std::fs::read_dir("gtp-tests")
        .expect("gtp-tests folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "tst"))
        .collect();
    files.sort();
    assert!(files.len() >= 5, "{files:?}");
    let mut failures = Vec::new();
    let mut checked = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).expect("readable file");
        let (input, expectations) = parse_tst(&text);
        let responses = run(&input);
        for e in &expectations {
            // An error answer matches against its message, as gogui-regress does.
            let (_, _, body) = responses
                .iter()
                .find(|(id, _, _)| *id == Some(e.id))
                .unwrap_or_else(|| panic!("{}: no response to {}", file.display(), e.id));
            let re = Regex::new(&format!("^(?s:{})$", e.pattern)).expect("valid regex");
            let passed = re.is_match(body) != e.negated;
            checked += 1;
            if passed == e.known_failure {
                failures.push(format!(
                    "{} {}: got {body:?}, pattern [{}]",
                    file.display(),
                    e.id,
                    e.pattern
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 30, "{checked}");
}
