//! The engine's levels and search parameters as the user meets them (RULES.md §8):
//! deterministic searches give the same move on any thread count, a level keeps to its
//! thinking time, a clock is never overrun, `easy` never resigns and `normal` resigns
//! when there is no hope.
//!
//! The time limits are generous (a second over the level's time per move): the machine
//! running the tests may be busy.

mod common;

use common::positions::{MIDDLE_GAME, fixed_params, game_from, name};
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

/// An engine at `level` on 19x19, one thread, seeded, thinking at most 0.3 s a move (the
/// rank's sight, not its time, is what these tests check).
fn rank_engine(level: Level, seed: u64) -> Engine {
    let config = EngineConfig {
        level,
        threads: 1,
        seed,
        time: Some(Duration::from_millis(300)),
        ..Default::default()
    };
    Engine::new(BoardSize::NINETEEN, Ruleset::Chinese, config)
}

#[test]
fn the_weakest_rank_opens_on_the_third_line_or_higher() {
    let weakest: Level = "18k".parse().expect("18k on the scale");
    for seed in 1..=6 {
        let mut engine = rank_engine(weakest, seed);
        let reply = engine
            .genmove(Black, &AtomicBool::new(false))
            .expect("a move");
        let Reply::Move(Move::Play(p)) = reply else {
            panic!("seed {seed}: {reply:?}");
        };
        let (col, row) = BoardSize::NINETEEN.col_row(p);
        let line = 1 + col.min(row).min(18 - col).min(18 - row);
        assert!(
            line >= 3,
            "seed {seed}: {} on line {line}",
            name(BoardSize::NINETEEN, Move::Play(p))
        );
    }
}

/// A 9-dan game (Tom, 2011) at move 89: White's chain of D9-D10-E10 and C9 area is in
/// atari, and the network gives its rescue, F10, 0.68 of its mass.
const WHITE_TO_RESCUE: &str = "BQ16 WD4 BQ3 WD16 BF3 WC6 BK4 WR6 BR4 WR9 BR11 WP9 BQ8 WQ9 BD3 WC3 \
    BC2 WE3 BD2 WE4 BE2 WF4 BG4 WB3 BG5 WR14 BQ14 WQ13 BR13 WQ15 BP14 WR16 BP15 WR15 BR17 WS13 \
    BR12 WQ17 BP16 WR18 BS17 WS18 BS14 WS15 BP17 WQ18 BO11 WP6 BN4 WG17 BC11 WC9 BC16 WC17 BC15 \
    WB17 BD15 WE16 BJ17 WP18 BO18 WN18 BN17 WO19 BO17 WJ16 BK16 WH16 BK15 WC13 BC7 WC8 BD7 WB7 \
    BB6 WB5 BC10 WD12 BB8 WA6 BB9 WE8 BD8 WD9 BE9 WD10 BD11 WE10 BE11";

#[test]
fn every_rank_rescues_a_large_group_the_policy_says_to_rescue() {
    let size = BoardSize::NINETEEN;
    let at = |name: &str| size.parse_point(name).expect("a point");
    let position = |level: Level, seed: u64| {
        let mut engine = rank_engine(level, seed);
        for token in WHITE_TO_RESCUE.split_whitespace() {
            let color = if token.starts_with('B') { Black } else { White };
            let p = at(&token[1..]);
            engine
                .game_mut()
                .play(color, Move::Play(p))
                .expect("a legal move");
        }
        engine
    };
    // The precondition: a large group in atari, and the policy's mass on its rescue.
    let judge = position(Level::MAX, 1);
    let board = judge.game().board();
    assert!(board.is_in_atari(at("E10")) && board.chain_size(at("E10")) >= 3);
    let policy = judge.policy(White).expect("the network");
    let rescue = policy
        .iter()
        .find(|&&(p, _)| p == at("F10"))
        .expect("F10 is legal");
    assert!(rescue.1 >= 0.5, "the network gives F10 {}", rescue.1);
    for level in Level::all().filter(|level| level.rank().is_some()) {
        let mut engine = position(level, 7);
        let reply = engine
            .genmove(White, &AtomicBool::new(false))
            .expect("a move");
        assert_eq!(reply, Reply::Move(Move::Play(at("F10"))), "{level}");
    }
}

#[test]
fn no_rank_weaker_than_normal_resigns() {
    for level in Level::all().take_while(|&l| l != Level::NORMAL) {
        assert_eq!(level.settings().resign_below, None, "{level}");
    }
    let weakest: Level = "18k".parse().expect("18k on the scale");
    for reply in white_replies_when_hopeless(weakest) {
        assert_ne!(reply, Reply::Resign);
    }
}
