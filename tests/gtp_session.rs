//! The GTP loop driven in-process over byte buffers: exact framing, errors, and a short
//! game.

use std::io::Cursor;
use yeoul::engine::{Engine, EngineConfig, Level};
use yeoul::rules::{BoardSize, Ruleset};

fn session(input: &str) -> String {
    let config = EngineConfig {
        level: Level::EASY,
        threads: 1,
        playouts: Some(300),
        ..EngineConfig::default()
    };
    let engine = Engine::new(BoardSize::NINETEEN, Ruleset::Chinese, config);
    let mut out = Vec::new();
    yeoul::gtp::run(engine, Cursor::new(input.as_bytes().to_vec()), &mut out);
    String::from_utf8(out).expect("GTP output is UTF-8")
}

#[test]
fn responses_echo_ids_and_end_with_one_empty_line() {
    assert_eq!(session("1 protocol_version\nname\n"), "=1 2\n\n= yeoul\n\n");
}

#[test]
fn comments_tabs_carriage_returns_and_empty_lines_are_ignored() {
    assert_eq!(
        session("\n# a comment\n\t7\tprotocol_version\t# trailing\r\n\n"),
        "=7 2\n\n"
    );
}

#[test]
fn errors_use_the_specification_texts_and_leave_the_game_unchanged() {
    let out = session(
        "boardsize 9\nplay b D4\n1 play w D4\n2 play x E5\n3 boardsize 0\n4 frobnicate\n5 undo\n6 undo\n",
    );
    assert_eq!(
        out,
        "= \n\n= \n\n?1 illegal move\n\n?2 syntax error\n\n?3 unacceptable size\n\n\
         ?4 unknown command\n\n=5 \n\n?6 cannot undo\n\n"
    );
}

#[test]
fn komi_survives_boardsize_and_showboard_has_no_empty_line() {
    let out = session("komi 0.5\nboardsize 5\nplay b C3\nshowboard\n");
    let board = out.split("\n\n").nth(3).expect("a fourth response");
    assert!(board.starts_with("= \n"), "{board:?}");
    assert!(board.contains(" 3 . . X . . 3"), "{board}");
    assert!(board.contains("komi 0.5"), "{board}");
}

#[test]
fn genmove_answers_a_legal_vertex_and_plays_it() {
    let out = session("boardsize 9\ngenmove b\nshowboard\n");
    let answers: Vec<&str> = out.split("\n\n").collect();
    let vertex = answers[1].trim_start_matches("= ");
    assert!(vertex.len() >= 2 && vertex.len() <= 3, "{vertex}");
    assert!(
        answers[2].contains('X'),
        "the move is on the board: {}",
        answers[2]
    );
}

#[test]
fn known_command_and_list_commands_read_one_table() {
    let out = session("known_command play\nknown_command frobnicate\nlist_commands\n");
    assert!(out.starts_with("= true\n\n= false\n\n= "));
    let list = out.split("\n\n").nth(2).unwrap();
    for name in [
        "protocol_version",
        "genmove",
        "kgs-genmove_cleanup",
        "final_status_list",
    ] {
        assert!(
            list.lines().any(|l| l.trim_start_matches("= ") == name),
            "{name}"
        );
    }
    assert!(list.lines().all(|l| l == l.trim_end()));
}

#[test]
fn handicap_commands_place_and_check_stones() {
    let out = session(
        "boardsize 9\nfixed_handicap 3\nfixed_handicap 2\nclear_board\nset_free_handicap A1\nset_free_handicap A1 A1\nset_free_handicap A1 B2\n",
    );
    assert_eq!(
        out,
        "= \n\n= C3 G7 C7\n\n? board not empty\n\n= \n\n? bad vertex list\n\n? bad vertex list\n\n= \n\n"
    );
}

#[test]
fn quit_ends_the_session_at_once() {
    assert_eq!(session("quit\nname\n"), "= \n\n");
}

#[test]
fn play_sequence_is_all_or_nothing_and_gg_undo_takes_back_several_moves() {
    let out = session(
        "boardsize 9\ngogui-play_sequence B D4 W E5 B D4\nshowboard\ngogui-play_sequence B D4 W E5 B F6\ngg-undo 2\ngg-undo 5\nshowboard\n",
    );
    let answers: Vec<&str> = out.split("\n\n").collect();
    assert_eq!(answers[1], "? illegal move");
    assert!(
        !answers[2].contains('X'),
        "nothing was played: {}",
        answers[2]
    );
    assert_eq!(answers[3], "= ");
    assert_eq!(answers[4], "= ");
    assert_eq!(answers[5], "? cannot undo");
    assert!(
        answers[6].contains(" 4 . . . X") && !answers[6].contains('O'),
        "{}",
        answers[6]
    );
}

