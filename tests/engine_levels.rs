//! The engine's levels and search parameters as the user meets them (RULES.md §8):
//! deterministic searches give the same move on any thread count, a level keeps to its
//! thinking time, a clock is never overrun, `easy` never resigns and `normal` resigns
//! when there is no hope.
//!
//! The time limits are generous (a second over the level's time per move): the machine
//! running the tests may be busy.

mod common;

use common::positions::{fixed_params, game_from, name};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use yeoul::engine::{Engine, EngineConfig, Level, Reply};
use yeoul::rules::Color::{self, Black, White};
use yeoul::rules::{BoardSize, Game, Move, Ruleset};
use yeoul::search::policy::PlayoutPolicy;
use yeoul::search::time::TimeControl;
use yeoul::search::{Search, SearchResult};

/// Slack over a level's thinking time for one genmove.
const MARGIN: Duration = Duration::from_secs(1);

/// A quiet middle game on 9x9, Black to move.
const MIDDLE_GAME: &str = "
    . . . . . . . . .
    . . O O . X . . .
    . . O X X . X . .
    . O X . . . . . .
    . . O X . . O . .
    . . . O X X O . .
    . . . O . X O . .
    . . . . . . . . .
    . . . . . . . . .
";

/// A capturing race on 9x9 (White's D1-D4 against Black's E1-E4, two liberties each),
/// Black to move.
const RACE: &str = "
    . X . X X O . O .
    X X X X X O O O O
    . X . X X O . O .
    X X X X X O O O O
    . X X X O O . O .
    X X X O X O O O O
    . X X O X O . O .
    X X . O X . O O O
    . X . O X . O . O
";

/// Black owns the whole board but for a few points in the middle, where White can
/// still play: White cannot win whatever happens.
const HOPELESS_FOR_WHITE: &str = "
    . X . X . X . X .
    X X X X X X X X X
    . X . X . X . X .
    X X X X X X X X X
    X X X . . . X X X
    X X X X . X X X X
    . X . X X X . X .
    X X X X X X X X X
    . X . X . X . X .
";

/// A deterministic search (independent trees merged at the root) of `playouts`.
fn deterministic_search(game: &Game, color: Color, threads: usize, playouts: u64) -> SearchResult {
    let mut params = fixed_params(game.size(), playouts, 2024);
    params.deterministic = true;
    params.threads = threads;
    Search::new(PlayoutPolicy::heavy())
        .run(game, color, &params, &AtomicBool::new(false))
        .expect("search threads")
}

/// Root moves with their visits, most visited first.
fn visits(result: &SearchResult) -> Vec<(Move, u32)> {
    result.candidates.iter().map(|c| (c.mv, c.visits)).collect()
}

fn engine(level: Level) -> Engine {
    engine_of_size(BoardSize::NINE, level)
}

fn engine_of_size(size: BoardSize, level: Level) -> Engine {
    let config = EngineConfig {
        level,
        threads: 2,
        ..Default::default()
    };
    Engine::new(size, Ruleset::Chinese, config)
}

/// Plays `moves` genmoves, colours alternating from Black, and returns each one's
/// colour, reply and wall time.
fn timed_genmoves(engine: &mut Engine, moves: usize) -> Vec<(Color, Reply, Duration)> {
    let stop = AtomicBool::new(false);
    (0..moves)
        .map(|k| {
            let color = if k % 2 == 0 { Black } else { White };
            let started = Instant::now();
            let reply = engine.genmove(color, &stop).expect("a move");
            (color, reply, started.elapsed())
        })
        .collect()
}

/// Asserts that each of `moves` genmoves at `level` on an empty board stays within the
/// level's time plus `MARGIN`.
fn stays_within_its_time(size: BoardSize, level: Level, moves: usize) {
    let limit = level.settings().time + MARGIN;
    let mut engine = engine_of_size(size, level);
    for (k, (color, reply, took)) in timed_genmoves(&mut engine, moves).into_iter().enumerate() {
        eprintln!("{level} move {k}: {reply:?} in {took:?}");
        assert!(
            took < limit,
            "{level} move {k} ({color:?}, {reply:?}) took {took:?}, limit {limit:?}"
        );
        assert_ne!(reply, Reply::Resign, "{level} resigned on an even board");
    }
    assert_eq!(engine.game().record().len(), moves);
}

