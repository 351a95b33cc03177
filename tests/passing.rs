//! When a level passes (RULES.md §8; the pass judge, `src/engine/passing.rs`): `easy` and
//! the ranks that never resign play on however far behind, a level's move is never a
//! drawn pass, neutral points are filled before passing, and a level passes first only
//! where nothing changes the count or, from `normal` up, far ahead.

mod common;

use common::positions::{game_from, mv};
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use yeoul::engine::{Engine, EngineConfig, Level, Reply};
use yeoul::rules::Color::{Black, White};
use yeoul::rules::{Color, Game, Move, Ruleset};
use yeoul::sgf::{Until, read_game};

/// A game `easy` lost to GNU Go 3.8 (level 10, `--chinese-rules`), where at move 200 it
/// passed as White with a third of the board open, about 40 points behind.
const EASY_PASSED: &str = include_str!("data/easy-passed-at-move-200.sgf");

/// An engine at `level` with `game` on the board, one thread, seeded, thinking at most
/// `ms` a move.
fn engine(level: Level, seed: u64, game: Game, ms: u64) -> Engine {
    let config = EngineConfig {
        level,
        threads: 1,
        seed,
        time: Some(Duration::from_millis(ms)),
        ..Default::default()
    };
    let mut engine = Engine::new(game.size(), game.ruleset(), config);
    *engine.game_mut() = game;
    engine
}

fn genmove(engine: &mut Engine, color: Color) -> Reply {
    engine
        .genmove(color, &AtomicBool::new(false))
        .expect("a move")
}

#[test]
fn easy_and_18k_play_on_where_easy_passed_at_move_200() {
    let game =
        read_game(EASY_PASSED, Ruleset::Chinese, Until::MoveNumber(200)).expect("the game record");
    assert_eq!(game.record().len(), 199);
    assert_eq!(game.to_move(), White);
    let weakest: Level = "18k".parse().expect("a rank");
    for level in [Level::EASY, weakest] {
        for seed in 1..=50 {
            let reply = genmove(&mut engine(level, seed, game.clone(), 300), White);
            assert!(
                matches!(reply, Reply::Move(Move::Play(_))),
                "{level} seed {seed}: {reply:?}"
            );
        }
    }
}

/// 13x13, White to move, about 60 points behind (Black's wall and territory, White's
/// small corner) with the upper side still open.
const FAR_BEHIND: &str = "
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
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

#[test]
fn far_behind_with_open_regions_no_level_passes() {
    let game = game_from(FAR_BEHIND, White, 7.5);
    for level in Level::all() {
        let reply = genmove(&mut engine(level, 3, game.clone(), 300), White);
        eprintln!("{level}: {reply:?}");
        let resigns = level.settings().resign_below.is_some();
        let fine = match reply {
            Reply::Move(Move::Play(_)) => true,
            Reply::Resign => resigns,
            _ => false,
        };
        assert!(fine, "{level}: {reply:?}");
    }
}

/// 9x9, Black to move, every group alive and every point owned but E5, a neutral point
/// between Black's D5 and White's F5: Black wins by 0.5 without it (komi 7.5), by 1.5
/// with it, and White would win by 0.5 filling it.
const ONE_DAME: &str = "
    . X . X X O . O .
    X X X X X O O O O
    . X . X X O . O .
    X X X X X O O O O
    . X . X . O . O .
    X X X X X O O O O
    . X . X X O . O .
    X X X X X O O O O
    . X . X X O . O .
";

#[test]
fn the_last_neutral_point_is_filled_before_passing_and_then_each_level_passes() {
    let game = game_from(ONE_DAME, Black, 7.5);
    let dame = mv(&game, "E5");
    let mut settled = game.clone();
    settled.play(Black, dame).expect("E5 is legal");
    for level in Level::all() {
        let reply = genmove(&mut engine(level, 5, game.clone(), 400), Black);
        assert_eq!(reply, Reply::Move(dame), "{level}");
        // Nothing left: White, behind by 1.5, passes (a level that resigns does so only
        // on its second hopeless move).
        let reply = genmove(&mut engine(level, 5, settled.clone(), 400), White);
        assert_eq!(reply, Reply::Move(Move::Pass), "{level} as White");
    }
}

/// 9x9, Black to move and far ahead (65 points to 16), everything settled: Black's wall
/// with its eyes, White's two groups on the right with two eyes each, and Black's H5-J5
/// joined to the wall through G5.
const FAR_AHEAD: &str = "
    . X . X . X X O .
    X X X X X X X O O
    . X . X . X X O .
    X X X X X X X O O
    . X . X . X X X X
    X X X X X X X O O
    . X . X . X X O .
    X X X X X X X O O
    . X . X . X X O .
";

/// The same with G5 open: Black's H5-J5 in atari, to be joined before anything else.
const FAR_AHEAD_IN_ATARI: &str = "
    . X . X . X X O .
    X X X X X X X O O
    . X . X . X X O .
    X X X X X X X O O
    . X . X . X . X X
    X X X X X X X O O
    . X . X . X X O .
    X X X X X X X O O
    . X . X . X X O .
";

#[test]
fn normal_far_ahead_passes_first_but_not_with_a_chain_in_atari() {
    let settled = game_from(FAR_AHEAD, Black, 7.5);
    let reply = genmove(&mut engine(Level::NORMAL, 1, settled, 1200), Black);
    assert_eq!(reply, Reply::Move(Move::Pass));
    let in_atari = game_from(FAR_AHEAD_IN_ATARI, Black, 7.5);
    let g5 = mv(&in_atari, "G5");
    let reply = genmove(&mut engine(Level::NORMAL, 1, in_atari, 1200), Black);
    assert_eq!(reply, Reply::Move(g5));
}