#[test]
fn setup_player_hands_the_turn_over() {
    let out = session("boardsize 9\ngogui-setup B D4 B E5 W C3\ngogui-setup_player w\nshowboard\n");
    assert!(out.contains("white to move"), "{out}");
}

#[test]
fn gogui_analyze_commands_are_well_formed_and_known() {
    let out = session("gogui-analyze_commands\n");
    let list = out.trim_start_matches("= ").trim_end();
    for line in list.lines() {
        let fields: Vec<&str> = line.split('/').collect();
        assert_eq!(fields.len(), 3, "{line}");
        let name = fields[2].split_whitespace().next().unwrap();
        let known = session(&format!("known_command {name}\n"));
        assert_eq!(known, "= true\n\n", "{name}");
    }
}

#[test]
fn stats_and_ownership_describe_the_last_search() {
    let out = session("boardsize 7\ngenmove b\nyeoul-stats\nyeoul-ownership\n");
    let answers: Vec<&str> = out.split("\n\n").collect();
    let json: serde_json::Value =
        serde_json::from_str(answers[2].trim_start_matches("= ")).expect("yeoul-stats is JSON");
    assert_eq!(json["playouts"], 300, "{json}");
    assert!(json["best"].is_string() && json["pv"].is_array(), "{json}");
    assert!(
        json["winrate"].is_number() && json["decision"].is_string(),
        "{json}"
    );
    let board: Vec<&str> = answers[3].lines().skip(1).collect();
    assert_eq!(board.len(), 7, "{}", answers[3]);
    for row in board {
        let values: Vec<f32> = row.split_whitespace().map(|v| v.parse().unwrap()).collect();
        assert_eq!(values.len(), 7);
        assert!(values.iter().all(|v| (-1.0..=1.0).contains(v)));
    }
}

#[test]
fn benchmark_answers_one_json_object() {
    let out = session("yeoul-benchmark 5 150 1\nyeoul-benchmark 5 0\n");
    let answers: Vec<&str> = out.split("\n\n").collect();
    let json: serde_json::Value =
        serde_json::from_str(answers[0].trim_start_matches("= ")).expect("yeoul-benchmark is JSON");
    assert_eq!(json["board"], 5, "{json}");
    assert_eq!(json["threads"], 1, "{json}");
    assert!(
        json["playouts"].as_u64().is_some_and(|n| n >= 150),
        "{json}"
    );
    assert!(json["playouts_per_second"].is_u64(), "{json}");
    assert_eq!(answers[1], "? syntax error");
}

