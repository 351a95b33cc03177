//! What every level plays with a fixed budget (`--playouts N --deterministic`, one thread,
//! a fixed seed) on a few positions, against the record in `tests/data/level-moves.txt`:
//! reshaping the engine's parts or the level table must not change a level's moves
//! (issue 60). After a change meant to change them, write the record anew with
//! `YEOUL_RECORD_LEVEL_MOVES=1 cargo test --test level_moves` and say why in the commit.

mod common;

use common::positions::{MIDDLE_GAME, game_from, name};
use safetensors::tensor::TensorView;
use safetensors::{Dtype, SafeTensors};
use std::fmt::Write as _;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use yeoul::engine::{Engine, EngineConfig, Level, Reply};
use yeoul::network::{Network, VALUE_VERSION, crc32};
use yeoul::rules::Color::{Black, White};
use yeoul::rules::{Color, Game, Ruleset};
use yeoul::sgf::{Until, read_game};

const RECORD: &str = "tests/data/level-moves.txt";

/// A 19x19 game between GNU Go and `easy` (`passing.rs`'s position, earlier and later).
const GAME_19: &str = include_str!("data/easy-passed-at-move-200.sgf");

/// 13x13: Black's walls, White's corner, the upper side open.
const OPEN_13: &str = "
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . O . . . . . . X . .
    . . . . . . . . . . . . .
    X X X X X X X X X X X X X
    . X . X . X . X . X . X .
    X X X X X X X X X X X X X
    . X . X . X . X . X X X X
    X X X X X X X X X X O O O
    . X . X . X . X . X O . O
    X X X X X X X X X X O O O
    . X . X . X . X . X O . O
    X X X X X X X X X X O O O
";

fn positions() -> Vec<(&'static str, Game)> {
    let at = |n| read_game(GAME_19, Ruleset::Chinese, Until::MoveNumber(n)).expect("the record");
    vec![
        ("9x9-middle", game_from(MIDDLE_GAME, Black, 7.0)),
        ("13x13-open", game_from(OPEN_13, White, 7.5)),
        ("19x19-move-12", at(12)),
        ("19x19-move-40", at(40)),
        ("19x19-move-200", at(200)),
    ]
}

/// The settings the record was played with.
fn recorded_config(level: Level) -> EngineConfig {
    EngineConfig {
        level,
        threads: 1,
        playouts: Some(800),
        deterministic: true,
        seed: 6001,
        ..Default::default()
    }
}

/// Three moves in a row (each after the first on the tree kept from the one before) of `level` from `game`.
fn moves_of(level: Level, game: &Game) -> String {
    moves_with(recorded_config(level), game)
}

/// Three moves in a row of the engine `config` makes from `game`.
fn moves_with(config: EngineConfig, game: &Game) -> String {
    let mut engine = Engine::new(game.size(), game.ruleset(), config);
    *engine.game_mut() = game.clone();
    let stop = AtomicBool::new(false);
    let mut color: Color = game.to_move();
    let mut moves = Vec::new();
    for _ in 0..3 {
        let reply = engine.genmove(color, &stop).expect("a move");
        moves.push(match reply {
            Reply::Move(mv) => name(game.size(), mv),
            Reply::Resign => "resign".into(),
        });
        if reply == Reply::Resign {
            break;
        }
        color = if color == Black { White } else { Black };
    }
    moves.join(" ")
}

fn played() -> String {
    let mut text = String::new();
    for (position, game) in positions() {
        for level in Level::all() {
            let moves = moves_of(level, &game);
            writeln!(text, "{position} {level} {moves}").expect("a string");
        }
    }
    text
}

/// The built-in network with a value head of arbitrary weights added (version 3).
fn builtin_with_a_value_head() -> Network {
    let shipped = include_bytes!("../models/policy.safetensors");
    let file = SafeTensors::deserialize(shipped).expect("the built-in network");
    let (_, header) = SafeTensors::read_metadata(shipped).expect("its header");
    let mut metadata = header.metadata().clone().expect("its metadata");
    let filters: usize = metadata["filters"].parse().expect("filters");
    let mut tensors: Vec<(String, Vec<usize>, Vec<u8>)> = file
        .tensors()
        .into_iter()
        .map(|(name, view)| (name, view.shape().to_vec(), view.data().to_vec()))
        .collect();
    let mut state = 5u32;
    let mut arbitrary = |shape: Vec<usize>, around: f32| -> (Vec<usize>, Vec<u8>) {
        let count: usize = shape.iter().product();
        let bytes = (0..count).flat_map(|_| {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (around + (state >> 8) as f32 / (1u32 << 24) as f32 - 0.5).to_le_bytes()
        });
        (shape, bytes.collect())
    };
    let hidden = 32;
    for (name, shape, around) in [
        ("value.input_mean", vec![2 * filters], 0.0),
        ("value.input_scale", vec![2 * filters], 2.0),
        ("value.fc1.weight", vec![2 * filters, hidden], 0.0),
        ("value.fc1.bias", vec![hidden], 0.0),
        ("value.fc2.weight", vec![hidden], 0.0),
        ("value.fc2.bias", vec![1], 0.0),
    ] {
        let (shape, bytes) = arbitrary(shape, around);
        tensors.push((name.to_string(), shape, bytes));
    }
    tensors.sort();
    let crc = tensors.iter().fold(0, |crc, t| crc32(crc, &t.2));
    metadata.insert("crc32".into(), format!("{crc:08x}"));
    metadata.insert("version".into(), VALUE_VERSION.into());
    let views = tensors.iter().map(|(name, shape, data)| {
        let view = TensorView::new(Dtype::F32, shape.clone(), data).expect("a tensor");
        (name.clone(), view)
    });
    let bytes = safetensors::serialize(views, Some(metadata)).expect("serialised");
    Network::from_bytes(&bytes).expect("the built-in network with a value head")
}

// With its weight at 0, a value head changes nothing: the strongest levels play the
// recorded moves on 19x19 (where the value applies) with it.
#[test]
fn a_value_head_at_weight_0_changes_no_move() {
    let network = Arc::new(builtin_with_a_value_head());
    assert!(network.has_value());
    let recorded = std::fs::read_to_string(RECORD).expect("tests/data/level-moves.txt");
    let mut checked = 0;
    for (position, game) in positions()
        .into_iter()
        .filter(|(_, g)| g.size().get() == 19)
    {
        for level in [Level::MAX, Level::HARD] {
            let config = EngineConfig {
                network: Some(network.clone()),
                value_visits: 0,
                ..recorded_config(level)
            };
            let line = format!("{position} {level} {}", moves_with(config, &game));
            assert!(
                recorded.lines().any(|l| l == line),
                "{line} is not recorded"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 6);
}

#[test]
fn every_level_plays_the_recorded_moves() {
    let now = played();
    if std::env::var_os("YEOUL_RECORD_LEVEL_MOVES").is_some() {
        std::fs::write(RECORD, &now).expect("the record written");
        return;
    }
    let recorded = std::fs::read_to_string(RECORD).expect("tests/data/level-moves.txt");
    let changed: Vec<String> = recorded
        .lines()
        .zip(now.lines())
        .filter(|(was, is)| was != is)
        .map(|(was, is)| format!("recorded {was:?}, played {is:?}"))
        .collect();
    assert_eq!(recorded.lines().count(), now.lines().count(), "{now}");
    assert!(changed.is_empty(), "{}", changed.join("\n"));
}
