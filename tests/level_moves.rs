//! What every level plays with a fixed budget (`--playouts N --deterministic`, one thread,
//! a fixed seed) on a few positions, against the record in `tests/data/level-moves.txt`:
//! reshaping the engine's parts or the level table must not change a level's moves
//! (issue 60). After a change meant to change them, write the record anew with
//! `YEOUL_RECORD_LEVEL_MOVES=1 cargo test --test level_moves` and say why in the commit.

mod common;

use common::positions::{MIDDLE_GAME, game_from, name};
use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;
use yeoul::engine::{Engine, EngineConfig, Level, Reply};
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

/// Three moves in a row (each after the first on the tree kept from the one before) of `level` from `game`.
fn moves_of(level: Level, game: &Game) -> String {
    let config = EngineConfig {
        level,
        threads: 1,
        playouts: Some(800),
        deterministic: true,
        seed: 6001,
        ..Default::default()
    };
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