#[test]
fn loadsgf_and_printsgf_round_trip_a_game() {
    let dir = std::env::temp_dir().join(format!("yeoul-sgf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.sgf");
    std::fs::write(
        &file,
        "(;GM[1]FF[4]SZ[9]KM[6.5]RU[Japanese];B[ee];W[cg];B[gc];W[])",
    )
    .unwrap();
    let path = file.display();
    let out = session(&format!(
        "loadsgf {path}\nyeoul-rules\nprintsgf\nloadsgf {path} 2\nshowboard\nloadsgf {path} G7\nshowboard\nloadsgf /nonexistent/file.sgf\n"
    ));
    let answers: Vec<&str> = out.split("\n\n").collect();
    assert_eq!(answers[0], "= ");
    assert_eq!(answers[1], "= japanese");
    assert!(
        answers[2].contains(";B[ee];W[cg];B[gc];W[]") && answers[2].contains("KM[6.5]"),
        "{}",
        answers[2]
    );
    assert!(
        answers[4].contains(" 5 . . . . X") && !answers[4].contains('O'),
        "{}",
        answers[4]
    );
    assert!(
        answers[6].contains('O') && !answers[6].contains(" 7 . . . . . . X"),
        "{}",
        answers[6]
    );
    assert_eq!(answers[7], "? cannot load file");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn loadsgf_reads_a_latin_1_record() {
    let dir = std::env::temp_dir().join(format!("yeoul-latin1-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("old.sgf");
    // "Hrab\xe1nek" in Latin-1 is not UTF-8; the moves still count.
    let mut bytes = b"(;FF[3]SZ[9]PW[Hrab".to_vec();
    bytes.push(0xE1);
    bytes.extend_from_slice(b"nek];B[ee];W[tt])");
    std::fs::write(&file, bytes).unwrap();
    let out = session(&format!("loadsgf {}\nshowboard\n", file.display()));
    let answers: Vec<&str> = out.split("\n\n").collect();
    assert_eq!(answers[0], "= ");
    assert!(answers[1].contains(" 5 . . . . X"), "{}", answers[1]);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn genmove_after_a_resignation_still_answers_and_the_game_goes_on() {
    let config = EngineConfig {
        level: Level::NORMAL,
        threads: 1,
        playouts: Some(600),
        ..EngineConfig::default()
    };
    let engine = Engine::new(BoardSize::NINETEEN, Ruleset::Chinese, config);
    // Black walls off four fifths of a 5x5 board; White, to move, has no hope.
    let input = "boardsize 5\nkomi 0\nplay b D1\nplay b D2\nplay b D3\nplay b D4\nplay b D5\nplay b B3\n\
                 genmove w\nplay b pass\ngenmove w\nplay b pass\ngenmove w\nplay b A1\n";
    let mut out = Vec::new();
    yeoul::gtp::run(engine, Cursor::new(input.as_bytes().to_vec()), &mut out);
    let out = String::from_utf8(out).unwrap();
    let answers: Vec<&str> = out.split_terminator("\n\n").collect();
    assert_eq!(answers.len(), 14, "{out}");
    assert!(answers.iter().all(|a| a.starts_with("= ")), "{out}");
    let genmoves = [answers[8], answers[10], answers[12]];
    assert!(genmoves.contains(&"= resign"), "{genmoves:?}");
}

#[test]
fn yeoul_policy_lists_legal_moves_best_first_with_probabilities_that_sum_to_at_most_one() {
    // Black A2 has taken White A1: four stones on the board, A1 a suicide for White.
    let setup = "boardsize 9\nplay b B1\nplay w A1\nplay b C5\nplay w B2\nplay b A2\n";
    let out = session(&format!(
        "{setup}yeoul-policy 100\n1 yeoul-policy 0\n2 yeoul-policy x\n"
    ));
    let answers: Vec<&str> = out.split("\n\n").collect();
    let lines: Vec<&str> = answers[6].trim_start_matches("= ").lines().collect();
    assert_eq!(answers[7], "?1 syntax error");
    assert_eq!(answers[8], "?2 syntax error");
    // 81 points less the four stones and the illegal A1.
    assert!(
        lines.len() >= 70 && lines.len() <= 77,
        "{} lines",
        lines.len()
    );
    let mut previous = f64::INFINITY;
    let mut sum = 0.0;
    let mut seen = std::collections::HashSet::new();
    for line in &lines {
        let (vertex, p) = line.split_once(' ').expect("VERTEX PROBABILITY");
        let p: f64 = p.parse().expect("a probability");
        assert!(p <= previous + 1e-9, "not best first: {line}");
        previous = p;
        sum += p;
        assert!(seen.insert(vertex.to_string()), "{vertex} twice");
        assert!(
            !["B1", "C5", "B2", "A2"].contains(&vertex),
            "{vertex} is occupied"
        );
    }
    assert!(sum <= 1.0 + 1e-3 && sum > 0.99, "sum {sum}");
    let top = session(&format!("{setup}yeoul-policy\n"));
    assert_eq!(
        top.split("\n\n").nth(6).map(|a| a.lines().count()),
        Some(20)
    );
}

#[test]
fn the_gogui_policy_drawing_shades_and_labels_moves() {
    let out = session("boardsize 9\nplay b E5\nyeoul-gfx_policy\ngogui-analyze_commands\n");
    let answers: Vec<&str> = out.split("\n\n").collect();
    assert!(answers[2].starts_with("= INFLUENCE "), "{}", answers[2]);
    assert!(answers[2].contains("\nLABEL "), "{}", answers[2]);
    assert!(
        answers[2].contains("\nTEXT learned policy: "),
        "{}",
        answers[2]
    );
    assert!(answers[3].contains("gfx/Policy/yeoul-gfx_policy"));
}

#[test]
fn at_level_max_the_policy_commands_answer_the_networks_probabilities() {
    let tiny = yeoul::network::Network::load(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/tiny-net.safetensors"
    )))
    .expect("the tiny network");
    let config = EngineConfig {
        level: Level::Max,
        threads: 1,
        playouts: Some(200),
        network: Some(std::sync::Arc::new(tiny)),
        ..EngineConfig::default()
    };
    let engine = Engine::new(BoardSize::NINETEEN, Ruleset::Chinese, config);
    let mut out = Vec::new();
    // Black A2 takes White A1: A1 is then a suicide for White, B1 and A2 occupied.
    // Then `hard`, a rank: on 19x19 it sees with the network, on 9x9 with the learned
    // model, and what it is shown with is what it sees with.
    let input = "play b B1\nplay w A1\nplay b Q16\nplay w B2\nplay b A2\nyeoul-policy 400\n\
                 yeoul-gfx_policy\nyeoul-difficulty hard\nyeoul-gfx_policy\n\
                 boardsize 9\nclear_board\nyeoul-gfx_policy\n";
    yeoul::gtp::run(engine, Cursor::new(input.as_bytes().to_vec()), &mut out);
    let out = String::from_utf8(out).expect("UTF-8");
    let answers: Vec<&str> = out.split("\n\n").collect();
    let lines: Vec<&str> = answers[5].trim_start_matches("= ").lines().collect();
    assert_eq!(lines.len(), 361 - 4 - 1, "every legal move, no other");
    let mut sum = 0.0;
    let mut previous = f64::MAX;
    for line in &lines {
        let (vertex, p) = line.split_once(' ').expect("VERTEX PROBABILITY");
        let p: f64 = p.parse().expect("a number");
        assert!(
            !["A1", "B1", "A2", "B2", "Q16"].contains(&vertex),
            "{vertex}"
        );
        assert!(p <= previous);
        previous = p;
        sum += p;
    }
    assert!((sum - 1.0).abs() < 0.01, "sum {sum}");
    assert!(
        answers[6].contains("\nTEXT policy network: "),
        "{}",
        answers[6]
    );
    assert!(
        answers[8].contains("\nTEXT policy network: "),
        "{}",
        answers[8]
    );
    assert!(
        answers[11].contains("\nTEXT learned policy: "),
        "{}",
        answers[11]
    );
}

#[test]
fn the_network_alone_plays_its_most_probable_move() {
    let tiny = yeoul::network::Network::load(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/tiny-net.safetensors"
    )))
    .expect("the tiny network");
    let config = EngineConfig {
        level: Level::EASY,
        threads: 1,
        network: Some(std::sync::Arc::new(tiny)),
        network_only: true,
        ..EngineConfig::default()
    };
    let engine = Engine::new(BoardSize::NINETEEN, Ruleset::Chinese, config);
    let mut out = Vec::new();
    let input = "play b Q16\nyeoul-policy 1\ngenmove w\nyeoul-policy 1\ngenmove b\nyeoul-stats\n";
    yeoul::gtp::run(engine, Cursor::new(input.as_bytes().to_vec()), &mut out);
    let out = String::from_utf8(out).expect("UTF-8");
    let answers: Vec<&str> = out.split("\n\n").collect();
    let top = |k: usize| {
        answers[k]
            .trim_start_matches("= ")
            .split(' ')
            .next()
            .unwrap_or("")
    };
    assert_eq!(answers[2], format!("= {}", top(1)));
    assert_eq!(answers[4], format!("= {}", top(3)));
    assert!(
        answers[5].contains("\"decision\":\"Network\""),
        "{}",
        answers[5]
    );
}

/// Asserts that GTP answer `k` of `answers` holds `text` (or, with `holds` false, not).
fn says(answers: &[String], k: usize, text: &str, holds: bool) {
    assert_eq!(
        answers[k].contains(text),
        holds,
        "{text:?} in {}",
        answers[k]
    );
}

/// A GTP session at `max` on 19x19 with the tiny network `file`, used on `sizes`.
fn network_session(file: &str, sizes: u32, input: &str) -> Vec<String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(file);
    let network = yeoul::network::Network::load(&path).expect("the tiny network");
    let config = EngineConfig {
        level: Level::Max,
        threads: 1,
        playouts: Some(200),
        network: Some(std::sync::Arc::new(network)),
        network_sizes: sizes,
        ..EngineConfig::default()
    };
    let engine = Engine::new(BoardSize::NINETEEN, Ruleset::Chinese, config);
    let mut out = Vec::new();
    yeoul::gtp::run(engine, Cursor::new(input.as_bytes().to_vec()), &mut out);
    let out = String::from_utf8(out).expect("UTF-8");
    out.split("\n\n").map(String::from).collect()
}