/// Two genmoves for White in `HOPELESS_FOR_WHITE` at `level`, Black passing in between.
fn white_replies_when_hopeless(level: Level) -> [Reply; 2] {
    let mut engine = engine(level);
    *engine.game_mut() = game_from(HOPELESS_FOR_WHITE, White, 7.5);
    let stop = AtomicBool::new(false);
    let first = engine.genmove(White, &stop).expect("a move");
    assert_ne!(
        first,
        Reply::Move(Move::Pass),
        "{level}: White passed first"
    );
    engine
        .game_mut()
        .play(Black, Move::Pass)
        .expect("a pass is always legal");
    let second = engine.genmove(White, &stop).expect("a move");
    [first, second]
}

#[test]
fn the_same_seed_and_budget_give_the_same_search_on_one_and_two_threads() {
    let positions = [
        (Game::new(BoardSize::NINE, Ruleset::Chinese), Black),
        (game_from(MIDDLE_GAME, Black, 7.5), Black),
        (game_from(MIDDLE_GAME, White, 7.5), White),
        (game_from(RACE, Black, 4.5), Black),
    ];
    for (game, color) in &positions {
        let one = deterministic_search(game, *color, 1, 3_000);
        let two = deterministic_search(game, *color, 2, 3_000);
        let size = game.size();
        assert_eq!(
            one.best,
            two.best,
            "{color:?}: {} on one thread, {} on two",
            name(size, one.best),
            name(size, two.best)
        );
        assert_eq!(
            visits(&one),
            visits(&two),
            "{color:?}: the root visits differ"
        );
        assert_eq!(one.stats.playouts, 3_000);
        assert_eq!(two.stats.playouts, 3_000);
    }
}

#[test]
fn deterministic_engines_play_the_same_game_on_one_and_two_threads() {
    let play = |threads: usize| {
        let config = EngineConfig {
            level: Level::NORMAL,
            threads,
            playouts: Some(2_000),
            seed: 99,
            deterministic: true,
            ..Default::default()
        };
        let mut engine = Engine::new(BoardSize::NINE, Ruleset::Chinese, config);
        let stop = AtomicBool::new(false);
        let replies: Vec<Reply> = (0..6)
            .map(|k| {
                engine
                    .genmove(if k % 2 == 0 { Black } else { White }, &stop)
                    .expect("a move")
            })
            .collect();
        replies
    };
    assert_eq!(play(1), play(2));
}

#[test]
fn easy_keeps_to_its_time_over_a_sequence_of_moves() {
    stays_within_its_time(BoardSize::NINE, Level::EASY, 8);
}

#[test]
fn normal_keeps_to_its_time_over_a_sequence_of_moves() {
    stays_within_its_time(BoardSize::NINE, Level::NORMAL, 8);
}

/// On 19x19 the playout cap is further away, so the time limit is what stops `normal`.
#[test]
fn normal_keeps_to_its_time_on_the_big_board() {
    stays_within_its_time(BoardSize::NINETEEN, Level::NORMAL, 2);
}

#[test]
fn hard_keeps_to_its_time_over_two_moves() {
    stays_within_its_time(BoardSize::NINE, Level::HARD, 2);
}

/// `hard` would think 2.8 s a move: under a 3 s sudden-death clock it must share it out.
#[test]
fn a_sequence_of_moves_never_spends_more_than_the_main_time() {
    let main = Duration::from_secs(3);
    let mut engine = engine(Level::HARD);
    engine.set_time_control(TimeControl::Absolute { main });
    let moves = timed_genmoves(&mut engine, 16);
    for (color, reply, took) in &moves {
        eprintln!("{color:?}: {reply:?} in {took:?}");
    }
    for color in [Black, White] {
        let spent: Duration = moves
            .iter()
            .filter(|(c, ..)| *c == color)
            .map(|(.., took)| *took)
            .sum();
        assert!(spent < main, "{color:?} spent {spent:?} of {main:?}");
        let left = engine.clock_mut(color).left;
        assert!(left > Duration::ZERO, "{color:?}'s clock ran out");
    }
    assert!(moves.iter().all(|(_, reply, _)| *reply != Reply::Resign));
}

#[test]
fn easy_never_resigns_even_when_hopeless() {
    assert_eq!(Level::EASY.settings().resign_below, None);
    for reply in white_replies_when_hopeless(Level::EASY) {
        assert_ne!(reply, Reply::Resign);
    }
}

#[test]
fn normal_resigns_when_hopeless() {
    assert!(Level::NORMAL.settings().resign_below.is_some());
    let [_, second] = white_replies_when_hopeless(Level::NORMAL);
    assert_eq!(second, Reply::Resign);
}
