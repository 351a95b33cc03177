//! Exact bytes: every `gtp-tests/transcripts/NAME.in` fed to a fresh engine must print
//! exactly `NAME.out`. Run with `YEOUL_BLESS=1` to write the `.out` files (then read them).

use std::io::Cursor;
use yeoul::engine::{Engine, EngineConfig, Level};
use yeoul::rules::{BoardSize, Ruleset};

fn run(input: Vec<u8>) -> Vec<u8> {
    let config = EngineConfig {
        level: Level::EASY,
        threads: 1,
        playouts: Some(200),
        seed: 3,
        ..EngineConfig::default()
    };
    let engine = Engine::new(BoardSize::NINETEEN, Ruleset::Chinese, config);
    let mut out = Vec::new();
    yeoul::gtp::run(engine, Cursor::new(input), &mut out);
    out
}

#[test]
fn transcripts_match_byte_for_byte() {
    let dir = std::path::Path::new("gtp-tests/transcripts");
    let mut inputs: Vec<_> = std::fs::read_dir(dir)
        .expect("transcripts folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "in"))
        .collect();
    inputs.sort();
    assert!(inputs.len() >= 2);
    for input in inputs {
        let output = run(std::fs::read(&input).expect("readable"));
        let expected_path = input.with_extension("out");
        if std::env::var_os("YEOUL_BLESS").is_some() {
            std::fs::write(&expected_path, &output).expect("writable");
            continue;
        }
        let expected = std::fs::read(&expected_path).expect("a .out beside every .in");
        assert_eq!(
            String::from_utf8_lossy(&output),
            String::from_utf8_lossy(&expected),
            "{}",
            input.display()
        );
    }
}

#[test]
fn five_thousand_pipelined_commands_are_answered_in_order() {
    let mut input = String::from("boardsize 9\n");
    for k in 0..2500 {
        input += &format!("{} play b E5\n{} undo\n", 2 * k + 1, 2 * k + 2);
    }
    let out = String::from_utf8(run(input.into_bytes())).unwrap();
    let answers: Vec<&str> = out.split_terminator("\n\n").collect();
    assert_eq!(answers.len(), 5001);
    for (k, a) in answers.iter().skip(1).enumerate() {
        assert_eq!(*a, format!("={} ", k + 1));
    }
}