#[test]
fn a_network_of_every_size_is_used_on_the_sizes_it_is_turned_on_for() {
    let input = "boardsize 9\nclear_board\nyeoul-gfx_policy\ngenmove b\nyeoul-stats\n\
                 boardsize 19\nclear_board\nyeoul-gfx_policy\n";
    let nine_and_nineteen = 1 << 9 | 1 << 19;
    let answers = network_session("tiny-net-v2.safetensors", nine_and_nineteen, input);
    says(&answers, 2, "\nTEXT policy network: ", true);
    says(&answers, 4, "\"network_evaluations\":", true);
    says(&answers, 4, "\"network_evaluations\":0", false);
    says(&answers, 7, "\nTEXT policy network: ", true);
    // Not on 9x9 unless turned on for it; a network of one size (version 1) never.
    let answers = network_session("tiny-net-v2.safetensors", 1 << 19, input);
    says(&answers, 2, "\nTEXT learned policy: ", true);
    says(&answers, 4, "\"network_evaluations\":0", true);
    says(&answers, 7, "\nTEXT policy network: ", true);
    let answers = network_session("tiny-net.safetensors", nine_and_nineteen, input);
    says(&answers, 2, "\nTEXT learned policy: ", true);
    says(&answers, 7, "\nTEXT policy network: ", true);
}
